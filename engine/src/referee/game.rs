//! One refereed game: the rules of [`bitboards::phantom::Referee`] (never rewritten
//! here) with what a referee's table adds around them: the two timers of rule 8, the
//! capture removals each side confirms, the one recovery per side of rules 4 and 9,
//! the stop proposal of rule 11, and the dead stones the referee marks at the end
//! (rules 7 and 10).
//!
//! Every action takes the time `now` from its caller, so the tests drive the timers
//! with made-up times. An action that is refused returns an error and changes nothing.

use bitboards::go::{Color, Move, bits};
use bitboards::phantom::{Answer, EndReason, PhantomConfig, PhantomResult, Referee, SIZE};
use serde::{Deserialize, Serialize};

pub use super::clock::Millis;
use super::clock::{Clocks, RECOVERY_PENALTY};

/// How long after an erroneous try a recovery may undo it (rule 4: 3 minutes).
pub const RECOVERY_WINDOW: Millis = 3 * 60 * 1000;

/// Who asks for an action: the referee or one side's page (or its engine seat).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    /// The referee's page.
    Referee,
    /// A player's page or engine seat.
    Player(Color),
}

/// One try as recorded: the try, who made it and when it was answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TryEntry {
    /// The try as a GTP vertex or `pass`.
    pub mv: String,
    /// When it was answered.
    pub at: Millis,
}

/// Something the try log shows besides tries (a recovery, a proposal, a removal).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// When.
    pub at: Millis,
    /// Tries answered before it (where it stands in the try log).
    pub after: usize,
    /// What happened.
    pub text: String,
    /// Told to both players (a proposal, its answers, the result) or only to the referee.
    pub public: bool,
    /// How many notices each side (black, white) had been sent before it (where it
    /// stands in a player's log).
    #[serde(default)]
    pub notices: [usize; 2],
}

/// The rule-11 proposal while the sides answer it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// Each side's answer so far (black, white): accepted or refused.
    pub answers: [Option<bool>; 2],
}

/// The whole state of a refereed game, everything the record keeps.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameState {
    /// Komi.
    pub komi: f64,
    /// Every try in order.
    pub tries: Vec<TryEntry>,
    /// The timers.
    pub clocks: Clocks,
    /// Whether each side has used its one recovery.
    pub recovered: [bool; 2],
    /// Each side's captured stones it has not yet confirmed removing (a point set).
    pub removal_pending: [u128; 2],
    /// The rule-11 proposal being answered.
    pub proposal: Option<Proposal>,
    /// Both sides accepted the referee's proposal to stop.
    pub stopped: bool,
    /// The dead stones marked at the end (the engine's judgement, then the referee's
    /// toggles).
    pub dead: u128,
    /// The referee confirmed the count: the result is final.
    pub confirmed: bool,
    /// Each side's time for the game (`None`: the timers only count).
    #[serde(default)]
    pub time_limit: Option<Millis>,
    /// The side the referee declared lost on time (rule 11: play goes on "until both
    /// pass or one side runs out of time").
    #[serde(default)]
    pub lost_on_time: Option<usize>,
    /// The log's other entries.
    pub events: Vec<Event>,
}

/// A refereed game: the state and the referee it rebuilds.
#[derive(Clone, Debug)]
pub struct Game {
    state: GameState,
    referee: Referee,
    /// Whether dead stones were judged for the current end (set once at the end).
    judged: bool,
}

/// The answer to a try, as the pages show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TryOutcome {
    /// Who tried.
    pub color: Color,
    /// The try.
    pub mv: Move,
    /// The referee's answer.
    pub answer: Answer,
}

impl Game {
    /// A new game, black's timer started at `now`, each side with `time_limit` for the
    /// game (or none).
    pub fn with_time(komi: f64, time_limit: Option<Millis>, now: Millis) -> Game {
        let mut g = Game::new(komi, now);
        g.state.time_limit = time_limit;
        g
    }

    /// A new game, black's timer started at `now`.
    pub fn new(komi: f64, now: Millis) -> Game {
        let mut clocks = Clocks::default();
        clocks.start(0, now);
        let state = GameState {
            komi,
            tries: Vec::new(),
            clocks,
            recovered: [false; 2],
            removal_pending: [0; 2],
            proposal: None,
            stopped: false,
            dead: 0,
            confirmed: false,
            time_limit: None,
            lost_on_time: None,
            events: Vec::new(),
        };
        Game { referee: Referee::new(config(komi)), state, judged: false }
    }

    /// The game of a saved state (its tries replayed through the referee); the running
    /// timer restarts at `now` (the time the server was down is nobody's).
    pub fn from_state(mut state: GameState, now: Millis) -> Result<Game, String> {
        let referee = replay(state.komi, &state.tries, state.stopped)?;
        state.clocks.restart_at(now);
        let judged = referee.is_over();
        Ok(Game { state, referee, judged })
    }

    /// The saved state.
    pub fn state(&self) -> &GameState {
        &self.state
    }
    /// The referee (the full board: the referee's page only).
    pub fn referee(&self) -> &Referee {
        &self.referee
    }
    /// True once the game ended (two passes, an agreed stop, a loss on time).
    pub fn is_over(&self) -> bool {
        self.referee.is_over() || self.state.lost_on_time.is_some()
    }
    /// The count with the dead stones marked now (`None` while play goes on, and after
    /// a loss on time: no count decides it).
    pub fn result(&self) -> Option<PhantomResult> {
        if self.state.lost_on_time.is_some() {
            return None;
        }
        self.referee.result(self.state.dead)
    }
    /// The result as text: the count's (`B+3.5`) or a loss on time (`W+T`).
    pub fn result_text(&self) -> Option<String> {
        match self.state.lost_on_time {
            Some(0) => Some("W+T".into()),
            Some(_) => Some("B+T".into()),
            None => self.result().map(|r| r.text()),
        }
    }
    /// The time `side` has left at `now` (negative past its limit), if there is a limit.
    pub fn time_left(&self, side: Color, now: Millis) -> Option<i64> {
        let limit = self.state.time_limit?;
        Some(limit as i64 - self.state.clocks.total(side.index(), now) as i64)
    }

    /// The referee declares `side` lost on time: only once its time is used up.
    pub fn lose_on_time(&mut self, side: Color, now: Millis) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is already over".into());
        }
        let Some(left) = self.time_left(side, now) else {
            return Err("this game has no time limit (--time)".into());
        };
        if left > 0 {
            return Err(format!("{} has {} s left", name(side), left / 1000));
        }
        self.state.clocks.stop(now);
        self.state.lost_on_time = Some(side.index());
        self.state.proposal = None;
        self.state.removal_pending = [0; 2];
        self.event(now, format!("{} loses on time", name(side)), true);
        Ok(())
    }

    /// Rule 11's question, for the referee only: the dead stones sente's judgement
    /// finds on the full board now and the result if the game stopped now.
    pub fn judgement(&self) -> (u128, PhantomResult) {
        let dead = crate::games::phantom::referee_dead(&self.referee);
        let result = PhantomResult::judge(self.referee.rules(), EndReason::Agreement, self.referee.score(dead));
        (dead, result)
    }

    /// Answers a try by the side to move. Refused (and nothing changes) when the game
    /// is over, a player tries out of turn, the mover has not confirmed removing its
    /// captured stones, or the proposal to stop is being answered.
    pub fn try_move(&mut self, actor: Actor, mv: Move, now: Millis) -> Result<TryOutcome, String> {
        if self.is_over() {
            return Err("the game is over: no more tries".into());
        }
        let color = self.referee.to_move();
        if let Actor::Player(c) = actor
            && c != color
        {
            return Err(format!("it is {}'s turn, not {}'s", name(color), name(c)));
        }
        if self.state.removal_pending[color.index()] != 0 {
            return Err(format!("{} must first confirm removing its captured stones", name(color)));
        }
        if self.state.proposal.is_some() {
            return Err("the referee's proposal to stop is being answered: no tries until both sides answer".into());
        }
        let answer = self.referee.try_move(mv).map_err(|e| e.to_string())?;
        self.state.tries.push(TryEntry { mv: mv.to_gtp(SIZE), at: now });
        if let Answer::Legal { captured } = answer
            && captured != 0
        {
            self.state.removal_pending[color.other().index()] |= captured;
        }
        if answer.ends_turn() {
            self.state.clocks.start(color.other().index(), now);
        }
        self.after_change(now);
        Ok(TryOutcome { color, mv, answer })
    }

    /// `color` confirms it removed its captured stones from its own board.
    pub fn confirm_removal(&mut self, actor: Actor, color: Color, now: Millis) -> Result<(), String> {
        if let Actor::Player(c) = actor
            && c != color
        {
            return Err(format!("{} cannot confirm {}'s removal", name(c), name(color)));
        }
        let points = self.state.removal_pending[color.index()];
        if points == 0 {
            return Err(format!("{} has no captured stones to remove", name(color)));
        }
        self.state.removal_pending[color.index()] = 0;
        let by = if actor == Actor::Referee { " (entered by the referee)" } else { "" };
        self.event(now, format!("{} removed {} captured stone(s){by}", name(color), points.count_ones()), false);
        Ok(())
    }

    /// Rule 4/9: undoes every try from number `from` (1-based, as the log numbers them)
    /// on, once per side, within 3 minutes of that try, with the 4-minute penalty on
    /// `side`'s timer.
    pub fn recover(&mut self, side: Color, from: usize, now: Millis) -> Result<(), String> {
        let i = side.index();
        if self.state.confirmed {
            return Err("the result is confirmed: nothing can be recovered".into());
        }
        if self.state.recovered[i] {
            return Err(format!("{} has already used its one recovery (rule 4)", name(side)));
        }
        let n = self.state.tries.len();
        if from == 0 || from > n {
            return Err(format!("try {from} does not exist: the tries are numbered 1 to {n}"));
        }
        let first = &self.state.tries[from - 1];
        if now.saturating_sub(first.at) > RECOVERY_WINDOW {
            return Err(format!("try {from} is more than 3 minutes old: too late to recover (rule 4)"));
        }
        let kept = &self.state.tries[..from - 1];
        let referee = replay(self.state.komi, kept, false)?;
        let undone = n - (from - 1);
        self.state.clocks.stop(now);
        self.state.tries.truncate(from - 1);
        self.referee = referee;
        self.state.recovered[i] = true;
        self.state.clocks.penalize(i, RECOVERY_PENALTY);
        self.state.removal_pending = [0; 2];
        self.state.proposal = None;
        self.state.stopped = false;
        self.state.lost_on_time = None;
        self.state.dead = 0;
        self.judged = false;
        self.state.clocks.start(self.referee.to_move().index(), now);
        self.event(now, format!("recovery for {}: tries {from} to {n} undone ({undone})", name(side)), false);
        // The players are told the recovery, not how many tries it undid (that would
        // count the other side's refused tries).
        self.event(
            now,
            format!("recovery for {} (rules 4, 9): the position goes back; 4 minutes added to its time", name(side)),
            true,
        );
        Ok(())
    }

    /// Rule 11: the referee proposes to stop; both sides are asked.
    pub fn propose_stop(&mut self, now: Millis) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is already over".into());
        }
        if self.state.proposal.is_some() {
            return Err("a proposal is already being answered".into());
        }
        self.state.proposal = Some(Proposal::default());
        self.event(now, "the referee proposes to stop and count (rule 11)".into(), true);
        Ok(())
    }

    /// One side answers the proposal: both accepting ends the game, one refusal
    /// withdraws it and play goes on.
    pub fn answer_proposal(&mut self, actor: Actor, side: Color, accept: bool, now: Millis) -> Result<(), String> {
        if let Actor::Player(c) = actor
            && c != side
        {
            return Err(format!("{} cannot answer for {}", name(c), name(side)));
        }
        let Some(mut p) = self.state.proposal else {
            return Err("there is no proposal to answer".into());
        };
        if p.answers[side.index()].is_some() {
            return Err(format!("{} has already answered", name(side)));
        }
        p.answers[side.index()] = Some(accept);
        let word = if accept { "accepts" } else { "refuses" };
        self.event(now, format!("{} {word} the proposal to stop", name(side)), true);
        if !accept {
            self.state.proposal = None;
            self.event(now, "play goes on".into(), true);
        } else if p.answers == [Some(true), Some(true)] {
            self.state.proposal = None;
            self.state.stopped = true;
            self.referee.stop_by_agreement();
            self.after_change(now);
        } else {
            self.state.proposal = Some(p);
        }
        Ok(())
    }

    /// At the end, the referee marks a stone's whole group dead or alive again.
    pub fn toggle_dead(&mut self, p: bitboards::go::Point, now: Millis) -> Result<(), String> {
        if !self.referee.is_over() {
            return Err("dead stones are marked after the game ends".into());
        }
        if self.state.lost_on_time.is_some() {
            return Err("the game was lost on time: no count".into());
        }
        if self.state.confirmed {
            return Err("the result is confirmed".into());
        }
        if !p.on_board(SIZE) || self.referee.board().at(p).is_none() {
            return Err(format!("no stone on {}", p.to_ij()));
        }
        let group = self.referee.board().group(p);
        self.state.dead ^= group;
        let word = if self.state.dead & p.bit() != 0 { "dead" } else { "alive" };
        self.event(now, format!("the referee marks the group at {} {word}", p.to_ij()), false);
        Ok(())
    }

    /// The referee confirms the count: the result is final.
    pub fn confirm_result(&mut self, now: Millis) -> Result<(), String> {
        let Some(text) = self.result_text() else {
            return Err("the game is not over".into());
        };
        if self.state.confirmed {
            return Err("the result is already confirmed".into());
        }
        self.state.confirmed = true;
        self.event(now, format!("result: {text}"), true);
        Ok(())
    }

    fn after_change(&mut self, now: Millis) {
        if self.referee.is_over() && !self.judged {
            self.state.clocks.stop(now);
            self.state.removal_pending = [0; 2];
            self.state.dead = crate::games::phantom::referee_dead(&self.referee);
            self.judged = true;
        }
    }

    /// Adds the running timer's time up to `now` to its side, so that a record written
    /// now keeps it (a restart charges nobody for the time it was down).
    pub fn checkpoint(&mut self, now: Millis) {
        if let Some((side, _)) = self.state.clocks.running {
            self.state.clocks.start(side, now);
        }
    }

    /// Adds a line to the log (`public`: told to both players too).
    pub fn note(&mut self, at: Millis, text: String, public: bool) {
        self.event(at, text, public);
    }

    fn event(&mut self, at: Millis, text: String, public: bool) {
        let notices = [Color::BLACK, Color::WHITE].map(|c| self.referee.notices(c).len());
        self.state.events.push(Event { at, after: self.state.tries.len(), text, public, notices });
    }
}

/// The referee's settings: the competition's rules (seed 000) with this komi.
pub fn config(komi: f64) -> PhantomConfig {
    PhantomConfig::ccgc().with_komi(komi)
}

/// The referee after `tries` (and the agreed stop).
fn replay(komi: f64, tries: &[TryEntry], stopped: bool) -> Result<Referee, String> {
    let mut moves = Vec::with_capacity(tries.len());
    for (i, t) in tries.iter().enumerate() {
        moves.push(Move::from_gtp(&t.mv, SIZE).map_err(|e| format!("try {} '{}': {e}", i + 1, t.mv))?);
    }
    let mut r = Referee::replay(config(komi), &moves).map_err(|e| format!("the tries cannot be replayed: {e}"))?;
    if stopped {
        r.stop_by_agreement();
    }
    Ok(r)
}

/// "Black" or "White".
pub fn name(c: Color) -> &'static str {
    if c == Color::BLACK { "Black" } else { "White" }
}

/// The points of a set as logical `ij` names.
pub fn ij_list(set: u128) -> Vec<String> {
    bits(set).map(|p| p.to_ij()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitboards::go::Point;

    fn at(r: usize, c: usize) -> Move {
        Move::Play(Point::new(r, c))
    }

    /// Black captures a white stone on the edge: B 01, W 00, B 10 takes 00.
    fn capture_game() -> Game {
        let mut g = Game::new(7.5, 0);
        g.try_move(Actor::Referee, at(0, 1), 1_000).unwrap();
        g.try_move(Actor::Referee, at(0, 0), 3_000).unwrap();
        let out = g.try_move(Actor::Referee, at(1, 0), 6_000).unwrap();
        assert_eq!(out.answer, Answer::Legal { captured: Point::new(0, 0).bit() });
        g
    }

    #[test]
    fn the_timers_follow_rule_8() {
        let mut g = Game::new(7.5, 0);
        g.try_move(Actor::Referee, at(4, 4), 2_000).unwrap();
        // White is refused twice on black's stone, then plays: all on white's timer.
        assert!(!g.try_move(Actor::Referee, at(4, 4), 3_000).unwrap().answer.ends_turn());
        assert_eq!(g.state().clocks.total(1, 4_000), 2_000);
        g.try_move(Actor::Referee, at(4, 5), 7_000).unwrap();
        assert_eq!(g.state().clocks.total(0, 7_000), 2_000);
        assert_eq!(g.state().clocks.total(1, 7_000), 5_000);
        assert_eq!(g.state().clocks.total(0, 8_500), 3_500);
    }

    #[test]
    fn a_capture_waits_for_its_removal_on_the_captured_timer() {
        let mut g = capture_game();
        assert_eq!(g.state().removal_pending[1], Point::new(0, 0).bit());
        let e = g.try_move(Actor::Referee, at(5, 5), 7_000).unwrap_err();
        assert!(e.contains("confirm"), "{e}");
        assert!(g.confirm_removal(Actor::Player(Color::BLACK), Color::WHITE, 8_000).is_err());
        g.confirm_removal(Actor::Player(Color::WHITE), Color::WHITE, 9_000).unwrap();
        // White's timer ran from the capture (6 s) through the removal.
        assert_eq!(g.state().clocks.total(1, 9_000), 2_000 + 3_000);
        g.try_move(Actor::Player(Color::WHITE), at(5, 5), 10_000).unwrap();
        assert_eq!(g.state().clocks.total(1, 10_000), 2_000 + 4_000);
    }

    #[test]
    fn out_of_turn_and_after_the_end_change_nothing() {
        let mut g = Game::new(7.5, 0);
        let before = g.state().tries.len();
        assert!(g.try_move(Actor::Player(Color::WHITE), at(4, 4), 10).is_err());
        assert_eq!(g.state().tries.len(), before);
        g.try_move(Actor::Referee, Move::Pass, 20).unwrap();
        g.try_move(Actor::Referee, Move::Pass, 30).unwrap();
        assert!(g.is_over());
        let e = g.try_move(Actor::Referee, at(4, 4), 40).unwrap_err();
        assert!(e.contains("over"), "{e}");
        assert_eq!(g.state().tries.len(), 2);
        assert_eq!(g.result().map(|r| r.text()), Some("W+7.5".into()));
    }

    #[test]
    fn a_recovery_undoes_once_a_side_with_its_penalty() {
        let mut g = capture_game();
        g.recover(Color::BLACK, 3, 60_000).unwrap();
        assert_eq!(g.state().tries.len(), 2);
        assert_eq!(g.referee().to_move(), Color::BLACK);
        assert_eq!(g.state().removal_pending, [0, 0]);
        // The timers keep what ran (black 1 s + 3 s; white 2 s, then 54 s up to the
        // recovery, its turn); black, to move again, has the 4 minutes more.
        assert_eq!(g.state().clocks.total(0, 60_000), 4_000 + RECOVERY_PENALTY);
        assert_eq!(g.state().clocks.total(1, 60_000), 2_000 + 54_000);
        assert_eq!(g.state().clocks.running_side(), Some(0));
        assert!(g.recover(Color::BLACK, 1, 61_000).unwrap_err().contains("already"));
        // The players are not told how many tries went (the other side's refusals).
        let public: Vec<&str> = g.state().events.iter().filter(|e| e.public).map(|e| e.text.as_str()).collect();
        assert_eq!(public, ["recovery for Black (rules 4, 9): the position goes back; 4 minutes added to its time"]);
        // White's own recovery: too late for try 1 (made at 1 s) after 3 minutes.
        assert!(g.recover(Color::WHITE, 1, 1_000 + RECOVERY_WINDOW + 1).unwrap_err().contains("3 minutes"));
        assert!(g.recover(Color::WHITE, 9, 61_000).is_err());
        assert!(!g.state().recovered[1]);
    }

    #[test]
    fn a_refused_proposal_lets_play_go_on_an_accepted_one_ends_the_game() {
        let mut g = Game::new(7.5, 0);
        g.try_move(Actor::Referee, at(4, 4), 10).unwrap();
        g.propose_stop(20).unwrap();
        assert!(g.try_move(Actor::Referee, at(3, 3), 25).is_err());
        g.answer_proposal(Actor::Player(Color::BLACK), Color::BLACK, true, 30).unwrap();
        assert!(g.answer_proposal(Actor::Player(Color::BLACK), Color::WHITE, false, 31).is_err());
        g.answer_proposal(Actor::Player(Color::WHITE), Color::WHITE, false, 40).unwrap();
        assert!(g.state().proposal.is_none() && !g.is_over());
        g.try_move(Actor::Referee, at(3, 3), 50).unwrap();
        g.propose_stop(60).unwrap();
        g.answer_proposal(Actor::Referee, Color::WHITE, true, 70).unwrap();
        g.answer_proposal(Actor::Referee, Color::BLACK, true, 80).unwrap();
        assert!(g.is_over());
        assert_eq!(g.state().clocks.running_side(), None);
    }

    #[test]
    fn a_side_past_its_time_may_be_declared_lost_on_time_and_no_sooner() {
        let mut g = Game::with_time(7.5, Some(60_000), 0);
        g.try_move(Actor::Referee, at(4, 4), 10_000).unwrap();
        assert_eq!(g.time_left(Color::WHITE, 30_000), Some(40_000));
        let e = g.lose_on_time(Color::WHITE, 30_000).unwrap_err();
        assert!(e.contains("40 s left"), "{e}");
        assert_eq!(g.time_left(Color::WHITE, 75_000), Some(-5_000));
        g.lose_on_time(Color::WHITE, 75_000).unwrap();
        assert!(g.is_over());
        assert_eq!(g.result_text(), Some("B+T".into()));
        assert!(g.try_move(Actor::Referee, at(3, 3), 76_000).is_err());
        assert_eq!(g.state().clocks.running_side(), None);
        g.confirm_result(77_000).unwrap();
        let mut untimed = Game::new(7.5, 0);
        assert!(untimed.lose_on_time(Color::BLACK, 10_000_000).unwrap_err().contains("no time limit"));
    }

    #[test]
    fn the_judgement_counts_the_board_as_it_stands() {
        let mut g = Game::new(7.5, 0);
        g.try_move(Actor::Referee, at(4, 4), 10).unwrap();
        let (dead, result) = g.judgement();
        assert_eq!(dead, 0);
        assert_eq!(result.text(), "B+73.5");
        assert!(!g.is_over(), "judging changes nothing");
    }

    #[test]
    fn the_referee_toggles_a_dead_group_and_the_count_follows() {
        let mut g = Game::new(0.5, 0);
        g.try_move(Actor::Referee, at(4, 4), 10).unwrap();
        g.try_move(Actor::Referee, Move::Pass, 20).unwrap();
        assert!(g.toggle_dead(Point::new(4, 4), 25).is_err());
        g.try_move(Actor::Referee, Move::Pass, 30).unwrap();
        assert_eq!(g.result().map(|r| r.text()), Some("B+80.5".into()));
        g.toggle_dead(Point::new(4, 4), 40).unwrap();
        // No stone left: all 81 points neutral, split; the 0.5 komi wins for White.
        assert_eq!(g.result().map(|r| r.text()), Some("W+0.5".into()));
        assert!(g.toggle_dead(Point::new(0, 0), 45).is_err());
        g.confirm_result(50).unwrap();
        assert!(g.toggle_dead(Point::new(4, 4), 60).is_err());
    }

    #[test]
    fn a_saved_state_resumes_the_same_game() {
        let mut g = capture_game();
        g.confirm_removal(Actor::Referee, Color::WHITE, 7_000).unwrap();
        g.checkpoint(8_000);
        let text = serde_json::to_string(g.state()).unwrap();
        let back: GameState = serde_json::from_str(&text).unwrap();
        let r = Game::from_state(back, 100_000).unwrap();
        assert_eq!(r.referee().board(), g.referee().board());
        assert_eq!(r.referee().view(Color::WHITE), g.referee().view(Color::WHITE));
        assert_eq!(r.state().clocks.total(1, 100_500), g.state().clocks.total(1, 8_000) + 500);
    }
}
