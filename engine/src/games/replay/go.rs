//! Go's replay: an SGF record through our rules (captures marked).

use anyhow::{Result, bail};
use bitboards::go::{self, Color};

use super::{Frame, Frames, ReplayInput, Replayed, cell, go_cells};
use crate::games::referee::{MoveStat, stat_at};

/// Replays a Go game (up to 9×9) from its SGF record.
pub fn replay(input: &ReplayInput) -> Result<Replayed> {
    let ((frames, note), size) = go_frames(input.text, &|p| stat_at(input.plies, p), input.opening)?;
    Ok(Replayed { frames, note, size })
}

/// Go frames from an SGF record (moves with `C[]` comments too).
pub(super) fn go_frames<'a>(
    text: &str,
    stat: &dyn Fn(usize) -> Option<&'a MoveStat>,
    opening: &dyn Fn(usize) -> bool,
) -> Result<(Frames, usize)> {
    let sgf = go::sgf::parse(text).map_err(|e| anyhow::anyhow!("not an SGF game: {e}"))?;
    if !(2..=go::MAX_SIZE).contains(&sgf.size) {
        bail!("a {0}×{0} game: the report replays Go up to {1}×{1}", sgf.size, go::MAX_SIZE);
    }
    let size = sgf.size;
    let board = sgf.start_board().map_err(|e| anyhow::anyhow!("not a Go position: {e}"))?;
    let mut game = go::Game::new(board, sgf.komi.unwrap_or(7.0), go::Superko::Positional);
    let comments = &sgf.move_comments;
    let frame_of = |b: &go::Board, to_move: Option<Color>| {
        let (cells, k) = go_cells(b);
        let mut t = format!("captured by black {}, by white {}", b.prisoners(Color::BLACK), b.prisoners(Color::WHITE));
        match to_move {
            Some(c) => t.push_str(&format!(" · {} to move", if c == Color::BLACK { "black" } else { "white" })),
            None => t.push_str(" · two passes: the game is over"),
        }
        Frame { b: vec![cells], t, k, ..Frame::default() }
    };
    let mut frames = vec![frame_of(game.board(), Some(game.board().to_move()))];
    for (i, &(color, mv)) in sgf.moves.iter().enumerate() {
        let before = *game.board();
        if let Err(e) = game.play(color, mv) {
            return Ok(((frames, Some(format!("move {} ({}) is illegal: {e}", i + 1, mv.to_gtp(size)))), size));
        }
        let after = *game.board();
        let over = game.is_over();
        let mut f = frame_of(&after, (!over).then(|| color.other()));
        f.m = mv.to_gtp(size);
        f.s = Some(color.index() as u8);
        f.o = opening(i);
        if let go::Move::Play(p) = mv {
            f.at = Some(cell(p, size));
        }
        let taken = before.stones(color.other()) & !after.stones(color.other());
        if taken != 0 {
            let marks: Vec<(usize, char)> = go::bits(taken).map(|p| (cell(p, size), 'c')).collect();
            f.t = format!("{} captured · {}", marks.len(), f.t);
            f.x = vec![marks];
        }
        f.c = comments.get(i).cloned().flatten();
        frames.push(f.with_stat(stat(i)));
    }
    Ok(((frames, None), size))
}
