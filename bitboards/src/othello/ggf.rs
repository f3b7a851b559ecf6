//! GGF, the Generic Game Format of GGS and NBoard, for Othello games:
//!
//! ```text
//! (;GM[Othello]PC[NBoard]PB[Edax]PW[me]RE[?]TI[15:00]TY[8]
//!   BO[8 ---------------------------O*------*O--------------------------- *]
//!   B[F5]W[F6/-1.5/2.3]B[PA];)
//! ```
//!
//! `BO` gives the board size, the squares from `a1` (`*` black, `O` white, `-`
//! empty) and the side to move; `B[..]`/`W[..]` are moves, optionally with
//! `/eval/time`; a pass is `PA` (or `pass`). Property values may contain `\]`.

use thiserror::Error;

/// A move of a GGF game.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfMove {
    /// True for black.
    pub black: bool,
    /// The move text (`F5`, `PA`).
    pub text: String,
    /// Evaluation given with the move, if any.
    pub eval: Option<f64>,
    /// Time taken, if given.
    pub time: Option<f64>,
}

/// A parsed GGF game.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
    /// Side length from `BO` (8 when absent).
    pub size: usize,
    /// The starting squares from `a1` in OBF letters (`X`, `O`, `-`), if `BO` is given.
    pub board: Option<String>,
    /// The side to move at the start: true for black.
    pub black_to_move: bool,
    /// The moves in order.
    pub moves: Vec<GgfMove>,
    /// Every property, in order, moves included.
    pub properties: Vec<(String, String)>,
}

impl GgfGame {
    /// The value of the first property `key`.
    pub fn property(&self, key: &str) -> Option<&str> {
        self.properties.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// A GGS game type, the value of `TY`: `[s]<size>` followed by any of `k` (komi),
/// `r[<discs>]` (a random start), `a` (anti: fewer discs win), `b` or `w` (a colour
/// wished for), in either case: `8`, `8r`, `s8r20`, `8kr`, `10`. The size `88` is
/// octagon Othello (an 8×8 board less its corners).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameType {
    /// A synchro game (`s`): two games from one start at once; each is an ordinary game.
    pub synchro: bool,
    /// The board side (88 for octagon Othello).
    pub size: usize,
    /// A komi game (`k`).
    pub komi: bool,
    /// A random start (`r`), with its number of discs if given.
    pub random: Option<Option<u32>>,
    /// Anti Othello (`a`): the side with fewer discs wins.
    pub anti: bool,
}

impl GameType {
    /// Reads a `TY` value.
    pub fn parse(text: &str) -> Result<GameType, GgfError> {
        let bad = || GgfError::Type(text.to_string());
        let lower = text.trim().to_ascii_lowercase();
        let (synchro, rest) = match lower.strip_prefix('s') {
            Some(rest) => (true, rest),
            None => (false, lower.as_str()),
        };
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let size: usize = rest[..digits].parse().map_err(|_| bad())?;
        let mut t = GameType { synchro, size, komi: false, random: None, anti: false };
        let mut chars = rest[digits..].chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                'k' if !t.komi => t.komi = true,
                'a' if !t.anti => t.anti = true,
                'b' | 'w' => {}
                'r' if t.random.is_none() => {
                    let mut n = String::new();
                    while let Some(d) = chars.next_if(char::is_ascii_digit) {
                        n.push(d);
                    }
                    t.random = Some(if n.is_empty() { None } else { Some(n.parse().map_err(|_| bad())?) });
                }
                _ => return Err(bad()),
            }
        }
        Ok(t)
    }
}

/// A GGF text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GgfError {
    /// Not wrapped in `(;` … `;)`.
    #[error("a GGF game starts with '(;' and ends with ';)'")]
    Framing,
    /// A property without a closing bracket.
    #[error("property '{0}' is not closed with ']'")]
    Unclosed(String),
    /// A malformed property name.
    #[error("unexpected '{0}' where a property name should be")]
    PropertyName(String),
    /// A bad `BO` value.
    #[error("bad board BO[{0}]: expected size, squares and side to move")]
    Board(String),
    /// A move property with a bad number.
    #[error("bad move {0}")]
    Move(String),
    /// A `TY` value that is not a GGS game type.
    #[error("bad game type TY[{0}]: expected a board size with optional s, k, r, a (e.g. 8, 8r, s8r20)")]
    Type(String),
}

/// Parses one GGF game.
pub fn parse(text: &str) -> Result<GgfGame, GgfError> {
    let t = text.trim();
    let body = t.strip_prefix("(;").and_then(|b| b.strip_suffix(";)")).ok_or(GgfError::Framing)?;
    let mut properties = Vec::new();
    let mut chars = body.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace() || *c == ';').is_some() {}
        if chars.peek().is_none() {
            break;
        }
        let mut key = String::new();
        while let Some(c) = chars.next_if(|c| c.is_ascii_alphanumeric()) {
            key.push(c);
        }
        if key.is_empty() || chars.next() != Some('[') {
            let bad: String = std::iter::once(key).chain(chars.take(8).map(String::from)).collect();
            return Err(GgfError::PropertyName(bad));
        }
        let mut value = String::new();
        let mut closed = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    if let Some(n) = chars.next() {
                        value.push(n);
                    }
                }
                ']' => {
                    closed = true;
                    break;
                }
                _ => value.push(c),
            }
        }
        if !closed {
            return Err(GgfError::Unclosed(key));
        }
        properties.push((key, value));
    }
    let mut game = GgfGame { size: 8, board: None, black_to_move: true, moves: Vec::new(), properties: Vec::new() };
    for (key, value) in &properties {
        match key.as_str() {
            "BO" => {
                let mut words = value.split_whitespace();
                let bad = || GgfError::Board(value.clone());
                let size: usize =
                    words.next().and_then(|w| w.trim_end_matches(['r', 'R']).parse().ok()).ok_or_else(bad)?;
                let rest: Vec<&str> = words.collect();
                let (side, squares) = rest.split_last().ok_or_else(bad)?;
                let squares: String = squares.concat();
                if squares.chars().count() != size * size {
                    return Err(bad());
                }
                let board: Option<String> = squares
                    .chars()
                    .map(|c| match c {
                        '*' | 'X' | 'x' | '#' => Some('X'),
                        'O' | 'o' => Some('O'),
                        '-' | '.' => Some('-'),
                        _ => None,
                    })
                    .collect();
                game.board = Some(board.ok_or_else(bad)?);
                game.black_to_move = match *side {
                    "*" | "X" | "B" => true,
                    "O" | "W" => false,
                    _ => return Err(bad()),
                };
                game.size = size;
            }
            "B" | "W" => {
                let mut parts = value.split('/');
                let text = parts.next().unwrap_or_default().trim().to_string();
                let number = |p: Option<&str>| -> Result<Option<f64>, GgfError> {
                    match p.map(str::trim).filter(|s| !s.is_empty()) {
                        None => Ok(None),
                        Some(s) => s.parse().map(Some).map_err(|_| GgfError::Move(format!("{key}[{value}]"))),
                    }
                };
                let eval = number(parts.next())?;
                let time = number(parts.next())?;
                if text.is_empty() {
                    return Err(GgfError::Move(format!("{key}[{value}]")));
                }
                game.moves.push(GgfMove { black: key == "B", text, eval, time });
            }
            _ => {}
        }
    }
    game.properties = properties;
    Ok(game)
}

/// Writes a GGF game: `properties` first (e.g. `GM`, `PB`, `RE`), then `BO` from
/// `board` (OBF letters) and `black_to_move`, then the moves.
pub fn write(
    properties: &[(&str, String)],
    size: usize,
    board: &str,
    black_to_move: bool,
    moves: &[GgfMove],
) -> String {
    let escape = |v: &str| v.replace('\\', "\\\\").replace(']', "\\]");
    let mut out = String::from("(;");
    for (k, v) in properties {
        out.push_str(&format!("{k}[{}]", escape(v)));
    }
    let squares: String = board.chars().map(|c| if c == 'X' { '*' } else { c }).collect();
    out.push_str(&format!("BO[{size} {squares} {}]", if black_to_move { '*' } else { 'O' }));
    for m in moves {
        let mut v = m.text.clone();
        if let Some(e) = m.eval {
            v.push_str(&format!("/{e:.2}"));
            if let Some(t) = m.time {
                v.push_str(&format!("/{t:.2}"));
            }
        }
        out.push_str(&format!("{}[{}]", if m.black { "B" } else { "W" }, escape(&v)));
    }
    out.push_str(";)");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const NBOARD: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

    #[test]
    fn reads_the_nboard_example() {
        let g = parse(NBOARD).unwrap();
        assert_eq!(g.size, 8);
        assert!(g.black_to_move);
        assert_eq!(g.board.as_deref(), Some("---------------------------OX------XO---------------------------"));
        assert_eq!(g.moves.len(), 8);
        assert_eq!(g.moves[0], GgfMove { black: true, text: "F5".into(), eval: None, time: None });
        assert_eq!(g.property("PB"), Some("./mEdax"));
    }

    #[test]
    fn moves_with_evals_and_escapes() {
        let g = parse("(;GM[Othello]PB[a\\]b]BO[8 ---------------------------O*------*O--------------------------- O]W[d3/-1.50/2.5]B[PA];)").unwrap();
        assert_eq!(g.property("PB"), Some("a]b"));
        assert!(!g.black_to_move);
        assert_eq!(g.moves[0].eval, Some(-1.5));
        assert_eq!(g.moves[0].time, Some(2.5));
        assert_eq!(g.moves[1].text, "PA");
    }

    #[test]
    fn errors() {
        assert_eq!(parse("GM[Othello]"), Err(GgfError::Framing));
        assert!(matches!(parse("(;GM[Othello;)"), Err(GgfError::Unclosed(_))));
        assert!(matches!(parse("(;BO[8 --- *];)"), Err(GgfError::Board(_))));
        assert!(matches!(parse("(;B[F5/x];)"), Err(GgfError::Move(_))));
        assert!(matches!(parse("(;[x];)"), Err(GgfError::PropertyName(_))));
    }

    #[test]
    fn game_types() {
        let t = |text: &str| GameType::parse(text);
        assert_eq!(t("8"), Ok(GameType { synchro: false, size: 8, komi: false, random: None, anti: false }));
        assert_eq!(
            t("s8r20"),
            Ok(GameType { synchro: true, size: 8, komi: false, random: Some(Some(20)), anti: false })
        );
        assert_eq!(t("8kr"), Ok(GameType { synchro: false, size: 8, komi: true, random: Some(None), anti: false }));
        assert_eq!(t("10A").map(|t| (t.size, t.anti)), Ok((10, true)));
        assert_eq!(t(" 8b ").map(|t| t.size), Ok(8));
        assert_eq!(t("88").map(|t| t.size), Ok(88));
        for bad in ["", "s", "x8", "8x", "8kk", "8r2r", "eight", "8 r"] {
            assert_eq!(t(bad), Err(GgfError::Type(bad.to_string())), "{bad}");
        }
    }

    #[test]
    fn write_then_read() {
        let board = "---------------------------OX------XO---------------------------";
        let moves = vec![GgfMove { black: true, text: "F5".into(), eval: Some(0.5), time: Some(1.0) }];
        let text = write(&[("GM", "Othello".into()), ("RE", "+2".into())], 8, board, true, &moves);
        let g = parse(&text).unwrap();
        assert_eq!(g.board.as_deref(), Some(board));
        assert_eq!(g.moves, moves);
        assert_eq!(g.property("RE"), Some("+2"));
    }
}
