//! Outside engines as tools: a Go engine asked for its moves in `sente go-accuracy
//! --engine`'s positions ([`start_outside_go_player`]), an Othello engine as a judge of
//! positions, and `sente train-othello teach`,
//! which relabels the positions of a training data file with the values such a
//! *teacher* gives them (asked over NBoard at a fixed depth), so that the evaluation
//! can be fitted to what a stronger evaluation and a deeper search say instead of to
//! its own shallow searches.
//!
//! The output holds the input's records in the input's order: those with an exact
//! label, or with a number of empties outside the range asked for, as they were; the
//! others with the teacher's value (rounded to a whole disc, from the side to move's
//! view, `exact` off). It is written a chunk at a time, so a stopped or killed run is
//! continued by the same command (the records already in the output are checked to be
//! the input's and kept).

use std::fs::OpenOptions;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use bitboards::othello::{Board, Color, Position};
use search::othello::train::{RECORD_BYTES, Record};

use super::players::{EngineSpec, GameSetup, MoveRequest, Player, Protocol, Reply, TimeControl};
use crate::games::referee::ArenaGame;
use crate::games::{GO_ACCURACY_GAME, NBOARD_GAME};
use crate::tools::go_accuracy::OutsidePlayer;
use crate::tools::interrupt;
use crate::tools::train_othello::TeachArgs;

/// Runs `sente train-othello teach` and prints what it did.
pub fn teach_command(args: TeachArgs) -> Result<()> {
    let TeachArgs { data, out, engine, min_empties, max_empties, threads, limit } = args;
    let teacher = EngineSpec::parse(&engine).map_err(anyhow::Error::msg)?;
    let run = TeachRun { data, out, teacher, min_empties, max_empties, threads, limit };
    let s = teach(&run, interrupt::stop_flag())?;
    let what = if s.written < s.total { "; the same command continues" } else { "" };
    println!(
        "{} of {} records in {} ({} valued by the teacher in this run){what}",
        s.written, s.total, run.out, s.taught
    );
    Ok(())
}

/// A started NBoard engine that values positions at the depth its `option.depth` set.
pub struct NboardTeacher {
    name: String,
    player: Player,
}

impl NboardTeacher {
    /// Starts the engine of `spec`, which must speak NBoard, and sets it up (its
    /// options are sent as `set NAME VALUE`, e.g. `option.depth=12`).
    pub fn start(spec: &EngineSpec, stop: Arc<AtomicBool>) -> Result<NboardTeacher> {
        if spec.protocol != Protocol::Nboard {
            bail!("the teacher '{}' must speak NBoard (proto=nboard)", spec.name);
        }
        let setup = GameSetup { kind: NBOARD_GAME, size: 8, komi: 0.0 };
        // The time control is not used: NBoard engines search to their depth.
        let control = TimeControl::PerMove(Duration::from_secs(1));
        let player =
            Player::start(spec, setup, control, None, stop).map_err(|f| anyhow!("teacher '{}': {f}", spec.name))?;
        Ok(NboardTeacher { name: spec.name.clone(), player })
    }

    /// The engine's value, in discs for the side to move, of the position with the
    /// discs `player` (to move) and `opponent`; an error if no answer comes within
    /// `limit` or the answer is malformed. A side that must pass gets the negated
    /// value of the other side's position; a finished game, its final score (the
    /// engine is not asked).
    pub fn value(&mut self, player: u64, opponent: u64, limit: Duration) -> Result<f64> {
        let board = Board::new(player, opponent);
        if board.is_game_over() {
            return Ok(f64::from(board.final_score()));
        }
        if board.moves() == 0 {
            return Ok(-self.value(opponent, player, limit)?);
        }
        // Shown with the side to move as black: the value is the mover's either way.
        let position = Position::new(board, Color::BLACK);
        let text = ArenaGame::ggf_board(&position);
        self.player.nboard_value(&text, Instant::now() + limit).map_err(|f| anyhow!("teacher '{}': {f}", self.name))
    }

    /// Ends the engine's process.
    pub fn quit(self) {
        self.player.quit();
    }
}

/// A started engine asked for its move in one position after another, each a new
/// game from the standard start and its moves (GTP `clear_board` and `play`, UGI+
/// `uginewgame` and `position startpos moves …`): how `sente go-accuracy --engine`
/// judges an outside engine.
pub struct MoveAsker {
    words: String,
    player: Player,
    control: TimeControl,
}

/// Starts the Go engine of the `--engine` text `spec` (GTP or UGI+) for `sente
/// go-accuracy`: 9×9 at `komi`, asked with `st` a move (GTP `time_settings`, UGI+ `go
/// movetime`) or else `playouts` (UGI+ `go nodes`; a GTP engine plays by its command
/// line, such as Pachi's `-t =18000`).
pub fn start_outside_go_player(
    spec: &str,
    komi: f64,
    st: Option<Duration>,
    playouts: u64,
) -> Result<Box<dyn OutsidePlayer>> {
    let spec = EngineSpec::parse(spec).map_err(anyhow::Error::msg).context("--engine")?;
    if !matches!(spec.protocol, Protocol::Gtp | Protocol::Ugi) {
        bail!("--engine: the engine must speak GTP or UGI+ (proto=gtp or proto=ugi)");
    }
    let (control, limit) = match (st, spec.protocol) {
        (Some(t), _) => (TimeControl::PerMove(t), format!("{} s a move", t.as_secs_f64())),
        (None, Protocol::Ugi) => (TimeControl::Nodes(playouts), format!("{playouts} nodes a move")),
        (None, _) => (TimeControl::Nodes(playouts), "the limit of its command line".into()),
    };
    let setup = GameSetup { kind: GO_ACCURACY_GAME, size: 9, komi };
    let stop = Arc::new(AtomicBool::new(false));
    let player =
        Player::start(&spec, setup, control, None, stop).map_err(|f| anyhow!("engine '{}': {f}", spec.name))?;
    let words = format!("{} ({}), {limit}", spec.name, spec.command.join(" "));
    Ok(Box::new(MoveAsker { words, player, control }))
}

impl OutsidePlayer for MoveAsker {
    fn describe(&self) -> String {
        self.words.clone()
    }

    fn choose(&mut self, moves: &[String], limit: Duration) -> Result<Option<String>> {
        let deadline = Instant::now() + limit;
        let fault = |f| anyhow!("engine {}: {f}", self.words);
        self.player.new_game(deadline).map_err(fault)?;
        let seats: Vec<usize> = (0..moves.len()).map(|i| i % 2).collect();
        let request = MoveRequest {
            start: None,
            ggf_board: "",
            moves,
            seats: &seats,
            seat: moves.len() % 2,
            control: self.control,
            clocks: [Duration::ZERO; 2],
            deadline,
        };
        match self.player.genmove(&request).map_err(fault)? {
            Reply::Move(text) => Ok(Some(text)),
            Reply::Resign => Ok(None),
        }
    }

    fn quit(self: Box<Self>) {
        self.player.quit();
    }
}

/// Records relabelled between two writes of the output.
const CHUNK: usize = 256;
/// The longest a teacher may take over one position.
const ANSWER_TIME: Duration = Duration::from_secs(600);

/// A `teach` run.
pub struct TeachRun {
    /// The data file to relabel.
    pub data: String,
    /// The relabelled data file (continued if it exists).
    pub out: String,
    /// The teacher engine (NBoard).
    pub teacher: EngineSpec,
    /// Relabel positions with at least this many empties…
    pub min_empties: u32,
    /// …and at most this many.
    pub max_empties: u32,
    /// Teacher processes run at once.
    pub threads: usize,
    /// Relabel at most this many positions in this run.
    pub limit: Option<u64>,
}

/// What a `teach` run did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TeachSummary {
    /// Records in the output now.
    pub written: usize,
    /// Records of the input.
    pub total: usize,
    /// Positions the teacher valued in this run.
    pub taught: u64,
}

/// True if the teacher should value `record` in this run.
fn wants(run: &TeachRun, record: &Record) -> bool {
    !record.exact && (run.min_empties..=run.max_empties).contains(&record.empties())
}

/// A teacher's value as a record's label: rounded to a whole disc, within ±64.
fn label(value: f64) -> i8 {
    value.round().clamp(-64.0, 64.0) as i8
}

/// Relabels `run.data` into `run.out` (see the module documentation), continuing
/// what `run.out` already holds; returns when done, when `run.limit` positions were
/// valued, or when `stop` is set (the chunk under way is dropped).
pub fn teach(run: &TeachRun, stop: Arc<AtomicBool>) -> Result<TeachSummary> {
    if run.threads == 0 {
        bail!("--threads must be at least 1");
    }
    if run.min_empties > run.max_empties {
        bail!("--min-empties {} is above --max-empties {}", run.min_empties, run.max_empties);
    }
    let bytes = std::fs::read(&run.data).with_context(|| format!("cannot read {}", run.data))?;
    let input = Record::read_all(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", run.data))?;
    let mut done = match std::fs::read(&run.out) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", run.out)),
    };
    // A run killed in the middle of a write leaves part of a record: cut it off.
    let whole = done.len() / RECORD_BYTES * RECORD_BYTES;
    done.truncate(whole);
    let kept = Record::read_all(&done).map_err(|e| anyhow::anyhow!("{}: {e}", run.out))?;
    if kept.len() > input.len() {
        bail!("{} has {} records, more than the {} of {}", run.out, kept.len(), input.len(), run.data);
    }
    if let Some(i) = kept.iter().zip(&input).position(|(a, b)| (a.player, a.opponent) != (b.player, b.opponent)) {
        bail!("record {i} of {} is not record {i} of {}: it is not a relabelling of that file", run.out, run.data);
    }
    // Appends go to the end, wherever the cut leaves it.
    let mut out = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&run.out)
        .with_context(|| format!("cannot open {}", run.out))?;
    out.set_len(whole as u64).with_context(|| format!("cannot cut {} to whole records", run.out))?;

    let mut teachers = Vec::new();
    for _ in 0..run.threads {
        teachers.push(NboardTeacher::start(&run.teacher, stop.clone())?);
    }
    let bar = crate::tools::accuracy::progress(input.len() as u64);
    bar.set_position(kept.len() as u64);
    let mut next = kept.len();
    let mut taught = 0u64;
    let result = loop {
        if next == input.len() || run.limit.is_some_and(|l| taught >= l) {
            break Ok(());
        }
        if stop.load(Ordering::Relaxed) {
            break Ok(());
        }
        // The chunk: up to CHUNK records, holding no more positions to value than
        // the limit leaves.
        let room = run.limit.map_or(u64::MAX, |l| l - taught);
        let mut end = next;
        let mut wanted = Vec::new();
        while end < input.len() && end - next < CHUNK {
            if wants(run, &input[end]) {
                if wanted.len() as u64 == room {
                    break;
                }
                wanted.push(end);
            }
            end += 1;
        }
        let values = match value_all(&mut teachers, &input, &wanted) {
            Ok(v) => v,
            Err(_) if stop.load(Ordering::Relaxed) => break Ok(()),
            Err(e) => break Err(e),
        };
        let mut chunk = Vec::with_capacity((end - next) * RECORD_BYTES);
        let mut valued = wanted.iter().zip(&values).peekable();
        for (i, record) in input.iter().enumerate().take(end).skip(next) {
            let mut record = *record;
            if let Some((_, &value)) = valued.next_if(|(w, _)| **w == i) {
                record.score = label(value);
            }
            record.write(&mut chunk);
        }
        out.write_all(&chunk).and_then(|_| out.flush()).with_context(|| format!("cannot write {}", run.out))?;
        taught += wanted.len() as u64;
        next = end;
        bar.set_position(next as u64);
    };
    bar.finish_and_clear();
    for teacher in teachers {
        teacher.quit();
    }
    result?;
    Ok(TeachSummary { written: next, total: input.len(), taught })
}

/// The teachers' values of the records at `wanted`, in that order; the positions
/// are dealt to the teachers in turn, each teacher on its own thread.
fn value_all(teachers: &mut [NboardTeacher], input: &[Record], wanted: &[usize]) -> Result<Vec<f64>> {
    let count = teachers.len();
    let parts: Vec<Result<Vec<f64>>> = std::thread::scope(|s| {
        let handles: Vec<_> = teachers
            .iter_mut()
            .enumerate()
            .map(|(t, teacher)| {
                s.spawn(move || {
                    wanted
                        .iter()
                        .skip(t)
                        .step_by(count)
                        .map(|&i| teacher.value(input[i].player, input[i].opponent, ANSWER_TIME))
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(anyhow::anyhow!("a teacher thread panicked"))))
            .collect()
    });
    let parts = parts.into_iter().collect::<Result<Vec<_>>>()?;
    Ok((0..wanted.len()).map(|k| parts[k % count][k / count]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_to_whole_discs_within_the_board() {
        assert_eq!(label(2.49), 2);
        assert_eq!(label(-2.5), -3);
        assert_eq!(label(80.0), 64);
        assert_eq!(label(-70.2), -64);
    }
}
