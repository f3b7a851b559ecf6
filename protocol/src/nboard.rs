//! The NBoard protocol, spoken by the NBoard Othello GUI:
//!
//! ```text
//! > nboard 2
//! > set game (;GM[Othello]…;)
//! > set depth 6
//! > ping 1                 < pong 1
//! > go                     < status thinking
//!                          < === d6/-1.00/0.3
//!                          < status
//! ```
//!
//! Engine lines: `set myname`, `status`, `nodestats <nodes> <seconds>`,
//! `search <pv> <eval> 0 <depth>` (during `hint`), `=== <move>/<eval>/<time>`,
//! `pong n`, `learned`, `analysis <ply> <eval>`. Unknown commands are to be ignored;
//! we answer them with a `status` line naming the problem, which the GUI shows.

use thiserror::Error;

/// One NBoard command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `nboard <version>`.
    Nboard(u32),
    /// `set depth <n>`.
    SetDepth(u32),
    /// `set game <GGF>`.
    SetGame(String),
    /// `set contempt <n>` (centi-discs).
    SetContempt(i32),
    /// `move <move>[/<eval>[/<time>]]`, or a bare move (NBoard 1.1).
    Move(String),
    /// `hint <n>`.
    Hint(u32),
    /// `go`.
    Go,
    /// `ping <n>`.
    Ping(String),
    /// `learn`.
    Learn,
    /// `analyze`.
    Analyze,
    /// `quit`.
    Quit,
}

/// A line that is not an NBoard command.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// Nothing on the line.
    #[error("empty line")]
    Empty,
    /// An unknown command.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// A missing or bad argument.
    #[error("'{command}' needs {what}")]
    Argument {
        /// The command.
        command: &'static str,
        /// What it needs.
        what: &'static str,
    },
}

/// Parses one line.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let number = |command: &'static str, what: &'static str| {
        rest.split_whitespace().next().and_then(|w| w.parse().ok()).ok_or(ParseError::Argument { command, what })
    };
    match word {
        "" => Err(ParseError::Empty),
        "nboard" => number("nboard", "a version number").map(Command::Nboard),
        "set" => {
            let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let value = value.trim();
            match what {
                "depth" => value
                    .parse()
                    .map(Command::SetDepth)
                    .map_err(|_| ParseError::Argument { command: "set depth", what: "a depth" }),
                "game" if !value.is_empty() => Ok(Command::SetGame(value.to_string())),
                "game" => Err(ParseError::Argument { command: "set game", what: "a GGF game" }),
                "contempt" => value
                    .parse::<f64>()
                    .map(|c| Command::SetContempt(c.round() as i32))
                    .map_err(|_| ParseError::Argument { command: "set contempt", what: "a number" }),
                _ => Err(ParseError::Unknown(format!("set {what}"))),
            }
        }
        "move" if !rest.is_empty() => Ok(Command::Move(rest.split_whitespace().next().unwrap_or_default().to_string())),
        "move" => Err(ParseError::Argument { command: "move", what: "a move" }),
        "hint" => number("hint", "a number of moves").map(Command::Hint),
        "go" => Ok(Command::Go),
        "ping" => Ok(Command::Ping(rest.split_whitespace().next().unwrap_or("0").to_string())),
        "learn" => Ok(Command::Learn),
        "analyze" => Ok(Command::Analyze),
        "quit" => Ok(Command::Quit),
        w if w.len() == 2 && w.as_bytes()[0].is_ascii_alphabetic() && w.as_bytes()[1].is_ascii_digit() => {
            Ok(Command::Move(w.to_string()))
        }
        other => Err(ParseError::Unknown(other.chars().take(40).flat_map(char::escape_default).collect())),
    }
}

/// The move part of a `move` argument (`F5/1.2/3.4` → `F5`).
pub fn move_text(arg: &str) -> &str {
    arg.split('/').next().unwrap_or(arg)
}

/// `=== <move>/<eval>/<time>`: the engine's choice after `go`.
pub fn best_move_line(mv: &str, eval: f64, seconds: f64) -> String {
    format!("=== {mv}/{eval:.2}/{seconds:.1}")
}

/// `search <pv> <eval> 0 <depth>`: progress during `hint` (the pv has no spaces).
pub fn search_line(pv: &[String], eval: f64, depth: &str) -> String {
    format!("search {} {eval:.2} 0 {depth}", pv.join("-"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands() {
        assert_eq!(parse("nboard 2"), Ok(Command::Nboard(2)));
        assert_eq!(parse("set depth 6"), Ok(Command::SetDepth(6)));
        assert_eq!(parse("set game (;GM[Othello];)"), Ok(Command::SetGame("(;GM[Othello];)".into())));
        assert_eq!(parse("set contempt 150"), Ok(Command::SetContempt(150)));
        assert_eq!(parse("move F5/1.50/2.0"), Ok(Command::Move("F5/1.50/2.0".into())));
        assert_eq!(parse("F5"), Ok(Command::Move("F5".into())));
        assert_eq!(parse("hint 3"), Ok(Command::Hint(3)));
        assert_eq!(parse("ping 17"), Ok(Command::Ping("17".into())));
        assert_eq!(parse("go"), Ok(Command::Go));
        assert!(matches!(parse("set depth x"), Err(ParseError::Argument { .. })));
        assert!(matches!(parse("frob"), Err(ParseError::Unknown(_))));
        assert_eq!(parse("  "), Err(ParseError::Empty));
        assert_eq!(move_text("F5/1.5/2"), "F5");
    }

    #[test]
    fn replies() {
        assert_eq!(best_move_line("d6", -1.0, 0.04), "=== d6/-1.00/0.0");
        assert_eq!(search_line(&["F5".into(), "d6".into()], 2.0, "12"), "search F5-d6 2.00 0 12");
    }
}
