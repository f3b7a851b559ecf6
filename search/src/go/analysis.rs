//! The analysis of a Go position, as KataGo's `AnalysisData`: what a search found
//! (each root move's visits, win rate, lower bound and principal variation) with
//! what the settling playouts and the priors add to it (score leads, ownership,
//! priors). Every front end that analyses Go only formats it: GTP's `lz-analyze` and
//! `kata-analyze` (engine/src/games/go.rs) and KataGo's JSON analysis engine
//! (`sente analysis`, engine/src/protocols/analysis.rs), so the same position,
//! searched alike, gets the same numbers in both.
//!
//! Every number is for the side to move of the position analysed (a win rate, a score
//! lead, an ownership of +1 for a point it owns); a front end that reports another
//! side's view flips them. The settling playouts run with one fixed seed
//! ([`SETTLING_SEED`]) and the counts of [`super::params`]
//! ([`ANALYSIS_MOVE_PLAYOUTS`], [`ANALYSIS_ROOT_PLAYOUTS`]), so a position's scores
//! and ownership are the same in every front end and every run.

use std::collections::HashMap;

use bitboards::go::{Board, Color, FastBoard, Game, Move};

use super::mcts::{Mcts, MctsResult, ownership};
use super::params::{ANALYSIS_MOVE_PLAYOUTS, ANALYSIS_ROOT_PLAYOUTS};
use super::prior::{Prior, prior};

/// Seed of the settling playouts of an analysis: fixed, so that a position's scores and
/// ownership do not depend on the front end, the search or the run.
pub const SETTLING_SEED: u64 = 1;

/// Moves of a principal variation after its first, unless a client asks for another
/// length (KataGo's `analysisPVLen`, whose default this is).
pub const PV_LENGTH: usize = 15;

/// What settling playouts from one position say about its end.
#[derive(Clone, Debug)]
pub struct Settled {
    /// How often each point ends up black's (1.0 always, 0.0 never; shared points
    /// count half), by point number, as [`ownership`] gives it.
    pub black_share: Vec<f32>,
    /// The mean of black's final area margin, komi included.
    pub black_margin: f64,
    /// The standard deviation of that margin over the playouts.
    pub margin_stdev: f64,
}

impl Settled {
    /// Each point's owner for `color`, from −1 (the other colour's) to 1 (`color`'s),
    /// row by row from the top left of `board`.
    pub fn ownership(&self, board: &Board, color: Color) -> Vec<f64> {
        board.points().map(|p| for_color(color, 2.0 * f64::from(self.black_share[p.0 as usize]) - 1.0)).collect()
    }

    /// The score lead of `color`: the mean margin and its spread.
    pub fn score(&self, color: Color) -> Score {
        Score { lead: for_color(color, self.black_margin), stdev: self.margin_stdev }
    }
}

/// A number counted for black (a margin, an ownership), for `color`.
fn for_color(color: Color, black: f64) -> f64 {
    if color == Color::BLACK { black } else { -black }
}

/// Runs `playouts` settling playouts (the light random playouts of [`ownership`], which
/// do not fill their own areas) from `board` and counts each one's area with `komi`.
pub fn settle_playouts(board: &Board, komi: f64, playouts: usize, seed: u64) -> Settled {
    let playouts = playouts.max(1);
    let mut black_share = vec![0.0f32; 128];
    let (mut sum, mut sum_of_squares) = (0.0, 0.0);
    for i in 0..playouts {
        // One playout a call, so that each playout's own margin is seen.
        let own = ownership(board, 1, seed.wrapping_add(i as u64));
        let margin = board.points().map(|p| 2.0 * f64::from(own[p.0 as usize]) - 1.0).sum::<f64>() - komi;
        sum += margin;
        sum_of_squares += margin * margin;
        for (total, share) in black_share.iter_mut().zip(&own) {
            *total += share / playouts as f32;
        }
    }
    let mean = sum / playouts as f64;
    let variance = (sum_of_squares / playouts as f64 - mean * mean).max(0.0);
    Settled { black_share, black_margin: mean, margin_stdev: variance.sqrt() }
}

/// The settling playouts of an analysed position itself (its score and ownership map),
/// as every analysis runs them: [`ANALYSIS_ROOT_PLAYOUTS`] with [`SETTLING_SEED`].
pub fn settle_position(board: &Board, komi: f64) -> Settled {
    settle_playouts(board, komi, ANALYSIS_ROOT_PLAYOUTS, SETTLING_SEED)
}

/// The 95% lower confidence bound of a win rate `w` measured over `visits` playouts
/// (normal approximation), within 0 and 1.
pub fn win_rate_lcb(w: f64, visits: u32) -> f64 {
    (w - 1.96 * (w * (1.0 - w) / f64::from(visits.max(1))).sqrt()).clamp(0.0, 1.0)
}

/// Each legal move's prior: the virtual win rate the search's tree starts the move with
/// ([`super::prior`]: captures, saving a chain, patterns near the last move, …; a pass
/// has none and counts as even), scaled so that they sum to 1.
pub fn move_priors(game: &Game) -> HashMap<Move, f64> {
    let board = game.board();
    let fast = FastBoard::from_board(board);
    let last = match game.moves().last() {
        Some((_, Move::Play(p))) => FastBoard::cell(*p),
        _ => 0,
    };
    let legal = game.legal_points(board.to_move());
    let mut rates: HashMap<Move, f64> = board
        .points()
        .filter(|p| legal & p.bit() != 0)
        .map(|p| (Move::Play(p), f64::from(prior(&fast, FastBoard::cell(p), last).rate())))
        .collect();
    rates.insert(Move::Pass, f64::from(Prior::default().rate()));
    let total: f64 = rates.values().sum();
    rates.values_mut().for_each(|v| *v /= total);
    rates
}

/// What an analysis computes besides the search's own numbers, and how much of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wanted {
    /// Score leads: each move's (settling playouts after it) and the position's.
    pub scores: bool,
    /// The position's ownership map.
    pub ownership: bool,
    /// Each move's ownership map (from the playouts after it).
    pub moves_ownership: bool,
    /// Moves of each principal variation after its first.
    pub pv_length: usize,
    /// The most root moves reported (the most visited ones).
    pub max_moves: usize,
}

impl Default for Wanted {
    /// Scores, no ownership, [`PV_LENGTH`], every move.
    fn default() -> Self {
        Wanted { scores: true, ownership: false, moves_ownership: false, pv_length: PV_LENGTH, max_moves: usize::MAX }
    }
}

/// A score lead, in points (area, komi included), with the spread of the playouts' margins.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    /// The mean margin of the settling playouts, for the side to move.
    pub lead: f64,
    /// Their standard deviation.
    pub stdev: f64,
}

/// One root move of an analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveInfo {
    /// The move.
    pub mv: Move,
    /// Its visits in the tree.
    pub visits: u32,
    /// Its win rate in the tree.
    pub win_rate: f64,
    /// The 95% lower bound of that win rate ([`win_rate_lcb`]).
    pub lcb: f64,
    /// Its prior ([`move_priors`]).
    pub prior: f64,
    /// Its rank: 0 for the most visited.
    pub order: usize,
    /// The most visited line, the move first.
    pub pv: Vec<Move>,
    /// From [`ANALYSIS_MOVE_PLAYOUTS`] settling playouts after the move, if wanted.
    pub score: Option<Score>,
    /// Row by row from the top left, from the same playouts, if wanted.
    pub ownership: Option<Vec<f64>>,
}

/// An analysis of one position (KataGo's `AnalysisData`): the searched root moves,
/// most visited first, and the position's own numbers. Every number is for the side to
/// move.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisData {
    /// The side to move, whose view every number takes.
    pub to_move: Color,
    /// Every root move with a visit (at most [`Wanted::max_moves`]), most visited first.
    pub moves: Vec<MoveInfo>,
    /// The playouts of the search.
    pub visits: u64,
    /// The root moves' win rates averaged over their visits.
    pub win_rate: f64,
    /// From [`ANALYSIS_ROOT_PLAYOUTS`] settling playouts of the position, if wanted.
    pub score: Option<Score>,
    /// Row by row from the top left, from the same playouts, if wanted.
    pub ownership: Option<Vec<f64>>,
}

/// Makes the [`AnalysisData`] of one position during and after its search: what does
/// not change while the tree grows (the settling playouts of the position and of the
/// position after each root move, the priors) is computed once.
#[derive(Debug)]
pub struct Analyser {
    game: Game,
    wanted: Wanted,
    position: Option<Settled>,
    after: HashMap<Move, Settled>,
    priors: HashMap<Move, f64>,
}

impl Analyser {
    /// The analyser of `game`'s position (its side to move's view).
    pub fn new(game: &Game, wanted: Wanted) -> Analyser {
        Analyser { game: game.clone(), wanted, position: None, after: HashMap::new(), priors: move_priors(game) }
    }

    /// The position analysed.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Each legal move's prior ([`move_priors`]).
    pub fn priors(&self) -> &HashMap<Move, f64> {
        &self.priors
    }

    /// The settling playouts of the position, made once.
    fn position(&mut self) -> &Settled {
        let game = &self.game;
        self.position.get_or_insert_with(|| settle_position(game.board(), game.komi()))
    }

    /// The settling playouts after root move `m`, made once (from the position itself
    /// if `m` is not legal there).
    fn after(&mut self, m: Move) -> &Settled {
        let game = &self.game;
        self.after.entry(m).or_insert_with(|| {
            let color = game.board().to_move();
            let board = match m {
                Move::Pass => Ok(game.board().pass(color)),
                Move::Play(_) => game.check(color, m),
            };
            settle_playouts(&board.unwrap_or(*game.board()), game.komi(), ANALYSIS_MOVE_PLAYOUTS, SETTLING_SEED)
        })
    }

    /// The analysis of the search so far (`tree` and its result `r`); `None` while no
    /// root move has a visit.
    pub fn data(&mut self, tree: &Mcts, r: &MctsResult) -> Option<AnalysisData> {
        let wanted = self.wanted;
        let color = self.game.board().to_move();
        let searched: Vec<(Move, u32, f32)> = r.root_moves.iter().copied().filter(|m| m.1 > 0).collect();
        if searched.is_empty() {
            return None;
        }
        let mut moves = Vec::with_capacity(searched.len().min(wanted.max_moves));
        for (order, &(m, visits, win_rate)) in searched.iter().take(wanted.max_moves).enumerate() {
            let (score, ownership) = if wanted.scores || wanted.moves_ownership {
                let board = *self.game.board();
                let after = self.after(m);
                (
                    wanted.scores.then(|| after.score(color)),
                    wanted.moves_ownership.then(|| after.ownership(&board, color)),
                )
            } else {
                (None, None)
            };
            let w = f64::from(win_rate);
            moves.push(MoveInfo {
                mv: m,
                visits,
                win_rate: w,
                lcb: win_rate_lcb(w, visits),
                prior: self.priors.get(&m).copied().unwrap_or(0.0),
                order,
                pv: tree.line_after(m, wanted.pv_length + 1),
                score,
                ownership,
            });
        }
        let visits: u64 = searched.iter().map(|m| u64::from(m.1)).sum();
        let win_rate = searched.iter().map(|m| f64::from(m.1) * f64::from(m.2)).sum::<f64>() / visits as f64;
        let (score, ownership) = if wanted.scores || wanted.ownership {
            let board = *self.game.board();
            let position = self.position();
            (wanted.scores.then(|| position.score(color)), wanted.ownership.then(|| position.ownership(&board, color)))
        } else {
            (None, None)
        };
        Some(AnalysisData { to_move: color, moves, visits: r.playouts.max(visits), win_rate, score, ownership })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::StopFlag;
    use crate::limits::Limits;
    use bitboards::go::{Point, Superko};

    fn game() -> Game {
        let mut game = Game::new(Board::new(7), 7.0, Superko::Positional);
        game.play(Color::BLACK, Move::Play(Point::new(3, 3))).unwrap();
        game
    }

    #[test]
    fn priors_sum_to_one_over_the_legal_moves() {
        let mut game = Game::new(Board::new(5), 7.5, Superko::Positional);
        game.play(Color::BLACK, Move::Play(Point::new(2, 2))).unwrap();
        let priors = move_priors(&game);
        assert_eq!(priors.len(), 24 + 1);
        assert!((priors.values().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(!priors.contains_key(&Move::Play(Point::new(2, 2))));
    }

    #[test]
    fn an_analysis_is_the_search_with_scores_and_ownership_for_the_side_to_move() {
        let game = game();
        let mut tree = Mcts::new(&game, 1);
        let r = tree.search(&Limits { nodes: Some(200), ..Limits::default() }, &StopFlag::new(), Color::WHITE);
        let wanted = Wanted { ownership: true, moves_ownership: true, pv_length: 3, ..Wanted::default() };
        let data = Analyser::new(&game, wanted).data(&tree, &r).expect("an analysis after 200 playouts");
        assert_eq!(data.to_move, Color::WHITE);
        assert_eq!(data.visits, 200);
        let listed: Vec<(Move, u32)> = data.moves.iter().map(|m| (m.mv, m.visits)).collect();
        let searched: Vec<(Move, u32)> = r.root_moves.iter().filter(|m| m.1 > 0).map(|m| (m.0, m.1)).collect();
        assert_eq!(listed, searched, "the searched moves, most visited first");
        for (order, m) in data.moves.iter().enumerate() {
            assert_eq!(m.order, order);
            assert!(m.lcb <= m.win_rate && m.pv.first() == Some(&m.mv) && m.pv.len() <= 4, "{m:?}");
            assert!(m.score.is_some() && m.ownership.as_ref().is_some_and(|o| o.len() == 49), "{m:?}");
        }
        // White's view, row by row from the top left: the point white owns least is
        // the black stone's in the centre.
        let own = data.ownership.as_ref().expect("the ownership wanted");
        let least = (0..own.len()).min_by(|&a, &b| own[a].total_cmp(&own[b]));
        assert_eq!(least, Some(3 * 7 + 3), "{own:?}");
        // The same position's numbers from the other side: the same playouts, flipped.
        let settled = settle_position(game.board(), game.komi());
        assert_eq!(data.score, Some(settled.score(Color::WHITE)));
        assert_eq!(settled.score(Color::BLACK).lead, -settled.score(Color::WHITE).lead);
        // Nothing but the search when nothing more is wanted.
        let bare = Wanted { scores: false, ..Wanted::default() };
        let data = Analyser::new(&game, bare).data(&tree, &r).unwrap();
        assert!(data.score.is_none() && data.ownership.is_none() && data.moves.iter().all(|m| m.score.is_none()));
    }
}
