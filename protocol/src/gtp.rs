//! GTP version 2, the Go Text Protocol (also used for Othello by Quarry and GRhino).
//!
//! Input is preprocessed as the specification says: control characters other than
//! tab and newline are removed, tabs become spaces, everything after `#` is a comment,
//! and empty lines are ignored. A command is an optional numeric id, a name and
//! arguments. Replies are `=id result` or `?id message` followed by an empty line.

/// One GTP command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The command's id, echoed in the reply: its digits as a number, of any length
    /// (see [`read_id`]).
    pub id: Option<String>,
    /// The command name.
    pub name: String,
    /// The arguments.
    pub args: Vec<String>,
}

/// Parses a line; `None` for lines that hold no command (empty or comment only).
pub fn parse(line: &str) -> Option<Command> {
    let cleaned: String = line
        .chars()
        .filter(|&c| c == '\t' || !c.is_control())
        .map(|c| if c == '\t' { ' ' } else { c })
        .take_while(|&c| c != '#')
        .collect();
    let mut words = cleaned.split_whitespace();
    let first = words.next()?;
    let (id, name) = match read_id(first) {
        Some(id) => (Some(id), words.next()?.to_string()),
        None => (None, first.to_string()),
    };
    Some(Command { id, name, args: words.map(str::to_string).collect() })
}

/// A command's first word read as an id: digits (after an optional `+`), of any
/// length, as GNU Go reads them (`sscanf("%d")`: the whole run of digits is the id,
/// never the command's name), given back as the number they write, without leading
/// zeros (`007` → `7`, as GNU Go echoes it). Not an id: `None`. Unlike GNU Go, whose
/// int overflows (`4294967296 name` → `=0 GNU Go`), an id too long for any machine
/// number is echoed whole.
pub fn read_id(word: &str) -> Option<String> {
    let digits = word.strip_prefix('+').unwrap_or(word);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number = digits.trim_start_matches('0');
    Some(if number.is_empty() { "0" } else { number }.to_string())
}

fn id_text(id: Option<&str>) -> &str {
    id.unwrap_or("")
}

/// A success reply, ending with the empty line. `text` may span lines.
pub fn success(id: Option<&str>, text: &str) -> String {
    if text.is_empty() {
        format!("={}\n", id_text(id))
    } else {
        format!("={} {}\n", id_text(id), text.trim_end_matches('\n'))
    }
}

/// A failure reply, ending with the empty line.
pub fn failure(id: Option<&str>, message: &str) -> String {
    format!("?{} {}\n", id_text(id), message.trim_end_matches('\n'))
}

/// The standard error messages.
pub mod errors {
    /// A command the engine does not know.
    pub const UNKNOWN_COMMAND: &str = "unknown command";
    /// A move that breaks the rules.
    pub const ILLEGAL_MOVE: &str = "illegal move";
    /// A board size the engine cannot play.
    pub const UNACCEPTABLE_SIZE: &str = "unacceptable size";
    /// `undo` without a move to take back.
    pub const CANNOT_UNDO: &str = "cannot undo";
    /// Arguments that cannot be read.
    pub const SYNTAX_ERROR: &str = "syntax error";
}

/// A GTP colour argument: `b`, `black`, `w`, `white` (any case).
pub fn parse_color(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(true),
        "w" | "white" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsing() {
        assert_eq!(
            parse("12 play black D4"),
            Some(Command { id: Some("12".into()), name: "play".into(), args: vec!["black".into(), "D4".into()] })
        );
        assert_eq!(
            parse("genmove\tw # comment"),
            Some(Command { id: None, name: "genmove".into(), args: vec!["w".into()] })
        );
        assert_eq!(parse("   "), None);
        assert_eq!(parse("# only a comment"), None);
        assert_eq!(parse("7"), None);
        assert_eq!(parse("na\u{1}me"), Some(Command { id: None, name: "name".into(), args: vec![] }));
        // An id of any length is the id (as GNU Go reads it), never the command.
        let huge = "123456789012345678901234567890";
        assert_eq!(
            parse(&format!("{huge} name")),
            Some(Command { id: Some(huge.into()), name: "name".into(), args: vec![] })
        );
        assert_eq!(parse("007 name").and_then(|c| c.id), Some("7".into()));
        assert_eq!(parse("000 name").and_then(|c| c.id), Some("0".into()));
        assert_eq!(parse("+5 name").and_then(|c| c.id), Some("5".into()));
        assert_eq!(parse("12a name").map(|c| (c.id, c.name)), Some((None, "12a".into())));
        assert_eq!(parse(huge), None);
    }

    #[test]
    fn replies() {
        assert_eq!(success(Some("3"), "C3"), "=3 C3\n");
        assert_eq!(success(None, ""), "=\n");
        assert_eq!(failure(Some("4"), errors::ILLEGAL_MOVE), "?4 illegal move\n");
        assert_eq!(parse_color("WHITE"), Some(false));
        assert_eq!(parse_color("red"), None);
    }
}
