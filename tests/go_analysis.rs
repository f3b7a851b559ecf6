//! Analysis for Go GUIs over GTP: `lz-analyze` (Sabaki, Lizzie) and `kata-analyze`
//! (KaTrain, Lizzie with KataGo) stream `info move …` lines at the requested interval
//! until the next command, which ends the reply with the empty line and is then
//! answered; `lz-genmove_analyze` streams the same lines and ends with `play <move>`.

use crate::common;

use common::{Engine, REPLY, gtp};

/// One root move of an analysis line.
#[derive(Debug)]
struct MoveInfo {
    vertex: String,
    visits: u64,
    winrate: f64,
    lcb: f64,
    pv: Vec<String>,
    score_lead: Option<f64>,
}

/// Parses one analysis line: `info move X visits N … pv …` repeated, and for
/// kata-analyze an optional `ownership v v …` at the end. Fields are checked:
/// integers 0..=10000 (lz) or floats 0..=1 (kata), orders 0, 1, 2, …
fn parse_line(line: &str, kata: bool, size: usize) -> (Vec<MoveInfo>, Option<Vec<f64>>) {
    let (infos, ownership) = match line.split_once(" ownership ") {
        Some((infos, own)) => (infos, Some(own.split_whitespace().map(|v| v.parse::<f64>().unwrap()).collect())),
        None => (line, None),
    };
    assert!(infos.starts_with("info move "), "{line}");
    let mut moves = Vec::new();
    for (order, chunk) in infos.split("info ").skip(1).enumerate() {
        let tokens: Vec<&str> = chunk.split_whitespace().collect();
        let pv_at = tokens.iter().position(|&t| t == "pv").unwrap_or_else(|| panic!("no pv: {chunk}"));
        let field = |name: &str| -> &str {
            let i = tokens[..pv_at].iter().position(|&t| t == name).unwrap_or_else(|| panic!("no {name}: {chunk}"));
            tokens[i + 1]
        };
        let scale = if kata { 1.0 } else { 10000.0 };
        let probability = |name: &str| -> f64 {
            let text = field(name);
            if !kata {
                assert!(text.parse::<u32>().is_ok(), "lz {name} is an integer: {chunk}");
            }
            let v: f64 = text.parse().unwrap();
            assert!((0.0..=scale).contains(&v), "{name} {v} out of range: {chunk}");
            v / scale
        };
        assert_eq!(field("order").parse::<usize>().unwrap(), order, "{chunk}");
        probability("prior");
        let info = MoveInfo {
            vertex: field("move").to_string(),
            visits: field("visits").parse().unwrap(),
            winrate: probability("winrate"),
            lcb: probability("lcb"),
            pv: tokens[pv_at + 1..].iter().map(|s| s.to_string()).collect(),
            score_lead: kata.then(|| field("scoreLead").parse().unwrap()),
        };
        assert!(info.lcb <= info.winrate + 1e-9, "{chunk}");
        assert_eq!(info.pv.first(), Some(&info.vertex), "the pv starts with the move: {chunk}");
        assert!(info.score_lead.is_none_or(|s| s.abs() <= (size * size) as f64 + 10.0), "{chunk}");
        moves.push(info);
    }
    assert!(moves.windows(2).all(|w| w[0].visits >= w[1].visits), "best first: {line}");
    (moves, ownership)
}

/// Reads analysis lines until at least `count` arrived.
fn read_lines(e: &mut Engine, count: usize) -> Vec<String> {
    (0..count).map(|_| e.recv(REPLY)).collect()
}

#[test]
fn lz_analyze_streams_until_the_next_command() {
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "boardsize 9"), "=");
    assert_eq!(gtp(&mut e, "play b E5"), "=");
    assert_eq!(gtp(&mut e, "known_command lz-analyze"), "= true");
    e.send("7 lz-analyze w 10");
    assert_eq!(e.recv(REPLY), "=7");
    let lines = read_lines(&mut e, 4);
    let totals: Vec<u64> = lines
        .iter()
        .map(|l| {
            let (moves, ownership) = parse_line(l, false, 9);
            assert!(ownership.is_none());
            assert!(moves.iter().all(|m| m.vertex != "E5"), "E5 is occupied: {l}");
            moves.iter().map(|m| m.visits).sum()
        })
        .collect();
    assert!(totals.windows(2).all(|w| w[0] < w[1]), "visits grow: {totals:?}");
    // The next command ends the analysis: the empty line, then its own reply.
    e.send("8 name");
    let rest = e.until(|l| l.is_empty());
    for l in &rest[..rest.len() - 1] {
        parse_line(l, false, 9);
    }
    assert_eq!(e.recv(REPLY), "=8 sente");
    assert_eq!(e.recv(REPLY), "");
    // The analysis changed nothing: white is still to play, E5 still black.
    assert_eq!(gtp(&mut e, "play b E5"), "? illegal move");
    assert_eq!(gtp(&mut e, "play w D5"), "=");
    // A bare empty line ends an analysis too (KataGo's convention), and maxmoves
    // limits the moves per line.
    e.send("lz-analyze b interval 10 maxmoves 3");
    assert_eq!(e.recv(REPLY), "=");
    let (moves, _) = parse_line(&e.recv(REPLY), false, 9);
    assert!((1..=3).contains(&moves.len()), "{moves:?}");
    e.send("");
    e.until(|l| l.is_empty());
    assert_eq!(gtp(&mut e, "name"), "= sente");
}

#[test]
fn kata_analyze_reports_score_and_ownership() {
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "boardsize 7"), "=");
    assert_eq!(gtp(&mut e, "komi 0.5"), "=");
    assert_eq!(gtp(&mut e, "play b D4"), "=");
    e.send("kata-analyze 10 ownership true");
    assert_eq!(e.recv(REPLY), "=");
    for line in read_lines(&mut e, 3) {
        let (moves, ownership) = parse_line(&line, true, 7);
        assert!(moves.iter().all(|m| m.score_lead.is_some()));
        let own = ownership.unwrap_or_else(|| panic!("no ownership: {line}"));
        assert_eq!(own.len(), 49, "{line}");
        assert!(own.iter().all(|v| (-1.0..=1.0).contains(v)), "{line}");
        // Row-major from the top left, for white (to move): D4, the centre, is black's.
        assert!(own[3 * 7 + 3] < 0.0, "D4 is black's: {own:?}");
    }
    e.send("quit");
    let rest = e.until(|l| l.starts_with('='));
    assert!(rest.len() >= 2 && rest[rest.len() - 2].is_empty(), "the analysis ends before quit's reply: {rest:?}");
    assert!(e.wait_exit(REPLY));
}

#[test]
fn genmove_analyze_plays_its_move() {
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "boardsize 9"), "=");
    assert_eq!(gtp(&mut e, "time_settings 0 1 1"), "=");
    e.send("3 lz-genmove_analyze b 20");
    assert_eq!(e.recv(REPLY), "=3");
    let lines = e.until(|l| l.starts_with("play "));
    assert!(lines.len() >= 3, "about one line per 0.2 s of a 1 s search: {lines:?}");
    for l in &lines[..lines.len() - 1] {
        parse_line(l, false, 9);
    }
    let played = lines.last().unwrap().strip_prefix("play ").unwrap().to_string();
    assert_eq!(e.recv(REPLY), "");
    assert_eq!(gtp(&mut e, &format!("play b {played}")), "? illegal move", "{played} is on the board now");
    e.send("kata-genmove_analyze w 20");
    assert_eq!(e.recv(REPLY), "=");
    let lines = e.until(|l| l.starts_with("play "));
    for l in &lines[..lines.len() - 1] {
        parse_line(l, true, 9);
    }
    assert_eq!(e.recv(REPLY), "");
}

#[test]
fn bad_analysis_commands_get_errors() {
    let mut e = Engine::start(&["gtp"]);
    assert_eq!(gtp(&mut e, "boardsize 9"), "=");
    for (command, reply) in [
        ("lz-analyze b banana", "? syntax error"),
        ("kata-analyze 10 ownership maybe", "? syntax error"),
        ("lz-analyze 10 ownership true", "? syntax error"),
        ("lz-genmove_analyze purple 10", "? syntax error"),
    ] {
        assert_eq!(gtp(&mut e, command), reply, "{command}");
    }
    assert_eq!(gtp(&mut e, "play b pass"), "=");
    assert_eq!(gtp(&mut e, "play w pass"), "=");
    assert!(gtp(&mut e, "lz-analyze 10").starts_with("? the game is over"));
    let commands = gtp(&mut e, "gogui-analyze_commands");
    assert!(commands.contains("plist/Seki stones/final_status_list seki"), "{commands}");
    assert_eq!(gtp(&mut e, "name"), "= sente");
}
