//! The GTP front end: the command loop, clocks and reply framing, for any game that
//! implements [`GtpGame`] (Othello here, as Quarry and GRhino speak it; Go in `go`).

use std::time::Duration;

use crossbeam_channel::Receiver;
use protocol::gtp::{self, Command, errors};
use search::{Clock, Limits};

use crate::io::{Input, MAX_LINE, Output};
use crate::session::SearchOptions;

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
        Limits { clock, ..Limits::default() }
    }
}

/// A game as the GTP loop drives it.
pub trait GtpGame: Send {
    /// `boardsize n`.
    fn set_board_size(&mut self, size: usize) -> Result<(), String>;
    /// `clear_board`.
    fn clear(&mut self);
    /// `komi k`.
    fn set_komi(&mut self, komi: f64);
    /// `play color vertex`.
    fn play(&mut self, black: bool, vertex: &str) -> Result<(), String>;
    /// `genmove color`: choose, play and return the move.
    fn genmove(&mut self, black: bool, limits: Limits, options: &SearchOptions) -> Result<String, String>;
    /// `undo`.
    fn undo(&mut self) -> Result<(), String>;
    /// `showboard` (multi-line).
    fn showboard(&self) -> String;
    /// `final_score`.
    fn final_score(&mut self) -> Result<String, String>;
    /// Commands specific to the game; `None` if `cmd` is not one of them.
    fn extra(&mut self, cmd: &Command, out: &Output) -> Option<Result<String, String>> {
        let _ = (cmd, out);
        None
    }
    /// Names of the commands [`GtpGame::extra`] handles.
    fn extra_commands(&self) -> &'static [&'static str] {
        &[]
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
];

/// The GTP engine: a game, clocks and options.
pub struct GtpEngine {
    game: Box<dyn GtpGame>,
    clock: GtpClock,
    options: SearchOptions,
    out: Output,
}

/// Default time per move when no clock is given.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(2);

impl GtpEngine {
    /// An engine for `game`, writing to `out`.
    pub fn new(game: Box<dyn GtpGame>, options: SearchOptions, out: Output) -> GtpEngine {
        GtpEngine { game, clock: GtpClock::default(), options, out }
    }

    /// Runs until `quit` or the end of input.
    pub fn run(mut self, input: &Receiver<Input>) {
        for item in input.iter() {
            match item {
                Input::Line(line) => {
                    if !self.handle_line(&line) {
                        break;
                    }
                }
                Input::TooLong(n) => {
                    self.out.line(gtp::failure(None, &format!("line of {n} bytes is longer than {MAX_LINE}")))
                }
                Input::Eof => break,
            }
        }
    }

    /// Handles one line and writes the reply; false after `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let Some(cmd) = gtp::parse(line) else {
            return true;
        };
        let quit = cmd.name == "quit";
        let reply = match self.execute(&cmd) {
            Ok(text) => gtp::success(cmd.id, &text),
            Err(message) => gtp::failure(cmd.id, &message),
        };
        self.out.line(reply);
        !quit
    }

    fn known(&self, name: &str) -> bool {
        COMMON.contains(&name) || self.game.extra_commands().contains(&name)
    }

    fn execute(&mut self, cmd: &Command) -> Result<String, String> {
        let args: Vec<&str> = cmd.args.iter().map(String::as_str).collect();
        let syntax = || errors::SYNTAX_ERROR.to_string();
        match (cmd.name.as_str(), args.as_slice()) {
            ("protocol_version", _) => Ok("2".into()),
            ("name", _) => Ok("sente".into()),
            ("version", _) => Ok(env!("CARGO_PKG_VERSION").into()),
            ("known_command", [name]) => Ok(self.known(name).to_string()),
            ("known_command", _) => Err(syntax()),
            ("list_commands", _) => {
                let mut all: Vec<&str> = COMMON.to_vec();
                all.extend(self.game.extra_commands());
                Ok(all.join("\n"))
            }
            ("quit", _) => Ok(String::new()),
            ("list_games", _) => Ok(crate::games::gtp_games().join("\n")),
            ("set_game", [name]) => {
                let game = crate::games::GameKind::parse(name).and_then(crate::games::make_gtp_game)?;
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
                self.game.clear();
                Ok(String::new())
            }
            ("komi", [k]) => {
                let k: f64 = k.parse().map_err(|_| syntax())?;
                if !k.is_finite() {
                    return Err(syntax());
                }
                self.game.set_komi(k);
                Ok(String::new())
            }
            ("komi", _) => Err(syntax()),
            ("play", [color, vertex]) => {
                let black = gtp::parse_color(color).ok_or_else(syntax)?;
                self.game.play(black, vertex).map(|_| String::new())
            }
            ("play", _) => Err(syntax()),
            ("genmove", [color]) => {
                let black = gtp::parse_color(color).ok_or_else(syntax)?;
                let limits = self.clock.limits(black, DEFAULT_MOVE_TIME);
                self.game.genmove(black, limits, &self.options)
            }
            ("genmove", _) => Err(syntax()),
            ("undo", _) => self.game.undo().map(|_| String::new()),
            ("showboard", _) => Ok(format!("\n{}", self.game.showboard())),
            ("final_score", _) => self.game.final_score(),
            ("time_settings", [main, byo, stones]) => {
                let secs =
                    |t: &str| t.parse::<f64>().ok().filter(|x| *x >= 0.0 && x.is_finite()).map(Duration::from_secs_f64);
                let (main, byo) = (secs(main).ok_or_else(syntax)?, secs(byo).ok_or_else(syntax)?);
                let stones = stones.parse().map_err(|_| syntax())?;
                self.clock = GtpClock { settings: Some((main, byo, stones)), left: [None, None] };
                Ok(String::new())
            }
            ("time_settings", _) => Err(syntax()),
            ("time_left", [color, time, stones]) => {
                let black = gtp::parse_color(color).ok_or_else(syntax)?;
                let time = time.parse::<f64>().ok().filter(|x| *x >= 0.0 && x.is_finite()).ok_or_else(syntax)?;
                let stones = stones.parse().map_err(|_| syntax())?;
                self.clock.left[usize::from(!black)] = Some((Duration::from_secs_f64(time), stones));
                Ok(String::new())
            }
            ("time_left", _) => Err(syntax()),
            _ => match self.game.extra(cmd, &self.out) {
                Some(result) => result,
                None => Err(errors::UNKNOWN_COMMAND.into()),
            },
        }
    }
}
