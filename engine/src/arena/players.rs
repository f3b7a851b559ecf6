//! The engines of a match seen through their protocols: UGI+, GTP and NBoard. Each
//! adapter starts its engine, sets it up for the game, and turns "your move, with
//! this clock" into the protocol's commands and the reply into a move text. The arena
//! checks the move; the adapter only checks that the reply is well formed.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::process::{Fault, Log, Process};
use crate::games::{DEFAULT_GTP_GAME, GameKind};

/// How long an engine may take to start and to answer set-up commands.
const SETUP_TIME: Duration = Duration::from_secs(30);
/// Lines an engine may print that the arena does not understand, per request.
const MAX_OTHER_LINES: usize = 1000;

/// How the lines an engine may write before `ugiok` begin (anything else is not the
/// protocol, see [`Process::recv_handshake`]).
pub(super) const UGI_LINES: &[&str] = &["id", "option", "info", "ugiok", "uciok"];

/// Which protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UGI+ (and UCI-shaped engines).
    Ugi,
    /// GTP version 2.
    Gtp,
    /// NBoard protocol 2 (Othello).
    Nboard,
    /// The Phantom Go competition platform's protocol (Phantom Go only).
    Phantom,
}

/// An engine of a match: `name=sente cmd="target/release/sente" proto=ugi
/// option.Hash=64 init="komi 7"`.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The name in results and records.
    pub name: String,
    /// Program and arguments.
    pub command: Vec<String>,
    /// Its protocol.
    pub protocol: Protocol,
    /// Options: UGI `setoption`, NBoard `set`.
    pub options: Vec<(String, String)>,
    /// Commands sent as they are after set-up (GTP commands, for instance).
    pub init: Vec<String>,
}

impl EngineSpec {
    /// Reads a specification: shell-quoted `key=value` fields.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let fields = shlex::split(text).ok_or_else(|| format!("engine '{text}': unbalanced quotes"))?;
        let mut spec = EngineSpec {
            name: String::new(),
            command: Vec::new(),
            protocol: Protocol::Ugi,
            options: Vec::new(),
            init: Vec::new(),
        };
        for field in fields {
            let (key, value) =
                field.split_once('=').ok_or_else(|| format!("engine field '{field}': expected key=value"))?;
            match key {
                "name" => spec.name = value.to_string(),
                "cmd" => {
                    spec.command = shlex::split(value).ok_or_else(|| format!("cmd '{value}': unbalanced quotes"))?
                }
                "proto" => {
                    spec.protocol = match value.to_ascii_lowercase().as_str() {
                        "ugi" | "uci" => Protocol::Ugi,
                        "gtp" => Protocol::Gtp,
                        "nboard" => Protocol::Nboard,
                        "phantom" => Protocol::Phantom,
                        other => return Err(format!("proto '{other}': ugi, gtp, nboard or phantom")),
                    }
                }
                "init" => spec.init.push(value.to_string()),
                _ => match key.strip_prefix("option.") {
                    Some(option) => spec.options.push((option.to_string(), value.to_string())),
                    None => return Err(format!("engine field '{key}': name, cmd, proto, option.<name> or init")),
                },
            }
        }
        if spec.command.is_empty() {
            return Err(format!("engine '{text}': no cmd=..."));
        }
        if spec.name.is_empty() {
            spec.name = spec.command[0].rsplit('/').next().unwrap_or("engine").to_string();
        }
        Ok(spec)
    }
}

/// The game every engine of a match is set up for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameSetup {
    /// Which game.
    pub kind: GameKind,
    /// Board side (Othello, Go).
    pub size: usize,
    /// Komi (Go).
    pub komi: f64,
}

/// How moves are limited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A clock per side: base time and an increment per move.
    Clock {
        /// Time at the start.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// A fixed time per move.
    PerMove(Duration),
    /// A fixed number of nodes (or playouts) per move; only UGI+ engines can be told.
    Nodes(u64),
}

/// One request for a move.
pub struct MoveRequest<'a> {
    /// The start position in the game's text form (`None`: the standard start).
    pub start: Option<&'a str>,
    /// The start in GGF `BO` form, for NBoard.
    pub ggf_board: &'a str,
    /// Every move since the start, in the arena's text.
    pub moves: &'a [String],
    /// The seat of each move (0: the first player).
    pub seats: &'a [usize],
    /// The seat asked to move.
    pub seat: usize,
    /// Time control.
    pub control: TimeControl,
    /// Time left on both clocks (for `TimeControl::Clock`).
    pub clocks: [Duration; 2],
    /// When the answer must have arrived.
    pub deadline: Instant,
}

/// What an engine answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A move, as the engine wrote it.
    Move(String),
    /// It resigned.
    Resign,
}

/// What an engine said about its search for one move: UGI+ `info` fields (the last
/// value of each since `go`), NBoard's eval and `nodestats`. GTP engines say nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchInfo {
    /// The score for the side to move: UGI+ `score cp` / 100, NBoard's eval in discs.
    pub score: Option<f64>,
    /// Search depth (UGI+ `depth`).
    pub depth: Option<u32>,
    /// Nodes or playouts (UGI+ `nodes`, NBoard `nodestats`).
    pub nodes: Option<u64>,
}

impl SearchInfo {
    /// Takes in the fields of a UGI+ `info` line (`score mate` gives no score; a
    /// field with a malformed value is left as it was).
    pub fn read_ugi(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() != Some(&"info") {
            return;
        }
        let mut i = 1;
        while i < words.len() {
            match words[i] {
                // The rest of the line is free text.
                "string" | "pv" => break,
                "depth" => {
                    if let Some(d) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                        self.depth = Some(d);
                    }
                }
                "nodes" => {
                    if let Some(n) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                        self.nodes = Some(n);
                    }
                }
                "score" if words.get(i + 1) == Some(&"cp") => {
                    if let Some(cp) = words.get(i + 2).and_then(|w| w.parse::<i64>().ok()) {
                        self.score = Some(cp as f64 / 100.0);
                    }
                    i += 1;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

/// A started engine.
pub struct Player {
    spec: EngineSpec,
    setup: GameSetup,
    control: TimeControl,
    process: Process,
    /// GTP: moves the engine knows of.
    synced: usize,
    /// NBoard: the last ping number.
    ping: u64,
    /// Set-up is under way: GTP replies are awaited as a handshake
    /// ([`Process::recv_handshake`]).
    in_setup: bool,
    /// What the engine said about its last move's search.
    info: SearchInfo,
}

/// The start of an NBoard `set game` GGF record from the position `ggf_board` (`BO`
/// form) on a board of side `size`: the moves and `;)` follow.
fn ggf_game_start(size: usize, ggf_board: &str) -> String {
    format!("(;GM[Othello]PC[sente arena]PB[?]PW[?]RE[?]TY[{size}]BO[{ggf_board}]")
}

/// GTP's colour of a seat: the first player is black in Othello and Go.
fn color_word(seat: usize) -> &'static str {
    if seat == 0 { "black" } else { "white" }
}

impl Player {
    /// Starts an engine and sets it up for a new game.
    pub fn start(
        spec: &EngineSpec,
        setup: GameSetup,
        control: TimeControl,
        log: Option<Log>,
        stop: Arc<AtomicBool>,
    ) -> Result<Player, Fault> {
        if spec.protocol == Protocol::Nboard && !setup.kind.spec().speaks_nboard() {
            return Err(Fault::Protocol("NBoard engines play Othello only".into()));
        }
        if spec.protocol == Protocol::Gtp && setup.kind.gtp_name().is_none() && !setup.kind.spec().hides_moves() {
            return Err(Fault::Protocol(format!("{} is played over UGI+ only", setup.kind.spec().title())));
        }
        if spec.protocol == Protocol::Phantom || setup.kind.spec().hides_moves() {
            return Err(Fault::Protocol("Phantom Go is refereed by its own arena code (arena/phantom.rs)".into()));
        }
        let process = Process::start(&spec.name, &spec.command, log, stop)?;
        let mut player = Player {
            spec: spec.clone(),
            setup,
            control,
            process,
            synced: 0,
            ping: 0,
            in_setup: true,
            info: SearchInfo::default(),
        };
        let deadline = Instant::now() + SETUP_TIME;
        match spec.protocol {
            Protocol::Ugi => player.setup_ugi(deadline)?,
            Protocol::Gtp => player.setup_gtp(deadline)?,
            Protocol::Nboard => player.setup_nboard(deadline)?,
            Protocol::Phantom => return Err(Fault::Protocol("Phantom Go is played with proto=phantom".into())),
        }
        player.in_setup = false;
        Ok(player)
    }

    fn setup_ugi(&mut self, deadline: Instant) -> Result<(), Fault> {
        self.process.send("ugi")?;
        self.process.recv_handshake(deadline, UGI_LINES, |l| (l == "ugiok" || l == "uciok").then_some(()))?;
        self.process.send(&format!("setoption name Game value {}", self.setup.kind.name()))?;
        let sizes = self.setup.kind.board_sizes();
        if sizes.min < sizes.max {
            self.process.send(&format!("setoption name BoardSize value {}", self.setup.size))?;
        }
        if self.setup.kind.spec().default_komi().is_some() {
            self.process.send(&format!("setoption name Komi value {}", self.setup.komi))?;
        }
        for (name, value) in self.spec.options.clone() {
            self.process.send(&format!("setoption name {name} value {value}"))?;
        }
        for line in self.spec.init.clone() {
            self.process.send(&line)?;
        }
        self.process.send("uginewgame")?;
        self.process.send("isready")?;
        self.process.recv_until(deadline, MAX_OTHER_LINES, |l| (l == "readyok").then_some(()))
    }

    /// Sends a GTP command and returns the reply's text (after `=`), or the error
    /// text (after `?`) as `Err(Ok(..))`.
    fn gtp(&mut self, command: &str, deadline: Instant) -> Result<Result<String, String>, Fault> {
        self.process.send(command)?;
        let reply = |l: &str| (l.starts_with('=') || l.starts_with('?')).then(|| l.to_string());
        let first = if self.in_setup {
            self.process.recv_handshake(deadline, &[], reply)?
        } else {
            self.process.recv_until(deadline, MAX_OTHER_LINES, reply)?
        };
        let mut text = first[1..].trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string();
        loop {
            let line = self.process.recv(deadline)?;
            if line.trim().is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(line.trim());
        }
        Ok(if first.starts_with('=') { Ok(text) } else { Err(text) })
    }

    fn gtp_must(&mut self, command: &str, deadline: Instant) -> Result<String, Fault> {
        self.gtp(command, deadline)?.map_err(|e| Fault::Protocol(format!("'{command}' refused: {e}")))
    }

    fn setup_gtp(&mut self, deadline: Instant) -> Result<(), Fault> {
        if let Some(name) = self.setup.kind.gtp_name()
            && self.setup.kind != DEFAULT_GTP_GAME
        {
            // GRhino and Quarry select Othello so; Go engines need not know it.
            let _ = self.gtp(&format!("set_game {name}"), deadline)?;
            let size = self.gtp(&format!("boardsize {}", self.setup.size), deadline)?;
            if size.is_err() && self.setup.size != self.setup.kind.board_sizes().default {
                return Err(Fault::Protocol(format!("cannot play on a {0}x{0} board", self.setup.size)));
            }
        } else {
            self.gtp_must(&format!("boardsize {}", self.setup.size), deadline)?;
        }
        self.gtp_must("clear_board", deadline)?;
        if self.setup.kind.spec().default_komi().is_some() {
            self.gtp_must(&format!("komi {}", self.setup.komi), deadline)?;
        }
        // GTP counts whole seconds: a clock is main time, a fixed time per move is
        // byo-yomi of one stone (at least a second).
        match self.control {
            TimeControl::Clock { base, .. } => {
                let _ = self.gtp(&format!("time_settings {} 0 0", base.as_secs()), deadline)?;
            }
            TimeControl::PerMove(t) => {
                let _ = self.gtp(&format!("time_settings 0 {} 1", t.as_secs().max(1)), deadline)?;
            }
            TimeControl::Nodes(_) => {}
        }
        for line in self.spec.init.clone() {
            self.gtp_must(&line, deadline)?;
        }
        Ok(())
    }

    fn setup_nboard(&mut self, deadline: Instant) -> Result<(), Fault> {
        self.process.send("nboard 2")?;
        for (name, value) in self.spec.options.clone() {
            self.process.send(&format!("set {name} {value}"))?;
        }
        for line in self.spec.init.clone() {
            self.process.send(&line)?;
        }
        self.nboard_sync(deadline)
    }

    fn nboard_sync(&mut self, deadline: Instant) -> Result<(), Fault> {
        self.ping += 1;
        let want = format!("pong {}", self.ping);
        self.process.send(&format!("ping {}", self.ping))?;
        self.process.recv_until(deadline, MAX_OTHER_LINES, |l| (l == want).then_some(()))
    }

    /// Makes sure that nothing the engine wrote before is taken for its answer to the
    /// next request: a UGI+ engine is sent `isready`, and what it writes before
    /// `readyok` is dropped — a second `bestmove` for one `go`, say, which cutechess
    /// also ignores (a move that comes while the engine is not thinking). An NBoard
    /// request syncs with `ping` itself; GTP answers are matched in order.
    pub fn sync(&mut self, deadline: Instant) -> Result<(), Fault> {
        match self.spec.protocol {
            Protocol::Ugi => {
                self.process.send("isready")?;
                self.process.recv_until(deadline, MAX_OTHER_LINES, |l| (l == "readyok").then_some(()))
            }
            Protocol::Gtp | Protocol::Nboard | Protocol::Phantom => Ok(()),
        }
    }

    /// What the engine said about the search of its last move.
    pub fn search_info(&self) -> SearchInfo {
        self.info
    }

    /// Asks for a move.
    pub fn genmove(&mut self, req: &MoveRequest) -> Result<Reply, Fault> {
        self.info = SearchInfo::default();
        match self.spec.protocol {
            Protocol::Ugi => self.genmove_ugi(req),
            Protocol::Gtp => self.genmove_gtp(req),
            Protocol::Nboard => self.genmove_nboard(req),
            Protocol::Phantom => Err(Fault::Protocol("a platform engine in a game that is not Phantom Go".into())),
        }
    }

    fn genmove_ugi(&mut self, req: &MoveRequest) -> Result<Reply, Fault> {
        let mut position = match req.start {
            None => "position startpos".to_string(),
            Some(fen) => format!("position fen {fen}"),
        };
        if !req.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&req.moves.join(" "));
        }
        self.process.send(&position)?;
        let go = match req.control {
            TimeControl::Clock { increment, .. } => format!(
                "go p1time {} p2time {} p1inc {} p2inc {}",
                req.clocks[0].as_millis(),
                req.clocks[1].as_millis(),
                increment.as_millis(),
                increment.as_millis()
            ),
            TimeControl::PerMove(t) => format!("go movetime {}", t.as_millis()),
            TimeControl::Nodes(n) => format!("go nodes {n}"),
        };
        self.process.send(&go)?;
        let info = &mut self.info;
        let best = self.process.recv_until(req.deadline, MAX_OTHER_LINES, |l| {
            info.read_ugi(l);
            let mut words = l.split_whitespace();
            (words.next() == Some("bestmove")).then(|| words.next().unwrap_or("").to_string())
        })?;
        match best.as_str() {
            "" | "none" | "(none)" => Err(Fault::Protocol(format!("'bestmove {best}' in a game that is not over"))),
            "resign" => Ok(Reply::Resign),
            _ => Ok(Reply::Move(best)),
        }
    }

    fn genmove_gtp(&mut self, req: &MoveRequest) -> Result<Reply, Fault> {
        // Tell the engine the moves it has not seen (its own last reply it knows).
        while self.synced < req.moves.len() {
            let (mv, seat) = (&req.moves[self.synced], req.seats[self.synced]);
            let command = format!("play {} {mv}", color_word(seat));
            if let Err(e) = self.gtp(&command, req.deadline)?
                && !(mv == "pass" && self.setup.kind.spec().passes_only_when_forced())
            {
                return Err(Fault::Protocol(format!("refused the legal move '{command}': {e}")));
            }
            self.synced += 1;
        }
        let color = color_word(req.seat);
        match req.control {
            TimeControl::Clock { .. } => {
                let secs = req.clocks[req.seat].as_secs();
                let _ = self.gtp(&format!("time_left {color} {secs} 0"), req.deadline)?;
            }
            TimeControl::PerMove(_) | TimeControl::Nodes(_) => {}
        }
        let reply = self.gtp(&format!("genmove {color}"), req.deadline)?;
        let text = reply.map_err(|e| Fault::Protocol(format!("genmove failed: {e}")))?;
        self.synced = req.moves.len() + 1;
        match text.to_ascii_lowercase().as_str() {
            "resign" => Ok(Reply::Resign),
            "" => Err(Fault::Protocol("empty genmove reply".into())),
            _ => Ok(Reply::Move(text)),
        }
    }

    fn genmove_nboard(&mut self, req: &MoveRequest) -> Result<Reply, Fault> {
        let mut ggf = ggf_game_start(self.setup.size, req.ggf_board);
        for (mv, &seat) in req.moves.iter().zip(req.seats) {
            let text = if mv == "pass" { "PA".to_string() } else { mv.to_ascii_uppercase() };
            ggf.push_str(&format!("{}[{text}]", if seat == 0 { "B" } else { "W" }));
        }
        ggf.push_str(";)");
        self.process.send(&format!("set game {ggf}"))?;
        self.nboard_sync(req.deadline)?;
        self.process.send("go")?;
        let info = &mut self.info;
        let (text, eval) = self.process.recv_until(req.deadline, MAX_OTHER_LINES, |l| {
            let mut words = l.split_whitespace();
            if words.next() == Some("nodestats")
                && let Some(n) = words.next().and_then(|w| w.parse::<f64>().ok())
            {
                info.nodes = Some(n as u64);
            }
            l.strip_prefix("===").map(|rest| {
                let mut parts = rest.trim().split('/');
                let text = parts.next().unwrap_or("").trim().to_string();
                (text, parts.next().and_then(|e| e.trim().parse::<f64>().ok()))
            })
        })?;
        self.info.score = eval;
        if text.is_empty() {
            return Err(Fault::Protocol("'===' without a move".into()));
        }
        Ok(Reply::Move(text))
    }

    /// NBoard: the engine's value of the position `ggf_board` (GGF `BO` form, the side
    /// to move having a move), in discs for the side to move, by `hint 1` at the depth
    /// it was set to: the eval of the last `search` line before the empty `status` that
    /// ends the hint. (Not a `ping` after the hint: an engine may stop its search for
    /// it.)
    pub fn nboard_value(&mut self, ggf_board: &str, deadline: Instant) -> Result<f64, Fault> {
        if self.spec.protocol != Protocol::Nboard {
            return Err(Fault::Protocol("position values are asked over NBoard only".into()));
        }
        self.process.send(&format!("set game {};)", ggf_game_start(self.setup.size, ggf_board)))?;
        self.nboard_sync(deadline)?;
        self.process.send("hint 1")?;
        let mut value = None;
        self.process.recv_until(deadline, MAX_OTHER_LINES, |l| {
            let mut words = l.split_whitespace();
            match words.next() {
                Some("search") => {
                    if let Some(v) = words.nth(1).and_then(|w| w.parse::<f64>().ok()) {
                        value = Some(v);
                    }
                    None
                }
                Some("status") if words.next().is_none() && value.is_some() => Some(()),
                _ => None,
            }
        })?;
        value.ok_or_else(|| Fault::Protocol("'hint 1' gave no 'search' line with a value".into()))
    }

    /// GTP: the dead stones the engine sees at the end of a Go game (`None` if it
    /// cannot say).
    pub fn dead_stones(&mut self) -> Option<Vec<String>> {
        if self.spec.protocol != Protocol::Gtp {
            return None;
        }
        let deadline = Instant::now() + SETUP_TIME;
        let text = self.gtp("final_status_list dead", deadline).ok()?.ok()?;
        let mut v: Vec<String> = text.split_whitespace().map(|s| s.to_ascii_uppercase()).collect();
        v.sort();
        Some(v)
    }

    /// Sets the engine up for another game from the standard start, for a tool that
    /// asks one engine about many positions: GTP `clear_board` (komi and the board
    /// size stay), UGI+ `uginewgame`; an NBoard request sends the whole game anyway.
    pub fn new_game(&mut self, deadline: Instant) -> Result<(), Fault> {
        match self.spec.protocol {
            Protocol::Gtp => {
                self.gtp_must("clear_board", deadline)?;
                self.synced = 0;
                Ok(())
            }
            Protocol::Ugi => {
                self.process.send("uginewgame")?;
                self.sync(deadline)
            }
            Protocol::Nboard => Ok(()),
            Protocol::Phantom => Err(Fault::Protocol("a platform engine plays Phantom Go matches only".into())),
        }
    }

    /// Tells the engine the game is over and ends its process.
    pub fn quit(mut self) {
        self.process.quit("quit");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ugi_info_lines_give_the_last_score_depth_and_nodes() {
        let mut info = SearchInfo::default();
        info.read_ugi("info depth 3 nodes 120 score cp -45 pv d3 c5");
        info.read_ugi("info depth 4 nodes 800 time 12 nps 66666 score cp 130 pv d3 c5");
        assert_eq!(info, SearchInfo { score: Some(1.3), depth: Some(4), nodes: Some(800) });
        // A mate score gives no number; free text after `string` or `pv` is not read;
        // a malformed value leaves the field as it was; other lines are not info.
        info.read_ugi("info score mate 3 depth 5");
        info.read_ugi("info string depth 99 nodes 1");
        info.read_ugi("info pv depth 98");
        info.read_ugi("info depth x nodes -3");
        info.read_ugi("bestmove d3 depth 97");
        assert_eq!(info, SearchInfo { score: Some(1.3), depth: Some(5), nodes: Some(800) });
    }
}
