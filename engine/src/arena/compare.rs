//! `sente arena compare`: two matches of two builds of one engine against the same
//! opponent, on the same schedule (the same openings file or seed, the same rounds),
//! compared opening pair by opening pair. Pairing removes what the openings do to the
//! score: a pair's points (0 to 2) differ far less between builds than between
//! openings, so the difference's standard error is much smaller than that of the two
//! scores taken apart.

use std::collections::BTreeMap;
use std::fmt;

use anyhow::{Result, bail};

use super::GameRecord;

/// The paired comparison of two matches played on one schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Opening pairs with both games finished in both matches.
    pub pairs: usize,
    /// Engine A's share of the points in those pairs, in the first match.
    pub new_share: f64,
    /// The same in the second match.
    pub old_share: f64,
    /// Mean over the pairs of (first match's pair points − second's), of 2.
    pub mean: f64,
    /// The standard error of `mean` (0 with fewer than two pairs).
    pub std_error: f64,
}

/// Engine A's points in each pair whose two games are both in `results`, by pair
/// number (game / 2), with the pair's opening.
fn pair_points(results: &[GameRecord]) -> BTreeMap<u64, (u64, f64)> {
    let mut games: BTreeMap<u64, (u64, f64, usize)> = BTreeMap::new();
    for r in results {
        let entry = games.entry(r.game / 2).or_insert((r.opening, 0.0, 0));
        entry.1 += r.score_a;
        entry.2 += 1;
    }
    games.into_iter().filter(|(_, (_, _, n))| *n == 2).map(|(k, (opening, points, _))| (k, (opening, points))).collect()
}

/// Compares `new` with `old` (each one match's results, engine A the build under
/// test) over the pairs both finished. Matches whose pairs were played on different
/// openings are an error: they are not one schedule, and pairing them means nothing.
pub fn compare(new: &[GameRecord], old: &[GameRecord]) -> Result<Comparison> {
    let (a, b) = (pair_points(new), pair_points(old));
    let mut diffs = Vec::new();
    let (mut new_points, mut old_points) = (0.0, 0.0);
    for (pair, (opening, points)) in &a {
        let Some((other_opening, other_points)) = b.get(pair) else { continue };
        if opening != other_opening {
            bail!(
                "pair {pair} (games {} and {}) was played on opening {opening} in the first match and on \
                 opening {other_opening} in the second: not one schedule (the same --openings or --seed, and \
                 --random-plies, are needed)",
                pair * 2,
                pair * 2 + 1
            );
        }
        diffs.push(points - other_points);
        new_points += points;
        old_points += other_points;
    }
    if diffs.is_empty() {
        bail!("no opening pair is finished in both matches");
    }
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n;
    let std_error = if diffs.len() < 2 {
        0.0
    } else {
        (diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0) / n).sqrt()
    };
    Ok(Comparison {
        pairs: diffs.len(),
        new_share: new_points / (2.0 * n),
        old_share: old_points / (2.0 * n),
        mean,
        std_error,
    })
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Opening pairs finished in both matches: {}", self.pairs)?;
        writeln!(
            f,
            "Score of engine A on them: {:.1} % in the first match, {:.1} % in the second",
            100.0 * self.new_share,
            100.0 * self.old_share
        )?;
        let half = 1.96 * self.std_error;
        writeln!(
            f,
            "Difference a pair (of 2 points): {:+.3} ± {:.3} (95 %: {:+.3} to {:+.3}); a score difference of {:+.1} ± {:.1} %",
            self.mean,
            self.std_error,
            self.mean - half,
            self.mean + half,
            50.0 * self.mean,
            50.0 * self.std_error
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(game: u64, opening: u64, score_a: f64) -> GameRecord {
        GameRecord {
            game,
            opening,
            first: if game.is_multiple_of(2) { "a" } else { "b" }.into(),
            second: if game.is_multiple_of(2) { "b" } else { "a" }.into(),
            result: "?".into(),
            score_a,
            reason: "game over".into(),
            score: None,
            moves: 40,
            note: None,
            record: None,
            plies: Vec::new(),
        }
    }

    #[test]
    fn pairs_are_compared_on_the_games_both_matches_finished() {
        // Pair 0: 2 against 1; pair 1: 1 against 0.5; pair 2 only in the first match;
        // pair 3 has one game in the second.
        let new = [
            game(0, 7, 1.0),
            game(1, 7, 1.0),
            game(2, 3, 0.5),
            game(3, 3, 0.5),
            game(4, 9, 0.0),
            game(5, 9, 0.0),
            game(6, 1, 1.0),
            game(7, 1, 1.0),
        ];
        let old = [game(0, 7, 0.0), game(1, 7, 1.0), game(2, 3, 0.0), game(3, 3, 0.5), game(6, 1, 0.0)];
        let c = compare(&new, &old).expect("one schedule");
        assert_eq!(c.pairs, 2);
        assert!((c.mean - 0.75).abs() < 1e-12, "{c:?}");
        // Differences 1 and 0.5: sample deviation sqrt(0.125), over sqrt(2).
        assert!((c.std_error - 0.25).abs() < 1e-12, "{c:?}");
        assert!((c.new_share - 0.75).abs() < 1e-12 && (c.old_share - 0.375).abs() < 1e-12, "{c:?}");
        let text = c.to_string();
        assert!(text.contains("+0.750 ± 0.250"), "{text}");
        // The other way round, the sign turns and the error stays.
        let back = compare(&old, &new).expect("one schedule");
        assert!((back.mean + 0.75).abs() < 1e-12 && (back.std_error - 0.25).abs() < 1e-12);
    }

    #[test]
    fn matches_on_different_openings_or_with_no_common_pair_are_refused() {
        let new = [game(0, 7, 1.0), game(1, 7, 1.0)];
        let other_openings = [game(0, 8, 1.0), game(1, 8, 0.0)];
        let e = compare(&new, &other_openings).expect_err("different openings");
        assert!(e.to_string().contains("not one schedule"), "{e}");
        let e = compare(&new, &[game(2, 7, 1.0), game(3, 7, 1.0)]).expect_err("no common pair");
        assert!(e.to_string().contains("no opening pair"), "{e}");
    }
}
