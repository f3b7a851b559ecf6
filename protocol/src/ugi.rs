//! UGI+, the native protocol: UCI's shape for any two-player game.
//!
//! ```text
//! > ugi                      < id name sente … / option … / ugiok
//! > isready                  < readyok
//! > setoption name Game value othello
//! > position startpos moves d3 c3
//! > go depth 6               < info depth 6 … score cp 120 pv …
//!                            < bestmove c4
//! > query legalmoves         < response b3 c4 …
//! ```
//!
//! UCI names are accepted too (`uci`, `ucinewgame`, `wtime`/`btime`/`winc`/`binc` for
//! the first and second player's clocks). Errors are reported as
//! `info string error: …` lines, the only free-form line UCI-style GUIs display.

use std::fmt;

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// The game's initial position.
    StartPos,
    /// A position in the game's text form (everything between `fen` and `moves`).
    Fen(String),
}

/// The arguments of `go`. Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// Player one's time left (`p1time`, `wtime`).
    pub p1time: Option<u64>,
    /// Player two's time left (`p2time`, `btime`).
    pub p2time: Option<u64>,
    /// Player one's increment (`p1inc`, `winc`).
    pub p1inc: Option<u64>,
    /// Player two's increment (`p2inc`, `binc`).
    pub p2inc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Maximum depth.
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
}

/// A question about the current position (`query …`), answered by `response …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// `true` when the game is over.
    GameOver,
    /// `true` when player one is to move.
    P1Turn,
    /// `p1win`, `p2win`, `draw` (or `bothwin`, `bothlose`) or `none`.
    Result,
    /// The legal moves, space-separated.
    LegalMoves,
    /// Whether a move is legal.
    IsLegal(String),
    /// The position's text form.
    Fen,
    /// The current score for player one in the game's counting.
    Score,
    /// Phantom Go: what one side knows (`view b|w`), 81 characters, the top row first.
    View {
        /// Black's view (else White's).
        black: bool,
    },
    /// Phantom Go: the referee's full board, as [`Query::View`].
    Full,
    /// Phantom Go: the stones of each colour on the board (`black white`).
    Counts,
    /// Phantom Go: the last accepted move and who made it.
    LastLegal,
    /// Phantom Go: the stones the last capture took.
    Captured,
}

/// One line of UGI+ input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ugi` or `uci`: identify and list options.
    Ugi,
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name N [value V]`.
    SetOption {
        /// Option name (may contain spaces).
        name: String,
        /// Option value, if any.
        value: Option<String>,
    },
    /// `uginewgame` or `ucinewgame`.
    NewGame,
    /// `position startpos|fen … [moves …]`.
    Position {
        /// The start.
        start: StartPosition,
        /// Moves to play from it.
        moves: Vec<String>,
    },
    /// `go …`.
    Go(GoCommand),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// `query …`.
    Query(Query),
    /// `perft <depth>`.
    Perft(u32),
    /// `bench [depth]`.
    Bench(Option<u32>),
    /// `d`: draw the board.
    Display,
}

/// A line that is not a UGI+ command.
pub type ParseError = crate::LineError;

/// Parses one line of input.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let mut words = line.split_whitespace();
    let Some(word) = words.next() else {
        return Err(ParseError::Empty);
    };
    let rest: Vec<&str> = words.collect();
    let no_args = |cmd: Command, name: &'static str| match rest.first() {
        None => Ok(cmd),
        Some(t) => Err(ParseError::Unexpected { command: name, token: t.to_string() }),
    };
    match word {
        "ugi" | "uci" => no_args(Command::Ugi, "ugi"),
        "isready" => no_args(Command::IsReady, "isready"),
        "uginewgame" | "ucinewgame" => no_args(Command::NewGame, "uginewgame"),
        "stop" => no_args(Command::Stop, "stop"),
        "quit" => Ok(Command::Quit),
        "d" => no_args(Command::Display, "d"),
        "setoption" => parse_setoption(&rest),
        "position" => parse_position(&rest),
        "go" => parse_go(&rest).map(Command::Go),
        "query" => parse_query(&rest).map(Command::Query),
        "perft" => match rest.as_slice() {
            [] => Err(ParseError::Missing { command: "perft", what: "a depth" }),
            [d] => number(d, "perft", "the depth").map(Command::Perft),
            [_, t, ..] => Err(ParseError::Unexpected { command: "perft", token: t.to_string() }),
        },
        "bench" => match rest.as_slice() {
            [] => Ok(Command::Bench(None)),
            [d] => number(d, "bench", "the depth").map(|d| Command::Bench(Some(d))),
            [_, t, ..] => Err(ParseError::Unexpected { command: "bench", token: t.to_string() }),
        },
        other => Err(ParseError::Unknown(printable(other))),
    }
}

/// A token made safe to echo in one output line (control characters escaped, length
/// bounded).
fn printable(token: &str) -> String {
    let mut out: String = token.chars().take(40).flat_map(char::escape_default).collect();
    if token.chars().count() > 40 {
        out.push('…');
    }
    out
}

fn number<T: std::str::FromStr>(token: &str, command: &'static str, what: &'static str) -> Result<T, ParseError> {
    token.parse().map_err(|_| ParseError::BadValue { command, token: printable(token), what })
}

fn parse_setoption(rest: &[&str]) -> Result<Command, ParseError> {
    const CMD: &str = "setoption";
    match rest.first() {
        Some(&"name") => {}
        Some(t) => {
            return Err(ParseError::Unexpected { command: CMD, token: printable(t) });
        }
        None => {
            return Err(ParseError::Missing { command: CMD, what: "'name <option>'" });
        }
    }
    let value_at = rest.iter().position(|&w| w == "value");
    let name_words = &rest[1..value_at.unwrap_or(rest.len())];
    if name_words.is_empty() {
        return Err(ParseError::Missing { command: CMD, what: "an option name" });
    }
    let value = match value_at {
        Some(i) if i + 1 < rest.len() => Some(rest[i + 1..].join(" ")),
        Some(_) => {
            return Err(ParseError::Missing { command: CMD, what: "a value after 'value'" });
        }
        None => None,
    };
    Ok(Command::SetOption { name: name_words.join(" "), value })
}

fn parse_position(rest: &[&str]) -> Result<Command, ParseError> {
    const CMD: &str = "position";
    let moves_at = rest.iter().position(|&w| w == "moves");
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    let moves = match moves_at {
        Some(i) => rest[i + 1..].iter().map(|m| m.to_string()).collect(),
        None => Vec::new(),
    };
    let start = match head {
        ["startpos"] => StartPosition::StartPos,
        ["startpos", t, ..] => {
            return Err(ParseError::Unexpected { command: CMD, token: printable(t) });
        }
        ["fen"] => {
            return Err(ParseError::Missing { command: CMD, what: "a position after 'fen'" });
        }
        ["fen", fen @ ..] => StartPosition::Fen(fen.join(" ")),
        [] => {
            return Err(ParseError::Missing { command: CMD, what: "'startpos' or 'fen <position>'" });
        }
        [t, ..] => {
            return Err(ParseError::Unexpected { command: CMD, token: printable(t) });
        }
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(rest: &[&str]) -> Result<GoCommand, ParseError> {
    const CMD: &str = "go";
    let mut go = GoCommand::default();
    let mut it = rest.iter();
    while let Some(&key) = it.next() {
        if key == "infinite" {
            go.infinite = true;
            continue;
        }
        let mut value =
            |what| -> Result<&str, ParseError> { it.next().copied().ok_or(ParseError::Missing { command: CMD, what }) };
        match key {
            "p1time" | "wtime" => go.p1time = Some(number(value("a time")?, CMD, "a time in ms")?),
            "p2time" | "btime" => go.p2time = Some(number(value("a time")?, CMD, "a time in ms")?),
            "p1inc" | "winc" => go.p1inc = Some(number(value("an increment")?, CMD, "an increment in ms")?),
            "p2inc" | "binc" => go.p2inc = Some(number(value("an increment")?, CMD, "an increment in ms")?),
            "movestogo" => go.movestogo = Some(number(value("a move count")?, CMD, "a move count")?),
            "depth" => go.depth = Some(number(value("a depth")?, CMD, "a depth")?),
            "nodes" => go.nodes = Some(number(value("a node count")?, CMD, "a node count")?),
            "movetime" => go.movetime = Some(number(value("a time")?, CMD, "a time in ms")?),
            other => {
                return Err(ParseError::Unexpected { command: CMD, token: printable(other) });
            }
        }
    }
    Ok(go)
}

fn parse_query(rest: &[&str]) -> Result<Query, ParseError> {
    const CMD: &str = "query";
    let q = match rest {
        [] => {
            return Err(ParseError::Missing { command: CMD, what: "what to ask" });
        }
        ["gameover"] => Query::GameOver,
        ["p1turn"] => Query::P1Turn,
        ["result"] => Query::Result,
        ["legalmoves"] => Query::LegalMoves,
        ["fen"] => Query::Fen,
        ["score"] => Query::Score,
        ["full"] => Query::Full,
        ["counts"] => Query::Counts,
        ["lastlegal"] => Query::LastLegal,
        ["captured"] => Query::Captured,
        ["view"] => {
            return Err(ParseError::Missing { command: CMD, what: "'b' or 'w' after 'view'" });
        }
        ["view", side] => match side.to_ascii_lowercase().as_str() {
            "b" | "black" => Query::View { black: true },
            "w" | "white" => Query::View { black: false },
            other => {
                return Err(ParseError::BadValue { command: CMD, token: printable(other), what: "'b' or 'w'" });
            }
        },
        ["islegal"] => {
            return Err(ParseError::Missing { command: CMD, what: "a move after 'islegal'" });
        }
        ["islegal", mv] => Query::IsLegal(mv.to_string()),
        [first, ..]
            if matches!(
                *first,
                "gameover"
                    | "p1turn"
                    | "result"
                    | "legalmoves"
                    | "fen"
                    | "score"
                    | "islegal"
                    | "view"
                    | "full"
                    | "counts"
                    | "lastlegal"
                    | "captured"
            ) =>
        {
            return Err(ParseError::Unexpected { command: CMD, token: printable(rest[rest.len() - 1]) });
        }
        [other, ..] => {
            return Err(ParseError::BadValue {
                command: CMD,
                token: printable(other),
                what: "a query (gameover, p1turn, result, legalmoves, islegal, fen, score; Phantom Go: view, full, counts, lastlegal, captured)",
            });
        }
    };
    Ok(q)
}

/// A score in an `info` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoScore {
    /// `score cp N`: a heuristic value in centi-units.
    Centi(i32),
    /// `score disc N`: a proven final margin (Othello).
    Disc(i32),
}

/// An `info` line. Fields left `None` are not printed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// Iteration depth.
    pub depth: Option<u32>,
    /// Deepest ply reached.
    pub seldepth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Milliseconds since the search began.
    pub time_ms: Option<u64>,
    /// Score of the best move.
    pub score: Option<InfoScore>,
    /// Hash table use, per mille.
    pub hashfull: Option<u32>,
    /// The principal variation.
    pub pv: Vec<String>,
    /// Free text for the user (`info string …`), written last: the rest of the line
    /// is the text.
    pub string: Option<String>,
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "info")?;
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        if let Some(d) = self.seldepth {
            write!(f, " seldepth {d}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(t) = self.time_ms {
            write!(f, " time {t}")?;
            if let Some(n) = self.nodes {
                write!(f, " nps {}", n * 1000 / t.max(1))?;
            }
        }
        match self.score {
            Some(InfoScore::Centi(v)) => write!(f, " score cp {v}")?,
            Some(InfoScore::Disc(v)) => write!(f, " score disc {v}")?,
            None => {}
        }
        if let Some(h) = self.hashfull {
            write!(f, " hashfull {h}")?;
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        if let Some(text) = &self.string {
            write!(f, " string {text}")?;
        }
        Ok(())
    }
}

/// `info string error: …`, the reply to a bad line.
pub fn error_line(message: &str) -> String {
    format!("info string error: {message}")
}

/// `bestmove <move>` (`bestmove none` when there is no move).
pub fn bestmove_line(mv: Option<&str>) -> String {
    format!("bestmove {}", mv.unwrap_or("none"))
}

/// `response <text>`, or `response` alone when the answer is empty (`query
/// legalmoves` in a finished game): never a trailing space.
pub fn response_line(text: &str) -> String {
    if text.is_empty() { "response".to_string() } else { format!("response {text}") }
}

/// The type of an engine option as `option` lines announce it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer in a range.
    Spin {
        /// Default.
        default: i64,
        /// Minimum.
        min: i64,
        /// Maximum.
        max: i64,
    },
    /// One of a list of words.
    Combo {
        /// Default.
        default: String,
        /// The allowed words.
        values: Vec<String>,
    },
    /// Free text.
    Text {
        /// Default.
        default: String,
    },
    /// On or off.
    Check {
        /// Default.
        default: bool,
    },
}

/// `option name <name> type …`.
pub fn option_line(name: &str, kind: &OptionKind) -> String {
    match kind {
        OptionKind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        OptionKind::Combo { default, values } => {
            let vars: Vec<String> = values.iter().map(|v| format!("var {v}")).collect();
            format!("option name {name} type combo default {default} {}", vars.join(" "))
        }
        OptionKind::Text { default } => format!("option name {name} type string default {default}"),
        OptionKind::Check { default } => format!("option name {name} type check default {default}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands() {
        assert_eq!(parse("ugi"), Ok(Command::Ugi));
        assert_eq!(parse("  uci  "), Ok(Command::Ugi));
        assert_eq!(parse("isready"), Ok(Command::IsReady));
        assert_eq!(parse("ucinewgame"), Ok(Command::NewGame));
        assert_eq!(parse("quit"), Ok(Command::Quit));
        assert_eq!(parse(""), Err(ParseError::Empty));
        assert_eq!(parse("   \t "), Err(ParseError::Empty));
        assert_eq!(parse("frobnicate 3"), Err(ParseError::Unknown("frobnicate".into())));
        assert!(matches!(parse("isready now"), Err(ParseError::Unexpected { .. })));
    }

    #[test]
    fn setoption_with_spaces() {
        assert_eq!(
            parse("setoption name Game value othello"),
            Ok(Command::SetOption { name: "Game".into(), value: Some("othello".into()) })
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Command::SetOption { name: "Clear Hash".into(), value: None })
        );
        assert!(parse("setoption name Hash value").is_err());
        assert!(parse("setoption Hash 3").is_err());
        assert!(parse("setoption name").is_err());
    }

    #[test]
    fn positions() {
        assert_eq!(
            parse("position startpos moves d3 c3"),
            Ok(Command::Position { start: StartPosition::StartPos, moves: vec!["d3".into(), "c3".into()] })
        );
        let fen = "---------------------------OX------XO--------------------------- X";
        assert_eq!(
            parse(&format!("position fen {fen}")),
            Ok(Command::Position { start: StartPosition::Fen(fen.into()), moves: vec![] })
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position startpos d3").is_err());
        assert!(parse("position banana").is_err());
    }

    #[test]
    fn go_arguments() {
        let go = parse("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5").unwrap();
        assert_eq!(
            go,
            Command::Go(GoCommand {
                p1time: Some(1000),
                p2time: Some(2000),
                p1inc: Some(10),
                p2inc: Some(20),
                movestogo: Some(5),
                ..GoCommand::default()
            })
        );
        assert_eq!(parse("go infinite"), Ok(Command::Go(GoCommand { infinite: true, ..Default::default() })));
        assert!(parse("go depth").is_err());
        assert!(parse("go depth -3").is_err());
        assert!(parse("go depth x").is_err());
        assert!(parse("go sideways").is_err());
    }

    #[test]
    fn queries() {
        assert_eq!(parse("query islegal d3"), Ok(Command::Query(Query::IsLegal("d3".into()))));
        assert_eq!(parse("query result"), Ok(Command::Query(Query::Result)));
        assert!(parse("query").is_err());
        assert!(parse("query weather").is_err());
        assert!(parse("query islegal").is_err());
        assert_eq!(parse("query view b"), Ok(Command::Query(Query::View { black: true })));
        assert_eq!(parse("query view W"), Ok(Command::Query(Query::View { black: false })));
        assert_eq!(parse("query full"), Ok(Command::Query(Query::Full)));
        assert_eq!(parse("query counts"), Ok(Command::Query(Query::Counts)));
        assert_eq!(parse("query lastlegal"), Ok(Command::Query(Query::LastLegal)));
        assert_eq!(parse("query captured"), Ok(Command::Query(Query::Captured)));
        assert!(parse("query view").is_err());
        assert!(parse("query view x").is_err());
        assert!(parse("query full b").is_err());
        assert!(parse("query fen now").is_err());
    }

    #[test]
    fn garbage_is_escaped_in_errors() {
        let err = parse("\u{1}\u{7f}zz").unwrap_err().to_string();
        assert!(!err.chars().any(char::is_control), "{err:?}");
        let long = "x".repeat(5000);
        assert!(parse(&long).unwrap_err().to_string().len() < 200);
    }

    #[test]
    fn output_lines() {
        let info = Info {
            depth: Some(4),
            nodes: Some(2000),
            time_ms: Some(10),
            score: Some(InfoScore::Centi(-30)),
            pv: vec!["d3".into(), "c5".into()],
            ..Info::default()
        };
        assert_eq!(info.to_string(), "info depth 4 nodes 2000 time 10 nps 200000 score cp -30 pv d3 c5");
        let note = Info { string: Some("go depth is not a limit here".into()), ..Info::default() };
        assert_eq!(note.to_string(), "info string go depth is not a limit here");
        assert_eq!(bestmove_line(Some("d3")), "bestmove d3");
        assert_eq!(bestmove_line(None), "bestmove none");
        assert_eq!(
            option_line("Threads", &OptionKind::Spin { default: 1, min: 1, max: 64 }),
            "option name Threads type spin default 1 min 1 max 64"
        );
    }
}
