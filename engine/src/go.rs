//! Go behind the front ends: the game state, move generation by MCTS, dead stones and
//! scoring, with a GTP face ([`GoGtp`]) and a UGI+ face ([`GoSession`]).

use std::time::Duration;

use bitboards::go::sgf::{self, SgfGame};
use bitboards::go::{Board, Color, Game, Illegal, Move, Point, Superko, bits};
use protocol::gtp::{self, Command};
use protocol::ugi::{OptionKind, StartPosition};
use search::go::mcts::{Mcts, MctsSettings, dead_stones, ownership};
use search::{Limits, Outcome, Player, Score, StopFlag};

use crate::error::{EngineError, Result};
use crate::io::Output;
use crate::session::GtpGame;
use crate::session::{GameSession, PerftJob, Report, SearchJob, SearchOptions, SearchOutcome};

/// Settling playouts used to judge dead stones at the end of a game.
pub(crate) const STATUS_PLAYOUTS: usize = 600;
/// A stone is dead when the other colour owns its point in more than this share.
pub(crate) const DEAD_THRESHOLD: f32 = 0.8;

/// The state both Go front ends share.
#[derive(Clone, Debug)]
pub struct GoState {
    game: Game,
    seed: u64,
    /// Threads and tree size of the searches (from `Threads` and `Hash`).
    settings: MctsSettings,
}

impl GoState {
    /// An empty 9×9 board, komi 7.5, positional superko.
    pub fn new() -> GoState {
        GoState { game: Game::new(Board::new(9), 7.5, Superko::Positional), seed: 1, settings: MctsSettings::default() }
    }

    fn restart(&mut self, board: Board) {
        self.game = Game::new(board, self.game.komi(), self.game.superko());
    }

    /// A new empty board of side `size`.
    pub fn set_size(&mut self, size: usize) -> Result<()> {
        if !(2..=bitboards::go::MAX_SIZE).contains(&size) {
            return Err(EngineError::BoardSize(format!("{size}x{size}: Go boards are 2x2 to 9x9")));
        }
        self.restart(Board::new(size));
        Ok(())
    }

    /// Changes the superko rule (the game restarts from its start with its moves).
    pub fn set_superko(&mut self, superko: Superko) -> Result<()> {
        let moves: Vec<(Color, Move)> = self.game.moves().to_vec();
        let mut game = Game::new(*self.game.start(), self.game.komi(), superko);
        for (c, m) in moves {
            game.play(c, m).map_err(|e| format!("the game so far breaks that rule: {e}"))?;
        }
        self.game = game;
        Ok(())
    }

    /// Reads a move text: a GTP vertex or `pass`.
    pub fn parse_move(&self, text: &str) -> Result<Move, String> {
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        Point::from_gtp(text, self.game.board().size()).map(Move::Play).map_err(|e| e.to_string())
    }

    /// The text of a move.
    pub fn move_text(&self, m: Move) -> String {
        match m {
            Move::Play(p) => p.to_gtp(self.game.board().size()),
            Move::Pass => "pass".into(),
        }
    }

    /// Searches with `options`' threads and a tree of at most `options.hash_mb` MiB.
    pub fn use_options(&mut self, options: &SearchOptions) {
        self.settings = MctsSettings::new(options.threads, options.hash_mb);
    }

    /// Chooses a move for `color` with MCTS within `limits`; `None` means resign.
    pub fn think(
        &mut self,
        color: Color,
        limits: &Limits,
        stop: &StopFlag,
        allow_pass: bool,
    ) -> (Option<Move>, search::go::mcts::MctsResult) {
        let mut game = self.game.clone();
        if game.board().to_move() != color {
            // GTP may ask either colour: search as if it were that colour's turn.
            game.play(color.other(), Move::Pass).ok();
        }
        self.seed = self.seed.wrapping_add(1);
        let mut tree = Mcts::with_pass(&game, self.seed, allow_pass).with_settings(self.settings);
        let r = tree.search(limits, stop, color);
        let resign = r.win_rate < 0.02 && r.playouts >= 5_000;
        (if resign { None } else { Some(r.best) }, r)
    }

    /// Dead stones of the current position, by settling playouts.
    pub fn dead(&self) -> u128 {
        dead_stones(self.game.board(), STATUS_PLAYOUTS, DEAD_THRESHOLD, 7)
    }

    /// The score after removing the dead stones.
    pub fn final_score(&self) -> bitboards::go::Score {
        self.game.score(self.dead())
    }
}

impl Default for GoState {
    fn default() -> Self {
        Self::new()
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::BLACK => "black",
        Color::WHITE => "white",
    }
}

/// Go over GTP.
#[derive(Default)]
pub struct GoGtp {
    state: GoState,
}

impl GoGtp {
    fn vertices(&self, set: u128) -> String {
        let size = self.state.game.board().size();
        bits(set).map(|p| p.to_gtp(size)).collect::<Vec<_>>().join(" ")
    }

    fn load_sgf(&mut self, args: &[&str]) -> Result<String> {
        let (path, until) = match args {
            [path] => (*path, None),
            [path, n] => (
                *path,
                Some(n.parse::<usize>().map_err(|_| EngineError::Syntax(format!("'{n}' is not a move number")))?),
            ),
            _ => return Err(EngineError::Syntax("loadsgf FILE [MOVE]".into())),
        };
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot load file: {e}"))?;
        let sgf = sgf::parse(&text).map_err(|e| format!("cannot load file: {e}"))?;
        if !(2..=bitboards::go::MAX_SIZE).contains(&sgf.size) {
            return Err(format!("cannot load file: board size {} is not supported", sgf.size).into());
        }
        let mut board = Board::new(sgf.size);
        for &(c, p) in &sgf.setup {
            board.set(p, Some(c));
        }
        board.set_to_move(sgf.to_play.unwrap_or(sgf.moves.first().map_or(Color::BLACK, |m| m.0)));
        let komi = sgf.komi.unwrap_or(self.state.game.komi());
        let mut game = Game::new(board, komi, self.state.game.superko());
        // `loadsgf file n` loads the position before move n.
        let count = until.map_or(sgf.moves.len(), |n| n.saturating_sub(1).min(sgf.moves.len()));
        for (i, &(c, m)) in sgf.moves[..count].iter().enumerate() {
            game.play(c, m).map_err(|e| format!("cannot load file: move {} is illegal: {e}", i + 1))?;
        }
        let next = game.board().to_move();
        self.state.game = game;
        Ok(color_name(next).into())
    }

    fn print_sgf(&self) -> String {
        let g = &self.state.game;
        let start = g.start();
        let setup = start.points().filter_map(|p| start.at(p).map(|c| (c, p))).collect();
        let result = g.is_over().then(|| self.state.final_score().result());
        sgf::write(&SgfGame {
            size: start.size(),
            komi: Some(g.komi()),
            rules: Some("Chinese".into()),
            result,
            setup,
            moves: g.moves().to_vec(),
            ..SgfGame::default()
        })
    }
}

const GO_EXTRA: &[&str] = &[
    "final_status_list",
    "kgs-genmove_cleanup",
    "loadsgf",
    "printsgf",
    "is_legal",
    "gogui-analyze_commands",
    "sente-ownership",
    "sente-superko",
];

impl GtpGame for GoGtp {
    fn set_board_size(&mut self, size: usize) -> Result<()> {
        self.state.set_size(size)
    }

    fn clear(&mut self) {
        let size = self.state.game.board().size();
        self.state.restart(Board::new(size));
    }

    fn set_komi(&mut self, komi: f64) {
        self.state.game.set_komi(komi);
    }

    fn play(&mut self, black: bool, vertex: &str) -> Result<()> {
        let color = if black { Color::BLACK } else { Color::WHITE };
        let mv = self.state.parse_move(vertex).map_err(EngineError::Syntax)?;
        self.state.game.play(color, mv).map_err(|e: Illegal| EngineError::IllegalMove(format!("{vertex}: {e}")))
    }

    fn genmove(&mut self, black: bool, limits: Limits, options: &SearchOptions) -> Result<String> {
        self.state.use_options(options);
        let color = if black { Color::BLACK } else { Color::WHITE };
        let (choice, _) = self.state.think(color, &limits, &StopFlag::new(), true);
        match choice {
            None => Ok("resign".into()),
            Some(m) => {
                self.state.game.play(color, m).map_err(|e| format!("internal error: chose an illegal move ({e})"))?;
                Ok(self.state.move_text(m))
            }
        }
    }

    fn undo(&mut self) -> Result<()> {
        self.state.game.undo().map(|_| ()).map_err(|_| EngineError::CannotUndo)
    }

    fn showboard(&self) -> String {
        self.state.game.board().draw()
    }

    fn final_score(&mut self) -> Result<String> {
        Ok(self.state.final_score().result())
    }

    fn extra(&mut self, cmd: &Command, _out: &Output) -> Option<Result<String>> {
        let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
        let board = *self.state.game.board();
        Some(match (cmd.name.as_str(), args.as_slice()) {
            ("final_status_list", [status]) => {
                let dead = self.state.dead();
                let stones = board.stones(Color::BLACK) | board.stones(Color::WHITE);
                match status.to_ascii_lowercase().as_str() {
                    "dead" => Ok(self.vertices(dead)),
                    "alive" => Ok(self.vertices(stones & !dead)),
                    "seki" => Ok(String::new()),
                    _ => Err(EngineError::Syntax(format!("{}: bad arguments {:?}", cmd.name, cmd.args))),
                }
            }
            ("kgs-genmove_cleanup", [color]) => match gtp::parse_color(color) {
                None => Err(EngineError::Syntax(format!("{}: bad arguments {:?}", cmd.name, cmd.args))),
                Some(black) => {
                    // Capture the dead stones before passing: no pass while the opponent
                    // still has dead stones on the board.
                    let color = if black { Color::BLACK } else { Color::WHITE };
                    let opponent_dead = self.state.dead() & board.stones(color.other());
                    let limits = Limits::movetime(Duration::from_secs(2));
                    let (choice, _) = self.state.think(color, &limits, &StopFlag::new(), opponent_dead == 0);
                    let m = choice.unwrap_or(Move::Pass);
                    match self.state.game.play(color, m) {
                        Ok(()) => Ok(self.state.move_text(m)),
                        Err(e) => Err(format!("internal error: {e}").into()),
                    }
                }
            },
            ("loadsgf", _) => self.load_sgf(&args),
            ("printsgf", []) => Ok(self.print_sgf()),
            ("printsgf", [path]) => std::fs::write(path, self.print_sgf())
                .map(|_| String::new())
                .map_err(|e| format!("cannot write {path}: {e}").into()),
            ("is_legal", [color, vertex]) => match (gtp::parse_color(color), self.state.parse_move(vertex)) {
                (Some(black), Ok(m)) => {
                    let c = if black { Color::BLACK } else { Color::WHITE };
                    Ok(if self.state.game.check(c, m).is_ok() { "1" } else { "0" }.into())
                }
                _ => Err(EngineError::Syntax(format!("{}: bad arguments {:?}", cmd.name, cmd.args))),
            },
            ("gogui-analyze_commands", _) => Ok([
                "gfx/Ownership/sente-ownership",
                "plist/Dead stones/final_status_list dead",
                "string/Final score/final_score",
                "string/Superko rule/sente-superko",
            ]
            .join("\n")),
            ("sente-ownership", []) => {
                // GoGui gfx: INFLUENCE with values from -1 (white) to 1 (black).
                let own = ownership(&board, 400, 11);
                let size = board.size();
                let cells: Vec<String> = board
                    .points()
                    .map(|p| format!("{} {:.2}", p.to_gtp(size), 2.0 * own[p.0 as usize] - 1.0))
                    .collect();
                Ok(format!("INFLUENCE {}", cells.join(" ")))
            }
            ("sente-superko", []) => Ok(format!("{:?}", self.state.game.superko()).to_lowercase()),
            ("sente-superko", [rule]) => match Superko::parse(rule) {
                Some(r) => self.state.set_superko(r).map(|_| String::new()),
                None => Err("superko rules: off, positional, situational".into()),
            },
            _ if GO_EXTRA.contains(&cmd.name.as_str()) => {
                Err(EngineError::Syntax(format!("{}: bad arguments {:?}", cmd.name, cmd.args)))
            }
            _ => return None,
        })
    }

    fn extra_commands(&self) -> &'static [&'static str] {
        GO_EXTRA
    }
}

/// Go behind UGI+.
#[derive(Default)]
pub struct GoSession {
    state: GoState,
    size: Option<usize>,
}

impl GoSession {
    /// A session on a board of side `size` (9 if `None`).
    pub fn new(size: Option<usize>) -> Result<GoSession> {
        let mut s = GoSession { state: GoState::new(), size };
        s.state.set_size(size.unwrap_or(9))?;
        Ok(s)
    }
}

/// Win rate → centi-units for `score cp` (a logistic scale: 60% ≈ +70, 90% ≈ +380).
fn win_rate_cp(w: f32) -> i32 {
    let w = w.clamp(0.001, 0.999) as f64;
    (400.0 * (w / (1.0 - w)).log10()).round() as i32
}

impl GameSession for GoSession {
    fn game(&self) -> crate::games::GameKind {
        crate::games::GameKind::Go
    }

    fn uses_threads_and_hash(&self) -> bool {
        true
    }

    fn options(&self) -> Vec<(&'static str, OptionKind)> {
        vec![
            ("Komi", OptionKind::Text { default: "7.5".into() }),
            (
                "Superko",
                OptionKind::Combo {
                    default: "positional".into(),
                    values: vec!["off".into(), "positional".into(), "situational".into()],
                },
            ),
        ]
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<bool> {
        match name.to_ascii_lowercase().as_str() {
            "komi" => {
                let v = value.ok_or("option 'Komi' needs a value")?;
                let k = bitboards::go::parse_komi(v)?;
                self.state.game.set_komi(k);
                Ok(true)
            }
            "superko" => {
                let v = value.ok_or("option 'Superko' needs a value")?;
                let rule =
                    Superko::parse(v).ok_or_else(|| format!("bad superko rule '{v}': off, positional, situational"))?;
                self.state.set_superko(rule)?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn new_game(&mut self) {
        let size = self.size.unwrap_or(9);
        self.state.restart(Board::new(size));
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<()> {
        let board = match start {
            StartPosition::StartPos => Board::new(self.state.game.board().size()),
            StartPosition::Fen(text) => {
                bitboards::go::parse_board_text(text).map_err(|e| format!("bad position: {e}"))?
            }
        };
        let mut game = Game::new(board, self.state.game.komi(), self.state.game.superko());
        for (i, text) in moves.iter().enumerate() {
            let mv = self.state.parse_move(text).map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
            if mv != Move::Pass && !Point::from_gtp(text, board.size()).is_ok_and(|p| p.on_board(board.size())) {
                return Err(EngineError::IllegalMove(format!("move {} '{text}' is off the board", i + 1)));
            }
            if game.is_over() {
                return Err(EngineError::IllegalMove(format!(
                    "move {} '{text}': the game ended with two passes",
                    i + 1
                )));
            }
            let color = game.board().to_move();
            game.play(color, mv)
                .map_err(|e| EngineError::IllegalMove(format!("move {} '{text}' is illegal: {e}", i + 1)))?;
        }
        self.state.game = game;
        Ok(())
    }

    fn p1_to_move(&self) -> bool {
        self.state.game.board().to_move() == Color::BLACK
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.state.game.is_over() {
            return None;
        }
        let m = self.state.final_score().margin();
        Some(if m > 0.0 {
            Outcome::Win(Player::One)
        } else if m < 0.0 {
            Outcome::Win(Player::Two)
        } else {
            Outcome::Draw
        })
    }

    fn legal_moves(&self) -> Vec<String> {
        let game = &self.state.game;
        search::Game::legal_moves(game).into_iter().map(|m| search::Game::move_name(game, m)).collect()
    }

    fn is_legal(&self, mv: &str) -> bool {
        let game = &self.state.game;
        search::Game::parse_move(game, mv).is_ok_and(|m| search::Game::check_move(game, m).is_ok())
    }

    fn fen(&self) -> String {
        bitboards::go::board_text(self.state.game.board())
    }

    fn score(&self) -> String {
        // Area of the board as it stands (Tromp-Taylor), komi included.
        let s = self.state.game.score(0);
        format!("{}", s.margin())
    }

    fn draw(&self) -> String {
        self.state.game.board().draw()
    }

    fn perft(&self, depth: u32, _threads: usize) -> Result<PerftJob> {
        if depth > 4 {
            return Err("Go perft is for checking the rules: depth 4 at most".into());
        }
        let game = self.state.game.clone();
        Ok(Box::new(move |_: &StopFlag| Some(bitboards::go::perft(&game, depth))))
    }

    fn search_job(&mut self, limits: Limits, options: &SearchOptions) -> SearchJob {
        self.state.use_options(options);
        let mut state = self.state.clone();
        Box::new(move |stop: &StopFlag, report: &mut (dyn FnMut(&Report) + Send)| {
            let color = state.game.board().to_move();
            let (choice, r) = state.think(color, &limits, stop, true);
            let final_report = Report {
                depth: r.pv.len() as u32,
                nodes: r.playouts,
                elapsed: r.elapsed,
                score: Score::Centi(win_rate_cp(r.win_rate)),
                pv: r.pv.iter().map(|&m| state.move_text(m)).collect(),
            };
            report(&final_report);
            // UGI has no resignation: a lost position still gets a move.
            let best = choice.unwrap_or(r.best);
            SearchOutcome { best_move: Some(state.move_text(best)), report: final_report }
        })
    }
}
