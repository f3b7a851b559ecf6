//! `sente phantom referee` over HTTP: the tokens, bad input, a game with a capture,
//! an illegal try, a recovery, a refused proposal, two passes and the count, every
//! player reply checked for hidden stones; SIGKILL and `--resume`; an engine seat.

use crate::common;
use crate::referee_support::*;

use serde_json::{Value, json};

fn scratch(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("referee-{name}"))
}

/// The referee's state, with what changes on an action.
fn fingerprint(s: &Value) -> String {
    format!("{} {} {} {}", s["full"], s["tries"].as_array().map_or(0, Vec::len), s["proposal"], s["dead"])
}

#[test]
fn each_token_opens_only_its_own_page() {
    let dir = scratch("tokens");
    let server = Server::start(&dir, &[]);
    let (status, html) = get(server.referee());
    assert_eq!(status, 200);
    assert!(html.contains("the referee's board"), "{html}");
    for side in 0..2 {
        let (status, html) = get(server.player(side));
        assert_eq!(status, 200);
        assert!(html.contains("Your board") && !html.contains("Full board"), "{html}");
        let s = state(server.player(side));
        assert_eq!(s["role"], if side == 0 { "black" } else { "white" });
        assert!(s.get("full").is_none(), "{s}");
    }
    // The three tokens differ, and every page needs one.
    let tokens: Vec<&str> = server.urls.iter().map(|u| u.rsplit('/').next().unwrap()).collect();
    assert!(tokens[0] != tokens[1] && tokens[1] != tokens[2] && tokens[0] != tokens[2]);
    assert!(tokens.iter().all(|t| t.len() == 32), "{tokens:?}");
    let base = server.referee().rsplit_once('/').unwrap().0;
    for path in ["", "/", "/0123456789abcdef0123456789abcdef", "/x/api/state"] {
        let (status, body) = get(&format!("{base}{path}"));
        assert_eq!(status, 404, "{path}: {body}");
        assert!(body.contains("error"), "{body}");
    }
    let before = fingerprint(&state(server.referee()));
    // A player's token on the referee's actions, and on the other side's.
    let black = server.player(0);
    for (action, body) in [
        ("propose", json!({})),
        ("recover", json!({"side": "black", "from": 1})),
        ("dead", json!({"point": "44"})),
        ("confirm", json!({})),
        ("judge", json!({})),
        ("time", json!({"side": "white"})),
    ] {
        let (status, reply) = act(black, action, body);
        assert_eq!(status, 403, "{action}: {reply}");
    }
    let (status, reply) = act(black, "remove", json!({"side": "white"}));
    assert_eq!(status, 409, "{reply}");
    let (status, reply) = act(server.player(1), "try", json!({"text": "44"}));
    assert_eq!(status, 409, "{reply}");
    assert!(reply["error"].as_str().unwrap().contains("Black's turn"), "{reply}");
    // A forged token on an action.
    let (status, _) = act(&format!("{base}/{}", "f".repeat(32)), "try", json!({"text": "44"}));
    assert_eq!(status, 404);
    assert_eq!(fingerprint(&state(server.referee())), before);
}

#[test]
fn bad_input_gets_a_clear_error_and_changes_nothing() {
    let dir = scratch("bad-input");
    let server = Server::start(&dir, &[]);
    let r = server.referee();
    ok(r, "try", json!({"text": "44"}));
    let before = fingerprint(&state(r));
    for (body, status, says) in [
        (json!({"text": "zz"}).to_string(), 400, "off the 9x9 board"),
        (json!({"text": "99"}).to_string(), 400, "off"),
        (json!({"text": ""}).to_string(), 400, "empty"),
        (json!({"text": "44; drop"}).to_string(), 400, "not a try"),
        (json!({"text": "44444444444"}).to_string(), 400, "too long"),
        (json!({"text": 44}).to_string(), 400, "JSON"),
        (json!({"txt": "44"}).to_string(), 400, "JSON"),
        ("{not json".to_string(), 400, "JSON"),
        (json!({"text": "44"}).to_string(), 200, ""),
    ] {
        let (got, reply) = post_raw(&format!("{r}/api/try"), body.as_bytes());
        assert_eq!(got, status, "{body}: {reply}");
        assert!(reply.contains(says), "{body}: {reply}");
        if status == 200 {
            // White's try on black's stone: refused by the rules, answered.
            assert!(reply.contains("illegal"), "{reply}");
        }
    }
    let before_big = fingerprint(&state(r));
    assert_ne!(before, before_big, "the illegal try is in the log");
    // A 10 MB body: answered 413 without being read (the server may close the
    // connection while the client still writes: an error on this side then).
    let big = vec![b'x'; 10 * 1024 * 1024];
    if let Ok((status, _)) = try_post_raw(&format!("{r}/api/try"), &big) {
        assert_eq!(status, 413);
    }
    let (status, reply) = post_raw(&format!("{r}/api/try"), &vec![b' '; 65 * 1024]);
    assert_eq!(status, 413);
    assert!(reply.contains("over 64 KiB"), "{reply}");
    let (status, reply) = get(&format!("{r}/api/try"));
    assert_eq!(status, 405);
    assert!(reply.contains("wrong method"), "{reply}");
    let (status, reply) = post_raw(&format!("{r}/api/nothing"), b"{}");
    assert_eq!(status, 404, "{reply}");
    let (status, reply) = act(r, "recover", json!({"side": "green", "from": 1}));
    assert_eq!(status, 400, "{reply}");
    let (status, reply) = act(r, "recover", json!({"side": "black", "from": 9}));
    assert_eq!(status, 409, "{reply}");
    let (status, reply) = act(r, "dead", json!({"point": "44"}));
    assert_eq!(status, 409, "{reply}");
    assert_eq!(fingerprint(&state(r)), before_big);
    // After the end: two passes.
    ok(r, "try", json!({"text": "pass"}));
    ok(r, "try", json!({"text": "pass"}));
    let over = state(r);
    assert_eq!(over["over"], true);
    let (status, reply) = act(r, "try", json!({"text": "55"}));
    assert_eq!(status, 409, "{reply}");
    assert!(reply["error"].as_str().unwrap().contains("over"), "{reply}");
    let (status, _) = act(r, "propose", json!({}));
    assert_eq!(status, 409);
    assert_eq!(fingerprint(&state(r)), fingerprint(&over));
}

/// Checks the reply of side `side` against the referee's board now.
fn check_hidden(server: &Server, side: usize, reply: &Value, told: &[String]) {
    let full = state(server.referee())["full"].as_str().unwrap().to_string();
    let hidden = hidden(&full, side, told);
    assert_eq!(leaks(reply, &hidden), Vec::<String>::new(), "{reply}");
}

#[test]
fn a_game_with_a_capture_a_recovery_a_refused_proposal_and_the_count() {
    let dir = scratch("game");
    let server = Server::start_with(&dir, &["--komi", "6.5"], &[]);
    let (r, b, w) = (server.referee(), server.player(0), server.player(1));
    // The points each side tried or was told of (the test's own bookkeeping).
    let mut told: [Vec<String>; 2] = [vec![], vec![]];
    let play = |told: &mut [Vec<String>; 2], page: &str, side: usize, text: &str, ij: &str| -> Value {
        let reply = ok(page, "try", json!({ "text": text }));
        told[side].push(ij.to_string());
        reply
    };
    let reply = play(&mut told, b, 0, "01", "01");
    assert_eq!(reply["answer"], "legal");
    check_hidden(&server, 0, &reply, &told[0]);
    play(&mut told, w, 1, "44", "44");
    let reply = play(&mut told, b, 0, "E5", "44");
    assert_eq!(reply["answer"], "illegal");
    assert_eq!(reply["refused"], json!(["44"]));
    play(&mut told, b, 0, "#20", "88");
    play(&mut told, w, 1, "100", "00");
    let reply = play(&mut told, b, 0, "BA", "10");
    assert_eq!(reply["taken"], 1);
    assert!(
        reply["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["text"].as_str().unwrap().contains("you captured 1: 00 (A9)"))
    );
    for list in told.iter_mut() {
        list.push("00".into());
    }
    let white = state(w);
    assert_eq!(white["removal_pending"], json!(["00"]));
    assert!(white["log"].to_string().contains("1 of your stones captured: 00 (A9)"), "{white}");
    check_hidden(&server, 1, &white, &told[1]);
    let (status, reply) = act(w, "try", json!({"text": "55"}));
    assert_eq!(status, 409, "{reply}");
    ok(w, "remove", json!({}));
    let reply = play(&mut told, w, 1, "A8", "10");
    assert_eq!(reply["answer"], "illegal");
    let reply = play(&mut told, w, 1, "55", "55");
    assert_eq!(reply["answer"], "legal");
    // The referee undoes white's 55 (an operator's error) for White: 4 minutes.
    let n = state(r)["tries"].as_array().unwrap().len();
    ok(r, "recover", json!({"side": "white", "from": n}));
    let s = state(r);
    assert_eq!(s["tries"].as_array().unwrap().len(), n - 1);
    assert_eq!(s["white"]["penalty_ms"], 240_000);
    assert!(s["white"]["clock_ms"].as_u64().unwrap() >= 240_000);
    assert_eq!(s["to_move"], "white");
    let (status, reply) = act(r, "recover", json!({"side": "white", "from": n - 1}));
    assert_eq!(status, 409, "{reply}");
    assert_eq!(state(w)["penalty_ms"], 240_000);
    play(&mut told, w, 1, "66", "66");
    // Rule 11: the engine's judgement first (it changes nothing), then the proposal;
    // black accepts, white refuses: play goes on.
    let version = state(r)["version"].clone();
    let judged = ok(r, "judge", json!({}));
    assert!(judged["judgement"]["text"].as_str().unwrap().contains('+'), "{judged}");
    assert_eq!(state(r)["version"], version);
    ok(r, "propose", json!({}));
    assert_eq!(state(b)["proposal"], json!({"answer": null}));
    let (status, _) = act(b, "try", json!({"text": "22"}));
    assert_eq!(status, 409);
    ok(b, "answer", json!({"accept": true}));
    ok(w, "answer", json!({"accept": false}));
    let s = state(r);
    assert_eq!(s["proposal"], false);
    assert_eq!(s["over"], false);
    assert!(state(b)["events"].to_string().contains("White refuses"), "the refusal is told");
    play(&mut told, b, 0, "22", "22");
    // Two passes.
    ok(w, "try", json!({"text": "pass"}));
    let reply = ok(b, "try", json!({"text": "pass"}));
    assert_eq!(reply["over"], true);
    let s = state(r);
    assert_eq!(s["over"], true);
    let before = s["result"]["text"].as_str().unwrap().to_string();
    // The referee marks white's 44 group dead, then alive again, then confirms.
    let marked = ok(r, "dead", json!({"point": "44"}));
    let dead: Vec<String> = serde_json::from_value(marked["dead"].clone()).unwrap();
    assert!(dead.contains(&"44".to_string()), "{marked}");
    assert_ne!(marked["result"]["text"].as_str().unwrap(), before.as_str());
    let unmarked = ok(r, "dead", json!({"point": "44"}));
    assert!(!unmarked["dead"].to_string().contains("\"44\""), "{unmarked}");
    let r2 = ok(r, "confirm", json!({}));
    assert_eq!(r2["result"]["confirmed"], true);
    for (side, told) in told.iter().enumerate() {
        let s = state(server.player(side));
        assert_eq!(s["result"]["text"], r2["result"]["text"], "{s}");
        check_hidden(&server, side, &s, told);
    }
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&server.record).unwrap()).unwrap();
    assert_eq!(record["result"], r2["result"]["text"]);
    assert_eq!(record["state"]["confirmed"], true);
    // The arena's text record beside it (what `sente arena report` reads).
    let text = std::fs::read_to_string(server.record.with_extension("txt")).unwrap();
    assert!(text.starts_with("# Phantom Go (ccgc rules), komi 6.5\n"), "{text}");
    assert!(
        text.contains(" refused") && text.contains(&format!("# result {}", r2["result"]["text"].as_str().unwrap())),
        "{text}"
    );
}

#[test]
fn a_server_killed_with_sigkill_resumes_with_nothing_lost() {
    let dir = scratch("resume");
    let mut server = Server::start(&dir, &[]);
    let r = server.referee().to_string();
    for text in ["01", "00", "10"] {
        ok(&r, "try", json!({ "text": text }));
    }
    ok(&r, "recover", json!({"side": "black", "from": 3}));
    ok(&r, "try", json!({"text": "10"}));
    let before = state(&r);
    assert_eq!(before["white"]["removal_pending"], json!(["00"]));
    server.kill();
    let record = server.record.clone();
    let resumed = Server::start(&dir, &["--resume", record.to_str().unwrap()]);
    for i in 0..3 {
        let token = |u: &str| u.rsplit('/').next().unwrap().to_string();
        assert_eq!(token(&resumed.urls[i]), token(&server.urls[i]), "the same tokens");
    }
    let after = state(resumed.referee());
    for key in ["full", "tries", "events", "dead", "to_move"] {
        assert_eq!(after[key], before[key], "{key}");
    }
    for side in ["black", "white"] {
        for key in ["view", "refused", "taken", "lost", "penalty_ms", "recovered", "removal_pending"] {
            assert_eq!(after[side][key], before[side][key], "{side} {key}");
        }
    }
    assert!(after["black"]["clock_ms"].as_u64() >= before["black"]["clock_ms"].as_u64());
    assert_eq!(after["black"]["penalty_ms"], 240_000);
    // The game goes on.
    ok(resumed.player(1), "remove", json!({}));
    ok(resumed.player(1), "try", json!({"text": "55"}));
}

#[test]
fn an_engine_seated_for_white_answers_the_referee() {
    let dir = scratch("engine");
    let engine = format!("cmd='{SENTE} phantom --movetime 30' proto=phantom name=sente-engine");
    let server = Server::start(&dir, &["--white", &engine]);
    let r = server.referee();
    assert_eq!(state(server.player(1))["seat"], "sente-engine");
    let (status, reply) = act(server.player(1), "try", json!({"text": "44"}));
    assert_eq!(status, 409, "an engine's page only watches: {reply}");
    for (turn, text) in ["44", "22", "66"].iter().enumerate() {
        // The referee enters black's try (a refused one: another, then the next point).
        let reply = ok(r, "try", json!({ "text": text }));
        if reply["answer"].as_str().unwrap().starts_with("illegal") {
            ok(r, "try", json!({"text": "pass"}));
        }
        let s = wait_state(r, "the engine's try", |s| s["to_move"] == "black" || s["over"] == true);
        if s["over"] == true {
            break;
        }
        let legal =
            s["tries"].as_array().unwrap().iter().filter(|t| t["color"] == "white" && t["legal"] == true).count();
        assert_eq!(legal, turn + 1, "{s}");
    }
    let (status, reply) = act(r, "recover", json!({"side": "black", "from": 1}));
    assert_eq!(status, 409, "{reply}");
    assert!(reply["error"].as_str().unwrap().contains("engine"), "{reply}");
    // A platform engine cannot be brought into a game under way.
    let out = std::process::Command::new(SENTE)
        .args(["phantom", "referee", "--listen", "127.0.0.1:0", "--white", &engine, "--resume"])
        .arg(&server.record)
        .output()
        .expect("run sente");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot resume"), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_ugi_engine_seated_for_black_opens_the_game() {
    let dir = scratch("engine-ugi");
    let engine = format!("cmd='{SENTE}' proto=ugi name=sente-ugi");
    let server = Server::start_with(&dir, &["--movetime", "30"], &["--black", &engine]);
    let r = server.referee();
    let s = wait_state(r, "the engine's first try", |s| s["to_move"] == "white");
    assert_eq!(s["tries"][0]["color"], "black");
    assert_eq!(s["black"]["seat"], "sente-ugi");
    // The referee answers for White: the engine plays on.
    ok(r, "try", json!({"text": "pass"}));
    wait_state(r, "the engine's second try", |s| s["to_move"] == "white" || s["over"] == true);
}

#[test]
fn an_engine_that_cannot_start_is_logged_and_the_referee_plays_on() {
    let dir = scratch("engine-fails");
    let server = Server::start(&dir, &["--white", "cmd=/bin/false proto=phantom name=broken"]);
    let r = server.referee();
    let s = wait_state(r, "the failure in the log", |s| s["events"].to_string().contains("White's engine stopped"));
    assert!(s["events"].to_string().contains("the referee enters its tries"), "{s}");
    ok(r, "try", json!({"text": "44"}));
    let reply = ok(r, "try", json!({"text": "55"}));
    assert_eq!(reply["answer"], "legal");
}

#[test]
fn two_engines_play_while_the_referee_watches() {
    let dir = scratch("two-engines");
    let engine = |name: &str| format!("cmd='{SENTE} phantom --movetime 20' proto=phantom name={name}");
    let server = Server::start(&dir, &["--black", &engine("one"), "--white", &engine("two")]);
    let s = wait_state(server.referee(), "six tries", |s| s["tries"].as_array().is_some_and(|t| t.len() >= 6));
    let colors: Vec<&str> = s["tries"].as_array().unwrap().iter().map(|t| t["color"].as_str().unwrap()).collect();
    assert!(colors.contains(&"black") && colors.contains(&"white"), "{colors:?}");
    // Each side's page shows its own stones only.
    for side in 0..2 {
        let reply = state(server.player(side));
        let theirs = if side == 0 { 'O' } else { 'X' };
        assert!(!reply["board"].as_str().unwrap().contains(theirs), "{reply}");
    }
}

#[test]
fn a_side_out_of_time_is_declared_lost_on_time() {
    let dir = scratch("time");
    // 0.01 minutes: black's 600 ms run out while the test looks.
    let server = Server::start(&dir, &["--time", "0.01"]);
    let r = server.referee();
    assert_eq!(state(r)["time_limit_ms"], 600);
    let (status, reply) = act(r, "time", json!({"side": "white"}));
    assert_eq!(status, 409, "white's time runs only in its turns: {reply}");
    wait_state(r, "black's time to run out", |s| s["black"]["left_ms"].as_i64().is_some_and(|l| l <= 0));
    assert!(state(server.player(0))["left_ms"].as_i64().unwrap() <= 0);
    ok(r, "time", json!({"side": "black"}));
    let s = ok(r, "confirm", json!({}));
    assert_eq!(s["result"]["text"], "W+T");
    assert_eq!(s["over"], true);
    let (status, _) = act(r, "try", json!({"text": "44"}));
    assert_eq!(status, 409);
    assert_eq!(state(server.player(1))["result"]["text"], "W+T");
    // Without a limit there is no loss on time.
    let dir = scratch("no-time");
    let untimed = Server::start(&dir, &[]);
    let (status, reply) = act(untimed.referee(), "time", json!({"side": "black"}));
    assert_eq!(status, 409, "{reply}");
    assert!(reply["error"].as_str().unwrap().contains("no time limit"), "{reply}");
}

#[test]
fn an_engine_seat_waits_out_a_proposal_raised_while_it_thinks() {
    let dir = scratch("engine-proposal");
    let engine = format!("cmd='{SENTE} phantom --movetime 400' proto=phantom name=sente-engine");
    let server = Server::start(&dir, &["--white", &engine]);
    let r = server.referee();
    ok(r, "try", json!({"text": "44"}));
    // Most likely while the engine thinks (either way the engine must play on).
    ok(r, "propose", json!({}));
    ok(r, "answer", json!({"side": "white", "accept": false}));
    let s = wait_state(r, "the engine's try", |s| s["to_move"] == "black");
    assert!(!s["events"].to_string().contains("engine stopped"), "{s}");
    ok(r, "try", json!({"text": "22"}));
    let s = wait_state(r, "the engine's next try", |s| s["to_move"] == "black");
    assert!(!s["events"].to_string().contains("engine stopped"), "{s}");
}

#[test]
fn a_new_game_does_not_overwrite_an_earlier_record() {
    let dir = scratch("no-overwrite");
    let record = dir.join("game.json");
    std::fs::write(&record, "an earlier game").unwrap();
    let mut child = std::process::Command::new(SENTE)
        .args(["phantom", "referee", "--listen", "127.0.0.1:0", "--record"])
        .arg(&record)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run sente");
    let deadline = std::time::Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server started over an existing record");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(!status.success());
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(err.contains("exists") && err.contains("--resume"), "{err}");
    assert_eq!(std::fs::read_to_string(&record).unwrap(), "an earlier game");
}
