//! The Go player: chooses a move in a game position with the MCTS of [`super::mcts`]
//! and decides the end of the game around it (pass when the opponent passed and
//! passing wins, resign when the game is lost, capture dead stones in a cleanup).
//! Every front end (GTP, UGI+) plays through one [`GoPlayer`], which is Go's
//! [`crate::player::Player`].

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bitboards::go::{Color, Game, Move};

use super::book::{BookMove, built_in_book};
use super::endgame::{Settlement, judge, may_have_settled_territory};
use super::mcts::{Mcts, MctsResult, MctsSettings};
use super::params::{BOOK_BY_DEFAULT, DEFAULT_PLAYOUTS, MIN_STEP, RESIGN_MIN_PLAYOUTS, RESIGN_WIN_RATE};
use super::playout::Policy;
use crate::alphabeta::SearchResult;
use crate::player::Resources;
use crate::tt::AllocError;
use crate::{Limits, Score, StopFlag};

/// How a move search treats the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `genmove` and UGI+ `go`: pass when the opponent passed and passing wins.
    Normal,
    /// `kgs-genmove_cleanup`: capture the opponent's dead stones before passing.
    Cleanup,
}

/// What the player chose, and the search behind it.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The move to play; `None` means resign.
    pub play: Option<Move>,
    /// The search's result (for a pass that ends a won game, no search ran: a pass
    /// with win rate 1 and no playouts).
    pub result: MctsResult,
    /// The memory the search tree was refused (it searched a smaller tree), if any.
    pub refused_memory: Option<AllocError>,
}

impl Choice {
    /// The move for a front end that has no resignation (UGI+): where the player would
    /// resign, a pass if the last move was a pass (that ends the game at its true
    /// count; playing on would only fill its own area), otherwise the search's best move
    /// (never one inside settled own territory or an own eye).
    pub fn move_without_resigning(&self, game: &Game) -> Move {
        match self.play {
            Some(m) => m,
            None if matches!(game.moves().last(), Some((_, Move::Pass))) => Move::Pass,
            None => self.result.best,
        }
    }
}

/// Progress reports during a search: `report` is called about every `interval` with
/// the tree, its result so far (playouts and time counted from the start) and whether
/// the search has finished (the last report).
pub struct Progress<'a> {
    /// Time between reports.
    pub interval: Duration,
    /// Called with the tree, the result so far and whether it is the last report.
    pub report: &'a mut dyn FnMut(&Mcts, &MctsResult, bool),
}

/// The Go player: its seed, the settings of its searches and the tree kept between
/// moves. A clone shares the kept tree (a UGI+ search job searches on a clone).
#[derive(Clone, Debug)]
pub struct GoPlayer {
    seed: u64,
    /// Threads, tree size and playout policy of the searches.
    settings: MctsSettings,
    /// The tree of the last search, kept for the next one.
    kept: KeptTree,
    /// Whether the opening book's move is played where it has one.
    book: bool,
    /// The memory a search through [`crate::player::Player`] was refused (it searched
    /// a smaller tree), for the front end to say.
    refused_memory: Option<AllocError>,
}

/// The search tree kept between moves: the next search starts from the subtree of
/// the moves played since ([`Mcts::reuse`]), in the same arena.
#[derive(Clone, Default)]
struct KeptTree(Arc<Mutex<Option<Mcts>>>);

impl KeptTree {
    /// The kept tree, taken out (none if another search holds it).
    fn take(&self) -> Option<Mcts> {
        self.0.lock().ok().and_then(|mut kept| kept.take())
    }

    /// Keeps `tree` for the next search.
    fn keep(&self, tree: Mcts) {
        if let Ok(mut kept) = self.0.lock() {
            *kept = Some(tree);
        }
    }
}

impl std::fmt::Debug for KeptTree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeptTree")
    }
}

impl Default for GoPlayer {
    fn default() -> Self {
        Self::new()
    }
}

impl GoPlayer {
    /// A player with seed 1, default settings and no kept tree.
    pub fn new() -> GoPlayer {
        GoPlayer {
            seed: 1,
            settings: MctsSettings::default(),
            kept: KeptTree::default(),
            book: BOOK_BY_DEFAULT,
            refused_memory: None,
        }
    }

    /// Whether the opening book's move is played where it has one.
    pub fn uses_book(&self) -> bool {
        self.book
    }

    /// Plays the opening book's move where it has one (`on`), or always searches.
    pub fn set_book(&mut self, on: bool) {
        self.book = on;
    }

    /// The settings of the searches.
    pub fn settings(&self) -> MctsSettings {
        self.settings
    }

    /// Plays out with `policy`.
    pub fn set_policy(&mut self, policy: Policy) {
        self.settings.policy = policy;
    }

    /// Whether the tree's priors use the move model.
    pub fn set_move_model(&mut self, on: bool) {
        self.settings.move_model = on;
    }

    /// Whether heavy playouts play the search's last good replies.
    pub fn set_last_good_reply(&mut self, on: bool) {
        self.settings.last_good_reply = on;
    }

    /// Searches with `threads` threads and a tree of at most `hash_mb` MiB (the
    /// playout policy, the move model's use and the last good replies' stay).
    pub fn set_resources(&mut self, threads: usize, hash_mb: usize) {
        let MctsSettings { policy, move_model, last_good_reply, .. } = self.settings;
        self.settings = MctsSettings { policy, move_model, last_good_reply, ..MctsSettings::new(threads, hash_mb) };
    }

    /// The seed of the next search (UGI+ `SearchSeed`): each search on this player
    /// takes the one after the last; a search on a copy of it (a UGI+ search job)
    /// takes the same one again.
    pub fn search_seed(&self) -> u64 {
        self.seed.wrapping_add(1)
    }

    /// Makes `seed` the seed of the next search ([`GoPlayer::search_seed`]).
    pub fn set_search_seed(&mut self, seed: u64) {
        self.seed = seed.wrapping_sub(1);
    }

    /// The next seed (each search gets its own).
    pub fn next_seed(&mut self) -> u64 {
        self.seed = self.seed.wrapping_add(1);
        self.seed
    }

    /// Makes now the tree the next search would allocate ([`Mcts::prepare`]: the arena
    /// with its table written once) and keeps it for that search, which takes it over
    /// as it takes over the tree of a previous move. A kept tree made with the same
    /// settings stays as it is.
    pub fn prepare(&mut self, game: &Game) {
        if self.book {
            // The book is read once, here rather than in the first move's time.
            built_in_book();
        }
        let mut tree = match self.kept.take() {
            Some(kept) if kept.settings() == self.settings => kept,
            // Another size or other threads: the old arena goes before the new one is made.
            _ => Mcts::new(game, self.seed).with_settings(self.settings),
        };
        tree.prepare();
        self.kept.keep(tree);
    }

    /// The memory the last search through [`crate::player::Player`] was refused, if
    /// any (taken: asked once).
    pub fn take_refused_memory(&mut self) -> Option<AllocError> {
        self.refused_memory.take()
    }

    /// The kept tree's arena (size in nodes, address), to check which memory the next
    /// search takes over.
    pub fn kept_arena(&self) -> Option<(usize, usize)> {
        self.kept.0.lock().ok().and_then(|kept| kept.as_ref().and_then(Mcts::arena))
    }

    /// Chooses a move for `color` in `game` with MCTS within `limits`.
    ///
    /// The game's end is handled before and around the search: when the opponent
    /// has just passed and passing too wins by the final count (area, dead stones
    /// removed by [`judge`]), the answer is a pass without a search; the root never
    /// tries points of `color`'s settled territory ([`Settlement::settled_territory`]),
    /// and passes when nothing else is left. With `ending` [`Ending::Cleanup`]
    /// (`kgs-genmove_cleanup`) it never passes while the opponent still has dead stones
    /// on the board, and plays on their liberties while one is legal. It resigns below
    /// [`RESIGN_WIN_RATE`] after [`RESIGN_MIN_PLAYOUTS`] playouts. With `progress` the
    /// search runs in steps with a report after each ([`search_in_steps`]).
    ///
    /// Before all this, where the opening book has the position ([`GoPlayer::set_book`],
    /// [`super::book::Book::lookup`]) its move is played at once: for a normal move of
    /// the side to move after anything but a pass, not for an infinite search, a depth
    /// (Go's search has none) or a search with progress to report (a GUI asking for
    /// analysis wants one).
    pub fn think(
        &mut self,
        game: &Game,
        color: Color,
        limits: &Limits,
        stop: &StopFlag,
        ending: Ending,
        progress: Option<&mut Progress>,
    ) -> Choice {
        let opponent_passed = game.moves().last() == Some(&(color.other(), Move::Pass));
        let book_applies = self.book
            && ending == Ending::Normal
            && progress.is_none()
            && limits.depth.is_none()
            && !limits.infinite
            && !opponent_passed
            && game.board().to_move() == color;
        if book_applies && let Some(found) = built_in_book().lookup(game) {
            return Choice { play: Some(found.mv), result: book_result(found), refused_memory: None };
        }
        let played = game;
        let mut game = played.clone();
        if game.board().to_move() != color {
            // GTP may ask either colour: search as if it were that colour's turn.
            game.play(color.other(), Move::Pass).ok();
        }
        let started = Instant::now();
        // The settling playouts judge the end of the game: whether passing wins after
        // the opponent's pass, the opponent's dead stones for a cleanup, and the own
        // settled territory the root leaves out. Without a pass to answer or a cleanup,
        // and with no territory possible (the open board of the opening, most of the
        // middle game), they would change nothing and are not run.
        let judged = ending == Ending::Cleanup || opponent_passed || may_have_settled_territory(game.board(), color);
        let settlement = judged.then(|| judge(game.board()));
        let settlement = settlement.as_ref();
        // Only a pass the opponent really made counts (not the one assumed above).
        if ending == Ending::Normal && settlement.is_some_and(|s| passing_wins(played, s, color)) {
            return Choice { play: Some(Move::Pass), result: passing_result(), refused_memory: None };
        }
        let opponent_dead = settlement.map_or(0, |s| s.dead) & game.board().stones(color.other());
        let allow_pass = ending == Ending::Normal || opponent_dead == 0;
        let mut excluded = settlement.map_or(0, |s| s.settled_territory(game.board(), color));
        if ending == Ending::Cleanup && opponent_dead != 0 {
            // Cleaning up wins nothing in the playouts (the dead stones count as captured
            // either way), so the search would wander: it plays only on the dead stones'
            // liberties while one of them is legal, and chooses among those.
            let board = game.board();
            let targets = board.liberties(opponent_dead) & board.legal_points(color) & !excluded;
            if targets != 0 {
                excluded |= board.mask() & !targets;
            }
        }
        let seed = self.next_seed();
        // Cleanup searches start afresh: the kept statistics were gathered for normal
        // play, where capturing dead stones does not change the result.
        let mut tree = match self.kept.take().filter(|_| ending == Ending::Normal) {
            Some(old) => old.reuse(&game, seed, allow_pass, excluded, self.settings),
            None => Mcts::with_excluded(&game, seed, allow_pass, excluded).with_settings(self.settings),
        };
        // The time judging the position took comes off this move's time.
        let limits = &time_left_after(limits, color, started.elapsed());
        let result = match progress {
            None => tree.search(limits, stop, color),
            Some(progress) => search_in_steps(&mut tree, color, limits, stop, progress),
        };
        let refused_memory = tree.refused_memory();
        self.kept.keep(tree);
        let resign = result.win_rate < RESIGN_WIN_RATE && result.playouts >= RESIGN_MIN_PLAYOUTS;
        Choice { play: if resign { None } else { Some(result.best) }, result, refused_memory }
    }
}

/// The result of playing a book move: the judge's winrate, no playouts.
fn book_result(found: BookMove) -> MctsResult {
    MctsResult {
        best: found.mv,
        win_rate: found.win_rate,
        playouts: 0,
        elapsed: Duration::ZERO,
        pv: vec![found.mv],
        root_moves: vec![(found.mv, 0, found.win_rate)],
        nodes: 0,
    }
}

/// Go's player as the front ends see every game's: the move of the side to move
/// ([`GoPlayer::think`], [`Ending::Normal`]) on `resources`' threads and tree size,
/// never a resignation ([`Choice::move_without_resigning`]: UGI+ has none; GTP's
/// `genmove` asks [`GoPlayer::think`] itself), and none once the game is over. A tree
/// the system refused memory for is kept to say ([`GoPlayer::take_refused_memory`]). The score is the win rate in centi-units
/// ([`win_rate_cp`]), the depth the principal variation's length, the nodes the
/// playouts, the time the whole move's (judging the position and reusing the tree
/// included); one report, at the end.
impl crate::player::Player<Game> for GoPlayer {
    fn uses_threads(&self) -> bool {
        true
    }

    /// The tree of `resources` ([`GoPlayer::prepare`]).
    fn prepare(&mut self, game: &Game, resources: &Resources) {
        self.set_resources(resources.threads, resources.hash_mb);
        GoPlayer::prepare(self, game);
    }

    fn choose(
        &mut self,
        game: &Game,
        limits: &Limits,
        resources: &Resources,
        stop: &StopFlag,
        report: &mut (dyn FnMut(&SearchResult<Move>) + Send),
    ) -> SearchResult<Move> {
        let started = Instant::now();
        self.set_resources(resources.threads, resources.hash_mb);
        let choice = self.think(game, game.board().to_move(), limits, stop, Ending::Normal, None);
        self.refused_memory = choice.refused_memory;
        let r = &choice.result;
        let result = SearchResult {
            best_move: (!game.is_over()).then(|| choice.move_without_resigning(game)),
            score: Score::Centi(win_rate_cp(r.win_rate)),
            depth: r.pv.len() as u32,
            nodes: r.playouts,
            elapsed: started.elapsed(),
            pv: r.pv.clone(),
        };
        report(&result);
        result
    }
}

/// Win rate → centi-units for `score cp` (a logistic scale: 60% ≈ +70, 90% ≈ +380).
pub fn win_rate_cp(w: f32) -> i32 {
    let w = w.clamp(0.001, 0.999) as f64;
    (400.0 * (w / (1.0 - w)).log10()).round() as i32
}

/// `limits` with `spent` taken off the move time and off `color`'s clock.
fn time_left_after(limits: &Limits, color: Color, spent: Duration) -> Limits {
    let mut left = *limits;
    let at_least = Duration::from_millis(1);
    left.movetime = limits.movetime.map(|t| t.saturating_sub(spent).max(at_least));
    let me = if color == Color::BLACK { 0 } else { 1 };
    left.clock.time[me] = limits.clock.time[me].map(|t| t.saturating_sub(spent).max(at_least));
    left
}

/// True if the opponent's last move was a pass and `color` wins by passing too: by
/// the final count (area, dead stones removed) and also by the plain area count with
/// every stone alive (Tromp-Taylor, as some GUIs and servers count), so that a wrong
/// guess about dead stones in an unsettled position cannot throw the game away.
fn passing_wins(game: &Game, settlement: &Settlement, color: Color) -> bool {
    if game.moves().last() != Some(&(color.other(), Move::Pass)) {
        return false;
    }
    let wins = |margin: f64| if color == Color::BLACK { margin > 0.0 } else { margin < 0.0 };
    wins(game.score(settlement.dead).margin()) && wins(game.score(0).margin())
}

/// The search result reported for a pass that ends a won game: no search ran.
fn passing_result() -> MctsResult {
    MctsResult {
        best: Move::Pass,
        win_rate: 1.0,
        playouts: 0,
        elapsed: Duration::ZERO,
        pv: vec![Move::Pass],
        root_moves: vec![(Move::Pass, 0, 1.0)],
        nodes: 0,
    }
}

/// Runs the search in steps of `progress.interval`, reporting after each, until the
/// limits (time or playouts) are reached or `stop` is set. On a clock it ends at its
/// slice ([`Mcts::budget`]'s soft limit): the steps are move-time searches, so an
/// unclear root does not take it on to the hard limit, nor does a settled one end it
/// early.
pub fn search_in_steps(
    tree: &mut Mcts,
    color: Color,
    limits: &Limits,
    stop: &StopFlag,
    progress: &mut Progress,
) -> MctsResult {
    let budget = tree.budget(limits, color);
    let start = Instant::now();
    let mut playouts = 0u64;
    loop {
        let left = budget.hard_limit().map(|h| h.saturating_sub(budget.elapsed()));
        let step = left.map_or(progress.interval, |l| l.min(progress.interval)).max(Duration::from_millis(1));
        let nodes = limits.nodes.map(|n| n.saturating_sub(playouts).max(1));
        let mut r = tree.search(&Limits { nodes, movetime: Some(step), ..Limits::default() }, stop, color);
        playouts += r.playouts;
        r.playouts = playouts;
        r.elapsed = start.elapsed();
        let nodes_done = limits.nodes.is_some_and(|n| playouts >= n);
        // A step shorter than this is not worth a report of its own.
        let time_done = budget.hard_limit().is_some_and(|h| h.saturating_sub(budget.elapsed()) < MIN_STEP);
        let no_limit = !limits.infinite
            && limits.nodes.is_none()
            && limits.movetime.is_none()
            && limits.clock.time.iter().all(Option::is_none);
        let finished = stop.is_stopped()
            || nodes_done
            || time_done
            || budget.hard_expired()
            || (budget.soft_expired() && !limits.infinite)
            || (no_limit && playouts >= DEFAULT_PLAYOUTS);
        (progress.report)(tree, &r, finished);
        if finished {
            return r;
        }
    }
}

#[cfg(test)]
mod tests {
    use bitboards::go::{Board, Superko, parse_board_text};

    use super::*;

    /// White wall on column E, black wall on column G: white owns A–E, black G–J;
    /// white wins by 18 + 7.5. White to move.
    const WALLS: &str = "....O.X../....O.X../....O.X../....O.X../....O.X../....O.X../....O.X../....O.X../....O.X.. w";

    fn game(text: &str, moves: &[(Color, Move)]) -> Game {
        let board = parse_board_text(text).expect("a board");
        let mut game = Game::new(board, 7.5, Superko::Positional);
        for &(c, m) in moves {
            game.play(c, m).expect("a legal move");
        }
        game
    }

    fn nodes(n: u64) -> Limits {
        Limits { nodes: Some(n), ..Limits::default() }
    }

    #[test]
    fn passes_without_a_search_when_passing_wins() {
        let game = game(WALLS, &[(Color::WHITE, Move::Pass)]);
        let mut player = GoPlayer::new();
        // Black is behind: it plays on.
        let choice = player.think(&game, Color::BLACK, &nodes(500), &StopFlag::new(), Ending::Normal, None);
        assert_ne!(choice.play, Some(Move::Pass));
        assert_eq!(choice.result.playouts, 500);
        // White, after black's pass, wins by passing too.
        let game = self::game(WALLS, &[(Color::WHITE, Move::Pass), (Color::BLACK, Move::Pass)]);
        let choice = player.think(&game, Color::WHITE, &nodes(500), &StopFlag::new(), Ending::Normal, None);
        assert_eq!(choice.play, Some(Move::Pass));
        assert_eq!(choice.result.playouts, 0, "no search ran");
    }

    #[test]
    fn the_same_seed_and_playouts_give_the_same_moves() {
        let mut a = GoPlayer::new();
        let mut b = GoPlayer::new();
        // Searches, not the opening book's moves.
        a.set_book(false);
        b.set_book(false);
        let mut game = Game::new(Board::new(9), 7.5, Superko::Positional);
        for _ in 0..3 {
            let color = game.board().to_move();
            let x = a.think(&game, color, &nodes(400), &StopFlag::new(), Ending::Normal, None);
            let y = b.think(&game, color, &nodes(400), &StopFlag::new(), Ending::Normal, None);
            assert_eq!((x.play, x.result.pv), (y.play, y.result.pv));
            game.play(color, x.play.expect("no resignation in the opening")).expect("a legal move");
        }
    }

    #[test]
    fn prepare_makes_the_tree_the_searches_then_keep() {
        let mut player = GoPlayer::new();
        player.set_resources(1, 16);
        player.set_book(false);
        let game = Game::new(Board::new(9), 7.5, Superko::Positional);
        assert_eq!(player.kept_arena(), None);
        player.prepare(&game);
        let arena = player.kept_arena().expect("a tree after prepare");
        assert_eq!(arena.0, MctsSettings::new(1, 16).max_nodes);
        player.think(&game, Color::BLACK, &nodes(300), &StopFlag::new(), Ending::Normal, None);
        assert_eq!(player.kept_arena(), Some(arena), "the search used the prepared arena");
    }

    #[test]
    fn the_book_answers_a_normal_move_of_the_side_to_move_only() {
        let empty = Game::new(Board::new(9), 7.0, Superko::Positional);
        let book_move = built_in_book().lookup(&empty).expect("the empty board is in the book").mv;
        let mut player = GoPlayer::new();
        assert_eq!(player.uses_book(), BOOK_BY_DEFAULT);
        player.set_book(true);
        let stop = StopFlag::new();
        let choice = player.think(&empty, Color::BLACK, &nodes(300), &stop, Ending::Normal, None);
        assert_eq!((choice.play, choice.result.playouts), (Some(book_move), 0));
        // A depth, the colour not to move, a cleanup: searches.
        let depth = Limits { depth: Some(3), ..nodes(300) };
        assert_eq!(player.think(&empty, Color::BLACK, &depth, &stop, Ending::Normal, None).result.playouts, 300);
        assert_eq!(player.think(&empty, Color::WHITE, &nodes(300), &stop, Ending::Normal, None).result.playouts, 300);
        assert_eq!(player.think(&empty, Color::BLACK, &nodes(300), &stop, Ending::Cleanup, None).result.playouts, 300);
        // With the book off the engine searches.
        player.set_book(false);
        assert_eq!(player.think(&empty, Color::BLACK, &nodes(300), &stop, Ending::Normal, None).result.playouts, 300);
    }

    #[test]
    fn without_resigning_a_lost_game_passes_only_after_a_pass() {
        let best = Move::Play(bitboards::go::Point(40));
        let resigned = Choice { play: None, result: MctsResult { best, ..passing_result() }, refused_memory: None };
        let after_pass = game(WALLS, &[(Color::WHITE, Move::Pass)]);
        assert_eq!(resigned.move_without_resigning(&after_pass), Move::Pass);
        let after_move = game(WALLS, &[]);
        assert_eq!(resigned.move_without_resigning(&after_move), best);
    }

    #[test]
    fn steps_report_until_the_playouts_are_run() {
        let game = Game::new(Board::new(9), 7.5, Superko::Positional);
        let mut tree = Mcts::new(&game, 3);
        let mut reports = Vec::new();
        let mut report = |_: &Mcts, r: &MctsResult, finished: bool| reports.push((r.playouts, finished));
        let mut progress = Progress { interval: Duration::from_millis(5), report: &mut report };
        let r = search_in_steps(&mut tree, Color::BLACK, &nodes(2000), &StopFlag::new(), &mut progress);
        assert_eq!(r.playouts, 2000);
        assert_eq!(reports.last(), Some(&(2000, true)));
        assert!(reports.iter().rev().skip(1).all(|&(_, finished)| !finished));
    }
}
