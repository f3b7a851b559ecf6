//! The game record, written after every action (a temporary file renamed over the
//! old one, so a crash leaves the last whole record) and read back by `--resume`.
//!
//! It is JSON: the state a game is rebuilt from (the tries with their times, the
//! timers, the penalties and recoveries, the proposal, the dead stones), the three
//! pages' tokens (so that pages left open find the resumed server), the seats, and for
//! a reader the full board, both sides' views, the tries as text and the result. It
//! shows every stone and holds the tokens: keep it from the players until the game
//! ends.

use std::fmt::Write as _;
use std::path::Path;

use bitboards::go::Color;
use serde::{Deserialize, Serialize};

use super::game::{Game, GameState};
use super::views::answer_text;

/// The format name written in every record.
pub const FORMAT: &str = "sente phantom referee record 1";

/// The three pages' tokens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    /// The referee's page.
    pub referee: String,
    /// Black's page.
    pub black: String,
    /// White's page.
    pub white: String,
}

/// A record as written.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Record {
    /// [`FORMAT`].
    pub format: String,
    /// The tokens.
    pub tokens: Tokens,
    /// The state the game is rebuilt from.
    pub state: GameState,
    /// For a reader: the full board (81 characters from the top row, `X`, `O`, `.`).
    #[serde(default)]
    pub full: String,
    /// For a reader: black's and white's views.
    #[serde(default)]
    pub views: [String; 2],
    /// For a reader: every try with its answer.
    #[serde(default)]
    pub log: Vec<String>,
    /// For a reader: the result with the dead stones marked now.
    #[serde(default)]
    pub result: Option<String>,
}

impl Record {
    /// The record of `game`.
    pub fn of(game: &Game, tokens: &Tokens) -> Record {
        let r = game.referee();
        let full = bitboards::go::points(bitboards::phantom::SIZE)
            .map(|p| match r.board().at(p) {
                Some(c) if c == Color::BLACK => 'X',
                Some(_) => 'O',
                None => '.',
            })
            .collect();
        let log = r
            .history()
            .iter()
            .enumerate()
            .map(|(i, t)| {
                format!(
                    "{} {} {} {}",
                    i + 1,
                    t.color.stone_letter(),
                    t.mv.to_gtp(bitboards::phantom::SIZE),
                    answer_text(&t.answer)
                )
            })
            .collect();
        Record {
            format: FORMAT.into(),
            tokens: tokens.clone(),
            state: game.state().clone(),
            full,
            views: [r.view(Color::BLACK).board_text(), r.view(Color::WHITE).board_text()],
            log,
            result: game.result_text(),
        }
    }

    /// Writes the record atomically.
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        crate::tools::journal::write_atomically(path, text.as_bytes())
    }

    /// The arena's Phantom Go text record of the game (`# Phantom Go (ccgc rules), komi
    /// K`, then one line per try with its answer), which `sente arena report` reads;
    /// the server writes it beside the JSON record.
    pub fn arena_text(game: &Game, seats: &[Option<String>; 2]) -> String {
        let r = game.referee();
        let mut out = String::new();
        let who = |i: usize| seats[i].clone().unwrap_or_else(|| "person".into());
        let _ = writeln!(out, "{}", crate::games::replay::phantom::record_header("ccgc", game.state().komi));
        let _ = writeln!(out, "# black {}  white {}", who(0), who(1));
        let _ = writeln!(out, "# refereed on sente phantom referee's board");
        for (i, t) in r.history().iter().enumerate() {
            let _ = writeln!(
                out,
                "{:>4} {} {:<4} {}",
                i + 1,
                t.color.stone_letter(),
                t.mv.to_gtp(bitboards::phantom::SIZE),
                crate::arena::phantom::answer_text(&t.answer)
            );
        }
        if let Some(result) = game.result_text() {
            let _ = writeln!(out, "# result {result}");
        }
        let _ = writeln!(out, "# the full board:");
        for l in r.board().draw().lines() {
            let _ = writeln!(out, "# {l}");
        }
        out
    }

    /// Reads a record.
    pub fn load(path: &Path) -> anyhow::Result<Record> {
        let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        let record: Record = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{} is not a referee record: {e}", path.display()))?;
        if record.format != FORMAT {
            anyhow::bail!("{}: format '{}', expected '{FORMAT}'", path.display(), record.format);
        }
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::game::Actor;
    use bitboards::go::{Move, Point};

    #[test]
    fn the_arena_report_replays_the_text_record() {
        let mut g = Game::new(7.5, 0);
        for (k, mv) in [(0, 1), (0, 0), (1, 0)].into_iter().enumerate() {
            g.try_move(Actor::Referee, Move::Play(Point::new(mv.0, mv.1)), k as u64).unwrap();
        }
        g.confirm_removal(Actor::Referee, Color::WHITE, 5).unwrap();
        g.try_move(Actor::Referee, Move::Play(Point::new(0, 1)), 6).unwrap();
        g.try_move(Actor::Referee, Move::Pass, 7).unwrap();
        g.try_move(Actor::Referee, Move::Pass, 8).unwrap();
        let text = Record::arena_text(&g, &[None, Some("sente".into())]);
        assert!(text.contains("   4 W B9   refused"), "{text}");
        assert_eq!(crate::games::replay::phantom::phantom_record_tries(&text), Ok(6), "{text}");
    }
}
