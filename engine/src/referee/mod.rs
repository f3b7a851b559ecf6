//! `sente phantom referee`: the referee's board of seed 000 (幻影围棋 rules 1-11), a
//! local web server that runs one game and prints three URLs, each with its own
//! unguessable token: the referee's page (the full board, both sides' views, the try
//! log, both timers, the captures, the recovery, the stop proposal and the count) and
//! each player's page (that side's stones only).
//!
//! * [`game`]: the game and the referee's actions around [`bitboards::phantom::Referee`].
//! * [`clock`]: the two timers of rule 8.
//! * [`input`]: a typed try in any of the seed's coordinate forms.
//! * [`views`]: the JSON each page is sent (a player's from its own view only).
//! * [`record`]: the record written after every action, and `--resume`.
//! * [`server`]: the HTTP routes and the tokens' checks.
//! * [`seat`]: an engine seated for one side.

pub mod clock;
pub mod game;
pub mod input;
pub mod record;
pub mod seat;
pub mod server;
pub mod views;

use std::io::Write as _;

use anyhow::{Context, bail};
use bitboards::go::{Color, LetterOrder};

use crate::arena::EngineSpec;
pub use crate::protocols::platform::RefereeArgs;
use game::Game;
use record::{Record, Tokens};
use server::{Shared, wall_clock};

/// How often the record is written with the running timer's time, between actions.
const CHECKPOINT: std::time::Duration = std::time::Duration::from_secs(2);

/// 128 random bits from the operating system, as 32 hex digits.
pub fn new_token() -> anyhow::Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no random numbers from the system: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Runs the referee's server until it is killed.
pub fn main(args: RefereeArgs, komi: f64, letters: LetterOrder, movetime: std::time::Duration) -> anyhow::Result<()> {
    let specs = [&args.black, &args.white].map(|s| s.as_deref().map(EngineSpec::parse).transpose());
    let [black, white] = specs;
    let specs =
        [black.map_err(|e| anyhow::anyhow!("--black: {e}"))?, white.map_err(|e| anyhow::anyhow!("--white: {e}"))?];
    let now = wall_clock();
    let (game, tokens, path) = match &args.resume {
        Some(path) => {
            let record = Record::load(path)?;
            let game = Game::from_state(record.state, now).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            if !game.state().tries.is_empty()
                && specs.iter().flatten().any(|s| s.protocol != crate::arena::Protocol::Ugi)
            {
                bail!(
                    "cannot resume with a platform-protocol engine seated: that protocol cannot bring a fresh engine to a game under way (seat it with proto=ugi, or let a person enter its tries)"
                );
            }
            (game, record.tokens, path.clone())
        }
        None => {
            if args.record.exists() {
                bail!(
                    "{} exists (an earlier game's record): --resume {} to go on with it, or name another --record",
                    args.record.display(),
                    args.record.display()
                );
            }
            let tokens = Tokens { referee: new_token()?, black: new_token()?, white: new_token()? };
            let limit = match args.time {
                Some(m) if m.is_finite() && m > 0.0 && m < 10_000.0 => Some((m * 60_000.0) as game::Millis),
                Some(m) => bail!("--time {m}: minutes, more than 0"),
                None => None,
            };
            (Game::with_time(komi, limit, now), tokens, args.record.clone())
        }
    };
    let seats =
        [0, 1].map(|i| specs[i].as_ref().map(|s| if s.name.is_empty() { s.command.join(" ") } else { s.name.clone() }));
    let shared = Shared::new(game, tokens.clone(), Some(path.clone()), letters, seats, wall_clock);
    shared.act(|_, _| Ok(())).map_err(|e| anyhow::anyhow!(e))?;

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| format!("cannot listen on {}", args.listen))?;
        let addr = listener.local_addr()?;
        let mut out = std::io::stdout().lock();
        writeln!(out, "Phantom Go referee (komi {}), record {}", shared.lock().state().komi, path.display())?;
        if addr.ip().is_unspecified() {
            writeln!(out, "(listening on every address: put this machine's address in place of {})", addr.ip())?;
        }
        writeln!(out, "referee: http://{addr}/{}", tokens.referee)?;
        writeln!(out, "black:   http://{addr}/{}", tokens.black)?;
        writeln!(out, "white:   http://{addr}/{}", tokens.white)?;
        out.flush()?;
        drop(out);
        let saver = shared.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(CHECKPOINT);
            loop {
                every.tick().await;
                let s = saver.clone();
                let _ = tokio::task::spawn_blocking(move || s.checkpoint()).await;
            }
        });
        for (i, spec) in specs.into_iter().enumerate() {
            if let Some(spec) = spec {
                let color = if i == 0 { Color::BLACK } else { Color::WHITE };
                seat::spawn(shared.clone(), color, spec, movetime);
            }
        }
        axum::serve(listener, server::router(shared)).await.context("the server stopped")
    })
}
