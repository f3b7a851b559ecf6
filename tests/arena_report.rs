//! `sente arena report`: a short match of each game (sente against itself at a few
//! hundred nodes a move), its report written, checked to fetch nothing, and opened in
//! a real browser — headless Chromium (`/usr/bin/chromium`, which `scripts/test.sh`
//! installs) — at `#selftest`, where the page's script steps every game's replay from
//! its first frame to its last and back and checks that each frame drew its pieces.
//! The test reads the DOM Chromium dumps and the console messages it logs.

use crate::common;

use std::fs::{self, File};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const SENTE: &str = env!("CARGO_BIN_EXE_sente");
const CHROMIUM: &str = "/usr/bin/chromium";
/// How long one Chromium run may take on a loaded machine.
const BROWSER_TIME: Duration = Duration::from_secs(120);

/// A scratch folder of the test's own, removed when it passes.
fn scratch(name: &str) -> common::Scratch {
    common::Scratch::new(&format!("arena-report-{name}"))
}

/// Runs `sente` with `args`; returns (success, stdout, stderr).
fn sente(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(SENTE).args(args).output().expect("run sente");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// Plays a match of sente against itself (UGI+) with `flags`, into `out`.
fn play(flags: &str, out: &Path) {
    let engine = |name: &str| format!("name={name} cmd='{SENTE}' proto=ugi");
    let mut args = vec!["arena"];
    args.extend(flags.split_whitespace());
    let (a, b) = (engine("a"), engine("b"));
    args.extend(["--engine", &a, "--engine", &b, "--out", out.to_str().expect("utf-8 path")]);
    let (ok, stdout, stderr) = sente(&args);
    assert!(ok, "arena {flags}: {stdout}\n{stderr}");
}

fn rows(out: &Path) -> Vec<Value> {
    let text = fs::read_to_string(out.join("results.jsonl")).expect("results.jsonl");
    text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect()
}

/// Writes the report of `dir` with `extra` arguments; returns the page.
fn report(dir: &Path, extra: &[&str]) -> String {
    let mut args = vec!["arena", "report", dir.to_str().expect("utf-8 path")];
    args.extend(extra);
    let (ok, stdout, stderr) = sente(&args);
    assert!(ok, "report: {stdout}\n{stderr}");
    let page = dir.join("report.html");
    assert!(stdout.contains(&format!("wrote {}", page.display())), "{stdout}");
    fs::read_to_string(&page).expect("report.html")
}

/// The page fetches nothing: no linked style sheets or scripts, no address of another
/// machine in any `src` or `href`, no CSS import.
fn assert_self_contained(html: &str) {
    let lower = html.to_ascii_lowercase();
    assert!(!lower.contains("<link"), "a <link> element");
    assert!(!lower.contains("<script src"), "a script from a file");
    assert!(!lower.contains("@import") && !lower.contains("url(http"), "a CSS fetch");
    for attribute in ["src=", "href="] {
        for (i, _) in lower.match_indices(attribute) {
            let value = lower[i + attribute.len()..].trim_start_matches(['"', '\'']);
            assert!(
                !value.starts_with("http:") && !value.starts_with("https:") && !value.starts_with("//"),
                "{attribute} fetches: {}",
                &html[i..(i + 80).min(html.len())]
            );
        }
    }
}

/// Opens `page` (with `hash`) in headless Chromium; returns the DOM it dumps and its
/// log (console messages included).
fn chromium(page: &Path, hash: &str, profile: &Path) -> (String, String) {
    assert!(
        Path::new(CHROMIUM).exists(),
        "{CHROMIUM} is missing: scripts/test.sh installs it (apt-get install chromium); these tests open the \
         report in a real browser"
    );
    let url = format!("file://{}{hash}", page.display());
    let (dom_path, log_path) = (profile.with_extension("dom"), profile.with_extension("log"));
    let mut child = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=10000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--dump-dom", &url])
        .stdin(Stdio::null())
        .stdout(File::create(&dom_path).expect("dom file"))
        .stderr(File::create(&log_path).expect("log file"))
        .spawn()
        .expect("start chromium");
    let deadline = Instant::now() + BROWSER_TIME;
    loop {
        match child.try_wait().expect("wait for chromium") {
            Some(_) => break,
            None if Instant::now() > deadline => {
                let _ = child.kill();
                let _ = child.wait();
                let log = fs::read_to_string(&log_path).unwrap_or_default();
                panic!("chromium did not finish within {BROWSER_TIME:?}: {log}");
            }
            None => std::thread::sleep(Duration::from_millis(100)),
        }
    }
    let dom = fs::read_to_string(&dom_path).expect("the dumped DOM");
    let log = fs::read_to_string(&log_path).unwrap_or_default();
    (dom, log)
}

/// Opens the report in Chromium at `#selftest`: every game replays without an error,
/// and the plots `plots` are in the page with their lines.
fn check_in_browser(dir: &Path, games: usize, plots: &[&str]) {
    let (dom, log) = chromium(&dir.join("report.html"), "#selftest", &dir.join("chromium-profile"));
    for line in log.lines().filter(|l| l.contains("CONSOLE")) {
        assert!(!line.contains("Uncaught"), "a script error: {line}");
    }
    let start = dom.find("<pre id=\"selftest\">").unwrap_or_else(|| panic!("no self-test result in the page: {log}"));
    let result = &dom[start + "<pre id=\"selftest\">".len()..];
    let result = &result[..result.find("</pre>").expect("the result's end")];
    let expected = format!("selftest ok: {games} games, ");
    assert!(result.starts_with(&expected) && result.ends_with(" frames, 0 errors"), "{result}");
    let frames: usize = result[expected.len()..].split(' ').next().and_then(|n| n.parse().ok()).expect("frames");
    assert!(frames > 2 * games, "{result}");
    for id in plots {
        let at = dom.find(&format!("<svg class=\"plot\" id=\"{id}\"")).unwrap_or_else(|| panic!("no {id}"));
        let svg = &dom[at..at + dom[at..].find("</svg>").expect("the plot's end")];
        assert!(svg.contains("<path class=\"series "), "{id} has no line: {svg}");
    }
    // The replay drew the first game's start once the self-test was over.
    let boards = &dom[dom.find("id=\"boards\"").expect("the boards")..];
    assert!(boards.starts_with("id=\"boards\"><figure><svg"), "no board drawn: {}", &boards[..200.min(boards.len())]);
}

/// The time-per-move plot when the results have per-move data, else the note saying
/// there is none.
/// A match between UGI+ engines has per-move data in every row, and the page plots it.
fn time_plot(out: &Path, html: &str) -> &'static str {
    assert!(rows(out).iter().all(|r| r["plies"].as_array().is_some_and(|p| !p.is_empty())), "per-move data");
    assert!(html.contains("id=\"time-plot\"") && !html.contains(">no per-move data:"));
    "time-plot"
}

#[test]
fn othello_report_with_an_sprt_given_to_the_report() {
    let out = scratch("othello");
    play("--game othello --rounds 2 --nodes 300", &out);
    let html = report(&out, &["--sprt", "0,50"]);
    assert_self_contained(&html);
    assert!(html.contains("(from --sprt)"), "the SPRT's source");
    let mut plots = vec!["llr-plot", "score-plot"];
    plots.push(time_plot(&out, &html));
    check_in_browser(&out, 4, &plots);
}

#[test]
fn go_report_without_an_sprt_and_results_without_per_move_data() {
    let out = scratch("go");
    play("--game go --size 7 --rounds 1 --nodes 200", &out);
    let html = report(&out, &[]);
    assert_self_contained(&html);
    assert!(html.contains("no SPRT") && !html.contains("id=\"llr-plot\""));
    let mut plots = vec!["score-plot"];
    plots.push(time_plot(&out, &html));
    check_in_browser(&out, 2, &plots);
    // Results written before the per-move data: the page says so; --out moves the page.
    let old = scratch("go-old");
    fs::write(old.join("match.json"), fs::read(out.join("match.json")).expect("settings")).expect("copy");
    let stripped: String = rows(&out)
        .into_iter()
        .map(|mut r| {
            r.as_object_mut().expect("an object").remove("plies");
            format!("{r}\n")
        })
        .collect();
    fs::write(old.join("results.jsonl"), stripped).expect("results");
    let page = old.join("elsewhere.html");
    let (ok, stdout, stderr) =
        sente(&["arena", "report", old.to_str().expect("path"), "--out", page.to_str().expect("path")]);
    assert!(ok, "{stdout}{stderr}");
    let html = fs::read_to_string(&page).expect("the page");
    assert!(html.contains(">no per-move data:"), "the note in the time section");
    // Its records are not there: each game says why it cannot be replayed.
    assert!(html.contains("cannot read"), "a missing record is named");
}

#[test]
fn chaos_clock_report() {
    let out = scratch("chaosclock");
    // The match's SPRT, kept in its settings, is the report's.
    play("--game chaosclock --rounds 2 --nodes 300 --sprt elo0=-20,elo1=20,alpha=0.1,beta=0.1", &out);
    let settings: Value =
        serde_json::from_str(&fs::read_to_string(out.join("match.json")).expect("match.json")).expect("JSON settings");
    assert_eq!(settings["sprt"], "elo0=-20 elo1=20 alpha=0.1 beta=0.1");
    let html = report(&out, &[]);
    assert!(html.contains("(from the match's settings)"), "the SPRT's source");
    assert_self_contained(&html);
    let mut plots = vec!["llr-plot", "score-plot"];
    plots.push(time_plot(&out, &html));
    check_in_browser(&out, 4, &plots);
}

#[test]
fn phantom_go_report_with_the_referees_board_and_both_views() {
    let out = scratch("phantomgo");
    play("--game phantomgo --rounds 1 --nodes 100", &out);
    let html = report(&out, &["--sprt", "-50,50"]);
    assert_self_contained(&html);
    assert!(html.contains("black's view") && html.contains("white's view") && html.contains("the referee's board"));
    let mut plots = vec!["llr-plot", "score-plot"];
    plots.push(time_plot(&out, &html));
    check_in_browser(&out, 2, &plots);
}

#[test]
fn a_folder_that_is_not_a_match_is_named() {
    let dir = scratch("not-a-match");
    let (ok, _, stderr) = sente(&["arena", "report", dir.to_str().expect("path")]);
    assert!(!ok);
    assert!(stderr.contains(&format!("{}: no results file", dir.join("results.jsonl").display())), "{stderr}");
    fs::write(dir.join("results.jsonl"), "{\"game\": 0}\nnot json\n").expect("write");
    let (ok, _, stderr) = sente(&["arena", "report", dir.to_str().expect("path")]);
    assert!(!ok && stderr.contains("results.jsonl line 1: not a game result"), "{stderr}");
    let (ok, _, stderr) = sente(&["arena", "report", dir.to_str().expect("path"), "--sprt", "5"]);
    assert!(!ok && stderr.contains("--sprt '5'"), "{stderr}");
}
