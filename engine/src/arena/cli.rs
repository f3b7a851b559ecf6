//! The command line of `sente arena`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Result, bail};
use bitboards::phantom::PhantomRules;
use clap::{Args, Subcommand};

use super::{
    DeadStones, EloModel, EngineSpec, GameKind, GameSetup, MatchConfig, OpeningSource, RefereeRules, Sprt, Summary,
    TimeControl, compliance, merge, openings, report, run, settings, write_results,
};

/// `sente arena`: play a match, merge the results of shards, compare two matches or
/// write a match's report.
#[derive(Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ArenaArgs {
    #[command(subcommand)]
    command: Option<ArenaCommand>,
    #[command(flatten)]
    play: PlayArgs,
}

#[derive(Subcommand)]
enum ArenaCommand {
    /// Add result files (shards of one match) together and print the statistics.
    Merge {
        /// results.jsonl files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the merged results here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Evaluate this SPRT on the merged results.
        #[arg(long)]
        sprt: Option<String>,
        /// Normalized Elo for the SPRT bounds (default logistic).
        #[arg(long)]
        normalized: bool,
    },
    /// Compare two matches of two builds of engine A against the same opponent on the
    /// same schedule (openings, rounds), opening pair by opening pair: the mean
    /// difference of A's points a pair and its standard error.
    Compare {
        /// The first match: its results.jsonl, or the --out folder that holds it.
        first: PathBuf,
        /// The second match, the same way.
        second: PathBuf,
    },
    /// Write one self-contained HTML page about a match folder (finished or not): score
    /// and Elo, the SPRT, game pairs, time per move, and a replay of every game.
    Report {
        /// The match's --out folder (results.jsonl, match.json, games/).
        dir: PathBuf,
        /// Write the page here (default DIR/report.html).
        #[arg(long)]
        out: Option<PathBuf>,
        /// The SPRT to plot (default: the match's own --sprt, kept in its settings):
        /// "elo0,elo1[,alpha,beta]"
        /// or "elo0=0 elo1=5 alpha=0.05 beta=0.05".
        #[arg(long, allow_hyphen_values = true)]
        sprt: Option<String>,
        /// Normalized Elo for the SPRT bounds (default logistic).
        #[arg(long)]
        normalized: bool,
    },
}

#[derive(Args)]
struct PlayArgs {
    /// The game: othello, go, phantomgo or chaosclock.
    #[arg(long, default_value = "othello", value_parser = GameKind::parse)]
    game: GameKind,
    /// An engine, twice: "name=N cmd='program args' proto=ugi|gtp|nboard|phantom option.K=V init='command'".
    #[arg(long = "engine")]
    engines: Vec<String>,
    /// Game pairs: each opening played twice, colours swapped.
    #[arg(long, default_value_t = 10)]
    rounds: u64,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Clock: base seconds + increment seconds, e.g. 60+0.5.
    #[arg(long, conflicts_with_all = ["st", "nodes"])]
    tc: Option<String>,
    /// Fixed seconds per move.
    #[arg(long, conflicts_with = "nodes", allow_negative_numbers = true)]
    st: Option<f64>,
    /// Fixed nodes (playouts) per move: UGI+ engines only.
    #[arg(long)]
    nodes: Option<u64>,
    /// Milliseconds an engine may overrun its time before it loses on time.
    #[arg(long, default_value_t = 1000)]
    margin_ms: u64,
    /// Seconds to wait for a move with --nodes.
    #[arg(long, default_value_t = 120.0)]
    move_timeout: f64,
    /// Openings file (see the README); without it, random openings.
    #[arg(long)]
    openings: Option<String>,
    /// Random plies of a random opening (Othello, Go).
    #[arg(long)]
    random_plies: Option<usize>,
    /// Seed of random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Board side (Go: up to 9; Othello: 8).
    #[arg(long)]
    size: Option<usize>,
    /// Komi (Go: 7 by default; Phantom Go: 7.5, the CCGC value).
    #[arg(long, value_parser = bitboards::go::parse_komi, allow_negative_numbers = true)]
    komi: Option<f64>,
    /// Phantom Go rules: ccgc (platform or UGI+ engines) or openspiel (UGI+ engines only).
    #[arg(long, default_value = "ccgc", value_parser = crate::games::phantom::parse_rules)]
    phantom_rules: PhantomRules,
    /// Othello: end a game with the exact solver at this many empties (0: never).
    #[arg(long, default_value_t = 0)]
    solve_empties: u32,
    /// Go dead stones: arena (its own judgement) or ask (the engines, if they agree).
    #[arg(long, default_value = "arena")]
    dead_stones: String,
    /// Moves after which a game is adjudicated (Go scored as it stands, Chaos Clock both lose).
    #[arg(long)]
    max_moves: Option<usize>,
    /// Folder for results.jsonl and the game records.
    #[arg(long, default_value = "arena-out")]
    out: PathBuf,
    /// Continue the match whose results are in --out.
    #[arg(long)]
    resume: bool,
    /// Play only shard i of n (pairs k with k mod n = i), e.g. 0/4.
    #[arg(long, default_value = "0/1")]
    shard: String,
    /// Stop when decided: "elo0=0 elo1=5 alpha=0.05 beta=0.05".
    #[arg(long)]
    sprt: Option<String>,
    /// The SPRT's Elo bounds are normalized Elo (default logistic).
    #[arg(long)]
    normalized: bool,
    /// Log every line sent to and received from the engines to this file.
    #[arg(long)]
    debug_log: Option<PathBuf>,
    /// Check one engine's protocol conversation (one --engine; --debug-log records it)
    /// instead of playing a match.
    #[arg(long)]
    compliance: bool,
}

fn parse_seconds(text: &str, what: &str) -> Result<Duration> {
    let v: f64 = text.trim().parse().map_err(|_| anyhow::anyhow!("{what}: '{text}' is not a number of seconds"))?;
    search::duration_from_secs(v).map_err(|e| anyhow::anyhow!("{what}: {e}"))
}

fn parse_sprt(text: &Option<String>, normalized: bool) -> Result<Option<Sprt>> {
    let model = if normalized { EloModel::Normalized } else { EloModel::Logistic };
    text.as_deref().map(|t| Sprt::parse(t, model).map_err(anyhow::Error::msg)).transpose()
}

impl PlayArgs {
    fn board_size(&self) -> Result<usize> {
        self.game.spec().arena_size(self.size).map_err(anyhow::Error::msg)
    }

    fn komi(&self) -> f64 {
        self.komi.unwrap_or(self.game.spec().default_komi().unwrap_or(7.0))
    }

    /// `--compliance`: the checks of [`compliance::run`] on the one engine; an error
    /// (a non-zero exit status) when one fails.
    fn compliance(&self, out: &mut dyn std::io::Write) -> Result<()> {
        let [text]: &[String; 1] = self
            .engines
            .as_slice()
            .try_into()
            .map_err(|_| anyhow::anyhow!("--compliance checks one engine: give exactly one --engine"))?;
        let spec = EngineSpec::parse(text).map_err(anyhow::Error::msg)?;
        let setup = GameSetup { kind: self.game, size: self.board_size()?, komi: self.komi() };
        let log = match &self.debug_log {
            Some(path) => Some(Arc::new(std::sync::Mutex::new(
                std::fs::File::create(path).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", path.display()))?,
            ))),
            None => None,
        };
        let report = compliance::run(&spec, setup, log, out)?;
        if !report.all_passed() {
            bail!("{} is not compliant: {} checks failed, {} not run", spec.name, report.failed, report.not_run);
        }
        Ok(())
    }

    fn config(&self) -> Result<MatchConfig> {
        let kind = self.game;
        let engines: Vec<EngineSpec> =
            self.engines.iter().map(|e| EngineSpec::parse(e)).collect::<Result<_, _>>().map_err(anyhow::Error::msg)?;
        let [a, b]: [EngineSpec; 2] =
            engines.try_into().map_err(|_| anyhow::anyhow!("give exactly two --engine specifications"))?;
        if a.name == b.name {
            bail!("both engines are named '{}': give one of them name=...", a.name);
        }
        if self.rounds > settings::MAX_ROUNDS {
            bail!("--rounds {}: a match has at most {} game pairs", self.rounds, settings::MAX_ROUNDS);
        }
        let size = self.board_size()?;
        let control = match (&self.tc, self.st, self.nodes) {
            (Some(tc), _, _) => {
                let (base, inc) = tc.split_once('+').unwrap_or((tc, "0"));
                TimeControl::Clock { base: parse_seconds(base, "--tc")?, increment: parse_seconds(inc, "--tc")? }
            }
            (None, Some(st), _) => TimeControl::PerMove(parse_seconds(&st.to_string(), "--st")?),
            (None, None, Some(n)) => TimeControl::Nodes(n),
            (None, None, None) => TimeControl::PerMove(Duration::from_secs(1)),
        };
        if matches!(control, TimeControl::Nodes(_)) && [&a, &b].iter().any(|e| e.protocol != super::Protocol::Ugi) {
            bail!("--nodes can only be told to UGI+ engines; use --st or --tc");
        }
        let platform_engine = [&a, &b].iter().any(|e| e.protocol == super::Protocol::Phantom);
        if kind.spec().hides_moves() {
            if [&a, &b].iter().any(|e| !matches!(e.protocol, super::Protocol::Phantom | super::Protocol::Ugi)) {
                bail!("Phantom Go engines speak the platform protocol (proto=phantom) or UGI+ (proto=ugi)");
            }
            for e in [&a, &b].into_iter().filter(|e| e.protocol == super::Protocol::Phantom) {
                super::phantom::PlatformDialect::from_options(&e.options)
                    .map_err(|why| anyhow::anyhow!("engine {}: {why}", e.name))?;
            }
            if platform_engine && self.phantom_rules == PhantomRules::OpenSpiel {
                bail!(
                    "--phantom-rules openspiel needs UGI+ engines (proto=ugi): the platform protocol cannot tell \
                     what an illegal try shows, nor a capture without its points"
                );
            }
        } else if platform_engine {
            bail!("proto=phantom is the Phantom Go platform protocol: use it only with --game phantomgo");
        }
        let shard = crate::tools::shard::Shard::parse(&self.shard, "--shard")?;
        let max_moves = self.max_moves.unwrap_or(kind.spec().max_moves(size));
        let komi = self.komi();
        let options =
            super::settings::game_options(crate::games::phantom::rules_name(self.phantom_rules), self.solve_empties);
        let rules = RefereeRules { size, komi, max_moves, options };
        let setup = GameSetup { kind, size, komi };
        let source = match &self.openings {
            Some(path) => OpeningSource::File(path.clone()),
            None => OpeningSource::Random {
                plies: self.random_plies.unwrap_or(kind.spec().random_plies()),
                seed: self.seed,
                count: self.rounds,
            },
        };
        let openings = openings::load(kind, &rules, &source)?;
        let dead_stones = match self.dead_stones.as_str() {
            "arena" => DeadStones::Arena,
            "ask" => DeadStones::Ask,
            other => bail!("--dead-stones '{other}': arena or ask"),
        };
        Ok(MatchConfig {
            engines: [a, b],
            setup,
            rules,
            openings,
            opening_source: source,
            pairs: self.rounds,
            control,
            margin: Duration::from_millis(self.margin_ms),
            move_timeout: parse_seconds(&self.move_timeout.to_string(), "--move-timeout")?,
            concurrency: self.concurrency.max(1),
            out: self.out.clone(),
            resume: self.resume,
            shard: (shard.index, shard.count),
            sprt: parse_sprt(&self.sprt, self.normalized)?,
            dead_stones,
            debug_log: self.debug_log.clone(),
            progress: true,
        })
    }
}

/// Runs `sente arena …`; prints the summary.
pub fn main(args: &ArenaArgs, out: &mut impl std::io::Write) -> Result<()> {
    match &args.command {
        Some(ArenaCommand::Merge { files, out: merged, sprt, normalized }) => {
            let results = merge(files)?;
            if let Some(path) = merged {
                write_results(path, &results)?;
            }
            let names = results.first().map_or(["A".to_string(), "B".to_string()], |r| {
                if r.game.is_multiple_of(2) {
                    [r.first.clone(), r.second.clone()]
                } else {
                    [r.second.clone(), r.first.clone()]
                }
            });
            let sprt = parse_sprt(sprt, *normalized)?;
            write!(out, "{}", Summary::of(&results).report([&names[0], &names[1]], sprt.as_ref()))?;
            Ok(())
        }
        Some(ArenaCommand::Compare { first, second }) => {
            let results = |path: &PathBuf| {
                let file = if path.is_dir() { path.join("results.jsonl") } else { path.clone() };
                merge(&[file])
            };
            let comparison = super::compare::compare(&results(first)?, &results(second)?)?;
            write!(out, "{comparison}")?;
            Ok(())
        }
        Some(ArenaCommand::Report { dir, out: page, sprt, normalized }) => {
            let model = if *normalized { EloModel::Normalized } else { EloModel::Logistic };
            let sprt = sprt.as_deref().map(|t| report::parse_sprt(t, model)).transpose()?;
            let options = report::ReportOptions { dir: dir.clone(), out: page.clone(), sprt };
            let (path, games) = report::write(&options)?;
            writeln!(out, "wrote {} ({games} games)", path.display())?;
            Ok(())
        }
        None if args.play.compliance => args.play.compliance(out),
        None => {
            let config = args.play.config()?;
            // Ctrl-C or SIGTERM: stop starting games, drop the unfinished ones, keep the rest.
            let stop = crate::tools::interrupt::stop_flag();
            let report = run(&config, stop)?;
            write!(out, "{report}")?;
            Ok(())
        }
    }
}
