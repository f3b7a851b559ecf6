//! The Phantom Go player: which try to make, from one side's [`View`] alone.
//!
//! **Combined** ([`PhantomPlayer::Combined`], the default): the belief-state search
//! below runs for half the time and proposes its [`FINALISTS`] best candidates; flat
//! Monte-Carlo on freshly sampled boards decides among them with the other half (the
//! belief search finds the moves, the flat playouts' mean results, which average over
//! the hidden stones instead of playing as if they were seen, pick one).
//!
//! **Belief-state search** ([`PhantomPlayer::Belief`]): boards are sampled
//! from the view ([`Belief`]), the Go MCTS (UCT-RAVE over the playouts of
//! [`PlayerSettings::playouts`], light by default, [`crate::go::mcts`]) runs 256 to
//! 1024 playouts on each (12 per candidate) for the side to move, and
//! each point is scored by its mean share of the root visits over the samples where it
//! can be played (a try that turns out to hit a hidden stone costs only time, and
//! shows where a stone stands; a point free on too few samples is discounted). **Flat Monte-Carlo** ([`PhantomPlayer::Flat`]) is the baseline
//! ([`super::flat`]).
//!
//! Both choose only among [`try_candidates`]: points empty in the view, not refused
//! this turn (a refused point is never tried again in the same turn), not a deduced
//! opponent stone and not one of the player's own true eyes. The player passes when no
//! candidate is left (CCGC rule 7: the referee would turn a turn of nothing but illegal
//! tries into a pass anyway), and the belief search also when the pass wins clearly
//! more often on the samples than every candidate (all that is left fills its own eye
//! space).

use std::time::Instant;

use bitboards::go::{Board, Game, Move, Point, Superko, bits, board_mask, neighbours};
use bitboards::phantom::{SIZE, View};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::belief::{Belief, deduced_opponent};
use super::choice::{Budget, Choice, PhantomPlayer, PlayerSettings, ranked_choice};
use super::params::{
    BELIEF_SHARE, CANDIDATES_PER_MOVE_LEFT, MAX_PER_SAMPLE, MIN_MOVES_LEFT, MIN_PER_SAMPLE, PASS_MARGIN,
    PHANTOM_EXPLORATION, PLAYOUTS_PER_CANDIDATE, SCORE_FLOOR_DIVISOR,
};
pub use super::params::{DEFAULT_PLAYOUTS, FINALISTS};
use crate::go::mcts::{Mcts, MctsSettings};
use crate::limits::{Limits, StopFlag, TimeBudget};

/// Mixed into the seed of the combined player's flat part.
const FLAT_SEED: u64 = 0x5EED_F1A7;

/// The points the player of `view` may sensibly try now: empty in its view, not refused
/// this turn, not an opponent stone it knows of, not one of its own eyes (an empty point
/// whose neighbours are all its stones) unless it is the last liberty of a neighbouring
/// own chain (every other neighbour of the chain is a stone, refused or known) and
/// filling it joins that chain to stones with two liberties or more.
pub fn try_candidates(view: &View) -> u128 {
    let mask = board_mask(SIZE);
    let opponent = deduced_opponent(view);
    let blocked = view.own() | opponent | view.refused();
    let mut out = 0;
    for p in bits(mask & !blocked) {
        let around = neighbours(p.bit(), mask);
        if around & !view.own() != 0 || saves_own_chain(view, opponent | view.refused(), p) {
            out |= p.bit();
        }
    }
    out
}

/// True if the empty `p` is the only point next to one of the own chains touching it
/// that is neither an own stone nor in `taken` (points known to hold opponent stones),
/// and the chain made by playing there has two such points or more (not a self-atari).
fn saves_own_chain(view: &View, taken: u128, p: Point) -> bool {
    let mask = board_mask(SIZE);
    let own = view.own();
    let open = |chain: u128| neighbours(chain, mask) & !own & !taken & !p.bit();
    let mut touching = neighbours(p.bit(), mask) & own;
    let mut in_atari = false;
    while touching != 0 {
        let chain = bitboards::go::flood(touching & touching.wrapping_neg(), own, mask);
        touching &= !chain;
        in_atari |= open(chain) == 0;
    }
    let joined = bitboards::go::flood(p.bit(), own | p.bit(), mask);
    in_atari && open(joined).count_ones() >= 2
}

/// Chooses the next try for the player of `view` under `settings`, within `limits`
/// (`nodes` counts playouts and makes the choice depend on `seed` alone), until `stop`.
/// Reads nothing but its arguments: two games whose views for the mover are equal get
/// the same choice from the same seed and node limit.
pub fn choose(view: &View, settings: &PlayerSettings, limits: &Limits, stop: &StopFlag, seed: u64) -> Choice {
    let start = Instant::now();
    let candidates = try_candidates(view);
    if candidates == 0 {
        return Choice {
            mv: Move::Pass,
            win_rate: 0.0,
            samples: 0,
            playouts: 0,
            elapsed: start.elapsed(),
            moves: vec![(Move::Pass, 0.0)],
        };
    }
    let timed = limits.movetime.is_some() || limits.clock.time.iter().any(Option::is_some) || limits.infinite;
    let moves_left = (candidates.count_ones() / CANDIDATES_PER_MOVE_LEFT).max(MIN_MOVES_LEFT);
    let budget = Budget {
        time: TimeBudget::new(limits, view.color(), moves_left),
        nodes: limits.nodes.unwrap_or(if timed { u64::MAX } else { DEFAULT_PLAYOUTS }),
        timed,
        stop,
        start,
    };
    // The seed and the view together: a refused try is followed by a fresh search.
    let seed = seed ^ u64::from(view.refused().count_ones()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    match settings.player {
        PhantomPlayer::Flat => super::flat::search(view, settings, candidates, false, &budget, seed),
        PhantomPlayer::Ismcts => super::ismcts::search(view, settings, candidates, &budget, seed),
        PhantomPlayer::Belief => belief_search(view, settings, candidates, &budget, seed),
        PhantomPlayer::Combined => combined_search(view, settings, candidates, &budget, seed),
    }
}

/// The combined player (see the module documentation): the belief search with
/// [`BELIEF_SHARE`] of the budget, then flat Monte-Carlo over its [`FINALISTS`] best
/// candidates until the budget is spent (its playouts counted with the belief search's).
/// The finalists are the first [`FINALISTS`] entries of the belief search's ranking
/// (four points and the pass when it proposes a pass). A proposed pass is measured by
/// the flat playouts too, and tried only if it beats the best finalist there by
/// [`PASS_MARGIN`] ([`pass_or_best`]; with half the time, the belief search's own pass
/// rule passed in the opening). A single finalist and no proposed pass is the choice
/// at once; so is the belief search's choice when no time was left for a flat playout
/// after it (a stop, or a try of a few milliseconds).
fn combined_search(view: &View, settings: &PlayerSettings, candidates: u128, budget: &Budget, seed: u64) -> Choice {
    let proposal = belief_search(view, settings, candidates, &budget.part(BELIEF_SHARE), seed);
    let finalists = proposal
        .moves
        .iter()
        .take(FINALISTS)
        .filter_map(|&(mv, _)| match mv {
            Move::Play(p) => Some(p.bit()),
            Move::Pass => None,
        })
        .fold(0u128, |set, bit| set | bit);
    let pass_proposed = proposal.mv == Move::Pass;
    if finalists == 0 || (finalists.count_ones() == 1 && !pass_proposed) {
        return proposal;
    }
    let rest = budget.after(proposal.playouts);
    let mut decision = super::flat::search(view, settings, finalists, pass_proposed, &rest, seed ^ FLAT_SEED);
    // Flat gives a candidate without a playout the mean -1.
    if decision.moves.first().is_none_or(|&(_, mean)| mean < 0.0) {
        return proposal;
    }
    pass_or_best(&mut decision.moves);
    let (mv, win_rate) = decision.moves[0];
    let others = proposal.moves.iter().filter(|(mv, _)| matches!(mv, Move::Play(p) if finalists & p.bit() == 0));
    Choice {
        mv,
        win_rate: win_rate.max(0.0),
        samples: proposal.samples + decision.samples,
        playouts: proposal.playouts + decision.playouts,
        elapsed: budget.elapsed(),
        moves: decision.moves.iter().chain(others).copied().collect(),
    }
}

/// Puts the pass of flat Monte-Carlo's ranked `moves` (mean results, best first) first
/// if its mean beats the best point's by [`PASS_MARGIN`], and drops it otherwise: a
/// pass hands the opponent a free move, which a playout values at less than a game
/// does.
fn pass_or_best(moves: &mut Vec<(Move, f32)>) {
    let pass_mean = moves.iter().find(|m| m.0 == Move::Pass).map(|m| m.1);
    moves.retain(|m| m.0 != Move::Pass);
    if let Some(mean) = pass_mean
        && moves.first().is_none_or(|best| mean >= best.1 + PASS_MARGIN)
    {
        moves.insert(0, (Move::Pass, mean));
    }
}

/// The belief-state search (see the module documentation).
fn belief_search(view: &View, settings: &PlayerSettings, candidates: u128, budget: &Budget, seed: u64) -> Choice {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let belief = Belief::new(view);
    let me = view.color();
    // Per point (index 127: the pass): the sum over samples of its share of the root
    // visits, the samples where it could be played, the visits and the wins.
    const PASS: usize = 127;
    let mut share = [0f64; 128];
    let mut avail = [0u32; 128];
    let mut visits = [0u64; 128];
    let mut wins = [0f64; 128];
    let (mut playouts, mut samples) = (0u64, 0u32);
    while !budget.done(playouts, samples) {
        let Some(sample) = belief.sample(&mut rng) else { break };
        samples += 1;
        let board: Board = sample.board;
        let game = Game::new(board, settings.komi, Superko::Off);
        // No priors, no last good replies, and the exploration the player was tuned
        // with: it was measured without the priors and the Go search's later settings
        // (those were measured in Go, not in Phantom Go).
        let settings = MctsSettings {
            policy: settings.playouts,
            priors: false,
            exploration: PHANTOM_EXPLORATION,
            last_good_reply: false,
            ..MctsSettings::default()
        };
        let mut tree = Mcts::with_pass(&game, rng.next_u64(), true).with_settings(settings);
        let per_sample =
            (PLAYOUTS_PER_CANDIDATE * u64::from(candidates.count_ones())).clamp(MIN_PER_SAMPLE, MAX_PER_SAMPLE);
        let n = per_sample.min(budget.nodes.saturating_sub(playouts)).max(1);
        let r = tree.search(&Limits { nodes: Some(n), ..Limits::default() }, budget.stop, me);
        playouts += r.playouts;
        let total = r.root_moves.iter().map(|m| u64::from(m.1)).sum::<u64>().max(1) as f64;
        for (mv, v, w) in r.root_moves {
            let i = match mv {
                Move::Play(p) if candidates & p.bit() != 0 => p.0 as usize,
                Move::Pass => PASS,
                Move::Play(_) => continue,
            };
            share[i] += f64::from(v) / total;
            avail[i] += 1;
            visits[i] += u64::from(v);
            wins[i] += f64::from(w) * f64::from(v);
        }
    }
    // A point's value: its mean share of the visits over the samples where it is empty
    // and legal (a try on a point that turns out occupied costs nothing but time, and
    // tells where a stone stands), counted over at least a fifth of the samples so
    // that a point empty on one sample alone does not win by chance.
    let floor = (samples / SCORE_FLOOR_DIVISOR).max(1);
    let score = |i: usize| share[i] / f64::from(avail[i].max(floor));
    let win_rate = |i: usize| if visits[i] > 0 { (wins[i] / visits[i] as f64) as f32 } else { 0.0 };
    let moves: Vec<(Move, f32, f32)> =
        bits(candidates).map(|p: Point| (Move::Play(p), score(p.0 as usize) as f32, win_rate(p.0 as usize))).collect();
    let pass = (avail[PASS] > 0 && visits[PASS] > 0).then(|| (score(PASS) as f32, win_rate(PASS)));
    ranked_choice(moves, pass, samples, playouts, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::playout::Policy;
    use bitboards::go::Color;
    use bitboards::phantom::{PhantomConfig, Referee};

    fn at(r: usize, c: usize) -> Move {
        Move::Play(Point::new(r, c))
    }

    fn play(r: &mut Referee, moves: &[Move]) {
        for &m in moves {
            assert!(r.try_move(m).unwrap().is_legal(), "{m:?}");
        }
    }

    fn limits(n: u64) -> Limits {
        Limits { nodes: Some(n), ..Limits::default() }
    }

    /// A game after four legal tries, black to move.
    fn opening() -> Referee {
        let mut r = Referee::new(PhantomConfig::ccgc());
        play(&mut r, &[at(4, 4), at(2, 6), at(6, 2), at(3, 3)]);
        r
    }

    /// A budget of `nodes` playouts and no time limit.
    fn node_budget(stop: &StopFlag, nodes: u64) -> Budget<'_> {
        Budget {
            time: TimeBudget::new(&Limits::default(), Color::BLACK, 10),
            nodes,
            timed: false,
            stop,
            start: Instant::now(),
        }
    }

    #[test]
    fn the_player_reads_only_its_view() {
        // Two games, different full boards: black's stones are the same, white's differ
        // (same count). Black's views are equal, so are its choices.
        let mut a = Referee::new(PhantomConfig::ccgc());
        play(&mut a, &[at(2, 2), at(6, 6), at(2, 6), at(6, 2)]);
        let mut b = Referee::new(PhantomConfig::ccgc());
        play(&mut b, &[at(2, 2), at(4, 4), at(2, 6), at(5, 3)]);
        assert_ne!(a.board(), b.board());
        assert_eq!(a.view(Color::BLACK), b.view(Color::BLACK));
        for player in PhantomPlayer::ALL {
            let s = PlayerSettings { player, ..PlayerSettings::default() };
            let ca = choose(a.view(Color::BLACK), &s, &limits(3000), &StopFlag::new(), 9);
            let cb = choose(b.view(Color::BLACK), &s, &limits(3000), &StopFlag::new(), 9);
            assert_eq!(ca.mv, cb.mv, "{player:?}");
            assert_eq!(ca.moves, cb.moves, "{player:?}");
        }
    }

    #[test]
    fn a_try_is_always_a_candidate_and_never_a_refused_point() {
        // Self-play through a referee: every try is empty in the mover's view and not
        // refused this turn; the refused ones are retried elsewhere.
        let players = PhantomPlayer::ALL.map(|player| PlayerSettings { player, ..PlayerSettings::default() });
        let heavy = [PhantomPlayer::Combined, PhantomPlayer::Ismcts].map(|player| PlayerSettings {
            player,
            playouts: Policy::Heavy,
            ..PlayerSettings::default()
        });
        for s in players.into_iter().chain(heavy) {
            let player = s.player;
            let mut r = Referee::new(PhantomConfig::ccgc());
            let mut tries = 0;
            while !r.is_over() && tries < 400 {
                let view = r.view(r.to_move()).clone();
                let c = choose(&view, &s, &limits(300), &StopFlag::new(), tries);
                if let Move::Play(p) = c.mv {
                    assert_eq!(view.at(p), None, "{s:?}: {p:?} is not empty in the view");
                    assert_eq!(view.refused() & p.bit(), 0, "{s:?}: {p:?} was refused");
                    assert_ne!(try_candidates(&view) & p.bit(), 0);
                } else if player == PhantomPlayer::Flat {
                    assert_eq!(try_candidates(&view), 0, "flat passes only with nothing to try");
                }
                r.try_move(c.mv).unwrap();
                tries += 1;
            }
            assert!(r.history().len() > 20, "{s:?}: {} tries", r.history().len());
        }
    }

    #[test]
    fn the_last_liberty_of_an_own_chain_is_tried_even_inside_own_stones() {
        // Black D5, F5, E4 and E6 surround E5. E6's other liberties (E7, D6, F6) hold
        // known white stones: E5 is its last liberty, and filling it joins E6 to
        // stones with liberties to spare, although every neighbour of E5 is black.
        let at = |r: usize, c: usize| Point::new(r, c).bit();
        let e5 = at(4, 4);
        let own = at(4, 3) | at(4, 5) | at(5, 4) | at(3, 4);
        let around_e6 = at(2, 4) | at(3, 3) | at(3, 5);
        let view = View::from_stones(Color::BLACK, own, around_e6, 3);
        assert_ne!(try_candidates(&view) & e5, 0, "E5 saves E6");
        // With F6 open, E6 has a second liberty and E5 is an eye.
        let view = View::from_stones(Color::BLACK, own, at(2, 4) | at(3, 3), 2);
        assert_eq!(try_candidates(&view) & e5, 0, "E5 is an eye");
        // With every liberty of the joined stones known white but G5, filling E5 is a
        // self-atari of five stones: still an eye.
        let closed = around_e6 | at(4, 2) | at(5, 3) | at(5, 5) | at(6, 4);
        let view = View::from_stones(Color::BLACK, own, closed, 7);
        assert_eq!(try_candidates(&view) & e5, 0, "E5 would be a self-atari");
    }

    #[test]
    fn the_combined_player_chooses_among_the_belief_searchs_finalists() {
        // With a node budget the combined player's first half is exactly the belief
        // search of half the playouts (same seed): its choice is one of that search's
        // five best, found by flat playouts run after it.
        let r = opening();
        let view = r.view(Color::BLACK);
        let belief = PlayerSettings { player: PhantomPlayer::Belief, ..PlayerSettings::default() };
        let combined = PlayerSettings::default();
        assert_eq!(combined.player, PhantomPlayer::Combined);
        for seed in 1..4 {
            let proposal = choose(view, &belief, &limits(4000), &StopFlag::new(), seed);
            let finalists: Vec<Move> = proposal.moves.iter().take(FINALISTS).map(|m| m.0).collect();
            let c = choose(view, &combined, &limits(8000), &StopFlag::new(), seed);
            assert!(finalists.contains(&c.mv), "seed {seed}: {:?} not in {finalists:?}", c.mv);
            // The decision is flat Monte-Carlo's over the finalists, with the rest of
            // the playouts.
            let mask = finalists.iter().fold(0u128, |m, mv| if let Move::Play(p) = mv { m | p.bit() } else { m });
            let stop = StopFlag::new();
            let rest = 8000 - proposal.playouts;
            let budget = node_budget(&stop, rest);
            let flat = crate::phantom::flat::search(view, &combined, mask, false, &budget, seed ^ FLAT_SEED);
            assert_eq!(c.mv, flat.mv, "seed {seed}");
            assert_eq!(c.playouts, proposal.playouts + flat.playouts, "seed {seed}");
            assert!(c.playouts < 8000 + 100, "seed {seed}: the node budget is shared ({})", c.playouts);
            // The finalists come first in the combined ranking, the rest after them.
            let head: Vec<Move> = c.moves.iter().take(FINALISTS).map(|m| m.0).collect();
            assert!(head.iter().all(|m| finalists.contains(m)), "seed {seed}: {head:?}");
            assert_eq!(c.moves.len(), proposal.moves.len());
        }
    }

    #[test]
    fn a_combined_search_stopped_at_once_plays_the_belief_searchs_choice() {
        // Stopped before any playout: no flat playout ran, so the finalists' order
        // is the belief search's, not flat's means of -1.
        let r = opening();
        let view = r.view(Color::BLACK);
        let stop = StopFlag::new();
        stop.stop();
        let infinite = Limits { infinite: true, ..Limits::default() };
        let belief = PlayerSettings { player: PhantomPlayer::Belief, ..PlayerSettings::default() };
        let b = choose(view, &belief, &infinite, &stop, 5);
        let c = choose(view, &PlayerSettings::default(), &infinite, &stop, 5);
        assert_eq!(c.mv, b.mv);
        assert_eq!(c.moves, b.moves);
    }

    #[test]
    fn a_measured_pass_is_chosen_only_by_the_margin() {
        let (a, b) = (at(0, 0), at(1, 1));
        let mut close = vec![(a, 0.6), (Move::Pass, 0.55), (b, 0.5)];
        pass_or_best(&mut close);
        assert_eq!(close, vec![(a, 0.6), (b, 0.5)], "a pass a little behind is dropped");
        let mut ahead = vec![(Move::Pass, 0.7), (a, 0.6), (b, 0.5)];
        pass_or_best(&mut ahead);
        assert_eq!(ahead, vec![(a, 0.6), (b, 0.5)], "a pass ahead by less than the margin too");
        let mut clear = vec![(Move::Pass, 0.8), (a, 0.6), (b, 0.5)];
        pass_or_best(&mut clear);
        assert_eq!(clear, vec![(Move::Pass, 0.8), (a, 0.6), (b, 0.5)], "by the margin, the pass");
        let mut alone = vec![(Move::Pass, 0.1)];
        pass_or_best(&mut alone);
        assert_eq!(alone, vec![(Move::Pass, 0.1)], "nothing else: the pass");
        let mut none = vec![(a, 0.6), (b, 0.5)];
        pass_or_best(&mut none);
        assert_eq!(none, vec![(a, 0.6), (b, 0.5)]);
    }

    #[test]
    fn flat_playouts_measure_the_pass_below_the_best_opening_move() {
        // Early in the game a pass gives the opponent a free move: flat Monte-Carlo,
        // asked to measure it, ranks it below the best candidate, once.
        let r = opening();
        let view = r.view(Color::BLACK);
        let stop = StopFlag::new();
        let budget = node_budget(&stop, 40_000);
        let c = crate::phantom::flat::search(view, &PlayerSettings::default(), try_candidates(view), true, &budget, 3);
        let passes: Vec<f32> = c.moves.iter().filter(|m| m.0 == Move::Pass).map(|m| m.1).collect();
        assert_eq!(passes.len(), 1, "{:?}", c.moves);
        assert!((0.0..=1.0).contains(&passes[0]));
        assert!(c.moves[0].1 > passes[0] + 0.05, "best {:?}, pass {}", c.moves[0], passes[0]);
        assert_eq!(c.moves.len(), try_candidates(view).count_ones() as usize + 1);
    }

    #[test]
    fn nothing_to_try_is_a_pass() {
        // Black owns every point but eyes: nothing sensible is left.
        let mut own = 0u128;
        for p in bits(board_mask(SIZE)) {
            if p.row() % 2 == 1 || p.col() % 2 == 1 {
                own |= p.bit();
            }
        }
        let view = View::from_stones(Color::BLACK, own, 0, 0);
        assert_eq!(try_candidates(&view), 0);
        let c = choose(&view, &PlayerSettings::default(), &limits(100), &StopFlag::new(), 1);
        assert_eq!(c.mv, Move::Pass);
    }

    #[test]
    fn the_names_read_back() {
        for p in PhantomPlayer::ALL {
            assert_eq!(PhantomPlayer::parse(p.name()), Ok(p));
        }
        assert_eq!(PhantomPlayer::ALL[0], PhantomPlayer::default());
        assert!(PhantomPlayer::parse("oracle").is_err());
    }
}
