//! An outside Othello engine used as a judge of positions: asked over NBoard for the
//! value of each position (`hint 1` at its set depth). `sente train-othello teach`
//! labels training positions with it.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};
use bitboards::othello::{Board, Color, Position};

use super::players::{EngineSpec, GameSetup, Player, Protocol, TimeControl};
use crate::games::GameKind;
use crate::games::referee::ArenaGame;

/// A started NBoard engine that values positions at the depth its `option.depth` set.
pub struct NboardTeacher {
    name: String,
    player: Player,
}

impl NboardTeacher {
    /// Starts the engine of `spec`, which must speak NBoard, and sets it up (its
    /// options are sent as `set NAME VALUE`, e.g. `option.depth=12`).
    pub fn start(spec: &EngineSpec, stop: Arc<AtomicBool>) -> Result<NboardTeacher> {
        if spec.protocol != Protocol::Nboard {
            bail!("the teacher '{}' must speak NBoard (proto=nboard)", spec.name);
        }
        let setup = GameSetup { kind: GameKind::OTHELLO, size: 8, komi: 0.0 };
        // The time control is not used: NBoard engines search to their depth.
        let control = TimeControl::PerMove(Duration::from_secs(1));
        let player =
            Player::start(spec, setup, control, None, stop).map_err(|f| anyhow!("teacher '{}': {f}", spec.name))?;
        Ok(NboardTeacher { name: spec.name.clone(), player })
    }

    /// The engine's value, in discs for the side to move, of the position with the
    /// discs `player` (to move) and `opponent`; an error if no answer comes within
    /// `limit` or the answer is malformed. A side that must pass gets the negated
    /// value of the other side's position; a finished game, its final score (the
    /// engine is not asked).
    pub fn value(&mut self, player: u64, opponent: u64, limit: Duration) -> Result<f64> {
        let board = Board::new(player, opponent);
        if board.is_game_over() {
            return Ok(f64::from(board.final_score()));
        }
        if board.moves() == 0 {
            return Ok(-self.value(opponent, player, limit)?);
        }
        // Shown with the side to move as black: the value is the mover's either way.
        let position = Position::new(board, Color::BLACK);
        let text = ArenaGame::ggf_board(&position);
        self.player.nboard_value(&text, Instant::now() + limit).map_err(|f| anyhow!("teacher '{}': {f}", self.name))
    }

    /// Ends the engine's process.
    pub fn quit(self) {
        self.player.quit();
    }
}
