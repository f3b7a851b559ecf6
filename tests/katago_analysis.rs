//! `sente analysis` speaks KataGo's JSON analysis engine protocol, as KaTrain and
//! the other clients of KataGo's analysis engine drive it: one JSON query a line in,
//! one JSON response a line out. The queries are the examples of KataGo's
//! documentation (docs/Analysis_Engine.md) and 9×9 versions of them, and the ones
//! KaTrain sends. No test depends on the machine's speed: searches are bounded by
//! visits, and a search meant to run until terminated has more visits than any
//! machine runs in the 30 s a reply may take.

use crate::common;

use std::collections::HashSet;

use common::{Engine, REPLY};
use serde_json::{Value, json};

/// Visits no machine reaches within a test: a search that runs until terminated.
const ENDLESS: u64 = 1 << 40;

fn start() -> Engine {
    Engine::start(&["analysis"])
}

/// The next line, as JSON.
fn next(e: &mut Engine) -> Value {
    let line = e.recv(REPLY);
    serde_json::from_str(&line).unwrap_or_else(|err| panic!("not JSON ({err}): {line}"))
}

/// Sends `query` and returns the next line.
fn ask(e: &mut Engine, query: &Value) -> Value {
    e.send(&query.to_string());
    next(e)
}

/// Lines until the final response (`isDuringSearch` false) for `id` and `turn`; all
/// the lines read, the final one last.
fn until_final(e: &mut Engine, id: &str, turn: u64) -> Vec<Value> {
    let mut lines = Vec::new();
    loop {
        let v = next(e);
        let done = v["id"] == id && v["turnNumber"] == turn && v["isDuringSearch"] == false;
        lines.push(v);
        if done {
            return lines;
        }
    }
}

/// The responses of `lines` for `id` and `turn` (partial ones first, as they came).
fn responses<'a>(lines: &'a [Value], id: &str, turn: u64) -> Vec<&'a Value> {
    lines.iter().filter(|v| v["id"] == id && v["turnNumber"] == turn && v.get("isDuringSearch").is_some()).collect()
}

/// True if `text` names a point of a `size`×`size` board (GTP letters, no I).
fn on_board(text: &str, size: usize) -> bool {
    let letters: Vec<char> = "ABCDEFGHJ".chars().take(size).collect();
    let mut chars = text.chars();
    let column = chars.next().is_some_and(|c| letters.contains(&c));
    let row = chars.as_str().parse::<usize>().is_ok_and(|r| (1..=size).contains(&r));
    column && row
}

/// Checks what every analysis response must hold: fields present and in range, moves
/// legal (never on `occupied`), orders 0, 1, 2, … with visits falling, pv starting
/// with the move, visits within the root's and the root's within `max_visits`.
fn check_response(r: &Value, size: usize, occupied: &[&str], max_visits: u64) {
    let text = r.to_string();
    let unit = |v: &Value, what: &str| {
        let x = v.as_f64().unwrap_or_else(|| panic!("{what} is not a number: {text}"));
        assert!((0.0..=1.0).contains(&x), "{what} {x} out of [0, 1]: {text}");
        x
    };
    let infos = r["moveInfos"].as_array().unwrap_or_else(|| panic!("no moveInfos: {text}"));
    assert!(!infos.is_empty(), "{text}");
    let mut sum = 0;
    let mut previous = u64::MAX;
    let mut seen = HashSet::new();
    for (order, info) in infos.iter().enumerate() {
        let m = info["move"].as_str().unwrap_or_else(|| panic!("no move: {text}"));
        assert!(m == "pass" || (on_board(m, size) && !occupied.contains(&m)), "illegal move {m}: {text}");
        assert!(seen.insert(m), "{m} twice: {text}");
        assert_eq!(info["order"], order, "{text}");
        let visits = info["visits"].as_u64().unwrap_or_else(|| panic!("no visits: {text}"));
        assert!(visits >= 1 && visits <= previous, "visits must fall with the order: {text}");
        previous = visits;
        sum += visits;
        unit(&info["winrate"], "winrate");
        unit(&info["lcb"], "lcb");
        unit(&info["prior"], "prior");
        for field in ["scoreLead", "scoreMean", "scoreSelfplay", "utility", "utilityLcb"] {
            assert!(info[field].is_number(), "no {field}: {text}");
        }
        assert!(info["scoreStdev"].as_f64().is_some_and(|s| s >= 0.0), "{text}");
        let pv = info["pv"].as_array().unwrap_or_else(|| panic!("no pv: {text}"));
        assert_eq!(pv.first(), Some(&info["move"]), "the pv starts with the move: {text}");
        assert!(pv.iter().all(|p| p.as_str().is_some_and(|p| p == "pass" || on_board(p, size))), "{text}");
    }
    let root = &r["rootInfo"];
    let root_visits = root["visits"].as_u64().unwrap_or_else(|| panic!("no root visits: {text}"));
    assert!(sum <= root_visits, "the moves' visits ({sum}) exceed the root's: {text}");
    assert!(root_visits <= max_visits, "more visits than asked: {text}");
    unit(&root["winrate"], "root winrate");
    assert!(root["scoreLead"].is_number() && root["utility"].is_number(), "{text}");
    assert!(root["currentPlayer"] == "B" || root["currentPlayer"] == "W", "{text}");
    if let Some(own) = r.get("ownership") {
        let own = own.as_array().unwrap_or_else(|| panic!("ownership: {text}"));
        assert_eq!(own.len(), size * size, "{text}");
        assert!(own.iter().all(|v| v.as_f64().is_some_and(|x| (-1.0..=1.0).contains(&x))), "{text}");
    }
    if let Some(policy) = r.get("policy") {
        let policy: Vec<f64> =
            policy.as_array().unwrap_or_else(|| panic!("policy: {text}")).iter().map(|v| v.as_f64().unwrap()).collect();
        assert_eq!(policy.len(), size * size + 1, "{text}");
        let total: f64 = policy.iter().filter(|&&p| p >= 0.0).sum();
        assert!((total - 1.0).abs() < 1e-3, "policy sums to {total}: {text}");
        assert!(policy.iter().all(|&p| p == -1.0 || (0.0..=1.0).contains(&p)), "{text}");
    }
}

#[test]
fn query_version_echoes_the_query_with_a_version() {
    let mut e = start();
    let r = ask(&mut e, &json!({"id": "foo", "action": "query_version"}));
    assert_eq!(r["id"], "foo");
    assert_eq!(r["action"], "query_version");
    assert!(r["version"].as_str().is_some_and(|v| !v.is_empty()), "{r}");
    assert!(r["git_hash"].is_string(), "{r}");
    let r = ask(&mut e, &json!({"id": "bar", "action": "clear_cache"}));
    assert_eq!(r, json!({"id": "bar", "action": "clear_cache"}));
    let r = ask(&mut e, &json!({"id": "m", "action": "query_models"}));
    assert_eq!(r["models"], json!([]), "{r}");
    assert!(e.exited_cleanly(REPLY));
}

#[test]
fn the_documented_19x19_query_is_refused_for_its_board_size() {
    // KataGo's example query, word for word: sente plays boards up to 9×9.
    let mut e = start();
    e.send(
        r#"{"id":"foo","initialStones":[["B","Q4"],["B","C4"]],"moves":[["W","P5"],["B","P6"]],"rules":"tromp-taylor","komi":7.5,"boardXSize":19,"boardYSize":19,"analyzeTurns":[0,1,2]}"#,
    );
    let r = next(&mut e);
    assert_eq!((&r["id"], &r["field"]), (&json!("foo"), &json!("boardXSize")), "{r}");
    assert!(r["error"].as_str().is_some_and(|m| m.contains("2 to 9")), "{r}");
    // The engine goes on.
    let r = ask(&mut e, &json!({"id": "v", "action": "query_version"}));
    assert_eq!(r["id"], "v");
    assert!(e.exited_cleanly(REPLY));
}

#[test]
fn the_documented_query_on_9x9_answers_each_turn() {
    // The documented example moved to 9×9 (two black stones set up, white and black
    // play next to one of them), turns 0, 1 and 2 analysed.
    let mut e = start();
    e.send(
        r#"{"id":"foo","initialStones":[["B","G3"],["B","C3"]],"moves":[["W","F4"],["B","F5"]],"rules":"tromp-taylor","komi":7.5,"boardXSize":9,"boardYSize":9,"analyzeTurns":[0,1,2],"maxVisits":300,"includeOwnership":true,"includePolicy":true}"#,
    );
    // Tromp-Taylor allows multi-stone suicide; sente does not, and says so.
    let warning = next(&mut e);
    assert_eq!((&warning["id"], &warning["field"]), (&json!("foo"), &json!("rules")), "{warning}");
    assert!(warning["warning"].is_string(), "{warning}");
    let stones = [vec!["G3", "C3"], vec!["G3", "C3", "F4"], vec!["G3", "C3", "F4", "F5"]];
    let players = ["W", "B", "W"];
    for turn in 0..3u64 {
        let r = next(&mut e);
        assert_eq!(r["id"], "foo");
        assert_eq!(r["turnNumber"], turn, "turns in order: {r}");
        assert_eq!(r["isDuringSearch"], false);
        assert_eq!(r["rootInfo"]["currentPlayer"], players[turn as usize], "{r}");
        assert_eq!(r["rootInfo"]["visits"], 300, "{r}");
        check_response(&r, 9, &stones[turn as usize], 300);
        let policy = r["policy"].as_array().unwrap();
        for p in &stones[turn as usize] {
            let (column, row) = ("ABCDEFGHJ".find(&p[..1]).unwrap(), p[1..].parse::<usize>().unwrap());
            assert_eq!(policy[(9 - row) * 9 + column], -1.0, "an occupied point has no policy: {r}");
        }
    }
    assert!(e.exited_cleanly(REPLY));
}

#[test]
fn partial_responses_come_before_the_final_one() {
    let mut e = start();
    let query = json!({
        "id": "p", "moves": [["B", "E5"], ["W", "E3"]], "rules": "chinese", "komi": 7.5,
        "boardXSize": 9, "boardYSize": 9, "maxVisits": 20000, "reportDuringSearchEvery": 0.01,
    });
    e.send(&query.to_string());
    let lines = until_final(&mut e, "p", 2);
    let all = responses(&lines, "p", 2);
    let (last, partial) = all.split_last().unwrap();
    // 20000 playouts take far more than 10 ms on any machine.
    assert!(!partial.is_empty(), "no partial response: {lines:?}");
    let mut previous = 0;
    for r in partial {
        assert_eq!(r["isDuringSearch"], true);
        check_response(r, 9, &["E5", "E3"], 20000);
        let visits = r["rootInfo"]["visits"].as_u64().unwrap();
        assert!(visits >= previous && visits < 20000, "{r}");
        previous = visits;
    }
    assert_eq!(last["isDuringSearch"], false);
    assert_eq!(last["rootInfo"]["visits"], 20000);
    check_response(last, 9, &["E5", "E3"], 20000);
    assert!(e.exited_cleanly(REPLY));
}

#[test]
fn terminate_stops_a_running_query_and_queued_turns_get_no_results() {
    let mut e = start();
    let query = json!({
        "id": "long", "moves": [["B", "E5"]], "rules": "chinese", "komi": 7.5, "boardXSize": 9,
        "boardYSize": 9, "maxVisits": ENDLESS, "reportDuringSearchEvery": 0.1, "analyzeTurns": [1, 0],
    });
    e.send(&query.to_string());
    // The turns queue in the order of the game (as KataGo's do): turn 0 runs, turn 1 waits.
    let first = next(&mut e);
    assert_eq!((&first["turnNumber"], &first["isDuringSearch"]), (&json!(0), &json!(true)), "{first}");
    let terminate = json!({"id": "t", "action": "terminate", "terminateId": "long"});
    e.send(&terminate.to_string());
    let mut lines = Vec::new();
    let (mut echoed, mut queued_ended, mut running_ended) = (false, false, false);
    while !(echoed && queued_ended && running_ended) {
        let v = next(&mut e);
        echoed |= v == terminate;
        queued_ended |= v == json!({"id": "long", "turnNumber": 1, "isDuringSearch": false, "noResults": true});
        if v["turnNumber"] == 0 && v["isDuringSearch"] == false {
            check_response(&v, 9, &[], ENDLESS);
            assert!(v["rootInfo"]["visits"].as_u64().unwrap() < ENDLESS);
            running_ended = true;
        }
        lines.push(v);
    }
    // Terminating what is no longer there is answered too.
    let again = json!({"id": "t2", "action": "terminate", "terminateId": "long", "turnNumbers": [0, 1]});
    assert_eq!(ask(&mut e, &again), again);
    let all = json!({"id": "t3", "action": "terminate_all"});
    assert_eq!(ask(&mut e, &all), all);
    assert!(e.exited_cleanly(REPLY), "{lines:?}");
}

#[test]
fn bad_input_gets_errors_and_the_engine_goes_on() {
    let mut e = start();
    let valid = r#""boardXSize":9,"boardYSize":9,"rules":"chinese","maxVisits":50"#;
    // (line, id, field) of the error expected.
    let cases: Vec<(String, Option<&str>, Option<&str>)> = vec![
        ("this is not json".into(), None, None),
        ("[1, 2]".into(), None, None),
        (format!(r#"{{"moves":[],{valid}}}"#), None, None),
        (format!(r#"{{"id":7,"moves":[],{valid}}}"#), None, None),
        (format!(r#"{{"id":"a",{valid}}}"#), Some("a"), Some("moves")),
        (format!(r#"{{"id":"b","moves":[["B","Z9"]],{valid}}}"#), Some("b"), Some("moves")),
        (format!(r#"{{"id":"c","moves":[["B","E5"],["W","E5"]],{valid}}}"#), Some("c"), Some("moves")),
        (format!(r#"{{"id":"d","moves":[["X","E5"]],{valid}}}"#), Some("d"), Some("moves")),
        (
            r#"{"id":"e","moves":[],"boardXSize":19,"boardYSize":19,"rules":"chinese"}"#.into(),
            Some("e"),
            Some("boardXSize"),
        ),
        (
            r#"{"id":"f","moves":[],"boardXSize":9,"boardYSize":7,"rules":"chinese"}"#.into(),
            Some("f"),
            Some("boardYSize"),
        ),
        (r#"{"id":"g","moves":[],"boardXSize":9,"boardYSize":9}"#.into(), Some("g"), Some("rules")),
        (r#"{"id":"h","moves":[],"boardXSize":9,"boardYSize":9,"rules":"go-moku"}"#.into(), Some("h"), Some("rules")),
        (format!(r#"{{"id":"i","moves":[],{valid},"komi":7.3}}"#), Some("i"), Some("komi")),
        (format!(r#"{{"id":"j","moves":[],{valid},"analyzeTurns":[3]}}"#), Some("j"), Some("analyzeTurns")),
        (format!(r#"{{"id":"k","moves":[],{valid},"includeOwnership":"yes"}}"#), Some("k"), Some("includeOwnership")),
        (r#"{"id":"l","action":"terminate"}"#.into(), Some("l"), Some("terminateId")),
        (r#"{"id":"m","action":"dance"}"#.into(), Some("m"), Some("action")),
    ];
    for (line, id, field) in &cases {
        e.send(line);
        let r = next(&mut e);
        assert!(r["error"].as_str().is_some_and(|m| !m.is_empty()), "{line} → {r}");
        assert_eq!(r.get("id").and_then(Value::as_str), *id, "{line} → {r}");
        assert_eq!(r.get("field").and_then(Value::as_str), *field, "{line} → {r}");
    }
    // KaTrain recognises an illegal move by these words.
    e.send(&format!(r#"{{"id":"c","moves":[["B","E5"],["W","E5"]],{valid}}}"#));
    assert!(next(&mut e)["error"].as_str().unwrap().starts_with("Illegal move 1: E5"));
    // Blank lines are skipped; a good query after all that is answered.
    e.send("");
    e.send(&format!(r#"{{"id":"ok","moves":[["B","E5"]],{valid}}}"#));
    let r = next(&mut e);
    assert_eq!((&r["id"], &r["isDuringSearch"]), (&json!("ok"), &json!(false)), "{r}");
    check_response(&r, 9, &["E5"], 50);
    assert!(e.exited_cleanly(REPLY));
}

#[test]
fn rules_sente_cannot_play_get_a_warning_and_area_scoring() {
    let mut e = start();
    let query = json!({
        "id": "jp", "moves": [["B", "C3"]], "rules": "japanese", "boardXSize": 5, "boardYSize": 5,
        "maxVisits": 100, "cpuct": 1,
    });
    e.send(&query.to_string());
    let rules = next(&mut e);
    assert_eq!(rules["field"], "rules", "{rules}");
    assert!(rules["warning"].as_str().is_some_and(|w| w.contains("japanese") && w.contains("AREA")), "{rules}");
    let typo = next(&mut e);
    assert_eq!((&typo["field"], &typo["id"]), (&json!("cpuct"), &json!("jp")), "{typo}");
    let r = next(&mut e);
    check_response(&r, 5, &["C3"], 100);
    // Rules sente plays as they are: no warning, the answer comes first.
    let chinese = json!({"id": "cn", "moves": [], "rules": {"ko": "POSITIONAL", "scoring": "AREA", "suicide": false}, "boardXSize": 5, "boardYSize": 5, "maxVisits": 100});
    let r = ask(&mut e, &chinese);
    assert_eq!(r["id"], "cn");
    check_response(&r, 5, &[], 100);
    assert!(e.exited_cleanly(REPLY));
}

#[test]
fn black_and_white_views_of_the_same_search_agree() {
    // One thread, a fixed seed: the same query gets the same search, seen from black,
    // from white and from the side to move (white here).
    let mut e = start();
    let view = |as_: &str| {
        json!({
            "id": as_, "moves": [["B", "E5"]], "rules": "chinese", "komi": 7.5, "boardXSize": 9,
            "boardYSize": 9, "maxVisits": 400, "includeOwnership": true,
            "overrideSettings": {"reportAnalysisWinratesAs": as_},
        })
    };
    let black = ask(&mut e, &view("BLACK"));
    let white = ask(&mut e, &view("WHITE"));
    let side = ask(&mut e, &view("SIDETOMOVE"));
    assert_eq!(white["moveInfos"], side["moveInfos"]);
    let (b, w) = (&black["moveInfos"][0], &white["moveInfos"][0]);
    assert_eq!(b["move"], w["move"]);
    let sum = b["winrate"].as_f64().unwrap() + w["winrate"].as_f64().unwrap();
    assert!((sum - 1.0).abs() < 1e-5, "{b} {w}");
    assert!((b["scoreLead"].as_f64().unwrap() + w["scoreLead"].as_f64().unwrap()).abs() < 1e-5, "{b} {w}");
    let (ob, ow) = (black["ownership"].as_array().unwrap(), white["ownership"].as_array().unwrap());
    assert!(ob.iter().zip(ow).all(|(x, y)| (x.as_f64().unwrap() + y.as_f64().unwrap()).abs() < 1e-5));
    // E5 is black's: its ownership is positive for black.
    assert!(ob[4 * 9 + 4].as_f64().unwrap() > 0.0, "{black}");
    assert!(e.exited_cleanly(REPLY));
}

#[test]
fn avoid_and_allow_moves_keep_the_root_to_the_rest() {
    let mut e = start();
    let allowed = ["C3", "G7", "pass"];
    let query = json!({
        "id": "allow", "moves": [], "rules": "chinese", "boardXSize": 9, "boardYSize": 9, "maxVisits": 200,
        "allowMoves": [{"player": "B", "moves": allowed, "untilDepth": 1}],
    });
    let r = ask(&mut e, &query);
    check_response(&r, 9, &[], 200);
    for info in r["moveInfos"].as_array().unwrap() {
        assert!(allowed.contains(&info["move"].as_str().unwrap()), "{r}");
    }
    let avoided: Vec<String> =
        ["C", "D", "E", "F", "G"].iter().flat_map(|c| (3..=7).map(move |r| format!("{c}{r}"))).collect();
    let query = json!({
        "id": "avoid", "moves": [], "rules": "chinese", "boardXSize": 9, "boardYSize": 9, "maxVisits": 200,
        "avoidMoves": [{"player": "B", "moves": avoided, "untilDepth": 1}],
    });
    let r = ask(&mut e, &query);
    check_response(&r, 9, &[], 200);
    for info in r["moveInfos"].as_array().unwrap() {
        assert!(!avoided.iter().any(|a| info["move"] == a.as_str()), "{r}");
    }
    assert!(e.exited_cleanly(REPLY));
}

#[test]
fn the_queue_answers_higher_priorities_first() {
    let mut e = start();
    let query = |id: &str, visits: u64, priority: i64| {
        let q = json!({"id": id, "moves": [], "rules": "chinese", "boardXSize": 7, "boardYSize": 7,
                       "maxVisits": visits, "priority": priority, "reportDuringSearchEvery": 0.1});
        q.to_string()
    };
    // A search until terminated holds the worker while the others queue up behind it.
    e.send(&query("long", ENDLESS, 0));
    assert_eq!(next(&mut e)["isDuringSearch"], true);
    for (id, priority) in [("low", -1), ("mid", 0), ("high", 5), ("mid2", 0)] {
        e.send(&query(id, 50, priority));
    }
    e.send(&json!({"id": "t", "action": "terminate", "terminateId": "long"}).to_string());
    let mut order = Vec::new();
    while order.len() < 4 {
        let v = next(&mut e);
        if v["isDuringSearch"] == false && v["id"] != "long" {
            check_response(&v, 7, &[], 50);
            order.push(v["id"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(order, ["high", "mid", "mid2", "low"]);
    // terminate_all ends the running search and those waiting.
    e.send(&query("long", ENDLESS, 0));
    while next(&mut e)["isDuringSearch"] != true {}
    e.send(&query("waiting", 50, 0));
    e.send(&json!({"id": "all", "action": "terminate_all"}).to_string());
    let lines = until_final(&mut e, "long", 0);
    let waiting = json!({"id": "waiting", "turnNumber": 0, "isDuringSearch": false, "noResults": true});
    assert!(lines.contains(&waiting), "{lines:?}");
    assert!(e.exited_cleanly(REPLY));
}

#[test]
fn a_katrain_session_runs_and_ends_cleanly_at_eof() {
    // KaTrain starts the engine with KataGo's arguments and sends queries shaped like
    // this one (its fields in its order), pondering with a huge maxVisits and
    // reportDuringSearchEvery, then terminates the query and, when it closes, the input.
    let mut e = Engine::start(&[
        "analysis",
        "-model",
        "/nonexistent/kata1-b18c384nbt.bin.gz",
        "-config",
        "/nonexistent/analysis_config.cfg",
        "-override-config",
        "homeDataDir=/nonexistent",
    ]);
    let query = json!({
        "rules": "japanese", "priority": 1, "analyzeTurns": [3], "maxVisits": 10_000_000, "komi": 6.5,
        "boardXSize": 9, "boardYSize": 9, "includeOwnership": true, "includeMovesOwnership": true,
        "includePolicy": true, "initialStones": [], "initialPlayer": "B",
        "moves": [["B", "E5"], ["W", "C4"], ["B", "G4"]],
        "overrideSettings": {"reportAnalysisWinratesAs": "BLACK", "wideRootNoise": 0.04, "maxTime": 8.0},
        "reportDuringSearchEvery": 0.3, "id": "QUERY:1",
    });
    e.send(&query.to_string());
    let mut warnings = Vec::new();
    let partial = loop {
        let v = next(&mut e);
        if v.get("warning").is_some() {
            warnings.push(v["field"].as_str().unwrap().to_string());
            continue;
        }
        break v;
    };
    assert_eq!(warnings, ["rules", "overrideSettings"], "japanese scoring and wideRootNoise");
    assert_eq!((&partial["id"], &partial["turnNumber"]), (&json!("QUERY:1"), &json!(3)), "{partial}");
    let stones = ["E5", "C4", "G4"];
    check_response(&partial, 9, &stones, 10_000_000);
    for info in partial["moveInfos"].as_array().unwrap() {
        assert_eq!(info["ownership"].as_array().map(Vec::len), Some(81), "includeMovesOwnership: {info}");
    }
    let terminate = json!({"action": "terminate", "terminateId": "QUERY:1", "id": "QUERY:2"});
    e.send(&terminate.to_string());
    let mut lines = until_final(&mut e, "QUERY:1", 3);
    let last = lines.last().unwrap().clone();
    if !lines.contains(&terminate) {
        // The search ended by itself (maxTime) before the terminate came.
        lines.push(next(&mut e));
        assert_eq!(lines.last(), Some(&terminate), "{lines:?}");
    }
    check_response(&last, 9, &stones, 10_000_000);
    assert_eq!(last["policy"].as_array().map(Vec::len), Some(82));
    assert!(e.exited_cleanly(REPLY), "exit status 0 at the end of input");
}

#[test]
fn end_of_input_finishes_the_queued_queries() {
    let mut e = start();
    for id in ["one", "two"] {
        let q = json!({"id": id, "moves": [["B", "D4"]], "rules": "chinese", "boardXSize": 6, "boardYSize": 6, "maxVisits": 300});
        e.send(&q.to_string());
    }
    e.close_input();
    let lines: Vec<Value> = e.rest(REPLY).iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let ids: Vec<&str> = lines.iter().map(|v| v["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["one", "two"], "{lines:?}");
    for r in &lines {
        check_response(r, 6, &["D4"], 300);
        assert_eq!(r["rootInfo"]["visits"], 300);
    }
    assert!(e.exited_cleanly(REPLY));
}

#[test]
fn an_avoided_pass_is_never_the_answer() {
    let mut e = start();
    // Every point and the pass avoided: as KataGo's search, which then finds no root
    // move to play, the response lists no move (and still values the position).
    let all: Vec<String> = ["A", "B", "C", "D", "E"]
        .iter()
        .flat_map(|c| (1..=5).map(move |r| format!("{c}{r}")))
        .chain(["pass".into()])
        .collect();
    let query = json!({
        "id": "none", "moves": [], "rules": "chinese", "boardXSize": 5, "boardYSize": 5, "maxVisits": 50,
        "avoidMoves": [{"player": "B", "moves": all, "untilDepth": 1}],
    });
    let r = ask(&mut e, &query);
    assert_eq!(r["id"], "none", "{r}");
    assert_eq!(r["moveInfos"], json!([]), "no move may be offered: {r}");
    assert!(r["rootInfo"]["winrate"].is_number() && r["rootInfo"]["currentPlayer"] == "B", "{r}");
    // The moves left are black's own eyes (A1, C1) and the pass is avoided: the eyes
    // are searched (sente's search skips own eyes of its own accord, not the client).
    let query = json!({
        "id": "eyes", "moves": [], "rules": "chinese", "boardXSize": 3, "boardYSize": 3, "maxVisits": 50,
        "initialStones": [["B", "A2"], ["B", "B2"], ["B", "C2"], ["B", "B1"]], "initialPlayer": "B",
        "avoidMoves": [{"player": "B", "moves": ["A3", "B3", "C3", "pass"], "untilDepth": 1}],
    });
    let r = ask(&mut e, &query);
    let moves: Vec<&str> = r["moveInfos"].as_array().unwrap().iter().map(|i| i["move"].as_str().unwrap()).collect();
    assert!(!moves.is_empty() && moves.iter().all(|m| ["A1", "C1"].contains(m)), "{r}");
    assert!(e.exited_cleanly(REPLY));
}

#[test]
fn a_rules_substitution_is_said_on_stderr_too() {
    // KaTrain's default rules are japanese; it logs warning lines only at debug level,
    // but shows the engine's stderr in its console: the substitution is said there,
    // once for the session.
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sente"))
        .arg("analysis")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sente analysis");
    let mut input = child.stdin.take().unwrap();
    for id in ["a", "b"] {
        let query =
            json!({"id": id, "moves": [], "rules": "japanese", "boardXSize": 5, "boardYSize": 5, "maxVisits": 20});
        writeln!(input, "{query}").unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let warnings = stdout.lines().filter(|l| l.contains("\"warning\"") && l.contains("\"rules\"")).count();
    assert_eq!(warnings, 2, "a warning line with each query: {stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let said: Vec<&str> = stderr.lines().filter(|l| l.contains("japanese") && l.contains("AREA")).collect();
    assert_eq!(said.len(), 1, "{stderr}");
    assert!(said[0].contains("area only"), "{stderr}");
}
