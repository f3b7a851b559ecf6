//! Phantom Go's replay: one frame per try, the arena's (or the referee board's) text
//! record replayed through our referee, with the referee's board and each player's
//! view.

use std::collections::HashMap;

use anyhow::{Result, bail};
use bitboards::go::{self, Color, Point};
use bitboards::phantom::{Answer, PhantomConfig, PhantomRules, Referee, SIZE as PHANTOM_SIZE, View};

use super::{Frame, Frames, ReplayInput, Replayed, cell, go_cells};
use crate::games::referee::{MoveStat, stat_at};

/// The first line of every Phantom Go text record, up to the rules' name.
pub const RECORD_HEADER: &str = "# Phantom Go (";

/// The whole first line of a Phantom Go text record: `# Phantom Go (ccgc rules), komi
/// 7.5` ([`replay`] reads it back).
pub fn record_header(rules: &str, komi: f64) -> String {
    format!("{RECORD_HEADER}{rules} rules), komi {komi}")
}

/// Replays a Phantom Go game, one frame per try.
pub fn replay(input: &ReplayInput) -> Result<Replayed> {
    let (frames, note) = phantom_frames(input.text, input.plies)?;
    Ok(Replayed { frames, note, size: PHANTOM_SIZE })
}

/// How many tries of a Phantom Go text record the report replays, or why it stops
/// (the referee's board writes this record too, and its tests read it back here).
#[cfg(test)]
pub(crate) fn phantom_record_tries(text: &str) -> Result<usize, String> {
    match phantom_frames(text, &[]) {
        Ok((frames, None)) => Ok(frames.len() - 1),
        Ok((_, Some(problem))) => Err(problem),
        Err(e) => Err(e.to_string()),
    }
}

/// A view's marks: refused tries of the turn, the points of the last capture.
fn view_marks(v: &View) -> Vec<(usize, char)> {
    let mut marks: Vec<(usize, char)> = go::bits(v.refused()).map(|p| (cell(p, PHANTOM_SIZE), 'r')).collect();
    marks.extend(go::bits(v.last_captured()).map(|p| (cell(p, PHANTOM_SIZE), 't')));
    marks
}

/// Phantom Go frames, one per try, from the arena's text record (`# Phantom Go (ccgc
/// rules), komi 7.5` and one line per try: number, `B`/`W`, the point or `pass`, the
/// answer), replayed through our referee; each answer is checked against the record.
pub(super) fn phantom_frames(text: &str, plies: &[MoveStat]) -> Result<Frames> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    let Some(rest) = header.strip_prefix(RECORD_HEADER) else {
        bail!("not a Phantom Go record (its first line is not '# Phantom Go (<rules> rules), komi K')")
    };
    let rules = if rest.starts_with("openspiel") { PhantomRules::OpenSpiel } else { PhantomRules::Ccgc };
    let komi = match rest.split_once("komi ") {
        Some((_, k)) => go::parse_komi(k.trim()).map_err(|e| anyhow::anyhow!("komi '{k}': {e}"))?,
        None => 7.5,
    };
    let mut referee = Referee::new(PhantomConfig::for_rules(rules).with_komi(komi));
    let frame_of = |r: &Referee| {
        let full = go_cells(r.board());
        let views = [Color::BLACK, Color::WHITE].map(|c| r.view(c));
        let k = full.1 + views.iter().map(|v| v.board_text().chars().filter(|&c| c != '.').count()).sum::<usize>();
        let [b, w] = r.stone_counts();
        let t = format!(
            "black {b} stones, white {w} · captured by black {}, by white {} · {}",
            r.board().prisoners(Color::BLACK),
            r.board().prisoners(Color::WHITE),
            if r.is_over() {
                "the game is over".to_string()
            } else {
                format!("{} to try", if r.to_move() == Color::BLACK { "black" } else { "white" })
            }
        );
        Frame {
            b: vec![full.0, views[0].board_text(), views[1].board_text()],
            x: vec![Vec::new(), view_marks(views[0]), view_marks(views[1])],
            t,
            k,
            ..Frame::default()
        }
    };
    let mut frames = vec![frame_of(&referee)];
    // `# try N <annotation>` lines: what the engine said about try N.
    let mut notes: HashMap<usize, String> = HashMap::new();
    let lines: Vec<&str> = lines.collect();
    for line in &lines {
        if let Some(rest) = line.strip_prefix("# try ")
            && let Some((n, note)) = rest.split_once(' ')
            && let Ok(n) = n.parse::<usize>()
        {
            notes.insert(n, note.to_string());
        }
    }
    for line in lines.into_iter().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [_, color, vertex, answer, ..] = words[..] else {
            return Ok((frames, Some(format!("a line that is not a try: '{line}'"))));
        };
        let to_move = referee.to_move();
        if !color.starts_with(to_move.stone_letter()) {
            return Ok((frames, Some(format!("'{line}': {} was to try", to_move.stone_letter()))));
        }
        let mv = if vertex == "pass" {
            go::Move::Pass
        } else {
            match Point::from_gtp(vertex, PHANTOM_SIZE) {
                Ok(p) => go::Move::Play(p),
                Err(e) => return Ok((frames, Some(format!("'{line}': {e}")))),
            }
        };
        let a = match referee.try_move(mv) {
            Ok(a) => a,
            Err(e) => return Ok((frames, Some(format!("'{line}': {e}")))),
        };
        let expected = match a {
            Answer::Legal { .. } => "accepted",
            Answer::Passed => "pass",
            Answer::Illegal { .. } => "refused",
        };
        if !answer.starts_with(expected) {
            return Ok((frames, Some(format!("'{line}': our referee answers {expected}"))));
        }
        let mut f = frame_of(&referee);
        let told: Vec<&str> = words[3..].to_vec();
        f.m = format!("{vertex} {}", told.join(" "));
        f.s = Some(to_move.index() as u8);
        if let go::Move::Play(p) = mv {
            f.at = Some(cell(p, PHANTOM_SIZE));
        }
        if let Answer::Legal { captured } = a
            && captured != 0
        {
            f.x[0] = go::bits(captured).map(|p| (cell(p, PHANTOM_SIZE), 'c')).collect();
        }
        f.c = notes.get(&(frames.len())).cloned();
        // This try's data: the one asked for after the tries before it.
        let tries_before = frames.len() - 1;
        f = f.with_stat(stat_at(plies, tries_before));
        frames.push(f);
    }
    Ok((frames, None))
}
