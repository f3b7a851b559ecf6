//! The GTP front end: the command loop, clocks and reply framing over a game's
//! [`GameSession`] (the games with a GTP name: Othello, as Quarry and GRhino speak it,
//! and Go).

use std::thread::JoinHandle;
use std::time::Duration;

use protocol::gtp::{self, Command};
use search::{Clock, Limits, StopFlag};

use crate::error::{EngineError, Result};
use crate::games::GameKind;
use crate::games::session::{AnalysisJob, GameSession, SearchOptions};
use crate::io::{FrontEnd, MAX_LINE, Output};

/// What the time commands told the engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct GtpClock {
    /// Main time, byo-yomi time and stones from `time_settings`.
    pub settings: Option<(Duration, Duration, u32)>,
    /// Time left and stones left per colour (black, white) from `time_left`.
    pub left: [Option<(Duration, u32)>; 2],
}

impl GtpClock {
    /// Search limits for `black` (or white) to move, from the clock; `default` when
    /// nothing is known.
    pub fn limits(&self, black: bool, default: Duration) -> Limits {
        let me = usize::from(!black);
        let Some((left, stones)) = self.left[me] else {
            return match self.settings {
                Some((main, byo, _)) if main.is_zero() && byo.is_zero() => Limits::movetime(default),
                Some((main, byo, stones)) => {
                    let per_move = if stones > 0 { byo / stones } else { main / 30 };
                    Limits::movetime(per_move.max(Duration::from_millis(50)))
                }
                None => Limits::movetime(default),
            };
        };
        if left.is_zero() && stones == 0 {
            // No time limit at all.
            return Limits::movetime(default);
        }
        let mut clock = Clock::default();
        clock.time[0] = Some(left);
        clock.time[1] = Some(left);
        // In byo-yomi (stones > 0) the time must last that many moves.
        clock.moves_to_go = (stones > 0).then_some(stones);
        // In main time with byo-yomi to come, every move will have at least a
        // period's share once main time is spent: plan it as an increment.
        if let Some((_, byo, period_stones)) = self.settings
            && stones == 0
            && period_stones > 0
            && !byo.is_zero()
        {
            clock.increment = [byo / period_stones; 2];
        }
        Limits { clock, ..Limits::default() }
    }
}

/// The commands every game answers.
const COMMON: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "list_games",
    "set_game",
    "sente-threads",
    "sente-hash",
];

/// The most search threads `sente-threads` takes (as UGI+'s `Threads`).
const MAX_THREADS: usize = 256;
/// The largest table `sente-hash` takes, in MiB (as UGI+'s `Hash`).
const MAX_HASH_MB: usize = 65536;

/// The GTP engine: a game's session, clocks and options.
pub struct GtpEngine {
    game: Box<dyn GameSession>,
    clock: GtpClock,
    options: SearchOptions,
    out: Output,
    /// A streaming analysis (`lz-analyze`) running until the next line arrives.
    analysis: Option<(StopFlag, JoinHandle<()>)>,
    /// Raised when input ends: a running `genmove` stops and answers.
    hangup: StopFlag,
}

/// Default time per move when no clock is given.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(2);

impl GtpEngine {
    /// An engine playing `game`'s session, writing to `out`; a `genmove` stops
    /// thinking when `hangup` is raised (input ended).
    pub fn new(game: Box<dyn GameSession>, options: SearchOptions, out: Output, hangup: StopFlag) -> GtpEngine {
        GtpEngine { game, clock: GtpClock::default(), options, out, analysis: None, hangup }
    }

    /// Stops a streaming analysis, if one runs, and ends its reply with the empty
    /// line.
    fn end_analysis(&mut self) {
        if let Some((stop, handle)) = self.analysis.take() {
            stop.stop();
            if handle.join().is_err() {
                self.out.line("analysis failed");
            }
            self.out.line("");
        }
    }

    /// Handles one line and writes the reply; false after `quit`. Any line, even an
    /// empty one, first ends a streaming analysis.
    pub fn handle_line(&mut self, line: &str) -> bool {
        self.end_analysis();
        let Some(cmd) = gtp::parse(line) else {
            return true;
        };
        let clock = self.clock;
        if self.game.gtp_streamed_reply(&cmd, &|black| clock.limits(black, DEFAULT_MOVE_TIME), &self.out, &self.hangup)
        {
            return true;
        }
        if let Some(job) = self.game.gtp_analysis(&cmd) {
            match job {
                Ok(job) => self.start_analysis(cmd.id.as_deref(), job),
                Err(error) => self.out.line(gtp::failure(cmd.id.as_deref(), &error.gtp_reply())),
            }
            return true;
        }
        let quit = cmd.name == "quit";
        let reply = match self.execute(&cmd) {
            Ok(text) => gtp::success(cmd.id.as_deref(), &text),
            Err(error) => gtp::failure(cmd.id.as_deref(), &error.gtp_reply()),
        };
        self.out.line(reply);
        !quit
    }

    /// Writes the `=` line and runs `job` on its own thread until the next line.
    fn start_analysis(&mut self, id: Option<&str>, job: AnalysisJob) {
        self.out.line(gtp::success(id, "").trim_end());
        let stop = StopFlag::new();
        let (thread_stop, out) = (stop.clone(), self.out.clone());
        match std::thread::Builder::new().name("analysis".into()).spawn(move || job(&thread_stop, &out)) {
            Ok(handle) => self.analysis = Some((stop, handle)),
            // The `=` is out: end the reply at once.
            Err(_) => self.out.line(""),
        }
    }

    fn known(&self, name: &str) -> bool {
        COMMON.contains(&name) || self.game.gtp_extra_commands().contains(&name)
    }

    fn execute(&mut self, cmd: &Command) -> Result<String> {
        let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
        let syntax = || EngineError::Syntax(format!("{}: bad arguments {:?}", cmd.name, cmd.args));
        match (cmd.name.as_str(), args.as_slice()) {
            ("protocol_version", _) => Ok("2".into()),
            ("name", _) => Ok("sente".into()),
            ("version", _) => Ok(env!("CARGO_PKG_VERSION").into()),
            ("known_command", [name]) => Ok(self.known(name).to_string()),
            ("known_command", _) => Err(syntax()),
            ("list_commands", _) => {
                let mut all: Vec<&str> = COMMON.to_vec();
                all.extend(self.game.gtp_extra_commands());
                Ok(all.join("\n"))
            }
            ("quit", _) => Ok(String::new()),
            ("list_games", _) => Ok(GameKind::gtp_games().join("\n")),
            ("set_game", [name]) => {
                let game = GameKind::parse(name).map_err(EngineError::Refused).and_then(|g| g.new_gtp_session())?;
                self.game = game;
                Ok(String::new())
            }
            ("set_game", _) => Err(syntax()),
            ("boardsize", [n]) => {
                let n: usize = n.parse().map_err(|_| syntax())?;
                self.game.set_board_size(n).map(|_| String::new())
            }
            ("boardsize", _) => Err(syntax()),
            ("clear_board", _) => {
                self.game.new_game();
                Ok(String::new())
            }
            ("komi", [k]) => {
                let k = bitboards::go::parse_komi(k).map_err(|_| syntax())?;
                self.game.set_komi(k);
                Ok(String::new())
            }
            ("komi", _) => Err(syntax()),
            ("play", [color, vertex]) => {
                let black = gtp::parse_color(color).ok_or_else(syntax)?;
                self.game.play_as(black, vertex).map(|_| String::new())
            }
            ("play", _) => Err(syntax()),
            ("genmove", [color]) => {
                let black = gtp::parse_color(color).ok_or_else(syntax)?;
                let limits = self.clock.limits(black, DEFAULT_MOVE_TIME);
                self.game.genmove(black, limits, &self.options, &self.hangup)
            }
            ("genmove", _) => Err(syntax()),
            ("undo", _) => self.game.undo().map(|_| String::new()),
            ("showboard", _) => Ok(format!("\n{}", self.game.draw())),
            ("final_score", _) => self.game.final_score(),
            ("time_settings", [main, byo, stones]) => {
                let secs = |t: &str| t.parse::<f64>().ok().and_then(|x| search::duration_from_secs(x).ok());
                let (main, byo) = (secs(main).ok_or_else(syntax)?, secs(byo).ok_or_else(syntax)?);
                let stones = stones.parse().map_err(|_| syntax())?;
                self.clock = GtpClock { settings: Some((main, byo, stones)), left: [None, None] };
                Ok(String::new())
            }
            ("time_settings", _) => Err(syntax()),
            ("time_left", [color, time, stones]) => {
                let black = gtp::parse_color(color).ok_or_else(syntax)?;
                let time =
                    time.parse::<f64>().ok().and_then(|x| search::duration_from_secs(x).ok()).ok_or_else(syntax)?;
                let stones = stones.parse().map_err(|_| syntax())?;
                self.clock.left[usize::from(!black)] = Some((time, stones));
                Ok(String::new())
            }
            ("time_left", _) => Err(syntax()),
            ("sente-threads", []) => Ok(self.options.threads.to_string()),
            ("sente-threads", [n]) => {
                self.options.threads = parse_in_range(n, 1, MAX_THREADS, "threads")?;
                Ok(String::new())
            }
            ("sente-threads", _) => Err(syntax()),
            ("sente-hash", []) => Ok(self.options.hash_mb.to_string()),
            ("sente-hash", [mb]) => {
                self.options.hash_mb =
                    crate::games::session::checked_hash(&self.options, parse_in_range(mb, 1, MAX_HASH_MB, "MiB")?)?;
                Ok(String::new())
            }
            ("sente-hash", _) => Err(syntax()),
            _ => match self.game.gtp_extra(cmd, &self.out, &self.hangup) {
                Some(result) => result,
                None => Err(EngineError::UnknownCommand(cmd.name.clone())),
            },
        }
    }
}

/// A whole number from `min` to `max` (`what` names it in the error), for the
/// `sente-threads` and `sente-hash` commands.
fn parse_in_range(text: &str, min: usize, max: usize, what: &str) -> Result<usize> {
    match text.parse::<usize>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(EngineError::Syntax(format!("'{text}': {what} from {min} to {max}"))),
    }
}

/// `sente gtp`'s command line.
#[derive(clap::Args)]
pub struct GtpArgs {
    /// The game to start with.
    #[arg(long, default_value = "Go", value_parser = GameKind::parse)]
    pub game: GameKind,
    /// Search threads (Go: threads sharing one MCTS tree).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Search memory in MiB (Go: the MCTS tree's node budget).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
}

/// Runs `sente gtp`: an error at once when GTP does not play `--game`.
pub fn main(args: GtpArgs) -> anyhow::Result<()> {
    args.game.new_gtp_session().map_err(anyhow::Error::msg)?;
    let options = SearchOptions { threads: args.threads.into(), hash_mb: args.hash as usize };
    super::run_protocol(super::Protocol::Gtp(args.game), options)
}

impl FrontEnd for GtpEngine {
    fn line(&mut self, line: &str) -> bool {
        self.handle_line(line)
    }

    /// Like any line, it ends a streaming analysis first; the reply echoes the
    /// command's id, read from the line's start.
    fn too_long(&mut self, length: usize, start: &str) -> bool {
        self.end_analysis();
        let id = gtp::parse(start).and_then(|c| c.id);
        self.out.line(gtp::failure(id.as_deref(), &format!("line of {length} bytes is longer than {MAX_LINE}")));
        true
    }

    fn finish(&mut self) {
        self.end_analysis();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_time_counts_the_byo_yomi_to_come() {
        let secs = Duration::from_secs;
        // 60 s main time, then 10 s for every 5 stones; 30 s of main time left.
        let clock = GtpClock { settings: Some((secs(60), secs(10), 5)), left: [Some((secs(30), 0)), None] };
        let limits = clock.limits(true, secs(1));
        assert_eq!(limits.clock.time[0], Some(secs(30)));
        assert_eq!(limits.clock.increment, [secs(2); 2]);
        assert_eq!(limits.clock.moves_to_go, None);
        // In byo-yomi: 8 s for the 3 stones left of the period, no increment.
        let clock = GtpClock { settings: Some((secs(60), secs(10), 5)), left: [Some((secs(8), 3)), None] };
        let limits = clock.limits(true, secs(1));
        assert_eq!((limits.clock.moves_to_go, limits.clock.increment), (Some(3), [Duration::ZERO; 2]));
        // Sudden death: no increment.
        let clock = GtpClock { settings: Some((secs(60), Duration::ZERO, 0)), left: [Some((secs(30), 0)), None] };
        assert_eq!(clock.limits(true, secs(1)).clock.increment, [Duration::ZERO; 2]);
    }
}
