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

mod plot;

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Serialize;

use self::plot::{Plot, Rule, Series};
use super::settings::{self, MatchSettings, OpeningSettings};
use super::stats::{self, EloModel, Pentanomial, Sprt, SprtVerdict, Tally};
use super::{GameRecord, Summary};
use crate::games::GameKind;
use crate::games::replay::{Frame, ReplayInput, ReportFace};

/// The page's style sheet.
const CSS: &str = include_str!("report/report.css");
/// The page: its head, its two columns, the data and the script, with `{{name}}`
/// where [`page`] fills in each part.
const PAGE: &str = include_str!("report/page.html");
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

/// The game of a result row, from its record (when the settings do not say): the
/// game that reads it as its own.
fn kind_of_record(dir: &Path, r: &GameRecord) -> Option<GameKind> {
    let file = r.record.as_deref()?;
    let text = fs::read_to_string(dir.join(file)).ok()?;
    GameKind::all().into_iter().find(|k| k.spec().reads_record(file, &text))
}

/// HTML-escapes text.
pub(super) fn esc(s: &str) -> String {
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

/// How the report shows a game (an unknown one as black and white).
fn face(kind: Option<GameKind>) -> ReportFace {
    kind.map_or_else(ReportFace::default, |k| k.spec().report_face())
}

/// The whole page.
fn page(m: &Match) -> String {
    let title = format!("{} vs {} — {}", m.names[0], m.names[1], game_title(m.kind));
    // Phantom Go's three boards side by side take the page's width.
    let wide = face(m.kind).wide;
    let replay = replay_section(m);
    let (wide_replay, replay) = if wide { (replay, String::new()) } else { (String::new(), replay) };
    let data = ReportData { games: replays(m), seats: face(m.kind).seats };
    // `<`, `>` and `&` are written as JSON escapes, so that nothing in the data (an
    // engine's name or move text: `</script>`, `<!--<script>`) can end its element or
    // change how the HTML parser reads it.
    let json = serde_json::to_string(&data)
        .unwrap_or_else(|_| "{\"games\":[]}".into())
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    fill(
        PAGE,
        &[
            ("title", &esc(&format!("sente arena report: {title}"))),
            ("css", CSS),
            ("heading", &esc(&title)),
            ("meta", &meta_line(m)),
            ("wide_replay", &wide_replay),
            ("score", &score_section(m)),
            ("replay", &replay),
            ("sprt", &sprt_section(m)),
            ("time", &time_section(m)),
            ("pairs", &pairs_section(m)),
            ("data", &json),
            ("js", JS),
        ],
    )
}

/// `template` with each `{{name}}` replaced by its value, in one pass: a value is
/// never read for placeholders (an engine's name may hold `{{js}}`).
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + values.iter().map(|(_, v)| v.len()).sum::<usize>());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}").and_then(|end| values.iter().find(|(name, _)| *name == &after[..end]).map(|v| (end, v)))
        {
            Some((end, (_, value))) => {
                out.push_str(value);
                rest = &after[end + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The line under the title: the match's settings and how far it got.
fn meta_line(m: &Match) -> String {
    let mut parts = Vec::new();
    parts.push(format!("folder {}", esc(&m.dir.display().to_string())));
    if let Some(s) = &m.settings {
        let game = match m.kind {
            Some(k) => k.spec().describe_match(&s.rules()),
            None => game_title(None).to_string(),
        };
        parts.push(esc(&game));
        parts.push(esc(&s.control));
        let face = face(m.kind);
        let openings = match &s.openings {
            OpeningSettings::File { path, count, .. } => format!("{count} openings from {path}"),
            OpeningSettings::Random { plies, seed } => (face.random_openings)(*plies, *seed),
        };
        if face.shows_openings {
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
    let face = face(m.kind);
    let class = if face.wide { " class=\"wide\"" } else { "" };
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
    if !face.hint.is_empty() {
        hint.push(' ');
        hint.push_str(face.hint);
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
    let face = face(m.kind);
    let plot = Plot {
        id: "time-plot",
        title: format!("mean time per {} by ply", face.turn),
        x_label: face.turn_axis.into(),
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

fn replays(m: &Match) -> Vec<Replay> {
    let mut rows: Vec<&GameRecord> = m.rows.iter().collect();
    rows.sort_by_key(|r| r.game);
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
            let boards = match kind {
                Some(k) => k.spec().board_captions(&r.first, &r.second),
                None => vec![format!("black {} – white {}", r.first, r.second)],
            };
            // The side drawn when the record cannot be replayed.
            let size = m.settings.as_ref().map(|s| s.size).or(kind.map(|k| k.board_sizes().default)).unwrap_or(9);
            let opening = opening_plies.or_else(|| r.plies.iter().map(|p| p.ply).min());
            let (frames, error, size) = match replay_record(&m.dir, r, kind, opening) {
                Ok(replayed) => (replayed.frames, replayed.note, replayed.size),
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

/// Reads one game's record and has its game replay it.
fn replay_record(
    dir: &Path,
    r: &GameRecord,
    kind: Option<GameKind>,
    opening: Option<usize>,
) -> Result<crate::games::replay::Replayed> {
    let Some(file) = r.record.as_deref() else { bail!("no record was written for this game") };
    let path = dir.join(file);
    let text = fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let Some(kind) = kind else {
        bail!("{}: the game is unknown (no match.json, and a record of no known kind)", path.display())
    };
    let is_opening = |p: usize| opening.is_some_and(|o| p < o);
    let input = ReplayInput { text: &text, plies: &r.plies, opening: &is_opening };
    kind.spec().replay(&input).with_context(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::referee::MoveStat;

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
    fn without_match_json_each_record_is_read_by_the_game_it_belongs_to() {
        let (_tmp, dir) = scratch("kinds");
        let mut rows = Vec::new();
        let records = [
            ("000000.txt", format!("# Chaos Clock game (sente arena)\nstart {}\nmoves\n", cc_start())),
            ("000001.txt", "# Phantom Go (ccgc rules), komi 7.5\n".to_string()),
            // A text record of no game of ours: before, every `.txt` that was not
            // Phantom Go was read as Chaos Clock.
            ("000002.txt", "hello\nmoves a b\n".to_string()),
        ];
        for (game, (file, text)) in records.iter().enumerate() {
            fs::write(dir.join("games").join(file), text).expect("write");
            let mut r = row(game as u64, 1.0, vec![]);
            r.record = Some(format!("games/{file}"));
            rows.push(r);
        }
        let found: Vec<Option<&str>> = rows.iter().map(|r| kind_of_record(&dir, r).map(GameKind::name)).collect();
        assert_eq!(found, [Some("chaosclock"), Some("phantomgo"), None]);
        // A folder whose only record is of no game: its page says so.
        let text = serde_json::to_string(&rows[2]).expect("json") + "\n";
        fs::write(dir.join("results.jsonl"), text).expect("write");
        write(&ReportOptions { dir: dir.clone(), out: None, sprt: None }).expect("a report");
        let html = fs::read_to_string(dir.join(DEFAULT_FILE)).expect("page");
        assert!(html.contains("the game is unknown"), "{html}");
    }

    fn cc_start() -> String {
        bitboards::chaosclock::random_opening(7).to_string()
    }

    #[test]
    fn the_template_is_filled_in_one_pass() {
        let filled = fill("<{{a}}|{{b}}|{{c}}|{{", &[("a", "{{b}}"), ("b", "x")]);
        assert_eq!(filled, "<{{b}}|x|{{c}}|{{");
        // Every placeholder of the page is filled.
        let names = ["title", "css", "heading", "meta", "wide_replay", "score", "replay", "sprt", "time", "pairs"];
        let values: Vec<(&str, &str)> = names.iter().chain(&["data", "js"]).map(|n| (*n, "")).collect();
        assert!(!fill(PAGE, &values).contains("{{"));
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
}
