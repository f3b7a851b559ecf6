//! The Chinese Phantom Go competition platform's protocol (幻影围棋比赛平台), as data.
//!
//! ```text
//! platform → engine                      engine → platform
//! name?                                  name <name>
//! new black | new white
//! move go      (the opponent moved:      move XY | move pass
//! move pass     your turn; or it passed)
//! accept       (your move is legal)
//! refuse       (illegal: send another move)
//! take N XY…          (your move captured these N stones)
//! access take N XY…   (your move is accepted and captured these)
//! taked N XY…         (these N stones of yours were captured)
//! error | end | quit
//! ```
//!
//! A point `XY` is two letters `A`–`I`, read with a [`LetterOrder`] (which letter is the
//! row; see its documentation for the default). The `2N` letters after `N` may come as
//! one word (`take 2 ABCD`) or several (`take 2 AB CD`). Words are case-insensitive and
//! any run of whitespace separates them. A line that cannot be read gives a
//! [`ParseError`] naming the command and the token at fault; nothing here panics on
//! input.

use bitboards::go::{Color, CoordError, LetterOrder, Move, Point};
use thiserror::Error;

use crate::LineError;

/// The board side the platform plays on.
const SIZE: usize = 9;

/// One line from the platform to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `name?`: answer with [`Reply::Name`].
    Name,
    /// `new black` / `new white`: a new game, the engine plays this colour.
    New(Color),
    /// `move go`: the opponent made its (legal) move, or the game starts and the
    /// engine moves first; answer with a [`Reply::Move`].
    MoveGo,
    /// `move pass`: the opponent passed; answer with a [`Reply::Move`].
    MovePass,
    /// `accept`: the engine's last move was legal.
    Accept,
    /// `refuse`: the engine's last move was illegal; answer with another move.
    Refuse,
    /// `take N XY…`: the engine's move captured these opponent stones.
    Take(Vec<Point>),
    /// `access take N XY…`: the engine's move was accepted and captured these stones.
    AccessTake(Vec<Point>),
    /// `taked N XY…`: these stones of the engine were captured.
    Taked(Vec<Point>),
    /// `error`: the platform reports an error.
    Error,
    /// `end`: the game is over.
    End,
    /// `quit`: leave.
    Quit,
}

/// One line from the engine to the platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `name <name>`.
    Name(String),
    /// `move XY` or `move pass`.
    Move(Move),
}

/// A line that is not a valid platform command.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    /// What any line protocol can find wrong (empty, unknown, missing or bad arguments).
    #[error(transparent)]
    Line(#[from] LineError),
    /// The count does not match the letters that follow it.
    #[error("'{command}': {count} stones need {} letters, got {letters}", 2 * count)]
    Count {
        /// The command.
        command: &'static str,
        /// The number given.
        count: usize,
        /// The letters that followed.
        letters: usize,
    },
    /// Two letters that are not a point of the board.
    #[error("'{command}': '{token}' is not a point ({error})")]
    Point {
        /// The command.
        command: &'static str,
        /// The two letters.
        token: String,
        /// Why.
        error: CoordError,
    },
    /// The same point named twice in one capture.
    #[error("'{command}': point '{token}' named twice")]
    Repeated {
        /// The command.
        command: &'static str,
        /// The two letters.
        token: String,
    },
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

fn no_more(command: &'static str, rest: &[&str], cmd: Command) -> Result<Command, ParseError> {
    match rest.first() {
        None => Ok(cmd),
        Some(t) => Err(ParseError::Line(LineError::Unexpected { command, token: printable(t) })),
    }
}

/// Parses one platform line, points read with `order`.
pub fn parse(line: &str, order: LetterOrder) -> Result<Command, ParseError> {
    let lower = line.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let Some((&word, rest)) = words.split_first() else {
        return Err(ParseError::Line(LineError::Empty));
    };
    match word {
        "name?" => no_more("name?", rest, Command::Name),
        "name" => match rest {
            ["?"] => Ok(Command::Name),
            [] => Err(ParseError::Line(LineError::Missing { command: "name?", what: "the '?'" })),
            [t, ..] => Err(ParseError::Line(LineError::Unexpected { command: "name?", token: printable(t) })),
        },
        "new" => match rest {
            [] => Err(ParseError::Line(LineError::Missing { command: "new", what: "'black' or 'white'" })),
            [c, more @ ..] => {
                let color = match *c {
                    "black" | "b" => Color::BLACK,
                    "white" | "w" => Color::WHITE,
                    _ => {
                        return Err(ParseError::Line(LineError::BadValue {
                            command: "new",
                            token: printable(c),
                            what: "the colour ('black' or 'white')",
                        }));
                    }
                };
                no_more("new", more, Command::New(color))
            }
        },
        "move" => match rest {
            [] => Err(ParseError::Line(LineError::Missing { command: "move", what: "'go' or 'pass'" })),
            ["go", more @ ..] => no_more("move", more, Command::MoveGo),
            ["pass", more @ ..] => no_more("move", more, Command::MovePass),
            [t, ..] => Err(ParseError::Line(LineError::BadValue {
                command: "move",
                token: printable(t),
                what: "'go' or 'pass'",
            })),
        },
        "accept" => no_more("accept", rest, Command::Accept),
        "refuse" => no_more("refuse", rest, Command::Refuse),
        "take" => parse_points("take", rest, order).map(Command::Take),
        "access" => match rest {
            ["take", more @ ..] => parse_points("access take", more, order).map(Command::AccessTake),
            [] => Err(ParseError::Line(LineError::Missing { command: "access", what: "'take'" })),
            [t, ..] => Err(ParseError::Line(LineError::Unexpected { command: "access", token: printable(t) })),
        },
        "taked" => parse_points("taked", rest, order).map(Command::Taked),
        "error" => Ok(Command::Error),
        "end" => no_more("end", rest, Command::End),
        "quit" => no_more("quit", rest, Command::Quit),
        other => Err(ParseError::Line(LineError::Unknown(printable(other)))),
    }
}

/// Reads `N` and then `2N` letters (one word or several) as `N` distinct points.
fn parse_points(command: &'static str, rest: &[&str], order: LetterOrder) -> Result<Vec<Point>, ParseError> {
    let Some((count, letters)) = rest.split_first() else {
        return Err(ParseError::Line(LineError::Missing { command, what: "the number of stones" }));
    };
    let n: usize = count.parse().map_err(|_| {
        ParseError::Line(LineError::BadValue { command, token: printable(count), what: "the number of stones" })
    })?;
    let letters: Vec<char> = letters.iter().flat_map(|w| w.chars()).collect();
    if letters.len() != 2 * n {
        return Err(ParseError::Count { command, count: n, letters: letters.len() });
    }
    let mut points = Vec::with_capacity(n);
    for pair in letters.chunks(2) {
        let token: String = pair.iter().collect();
        let p = Point::from_letters(&token, order, SIZE).map_err(|error| ParseError::Point {
            command,
            token: printable(&token.to_ascii_uppercase()),
            error,
        })?;
        if points.contains(&p) {
            return Err(ParseError::Repeated { command, token: token.to_ascii_uppercase() });
        }
        points.push(p);
    }
    Ok(points)
}

impl Reply {
    /// The line for the platform (without the newline), points written with `order`.
    pub fn to_line(&self, order: LetterOrder) -> String {
        match self {
            Reply::Name(name) => name_line(name),
            Reply::Move(mv) => move_line(*mv, order),
        }
    }
}

/// `name <name>` (the name on one line: line breaks become spaces).
pub fn name_line(name: &str) -> String {
    let one_line: String = name.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    format!("name {}", one_line.trim())
}

/// `move XY` or `move pass`.
pub fn move_line(mv: Move, order: LetterOrder) -> String {
    match mv {
        Move::Pass => "move pass".to_string(),
        Move::Play(p) => format!("move {}", p.to_letters(order)),
    }
}

/// `take`/`access take`/`taked` lines as the platform writes them (for a referee that
/// speaks to engines): the count, then the points as one word.
pub fn capture_line(kind: &str, points: &[Point], order: LetterOrder) -> String {
    let letters: String = points.iter().map(|p| p.to_letters(order)).collect();
    if letters.is_empty() { format!("{kind} {}", points.len()) } else { format!("{kind} {} {letters}", points.len()) }
}

/// Parses an engine's reply (`name …`, `move XY`, `move pass`), for a referee.
pub fn parse_reply(line: &str, order: LetterOrder) -> Result<Reply, ParseError> {
    let trimmed = line.trim();
    let mut words = trimmed.split_whitespace();
    match words.next().map(str::to_ascii_lowercase).as_deref() {
        None => Err(ParseError::Line(LineError::Empty)),
        Some("name") => {
            let name = trimmed[4..].trim();
            if name.is_empty() {
                Err(ParseError::Line(LineError::Missing { command: "name", what: "a name" }))
            } else {
                Ok(Reply::Name(name.to_string()))
            }
        }
        Some("move") => {
            let rest: Vec<&str> = words.collect();
            match rest.as_slice() {
                [] => Err(ParseError::Line(LineError::Missing { command: "move", what: "a point or 'pass'" })),
                [m] if m.eq_ignore_ascii_case("pass") => Ok(Reply::Move(Move::Pass)),
                [m] => Point::from_letters(m, order, SIZE)
                    .map(|p| Reply::Move(Move::Play(p)))
                    .map_err(|error| ParseError::Point { command: "move", token: printable(m), error }),
                [_, t, ..] => Err(ParseError::Line(LineError::Unexpected { command: "move", token: printable(t) })),
            }
        }
        Some(other) => Err(ParseError::Line(LineError::Unknown(printable(other)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RC: LetterOrder = LetterOrder::RowColumn;
    const CR: LetterOrder = LetterOrder::ColumnRow;

    fn p(r: usize, c: usize) -> Point {
        Point::new(r, c)
    }

    #[test]
    fn simple_commands_tolerate_case_and_whitespace() {
        assert_eq!(parse("name?", RC), Ok(Command::Name));
        assert_eq!(parse("  NAME?  \r\n", RC), Ok(Command::Name));
        assert_eq!(parse("name ?", RC), Ok(Command::Name));
        assert_eq!(parse("new black", RC), Ok(Command::New(Color::BLACK)));
        assert_eq!(parse("New\tWHITE", RC), Ok(Command::New(Color::WHITE)));
        assert_eq!(parse("move go", RC), Ok(Command::MoveGo));
        assert_eq!(parse("MOVE   PASS", RC), Ok(Command::MovePass));
        assert_eq!(parse("accept", RC), Ok(Command::Accept));
        assert_eq!(parse("Refuse", RC), Ok(Command::Refuse));
        assert_eq!(parse("error", RC), Ok(Command::Error));
        assert_eq!(parse("error something went wrong", RC), Ok(Command::Error));
        assert_eq!(parse("end", RC), Ok(Command::End));
        assert_eq!(parse("quit", RC), Ok(Command::Quit));
    }

    #[test]
    fn take_and_access_take_in_every_form() {
        let two = vec![p(0, 1), p(2, 3)];
        for line in ["take 2 ABCD", "take 2 AB CD", "TAKE 2 ab cd", "  take  2\tAb   cD "] {
            assert_eq!(parse(line, RC), Ok(Command::Take(two.clone())), "{line}");
        }
        // The same letters, the other order: column first.
        assert_eq!(parse("take 2 ABCD", CR), Ok(Command::Take(vec![p(1, 0), p(3, 2)])));
        for line in ["access take 2 ABCD", "ACCESS  TAKE 2 AB CD"] {
            assert_eq!(parse(line, RC), Ok(Command::AccessTake(two.clone())), "{line}");
        }
        assert_eq!(parse("taked 1 II", RC), Ok(Command::Taked(vec![p(8, 8)])));
        assert_eq!(parse("taked 1 IA", CR), Ok(Command::Taked(vec![p(0, 8)])));
        assert_eq!(parse("take 0", RC), Ok(Command::Take(vec![])));
    }

    #[test]
    fn bad_captures_are_typed_errors() {
        assert_eq!(parse("take 2 ABC", RC), Err(ParseError::Count { command: "take", count: 2, letters: 3 }));
        assert_eq!(parse("take 1 AB CD", RC), Err(ParseError::Count { command: "take", count: 1, letters: 4 }));
        assert_eq!(parse("access take 3", RC), Err(ParseError::Count { command: "access take", count: 3, letters: 0 }));
        assert_eq!(
            parse("take", RC),
            Err(ParseError::Line(LineError::Missing { command: "take", what: "the number of stones" }))
        );
        assert!(matches!(parse("take x AB", RC), Err(ParseError::Line(LineError::BadValue { command: "take", .. }))));
        assert!(matches!(parse("take -1", RC), Err(ParseError::Line(LineError::BadValue { .. }))));
        assert!(matches!(
            parse("take 99999999999999999999999 AB", RC),
            Err(ParseError::Line(LineError::BadValue { .. }))
        ));
        let e = parse("taked 1 AJ", RC).unwrap_err();
        assert!(matches!(&e, ParseError::Point { command: "taked", token, .. } if token == "AJ"), "{e:?}");
        assert!(e.to_string().contains("AJ"));
        assert!(matches!(parse("take 1 A1", RC), Err(ParseError::Point { .. })));
        assert!(matches!(parse("take 1 é", RC), Err(ParseError::Count { .. })));
        assert!(matches!(parse("take 1 éa", RC), Err(ParseError::Point { .. })));
        assert_eq!(parse("take 2 ABab", RC), Err(ParseError::Repeated { command: "take", token: "AB".into() }));
        assert!(matches!(parse("access", RC), Err(ParseError::Line(LineError::Missing { .. }))));
        assert!(matches!(parse("access give 1 AB", RC), Err(ParseError::Line(LineError::Unexpected { .. }))));
    }

    #[test]
    fn other_errors() {
        assert_eq!(parse("", RC), Err(ParseError::Line(LineError::Empty)));
        assert_eq!(parse("   ", RC), Err(ParseError::Line(LineError::Empty)));
        assert_eq!(parse("hello", RC), Err(ParseError::Line(LineError::Unknown("hello".into()))));
        assert!(matches!(parse("new red", RC), Err(ParseError::Line(LineError::BadValue { command: "new", .. }))));
        assert!(matches!(parse("new", RC), Err(ParseError::Line(LineError::Missing { .. }))));
        assert!(matches!(parse("new black now", RC), Err(ParseError::Line(LineError::Unexpected { .. }))));
        assert!(matches!(parse("move", RC), Err(ParseError::Line(LineError::Missing { .. }))));
        assert!(matches!(parse("move AB", RC), Err(ParseError::Line(LineError::BadValue { .. }))));
        assert!(matches!(parse("accept 3", RC), Err(ParseError::Line(LineError::Unexpected { .. }))));
        assert!(matches!(parse("name", RC), Err(ParseError::Line(LineError::Missing { .. }))));
        let long = "x".repeat(500);
        let Err(ParseError::Line(LineError::Unknown(t))) = parse(&long, RC) else { panic!() };
        assert!(t.chars().count() <= 41);
    }

    #[test]
    fn replies() {
        assert_eq!(Reply::Name("sente".into()).to_line(RC), "name sente");
        assert_eq!(name_line("two\nlines"), "name two lines");
        assert_eq!(move_line(Move::Pass, RC), "move pass");
        assert_eq!(move_line(Move::Play(p(4, 2)), RC), "move EC");
        assert_eq!(move_line(Move::Play(p(4, 2)), CR), "move CE");
        assert_eq!(capture_line("taked", &[p(0, 0), p(8, 7)], RC), "taked 2 AAIH");
        assert_eq!(capture_line("take", &[], RC), "take 0");
        for order in [RC, CR] {
            let pts = [p(0, 0), p(8, 7), p(3, 5)];
            assert_eq!(parse(&capture_line("access take", &pts, order), order), Ok(Command::AccessTake(pts.to_vec())));
            for r in 0..9 {
                for c in 0..9 {
                    let m = Move::Play(p(r, c));
                    assert_eq!(parse_reply(&move_line(m, order), order), Ok(Reply::Move(m)));
                }
            }
        }
        assert_eq!(parse_reply("MOVE PASS", RC), Ok(Reply::Move(Move::Pass)));
        assert_eq!(parse_reply("name  Deep Phantom ", RC), Ok(Reply::Name("Deep Phantom".into())));
        assert!(matches!(parse_reply("move ZZ", RC), Err(ParseError::Point { .. })));
        assert!(matches!(parse_reply("move", RC), Err(ParseError::Line(LineError::Missing { .. }))));
        assert!(matches!(parse_reply("name", RC), Err(ParseError::Line(LineError::Missing { .. }))));
        assert!(matches!(parse_reply("resign", RC), Err(ParseError::Line(LineError::Unknown(_)))));
    }

    proptest::proptest! {
        /// Any line, in either order, is a command or a typed error: never a panic.
        #[test]
        fn any_line_parses_or_errs(line in "\\PC{0,40}", words in "(take|access take|taked|move|new|name\\?) [0-9]{1,2}( [A-Za-j]{0,6}){0,3}") {
            for order in [RC, CR] {
                let _ = parse(&line, order);
                let _ = parse(&words, order);
                let _ = parse_reply(&line, order);
            }
        }
    }
}
