//! `--shard i/n`: one of `n` machines (or jobs) takes the work items `k` with
//! `k mod n = i`, so the shards of a run together do exactly its work, once.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

use anyhow::{Result, anyhow, bail};

/// Shard `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: u64,
    /// How many shards.
    pub count: u64,
}

impl Shard {
    /// The whole run, unsharded.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Reads `i/n` with `0 <= i < n`; `what` names the option in the error.
    pub fn parse(text: &str, what: &str) -> Result<Shard> {
        text.split_once('/')
            .and_then(|(i, n)| Some(Shard { index: i.trim().parse().ok()?, count: n.trim().parse().ok()? }))
            .filter(|s| s.count > 0 && s.index < s.count)
            .ok_or_else(|| anyhow!("{what} '{text}': i/n with 0 <= i < n"))
    }

    /// This shard's first item at `start` or after (saturating at `u64::MAX`).
    fn first_from(self, start: u64) -> u64 {
        let (index, count) = (u128::from(self.index), u128::from(self.count));
        let ahead = (index + count - u128::from(start) % count) % count;
        u64::try_from(u128::from(start) + ahead).unwrap_or(u64::MAX)
    }

    /// This shard's items among `range`, in order.
    pub fn items(self, range: Range<u64>) -> impl Iterator<Item = u64> {
        let first = self.first_from(range.start);
        let step = usize::try_from(self.count).unwrap_or(usize::MAX);
        (first..range.end.max(first)).step_by(step)
    }

    /// How many of `range`'s items are this shard's.
    pub fn count_in(self, range: Range<u64>) -> u64 {
        let first = self.first_from(range.start);
        if first >= range.end { 0 } else { (range.end - 1 - first) / self.count + 1 }
    }
}

/// Checks that `shards` — what identifies each file's run (its header without the
/// shard) and its shard — are the shards of one run, each given once and none missing;
/// `paths` names the files in the errors and `headers` what their runs are read from.
/// Returns, for each shard index, the file's place in `shards`.
pub fn check_complete<R: PartialEq>(
    paths: &[String],
    shards: &[(R, Shard)],
    headers: &str,
) -> Result<BTreeMap<u64, usize>> {
    let Some((run, first)) = shards.first() else { bail!("no files to merge") };
    let mut by_index: BTreeMap<u64, usize> = BTreeMap::new();
    for (i, (other_run, shard)) in shards.iter().enumerate() {
        if shard.count != first.count || other_run != run {
            bail!("{} and {} are shards of different runs (their {headers} differ)", paths[i], paths[0]);
        }
        if let Some(other) = by_index.insert(shard.index, i) {
            bail!("shard {shard} is given twice: {} and {}", paths[other], paths[i]);
        }
    }
    if let Some(missing) = (0..first.count).find(|i| !by_index.contains_key(i)) {
        bail!("shard {missing}/{} is missing", first.count);
    }
    Ok(by_index)
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_items_between_them_once() {
        let shards: Vec<Shard> = (0..3).map(|i| Shard::parse(&format!("{i}/3"), "--shard").unwrap()).collect();
        for k in 0..30 {
            assert_eq!(shards.iter().filter(|s| s.items(k..k + 1).next().is_some()).count(), 1);
        }
        for range in [0..30, 4..13, 5..5, 7..8, u64::MAX - 5..u64::MAX] {
            for s in &shards {
                let slow: Vec<u64> = range.clone().filter(|&k| k % s.count == s.index).collect();
                assert_eq!(s.items(range.clone()).collect::<Vec<_>>(), slow, "{s} of {range:?}");
                assert_eq!(s.count_in(range.clone()), slow.len() as u64, "{s} of {range:?}");
            }
        }
        assert_eq!(shards[2].to_string(), "2/3");
        assert_eq!(Shard::WHOLE.items(3..7).collect::<Vec<_>>(), vec![3, 4, 5, 6]);
        let huge = Shard { index: u64::MAX - 1, count: u64::MAX };
        assert_eq!(huge.items(0..u64::MAX).collect::<Vec<_>>(), vec![u64::MAX - 1]);
        assert_eq!(huge.count_in(5..u64::MAX), 1);
    }

    #[test]
    fn bad_shards_are_refused_with_the_option_named() {
        for text in ["3/3", "0/0", "1", "a/2", "-1/2", "1/2/3", ""] {
            let e = Shard::parse(text, "--shard").unwrap_err().to_string();
            assert!(e.starts_with("--shard '") && e.contains("0 <= i < n"), "{text}: {e}");
        }
    }
}
