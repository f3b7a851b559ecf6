//! Phantom Go behind UGI+ ([`PhantomSession`]): the referee holds the full board, the
//! position is the list of **tries** in order (an illegal try leaves the same side to
//! move), and `go` chooses for the side to move from its own [`View`] alone.
//!
//! Moves are GTP vertices (`A1`..`J9`, no `I`, row 1 at the bottom) or `pass`, as for
//! Go. `legalmoves`/`islegal` list the tries the side to move may sensibly send: points
//! empty in its view and not refused this turn, and `pass`. `fen` is the full board as
//! Go writes it (a driver's view: the referee's eyes). The Phantom Go queries: `view
//! b|w` (81 characters from the top row, `X` black, `O` white, `.` empty or unknown),
//! `full` (the same for the full board), `counts` (`black white` stones on the board),
//! `lastlegal` (`b E5`, `w pass`, or `none`), `captured` (the number, then the points
//! the last capture took).
//!
//! **A view position** (`position fen <view>`, the eight fields of [`View::to_text`]):
//! one side's knowledge and nothing else, that side to move. The arena sends a UGI+
//! engine this before each try, so the engine learns exactly what the rules let it
//! know (its own stones, its answers, the captures, the opponent's stone count) and
//! never the opponent's tries. In a view position `query fen` prints the view, `view`
//! answers for the view's side only, `full` and `lastlegal` are errors (the referee
//! holds them), `outcome` is none, and no tries may follow (only a referee answers
//! them).

use bitboards::go::{Color, Move, bits};
use bitboards::phantom::{PhantomConfig, PhantomRules, Referee, SIZE, View};
use protocol::ugi::{OptionKind, Query, StartPosition};
use search::go::endgame::judge;
use search::go::playout::Policy;
use search::phantom::{PhantomPlayer, PlayerSettings, choose};
use search::{Limits, Outcome, Score, StopFlag};

use bitboards::go::board_text;

use crate::error::Result;
use crate::games::options::{self, GameOption};
use crate::games::session::{GameSession, Report, SearchJob, SearchOptions, SearchOutcome};

/// Reads `ccgc` or `openspiel`.
pub fn parse_rules(text: &str) -> Result<PhantomRules, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "ccgc" => Ok(PhantomRules::Ccgc),
        "openspiel" | "open-spiel" | "open_spiel" => Ok(PhantomRules::OpenSpiel),
        other => Err(format!("unknown Phantom Go rules '{other}': ccgc or openspiel")),
    }
}

/// The game option (arena `--phantom-rules`) naming the referee's rule set, as
/// [`parse_rules`] reads it; not given: CCGC.
pub const PHANTOM_RULES: &str = "phantom_rules";

/// The rule set `options` name (CCGC when they name none), or why it does not read.
pub fn rules_of(options: &crate::games::referee::GameOptions) -> Result<PhantomRules, String> {
    options.get(PHANTOM_RULES).map_or(Ok(PhantomRules::default()), parse_rules)
}

/// The name [`parse_rules`] reads.
pub fn rules_name(rules: PhantomRules) -> &'static str {
    match rules {
        PhantomRules::Ccgc => "ccgc",
        PhantomRules::OpenSpiel => "openspiel",
    }
}

/// Reads a try: a GTP vertex on the 9×9 board or `pass` ([`Move::from_gtp`]).
pub fn parse_try(text: &str) -> Result<Move, String> {
    Move::from_gtp(text, SIZE).map_err(|e| e.to_string())
}

/// The text of a try ([`Move::to_gtp`]).
pub fn try_text(mv: Move) -> String {
    mv.to_gtp(SIZE)
}

/// A board of 81 characters from the top row: `X`, `O`, `.`.
fn full_text(r: &Referee) -> String {
    bitboards::go::points(SIZE)
        .map(|p| match r.board().at(p) {
            Some(Color::BLACK) => 'X',
            Some(Color::WHITE) => 'O',
            None => '.',
        })
        .collect()
}

/// The dead stones the referee marks at the end of a CCGC game: sente's one judgement
/// of a Go board ([`judge`]), on the full board.
pub fn referee_dead(r: &Referee) -> u128 {
    match r.rules() {
        PhantomRules::Ccgc => judge(r.board()).dead,
        PhantomRules::OpenSpiel => 0,
    }
}

/// The tries the side to move may sensibly send (see the module documentation).
fn sensible_tries(view: &View) -> u128 {
    bitboards::go::board_mask(SIZE) & !view.own() & !view.opponent() & !view.refused()
}

/// Phantom Go behind UGI+.
pub struct PhantomSession {
    config: PhantomConfig,
    player: PhantomPlayer,
    /// The playouts of the belief search (also the combined player's) and of the
    /// information-set search (UGI+ `Playouts`).
    playouts: Policy,
    referee: Referee,
    /// The position when it was given as one side's view (`position fen <view>`).
    view_position: Option<View>,
    seed: u64,
}

impl Default for PhantomSession {
    fn default() -> Self {
        PhantomSession::new()
    }
}

impl PhantomSession {
    /// A new CCGC game, the default player.
    pub fn new() -> PhantomSession {
        let config = PhantomConfig::ccgc();
        PhantomSession {
            config,
            player: PlayerSettings::default().player,
            playouts: PlayerSettings::default().playouts,
            referee: Referee::new(config),
            view_position: None,
            seed: 1,
        }
    }

    /// Replays the tries so far under the current settings.
    fn replay(&mut self) -> Result<(), String> {
        let tries = self.referee.tries();
        self.referee = Referee::replay(self.config, &tries).map_err(|e| format!("the tries so far: {e}"))?;
        Ok(())
    }

    /// The view of the side to move: the given view, or the referee's.
    fn mover_view(&self) -> &View {
        match &self.view_position {
            Some(v) => v,
            None => self.referee.view(self.referee.to_move()),
        }
    }
}

/// Reads a view position and checks it can be a player's knowledge.
pub fn parse_view_position(text: &str) -> Result<View, String> {
    let view = View::from_text(text)
        .map_err(|e| format!("not a view position (or give the tries: position startpos moves …): {e}"))?;
    if view.refused() & view.own() != 0 {
        return Err("a view position: a refused point holds our own stone".into());
    }
    let own = view.own().count_ones();
    if own + view.opponent_count() > (SIZE * SIZE) as u32 {
        return Err(format!("a view position: {own} own stones and {} opponent stones", view.opponent_count()));
    }
    if view.opponent().count_ones() > view.opponent_count() {
        return Err("a view position: more known opponent stones than the opponent's count".into());
    }
    Ok(view)
}

/// Phantom Go's settings ([`crate::games::options`]).
const PHANTOM_OPTIONS: &[GameOption<PhantomSession>] = &[
    GameOption {
        name: "PhantomRules",
        gtp: None,
        kind: || OptionKind::Combo { default: "ccgc".into(), values: vec!["ccgc".into(), "openspiel".into()] },
        get: |s| rules_name(s.config.rules).into(),
        set: |s, v| {
            let rules = parse_rules(v)?;
            let old = s.config;
            s.config = PhantomConfig::for_rules(rules).with_komi(old.komi);
            if let Err(e) = s.replay() {
                s.config = old;
                return Err(e.into());
            }
            Ok(())
        },
    },
    GameOption {
        name: "Komi",
        gtp: None,
        kind: || OptionKind::Text { default: "7.5".into() },
        get: |s| s.config.komi.to_string(),
        set: |s, v| {
            let old = s.config;
            s.config = s.config.with_komi(bitboards::go::parse_komi(v)?);
            if let Err(e) = s.replay() {
                s.config = old;
                return Err(e.into());
            }
            Ok(())
        },
    },
    GameOption {
        name: "PhantomPlayer",
        gtp: None,
        kind: || OptionKind::Combo {
            default: PlayerSettings::default().player.name().into(),
            values: PhantomPlayer::ALL.map(|p| p.name().to_string()).to_vec(),
        },
        get: |s| s.player.name().into(),
        set: |s, v| {
            s.player = PhantomPlayer::parse(v)?;
            Ok(())
        },
    },
    GameOption {
        name: "Playouts",
        gtp: None,
        kind: || OptionKind::Combo {
            default: PlayerSettings::default().playouts.name().into(),
            values: Policy::ALL.map(|p| p.name().to_string()).to_vec(),
        },
        get: |s| s.playouts.name().into(),
        set: |s, v| {
            s.playouts = Policy::parse(v)?;
            Ok(())
        },
    },
];

impl GameSession for PhantomSession {
    fn game(&self) -> crate::games::GameKind {
        crate::games::GameKind::PHANTOM_GO
    }

    fn options(&self) -> Vec<(&'static str, OptionKind)> {
        options::announce(PHANTOM_OPTIONS)
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<bool> {
        options::set_by_name(PHANTOM_OPTIONS, self, name, value)
    }

    fn new_game(&mut self) {
        self.referee = Referee::new(self.config);
        self.view_position = None;
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<()> {
        if let StartPosition::Fen(text) = start {
            if !moves.is_empty() {
                return Err("a view position takes no tries: only the referee can answer them".into());
            }
            self.view_position = Some(parse_view_position(text)?);
            return Ok(());
        }
        let mut r = Referee::new(self.config);
        for (i, text) in moves.iter().enumerate() {
            let mv = parse_try(text).map_err(|e| format!("try {} '{text}': {e}", i + 1))?;
            r.try_move(mv).map_err(|e| format!("try {} '{text}': {e}", i + 1))?;
        }
        self.referee = r;
        self.view_position = None;
        Ok(())
    }

    fn p1_to_move(&self) -> bool {
        self.mover_view().color() == Color::BLACK
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.view_position.is_some() {
            return None;
        }
        let result = self.referee.result(referee_dead(&self.referee))?;
        Some(match result.winner {
            Some(c) => Outcome::Win(c),
            None => Outcome::Draw,
        })
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let view = self.mover_view();
        bits(sensible_tries(view)).map(|p| try_text(Move::Play(p))).chain(["pass".to_string()]).collect()
    }

    fn is_legal(&self, mv: &str) -> bool {
        if self.outcome().is_some() {
            return false;
        }
        let view = self.mover_view();
        match parse_try(mv) {
            Ok(Move::Pass) => true,
            Ok(Move::Play(p)) => sensible_tries(view) & p.bit() != 0,
            Err(_) => false,
        }
    }

    fn fen(&self) -> String {
        match &self.view_position {
            Some(v) => v.to_text(),
            None => board_text(self.referee.board()),
        }
    }

    fn score(&self) -> String {
        if self.view_position.is_some() {
            return "unknown (a view position: only the referee can count)".into();
        }
        format!("{}", self.referee.score(referee_dead(&self.referee)).margin())
    }

    fn draw(&self) -> String {
        if let Some(v) = &self.view_position {
            return format!(
                "a view position, rules {} komi {}\n{}",
                rules_name(self.config.rules),
                self.config.komi,
                v.to_text()
            );
        }
        let mut out = self.referee.board().draw();
        out.push_str(&format!("\nrules {} komi {}", rules_name(self.config.rules), self.config.komi));
        for c in [Color::BLACK, Color::WHITE] {
            out.push_str(&format!(
                "\n{} view: {}",
                if c == Color::BLACK { "black" } else { "white" },
                self.referee.view(c).to_text()
            ));
        }
        out
    }

    fn perft(&self, _depth: u32, _threads: usize) -> Result<crate::games::session::PerftJob> {
        Err("perft is not defined for Phantom Go (a try's answer depends on hidden stones)".into())
    }

    fn search_job(&mut self, limits: Limits, _options: &SearchOptions) -> SearchJob {
        // The player gets the mover's view and nothing else.
        let view = self.mover_view().clone();
        let settings = PlayerSettings {
            player: self.player,
            rules: self.config.rules,
            komi: self.config.komi,
            playouts: self.playouts,
        };
        self.seed = self.seed.wrapping_add(1);
        let seed = self.seed;
        let note = limits.depth.map(|depth| {
            crate::games::go::depth_note("Phantom Go", depth, &limits, search::phantom::player::DEFAULT_PLAYOUTS)
        });
        Box::new(move |stop: &StopFlag, report: &mut (dyn FnMut(&Report) + Send)| {
            if let Some(note) = note {
                report(&Report::note(note));
            }
            let c = choose(&view, &settings, &limits, stop, seed);
            let w = f64::from(c.win_rate.clamp(0.001, 0.999));
            let final_report = Report {
                depth: 1,
                nodes: c.playouts,
                elapsed: c.elapsed,
                score: Score::Centi((400.0 * (w / (1.0 - w)).log10()).round() as i32),
                pv: vec![try_text(c.mv)],
                note: None,
            };
            report(&final_report);
            SearchOutcome { best_move: Some(try_text(c.mv)), report: final_report }
        })
    }

    fn game_query(&self, query: &Query) -> Result<String> {
        if let Some(v) = &self.view_position {
            return view_query(v, query);
        }
        let r = &self.referee;
        Ok(match query {
            Query::View { black } => r.view(if *black { Color::BLACK } else { Color::WHITE }).board_text(),
            Query::Full => full_text(r),
            Query::Counts => {
                let [b, w] = r.stone_counts();
                format!("{b} {w}")
            }
            Query::LastLegal => match r.last_legal() {
                None => "none".into(),
                Some((c, mv)) => format!("{} {}", if c == Color::BLACK { "b" } else { "w" }, try_text(mv)),
            },
            Query::Captured => {
                let captured = r.last_captured();
                let mut words = vec![captured.count_ones().to_string()];
                words.extend(bits(captured).map(|p| p.to_gtp(SIZE)));
                words.join(" ")
            }
            _ => return Err("not a Phantom Go query".into()),
        })
    }
}

/// The Phantom Go queries in a view position: only what the view holds.
fn view_query(v: &View, query: &Query) -> Result<String> {
    Ok(match query {
        Query::View { black } => {
            if (v.color() == Color::BLACK) != *black {
                return Err("a view position holds only its own side's view".into());
            }
            v.board_text()
        }
        Query::Counts => {
            let (own, theirs) = (v.own().count_ones(), v.opponent_count());
            if v.color() == Color::BLACK { format!("{own} {theirs}") } else { format!("{theirs} {own}") }
        }
        Query::Captured => {
            let captured = v.last_captured();
            let mut words = vec![captured.count_ones().to_string()];
            words.extend(bits(captured).map(|p| p.to_gtp(SIZE)));
            words.join(" ")
        }
        Query::Full | Query::LastLegal => {
            return Err("a view position does not hold the full board or the opponent's moves".into());
        }
        _ => return Err("not a Phantom Go query".into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tries_replay_and_queries() {
        let mut s = PhantomSession::new();
        let moves: Vec<String> = ["E5", "E5", "D5", "pass"].iter().map(|m| m.to_string()).collect();
        s.set_position(&StartPosition::StartPos, &moves).unwrap();
        // E5 black, E5 white refused, D5 white, black passes: white to move.
        assert!(!s.p1_to_move());
        assert_eq!(s.game_query(&Query::Counts).unwrap(), "1 1");
        assert_eq!(s.game_query(&Query::LastLegal).unwrap(), "b pass");
        let v = s.game_query(&Query::View { black: true }).unwrap();
        assert_eq!(v.chars().filter(|&c| c == 'X').count(), 1);
        assert_eq!(v.chars().filter(|&c| c == 'O').count(), 0);
        assert!(s.set_position(&StartPosition::StartPos, &["Z9".to_string()]).is_err());
        assert!(!s.p1_to_move(), "a bad position leaves the old one");
    }
}
