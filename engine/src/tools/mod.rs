//! The offline tools, one file per subcommand (`sente ffo`, `othello-accuracy`, `go-accuracy`,
//! `othello-book`, `train-othello`, `go-homework`, `chaosclock`, `selfplay`, `perft`,
//! `bench`), the code they drive, and the plumbing of long batch runs that the arena
//! shares: Ctrl-C and SIGTERM ([`interrupt`]), results files that survive a kill
//! ([`journal`]) and `--shard i/n` ([`shard`]).

pub mod accuracy;
pub mod bench;
pub mod chaosclock;
pub mod ffo;
pub mod go_accuracy;
pub mod homework;
pub mod interrupt;
pub mod journal;
pub mod openings_results;
pub mod othello_book;
pub mod othello_openings;
pub mod perft;
pub mod selfplay;
pub mod shard;
pub mod train;
pub mod train_go;
pub mod train_othello;
pub mod train_shards;

/// Makes the 8×8 searches of this process use the weights file at `path` (as
/// `train-othello fit` writes it) instead of the built-in weights: `ffo --eval` and
/// `othello-accuracy --eval`. An error names the file.
pub fn install_eval_file(path: &str) -> anyhow::Result<()> {
    use anyhow::Context;
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {path}"))?;
    search::othello::install_weights(&bytes).map_err(anyhow::Error::msg).with_context(|| path.to_string())
}
