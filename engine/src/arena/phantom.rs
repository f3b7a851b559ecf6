//! Phantom Go in the arena: our referee ([`bitboards::phantom::Referee`], CCGC rules)
//! between two engines that speak the competition platform's protocol
//! (`proto=phantom`, [`protocol::phantom`]).
//!
//! Why that protocol and not UGI+: an engine must learn exactly what the rules let a
//! player know — its own tries' answers, the opponent's move or pass, and the captures
//! (seed 000, rules 5 and 6). The platform protocol carries exactly that and nothing
//! more, so an engine in the arena cannot see the hidden board even if it wanted to.
//! (A UGI+ `position startpos moves …` holds both sides' tries and would tell all.)
//!
//! What each engine is sent: `name?`, `new black|white`; the mover's try is answered
//! `accept` (then `take N XY…` when it captured) or `refuse` (it sends another try);
//! the other side is then sent `taked N XY…` for its stones captured and `move go` or
//! `move pass`. A turn the referee turns into a pass (the illegal-try bound, or rule 7:
//! no legal point left) gets no `refuse`: the opponent's `move go|pass` that follows
//! tells the engine its turn is over. `end` and `quit` close the game.
//!
//! Time (rule 8): with `--tc` each side's clock runs over all the tries of its turns,
//! the referee's answers included, and the increment is added once a turn; with `--st`
//! every try must arrive within that time (plus the margin). An engine that misses its
//! time, exits, or writes a line that is not a try loses, as in the other games.
//!
//! Records: `games/NNNNNN.txt` (every try with its answer, captures, the full board at
//! the end) and `games/NNNNNN.sgf` (the accepted moves, each with the turn's tries in
//! its comment).

use std::fmt::Write as _;
use std::fs;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bitboards::Outcome;
use bitboards::go::{Color, LetterOrder, Move, Point, bits};
use bitboards::phantom::{Answer, PhantomConfig, Referee, SIZE, TryRecord};
use protocol::phantom::{Reply as PlatformReply, capture_line, parse_reply};

use super::process::{Fault, Log, Process};
use super::referee::result_text;
use super::{EngineSpec, GameEnd, GameRecord, MatchConfig, TimeControl};

/// How long an engine may take to start and to answer `name?`.
const SETUP_TIME: Duration = Duration::from_secs(30);
/// Lines an engine may print between tries that are not tries.
const MAX_OTHER_LINES: usize = 1000;

/// One engine of a Phantom Go game.
struct Engine {
    process: Process,
    order: LetterOrder,
}

impl Engine {
    fn start(spec: &EngineSpec, color: Color, log: Option<Log>, stop: Arc<AtomicBool>) -> Result<Engine, Fault> {
        let mut process = Process::start(&spec.name, &spec.command, log, stop)?;
        let deadline = Instant::now() + SETUP_TIME;
        process.send("name?")?;
        process.recv_until(deadline, MAX_OTHER_LINES, |l| l.starts_with("name").then_some(()))?;
        for line in &spec.init {
            process.send(line)?;
        }
        process.send(if color == Color::BLACK { "new black" } else { "new white" })?;
        Ok(Engine { process, order: LetterOrder::RowColumn })
    }

    /// The engine's next try, before `deadline`.
    fn try_move(&mut self, deadline: Instant) -> Result<Move, Fault> {
        let order = self.order;
        let reply = self.process.recv_until(deadline, MAX_OTHER_LINES, |l| {
            l.to_ascii_lowercase().starts_with("move").then(|| parse_reply(l, order))
        })?;
        match reply {
            Ok(PlatformReply::Move(mv)) => Ok(mv),
            Ok(PlatformReply::Name(_)) => Err(Fault::Protocol("a name where a try was due".into())),
            Err(e) => Err(Fault::Protocol(format!("not a try: {e}"))),
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.process.send(line)
    }

    fn points(&self, set: u128) -> Vec<Point> {
        bits(set).collect()
    }
}

/// The text of a try for the records (GTP vertex or `pass`).
fn vertex(mv: Move) -> String {
    match mv {
        Move::Play(p) => p.to_gtp(SIZE),
        Move::Pass => "pass".into(),
    }
}

fn answer_text(a: &Answer) -> String {
    match a {
        Answer::Legal { captured: 0 } => "accepted".into(),
        Answer::Legal { captured } => {
            format!("accepted, takes {}", bits(*captured).map(|p| p.to_gtp(SIZE)).collect::<Vec<_>>().join(" "))
        }
        Answer::Passed => "pass".into(),
        Answer::Illegal { reason, turn_passed: false } => format!("refused ({reason})"),
        Answer::Illegal { reason, turn_passed: true } => format!("refused ({reason}); the turn becomes a pass"),
    }
}

/// The text record: a header, every try with its answer, the end.
fn text_record(config: &MatchConfig, names: [&str; 2], referee: &Referee, reason: &str, score: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Phantom Go (CCGC rules), komi {}", referee.config().komi);
    let _ = writeln!(out, "# black {}  white {}", names[0], names[1]);
    let _ = writeln!(out, "# arena time control {:?}", config.control);
    for (i, t) in referee.history().iter().enumerate() {
        let _ = writeln!(out, "{:>4} {} {:<4} {}", i + 1, t.color.stone_letter(), vertex(t.mv), answer_text(&t.answer));
    }
    let _ = writeln!(out, "# result {score} ({reason})");
    let _ = writeln!(out, "# the full board at the end:");
    for l in referee.board().draw().lines() {
        let _ = writeln!(out, "# {l}");
    }
    out
}

/// The SGF record: accepted moves (forced passes included), each commented with its
/// turn's tries.
fn sgf_record(names: [&str; 2], referee: &Referee, score: &str, reason: &str) -> String {
    let esc = |s: &str| s.replace('\\', "\\\\").replace(']', "\\]");
    let mut out = format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[sente]SZ[9]KM[{}]RU[Phantom Go CCGC]PB[{}]PW[{}]RE[{}]GC[{}]",
        referee.config().komi,
        esc(names[0]),
        esc(names[1]),
        esc(score),
        esc(reason)
    );
    let mut turn: Vec<&TryRecord> = Vec::new();
    for t in referee.history() {
        turn.push(t);
        if !t.answer.ends_turn() {
            continue;
        }
        let played = match t.answer {
            Answer::Legal { .. } => t.mv,
            _ => Move::Pass,
        };
        let node = match played {
            Move::Play(p) => p.to_sgf(),
            Move::Pass => String::new(),
        };
        let tries: Vec<String> = turn.iter().map(|t| format!("{} {}", vertex(t.mv), answer_text(&t.answer))).collect();
        let _ = write!(out, "\n;{}[{node}]C[tries: {}]", t.color.stone_letter(), esc(&tries.join("; ")));
        turn.clear();
    }
    out.push_str(")\n");
    out
}

/// Plays game number `game` of the schedule (Phantom Go).
pub(super) fn play_game(config: &MatchConfig, game: u64, log: Option<Log>, stop: Arc<AtomicBool>) -> GameEnd {
    let who = if game.is_multiple_of(2) { [0, 1] } else { [1, 0] };
    let names = [config.engines[who[0]].name.as_str(), config.engines[who[1]].name.as_str()];
    let mut referee = Referee::new(PhantomConfig::ccgc().with_komi(config.rules.komi));
    let finish = |referee: &Referee, outcome: Outcome, reason: String, score: Option<String>| {
        let score_first = outcome.points_for(bitboards::Player::One);
        let score_a = if who[0] == 0 { score_first } else { 1.0 - score_first };
        let shown = score.clone().unwrap_or_else(|| result_text(outcome).to_string());
        let stem = format!("games/{game:06}");
        let sgf = sgf_record(names, referee, &shown, &reason);
        let _ = fs::write(config.out.join(format!("{stem}.sgf")), sgf);
        let text = text_record(config, names, referee, &reason, &shown);
        let record = fs::write(config.out.join(format!("{stem}.txt")), text).ok().map(|_| format!("{stem}.txt"));
        GameEnd::Finished(GameRecord {
            game,
            opening: 0,
            first: names[0].to_string(),
            second: names[1].to_string(),
            result: result_text(outcome).to_string(),
            score_a,
            reason,
            score,
            moves: referee.history().len(),
            note: None,
            record,
        })
    };
    let fault = |referee: &Referee, seat: usize, f: &Fault| {
        finish(referee, Outcome::loss_of(bitboards::Player::from_index(seat)), format!("{} {f}", names[seat]), None)
    };

    let mut engines = Vec::new();
    for (seat, color) in [Color::BLACK, Color::WHITE].into_iter().enumerate() {
        match Engine::start(&config.engines[who[seat]], color, log.clone(), stop.clone()) {
            Ok(e) => engines.push(e),
            Err(Fault::Interrupted) => return GameEnd::Interrupted,
            Err(f) => {
                let outcome = Outcome::loss_of(bitboards::Player::from_index(seat));
                return finish(&referee, outcome, format!("{} could not start: {f}", names[seat]), None);
            }
        }
    }
    let mut clocks = match config.control {
        TimeControl::Clock { base, .. } => [base, base],
        _ => [Duration::ZERO; 2],
    };
    // White waits for black's first move; black answered `new black` with a try.
    let outcome = 'game: loop {
        if stop.load(Ordering::Relaxed) {
            return GameEnd::Interrupted;
        }
        if referee.is_over() {
            break 'game None;
        }
        if referee.history().len() >= config.rules.max_moves {
            break 'game Some("try cap reached: scored as it stands".to_string());
        }
        let color = referee.to_move();
        let seat = color.index();
        let turn_start = Instant::now();
        // One turn: tries until one ends it.
        loop {
            let try_start = Instant::now();
            let deadline = match config.control {
                TimeControl::Clock { .. } => turn_start + clocks[seat] + config.margin,
                TimeControl::PerMove(t) => try_start + t + config.margin,
                TimeControl::Nodes(_) => try_start + config.move_timeout,
            };
            let mv = match engines[seat].try_move(deadline) {
                Ok(mv) => mv,
                Err(Fault::Interrupted) => return GameEnd::Interrupted,
                Err(f) => return fault(&referee, seat, &f),
            };
            let answer = match referee.try_move(mv) {
                Ok(a) => a,
                Err(e) => return fault(&referee, seat, &Fault::Protocol(format!("try {}: {e}", vertex(mv)))),
            };
            let other = 1 - seat;
            let sent = match answer {
                Answer::Illegal { turn_passed: false, .. } => engines[seat].send("refuse"),
                Answer::Illegal { turn_passed: true, .. } => Ok(()),
                Answer::Passed => engines[seat].send("accept"),
                Answer::Legal { captured } => {
                    let order = engines[seat].order;
                    let points = engines[seat].points(captured);
                    engines[seat].send("accept").and_then(|_| {
                        if captured != 0 { engines[seat].send(&capture_line("take", &points, order)) } else { Ok(()) }
                    })
                }
            };
            if let Err(f) = sent {
                return fault(&referee, seat, &f);
            }
            if !answer.ends_turn() {
                continue;
            }
            let used = turn_start.elapsed();
            if let TimeControl::Clock { increment, .. } = config.control {
                if used > clocks[seat] + config.margin {
                    return fault(&referee, seat, &Fault::Timeout);
                }
                clocks[seat] = clocks[seat].saturating_sub(used) + increment;
            }
            if referee.is_over() {
                break;
            }
            // Tell the other side: its captured stones, then the move or the pass.
            let order = engines[other].order;
            let told = match answer {
                Answer::Legal { captured } => {
                    let lost = if captured != 0 {
                        let points = engines[other].points(captured);
                        engines[other].send(&capture_line("taked", &points, order))
                    } else {
                        Ok(())
                    };
                    lost.and_then(|_| engines[other].send("move go"))
                }
                _ => engines[other].send("move pass"),
            };
            if let Err(f) = told {
                return fault(&referee, other, &f);
            }
            break;
        }
    };
    for e in &mut engines {
        let _ = e.send("end");
    }
    for mut e in engines {
        e.process.quit("quit");
    }
    let dead = crate::phantom::referee_dead(&referee);
    let (reason, score) = match outcome {
        None => {
            let r = referee.result(dead);
            ("two passes".to_string(), r.map(|r| (r.winner, r.text())))
        }
        Some(why) => {
            let s = referee.score(dead);
            let m = s.margin();
            let winner = if m > 0.0 { Some(Color::BLACK) } else { Some(Color::WHITE) };
            (why, Some((winner, s.result())))
        }
    };
    let (winner, text) = score.unwrap_or((None, "?".into()));
    let outcome = match winner {
        Some(c) => Outcome::Win(c),
        None => Outcome::Draw,
    };
    finish(&referee, outcome, reason, Some(text))
}
