//! `sente train-go`: the Go move model's training ([`search::go::move_model`]): `gen`
//! plays self-play games at fixed playouts and appends them to a games file, one game
//! a line (`<game number> <GTP moves…>`, so a stopped run goes on with the same
//! command); `import` makes a games file of SGF records (a teacher's games, e.g. those
//! an arena match of another engine against itself wrote); `fit` fits the model to the
//! moves of a games file before each game's first pass, holding the last games out to
//! measure it, and writes it.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bitboards::go::sgf;
use bitboards::go::{Color, Move};
use clap::Subcommand;
use rayon::prelude::*;
use search::go::move_model::built_in_model;
use search::go::move_model::{MoveModel, Sample, fit, samples_from_moves};
use search::go::self_play::self_play_game;

/// The board side of the games (9×9) and their komi.
const SIZE: usize = 9;
const KOMI: f64 = 7.0;

#[derive(Subcommand)]
pub enum TrainGoCommand {
    /// Play self-play games and append them to a games file (goes on from the games
    /// already in it).
    Gen {
        /// Games the file should hold when done (game numbers 0 to N−1).
        #[arg(long)]
        games: u64,
        /// Playouts a move.
        #[arg(long, default_value_t = 1000)]
        playouts: u64,
        /// Seed of the run (game i uses seed and i).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Search with the built-in move model in the priors (the engine's default);
        /// without it, with the hand-set priors only (how the built-in model's games
        /// were made).
        #[arg(long)]
        move_model: bool,
        /// The games file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Fit the move model to a games file (the moves played) or a teacher file (a
    /// teacher's probabilities at every move) and write it.
    Fit {
        /// The games file.
        #[arg(long, required_unless_present = "teacher", conflicts_with = "teacher")]
        data: Option<PathBuf>,
        /// A teacher file (`N MOVE|TOP:P,TOP:P,… …` a game, as
        /// scripts/go_teacher_games.py writes it): each position is fitted to the
        /// teacher's probabilities instead of the move played.
        #[arg(long)]
        teacher: Option<PathBuf>,
        /// Rounds of MM.
        #[arg(long, default_value_t = 20)]
        iterations: usize,
        /// The share of the games, the last ones, held out to measure the fit.
        #[arg(long, default_value_t = 10)]
        holdout_percent: usize,
        /// Moves at the start of each game that are not fitted (still played to reach
        /// the positions after them): an arena's random opening.
        #[arg(long, default_value_t = 0)]
        skip_plies: usize,
        /// Also learn the spatial patterns (the 12 points around a move) played at
        /// least this often in the fitted games (a teacher's likeliest move counts as
        /// played); 0: none.
        #[arg(long, default_value_t = 0)]
        spatial_min_played: usize,
        /// Also learn the ownership feature: who owns each point at the end of 64
        /// heavy playouts from the position (about 1 ms of playouts a move fitted).
        #[arg(long)]
        ownership: bool,
        /// Where to write the model (one feature a line).
        #[arg(long)]
        out: PathBuf,
    },
    /// Make a games file of 9×9 SGF game records (files, or folders whose `.sgf`
    /// files are read in name order), numbered in that order: another engine's games
    /// to fit the model to.
    Import {
        /// SGF files or folders of them.
        #[arg(required = true)]
        sgf: Vec<PathBuf>,
        /// The games file to write (replaced if it exists).
        #[arg(long)]
        out: PathBuf,
    },
}

/// Runs the subcommand.
pub fn main(command: TrainGoCommand) -> Result<()> {
    match command {
        TrainGoCommand::Gen { games, playouts, seed, threads, move_model, out } => {
            generate(Generator { games, playouts, seed, threads, move_model }, &out)
        }
        TrainGoCommand::Fit {
            data,
            teacher,
            iterations,
            holdout_percent,
            skip_plies,
            spatial_min_played,
            ownership,
            out,
        } => {
            let settings = FitSettings { iterations, holdout_percent, skip_plies, spatial_min_played, ownership };
            let (path, teacher) = match (data, teacher) {
                (_, Some(path)) => (path, true),
                (Some(path), None) => (path, false),
                (None, None) => bail!("--data or --teacher is needed"),
            };
            let games = read_game_lines(&path, teacher)?;
            fit_file(&path, games, &settings, &out)
        }
        TrainGoCommand::Import { sgf, out } => import(&sgf, &out),
    }
}

/// The SGF files named: each file, and each folder's `.sgf` files in name order.
fn sgf_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .with_context(|| format!("cannot read the folder {}", path.display()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")))
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// The moves of an SGF record as a games file holds them: a 9×9 game without setup
/// stones, Black first and the colours alternating (passes are moves).
fn record_moves(text: &str) -> Result<Vec<Move>> {
    let game = sgf::parse(text)?;
    if game.size != SIZE {
        bail!("a {}×{} game; only {SIZE}×{SIZE} games are fitted", game.size, game.size);
    }
    if !game.setup.is_empty() {
        bail!("setup stones (AB/AW): the games file holds games from the empty board only");
    }
    let mut moves = Vec::with_capacity(game.moves.len());
    for (i, &(color, mv)) in game.moves.iter().enumerate() {
        let expected = if i % 2 == 0 { Color::BLACK } else { Color::WHITE };
        if color != expected {
            bail!(
                "move {} is {}'s, but colours must alternate from Black",
                i + 1,
                if color == Color::BLACK { "Black" } else { "White" }
            );
        }
        moves.push(mv);
    }
    Ok(moves)
}

/// Writes the games file of the records in `paths`. A record that cannot be read,
/// or whose moves are not legal from the empty board, is left out with a line on
/// standard error naming it (one odd record does not stop a conversion of thousands).
fn import(paths: &[PathBuf], out: &Path) -> Result<()> {
    let files = sgf_files(paths)?;
    if files.is_empty() {
        bail!("no SGF files in {}", paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "));
    }
    let mut text = String::new();
    let (mut games, mut moves_in_all, mut left_out) = (0, 0, 0);
    for file in &files {
        // The same check `fit` makes: every move legal from the empty board.
        let moves = std::fs::read_to_string(file).map_err(anyhow::Error::from).and_then(|record| {
            let moves = record_moves(&record)?;
            samples_from_moves(SIZE, KOMI, &moves).map_err(anyhow::Error::msg)?;
            Ok(moves)
        });
        let moves = match moves {
            Ok(moves) => moves,
            Err(e) => {
                eprintln!("{}: left out: {e:#}", file.display());
                left_out += 1;
                continue;
            }
        };
        moves_in_all += moves.len();
        let words: Vec<String> = moves.iter().map(|m| m.to_gtp(SIZE)).collect();
        writeln!(text, "{games} {}", words.join(" "))?;
        games += 1;
    }
    std::fs::write(out, text).with_context(|| format!("cannot write {}", out.display()))?;
    println!("{games} games ({moves_in_all} moves) written to {}; {left_out} records left out", out.display());
    Ok(())
}

/// The games of a games file, in file order: (number, moves); a bad line is an error
/// naming it.
fn read_games(path: &Path) -> Result<Vec<(u64, Vec<Move>)>> {
    Ok(read_game_lines(path, false)?.into_iter().map(|(n, moves, _)| (n, moves)).collect())
}

/// A game of a teacher file: its number, its moves and the teacher's probabilities
/// before each move (one list a move; empty ones for a games file).
type TeacherGame = (u64, Vec<Move>, Vec<Vec<(Move, f32)>>);

/// The games of a games file (`N MOVE …`, one game a line; `teacher` false: no
/// probabilities) or of a teacher file (`N MOVE|TOP:P,TOP:P,… …`, `#` comments), in
/// file order; a bad line is an error naming it and the word. A teacher's move with no
/// probabilities (`E5|`) is fitted as the move played.
fn read_game_lines(path: &Path, teacher: bool) -> Result<Vec<TeacherGame>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if teacher && line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let Some(number) = words.next() else { continue };
        let at = || format!("{} line {}", path.display(), i + 1);
        let number: u64 = number.parse().with_context(|| format!("{}: '{number}' is not a game number", at()))?;
        let vertex = |w: &str| Move::from_gtp(w, SIZE).map_err(|e| anyhow::anyhow!("{}: '{w}': {e}", at()));
        let (mut moves, mut policies) = (Vec::new(), Vec::new());
        for word in words {
            let (played, policy) = if teacher {
                word.split_once('|').with_context(|| format!("{}: '{word}' is not MOVE|TOP:P,…", at()))?
            } else {
                (word, "")
            };
            moves.push(vertex(played)?);
            let mut tops = Vec::new();
            for top in policy.split(',').filter(|t| !t.is_empty()) {
                let (m, p) = top.split_once(':').with_context(|| format!("{}: '{top}' is not MOVE:P", at()))?;
                let value: f32 = p.parse().with_context(|| format!("{}: '{p}' is not a probability", at()))?;
                if !(0.0..=1.0).contains(&value) {
                    bail!("{}: probability '{p}' is not between 0 and 1", at());
                }
                tops.push((vertex(m)?, value));
            }
            policies.push(tops);
        }
        games.push((number, moves, policies));
    }
    Ok(games)
}

/// What `gen` plays.
struct Generator {
    games: u64,
    playouts: u64,
    seed: u64,
    threads: usize,
    move_model: bool,
}

/// Cuts a games file back to its last whole line (a run stopped while writing leaves
/// part of one), saying so.
fn drop_partial_line(out: &Path) -> Result<()> {
    let Ok(bytes) = std::fs::read(out) else { return Ok(()) };
    if bytes.is_empty() || bytes.ends_with(b"\n") {
        return Ok(());
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    eprintln!("{}: dropping a partly written last line ({} bytes)", out.display(), bytes.len() - keep);
    OpenOptions::new().write(true).open(out)?.set_len(keep as u64)?;
    Ok(())
}

fn generate(g: Generator, out: &Path) -> Result<()> {
    drop_partial_line(out)?;
    let done: BTreeSet<u64> =
        if out.exists() { read_games(out)?.into_iter().map(|(n, _)| n).collect() } else { BTreeSet::new() };
    let todo: Vec<u64> = (0..g.games).filter(|n| !done.contains(n)).collect();
    let model = if g.move_model { "with" } else { "without" };
    eprintln!(
        "{} games in {}, {} to play at {} playouts a move, {model} the move model",
        done.len(),
        out.display(),
        todo.len(),
        g.playouts
    );
    let mut file = OpenOptions::new().create(true).append(true).open(out)?;
    let threads = g.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let start = Instant::now();
    // Chunks of a few games per thread, each chunk written with one write, so that a
    // stop loses at most the chunk under way (and a partly written line is dropped by
    // the next run).
    for (k, chunk) in todo.chunks(threads * 2).enumerate() {
        let played: Vec<(u64, Result<Vec<Move>, String>)> = pool.install(|| {
            chunk
                .par_iter()
                .map(|&n| {
                    let seed = g.seed.wrapping_mul(1_000_003).wrapping_add(n);
                    (n, self_play_game(SIZE, KOMI, g.playouts, seed, g.move_model))
                })
                .collect()
        });
        let mut text = String::new();
        for (n, moves) in played {
            let moves = moves.map_err(anyhow::Error::msg)?;
            let words: Vec<String> = moves.iter().map(|m| m.to_gtp(SIZE)).collect();
            writeln!(text, "{n} {}", words.join(" "))?;
        }
        file.write_all(text.as_bytes())?;
        file.flush()?;
        let so_far = ((k + 1) * threads * 2).min(todo.len());
        eprintln!("{so_far}/{} games, {:.0} s", todo.len(), start.elapsed().as_secs_f64());
    }
    Ok(())
}

/// What `fit` does with a games file.
struct FitSettings {
    iterations: usize,
    holdout_percent: usize,
    skip_plies: usize,
    spatial_min_played: usize,
    ownership: bool,
}

/// Fits the model to `games` (read from `data`: their moves, and a teacher's
/// probabilities where the list of a game has them) and writes it to `out`.
fn fit_file(data: &Path, games: Vec<TeacherGame>, settings: &FitSettings, out: &Path) -> Result<()> {
    let FitSettings { iterations, holdout_percent, skip_plies, spatial_min_played, ownership } = *settings;
    if games.len() < 2 {
        bail!("{}: {} games; at least 2 are needed (one to fit, one to hold out)", data.display(), games.len());
    }
    let held = (games.len() * holdout_percent.min(90) / 100).max(1);
    let samples = |games: &[TeacherGame]| -> Result<Vec<Sample>> {
        let mut all = Vec::new();
        for (n, moves, policies) in games {
            // Up to the first pass: after it self-play games go on filling territory
            // that is settled, which teaches nothing about choosing moves.
            let end = moves.iter().position(|&m| m == Move::Pass).unwrap_or(moves.len());
            let mut game = samples_from_moves(SIZE, KOMI, &moves[..end])
                .map_err(|e| anyhow::anyhow!("{}: game {n}: {e}", data.display()))?;
            for (sample, policy) in game.iter_mut().zip(policies) {
                sample.teacher = policy.clone();
            }
            all.extend(game.into_iter().skip(skip_plies));
        }
        Ok(all)
    };
    let (train, test) = games.split_at(games.len() - held);
    let (train, test) = (samples(train)?, samples(test)?);
    let start = Instant::now();
    let model = fit(&train, iterations, spatial_min_played, ownership);
    let seconds = start.elapsed().as_secs_f64();
    let uniform = MoveModel::uniform().mean_log_probability(&test).unwrap_or(f64::NAN);
    let built_in = built_in_model().mean_log_probability(&test).unwrap_or(f64::NAN);
    let fitted = model.mean_log_probability(&test).unwrap_or(f64::NAN);
    let fitted_train = model.mean_log_probability(&train).unwrap_or(f64::NAN);
    println!(
        "fit to {} moves of {} games in {seconds:.1} s ({iterations} rounds, {} spatial patterns{}); held out {} moves of {held} games",
        train.len(),
        games.len() - held,
        model.spatial_patterns(),
        if ownership { ", ownership" } else { "" },
        test.len()
    );
    let target = if test.iter().any(|s| !s.teacher.is_empty()) { "teacher's moves" } else { "move played" };
    println!(
        "mean log-probability of the {target}: held out {fitted:.3} (uniform {uniform:.3}, the built-in model {built_in:.3}), fitted moves {fitted_train:.3}"
    );
    model.save_file(out).with_context(|| format!("cannot write {}", out.display()))?;
    Ok(())
}
