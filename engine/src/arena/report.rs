//! `sente arena report DIR`: one self-contained HTML page about a match folder written
//! by `sente arena` (finished or not): the score and Elo of engine A against B, the
//! SPRT's log-likelihood ratio game by game (or the score's course when there is no
//! SPRT), the game pairs, each engine's time per move, and a replay of every game.
//!
//! Everything is computed here, in Rust, with the arena's statistics ([`super::stats`])
//! and our own rules (`bitboards`): the plots are SVG written here, and each game is
//! embedded as a list of frames (the board after every move, the move, what the engine
//! said about it). The page's script ([`JS`], `report/report.js`) only draws frames
//! and steps through them. Nothing is fetched: styles, script and data are inline.
//!
//! **Phantom Go** frames are the referee's answers, one per try, replayed through
//! [`Referee`] from the text record, with three boards: the referee's full board and
//! each player's [`View`] — exactly what the rules let that player know: its own
//! stones, the opponent stones it has learned (none under CCGC rules; under OpenSpiel
//! rules those its refused tries ran into), its refused tries of the turn, and the
//! points of the last capture it was told of.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use bitboards::chaosclock::{self as cc, Record as ClockRecord};
use bitboards::go::{self, Color, Point};
use bitboards::othello::{self, Board, Position, ggf};
use bitboards::phantom::{Answer, PhantomConfig, PhantomRules, Referee, SIZE as PHANTOM_SIZE, View};
use serde::Serialize;

use super::settings::{self, MatchSettings, OpeningSettings};
use super::stat_at;
use super::stats::{self, EloModel, Pentanomial, Sprt, SprtVerdict, Tally};
use super::{GameRecord, MoveStat, Summary};
use crate::games::GameKind;

/// The page's style sheet.
const CSS: &str = include_str!("report/report.css");
/// The page's script: draws the frames, steps through them, and checks itself at
/// `#selftest`.
const JS: &str = include_str!("report/report.js");

/// The page's file name in the match folder when `--out` is not given.
pub const DEFAULT_FILE: &str = "report.html";

/// What `sente arena report` is asked for.
pub struct ReportOptions {
    /// The match folder (`results.jsonl`, `match.json`, `games/`).
    pub dir: PathBuf,
    /// Where the page goes (`None`: `DIR/report.html`).
    pub out: Option<PathBuf>,
    /// The SPRT to plot when the match's settings do not give one.
    pub sprt: Option<Sprt>,
}

/// Reads the report command's `--sprt`: `elo0=0 elo1=5 alpha=0.05 beta=0.05` as `arena
/// merge` takes it, or the numbers alone, `elo0,elo1[,alpha,beta]`.
pub fn parse_sprt(text: &str, model: EloModel) -> Result<Sprt> {
    let text = if text.contains('=') {
        text.to_string()
    } else {
        let numbers: Vec<&str> = text.split([',', ' ']).filter(|w| !w.is_empty()).collect();
        if !(numbers.len() == 2 || numbers.len() == 4) {
            bail!("--sprt '{text}': elo0,elo1 or elo0,elo1,alpha,beta (or elo0=… elo1=… alpha=… beta=…)");
        }
        ["elo0", "elo1", "alpha", "beta"]
            .iter()
            .zip(numbers)
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    Sprt::parse(&text, model).map_err(anyhow::Error::msg)
}

/// Writes the report of the match in `options.dir`; returns where it went and how many
/// games it holds.
pub fn write(options: &ReportOptions) -> Result<(PathBuf, usize)> {
    let m = Match::read(&options.dir, options.sprt)?;
    let html = page(&m);
    let out = options.out.clone().unwrap_or_else(|| options.dir.join(DEFAULT_FILE));
    crate::tools::journal::write_atomically(&out, html.as_bytes())?;
    Ok((out, m.rows.len()))
}

/// A match folder as read.
struct Match {
    dir: PathBuf,
    /// The results in the order they were written (the order the games ended).
    rows: Vec<GameRecord>,
    /// A last line cut short (a match running or killed), left out.
    torn: Option<String>,
    settings: Option<MatchSettings>,
    /// Engines A and B.
    names: [String; 2],
    kind: Option<GameKind>,
    /// The SPRT and where it came from.
    sprt: Option<(Sprt, &'static str)>,
}

impl Match {
    fn read(dir: &Path, sprt: Option<Sprt>) -> Result<Match> {
        if !dir.is_dir() {
            bail!("{}: no such folder (give the --out folder of a `sente arena` match)", dir.display());
        }
        let path = dir.join("results.jsonl");
        if !path.exists() {
            bail!(
                "{}: no results file: is {} the --out folder of a `sente arena` match?",
                path.display(),
                dir.display()
            );
        }
        // Read and checked as every reader of a match's files does; a last line cut
        // short (a match running) is left out and said on the page.
        let file = super::results::read(&path, true)?;
        let settings_path = dir.join(settings::FILE);
        let settings = file.settings;
        let names = file.names.unwrap_or_else(|| ["A".to_string(), "B".to_string()]);
        let torn = file.torn;
        let numbered = file.rows;
        let rows: Vec<GameRecord> = numbered.into_iter().map(|(_, r)| r).collect();
        let kind = match &settings {
            Some(s) => Some(GameKind::parse(&s.game).map_err(anyhow::Error::msg)?),
            None => rows.iter().find_map(|r| kind_of_record(dir, r)),
        };
        // The report's --sprt, else the match's own.
        let sprt = match (sprt, settings_sprt(settings.as_ref(), &settings_path)?) {
            (Some(s), _) => Some((s, "--sprt")),
            (None, Some(s)) => Some((s, "the match's settings")),
            (None, None) => None,
        };
        Ok(Match { dir: dir.to_path_buf(), rows, torn, settings, names, kind, sprt })
    }

    /// The games the match (its shard) has in all, if its settings say.
    fn scheduled(&self) -> Option<u64> {
        let s = self.settings.as_ref()?;
        let shard = crate::tools::shard::Shard::parse(&s.shard, "shard").ok()?;
        Some(2 * shard.count_in(0..s.rounds))
    }

    /// Engine A's index (0) or B's (1) of an engine name.
    fn engine_index(&self, name: &str) -> usize {
        usize::from(name != self.names[0])
    }
}

/// The SPRT a match's settings record (`--sprt`, kept since 2026-11-27), if they do.
fn settings_sprt(settings: Option<&MatchSettings>, path: &Path) -> Result<Option<Sprt>> {
    let Some(settings) = settings else { return Ok(None) };
    let Some(sprt) = settings.sprt.as_deref() else { return Ok(None) };
    let model = if settings.normalized { EloModel::Normalized } else { EloModel::Logistic };
    Sprt::parse(sprt, model).map(Some).map_err(|e| anyhow::anyhow!("{}: sprt '{sprt}': {e}", path.display()))
}

/// The game of a result row, from its record (when the settings do not say).
fn kind_of_record(dir: &Path, r: &GameRecord) -> Option<GameKind> {
    let file = r.record.as_deref()?;
    match Path::new(file).extension()?.to_str()? {
        "ggf" => Some(GameKind::OTHELLO),
        "sgf" => Some(GameKind::GO),
        "txt" => {
            let text = fs::read_to_string(dir.join(file)).ok()?;
            if text.starts_with("# Phantom Go") { Some(GameKind::PHANTOM_GO) } else { Some(GameKind::CHAOS_CLOCK) }
        }
        _ => None,
    }
}

/// HTML-escapes text.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

fn game_title(kind: Option<GameKind>) -> &'static str {
    kind.map_or("unknown game", |k| k.spec().title())
}

/// The names of the two seats of a game.
fn seat_names(kind: Option<GameKind>) -> [&'static str; 2] {
    match kind {
        Some(k) if k == GameKind::CHAOS_CLOCK => ["乙 Yi (even pieces, first)", "甲 Jia (odd pieces)"],
        _ => ["black", "white"],
    }
}

/// The whole page.
fn page(m: &Match) -> String {
    let title = format!("{} vs {} — {}", m.names[0], m.names[1], game_title(m.kind));
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" \
         content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>\n{CSS}</style>\n</head>\n\
         <body>\n",
        esc(&format!("sente arena report: {title}"))
    );
    let _ = writeln!(html, "<header>\n<h1>{}</h1>\n<p class=\"meta\">{}</p>\n</header>", esc(&title), meta_line(m));
    html.push_str("<main>\n");
    // Phantom Go's three boards side by side take the page's width.
    let wide = m.kind == Some(GameKind::PHANTOM_GO);
    if wide {
        html.push_str(&replay_section(m));
    }
    html.push_str("<div class=\"col\">\n");
    html.push_str(&score_section(m));
    if !wide {
        html.push_str(&replay_section(m));
    }
    html.push_str("</div>\n<div class=\"col\">\n");
    html.push_str(&sprt_section(m));
    html.push_str(&time_section(m));
    html.push_str(&pairs_section(m));
    html.push_str("</div>\n</main>\n");
    let data = ReportData { games: replays(m), seats: seat_names(m.kind) };
    // `<`, `>` and `&` are written as JSON escapes, so that nothing in the data (an
    // engine's name or move text: `</script>`, `<!--<script>`) can end its element or
    // change how the HTML parser reads it.
    let json = serde_json::to_string(&data)
        .unwrap_or_else(|_| "{\"games\":[]}".into())
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    let _ = writeln!(html, "<script type=\"application/json\" id=\"report-data\">{json}</script>");
    let _ = writeln!(html, "<script>\n{JS}</script>\n</body>\n</html>");
    html
}

/// The line under the title: the match's settings and how far it got.
fn meta_line(m: &Match) -> String {
    let mut parts = Vec::new();
    parts.push(format!("folder {}", esc(&m.dir.display().to_string())));
    if let Some(s) = &m.settings {
        let mut game = game_title(m.kind).to_string();
        if m.kind == Some(GameKind::GO) {
            game.push_str(&format!(" {0}×{0}, komi {1}", s.size, s.komi));
        }
        if m.kind == Some(GameKind::PHANTOM_GO) {
            game.push_str(&format!(", {} rules, komi {}", s.phantom_rules, s.komi));
        }
        parts.push(esc(&game));
        parts.push(esc(&s.control));
        let openings = match &s.openings {
            OpeningSettings::File { path, count, .. } => format!("{count} openings from {path}"),
            OpeningSettings::Random { seed, .. } if m.kind == Some(GameKind::CHAOS_CLOCK) => {
                format!("random deals (seed {seed})")
            }
            OpeningSettings::Random { plies, seed } => format!("random openings ({plies} plies, seed {seed})"),
        };
        if m.kind != Some(GameKind::PHANTOM_GO) {
            parts.push(esc(&openings));
        }
        parts.push(format!(
            "{} game pairs{}",
            s.rounds,
            if s.shard != "0/1" { format!(", shard {}", s.shard) } else { String::new() }
        ));
    } else {
        parts.push("no match.json: the settings are unknown".to_string());
    }
    let played = m.rows.len();
    match m.scheduled() {
        Some(total) if (played as u64) < total => parts.push(format!("<b>partial: {played} of {total} games</b>")),
        Some(total) => parts.push(format!("{played} of {total} games")),
        None => parts.push(format!("{played} games")),
    }
    if let Some(t) = &m.torn {
        parts.push(esc(t));
    }
    parts.join(" · ")
}

fn fmt_elo(e: Option<stats::Elo>) -> String {
    match e {
        Some(e) => format!("{e}"),
        None => "no games".to_string(),
    }
}

/// Score, Elo with its 95% interval, LOS, pairs, and the reasons games ended.
fn score_section(m: &Match) -> String {
    let summary = Summary::of(&m.rows);
    let t = summary.tally;
    let n = t.games();
    let score = if n == 0 { 0.0 } else { (t.wins as f64 + t.draws as f64 / 2.0) / n as f64 };
    let mut s = String::from("<section id=\"score\">\n<h2>Score</h2>\n");
    let _ = writeln!(
        s,
        "<p class=\"big\"><span class=\"a\">{}</span> vs <span class=\"b\">{}</span>: <b>+{} ={} −{}</b> \
         ({:.1}% of {n} games)</p>",
        esc(&m.names[0]),
        esc(&m.names[1]),
        t.wins,
        t.draws,
        t.losses,
        100.0 * score
    );
    s.push_str("<table class=\"kv\">\n");
    let mut row = |k: &str, v: String| {
        let _ = writeln!(s, "<tr><th>{k}</th><td>{v}</td></tr>");
    };
    row("Elo difference (95% interval)", esc(&fmt_elo(stats::elo(&t))));
    row("LOS", format!("{:.1}%", 100.0 * stats::los(&t)));
    row("draw ratio", format!("{:.1}%", 100.0 * t.draws as f64 / n.max(1) as f64));
    let p = summary.pairs;
    row("pairs by A's pair score 0, ½, 1, 1½, 2", format!("{:?} ({} pairs)", p.0, p.pairs()));
    row("Elo from pairs (95% interval)", esc(&fmt_elo(stats::elo_pairs(&p))));
    let reasons: Vec<String> = summary.reasons.iter().map(|(r, c)| format!("{c} × {}", esc(r))).collect();
    row("how games ended", reasons.join("<br>"));
    s.push_str("</table>\n");
    let sprt = m.sprt.as_ref().map(|(s, _)| s);
    let names = [m.names[0].as_str(), m.names[1].as_str()];
    let _ = writeln!(
        s,
        "<details><summary>as <code>sente arena merge</code> prints it</summary><pre>{}</pre></details>",
        esc(&summary.report(names, sprt))
    );
    s.push_str("</section>\n");
    s
}

/// The replay's frame: the controls, the boards (drawn by the script), the move.
fn replay_section(m: &Match) -> String {
    let class = if m.kind == Some(GameKind::PHANTOM_GO) { " class=\"wide\"" } else { "" };
    let mut s = format!("<section id=\"replay\"{class}>\n<h2>Replay</h2>\n");
    if m.rows.is_empty() {
        s.push_str("<p class=\"note\">no games finished yet.</p>\n");
    }
    s.push_str(
        "<div class=\"controls\"><select id=\"game-picker\" aria-label=\"game\"></select>\
         <button id=\"first\" title=\"first (Home)\">|&#9664;</button>\
         <button id=\"prev\" title=\"previous (&#8592;)\">&#9664;</button>\
         <button id=\"next\" title=\"next (&#8594;)\">&#9654;</button>\
         <button id=\"last\" title=\"last (End)\">&#9654;|</button>\
         <input type=\"range\" id=\"frame-slider\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"move\">\
         <span id=\"frame-label\"></span></div>\n<div id=\"boards\"></div>\n<div id=\"move-info\"></div>\n",
    );
    let mut hint = String::from(
        "Keys: &#8592; &#8594; step, Home and End go to the start and the end, PageUp and PageDown to the previous \
         and next game; the game pairs' links open a game. Every position was computed by sente's rules code from \
         the game's record.",
    );
    match m.kind {
        Some(k) if k == GameKind::PHANTOM_GO => hint.push_str(
            " One frame per try. The referee's board is the true game (red squares: stones just captured). A \
             player's view is what the rules let it know: its own stones, the opponent stones it has learned \
             (OpenSpiel rules: those its refused tries ran into; CCGC rules: none), its refused tries of the turn \
             (red &#215;), and the points of the last capture it was told of (purple squares).",
        ),
        Some(k) if k == GameKind::CHAOS_CLOCK => hint.push_str(
            " Points 1 to 12 clockwise, 12 at the top; 甲 Jia's odd pieces are red, 乙 Yi's even ones blue; a piece \
             on its own number (fixed) has a gold ring, the piece walked last a dashed one, the last move's point a \
             red one.",
        ),
        Some(k) if k == GameKind::GO => hint.push_str(" Red squares: stones just captured."),
        _ => {}
    }
    let _ = writeln!(s, "<p class=\"hint\">{hint}</p>\n</section>");
    s
}

/// The statistics after each game, in the order the games ended.
struct Course {
    /// (games, A's score in %, its 95% interval in %).
    score: Vec<(f64, f64, f64, f64)>,
    /// (games, LLR).
    llr: Vec<(f64, f64)>,
}

fn course(rows: &[GameRecord], sprt: Option<&Sprt>) -> Course {
    let mut tally = Tally::default();
    let mut pairs = Pentanomial::default();
    let mut open: HashMap<u64, f64> = HashMap::new();
    let mut c = Course { score: Vec::new(), llr: Vec::new() };
    for (i, r) in rows.iter().enumerate() {
        tally.add(r.score_a);
        if let Some(first) = open.remove(&(r.game / 2)) {
            pairs.add(first, r.score_a);
        } else {
            open.insert(r.game / 2, r.score_a);
        }
        let x = (i + 1) as f64;
        if let Some(e) = stats::elo(&tally) {
            let pct = |elo: f64| 100.0 * stats::score_of_elo(elo);
            c.score.push((x, pct(e.elo), pct(e.lower), pct(e.upper)));
        }
        if let Some(sprt) = sprt {
            // As the arena's summary: from the game pairs once there are any.
            let llr = if pairs.pairs() > 0 { sprt.llr_pairs(&pairs) } else { sprt.llr(&tally) };
            c.llr.push((x, llr));
        }
    }
    c
}

/// The SPRT's LLR game by game with its bounds, or (without an SPRT) the score's course.
fn sprt_section(m: &Match) -> String {
    let sprt = m.sprt.as_ref().map(|(s, _)| s);
    let c = course(&m.rows, sprt);
    let mut s = String::from("<section id=\"sprt\">\n<h2>SPRT</h2>\n");
    match &m.sprt {
        Some((sprt, from)) => {
            let (lower, upper) = sprt.bounds();
            let last = c.llr.last().map_or(0.0, |p| p.1);
            let verdict = match sprt.verdict(last) {
                SprtVerdict::H1 => "H1 accepted",
                SprtVerdict::H0 => "H0 accepted",
                SprtVerdict::Continue => "undecided",
            };
            let decided = c.llr.iter().find(|(_, llr)| sprt.verdict(*llr) != SprtVerdict::Continue);
            let _ = writeln!(
                s,
                "<p>{:?} Elo, elo0 = {}, elo1 = {}, α = {}, β = {} (from {from}): LLR <b>{last:.2}</b> in ({lower:.2}, \
                 {upper:.2}): <b>{verdict}</b>{}. The LLR is of the game pairs once a pair is complete, as the arena \
                 computes it.</p>",
                sprt.model,
                sprt.elo0,
                sprt.elo1,
                sprt.alpha,
                sprt.beta,
                decided.map_or(String::new(), |(g, _)| format!(", first decided after game {g}"))
            );
            let plot = Plot {
                id: "llr-plot",
                title: "log-likelihood ratio after each game".into(),
                x_label: "games finished".into(),
                y_label: "LLR".into(),
                series: vec![Series { label: "LLR".into(), class: "s-llr", points: c.llr.clone() }],
                band: None,
                rules: vec![
                    Rule { y: upper, label: format!("H1 {upper:.2}"), class: "r-h1" },
                    Rule { y: 0.0, label: String::new(), class: "r-zero" },
                    Rule { y: lower, label: format!("H0 {lower:.2}"), class: "r-h0" },
                ],
                y_floor: None,
            };
            s.push_str(&plot.render());
        }
        None => s.push_str(
            "<p class=\"note\">no SPRT: the match had none in its settings and none was given (<code>sente arena \
             report DIR --sprt elo0,elo1</code> plots one). The score's course is below.</p>\n",
        ),
    }
    let points: Vec<(f64, f64)> = c.score.iter().map(|&(x, y, _, _)| (x, y)).collect();
    let band: Vec<(f64, f64, f64)> = c.score.iter().map(|&(x, _, lo, hi)| (x, lo, hi)).collect();
    let plot = Plot {
        id: "score-plot",
        title: format!("score of {} after each game, with its 95% interval", m.names[0]),
        x_label: "games finished".into(),
        y_label: "score %".into(),
        series: vec![Series { label: format!("{} score", m.names[0]), class: "s-a", points }],
        band: Some(band),
        rules: vec![Rule { y: 50.0, label: "50%".into(), class: "r-zero" }],
        y_floor: Some(0.0),
    };
    s.push_str(&plot.render());
    s.push_str("</section>\n");
    s
}

/// One engine's time (and reports) over its moves.
#[derive(Default)]
struct EngineTime {
    moves: u64,
    total_ms: u64,
    max_ms: u64,
    depth: (u64, u64),
    nodes: (u64, u64),
    /// ply → (moves, total ms).
    by_ply: BTreeMap<usize, (u64, u64)>,
}

/// Time per move of each engine, from the results' per-move data.
fn time_section(m: &Match) -> String {
    let mut s = String::from("<section id=\"time\">\n<h2>Time per move</h2>\n");
    let mut engines: [EngineTime; 2] = Default::default();
    for r in &m.rows {
        for p in &r.plies {
            let name = if p.seat == 0 { &r.first } else { &r.second };
            let e = &mut engines[m.engine_index(name)];
            e.moves += 1;
            e.total_ms = e.total_ms.saturating_add(p.ms);
            e.max_ms = e.max_ms.max(p.ms);
            if let Some(d) = p.depth {
                e.depth = (e.depth.0.saturating_add(u64::from(d)), e.depth.1 + 1);
            }
            if let Some(n) = p.nodes {
                e.nodes = (e.nodes.0.saturating_add(n), e.nodes.1 + 1);
            }
            let slot = e.by_ply.entry(p.ply).or_default();
            *slot = (slot.0 + 1, slot.1.saturating_add(p.ms));
        }
    }
    if engines.iter().all(|e| e.moves == 0) {
        s.push_str(
            "<p class=\"note\">no per-move data: these results have no <code>plies</code> (written by an older \
             sente, or by engines that were asked for no move).</p>\n</section>\n",
        );
        return s;
    }
    let series = (0..2)
        .map(|i| Series {
            label: format!("{} mean ms", m.names[i]),
            class: if i == 0 { "s-a" } else { "s-b" },
            points: engines[i].by_ply.iter().map(|(&ply, &(n, ms))| (ply as f64, ms as f64 / n as f64)).collect(),
        })
        .filter(|s| !s.points.is_empty())
        .collect();
    let unit = if m.kind == Some(GameKind::PHANTOM_GO) { "try" } else { "move" };
    let plot = Plot {
        id: "time-plot",
        title: format!("mean time per {unit} by ply"),
        x_label: if m.kind == Some(GameKind::PHANTOM_GO) { "tries before this one" } else { "ply" }.into(),
        y_label: "ms".into(),
        series,
        band: None,
        rules: Vec::new(),
        y_floor: Some(0.0),
    };
    s.push_str(&plot.render());
    s.push_str(
        "<table class=\"grid\">\n<tr><th>engine</th><th>moves</th><th>mean ms</th><th>max ms</th><th>mean \
         depth</th><th>mean nodes</th></tr>\n",
    );
    for (i, e) in engines.iter().enumerate() {
        let mean =
            |(sum, n): (u64, u64)| if n == 0 { "–".to_string() } else { format!("{:.1}", sum as f64 / n as f64) };
        let _ = writeln!(
            s,
            "<tr><td class=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if i == 0 { "a" } else { "b" },
            esc(&m.names[i]),
            e.moves,
            mean((e.total_ms, e.moves)),
            e.max_ms,
            mean(e.depth),
            mean(e.nodes)
        );
    }
    s.push_str("</table>\n</section>\n");
    s
}

/// A game's result for engine A, as a cell of the pairs table.
fn game_cell(r: Option<&GameRecord>) -> String {
    match r {
        None => "<td class=\"missing\">not played</td>".to_string(),
        Some(r) => {
            let class = if r.score_a > 0.75 {
                "win"
            } else if r.score_a < 0.25 {
                "loss"
            } else {
                "draw"
            };
            let score = r.score.as_deref().map_or(String::new(), |s| format!(" {}", esc(s)));
            format!(
                "<td class=\"{class}\"><a href=\"#g={}\">game {}</a>: {} – {} <b>{}</b>{score}<br>\
                 <small>{}</small></td>",
                r.game,
                r.game,
                esc(&r.first),
                esc(&r.second),
                esc(&r.result),
                esc(&r.reason)
            )
        }
    }
}

/// The results of each game pair (one opening played with both colour assignments).
fn pairs_section(m: &Match) -> String {
    let mut by_pair: BTreeMap<u64, [Option<&GameRecord>; 2]> = BTreeMap::new();
    for r in &m.rows {
        by_pair.entry(r.game / 2).or_default()[(r.game % 2) as usize] = Some(r);
    }
    let mut s = String::from("<section id=\"pairs\">\n<h2>Game pairs</h2>\n");
    let _ = writeln!(
        s,
        "<p>Each opening is played twice, the engines swapping seats; the pair score is {}'s (0 to 2).</p>",
        esc(&m.names[0])
    );
    s.push_str(
        "<table class=\"grid\">\n<tr><th>pair</th><th>opening</th><th>first game</th><th>second game</th>\
         <th>pair score</th></tr>\n",
    );
    for (pair, games) in &by_pair {
        let opening = games.iter().flatten().next().map_or(0, |r| r.opening);
        let score = match games {
            [Some(a), Some(b)] => fmt_points(a.score_a + b.score_a),
            _ => "–".to_string(),
        };
        let _ = writeln!(
            s,
            "<tr><td>{pair}</td><td>{opening}</td>{}{}<td class=\"num\">{score}</td></tr>",
            game_cell(games[0]),
            game_cell(games[1])
        );
    }
    s.push_str("</table>\n</section>\n");
    s
}

/// 1½-style points.
fn fmt_points(p: f64) -> String {
    let whole = p.floor();
    let half = p - whole >= 0.25;
    match (whole as u64, half) {
        (0, true) => "½".into(),
        (w, true) => format!("{w}½"),
        (w, false) => w.to_string(),
    }
}

// ---------------------------------------------------------------------------------
// Plots: SVG written here.

/// A line of a plot.
struct Series {
    label: String,
    /// CSS class (its colour).
    class: &'static str,
    points: Vec<(f64, f64)>,
}

/// A horizontal line across a plot.
struct Rule {
    y: f64,
    label: String,
    class: &'static str,
}

/// A line plot.
struct Plot {
    id: &'static str,
    title: String,
    x_label: String,
    y_label: String,
    series: Vec<Series>,
    /// A shaded band (x, low, high) under the first series.
    band: Option<Vec<(f64, f64, f64)>>,
    rules: Vec<Rule>,
    /// The lowest value the y axis shows (times are not negative).
    y_floor: Option<f64>,
}

/// A step of 1, 2 or 5 times a power of ten giving about `target` intervals over `span`.
fn nice_step(span: f64, target: f64) -> f64 {
    let raw = (span / target).max(f64::MIN_POSITIVE);
    let magnitude = 10f64.powf(raw.log10().floor());
    let norm = raw / magnitude;
    let nice = if norm < 1.5 {
        1.0
    } else if norm < 3.0 {
        2.0
    } else if norm < 7.0 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// The multiples of `step` from `lo` to `hi` (a few hundred at most, so that crafted
/// results whose values dwarf the step cannot make the loop endless).
fn ticks(lo: f64, hi: f64, step: f64) -> impl Iterator<Item = f64> {
    let first = (lo / step).ceil();
    let last = (hi / step + 1e-6).floor();
    let count = if (last - first).is_finite() { (last - first).clamp(-1.0, 400.0) as i64 } else { -1 };
    (0..=count).map(move |i| (first + i as f64) * step)
}

/// A tick's label with as many decimals as the step needs.
fn tick_text(v: f64, step: f64) -> String {
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let v = if v.abs() < step * 1e-9 { 0.0 } else { v };
    format!("{v:.decimals$}")
}

/// The range of values, widened when it is a single value.
fn range(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) =
        values.filter(|v| v.is_finite()).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if lo > hi {
        return None;
    }
    if hi - lo < 1e-9 {
        let pad = if lo.abs() > 1.0 { lo.abs() * 0.1 } else { 1.0 };
        return Some((lo - pad, hi + pad));
    }
    Some((lo, hi))
}

impl Plot {
    const W: f64 = 560.0;
    const H: f64 = 250.0;
    const LEFT: f64 = 56.0;
    const RIGHT: f64 = 14.0;
    const TOP: f64 = 34.0;
    const BOTTOM: f64 = 40.0;

    fn render(&self) -> String {
        let all_points = self.series.iter().flat_map(|s| s.points.iter());
        let Some((x0, x1)) = range(all_points.clone().map(|p| p.0)) else {
            return format!("<p class=\"note\" id=\"{}\">{}: no data yet.</p>\n", self.id, esc(&self.title));
        };
        let ys = all_points
            .map(|p| p.1)
            .chain(self.rules.iter().filter(|r| !r.label.is_empty()).map(|r| r.y))
            .chain(self.band.iter().flatten().flat_map(|&(_, lo, hi)| [lo, hi]));
        let Some((y0, y1)) = range(ys) else { return String::new() };
        let (y0, y1) = match self.y_floor {
            Some(floor) if y0 < floor => (floor, y1.max(floor + 1.0)),
            _ => (y0, y1),
        };
        let ystep = nice_step(y1 - y0, 5.0);
        let (y0, y1) = ((y0 / ystep).floor() * ystep, (y1 / ystep).ceil() * ystep);
        let xstep = nice_step(x1 - x0, 6.0).max(if x1 - x0 >= 1.0 { 1.0 } else { 0.0 });
        let (pw, ph) = (Self::W - Self::LEFT - Self::RIGHT, Self::H - Self::TOP - Self::BOTTOM);
        let sx = |x: f64| Self::LEFT + (x - x0) / (x1 - x0) * pw;
        let sy = |y: f64| Self::TOP + (y1 - y.clamp(y0, y1)) / (y1 - y0) * ph;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "<svg class=\"plot\" id=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"{}\">",
            self.id,
            Self::W,
            Self::H,
            esc(&self.title)
        );
        let _ = writeln!(s, "<text class=\"title\" x=\"{}\" y=\"14\">{}</text>", Self::LEFT, esc(&self.title));
        // Grid and ticks.
        for y in ticks(y0, y1, ystep) {
            let py = sy(y);
            let _ = writeln!(
                s,
                "<line class=\"grid\" x1=\"{:.1}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\"/><text class=\"tick\" \
                 x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                Self::LEFT,
                Self::LEFT + pw,
                Self::LEFT - 4.0,
                py + 4.0,
                tick_text(y, ystep)
            );
        }
        for x in ticks(x0, x1, xstep) {
            let px = sx(x);
            let _ = writeln!(
                s,
                "<line class=\"grid\" x1=\"{px:.1}\" y1=\"{:.1}\" x2=\"{px:.1}\" y2=\"{:.1}\"/><text class=\"tick\" \
                 x=\"{px:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                Self::TOP,
                Self::TOP + ph,
                Self::TOP + ph + 14.0,
                tick_text(x, xstep)
            );
        }
        let _ = writeln!(
            s,
            "<rect class=\"frame\" x=\"{}\" y=\"{}\" width=\"{pw}\" height=\"{ph}\"/>",
            Self::LEFT,
            Self::TOP
        );
        let _ = writeln!(
            s,
            "<text class=\"axis\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            Self::LEFT + pw / 2.0,
            Self::H - 6.0,
            esc(&self.x_label)
        );
        let _ = writeln!(
            s,
            "<text class=\"axis\" transform=\"translate(14 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            Self::TOP + ph / 2.0,
            esc(&self.y_label)
        );
        if let Some(band) = &self.band
            && !band.is_empty()
        {
            let mut d = String::new();
            for (i, &(x, _, hi)) in band.iter().enumerate() {
                let _ = write!(d, "{}{:.1},{:.1} ", if i == 0 { "M" } else { "L" }, sx(x), sy(hi));
            }
            for &(x, lo, _) in band.iter().rev() {
                let _ = write!(d, "L{:.1},{:.1} ", sx(x), sy(lo));
            }
            let _ = writeln!(s, "<path class=\"band\" d=\"{}Z\"/>", d);
        }
        for r in &self.rules {
            if r.y < y0 || r.y > y1 {
                continue;
            }
            let py = sy(r.y);
            let _ = writeln!(
                s,
                "<line class=\"rule {}\" x1=\"{:.1}\" y1=\"{py:.1}\" x2=\"{:.1}\" y2=\"{py:.1}\"/>",
                r.class,
                Self::LEFT,
                Self::LEFT + pw
            );
            if !r.label.is_empty() {
                let _ = writeln!(
                    s,
                    "<text class=\"rule-label {}\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
                    r.class,
                    Self::LEFT + pw - 4.0,
                    py - 4.0,
                    esc(&r.label)
                );
            }
        }
        let mut legend_x = Self::LEFT;
        for series in &self.series {
            let mut d = String::new();
            for (i, &(x, y)) in series.points.iter().enumerate() {
                let _ = write!(d, "{}{:.1},{:.1}", if i == 0 { "M" } else { " L" }, sx(x), sy(y));
            }
            let _ = writeln!(s, "<path class=\"series {}\" d=\"{d}\"/>", series.class);
            if let [(x, y)] = series.points[..] {
                let _ = writeln!(
                    s,
                    "<circle class=\"dot {}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\"/>",
                    series.class,
                    sx(x),
                    sy(y)
                );
            }
            let _ = writeln!(
                s,
                "<line class=\"series {}\" x1=\"{legend_x:.1}\" y1=\"26\" x2=\"{:.1}\" y2=\"26\"/>\
                 <text class=\"legend\" x=\"{:.1}\" y=\"30\">{}</text>",
                series.class,
                legend_x + 18.0,
                legend_x + 22.0,
                esc(&series.label)
            );
            legend_x += 30.0 + 6.5 * series.label.chars().count() as f64;
        }
        s.push_str("</svg>\n");
        s
    }
}

// ---------------------------------------------------------------------------------
// Replays: every position computed here with our rules, drawn by the page's script.

/// What the page's script reads.
#[derive(Serialize)]
struct ReportData {
    games: Vec<Replay>,
    /// The names of the seats (black/white, 乙/甲).
    seats: [&'static str; 2],
}

/// One game to replay.
#[derive(Serialize)]
struct Replay {
    game: u64,
    /// `othello`, `go`, `phantomgo`, `chaosclock`.
    kind: &'static str,
    /// Board side (Chaos Clock: 12 points).
    size: usize,
    /// The picker's line.
    title: String,
    /// The engines in the first and second seat.
    players: [String; 2],
    /// The captions of the boards drawn side by side.
    boards: Vec<String>,
    /// Why the record could not be replayed (whole or in part).
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    frames: Vec<Frame>,
}

/// One position of a game, and the move that led to it.
#[derive(Serialize, Default)]
struct Frame {
    /// The boards: Othello and Go one string of cells from the top-left (`X` black,
    /// `O` white, `-` or `.` empty); Phantom Go three (the referee's, black's view,
    /// white's view); Chaos Clock the piece on each point 1..12, comma-separated.
    b: Vec<String>,
    /// The move that led here (absent at the start).
    #[serde(skip_serializing_if = "String::is_empty")]
    m: String,
    /// The seat that made it: 0 first, 1 second.
    #[serde(skip_serializing_if = "Option::is_none")]
    s: Option<u8>,
    /// The cell (Chaos Clock: the point 1..12) the move landed on.
    #[serde(skip_serializing_if = "Option::is_none")]
    at: Option<usize>,
    /// Marks per board: (cell, kind): `c` captured here, `r` refused this turn, `t`
    /// the points of the last capture the player was told of.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    x: Vec<Vec<(usize, char)>>,
    /// The position in words (counts, captures, side to move).
    t: String,
    /// Pieces drawn (stones, discs, pieces on the dial), for the page's self-test.
    k: usize,
    /// A move of the opening (not chosen by the engines).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    o: bool,
    /// Milliseconds the engine took.
    #[serde(skip_serializing_if = "Option::is_none")]
    ms: Option<u64>,
    /// The engine's score, for the side it moved for.
    #[serde(skip_serializing_if = "Option::is_none")]
    sc: Option<f64>,
    /// Search depth.
    #[serde(skip_serializing_if = "Option::is_none")]
    d: Option<u32>,
    /// Nodes or playouts.
    #[serde(skip_serializing_if = "Option::is_none")]
    n: Option<u64>,
    /// The record's annotation of the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    c: Option<String>,
    /// Chaos Clock: the hands of 乙 and 甲.
    #[serde(skip_serializing_if = "Option::is_none")]
    h: Option<[Vec<u8>; 2]>,
    /// Chaos Clock: the piece just walked (0 none).
    #[serde(skip_serializing_if = "Option::is_none")]
    w: Option<u8>,
}

impl Frame {
    fn with_stat(mut self, stat: Option<&MoveStat>) -> Frame {
        if let Some(p) = stat {
            self.ms = Some(p.ms);
            self.sc = p.score;
            self.d = p.depth;
            self.n = p.nodes;
        }
        self
    }
}

/// The frames of a record, and a note when the replay stopped early.
type Frames = (Vec<Frame>, Option<String>);

fn replays(m: &Match) -> Vec<Replay> {
    let mut rows: Vec<&GameRecord> = m.rows.iter().collect();
    rows.sort_by_key(|r| r.game);
    let seats = seat_names(m.kind);
    let opening_plies = match m.settings.as_ref().map(|s| &s.openings) {
        Some(OpeningSettings::Random { plies, .. }) => Some(*plies),
        _ => None,
    };
    rows.into_iter()
        .map(|r| {
            let kind = m.kind.or_else(|| kind_of_record(&m.dir, r));
            let score = r.score.as_deref().map_or(String::new(), |s| format!(" {s}"));
            let title = format!("game {}: {} – {}, {}{score} ({})", r.game, r.first, r.second, r.result, r.reason);
            let players = [r.first.clone(), r.second.clone()];
            let (size, boards) = match kind {
                Some(k) if k == GameKind::PHANTOM_GO => (
                    PHANTOM_SIZE,
                    vec![
                        "the referee's board".to_string(),
                        format!("black's view ({})", r.first),
                        format!("white's view ({})", r.second),
                    ],
                ),
                Some(k) if k == GameKind::CHAOS_CLOCK => (12, vec![format!("乙 Yi {} – 甲 Jia {}", r.first, r.second)]),
                Some(k) if k == GameKind::OTHELLO => {
                    (8, vec![format!("{} {} – {} {}", seats[0], r.first, seats[1], r.second)])
                }
                _ => {
                    (m.settings.as_ref().map_or(9, |s| s.size), vec![format!("black {} – white {}", r.first, r.second)])
                }
            };
            let opening = opening_plies.or_else(|| r.plies.iter().map(|p| p.ply).min());
            let (frames, error, size) = match replay_record(&m.dir, r, kind, opening) {
                Ok(((frames, note), size_read)) => (frames, note, size_read.unwrap_or(size)),
                Err(e) => (Vec::new(), Some(format!("{e:#}")), size),
            };
            Replay {
                game: r.game,
                kind: kind.map_or("unknown", GameKind::name),
                size,
                title,
                players,
                boards,
                error,
                frames,
            }
        })
        .collect()
}

/// Reads and replays one game's record; with the board size the record gives.
fn replay_record(
    dir: &Path,
    r: &GameRecord,
    kind: Option<GameKind>,
    opening: Option<usize>,
) -> Result<(Frames, Option<usize>)> {
    let Some(file) = r.record.as_deref() else { bail!("no record was written for this game") };
    let path = dir.join(file);
    let text = fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let by_ply = |p: usize| stat_at(&r.plies, p);
    let is_opening = |p: usize| opening.is_some_and(|o| p < o);
    let at = |e: anyhow::Error| e.context(path.display().to_string());
    Ok(match kind {
        Some(k) if k == GameKind::OTHELLO => (othello_frames(&text, &by_ply, &is_opening).map_err(at)?, Some(8)),
        Some(k) if k == GameKind::GO => {
            let (frames, size) = go_frames(&text, &by_ply, &is_opening).map_err(at)?;
            (frames, Some(size))
        }
        Some(k) if k == GameKind::CHAOS_CLOCK => (clock_frames(&text, &by_ply).map_err(at)?, Some(12)),
        Some(k) if k == GameKind::PHANTOM_GO => (phantom_frames(&text, &r.plies).map_err(at)?, Some(PHANTOM_SIZE)),
        Some(k) => {
            bail!("{}: the report draws no {} boards (the record is kept as it is)", path.display(), k.spec().title())
        }
        None => bail!("{}: the game is unknown (no match.json, and a record of no known kind)", path.display()),
    })
}

/// Othello frames from a GGF record (moves with `/eval/time` annotations too; a move
/// by the side not to move is preceded by the pass it implies).
fn othello_frames<'a>(
    text: &str,
    stat: &dyn Fn(usize) -> Option<&'a MoveStat>,
    opening: &dyn Fn(usize) -> bool,
) -> Result<Frames> {
    let g = ggf::parse(text).map_err(|e| anyhow::anyhow!("not a GGF game: {e}"))?;
    if g.size != 8 {
        bail!("a {0}×{0} game: the report replays 8×8 Othello", g.size);
    }
    let mut pos = match &g.board {
        Some(squares) => {
            let side = if g.black_to_move { 'X' } else { 'O' };
            Position::<Board>::parse(&format!("{squares} {side}")).map_err(|e| anyhow::anyhow!("bad BO: {e}"))?
        }
        None => Position::start(),
    };
    let frame_of = |pos: &Position<Board>| {
        let b: String = (0..64)
            .map(|sq| match pos.color_at(sq) {
                Some(othello::Color::BLACK) => 'X',
                Some(_) => 'O',
                None => '-',
            })
            .collect();
        let (black, white) = (pos.count(othello::Color::BLACK), pos.count(othello::Color::WHITE));
        let t = match pos.result() {
            Some(r) => {
                let (b, w) = r.wof_counts();
                format!("black {black} · white {white} · game over {b}-{w}")
            }
            None => format!(
                "black {black} · white {white} · {} to move",
                if pos.side_to_move() == othello::Color::BLACK { "black" } else { "white" }
            ),
        };
        Frame { b: vec![b], t, k: (black + white) as usize, ..Frame::default() }
    };
    let mut frames = vec![frame_of(&pos)];
    for m in &g.moves {
        let mv = othello::Move::parse(&m.text, 8).map_err(|e| anyhow::anyhow!("move {}: {e}", frames.len()))?;
        let black_to_move = pos.side_to_move() == othello::Color::BLACK;
        if m.black != black_to_move && mv != othello::Move::Pass {
            // The pass the record leaves out.
            match pos.play(othello::Move::Pass) {
                Ok(next) => {
                    let seat = u8::from(!black_to_move);
                    let ply = frames.len() - 1;
                    pos = next;
                    let f = Frame { m: "pass (implied)".into(), s: Some(seat), o: opening(ply), ..frame_of(&pos) };
                    frames.push(f.with_stat(stat(ply)));
                }
                Err(e) => {
                    let why = format!("move {} {} out of turn: {e}", frames.len(), m.text);
                    return Ok((frames, Some(why)));
                }
            }
        }
        let seat = u8::from(pos.side_to_move() != othello::Color::BLACK);
        let before = pos;
        pos = match pos.play(mv) {
            Ok(p) => p,
            Err(e) => {
                let why = format!("move {} {} is illegal: {e}", frames.len(), m.text);
                return Ok((frames, Some(why)));
            }
        };
        let ply = frames.len() - 1;
        let mut f = Frame { m: mv.name(8), s: Some(seat), o: opening(ply), ..frame_of(&pos) };
        if let othello::Move::Play(sq) = mv {
            f.at = Some(sq as usize);
            let flipped = (0..64)
                .filter(|&q| q != sq as usize && before.color_at(q).is_some_and(|c| Some(c) != pos.color_at(q)))
                .count();
            f.t = format!("{flipped} flipped · {}", f.t);
        }
        let note: Vec<String> =
            [m.eval.map(|e| format!("eval {e:+}")), m.time.map(|t| format!("{t} s"))].into_iter().flatten().collect();
        if !note.is_empty() {
            f.c = Some(note.join(", "));
        }
        frames.push(f.with_stat(stat(ply)));
    }
    Ok((frames, None))
}

/// A Go board as one string of cells from the top-left.
fn go_cells(board: &go::Board) -> (String, usize) {
    let size = board.size();
    let mut k = 0;
    let cells = go::points(size)
        .map(|p| match board.at(p) {
            Some(Color::BLACK) => {
                k += 1;
                'X'
            }
            Some(_) => {
                k += 1;
                'O'
            }
            None => '.',
        })
        .collect();
    (cells, k)
}

/// The cell index of a Go point on a board of side `size`.
fn cell(p: Point, size: usize) -> usize {
    p.row() * size + p.col()
}

/// Go frames from an SGF record (moves with `C[]` comments too).
fn go_frames<'a>(
    text: &str,
    stat: &dyn Fn(usize) -> Option<&'a MoveStat>,
    opening: &dyn Fn(usize) -> bool,
) -> Result<(Frames, usize)> {
    let sgf = go::sgf::parse(text).map_err(|e| anyhow::anyhow!("not an SGF game: {e}"))?;
    if !(2..=go::MAX_SIZE).contains(&sgf.size) {
        bail!("a {0}×{0} game: the report replays Go up to {1}×{1}", sgf.size, go::MAX_SIZE);
    }
    let size = sgf.size;
    let board = sgf.start_board().map_err(|e| anyhow::anyhow!("not a Go position: {e}"))?;
    let mut game = go::Game::new(board, sgf.komi.unwrap_or(7.0), go::Superko::Positional);
    let comments = &sgf.move_comments;
    let frame_of = |b: &go::Board, to_move: Option<Color>| {
        let (cells, k) = go_cells(b);
        let mut t = format!("captured by black {}, by white {}", b.prisoners(Color::BLACK), b.prisoners(Color::WHITE));
        match to_move {
            Some(c) => t.push_str(&format!(" · {} to move", if c == Color::BLACK { "black" } else { "white" })),
            None => t.push_str(" · two passes: the game is over"),
        }
        Frame { b: vec![cells], t, k, ..Frame::default() }
    };
    let mut frames = vec![frame_of(game.board(), Some(game.board().to_move()))];
    for (i, &(color, mv)) in sgf.moves.iter().enumerate() {
        let before = *game.board();
        if let Err(e) = game.play(color, mv) {
            return Ok(((frames, Some(format!("move {} ({}) is illegal: {e}", i + 1, mv.to_gtp(size)))), size));
        }
        let after = *game.board();
        let over = game.is_over();
        let mut f = frame_of(&after, (!over).then(|| color.other()));
        f.m = mv.to_gtp(size);
        f.s = Some(color.index() as u8);
        f.o = opening(i);
        if let go::Move::Play(p) = mv {
            f.at = Some(cell(p, size));
        }
        let taken = before.stones(color.other()) & !after.stones(color.other());
        if taken != 0 {
            let marks: Vec<(usize, char)> = go::bits(taken).map(|p| (cell(p, size), 'c')).collect();
            f.t = format!("{} captured · {}", marks.len(), f.t);
            f.x = vec![marks];
        }
        f.c = comments.get(i).cloned().flatten();
        frames.push(f.with_stat(stat(i)));
    }
    Ok(((frames, None), size))
}

/// Chaos Clock frames from the arena's text record: `start <position>`, `moves …`
/// (other lines: the players, the result; `ply N <move> <annotation>` lines annotate
/// move N; lines not known are skipped).
fn clock_frames<'a>(text: &str, stat: &dyn Fn(usize) -> Option<&'a MoveStat>) -> Result<Frames> {
    let mut start = None;
    let mut moves: Vec<&str> = Vec::new();
    let mut notes: HashMap<usize, String> = HashMap::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(pos) = line.strip_prefix("start ") {
            start = Some(cc::State::parse(pos).map_err(|e| anyhow::anyhow!("bad start '{pos}': {e}"))?);
        } else if let Some(list) = line.strip_prefix("moves") {
            moves = list.split_whitespace().collect();
        } else if let Some(rest) = line.strip_prefix("ply ") {
            let mut words = rest.splitn(3, ' ');
            if let (Some(n), Some(_mv), Some(note)) = (words.next(), words.next(), words.next())
                && let Ok(n) = n.parse::<usize>()
            {
                notes.insert(n, note.to_string());
            }
        }
    }
    let Some(start) = start else { bail!("no 'start <position>' line: not a Chaos Clock record") };
    let mut record = ClockRecord::new(start);
    let frame_of = |s: &cc::State| {
        let points: Vec<String> = (1..=12u8).map(|p| s.at(p).to_string()).collect();
        let hand = |side: cc::Side| (1..=12u8).filter(|n| s.hand(side) >> n & 1 == 1).collect::<Vec<u8>>();
        let k = (1..=12u8).filter(|&p| s.at(p) != 0).count();
        let fixed = |side: cc::Side| (1..=12u8).filter(|&n| side.owns_piece(n) && s.is_fixed(n)).count();
        let mut t = format!("fixed: 乙 {} of 6, 甲 {} of 6 · ", fixed(cc::Side::YI), fixed(cc::Side::JIA));
        match s.outcome() {
            Some(bitboards::Outcome::Win(side)) => t.push_str(&format!("game over: {} wins", side.side_name())),
            Some(bitboards::Outcome::BothWin) => t.push_str("game over: both win"),
            Some(_) => t.push_str("game over: both lose"),
            None => {
                t.push_str(&format!("{} to move", s.to_move().side_name()));
                if s.is_extra_move() {
                    t.push_str(" (an extra move)");
                }
                if let Some(c) = s.completed() {
                    t.push_str(&format!("; {} has completed: the last move", c.side_name()));
                }
            }
        }
        Frame {
            b: vec![points.join(",")],
            t,
            k,
            h: Some([hand(cc::Side::YI), hand(cc::Side::JIA)]),
            w: Some(s.just_walked()),
            ..Frame::default()
        }
    };
    let mut frames = vec![frame_of(&record.state())];
    for (i, text) in moves.iter().enumerate() {
        let before = record.state();
        let mv = match cc::Move::parse(text) {
            Ok(mv) => mv,
            Err(e) => return Ok((frames, Some(format!("move {}: {e}", i + 1)))),
        };
        if let Err(e) = record.play(mv) {
            return Ok((frames, Some(format!("move {} {text} is illegal: {e}", i + 1))));
        }
        let after = record.state();
        let mut f = frame_of(&after);
        f.m = mv.to_string();
        f.s = Some(before.to_move().index() as u8);
        f.at = match mv {
            cc::Move::Walk(n) | cc::Move::Place(n) => after.point_of(n).map(usize::from),
            cc::Move::Pass => None,
        };
        let on = |s: &cc::State, n: u8| s.point_of(n).is_some();
        let captured: Vec<u8> =
            (1..=12u8).filter(|&n| on(&before, n) && !on(&after, n) && mv != cc::Move::Walk(n)).collect();
        if let Some(&n) = captured.first() {
            f.t = format!("captures {n} · {}", f.t);
        }
        f.c = notes.get(&(i + 1)).cloned();
        frames.push(f.with_stat(stat(i)));
    }
    Ok((frames, None))
}

/// How many tries of a Phantom Go text record the report replays, or why it stops
/// (the referee's board writes this record too, and its tests read it back here).
#[cfg(test)]
pub(crate) fn phantom_record_tries(text: &str) -> Result<usize, String> {
    match phantom_frames(text, &[]) {
        Ok((frames, None)) => Ok(frames.len() - 1),
        Ok((_, Some(problem))) => Err(problem),
        Err(e) => Err(e.to_string()),
    }
}

/// A view's marks: refused tries of the turn, the points of the last capture.
fn view_marks(v: &View) -> Vec<(usize, char)> {
    let mut marks: Vec<(usize, char)> = go::bits(v.refused()).map(|p| (cell(p, PHANTOM_SIZE), 'r')).collect();
    marks.extend(go::bits(v.last_captured()).map(|p| (cell(p, PHANTOM_SIZE), 't')));
    marks
}

/// Phantom Go frames, one per try, from the arena's text record (`# Phantom Go (ccgc
/// rules), komi 7.5` and one line per try: number, `B`/`W`, the point or `pass`, the
/// answer), replayed through our referee; each answer is checked against the record.
fn phantom_frames(text: &str, plies: &[MoveStat]) -> Result<Frames> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    let Some(rest) = header.strip_prefix("# Phantom Go (") else {
        bail!("not a Phantom Go record (its first line is not '# Phantom Go (<rules> rules), komi K')")
    };
    let rules = if rest.starts_with("openspiel") { PhantomRules::OpenSpiel } else { PhantomRules::Ccgc };
    let komi = match rest.split_once("komi ") {
        Some((_, k)) => go::parse_komi(k.trim()).map_err(|e| anyhow::anyhow!("komi '{k}': {e}"))?,
        None => 7.5,
    };
    let mut referee = Referee::new(PhantomConfig::for_rules(rules).with_komi(komi));
    let frame_of = |r: &Referee| {
        let full = go_cells(r.board());
        let views = [Color::BLACK, Color::WHITE].map(|c| r.view(c));
        let k = full.1 + views.iter().map(|v| v.board_text().chars().filter(|&c| c != '.').count()).sum::<usize>();
        let [b, w] = r.stone_counts();
        let t = format!(
            "black {b} stones, white {w} · captured by black {}, by white {} · {}",
            r.board().prisoners(Color::BLACK),
            r.board().prisoners(Color::WHITE),
            if r.is_over() {
                "the game is over".to_string()
            } else {
                format!("{} to try", if r.to_move() == Color::BLACK { "black" } else { "white" })
            }
        );
        Frame {
            b: vec![full.0, views[0].board_text(), views[1].board_text()],
            x: vec![Vec::new(), view_marks(views[0]), view_marks(views[1])],
            t,
            k,
            ..Frame::default()
        }
    };
    let mut frames = vec![frame_of(&referee)];
    // `# try N <annotation>` lines: what the engine said about try N.
    let mut notes: HashMap<usize, String> = HashMap::new();
    let lines: Vec<&str> = lines.collect();
    for line in &lines {
        if let Some(rest) = line.strip_prefix("# try ")
            && let Some((n, note)) = rest.split_once(' ')
            && let Ok(n) = n.parse::<usize>()
        {
            notes.insert(n, note.to_string());
        }
    }
    for line in lines.into_iter().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [_, color, vertex, answer, ..] = words[..] else {
            return Ok((frames, Some(format!("a line that is not a try: '{line}'"))));
        };
        let to_move = referee.to_move();
        if !color.starts_with(to_move.stone_letter()) {
            return Ok((frames, Some(format!("'{line}': {} was to try", to_move.stone_letter()))));
        }
        let mv = if vertex == "pass" {
            go::Move::Pass
        } else {
            match Point::from_gtp(vertex, PHANTOM_SIZE) {
                Ok(p) => go::Move::Play(p),
                Err(e) => return Ok((frames, Some(format!("'{line}': {e}")))),
            }
        };
        let a = match referee.try_move(mv) {
            Ok(a) => a,
            Err(e) => return Ok((frames, Some(format!("'{line}': {e}")))),
        };
        let expected = match a {
            Answer::Legal { .. } => "accepted",
            Answer::Passed => "pass",
            Answer::Illegal { .. } => "refused",
        };
        if !answer.starts_with(expected) {
            return Ok((frames, Some(format!("'{line}': our referee answers {expected}"))));
        }
        let mut f = frame_of(&referee);
        let told: Vec<&str> = words[3..].to_vec();
        f.m = format!("{vertex} {}", told.join(" "));
        f.s = Some(to_move.index() as u8);
        if let go::Move::Play(p) = mv {
            f.at = Some(cell(p, PHANTOM_SIZE));
        }
        if let Answer::Legal { captured } = a
            && captured != 0
        {
            f.x[0] = go::bits(captured).map(|p| (cell(p, PHANTOM_SIZE), 'c')).collect();
        }
        f.c = notes.get(&(frames.len())).cloned();
        // This try's data: the one asked for after the tries before it.
        let tries_before = frames.len() - 1;
        f = f.with_stat(stat_at(plies, tries_before));
        frames.push(f);
    }
    Ok((frames, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: u64, score_a: f64, plies: Vec<MoveStat>) -> GameRecord {
        let (first, second) = if game.is_multiple_of(2) { ("a", "b") } else { ("b", "a") };
        let first_won = (score_a > 0.5) == game.is_multiple_of(2);
        GameRecord {
            game,
            opening: game / 2,
            first: first.into(),
            second: second.into(),
            result: if score_a == 0.5 {
                "1/2-1/2"
            } else if first_won {
                "1-0"
            } else {
                "0-1"
            }
            .into(),
            score_a,
            reason: "game over".into(),
            score: None,
            moves: 4,
            note: None,
            record: Some(format!("games/{game:06}.ggf")),
            plies,
        }
    }

    /// A scratch folder of the test's own with a `games` folder (removed when the
    /// first value is dropped), and its path.
    fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::Builder::new().prefix(&format!("sente-report-unit-{name}-")).tempdir().expect("scratch");
        let dir = tmp.path().to_path_buf();
        fs::create_dir_all(dir.join("games")).expect("scratch folder");
        (tmp, dir)
    }

    #[test]
    fn sprt_option_reads_both_forms() {
        let a = parse_sprt("0,5", EloModel::Logistic).expect("positional");
        let b = parse_sprt("elo0=0 elo1=5", EloModel::Logistic).expect("key=value");
        assert_eq!(a, b);
        let c = parse_sprt("-10,10,0.1,0.2", EloModel::Normalized).expect("four numbers");
        assert_eq!((c.elo0, c.elo1, c.alpha, c.beta, c.model), (-10.0, 10.0, 0.1, 0.2, EloModel::Normalized));
        assert!(parse_sprt("5", EloModel::Logistic).is_err());
        assert!(parse_sprt("5,0", EloModel::Logistic).is_err());
    }

    #[test]
    fn the_course_ends_where_the_summary_does() {
        let rows: Vec<GameRecord> = [1.0, 0.0, 1.0, 0.5, 1.0, 1.0, 0.0, 1.0]
            .iter()
            .enumerate()
            .map(|(g, &s)| row(g as u64, s, vec![]))
            .collect();
        let sprt = parse_sprt("-20,20", EloModel::Logistic).expect("sprt");
        let c = course(&rows, Some(&sprt));
        assert_eq!(c.llr.len(), rows.len());
        let summary = Summary::of(&rows);
        assert!((c.llr.last().expect("points").1 - summary.llr(&sprt)).abs() < 1e-12);
        let e = stats::elo(&summary.tally).expect("games");
        let last = c.score.last().expect("points");
        assert!((last.1 - 100.0 * stats::score_of_elo(e.elo)).abs() < 1e-9);
        assert!(last.2 <= last.1 && last.1 <= last.3);
    }

    #[test]
    fn plots_scale_into_their_frame() {
        assert_eq!(nice_step(10.0, 5.0), 2.0);
        assert_eq!(nice_step(0.9, 5.0), 0.2);
        assert_eq!(tick_text(0.30000000000000004, 0.1), "0.3");
        let plot = Plot {
            id: "p",
            title: "t <&>".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            series: vec![Series { label: "s".into(), class: "s-a", points: vec![(1.0, 2.0), (2.0, 4.0), (3.0, -1.0)] }],
            band: None,
            rules: vec![Rule { y: 3.0, label: "r".into(), class: "r-h1" }],
            y_floor: None,
        };
        let svg = plot.render();
        assert!(svg.contains("t &lt;&amp;&gt;") && svg.contains("<path class=\"series s-a\" d=\"M"), "{svg}");
        // Every coordinate of the line is inside the plot's frame.
        let d = svg.split("d=\"M").nth(1).expect("a path").split('"').next().expect("its end");
        for xy in d.split(" L") {
            let (x, y) = xy.split_once(',').expect("x,y");
            let (x, y): (f64, f64) = (x.parse().expect("x"), y.parse().expect("y"));
            assert!((Plot::LEFT..=Plot::W - Plot::RIGHT).contains(&x), "{x}");
            assert!((Plot::TOP..=Plot::H - Plot::BOTTOM).contains(&y), "{y}");
        }
        let empty = Plot { series: vec![], ..plot };
        assert!(empty.render().contains("no data yet"));
    }

    #[test]
    fn an_annotated_othello_record_replays() {
        // The GGF parser's example, annotated.
        let text = "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]\
                    B[F5/1.5/0.2]W[F6//0.1]B[E6];)";
        let stats = [MoveStat { ply: 1, seat: 1, ms: 7, score: Some(-1.0), depth: Some(3), nodes: Some(99) }];
        let stat = |p: usize| stats.iter().find(|s| s.ply == p);
        let (frames, note) = othello_frames(text, &stat, &|p| p < 1).expect("replays");
        assert_eq!(note, None);
        assert_eq!(frames.len(), 4);
        assert_eq!(frames[0].k, 4);
        assert_eq!(frames[1].m, "f5");
        assert!(frames[1].o && !frames[2].o);
        assert_eq!(frames[1].c.as_deref(), Some("eval +1.5, 0.2 s"));
        assert_eq!((frames[2].ms, frames[2].d, frames[2].s), (Some(7), Some(3), Some(1)));
        assert_eq!(frames[3].k, 7);
        assert!(frames[1].t.starts_with("1 flipped"), "{}", frames[1].t);
    }

    #[test]
    fn a_folder_without_results_is_named_in_the_error() {
        let (_tmp, dir) = scratch("empty");
        let e = write(&ReportOptions { dir: dir.clone(), out: None, sprt: None }).expect_err("no results");
        let text = format!("{e:#}");
        assert!(text.contains(&dir.join("results.jsonl").display().to_string()), "{text}");
        let e = write(&ReportOptions { dir: dir.join("nope"), out: None, sprt: None }).expect_err("no folder");
        assert!(format!("{e:#}").contains("no such folder"), "{e:#}");
    }

    #[test]
    fn a_page_from_rows_with_plies_a_torn_line_and_a_missing_record() {
        let (_tmp, dir) = scratch("page");
        let plies = |seat0: u64| {
            (0..4).map(|p| MoveStat { ply: p, seat: p % 2, ms: seat0 + p as u64, ..MoveStat::default() }).collect()
        };
        let rows = [row(0, 1.0, plies(10)), row(1, 0.5, plies(20))];
        let mut text: String = rows.iter().map(|r| serde_json::to_string(r).expect("json") + "\n").collect();
        text.push_str("{\"game\":2,\"open");
        fs::write(dir.join("results.jsonl"), text).expect("write");
        fs::write(dir.join("games/000000.ggf"), "(;GM[Othello]B[F5]W[F6]B[E6]W[F4];)").expect("write");
        let sprt = parse_sprt("0,10", EloModel::Logistic).ok();
        let (path, games) = write(&ReportOptions { dir: dir.clone(), out: None, sprt }).expect("a report");
        assert_eq!((path, games), (dir.join(DEFAULT_FILE), 2));
        let html = fs::read_to_string(dir.join(DEFAULT_FILE)).expect("page");
        assert!(html.contains("id=\"llr-plot\"") && html.contains("id=\"time-plot\""), "{html}");
        assert!(html.contains("line 3 of results.jsonl is cut short"));
        assert!(html.contains("cannot read"), "game 1's record is missing");
        assert!(!html.contains("<script src") && !html.contains("<link"));
        // Engine A is 'a': its moves are seat 0 of game 0 and seat 1 of game 1.
        assert!(html.contains("<td class=\"a\">a</td><td>4</td>"), "{html}");
    }

    #[test]
    fn names_reasons_and_moves_cannot_break_out_of_the_page() {
        let (_tmp, dir) = scratch("hostile");
        let evil = "</script><!--<script>&\"'x";
        let mut r = row(0, 1.0, vec![]);
        r.first = evil.into();
        r.reason = format!("{evil} played an illegal move '<!--<script>'");
        let mut r2 = row(1, 0.0, vec![]);
        r2.second = evil.into();
        let text =
            format!("{}\n{}\n", serde_json::to_string(&r).expect("json"), serde_json::to_string(&r2).expect("json"));
        fs::write(dir.join("results.jsonl"), text).expect("write");
        let ggf = format!("(;GM[Othello]PB[{}]PW[b]B[F5]W[F6];)", evil.replace(']', "\\]"));
        fs::write(dir.join("games/000000.ggf"), ggf).expect("write");
        write(&ReportOptions { dir: dir.clone(), out: None, sprt: None }).expect("a report");
        let html = fs::read_to_string(dir.join(DEFAULT_FILE)).expect("page");
        assert!(!html.contains(evil) && !html.contains("<!--"), "the text is escaped everywhere");
        // Two script elements, the data and the code, each closed once.
        assert_eq!(html.matches("<script").count(), 2);
        assert_eq!(html.matches("</script>").count(), 2);
        let data = html.split("id=\"report-data\">").nth(1).and_then(|t| t.split("</script>").next()).expect("data");
        let value: serde_json::Value = serde_json::from_str(data).expect("the data is JSON");
        assert!(value.to_string().contains("<!--<script>"), "the data keeps the text as it was");
    }

    #[test]
    fn ticks_end_whatever_the_values() {
        assert_eq!(ticks(0.0, 10.0, 5.0).collect::<Vec<_>>(), [0.0, 5.0, 10.0]);
        assert_eq!(ticks(1.0, 4.0, 5.0).count(), 0);
        // Values too large for their step to move them, or not numbers at all.
        assert!(ticks(1e16, 1e16 + 2.0, 1.0).count() <= 401);
        assert_eq!(ticks(f64::NAN, 1.0, 1.0).count(), 0);
        assert!(ticks(0.0, f64::INFINITY, 1.0).count() <= 401);
    }
}
