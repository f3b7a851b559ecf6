//! The openings of a match: read from a file (checked move by move with our rules) or
//! dealt at random from a seed.

use std::path::Path;

use anyhow::{Context, Result, bail};
use bitboards::rng::splitmix64;

use crate::games::GameKind;
use crate::games::referee::{Opening, RefereeRules};

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
    let mut r = kind.new_referee(rules, opening.start.as_deref())?;
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
    // A byte order mark (what some editors write first) is not part of the first
    // opening; CRLF line ends are read as line ends by `lines`.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut out = Vec::new();
    if kind == GameKind::GO && text.trim_start().starts_with("(;") {
        let game = bitboards::go::sgf::parse(text).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
        if game.size != rules.size {
            bail!("{path}: a {}x{} game, but the match is on {}x{}", game.size, game.size, rules.size, rules.size);
        }
        if !game.setup.is_empty() {
            bail!("{path}: setup stones (AB/AW) cannot be sent over GTP; give the moves instead");
        }
        let moves = game.moves.iter().map(|(_, m)| m.to_gtp(rules.size)).collect();
        let opening = Opening { start: None, moves };
        check(kind, rules, &opening).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
        return Ok(vec![opening]);
    }
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        // A line is a position (Chaos Clock's deals, Othello's boards) or moves from
        // the start (Othello's may be written without spaces).
        let opening = if kind == GameKind::PHANTOM_GO {
            bail!("{path}: Phantom Go games start from the empty board (no openings file)")
        } else if kind == GameKind::CHAOS_CLOCK
            || (kind == GameKind::OTHELLO && line.len() >= 64 && line.contains(' ') && !line.contains(char::is_numeric))
        {
            Opening { start: Some(line.to_string()), moves: Vec::new() }
        } else if kind == GameKind::OTHELLO {
            Opening { start: None, moves: split_compact(line) }
        } else {
            Opening { start: None, moves: line.split_whitespace().map(str::to_string).collect() }
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
        if kind == GameKind::PHANTOM_GO {
            // Hidden stones cannot be opened with: every game starts empty.
            out.push(Opening { start: None, moves: Vec::new() });
            continue;
        }
        if kind == GameKind::CHAOS_CLOCK {
            let deal = crate::games::chaosclock::deal(seed, k);
            out.push(Opening { start: Some(deal.to_string()), moves: Vec::new() });
            continue;
        }
        // Random legal moves (not passes), retried if the game would end.
        'retry: for _ in 0..100 {
            let mut r = kind.new_referee(rules, None).map_err(|e| anyhow::anyhow!(e))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    // --- issue 43: a byte order mark and CRLF line ends ------------------------------

    fn rules(size: usize) -> RefereeRules {
        RefereeRules { size, komi: 7.0, solve_empties: 0, max_moves: 300, phantom_rules: Default::default() }
    }

    /// A file in a scratch folder of its own, removed when dropped; derefs to its path.
    struct Scratch {
        _dir: tempfile::TempDir,
        path: String,
    }

    impl std::ops::Deref for Scratch {
        type Target = str;

        fn deref(&self) -> &str {
            &self.path
        }
    }

    /// Writes `text` to a scratch file named `name`.
    fn scratch(name: &str, text: &str) -> Scratch {
        let dir = tempfile::Builder::new().prefix("sente-openings-").tempdir().expect("scratch folder");
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write the openings");
        Scratch { path: path.to_string_lossy().into_owned(), _dir: dir }
    }

    #[test]
    fn a_byte_order_mark_and_crlf_line_ends_are_read_in_every_format() {
        let bom = "\u{feff}";
        let othello =
            read_file(GameKind::OTHELLO, &rules(8), &scratch("moves.txt", &format!("{bom}f5 d6\r\nf5f6e6\r\n")))
                .expect("Othello moves");
        assert_eq!(othello.len(), 2);
        assert_eq!(othello[0].moves, ["f5", "d6"]);
        assert_eq!(othello[1].moves, ["f5", "f6", "e6"]);
        let obf = format!("{0}OX{1}XO{0} X", "-".repeat(27), "-".repeat(6));
        let positions = read_file(GameKind::OTHELLO, &rules(8), &scratch("obf.txt", &format!("{bom}{obf}\r\n")))
            .expect("an OBF position");
        assert_eq!(positions[0].start.as_deref(), Some(obf.as_str()));
        let go = read_file(GameKind::GO, &rules(9), &scratch("go.txt", &format!("{bom}E5 C3\r\n# a comment\r\n")))
            .expect("Go vertices");
        assert_eq!(go[0].moves, ["E5", "C3"]);
        let sgf =
            read_file(GameKind::GO, &rules(9), &scratch("go.sgf", &format!("{bom}(;GM[1]SZ[9]\r\n;B[ee];W[cc])\r\n")))
                .expect("a Go SGF");
        assert_eq!(sgf[0].moves.len(), 2);
        let deal = crate::games::chaosclock::deal(1, 0).to_string();
        let chaos = read_file(GameKind::CHAOS_CLOCK, &rules(12), &scratch("chaos.txt", &format!("{bom}{deal}\r\n")))
            .expect("a Chaos Clock position");
        assert_eq!(chaos[0].start.as_deref(), Some(deal.as_str()));
    }
}
