//! The UGI+ checks (every game).

use std::io;
use std::time::{Duration, Instant};

use bitboards::{Outcome, go};

use super::rules::{Rules, Spot, line_of_play};
use super::{ANSWER_TIME, Checker, EngineSpec, GameSetup, MARGIN, Miss, PROMPT, UGI_LINES, shorten};

impl Checker<'_> {
    /// UGI+: `isready` answered `readyok`; the lines before it.
    fn ready(&mut self) -> Result<Vec<String>, Miss> {
        self.send("isready")?;
        Ok(self.until(ANSWER_TIME, "readyok", |l| (l == "readyok").then_some(()))?.0)
    }
}

fn bestmove(line: &str) -> Option<String> {
    let mut words = line.split_whitespace();
    (words.next() == Some("bestmove")).then(|| words.next().unwrap_or("").to_string())
}

fn response(line: &str) -> Option<String> {
    line.strip_prefix("response").filter(|r| r.is_empty() || r.starts_with(' ')).map(|r| r.trim().to_string())
}

/// Sends `spot` and `go`, then judges the `bestmove`: legal by our rules, and within
/// `limit` (and [`MARGIN`]) when the search has one.
fn ugi_search(
    c: &mut Checker,
    setup: &GameSetup,
    spot: &Spot,
    go: &str,
    limit: Option<Duration>,
) -> Result<String, Miss> {
    let rules = Rules::of(setup, spot).map_err(|e| Miss::wrong(format!("(our script is wrong: {e})"), ""))?;
    c.send(&spot.command())?;
    c.send(go)?;
    let start = Instant::now();
    let wait = limit.unwrap_or(Duration::ZERO) + MARGIN + ANSWER_TIME;
    let (_, best) = c.until(wait, "'bestmove <a legal move>'", bestmove)?;
    let took = start.elapsed();
    if let Some(limit) = limit
        && took > limit + MARGIN
    {
        return Err(Miss::wrong(
            format!("bestmove {best} after {} ms", took.as_millis()),
            format!("an answer within {} ms", (limit + MARGIN).as_millis()),
        ));
    }
    rules.check(&best).map_err(|e| Miss::wrong(format!("'bestmove {best}' ({e})"), "a legal move"))?;
    Ok(format!("'bestmove {best}' in {} ms", took.as_millis()))
}

/// Sends `query what` and judges the answer: exactly `response <want>` (`response`
/// alone when `want` is empty), with no stray spaces.
fn query(c: &mut Checker, what: &str, want: &str) -> Result<String, Miss> {
    query_any(c, what, &[want])
}

/// [`query`] with more than one right answer (the first is named when none came).
fn query_any(c: &mut Checker, what: &str, wants: &[&str]) -> Result<String, Miss> {
    let mut expected: Vec<String> = wants.iter().map(|w| protocol::ugi::response_line(w)).collect();
    expected.dedup();
    let named = expected.iter().map(|e| format!("'{e}'")).collect::<Vec<_>>().join(" or ");
    c.send(&format!("query {what}"))?;
    let (_, got) =
        c.until_lines(ANSWER_TIME, &named, false, |l| response(l.trim()).is_some().then(|| l.to_string()))?;
    if expected.contains(&got) { Ok(format!("'{got}'")) } else { Err(Miss::wrong(format!("'{got}'"), named)) }
}

pub(super) fn ugi_checks(c: &mut Checker, spec: &EngineSpec, setup: GameSetup) -> io::Result<()> {
    let game = setup.kind.name();
    let mut options: Vec<String> = Vec::new();
    c.check("ugi answers id/option lines and ugiok", |c| {
        c.send("ugi")?;
        let (other, _) = c.until(ANSWER_TIME, "'ugiok'", |l| (l == "ugiok" || l == "uciok").then_some(()))?;
        if let Some(bad) = other.iter().find(|l| !UGI_LINES.iter().any(|p| l.starts_with(p))) {
            return Err(Miss::wrong(format!("'{bad}' before ugiok"), "only id, option and info lines before ugiok"));
        }
        options = other.iter().filter(|l| l.starts_with("option ")).cloned().collect();
        let name = other.iter().find_map(|l| l.strip_prefix("id name ")).unwrap_or("(no id name)").to_string();
        Ok(format!("'{name}', {} options, 'ugiok'", options.len()))
    })?;
    c.check(&format!("the Game option offers {game}"), |_| {
        let Some(line) = options.iter().find(|l| l.starts_with("option name Game ")) else {
            return Ok("no Game option (an engine of one game)".into());
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.windows(2).any(|w| w[0] == "var" && w[1].eq_ignore_ascii_case(game)) {
            Ok(format!("'{}'", shorten(line, 80)))
        } else {
            Err(Miss::wrong(format!("'{line}'"), format!("'var {game}'")))
        }
    })?;
    c.check("isready answers readyok", |c| c.ready().map(|_| "'readyok'".to_string()))?;
    c.check(&format!("setoption selects {game} without an error"), |c| {
        c.send(&format!("setoption name Game value {game}"))?;
        let sizes = setup.kind.board_sizes();
        if sizes.min < sizes.max {
            c.send(&format!("setoption name BoardSize value {}", setup.size))?;
        }
        if setup.kind.spec().default_komi().is_some() {
            c.send(&format!("setoption name Komi value {}", setup.komi))?;
        }
        for (name, value) in &spec.options {
            c.send(&format!("setoption name {name} value {value}"))?;
        }
        for line in &spec.init {
            c.send(line)?;
        }
        let other = c.ready()?;
        match other.iter().find(|l| l.to_ascii_lowercase().contains("error")) {
            Some(e) => Err(Miss::wrong(format!("'{e}'"), "'readyok' and no error")),
            None => Ok("'readyok'".into()),
        }
    })?;
    c.check("uginewgame then isready", |c| {
        c.send("uginewgame")?;
        c.ready().map(|_| "'readyok'".to_string())
    })?;

    // The standard start: ours, or for Chaos Clock the engine's deal.
    // `None`: a game without one standard start (Chaos Clock's deals).
    let standard_start = Rules::at(&setup, None).ok();
    let mut deal: Option<String> = None;
    c.check("position startpos, query fen", |c| {
        c.send("position startpos")?;
        c.send("query fen")?;
        let (_, fen) = c.until(ANSWER_TIME, "'response <the position>'", response)?;
        match &standard_start {
            // Without a standard start, the engine's deal.
            None => {
                let title = setup.kind.spec().title();
                let rules = Rules::at(&setup, Some(&fen))
                    .map_err(|e| Miss::wrong(format!("'{fen}' ({e})"), format!("a {title} position")))?;
                deal = Some(rules.text());
            }
            Some(rules) => {
                let ours = match rules {
                    // Phantom Go's `query fen` from the start is the referee's full board.
                    Rules::Phantom(referee) => go::board_text(referee.board()),
                    rules => rules.text(),
                };
                if fen != ours {
                    return Err(Miss::wrong(format!("'response {fen}'"), format!("'response {ours}'")));
                }
            }
        }
        Ok(format!("'response {fen}'"))
    })?;
    let base = match (deal, &standard_start) {
        (Some(d), _) => Spot { startpos: true, start: Some(d), moves: Vec::new() },
        (None, None) => Spot {
            startpos: false,
            start: setup.kind.spec().deal_opening(0, 0).and_then(|o| o.start),
            moves: Vec::new(),
        },
        (None, Some(_)) => Spot { startpos: true, start: None, moves: Vec::new() },
    };
    let (line, fen) = match Rules::of(&setup, &base).and_then(|r| {
        let line = line_of_play(&r, 4)?;
        let fen = Rules::of(&setup, &base.with_moves(line_of_play(&r, 5)?))?.text();
        Ok((line, fen))
    }) {
        Ok(v) => v,
        Err(e) => {
            writeln!(c.out, "FAIL  the check's own script: {e}")?;
            c.report.failed += 1;
            return Ok(());
        }
    };
    let played = base.with_moves(line);
    let fen_spot = Spot { startpos: false, start: Some(fen.clone()), moves: Vec::new() };

    // The first search after `readyok` (ugi.md: the set-up belongs before it); the
    // line shows its wall time, what a client with a small buffer sees.
    c.check("the first go movetime 100 after readyok: a legal bestmove in time", |c| {
        ugi_search(c, &setup, &base, "go movetime 100", Some(Duration::from_millis(100)))
    })?;
    c.check("position … moves …, go depth 2: a legal bestmove", |c| {
        ugi_search(c, &setup, &played, "go depth 2", None)
    })?;
    c.check("position fen, query fen gives it back", |c| {
        c.send(&fen_spot.command())?;
        c.send("query fen")?;
        let (_, got) = c.until(ANSWER_TIME, "'response <the position>'", response)?;
        if got == fen {
            Ok(format!("'response {got}'"))
        } else {
            Err(Miss::wrong(format!("'response {got}'"), format!("'response {fen}'")))
        }
    })?;
    c.check("position fen, go nodes 1000: a legal bestmove", |c| {
        ugi_search(c, &setup, &fen_spot, "go nodes 1000", None)
    })?;
    c.check("go p1time p2time p1inc p2inc: a legal bestmove in time", |c| {
        ugi_search(c, &setup, &played, "go p1time 3000 p2time 3000 p1inc 100 p2inc 100", Some(Duration::from_secs(3)))
    })?;

    // go infinite: isready during the search, then stop.
    let mut searching = false;
    c.check("isready during go infinite", |c| {
        c.send(&played.command())?;
        c.send("go infinite")?;
        searching = true;
        std::thread::sleep(Duration::from_millis(300));
        c.send("isready")?;
        let (_, answer) = c.until(ANSWER_TIME, "'readyok' (and no bestmove before stop)", |l| {
            (l == "readyok" || bestmove(l).is_some()).then(|| l.to_string())
        })?;
        if answer != "readyok" {
            return Err(Miss::wrong(format!("'{answer}' before stop"), "'readyok'"));
        }
        Ok("'readyok'".into())
    })?;
    c.check("stop ends go infinite at once with a legal bestmove", |c| {
        let rules = Rules::of(&setup, &played).map_err(|e| Miss::wrong(e, ""))?;
        if !searching {
            c.send(&played.command())?;
            c.send("go infinite")?;
            std::thread::sleep(Duration::from_millis(300));
        }
        c.send("stop")?;
        let start = Instant::now();
        let (_, best) = c.until(PROMPT + ANSWER_TIME, "'bestmove <a legal move>'", bestmove)?;
        let took = start.elapsed();
        if took > PROMPT {
            return Err(Miss::wrong(
                format!("'bestmove {best}' {} ms after stop", took.as_millis()),
                format!("within {} ms", PROMPT.as_millis()),
            ));
        }
        rules.check(&best).map_err(|e| Miss::wrong(format!("'bestmove {best}' ({e})"), "a legal move"))?;
        Ok(format!("'bestmove {best}' {} ms after stop", took.as_millis()))
    })?;

    c.check("query gameover and result in a game under way", |c| {
        c.send(&played.command())?;
        let a = query(c, "gameover", "false")?;
        let b = query(c, "result", "none")?;
        Ok(format!("{a} {b}"))
    })?;
    // A finished game: Othello's full board; two passes where the rules have them;
    // else the fixed line of play to the end.
    let over = if let Some(line) = setup.kind.spec().ended_line() {
        base.with_moves(line.iter().map(|m| m.to_string()).collect())
    } else {
        let passes = base.with_moves(vec!["pass".into(), "pass".into()]);
        match Rules::of(&setup, &base) {
            Ok(r) if Rules::of(&setup, &passes).is_err() => base.with_moves(line_of_play(&r, 1000).unwrap_or_default()),
            _ => passes,
        }
    };
    let over_outcome = Rules::of(&setup, &over).ok().and_then(|r| r.outcome());
    c.check("query gameover and result in a finished game", |c| {
        let Some(outcome) = over_outcome else {
            return Err(Miss::wrong("(our rules do not end the script's game)", ""));
        };
        c.send(&over.command())?;
        let a = query(c, "gameover", "true")?;
        // ugi.md's word (Chaos Clock's both-win and both-lose are `draw`), or the
        // outcome's own word.
        let b = query_any(c, "result", &[Outcome::ugi_word(Some(outcome)), Outcome::ugi_full_word(Some(outcome))])?;
        Ok(format!("{a} {b}"))
    })?;
    c.check("query legalmoves in a finished game answers 'response' alone", |c| {
        c.send(&over.command())?;
        query(c, "legalmoves", "")
    })?;
    c.check("go in a finished game answers bestmove none", |c| {
        c.send(&over.command())?;
        c.send("go movetime 100")?;
        let (_, best) = c.until(ANSWER_TIME, "'bestmove none'", bestmove)?;
        if matches!(best.as_str(), "none" | "(none)") {
            Ok(format!("'bestmove {best}'"))
        } else {
            Err(Miss::wrong(format!("'bestmove {best}'"), "'bestmove none'"))
        }
    })?;
    c.check("malformed lines are survived (isready still answered)", |c| {
        for line in ["position startpos moves zz99", "go sideways", "setoption", "position", "xyzzy \u{1} 12"] {
            c.send(line)?;
        }
        c.ready().map(|_| "'readyok'".to_string())
    })?;
    c.check("quit exits within a second", |c| c.quit())?;
    Ok(())
}
