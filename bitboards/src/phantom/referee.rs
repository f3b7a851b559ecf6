//! The referee: the full board, the answer to every try, both players' views and the
//! record of all tries.
//!
//! The side to move sends tries ([`Referee::try_move`]) until one is accepted. An
//! illegal try leaves the same side to move and changes nothing the opponent can see;
//! a legal one is played on the full board (a [`crate::go::Game`], so ko, superko and
//! scoring are Go's) and the captured points are returned. Replaying the recorded
//! tries ([`Referee::replay`]) rebuilds the same referee.

use thiserror::Error;

use super::notice::Notice;
use super::rules::{EndReason, PhantomConfig, PhantomResult, PhantomRules, SIZE};
use super::view::View;
use crate::go::{Board, Color, Game, Illegal, Move, Point, Score, Superko};

/// The referee's answer to one try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The stone stands; these opponent stones were captured (maybe none).
    Legal {
        /// The captured points.
        captured: u128,
    },
    /// Refused. The mover is told only "illegal" (OpenSpiel: and what stands on the
    /// point); `reason` is for the record. The same side tries again unless the referee
    /// turned the turn into a pass (`turn_passed`: the illegal-try bound was reached, or
    /// the mover has no legal move left, CCGC rule 7).
    Illegal {
        /// Why, for the record.
        reason: Illegal,
        /// The turn became a pass.
        turn_passed: bool,
    },
    /// The mover passed.
    Passed,
}

impl Answer {
    /// True if the try ended the mover's turn by its own choice: a stone accepted or
    /// a pass.
    pub fn is_legal(&self) -> bool {
        matches!(self, Answer::Legal { .. } | Answer::Passed)
    }
    /// True if the turn is over (legal, a pass, or a refused try turned into a pass).
    pub fn ends_turn(&self) -> bool {
        !matches!(self, Answer::Illegal { turn_passed: false, .. })
    }
}

/// A try that the referee does not answer at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum TryError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The point is not on the 9×9 board.
    #[error("point {0:?} is off the board")]
    OffBoard(Point),
}

/// One try and its answer, as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TryRecord {
    /// Who tried.
    pub color: Color,
    /// The try.
    pub mv: Move,
    /// The answer.
    pub answer: Answer,
}

/// A Phantom Go referee on a 9×9 board.
#[derive(Clone, Debug)]
pub struct Referee {
    config: PhantomConfig,
    game: Game,
    views: [View; 2],
    history: Vec<TryRecord>,
    /// Board hashes of every position reached (OpenSpiel's superko check).
    positions: Vec<u64>,
    illegal_this_turn: u32,
    ended: Option<EndReason>,
    notices: [Vec<Notice>; 2],
}

impl Referee {
    /// A new game on an empty board, black to move.
    pub fn new(config: PhantomConfig) -> Referee {
        let superko = match config.rules {
            PhantomRules::Ccgc => config.superko,
            PhantomRules::OpenSpiel => Superko::Off,
        };
        let board = Board::new(SIZE);
        Referee {
            config,
            game: Game::new(board, config.komi, superko),
            views: [View::new(Color::BLACK), View::new(Color::WHITE)],
            history: Vec::new(),
            positions: vec![board.hash()],
            illegal_this_turn: 0,
            ended: None,
            notices: [Vec::new(), Vec::new()],
        }
    }

    /// Plays `tries` in order from the start (each by the side then to move), stopping
    /// at the first one the referee does not answer.
    pub fn replay(config: PhantomConfig, tries: &[Move]) -> Result<Referee, TryError> {
        let mut r = Referee::new(config);
        for &mv in tries {
            r.try_move(mv)?;
        }
        Ok(r)
    }

    /// The settings.
    pub fn config(&self) -> &PhantomConfig {
        &self.config
    }
    /// The rule set.
    pub fn rules(&self) -> PhantomRules {
        self.config.rules
    }
    /// The full board (the referee's eyes only).
    pub fn board(&self) -> &Board {
        self.game.board()
    }
    /// The full game: legal moves played, with undo-free history (the referee's eyes
    /// only).
    pub fn game(&self) -> &Game {
        &self.game
    }
    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.game.board().to_move()
    }
    /// What `color` knows.
    pub fn view(&self, color: Color) -> &View {
        &self.views[color.index()]
    }
    /// Every try so far with its answer.
    pub fn history(&self) -> &[TryRecord] {
        &self.history
    }
    /// Every message the referee has sent `color`, in order.
    pub fn notices(&self, color: Color) -> &[Notice] {
        &self.notices[color.index()]
    }
    /// The tries alone, for [`Referee::replay`] (UGI+ `position startpos moves …`).
    pub fn tries(&self) -> Vec<Move> {
        self.history.iter().map(|t| t.mv).collect()
    }
    /// Tries answered so far (OpenSpiel's actions).
    pub fn actions(&self) -> u32 {
        self.history.len() as u32
    }
    /// Illegal tries of the side to move in the current turn.
    pub fn illegal_this_turn(&self) -> u32 {
        self.illegal_this_turn
    }
    /// Stones on the board, black then white (public in both rule sets).
    pub fn stone_counts(&self) -> [u32; 2] {
        let b = self.board();
        [b.stones(Color::BLACK).count_ones(), b.stones(Color::WHITE).count_ones()]
    }
    /// The last accepted move (a stone or a pass, forced passes included) and who made it.
    pub fn last_legal(&self) -> Option<(Color, Move)> {
        self.game.moves().last().copied()
    }
    /// The points captured by the last accepted move (0 if it captured nothing).
    pub fn last_captured(&self) -> u128 {
        self.history
            .iter()
            .rev()
            .find(|t| t.answer.ends_turn())
            .map_or(0, |t| if let Answer::Legal { captured } = t.answer { captured } else { 0 })
    }
    /// True if the side to move has a legal point (superko included where it refuses).
    pub fn has_legal_move(&self) -> bool {
        self.legal_points() != 0
    }
    /// The points where the side to move may play (the referee's eyes only).
    pub fn legal_points(&self) -> u128 {
        self.game.legal_points(self.to_move())
    }
    /// Why the game ended, if it did.
    pub fn end_reason(&self) -> Option<EndReason> {
        self.ended
    }
    /// True when the game is over.
    pub fn is_over(&self) -> bool {
        self.ended.is_some()
    }

    /// Answers a try by the side to move.
    pub fn try_move(&mut self, mv: Move) -> Result<Answer, TryError> {
        if self.ended.is_some() {
            return Err(TryError::GameOver);
        }
        let color = self.to_move();
        let me = color.index();
        let answer = match mv {
            Move::Pass => {
                self.notices[me].push(Notice::Accepted(Move::Pass));
                self.play_pass(color);
                Answer::Passed
            }
            Move::Play(p) => {
                if !p.on_board(SIZE) {
                    return Err(TryError::OffBoard(p));
                }
                let before = self.game.board().stones(color.other());
                match self.game.play(color, mv) {
                    Ok(()) => {
                        let captured_points = before & !self.game.board().stones(color.other());
                        self.accepted(color, p, captured_points);
                        Answer::Legal { captured: captured_points }
                    }
                    Err(reason) => {
                        self.illegal_this_turn += 1;
                        let seen = match self.config.rules {
                            PhantomRules::OpenSpiel => self.game.board().at(p),
                            PhantomRules::Ccgc => None,
                        };
                        self.views[me].refused_at(p, seen);
                        self.notices[me].push(Notice::Refused(p));
                        if self.config.rules == PhantomRules::OpenSpiel {
                            self.notices[me].push(Notice::Shown { point: p, stone: seen });
                        }
                        let bound = self.config.illegal_limit.is_some_and(|n| self.illegal_this_turn >= n);
                        let stuck = self.config.pass_when_stuck && !self.has_legal_move();
                        let turn_passed = bound || stuck;
                        if turn_passed {
                            self.notices[me].push(Notice::TurnPassed);
                            self.play_pass(color);
                        }
                        Answer::Illegal { reason, turn_passed }
                    }
                }
            }
        };
        self.history.push(TryRecord { color, mv, answer });
        if self.ended.is_none() && self.config.max_actions.is_some_and(|n| self.actions() >= n) {
            self.ended = Some(EndReason::ActionCap);
        }
        Ok(answer)
    }

    fn play_pass(&mut self, color: Color) {
        // A pass is always legal on the full board.
        let _ = self.game.play(color, Move::Pass);
        self.notices[color.other().index()].push(Notice::OpponentPassed);
        self.views[color.index()].turn_over();
        self.illegal_this_turn = 0;
        if self.game.is_over() && self.passes_end_game() {
            self.ended = Some(EndReason::TwoPasses);
        }
    }

    /// Whether a pass now, after a pass as the last accepted move, ends the game. CCGC:
    /// yes, refused tries between the two passes do not count. OpenSpiel: only if the
    /// try just before this pass was the pass (its game ends on two passes in a row of
    /// its actions, and a refused try is an action that breaks the pair).
    fn passes_end_game(&self) -> bool {
        match self.config.rules {
            PhantomRules::Ccgc => true,
            PhantomRules::OpenSpiel => self
                .history
                .last()
                .is_some_and(|t| matches!(t.answer, Answer::Passed | Answer::Illegal { turn_passed: true, .. })),
        }
    }

    fn accepted(&mut self, color: Color, p: Point, captured: u128) {
        let (me, them) = (color.index(), color.other().index());
        self.illegal_this_turn = 0;
        self.views[me].placed(p);
        self.views[them].opponent_placed();
        self.notices[me].push(Notice::Accepted(Move::Play(p)));
        self.notices[them].push(Notice::OpponentMoved);
        if captured != 0 {
            let told = self.config.rules == PhantomRules::Ccgc;
            self.views[me].captured_theirs(captured, told);
            self.views[them].lost_own(captured);
            let points = if told { captured } else { 0 };
            self.notices[me].push(Notice::Took { count: captured.count_ones(), points });
            self.notices[them].push(Notice::Lost { points: captured });
        }
        let hash = self.game.board().hash();
        if self.config.rules == PhantomRules::OpenSpiel && self.positions.contains(&hash) {
            self.ended = Some(EndReason::Superko);
        }
        self.positions.push(hash);
    }

    /// Rule 11: the referee proposed to stop and both players agreed; the game ends and
    /// is counted with the dead stones the referee marks.
    pub fn stop_by_agreement(&mut self) {
        if self.ended.is_none() {
            self.ended = Some(EndReason::Agreement);
        }
    }

    /// The count now. CCGC: `dead` stones (the referee's marking, computed outside
    /// this crate) are removed first, then area counting with neutral points split.
    /// OpenSpiel: Tromp-Taylor, `dead` is ignored.
    pub fn score(&self, dead: u128) -> Score {
        match self.config.rules {
            PhantomRules::Ccgc => self.game.score(dead & self.board().mask()),
            PhantomRules::OpenSpiel => self.game.score(0),
        }
    }

    /// The result of a finished game (`None` while it goes on), with `dead` as in
    /// [`Referee::score`]. CCGC: a tie is a win for White; OpenSpiel: a tie or a superko
    /// end is a draw.
    pub fn result(&self, dead: u128) -> Option<PhantomResult> {
        let reason = self.ended?;
        Some(PhantomResult::judge(self.config.rules, reason, self.score(dead)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::points;
    use crate::phantom::rules::OPEN_SPIEL_MAX_ACTIONS;
    use proptest::prelude::*;

    fn at(r: usize, c: usize) -> Move {
        Move::Play(Point::new(r, c))
    }

    fn gtp(v: &str) -> Move {
        Move::Play(Point::from_gtp(v, SIZE).unwrap())
    }

    /// Plays `moves` in order, each expected legal.
    fn setup(config: PhantomConfig, moves: &[Move]) -> Referee {
        let mut r = Referee::new(config);
        for &m in moves {
            let a = r.try_move(m).unwrap();
            assert!(a.is_legal(), "{m:?}: {a:?}");
        }
        r
    }

    /// Every view agrees with the full board.
    fn check_views(r: &Referee) {
        for c in [Color::BLACK, Color::WHITE] {
            let v = r.view(c);
            assert_eq!(v.own(), r.board().stones(c), "own stones of {c:?}");
            assert_eq!(v.opponent() & !r.board().stones(c.other()), 0, "known stones of {c:?}");
            assert_eq!(v.opponent_count(), r.board().stones(c.other()).count_ones());
            if c != r.to_move() {
                assert_eq!(v.refused(), 0);
            }
        }
    }

    /// Two kos: ko 1 (top-left) black can take at (1,2); ko 2 (rows 5-7) white can take
    /// at (6,2). Black to move.
    fn double_ko() -> Vec<Move> {
        vec![
            at(0, 1),
            at(0, 2),
            at(1, 0),
            at(1, 3),
            at(2, 1),
            at(2, 2),
            at(5, 2),
            at(1, 1),
            at(6, 3),
            at(5, 1),
            at(7, 2),
            at(6, 0),
            at(6, 1),
            at(7, 1),
        ]
    }

    #[test]
    fn an_illegal_try_onto_a_hidden_stone_then_a_legal_one() {
        for config in [PhantomConfig::ccgc(), PhantomConfig::open_spiel()] {
            let mut r = setup(config, &[gtp("E5")]);
            let black_before = r.view(Color::BLACK).clone();
            let a = r.try_move(gtp("E5")).unwrap();
            assert_eq!(a, Answer::Illegal { reason: Illegal::Occupied, turn_passed: false });
            assert_eq!(r.to_move(), Color::WHITE, "the same side tries again");
            assert_eq!(r.view(Color::BLACK), &black_before, "the opponent learns nothing");
            let white = r.view(Color::WHITE);
            assert_eq!(white.refused(), Point::from_gtp("E5", 9).unwrap().bit());
            let revealed = white.board_text().chars().nth(40);
            match config.rules {
                PhantomRules::Ccgc => assert_eq!(revealed, Some('.')),
                PhantomRules::OpenSpiel => assert_eq!(revealed, Some('X'), "OpenSpiel shows the stone"),
            }
            // Its own stone: also refused.
            assert_eq!(r.try_move(gtp("D5")).unwrap(), Answer::Legal { captured: 0 });
            assert_eq!(
                r.try_move(gtp("E5")).unwrap(),
                Answer::Illegal { reason: Illegal::Occupied, turn_passed: false }
            );
            assert_eq!(
                r.try_move(gtp("D5")).unwrap(),
                Answer::Illegal { reason: Illegal::Occupied, turn_passed: false }
            );
            assert_eq!(r.to_move(), Color::BLACK);
            assert_eq!(r.try_move(gtp("C3")).unwrap(), Answer::Legal { captured: 0 });
            assert_eq!(r.view(Color::BLACK).refused(), 0, "a legal move ends the turn");
            assert_eq!(r.last_legal(), Some((Color::BLACK, gtp("C3"))));
            assert_eq!(r.stone_counts(), [2, 1]);
            assert_eq!(r.view(Color::WHITE).opponent_count(), 2);
            check_views(&r);
            assert_eq!(r.history().len(), 6);
        }
    }

    #[test]
    fn suicide_and_ko_are_refused_and_captures_are_told() {
        for config in [PhantomConfig::ccgc(), PhantomConfig::open_spiel()] {
            let mut r = setup(config, &double_ko());
            // Black takes ko 1: (1,1) captured.
            let taken = Point::new(1, 1).bit();
            assert_eq!(r.try_move(at(1, 2)).unwrap(), Answer::Legal { captured: taken });
            assert_eq!(r.last_captured(), taken);
            // White may not retake at once.
            let black_before = r.view(Color::BLACK).clone();
            assert_eq!(r.try_move(at(1, 1)).unwrap(), Answer::Illegal { reason: Illegal::Ko, turn_passed: false });
            assert_eq!(r.view(Color::BLACK), &black_before);
            // Suicide: white alone in the corner between black (0,1) and (1,0).
            assert_eq!(r.try_move(at(0, 0)).unwrap(), Answer::Illegal { reason: Illegal::Suicide, turn_passed: false });
            assert_eq!(r.to_move(), Color::WHITE);
            let (b, w) = (r.view(Color::BLACK), r.view(Color::WHITE));
            assert_eq!(w.last_captured(), taken, "the captured side is told the points");
            assert_eq!(w.lost(), 1);
            assert_eq!(b.taken(), 1);
            assert_eq!(b.opponent_count(), 6, "the count is public");
            match config.rules {
                PhantomRules::Ccgc => assert_eq!(b.last_captured(), taken, "rule 5: both are told"),
                PhantomRules::OpenSpiel => assert_eq!(b.last_captured(), 0, "the capturer is told the number only"),
            }
            assert_eq!(w.opponent(), 0, "ko and suicide points are empty: nothing to show");
            let told = if config.rules == PhantomRules::Ccgc { taken } else { 0 };
            assert_eq!(
                &r.notices(Color::BLACK)[14..],
                &[Notice::Accepted(at(1, 2)), Notice::Took { count: 1, points: told },]
            );
            let mut expect =
                vec![Notice::OpponentMoved, Notice::Lost { points: taken }, Notice::Refused(Point::new(1, 1))];
            if config.rules == PhantomRules::OpenSpiel {
                expect.push(Notice::Shown { point: Point::new(1, 1), stone: None });
            }
            expect.push(Notice::Refused(Point::new(0, 0)));
            if config.rules == PhantomRules::OpenSpiel {
                expect.push(Notice::Shown { point: Point::new(0, 0), stone: None });
            }
            assert_eq!(&r.notices(Color::WHITE)[14..], expect.as_slice());
            check_views(&r);
        }
    }

    #[test]
    fn superko_is_refused_in_ccgc_and_a_draw_in_openspiel() {
        // Black takes ko 1, white takes ko 2, black passes (the simple ko is lifted),
        // white retakes ko 1, black retakes ko 2: the board of the start again.
        let cycle = [at(1, 2), at(6, 2), Move::Pass, at(1, 1), at(6, 1)];
        let mut ccgc = setup(PhantomConfig::ccgc(), &double_ko());
        let mut open = setup(PhantomConfig::open_spiel(), &double_ko());
        for (k, &m) in cycle.iter().enumerate() {
            let a = ccgc.try_move(m).unwrap();
            let b = open.try_move(m).unwrap();
            if k < 4 {
                assert!(a.is_legal() && b.is_legal(), "{k}: {a:?} {b:?}");
            } else {
                assert_eq!(a, Answer::Illegal { reason: Illegal::Superko, turn_passed: false });
                assert!(matches!(b, Answer::Legal { .. }));
            }
        }
        assert!(!ccgc.is_over());
        assert_eq!(ccgc.to_move(), Color::BLACK);
        assert_eq!(open.end_reason(), Some(EndReason::Superko));
        let res = open.result(0).unwrap();
        assert_eq!(res.winner, None);
        assert_eq!(res.text(), "0");
        assert_eq!(open.try_move(Move::Pass), Err(TryError::GameOver));
    }

    #[test]
    fn a_side_with_no_legal_move_passes_and_two_passes_end_the_game() {
        // Black fills the board but for two eyes at the corners; white passes meanwhile.
        let mut moves = Vec::new();
        for p in points(SIZE) {
            if p != Point::new(0, 0) && p != Point::new(8, 8) {
                moves.push(Move::Play(p));
                moves.push(Move::Pass);
            }
        }
        moves.pop();
        let mut r = setup(PhantomConfig::ccgc(), &moves);
        assert_eq!(r.to_move(), Color::WHITE);
        assert!(!r.has_legal_move());
        assert_eq!(r.try_move(at(4, 4)).unwrap(), Answer::Illegal { reason: Illegal::Occupied, turn_passed: true });
        assert_eq!(r.to_move(), Color::BLACK, "rule 7: every try would fail, the turn is a pass");
        assert_eq!(r.last_legal(), Some((Color::WHITE, Move::Pass)));
        assert_eq!(
            r.notices(Color::WHITE).last_chunk::<2>(),
            Some(&[Notice::Refused(Point::new(4, 4)), Notice::TurnPassed])
        );
        assert_eq!(r.notices(Color::BLACK).last(), Some(&Notice::OpponentPassed));
        assert!(!r.is_over());
        assert_eq!(r.try_move(Move::Pass).unwrap(), Answer::Passed);
        assert_eq!(r.end_reason(), Some(EndReason::TwoPasses));
        assert_eq!(r.try_move(Move::Pass), Err(TryError::GameOver));
        let res = r.result(0).unwrap();
        assert_eq!(res.winner, Some(Color::BLACK));
        assert_eq!(res.text(), "B+73.5");
        // OpenSpiel does not force the pass: white may keep trying.
        let mut o = setup(PhantomConfig::open_spiel(), &moves);
        assert_eq!(o.try_move(at(0, 0)).unwrap(), Answer::Illegal { reason: Illegal::Suicide, turn_passed: false });
        assert_eq!(o.to_move(), Color::WHITE);
    }

    #[test]
    fn a_refused_try_between_two_passes_ends_the_game_in_ccgc_only() {
        // Black passes; white tries onto black's hidden stone (refused), then passes.
        let tries = [gtp("E5"), gtp("D4"), Move::Pass, gtp("E5"), gtp("E5"), Move::Pass];
        let c = Referee::replay(PhantomConfig::ccgc(), &tries).unwrap();
        assert_eq!(c.end_reason(), Some(EndReason::TwoPasses), "CCGC: two passes of the accepted moves");
        let mut o = Referee::replay(PhantomConfig::open_spiel(), &tries).unwrap();
        assert!(!o.is_over(), "OpenSpiel: the refused tries break the pair of passes");
        assert_eq!(o.to_move(), Color::BLACK);
        assert_eq!(o.result(0), None);
        // Play goes on; two passes in a row with nothing between them end it.
        assert_eq!(o.try_move(gtp("C3")).unwrap(), Answer::Legal { captured: 0 });
        assert_eq!(o.try_move(Move::Pass).unwrap(), Answer::Passed);
        assert!(!o.is_over());
        assert_eq!(o.try_move(gtp("E5")).unwrap(), Answer::Illegal { reason: Illegal::Occupied, turn_passed: false });
        assert_eq!(o.try_move(Move::Pass).unwrap(), Answer::Passed);
        assert!(!o.is_over(), "white's refused try came between the passes");
        assert_eq!(o.try_move(Move::Pass).unwrap(), Answer::Passed);
        assert_eq!(o.end_reason(), Some(EndReason::TwoPasses), "a pass right after a pass");
        assert_eq!(o.try_move(Move::Pass), Err(TryError::GameOver));
        // Without a refused try both rule sets end on the second pass.
        for config in [PhantomConfig::ccgc(), PhantomConfig::open_spiel()] {
            let r = Referee::replay(config, &[gtp("E5"), Move::Pass, Move::Pass]).unwrap();
            assert_eq!(r.end_reason(), Some(EndReason::TwoPasses), "{:?}", config.rules);
        }
        // Replaying the tries rebuilds the open game.
        let again = Referee::replay(PhantomConfig::open_spiel(), &o.tries()).unwrap();
        assert_eq!(again.end_reason(), o.end_reason());
        assert_eq!(again.history(), o.history());
    }

    #[test]
    fn an_openspiel_turn_passed_by_the_illegal_try_bound_counts_as_a_pass() {
        // Not OpenSpiel's own setting, but one the referee allows: a refused try that
        // becomes the pass is the pass itself, so a pass right after it ends the game,
        // and a pass right before it too.
        let config = PhantomConfig { illegal_limit: Some(1), ..PhantomConfig::open_spiel() };
        let r = Referee::replay(config, &[gtp("E5"), gtp("E5"), Move::Pass]).unwrap();
        assert_eq!(r.end_reason(), Some(EndReason::TwoPasses));
        let r = Referee::replay(config, &[gtp("E5"), gtp("D4"), Move::Pass, gtp("E5")]).unwrap();
        assert_eq!(r.history().last().map(|t| t.answer.ends_turn()), Some(true));
        assert_eq!(r.end_reason(), Some(EndReason::TwoPasses));
    }

    #[test]
    fn the_illegal_try_bound_turns_the_turn_into_a_pass() {
        let config = PhantomConfig { illegal_limit: Some(2), ..PhantomConfig::ccgc() };
        let mut r = setup(config, &[gtp("E5")]);
        assert_eq!(r.try_move(gtp("E5")).unwrap(), Answer::Illegal { reason: Illegal::Occupied, turn_passed: false });
        assert_eq!(r.illegal_this_turn(), 1);
        assert_eq!(r.try_move(gtp("E5")).unwrap(), Answer::Illegal { reason: Illegal::Occupied, turn_passed: true });
        assert_eq!(r.to_move(), Color::BLACK);
        assert_eq!(r.illegal_this_turn(), 0);
        assert_eq!(r.view(Color::WHITE).refused(), 0);
        check_views(&r);
    }

    /// Black on column 4 (D), white on column 6 (F), column 5 (E) neutral.
    fn split_board() -> Vec<Move> {
        let mut moves = Vec::new();
        for row in 0..SIZE {
            moves.push(at(row, 3));
            moves.push(at(row, 5));
        }
        moves
    }

    #[test]
    fn neutral_points_are_split_and_a_tie_is_whites() {
        for (rules, text) in [(PhantomRules::Ccgc, "W+0"), (PhantomRules::OpenSpiel, "0")] {
            let config = PhantomConfig::for_rules(rules).with_komi(0.0);
            let mut moves = split_board();
            moves.extend([Move::Pass, Move::Pass]);
            let r = setup(config, &moves);
            assert_eq!(r.end_reason(), Some(EndReason::TwoPasses));
            let res = r.result(0).unwrap();
            assert_eq!(res.score.neutral, 9);
            assert_eq!(res.score.black_area, 40.5);
            assert_eq!(res.score.white_area, 40.5);
            assert_eq!(res.text(), text);
            assert_eq!(res.winner, if rules == PhantomRules::Ccgc { Some(Color::WHITE) } else { None });
            // With the default komi White wins by 7.5 either way.
            let r = setup(PhantomConfig::for_rules(rules), &moves);
            assert_eq!(r.result(0).unwrap().text(), "W+7.5");
        }
    }

    #[test]
    fn dead_stones_are_removed_in_ccgc_only() {
        let mut moves = split_board();
        // A white stone in black's area, then a black pass, two passes.
        moves.extend([Move::Pass, at(4, 1), Move::Pass, Move::Pass]);
        let dead = Point::new(4, 1).bit();
        let c = setup(PhantomConfig::ccgc().with_komi(0.0), &moves);
        assert_eq!(c.result(dead).unwrap().score.black_area, 40.5);
        assert_eq!(c.result(dead).unwrap().text(), "W+0");
        assert!(c.result(0).unwrap().score.black_area < 40.5);
        let o = setup(PhantomConfig::open_spiel().with_komi(0.0), &moves);
        assert_eq!(o.score(dead), o.score(0), "Tromp-Taylor: nothing removed");
        // White: 10 stones and its 27 points; black's left side now touches a white stone
        // and is neutral (26 points) like column E (9): 35 neutral points, split (the
        // split leaves the Tromp-Taylor margin unchanged).
        assert_eq!(o.score(0).neutral, 35);
        assert_eq!(o.score(0).white_area, 10.0 + 27.0 + 17.5);
        assert_eq!(o.result(0).unwrap().text(), "W+28");
    }

    #[test]
    fn openspiel_ends_after_324_actions() {
        let mut r = setup(PhantomConfig::open_spiel(), &[gtp("E5")]);
        for k in 1..OPEN_SPIEL_MAX_ACTIONS {
            assert!(!r.is_over(), "over after {k} actions");
            let a = r.try_move(gtp("E5")).unwrap();
            assert_eq!(a, Answer::Illegal { reason: Illegal::Occupied, turn_passed: false });
        }
        assert_eq!(r.actions(), 324);
        assert_eq!(r.end_reason(), Some(EndReason::ActionCap));
        assert_eq!(r.try_move(gtp("D4")), Err(TryError::GameOver));
        assert_eq!(r.result(0).unwrap().text(), "B+73.5");
        // CCGC has no cap.
        let mut c = setup(PhantomConfig { illegal_limit: None, ..PhantomConfig::ccgc() }, &[gtp("E5")]);
        for _ in 0..400 {
            c.try_move(gtp("E5")).unwrap();
        }
        assert!(!c.is_over());
    }

    #[test]
    fn off_board_tries_are_not_answered() {
        let mut r = Referee::new(PhantomConfig::ccgc());
        assert_eq!(r.try_move(Move::Play(Point::new(0, 9))), Err(TryError::OffBoard(Point::new(0, 9))));
        assert_eq!(r.try_move(Move::Play(Point::new(9, 0))), Err(TryError::OffBoard(Point::new(9, 0))));
        assert_eq!(r.actions(), 0);
    }

    #[test]
    fn agreement_ends_the_game() {
        let mut r = setup(PhantomConfig::ccgc(), &split_board());
        assert_eq!(r.result(0), None);
        r.stop_by_agreement();
        assert_eq!(r.result(0).unwrap().reason, EndReason::Agreement);
    }

    fn arbitrary_try() -> impl Strategy<Value = Move> {
        prop_oneof![
            40 => (0..SIZE, 0..SIZE).prop_map(|(r, c)| at(r, c)),
            1 => Just(Move::Pass),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Random tries keep every view true to the full board, the waiting side learns
        /// nothing from refused tries, and replaying the tries rebuilds the referee.
        #[test]
        fn views_stay_true_and_replay_agrees(
            tries in proptest::collection::vec(arbitrary_try(), 0..400),
            open in any::<bool>(),
        ) {
            let config = if open { PhantomConfig::open_spiel() } else { PhantomConfig::ccgc() };
            let mut r = Referee::new(config);
            let mut played = Vec::new();
            for &m in &tries {
                let waiting = r.to_move().other();
                let before = r.view(waiting).clone();
                let told = r.notices(waiting).len();
                let Ok(a) = r.try_move(m) else { break };
                played.push(m);
                if let Answer::Illegal { turn_passed: false, .. } = a {
                    prop_assert_eq!(r.view(waiting), &before);
                    prop_assert_eq!(r.notices(waiting).len(), told);
                }
                if let Answer::Legal { captured } = a {
                    prop_assert_eq!(captured & r.board().stones(Color::BLACK), 0);
                    prop_assert_eq!(captured & r.board().stones(Color::WHITE), 0);
                }
                check_views(&r);
            }
            let again = Referee::replay(config, &played).unwrap();
            prop_assert_eq!(again.board(), r.board());
            prop_assert_eq!(again.history(), r.history());
            prop_assert_eq!(again.view(Color::BLACK), r.view(Color::BLACK));
            prop_assert_eq!(again.view(Color::WHITE), r.view(Color::WHITE));
            prop_assert_eq!(again.end_reason(), r.end_reason());
            prop_assert_eq!(again.tries(), played);
            prop_assert_eq!(again.notices(Color::BLACK), r.notices(Color::BLACK));
            prop_assert_eq!(again.notices(Color::WHITE), r.notices(Color::WHITE));
            for c in [Color::BLACK, Color::WHITE] {
                let v = r.view(c);
                prop_assert_eq!(View::from_text(&v.to_text()), Ok(v.clone()));
            }
        }
    }
}
