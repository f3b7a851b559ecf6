//! A small WebDriver client for the referee's browser tests: Debian's `chromedriver`
//! (`/usr/bin/chromedriver`, installed by `scripts/test.sh` with `chromium-driver`)
//! driving headless Chromium, spoken to as plain JSON over HTTP.
#![allow(dead_code)]

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::referee_support::agent;

pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// How long any wait in the browser may take on a loaded machine.
pub const BROWSER_PATIENCE: Duration = Duration::from_secs(90);
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";
/// The Enter key, for `type_into`.
pub const ENTER: &str = "\u{E007}";

/// One headless Chromium under chromedriver.
pub struct Browser {
    driver: Child,
    base: String,
    session: String,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

impl Browser {
    /// Starts chromedriver and a headless Chromium with a fresh profile in `profile`.
    pub fn start(profile: &Path) -> Browser {
        for program in [CHROMEDRIVER, CHROMIUM] {
            assert!(
                Path::new(program).exists(),
                "{program} is missing: scripts/test.sh installs it (apt-get install chromium chromium-driver)"
            );
        }
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + BROWSER_PATIENCE;
        loop {
            if let Ok(r) = agent().get(&format!("{base}/status")).call()
                && r.status().as_u16() == 200
            {
                break;
            }
            assert!(Instant::now() < deadline, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--disable-background-timer-throttling",
            "--disable-renderer-backgrounding",
            "--disable-backgrounding-occluded-windows",
            "--window-size=1600,1000",
        ];
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args},
        }}});
        let mut b = Browser { driver, base, session: String::new() };
        let v = b.raw("POST", "/session", caps);
        b.session = v["sessionId"].as_str().expect("a session").to_string();
        b
    }

    fn raw(&self, method: &str, path: &str, body: Value) -> Value {
        let url = format!("{}{path}", self.base);
        let r = match method {
            "GET" => agent().get(&url).call(),
            "DELETE" => agent().delete(&url).call(),
            _ => agent().post(&url).header("content-type", "application/json").send(body.to_string().as_bytes()),
        }
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = r.status().as_u16();
        let text = r.into_body().read_to_string().unwrap_or_default();
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|_| json!({ "raw": text }));
        assert_eq!(status, 200, "{method} {path}: {v}");
        v["value"].clone()
    }

    fn cmd(&self, method: &str, path: &str, body: Value) -> Value {
        self.raw(method, &format!("/session/{}{path}", self.session), body)
    }

    /// Opens `url` in the current window.
    pub fn goto(&self, url: &str) {
        self.cmd("POST", "/url", json!({ "url": url }));
    }

    /// A new window; its handle.
    pub fn new_window(&self) -> String {
        self.cmd("POST", "/window/new", json!({"type": "window"}))["handle"].as_str().expect("a handle").to_string()
    }

    /// The current window's handle.
    pub fn window(&self) -> String {
        self.cmd("GET", "/window", json!({})).as_str().expect("a handle").to_string()
    }

    /// Switches to the window `handle`.
    pub fn switch(&self, handle: &str) {
        self.cmd("POST", "/window", json!({ "handle": handle }));
    }

    /// Runs `script` (a function body) in the page with `args`; its value.
    pub fn exec(&self, script: &str, args: Value) -> Value {
        self.cmd("POST", "/execute/sync", json!({ "script": script, "args": args }))
    }

    /// Waits until `script` returns something truthy; that value.
    pub fn wait(&self, what: &str, script: &str) -> Value {
        let deadline = Instant::now() + BROWSER_PATIENCE;
        loop {
            let v = self.exec(script, json!([]));
            let truthy = !matches!(&v, Value::Null | Value::Bool(false)) && v != json!(0) && v != json!("");
            if truthy {
                return v;
            }
            assert!(Instant::now() < deadline, "waited {BROWSER_PATIENCE:?} for {what}");
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    fn element(&self, css: &str) -> String {
        let deadline = Instant::now() + BROWSER_PATIENCE;
        loop {
            let url = format!("{}/session/{}/element", self.base, self.session);
            let r = agent()
                .post(&url)
                .header("content-type", "application/json")
                .send(json!({"using": "css selector", "value": css}).to_string().as_bytes())
                .expect("find an element");
            let ok = r.status().as_u16() == 200;
            let v: Value =
                serde_json::from_str(&r.into_body().read_to_string().unwrap_or_default()).unwrap_or_default();
            if ok && let Some(id) = v["value"][ELEMENT].as_str() {
                return id.to_string();
            }
            assert!(Instant::now() < deadline, "no element '{css}' within {BROWSER_PATIENCE:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Clicks the element `css`.
    pub fn click(&self, css: &str) {
        let id = self.element(css);
        self.cmd("POST", &format!("/element/{id}/click"), json!({}));
    }

    /// Types `text` into the element `css`.
    pub fn type_into(&self, css: &str, text: &str) {
        let id = self.element(css);
        self.cmd("POST", &format!("/element/{id}/value"), json!({ "text": text }));
    }

    /// The page's visible text.
    pub fn text(&self, css: &str) -> String {
        let id = self.element(css);
        self.cmd("GET", &format!("/element/{id}/text"), json!({})).as_str().unwrap_or_default().to_string()
    }

    /// Accepts the page's `confirm()` dialog.
    pub fn accept_dialog(&self) {
        self.cmd("POST", "/alert/accept", json!({}));
    }

    /// A PNG of the current window.
    pub fn screenshot(&self, path: &Path) {
        let b64 = self.cmd("GET", "/screenshot", json!({}));
        let bytes = base64_decode(b64.as_str().expect("base64"));
        std::fs::write(path, bytes).expect("write a screenshot");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let url = format!("{}/session/{}", self.base, self.session);
            let _ = agent().delete(&url).call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Standard base64, as WebDriver's screenshots are.
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for v in text.bytes().filter_map(value) {
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}
