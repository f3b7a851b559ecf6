//! Training the pattern evaluation from our own games.
//!
//! **Data.** [`training_game`] plays one game: a random opening, then moves drawn
//! from a softmax over shallow-search values (so games differ), until few empties
//! remain; that position is solved exactly and every earlier position is labelled
//! either with the value of its own selective search of `label_depth` plies or, when
//! that is 0, with the result of perfect play from the solved position (the usual
//! "game result" label). From then on, every position is solved exactly and labelled
//! with its own exact score, while the game goes on with the best move or, now and
//! then, a random one.
//!
//! **Fit.** [`fit`] minimises the squared error of the evaluation over the records
//! with Adam on mini-batches, updating only the weights a batch touches. Weights are
//! trained per canonical pattern index, so symmetric positions share them, and
//! expanded to every index on output.
//!
//! **File.** [`encode_weights`] writes the quantised weights with runs of zeros
//! collapsed (unseen patterns keep weight 0).

use std::sync::atomic::AtomicBool;

use bitboards::othello::{Board, squares};
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};

use super::patterns::{
    INSTANCES, OFFSETS, PATTERN_WEIGHTS, PATTERNS, PHASE_WEIGHTS, PHASES, SCALARS, SCALE, canonical_indices,
    feature_indices, phase, scalar_features,
};
use super::solver::{SolveLimits, SolveMode, Solver, ThinkLimits};
pub use super::weights::{decode_weights, encode_weights};

/// One labelled position, seen from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// Final margin for the side to move under the labelling (exact or game result).
    pub score: i8,
    /// True when `score` is this position's exact value.
    pub exact: bool,
}

impl Record {
    /// The empty squares of the position.
    pub fn empties(&self) -> u32 {
        (!(self.player | self.opponent)).count_ones()
    }
}

/// Bytes per record on disk.
pub const RECORD_BYTES: usize = 18;

impl Record {
    /// Appends the record's bytes.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.player.to_le_bytes());
        out.extend_from_slice(&self.opponent.to_le_bytes());
        out.push(self.score as u8);
        out.push(self.exact as u8);
    }

    /// Reads every record of a data file's bytes.
    pub fn read_all(bytes: &[u8]) -> Result<Vec<Record>, String> {
        if !bytes.len().is_multiple_of(RECORD_BYTES) {
            return Err(format!("{} bytes is not a whole number of {RECORD_BYTES}-byte records", bytes.len()));
        }
        bytes
            .chunks_exact(RECORD_BYTES)
            .enumerate()
            .map(|(i, c)| {
                let word = |k: usize| u64::from_le_bytes(c[k..k + 8].try_into().expect("8 bytes"));
                let r = Record { player: word(0), opponent: word(8), score: c[16] as i8, exact: c[17] == 1 };
                if r.player & r.opponent != 0 || r.score.abs() > 64 || c[17] > 1 {
                    Err(format!("record {i} is not a valid position"))
                } else {
                    Ok(r)
                }
            })
            .collect()
    }
}

/// How training games are played.
#[derive(Clone, Copy, Debug)]
pub struct GameSettings {
    /// Solve exactly from this many empties on.
    pub solve_empties: u32,
    /// Random opening moves: at least this many...
    pub random_min: u32,
    /// ...and at most this many.
    pub random_max: u32,
    /// Depth of the searches that choose the middle-game moves.
    pub search_depth: u32,
    /// Softmax temperature over those values, in discs.
    pub temperature: f64,
    /// In the solved part, chance of playing the best move (else a random one).
    pub best_move_rate: f64,
    /// From this many empties down, every move of a solved position is solved too,
    /// and the positions after them are recorded (exact labels for more positions).
    pub children_from: u32,
    /// Stop recording below this many empties.
    pub label_min: u32,
    /// Label the positions before the solved part with a selective search of this
    /// many plies (the player's ProbCut level); 0: with the game's result.
    pub label_depth: u32,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            solve_empties: 20,
            random_min: 6,
            random_max: 20,
            search_depth: 2,
            temperature: 1.5,
            best_move_rate: 0.7,
            children_from: 0,
            label_min: 0,
            label_depth: 0,
        }
    }
}

/// Plays one training game from `seed` and returns its labelled positions.
pub fn training_game(solver: &Solver, seed: u64, settings: &GameSettings) -> Vec<Record> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let stop = AtomicBool::new(false);
    let random_plies =
        settings.random_min + (rng.next_u64() % u64::from(settings.random_max - settings.random_min + 1)) as u32;
    let mut board = Board::start();
    // Positions before the solve point, with the side to move (true = same parity as
    // the start) to orient the final label.
    let mut early: Vec<(Board, bool)> = Vec::new();
    let mut first_player_to_move = true;
    let mut ply = 0;
    while board.empty_count() > settings.solve_empties {
        let legal = board.moves();
        if legal == 0 {
            if board.opponent_moves() == 0 {
                break;
            }
            board = board.pass();
            first_player_to_move = !first_player_to_move;
            continue;
        }
        early.push((board, first_player_to_move));
        let list: Vec<u8> = squares(legal).collect();
        let sq = if ply < random_plies {
            list[(rng.next_u64() % list.len() as u64) as usize]
        } else {
            let values = solver.move_values(board, settings.search_depth, &stop);
            softmax_pick(&values, settings.temperature, &mut rng)
        };
        board = board.play(sq).expect("a generated move is legal");
        first_player_to_move = !first_player_to_move;
        ply += 1;
    }
    let mut records = Vec::new();
    let Some(solution) = solver.solve(board, SolveMode::Exact, &stop, SolveLimits::default()) else {
        return records;
    };
    for (b, side) in early {
        let score = if settings.label_depth > 0 {
            search_label(solver, b, settings.label_depth, &stop)
        } else if side == first_player_to_move {
            solution.score
        } else {
            -solution.score
        };
        records.push(Record {
            player: b.player,
            opponent: b.opponent,
            score: score.clamp(-64, 64) as i8,
            exact: false,
        });
    }
    // The solved part: exact labels down to `label_min` empties. Each position is
    // solved (cheap when its parent's solve left it in the table).
    let mut recorded_as_child = false;
    let mut current = Some(solution);
    while let Some(sol) = current {
        if board.empty_count() < settings.label_min {
            break;
        }
        if !recorded_as_child {
            records.push(Record {
                player: board.player,
                opponent: board.opponent,
                score: sol.score as i8,
                exact: true,
            });
        }
        let legal = board.moves();
        recorded_as_child = false;
        if legal != 0
            && board.empty_count() <= settings.children_from
            && let Some(all) = solver.solve(board, SolveMode::AllMoves, &stop, SolveLimits::default())
        {
            for &(sq, score) in &all.move_scores {
                let child = board.play(sq).expect("a legal move");
                records.push(Record {
                    player: child.player,
                    opponent: child.opponent,
                    score: -score as i8,
                    exact: true,
                });
            }
            recorded_as_child = true;
        }
        if legal == 0 {
            if board.opponent_moves() == 0 {
                break;
            }
            board = board.pass();
            recorded_as_child = false;
        } else {
            let list: Vec<u8> = squares(legal).collect();
            let best = sol.best_move.unwrap_or(list[0]);
            let random = (rng.next_u64() % 1_000_000) as f64 / 1e6 >= settings.best_move_rate;
            let sq = if random { list[(rng.next_u64() % list.len() as u64) as usize] } else { best };
            board = board.play(sq).expect("a legal move");
        }
        if board.empty_count() == 0 {
            if !recorded_as_child {
                records.push(Record {
                    player: board.player,
                    opponent: board.opponent,
                    score: board.final_score() as i8,
                    exact: true,
                });
            }
            break;
        }
        current = solver.solve(board, SolveMode::Exact, &stop, SolveLimits::default());
    }
    records
}

/// The value of `board` for the side to move by a selective search of `depth` plies
/// (as the player searches on a clock). As there, the midgame iterations stop 8
/// plies short of the end: with `depth` at least the empties the search goes on to
/// the selective endgame searches and the exact one, and from `depth` to the empties
/// it is a midgame search of fewer plies (so `gen` labels with `--label-depth` up to
/// `--solve-empties` − 7).
pub fn search_label(solver: &Solver, board: Board, depth: u32, stop: &AtomicBool) -> i32 {
    let limits = ThinkLimits { depth: Some(depth), exact_empties: 0, selective: true, ..ThinkLimits::default() };
    solver.think(board, limits, stop, |_| {}).score
}

/// Draws a move with probability proportional to `exp(value / temperature)`.
pub fn softmax_pick(values: &[(u8, i32)], temperature: f64, rng: &mut Xoshiro256PlusPlus) -> u8 {
    let best = values.iter().map(|&(_, v)| v).max().unwrap_or(0);
    let weights: Vec<f64> = values.iter().map(|&(_, v)| ((v - best) as f64 / temperature.max(1e-3)).exp()).collect();
    let total: f64 = weights.iter().sum();
    let mut x = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return values[i].0;
        }
        x -= w;
    }
    values[values.len() - 1].0
}

/// How [`fit`] trains.
#[derive(Clone, Copy, Debug)]
pub struct FitSettings {
    /// Passes over the data.
    pub epochs: usize,
    /// Adam's step size (discs).
    pub learning_rate: f32,
    /// L2 penalty on the weights.
    pub l2: f32,
    /// Samples per update.
    pub batch: usize,
    /// Share of the records kept aside to measure the error on unseen positions.
    pub validation: f64,
    /// Shuffling seed.
    pub seed: u64,
    /// A record also trains the phases of positions up to this many empties more or
    /// fewer than its own (each phase sees its neighbours' data: fewer unseen
    /// patterns, smoother weights from phase to phase).
    pub phase_spread: u32,
    /// How much a record counts in a neighbouring phase (1 in its own).
    pub neighbour_weight: f32,
    /// Records with fewer empties are left out, and the phases below the one of
    /// this many empties keep their weights (0: every record and phase).
    pub min_empties: u32,
}

impl Default for FitSettings {
    fn default() -> Self {
        FitSettings {
            epochs: 20,
            learning_rate: 0.01,
            l2: 1e-5,
            batch: 256,
            validation: 0.05,
            seed: 1,
            phase_spread: 0,
            neighbour_weight: 0.5,
            min_empties: 0,
        }
    }
}

/// Error measures after an epoch.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// The epoch (1-based).
    pub epoch: usize,
    /// Mean absolute error on the training records, in discs.
    pub train_mae: f64,
    /// Mean absolute error on the validation records, in discs.
    pub validation_mae: f64,
    /// Validation records and their mean absolute error, per phase.
    pub validation_by_phase: Vec<(usize, f64)>,
}

/// A record turned into weight indices.
struct Sample {
    indices: [u32; INSTANCES],
    scalars: [i32; SCALARS],
    scalar_base: u32,
    target: f32,
    weight: f32,
}

/// The samples of `records`: each in its own phase (weight 1) and, with
/// `neighbour_weight`, in the other phases within `spread` empties.
/// With `min_empties`, records with fewer empties and phases below its phase are left out.
fn prepare(
    records: &[Record],
    canon: &[Vec<u32>],
    spread: u32,
    neighbour_weight: f32,
    min_empties: u32,
) -> Vec<Sample> {
    let mut out = Vec::with_capacity(records.len());
    for r in records {
        let empties = r.empties();
        if empties < min_empties {
            continue;
        }
        let local = feature_indices(r.player, r.opponent);
        let scalars = scalar_features(r.player, r.opponent);
        let own = phase(empties);
        let lowest = phase(empties.saturating_sub(spread).max(1)).max(phase(min_empties.max(1)));
        let highest = phase(empties + spread);
        for ph in lowest..=highest {
            let base = (ph * PHASE_WEIGHTS) as u32;
            let mut indices = local;
            let mut k = 0;
            for (i, pattern) in PATTERNS.iter().enumerate() {
                for _ in pattern.transforms {
                    let index = indices[k] as usize - OFFSETS[i];
                    indices[k] = base + (OFFSETS[i] as u32) + canon[i][index];
                    k += 1;
                }
            }
            out.push(Sample {
                indices,
                scalars,
                scalar_base: base + PATTERN_WEIGHTS as u32,
                target: r.score as f32,
                weight: if ph == own { 1.0 } else { neighbour_weight },
            });
        }
    }
    out
}

fn predict(w: &[f32], s: &Sample) -> f32 {
    let mut sum: f32 = s.indices.iter().map(|&i| w[i as usize]).sum();
    for (j, &x) in s.scalars.iter().enumerate() {
        sum += w[s.scalar_base as usize + j] * x as f32;
    }
    sum
}

/// Fits the evaluation to `records`; returns the quantised weights (1/64 disc) for
/// every phase and index, ready for [`super::patterns::PatternEval::from_weights`].
pub fn fit(records: &[Record], settings: &FitSettings, progress: impl FnMut(&EpochReport)) -> Vec<i16> {
    fit_from(records, settings, None, progress)
}

/// [`fit`] starting from `init` (quantised weights of every phase and index, as
/// [`fit`] returns them) instead of zeros: what the records do not touch keeps its
/// weight. `None` starts from zeros.
pub fn fit_from(
    records: &[Record],
    settings: &FitSettings,
    init: Option<&[i16]>,
    mut progress: impl FnMut(&EpochReport),
) -> Vec<i16> {
    let canon: Vec<Vec<u32>> = (0..PATTERNS.len()).map(canonical_indices).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(settings.seed);
    let mut records = records.to_vec();
    shuffle(&mut records, &mut rng);
    let n_valid = ((records.len() as f64) * settings.validation) as usize;
    let valid = prepare(&records[..n_valid], &canon, 0, 0.0, settings.min_empties);
    let mut train =
        prepare(&records[n_valid..], &canon, settings.phase_spread, settings.neighbour_weight, settings.min_empties);
    let size = PHASES * PHASE_WEIGHTS;
    let mut w = match init {
        Some(weights) => canonical_weights(weights, &canon),
        None => vec![0f32; size],
    };
    let mut m = vec![0f32; size];
    let mut v = vec![0f32; size];
    let mut grad = vec![0f32; size];
    let mut touched: Vec<u32> = Vec::new();
    let mut is_touched = vec![false; size];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    for epoch in 1..=settings.epochs {
        shuffle(&mut train, &mut rng);
        let lr = settings.learning_rate * (0.5 + 0.5 * (1.0 - (epoch - 1) as f32 / settings.epochs as f32));
        let mut abs_err = 0f64;
        for batch in train.chunks(settings.batch.max(1)) {
            for s in batch {
                let err = predict(&w, s) - s.target;
                abs_err += (err.abs() * s.weight) as f64;
                let err = err * s.weight;
                for &i in &s.indices {
                    grad[i as usize] += err;
                    if !is_touched[i as usize] {
                        is_touched[i as usize] = true;
                        touched.push(i);
                    }
                }
                for (j, &x) in s.scalars.iter().enumerate() {
                    let i = s.scalar_base as usize + j;
                    grad[i] += err * x as f32;
                    if !is_touched[i] {
                        is_touched[i] = true;
                        touched.push(i as u32);
                    }
                }
            }
            step += 1;
            let c1 = 1.0 - b1.powi(step);
            let c2 = 1.0 - b2.powi(step);
            let scale = 1.0 / batch.len() as f32;
            for &i in &touched {
                let i = i as usize;
                let g = grad[i] * scale + settings.l2 * w[i];
                m[i] = b1 * m[i] + (1.0 - b1) * g;
                v[i] = b2 * v[i] + (1.0 - b2) * g * g;
                w[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
                grad[i] = 0.0;
                is_touched[i] = false;
            }
            touched.clear();
        }
        let validation_by_phase = errors_by_phase(&w, &valid);
        let total: f64 = validation_by_phase.iter().map(|&(n, e)| n as f64 * e).sum();
        let validation_mae = total / valid.len().max(1) as f64;
        progress(&EpochReport {
            epoch,
            train_mae: abs_err / train.iter().map(|s| s.weight as f64).sum::<f64>().max(1.0),
            validation_mae,
            validation_by_phase,
        });
    }
    expand(&w, &canon)
}

/// The mean absolute error, in discs, of the quantised `weights` (as [`fit`] returns
/// them) against the records' labels: (records, error) per phase.
pub fn phase_errors(records: &[Record], weights: &[i16]) -> Vec<(usize, f64)> {
    let canon: Vec<Vec<u32>> = (0..PATTERNS.len()).map(canonical_indices).collect();
    let w = canonical_weights(weights, &canon);
    errors_by_phase(&w, &prepare(records, &canon, 0, 0.0, 0))
}

/// (samples, mean absolute error in discs) of the weights `w` per phase.
fn errors_by_phase(w: &[f32], samples: &[Sample]) -> Vec<(usize, f64)> {
    let mut by_phase = vec![(0usize, 0f64); PHASES];
    for s in samples {
        let slot = &mut by_phase[s.scalar_base as usize / PHASE_WEIGHTS];
        slot.0 += 1;
        slot.1 += (predict(w, s) - s.target).abs() as f64;
    }
    by_phase.into_iter().map(|(n, e)| (n, e / n.max(1) as f64)).collect()
}

/// The canonical weights (in discs) of quantised `weights` of every index: the
/// inverse of [`expand`] (each canonical index takes the weight of an index it
/// stands for: symmetric indices hold the same weight in every file [`fit`] wrote;
/// in a file where they do not, the last of them wins).
fn canonical_weights(weights: &[i16], canon: &[Vec<u32>]) -> Vec<f32> {
    let mut w = vec![0f32; PHASES * PHASE_WEIGHTS];
    for ph in 0..PHASES {
        let base = ph * PHASE_WEIGHTS;
        for (i, table) in canon.iter().enumerate() {
            for (local, &c) in table.iter().enumerate() {
                w[base + OFFSETS[i] + c as usize] = f32::from(weights[base + OFFSETS[i] + local]) / SCALE as f32;
            }
        }
        for j in 0..SCALARS {
            w[base + PATTERN_WEIGHTS + j] = f32::from(weights[base + PATTERN_WEIGHTS + j]) / SCALE as f32;
        }
    }
    w
}

/// Copies each canonical weight to every index it stands for, quantised.
fn expand(w: &[f32], canon: &[Vec<u32>]) -> Vec<i16> {
    let q = |x: f32| (x * SCALE as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
    let mut out = vec![0i16; w.len()];
    for ph in 0..PHASES {
        let base = ph * PHASE_WEIGHTS;
        for (i, table) in canon.iter().enumerate() {
            for (local, &c) in table.iter().enumerate() {
                out[base + OFFSETS[i] + local] = q(w[base + OFFSETS[i] + c as usize]);
            }
        }
        for j in 0..SCALARS {
            out[base + PATTERN_WEIGHTS + j] = q(w[base + PATTERN_WEIGHTS + j]);
        }
    }
    out
}

fn shuffle<T>(items: &mut [T], rng: &mut Xoshiro256PlusPlus) {
    for i in (1..items.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_bad_records_are_refused() {
        let r = Record { player: 0x10, opponent: 0x20, score: -12, exact: true };
        let mut bytes = Vec::new();
        r.write(&mut bytes);
        r.write(&mut bytes);
        assert_eq!(Record::read_all(&bytes).unwrap(), vec![r, r]);
        assert!(Record::read_all(&bytes[..20]).is_err());
        let bad = Record { player: 1, opponent: 1, score: 0, exact: false };
        let mut bytes = Vec::new();
        bad.write(&mut bytes);
        assert!(Record::read_all(&bytes).is_err());
    }

    #[test]
    fn a_training_game_has_consistent_labels() {
        let solver = Solver::new(16, 1);
        let settings = GameSettings { solve_empties: 12, ..GameSettings::default() };
        let records = training_game(&solver, 7, &settings);
        assert!(records.len() > 40, "{} records", records.len());
        // Exact labels agree with an independent solve.
        let stop = AtomicBool::new(false);
        for r in records.iter().filter(|r| r.exact).take(5) {
            let b = Board::new(r.player, r.opponent);
            let s = solver.solve(b, SolveMode::Exact, &stop, SolveLimits::default()).unwrap();
            assert_eq!(s.score, r.score as i32);
        }
    }

    #[test]
    fn children_are_labelled_exactly() {
        let solver = Solver::new(16, 1);
        let settings = GameSettings { solve_empties: 12, children_from: 10, label_min: 6, ..GameSettings::default() };
        // A few games, so that the count does not hang on how one game goes.
        let records: Vec<Record> = (3..6).flat_map(|seed| training_game(&solver, seed, &settings)).collect();
        let exact: Vec<&Record> = records.iter().filter(|r| r.exact).collect();
        assert!(exact.len() > 40, "{} exact records", exact.len());
        assert!(exact.iter().all(|r| r.empties() >= 5));
        let stop = AtomicBool::new(false);
        for r in exact.iter().step_by(3) {
            let s = solver.solve(Board::new(r.player, r.opponent), SolveMode::Exact, &stop, SolveLimits::default());
            assert_eq!(s.unwrap().score, r.score as i32);
        }
        // No position recorded twice in a row.
        assert!(records.windows(2).all(|w| w[0] != w[1]));
    }

    #[test]
    fn early_positions_take_the_search_label() {
        let solver = Solver::new(16, 1);
        let by_result = GameSettings { solve_empties: 14, ..GameSettings::default() };
        let by_search = GameSettings { label_depth: 1, ..by_result };
        let results = training_game(&solver, 11, &by_result);
        solver.clear();
        let searched = training_game(&solver, 11, &by_search);
        // The same game: the same positions, exact labels unchanged.
        assert_eq!(results.len(), searched.len());
        let mut differ = 0;
        for (a, b) in results.iter().zip(&searched) {
            assert_eq!((a.player, a.opponent, a.exact), (b.player, b.opponent, b.exact));
            if a.exact {
                assert_eq!(a.score, b.score);
                continue;
            }
            // A one-ply search: the best child by the static evaluation.
            let board = Board::new(b.player, b.opponent);
            let one_ply = squares(board.moves())
                .map(|sq| {
                    let child = board.play(sq).unwrap();
                    -super::super::eval::eval_discs(child.player, child.opponent)
                })
                .max()
                .unwrap();
            assert_eq!(b.score as i32, one_ply, "{board:?}");
            differ += (a.score != b.score) as usize;
        }
        // Game results and one-ply values are different labels.
        assert!(differ > 10, "{differ} labels differ");
    }

    #[test]
    fn fitting_from_weights_keeps_them_and_their_error_is_the_evaluations() {
        let solver = Solver::new(16, 1);
        let settings = GameSettings { solve_empties: 12, ..GameSettings::default() };
        let records: Vec<Record> = (0..4).flat_map(|seed| training_game(&solver, seed, &settings)).collect();
        let embedded = decode_weights(super::super::eval::embedded_weights()).unwrap();
        let eval = super::super::patterns::PatternEval::from_weights(embedded).unwrap();
        let weights = eval.weights();
        // No epoch: the weights come back as they went in.
        let none = FitSettings { epochs: 0, validation: 0.0, ..FitSettings::default() };
        assert!(fit_from(&records, &none, Some(&weights), |_| {}) == weights);
        // The error per phase is the evaluation's (before its rounding to whole discs).
        let errors = phase_errors(&records, &weights);
        assert_eq!(errors.iter().map(|e| e.0).sum::<usize>(), records.len());
        for (ph, &(n, mae)) in errors.iter().enumerate() {
            let in_phase: Vec<&Record> = records.iter().filter(|r| phase(r.empties()) == ph).collect();
            assert_eq!(n, in_phase.len());
            let slow = in_phase
                .iter()
                .map(|r| {
                    (f64::from(eval.eval_fine(r.player, r.opponent)) / f64::from(SCALE) - f64::from(r.score)).abs()
                })
                .sum::<f64>()
                / n.max(1) as f64;
            assert!((mae - slow).abs() < 1e-3, "phase {ph}: {mae} against {slow}");
        }
        // One epoch from the weights moves them towards these records.
        let one = FitSettings { epochs: 1, validation: 0.0, ..FitSettings::default() };
        let refit = fit_from(&records, &one, Some(&weights), |_| {});
        let total = |e: &[(usize, f64)]| e.iter().map(|&(n, m)| n as f64 * m).sum::<f64>();
        assert!(total(&phase_errors(&records, &refit)) < total(&errors));
        // From 25 empties on: the phases below (up to 24 empties) keep every weight.
        let later = FitSettings { min_empties: 25, ..one };
        let refit = fit_from(&records, &later, Some(&weights), |_| {});
        let kept = phase(25) * PHASE_WEIGHTS;
        assert!(refit[..kept] == weights[..kept]);
        assert!(refit[kept..] != weights[kept..]);
    }

    #[test]
    fn a_record_trains_the_phases_within_the_spread() {
        let canon: Vec<Vec<u32>> = (0..PATTERNS.len()).map(canonical_indices).collect();
        // 20 empties: phase 4 (17–20 empties); 4 empties either side reach phases 3 and 5.
        let player = (1u64 << 22) - 1;
        let opponent = ((1u64 << 44) - 1) ^ player;
        let r = Record { player, opponent, score: 4, exact: true };
        let own = prepare(&[r], &canon, 0, 0.5, 0);
        assert_eq!(own.len(), 1);
        assert_eq!(own[0].scalar_base as usize, 4 * PHASE_WEIGHTS + PATTERN_WEIGHTS);
        let spread = prepare(&[r], &canon, 4, 0.5, 0);
        let phases: Vec<(usize, f32)> =
            spread.iter().map(|s| (s.scalar_base as usize / PHASE_WEIGHTS, s.weight)).collect();
        assert_eq!(phases, vec![(3, 0.5), (4, 1.0), (5, 0.5)]);
        // From 17 empties on: phase 3 (13–16 empties) is left out; from 21, the record.
        let above: Vec<usize> =
            prepare(&[r], &canon, 4, 0.5, 17).iter().map(|s| s.scalar_base as usize / PHASE_WEIGHTS).collect();
        assert_eq!(above, vec![4, 5]);
        assert!(prepare(&[r], &canon, 4, 0.5, 21).is_empty());
        // The same pattern digits, moved to each phase's table.
        for s in &spread {
            let shift = s.scalar_base as i64 - own[0].scalar_base as i64;
            for (a, b) in s.indices.iter().zip(own[0].indices.iter()) {
                assert_eq!(*a as i64 - *b as i64, shift);
            }
        }
    }

    #[test]
    fn fitting_learns_a_simple_rule() {
        // Label = disc difference: the fit must get close on its own data.
        let solver = Solver::new(16, 1);
        let settings = GameSettings { solve_empties: 10, ..GameSettings::default() };
        let mut records = Vec::new();
        for seed in 0..40 {
            for mut r in training_game(&solver, seed, &settings) {
                r.score = (r.player.count_ones() as i32 - r.opponent.count_ones() as i32) as i8;
                records.push(r);
            }
        }
        let fit_settings = FitSettings { epochs: 30, validation: 0.0, ..FitSettings::default() };
        let mut last = f64::MAX;
        let weights = fit(&records, &fit_settings, |r| last = r.train_mae);
        assert!(last < 2.0, "training error {last}");
        let eval = super::super::patterns::PatternEval::from_weights(weights).unwrap();
        let r = records[records.len() / 2];
        let err = eval.eval_discs(r.player, r.opponent) - r.score as i32;
        assert!(err.abs() <= 6, "error {err}");
    }
}
