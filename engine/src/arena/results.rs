//! The one reader of a match's files: the rows of a results file (`results.jsonl`,
//! or a merged file) and the `match.json` beside it. `arena merge`, `arena report`,
//! `arena compare` and `--resume` all read through it, so a file one of them refuses
//! is refused by all, with the file, the line and the problem named.
//!
//! A row is refused when it is not a game result, when engine A's score `score_a` is
//! not 0, ½ or 1 or disagrees with its `result` and seats, when its game number is
//! given twice, when it names an engine other than the match's two in their seats
//! (the match's engines are `match.json`'s, else the first row's), when the two games
//! of a pair were played on different openings, and, when `match.json` is there,
//! when the game is not one of the match's (its rounds and shard) or its opening is
//! not the one the match's openings file gives the pair. `match.json` itself is
//! checked by [`super::settings::read`] (two engines, a shard, at most
//! [`super::settings::MAX_ROUNDS`] game pairs).

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};
use bitboards::{Outcome, Player};

use super::settings::{self, MatchSettings, OpeningSettings};
use super::{GameRecord, seats_of};
use crate::tools::shard::Shard;

/// A results file as read and checked.
pub struct ResultsFile {
    /// The rows with their line numbers (from 1), in the file's order.
    pub rows: Vec<(usize, GameRecord)>,
    /// A last line cut short (a match running or killed), left out, when allowed.
    pub torn: Option<String>,
    /// The settings beside the file (`match.json`), if it is a match's `results.jsonl`
    /// and they are there.
    pub settings: Option<MatchSettings>,
    /// Engines A and B: the settings', else the first row's; `None` without rows.
    pub names: Option<[String; 2]>,
}

/// What the rows must agree with.
#[derive(Clone, Debug, Default)]
pub struct Expected {
    /// Engines A and B (else the first row's).
    pub names: Option<[String; 2]>,
    /// The match's game pairs and the shard played.
    pub schedule: Option<(u64, Shard)>,
    /// How many openings the match's openings file holds: pair `k` is played on
    /// opening `k mod count`.
    pub openings: Option<u64>,
}

impl Expected {
    /// What a match's settings (read from `path`) say of its rows.
    pub fn of_settings(s: &MatchSettings, path: &Path) -> Result<Expected> {
        Ok(Expected {
            names: Some(s.names(path)?),
            schedule: Some((s.rounds, s.shard(path)?)),
            openings: match s.openings {
                OpeningSettings::File { count, .. } => Some(count as u64),
                OpeningSettings::Random { .. } => None,
            },
        })
    }
}

/// The lines of a results file with their numbers (from 1), blank ones left out; a
/// UTF-8 byte order mark at its start (an editor's) is not part of the first line.
pub fn numbered_lines(bytes: &[u8]) -> Vec<(usize, String)> {
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    String::from_utf8_lossy(bytes)
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

/// Reads and checks the results file `path` and the settings beside it. With
/// `torn_allowed`, a last line cut short (no line end, not JSON) is left out and
/// said in [`ResultsFile::torn`]; otherwise it is an error like any bad line.
pub fn read(path: &Path, torn_allowed: bool) -> Result<ResultsFile> {
    read_expecting(path, torn_allowed, Expected::default())
}

/// [`read`], with the rows checked against `otherwise` when no settings are beside
/// the file (`--resume` of a match started before they were kept: its command's).
pub fn read_expecting(path: &Path, torn_allowed: bool, otherwise: Expected) -> Result<ResultsFile> {
    let bytes = fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let lines = numbered_lines(&bytes);
    let torn_possible = torn_allowed && !bytes.ends_with(b"\n");
    let count = lines.len();
    let mut rows = Vec::new();
    let mut torn = None;
    for (i, (n, line)) in lines.into_iter().enumerate() {
        match serde_json::from_str::<GameRecord>(&line) {
            Ok(r) => rows.push((n, r)),
            Err(_) if torn_possible && i + 1 == count => {
                torn = Some(format!("line {n} of results.jsonl is cut short (a match still running, or killed)"))
            }
            Err(e) => bail!("{} line {n}: not a game result: {e}", path.display()),
        }
    }
    let settings = match settings::beside(path) {
        Some(settings_path) => settings::read(&settings_path)?.map(|s| (s, settings_path)),
        None => None,
    };
    let expected = match &settings {
        Some((s, settings_path)) => Expected::of_settings(s, settings_path)?,
        None => otherwise,
    };
    let names = check_rows(&rows, &expected, path)?;
    Ok(ResultsFile { rows, torn, settings: settings.map(|(s, _)| s), names })
}

/// Engine A's score in a game of result `result` whose first seat is A (or not).
fn score_of(result: &str, a_first: bool) -> Option<f64> {
    let outcome = Outcome::from_result_text(result)?;
    Some(outcome.points_for(if a_first { Player::One } else { Player::Two }))
}

/// Checks `rows` (read from `path`, with their line numbers) against `expected` and
/// each other (see the module documentation); returns engines A and B.
pub fn check_rows(rows: &[(usize, GameRecord)], expected: &Expected, path: &Path) -> Result<Option<[String; 2]>> {
    let mut names: Option<([String; 2], String)> =
        expected.names.clone().map(|n| (n, "the match's settings (match.json)".to_string()));
    let mut seen: BTreeMap<u64, usize> = BTreeMap::new();
    // Each pair's opening and the line that gave it.
    let mut pair_openings: BTreeMap<u64, (u64, usize)> = BTreeMap::new();
    for (line, r) in rows {
        let at = format!("{} line {line}", path.display());
        if let Some((rounds, shard)) = expected.schedule {
            let games = rounds.saturating_mul(2);
            if r.game >= games {
                let range =
                    if games == 0 { "it has no games".to_string() } else { format!("games 0 to {}", games - 1) };
                bail!("{at}: game {} is not a game of this match ({rounds} game pairs: {range})", r.game);
            }
            if shard.count > 1 && (r.game / 2) % shard.count != shard.index {
                bail!("{at}: game {} (pair {}) is not one of shard {shard}'s games", r.game, r.game / 2);
            }
        }
        let (names, from) = names.get_or_insert_with(|| {
            let seats = [r.first.clone(), r.second.clone()];
            let names = if r.game.is_multiple_of(2) { seats } else { [seats[1].clone(), seats[0].clone()] };
            (names, format!("line {line}"))
        });
        let [first, second] = seats_of(r.game, names);
        if r.first != first || r.second != second {
            bail!(
                "{at}: game {} is {} against {}, but in this match (engines {} and {}, as {from} gives them) it is \
                 {first} (first) against {second}: a third engine, or the results of different matches?",
                r.game,
                r.first,
                r.second,
                names[0],
                names[1]
            );
        }
        let Some(score) = score_of(&r.result, r.first == names[0]) else {
            let words: Vec<&str> = Outcome::ALL.iter().map(|o| o.result_text()).collect();
            bail!("{at}: game {}: result '{}' is not one of {}", r.game, r.result, words.join(", "));
        };
        if r.score_a != score {
            bail!(
                "{at}: game {}: score_a {} is not engine A's score of a {} game with {} first ({score}): a score \
                 is 0, 0.5 or 1",
                r.game,
                r.score_a,
                r.result,
                r.first
            );
        }
        if let Some(first) = seen.insert(r.game, *line) {
            bail!("{at}: game {} again (it is on line {first} already)", r.game);
        }
        let pair = r.game / 2;
        if let Some(count) = expected.openings
            && count > 0
            && r.opening != pair % count
        {
            bail!(
                "{at}: game {} was played on opening {}, but the match's openings file ({count} openings) gives \
                 pair {pair} opening {}",
                r.game,
                r.opening,
                pair % count
            );
        }
        match pair_openings.get(&pair) {
            Some(&(opening, other)) if opening != r.opening => bail!(
                "{at}: game {} was played on opening {}, but the other game of its pair (line {other}) on opening \
                 {opening}: a pair is one opening played twice",
                r.game,
                r.opening
            ),
            Some(_) => {}
            None => {
                pair_openings.insert(pair, (r.opening, *line));
            }
        }
    }
    Ok(names.map(|(n, _)| n))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: u64, opening: u64, result: &str, score_a: f64) -> (usize, GameRecord) {
        let (first, second) = if game.is_multiple_of(2) { ("a", "b") } else { ("b", "a") };
        let r = GameRecord {
            game,
            opening,
            first: first.into(),
            second: second.into(),
            result: result.into(),
            score_a,
            reason: "game over".into(),
            score: None,
            moves: 4,
            note: None,
            record: None,
            plies: Vec::new(),
        };
        (game as usize + 1, r)
    }

    fn error(rows: &[(usize, GameRecord)], expected: &Expected) -> String {
        check_rows(rows, expected, Path::new("r.jsonl")).expect_err("refused").to_string()
    }

    #[test]
    fn rows_are_checked_against_each_other_and_the_match() {
        let good = [row(0, 3, "1-0", 1.0), row(1, 3, "1-0", 0.0), row(2, 4, "both-win", 0.5)];
        let none = Expected::default();
        assert_eq!(check_rows(&good, &none, Path::new("r.jsonl")).expect("good"), Some(["a".into(), "b".into()]));
        assert!(error(&[good[0].clone(), row(1, 3, "1-0", -7.0)], &none).contains("line 2: game 1: score_a -7"));
        assert!(error(&[row(0, 3, "1-0", 0.0)], &none).contains("score_a 0 is not"));
        assert!(error(&[row(0, 3, "B+3", 1.0)], &none).contains("result 'B+3'"));
        assert!(error(&[good[0].clone(), row(1, 5, "1-0", 0.0)], &none).contains("played on opening 5"));
        let mut third = row(2, 4, "1-0", 1.0);
        third.1.second = "c".into();
        assert!(error(&[good[0].clone(), third], &none).contains("game 2 is a against c"));
        let again = (9, good[1].1.clone());
        assert!(error(&[good[0].clone(), good[1].clone(), again], &none).contains("line 9: game 1 again"));
        let file = Expected { names: None, schedule: Some((2, Shard::WHOLE)), openings: Some(2) };
        assert!(error(&good, &file).contains("gives pair 0 opening 0"));
        let small = Expected { names: None, schedule: Some((1, Shard::WHOLE)), openings: None };
        assert!(error(&good, &small).contains("game 2 is not a game of this match"));
    }
}
