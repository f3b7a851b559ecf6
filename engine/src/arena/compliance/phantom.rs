//! The compliance checks of the Phantom Go platform protocol (`proto=phantom`): a
//! scripted conversation with our referee ([`Referee`], CCGC rules) on the other side.
//!
//! The engine plays Black, then White. The opponent is the script. Since an engine
//! learns of an opponent move only that it was made (`move go`), the script may place
//! such a move later, when it sees the engine's next tries: the referee's record then
//! holds a pass in its stead until it is placed, and placing it replays the whole game
//! and is kept only if every answer already given stays the same. This is how the
//! script brings about, in a real game, a refused try (the opponent's stone stood on
//! the point), a capture of the engine's stones (`taked`) and a capture by the
//! engine's try (`take`, or `access take` in that dialect): every line the engine gets
//! is what the referee would send in that game.

use std::io;
use std::time::{Duration, Instant};

use bitboards::go::{Color, LetterOrder, Move, Point, bits, board_mask, flood, neighbours};
use bitboards::phantom::{Answer, PhantomConfig, PhantomRules, Referee, SIZE, View};
use protocol::phantom::{Reply, capture_line, parse_reply};

use super::super::phantom::PlatformDialect;
use super::{ANSWER_TIME, Checker, EngineSpec, GameSetup, MARGIN, Miss, PROMPT};

/// How long an engine may take over a try.
const TRY_TIME: Duration = Duration::from_secs(ANSWER_TIME.as_secs() + MARGIN.as_secs());
/// Turns the script plays to bring about each capture.
const CAPTURE_TURNS: usize = 80;

/// The script's game.
struct Script {
    config: PhantomConfig,
    /// The engine's colour.
    engine: Color,
    /// Every try in order; the opponent's moves not yet placed are passes here.
    tries: Vec<Move>,
    /// Indices in `tries` of the opponent's moves told (`move go`) but not placed.
    unplaced: Vec<usize>,
    referee: Referee,
    /// The engine's line for its captures: `take` or `access take`.
    take: &'static str,
}

impl Script {
    fn new(config: PhantomConfig, engine: Color, take: &'static str) -> Script {
        Script { config, engine, tries: Vec::new(), unplaced: Vec::new(), referee: Referee::new(config), take }
    }

    /// The engine's view (the placeholders are passes there: its stones and this
    /// turn's refusals are the same whatever they become).
    fn view(&self) -> &View {
        self.referee.view(self.engine)
    }

    /// Plays a try; its answer. Where the game is over, or the try would end it, on
    /// two passes (the engine's pass and a placeholder), the latest placeholder is
    /// placed first where every answer stays the same and the game goes on.
    fn play(&mut self, mv: Move) -> Result<Answer, String> {
        let mut referee = self.referee.clone();
        let tried = referee.try_move(mv);
        if (self.referee.is_over() || referee.is_over())
            && let Some(&last) = self.unplaced.last()
        {
            for p in bitboards::go::points(SIZE) {
                if let Some((placed, answer)) = self.with(&[(last, p)], mv)
                    && !placed.is_over()
                {
                    self.commit(&[(last, p)], mv, placed);
                    return Ok(answer);
                }
            }
        }
        let answer = tried.map_err(|e| e.to_string())?;
        self.referee = referee;
        self.tries.push(mv);
        Ok(answer)
    }

    /// The opponent moves, the point to be chosen later (a placeholder pass until then:
    /// after the engine's pass it ends the referee's game until [`Script::play`], the
    /// engine's next try, places it).
    fn opponent_moves_later(&mut self) -> Result<(), String> {
        let index = self.tries.len();
        self.play(Move::Pass)?;
        self.unplaced.push(index);
        Ok(())
    }

    /// The game with the opponent's moves `placed` and then `next` tried, if every
    /// answer given so far stays the same and each placed stone stands and captures
    /// nothing; the referee and the answer to `next`.
    fn with(&self, placed: &[(usize, Point)], next: Move) -> Option<(Referee, Answer)> {
        let mut tries = self.tries.clone();
        for &(i, p) in placed {
            tries[i] = Move::Play(p);
        }
        tries.push(next);
        let referee = Referee::replay(self.config, &tries).ok()?;
        let old = self.referee.history();
        let new = referee.history();
        for (i, (a, b)) in old.iter().zip(new).enumerate() {
            let same = if placed.iter().any(|&(j, _)| j == i) {
                b.answer == Answer::Legal { captured: 0 }
            } else {
                a.answer == b.answer
            };
            if !same {
                return None;
            }
        }
        let answer = new.last()?.answer;
        Some((referee, answer))
    }

    /// Keeps a game found by [`Script::with`].
    fn commit(&mut self, placed: &[(usize, Point)], next: Move, referee: Referee) {
        for &(i, p) in placed {
            self.tries[i] = Move::Play(p);
        }
        self.unplaced.retain(|i| !placed.iter().any(|&(j, _)| j == *i));
        self.tries.push(next);
        self.referee = referee;
    }

    /// Places the last unplaced opponent move on `p` so that the engine's try there
    /// is refused; the answer.
    fn refuse(&mut self, p: Point) -> Option<Answer> {
        let &i = self.unplaced.last()?;
        let (referee, answer) = self.with(&[(i, p)], Move::Play(p))?;
        if !matches!(answer, Answer::Illegal { turn_passed: false, .. }) {
            return None;
        }
        self.commit(&[(i, p)], Move::Play(p), referee);
        Some(answer)
    }

    /// Places unplaced opponent moves so that the engine's try on `q` captures them
    /// (an empty area next to `q`, closed by the engine's stones and `q`); the
    /// captured points.
    fn engine_captures(&mut self, q: Point) -> Option<u128> {
        let board = *self.referee.board();
        if board.at(q).is_some() {
            return None;
        }
        let mask = board_mask(SIZE);
        let own = board.stones(self.engine) | q.bit();
        let free = board.empty() & !q.bit();
        for n in bits(neighbours(q.bit(), mask) & free) {
            let area = flood(n.bit(), free, mask);
            let edge = neighbours(area, mask) & !area;
            let size = area.count_ones() as usize;
            if edge & !own != 0 || size > self.unplaced.len() {
                continue;
            }
            let points: Vec<Point> = bits(area).collect();
            let latest = self.unplaced[self.unplaced.len() - size..].to_vec();
            let earliest = self.unplaced[..size].to_vec();
            for indices in [latest, earliest] {
                for reversed in [false, true] {
                    let mut placed: Vec<(usize, Point)> = indices.iter().copied().zip(points.iter().copied()).collect();
                    if reversed {
                        let ps: Vec<Point> = points.iter().rev().copied().collect();
                        placed = indices.iter().copied().zip(ps).collect();
                    }
                    if let Some((referee, Answer::Legal { captured })) = self.with(&placed, Move::Play(q))
                        && captured != 0
                    {
                        self.commit(&placed, Move::Play(q), referee);
                        return Some(captured);
                    }
                }
            }
        }
        None
    }

    /// The opponent's move now captures a group of the engine's, its other liberties
    /// filled by unplaced moves; the captured points.
    fn opponent_captures(&mut self) -> Option<u128> {
        let board = *self.referee.board();
        let mask = board_mask(SIZE);
        let stones = board.stones(self.engine);
        let mut groups: Vec<(u32, u128)> = Vec::new();
        let mut left = stones;
        while left != 0 {
            let seed = left & left.wrapping_neg();
            let group = flood(seed, stones, mask);
            left &= !group;
            groups.push((board.liberties(group).count_ones(), group));
        }
        groups.sort_by_key(|&(libs, _)| libs);
        for (libs, group) in groups {
            if libs as usize > self.unplaced.len() + 1 {
                break;
            }
            let liberties: Vec<Point> = bits(board.liberties(group)).collect();
            for (k, &last) in liberties.iter().enumerate() {
                let others: Vec<Point> =
                    liberties.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, &p)| p).collect();
                let indices = &self.unplaced[self.unplaced.len() - others.len()..];
                let placed: Vec<(usize, Point)> = indices.iter().copied().zip(others).collect();
                if let Some((referee, Answer::Legal { captured })) = self.with(&placed, Move::Play(last))
                    && captured & group == group
                {
                    self.commit(&placed, Move::Play(last), referee);
                    return Some(captured);
                }
            }
        }
        None
    }
}

/// A try as the check shows it.
fn shown(mv: Move, order: LetterOrder) -> String {
    protocol::phantom::move_line(mv, order)
}

/// A try that makes sense for `view`'s side: a pass, or a point not holding a stone
/// it knows of and not refused this turn.
fn sensible(view: &View, mv: Move, order: LetterOrder) -> Result<(), Miss> {
    let Move::Play(p) = mv else { return Ok(()) };
    let why = if view.own() & p.bit() != 0 {
        "a point holding its own stone"
    } else if view.opponent() & p.bit() != 0 {
        "a point holding a stone of the opponent it knows of"
    } else if view.refused() & p.bit() != 0 {
        "a point refused this turn"
    } else {
        return Ok(());
    };
    Err(Miss::wrong(format!("'{}' ({why})", shown(mv, order)), "a try on a point it may play"))
}

/// The engine's next try: the first `move` line within `limit`; with `alone`, no other
/// line may come before it.
fn read_try(c: &mut Checker, order: LetterOrder, alone: bool) -> Result<(Move, Duration), Miss> {
    let expected = "'move XY' (two letters A–I) or 'move pass'";
    let start = Instant::now();
    let (other, reply) =
        c.until(TRY_TIME, expected, |l| l.to_ascii_lowercase().starts_with("move").then(|| parse_reply(l, order)))?;
    if alone && let Some(first) = other.first() {
        return Err(Miss::wrong(format!("'{first}' before the try"), expected));
    }
    match reply {
        Ok(Reply::Move(mv)) => Ok((mv, start.elapsed())),
        Ok(Reply::Name(n)) => Err(Miss::wrong(format!("'name {n}'"), expected)),
        Err(e) => Err(Miss::wrong(format!("not a try: {e}"), expected)),
    }
}

/// `name?`, answered `name <a name>` with no line before it: the engine is alive and
/// said nothing to what came before.
fn name_probe(c: &mut Checker) -> Result<String, Miss> {
    c.send("name?")?;
    let expected = "nothing, then 'name <a name>' for 'name?'";
    let (other, line) =
        c.until(ANSWER_TIME, expected, |l| l.to_ascii_lowercase().starts_with("name").then(|| l.to_string()))?;
    if let Some(first) = other.first() {
        return Err(Miss::wrong(format!("'{first}'"), expected));
    }
    match parse_reply(&line, LetterOrder::RowColumn) {
        Ok(Reply::Name(_)) => Ok(format!("'{line}'")),
        _ => Err(Miss::wrong(format!("'{line}'"), "'name <a name>'")),
    }
}

fn script_miss(e: impl std::fmt::Display) -> Miss {
    Miss::wrong(format!("(the check's own game: {e})"), "")
}

/// Tells the engine the answer to its try `mv` (already judged and played) and, while
/// it is refused, reads and judges the next try; with `want_take`, a try that can be
/// made to capture is made to. The captured points when it was.
fn finish_turn(
    c: &mut Checker,
    s: &mut Script,
    order: LetterOrder,
    mut answer: Answer,
    want_take: bool,
) -> Result<Option<u128>, Miss> {
    loop {
        match answer {
            Answer::Legal { captured } => {
                c.send("accept")?;
                if captured != 0 {
                    let points: Vec<Point> = bits(captured).collect();
                    c.send(&capture_line(s.take, &points, order))?;
                }
                return Ok(None);
            }
            Answer::Passed => {
                c.send("accept")?;
                return Ok(None);
            }
            Answer::Illegal { turn_passed: true, .. } => return Ok(None),
            Answer::Illegal { turn_passed: false, .. } => {
                c.send("refuse")?;
                let (mv, _) = read_try(c, order, false)?;
                sensible(s.view(), mv, order)?;
                if want_take
                    && let Move::Play(q) = mv
                    && let Some(captured) = s.engine_captures(q)
                {
                    return Ok(Some(captured));
                }
                answer = s.play(mv).map_err(script_miss)?;
            }
        }
    }
}

/// The opponent moves (placed later) and the engine is sent `move go`; its try, judged.
fn opponent_then_try(c: &mut Checker, s: &mut Script, order: LetterOrder) -> Result<Move, Miss> {
    s.opponent_moves_later().map_err(script_miss)?;
    c.send("move go")?;
    let (mv, _) = read_try(c, order, false)?;
    sensible(s.view(), mv, order)?;
    Ok(mv)
}

/// Runs the Phantom Go platform protocol's checks in the engine's `dialect` (its
/// letter order and its line for its captures).
pub(super) fn phantom_checks(
    c: &mut Checker,
    spec: &EngineSpec,
    setup: GameSetup,
    dialect: PlatformDialect,
) -> io::Result<()> {
    let order = dialect.order;
    let config = PhantomConfig::for_rules(PhantomRules::Ccgc).with_komi(setup.komi);
    let mut s = Script::new(config, Color::BLACK, dialect.take);
    let mut last = Move::Pass;
    let mut last_answer = Answer::Passed;

    c.check("name? answered 'name <a name>'", |c| {
        c.send("name?")?;
        let (_, line) = c.until(ANSWER_TIME, "'name <a name>'", |l| {
            l.to_ascii_lowercase().starts_with("name").then(|| l.to_string())
        })?;
        match parse_reply(&line, order) {
            Ok(Reply::Name(_)) => Ok(format!("'{line}'")),
            _ => Err(Miss::wrong(format!("'{line}'"), "'name <a name>'")),
        }
    })?;
    c.check("new black answered at once with a try", |c| {
        for line in &spec.init {
            c.send(line)?;
        }
        c.send("new black")?;
        let (mv, took) = read_try(c, order, true)?;
        sensible(s.view(), mv, order)?;
        last_answer = s.play(mv).map_err(script_miss)?;
        Ok(format!("'{}' in {} ms", shown(mv, order), took.as_millis()))
    })?;
    c.check("accept answered with nothing (name? answered next)", |c| {
        finish_turn(c, &mut s, order, last_answer, false)?;
        name_probe(c)
    })?;
    c.check("move go answered with a try", |c| {
        let mv = opponent_then_try(c, &mut s, order)?;
        last = mv;
        Ok(format!("'{}'", shown(mv, order)))
    })?;
    c.check("refuse answered with another try, not the refused point", |c| {
        let Move::Play(p) = last else {
            return Err(Miss::wrong("'move pass' to 'move go' (nothing to refuse)", "a try on a point"));
        };
        let answer = s.refuse(p).ok_or_else(|| script_miss(format!("{} cannot be refused", p.to_gtp(SIZE))))?;
        let Answer::Illegal { .. } = answer else { return Err(script_miss("not refused")) };
        c.send("refuse")?;
        let (mv, took) = read_try(c, order, true)?;
        if mv == last {
            return Err(Miss::wrong(format!("'{}' again", shown(mv, order)), "a try on another point"));
        }
        sensible(s.view(), mv, order)?;
        let answer = s.play(mv).map_err(script_miss)?;
        finish_turn(c, &mut s, order, answer, false)?;
        Ok(format!("'{}' in {} ms", shown(mv, order), took.as_millis()))
    })?;
    c.check("taked N … (a real capture of its stones) accepted silently, move go answered with a try", |c| {
        for turn in 1..=CAPTURE_TURNS {
            if let Some(captured) = s.opponent_captures() {
                let points: Vec<Point> = bits(captured).collect();
                let line = capture_line("taked", &points, order);
                c.send(&line)?;
                c.send("move go")?;
                let (mv, _) = read_try(c, order, true)?;
                sensible(s.view(), mv, order)?;
                let answer = s.play(mv).map_err(script_miss)?;
                finish_turn(c, &mut s, order, answer, false)?;
                return Ok(format!("'{line}' at turn {turn}, then '{}'", shown(mv, order)));
            }
            if s.referee.is_over() {
                break;
            }
            let mv = opponent_then_try(c, &mut s, order)?;
            let answer = s.play(mv).map_err(script_miss)?;
            finish_turn(c, &mut s, order, answer, false)?;
            if s.referee.is_over() {
                break;
            }
        }
        Err(Miss::wrong(
            format!("(no capture of its stones came about in {CAPTURE_TURNS} turns)"),
            "tries that let the script capture",
        ))
    })?;
    c.check("take N … (a real capture by its try) accepted silently (name? answered next)", |c| {
        for turn in 1..=CAPTURE_TURNS {
            if s.referee.is_over() {
                break;
            }
            let mv = opponent_then_try(c, &mut s, order)?;
            let captured = match mv {
                Move::Play(q) => s.engine_captures(q),
                Move::Pass => None,
            };
            let captured = match captured {
                Some(captured) => Some(captured),
                None => {
                    let answer = s.play(mv).map_err(script_miss)?;
                    finish_turn(c, &mut s, order, answer, true)?
                }
            };
            if let Some(captured) = captured {
                let points: Vec<Point> = bits(captured).collect();
                let line = capture_line(s.take, &points, order);
                c.send("accept")?;
                c.send(&line)?;
                let name = name_probe(c)?;
                return Ok(format!("'{line}' at turn {turn}, then {name}"));
            }
        }
        Err(Miss::wrong(
            format!("(no try of its could be made a capture in {CAPTURE_TURNS} turns)"),
            "tries that close an empty area",
        ))
    })?;
    c.check("an unknown line and captures it cannot have made are survived (name? answered)", |c| {
        let view = s.view().clone();
        let empty = bitboards::go::points(SIZE).find(|p| view.at(*p).is_none()).unwrap_or(Point::new(0, 0));
        let own = bits(view.own()).next().unwrap_or(empty);
        c.send("sente-no-such-command 12")?;
        c.send(&capture_line("taked", &[empty], order))?;
        c.send(&capture_line(s.take, &[own], order))?;
        c.send("take 3 AB")?;
        c.send("name?")?;
        let (_, line) = c.until(ANSWER_TIME, "'name <a name>'", |l| {
            l.to_ascii_lowercase().starts_with("name").then(|| l.to_string())
        })?;
        Ok(format!("'{line}'"))
    })?;
    c.check("new white answered with nothing, then move go answered with a try", |c| {
        s = Script::new(config, Color::WHITE, dialect.take);
        c.send("new white")?;
        name_probe(c)?;
        s.play(Move::Play(Point::new(4, 4))).map_err(script_miss)?;
        c.send("move go")?;
        let (mv, took) = read_try(c, order, true)?;
        sensible(s.view(), mv, order)?;
        Ok(format!("'{}' in {} ms", shown(mv, order), took.as_millis()))
    })?;
    c.check("end and quit: exits within a second with status 0", |c| {
        c.send("end")?;
        c.send("quit")?;
        let start = Instant::now();
        match c.process.wait_exit(PROMPT) {
            Some(status) if status.success() => {
                Ok(format!("exited after {} ms ({status})", start.elapsed().as_millis()))
            }
            Some(status) => Err(Miss::wrong(format!("exited ({status})"), "exit status 0")),
            None => Err(Miss::wrong(
                format!("still running after {} ms", PROMPT.as_millis()),
                format!("exit within {} ms", PROMPT.as_millis()),
            )),
        }
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engines_pass_after_a_placeholder_does_not_end_the_scripts_game() {
        let config = PhantomConfig::for_rules(PhantomRules::Ccgc);
        let mut s = Script::new(config, Color::BLACK, "take");
        s.play(Move::Play(Point::new(4, 4))).unwrap();
        s.opponent_moves_later().unwrap();
        assert_eq!(s.unplaced, [1], "a placeholder, to be placed later");
        assert_eq!(s.play(Move::Pass), Ok(Answer::Passed));
        assert!(!s.referee.is_over(), "two passes would have ended the game");
        assert!(s.unplaced.is_empty(), "the placeholder is a stone now");
        assert!(matches!(s.tries[1], Move::Play(_)), "{:?}", s.tries);
        // The placeholder after the engine's pass ends the referee's game for now; the
        // engine's next try places it and goes on.
        s.opponent_moves_later().unwrap();
        assert_eq!(s.unplaced, [3]);
        assert_eq!(s.play(Move::Play(Point::new(2, 2))), Ok(Answer::Legal { captured: 0 }));
        assert!(!s.referee.is_over() && s.unplaced.is_empty(), "{:?}", s.tries);
        assert!(matches!(s.tries[3], Move::Play(_)), "{:?}", s.tries);
    }

    #[test]
    fn an_opening_pass_leaves_the_next_move_to_be_refused() {
        let config = PhantomConfig::for_rules(PhantomRules::Ccgc);
        let mut s = Script::new(config, Color::BLACK, "take");
        assert_eq!(s.play(Move::Pass), Ok(Answer::Passed));
        s.opponent_moves_later().unwrap();
        let e5 = Point::new(4, 4);
        assert!(matches!(s.refuse(e5), Some(Answer::Illegal { turn_passed: false, .. })), "{:?}", s.tries);
    }
}
