//! The referee's board in a real browser: headless Chromium under chromedriver
//! (WebDriver), the three pages in three windows. A whole game is played by clicks
//! and keys: the players' pages enter their own tries, a capture is told on both
//! players' pages and confirmed, an illegal try, a recovery with its penalty, a rule-11
//! proposal refused, the server killed with SIGKILL and resumed under the open pages,
//! a rule-7 pass, two passes, a dead group toggled and the result; every reply each
//! player's page received is checked for hidden stones, and a player's token is
//! refused on the referee's actions. Two more tests seat an engine and declare a side
//! out of time lost on time.
//!
//! The screenshots of the three pages are written to the test's scratch folder, and
//! to `$SENTE_REFEREE_SCREENSHOTS` (a folder, e.g. `docs`) when it is set. The time
//! from each click or key to its answer on the page is printed, not asserted.

use crate::common;
use crate::referee_support::*;
use crate::referee_webdriver::*;

use serde_json::{Value, json};

/// The referee's, black's and white's windows.
struct Pages<'a> {
    b: &'a Browser,
    windows: [String; 3],
}

impl Pages<'_> {
    fn on(&self, page: usize) -> &Browser {
        self.b.switch(&self.windows[page]);
        self.b
    }

    fn version(&self, page: usize) -> u64 {
        self.on(page).exec("return state ? state.version : 0", json!([])).as_u64().unwrap_or(0)
    }

    /// Does `f` on page `page` and waits for the page to draw the change.
    fn act(&self, page: usize, f: impl FnOnce(&Browser)) {
        let before = self.version(page);
        let instance = self.b.exec("return state ? state.instance : ''", json!([]));
        f(self.b);
        self.b.wait(
            "the page to draw the change",
            &format!(
                "return state && (state.version > {before} || state.instance !== {instance}) \
                 || !document.getElementById('error').hidden"
            ),
        );
        let error =
            self.b.exec("const e = document.getElementById('error'); return e.hidden ? '' : e.textContent", json!([]));
        assert_eq!(error, json!(""), "the page shows an error");
    }

    /// The referee types a try and presses Enter; the answer shown.
    fn type_try(&self, text: &str) -> String {
        self.act(0, |b| b.type_into("#try-input", &format!("{text}{ENTER}")));
        self.b.text("#answer")
    }

    /// The referee clicks a point of the full board; the answer shown.
    fn click_point(&self, ij: &str) -> String {
        self.act(0, |b| b.click(&format!("#full .pt[data-ij='{ij}']")));
        self.b.text("#answer")
    }

    /// The page's last state.
    fn state(&self, page: usize) -> Value {
        self.on(page).exec("return state", json!([]))
    }

    /// Every reply page `page` received.
    fn replies(&self, page: usize) -> Vec<Value> {
        self.on(page).exec("return window.senteReplies", json!([])).as_array().cloned().unwrap_or_default()
    }

    /// Waits until page `page`'s state satisfies `condition` (JavaScript on `state`);
    /// that state.
    fn wait(&self, page: usize, what: &str, condition: &str) -> Value {
        self.on(page).wait(what, &format!("return state && ({condition}) && state"))
    }
}

/// The hidden points (`ij`) of side `side` now, by the referee's state: opponent
/// stones it never tried and was never told of.
fn hidden_now(referee: &Value, side: usize) -> Vec<String> {
    let color = if side == 0 { "black" } else { "white" };
    let mut told: Vec<String> = Vec::new();
    for t in referee["tries"].as_array().unwrap() {
        if t["color"] == color {
            told.push(t["try"].as_str().unwrap().chars().take(2).collect());
        }
        // Captures are told to both sides with their points.
        let answer = t["answer"].as_str().unwrap();
        if let Some(list) = answer.split("captures").nth(1) {
            told.extend(
                list.split_whitespace()
                    .filter(|w| w.len() == 2 && w.bytes().all(|b| b.is_ascii_digit()))
                    .map(String::from),
            );
        }
    }
    hidden(referee["full"].as_str().unwrap(), side, &told)
}

fn check_no_leaks(pages: &Pages, side: usize) -> usize {
    let hidden = hidden_now(&pages.state(0), side);
    let replies = pages.replies(1 + side);
    assert!(!replies.is_empty());
    for reply in &replies {
        assert_eq!(leaks(reply, &hidden), Vec::<String>::new(), "{reply}");
    }
    // And what the page shows: no opponent stone on its board.
    let theirs = if side == 0 { "w" } else { "b" };
    let shown =
        pages.on(1 + side).exec(&format!("return document.querySelectorAll('#board .pt.{theirs}').length"), json!([]));
    assert_eq!(shown, json!(0));
    hidden.len()
}

fn screenshot(b: &Browser, dir: &std::path::Path, name: &str) {
    b.exec("document.activeElement.blur(); window.scrollTo(0, 0)", json!([]));
    let file = format!("phantomgo-referee-{name}.png");
    b.screenshot(&dir.join(&file));
    if let Ok(out) = std::env::var("SENTE_REFEREE_SCREENSHOTS") {
        b.screenshot(&std::path::Path::new(&out).join(&file));
    }
}

#[test]
fn a_whole_game_on_the_referees_board_in_a_browser() {
    let dir = common::Scratch::new("referee-browser");
    let mut server = Server::start(&dir, &[]);
    let b = Browser::start(&dir.join("chromium-profile"));
    let referee = b.window();
    b.goto(server.referee());
    let black = b.new_window();
    b.switch(&black);
    b.goto(server.player(0));
    let white = b.new_window();
    b.switch(&white);
    b.goto(server.player(1));
    let pages = Pages { b: &b, windows: [referee, black, white] };
    for page in 0..3 {
        pages.wait(page, "the first state", "true");
    }

    // The players' pages enter their own tries: black clicks 01, white types 100 (00).
    pages.act(1, |b| b.click("#board .pt[data-ij='01']"));
    assert_eq!(pages.b.text("#answer"), "legal");
    pages.act(2, |b| b.type_into("#try-input", &format!("100{ENTER}")));
    assert_eq!(pages.b.text("#answer"), "legal");
    // The referee enters black's BA (10): it captures 00, told on both pages.
    let answer = pages.type_try("BA");
    assert!(answer.contains("captures 1: 00 (A9)"), "{answer}");
    pages.wait(1, "black's capture notice", "state.taken === 1");
    assert!(pages.b.text("#log").contains("you captured 1: 00 (A9)"));
    pages.wait(2, "white's capture notice", "state.removal_pending.length === 1");
    assert!(pages.b.text("#removal").contains("00"), "{}", pages.b.text("#removal"));
    assert!(pages.b.text("#log").contains("1 of your stones captured: 00 (A9)"));
    pages.act(2, |b| b.click("#remove"));
    // An illegal try: white on black's 01, by a click on the referee's board.
    let answer = pages.click_point("01");
    assert!(answer.starts_with("illegal"), "{answer}");
    pages.wait(2, "white's refused point", "state.refused.includes('01')");
    assert_eq!(pages.type_try("E5"), "legal");
    // Black's page shows none of white's stones, and received none.
    assert!(check_no_leaks(&pages, 0) > 0, "white's 44 is hidden from black");

    // An operator's error for black (87), recovered: undone, 4 minutes on black's clock.
    assert_eq!(pages.click_point("87"), "legal");
    let n = pages.state(0)["tries"].as_array().unwrap().len();
    pages.on(0).type_into("#recover-from", &n.to_string());
    let before = pages.version(0);
    pages.b.click("#recover");
    pages.b.accept_dialog();
    pages.wait(0, "the recovery", &format!("state.version > {before}"));
    let s = pages.state(0);
    assert_eq!(s["tries"].as_array().unwrap().len(), n - 1);
    assert_eq!(s["black"]["penalty_ms"], 240_000);
    assert!(pages.b.text("#clock-black").starts_with('4'), "{}", pages.b.text("#clock-black"));
    assert!(pages.b.text("#log").contains("recovery for Black"));

    // Rule 11: sente's judgement of the board now, then the proposal; black accepts
    // on its page, white refuses on its page.
    pages.on(0).click("#judge");
    pages.b.wait(
        "the judgement",
        "return document.getElementById('judgement').textContent.includes('If play stopped now')",
    );
    pages.act(0, |b| b.click("#propose"));
    pages.wait(1, "the proposal on black's page", "state.proposal !== null");
    pages.act(1, |b| b.click("#accept"));
    pages.wait(2, "the proposal on white's page", "state.proposal !== null");
    pages.act(2, |b| b.click("#refuse"));
    pages.wait(0, "play to go on", "state.proposal === false && !state.over");
    assert!(pages.b.text("#log").contains("White refuses the proposal to stop"));
    // A player's token on the referee's actions, from the player's page itself.
    let status = pages.on(1).exec(
        "return await fetch('/' + TOKEN + '/api/propose', {method: 'POST', body: '{}'}).then(r => r.status)",
        json!([]),
    );
    assert_eq!(status, json!(403));

    // Black fills the board but for its two eyes (00, 88), white passing; on 44 black
    // is refused (white's stone) and plays on; 54 captures 44.
    let mut order: Vec<String> = (0..81).map(|i| format!("{}{}", i / 9, i % 9)).collect();
    order.retain(|ij| !["00", "88", "01", "10"].contains(&ij.as_str()));
    order.push("44".into());
    let mut screenshots_taken = false;
    for (k, ij) in order.iter().enumerate() {
        let answer = pages.type_try(ij);
        if answer.starts_with("illegal") {
            assert_eq!(ij, "44", "{answer}");
            continue;
        }
        if answer.contains("captures") {
            pages.act(0, |b| b.click("#remove-white"));
        }
        if k == 30 && !screenshots_taken {
            // The server killed mid-game and resumed on the same port under the open pages.
            let before = pages.state(0);
            server.kill();
            let port = server.referee().split(':').nth(2).unwrap().split('/').next().unwrap().to_string();
            let record = server.record.clone();
            server =
                Server::start(&dir, &["--resume", record.to_str().unwrap(), "--listen", &format!("127.0.0.1:{port}")]);
            let after = pages.wait(
                0,
                "the resumed server",
                &format!("state.instance !== '{}'", before["instance"].as_str().unwrap()),
            );
            for key in ["full", "tries", "dead"] {
                assert_eq!(after[key], before[key], "{key}");
            }
            assert_eq!(after["black"]["penalty_ms"], 240_000);
            pages.wait(
                1,
                "black's page to find the resumed server",
                &format!("state.instance === '{}'", after["instance"].as_str().unwrap()),
            );
            pages.wait(
                2,
                "white's page to find the resumed server",
                &format!("state.instance === '{}'", after["instance"].as_str().unwrap()),
            );
            for (page, name) in [(0, "referee"), (1, "black"), (2, "white")] {
                pages.on(page);
                screenshot(&b, &dir, name);
            }
            screenshots_taken = true;
        }
        if k + 1 < order.len() {
            pages.act(0, |b| b.click("#pass"));
        }
    }
    // White has no legal point: its try on 00 is refused and its turn passes (rule 7);
    // black passes: two passes end the game.
    let answer = pages.type_try("00");
    assert!(answer.contains("rule 7"), "{answer}: {}", pages.state(0));
    pages.act(0, |b| b.click("#pass"));
    let s = pages.wait(0, "the end", "state.over");
    assert_eq!(s["result"]["text"], "B+73.5");
    // A group toggled dead and back, then the result confirmed.
    pages.act(0, |b| b.click("#full .pt[data-ij='40']"));
    assert_eq!(pages.state(0)["result"]["text"], "W+7.5");
    assert!(pages.b.text("#result").contains("W+7.5"));
    pages.act(0, |b| b.click("#full .pt[data-ij='40']"));
    pages.act(0, |b| b.click("#confirm"));
    assert!(pages.b.text("#result").contains("B+73.5") && pages.b.text("#result").contains("confirmed"));
    for page in [1, 2] {
        pages.wait(page, "the result on the player's page", "state.result && state.result.text === 'B+73.5'");
        assert!(pages.b.text("#result").contains("B+73.5"));
    }
    screenshot(pages.on(0), &dir, "end");
    for page in 0..3 {
        assert_eq!(pages.on(page).exec("return window.senteErrors", json!([])), json!([]), "page {page}");
    }
    assert!(check_no_leaks(&pages, 1) > 40, "black's stones are hidden from white");
    check_no_leaks(&pages, 0);
    let latencies: Vec<f64> = pages
        .on(0)
        .exec("return window.senteLatencies", json!([]))
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_f64)
        .collect();
    let mut sorted = latencies.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "referee page, click or key to answer shown: {} actions, median {:.1} ms, 90th percentile {:.1} ms, max {:.1} ms",
        sorted.len(),
        sorted[sorted.len() / 2],
        sorted[sorted.len() * 9 / 10],
        sorted[sorted.len() - 1]
    );
}

#[test]
fn an_engine_seat_in_the_browser() {
    let dir = common::Scratch::new("referee-browser-engine");
    let engine = format!("cmd='{SENTE} phantom --movetime 30' proto=phantom name=sente-engine");
    let server = Server::start(&dir, &["--white", &engine]);
    let b = Browser::start(&dir.join("chromium-profile"));
    let referee = b.window();
    b.goto(server.referee());
    let white = b.new_window();
    b.switch(&white);
    b.goto(server.player(1));
    let pages = Pages { b: &b, windows: [referee, white.clone(), white] };
    pages.wait(2, "white's page", "true");
    assert!(pages.b.text("#side").contains("engine: sente-engine"));
    pages.wait(0, "the referee's page", "true");
    assert_eq!(pages.click_point("44"), "legal");
    pages.wait(0, "the engine's try", "state.to_move === 'black'");
    assert!(pages.b.text("#log").contains("white"));
    pages.wait(2, "the engine's stone on its page", "state.board.includes('O')");
    for page in [0, 2] {
        assert_eq!(pages.on(page).exec("return window.senteErrors", json!([])), json!([]), "page {page}");
    }
}

#[test]
fn a_loss_on_time_in_the_browser() {
    let dir = common::Scratch::new("referee-browser-time");
    // 0.01 minutes: black's 600 ms run out at once.
    let server = Server::start(&dir, &["--time", "0.01"]);
    let b = Browser::start(&dir.join("chromium-profile"));
    let referee = b.window();
    b.goto(server.referee());
    let black = b.new_window();
    b.switch(&black);
    b.goto(server.player(0));
    let pages = Pages { b: &b, windows: [referee, black.clone(), black] };
    pages.wait(1, "black's page", "true");
    pages.b.wait("black's time shown out", "return document.getElementById('left').classList.contains('out')");
    pages.wait(0, "the referee's page", "true");
    pages.b.wait("the loss-on-time button", "return !document.getElementById('time-black').hidden");
    assert!(pages.b.text("#time-left").contains("Left: Black -"), "{}", pages.b.text("#time-left"));
    pages.act(0, |b| b.click("#time-black"));
    assert!(pages.b.text("#result").contains("W+T"));
    pages.act(0, |b| b.click("#confirm"));
    pages.wait(1, "the result on black's page", "state.result && state.result.text === 'W+T'");
    assert!(pages.b.text("#result").contains("lost on time"));
}
