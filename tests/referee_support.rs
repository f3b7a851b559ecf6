//! What the referee's tests share: a `sente phantom referee` server started on a free
//! port (killed with SIGKILL when dropped), and a small HTTP client.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub const SENTE: &str = env!("CARGO_BIN_EXE_sente");
/// How long any wait may take on a loaded machine.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// A running referee server.
pub struct Server {
    child: Child,
    /// The referee's, black's and white's URLs.
    pub urls: [String; 3],
    /// The record.
    pub record: PathBuf,
    /// What the server printed to stdout before the URLs.
    pub banner: Vec<String>,
}

impl Server {
    /// Starts `sente phantom referee` on a free port with the record in `dir` and
    /// `args` more.
    pub fn start(dir: &Path, args: &[&str]) -> Server {
        Server::start_with(dir, &[], args)
    }

    /// As [`Server::start`], with `before` given to `sente phantom` first (`--komi`).
    pub fn start_with(dir: &Path, before: &[&str], args: &[&str]) -> Server {
        let record = dir.join("game.json");
        let mut command = Command::new(SENTE);
        command.arg("phantom").args(before).arg("referee");
        if !args.contains(&"--listen") {
            command.args(["--listen", "127.0.0.1:0"]);
        }
        if !args.contains(&"--resume") {
            command.arg("--record").arg(&record);
        }
        command.args(args).current_dir(dir);
        let errors = dir.join("server-stderr.txt");
        let stderr = std::fs::OpenOptions::new().create(true).append(true).open(&errors).expect("a file for stderr");
        let mut child =
            command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(stderr).spawn().expect("start sente");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut banner = Vec::new();
        let mut urls: [Option<String>; 3] = [None, None, None];
        let deadline = Instant::now() + PATIENCE;
        while urls.iter().any(Option::is_none) {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = rx.recv_timeout(left).unwrap_or_else(|_| {
                let errors = std::fs::read_to_string(&errors).unwrap_or_default();
                panic!("no URLs from the server: {banner:?} {errors}")
            });
            for (i, word) in ["referee:", "black:", "white:"].iter().enumerate() {
                if let Some(url) = line.strip_prefix(word) {
                    urls[i] = Some(url.trim().to_string());
                }
            }
            banner.push(line);
        }
        let urls = urls.map(|u| u.expect("a URL"));
        Server { child, urls, record, banner }
    }

    /// The referee's URL.
    pub fn referee(&self) -> &str {
        &self.urls[0]
    }
    /// A side's URL (0 black, 1 white).
    pub fn player(&self, side: usize) -> &str {
        &self.urls[1 + side]
    }

    /// Kills the server with SIGKILL and waits for it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// An HTTP client that returns every status as an answer.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder().http_status_as_error(false).timeout_global(Some(PATIENCE)).build().into()
}

/// `GET url`: the status and the body.
pub fn get(url: &str) -> (u16, String) {
    let r = agent().get(url).call().unwrap_or_else(|e| panic!("GET {url}: {e}"));
    let status = r.status().as_u16();
    (status, r.into_body().read_to_string().unwrap_or_default())
}

/// `POST url` with a raw body.
pub fn post_raw(url: &str, body: &[u8]) -> (u16, String) {
    try_post_raw(url, body).unwrap_or_else(|e| panic!("POST {url}: {e}"))
}

/// `POST url` with a raw body, or the connection's error (a server may answer a body
/// too large before reading it and close the connection under the writer).
pub fn try_post_raw(url: &str, body: &[u8]) -> Result<(u16, String), ureq::Error> {
    let r = agent().post(url).header("content-type", "application/json").send(body)?;
    let status = r.status().as_u16();
    Ok((status, r.into_body().read_to_string().unwrap_or_default()))
}

/// A page's state.
pub fn state(page: &str) -> Value {
    let (status, body) = get(&format!("{page}/api/state"));
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).expect("JSON state")
}

/// Posts an action of a page; the status and the JSON reply.
pub fn act(page: &str, action: &str, body: Value) -> (u16, Value) {
    let (status, text) = post_raw(&format!("{page}/api/{action}"), body.to_string().as_bytes());
    (status, serde_json::from_str(&text).unwrap_or_else(|_| json!({ "raw": text })))
}

/// Posts an action that must succeed; its reply.
pub fn ok(page: &str, action: &str, body: Value) -> Value {
    let (status, reply) = act(page, action, body.clone());
    assert_eq!(status, 200, "{action} {body}: {reply}");
    reply
}

/// Waits until `f` holds of the page's state.
pub fn wait_state(page: &str, what: &str, f: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let s = state(page);
        if f(&s) {
            return s;
        }
        assert!(Instant::now() < deadline, "waited {PATIENCE:?} for {what}; state: {s}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The opponent stones of the referee's state `full` that side `side` (0 black, 1
/// white) may not know: every one it never tried nor was told of in a capture
/// (`told` holds those points).
pub fn hidden(full: &str, side: usize, told: &[String]) -> Vec<String> {
    let theirs = if side == 0 { 'O' } else { 'X' };
    full.chars()
        .enumerate()
        .filter(|&(_, c)| c == theirs)
        .map(|(i, _)| format!("{}{}", i / 9, i % 9))
        .filter(|ij| !told.contains(ij))
        .collect()
}

/// The hidden points (`ij`) that a player's reply names, on its board, in a list or
/// as a GTP vertex in a text.
pub fn leaks(reply: &Value, hidden: &[String]) -> Vec<String> {
    let named = sente::referee::views::points_in_reply(reply);
    hidden
        .iter()
        .filter(|ij| {
            let p = bitboards::go::Point::from_ij(ij, 9).expect("a point");
            named & p.bit() != 0
        })
        .cloned()
        .collect()
}
