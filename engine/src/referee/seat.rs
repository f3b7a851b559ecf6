//! An engine seated for one side: the arena's Phantom Go engine link (the platform
//! protocol or UGI+, [`crate::arena::EngineSpec`]), driven from the game on the board.
//!
//! The seat tells its engine exactly the notices the referee gives its side, in the
//! platform's lines (`accept`, `refuse`, `take …` to the capturer, `taked …` then
//! `move go` or `move pass` to the other side; a UGI+ engine is sent its side's view
//! before each try instead), confirms its captured stones' removal as soon as the
//! `taked` line is sent, and enters the engine's tries as the side's own. An engine
//! that fails, resigns or times out is logged on the referee's page, and the referee
//! enters that side's tries from then on.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use bitboards::go::{Color, Move};
use bitboards::phantom::Notice;

use super::game::{Actor, config, name};
use super::server::Shared;
use crate::arena::phantom::{Engine, TryReply};
use crate::arena::{EngineSpec, TimeControl};

/// How long an engine may think over one try before the seat gives up on it.
const TRY_TIMEOUT: Duration = Duration::from_secs(600);
/// How often an idle seat looks at the game.
const POLL: Duration = Duration::from_millis(20);

/// Starts the seat's thread.
pub fn spawn(shared: Arc<Shared>, color: Color, spec: EngineSpec, movetime: Duration) {
    std::thread::spawn(move || {
        if let Err(e) = run(&shared, color, &spec, movetime) {
            let _ = shared.act(|g, now| {
                g.note(now, format!("{}'s engine stopped: {e}; the referee enters its tries", name(color)), false);
                Ok(())
            });
        }
    });
}

fn run(shared: &Shared, color: Color, spec: &EngineSpec, movetime: Duration) -> Result<(), String> {
    let komi = shared.lock().state().komi;
    let stop = Arc::new(AtomicBool::new(false));
    let mut engine = Engine::start(spec, color, &config(komi), None, stop).map_err(|f| format!("cannot start: {f}"))?;
    let mut told = 0;
    loop {
        let (notices, my_turn, view, over, held) = {
            let g = shared.lock();
            let r = g.referee();
            let s = g.state();
            (
                r.notices(color).get(told..).unwrap_or_default().to_vec(),
                r.to_move() == color,
                r.view(color).clone(),
                g.is_over(),
                s.proposal.is_some(),
            )
        };
        if over {
            engine.close();
            return Ok(());
        }
        told += notices.len();
        let mut i = 0;
        while i < notices.len() {
            let sent = match notices[i] {
                Notice::Accepted(_) => engine.tell("accept"),
                Notice::Refused(_) => engine.tell("refuse"),
                Notice::Took { points, .. } => engine.tell_take(points),
                Notice::Lost { points } => engine.tell_capture("taked", points),
                Notice::OpponentMoved => {
                    // The captured stones are told before the go-ahead, as the arena does.
                    if let Some(Notice::Lost { points }) = notices.get(i + 1) {
                        i += 1;
                        engine.tell_capture("taked", *points).and_then(|_| engine.tell("move go"))
                    } else {
                        engine.tell("move go")
                    }
                }
                Notice::OpponentPassed => engine.tell("move pass"),
                Notice::TurnPassed | Notice::Shown { .. } => Ok(()),
            };
            sent.map_err(|f| f.to_string())?;
            if matches!(notices[i], Notice::Lost { .. }) {
                shared.act(|g, now| g.confirm_removal(Actor::Player(color), color, now))?;
            }
            i += 1;
        }
        if !my_turn || held || shared.lock().state().removal_pending[color.index()] != 0 {
            std::thread::sleep(POLL);
            continue;
        }
        let reply = engine
            .try_move(Instant::now() + TRY_TIMEOUT, &view, TimeControl::PerMove(movetime), movetime)
            .map_err(|f| f.to_string())?;
        let mv: Move = match reply {
            TryReply::Try(mv) => mv,
            TryReply::Resign => return Err("the engine resigns".into()),
        };
        // A proposal raised (or a recovery) while the engine thought holds its try:
        // it is entered once the hold clears, or dropped if the turn is no longer ours.
        loop {
            match shared.act(|g, now| g.try_move(Actor::Player(color), mv, now)) {
                Ok(_) => break,
                Err(e) => {
                    let (over, mine, held) = {
                        let g = shared.lock();
                        let s = g.state();
                        (
                            g.is_over(),
                            g.referee().to_move() == color,
                            s.proposal.is_some() || s.removal_pending[color.index()] != 0,
                        )
                    };
                    if over || !mine {
                        break;
                    }
                    if !held {
                        return Err(e);
                    }
                    std::thread::sleep(POLL);
                }
            }
        }
    }
}
