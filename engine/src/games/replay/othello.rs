//! Othello's replay: a GGF record through our rules.

use anyhow::{Result, bail};
use bitboards::othello::{self, Board, Position, ggf};

use super::{Frame, Frames, ReplayInput, Replayed};
use crate::games::referee::{MoveStat, stat_at};

/// Replays an 8×8 Othello game from its GGF record.
pub fn replay(input: &ReplayInput) -> Result<Replayed> {
    let (frames, note) = othello_frames(input.text, &|p| stat_at(input.plies, p), input.opening)?;
    Ok(Replayed { frames, note, size: 8 })
}

/// Othello frames from a GGF record (moves with `/eval/time` annotations too; a move
/// by the side not to move is preceded by the pass it implies).
pub(super) fn othello_frames<'a>(
    text: &str,
    stat: &dyn Fn(usize) -> Option<&'a MoveStat>,
    opening: &dyn Fn(usize) -> bool,
) -> Result<Frames> {
    let g = ggf::parse(text).map_err(|e| anyhow::anyhow!("not a GGF game: {e}"))?;
    if g.size != 8 {
        bail!("a {0}×{0} game: the report replays 8×8 Othello", g.size);
    }
    let mut pos = match &g.board {
        Some(squares) => {
            let side = if g.black_to_move { 'X' } else { 'O' };
            Position::<Board>::parse(&format!("{squares} {side}")).map_err(|e| anyhow::anyhow!("bad BO: {e}"))?
        }
        None => Position::start(),
    };
    let frame_of = |pos: &Position<Board>| {
        let b: String = (0..64)
            .map(|sq| match pos.color_at(sq) {
                Some(othello::Color::BLACK) => 'X',
                Some(_) => 'O',
                None => '-',
            })
            .collect();
        let (black, white) = (pos.count(othello::Color::BLACK), pos.count(othello::Color::WHITE));
        let t = match pos.result() {
            Some(r) => {
                let (b, w) = r.wof_counts();
                format!("black {black} · white {white} · game over {b}-{w}")
            }
            None => format!(
                "black {black} · white {white} · {} to move",
                if pos.side_to_move() == othello::Color::BLACK { "black" } else { "white" }
            ),
        };
        Frame { b: vec![b], t, k: (black + white) as usize, ..Frame::default() }
    };
    let mut frames = vec![frame_of(&pos)];
    for m in &g.moves {
        let mv = othello::Move::parse(&m.text, 8).map_err(|e| anyhow::anyhow!("move {}: {e}", frames.len()))?;
        let black_to_move = pos.side_to_move() == othello::Color::BLACK;
        if m.black != black_to_move && mv != othello::Move::Pass {
            // The pass the record leaves out.
            match pos.play(othello::Move::Pass) {
                Ok(next) => {
                    let seat = u8::from(!black_to_move);
                    let ply = frames.len() - 1;
                    pos = next;
                    let f = Frame { m: "pass (implied)".into(), s: Some(seat), o: opening(ply), ..frame_of(&pos) };
                    frames.push(f.with_stat(stat(ply)));
                }
                Err(e) => {
                    let why = format!("move {} {} out of turn: {e}", frames.len(), m.text);
                    return Ok((frames, Some(why)));
                }
            }
        }
        let seat = u8::from(pos.side_to_move() != othello::Color::BLACK);
        let before = pos;
        pos = match pos.play(mv) {
            Ok(p) => p,
            Err(e) => {
                let why = format!("move {} {} is illegal: {e}", frames.len(), m.text);
                return Ok((frames, Some(why)));
            }
        };
        let ply = frames.len() - 1;
        let mut f = Frame { m: mv.name(8), s: Some(seat), o: opening(ply), ..frame_of(&pos) };
        if let othello::Move::Play(sq) = mv {
            f.at = Some(sq as usize);
            let flipped = (0..64)
                .filter(|&q| q != sq as usize && before.color_at(q).is_some_and(|c| Some(c) != pos.color_at(q)))
                .count();
            f.t = format!("{flipped} flipped · {}", f.t);
        }
        let note: Vec<String> =
            [m.eval.map(|e| format!("eval {e:+}")), m.time.map(|t| format!("{t} s"))].into_iter().flatten().collect();
        if !note.is_empty() {
            f.c = Some(note.join(", "));
        }
        frames.push(f.with_stat(stat(ply)));
    }
    Ok((frames, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_annotated_othello_record_replays() {
        // The GGF parser's example, annotated.
        let text = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]\
                    B[F5/1.5/0.2]W[F6//0.1]B[E6];)";
        let stats = [MoveStat { ply: 1, seat: 1, ms: 7, score: Some(-1.0), depth: Some(3), nodes: Some(99) }];
        let stat = |p: usize| stats.iter().find(|s| s.ply == p);
        let (frames, note) = othello_frames(text, &stat, &|p| p < 1).expect("replays");
        assert_eq!(note, None);
        assert_eq!(frames.len(), 4);
        assert_eq!(frames[0].k, 4);
        assert_eq!(frames[1].m, "f5");
        assert!(frames[1].o && !frames[2].o);
        assert_eq!(frames[1].c.as_deref(), Some("eval +1.5, 0.2 s"));
        assert_eq!((frames[2].ms, frames[2].d, frames[2].s), (Some(7), Some(3), Some(1)));
        assert_eq!(frames[3].k, 7);
        assert!(frames[1].t.starts_with("1 flipped"), "{}", frames[1].t);
    }
}
