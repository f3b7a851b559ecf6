//! Chaos Clock move generation and move making checked against a slow, independent
//! rule checker written here from seed 003: it keeps the board as an array and both
//! hands as explicit lists (the engine implies the hands from parity), and applies
//! every rule step by step. Games of random moves, from random openings and from
//! random positions, must agree move by move; play/undo must restore state and key.

use bitboards::chaosclock::{Move, Outcome, Record, Side, State, random_opening};
use bitboards::rng::splitmix64;
use proptest::prelude::*;

/// The slow checker's position.
#[derive(Clone, Debug, PartialEq)]
struct Slow {
    /// `points[p - 1]`: the piece on point p, 0 for none.
    points: [u8; 12],
    /// Pieces held by 甲 (odd) and 乙 (even), sorted.
    hand_jia: Vec<u8>,
    hand_yi: Vec<u8>,
    yi_to_move: bool,
    /// The piece walked by the previous move.
    last_walked: Option<u8>,
    previous_was_pass: bool,
    /// The side that fixed all six pieces first (the other has one move left).
    first_complete: Option<Side>,
    result: Option<Outcome>,
}

impl Slow {
    fn from_state(s: &State) -> Slow {
        let points: [u8; 12] = std::array::from_fn(|i| s.at(i as u8 + 1));
        let mut hand_jia = Vec::new();
        let mut hand_yi = Vec::new();
        for n in 1..=12u8 {
            if !points.contains(&n) {
                if n % 2 == 1 { hand_jia.push(n) } else { hand_yi.push(n) }
            }
        }
        Slow {
            points,
            hand_jia,
            hand_yi,
            yi_to_move: s.to_move() == Side::YI,
            last_walked: (s.just_walked() != 0).then_some(s.just_walked()),
            previous_was_pass: s.after_pass(),
            first_complete: s.completed(),
            result: s.outcome(),
        }
    }

    /// Once the game is over, who completed first no longer matters.
    fn normalized(mut self) -> Slow {
        if self.result.is_some() {
            self.first_complete = None;
        }
        self
    }

    fn mover(&self) -> Side {
        if self.yi_to_move { Side::YI } else { Side::JIA }
    }

    fn hand(&self, side: Side) -> &Vec<u8> {
        if side == Side::YI { &self.hand_yi } else { &self.hand_jia }
    }

    fn give(&mut self, piece: u8) {
        let hand = if piece % 2 == 1 { &mut self.hand_jia } else { &mut self.hand_yi };
        hand.push(piece);
        hand.sort_unstable();
    }

    fn complete(&self, side: Side) -> bool {
        let parity = if side == Side::YI { 0 } else { 1 };
        (1..=12u8).filter(|n| n % 2 == parity).all(|n| self.points[n as usize - 1] == n)
    }

    /// Every legal move, found by trying each rule by hand.
    fn legal(&self) -> Vec<Move> {
        if self.result.is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        for &n in self.hand(self.mover()) {
            moves.push(Move::Place(n));
        }
        for p in 1..=12u8 {
            let n = self.points[p as usize - 1];
            if n == 0 || n == p || self.last_walked == Some(n) {
                continue;
            }
            // Walk n steps one at a time.
            let mut q = p;
            for _ in 0..n {
                q = if q == 12 { 1 } else { q + 1 };
            }
            if q != p && self.points[q as usize - 1] == q {
                continue;
            }
            moves.push(Move::Walk(n));
        }
        moves.push(Move::Pass);
        moves
    }

    fn play(&self, mv: Move) -> Slow {
        let mut next = self.clone();
        let me = self.mover();
        let mut captured_opponent = false;
        next.last_walked = None;
        next.previous_was_pass = false;
        match mv {
            Move::Pass => next.previous_was_pass = true,
            Move::Walk(n) => {
                let p = self.points.iter().position(|&x| x == n).expect("on the board") as u8 + 1;
                next.points[p as usize - 1] = 0;
                let mut q = p;
                for _ in 0..n {
                    q = if q == 12 { 1 } else { q + 1 };
                }
                if q == p {
                    // Piece 12 comes back onto itself: off the board, to 乙.
                    next.give(n);
                } else {
                    let taken = next.points[q as usize - 1];
                    if taken != 0 {
                        next.give(taken);
                    }
                    next.points[q as usize - 1] = n;
                }
                next.last_walked = Some(n);
            }
            Move::Place(n) => {
                let hand = if me == Side::YI { &mut next.hand_yi } else { &mut next.hand_jia };
                hand.retain(|&x| x != n);
                let taken = next.points[n as usize - 1];
                if taken != 0 {
                    captured_opponent = (taken % 2 == 1) != (me == Side::JIA);
                    next.give(taken);
                }
                next.points[n as usize - 1] = n;
            }
        }
        if let Some(first) = self.first_complete.filter(|&f| f != me) {
            // The other side's one last move has been played.
            next.result = Some(if next.complete(me) { Outcome::BothWin } else { Outcome::Win(first) });
            return next;
        }
        if self.first_complete.is_none() && mv == Move::Pass && self.previous_was_pass {
            next.result = Some(Outcome::BothLose);
            return next;
        }
        if captured_opponent && next.complete(me) {
            next.result = Some(Outcome::Win(me));
            return next;
        }
        if next.first_complete.is_none() {
            if next.complete(me) {
                next.first_complete = Some(me);
            } else if next.complete(me.other()) {
                next.first_complete = Some(me.other());
            }
        }
        if !captured_opponent {
            next.yi_to_move = !self.yi_to_move;
        }
        next
    }
}

/// The engine's position seen through the checker's eyes, hands taken from the engine.
fn engine_view(s: &State) -> Slow {
    let mut view = Slow::from_state(s);
    let list = |h: u16| (1..=12u8).filter(|n| h >> n & 1 == 1).collect::<Vec<u8>>();
    view.hand_jia = list(s.hand(Side::JIA));
    view.hand_yi = list(s.hand(Side::YI));
    view
}

fn sorted(mut moves: Vec<Move>) -> Vec<String> {
    let mut text: Vec<String> = moves.drain(..).map(|m| m.to_string()).collect();
    text.sort();
    text
}

/// Plays up to `plies` random moves from `start` through both implementations.
fn compare_game(start: State, seed: u64, plies: usize) {
    let mut state = start;
    let mut slow = Slow::from_state(&start);
    let mut rng = seed;
    for ply in 0..plies {
        assert_eq!(
            engine_view(&state).normalized(),
            slow.clone().normalized(),
            "ply {ply}: positions differ at {state}"
        );
        let legal = state.legal_moves();
        assert_eq!(sorted(legal.clone()), sorted(slow.legal()), "ply {ply}: legal moves of {state}");
        // The allocation-free generator gives the same moves, in order, and the same states.
        let (successors, count) = state.successors();
        let played: Vec<(Move, State)> = legal.iter().map(|&m| (m, state.play(m).expect("legal"))).collect();
        assert_eq!(&successors[..count], &played[..], "ply {ply}: successors of {state}");
        // The canonical state has the same moves to the same states.
        let (same, same_count) = state.canonical().successors();
        assert_eq!(&same[..same_count], &played[..], "ply {ply}: successors of {}", state.canonical());
        let (canonical, canonical_count) = state.canonical_successors();
        let expected: Vec<(Move, State)> = played.iter().map(|&(m, s)| (m, s.canonical())).collect();
        assert_eq!(&canonical[..canonical_count], &expected[..], "ply {ply}: canonical successors of {state}");
        let (mut loose, mut fixed) = (0u16, 0u16);
        for p in 1..=12u8 {
            match state.at(p) {
                0 => {}
                n if n == p => fixed |= 1 << (n - 1),
                n => loose |= 1 << (n - 1),
            }
        }
        assert_eq!(state.loose_and_fixed(), (loose, fixed), "ply {ply}: loose and fixed pieces of {state}");
        // Every move the checker refuses, the engine refuses too.
        for n in 1..=12 {
            for mv in [Move::Walk(n), Move::Place(n)] {
                assert_eq!(state.play(mv).is_ok(), legal.contains(&mv), "{mv} at {state}");
            }
        }
        if legal.is_empty() {
            assert!(state.outcome().is_some());
            return;
        }
        rng = splitmix64(rng);
        // Passes are rare, so that games get far.
        let mv = if rng.is_multiple_of(16) { Move::Pass } else { legal[(rng >> 8) as usize % legal.len()] };
        state = state.play(mv).expect("a generated move is legal");
        slow = slow.play(mv);
    }
}

/// A random position: each piece on a random point, in hand, or home; any flags that
/// can occur.
fn random_position(seed: u64) -> State {
    let mut rng = seed;
    let mut next = || {
        rng = splitmix64(rng);
        rng
    };
    let mut points = [0u8; 12];
    for n in 1..=12u8 {
        match next() % 4 {
            0 => {}                                                         // in hand
            1 if points[n as usize - 1] == 0 => points[n as usize - 1] = n, // home
            _ => {
                let free: Vec<usize> = (0..12).filter(|&i| points[i] == 0 && i + 1 != n as usize).collect();
                if !free.is_empty() {
                    points[free[next() as usize % free.len()]] = n;
                }
            }
        }
    }
    let board: Vec<String> = points.iter().map(u8::to_string).collect();
    let side = if next() % 2 == 0 { "Y" } else { "J" };
    let walked: Vec<u8> = points.iter().copied().filter(|&n| n != 0).chain([0]).collect();
    let w = walked[next() as usize % walked.len()];
    // The flag of a pass only where the previous move walked nothing.
    let text = format!("{} {side} {w}{}", board.join(","), if w == 0 && next() % 4 == 0 { " p" } else { "" });
    State::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn games_from_random_openings_agree(opening in any::<u64>(), moves in any::<u64>()) {
        compare_game(random_opening(opening), moves, 300);
    }

    #[test]
    fn games_from_random_positions_agree(position in any::<u64>(), moves in any::<u64>()) {
        compare_game(random_position(position), moves, 120);
    }

    #[test]
    fn play_then_undo_restores_state_and_key(opening in any::<u64>(), moves in any::<u64>()) {
        let mut record = Record::new(random_opening(opening));
        let mut seen = vec![record.state()];
        let mut rng = moves;
        while record.state().outcome().is_none() && record.moves().len() < 80 {
            let legal = record.state().legal_moves();
            rng = splitmix64(rng);
            let mv = legal[rng as usize % legal.len()];
            let before = record.state();
            record.play(mv).expect("legal");
            prop_assert_eq!(record.undo(), Some(mv));
            prop_assert_eq!(record.state(), before);
            prop_assert_eq!(record.state().key(), before.key());
            record.play(mv).expect("legal");
            seen.push(record.state());
        }
        // Undoing the whole game walks back through every state.
        for expected in seen.iter().rev().skip(1) {
            record.undo();
            prop_assert_eq!(record.state(), *expected);
        }
        prop_assert_eq!(record.undo(), None);
    }
}

#[test]
fn the_text_form_round_trips_on_random_positions() {
    for seed in 0..2000 {
        let s = random_position(seed);
        assert_eq!(State::parse(&s.to_string()), Ok(s));
    }
}
