//! `--shard i/n`: one of `n` machines (or jobs) takes the work items `k` with
//! `k mod n = i`, so the shards of a run together do exactly its work, once.

use std::fmt;

use anyhow::{Result, anyhow};

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

    /// Whether item `k` of the run is this shard's.
    pub fn holds(&self, k: u64) -> bool {
        k % self.count == self.index
    }
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
            assert_eq!(shards.iter().filter(|s| s.holds(k)).count(), 1);
        }
        assert_eq!(shards[2].to_string(), "2/3");
        assert!(Shard::WHOLE.holds(17));
    }

    #[test]
    fn bad_shards_are_refused_with_the_option_named() {
        for text in ["3/3", "0/0", "1", "a/2", "-1/2", "1/2/3", ""] {
            let e = Shard::parse(text, "--shard").unwrap_err().to_string();
            assert!(e.starts_with("--shard '") && e.contains("0 <= i < n"), "{text}: {e}");
        }
    }
}
