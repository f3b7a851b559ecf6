//! A try as the referee or a player types it, in any of the seed's forms (through
//! [`bitboards::go::Point`]'s one coordinate module): the logical `ij` (`44`, row then
//! column from the top), the padded index written with a `v` or `#` (`v60`, `#60`, or
//! any three digits such as `100`; two bare digits are always logical), the platform's
//! two letters (`EE`, in the server's `--letters` order), a GTP vertex (`E5`), or
//! `pass`.

use bitboards::go::{LetterOrder, Move, Point};
use bitboards::phantom::SIZE;

/// Reads a typed try; the error says which forms are read.
pub fn parse_try(text: &str, letters: LetterOrder) -> Result<Move, String> {
    let t = text.trim();
    let forms = "a try is a logical ij (44), a padded index (v60, #60, 100), two platform letters (EE), a GTP vertex (E5) or pass";
    if t.is_empty() {
        return Err(format!("empty try: {forms}"));
    }
    if t.len() > 8 {
        return Err(format!("'{}…' is too long: {forms}", t.chars().take(8).collect::<String>()));
    }
    let b = t.as_bytes();
    let point = if b.iter().all(u8::is_ascii_digit) && b.len() == 2 {
        Point::from_ij(t, SIZE).map_err(|e| e.to_string())
    } else if let Some(digits) =
        t.strip_prefix(['v', 'V', '#']).or((b.len() == 3 && b.iter().all(u8::is_ascii_digit)).then_some(t))
    {
        let v: usize = digits.parse().map_err(|_| format!("'{t}': a padded index is a number (v60)"))?;
        Point::from_padded(v, SIZE).map_err(|e| e.to_string())
    } else if b.len() == 2 && b.iter().all(u8::is_ascii_alphabetic) {
        Point::from_letters(t, letters, SIZE).map_err(|e| e.to_string())
    } else {
        // A GTP vertex or pass.
        return Move::from_gtp(t, SIZE).map_err(|e| format!("'{t}' is not a try ({e}): {forms}"));
    };
    point.map(Move::Play).map_err(|e| format!("'{t}': {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_names_the_centre() {
        let centre = Move::Play(Point::new(4, 4));
        for text in ["44", "v60", "#60", "EE", "ee", "E5", " e5 "] {
            assert_eq!(parse_try(text, LetterOrder::RowColumn), Ok(centre), "{text}");
        }
        assert_eq!(parse_try("100", LetterOrder::RowColumn), Ok(Move::Play(Point::new(0, 0))));
        assert_eq!(parse_try("AI", LetterOrder::ColumnRow), Ok(Move::Play(Point::new(8, 0))));
        assert_eq!(parse_try("PASS", LetterOrder::RowColumn), Ok(Move::Pass));
    }

    #[test]
    fn bad_tries_say_what_is_wrong() {
        for text in ["", "4", "99", "v11", "v", "#x", "Z9", "J10", "EEE", "4E", "😀😀", "123456789"] {
            let e = parse_try(text, LetterOrder::RowColumn).expect_err(text);
            assert!(!e.is_empty(), "{text}");
        }
    }
}
