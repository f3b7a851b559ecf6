//! The built-in games' [`GameSpec`]s: the one place that knows every built-in game's
//! front-end types (the [`GameSession`] that UGI+ and GTP drive, the arena's
//! referee).

use bitboards::othello::{Board, Position};

use crate::error::{EngineError, Result};
use crate::games::go::GoSession;
use crate::games::referee::{ArenaGame, Opening, RefereeRules, Refereed, referee_of};
use crate::games::replay::{self, ReplayInput, Replayed, ReportFace};
use crate::games::session::GameSession;
use crate::games::spec::{BoardSizes, GameSpec};

/// Othello (Reversi), 8×8 and the 6×6 and 10×10 variants.
pub struct OthelloSpec;

impl GameSpec for OthelloSpec {
    fn name(&self) -> &'static str {
        "othello"
    }
    fn aliases(&self) -> &'static [&'static str] {
        &["reversi"]
    }
    fn title(&self) -> &'static str {
        "Othello"
    }
    fn board_sizes(&self) -> BoardSizes {
        BoardSizes { default: 8, min: 6, max: 10, text: "6, 8 or 10" }
    }
    fn new_session(&self, size: Option<usize>) -> Result<Box<dyn GameSession>> {
        crate::games::othello::new_session(size.unwrap_or(8))
    }
    fn gtp_name(&self) -> Option<&'static str> {
        Some("Othello")
    }
    /// The exact solver adjudicates at the game option `solve_empties` empties
    /// (when given and not 0).
    fn new_referee(&self, rules: &RefereeRules, start: Option<&str>) -> std::result::Result<Box<dyn Refereed>, String> {
        crate::games::referee::othello::solve_empties(&rules.options)?;
        Ok(referee_of(rules, Position::<Board>::from_opening(rules, start)?))
    }
    fn arena_size(&self, size: Option<usize>) -> std::result::Result<usize, String> {
        match size {
            None | Some(8) => Ok(8),
            Some(n) => Err(format!("the arena referees Othello on 8x8, not {n}x{n}")),
        }
    }
    fn max_moves(&self, _size: usize) -> usize {
        200
    }
    fn random_plies(&self) -> usize {
        6
    }
    fn reads_record(&self, file: &str, _text: &str) -> bool {
        file.ends_with(".ggf")
    }
    fn replay(&self, input: &ReplayInput) -> anyhow::Result<Replayed> {
        replay::othello::replay(input)
    }
    fn speaks_nboard(&self) -> bool {
        true
    }
    fn passes_only_when_forced(&self) -> bool {
        true
    }
    fn board_points(&self, size: usize) -> Vec<String> {
        (0..size * size).map(|i| format!("{}{}", char::from(b'a' + (i % size) as u8), i / size + 1)).collect()
    }
    /// Black wipes White out in 9 moves.
    fn ended_line(&self) -> Option<&'static [&'static str]> {
        Some(&["e6", "f4", "e3", "f6", "g5", "d6", "e7", "f5", "c5"])
    }
    /// A board and side (an OBF line) or moves, with or without spaces (`f5d6c3`).
    fn opening_of_line(&self, line: &str) -> std::result::Result<Opening, String> {
        if line.len() >= 64 && line.contains(' ') && !line.contains(char::is_numeric) {
            return Ok(Opening { start: Some(line.to_string()), moves: Vec::new() });
        }
        let moves = if line.contains(char::is_whitespace) {
            line.split_whitespace().map(str::to_string).collect()
        } else {
            let chars: Vec<char> = line.chars().collect();
            chars.chunks(2).map(|c| c.iter().collect()).collect()
        };
        Ok(Opening { start: None, moves })
    }
}

/// Go up to 9×9, area scoring.
pub struct GoSpec;

impl GameSpec for GoSpec {
    fn name(&self) -> &'static str {
        "go"
    }
    fn aliases(&self) -> &'static [&'static str] {
        &["igo", "weiqi", "baduk"]
    }
    fn title(&self) -> &'static str {
        "Go"
    }
    fn board_sizes(&self) -> BoardSizes {
        BoardSizes { default: 9, min: 2, max: bitboards::go::MAX_SIZE, text: "2 to 9" }
    }
    fn new_session(&self, size: Option<usize>) -> Result<Box<dyn GameSession>> {
        Ok(Box::new(GoSession::new(size)?))
    }
    fn gtp_name(&self) -> Option<&'static str> {
        Some("Go")
    }
    /// The engines are asked for dead stones at the end.
    fn new_referee(&self, rules: &RefereeRules, start: Option<&str>) -> std::result::Result<Box<dyn Refereed>, String> {
        Ok(referee_of(rules, bitboards::go::Game::from_opening(rules, start)?))
    }
    fn arena_size(&self, size: Option<usize>) -> std::result::Result<usize, String> {
        match size {
            None => Ok(9),
            Some(n) if (2..=9).contains(&n) => Ok(n),
            Some(n) => Err(format!("Go boards up to 9x9, not {n}x{n}")),
        }
    }
    fn default_komi(&self) -> Option<f64> {
        Some(7.0)
    }
    fn max_moves(&self, size: usize) -> usize {
        3 * size * size
    }
    fn report_face(&self) -> ReportFace {
        ReportFace { hint: "Red squares: stones just captured.", ..ReportFace::default() }
    }
    fn describe_match(&self, rules: &RefereeRules) -> String {
        format!("Go {0}×{0}, komi {1}", rules.size, rules.komi)
    }
    fn reads_record(&self, file: &str, _text: &str) -> bool {
        file.ends_with(".sgf")
    }
    fn replay(&self, input: &ReplayInput) -> anyhow::Result<Replayed> {
        replay::go::replay(input)
    }
    fn board_points(&self, size: usize) -> Vec<String> {
        bitboards::go::points(size).map(|p| p.to_gtp(size)).collect()
    }
    /// An SGF file's main line (no setup stones: they cannot be sent over GTP).
    fn opening_of_file(&self, text: &str, size: usize) -> Option<std::result::Result<Opening, String>> {
        if !text.trim_start().starts_with("(;") {
            return None;
        }
        let read = || {
            let game = bitboards::go::sgf::parse(text).map_err(|e| e.to_string())?;
            if game.size != size {
                return Err(format!("a {0}x{0} game, but the match is on {size}x{size}", game.size));
            }
            if !game.setup.is_empty() {
                return Err("setup stones (AB/AW) cannot be sent over GTP; give the moves instead".to_string());
            }
            Ok(Opening { start: None, moves: game.moves.iter().map(|(_, m)| m.to_gtp(size)).collect() })
        };
        Some(read())
    }
}

/// Phantom Go (幻影围棋), 9×9, with a referee.
pub struct PhantomSpec;

impl GameSpec for PhantomSpec {
    fn name(&self) -> &'static str {
        "phantomgo"
    }
    fn aliases(&self) -> &'static [&'static str] {
        &["phantom-go", "phantom"]
    }
    fn title(&self) -> &'static str {
        "Phantom Go"
    }
    fn board_sizes(&self) -> BoardSizes {
        BoardSizes { default: 9, min: 9, max: 9, text: "9 only" }
    }
    fn new_session(&self, size: Option<usize>) -> Result<Box<dyn GameSession>> {
        match size {
            None | Some(9) => Ok(Box::new(crate::games::phantom::PhantomSession::new())),
            Some(n) => Err(EngineError::BoardSize(format!("Phantom Go is played on 9x9 only (9), not {n}"))),
        }
    }
    fn new_referee(
        &self,
        _rules: &RefereeRules,
        _start: Option<&str>,
    ) -> std::result::Result<Box<dyn Refereed>, String> {
        Err("Phantom Go is refereed by the arena's Phantom Go loop".into())
    }
    fn arena_size(&self, size: Option<usize>) -> std::result::Result<usize, String> {
        match size {
            None | Some(9) => Ok(9),
            Some(n) => Err(format!("Phantom Go is played on 9x9, not {n}x{n}")),
        }
    }
    fn default_komi(&self) -> Option<f64> {
        Some(7.5)
    }
    /// Tries, illegal ones included.
    fn max_moves(&self, size: usize) -> usize {
        12 * size * size
    }
    fn random_plies(&self) -> usize {
        0
    }
    fn report_face(&self) -> ReportFace {
        ReportFace {
            turn: "try",
            turn_axis: "tries before this one",
            wide: true,
            hint: "One frame per try. The referee's board is the true game (red squares: stones just captured). \
                   A player's view is what the rules let it know: its own stones, the opponent stones it has \
                   learned (OpenSpiel rules: those its refused tries ran into; CCGC rules: none), its refused \
                   tries of the turn (red &#215;), and the points of the last capture it was told of (purple \
                   squares).",
            shows_openings: false,
            ..ReportFace::default()
        }
    }
    fn describe_match(&self, rules: &RefereeRules) -> String {
        let name = crate::games::phantom::rules_of(&rules.options).map_or("unknown", crate::games::phantom::rules_name);
        format!("Phantom Go, {name} rules, komi {}", rules.komi)
    }
    fn board_captions(&self, first: &str, second: &str) -> Vec<String> {
        vec!["the referee's board".to_string(), format!("black's view ({first})"), format!("white's view ({second})")]
    }
    fn reads_record(&self, file: &str, text: &str) -> bool {
        file.ends_with(".txt") && text.starts_with(replay::phantom::RECORD_HEADER)
    }
    fn replay(&self, input: &ReplayInput) -> anyhow::Result<Replayed> {
        replay::phantom::replay(input)
    }
    fn hides_moves(&self) -> bool {
        true
    }
    fn opening_of_line(&self, _line: &str) -> std::result::Result<Opening, String> {
        Err("Phantom Go games start from the empty board (no openings file)".to_string())
    }
    /// Hidden stones cannot be opened with: every game starts empty.
    fn deal_opening(&self, _seed: u64, _k: u64) -> Option<Opening> {
        Some(Opening { start: None, moves: Vec::new() })
    }
}

/// Chaos Clock (混乱时钟).
pub struct ChaosClockSpec;

impl GameSpec for ChaosClockSpec {
    fn name(&self) -> &'static str {
        "chaosclock"
    }
    fn aliases(&self) -> &'static [&'static str] {
        &["chaos-clock"]
    }
    fn title(&self) -> &'static str {
        "Chaos Clock"
    }
    /// 乙 holds the even pieces and moves first.
    fn player_names(&self) -> (&'static str, &'static str) {
        ("乙", "甲")
    }
    /// The clock's 12 points.
    fn board_sizes(&self) -> BoardSizes {
        BoardSizes { default: 12, min: 12, max: 12, text: "12 only" }
    }
    fn new_session(&self, size: Option<usize>) -> Result<Box<dyn GameSession>> {
        match size {
            None | Some(12) => Ok(Box::new(crate::games::chaosclock::new_session())),
            Some(n) => Err(EngineError::BoardSize(format!("the Chaos Clock has 12 points (size 12 only), not {n}"))),
        }
    }
    fn new_referee(&self, rules: &RefereeRules, start: Option<&str>) -> std::result::Result<Box<dyn Refereed>, String> {
        Ok(referee_of(rules, bitboards::chaosclock::Record::from_opening(rules, start)?))
    }
    /// The clock has 12 points whatever `--size` says.
    fn arena_size(&self, _size: Option<usize>) -> std::result::Result<usize, String> {
        Ok(12)
    }
    fn max_moves(&self, _size: usize) -> usize {
        300
    }
    fn random_plies(&self) -> usize {
        0
    }
    fn report_face(&self) -> ReportFace {
        ReportFace {
            seats: ["乙 Yi (even pieces, first)", "甲 Jia (odd pieces)"],
            hint: "Points 1 to 12 clockwise, 12 at the top; 甲 Jia's odd pieces are red, 乙 Yi's even ones blue; a \
                   piece on its own number (fixed) has a gold ring, the piece walked last a dashed one, the last \
                   move's point a red one.",
            random_openings: |_plies, seed| format!("random deals (seed {seed})"),
            ..ReportFace::default()
        }
    }
    fn board_captions(&self, first: &str, second: &str) -> Vec<String> {
        vec![format!("乙 Yi {first} – 甲 Jia {second}")]
    }
    fn reads_record(&self, file: &str, text: &str) -> bool {
        file.ends_with(".txt") && replay::chaosclock::is_record(text)
    }
    fn replay(&self, input: &ReplayInput) -> anyhow::Result<Replayed> {
        replay::chaosclock::replay(input)
    }
    /// A position (a deal).
    fn opening_of_line(&self, line: &str) -> std::result::Result<Opening, String> {
        Ok(Opening { start: Some(line.to_string()), moves: Vec::new() })
    }
    /// A random deal.
    fn deal_opening(&self, seed: u64, k: u64) -> Option<Opening> {
        Some(Opening { start: Some(crate::games::chaosclock::deal(seed, k).to_string()), moves: Vec::new() })
    }
}
