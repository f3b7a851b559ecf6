//! The NBoard checks (Othello).

use std::io;
use std::time::{Duration, Instant};

use super::rules::{Rules, Spot, line_of_play};
use super::{ANSWER_TIME, Checker, EngineSpec, GameSetup, MARGIN, Miss, shorten};
use crate::games::NBOARD_GAME;

impl Checker<'_> {
    /// NBoard: `ping n` answered `pong n`; the lines before it.
    fn ping(&mut self, n: u32, limit: Duration) -> Result<Vec<String>, Miss> {
        self.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        Ok(self.until(limit, &format!("'{want}'"), |l| (l == want).then_some(()))?.0)
    }
}

/// The move of an NBoard `=== move[/eval[/time]]` line.
fn nboard_move(line: &str) -> Option<String> {
    line.strip_prefix("===").map(|rest| rest.trim().split('/').next().unwrap_or("").trim().to_string())
}

pub(super) fn nboard_checks(c: &mut Checker, spec: &EngineSpec) -> io::Result<()> {
    let setup = GameSetup { kind: NBOARD_GAME, size: 8, komi: 0.0 };
    let Ok(start) = Rules::at(&setup, None) else {
        writeln!(c.out, "FAIL  the check's own script: no start position")?;
        c.report.failed += 1;
        return Ok(());
    };
    let line = line_of_play(&start, 3).unwrap_or_default();
    let spot = Spot { startpos: true, start: None, moves: line.clone() };
    let Ok(mut rules) = Rules::of(&setup, &spot) else {
        writeln!(c.out, "FAIL  the check's own script")?;
        c.report.failed += 1;
        return Ok(());
    };
    c.check("nboard 2, ping 1 → pong 1", |c| {
        c.send("nboard 2")?;
        c.ping(1, ANSWER_TIME).map(|_| "'pong 1'".to_string())
    })?;
    c.check("set depth 2, ping 2 → pong 2", |c| {
        c.send("set depth 2")?;
        for (name, value) in &spec.options {
            c.send(&format!("set {name} {value}"))?;
        }
        for line in &spec.init {
            c.send(line)?;
        }
        c.ping(2, ANSWER_TIME).map(|_| "'pong 2'".to_string())
    })?;
    c.check("set game <GGF>, ping 3 → pong 3", |c| {
        c.send(&format!("set game {}", Rules::ggf(&line)))?;
        c.ping(3, ANSWER_TIME).map(|_| "'pong 3'".to_string())
    })?;
    let search = |c: &mut Checker, rules: &Rules| -> Result<String, Miss> {
        c.send("go")?;
        let start = Instant::now();
        let (_, mv) = c.until(ANSWER_TIME + MARGIN, "'=== <a legal move>'", nboard_move)?;
        rules.check(&mv).map_err(|e| Miss::wrong(format!("'=== {mv}' ({e})"), "a legal move"))?;
        Ok(format!("'=== {mv}' in {} ms", start.elapsed().as_millis()))
    };
    c.check("go → === a legal move", |c| search(c, &rules))?;
    c.check("hint 1 → search lines with a legal move, ping 5 → pong 5", |c| {
        c.send("hint 1")?;
        let other = c.ping(5, ANSWER_TIME + MARGIN)?;
        let searches: Vec<&String> = other.iter().filter(|l| l.starts_with("search ")).collect();
        let Some(first) = searches.first() else {
            return Err(Miss::wrong(
                format!("{} other lines, no 'search'", other.len()),
                "'search <move> <eval> 0 <depth>'",
            ));
        };
        let mv = first.split_whitespace().nth(1).unwrap_or("");
        let mv: String = mv.chars().take(2).collect();
        rules.check(&mv).map_err(|e| Miss::wrong(format!("'{first}' ({e})"), "a legal first move"))?;
        Ok(format!("{} search lines, e.g. '{}'", searches.len(), shorten(first, 50)))
    })?;
    let next = rules.moves().first().cloned().unwrap_or_else(|| "pass".into());
    c.check(&format!("move {next}, go → === a legal move"), |c| {
        c.send(&format!("move {next}"))?;
        rules.play(&next).map_err(|e| Miss::wrong(e, "(our script)"))?;
        search(c, &rules)
    })?;
    c.check("a malformed line is survived (ping 7 → pong 7)", |c| {
        c.send("xyzzy 12 \u{1}")?;
        c.ping(7, ANSWER_TIME).map(|_| "'pong 7'".to_string())
    })?;
    c.check("quit exits within a second", |c| c.quit())?;
    Ok(())
}
