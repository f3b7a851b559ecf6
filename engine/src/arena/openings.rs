//! The openings of a match: read from a file (checked move by move with our rules) or
//! dealt at random from a seed.

use std::path::Path;

use anyhow::{Context, Result, bail};
use bitboards::rng::splitmix64;

use super::referee::{Opening, RefereeRules, new_referee};
use crate::games::GameKind;

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// A file: one opening per line (Othello: an OBF position or moves such as
    /// `f5 d6 c3` or `f5d6c3`; Go: GTP vertices such as `E5 C4`; Chaos Clock: a
    /// position), `#` comments; for Go an `.sgf` file gives its main line.
    File(String),
    /// Random: `plies` random legal moves from the start (Othello, Go), or a random
    /// deal (Chaos Clock), from `seed`.
    Random {
        /// Random moves played.
        plies: usize,
        /// Seed.
        seed: u64,
        /// How many openings.
        count: u64,
    },
}

/// Splits `f5d6c3` into `f5 d6 c3` (Othello moves without spaces).
fn split_compact(line: &str) -> Vec<String> {
    if line.contains(char::is_whitespace) {
        return line.split_whitespace().map(str::to_string).collect();
    }
    let chars: Vec<char> = line.chars().collect();
    chars.chunks(2).map(|c| c.iter().collect()).collect()
}

/// Checks `opening` by playing it with our rules; the error names the move.
fn check(kind: GameKind, rules: &RefereeRules, opening: &Opening) -> Result<(), String> {
    let mut r = new_referee(kind, rules, opening.start.as_deref())?;
    for (i, m) in opening.moves.iter().enumerate() {
        r.play(m).map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
    }
    if r.ending(&RefereeRules { solve_empties: 0, ..*rules }, 0).is_some() {
        return Err("the game is already over".into());
    }
    Ok(())
}

fn read_file(kind: GameKind, rules: &RefereeRules, path: &str) -> Result<Vec<Opening>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read openings from {path}"))?;
    let mut out = Vec::new();
    if kind == GameKind::Go && text.trim_start().starts_with("(;") {
        let game = bitboards::go::sgf::parse(&text).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
        if game.size != rules.size {
            bail!("{path}: a {}x{} game, but the match is on {}x{}", game.size, game.size, rules.size, rules.size);
        }
        if !game.setup.is_empty() {
            bail!("{path}: setup stones (AB/AW) cannot be sent over GTP; give the moves instead");
        }
        let moves = game
            .moves
            .iter()
            .map(|(_, m)| match m {
                bitboards::go::Move::Pass => "pass".to_string(),
                bitboards::go::Move::Play(p) => p.to_gtp(rules.size),
            })
            .collect();
        let opening = Opening { start: None, moves };
        check(kind, rules, &opening).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
        return Ok(vec![opening]);
    }
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let opening = match kind {
            GameKind::ChaosClock => Opening { start: Some(line.to_string()), moves: Vec::new() },
            GameKind::Othello if line.len() >= 64 && line.contains(' ') && !line.contains(char::is_numeric) => {
                Opening { start: Some(line.to_string()), moves: Vec::new() }
            }
            GameKind::Othello => Opening { start: None, moves: split_compact(line) },
            GameKind::Go => Opening { start: None, moves: line.split_whitespace().map(str::to_string).collect() },
            GameKind::PhantomGo => bail!("{path}: Phantom Go games start from the empty board (no openings file)"),
        };
        check(kind, rules, &opening).map_err(|e| anyhow::anyhow!("{path} line {}: {e}", i + 1))?;
        out.push(opening);
    }
    if out.is_empty() {
        bail!("{path}: no openings");
    }
    Ok(out)
}

fn random(kind: GameKind, rules: &RefereeRules, plies: usize, seed: u64, count: u64) -> Result<Vec<Opening>> {
    let mut out = Vec::new();
    let mut rng = seed;
    for k in 0..count {
        if kind == GameKind::PhantomGo {
            // Hidden stones cannot be opened with: every game starts empty.
            out.push(Opening { start: None, moves: Vec::new() });
            continue;
        }
        if kind == GameKind::ChaosClock {
            let deal = crate::chaosclock::deal(seed, k);
            out.push(Opening { start: Some(deal.to_string()), moves: Vec::new() });
            continue;
        }
        // Random legal moves (not passes), retried if the game would end.
        'retry: for _ in 0..100 {
            let mut r = new_referee(kind, rules, None).map_err(|e| anyhow::anyhow!(e))?;
            let mut moves = Vec::new();
            for _ in 0..plies {
                let legal = r.legal_moves();
                if legal.is_empty() {
                    continue 'retry;
                }
                rng = splitmix64(rng);
                let m = &legal[(rng % legal.len() as u64) as usize];
                moves.push(r.play(m).map_err(|e| anyhow::anyhow!(e))?);
            }
            if r.ending(&RefereeRules { solve_empties: 0, ..*rules }, 0).is_none() {
                out.push(Opening { start: None, moves });
                break;
            }
        }
    }
    if out.len() as u64 != count {
        bail!("could not deal {count} random openings of {plies} plies");
    }
    Ok(out)
}

/// The openings of a match.
pub fn load(kind: GameKind, rules: &RefereeRules, source: &OpeningSource) -> Result<Vec<Opening>> {
    match source {
        OpeningSource::File(path) => {
            if !Path::new(path).exists() {
                bail!("openings file {path} does not exist");
            }
            read_file(kind, rules, path)
        }
        OpeningSource::Random { plies, seed, count } => random(kind, rules, *plies, *seed, *count),
    }
}
