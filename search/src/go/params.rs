//! The numeric tunables of the Go search, gathered in one place (as Viridithas gathers
//! its search parameters): the tree search ([`super::mcts`]), the priors of new nodes
//! ([`super::prior`]), the playouts ([`super::playout`]), the player around the
//! search ([`super::player`]), the analysis GUIs read ([`super::analysis`]), the
//! judgement of the end of the game ([`super::endgame`]) and the tactical reading
//! ([`super::tactics`]). Each constant's doc says what it sets and what was
//! measured to choose it; "hand-set, not measured" where nothing was. Board sizes,
//! table layouts and other structural numbers stay beside their code.
//!
//! The measurements are in docs/go.md, docs/arena.md, docs/benchmarks.md and
//! docs/go-move-model.md (9×9, komi 7, on the 2-core AMD EPYC VM unless said).

use std::time::Duration;

// ---------------------------------------------------------------------------------
// The tree search (mcts/).
// ---------------------------------------------------------------------------------

/// A node is expanded once it has been visited this many times. At equal time on the
/// judged benchmark (0.4 s a move, docs/go.md "Expansion at equal time") 1 and 4 both
/// lost 2.57 % and 2.66 % a move against 2.31 % at 2, within or near the noise of one
/// run (the default's own runs with three search seeds lost 2.34, 2.52 and 2.61 %),
/// though 4 makes 24 % more playouts a second; with those three seeds 1 lost 2.48, 2.54
/// and 2.43 %, the same as 2; in self-play at about 39 ms a move (120
/// games each; docs/go-move-model.md) 4 scored 64–51–5 against it (+38 ± 62 Elo) and 8
/// 52–67–1 (−44 ± 63) (Phantom Go's information-set search uses its own, 8).
pub const EXPAND_AFTER: u32 = 2;

/// RAVE equivalence parameter: the number of visits at which the tree's own statistics
/// weigh as much as RAVE's (see [`super::mcts::rave_weight`]); Phantom Go's
/// information-set search uses it too. Hand-set; measured against other values with the
/// move model fitted to Pachi's games, 3 000 playouts a move, 120 games each
/// (docs/go-move-model.md): 3 000 lost 31–88–1 to 800 (with [`EXPLORATION`] 0.25), 300
/// scored 57–60–3 against 800 (with 0.1). At equal time on the judged benchmark (0.4 s
/// a move; docs/go.md "Expansion at equal time") 2,000 and 300 lost 2.68 % and 2.70 % a
/// move against 2.34 % at 800, just past the noise of one run (the default's own runs
/// with three search seeds lost 2.34, 2.52 and 2.61 %).
pub(crate) const RAVE_EQUIVALENCE: f32 = 800.0;

/// UCB exploration constant of this search. 0.1 against the hand-set 0.25, with the
/// move model fitted to Pachi's games, 3 000 playouts a move: 70–47–3 over 120 games
/// (+67 ± 63 Elo); 0.03 against 0.1: 59–58–3 (docs/go-move-model.md). With the model
/// fitted to KataGo's policy, at equal time on the judged benchmark (0.4 s a move;
/// docs/go.md "Expansion at equal time") 0.05 and 0.2 lost 2.74 % and 2.83 % a move
/// against 2.31 % at 0.1, past the noise of one run (the default's own runs with three
/// search seeds lost 2.34, 2.52 and 2.61 %).
pub(crate) const EXPLORATION: f32 = 0.1;

/// Whether searches use the move model unless told otherwise: yes, since against the
/// same engine without it (the first built-in model, fitted to 429 self-play games) it
/// won 11–3 at 3,000 playouts a move and 12–3 at 0.2 s a move (SPRT elo0=0 elo1=100
/// accepted both times by the normal approximation the arena used then; its exact
/// ratio now would have played on), and the model fitted to Pachi's games beat that
/// one 13–5 (docs/go-move-model.md). The judged benchmark agrees: without the model the
/// player loses 4.97 % winrate a move against 3.89 % (docs/go.md).
pub const MOVE_MODEL_BY_DEFAULT: bool = true;

/// Whether heavy playouts answer the last move with the search's last good reply
/// (LGRF-2, [`super::last_good_reply`]) unless a search is told otherwise. Against
/// the engine without it, in self-play: 84–71–5 at 0.3 s a move (two sets of 80, about
/// +28 ± 54 Elo), 58–61–1 at 39 ms; against Pachi 12.90 at about equal time, 26 of 80 (13–27 and 12–26–2) on
/// the openings where the engine without it scored 22.5 (docs/go-move-model.md):
/// no loss measured, a lead where the searches are longer.
pub const LAST_GOOD_REPLY: bool = true;

/// First-play urgency: what a child with neither visits nor prior (in the tree, a
/// pass) scores above its RAVE rate. Hand-set, not measured.
pub(crate) const FIRST_PLAY_URGENCY: f32 = 0.1;

/// How much worse a pass's selection value is made while the board still has moves
/// (passing is a last resort). Hand-set, not measured.
pub(crate) const PASS_PENALTY: f32 = 0.3;

/// On a clock, the fewest own moves the time left is shared over (the search's
/// [`super::mcts::Mcts::budget`]): Pachi's `MIN_MOVES_LEFT`, which on 9×9 is the
/// estimate at every move. It was 40 with a soft limit of 0.6 slices, a sixtieth of
/// the time left a move; the matches that chose the new values are in docs/go.md
/// ("A clock spent as Pachi spends it"). 20, which gives the middle game more of the
/// clock and the end less, scored 33.0 % against Pachi on 25 opening pairs where 30
/// scored 41.0 % (+8.0 ± 8.1 % for 30; the same section): no gain.
pub const CLOCK_MIN_MOVES_LEFT: u32 = 30;

/// The share of the board's points expected still empty when a game ends, taken off
/// the empty points before halving them into own moves left (Pachi's
/// `EXPECTED_FINAL_EMPTY_PERCENT`, 20 %).
pub const CLOCK_FINAL_EMPTY_SHARE: f64 = 0.2;

/// The longest a move on a clock may run, in slices of the time left: a search still
/// unclear at one slice ([`CLOCK_UNCLEAR_RATIO`]) goes on up to this (Pachi's
/// `MAX_SUDDEN_DEATH_RATIO` and `max_maintime_ratio`, 2).
pub const CLOCK_MAX_SLICES: f64 = 2.0;

/// A search on a clock past its slice goes on while the most visited root move has
/// fewer than this many times the second's visits (Pachi's `best2_ratio`, 2.5).
pub const CLOCK_UNCLEAR_RATIO: f64 = 2.5;

/// Playouts of a search given no limit at all (neither playouts, time nor a clock):
/// `go` alone, or `go depth N`, a limit MCTS has no counterpart for. Hand-set, not
/// measured.
pub const DEFAULT_PLAYOUTS: u64 = 10_000;

/// Iterations of a search thread between two looks at whether the best root move can
/// still change (smart pruning on a clock). Hand-set, not measured; the early stop
/// itself made a forced capture at 2 s end in about 0.65 s (commit 7b0f2f9).
pub(crate) const EARLY_STOP_CHECK: u64 = 256;

// ---------------------------------------------------------------------------------
// The priors of new nodes (prior.rs), in virtual visits. Every child starts at EVEN
// visits, half of them won; each rule that fires adds visits that are all won (good)
// or all lost (bad). The amounts are hand-set, none measured alone; what was measured
// is the priors as a whole: the priors with tree reuse beat the build before them
// 34–5–1 at 0.3 s a move and tree reuse alone was worth 27–13 of it (docs/arena.md,
// "Priors and tree reuse"), and the tactical rules (ladder, snapback, dead end, vital
// point, the self-atari exceptions) won 47–31–2 (+70 ± 78 Elo) at 3 000 playouts and
// raised the tactics suite's share from 60 % to 70 % (docs/go.md, "Tactical
// reading").
// ---------------------------------------------------------------------------------

/// Virtual visits every child starts with, half of them won. Hand-set; 20 scored
/// 57–59–4 against it at 3 000 playouts a move (docs/go-move-model.md); at equal time
/// on the judged benchmark (0.4 s a move; docs/go.md "Expansion at equal time") 5 lost
/// 2.48 % a move against 2.34 %, within the noise of one run (the default's own runs
/// with three search seeds lost 2.34, 2.52 and 2.61 %); with those three seeds 5 lost
/// 2.40, 2.65 and 2.67 %.
pub const EVEN: u8 = 10;

/// Won visits for a move that captures a chain. Hand-set, not measured.
pub(crate) const PRIOR_CAPTURE: u8 = 10;

/// Won visits for a capture, more per stone captured (up to [`PRIOR_MAX_STONES`]).
/// Hand-set, not measured.
pub(crate) const PRIOR_CAPTURE_PER_STONE: u8 = 5;

/// The most stones a capture or a save counts for [`PRIOR_CAPTURE_PER_STONE`] and
/// [`PRIOR_SAVE_PER_STONE`]. Hand-set, not measured.
pub(crate) const PRIOR_MAX_STONES: u32 = 4;

/// Won visits more for capturing a chain that the last move played or touches.
/// Hand-set, not measured.
pub(crate) const PRIOR_CAPTURE_LAST: u8 = 10;

/// Won visits for saving an own chain in atari (extending to two liberties or more,
/// or capturing). Hand-set, not measured.
pub(crate) const PRIOR_SAVE: u8 = 15;

/// Won visits for a save, more per stone saved (up to [`PRIOR_MAX_STONES`]).
/// Hand-set, not measured.
pub(crate) const PRIOR_SAVE_PER_STONE: u8 = 5;

/// Lost visits for extending an own chain in atari that a ladder captures anyway
/// (instead of [`PRIOR_SAVE`]). Hand-set, not measured alone (the tactical rules
/// together: the section comment above).
pub(crate) const PRIOR_LADDER_DEAD_END: u8 = 10;

/// Lost visits for a self-atari of two or more stones that captures nothing, unless
/// the reading finds it a nakade or a snapback. Hand-set, not measured.
pub(crate) const PRIOR_BIG_SELF_ATARI: u8 = 30;

/// Won visits for an atari that starts a working ladder. Hand-set, not measured alone
/// (the tactical rules together: the section comment above).
pub(crate) const PRIOR_LADDER_ATARI: u8 = 20;

/// Won visits for a throw-in that sets up a snapback. Hand-set, not measured alone
/// (the tactical rules together: the section comment above).
pub(crate) const PRIOR_SNAPBACK: u8 = 20;

/// Won visits for the vital point of a nakade eye space of either colour. Hand-set,
/// not measured alone (the tactical rules together: the section comment above).
pub(crate) const PRIOR_VITAL_POINT: u8 = 15;

/// Won visits for a point next to the last move (its 8 neighbours). Hand-set; at equal
/// time on the judged benchmark (0.4 s a move; docs/go.md "Expansion at equal time") 0
/// lost 2.58 % a move against 2.34 %, within the noise of one run (the default's own
/// runs with three search seeds lost 2.34, 2.52 and 2.61 %).
pub(crate) const PRIOR_NEAR_LAST: u8 = 4;

/// Won visits more for a point next to the last move that matches a MoGo 3×3
/// pattern. Hand-set, not measured.
pub(crate) const PRIOR_PATTERN: u8 = 10;

/// Lost visits for a first-line move while more than half the board is empty (unless
/// it captures or saves: without that exception `kgs-genmove_cleanup` left a dead
/// stone whose last liberty was on the edge, commit 8b5461a). Hand-set, not measured.
pub(crate) const PRIOR_FIRST_LINE: u8 = 10;

/// Virtual visits a move gets per unit of the natural log of its move-model strength
/// relative to the mean of the candidates (a move 10 times the mean strength gets about
/// 28 won visits, one a tenth of it about 28 lost). With the model fitted to Pachi's
/// games, 12 (and [`MODEL_MAX_VISITS`] 50) against the 6 and 30 set for the self-play
/// model: 77–39–4 over 120 games at 3 000 playouts a move (+114 ± 65 Elo;
/// docs/go-move-model.md). The model term as a whole first won 11–3 and 12–3 against
/// the engine without it. With the model fitted to KataGo's policy, 18 (and 75) lost
/// 4.09 % winrate a move on the judged benchmark against 4.01 % at 12 and 50 (4 seeds,
/// 1,000 playouts): kept at 12. At equal time on it (0.4 s a move) 16 lost 2.46 %
/// (within the noise of one run: the default's own runs with three search seeds lost
/// 2.34, 2.52 and 2.61 %) and 8 2.85 % against 2.34 % at 12.
pub(crate) const MODEL_VISITS_PER_NAT: f32 = 12.0;

/// The most virtual visits the move model adds to a move, won or lost: 50, measured
/// with [`MODEL_VISITS_PER_NAT`] (30 before). 20 a nat and at most 80 scored 54–62–4
/// against 12 and 50 (3 000 playouts a move, 120 games). On the judged benchmark 80
/// played the very moves of 50 (618 positions, 4 seeds, 1,000 playouts): at 12 a nat
/// the cap did not bind there.
pub(crate) const MODEL_MAX_VISITS: f32 = 50.0;

// ---------------------------------------------------------------------------------
// The move model (move_model.rs).
// ---------------------------------------------------------------------------------

/// Heavy playouts that measure a position's ownership for the move model's ownership
/// feature, in training and at a search's root (Coulom used 63). Not the ownership
/// analyses report ([`ANALYSIS_ROOT_PLAYOUTS`]). Measured on 548 of Pachi's games: the
/// feature raised the held-out mean log-probability from −2.183 to −2.129
/// (docs/go-move-model.md).
pub const MODEL_OWNERSHIP_PLAYOUTS: usize = 64;

/// Virtual wins each feature starts with in training (its one won virtual game of
/// [`PRIOR_GAMES`]): Coulom's prior, so an unseen feature stays at strength 1 and a
/// rare one is pulled towards it (docs/go-move-model.md). Taken from Coulom, not
/// measured.
pub(crate) const PRIOR_WINS: f64 = 1.0;

/// Virtual games each feature plays in training against a team of strength 1 (see
/// [`PRIOR_WINS`]). Taken from Coulom, not measured.
pub(crate) const PRIOR_GAMES: f64 = 2.0;

// ---------------------------------------------------------------------------------
// The playouts (playout.rs).
// ---------------------------------------------------------------------------------

/// The playout length cap, in moves per point of the board: random play with simple
/// ko can cycle forever (triple ko); a playout this long is scored as it stands.
/// Hand-set, not measured.
pub const PLAYOUT_MOVES_PER_POINT: usize = 3;

/// How many uniform draws a heavy playout's random move makes before it scans for a
/// move that is no big self-atari. Hand-set, not measured.
pub(crate) const RANDOM_DRAWS: usize = 4;

// ---------------------------------------------------------------------------------
// The analysis GUIs read (analysis.rs): GTP's `kata-analyze` and `sente analysis`
// (KataGo's JSON protocol) both report these counts. Their settling playouts are the
// light random ones of [`super::mcts::ownership`], run once per position and root
// move (they do not change as the tree grows).
// ---------------------------------------------------------------------------------

/// Settling playouts from the position after each root move, for its score lead, the
/// lead's spread and the move's ownership map. The margins of these random playouts
/// spread by about 40 points in a 9×9 opening (`scoreStdev` 38–45 for the root moves of
/// the position of the front ends' agreement test in engine/src/protocols/analysis.rs,
/// E5 C5 D3 F4 G6, komi 7), so a lead's standard error is about 40/√128 ≈ 3.5 points;
/// at the 32 `kata-analyze` once ran it was about 7, and there its leads differed from
/// `sente analysis`'s by up to 10 points (5.8 on average). The count itself is hand-set
/// (it costs 128 playouts once per root move searched).
pub const ANALYSIS_MOVE_PLAYOUTS: usize = 128;

/// Settling playouts from the analysed position itself, for its score lead and its
/// ownership map (computed once per analysis): a standard error of about 40/√200 ≈ 2.8
/// points on the lead. Hand-set.
pub const ANALYSIS_ROOT_PLAYOUTS: usize = 200;

// ---------------------------------------------------------------------------------
// The player around the search (player.rs).
// ---------------------------------------------------------------------------------

/// Whether the player plays the opening book's move where it has one
/// ([`super::book`]). Off: against Pachi at equal time (docs/go.md, "An opening book
/// from KataGo") the build with it on scored 17.5 of 76 (23 %), against 19 of 54 (35 %)
/// for the same engine without it, and 9.5 of the 49 games where it played a book move:
/// it did not pay.
pub const BOOK_BY_DEFAULT: bool = false;

/// Below this win rate (after [`RESIGN_MIN_PLAYOUTS`] playouts) the player resigns
/// (GTP). Hand-set, not measured.
pub const RESIGN_WIN_RATE: f32 = 0.02;

/// Playouts a search must have run before the player may resign. Hand-set, not
/// measured.
pub const RESIGN_MIN_PLAYOUTS: u64 = 5_000;

/// The shortest step of a search run in steps with progress reports: with less time
/// left the search ends. Hand-set, not measured.
pub(crate) const MIN_STEP: Duration = Duration::from_millis(30);

// ---------------------------------------------------------------------------------
// The end of the game (endgame.rs): dead stones, seki and settled territory from the
// settling playouts. The thresholds are hand-set, none measured alone; what was
// checked is the judgement as a whole: on the positions of tests/go_endings.rs (walls
// with dead invaders, a two-liberty seki) its dead, alive and seki lists equal GNU Go
// 3.8's (docs/go.md, "Dead stones", "Settled territory").
// ---------------------------------------------------------------------------------

/// Least share of settling playouts in which the stones of a group bordering a
/// territory must survive for the territory to count as settled (and in which the
/// stones shutting an enclosure in must survive for it to be dead). Light random
/// playouts let invaders live far more often than real play does (about half the time
/// in a big territory: docs/go.md), so this is well below 1. Hand-set, not measured.
pub const SAFE_GROUP_SHARE: f32 = 0.7;

/// Least share of settling playouts in which a point of a settled territory must end
/// as its owner's. Hand-set, not measured.
pub const SETTLED_POINT_SHARE: f32 = 0.6;

/// Largest settled territory (and largest enclosure whose stones can be dead for want
/// of eyes), as a share of the board's points: a bigger empty region (the open board
/// of the opening, a moyo) is still to be fought over. Hand-set, not measured.
pub const MAX_TERRITORY_SHARE: f32 = 0.5;

/// Settling playouts the end of a game is judged with ([`super::endgame::judge`]).
/// Hand-set, not measured.
pub const JUDGE_PLAYOUTS: usize = 600;

/// A stone is dead when the other colour owns its point in more than this share of
/// the judging playouts (and it is not in seki). Hand-set, not measured.
pub const JUDGE_DEAD_SHARE: f32 = 0.8;

/// An eye space of this many points or more counts as two eyes (the biggest shapes
/// that a single move inside kills have six points). Set from the shapes, not
/// measured.
pub const TWO_EYE_SPACE: u32 = 7;

// ---------------------------------------------------------------------------------
// The tactical reading (tactics.rs). Hand-set, none measured alone; what was measured
// is the reading as a whole, in the priors (commit 2fbb691, docs/go.md "Tactical
// reading"): the player's share of the tactics suite at 3 000 playouts rose from 102
// to 120 of 171 searches, and self-play at 3 000 playouts accepted it by SPRT (11–5).
// ---------------------------------------------------------------------------------

/// Liberties at which [`super::tactics::attack`] and [`super::tactics::defend`] count
/// a chain as safe. Hand-set, not measured.
pub const SAFE_LIBERTIES: u32 = 4;

/// Node budget of one ladder read. Hand-set, not measured.
pub const LADDER_NODES: u32 = 2_000;

/// Node budget of the ladder read that an attack on a chain of two liberties tries
/// first: a quarter of [`LADDER_NODES`]. Hand-set, not measured.
pub(crate) const ATTACK_LADDER_NODES: u32 = LADDER_NODES / 4;

/// Node budget of one [`super::tactics::attack`] or [`super::tactics::defend`] read.
/// Hand-set, not measured.
pub const READING_NODES: u32 = 20_000;

/// Deepest attack/defence read, in plies. Hand-set, not measured.
pub const READING_DEPTH: u32 = 16;

/// Below this many plies left, a chain with three liberties counts as safe (as GNU Go's
/// depth thresholds do), so deep reading only follows the sharp lines. Hand-set, not
/// measured.
pub(crate) const THREE_LIBERTY_DEPTH: u32 = 8;
