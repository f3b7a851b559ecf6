//! Chaos Clock's face to the arena: a start state, both losing at the move cap, the
//! text record.

use bitboards::Outcome;
use bitboards::chaosclock::{self as cc, Record};

use super::{ArenaGame, Ending, Judge, MoveStat, RefereeRules};
use crate::games::session::PerftJob;
use search::StopFlag;

impl ArenaGame for Record {
    fn from_opening(_rules: &RefereeRules, start: Option<&str>) -> Result<Self, String> {
        let text = start.ok_or("Chaos Clock openings are positions (deals)")?;
        let state = cc::State::parse(text).map_err(|e| format!("not a Chaos Clock position '{text}': {e}"))?;
        Ok(Record::new(state))
    }

    fn text(&self) -> String {
        self.state().to_string()
    }

    fn draw(&self) -> String {
        self.state().draw()
    }

    /// Player one's (乙's) progress minus 甲's, in pieces.
    fn score_text(&self) -> String {
        use search::chaosclock::player::progress;
        let s = self.state();
        format!("{:.1}", progress(&s, cc::Side::YI) - progress(&s, cc::Side::JIA))
    }

    /// Perft for checking the rules: 8 moves deep at most.
    fn perft_job(&self, depth: u32, _threads: usize) -> Result<PerftJob, String> {
        fn count(r: &mut Record, depth: u32) -> u64 {
            if depth == 0 || r.state().outcome().is_some() {
                return 1;
            }
            let mut n = 0;
            for mv in r.state().legal_moves() {
                if r.play(mv).is_ok() {
                    n += count(r, depth - 1);
                    r.undo();
                }
            }
            n
        }
        if depth > 8 {
            return Err("Chaos Clock perft is for checking the rules: depth 8 at most".into());
        }
        let mut record = self.clone();
        Ok(Box::new(move |_: &StopFlag| Some(count(&mut record, depth))))
    }

    /// At the move cap both lose.
    fn adjudicate(&self, _judge: &mut Judge, rules: &RefereeRules, moves: usize) -> Option<Ending> {
        (moves >= rules.max_moves).then(|| Ending {
            outcome: Outcome::BothLose,
            reason: format!("move cap ({} moves): both lose", rules.max_moves),
            score: None,
        })
    }

    fn final_ending(&self, outcome: Outcome) -> Ending {
        let reason = if self.moves().len() >= 2 && outcome == Outcome::BothLose {
            "both lose (two passes or a repeated position)"
        } else {
            "game over"
        };
        Ending { outcome, reason: reason.into(), score: None }
    }

    fn record(
        &self,
        _start: &Self,
        names: [&str; 2],
        moves: &[String],
        plies: &[MoveStat],
        ending: &Ending,
    ) -> (&'static str, String) {
        let mut text = format!(
            "# Chaos Clock game (sente arena)\nstart {}\n乙 (first) {}\n甲 (second) {}\nmoves {}\nresult {}\nreason {}\n",
            self.start(),
            names[0],
            names[1],
            moves.join(" "),
            ending.outcome.result_text(),
            ending.reason
        );
        text.push_str(&format!("final {}\n", self.state()));
        // One line per move an engine was asked for: its number, the move, what it
        // spent and said (`ply 3 w2 +4.75/5 0.186s, 965675 nodes`).
        for stat in plies {
            let mv = moves.get(stat.ply).map_or("(none)", String::as_str);
            text.push_str(&format!("ply {} {mv} {}\n", stat.ply + 1, stat.annotation()));
        }
        ("txt", text)
    }
}
