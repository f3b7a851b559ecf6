//! Determinization: full boards sampled from what one Phantom Go player knows.
//!
//! A [`Belief`] is built from a [`View`] alone (the function signatures take nothing
//! else) and draws boards ([`Belief::sample`]) that agree with everything the view
//! tells:
//!
//! * the player's own stones stand where the view says, and nothing else of its colour;
//! * the opponent has exactly [`View::opponent_count`] stones, on no own stone, and on
//!   every opponent stone the player knows: those the view shows (OpenSpiel shows the
//!   stone on a refused point) and those it can *deduce* — when the player's own stones
//!   were the last captured, every point next to the captured group that is not one of
//!   them held an opponent stone at the capture, and stones only leave the board by a
//!   capture, which would have replaced the view's last capture ([`deduced_opponent`]);
//! * the position is a legal Go position: no group of either colour without liberties;
//! * every point refused this turn is explained: an opponent stone stands there, or the
//!   player's try there is illegal on the sampled board (suicide; ko is not modelled).
//!
//! Where the view leaves freedom the draw is weighted by plausibility: refused points
//! first (a refused point is an opponent stone unless it was a ko or a suicide), those
//! refused in earlier turns next ([`View::earlier_refused`]: stones stay until
//! captured, and the player is told every capture's points), then
//! points weighted by how often opponent stones stand there in practice — contact
//! points next to own stones, the third to fifth lines more than the edge, points next
//! to the opponent stones already drawn (stones come in shapes, not alone), with
//! weights fitted to the hidden stones of real games ([`prior_weights`]).

use bitboards::go::{Board, Color, Point, bits, board_mask, flood, neighbours};
use bitboards::phantom::{SIZE, View};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::Rng;

use super::params::{ATTEMPTS, CONTACT_FACTOR, EDGE_WEIGHT, SECOND_LINE_WEIGHT, SHAPE_FACTOR};

/// The points of the board.
const MASK: u128 = board_mask(SIZE);

/// Opponent stones `view`'s player knows stand now: those the view shows, and, when the
/// last capture took the player's own stones, every point next to them that is not one
/// of them (the capturing stones; none of them can have left since without a capture
/// that the view would show as its last).
pub fn deduced_opponent(view: &View) -> u128 {
    let lc = view.last_captured();
    let ring = neighbours(lc, MASK) & !lc;
    // After the player's own capture, every point round the taken group was its own
    // stone (and still is); after a loss, none is.
    let lost = lc != 0 && ring & view.own() == 0;
    view.opponent() | if lost { ring } else { 0 }
}

/// How plausible an opponent stone is on each point, before any is drawn, in
/// thousandths (index: point number). The weights ([`EDGE_WEIGHT`],
/// [`SECOND_LINE_WEIGHT`], [`CONTACT_FACTOR`], [`SHAPE_FACTOR`]) were fitted so that
/// samples match the hidden stones of the project's own games (1 542 positions of 80
/// CCGC games between its players, every sixth turn; the 1 439 with four hidden stones
/// or more are compared): the share of hidden stones next to another of their colour
/// (84.5 % in the games), next to one of the viewer's stones (69.1 %) and on the edge
/// (23.9 %); see docs/phantomgo.md.
fn prior_weights(view: &View) -> [u32; 128] {
    let mut w = [0u32; 128];
    let contact = neighbours(view.own(), MASK);
    for p in bits(MASK) {
        let (r, c) = (p.row(), p.col());
        let line = 1 + r.min(c).min(SIZE - 1 - r).min(SIZE - 1 - c);
        let mut x: u32 = match line {
            1 => EDGE_WEIGHT,
            2 => SECOND_LINE_WEIGHT,
            _ => 1000,
        };
        if contact & p.bit() != 0 {
            x *= CONTACT_FACTOR;
        }
        w[p.0 as usize] = x;
    }
    w
}

/// A sampled board and whether it explains every refused point.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The full board, the view's player to move.
    pub board: Board,
    /// False if some refused point is neither an opponent stone nor illegal here (the
    /// sampler found no better board in its attempts: a ko, most likely).
    pub explains_refusals: bool,
}

/// What a player believes: the view's fixed facts and the plausibility of the rest.
#[derive(Clone, Debug)]
pub struct Belief {
    color: Color,
    own: u128,
    known: u128,
    count: u32,
    refused: u128,
    earlier: u128,
    free: u128,
    weights: [u32; 128],
}

/// Neither colour has a group without liberties on `b`.
fn legal_position(b: &Board) -> bool {
    b.all_groups_have_liberties()
}

impl Belief {
    /// The belief of the player of `view`.
    pub fn new(view: &View) -> Belief {
        let own = view.own() & MASK;
        let known = deduced_opponent(view) & MASK & !own;
        let free = MASK & !own & !known;
        Belief {
            color: view.color(),
            own,
            known,
            count: view.opponent_count(),
            refused: view.refused() & free,
            earlier: view.earlier_refused() & free & !view.refused(),
            free,
            weights: prior_weights(view),
        }
    }

    /// The player to move on the samples.
    pub fn color(&self) -> Color {
        self.color
    }
    /// Opponent stones every sample holds.
    pub fn known(&self) -> u128 {
        self.known
    }
    /// Opponent stones still to draw on each sample.
    pub fn to_draw(&self) -> u32 {
        self.count.saturating_sub(self.known.count_ones())
    }

    /// A board with the own stones and the known opponent stones, the player to move.
    fn base(&self) -> Board {
        let mut b = Board::new(SIZE);
        for p in bits(self.own) {
            b.set(p, Some(self.color));
        }
        for p in bits(self.known) {
            b.set(p, Some(self.color.other()));
        }
        b.set_to_move(self.color);
        b
    }

    /// Puts an opponent stone on `p` if the position stays legal: the new stone's group
    /// and every own group next to it keep a liberty.
    fn place(&self, b: &mut Board, p: Point) -> bool {
        let them = self.color.other();
        let mut next = *b;
        next.set(p, Some(them));
        let empty = next.empty();
        let group = flood(p.bit(), next.stones(them), MASK);
        if neighbours(group, MASK) & empty == 0 {
            return false;
        }
        let mut adjacent = neighbours(p.bit(), MASK) & next.stones(self.color);
        while adjacent != 0 {
            let g = flood(adjacent & adjacent.wrapping_neg(), next.stones(self.color), MASK);
            adjacent &= !g;
            if neighbours(g, MASK) & empty == 0 {
                return false;
            }
        }
        *b = next;
        true
    }

    /// One attempt: refused points in random order, then weighted draws.
    fn attempt(&self, rng: &mut Xoshiro256PlusPlus) -> Option<Board> {
        let mut b = self.base();
        let mut left = self.to_draw();
        let mut weights = self.weights;
        let mut open = self.free;
        // Refused points first, in random order; then those refused in earlier turns.
        let shuffled = |set: u128, rng: &mut Xoshiro256PlusPlus| {
            let mut v: Vec<Point> = bits(set).collect();
            for i in (1..v.len()).rev() {
                v.swap(i, super::below(rng, i + 1));
            }
            v
        };
        let mut first = shuffled(self.refused, rng);
        first.extend(shuffled(self.earlier, rng));
        for p in first {
            if left == 0 {
                break;
            }
            open &= !p.bit();
            if self.place(&mut b, p) {
                left -= 1;
                Self::boost(&mut weights, p);
            }
        }
        while left > 0 {
            let total: u64 = bits(open).map(|p| u64::from(weights[p.0 as usize])).sum();
            if total == 0 {
                return None;
            }
            let mut x = rng.next_u64() % total;
            let mut chosen = None;
            for p in bits(open) {
                let w = u64::from(weights[p.0 as usize]);
                if x < w {
                    chosen = Some(p);
                    break;
                }
                x -= w;
            }
            let p = chosen?;
            open &= !p.bit();
            if self.place(&mut b, p) {
                left -= 1;
                Self::boost(&mut weights, p);
            }
        }
        Some(b)
    }

    /// Stones come in shapes: points next to a drawn stone become likelier.
    fn boost(weights: &mut [u32; 128], p: Point) {
        for q in bits(neighbours(p.bit(), MASK)) {
            weights[q.0 as usize] = weights[q.0 as usize].saturating_mul(SHAPE_FACTOR);
        }
    }

    /// True if every refused point of `b` holds an opponent stone or is illegal for the
    /// player.
    fn explains(&self, b: &Board) -> bool {
        let them = b.stones(self.color.other());
        bits(self.refused & !them).all(|p| b.try_play(self.color, p).is_err())
    }

    /// A board consistent with the view (see the module documentation), or `None` if
    /// no attempt placed all the opponent's stones (a view no real game produces).
    pub fn sample(&self, rng: &mut Xoshiro256PlusPlus) -> Option<Sample> {
        let mut fallback = None;
        for _ in 0..ATTEMPTS {
            let Some(b) = self.attempt(rng) else { continue };
            debug_assert!(legal_position(&b));
            if self.explains(&b) {
                return Some(Sample { board: b, explains_refusals: true });
            }
            fallback.get_or_insert(b);
        }
        fallback.map(|board| Sample { board, explains_refusals: false })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitboards::go::Move;
    use bitboards::phantom::{PhantomConfig, Referee};
    use proptest::prelude::*;
    use rand_xoshiro::rand_core::SeedableRng;

    /// A referee after `n` random tries (every point tried with equal chance, a pass
    /// now and then), from `seed`.
    fn random_game(config: PhantomConfig, n: usize, seed: u64) -> Referee {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut r = Referee::new(config);
        for _ in 0..n {
            if r.is_over() {
                break;
            }
            let k = crate::phantom::below(&mut rng, 85);
            let mv = if k >= 81 { Move::Pass } else { Move::Play(Point::new(k / 9, k % 9)) };
            let _ = r.try_move(mv);
        }
        r
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn samples_keep_every_constraint(seed in 0u64..1_000_000, n in 0usize..220, open_spiel in any::<bool>()) {
            let config = if open_spiel { PhantomConfig::open_spiel() } else { PhantomConfig::ccgc() };
            let r = random_game(config, n, seed);
            let view = r.view(r.to_move());
            let belief = Belief::new(view);
            // What the player deduces is true.
            let truth = r.board().stones(view.color().other());
            prop_assert_eq!(belief.known() & !truth, 0);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5eed);
            for _ in 0..4 {
                let s = belief.sample(&mut rng).expect("a real game's view has samples");
                let b = s.board;
                let me = view.color();
                prop_assert_eq!(b.stones(me), view.own());
                prop_assert_eq!(b.stones(me.other()).count_ones(), view.opponent_count());
                prop_assert_eq!(b.stones(me.other()) & view.own(), 0);
                prop_assert_eq!(b.stones(me.other()) & belief.known(), belief.known());
                prop_assert!(b.all_groups_have_liberties());
                prop_assert_eq!(b.to_move(), me);
                if s.explains_refusals {
                    for p in bits(view.refused() & !b.stones(me.other())) {
                        prop_assert!(b.try_play(me, p).is_err());
                    }
                }
            }
        }
    }

    #[test]
    fn refused_points_are_drawn_first() {
        let mut r = Referee::new(PhantomConfig::ccgc());
        let e5 = Point::new(4, 4);
        r.try_move(Move::Play(e5)).unwrap();
        // White tries E5: refused. Its one sampled black stone must be there.
        r.try_move(Move::Play(e5)).unwrap();
        let belief = Belief::new(r.view(Color::WHITE));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        for _ in 0..20 {
            let s = belief.sample(&mut rng).unwrap();
            assert_eq!(s.board.stones(Color::BLACK), e5.bit());
            assert!(s.explains_refusals);
        }
    }

    #[test]
    fn the_stones_that_captured_ours_are_known() {
        // Black B1 (0,1)... a white stone at A9 (0,0) captured by black at (0,1),(1,0).
        let mut r = Referee::new(PhantomConfig::ccgc());
        for (mv_r, mv_c) in [(0, 1), (0, 0), (1, 0)] {
            assert!(r.try_move(Move::Play(Point::new(mv_r, mv_c))).unwrap().is_legal());
        }
        // White lost (0,0): the ring (0,1), (1,0) is black for sure.
        let white = r.view(Color::WHITE);
        assert_eq!(deduced_opponent(white), Point::new(0, 1).bit() | Point::new(1, 0).bit());
        // Black captured: it deduces nothing.
        assert_eq!(deduced_opponent(r.view(Color::BLACK)), 0);
    }
}
