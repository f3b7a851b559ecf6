//! `sente go-accuracy`: the 9×9 Go move-quality benchmark judged by KataGo (issue 75).
//!
//! The positions (`engine/data/go_accuracy.txt`) come from sente's own games against
//! GNU Go and Pachi (the archives `docs/matches/go-*.tar.xz`), made with `--make`;
//! KataGo's value of every legal move of each position (`engine/data/go_accuracy_labels.txt`)
//! comes from `scripts/go_accuracy_label.py`. A run plays the Go player (the one GTP's
//! `genmove` uses, one thread, `--playouts N` per move) on every labelled position and
//! prints the winrate and score its moves lose against KataGo's best, and how often it
//! plays KataGo's move, by phase, by kind and by split. Positions not yet labelled are
//! skipped and counted. See docs/go.md (the go-accuracy section).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use bitboards::go::sgf;
use bitboards::go::{Board, Color, Game, Move, Superko, bits, neighbours};
use bitboards::rng::splitmix64;
use search::go::mcts::MctsSettings;
use search::go::player::{Ending, GoPlayer};
use search::go::playout::Policy;
use search::{Limits, StopFlag};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::tools::accuracy::progress;
use crate::tools::journal::open_results;
use crate::tools::shard::Shard;

/// The benchmark's positions, built in.
pub const DEFAULT_POSITIONS: &str = include_str!("../../data/go_accuracy.txt");
/// Where [`DEFAULT_POSITIONS`] lives in the repository (for messages).
pub const DEFAULT_PATH: &str = "engine/data/go_accuracy.txt";
/// KataGo's labels of the positions, built in (as many as are labelled so far).
pub const DEFAULT_LABELS: &str = include_str!("../../data/go_accuracy_labels.txt");
/// Where [`DEFAULT_LABELS`] lives in the repository (for messages).
pub const DEFAULT_LABELS_PATH: &str = "engine/data/go_accuracy_labels.txt";

/// The board side.
const SIZE: usize = 9;
/// The phases, by the number of moves played: the opening before [`MIDDLE_FROM`],
/// the endgame from [`ENDGAME_FROM`].
pub const PHASES: [&str; 3] = ["opening", "middle", "endgame"];
/// The first move number of the middle game.
pub const MIDDLE_FROM: usize = 12;
/// The first move number of the endgame.
pub const ENDGAME_FROM: usize = 40;
/// The kinds of position ([`kind`]).
pub const KINDS: [&str; 5] = ["race", "life-death", "connection", "yose", "other"];
/// The splits: every fifth game (by its number in the sorted list of records) is held out.
pub const SPLITS: [&str; 2] = ["tuning", "held-out"];

/// The phase of a position after `ply` moves.
pub fn phase(ply: usize) -> &'static str {
    if ply < MIDDLE_FROM {
        "opening"
    } else if ply < ENDGAME_FROM {
        "middle"
    } else {
        "endgame"
    }
}

/// The kind of a position, a simple rule on the board (the first that holds):
///
/// * `race`: two adjacent groups of opposite colours, each of at least 3 stones
///   with at most 3 liberties (a capturing race);
/// * `life-death`: a group of at least 3 stones with at most 2 liberties;
/// * `connection`: a cutting point — an empty point next to two different groups of
///   one colour, one of which has at most 2 liberties;
/// * `yose`: the endgame phase (move 40 on) or at most 30 empty points (a name of
///   its own, apart from the phase `endgame`);
/// * `other`.
pub fn kind(board: &Board, ply: usize) -> &'static str {
    let mask = board.mask();
    let mut groups: Vec<(Color, u128, u32)> = Vec::new();
    for color in [Color::BLACK, Color::WHITE] {
        let mut left = board.stones(color);
        while left != 0 {
            let Some(p) = bits(left).next() else { break };
            let group = board.group(p);
            left &= !group;
            groups.push((color, group, board.liberties(group).count_ones()));
        }
    }
    let race = groups.iter().any(|&(c, g, l)| {
        g.count_ones() >= 3
            && l <= 3
            && groups
                .iter()
                .any(|&(c2, g2, l2)| c2 != c && g2.count_ones() >= 3 && l2 <= 3 && neighbours(g, mask) & g2 != 0)
    });
    if race {
        return "race";
    }
    if groups.iter().any(|&(_, g, l)| g.count_ones() >= 3 && l <= 2) {
        return "life-death";
    }
    let cut = bits(board.empty()).any(|p| {
        [Color::BLACK, Color::WHITE].into_iter().any(|color| {
            let next: Vec<&(Color, u128, u32)> =
                groups.iter().filter(|&&(c, g, _)| c == color && neighbours(p.bit(), mask) & g != 0).collect();
            next.len() >= 2 && next.iter().any(|&&(_, _, l)| l <= 2)
        })
    });
    if cut {
        return "connection";
    }
    if ply >= ENDGAME_FROM || board.empty().count_ones() <= 30 {
        return "yose";
    }
    "other"
}

/// A position of the benchmark: a line of the positions file.
#[derive(Clone, Debug)]
pub struct Position {
    /// Its id (the labels name it).
    pub id: u64,
    /// The game record it comes from (its path inside the archives).
    pub source: String,
    /// The split of its game: `tuning` or `held-out`.
    pub split: String,
    /// Its phase ([`phase`]).
    pub phase: String,
    /// Its kind ([`kind`]).
    pub kind: String,
    /// The moves from the empty board, Black first, alternating (passes included).
    pub moves: Vec<Move>,
}

impl Position {
    /// The game after its moves, with `komi` and positional superko (sente's rules).
    pub fn game(&self, komi: f64) -> std::result::Result<Game, String> {
        let mut game = Game::new(Board::new(SIZE), komi, Superko::Positional);
        for (i, &m) in self.moves.iter().enumerate() {
            let color = if i % 2 == 0 { Color::BLACK } else { Color::WHITE };
            game.play(color, m).map_err(|e| format!("move {} ({}) is illegal: {e}", i + 1, m.to_gtp(SIZE)))?;
        }
        Ok(game)
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        if self.moves.len().is_multiple_of(2) { Color::BLACK } else { Color::WHITE }
    }

    /// Its line in the positions file.
    pub fn to_line(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(|m| m.to_gtp(SIZE)).collect();
        format!(
            "{} {} {} {} {} {} {}",
            self.id,
            self.source,
            self.moves.len(),
            self.split,
            self.phase,
            self.kind,
            if moves.is_empty() { "-".to_string() } else { moves.join(" ") }
        )
    }
}

/// The positions of a positions file and its komi (`# komi K`). A line that cannot be
/// read is an error naming it; so is a position whose moves are illegal, or whose
/// split, phase or kind is unknown.
pub fn parse_positions(text: &str) -> std::result::Result<(f64, Vec<Position>), String> {
    let mut komi = None;
    let mut positions = Vec::new();
    let mut ids = HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let at = |what: String| format!("line {}: {what}", i + 1);
        let line = line.trim();
        if let Some(k) = line.strip_prefix("# komi ") {
            komi = Some(k.trim().parse::<f64>().map_err(|_| at(format!("'{k}' is not a komi")))?);
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [id, source, ply, split, phase_word, kind_word, moves @ ..] = words.as_slice() else {
            return Err(at("expected 'id source ply split phase kind moves…'".into()));
        };
        let id: u64 = id.parse().map_err(|_| at(format!("'{id}' is not a position id")))?;
        if !ids.insert(id) {
            return Err(at(format!("position {id} appears twice")));
        }
        let ply: usize = ply.parse().map_err(|_| at(format!("'{ply}' is not a move number")))?;
        let moves: Vec<Move> = match moves {
            [] => return Err(at("no moves ('-' for the empty board)".into())),
            ["-"] => Vec::new(),
            moves => moves
                .iter()
                .map(|w| Move::from_gtp(w, SIZE).map_err(|e| at(format!("'{w}': {e}"))))
                .collect::<std::result::Result<_, _>>()?,
        };
        if moves.len() != ply {
            return Err(at(format!("move number {ply}, but {} moves", moves.len())));
        }
        for (word, known) in [(split, &SPLITS[..]), (phase_word, &PHASES[..]), (kind_word, &KINDS[..])] {
            if !known.contains(word) {
                return Err(at(format!("'{word}' is none of {}", known.join(", "))));
            }
        }
        let position = Position {
            id,
            source: source.to_string(),
            split: split.to_string(),
            phase: phase_word.to_string(),
            kind: kind_word.to_string(),
            moves,
        };
        position.game(komi.unwrap_or(7.0)).map_err(&at)?;
        positions.push(position);
    }
    let komi = komi.ok_or("no '# komi K' line")?;
    Ok((komi, positions))
}

/// KataGo's labels of one position: its value of every legal move (pass included),
/// from the side to move.
#[derive(Clone, Debug)]
pub struct Label {
    /// The position's id.
    pub id: u64,
    /// The visits of the root search that chose `best`.
    pub root_visits: u32,
    /// KataGo's best move (its root search).
    pub best: Move,
    /// Every legal move: (move, winrate, score lead), from the side to move.
    pub moves: Vec<(Move, f64, f64)>,
}

impl Label {
    /// The label of `m`: (winrate, score lead).
    pub fn value(&self, m: Move) -> Option<(f64, f64)> {
        self.moves.iter().find(|&&(x, _, _)| x == m).map(|&(_, w, s)| (w, s))
    }

    /// The best winrate and the best score lead among the moves.
    pub fn best_values(&self) -> (f64, f64) {
        let w = self.moves.iter().map(|&(_, w, _)| w).fold(f64::NEG_INFINITY, f64::max);
        let s = self.moves.iter().map(|&(_, _, s)| s).fold(f64::NEG_INFINITY, f64::max);
        (w, s)
    }
}

/// The labels of a labels file, by position id; a line that cannot be read is an
/// error naming it.
pub fn parse_labels(text: &str) -> std::result::Result<HashMap<u64, Label>, String> {
    let mut labels = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let at = |what: String| format!("line {}: {what}", i + 1);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let [id, visits, best, moves @ ..] = words.as_slice() else {
            return Err(at("expected 'id root_visits best move:winrate:score…'".into()));
        };
        let id: u64 = id.parse().map_err(|_| at(format!("'{id}' is not a position id")))?;
        let root_visits: u32 = visits.parse().map_err(|_| at(format!("'{visits}' is not a number of visits")))?;
        let best = Move::from_gtp(best, SIZE).map_err(|e| at(format!("best move '{best}': {e}")))?;
        let mut values = Vec::with_capacity(moves.len());
        for word in moves {
            let bad = || at(format!("'{word}' is not move:winrate:score"));
            let mut parts = word.split(':');
            let (Some(m), Some(w), Some(s), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
                return Err(bad());
            };
            let m = Move::from_gtp(m, SIZE).map_err(|_| bad())?;
            let w: f64 = w.parse().map_err(|_| bad())?;
            let s: f64 = s.parse().map_err(|_| bad())?;
            if !(0.0..=1.0).contains(&w) || !s.is_finite() {
                return Err(bad());
            }
            values.push((m, w, s));
        }
        if !values.iter().any(|&(m, _, _)| m == best) {
            return Err(at(format!("the best move {} has no value", best.to_gtp(SIZE))));
        }
        if labels.insert(id, Label { id, root_visits, best, moves: values }).is_some() {
            return Err(at(format!("position {id} is labelled twice")));
        }
    }
    Ok(labels)
}

/// One position played, a line of the `--out` results file.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Played {
    /// The position's id.
    id: u64,
    /// The move played (GTP), or `resign`.
    played: String,
    /// KataGo's best move.
    best: String,
    /// The winrate the move loses against the best-valued move (none for a resignation).
    winrate_loss: Option<f64>,
    /// The score the move loses against the best-valued move.
    score_loss: Option<f64>,
    /// Wall time of the choice in milliseconds (runs before it was kept have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ms: Option<f64>,
}

/// The sums of one group of positions (a phase, a kind, a split).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Group {
    /// Positions judged.
    pub positions: u64,
    /// Sum of the winrate losses.
    pub winrate_loss: f64,
    /// Sum of the score losses.
    pub score_loss: f64,
    /// Moves equal to KataGo's best.
    pub best: u64,
    /// Resignations (not judged).
    pub resigned: u64,
}

impl Group {
    fn add(&mut self, p: &Played) {
        match (p.winrate_loss, p.score_loss) {
            (Some(w), Some(s)) => {
                self.positions += 1;
                self.winrate_loss += w;
                self.score_loss += s;
                self.best += u64::from(p.played == p.best);
            }
            _ => self.resigned += 1,
        }
    }

    /// The group's figures as JSON (means, not sums).
    fn to_json(&self) -> serde_json::Value {
        let n = self.positions.max(1) as f64;
        json!({
            "positions": self.positions, "mean_winrate_loss": self.winrate_loss / n,
            "mean_score_loss": self.score_loss / n, "best_share": self.best as f64 / n,
            "resigned": self.resigned,
        })
    }

    fn row(&self, name: &str) -> String {
        let n = self.positions.max(1) as f64;
        format!(
            "{name:<12} {:>6} {:>9.2} {:>9.2} {:>7.1} %{}\n",
            self.positions,
            100.0 * self.winrate_loss / n,
            self.score_loss / n,
            100.0 * self.best as f64 / n,
            if self.resigned > 0 { format!("  ({} resigned)", self.resigned) } else { String::new() }
        )
    }
}

/// The tally of a run: all positions, and by phase, kind and split.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Every position played.
    pub all: Group,
    /// By phase, kind and split.
    pub by: BTreeMap<(&'static str, String), Group>,
    /// Positions without labels (skipped).
    pub unlabelled: u64,
    /// The choices timed, and their wall time in milliseconds (not in the JSON tally:
    /// a time is no result).
    pub timed: (u64, f64),
}

impl Tally {
    fn add(&mut self, position: &Position, p: &Played) {
        self.all.add(p);
        if let Some(ms) = p.ms {
            self.timed.0 += 1;
            self.timed.1 += ms;
        }
        for (what, value) in [("phase", &position.phase), ("kind", &position.kind), ("split", &position.split)] {
            self.by.entry((what, value.clone())).or_default().add(p);
        }
    }

    /// The printed table.
    pub fn report(&self) -> String {
        let mut text = format!("{:<12} {:>6} {:>9} {:>9} {:>9}\n", "", "moves", "winrate", "score", "= best");
        text.push_str(&format!("{:<12} {:>6} {:>9} {:>9} {:>9}\n", "", "", "loss %", "loss", ""));
        text.push_str(&self.all.row("all"));
        for (what, names) in [("phase", &PHASES[..]), ("kind", &KINDS[..]), ("split", &SPLITS[..])] {
            for name in names {
                if let Some(g) = self.by.get(&(what, name.to_string())) {
                    text.push_str(&g.row(name));
                }
            }
        }
        let _ = writeln!(text, "{} positions without labels skipped", self.unlabelled);
        if let Some(ms) = self.ms_per_move() {
            let _ = writeln!(text, "mean time a move: {ms:.1} ms (wall)");
        }
        text
    }

    /// The mean wall time of a choice in milliseconds, if any was timed.
    pub fn ms_per_move(&self) -> Option<f64> {
        (self.timed.0 > 0).then(|| self.timed.1 / self.timed.0 as f64)
    }

    /// The tally as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        let mut by = serde_json::Map::new();
        for ((what, name), g) in &self.by {
            let entry = by.entry(what.to_string()).or_insert_with(|| json!({}));
            if let Some(map) = entry.as_object_mut() {
                map.insert(name.clone(), g.to_json());
            }
        }
        json!({ "all": self.all.to_json(), "by": by, "unlabelled": self.unlabelled })
    }
}

/// The player's settings a run may change from the engine's defaults, as the UGI+
/// options `Playouts`, `MoveModel`, `LastGoodReply` and `Book` change them (the book
/// is off unless asked for: the benchmark judges the search, and the book's moves are
/// the judge's own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerSettings {
    /// The playout policy.
    pub policy: Policy,
    /// The priors use the move model.
    pub move_model: bool,
    /// Heavy playouts play the last good replies.
    pub last_good_reply: bool,
    /// The opening book's move is played where it has one.
    pub book: bool,
}

impl Default for PlayerSettings {
    fn default() -> Self {
        let d = MctsSettings::default();
        PlayerSettings { policy: d.policy, move_model: d.move_model, last_good_reply: d.last_good_reply, book: false }
    }
}

impl PlayerSettings {
    /// `playouts light`, `move-model false`: the settings that differ from the
    /// defaults, empty when none does.
    pub fn describe(&self) -> String {
        let d = PlayerSettings::default();
        let mut words = Vec::new();
        if self.policy != d.policy {
            words.push(format!("playouts {}", self.policy.name()));
        }
        if self.move_model != d.move_model {
            words.push(format!("move-model {}", self.move_model));
        }
        if self.last_good_reply != d.last_good_reply {
            words.push(format!("last-good-reply {}", self.last_good_reply));
        }
        if self.book != d.book {
            words.push(format!("book {}", self.book));
        }
        words.join(", ")
    }
}

/// An outside engine playing the positions in place of the Go player (`--engine`),
/// started by the arena (`crate::arena::start_outside_go_player`: the engines are the
/// arena's).
pub trait OutsidePlayer {
    /// The engine and its limit in words: `pachi (./pachi -t =18000), the limit of
    /// its command line`.
    fn describe(&self) -> String;
    /// Its move (a GTP vertex or `pass`) after `moves` (GTP vertices, Black first)
    /// from the empty 9×9 board; `None` if it resigned. An error if no answer comes
    /// within `limit` or it is malformed.
    fn choose(&mut self, moves: &[String], limit: Duration) -> Result<Option<String>>;
    /// Ends the engine.
    fn quit(self: Box<Self>);
}

/// Starts the engine of an `--engine` text for 9×9 Go at `komi`, asked with `st` a
/// move (GTP `time_settings`, UGI+ `go movetime`) or, without it, `playouts` (UGI+
/// `go nodes`; a GTP engine plays by its own command line).
pub type StartOutsidePlayer =
    fn(spec: &str, komi: f64, st: Option<Duration>, playouts: u64) -> Result<Box<dyn OutsidePlayer>>;

/// The outside engine of a run (`--engine`, `--st`) and how it is started.
#[derive(Clone)]
pub struct EngineRun {
    /// The engine, as the arena's `--engine` names it.
    pub spec: String,
    /// Its time a move.
    pub st: Option<Duration>,
    /// The arena's starter.
    pub start: StartOutsidePlayer,
}

/// The longest an outside engine may take over one position, beyond its time a move.
const ENGINE_MARGIN: Duration = Duration::from_secs(60);

/// Options of a benchmark run.
pub struct RunOptions {
    /// The player's settings.
    pub player: PlayerSettings,
    /// An outside engine plays instead of the player.
    pub engine: Option<EngineRun>,
    /// Playouts per move.
    pub playouts: u64,
    /// The player's seed is advanced this many times before each search.
    pub seed: u64,
    /// Tree size in MiB.
    pub hash_mb: usize,
    /// Only the first this many labelled positions.
    pub count: Option<usize>,
    /// Only this shard's labelled positions.
    pub shard: Option<Shard>,
    /// Keep each position's result in this file (JSON lines after a `{"run": …}` line).
    pub out: Option<PathBuf>,
    /// Continue the run whose results are in `out`.
    pub resume: bool,
    /// Print the tally as JSON instead of the table.
    pub json: bool,
}

/// The move the player chooses in `position` (None: it resigns).
fn choose(game: &Game, color: Color, options: &RunOptions) -> Option<Move> {
    let mut player = GoPlayer::new();
    player.set_resources(1, options.hash_mb);
    player.set_policy(options.player.policy);
    player.set_move_model(options.player.move_model);
    player.set_last_good_reply(options.player.last_good_reply);
    player.set_book(options.player.book);
    for _ in 0..options.seed {
        player.next_seed();
    }
    let limits = Limits { nodes: Some(options.playouts), ..Limits::default() };
    player.think(game, color, &limits, &StopFlag::new(), Ending::Normal, None).play
}

/// Plays every labelled position of `positions` (from `name`) and prints the tally to
/// `out`. Returns the tally, or `None` if stopped.
pub fn run(
    name: &str,
    positions_text: &str,
    labels_text: &str,
    options: &RunOptions,
    stop: &AtomicBool,
    out: &mut impl Write,
) -> Result<Option<Tally>> {
    let (komi, positions) =
        parse_positions(positions_text).map_err(anyhow::Error::msg).with_context(|| name.to_string())?;
    let labels = parse_labels(labels_text).map_err(anyhow::Error::msg).context("the labels")?;
    let ids: HashSet<u64> = positions.iter().map(|p| p.id).collect();
    if let Some(id) = labels.keys().find(|id| !ids.contains(id)) {
        bail!("the labels name position {id}, which {name} does not hold");
    }
    if options.playouts == 0 {
        bail!("--playouts must be at least 1");
    }
    let mut tally = Tally {
        unlabelled: positions.iter().filter(|p| !labels.contains_key(&p.id)).count() as u64,
        ..Tally::default()
    };
    let shard = options.shard.unwrap_or(Shard::WHOLE);
    let mut mine: Vec<&Position> = positions.iter().filter(|p| labels.contains_key(&p.id)).collect();
    if let Some(n) = options.count {
        mine.truncate(n);
    }
    let mine: Vec<&Position> =
        mine.into_iter().enumerate().filter(|(k, _)| *k as u64 % shard.count == shard.index).map(|(_, p)| p).collect();
    if mine.is_empty() {
        bail!("{name}: no labelled positions to play");
    }
    // Who plays the positions: the outside engine (started first: the results file
    // names it), or this build's player.
    let mut engine = match &options.engine {
        None => None,
        Some(run) => Some((run.start)(&run.spec, komi, run.st, options.playouts)?),
    };
    let engine_words = engine.as_ref().map(|e| e.describe());
    let mut results = match &options.out {
        Some(file) => {
            let mut header = json!({
                "command": "go-accuracy", "positions": name, "labelled": labels.len(),
                "count": mine.len(), "playouts": options.playouts, "seed": options.seed,
                "threads": 1, "hash_mb": options.hash_mb,
            });
            if let (Some(shard), Some(map)) = (options.shard, header.as_object_mut()) {
                map.insert("shard".into(), shard.to_string().into());
            }
            if let (false, Some(map)) = (options.player.describe().is_empty(), header.as_object_mut()) {
                map.insert("player".into(), options.player.describe().into());
            }
            if let (Some(words), Some(map)) = (&engine_words, header.as_object_mut()) {
                map.insert("engine".into(), words.clone().into());
            }
            Some(open_results::<Played>(file, header, options.resume)?)
        }
        None => None,
    };
    let mut done = 0;
    if let Some((_, played)) = &results {
        for (i, p) in played.iter().enumerate() {
            let Some(position) = mine.get(i).filter(|q| q.id == p.id) else {
                bail!(
                    "the results file's line {} is not position {} of the run",
                    i + 2,
                    mine.get(i).map_or(0, |q| q.id)
                );
            };
            tally.add(position, p);
        }
        done = played.len();
    }
    let bar = progress(mine.len() as u64);
    bar.set_position(done as u64);
    for position in mine.iter().skip(done) {
        if stop.load(Ordering::Relaxed) {
            bar.finish_and_clear();
            writeln!(out, "stopped at position {}: --out FILE and --resume continue a run", position.id)?;
            return Ok(None);
        }
        let Some(label) = labels.get(&position.id) else { continue };
        let game = position.game(komi).map_err(anyhow::Error::msg)?;
        let color = position.to_move();
        let started = Instant::now();
        let chosen = match &mut engine {
            None => choose(&game, color, options),
            Some(engine) => {
                let limit = options.engine.as_ref().and_then(|e| e.st).unwrap_or_default() + ENGINE_MARGIN;
                let moves: Vec<String> = position.moves.iter().map(|m| m.to_gtp(SIZE)).collect();
                match engine.choose(&moves, limit).with_context(|| format!("position {}", position.id))? {
                    None => None,
                    Some(text) => Some(
                        Move::from_gtp(&text, SIZE)
                            .map_err(|e| anyhow!("position {}: the engine's move '{text}': {e}", position.id))?,
                    ),
                }
            }
        };
        let ms = Some(started.elapsed().as_secs_f64() * 1000.0);
        let played = match chosen {
            None => Played {
                id: position.id,
                played: "resign".into(),
                best: label.best.to_gtp(SIZE),
                winrate_loss: None,
                score_loss: None,
                ms,
            },
            Some(m) => {
                let (w, s) = label.value(m).with_context(|| {
                    format!("position {}: the player's move {} has no KataGo label", position.id, m.to_gtp(SIZE))
                })?;
                let (best_w, best_s) = label.best_values();
                Played {
                    id: position.id,
                    played: m.to_gtp(SIZE),
                    best: label.best.to_gtp(SIZE),
                    winrate_loss: Some(best_w - w),
                    score_loss: Some(best_s - s),
                    ms,
                }
            }
        };
        tally.add(position, &played);
        if let Some((journal, _)) = results.as_mut() {
            journal.append(&serde_json::to_string(&played)?)?;
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(engine) = engine {
        engine.quit();
    }
    let of_shard = match options.shard {
        Some(shard) => format!("shard {shard}, "),
        None => String::new(),
    };
    if options.json {
        let record = json!({
            "command": "go-accuracy", "positions": name, "shard": options.shard.map(|s| s.to_string()),
            "playouts": options.playouts, "seed": options.seed, "threads": 1, "hash_mb": options.hash_mb,
            "player": options.player.describe(), "tally": tally.to_json(),
            "engine": engine_words,
            "ms_per_move": tally.ms_per_move(),
        });
        writeln!(out, "{record}")?;
    } else {
        let settings = match options.player.describe() {
            d if d.is_empty() => String::new(),
            d => format!(" ({d})"),
        };
        let played = tally.all.positions + tally.all.resigned;
        match &engine_words {
            None => writeln!(
                out,
                "{name}: {of_shard}{played} labelled positions played, {} playouts per move, 1 thread{settings}",
                options.playouts
            )?,
            Some(words) => writeln!(out, "{name}: {of_shard}{played} labelled positions played by {words}")?,
        }
        write!(out, "{}", tally.report())?;
    }
    Ok(Some(tally))
}

/// `sente go-accuracy --merge`: the tally of one run played in shards (`--shard i/n
/// --out FILE`, each finished), from the shards' results files, printed as the
/// unsharded run prints it; `positions_text` holds the run's positions. The files must
/// be the shards of one run, each once, all of them.
pub fn merge(paths: &[PathBuf], positions_text: &str, json: bool, out: &mut impl Write) -> Result<Tally> {
    let (_, positions) = parse_positions(positions_text).map_err(anyhow::Error::msg).context("the positions")?;
    let by_id: HashMap<u64, &Position> = positions.iter().map(|p| (p.id, p)).collect();
    let mut run: Option<serde_json::Value> = None;
    let mut seen: Vec<Option<PathBuf>> = Vec::new();
    let mut tally = Tally::default();
    for path in paths {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut lines = text.lines();
        let header = run_header(&path.display().to_string(), lines.next())?;
        let shard = header
            .get("shard")
            .and_then(|v| v.as_str())
            .with_context(|| format!("{}: not the results of a shard (--shard i/n)", path.display()))?;
        let shard = Shard::parse(shard, &path.display().to_string())?;
        let count = header.get("count").and_then(|v| v.as_u64()).unwrap_or(0);
        let common = run_settings(&header);
        match &run {
            None => {
                run = Some(common);
                seen = vec![None; shard.count as usize];
            }
            Some(first) if *first != common || seen.len() as u64 != shard.count => {
                bail!("{}: the shard of another run ({header}), not of {first}", path.display());
            }
            Some(_) => {}
        }
        if let Some(Some(other)) = seen.get(shard.index as usize) {
            bail!("{}: shard {shard} is given twice (also {})", path.display(), other.display());
        }
        seen[shard.index as usize] = Some(path.clone());
        let mut played = 0;
        for (i, line) in lines.enumerate() {
            let p: Played = serde_json::from_str(line)
                .with_context(|| format!("{} line {}: not a result of this run", path.display(), i + 2))?;
            let position = by_id.get(&p.id).with_context(|| {
                format!("{} line {}: position {} is not in the positions file", path.display(), i + 2, p.id)
            })?;
            tally.add(position, &p);
            played += 1;
        }
        if played != count {
            bail!("{}: shard {shard} holds {played} of its {count} results: finish it with --resume", path.display());
        }
    }
    let run = run.context("--merge needs the shards' results files")?;
    if let Some(missing) = seen.iter().position(Option::is_none) {
        bail!("shard {missing}/{} is missing", seen.len());
    }
    let labelled = run.get("labelled").and_then(|v| v.as_u64()).unwrap_or(0);
    tally.unlabelled = (positions.len() as u64).saturating_sub(labelled);
    let field = |key: &str| run.get(key).cloned().unwrap_or(serde_json::Value::Null);
    if json {
        let record = json!({
            "command": "go-accuracy", "positions": field("positions"), "shards": seen.len(),
            "playouts": field("playouts"), "seed": field("seed"), "threads": 1, "hash_mb": field("hash_mb"),
            "player": field("player").as_str().unwrap_or(""), "tally": tally.to_json(),
        });
        writeln!(out, "{record}")?;
    } else {
        let settings = match field("player").as_str() {
            Some(d) if !d.is_empty() => format!(" ({d})"),
            _ => String::new(),
        };
        writeln!(
            out,
            "{}: {} shards, {} labelled positions played, {} playouts per move, 1 thread{settings}",
            field("positions").as_str().unwrap_or("?"),
            seen.len(),
            tally.all.positions + tally.all.resigned,
            field("playouts"),
        )?;
        write!(out, "{}", tally.report())?;
    }
    Ok(tally)
}

/// The settings of a run from the first line of its `--out` file `path` (`{"run": …}`).
fn run_header(path: &str, first_line: Option<&str>) -> Result<serde_json::Value> {
    first_line
        .and_then(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .and_then(|v| v.get("run").cloned())
        .with_context(|| format!("{path}: its first line is not a go-accuracy run ({{\"run\": …}})"))
}

/// A run's header without what differs between its shards (`shard`, `count`): equal
/// for every shard of one run.
fn run_settings(header: &serde_json::Value) -> serde_json::Value {
    let mut common = header.clone();
    if let Some(map) = common.as_object_mut() {
        map.remove("shard");
        map.remove("count");
    }
    common
}

/// The results of a run (its `--out` file, or a sharded run's files joined by commas)
/// by position, and the run's words (its engine, or its playouts and seed). Every file
/// must have been played on the positions file `positions_name` (its header's
/// `positions`), the files of one run with the same settings, and no position twice.
fn read_results(files: &str, positions_name: &str) -> Result<(String, HashMap<u64, Played>)> {
    let (mut words, mut played) = (String::new(), HashMap::new());
    let mut first: Option<serde_json::Value> = None;
    for path in files.split(',') {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
        let mut lines = text.lines();
        let run = run_header(path, lines.next())?;
        let played_on = run.get("positions").and_then(|v| v.as_str()).unwrap_or("?");
        if played_on != positions_name {
            bail!("{path} was played on the positions of {played_on}, not {positions_name} (give that file)");
        }
        let common = run_settings(&run);
        match &first {
            None => first = Some(common),
            Some(settings) if *settings != common => bail!("{path}: another run ({run}) than {settings}"),
            Some(_) => {}
        }
        words = match (run.get("engine").and_then(|v| v.as_str()), run.get("playouts"), run.get("seed")) {
            (Some(engine), _, _) => engine.to_string(),
            (None, Some(n), Some(seed)) => format!("sente, {n} playouts, seed {seed}"),
            _ => path.to_string(),
        };
        for (i, line) in lines.enumerate() {
            let p: Played =
                serde_json::from_str(line).with_context(|| format!("{path} line {}: not a result", i + 2))?;
            let id = p.id;
            if played.insert(id, p).is_some() {
                bail!("{path} line {}: position {id} is given twice in {files}", i + 2);
            }
        }
    }
    Ok((words, played))
}

/// The positions whose best move KataGo values between these winrates for the side to
/// move are *contested* in `--compare`: neither side has the game in hand.
const CONTESTED: (f64, f64) = (0.2, 0.9);

/// `sente go-accuracy --compare A B`: two runs paired on the positions both played
/// (neither resigned), printed as a table: each one's mean winrate and score loss by
/// phase, kind, split and on the contested positions ([`CONTESTED`]), and how many
/// positions each lost at least 0.1 less winrate on; then each one's blunders (more
/// than 0.2 lost).
pub fn compare(runs: [&str; 2], positions: (&str, &str), labels_text: &str, out: &mut impl Write) -> Result<()> {
    let (positions_name, positions_text) = positions;
    let (_, positions) = parse_positions(positions_text).map_err(anyhow::Error::msg).context("the positions")?;
    let labels = parse_labels(labels_text).map_err(anyhow::Error::msg).context("the labels")?;
    let (a_words, a) = read_results(runs[0], positions_name)?;
    let (b_words, b) = read_results(runs[1], positions_name)?;
    // Per group: positions, both sides' loss sums, and the positions each did better on.
    let mut groups: BTreeMap<String, (u64, [f64; 4], [u64; 2])> = BTreeMap::new();
    let mut blunders = [0u64; 2];
    for position in &positions {
        let (Some(pa), Some(pb)) = (a.get(&position.id), b.get(&position.id)) else { continue };
        let (Some(wa), Some(sa), Some(wb), Some(sb)) = (pa.winrate_loss, pa.score_loss, pb.winrate_loss, pb.score_loss)
        else {
            continue;
        };
        let best = labels.get(&position.id).map_or(0.0, |l| l.best_values().0);
        let contested = (CONTESTED.0..=CONTESTED.1).contains(&best);
        let mut names = vec!["all".to_string(), position.phase.clone(), position.kind.clone(), position.split.clone()];
        if contested {
            names.push("contested".into());
            names.push(format!("contested {}", position.phase));
        }
        for name in names {
            let g = groups.entry(name).or_default();
            g.0 += 1;
            for (sum, value) in g.1.iter_mut().zip([wa, wb, sa, sb]) {
                *sum += value;
            }
            g.2[0] += u64::from(wb > wa + 0.1);
            g.2[1] += u64::from(wa > wb + 0.1);
        }
        blunders[0] += u64::from(wa > 0.2);
        blunders[1] += u64::from(wb > 0.2);
    }
    let Some(&(n, ..)) = groups.get("all") else { bail!("the two runs played no position in common") };
    writeln!(out, "A: {a_words}\nB: {b_words}\n{n} positions both played (neither resigned)")?;
    writeln!(
        out,
        "{:<20} {:>5} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9}",
        "", "moves", "A loss", "B loss", "A score", "B score", "A better", "B better"
    )?;
    let mut order: Vec<String> = vec!["all".into()];
    order.extend(PHASES.iter().chain(&KINDS).chain(&SPLITS).map(|s| s.to_string()));
    order.push("contested".into());
    order.extend(PHASES.iter().map(|p| format!("contested {p}")));
    for name in order {
        let Some((n, sums, better)) = groups.get(&name) else { continue };
        let mean = |sum: f64| sum / *n as f64;
        writeln!(
            out,
            "{name:<20} {n:>5} {:>7.2}% {:>7.2}% {:>8.2} {:>8.2} {:>9} {:>9}",
            100.0 * mean(sums[0]),
            100.0 * mean(sums[1]),
            mean(sums[2]),
            mean(sums[3]),
            better[0],
            better[1]
        )?;
    }
    writeln!(out, "blunders (a move losing more than 0.2 winrate): A {}, B {}", blunders[0], blunders[1])?;
    Ok(())
}

/// The SGF files under `paths` (files, and folders searched through), sorted.
fn sgf_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut stack: Vec<PathBuf> = paths.to_vec();
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).with_context(|| format!("cannot read {}", path.display()))? {
                stack.push(entry?.path());
            }
        } else if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Whether a player's name is one of the outside engines the positions come from.
fn is_opponent(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    name.contains("gnugo") || name.contains("pachi")
}

/// The moves of a record if it is a 9×9 game between sente and GNU Go or Pachi from
/// the empty board, komi 7, Black first and alternating, legal under sente's rules.
fn record_moves(text: &str) -> Option<Vec<Move>> {
    let game = sgf::parse(text).ok()?;
    let names = [game.black.as_deref().unwrap_or(""), game.white.as_deref().unwrap_or("")];
    if game.size != SIZE || !game.setup.is_empty() || game.komi != Some(7.0) {
        return None;
    }
    if is_opponent(names[0]) == is_opponent(names[1]) {
        return None;
    }
    let mut replay = Game::new(Board::new(SIZE), 7.0, Superko::Positional);
    for (i, &(color, m)) in game.moves.iter().enumerate() {
        if color != if i % 2 == 0 { Color::BLACK } else { Color::WHITE } || replay.play(color, m).is_err() {
            return None;
        }
    }
    Some(game.moves.iter().map(|&(_, m)| m).collect())
}

/// A `--make` run.
pub struct MakeRun {
    /// The game records (files or folders).
    pub games: Vec<PathBuf>,
    /// The folder the records' sources are named relative to.
    pub root: PathBuf,
    /// Positions taken from each game.
    pub per_game: usize,
    /// The seed of the choice.
    pub seed: u64,
}

/// The positions of `run`: from every record (sorted by path; game `g` is held out
/// when `g mod 5 = 4`), `per_game` move numbers drawn without replacement with weight 1
/// in the opening, 3 in the middle game and 2 in the endgame, never just after a pass;
/// a position (its moves) already taken from another game is not taken again; then all
/// shuffled and numbered. Returns the positions and the number of games used.
pub fn make_positions(run: &MakeRun) -> Result<(Vec<Position>, usize)> {
    let files = sgf_files(&run.games)?;
    let mut rng = splitmix64(run.seed);
    let mut next = move || {
        rng = splitmix64(rng);
        rng
    };
    let mut seen = HashSet::new();
    let mut positions = Vec::new();
    let mut games = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
        let Some(moves) = record_moves(&text) else { continue };
        let source = file.strip_prefix(&run.root).unwrap_or(file).display().to_string().replace(' ', "_");
        let split = if games % 5 == 4 { "held-out" } else { "tuning" };
        games += 1;
        let mut candidates: Vec<(usize, u64)> = (0..moves.len())
            .filter(|&ply| ply == 0 || moves[ply - 1] != Move::Pass)
            .map(|ply| (ply, [1, 3, 2][PHASES.iter().position(|&p| p == phase(ply)).unwrap_or(0)]))
            .collect();
        for _ in 0..run.per_game {
            let total: u64 = candidates.iter().map(|&(_, w)| w).sum();
            if total == 0 {
                break;
            }
            let mut pick = next() % total;
            let Some(k) = candidates.iter().position(|&(_, w)| {
                if pick < w {
                    true
                } else {
                    pick -= w;
                    false
                }
            }) else {
                break;
            };
            let (ply, _) = candidates.swap_remove(k);
            let prefix = moves[..ply].to_vec();
            if !seen.insert(prefix.clone()) {
                continue;
            }
            let mut game = Game::new(Board::new(SIZE), 7.0, Superko::Positional);
            for (i, &m) in prefix.iter().enumerate() {
                let color = if i % 2 == 0 { Color::BLACK } else { Color::WHITE };
                game.play(color, m).map_err(|e| anyhow::anyhow!("{}: move {}: {e}", file.display(), i + 1))?;
            }
            positions.push(Position {
                id: 0,
                source: source.clone(),
                split: split.to_string(),
                phase: phase(ply).to_string(),
                kind: kind(game.board(), ply).to_string(),
                moves: prefix,
            });
        }
    }
    // A seeded shuffle (Fisher-Yates), so that labelling in file order labels a
    // random part first.
    for i in (1..positions.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        positions.swap(i, j);
    }
    for (id, p) in positions.iter_mut().enumerate() {
        p.id = id as u64;
    }
    Ok((positions, games))
}

/// The positions file's text.
pub fn positions_text(run: &MakeRun, positions: &[Position], games: usize) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# sente go-accuracy positions (sente go-accuracy --make, seed {}, {} per game, {games} games): \
         id source move_number split phase kind moves",
        run.seed, run.per_game
    );
    let _ = writeln!(
        text,
        "# moves: GTP vertices from the empty 9x9 board, Black first, alternating ('-': none); \
         area scoring, positional superko; phase: opening < {MIDDLE_FROM} <= middle < {ENDGAME_FROM} <= endgame"
    );
    let _ = writeln!(text, "# komi 7");
    for p in positions {
        let _ = writeln!(text, "{}", p.to_line());
    }
    text
}

/// `sente go-accuracy`'s command line.
#[derive(clap::Args)]
pub struct GoAccuracyArgs {
    /// The positions (default: the built-in engine/data/go_accuracy.txt).
    pub file: Option<String>,
    /// KataGo's labels (default: the built-in engine/data/go_accuracy_labels.txt).
    #[arg(long)]
    pub labels: Option<String>,
    /// Playouts per move.
    #[arg(long, default_value_t = 1000)]
    pub playouts: u64,
    /// The player's seed is advanced this many times before each search (0: the seed
    /// of GTP's first genmove).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Tree size in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// The playout policy (light or heavy; default: the engine's, as UGI+'s
    /// `Playouts`).
    #[arg(long = "playout-policy")]
    pub playout_policy: Option<String>,
    /// Whether the priors use the move model (default: the engine's).
    #[arg(long = "move-model")]
    pub move_model: Option<bool>,
    /// Whether heavy playouts play the last good replies (default: the engine's).
    #[arg(long = "last-good-reply")]
    pub last_good_reply: Option<bool>,
    /// An outside engine plays the positions instead of sente's player, as the
    /// arena's --engine names it: "name=pachi cmd='./pachi -t =18000' proto=gtp"
    /// (GTP: clear_board, komi and the moves; UGI+: position startpos moves).
    #[arg(long)]
    pub engine: Option<String>,
    /// The engine's time a move in seconds (default: UGI+ engines get --playouts as
    /// go nodes, GTP engines their command line's limit).
    #[arg(long, requires = "engine")]
    pub st: Option<f64>,
    /// Whether the opening book's move is played where it has one, as UGI+'s `Book`
    /// (default: false whatever the engine's default: the benchmark judges the search,
    /// and the book's moves are the judge's own).
    #[arg(long)]
    pub book: Option<bool>,
    /// Only the first N labelled positions.
    #[arg(long)]
    pub count: Option<usize>,
    /// Only the labelled positions k with k mod n = i, e.g. 0/4.
    #[arg(long)]
    pub shard: Option<String>,
    /// Keep each position's result in this file as it is played (JSON lines after a
    /// {"run": …} line naming the run).
    #[arg(long, conflicts_with = "make")]
    pub out: Option<PathBuf>,
    /// Continue the run whose results are in --out.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Print the tally as one JSON record instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Print the tally of one run played in shards from the shards' --out files (the
    /// positions are FILE's, the built-in ones by default).
    #[arg(long, num_args = 1.., conflicts_with_all = ["make", "out", "shard", "count"])]
    pub merge: Vec<PathBuf>,
    /// Pair two runs' --out files (a sharded run's files joined by commas) on the
    /// positions both played and print each one's losses side by side.
    #[arg(long, num_args = 2, value_names = ["A", "B"], conflicts_with_all = ["make", "out", "shard", "count", "merge", "json", "engine", "book"])]
    pub compare: Vec<String>,
    /// Make the positions file FILE from the game records given with --games.
    #[arg(long, conflicts_with = "file", requires = "games")]
    pub make: Option<PathBuf>,
    /// The game records (SGF files or folders, searched through) for --make.
    #[arg(long, num_args = 1..)]
    pub games: Vec<PathBuf>,
    /// The folder the records' sources are named from (--make).
    #[arg(long, default_value = ".")]
    pub root: PathBuf,
    /// Positions drawn from each game (--make).
    #[arg(long, default_value_t = 2)]
    pub per_game: usize,
    /// The seed of the drawing (--make).
    #[arg(long, default_value_t = 1)]
    pub make_seed: u64,
}

/// Runs `sente go-accuracy` (a run, or `--make`); `start_engine` starts the outside
/// engine of `--engine` (`crate::arena::start_outside_go_player`).
pub fn main(args: GoAccuracyArgs, start_engine: StartOutsidePlayer) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    if let Some(path) = &args.make {
        let run = MakeRun { games: args.games, root: args.root, per_game: args.per_game, seed: args.make_seed };
        let (positions, games) = make_positions(&run)?;
        if positions.is_empty() {
            bail!("no games of sente against GNU Go or Pachi in the records given");
        }
        write_new(path, &positions_text(&run, &positions, games))?;
        writeln!(stdout, "{}: {} positions from {games} games", path.display(), positions.len())?;
        return Ok(());
    }
    let read = |path: &str| std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"));
    let (name, positions) = match &args.file {
        Some(path) => (path.clone(), read(path)?),
        None => (DEFAULT_PATH.to_string(), DEFAULT_POSITIONS.to_string()),
    };
    if !args.merge.is_empty() {
        return merge(&args.merge, &positions, args.json, &mut stdout).map(|_| ());
    }
    let labels = match &args.labels {
        Some(path) => read(path)?,
        None => DEFAULT_LABELS.to_string(),
    };
    if let [a, b] = args.compare.as_slice() {
        return compare([a, b], (&name, &positions), &labels, &mut stdout);
    }
    let stop = crate::tools::interrupt::stop_flag();
    let shard = args.shard.map(|s| Shard::parse(&s, "--shard")).transpose()?;
    let defaults = PlayerSettings::default();
    let player = PlayerSettings {
        policy: match &args.playout_policy {
            Some(name) => Policy::parse(name).map_err(anyhow::Error::msg).context("--playout-policy")?,
            None => defaults.policy,
        },
        move_model: args.move_model.unwrap_or(defaults.move_model),
        last_good_reply: args.last_good_reply.unwrap_or(defaults.last_good_reply),
        book: args.book.unwrap_or(defaults.book),
    };
    let engine = match &args.engine {
        None => None,
        Some(text) => {
            let st = match args.st {
                None => None,
                Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
                Some(t) => bail!("--st {t}: a time above 0 seconds"),
            };
            Some(EngineRun { spec: text.clone(), st, start: start_engine })
        }
    };
    let options = RunOptions {
        player,
        engine,
        playouts: args.playouts,
        seed: args.seed,
        hash_mb: args.hash,
        count: args.count,
        shard,
        out: args.out,
        resume: args.resume,
        json: args.json,
    };
    run(&name, &positions, &labels, &options, &stop, &mut stdout).map(|_| ())
}

/// Writes `text` to `path`, which must not hold data yet.
fn write_new(path: &Path, text: &str) -> Result<()> {
    if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
        bail!("{} already holds data: --make writes a new file", path.display());
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Our legal moves in `position` (pass included), as GTP words, sorted.
    fn our_legal_moves(position: &Position, komi: f64) -> Vec<String> {
        let game = position.game(komi).expect("the built-in positions replay");
        let mut moves: Vec<String> =
            bits(game.legal_points(position.to_move())).map(|p| Move::Play(p).to_gtp(SIZE)).collect();
        moves.push("pass".into());
        moves.sort();
        moves
    }

    #[test]
    fn the_data_files_parse() {
        let (komi, positions) = parse_positions(DEFAULT_POSITIONS).expect("the positions parse");
        assert_eq!(komi, 7.0);
        assert!(positions.len() >= 1000, "{} positions", positions.len());
        for what in PHASES.iter().chain(&SPLITS) {
            assert!(positions.iter().any(|p| p.phase == *what || p.split == *what), "no position of {what}");
        }
        let labels = parse_labels(DEFAULT_LABELS).expect("the labels parse");
        let ids: HashSet<u64> = positions.iter().map(|p| p.id).collect();
        assert!(labels.keys().all(|id| ids.contains(id)), "a label names no position");
        // The kind written is the kind our board gives now.
        for p in positions.iter().take(200) {
            let game = p.game(komi).expect("replays");
            assert_eq!(kind(game.board(), p.moves.len()), p.kind, "position {}", p.id);
        }
    }

    /// KataGo, the outside oracle, holds legal exactly the moves our board does.
    #[test]
    fn katago_labels_every_legal_move_and_no_other() {
        let (komi, positions) = parse_positions(DEFAULT_POSITIONS).expect("the positions parse");
        let labels = parse_labels(DEFAULT_LABELS).expect("the labels parse");
        assert!(!labels.is_empty(), "no labels yet");
        for p in &positions {
            let Some(label) = labels.get(&p.id) else { continue };
            let mut judged: Vec<String> = label.moves.iter().map(|&(m, _, _)| m.to_gtp(SIZE)).collect();
            judged.sort();
            assert_eq!(judged, our_legal_moves(p, komi), "position {} ({} ply {})", p.id, p.source, p.moves.len());
        }
    }

    /// Labels for the first `n` positions with every legal move valued alike but
    /// pass (worth less), KataGo's best named as the first point.
    fn made_up_labels(positions: &[Position], komi: f64, n: usize) -> String {
        let mut text = String::from("# made up\n");
        for p in positions.iter().take(n) {
            let moves = our_legal_moves(p, komi);
            let best = moves.iter().find(|m| *m != "pass").cloned().unwrap_or_else(|| "pass".into());
            let values: Vec<String> = moves
                .iter()
                .map(|m| if m == "pass" { format!("{m}:0.2500:-5.00") } else { format!("{m}:0.5000:+1.00") })
                .collect();
            let _ = writeln!(text, "{} 8 {best} {}", p.id, values.join(" "));
        }
        text
    }

    #[test]
    fn a_tiny_run_prints_its_counts() {
        let (komi, positions) = parse_positions(DEFAULT_POSITIONS).expect("the positions parse");
        let labels = made_up_labels(&positions, komi, 3);
        let options = RunOptions {
            player: PlayerSettings::default(),
            engine: None,
            playouts: 64,
            seed: 0,
            hash_mb: 16,
            count: None,
            shard: None,
            out: None,
            resume: false,
            json: false,
        };
        let mut out = Vec::new();
        let tally = run("built-in", DEFAULT_POSITIONS, &labels, &options, &AtomicBool::new(false), &mut out)
            .expect("runs")
            .expect("not stopped");
        let text = String::from_utf8(out).expect("text");
        assert_eq!(tally.all.positions + tally.all.resigned, 3, "{text}");
        assert_eq!(tally.unlabelled, positions.len() as u64 - 3);
        assert!(text.contains("3 labelled positions played, 64 playouts per move"), "{text}");
        assert!(text.contains(&format!("{} positions without labels skipped", positions.len() - 3)), "{text}");
        // Every point is worth the same here: only a pass loses (25 % and 6 points).
        let loss = tally.all.winrate_loss / tally.all.positions.max(1) as f64;
        assert!(loss == 0.0 || loss > 0.0 && loss <= 0.25, "{text}");
        // A setting changed from the engine's is named in the run's line.
        let light = RunOptions {
            player: PlayerSettings { move_model: false, ..PlayerSettings::default() },
            count: Some(1),
            ..options
        };
        let mut out = Vec::new();
        run("built-in", DEFAULT_POSITIONS, &labels, &light, &AtomicBool::new(false), &mut out).expect("runs");
        let text = String::from_utf8(out).expect("text");
        assert!(text.contains("64 playouts per move, 1 thread (move-model false)"), "{text}");
        let options = RunOptions { json: true, player: PlayerSettings::default(), ..light };
        let mut out = Vec::new();
        run("built-in", DEFAULT_POSITIONS, &labels, &options, &AtomicBool::new(false), &mut out).expect("runs");
        let record: serde_json::Value = serde_json::from_slice(&out).expect("one JSON record");
        assert_eq!(
            record["tally"]["all"]["positions"].as_u64().unwrap_or(0)
                + record["tally"]["all"]["resigned"].as_u64().unwrap_or(0),
            1
        );
    }

    #[test]
    fn shards_merge_into_the_tally_of_one_run() {
        let (komi, positions) = parse_positions(DEFAULT_POSITIONS).expect("the positions parse");
        let labels = made_up_labels(&positions, komi, 5);
        let dir = tempfile::tempdir().expect("a scratch folder");
        let options = |shard: Option<Shard>, out: Option<PathBuf>| RunOptions {
            player: PlayerSettings::default(),
            engine: None,
            playouts: 32,
            seed: 0,
            hash_mb: 16,
            count: None,
            shard,
            out,
            resume: false,
            json: true,
        };
        let play = |options: &RunOptions| {
            run(DEFAULT_PATH, DEFAULT_POSITIONS, &labels, options, &AtomicBool::new(false), &mut Vec::new())
                .expect("runs")
                .expect("not stopped")
        };
        let whole = play(&options(None, None));
        let files: Vec<PathBuf> = (0..2).map(|i| dir.path().join(format!("shard-{i}.jsonl"))).collect();
        for (i, file) in files.iter().enumerate() {
            play(&options(Some(Shard { index: i as u64, count: 2 }), Some(file.clone())));
        }
        let mut out = Vec::new();
        let merged = merge(&[files[1].clone(), files[0].clone()], DEFAULT_POSITIONS, true, &mut out).expect("merges");
        assert_eq!(merged.to_json(), whole.to_json());
        // A shard missing, given twice, or unfinished is refused.
        let refused = |paths: &[PathBuf]| merge(paths, DEFAULT_POSITIONS, true, &mut Vec::new()).is_err();
        assert!(refused(&files[..1]));
        assert!(refused(&[files[0].clone(), files[0].clone()]));
        let text = std::fs::read_to_string(&files[1]).expect("the shard");
        let cut = dir.path().join("cut.jsonl");
        std::fs::write(&cut, text.lines().take(2).collect::<Vec<_>>().join("\n")).expect("written");
        assert!(refused(&[files[0].clone(), cut]));
    }

    #[test]
    fn two_runs_compare_on_the_positions_both_played() {
        let (komi, positions) = parse_positions(DEFAULT_POSITIONS).expect("the positions parse");
        let labels = made_up_labels(&positions, komi, 4);
        let dir = tempfile::tempdir().expect("a scratch folder");
        let file = |name: &str| dir.path().join(name);
        let play = |playouts: u64, out: PathBuf| {
            let options = RunOptions {
                player: PlayerSettings::default(),
                engine: None,
                playouts,
                seed: 0,
                hash_mb: 16,
                count: None,
                shard: None,
                out: Some(out),
                resume: false,
                json: true,
            };
            run(DEFAULT_PATH, DEFAULT_POSITIONS, &labels, &options, &AtomicBool::new(false), &mut Vec::new())
                .expect("runs")
                .expect("not stopped")
        };
        let small = play(16, file("a.jsonl"));
        play(64, file("b.jsonl"));
        let (a, b) = (file("a.jsonl"), file("b.jsonl"));
        let (a, b) = (a.to_str().expect("a path"), b.to_str().expect("a path"));
        let mut out = Vec::new();
        compare([a, a], (DEFAULT_PATH, DEFAULT_POSITIONS), &labels, &mut out).expect("compares");
        let text = String::from_utf8(out).expect("text");
        // A run against itself: the same losses, neither better anywhere.
        let n = small.all.positions;
        assert!(text.contains(&format!("{n} positions both played")), "{text}");
        let all = text.lines().find(|l| l.starts_with("all ")).expect("the row of all");
        let words: Vec<&str> = all.split_whitespace().collect();
        assert_eq!((words[2], words[4], words[6], words[7]), (words[3], words[5], "0", "0"), "{text}");
        assert!(text.starts_with("A: sente, 16 playouts, seed 0\nB: sente, 16 playouts, seed 0"), "{text}");
        let mut out = Vec::new();
        compare([a, b], (DEFAULT_PATH, DEFAULT_POSITIONS), &labels, &mut out).expect("compares");
        assert!(String::from_utf8(out).expect("text").contains("B: sente, 64 playouts, seed 0"));
        let refused = |runs: [&str; 2], name: &str| {
            let why = compare(runs, (name, DEFAULT_POSITIONS), &labels, &mut Vec::new()).expect_err("refused");
            format!("{why:#}")
        };
        assert!(refused([a, "/nonexistent.jsonl"], DEFAULT_PATH).contains("/nonexistent.jsonl"));
        // A position twice in one side's files, another run's shard, or a run played
        // on other positions than those given is refused, not paired.
        assert!(refused([&format!("{a},{a}"), b], DEFAULT_PATH).contains("twice"));
        assert!(refused([&format!("{a},{b}"), b], DEFAULT_PATH).contains("another run"));
        assert!(refused([a, b], "other.txt").contains("not other.txt"));
    }

    #[test]
    fn a_malformed_line_is_an_error_naming_it() {
        let good = "# komi 7\n0 g.sgf 2 tuning opening other E5 D5\n";
        assert!(parse_positions(good).is_ok());
        for (bad, line, says) in [
            ("# komi 7\n0 g.sgf 2 tuning opening other E5 Z5\n", 2, "Z5"),
            ("# komi 7\n0 g.sgf 3 tuning opening other E5 D5\n", 2, "move number 3"),
            ("# komi 7\n\n0 g.sgf 2 tuning middle other E5 E5\n", 3, "illegal"),
            ("# komi 7\n0 g.sgf 2 nowhere opening other E5 D5\n", 2, "nowhere"),
            ("# komi 7\n0 g.sgf\n", 2, "expected"),
        ] {
            let e = parse_positions(bad).expect_err(bad);
            assert!(e.contains(&format!("line {line}:")) && e.contains(says), "{bad}: {e}");
        }
        assert!(parse_labels("0 32 E5 E5:0.5:+1.0 pass:0.4:-2\n").is_ok());
        for (bad, says) in [
            ("0 32 E5 E5:0.5\n", "E5:0.5"),
            ("0 32 E5 E5:1.5:+1\n", "E5:1.5:+1"),
            ("0 x E5 E5:0.5:+1\n", "'x'"),
            ("0 32 D4 E5:0.5:+1\n", "best move D4"),
        ] {
            let e = parse_labels(&format!("# header\n{bad}")).expect_err(bad);
            assert!(e.starts_with("line 2:") && e.contains(says), "{bad}: {e}");
        }
    }
}
