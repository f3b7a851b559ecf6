//! What each page is sent, as JSON. The referee's reply holds the full board; a
//! player's reply is built from that player's own [`View`], its own notices, its own
//! timer and the public events alone, so no reply to a player can hold a stone the
//! player may not know (the tests check every reply of random games).

use bitboards::go::{Color, Move, bits};
use bitboards::phantom::{Answer, Notice, SIZE, View};
use serde_json::{Value, json};

use super::clock::Millis;
use super::game::{Game, ij_list, name};

/// A seat's operator as the pages show it: a person (`None`) or an engine's name.
pub type Seats = [Option<String>; 2];

fn color_word(c: Color) -> &'static str {
    if c == Color::BLACK { "black" } else { "white" }
}

/// Why the game ended, in words.
fn end_text(e: bitboards::phantom::EndReason) -> &'static str {
    use bitboards::phantom::EndReason;
    match e {
        EndReason::TwoPasses => "two passes",
        EndReason::Agreement => "stopped by agreement, rule 11",
        EndReason::ActionCap => "the cap on tries",
        EndReason::Superko => "a repetition",
    }
}

/// An answer as the referee's log writes it.
pub fn answer_text(a: &Answer) -> String {
    match a {
        Answer::Legal { captured: 0 } => "legal".into(),
        Answer::Legal { captured } => {
            format!("legal, captures {}: {}", captured.count_ones(), points_text(*captured))
        }
        Answer::Passed => "pass".into(),
        Answer::Illegal { reason, turn_passed: false } => format!("illegal ({reason})"),
        Answer::Illegal { reason, turn_passed: true } => {
            format!("illegal ({reason}); no legal point left: pass (rule 7)")
        }
    }
}

/// Points as the logs write them: `43 (D5) 44 (E5)`.
fn points_text(set: u128) -> String {
    bits(set).map(|p| mv_text(Move::Play(p))).collect::<Vec<_>>().join(" ")
}

fn mv_text(mv: Move) -> String {
    match mv {
        Move::Play(p) => format!("{} ({})", p.to_ij(), p.to_gtp(SIZE)),
        Move::Pass => mv.to_gtp(SIZE),
    }
}

fn result_json(game: &Game) -> Value {
    if let (Some(side), Some(text)) = (game.state().lost_on_time, game.result_text()) {
        return json!({
            "text": text,
            "winner": if side == 0 { "white" } else { "black" },
            "on_time": true,
            "confirmed": game.state().confirmed,
        });
    }
    match game.result() {
        None => Value::Null,
        Some(r) => json!({
            "text": r.text(),
            "winner": r.winner.map(color_word),
            "black_area": r.score.black_area,
            "white_area": r.score.white_area,
            "neutral": r.score.neutral,
            "komi": r.score.komi,
            "confirmed": game.state().confirmed,
        }),
    }
}

/// The referee's reply: everything.
pub fn referee_json(game: &Game, version: u64, now: Millis, seats: &Seats) -> Value {
    let r = game.referee();
    let s = game.state();
    let full: String = bitboards::go::points(SIZE)
        .map(|p| match r.board().at(p) {
            Some(c) if c == Color::BLACK => 'X',
            Some(_) => 'O',
            None => '.',
        })
        .collect();
    let tries: Vec<Value> = r
        .history()
        .iter()
        .zip(&s.tries)
        .enumerate()
        .map(|(i, (t, e))| {
            json!({"n": i + 1, "color": color_word(t.color), "try": mv_text(t.mv), "answer": answer_text(&t.answer),
                   "legal": t.answer.is_legal(), "at": e.at})
        })
        .collect();
    let events: Vec<Value> = s.events.iter().map(|e| json!({"after": e.after, "text": e.text, "at": e.at})).collect();
    let side = |c: Color| {
        let v = r.view(c);
        json!({
            "view": v.board_text(),
            "refused": ij_list(v.refused()),
            "taken": v.taken(),
            "lost": v.lost(),
            "clock_ms": s.clocks.total(c.index(), now),
            "left_ms": game.time_left(c, now),
            "penalty_ms": s.clocks.penalty[c.index()],
            "recovered": s.recovered[c.index()],
            "removal_pending": ij_list(s.removal_pending[c.index()]),
            "proposal_answer": s.proposal.and_then(|p| p.answers[c.index()]),
            "seat": seats[c.index()],
        })
    };
    json!({
        "role": "referee",
        "version": version,
        "to_move": color_word(r.to_move()),
        "over": game.is_over(),
        "end_reason": r.end_reason().map(end_text),
        "running": s.clocks.running_side().map(|i| if i == 0 { "black" } else { "white" }),
        "full": full,
        "black": side(Color::BLACK),
        "white": side(Color::WHITE),
        "tries": tries,
        "events": events,
        "proposal": s.proposal.is_some(),
        "dead": ij_list(s.dead),
        "result": result_json(game),
        "komi": s.komi,
        "time_limit_ms": s.time_limit,
    })
}

/// A notice as the player's log writes it.
fn notice_text(n: &Notice) -> String {
    match n {
        Notice::Accepted(Move::Pass) => "you passed".into(),
        Notice::Accepted(mv) => format!("{}: legal", mv_text(*mv)),
        Notice::Refused(p) => format!("{}: illegal, try again", mv_text(Move::Play(*p))),
        Notice::Shown { point, .. } => format!("{} shown", point.to_ij()),
        Notice::TurnPassed => "every try illegal: your turn is a pass (rule 7)".into(),
        Notice::OpponentMoved => "the opponent played: your turn".into(),
        Notice::OpponentPassed => "the opponent passed: your turn".into(),
        Notice::Took { count, points } => format!("you captured {count}: {}", points_text(*points)),
        Notice::Lost { points } => {
            format!("{} of your stones captured: {}; remove them", points.count_ones(), points_text(*points))
        }
    }
}

/// A player's reply: its own view, notices and timer, and the public events. Built
/// from nothing else of the game (the full board never enters it).
pub fn player_json(game: &Game, color: Color, version: u64, now: Millis, seats: &Seats) -> Value {
    let r = game.referee();
    let s = game.state();
    let v: &View = r.view(color);
    let notices = r.notices(color);
    let events: Vec<&str> = s.events.iter().filter(|e| e.public).map(|e| e.text.as_str()).collect();
    // The notices and the public events in the order they happened.
    let mut log = Vec::new();
    let mut told = 0;
    for e in s.events.iter().filter(|e| e.public) {
        let upto = e.notices[color.index()].clamp(told, notices.len());
        log.extend(notices[told..upto].iter().map(|n| json!({"text": notice_text(n), "event": false})));
        told = upto;
        log.push(json!({"text": e.text, "event": true}));
    }
    log.extend(notices[told..].iter().map(|n| json!({"text": notice_text(n), "event": false})));
    let over = game.is_over();
    let result = if s.confirmed { result_json(game) } else { Value::Null };
    json!({
        "role": color_word(color),
        "name": name(color),
        "version": version,
        "your_turn": !over && r.to_move() == color,
        "over": over,
        "board": v.board_text(),
        "refused": ij_list(v.refused()),
        "taken": v.taken(),
        "lost": v.lost(),
        "opponent_count": v.opponent_count(),
        "last_captured": ij_list(v.last_captured()),
        "log": log,
        "events": events,
        "clock_ms": s.clocks.total(color.index(), now),
        "left_ms": game.time_left(color, now),
        "penalty_ms": s.clocks.penalty[color.index()],
        "clock_running": s.clocks.running_side() == Some(color.index()),
        "removal_pending": ij_list(s.removal_pending[color.index()]),
        "proposal": s.proposal.map(|p| json!({"answer": p.answers[color.index()]})),
        "seat": seats[color.index()],
        "result": result,
        "komi": s.komi,
    })
}

/// The points a player may know stand or stood somewhere: its own stones, the
/// opponent stones its view holds, and every point it was ever told of (its tries,
/// the captures told). For the tests' hidden-stone check.
pub fn known_points(game: &Game, color: Color) -> u128 {
    let r = game.referee();
    let v = r.view(color);
    let mut known = v.own() | v.opponent();
    for n in r.notices(color) {
        known |= match n {
            Notice::Accepted(Move::Play(p)) | Notice::Refused(p) => p.bit(),
            Notice::Shown { point, .. } => point.bit(),
            Notice::Took { points, .. } | Notice::Lost { points } => *points,
            _ => 0,
        };
    }
    known
}

/// Every point named in a reply's lists and drawn on its board as a stone.
pub fn points_in_reply(reply: &Value) -> u128 {
    let mut set = 0u128;
    if let Some(board) = reply["board"].as_str() {
        for (p, ch) in bitboards::go::points(SIZE).zip(board.chars()) {
            if ch != '.' {
                set |= p.bit();
            }
        }
    }
    // Texts name points by their GTP vertex (`44 (E5)`); lists name them by `ij`.
    fn walk(v: &Value, set: &mut u128) {
        match v {
            Value::String(s) => {
                if let Ok(p) = bitboards::go::Point::from_ij(s, SIZE) {
                    *set |= p.bit();
                }
                for word in s.split(|c: char| !c.is_ascii_alphanumeric()) {
                    let b = word.as_bytes();
                    if b.len() == 2
                        && b[0].is_ascii_uppercase()
                        && b[1].is_ascii_digit()
                        && let Ok(p) = bitboards::go::Point::from_gtp(word, SIZE)
                    {
                        *set |= p.bit();
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, set)),
            Value::Object(o) => o.iter().filter(|(k, _)| k.as_str() != "board").for_each(|(_, x)| walk(x, set)),
            _ => {}
        }
    }
    walk(reply, &mut set);
    set
}

/// The opponent stones on the full board that `color` may not know.
pub fn hidden_from(game: &Game, color: Color) -> u128 {
    game.referee().board().stones(color.other()) & !known_points(game, color)
}

/// Checks a player's reply for hidden stones: the points it names that are hidden.
pub fn leaked(game: &Game, color: Color, reply: &Value) -> Vec<String> {
    bits(points_in_reply(reply) & hidden_from(game, color)).map(|p| p.to_ij()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::game::Actor;
    use bitboards::go::Point;

    /// A small deterministic generator (the tests' own, no crate).
    fn next(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn no_player_reply_of_random_games_holds_a_hidden_stone() {
        let seats: Seats = [None, None];
        for g in 0..20u64 {
            let mut seed = 0x9E37_79B9_7F4A_7C15 ^ (g + 1);
            let mut game = Game::new(7.5, 0);
            let mut now = 0;
            let mut hidden_seen = 0;
            for _ in 0..300 {
                if game.is_over() {
                    break;
                }
                now += 1000;
                let c = game.referee().to_move();
                if game.state().removal_pending[c.index()] != 0 {
                    game.confirm_removal(Actor::Player(c), c, now).unwrap();
                }
                let k = next(&mut seed) % 83;
                let mv = if k >= 81 { Move::Pass } else { Move::Play(Point::new((k / 9) as usize, (k % 9) as usize)) };
                game.try_move(Actor::Referee, mv, now).unwrap();
                for color in [Color::BLACK, Color::WHITE] {
                    let reply = player_json(&game, color, 1, now, &seats);
                    let text = serde_json::to_string(&reply).unwrap();
                    assert!(!text.contains("\"full\""), "{text}");
                    assert_eq!(leaked(&game, color, &reply), Vec::<String>::new(), "{text}");
                    hidden_seen += hidden_from(&game, color).count_ones();
                }
            }
            assert!(hidden_seen > 0, "the games hid no stone: the check checked nothing");
        }
    }

    #[test]
    fn the_check_finds_a_stone_the_referee_reply_shows() {
        let mut game = Game::new(7.5, 0);
        game.try_move(Actor::Referee, Move::Play(Point::new(4, 4)), 10).unwrap();
        let reply = referee_json(&game, 1, 10, &[None, None]);
        let as_white = json!({"board": reply["full"]});
        assert_eq!(leaked(&game, Color::WHITE, &as_white), vec!["44".to_string()]);
        for text in [json!({"log": ["black played E5"]}), json!({"refused": ["44"]})] {
            assert_eq!(leaked(&game, Color::WHITE, &text), vec!["44".to_string()], "{text}");
        }
        assert!(leaked(&game, Color::WHITE, &json!({"log": ["21 of 44"]})).is_empty());
    }
}
