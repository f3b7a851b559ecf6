//! The web server: three pages, each behind its own token, over one game.
//!
//! `GET /{token}` is the token's page (the referee's or one player's); the page talks
//! to `/{token}/api/…`: `GET state?since=N` (the page's JSON, at once or as soon as the
//! game changes past version `N`, at most 20 s later), and the actions, each a `POST`
//! of a small JSON body: `try {"text"}`, `remove {"side"}`, `answer {"side","accept"}`,
//! and the referee's own `propose`, `recover {"side","from"}`, `dead {"point"}`,
//! `confirm`. An unknown token is answered 404, a player's token on a referee action
//! 403, a bad body or a refused action 400 or 409, a body over 64 KiB 413, each with a
//! JSON `{"error": …}` that says what was wrong; none of them changes anything.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use bitboards::go::{Color, LetterOrder};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::watch;

use super::clock::Millis;
use super::game::{Actor, Game};
use super::input::parse_try;
use super::record::{Record, Tokens};
use super::views::{Seats, player_json, referee_json};

/// The largest request body read (larger ones are answered 413).
pub const BODY_LIMIT: usize = 64 * 1024;
/// How long a `state?since=` request waits for a change.
const LONG_POLL: Duration = Duration::from_secs(20);

/// The wall clock in milliseconds since the Unix epoch.
pub fn wall_clock() -> Millis {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as Millis)
}

/// The game and everything the handlers share.
pub struct Shared {
    game: Mutex<Game>,
    /// The pages' tokens.
    pub tokens: Tokens,
    version: watch::Sender<u64>,
    record: Option<std::path::PathBuf>,
    letters: LetterOrder,
    seats: Seats,
    clock: fn() -> Millis,
    /// This run's name, in every reply: a page that sees it change (the server was
    /// restarted) takes the new state whatever its version.
    instance: String,
}

/// Whose token a request carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Referee,
    Player(Color),
}

/// An error reply: a status and a message.
pub struct Refusal(StatusCode, String);

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.0, axum::Json(json!({ "error": self.1 }))).into_response()
    }
}

fn bad(message: impl Into<String>) -> Refusal {
    Refusal(StatusCode::BAD_REQUEST, message.into())
}

/// Compares two tokens in time independent of where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl Shared {
    /// The shared state of `game`, with the tokens, the record's path (written after
    /// every action), the letter order typed tries are read in, the seats, and the
    /// clock the actions are timed by.
    pub fn new(
        game: Game,
        tokens: Tokens,
        record: Option<std::path::PathBuf>,
        letters: LetterOrder,
        seats: Seats,
        clock: fn() -> Millis,
    ) -> Arc<Shared> {
        let (version, _) = watch::channel(0u64);
        let instance = format!("{:x}", clock());
        Arc::new(Shared { game: Mutex::new(game), tokens, version, record, letters, seats, clock, instance })
    }

    fn role(&self, token: &str) -> Result<Role, Refusal> {
        if same(token, &self.tokens.referee) {
            Ok(Role::Referee)
        } else if same(token, &self.tokens.black) {
            Ok(Role::Player(Color::BLACK))
        } else if same(token, &self.tokens.white) {
            Ok(Role::Player(Color::WHITE))
        } else {
            Err(Refusal(StatusCode::NOT_FOUND, "unknown token: open the URL the server printed".into()))
        }
    }

    /// The game, locked (a poisoned lock still holds a whole game: every action checks
    /// before it changes anything).
    pub fn lock(&self) -> MutexGuard<'_, Game> {
        self.game.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The time now, by the server's clock.
    pub fn now(&self) -> Millis {
        (self.clock)()
    }

    /// The version the pages wait on.
    pub fn version(&self) -> u64 {
        *self.version.borrow()
    }

    /// Runs an action on the game; on success writes the record and wakes the pages.
    pub fn act<T>(&self, f: impl FnOnce(&mut Game, Millis) -> Result<T, String>) -> Result<T, String> {
        let mut game = self.lock();
        let now = self.now();
        let out = f(&mut game, now)?;
        self.save(&mut game, now);
        drop(game);
        self.version.send_modify(|v| *v += 1);
        Ok(out)
    }

    /// Writes the record with the running timer's time up to now (the server does so
    /// every few seconds, so that a crash loses little of it).
    pub fn checkpoint(&self) {
        let mut game = self.lock();
        let now = self.now();
        self.save(&mut game, now);
    }

    fn save(&self, game: &mut Game, now: Millis) {
        game.checkpoint(now);
        if let Some(path) = &self.record {
            if let Err(e) = Record::of(game, &self.tokens).save(path) {
                eprintln!("referee: cannot write the record: {e:#}");
            }
            let text = Record::arena_text(game, &self.seats);
            if let Err(e) = crate::tools::journal::write_atomically(&text_record_path(path), text.as_bytes()) {
                eprintln!("referee: cannot write the text record: {e:#}");
            }
        }
    }

    fn reply(&self, role: Role) -> Value {
        let game = self.lock();
        let version = self.version();
        let now = self.now();
        let mut reply = match role {
            Role::Referee => referee_json(&game, version, now, &self.seats),
            Role::Player(c) => player_json(&game, c, version, now, &self.seats),
        };
        reply["instance"] = json!(self.instance);
        reply
    }

    /// The seats.
    pub fn seats(&self) -> &Seats {
        &self.seats
    }
}

/// Where the arena-format text record goes: beside the JSON record, `.txt` in place
/// of its extension (`.arena.txt` if the record itself ends in `.txt`).
pub fn text_record_path(record: &std::path::Path) -> std::path::PathBuf {
    if record.extension().is_some_and(|e| e == "txt") {
        record.with_extension("arena.txt")
    } else {
        record.with_extension("txt")
    }
}

const STYLE: &str = include_str!("style.css");
const SCRIPT: &str = include_str!("board.js");
const REFEREE_PAGE: &str = include_str!("referee.html");
const PLAYER_PAGE: &str = include_str!("player.html");

fn page(template: &str) -> String {
    template.replace("/*STYLE*/", STYLE).replace("/*SCRIPT*/", SCRIPT)
}

async fn index() -> Refusal {
    Refusal(StatusCode::NOT_FOUND, "open the URL with its token that the server printed".into())
}

async fn serve_page(State(s): State<Arc<Shared>>, Path(token): Path<String>) -> Result<Response, Refusal> {
    let html = match s.role(&token)? {
        Role::Referee => page(REFEREE_PAGE),
        Role::Player(_) => page(PLAYER_PAGE),
    };
    Ok(([(header::CACHE_CONTROL, "no-store")], Html(html)).into_response())
}

#[derive(Deserialize)]
struct Since {
    since: Option<u64>,
    instance: Option<String>,
}

async fn state(
    State(s): State<Arc<Shared>>,
    Path(token): Path<String>,
    Query(q): Query<Since>,
) -> Result<axum::Json<Value>, Refusal> {
    let role = s.role(&token)?;
    if let Some(since) = q.since
        && q.instance.as_deref().is_none_or(|i| i == s.instance)
    {
        let mut rx = s.version.subscribe();
        let _ = tokio::time::timeout(LONG_POLL, rx.wait_for(|v| *v != since)).await;
    }
    Ok(axum::Json(s.reply(role)))
}

fn body<T: for<'de> Deserialize<'de>>(bytes: &Bytes) -> Result<T, Refusal> {
    let text =
        if bytes.is_empty() { "{}" } else { std::str::from_utf8(bytes).map_err(|_| bad("the body is not UTF-8"))? };
    serde_json::from_str(text).map_err(|e| bad(format!("the body is not the JSON expected: {e}")))
}

fn side_of(role: Role, side: Option<&str>) -> Result<Color, Refusal> {
    match (role, side.map(|s| s.trim().to_ascii_lowercase())) {
        (Role::Player(c), None) => Ok(c),
        (_, Some(s)) if s == "black" || s == "b" => Ok(Color::BLACK),
        (_, Some(s)) if s == "white" || s == "w" => Ok(Color::WHITE),
        (_, Some(s)) => Err(bad(format!("side '{s}': black or white"))),
        (Role::Referee, None) => Err(bad("which side: \"side\": \"black\" or \"white\"")),
    }
}

fn actor(role: Role) -> Actor {
    match role {
        Role::Referee => Actor::Referee,
        Role::Player(c) => Actor::Player(c),
    }
}

fn referee_only(role: Role) -> Result<(), Refusal> {
    match role {
        Role::Referee => Ok(()),
        Role::Player(_) => Err(Refusal(StatusCode::FORBIDDEN, "only the referee's page may do this".into())),
    }
}

fn refused(e: String) -> Refusal {
    Refusal(StatusCode::CONFLICT, e)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TryBody {
    text: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideBody {
    side: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerBody {
    side: Option<String>,
    accept: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecoverBody {
    side: String,
    from: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PointBody {
    point: String,
}

async fn action(
    State(s): State<Arc<Shared>>,
    Path((token, what)): Path<(String, String)>,
    bytes: Bytes,
) -> Result<axum::Json<Value>, Refusal> {
    let role = s.role(&token)?;
    let who = actor(role);
    let mut answer = Value::Null;
    match what.as_str() {
        "try" => {
            let b: TryBody = body(&bytes)?;
            let mv = parse_try(&b.text, s.letters).map_err(bad)?;
            if let Role::Player(c) = role
                && s.seats[c.index()].is_some()
            {
                return Err(refused(format!("an engine plays {}: its page only watches", super::game::name(c))));
            }
            let out = s.act(|g, now| g.try_move(who, mv, now)).map_err(refused)?;
            answer = match role {
                Role::Referee => json!(super::views::answer_text(&out.answer)),
                Role::Player(_) => json!(if out.answer.is_legal() { "legal" } else { "illegal" }),
            };
        }
        "remove" => {
            let b: SideBody = body(&bytes)?;
            let side = side_of(role, b.side.as_deref())?;
            s.act(|g, now| g.confirm_removal(who, side, now)).map_err(refused)?;
        }
        "answer" => {
            let b: AnswerBody = body(&bytes)?;
            let side = side_of(role, b.side.as_deref())?;
            s.act(|g, now| g.answer_proposal(who, side, b.accept, now)).map_err(refused)?;
        }
        "propose" => {
            referee_only(role)?;
            let _: SideBody = body(&bytes)?;
            s.act(|g, now| g.propose_stop(now)).map_err(refused)?;
        }
        "recover" => {
            referee_only(role)?;
            let b: RecoverBody = body(&bytes)?;
            let side = side_of(role, Some(&b.side))?;
            if s.seats.iter().any(Option::is_some) {
                return Err(refused(
                    "an engine is seated: it cannot be taken back to an earlier position, so no recovery".into(),
                ));
            }
            s.act(|g, now| g.recover(side, b.from, now)).map_err(refused)?;
        }
        "dead" => {
            referee_only(role)?;
            let b: PointBody = body(&bytes)?;
            let p = match parse_try(&b.point, s.letters).map_err(bad)? {
                bitboards::go::Move::Play(p) => p,
                bitboards::go::Move::Pass => return Err(bad("a point, not pass")),
            };
            s.act(|g, now| g.toggle_dead(p, now)).map_err(refused)?;
        }
        "judge" => {
            referee_only(role)?;
            let _: SideBody = body(&bytes)?;
            let (dead, result) = s.lock().judgement();
            let mut reply = s.reply(role);
            reply["judgement"] = json!({ "dead": super::game::ij_list(dead), "text": result.text() });
            return Ok(axum::Json(reply));
        }
        "time" => {
            referee_only(role)?;
            let b: SideBody = body(&bytes)?;
            let side = side_of(role, b.side.as_deref())?;
            s.act(|g, now| g.lose_on_time(side, now)).map_err(refused)?;
        }
        "confirm" => {
            referee_only(role)?;
            let _: SideBody = body(&bytes)?;
            s.act(|g, now| g.confirm_result(now)).map_err(refused)?;
        }
        other => return Err(Refusal(StatusCode::NOT_FOUND, format!("no action '{other}'"))),
    }
    let mut reply = s.reply(role);
    reply["answer"] = answer;
    Ok(axum::Json(reply))
}

/// Gives the errors axum answers by itself (a body over the limit, a wrong method) the
/// same JSON form as the others.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let json =
        response.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !status.is_client_error() || json {
        return response;
    }
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => format!("the request body is over {} KiB", BODY_LIMIT / 1024),
        StatusCode::METHOD_NOT_ALLOWED => "wrong method: pages are GET, actions POST".to_string(),
        other => other.canonical_reason().unwrap_or("bad request").to_string(),
    };
    Refusal(status, message).into_response()
}

async fn not_found() -> Refusal {
    Refusal(StatusCode::NOT_FOUND, "no such page".into())
}

/// The routes over `shared`.
pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/{token}", get(serve_page))
        .route("/{token}/api/state", get(state))
        .route("/{token}/api/{action}", post(action))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::map_response(json_errors))
        .with_state(shared)
}
