//! What one player knows: the [`View`] the referee keeps for each side.
//!
//! **What a CCGC player learns** (seed 000). Rule 1: each player's board is incomplete
//! and the referee's full board "由对弈双方的棋盘取并集而成" — is the union of the two
//! players' boards, so a player's board holds its own stones and nothing else. Rule 6:
//! for each try the mover is told "合法或者非法" — legal or illegal, nothing more (not
//! why, not what stands there); the opponent is told nothing of illegal tries (and
//! rule 4 forbids recording them). Rule 5: after a capture the referee tells **both**
//! players "提子数目和位置" — the number and the points of the captured stones, and both
//! remove them. The platform also tells a player whether the opponent moved (`move go`)
//! or passed (`move pass`), so the opponent's stone count is known exactly. A CCGC view
//! therefore holds: own stones, no opponent stone, the opponent's count, this turn's
//! refused points (private), and the points of the last capture.
//!
//! **What an OpenSpiel player learns**: the same, except that an illegal try shows the
//! mover what stands on the point (an opponent stone there becomes known), and the
//! capturer is told only the number of stones taken. Stones it already knew vanish
//! from its view when they are taken (they are no longer on the board), the others it
//! never knew; the captured side sees its own stones go.
//!
//! Every view keeps `own` equal to the player's true stones and `opponent` a subset of
//! the opponent's true stones.

use thiserror::Error;

use super::notice::Notice;
use super::rules::SIZE;
use crate::go::{Color, Move, Point, bits, board_mask, points};

/// One player's knowledge of the game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct View {
    color: Color,
    own: u128,
    opponent: u128,
    opponent_count: u32,
    refused: u128,
    earlier: u128,
    last_captured: u128,
    lost: u32,
    taken: u32,
}

/// A view text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ViewError {
    /// The wrong number of fields.
    #[error("a view is 7 or 8 fields (board colour count lost taken refused captured [earlier]), got {0}")]
    Fields(usize),
    /// A board field is not 81 of the allowed characters.
    #[error("the {field} field must be 81 characters of {allowed}")]
    Board {
        /// Which field.
        field: &'static str,
        /// The characters it may hold.
        allowed: &'static str,
    },
    /// The colour is not `B` or `W`.
    #[error("the colour must be B or W, got '{0}'")]
    Color(String),
    /// A message that contradicts the view (a player keeping its own view from the
    /// referee's messages, [`View::apply`]); the view is left as it was.
    #[error("{0}")]
    Contradiction(String),
    /// A number cannot be read.
    #[error("the {field} field is not a number: '{token}'")]
    Number {
        /// Which field.
        field: &'static str,
        /// The token.
        token: String,
    },
}

fn stone_char(c: Color) -> char {
    match c {
        Color::BLACK => 'X',
        Color::WHITE => 'O',
    }
}

fn mask_text(m: u128) -> String {
    points(SIZE).map(|p| if m & p.bit() != 0 { 'x' } else { '.' }).collect()
}

fn parse_mask(text: &str, field: &'static str) -> Result<u128, ViewError> {
    let err = ViewError::Board { field, allowed: "'x' and '.'" };
    if text.chars().count() != SIZE * SIZE {
        return Err(err);
    }
    let mut m = 0;
    for (p, ch) in points(SIZE).zip(text.chars()) {
        match ch {
            'x' => m |= p.bit(),
            '.' => {}
            _ => return Err(err),
        }
    }
    Ok(m)
}

impl View {
    /// The empty view of `color` at the start of a game.
    pub fn new(color: Color) -> View {
        View {
            color,
            own: 0,
            opponent: 0,
            opponent_count: 0,
            refused: 0,
            earlier: 0,
            last_captured: 0,
            lost: 0,
            taken: 0,
        }
    }

    /// A view made from its parts (for a player handed its view, or for tests):
    /// own stones, known opponent stones and the opponent's stone count.
    pub fn from_stones(color: Color, own: u128, opponent: u128, opponent_count: u32) -> View {
        let mask = board_mask(SIZE);
        View { own: own & mask, opponent: opponent & mask & !own, opponent_count, ..View::new(color) }
    }

    /// Whose view this is.
    pub fn color(&self) -> Color {
        self.color
    }
    /// The player's own stones (always exactly its stones on the full board).
    pub fn own(&self) -> u128 {
        self.own
    }
    /// Opponent stones the player knows to stand now (CCGC: none).
    pub fn opponent(&self) -> u128 {
        self.opponent
    }
    /// The opponent's number of stones on the board (public in both rule sets).
    pub fn opponent_count(&self) -> u32 {
        self.opponent_count
    }
    /// Points the player tried and was refused during the current turn (private).
    pub fn refused(&self) -> u128 {
        self.refused
    }
    /// Points the player was refused in earlier turns and has not since seen emptied (by
    /// a capture it was told the points of) or played on: an opponent stone almost
    /// surely stands on each (stones leave the board only by captures), unless the
    /// refusal was a ko or a suicide. The player's own memory, from its own answers.
    pub fn earlier_refused(&self) -> u128 {
        self.earlier
    }
    /// The captured points the player was told of at the last capture (CCGC: both
    /// players; OpenSpiel: only the side whose stones were taken).
    pub fn last_captured(&self) -> u128 {
        self.last_captured
    }
    /// The player's stones captured so far.
    pub fn lost(&self) -> u32 {
        self.lost
    }
    /// Opponent stones the player has captured so far.
    pub fn taken(&self) -> u32 {
        self.taken
    }
    /// What the player knows stands on `p`.
    pub fn at(&self, p: Point) -> Option<Color> {
        if self.own & p.bit() != 0 {
            Some(self.color)
        } else if self.opponent & p.bit() != 0 {
            Some(self.color.other())
        } else {
            None
        }
    }

    /// The board as the player knows it: 81 characters, the top row first, `X` black,
    /// `O` white, `.` empty or unknown.
    pub fn board_text(&self) -> String {
        points(SIZE).map(|p| self.at(p).map_or('.', stone_char)).collect()
    }

    /// The whole view as one line: `board colour opponent_count lost taken refused
    /// captured earlier`, the board as [`View::board_text`], the colour `B`/`W`, and the
    /// three point sets as 81 characters `x` (in the set) or `.`. Read back by
    /// [`View::from_text`] (which also reads the older 7 fields, without `earlier`).
    pub fn to_text(&self) -> String {
        format!(
            "{} {} {} {} {} {} {} {}",
            self.board_text(),
            self.color.stone_letter(),
            self.opponent_count,
            self.lost,
            self.taken,
            mask_text(self.refused),
            mask_text(self.last_captured),
            mask_text(self.earlier)
        )
    }

    /// Reads [`View::to_text`].
    pub fn from_text(text: &str) -> Result<View, ViewError> {
        let f: Vec<&str> = text.split_whitespace().collect();
        let (fields, earlier) = match f.as_slice() {
            [first @ .., e] if f.len() == 8 => (first, Some(*e)),
            all => (all, None),
        };
        let [board, color, count, lost, taken, refused, captured] = fields else {
            return Err(ViewError::Fields(f.len()));
        };
        let color = match *color {
            "B" | "b" => Color::BLACK,
            "W" | "w" => Color::WHITE,
            other => return Err(ViewError::Color(other.chars().take(20).collect())),
        };
        let number = |t: &str, field: &'static str| {
            t.parse::<u32>().map_err(|_| ViewError::Number { field, token: t.chars().take(20).collect() })
        };
        let (mut own, mut opponent) = (0, 0);
        if board.chars().count() != SIZE * SIZE {
            return Err(ViewError::Board { field: "board", allowed: "'X', 'O' and '.'" });
        }
        for (p, ch) in points(SIZE).zip(board.chars()) {
            let stone = match ch {
                'X' => Color::BLACK,
                'O' => Color::WHITE,
                '.' => continue,
                _ => return Err(ViewError::Board { field: "board", allowed: "'X', 'O' and '.'" }),
            };
            if stone == color {
                own |= p.bit();
            } else {
                opponent |= p.bit();
            }
        }
        Ok(View {
            color,
            own,
            opponent,
            opponent_count: number(count, "opponent count")?,
            lost: number(lost, "lost")?,
            taken: number(taken, "taken")?,
            refused: parse_mask(refused, "refused")?,
            last_captured: parse_mask(captured, "captured")?,
            earlier: earlier.map_or(Ok(0), |e| parse_mask(e, "earlier"))?,
        })
    }

    /// The points of the player's own stones, for iteration.
    pub fn own_points(&self) -> impl Iterator<Item = Point> {
        bits(self.own)
    }

    /// Takes in one message from the referee, as a player that keeps its own view does
    /// (the platform protocol's engine side): after every [`Notice`] the referee sent a
    /// player, in order, the player's view equals the referee's (OpenSpiel: except that
    /// after a capture whose points it is not told it forgets the opponent stones it
    /// knew, since it cannot tell which were taken). A message that cannot
    /// be true of this view (an accepted stone on an own stone, a capture of own stones
    /// as the opponent's, lost stones that are not own, more stones taken than the
    /// opponent has) is refused with [`ViewError::Contradiction`] and changes nothing.
    pub fn apply(&mut self, notice: &Notice) -> Result<(), ViewError> {
        let mask = board_mask(SIZE);
        let bad = |what: String| Err(ViewError::Contradiction(what));
        match *notice {
            Notice::Accepted(Move::Play(p)) => {
                if !p.on_board(SIZE) || self.own & p.bit() != 0 {
                    return bad(format!("a stone accepted on {} where ours stands", p.to_gtp(SIZE)));
                }
                self.placed(p);
                self.opponent &= !p.bit();
            }
            Notice::Accepted(Move::Pass) | Notice::TurnPassed => self.turn_over(),
            Notice::Refused(p) => {
                if !p.on_board(SIZE) {
                    return bad("a refused point off the board".into());
                }
                self.refused_at(p, None);
            }
            Notice::Shown { point, stone } => {
                if stone == Some(self.color) && self.own & point.bit() == 0 {
                    return bad(format!("our stone shown on {} where we have none", point.to_gtp(SIZE)));
                }
                if stone == Some(self.color.other()) && point.on_board(SIZE) {
                    self.opponent |= point.bit();
                }
            }
            Notice::OpponentMoved => self.opponent_placed(),
            Notice::OpponentPassed => {}
            Notice::Took { count, points } => {
                let points = points & mask;
                if points & self.own != 0 {
                    return bad("our own stones named as captured opponent stones".into());
                }
                if points != 0 && points.count_ones() != count {
                    return bad(format!("{count} stones taken but {} points named", points.count_ones()));
                }
                if count > self.opponent_count {
                    return bad(format!("{count} stones taken, the opponent has {}", self.opponent_count));
                }
                self.opponent_count -= count;
                self.taken += count;
                // Told where (CCGC): those known stones are gone. Not told (OpenSpiel):
                // any known stone may have been among them, so forget them all; the
                // view then knows less than the referee's, never something false.
                let gone = if points == 0 && count > 0 { 0 } else { !points };
                self.opponent &= gone;
                self.earlier &= gone;
                self.last_captured = points;
            }
            Notice::Lost { points } => {
                if points & !self.own != 0 || points == 0 {
                    return bad("stones lost that are not ours".into());
                }
                self.lost_own(points);
            }
        }
        Ok(())
    }

    // Updates, called by the referee only.

    /// The player's stone was accepted on `p`; its turn ends.
    pub(crate) fn placed(&mut self, p: Point) {
        self.own |= p.bit();
        self.earlier = (self.earlier | self.refused) & !p.bit();
        self.refused = 0;
    }
    /// The player was refused on `p`; `seen` is what the referee shows of it (OpenSpiel).
    pub(crate) fn refused_at(&mut self, p: Point, seen: Option<Color>) {
        self.refused |= p.bit();
        if seen == Some(self.color.other()) {
            self.opponent |= p.bit();
        }
    }
    /// The player's turn ended by a pass (its own, or one the referee forced).
    pub(crate) fn turn_over(&mut self) {
        self.earlier |= self.refused;
        self.refused = 0;
    }
    /// The opponent's move was accepted.
    pub(crate) fn opponent_placed(&mut self) {
        self.opponent_count += 1;
    }
    /// The player captured `captured`; `told` says whether it was told the points.
    pub(crate) fn captured_theirs(&mut self, captured: u128, told: bool) {
        let n = captured.count_ones();
        self.opponent_count -= n;
        self.taken += n;
        // Known stones that were taken are gone from the board.
        self.opponent &= !captured;
        self.earlier &= if told { !captured } else { 0 };
        self.last_captured = if told { captured } else { 0 };
    }
    /// The player's stones `captured` were taken (it is always told which).
    pub(crate) fn lost_own(&mut self, captured: u128) {
        self.own &= !captured;
        self.lost += captured.count_ones();
        self.last_captured = captured;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phantom::{PhantomConfig, Referee};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// A player that applies the referee's messages keeps the referee's view.
        #[test]
        fn messages_rebuild_the_view(tries in proptest::collection::vec(0usize..84, 0..260), open_spiel in any::<bool>()) {
            let config = if open_spiel { PhantomConfig::open_spiel() } else { PhantomConfig::ccgc() };
            let mut r = Referee::new(config);
            for k in tries {
                if r.is_over() {
                    break;
                }
                let mv = if k >= 81 { Move::Pass } else { Move::Play(Point::new(k / 9, k % 9)) };
                r.try_move(mv).unwrap();
            }
            for c in [Color::BLACK, Color::WHITE] {
                let mut v = View::new(c);
                for n in r.notices(c) {
                    v.apply(n).unwrap();
                }
                let truth = r.view(c);
                if open_spiel {
                    prop_assert_eq!(v.opponent() & !truth.opponent(), 0, "it knows nothing false");
                    let v = View { opponent: truth.opponent(), ..v };
                    prop_assert_eq!(&v, truth);
                } else {
                    prop_assert_eq!(&v, truth);
                }
            }
        }
    }

    #[test]
    fn contradictions_change_nothing() {
        let mut v = View::from_stones(Color::BLACK, Point::new(0, 0).bit(), 0, 1);
        let before = v.clone();
        for n in [
            Notice::Accepted(Move::Play(Point::new(0, 0))),
            Notice::Took { count: 1, points: Point::new(0, 0).bit() },
            Notice::Took { count: 2, points: 0 },
            Notice::Took { count: 2, points: Point::new(1, 1).bit() },
            Notice::Lost { points: Point::new(1, 1).bit() },
        ] {
            assert!(matches!(v.apply(&n), Err(ViewError::Contradiction(_))), "{n:?}");
            assert_eq!(v, before);
        }
    }

    #[test]
    fn text_round_trip_and_errors() {
        let mut v = View::from_stones(Color::WHITE, Point::new(0, 0).bit(), Point::new(8, 8).bit(), 3);
        v.refused_at(Point::new(4, 4), None);
        v.lost_own(Point::new(1, 1).bit());
        let t = v.to_text();
        assert!(t.starts_with("O"));
        assert_eq!(&v.board_text()[80..], "X");
        assert_eq!(View::from_text(&t), Ok(v.clone()));
        assert_eq!(View::from_text(""), Err(ViewError::Fields(0)));
        let bad = t.replacen('O', "Q", 1);
        assert!(matches!(View::from_text(&bad), Err(ViewError::Board { field: "board", .. })));
        let bad = t.replacen(" W ", " G ", 1);
        assert_eq!(View::from_text(&bad), Err(ViewError::Color("G".into())));
        let bad = t.replacen(" 3 ", " -3 ", 1);
        assert!(matches!(View::from_text(&bad), Err(ViewError::Number { .. })));
    }
}
