//! Chaos Clock's replay: the arena's text record through our rules.

use std::collections::HashMap;

use anyhow::{Result, bail};
use bitboards::chaosclock::{self as cc, Record as ClockRecord};

use super::{Frame, Frames, ReplayInput, Replayed};
use crate::games::referee::{MoveStat, stat_at};

/// Replays a Chaos Clock game from the arena's text record.
pub fn replay(input: &ReplayInput) -> Result<Replayed> {
    let (frames, note) = clock_frames(input.text, &|p| stat_at(input.plies, p))?;
    Ok(Replayed { frames, note, size: 12 })
}

/// Whether a text record is a Chaos Clock record: it has a `start <position>` line
/// that reads as a Chaos Clock position.
pub fn is_record(text: &str) -> bool {
    text.lines().filter_map(|l| l.trim().strip_prefix("start ")).any(|p| cc::State::parse(p).is_ok())
}

/// Chaos Clock frames from the arena's text record: `start <position>`, `moves …`
/// (other lines: the players, the result; `ply N <move> <annotation>` lines annotate
/// move N; lines not known are skipped).
pub(super) fn clock_frames<'a>(text: &str, stat: &dyn Fn(usize) -> Option<&'a MoveStat>) -> Result<Frames> {
    let mut start = None;
    let mut moves: Vec<&str> = Vec::new();
    let mut notes: HashMap<usize, String> = HashMap::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(pos) = line.strip_prefix("start ") {
            start = Some(cc::State::parse(pos).map_err(|e| anyhow::anyhow!("bad start '{pos}': {e}"))?);
        } else if let Some(list) = line.strip_prefix("moves") {
            moves = list.split_whitespace().collect();
        } else if let Some(rest) = line.strip_prefix("ply ") {
            let mut words = rest.splitn(3, ' ');
            if let (Some(n), Some(_mv), Some(note)) = (words.next(), words.next(), words.next())
                && let Ok(n) = n.parse::<usize>()
            {
                notes.insert(n, note.to_string());
            }
        }
    }
    let Some(start) = start else { bail!("no 'start <position>' line: not a Chaos Clock record") };
    let mut record = ClockRecord::new(start);
    let frame_of = |s: &cc::State| {
        let points: Vec<String> = (1..=12u8).map(|p| s.at(p).to_string()).collect();
        let hand = |side: cc::Side| (1..=12u8).filter(|n| s.hand(side) >> n & 1 == 1).collect::<Vec<u8>>();
        let k = (1..=12u8).filter(|&p| s.at(p) != 0).count();
        let fixed = |side: cc::Side| (1..=12u8).filter(|&n| side.owns_piece(n) && s.is_fixed(n)).count();
        let mut t = format!("fixed: 乙 {} of 6, 甲 {} of 6 · ", fixed(cc::Side::YI), fixed(cc::Side::JIA));
        match s.outcome() {
            Some(bitboards::Outcome::Win(side)) => t.push_str(&format!("game over: {} wins", side.side_name())),
            Some(bitboards::Outcome::BothWin) => t.push_str("game over: both win"),
            Some(_) => t.push_str("game over: both lose"),
            None => {
                t.push_str(&format!("{} to move", s.to_move().side_name()));
                if s.is_extra_move() {
                    t.push_str(" (an extra move)");
                }
                if let Some(c) = s.completed() {
                    t.push_str(&format!("; {} has completed: the last move", c.side_name()));
                }
            }
        }
        Frame {
            b: vec![points.join(",")],
            t,
            k,
            h: Some([hand(cc::Side::YI), hand(cc::Side::JIA)]),
            w: Some(s.just_walked()),
            ..Frame::default()
        }
    };
    let mut frames = vec![frame_of(&record.state())];
    for (i, text) in moves.iter().enumerate() {
        let before = record.state();
        let mv = match cc::Move::parse(text) {
            Ok(mv) => mv,
            Err(e) => return Ok((frames, Some(format!("move {}: {e}", i + 1)))),
        };
        if let Err(e) = record.play(mv) {
            return Ok((frames, Some(format!("move {} {text} is illegal: {e}", i + 1))));
        }
        let after = record.state();
        let mut f = frame_of(&after);
        f.m = mv.to_string();
        f.s = Some(before.to_move().index() as u8);
        f.at = match mv {
            cc::Move::Walk(n) | cc::Move::Place(n) => after.point_of(n).map(usize::from),
            cc::Move::Pass => None,
        };
        let on = |s: &cc::State, n: u8| s.point_of(n).is_some();
        let captured: Vec<u8> =
            (1..=12u8).filter(|&n| on(&before, n) && !on(&after, n) && mv != cc::Move::Walk(n)).collect();
        if let Some(&n) = captured.first() {
            f.t = format!("captures {n} · {}", f.t);
        }
        f.c = notes.get(&(i + 1)).cloned();
        frames.push(f.with_stat(stat(i)));
    }
    Ok((frames, None))
}
