//! The openings of a match: read from a file (checked move by move with our rules) or
//! dealt at random from a seed.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Mutex;

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

/// Checks `opening` by playing it with our rules; the error names the move.
fn check(kind: GameKind, rules: &RefereeRules, opening: &Opening) -> Result<(), String> {
    let mut r = kind.new_referee(rules, opening.start.as_deref())?;
    for (i, m) in opening.moves.iter().enumerate() {
        r.play(m).map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
    }
    if r.outcome().is_some() {
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
    if let Some(opening) = kind.spec().opening_of_file(text, rules.size) {
        let opening = opening.map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
        check(kind, rules, &opening).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
        return Ok(vec![opening]);
    }
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let opening = kind.spec().opening_of_line(line).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
        check(kind, rules, &opening).map_err(|e| anyhow::anyhow!("{path} line {}: {e}", i + 1))?;
        out.push(opening);
    }
    if out.is_empty() {
        bail!("{path}: no openings");
    }
    Ok(out)
}

/// Random openings dealt on demand, in order, from the seed: opening `k` is the same
/// whatever the match's rounds (each deal goes on from the generator's state after
/// the one before, as they were dealt all at once before), and only the last
/// [`WINDOW`] are kept, so a match of 10^9 rounds starts at once in constant memory.
struct Dealer {
    kind: GameKind,
    rules: RefereeRules,
    plies: usize,
    seed: u64,
    /// The generator's state and the number of the next opening to deal.
    rng: u64,
    next: u64,
    /// The openings `next - recent.len()` to `next - 1`.
    recent: VecDeque<Opening>,
}

/// The random openings kept at once: far more than the games played at once ask for.
const WINDOW: usize = 1024;

impl Dealer {
    fn new(kind: GameKind, rules: &RefereeRules, plies: usize, seed: u64) -> Dealer {
        Dealer { kind, rules: rules.clone(), plies, seed, rng: seed, next: 0, recent: VecDeque::new() }
    }

    /// Deals opening `self.next`.
    fn deal(&mut self) -> Result<Opening> {
        let (kind, k) = (self.kind, self.next);
        let opening = match kind.spec().deal_opening(self.seed, k) {
            Some(opening) => opening,
            None => self.random_moves()?,
        };
        self.next += 1;
        self.recent.push_back(opening.clone());
        if self.recent.len() > WINDOW {
            self.recent.pop_front();
        }
        Ok(opening)
    }

    /// Random legal moves (not passes), retried if the game would end.
    fn random_moves(&mut self) -> Result<Opening> {
        let rules = &self.rules;
        'retry: for _ in 0..100 {
            let mut r = self.kind.new_referee(rules, None).map_err(|e| anyhow::anyhow!(e))?;
            let mut moves = Vec::new();
            for _ in 0..self.plies {
                let legal = r.legal_moves();
                if legal.is_empty() {
                    continue 'retry;
                }
                self.rng = splitmix64(self.rng);
                let m = &legal[(self.rng % legal.len() as u64) as usize];
                moves.push(r.play(m).map_err(|e| anyhow::anyhow!(e))?);
            }
            if r.outcome().is_none() {
                return Ok(Opening { start: None, moves });
            }
        }
        bail!("could not deal random opening {} of {} plies", self.next, self.plies)
    }

    /// Opening `k`.
    fn get(&mut self, k: u64) -> Result<Opening> {
        if k + (self.recent.len() as u64) < self.next {
            // Behind the window (more games at once than it holds): deal again from the seed.
            *self = Dealer::new(self.kind, &self.rules, self.plies, self.seed);
        }
        while self.next <= k {
            self.deal()?;
        }
        let oldest = self.next - self.recent.len() as u64;
        Ok(self.recent[(k - oldest) as usize].clone())
    }
}

/// The openings of a match: a file's, read and checked at once, or random ones
/// dealt on demand (pair `k` is played on random opening `k`).
pub struct Openings(Source);

enum Source {
    File(Vec<Opening>),
    Random(Mutex<Dealer>),
}

impl Openings {
    /// The opening of game pair `pair`, with its number.
    pub fn of_pair(&self, pair: u64) -> Result<(u64, Opening)> {
        match &self.0 {
            Source::File(list) => {
                let k = pair % list.len() as u64;
                Ok((k, list[k as usize].clone()))
            }
            Source::Random(dealer) => {
                let mut dealer = dealer.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                Ok((pair, dealer.get(pair)?))
            }
        }
    }

    /// The openings of the file, if they come from one.
    pub fn file_openings(&self) -> Option<&[Opening]> {
        match &self.0 {
            Source::File(list) => Some(list),
            Source::Random(_) => None,
        }
    }
}

/// The openings of a match. Random ones are dealt as the games ask for them; the
/// first is dealt here, so that openings that cannot be dealt are said at once.
pub fn load(kind: GameKind, rules: &RefereeRules, source: &OpeningSource) -> Result<Openings> {
    match source {
        OpeningSource::File(path) => {
            if !Path::new(path).exists() {
                bail!("openings file {path} does not exist");
            }
            Ok(Openings(Source::File(read_file(kind, rules, path)?)))
        }
        OpeningSource::Random { plies, seed, count } => {
            let mut dealer = Dealer::new(kind, rules, *plies, *seed);
            if *count > 0 {
                dealer.get(0)?;
            }
            Ok(Openings(Source::Random(Mutex::new(dealer))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // --- issue 43: a byte order mark and CRLF line ends ------------------------------

    fn rules(size: usize) -> RefereeRules {
        RefereeRules { komi: 7.0, ..RefereeRules::plain(size, 300) }
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
    fn the_balanced_go_openings_are_legal_distinct_and_near_even() {
        // docs/matches/openings/go-2move-balanced.txt: every symmetric copy of the
        // 2-move openings KataGo holds within 0.15 of even (scripts/go_balanced_openings.py).
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/matches/openings/go-2move-balanced.txt");
        let openings = read_file(GameKind::GO, &rules(9), path).expect("the balanced openings");
        assert_eq!(openings.len(), 1052);
        let distinct: std::collections::HashSet<&Vec<String>> = openings.iter().map(|o| &o.moves).collect();
        assert_eq!(distinct.len(), openings.len());
        let text = std::fs::read_to_string(path).expect("the file");
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (moves, value) = line.split_once('#').expect("moves # value");
            assert_eq!(moves.split_whitespace().count(), 2, "{line}");
            let rate: f64 = value.split_whitespace().next().and_then(|v| v.parse().ok()).expect("a winrate");
            assert!((0.35..=0.65).contains(&rate), "{line}");
        }
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
