//! Text forms of Go positions and settings beside the rules: the UGI+ position text
//! (rows from the top) and the names of the superko rules.

use super::board::{Board, Color, MAX_SIZE};
use super::coords::Point;
use super::game::Superko;

/// The position text of a Go board for UGI+: the rows from the top separated by `/`
/// (`X` black, `O` white, `.` empty), a space, and the side to move (`b` or `w`).
pub fn board_text(board: &Board) -> String {
    let size = board.size();
    let rows: Vec<String> = (0..size)
        .map(|r| {
            (0..size)
                .map(|c| match board.at(Point::new(r, c)) {
                    Some(Color::BLACK) => 'X',
                    Some(Color::WHITE) => 'O',
                    None => '.',
                })
                .collect()
        })
        .collect();
    format!("{} {}", rows.join("/"), if board.to_move() == Color::BLACK { 'b' } else { 'w' })
}

/// Reads [`board_text`].
pub fn parse_board_text(text: &str) -> Result<Board, String> {
    let mut words = text.split_whitespace();
    let rows: Vec<&str> = words.next().ok_or("an empty position")?.split('/').collect();
    let size = rows.len();
    if !(2..=MAX_SIZE).contains(&size) {
        return Err(format!("{size} rows: boards from 2x2 to 9x9"));
    }
    let mut stones = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        if row.chars().count() != size {
            return Err(format!("row {} has {} points, expected {size}", r + 1, row.chars().count()));
        }
        for (c, ch) in row.chars().enumerate() {
            let stone = match ch {
                'X' | 'x' | 'B' | 'b' => Some(Color::BLACK),
                'O' | 'o' | 'W' | 'w' => Some(Color::WHITE),
                '.' | '-' | '+' => None,
                other => return Err(format!("bad point '{other}' in row {}", r + 1)),
            };
            if let Some(color) = stone {
                stones.push((color, Point::new(r, c)));
            }
        }
    }
    // The one rule for setup stones: no group without liberties.
    let mut board = Board::with_stones(size, stones).map_err(|e| e.to_string())?;
    match words.next() {
        Some("b" | "B") | None => board.set_to_move(Color::BLACK),
        Some("w" | "W") => board.set_to_move(Color::WHITE),
        Some(other) => return Err(format!("bad side to move '{other}': b or w")),
    }
    Ok(board)
}

/// The largest komi accepted, either way: more than any board can be worth.
pub const MAX_KOMI: f64 = 1000.0;

/// Reads a komi: a number of points no larger than [`MAX_KOMI`] either way.
pub fn parse_komi(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|k| k.is_finite() && k.abs() <= MAX_KOMI)
        .ok_or_else(|| format!("bad komi '{}': a number from -{MAX_KOMI} to {MAX_KOMI}", text.trim()))
}

impl Superko {
    /// Reads `off` (or `none`), `positional` or `situational`, case-insensitively.
    pub fn parse(text: &str) -> Option<Superko> {
        match text.to_ascii_lowercase().as_str() {
            "off" | "none" => Some(Superko::Off),
            "positional" => Some(Superko::Positional),
            "situational" => Some(Superko::Situational),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_is_a_sane_number() {
        assert_eq!(parse_komi(" 6.5"), Ok(6.5));
        assert_eq!(parse_komi("-7"), Ok(-7.0));
        for bad in ["1e300", "-1e9", "nan", "inf", "seven", ""] {
            assert!(parse_komi(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn superko_names() {
        assert_eq!(Superko::parse("Situational"), Some(Superko::Situational));
        assert_eq!(Superko::parse("none"), Some(Superko::Off));
        assert_eq!(Superko::parse("simple"), None);
    }

    #[test]
    fn board_text_round_trip_and_errors() {
        let mut b = Board::new(5);
        b.set(Point::new(0, 0), Some(Color::BLACK));
        b.set(Point::new(4, 4), Some(Color::WHITE));
        b.set_to_move(Color::WHITE);
        let text = board_text(&b);
        assert_eq!(text, "X..../...../...../...../....O w");
        let back = parse_board_text(&text).unwrap();
        assert_eq!(board_text(&back), text);
        assert!(parse_board_text("XO/OX b").is_err(), "groups without liberties");
        assert!(parse_board_text("X../... b").is_err(), "ragged rows");
        assert!(parse_board_text("../.. q").is_err());
        assert!(parse_board_text("..Z/.../... b").is_err());
    }
}
