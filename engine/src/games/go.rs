//! Go behind the front ends: the game state with its player ([`GoPlayer`], which
//! chooses the moves), dead stones and scoring, in one session ([`GoSession`]) that
//! UGI+ and GTP drive, and the analysis lines GUIs read.

use std::time::Duration;

use bitboards::go::sgf::{self, SgfGame};
use bitboards::go::{Board, Color, Game, Illegal, Move, Point, Superko, bits};
use protocol::gtp::{self, Command};
use protocol::ugi::{OptionKind, StartPosition};
use search::go::analysis::{Analyser, AnalysisData, Wanted, settle_position};
use search::go::endgame::{Settlement, judge};
use search::go::mcts::{DEFAULT_PLAYOUTS, MOVE_MODEL_BY_DEFAULT, Mcts, MctsResult, MctsSettings};
use search::go::params::{BOOK_BY_DEFAULT, LAST_GOOD_REPLY};
use search::go::player::{Choice, Ending, GoPlayer, Progress, search_in_steps};
use search::go::playout::Policy;
use search::{Limits, Outcome, Player, StopFlag};

use crate::error::{EngineError, Result};
use crate::games::options::{self, GameOption};
use crate::games::session::AnalysisJob;
use crate::games::session::{GameSession, PerftJob, Report, SearchJob, SearchOptions, SearchOutcome};
use crate::io::Output;

/// The state both Go front ends share: the game and the player that chooses its moves.
#[derive(Clone, Debug)]
pub struct GoState {
    game: Game,
    /// Seed, search settings (`Threads`, `Hash`, `Playouts`) and the kept tree (shared
    /// by the clones a UGI+ search job takes).
    player: GoPlayer,
}

impl GoState {
    /// An empty 9×9 board, komi 7.5, positional superko.
    pub fn new() -> GoState {
        GoState { game: Game::new(Board::new(9), 7.5, Superko::Positional), player: GoPlayer::new() }
    }

    fn restart(&mut self, board: Board) {
        self.game = Game::new(board, self.game.komi(), self.game.superko());
    }

    /// A new empty board of side `size`.
    pub fn set_size(&mut self, size: usize) -> Result<()> {
        if !(2..=bitboards::go::MAX_SIZE).contains(&size) {
            return Err(EngineError::BoardSize(format!("Go is played on 2x2 to 9x9 boards (2 to 9), not {size}")));
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

    /// Reads a move text: a GTP vertex or `pass` ([`Move::from_gtp`]).
    pub fn parse_move(&self, text: &str) -> Result<Move, String> {
        Move::from_gtp(text, self.game.board().size()).map_err(|e| e.to_string())
    }

    /// The text of a move ([`Move::to_gtp`]).
    pub fn move_text(&self, m: Move) -> String {
        m.to_gtp(self.game.board().size())
    }

    /// Searches with `options`' threads and a tree of at most `options.hash_mb` MiB.
    pub fn use_options(&mut self, options: &SearchOptions) {
        self.player.set_resources(options.threads, options.hash_mb);
    }

    /// Makes now the tree the next search with `options` would allocate and keeps it
    /// for that search ([`GoPlayer::prepare`]).
    pub fn prepare(&mut self, options: &SearchOptions) {
        search::player::Player::prepare(&mut self.player, &self.game, options);
    }

    /// The player's choice for `color` ([`GoPlayer::think`]); a tree the system refused
    /// memory for is said on stderr.
    pub fn think(
        &mut self,
        color: Color,
        limits: &Limits,
        stop: &StopFlag,
        ending: Ending,
        progress: Option<&mut Progress>,
    ) -> Choice {
        let choice = self.player.think(&self.game, color, limits, stop, ending, progress);
        say_refused_memory(choice.refused_memory);
        choice
    }

    /// Dead stones and seki of the current position, by settling playouts and the
    /// seki test.
    pub fn settlement(&self) -> Settlement {
        judge(self.game.board())
    }

    /// Dead stones of the current position (never stones in seki).
    pub fn dead(&self) -> u128 {
        self.settlement().dead
    }

    /// The score after removing the dead stones (stones in seki stay).
    pub fn final_score(&self) -> bitboards::go::Score {
        self.game.score(self.dead())
    }
}

/// Says on stderr that the system refused the memory of a search tree (the search
/// ran in a smaller one), if it did.
fn say_refused_memory(refused: Option<search::tt::AllocError>) {
    if let Some(e) = refused {
        eprintln!("sente: search tree: {e}; it searched a smaller one");
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

/// Go's settings, for UGI+ and GTP alike ([`crate::games::options`]).
const GO_OPTIONS: &[GameOption<GoState>] = &[
    GameOption {
        name: "Komi",
        gtp: None,
        kind: || OptionKind::Text { default: "7.5".into() },
        get: |s| s.game.komi().to_string(),
        set: |s, v| {
            s.game.set_komi(bitboards::go::parse_komi(v)?);
            Ok(())
        },
    },
    GameOption {
        name: "Superko",
        gtp: Some("sente-superko"),
        kind: || OptionKind::Combo {
            default: "positional".into(),
            values: vec!["off".into(), "positional".into(), "situational".into()],
        },
        get: |s| format!("{:?}", s.game.superko()).to_lowercase(),
        set: |s, v| {
            let rule =
                Superko::parse(v).ok_or_else(|| format!("bad superko rule '{v}': off, positional, situational"))?;
            s.set_superko(rule)
        },
    },
    GameOption {
        name: "Playouts",
        gtp: Some("sente-playouts"),
        kind: || OptionKind::Combo {
            default: Policy::default().name().into(),
            values: Policy::ALL.map(|p| p.name().to_string()).to_vec(),
        },
        get: |s| s.player.settings().policy.name().into(),
        set: |s, v| {
            s.player.set_policy(Policy::parse(v)?);
            Ok(())
        },
    },
    GameOption {
        name: "MoveModel",
        gtp: Some("sente-movemodel"),
        kind: || OptionKind::Check { default: MOVE_MODEL_BY_DEFAULT },
        get: |s| s.player.settings().move_model.to_string(),
        set: |s, v| {
            s.player.set_move_model(check_value("MoveModel", v)?);
            Ok(())
        },
    },
    GameOption {
        name: "Book",
        gtp: Some("sente-book"),
        kind: || OptionKind::Check { default: BOOK_BY_DEFAULT },
        get: |s| s.player.uses_book().to_string(),
        set: |s, v| {
            s.player.set_book(check_value("Book", v)?);
            Ok(())
        },
    },
    GameOption {
        name: "LastGoodReply",
        gtp: Some("sente-lastgoodreply"),
        kind: || OptionKind::Check { default: LAST_GOOD_REPLY },
        get: |s| s.player.settings().last_good_reply.to_string(),
        set: |s, v| {
            s.player.set_last_good_reply(check_value("LastGoodReply", v)?);
            Ok(())
        },
    },
    GameOption {
        name: "SearchSeed",
        gtp: Some("sente-searchseed"),
        kind: || OptionKind::Spin { default: GoPlayer::new().search_seed() as i64, min: 0, max: i64::MAX },
        get: |s| s.player.search_seed().to_string(),
        set: |s, v| {
            let seed = v.trim().parse::<i64>().ok().filter(|&n| n >= 0);
            let seed = seed.ok_or_else(|| format!("bad SearchSeed '{v}': a whole number from 0"))?;
            s.player.set_search_seed(seed as u64);
            Ok(())
        },
    },
];

/// The value of the check option `name`: `true` or `false`, in any case.
fn check_value(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("bad {name} '{value}': true or false")),
    }
}

impl GoSession {
    /// The stones of `set`, one group per line (as `final_status_list` answers).
    fn groups(&self, set: u128) -> String {
        let board = self.state.game.board();
        let size = board.size();
        let mut lines = Vec::new();
        let mut rest = set;
        while rest != 0 {
            let group = board.group(Point(rest.trailing_zeros() as u8)) & set;
            rest &= !group;
            lines.push(bits(group).map(|p| p.to_gtp(size)).collect::<Vec<_>>().join(" "));
        }
        lines.join("\n")
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
        // The one rule for setup stones (size, no group without liberties), as the
        // analysis engine and the UGI+ position text apply it.
        let board = sgf.start_board().map_err(|e| format!("cannot load file: {e}"))?;
        let komi = sgf.komi.unwrap_or(self.state.game.komi());
        let mut game = Game::new(board, komi, self.state.game.superko());
        // `loadsgf file n` loads the position before move n.
        let count = until.map_or(sgf.moves.len(), |n| n.saturating_sub(1).min(sgf.moves.len()));
        for (i, &(c, m)) in sgf.moves[..count].iter().enumerate() {
            game.play(c, m).map_err(|e| format!("cannot load file: move {} is illegal: {e}", i + 1))?;
        }
        let next = game.board().to_move();
        // `clear_board` then clears a board of the file's size.
        self.size = Some(game.board().size());
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
    "lz-analyze",
    "kata-analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
];

/// The analysis format of an analysis command's name, and whether it also plays.
fn analysis_command(name: &str) -> Option<(AnalysisFormat, bool)> {
    match name {
        "lz-analyze" => Some((AnalysisFormat::Lz, false)),
        "kata-analyze" => Some((AnalysisFormat::Kata, false)),
        "lz-genmove_analyze" => Some((AnalysisFormat::Lz, true)),
        "kata-genmove_analyze" => Some((AnalysisFormat::Kata, true)),
        _ => None,
    }
}

/// The two analysis formats GUIs read: Leela Zero's (`lz-analyze`: win rate, prior
/// and LCB as integers 0–10000) and KataGo's (`kata-analyze`: floats 0–1, score lead,
/// ownership).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AnalysisFormat {
    Lz,
    Kata,
}

/// An analysis command's arguments: `[color] [interval] [interval N] [maxmoves N]
/// [minmoves N] [ownership true|false]`.
#[derive(Clone, Copy, Debug)]
struct AnalysisRequest {
    color: Color,
    interval: Duration,
    format: AnalysisFormat,
    ownership: bool,
    max_moves: usize,
}

/// Time between analysis lines when the command gives none (1 s, in centiseconds).
const DEFAULT_ANALYSIS_INTERVAL_CS: u64 = 100;

impl AnalysisRequest {
    fn parse(args: &[&str], to_move: Color, format: AnalysisFormat) -> Result<AnalysisRequest, String> {
        let mut request = AnalysisRequest {
            color: to_move,
            interval: Duration::from_millis(10 * DEFAULT_ANALYSIS_INTERVAL_CS),
            format,
            ownership: false,
            max_moves: usize::MAX,
        };
        let centiseconds = |t: &str| {
            t.parse::<u64>()
                .ok()
                .filter(|&cs| cs <= 360_000)
                .map(|cs| Duration::from_millis(10 * if cs == 0 { DEFAULT_ANALYSIS_INTERVAL_CS } else { cs }))
                .ok_or_else(|| format!("'{t}' is not an interval in centiseconds"))
        };
        let mut rest = args;
        if let Some((first, tail)) = rest.split_first()
            && let Some(black) = gtp::parse_color(first)
        {
            request.color = if black { Color::BLACK } else { Color::WHITE };
            rest = tail;
        }
        if let Some((first, tail)) = rest.split_first()
            && first.parse::<u64>().is_ok()
        {
            request.interval = centiseconds(first)?;
            rest = tail;
        }
        let mut pairs = rest.chunks(2);
        for pair in pairs.by_ref() {
            match pair {
                ["interval", v] => request.interval = centiseconds(v)?,
                ["maxmoves", v] => {
                    request.max_moves = v.parse().map_err(|_| format!("maxmoves '{v}' is not a number"))?
                }
                ["minmoves", v] => {
                    v.parse::<usize>().map_err(|_| format!("minmoves '{v}' is not a number"))?;
                }
                ["ownership", v] if format == AnalysisFormat::Kata => {
                    request.ownership = match *v {
                        "true" => true,
                        "false" => false,
                        _ => return Err(format!("ownership '{v}': true or false")),
                    }
                }
                _ => return Err(format!("unexpected arguments {pair:?}")),
            }
        }
        Ok(request)
    }
}

impl GoSession {
    /// The search an `lz-analyze` or `kata-analyze` command asks for (`None` for
    /// another command): the game, the request, and the search's seed (the player's
    /// next) and settings (one thread; the player's playouts, move model and replies).
    fn analysis_search(&mut self, cmd: &Command) -> Option<Result<AnalysisSearch>> {
        let (format, false) = analysis_command(&cmd.name)? else { return None };
        let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
        let game = self.state.game.clone();
        let request = match AnalysisRequest::parse(&args, game.board().to_move(), format) {
            Ok(r) => r,
            Err(e) => return Some(Err(EngineError::Syntax(format!("{}: {e}", cmd.name)))),
        };
        if game.is_over() {
            return Some(Err("the game is over: nothing to analyse".into()));
        }
        let seed = self.state.player.next_seed();
        let MctsSettings { policy, move_model, last_good_reply, .. } = self.state.player.settings();
        let settings = MctsSettings { policy, move_model, last_good_reply, ..MctsSettings::default() };
        Some(Ok(AnalysisSearch { game, request, seed, settings }))
    }
}

/// The lines GTP `command` (an `lz-analyze` or `kata-analyze` line) writes in `gtp`'s
/// position when its search runs `playouts` playouts with `seed` in one step (one
/// thread), as `sente analysis` searches a query: for the tests that the two front
/// ends report the same analysis.
#[cfg(test)]
pub(crate) fn analysis_lines(gtp: &mut GoSession, command: &str, seed: u64, playouts: u64) -> Result<Vec<String>> {
    let cmd = gtp::parse(command).ok_or_else(|| EngineError::Syntax(format!("not a GTP command: {command}")))?;
    let mut search = gtp.analysis_search(&cmd).ok_or_else(|| format!("not an analysis command: {command}"))??;
    search.seed = seed;
    // One step: a search in several steps of a given time is not repeatable.
    search.request.interval = Duration::from_secs(3600);
    let (out, lines) = crate::io::collecting_output();
    search.run(&Limits { nodes: Some(playouts), ..Limits::default() }, &StopFlag::new(), &out);
    Ok(lines.try_iter().collect())
}

/// The search behind `lz-analyze` and `kata-analyze`.
struct AnalysisSearch {
    game: Game,
    request: AnalysisRequest,
    seed: u64,
    settings: MctsSettings,
}

impl AnalysisSearch {
    /// Searches within `limits` (over GTP: until stopped), with one line on `out`
    /// every interval of the request.
    fn run(&self, limits: &Limits, stop: &StopFlag, out: &Output) {
        let mut writer = AnalysisWriter::new(&self.game, self.request);
        let mut tree = Mcts::new(writer.analyser.game(), self.seed).with_settings(self.settings);
        let mut report = |tree: &Mcts, r: &MctsResult, _finished: bool| {
            if let Some(line) = writer.line(tree, r) {
                out.line(line)
            }
        };
        let mut progress = Progress { interval: self.request.interval, report: &mut report };
        search_in_steps(&mut tree, self.request.color, limits, stop, &mut progress);
    }
}

/// Writes the analysis lines of one search: the position's [`Analyser`] makes the
/// analysis, [`analysis_line`] formats it.
struct AnalysisWriter {
    analyser: Analyser,
    format: AnalysisFormat,
}

impl AnalysisWriter {
    /// The writer for `request` in `game`: the position analysed is `game`'s, after a
    /// pass when the colour asked for is not the side to move.
    fn new(game: &Game, request: AnalysisRequest) -> AnalysisWriter {
        let mut game = game.clone();
        if game.board().to_move() != request.color {
            game.play(request.color.other(), Move::Pass).ok();
        }
        let kata = request.format == AnalysisFormat::Kata;
        let wanted = Wanted {
            scores: kata,
            ownership: kata && request.ownership,
            max_moves: request.max_moves,
            ..Wanted::default()
        };
        AnalysisWriter { analyser: Analyser::new(&game, wanted), format: request.format }
    }

    /// The analysis line for the search so far; `None` while no move is listed (an
    /// empty line would end the GTP reply).
    fn line(&mut self, tree: &Mcts, r: &MctsResult) -> Option<String> {
        let data = self.analyser.data(tree, r).filter(|d| !d.moves.is_empty())?;
        Some(analysis_line(self.analyser.game(), &data, self.format))
    }
}

/// One analysis line of `data` (an analysis of `game`'s position) in `format`: every
/// listed root move as `info move … pv …`, best first, then `kata-analyze`'s ownership
/// when it was wanted.
fn analysis_line(game: &Game, data: &AnalysisData, format: AnalysisFormat) -> String {
    let text = |m: Move| search::Game::move_name(game, m);
    let mut parts: Vec<String> = data
        .moves
        .iter()
        .map(|info| {
            let (name, visits, w, prior, lcb, order) =
                (text(info.mv), info.visits, info.win_rate, info.prior, info.lcb, info.order);
            let pv = info.pv.iter().map(|&m| text(m)).collect::<Vec<String>>().join(" ");
            match format {
                AnalysisFormat::Lz => {
                    let permyriad = |x: f64| (x * 10000.0).round() as u32;
                    let (w, prior, lcb) = (permyriad(w), permyriad(prior), permyriad(lcb));
                    format!(
                        "info move {name} visits {visits} winrate {w} prior {prior} lcb {lcb} order {order} pv {pv}"
                    )
                }
                AnalysisFormat::Kata => {
                    let lead = info.score.map_or(0.0, |s| s.lead);
                    format!(
                        "info move {name} visits {visits} winrate {w:.6} scoreMean {lead:.3} scoreLead {lead:.3} \
                         prior {prior:.6} lcb {lcb:.6} order {order} pv {pv}"
                    )
                }
            }
        })
        .collect();
    if let Some(own) = &data.ownership {
        parts.push(format!("ownership {}", own.iter().map(|v| format!("{v:.3}")).collect::<Vec<String>>().join(" ")));
    }
    parts.join(" ")
}

/// Go behind UGI+ and GTP.
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

/// The `info string` that answers `go depth N` in a game searched by Monte-Carlo
/// (`game`: Go, Phantom Go): its search has no depth, as KataGo's, Leela Zero's and
/// Pachi's have none (GTP has no depth either), and no number of playouts would mean
/// "every line `depth` moves deep"; so the limit is not replaced by one silently. The
/// search runs within the other limits given, or `default_playouts` (as `go` alone)
/// when there is none.
pub(crate) fn depth_note(game: &str, depth: u32, limits: &Limits, default_playouts: u64) -> String {
    let others = limits.nodes.is_some()
        || limits.movetime.is_some()
        || limits.infinite
        || limits.clock.time.iter().any(Option::is_some);
    let instead = if others {
        "it searches within the other limits given".to_string()
    } else {
        format!("it runs {default_playouts} playouts instead, as go without a limit does (go nodes N sets them)")
    };
    format!("go depth {depth} is not a limit {game} knows: its Monte-Carlo search has no depth; {instead}")
}

impl GameSession for GoSession {
    fn game(&self) -> crate::games::GameKind {
        crate::games::GameKind::GO
    }

    fn uses_threads_and_hash(&self) -> bool {
        true
    }

    fn options(&self) -> Vec<(&'static str, OptionKind)> {
        options::announce(GO_OPTIONS)
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<bool> {
        options::set_by_name(GO_OPTIONS, &mut self.state, name, value)
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
        // The count `query result` uses: area with komi, dead stones removed first
        // (stones in seki stay), from black's (player one's) side.
        format!("{}", self.state.final_score().margin())
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

    fn prepare(&mut self, options: &SearchOptions) {
        self.state.prepare(options);
    }

    fn search_job(&mut self, limits: Limits, options: &SearchOptions) -> SearchJob {
        self.state.use_options(options);
        let (game, mut player, resources) = (self.state.game.clone(), self.state.player.clone(), *options);
        let note = limits.depth.map(|depth| depth_note("Go", depth, &limits, DEFAULT_PLAYOUTS));
        Box::new(move |stop: &StopFlag, report: &mut (dyn FnMut(&Report) + Send)| {
            if let Some(note) = note {
                report(&Report::note(note));
            }
            let text = |moves: &[Move]| moves.iter().map(|&m| m.to_gtp(game.board().size())).collect();
            let r = search::player::Player::choose(&mut player, &game, &limits, &resources, stop, &mut |_| {});
            say_refused_memory(player.take_refused_memory());
            // UGI: after `go infinite` the best move waits for `stop`, however soon the
            // search ended (a pass that wins is answered without one).
            while limits.infinite && !stop.is_stopped() {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            let final_report = Report {
                depth: r.depth,
                nodes: r.nodes,
                elapsed: r.elapsed,
                score: r.score,
                pv: text(&r.pv),
                note: None,
            };
            report(&final_report);
            SearchOutcome { best_move: r.best_move.map(|m| m.to_gtp(game.board().size())), report: final_report }
        })
    }

    // GTP

    fn set_board_size(&mut self, size: usize) -> Result<()> {
        self.state.set_size(size)?;
        self.size = Some(size);
        Ok(())
    }

    fn set_komi(&mut self, komi: f64) {
        self.state.game.set_komi(komi);
    }

    fn play_as(&mut self, black: bool, vertex: &str) -> Result<()> {
        let color = if black { Color::BLACK } else { Color::WHITE };
        let mv = self.state.parse_move(vertex).map_err(EngineError::Syntax)?;
        self.state.game.play(color, mv).map_err(|e: Illegal| EngineError::IllegalMove(format!("{vertex}: {e}")))
    }

    fn genmove(&mut self, black: bool, limits: Limits, options: &SearchOptions, stop: &StopFlag) -> Result<String> {
        self.state.use_options(options);
        let color = if black { Color::BLACK } else { Color::WHITE };
        match self.state.think(color, &limits, stop, Ending::Normal, None).play {
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

    fn final_score(&mut self) -> Result<String> {
        Ok(self.state.final_score().result())
    }

    fn gtp_extra(&mut self, cmd: &Command, _out: &Output, stop: &StopFlag) -> Option<Result<String>> {
        let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
        let board = *self.state.game.board();
        Some(match (cmd.name.as_str(), args.as_slice()) {
            ("final_status_list", [status]) => {
                let settlement = self.state.settlement();
                let stones = board.stones(Color::BLACK) | board.stones(Color::WHITE);
                match status.to_ascii_lowercase().as_str() {
                    "dead" => Ok(self.groups(settlement.dead)),
                    "alive" => Ok(self.groups(stones & !settlement.dead & !settlement.seki)),
                    "seki" => Ok(self.groups(settlement.seki)),
                    _ => Err(EngineError::Syntax(format!("{}: bad arguments {:?}", cmd.name, cmd.args))),
                }
            }
            ("kgs-genmove_cleanup", [color]) => match gtp::parse_color(color) {
                None => Err(EngineError::Syntax(format!("{}: bad arguments {:?}", cmd.name, cmd.args))),
                Some(black) => {
                    // Capture the dead stones before passing: no pass while the opponent
                    // still has dead stones on the board.
                    let color = if black { Color::BLACK } else { Color::WHITE };
                    let limits = Limits::movetime(Duration::from_secs(2));
                    let m = self.state.think(color, &limits, stop, Ending::Cleanup, None).play.unwrap_or(Move::Pass);
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
                "plist/Seki stones/final_status_list seki",
                "string/Final score/final_score",
                "string/Superko rule/sente-superko",
            ]
            .join("\n")),
            ("sente-ownership", []) => {
                // GoGui gfx: INFLUENCE with values from -1 (white) to 1 (black): the
                // ownership map `kata-analyze` and `sente analysis` report, black's view.
                let own = settle_position(&board, self.state.game.komi()).ownership(&board, Color::BLACK);
                let size = board.size();
                let cells: Vec<String> =
                    board.points().zip(own).map(|(p, v)| format!("{} {v:.2}", p.to_gtp(size))).collect();
                Ok(format!("INFLUENCE {}", cells.join(" ")))
            }
            _ if GO_EXTRA.contains(&cmd.name.as_str()) => {
                Err(EngineError::Syntax(format!("{}: bad arguments {:?}", cmd.name, cmd.args)))
            }
            _ => return options::gtp_command(GO_OPTIONS, &mut self.state, cmd),
        })
    }

    fn gtp_extra_commands(&self) -> Vec<&'static str> {
        GO_EXTRA.iter().copied().chain(options::gtp_commands(GO_OPTIONS)).collect()
    }

    fn gtp_analysis(&mut self, cmd: &Command) -> Option<Result<AnalysisJob>> {
        let search = match self.analysis_search(cmd)? {
            Ok(search) => search,
            Err(e) => return Some(Err(e)),
        };
        Some(Ok(Box::new(move |stop: &StopFlag, out: &Output| search.run(&Limits::infinite(), stop, out))))
    }

    fn gtp_streamed_reply(
        &mut self,
        cmd: &Command,
        limits: &dyn Fn(bool) -> Limits,
        out: &Output,
        stop: &StopFlag,
    ) -> bool {
        let Some((format, true)) = analysis_command(&cmd.name) else { return false };
        let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
        let to_move = self.state.game.board().to_move();
        let request = match AnalysisRequest::parse(&args, to_move, format) {
            Ok(r) => r,
            Err(e) => {
                out.line(gtp::failure(
                    cmd.id.as_deref(),
                    &EngineError::Syntax(format!("{}: {e}", cmd.name)).gtp_reply(),
                ));
                return true;
            }
        };
        out.line(gtp::success(cmd.id.as_deref(), "").trim_end());
        let limits = limits(request.color == Color::BLACK);
        let mut writer = AnalysisWriter::new(&self.state.game, request);
        let mut report = |tree: &Mcts, r: &MctsResult, _finished: bool| {
            if let Some(line) = writer.line(tree, r) {
                out.line(line)
            }
        };
        let mut progress = Progress { interval: request.interval, report: &mut report };
        let choice = self.state.think(request.color, &limits, stop, Ending::Normal, Some(&mut progress));
        let played = match choice.play {
            None => "resign".to_string(),
            Some(m) => match self.state.game.play(request.color, m) {
                Ok(()) => self.state.move_text(m),
                Err(e) => format!("resign (internal error: chose an illegal move: {e})"),
            },
        };
        out.line(format!("play {played}"));
        out.line("");
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isready_makes_the_tree_the_searches_then_keep() {
        // `prepare` (UGI's `isready`) allocates the arena of `Hash` and keeps it; the
        // searches of the following moves take that arena over instead of making one.
        let mut s = GoSession::new(None).unwrap();
        // Searches, not the opening book's moves.
        s.state.player.set_book(false);
        let options = SearchOptions { threads: 1, hash_mb: 16 };
        assert_eq!(s.state.player.kept_arena(), None);
        s.prepare(&options);
        let (nodes, address) = s.state.player.kept_arena().expect("a tree after prepare");
        assert_eq!(nodes, MctsSettings::new(1, 16).max_nodes);
        s.prepare(&options);
        assert_eq!(s.state.player.kept_arena(), Some((nodes, address)), "a second isready keeps it");
        let mut moves = Vec::new();
        for _ in 0..3 {
            s.set_position(&StartPosition::StartPos, &moves).unwrap();
            let job = s.search_job(Limits { nodes: Some(300), ..Limits::default() }, &options);
            let outcome = job(&StopFlag::new(), &mut |_| {});
            assert_eq!(outcome.report.nodes, 300);
            assert_eq!(s.state.player.kept_arena(), Some((nodes, address)), "the search used the prepared arena");
            moves.push(outcome.best_move.unwrap());
        }
        // Another Hash: a new arena of the new size.
        let bigger = SearchOptions { threads: 1, hash_mb: 32 };
        s.prepare(&bigger);
        assert_eq!(s.state.player.kept_arena().map(|a| a.0), Some(MctsSettings::new(1, 32).max_nodes));
    }

    #[test]
    fn go_depth_is_answered_with_a_note_and_the_other_limits() {
        let mut s = GoSession::new(Some(5)).unwrap();
        let options = SearchOptions::default();
        let mut reports = Vec::new();
        let limits = Limits { depth: Some(2), nodes: Some(200), ..Limits::default() };
        let outcome = s.search_job(limits, &options)(&StopFlag::new(), &mut |r: &Report| reports.push(r.clone()));
        assert_eq!(reports.len(), 2, "{reports:?}");
        let note = reports[0].info().to_string();
        assert!(note.starts_with("info string go depth 2 is not a limit Go knows"), "{note}");
        assert!(note.ends_with("it searches within the other limits given"), "{note}");
        assert_eq!(outcome.report.nodes, 200);
        assert!(outcome.best_move.is_some());
        // Depth alone: the playouts of a search without a limit, said so.
        let alone = depth_note("Go", 7, &Limits { depth: Some(7), ..Limits::default() }, DEFAULT_PLAYOUTS);
        assert!(alone.contains(&format!("it runs {DEFAULT_PLAYOUTS} playouts instead")), "{alone}");
    }
}
