//! The GTP checks (Go, Othello).

use std::io;
use std::time::{Duration, Instant};

use bitboards::{Outcome, Player as Side};

use super::rules::{Rules, line_of_play};
use super::{ANSWER_TIME, Checker, EngineSpec, GameSetup, MARGIN, Miss, PROMPT, fault_miss, shorten};
use crate::games::DEFAULT_GTP_GAME;

/// How long GTP `final_score` may take: a scoring command may search (GNU Go 3.8
/// takes about 14 s on a nearly empty 9×9 board on a loaded 2-core machine).
const SCORE_TIME: Duration = Duration::from_secs(60);

/// The commands every GTP version 2 engine must know.
const GTP_REQUIRED: [&str; 11] = [
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
];

/// A command no engine knows.
const UNKNOWN_COMMAND: &str = "sente-no-such-command";

impl Checker<'_> {
    /// GTP: sends `command` and reads its reply.
    fn gtp(&mut self, command: &str, limit: Duration) -> Result<GtpReply, Miss> {
        self.send(command)?;
        self.gtp_reply(limit, "a reply '= …' or '? …' and an empty line")
    }

    fn gtp_reply(&mut self, limit: Duration, expected: &str) -> Result<GtpReply, Miss> {
        let deadline = Instant::now() + limit;
        let recv =
            |c: &mut Self, seen: &[String]| c.process.recv(deadline).map_err(|f| fault_miss(&f, limit, seen, expected));
        let first = loop {
            let line = recv(self, &[])?;
            if !line.trim().is_empty() {
                break line.trim().to_string();
            }
        };
        if !(first.starts_with('=') || first.starts_with('?')) {
            return Err(Miss::wrong(format!("'{first}'"), "a reply starting with '=' or '?'"));
        }
        let head_len = 1 + first[1..].chars().take_while(char::is_ascii_digit).count();
        let mut reply = GtpReply {
            success: first.starts_with('='),
            head: first[..head_len].to_string(),
            text: first[head_len..].trim().to_string(),
        };
        let seen = [first.clone()];
        loop {
            let line = recv(self, &seen)?;
            if line.trim().is_empty() {
                return Ok(reply);
            }
            reply.text.push('\n');
            reply.text.push_str(line.trim());
        }
    }

    /// GTP: a command that must succeed; its reply text.
    fn gtp_ok(&mut self, command: &str) -> Result<String, Miss> {
        let reply = self.gtp(command, ANSWER_TIME)?;
        if reply.success { Ok(reply.shown()) } else { Err(Miss::wrong(reply.shown(), "'=' (success)")) }
    }
}

/// A GTP reply.
struct GtpReply {
    success: bool,
    /// `=`, `?`, `=7`, …
    head: String,
    text: String,
}

impl GtpReply {
    fn shown(&self) -> String {
        let text = self.text.replace('\n', " ");
        if text.is_empty() { format!("'{}'", self.head) } else { format!("'{} {}'", self.head, shorten(&text, 80)) }
    }
}

fn color_word(black: bool) -> &'static str {
    if black { "black" } else { "white" }
}

/// A well-formed GTP score: `B+3.5`, `W+12`, `0`.
fn score_form(text: &str) -> Option<char> {
    if text == "0" {
        return Some('0');
    }
    let (side, margin) = text.split_once('+')?;
    let side = match side {
        "B" | "b" => 'B',
        "W" | "w" => 'W',
        _ => return None,
    };
    margin.parse::<f64>().ok().filter(|m| m.is_finite() && *m >= 0.0).map(|_| side)
}

pub(super) fn gtp_checks(c: &mut Checker, spec: &EngineSpec, setup: GameSetup) -> io::Result<()> {
    c.check("protocol_version is 2", |c| {
        let r = c.gtp("protocol_version", ANSWER_TIME)?;
        if r.success && r.text == "2" { Ok(r.shown()) } else { Err(Miss::wrong(r.shown(), "'= 2'")) }
    })?;
    c.check("name", |c| {
        let r = c.gtp("name", ANSWER_TIME)?;
        if r.success && !r.text.is_empty() { Ok(r.shown()) } else { Err(Miss::wrong(r.shown(), "'= <a name>'")) }
    })?;
    c.check("version", |c| c.gtp_ok("version"))?;
    let mut commands: Vec<String> = Vec::new();
    c.check("list_commands has the required commands", |c| {
        let r = c.gtp("list_commands", ANSWER_TIME)?;
        commands = r.text.lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect();
        let missing: Vec<&str> = GTP_REQUIRED.iter().copied().filter(|m| !commands.iter().any(|c| c == m)).collect();
        if r.success && missing.is_empty() {
            Ok(format!("{} commands", commands.len()))
        } else {
            Err(Miss::wrong(
                format!("{} commands, without {}", commands.len(), missing.join(" ")),
                GTP_REQUIRED.join(" "),
            ))
        }
    })?;
    let listed = |name: &str| commands.iter().any(|c| c == name);
    c.check("known_command: true for play, false for an unknown one", |c| {
        let yes = c.gtp("known_command play", ANSWER_TIME)?;
        let no = c.gtp(&format!("known_command {UNKNOWN_COMMAND}"), ANSWER_TIME)?;
        if yes.success && yes.text == "true" && no.success && no.text == "false" {
            Ok(format!("{} {}", yes.shown(), no.shown()))
        } else {
            Err(Miss::wrong(format!("{} {}", yes.shown(), no.shown()), "'= true' '= false'"))
        }
    })?;
    c.check("boardsize 99 refused with '?'", |c| {
        let r = c.gtp("boardsize 99", ANSWER_TIME)?;
        if r.success { Err(Miss::wrong(r.shown(), "'? unacceptable size'")) } else { Ok(r.shown()) }
    })?;
    if let Some(name) = setup.kind.gtp_name()
        && setup.kind != DEFAULT_GTP_GAME
        && listed("set_game")
    {
        c.check(&format!("set_game {name}"), |c| c.gtp_ok(&format!("set_game {name}")))?;
    }
    c.check(&format!("boardsize {}", setup.size), |c| c.gtp_ok(&format!("boardsize {}", setup.size)))?;
    c.check("clear_board", |c| c.gtp_ok("clear_board"))?;
    if setup.kind.spec().default_komi().is_some() {
        c.check(&format!("komi {}", setup.komi), |c| c.gtp_ok(&format!("komi {}", setup.komi)))?;
    }
    if listed("time_settings") {
        c.check("time_settings 0 1 1 (a second a move)", |c| c.gtp_ok("time_settings 0 1 1"))?;
    }
    for line in &spec.init {
        c.check(&format!("init '{line}'"), |c| c.gtp_ok(line))?;
    }

    let Ok(mut rules) = Rules::at(&setup, None) else {
        writeln!(c.out, "FAIL  the check's own script: no start position")?;
        c.report.failed += 1;
        return Ok(());
    };
    let line = line_of_play(&rules, 2).unwrap_or_default();
    let mut black = true;
    c.check("play: legal moves accepted", |c| {
        let mut shown = Vec::new();
        for mv in &line {
            shown.push(c.gtp_ok(&format!("play {} {mv}", color_word(black)))?);
            rules.play(mv).map_err(|e| Miss::wrong(e, "(our script)"))?;
            black = !black;
        }
        Ok(shown.join(" "))
    })?;
    let illegal = rules.illegal_example(setup.size);
    c.check("play: an illegal move refused with '?'", |c| {
        let Some(mv) = &illegal else { return Err(Miss::wrong("(no illegal move found)", "")) };
        let r = c.gtp(&format!("play {} {mv}", color_word(black)), ANSWER_TIME)?;
        if r.success { Err(Miss::wrong(r.shown(), "'? …' (illegal move)")) } else { Ok(r.shown()) }
    })?;
    c.check("play: a bad colour and a bad vertex refused with '?'", |c| {
        let legal = rules.moves().first().cloned().unwrap_or_else(|| "pass".into());
        let colour = c.gtp(&format!("play purple {legal}"), ANSWER_TIME)?;
        let vertex = c.gtp(&format!("play {} zz", color_word(black)), ANSWER_TIME)?;
        if colour.success || vertex.success {
            Err(Miss::wrong(format!("{} {}", colour.shown(), vertex.shown()), "'? …' '? …'"))
        } else {
            Ok(format!("{} {}", colour.shown(), vertex.shown()))
        }
    })?;
    c.check(&format!("genmove {}: a legal move", color_word(black)), |c| {
        let start = Instant::now();
        let r = c.gtp(&format!("genmove {}", color_word(black)), Duration::from_secs(1) + MARGIN + ANSWER_TIME)?;
        if !r.success {
            return Err(Miss::wrong(r.shown(), "'= <a legal move>'"));
        }
        if r.text.eq_ignore_ascii_case("resign") {
            return Ok(format!("{} in {} ms", r.shown(), start.elapsed().as_millis()));
        }
        rules.check(&r.text).map_err(|e| Miss::wrong(format!("{} ({e})", r.shown()), "a legal move"))?;
        Ok(format!("{} in {} ms", r.shown(), start.elapsed().as_millis()))
    })?;
    c.check("a numeric id is echoed ('7 name' → '=7 …')", |c| {
        let r = c.gtp("7 name", ANSWER_TIME)?;
        if r.head == "=7" { Ok(r.shown()) } else { Err(Miss::wrong(r.shown(), "'=7 <name>'")) }
    })?;
    c.check("an unknown command gets '?'", |c| {
        let r = c.gtp(UNKNOWN_COMMAND, ANSWER_TIME)?;
        if r.success { Err(Miss::wrong(r.shown(), "'? …'")) } else { Ok(r.shown()) }
    })?;
    c.check("an error reply carries the id ('9 …' → '?9 …')", |c| {
        let r = c.gtp(&format!("9 {UNKNOWN_COMMAND}"), ANSWER_TIME)?;
        if r.head == "?9" { Ok(r.shown()) } else { Err(Miss::wrong(r.shown(), "'?9 …'")) }
    })?;
    c.check("empty and comment lines are ignored", |c| {
        c.send("")?;
        c.send("# a comment")?;
        let r = c.gtp("8 protocol_version", ANSWER_TIME)?;
        if r.head == "=8" && r.text == "2" {
            Ok(r.shown())
        } else {
            Err(Miss::wrong(r.shown(), "'=8 2' (the first reply)"))
        }
    })?;
    if listed("final_score") {
        let (name, moves): (&str, Vec<String>) = match setup.kind.spec().ended_line() {
            Some(line) => ("final_score of a finished game", line.iter().map(|m| m.to_string()).collect()),
            None => ("final_score is well formed", Vec::new()),
        };
        c.check(name, |c| {
            let mut want = None;
            if !moves.is_empty() {
                let mut r = Rules::at(&setup, None).map_err(|e| Miss::wrong(e, ""))?;
                c.gtp_ok("clear_board")?;
                for (i, mv) in moves.iter().enumerate() {
                    c.gtp_ok(&format!("play {} {mv}", color_word(i % 2 == 0)))?;
                    r.play(mv).map_err(|e| Miss::wrong(e, "(our script)"))?;
                }
                want = match r.outcome() {
                    Some(Outcome::Win(Side::One)) => Some('B'),
                    Some(Outcome::Win(Side::Two)) => Some('W'),
                    Some(_) => Some('0'),
                    None => return Err(Miss::wrong("(our script's game is not over)", "")),
                };
            }
            let r = c.gtp("final_score", SCORE_TIME)?;
            match (r.success, score_form(&r.text), want) {
                (true, Some(side), Some(w)) if side != w => {
                    Err(Miss::wrong(r.shown(), format!("a score that starts with {w} (our rules)")))
                }
                (true, Some(_), _) => Ok(r.shown()),
                _ => Err(Miss::wrong(r.shown(), "'= B+<n>', '= W+<n>' or '= 0'")),
            }
        })?;
    }
    c.check("quit answers and exits within a second", |c| {
        let r = c.gtp("quit", ANSWER_TIME)?;
        if !r.success {
            return Err(Miss::wrong(r.shown(), "'='"));
        }
        let start = Instant::now();
        match c.process.wait_exit(PROMPT) {
            Some(status) => Ok(format!("{}, exited after {} ms ({status})", r.shown(), start.elapsed().as_millis())),
            None => Err(Miss::wrong(
                format!("{}, still running after {} ms", r.shown(), PROMPT.as_millis()),
                format!("exit within {} ms", PROMPT.as_millis()),
            )),
        }
    })?;
    Ok(())
}
