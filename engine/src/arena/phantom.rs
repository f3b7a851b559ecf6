//! Phantom Go in the arena: our referee ([`bitboards::phantom::Referee`], CCGC or
//! OpenSpiel rules) between two engines, each speaking the competition platform's
//! protocol (`proto=phantom`, [`protocol::phantom`]) or UGI+ (`proto=ugi`).
//!
//! An engine learns exactly what the rules let a player know — its own tries'
//! answers, the opponent's move or pass, and the captures (seed 000, rules 5 and 6) —
//! and nothing more:
//!
//! * **Platform engines** are sent `name?`, `new black|white`; the mover's try is
//!   answered `accept` (then `take N XY…` when it captured) or `refuse` (it sends
//!   another try); the other side is then sent `taked N XY…` for its stones captured
//!   and `move go` or `move pass`. A turn the referee turns into a pass (the
//!   illegal-try bound, or rule 7: no legal point left) gets no `refuse`: the
//!   opponent's `move go|pass` that follows tells the engine its turn is over. `end`
//!   and `quit` close the game. Points are written in the engine's letter order and
//!   captures told with its `take` line ([`PlatformDialect`]). The platform protocol
//!   has no line for what an OpenSpiel refusal shows nor for a capture without its
//!   points, so OpenSpiel games take UGI+ engines only.
//! * **UGI+ engines** are set up with `setoption name Game value phantomgo`,
//!   `PhantomRules`, `Komi`; before every try they get `position fen <view>` — the
//!   referee's [`View`] of their side (own stones, the known opponent stones, the
//!   opponent's count, this turn's refusals, earlier refusals, the last capture),
//!   never the tries list, which would hold the opponent's moves — and `go`; the
//!   `bestmove` is the try.
//!
//! Time (rule 8): with `--tc` a side's clock runs from its go-ahead — the instant the
//! referee answered the opponent's turn-ending try, before `taked` and `move go|pass`
//! are sent, so the time to remove its captured stones is its own — until the answer
//! that ends its turn, over all its illegal tries; the increment is added once a turn.
//! With `--st` every try must arrive within that time (plus the margin). An engine that
//! misses its time, exits, or writes a line that is not a try loses, as in the other
//! games.
//!
//! How a game ends: two passes in a row (forced passes included), the try cap
//! (scored as it stands), OpenSpiel's superko or 324 actions, or a fault. The referee
//! never proposes to stop early (rule 11): neither protocol has a line for the
//! proposal or the agreement.
//!
//! Records: `games/NNNNNN.txt` (every try with its answer, captures, the full board and
//! both sides' views at the end) and `games/NNNNNN.sgf` (the accepted moves, each with
//! the turn's tries in its comment; the tries of a turn the game ended in, in a last
//! node).

use std::cell::RefCell;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bitboards::Outcome;
use bitboards::go::{Color, LetterOrder, Move, Point, bits};
use bitboards::phantom::{Answer, EndReason, PhantomConfig, PhantomResult, Referee, SIZE, TryRecord, View};
use protocol::phantom::{Reply as PlatformReply, capture_line, parse_reply};

use super::players::{SearchInfo, UGI_LINES};
use super::process::{Fault, Log, Process};
use super::{EngineSpec, GameEnd, GameRecord, MatchConfig, MoveStat, Protocol, TimeControl};
use crate::games::phantom::rules_name;
use crate::tools::journal::write_atomically;

/// How long an engine may take to start and to answer `name?`.
const SETUP_TIME: Duration = Duration::from_secs(30);
/// Lines an engine may print between tries that are not tries.
const MAX_OTHER_LINES: usize = 1000;
/// How long a UGI+ engine may take over `readyok` before each try (off its clock).
const SYNC_TIME: Duration = Duration::from_secs(30);

/// How an engine of a Phantom Go game is spoken to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    /// The platform protocol.
    Platform(PlatformDialect),
    /// UGI+: before each try, `position fen <the side's view>` and `go`.
    Ugi,
}

/// The platform protocol as one engine speaks it: the sources disagree on the letter
/// order and on the capturer's line, so both are engine options (`option.letters`,
/// `option.take`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlatformDialect {
    /// Which letter of `move XY` is the row.
    pub order: LetterOrder,
    /// The capturer's line: `take` or `access take`.
    pub take: &'static str,
}

impl Default for PlatformDialect {
    /// Row-column letters and `take`.
    fn default() -> PlatformDialect {
        PlatformDialect { order: LetterOrder::RowColumn, take: "take" }
    }
}

impl PlatformDialect {
    /// Reads a platform engine's options: `letters=row-column|column-row` (default
    /// row-column) and `take=take|access` (default `take`).
    pub fn from_options(options: &[(String, String)]) -> Result<PlatformDialect, String> {
        let mut dialect = PlatformDialect::default();
        for (name, value) in options {
            match name.to_ascii_lowercase().as_str() {
                "letters" => {
                    dialect.order = crate::protocols::platform::parse_letters(value)
                        .map_err(|_| format!("option.letters '{value}': row-column or column-row"))?
                }
                "take" => {
                    dialect.take = match value.trim().to_ascii_lowercase().as_str() {
                        "take" => "take",
                        "access" | "access take" | "access-take" => "access take",
                        other => return Err(format!("option.take '{other}': take or access")),
                    }
                }
                other => {
                    return Err(format!(
                        "option.{other}: a platform engine (proto=phantom) takes option.letters and option.take"
                    ));
                }
            }
        }
        Ok(dialect)
    }
}

/// What an engine answered when a try was due.
pub(crate) enum TryReply {
    /// A try (a point or a pass).
    Try(Move),
    /// A UGI+ `bestmove resign`.
    Resign,
}

/// One engine of a Phantom Go game (also the referee's board's engine seat).
pub(crate) struct Engine {
    process: Process,
    link: Link,
    /// What a UGI+ engine said about the search of its last try.
    info: SearchInfo,
}

impl Engine {
    pub(crate) fn start(
        spec: &EngineSpec,
        color: Color,
        config: &PhantomConfig,
        log: Option<Log>,
        stop: Arc<AtomicBool>,
    ) -> Result<Engine, Fault> {
        let mut process = Process::start(&spec.name, &spec.command, log, stop)?;
        let deadline = Instant::now() + SETUP_TIME;
        match spec.protocol {
            Protocol::Ugi => {
                process.send("ugi")?;
                process.recv_handshake(deadline, UGI_LINES, |l| (l == "ugiok" || l == "uciok").then_some(()))?;
                process.send("setoption name Game value phantomgo")?;
                process.send(&format!("setoption name PhantomRules value {}", rules_name(config.rules)))?;
                process.send(&format!("setoption name Komi value {}", config.komi))?;
                for (name, value) in &spec.options {
                    process.send(&format!("setoption name {name} value {value}"))?;
                }
                for line in &spec.init {
                    process.send(line)?;
                }
                process.send("uginewgame")?;
                process.send("isready")?;
                process.recv_until(deadline, MAX_OTHER_LINES, |l| (l == "readyok").then_some(()))?;
                Ok(Engine { process, link: Link::Ugi, info: SearchInfo::default() })
            }
            _ => {
                let dialect = PlatformDialect::from_options(&spec.options).map_err(Fault::Protocol)?;
                process.send("name?")?;
                process.recv_handshake(deadline, &[], |l| l.starts_with("name").then_some(()))?;
                for line in &spec.init {
                    process.send(line)?;
                }
                process.send(if color == Color::BLACK { "new black" } else { "new white" })?;
                Ok(Engine { process, link: Link::Platform(dialect), info: SearchInfo::default() })
            }
        }
    }

    /// The engine's next try, before `deadline`. A UGI+ engine is first sent `view`
    /// (its side's knowledge, nothing more) and a `go` with `clock_left` (the mover's
    /// time left on a clock) or the time per try.
    pub(crate) fn try_move(
        &mut self,
        deadline: Instant,
        view: &View,
        control: TimeControl,
        clock_left: Duration,
    ) -> Result<TryReply, Fault> {
        let order = match self.link {
            Link::Platform(dialect) => dialect.order,
            Link::Ugi => return self.try_move_ugi(deadline, view, control, clock_left),
        };
        let reply = self.process.recv_until(deadline, MAX_OTHER_LINES, |l| {
            l.to_ascii_lowercase().starts_with("move").then(|| parse_reply(l, order))
        })?;
        match reply {
            Ok(PlatformReply::Move(mv)) => Ok(TryReply::Try(mv)),
            Ok(PlatformReply::Name(_)) => Err(Fault::Protocol("a name where a try was due".into())),
            Err(e) => Err(Fault::Protocol(format!("not a try: {e}"))),
        }
    }

    /// Drops what a UGI+ engine wrote since its last answer (a `bestmove` written
    /// twice): everything before its `readyok`. Platform engines are not asked (their
    /// protocol has no such line).
    pub(crate) fn sync(&mut self, deadline: Instant) -> Result<(), Fault> {
        match self.link {
            Link::Ugi => {
                self.process.send("isready")?;
                self.process.recv_until(deadline, MAX_OTHER_LINES, |l| (l == "readyok").then_some(()))
            }
            Link::Platform(_) => Ok(()),
        }
    }

    fn try_move_ugi(
        &mut self,
        deadline: Instant,
        view: &View,
        control: TimeControl,
        clock_left: Duration,
    ) -> Result<TryReply, Fault> {
        self.process.send(&format!("position fen {}", view.to_text()))?;
        let go = match control {
            TimeControl::Clock { increment, .. } => {
                let side = if view.color() == Color::BLACK { "p1" } else { "p2" };
                format!("go {side}time {} {side}inc {}", clock_left.as_millis(), increment.as_millis())
            }
            TimeControl::PerMove(t) => format!("go movetime {}", t.as_millis()),
            TimeControl::Nodes(n) => format!("go nodes {n}"),
        };
        self.process.send(&go)?;
        self.info = SearchInfo::default();
        let info = &mut self.info;
        let best = self.process.recv_until(deadline, MAX_OTHER_LINES, |l| {
            info.read_ugi(l);
            let mut words = l.split_whitespace();
            (words.next() == Some("bestmove")).then(|| words.next().unwrap_or("").to_string())
        })?;
        if best.eq_ignore_ascii_case("resign") {
            return Ok(TryReply::Resign);
        }
        crate::games::phantom::parse_try(&best)
            .map(TryReply::Try)
            .map_err(|e| Fault::Protocol(format!("'bestmove {best}' is not a try: {e}")))
    }

    /// Sends a platform line; a UGI+ engine learns the same from its next view.
    pub(crate) fn tell(&mut self, line: &str) -> Result<(), Fault> {
        match self.link {
            Link::Platform(_) => self.process.send(line),
            Link::Ugi => Ok(()),
        }
    }

    /// Sends a platform capture line (`take`, `taked`) naming `set`.
    pub(crate) fn tell_capture(&mut self, word: &str, set: u128) -> Result<(), Fault> {
        match self.link {
            Link::Platform(dialect) => {
                let points: Vec<Point> = bits(set).collect();
                self.process.send(&capture_line(word, &points, dialect.order))
            }
            Link::Ugi => Ok(()),
        }
    }

    /// Tells the capturer its capture, with the `take` line its dialect speaks.
    pub(crate) fn tell_take(&mut self, set: u128) -> Result<(), Fault> {
        match self.link {
            Link::Platform(dialect) => self.tell_capture(dialect.take, set),
            Link::Ugi => Ok(()),
        }
    }

    /// Ends the game for the engine and its process.
    pub(crate) fn close(mut self) {
        match self.link {
            Link::Platform(_) => {
                let _ = self.process.send("end");
                self.process.quit("quit");
            }
            Link::Ugi => self.process.quit("quit"),
        }
    }
}

/// An answer as the text record writes it (`accepted`, `refused (…)`, `pass`).
pub(crate) fn answer_text(a: &Answer) -> String {
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
fn text_record(
    config: &MatchConfig,
    names: [&str; 2],
    referee: &Referee,
    plies: &[MoveStat],
    reason: &str,
    score: &str,
) -> String {
    let mut out = String::new();
    let rules = rules_name(referee.rules());
    let _ = writeln!(out, "{}", crate::games::replay::phantom::record_header(rules, referee.config().komi));
    let _ = writeln!(out, "# black {}  white {}", names[0], names[1]);
    let _ = writeln!(out, "# arena time control {:?}", config.control);
    for (i, t) in referee.history().iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>4} {} {:<4} {}",
            i + 1,
            t.color.stone_letter(),
            t.mv.to_gtp(SIZE),
            answer_text(&t.answer)
        );
    }
    // What each try cost and what its engine said: `# try 3 white 0.186s`.
    for stat in plies {
        let color = if stat.seat == 0 { "black" } else { "white" };
        let _ = writeln!(out, "# try {} {color} {}", stat.ply + 1, stat.annotation());
    }
    let _ = writeln!(out, "# result {score} ({reason})");
    let _ = writeln!(out, "# the full board at the end:");
    for l in referee.board().draw().lines() {
        let _ = writeln!(out, "# {l}");
    }
    // What each side knew at the end (every view before it follows from replaying
    // the tries through the referee).
    let [black, white] = [Color::BLACK, Color::WHITE].map(|c| referee.view(c).board_text());
    let _ = writeln!(out, "# the views at the end, top row first: black's, white's");
    for row in 0..SIZE {
        let cells = row * SIZE..(row + 1) * SIZE;
        let _ = writeln!(out, "# {}  {}", &black[cells.clone()], &white[cells]);
    }
    out
}

/// The SGF record: accepted moves (forced passes included), each commented with its
/// turn's tries.
fn sgf_record(names: [&str; 2], referee: &Referee, score: &str, reason: &str) -> String {
    let esc = |s: &str| s.replace('\\', "\\\\").replace(']', "\\]");
    let mut out = format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[sente]SZ[9]KM[{}]RU[Phantom Go {}]PB[{}]PW[{}]RE[{}]GC[{}]",
        referee.config().komi,
        rules_name(referee.rules()),
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
        let _ = write!(out, "\n;{}[{node}]C[tries: {}]", t.color.stone_letter(), esc(&tries_text(&turn)));
        turn.clear();
    }
    // A game that ended inside a turn (a refused try as OpenSpiel's last action, a
    // fault): that turn's tries in a node of their own.
    if !turn.is_empty() {
        let _ = write!(out, "\n;C[tries of an unfinished turn: {}]", esc(&tries_text(&turn)));
    }
    out.push_str(")\n");
    out
}

/// A turn's tries with their answers, for an SGF comment.
fn tries_text(turn: &[&TryRecord]) -> String {
    turn.iter().map(|t| format!("{} {}", t.mv.to_gtp(SIZE), answer_text(&t.answer))).collect::<Vec<_>>().join("; ")
}

/// Plays game number `game` of the schedule (Phantom Go).
pub(super) fn play_game(config: &MatchConfig, game: u64, log: Option<Log>, stop: Arc<AtomicBool>) -> GameEnd {
    let who = if game.is_multiple_of(2) { [0, 1] } else { [1, 0] };
    let names = [config.engines[who[0]].name.as_str(), config.engines[who[1]].name.as_str()];
    // The arena's command line has read the rule set (`--phantom-rules`).
    let rules = crate::games::phantom::rules_of(&config.rules.options).unwrap_or_default();
    let mut referee = Referee::new(PhantomConfig::for_rules(rules).with_komi(config.rules.komi));
    // What each engine spent and said on each try.
    let plies: RefCell<Vec<MoveStat>> = RefCell::new(Vec::new());
    let finish = |referee: &Referee, outcome: Outcome, reason: String, score: Option<String>| {
        let plies = plies.take();
        let score_first = outcome.points_for(bitboards::Player::One);
        let score_a = if who[0] == 0 { score_first } else { 1.0 - score_first };
        let shown = score.clone().unwrap_or_else(|| outcome.result_text().to_string());
        let stem = format!("games/{game:06}");
        let sgf = sgf_record(names, referee, &shown, &reason);
        let _ = write_atomically(&config.out.join(format!("{stem}.sgf")), sgf.as_bytes());
        let text = text_record(config, names, referee, &plies, &reason, &shown);
        let record = write_atomically(&config.out.join(format!("{stem}.txt")), text.as_bytes())
            .ok()
            .map(|_| format!("{stem}.txt"));
        GameEnd::Finished(Box::new(GameRecord {
            game,
            opening: 0,
            first: names[0].to_string(),
            second: names[1].to_string(),
            result: outcome.result_text().to_string(),
            score_a,
            reason,
            score,
            moves: referee.history().len(),
            note: None,
            record,
            plies,
        }))
    };
    let fault = |referee: &Referee, seat: usize, f: &Fault| {
        if matches!(f, Fault::Interrupted) {
            return GameEnd::Interrupted;
        }
        finish(referee, Outcome::loss_of(bitboards::Player::from_index(seat)), format!("{} {f}", names[seat]), None)
    };

    let mut engines = Vec::new();
    let phantom_config = *referee.config();
    for (seat, color) in [Color::BLACK, Color::WHITE].into_iter().enumerate() {
        match Engine::start(&config.engines[who[seat]], color, &phantom_config, log.clone(), stop.clone()) {
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
    // When the side to move got its go-ahead: its clock runs from then (rule 8). For
    // black's first turn, now (it answers `new black` with a try); later, the moment
    // the referee answered the opponent's last try, before the `taked` line and the
    // `move go|pass` are sent, so that removing its captured stones is on its clock.
    let mut go_ahead = Instant::now();
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
        let mut turn_start = go_ahead;
        // One turn: tries until one ends it.
        loop {
            // The stale lines are dropped off the mover's clock: the turn's clock
            // starts that much later.
            let synced = Instant::now();
            match engines[seat].sync(synced + SYNC_TIME) {
                Ok(()) => {}
                Err(Fault::Interrupted) => return GameEnd::Interrupted,
                Err(f) => return fault(&referee, seat, &f),
            }
            turn_start += synced.elapsed();
            let try_start = Instant::now();
            let deadline = match config.control {
                TimeControl::Clock { .. } => turn_start + clocks[seat] + config.margin,
                TimeControl::PerMove(t) => try_start + t + config.margin,
                TimeControl::Nodes(_) => try_start + config.move_timeout,
            };
            let clock_left = clocks[seat].saturating_sub(turn_start.elapsed());
            let view = referee.view(color).clone();
            let reply = engines[seat].try_move(deadline, &view, config.control, clock_left);
            if !matches!(reply, Err(Fault::Interrupted)) {
                let info = engines[seat].info;
                plies.borrow_mut().push(MoveStat::of(referee.history().len(), seat, try_start.elapsed(), info));
            }
            let mv = match reply {
                Ok(TryReply::Try(mv)) => mv,
                Ok(TryReply::Resign) => {
                    let outcome = Outcome::loss_of(bitboards::Player::from_index(seat));
                    return finish(&referee, outcome, format!("{} resigns", names[seat]), None);
                }
                Err(Fault::Interrupted) => return GameEnd::Interrupted,
                Err(f) => return fault(&referee, seat, &f),
            };
            let answer = match referee.try_move(mv) {
                Ok(a) => a,
                Err(e) => return fault(&referee, seat, &Fault::Protocol(format!("try {}: {e}", mv.to_gtp(SIZE)))),
            };
            // The mover's clock stops with the answer that ends its turn; the
            // opponent's starts at the same instant.
            let answered = Instant::now();
            let other = 1 - seat;
            let sent = match answer {
                Answer::Illegal { turn_passed: false, .. } => engines[seat].tell("refuse"),
                Answer::Illegal { turn_passed: true, .. } => Ok(()),
                Answer::Passed => engines[seat].tell("accept"),
                Answer::Legal { captured } => engines[seat].tell("accept").and_then(|_| {
                    // OpenSpiel tells the capturer no points: only UGI+ engines play it.
                    if captured != 0 { engines[seat].tell_take(captured) } else { Ok(()) }
                }),
            };
            if let Err(f) = sent {
                return fault(&referee, seat, &f);
            }
            if !answer.ends_turn() {
                // OpenSpiel's last action may be a refused try: the game ends there.
                if referee.is_over() {
                    break;
                }
                continue;
            }
            let used = answered.duration_since(turn_start);
            if let TimeControl::Clock { increment, .. } = config.control {
                if used > clocks[seat] + config.margin {
                    return fault(&referee, seat, &Fault::Timeout);
                }
                clocks[seat] = clocks[seat].saturating_sub(used) + increment;
            }
            go_ahead = answered;
            if referee.is_over() {
                break;
            }
            // Tell the other side: its captured stones, then the move or the pass.
            let told = match answer {
                Answer::Legal { captured } => {
                    let lost = if captured != 0 { engines[other].tell_capture("taked", captured) } else { Ok(()) };
                    lost.and_then(|_| engines[other].tell("move go"))
                }
                _ => engines[other].tell("move pass"),
            };
            if let Err(f) = told {
                return fault(&referee, other, &f);
            }
            break;
        }
    };
    for e in engines {
        e.close();
    }
    let dead = crate::games::phantom::referee_dead(&referee);
    let (reason, score) = match outcome {
        None => {
            let r = referee.result(dead);
            let reason = match referee.end_reason() {
                Some(EndReason::TwoPasses) | None => "two passes",
                Some(EndReason::ActionCap) => "OpenSpiel's 324 actions",
                Some(EndReason::Superko) => "superko repetition, a draw (OpenSpiel)",
                Some(EndReason::Agreement) => "stopped by agreement",
            };
            (reason.to_string(), r.map(|r| (r.winner, r.text())))
        }
        Some(why) => {
            // Scored as it stands: the tie rule of the rule set (CCGC: White wins).
            let r = PhantomResult::judge(referee.rules(), EndReason::ActionCap, referee.score(dead));
            (why, Some((r.winner, r.text())))
        }
    };
    let (winner, text) = score.unwrap_or((None, "?".into()));
    let outcome = match winner {
        Some(c) => Outcome::Win(c),
        None => Outcome::Draw,
    };
    finish(&referee, outcome, reason, Some(text))
}
