//! Last good reply with forgetting (LGRF-2; Baier and Drake, "The Power of Forgetting:
//! Improving the Last-Good-Reply Policy in Monte Carlo Go", 2010): what the playouts
//! of one search learn from each other.
//!
//! After every iteration, each move of the winner is remembered as the reply to the
//! move before it (LGR-1) and to the two moves before it (LGR-2); each move of the
//! loser that is the remembered reply is forgotten. A playout then answers the last
//! move with the remembered reply when it can (see [`super::playout`]): the reply to
//! the last two moves first, else the reply to the last one.
//!
//! The tables are shared by the search's threads through relaxed atomics: a lost or
//! torn update only changes which reply a later playout tries, never the rules (a
//! reply is played only if it is playable then).

use std::sync::atomic::AtomicU8;
use std::sync::atomic::Ordering::Relaxed;

use bitboards::go::Cell;

/// Cells of the padded playout board (see [`bitboards::go::FastBoard`]); 0 is a pass
/// or no move.
const CELLS: usize = 128;

/// The replies remembered by one search.
pub struct LastGoodReply {
    /// `[colour][last]`: the reply of `colour` (0 white, 1 black) to `last`.
    one: Box<[AtomicU8]>,
    /// `[colour][before][last]`: the reply of `colour` to `before` and then `last`.
    two: Box<[AtomicU8]>,
}

impl Default for LastGoodReply {
    fn default() -> Self {
        LastGoodReply::new()
    }
}

impl LastGoodReply {
    /// Empty tables.
    pub fn new() -> LastGoodReply {
        let table = |n: usize| (0..n).map(|_| AtomicU8::new(0)).collect::<Vec<_>>().into_boxed_slice();
        LastGoodReply { one: table(2 * CELLS), two: table(2 * CELLS * CELLS) }
    }

    fn one_index(black: bool, last: Cell) -> usize {
        usize::from(black) * CELLS + (last as usize & (CELLS - 1))
    }

    fn two_index(black: bool, before: Cell, last: Cell) -> usize {
        (usize::from(black) * CELLS + (before as usize & (CELLS - 1))) * CELLS + (last as usize & (CELLS - 1))
    }

    /// The remembered replies of the side (`black` or not) to `before` then `last`:
    /// the two-move reply and the one-move reply, 0 where none is remembered (none
    /// after a pass).
    #[inline]
    pub fn replies(&self, black: bool, before: Cell, last: Cell) -> [Cell; 2] {
        if last == 0 {
            return [0, 0];
        }
        [
            self.two[Self::two_index(black, before, last)].load(Relaxed),
            self.one[Self::one_index(black, last)].load(Relaxed),
        ]
    }

    /// Learns from one iteration's moves, in order (each a cell, 0 for a pass, and
    /// whether Black played it; a side that moves twice in a row passed between),
    /// played after the moves `start` (the one before the last, and the last; 0 for
    /// a pass or none), and whether Black won it.
    pub fn learn(&self, start: (Cell, Cell), moves: &[(Cell, bool)], black_wins: bool) {
        // The moves before the current one, with the passes put back in.
        let (mut before, mut last) = start;
        let mut last_black: Option<bool> = None;
        for &(cell, black) in moves {
            if last_black == Some(black) {
                // A pass by the other side came between.
                (before, last) = (last, 0);
            }
            if cell != 0 && last != 0 {
                let one = &self.one[Self::one_index(black, last)];
                let two = &self.two[Self::two_index(black, before, last)];
                if black == black_wins {
                    one.store(cell, Relaxed);
                    two.store(cell, Relaxed);
                } else {
                    // Forgetting: a reply that lost is no longer remembered.
                    let _ = one.compare_exchange(cell, 0, Relaxed, Relaxed);
                    let _ = two.compare_exchange(cell, 0, Relaxed, Relaxed);
                }
            }
            (before, last) = (last, cell);
            last_black = Some(black);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winners_replies_are_remembered_and_the_losers_forgotten() {
        let table = LastGoodReply::new();
        // Black 20, White 30, Black 40; Black wins: 40 answers (20, 30) and 30; White's
        // 30 (a loser's move) is not remembered.
        table.learn((0, 0), &[(20, true), (30, false), (40, true)], true);
        assert_eq!(table.replies(true, 20, 30), [40, 40]);
        assert_eq!(table.replies(false, 0, 20), [0, 0]);
        // The same answer in another line: the one-move reply is kept, the two-move
        // reply is only for the line it was played in.
        assert_eq!(table.replies(true, 50, 30), [0, 40]);
        // Black plays 40 after 30 again and loses: forgotten; White's 41 after 40 is
        // remembered.
        table.learn((0, 0), &[(20, true), (30, false), (40, true), (41, false)], false);
        assert_eq!(table.replies(true, 20, 30), [0, 0]);
        assert_eq!(table.replies(false, 30, 40), [41, 41]);
        // A loser's other move leaves the remembered reply alone.
        table.learn((0, 0), &[(30, false), (40, true), (43, false)], true);
        assert_eq!(table.replies(false, 30, 40), [41, 41]);
        assert_eq!(table.replies(true, 0, 30), [40, 40]);
    }

    #[test]
    fn passes_are_put_back_between_two_moves_of_one_side() {
        let table = LastGoodReply::new();
        // Black 20, (White passes), Black 21: no reply to a pass is learned, and the
        // move after 21 answers (pass, 21).
        table.learn((0, 0), &[(20, true), (21, true), (22, false)], false);
        assert_eq!(table.replies(true, 20, 0), [0, 0]);
        assert_eq!(table.replies(true, 0, 20), [0, 0]);
        assert_eq!(table.replies(false, 0, 21), [22, 22]);
        // An explicit pass (cell 0) is the same.
        let explicit = LastGoodReply::new();
        explicit.learn((0, 0), &[(20, true), (0, false), (21, true), (22, false)], false);
        assert_eq!(explicit.replies(false, 0, 21), [22, 22]);
    }
}
