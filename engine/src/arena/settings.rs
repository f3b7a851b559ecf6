//! The settings a match was started with, kept in `match.json` beside its
//! `results.jsonl`: what decides which game each game number is (the game and its
//! rules, the engines, the time control, the openings, the shard) and how many game
//! pairs there are. `--resume` with other settings would mix two matches in one
//! file and is refused, naming the setting; `arena merge` checks each shard's games
//! against its settings. A folder of a match started before the settings were kept
//! has none: its rows are still checked against the command's schedule.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};

use super::players::{EngineSpec, Protocol, TimeControl};
use super::{MatchConfig, OpeningSource};
use crate::games::phantom::{PHANTOM_RULES, rules_name, rules_of};
use crate::games::referee::othello::{SOLVE_EMPTIES, solve_empties};
use crate::games::referee::{GameOptions, RefereeRules};
use crate::tools::journal::write_atomically;
use crate::tools::shard::Shard;

/// The settings file's name in the match's `--out` folder.
pub const FILE: &str = "match.json";

/// The most game pairs a match may have (`--rounds`): far more than any match plays
/// (a match "until the SPRT decides" is `--rounds 1000000000`), few enough that every
/// count of games stays exact.
pub const MAX_ROUNDS: u64 = 1 << 40;

/// The format of `match.json`.
const VERSION: u32 = 1;

/// An engine as the match was started with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineSettings {
    /// `name=`.
    pub name: String,
    /// `cmd=`: program and arguments.
    pub command: Vec<String>,
    /// `proto=`.
    pub protocol: String,
    /// `option.K=V`.
    pub options: Vec<(String, String)>,
    /// `init=`.
    pub init: Vec<String>,
}

impl EngineSettings {
    fn of(spec: &EngineSpec) -> EngineSettings {
        let protocol = match spec.protocol {
            Protocol::Ugi => "ugi",
            Protocol::Gtp => "gtp",
            Protocol::Nboard => "nboard",
            Protocol::Phantom => "phantom",
        };
        EngineSettings {
            name: spec.name.clone(),
            command: spec.command.clone(),
            protocol: protocol.to_string(),
            options: spec.options.clone(),
            init: spec.init.clone(),
        }
    }

    /// The specification as `--engine` takes it.
    fn text(&self) -> String {
        let quote = |s: &str| shlex::try_quote(s).map_or_else(|_| s.to_string(), |q| q.into_owned());
        let command: Vec<String> = self.command.iter().map(|c| quote(c)).collect();
        let mut out = format!("name={} cmd={} proto={}", quote(&self.name), quote(&command.join(" ")), self.protocol);
        for (k, v) in &self.options {
            out.push_str(&format!(" option.{k}={}", quote(v)));
        }
        for line in &self.init {
            out.push_str(&format!(" init={}", quote(line)));
        }
        out
    }
}

/// Where the openings came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "source", rename_all = "lowercase")]
pub enum OpeningSettings {
    /// `--openings FILE`: its openings, by count and fingerprint (the file may move).
    File {
        /// The path given.
        path: String,
        /// How many openings it holds.
        count: usize,
        /// A hash of the openings read from it.
        fingerprint: String,
    },
    /// Random openings: opening `k` depends on these (and the game) alone.
    Random {
        /// `--random-plies`.
        plies: usize,
        /// `--seed`.
        seed: u64,
    },
}

/// The game options of the arena's flags that belong to one game: each game reads
/// its own (`--phantom-rules` Phantom Go's, `--solve-empties` Othello's). match.json
/// keeps them as fields of their own, as its first format did.
pub fn game_options(phantom_rules: &str, solve_empties: u32) -> GameOptions {
    GameOptions::default().with(PHANTOM_RULES, phantom_rules).with(SOLVE_EMPTIES, solve_empties)
}

/// The settings of a match (see the module documentation).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSettings {
    /// The format of this file.
    pub version: u32,
    /// `--game`.
    pub game: String,
    /// `--size`.
    pub size: usize,
    /// `--komi`.
    pub komi: f64,
    /// `--phantom-rules`.
    pub phantom_rules: String,
    /// `--max-moves`.
    pub max_moves: usize,
    /// `--solve-empties`.
    pub solve_empties: u32,
    /// `--dead-stones`.
    pub dead_stones: String,
    /// The two `--engine`s, A then B.
    pub engines: Vec<EngineSettings>,
    /// `--tc`, `--st` or `--nodes`.
    pub control: String,
    /// `--openings`, or `--random-plies` and `--seed`.
    pub openings: OpeningSettings,
    /// `--rounds`: game pairs. A resume may change it (the games already played stay
    /// the same games), as long as it keeps every game recorded.
    pub rounds: u64,
    /// `--shard`, `i/n`.
    pub shard: String,
    /// `--sprt`, as `arena merge --sprt` reads it (`elo0=0 elo1=5 alpha=0.05
    /// beta=0.05`), if the match has one: what `arena report` plots. The last run's;
    /// a resume may change it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<String>,
    /// `--normalized`: the SPRT's Elo is normalized Elo.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub normalized: bool,
}

/// A hash (64-bit FNV-1a) of the openings, in hexadecimal.
fn fingerprint(openings: &[super::Opening]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for o in openings {
        let text = format!("{}|{}\n", o.start.as_deref().unwrap_or(""), o.moves.join(" "));
        for byte in text.bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

fn control_text(control: TimeControl) -> String {
    match control {
        TimeControl::Clock { base, increment } => {
            format!("--tc {}+{}", base.as_secs_f64(), increment.as_secs_f64())
        }
        TimeControl::PerMove(t) => format!("--st {}", t.as_secs_f64()),
        TimeControl::Nodes(n) => format!("--nodes {n}"),
    }
}

impl MatchSettings {
    /// The settings of `config`.
    pub fn of(config: &MatchConfig) -> MatchSettings {
        let dead_stones = match config.dead_stones {
            super::DeadStones::Arena => "arena",
            super::DeadStones::Ask => "ask",
        };
        let openings = match &config.opening_source {
            OpeningSource::File(path) => OpeningSettings::File {
                path: path.clone(),
                count: config.openings.file_openings().map_or(0, <[_]>::len),
                fingerprint: fingerprint(config.openings.file_openings().unwrap_or_default()),
            },
            OpeningSource::Random { plies, seed, .. } => OpeningSettings::Random { plies: *plies, seed: *seed },
        };
        MatchSettings {
            version: VERSION,
            game: config.setup.kind.name().to_string(),
            size: config.rules.size,
            komi: config.rules.komi,
            phantom_rules: rules_name(rules_of(&config.rules.options).unwrap_or_default()).to_string(),
            max_moves: config.rules.max_moves,
            solve_empties: solve_empties(&config.rules.options).unwrap_or(0),
            dead_stones: dead_stones.to_string(),
            engines: config.engines.iter().map(EngineSettings::of).collect(),
            control: control_text(config.control),
            openings,
            rounds: config.pairs,
            shard: format!("{}/{}", config.shard.0, config.shard.1),
            sprt: config
                .sprt
                .as_ref()
                .map(|s| format!("elo0={} elo1={} alpha={} beta={}", s.elo0, s.elo1, s.alpha, s.beta)),
            normalized: config.sprt.as_ref().is_some_and(|s| s.model == super::EloModel::Normalized),
        }
    }

    /// The referee's rules of these settings.
    pub fn rules(&self) -> RefereeRules {
        RefereeRules {
            size: self.size,
            komi: self.komi,
            max_moves: self.max_moves,
            options: game_options(&self.phantom_rules, self.solve_empties),
        }
    }

    /// The shard these settings play.
    pub fn shard(&self, path: &Path) -> Result<Shard> {
        Shard::parse(&self.shard, "shard").with_context(|| format!("{}: a bad shard", path.display()))
    }

    /// The engines' names, A then B.
    pub fn names(&self, path: &Path) -> Result<[String; 2]> {
        match &self.engines[..] {
            [a, b] => Ok([a.name.clone(), b.name.clone()]),
            _ => bail!("{}: {} engines, not two", path.display(), self.engines.len()),
        }
    }

    /// The first setting, other than the rounds and (with `with_shard` false) the
    /// shard, in which `self` (the match's) and `other` differ: its option, its value
    /// here and there.
    pub fn difference(&self, other: &MatchSettings, with_shard: bool) -> Option<(String, String, String)> {
        let differ = |name: &str, a: String, b: String| (a != b).then(|| (name.to_string(), a, b));
        let engine = |i: usize| {
            let text = |s: &MatchSettings| s.engines.get(i).map_or_else(|| "none".to_string(), |e| e.text());
            let which = if i == 0 { "--engine (the first, A)" } else { "--engine (the second, B)" };
            differ(which, text(self), text(other))
        };
        let openings = || match (&self.openings, &other.openings) {
            (OpeningSettings::Random { plies: p, seed: s }, OpeningSettings::Random { plies: q, seed: t }) => {
                differ("--seed", s.to_string(), t.to_string())
                    .or_else(|| differ("--random-plies", p.to_string(), q.to_string()))
            }
            (
                OpeningSettings::File { path, count, fingerprint },
                OpeningSettings::File { path: other_path, count: other_count, fingerprint: other_fingerprint },
            ) => (count != other_count || fingerprint != other_fingerprint).then(|| {
                (
                    "--openings".to_string(),
                    format!("{path} ({count} openings, fingerprint {fingerprint})"),
                    format!("{other_path} ({other_count} openings, fingerprint {other_fingerprint})"),
                )
            }),
            (a, b) => {
                let text = |o: &OpeningSettings| match o {
                    OpeningSettings::File { path, .. } => format!("the openings of {path}"),
                    OpeningSettings::Random { plies, seed } => {
                        format!("random openings (--random-plies {plies} --seed {seed})")
                    }
                };
                differ("--openings", text(a), text(b))
            }
        };
        differ("the format of match.json", self.version.to_string(), other.version.to_string())
            .or_else(|| differ("--game", self.game.clone(), other.game.clone()))
            .or_else(|| differ("--size", self.size.to_string(), other.size.to_string()))
            .or_else(|| differ("--komi", self.komi.to_string(), other.komi.to_string()))
            .or_else(|| differ("--phantom-rules", self.phantom_rules.clone(), other.phantom_rules.clone()))
            .or_else(|| differ("--max-moves", self.max_moves.to_string(), other.max_moves.to_string()))
            .or_else(|| differ("--solve-empties", self.solve_empties.to_string(), other.solve_empties.to_string()))
            .or_else(|| differ("--dead-stones", self.dead_stones.clone(), other.dead_stones.clone()))
            .or_else(|| engine(0))
            .or_else(|| engine(1))
            .or_else(|| differ("the time control", self.control.clone(), other.control.clone()))
            .or_else(openings)
            .or_else(|| if with_shard { differ("--shard", self.shard.clone(), other.shard.clone()) } else { None })
    }
}

/// The settings file of the match whose results are in `results` (its folder's
/// `match.json`), if that file is a match's `results.jsonl`.
pub fn beside(results: &Path) -> Option<PathBuf> {
    (results.file_name()? == "results.jsonl").then(|| results.with_file_name(FILE))
}

/// Reads a settings file; `None` if there is none.
pub fn read(path: &Path) -> Result<Option<MatchSettings>> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let settings: MatchSettings = serde_json::from_str(text)
        .with_context(|| format!("{}: not the settings of a match (remove it to resume without)", path.display()))?;
    if settings.version != VERSION {
        bail!("{}: match settings of format {}, this build reads {VERSION}", path.display(), settings.version);
    }
    // What every reader relies on: two engines, a shard, sane rounds, a game.
    settings.names(path)?;
    settings.shard(path)?;
    if settings.rounds > MAX_ROUNDS {
        bail!("{}: rounds {}: a match has at most {MAX_ROUNDS} game pairs", path.display(), settings.rounds);
    }
    crate::games::GameKind::parse(&settings.game)
        .map_err(|e| anyhow::anyhow!("{}: game '{}': {e}", path.display(), settings.game))?;
    Ok(Some(settings))
}

/// Writes a settings file, whole or not at all.
pub fn write(path: &Path, settings: &MatchSettings) -> Result<()> {
    let mut text = serde_json::to_string_pretty(settings)?;
    text.push('\n');
    write_atomically(path, text.as_bytes())
}
