//! `sente phantom`: Phantom Go as the Chinese competition platform's engines speak it
//! (see [`protocol::phantom`]), and `sente phantom play`, a game in the terminal
//! against a person.
//!
//! The engine keeps its own [`View`] from the platform's lines alone (each line is one
//! referee [`Notice`], applied with [`View::apply`]) and chooses every try from it with
//! [`search::phantom::choose`]. A line that cannot be read, or one that contradicts
//! the view (`take` naming one of our own stones, `taked` naming a point where we have
//! no stone, `accept` with no try pending), gets a message on stderr and changes
//! nothing.
//!
//! Time: `--movetime` is the time for a turn's first try; each refused try shortens
//! the next (`movetime × 4 / (4 + refused)`, at least 10 ms), since CCGC rule 8 runs the
//! clock over all the tries of a turn.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::SeqCst};
use std::time::Duration;

use bitboards::go::{Color, LetterOrder, Move, Point, bits};
use bitboards::phantom::{Answer, Notice, PhantomConfig, Referee, SIZE, View};
use protocol::phantom::{Command, move_line, name_line, parse};
use search::phantom::{PlayerSettings, choose};
use search::{Limits, StopFlag};

use crate::io::{Input, MAX_LINE, Output, spawn_reader, spawn_writer};

/// Reads `row-column` or `column-row`.
pub fn parse_letters(text: &str) -> Result<LetterOrder, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "row-column" | "rowcolumn" | "rc" => Ok(LetterOrder::RowColumn),
        "column-row" | "columnrow" | "cr" => Ok(LetterOrder::ColumnRow),
        other => Err(format!("--letters '{other}': row-column or column-row")),
    }
}

/// The time for the next try of a turn after `refused` refusals.
fn try_time(movetime: Duration, refused: u32) -> Duration {
    (movetime * 4 / (4 + refused)).max(Duration::from_millis(10))
}

/// What one platform line made the engine do.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// Lines for the platform (stdout).
    pub out: Vec<String>,
    /// Messages for stderr.
    pub err: Vec<String>,
    /// `quit` was read.
    pub quit: bool,
}

/// The engine side of the platform protocol.
pub struct PlatformEngine {
    order: LetterOrder,
    settings: PlayerSettings,
    movetime: Duration,
    view: Option<View>,
    /// Our try waiting for `accept`/`refuse`.
    pending: Option<Move>,
    /// Any answer to our tries this game (tells the start signal from a lost answer).
    answered: bool,
    seed: u64,
    /// Stops a search at once (set by the input thread at `quit`, `end` or the end of
    /// input; cleared before each search).
    stop: StopFlag,
    /// What the input thread has read ahead of the loop.
    ahead: Arc<ReadAhead>,
    /// The `end` and `new` lines this engine has handled.
    games_ended: u64,
}

/// What the input thread saw before the loop got to it: a `quit` (or the end of
/// input), and how many lines that end a game (`end`, and `new`, which starts the
/// next one). A search whose game has ended meanwhile, or whose engine is told to
/// leave, is stopped, and its try is not sent.
#[derive(Debug, Default)]
pub struct ReadAhead {
    quit: AtomicBool,
    ends: AtomicU64,
}

impl PlatformEngine {
    /// An engine writing points with `order`, choosing with `settings` in `movetime` per try.
    pub fn new(order: LetterOrder, settings: PlayerSettings, movetime: Duration) -> PlatformEngine {
        PlatformEngine {
            order,
            settings,
            movetime,
            view: None,
            pending: None,
            answered: false,
            seed: 1,
            stop: StopFlag::new(),
            ahead: Arc::new(ReadAhead::default()),
            games_ended: 0,
        }
    }

    /// True when a `quit`, the end of input or the end of this game (`end`, or a
    /// `new` game) has been read but not yet handled: a search should stop at once,
    /// and its try is not sent (the game it was for is over).
    fn interrupted(&self) -> bool {
        self.ahead.quit.load(SeqCst) || self.ahead.ends.load(SeqCst) > self.games_ended
    }

    /// The flag that stops a search (the input thread sets it at end of input).
    pub fn stop_flag(&self) -> StopFlag {
        self.stop.clone()
    }

    /// The engine's view of the current game, if one is on.
    #[cfg(test)]
    pub fn view(&self) -> Option<&View> {
        self.view.as_ref()
    }

    fn apply(&mut self, notice: Notice, step: &mut Step) -> bool {
        self.apply_all(&[notice], step)
    }

    /// Applies `notices` in order, all or none: when one contradicts the view, the
    /// view stays as it was and stderr says why.
    fn apply_all(&mut self, notices: &[Notice], step: &mut Step) -> bool {
        let Some(view) = self.view.as_mut() else {
            step.err.push("no game: 'new black' or 'new white' first".into());
            return false;
        };
        let mut next = view.clone();
        match notices.iter().try_for_each(|n| next.apply(n)) {
            Ok(()) => {
                *view = next;
                true
            }
            Err(e) => {
                step.err.push(format!("ignored: {e}"));
                false
            }
        }
    }

    /// Chooses a try and sends it, unless the game ended (or the engine was told to
    /// leave) while it was chosen.
    fn our_move(&mut self, step: &mut Step) {
        let Some(view) = &self.view else { return };
        self.seed = self.seed.wrapping_add(1);
        let limits = Limits::movetime(try_time(self.movetime, view.refused().count_ones()));
        // The flag is cleared before the look at what was read ahead, and the input
        // thread marks what it read before raising the flag: a `quit`, `end` or `new`
        // still to be handled is either seen here (no search) or stops the search.
        // Unlike a UGI+ search stopped by `stop`, whose `bestmove` the client waits
        // for, a try for a game that has ended is not sent: a platform that starts the
        // next game at once would read it as that game's first answer.
        self.stop.reset();
        if self.interrupted() {
            step.err.push("the try is not sent: its game ended, or quit came".into());
            return;
        }
        let choice = choose(view, &self.settings, &limits, &self.stop, self.seed);
        if self.interrupted() {
            step.err.push("the try is not sent: its game ended, or quit came".into());
            return;
        }
        self.pending = Some(choice.mv);
        step.out.push(move_line(choice.mv, self.order));
    }

    /// Before the opponent's move is taken in: what became of our pending try.
    fn settle_pending(&mut self, step: &mut Step) {
        match self.pending.take() {
            None => {}
            Some(Move::Pass) => {
                self.apply(Notice::Accepted(Move::Pass), step);
            }
            Some(Move::Play(p)) => {
                step.err.push(format!(
                    "our try {} got no answer before the opponent's move: taken as a pass (rule 7)",
                    p.to_letters(self.order)
                ));
                self.apply(Notice::TurnPassed, step);
            }
        }
    }

    /// Handles one line from the platform.
    pub fn handle_line(&mut self, line: &str) -> Step {
        let mut step = Step::default();
        if line.trim().is_empty() {
            return step;
        }
        let command = match parse(line, self.order) {
            Ok(c) => c,
            Err(e) => {
                step.err.push(format!("bad line ignored: {e}"));
                return step;
            }
        };
        match command {
            Command::Name => step.out.push(name_line("sente")),
            Command::New(color) => {
                self.games_ended += 1;
                self.view = Some(View::new(color));
                self.pending = None;
                self.answered = false;
                if color == Color::BLACK {
                    self.our_move(&mut step);
                }
            }
            Command::MoveGo | Command::MovePass => {
                if self.view.is_none() {
                    step.err.push("no game: 'new black' or 'new white' first".into());
                    return step;
                }
                let first_move = self.view.as_ref().is_some_and(|v| {
                    v.color() == Color::BLACK && v.own() == 0 && v.opponent_count() == 0 && v.lost() == 0
                });
                if command == Command::MoveGo
                    && first_move
                    && !self.answered
                    && let Some(mv) = self.pending
                {
                    // `move go` to start the game after `new black`: our first try stands.
                    step.out.push(move_line(mv, self.order));
                    return step;
                }
                self.settle_pending(&mut step);
                let notice = if command == Command::MoveGo { Notice::OpponentMoved } else { Notice::OpponentPassed };
                self.apply(notice, &mut step);
                self.our_move(&mut step);
            }
            Command::Accept => match self.pending.take() {
                Some(mv) => {
                    self.answered = true;
                    self.apply(Notice::Accepted(mv), &mut step);
                }
                None => step.err.push("'accept' ignored: no try of ours is waiting".into()),
            },
            Command::Refuse => match self.pending {
                Some(Move::Play(p)) => {
                    self.answered = true;
                    if self.apply(Notice::Refused(p), &mut step) {
                        self.our_move(&mut step);
                    }
                }
                Some(Move::Pass) => step.err.push("'refuse' ignored: a pass cannot be refused".into()),
                None => step.err.push("'refuse' ignored: no try of ours is waiting".into()),
            },
            Command::Take(points) | Command::AccessTake(points) => {
                let set = points.iter().fold(0u128, |m, p| m | p.bit());
                let took = Notice::Took { count: points.len() as u32, points: set };
                // A capture means our pending try stood: both are taken in, or neither.
                match self.pending {
                    Some(mv @ Move::Play(_)) => {
                        if self.apply_all(&[Notice::Accepted(mv), took], &mut step) {
                            self.pending = None;
                            self.answered = true;
                        }
                    }
                    _ => {
                        self.apply(took, &mut step);
                    }
                }
            }
            Command::Taked(points) => {
                let set = points.iter().fold(0u128, |m, p| m | p.bit());
                self.apply(Notice::Lost { points: set }, &mut step);
            }
            Command::Error => step.err.push("the platform reported an error".into()),
            Command::End => {
                self.games_ended += 1;
                self.view = None;
                self.pending = None;
            }
            Command::Quit => step.quit = true,
        }
        step
    }
}

/// Runs the platform protocol on stdin/stdout. The input is read on its own thread,
/// which answers `name?` at once, and on `quit`, `end`, `new` or the end of input
/// stops a search under way at once (its try is not sent: the game it was for is
/// over); every other line waits for the search, in order.
pub fn run(order: LetterOrder, settings: PlayerSettings, movetime: Duration) -> anyhow::Result<()> {
    let mut engine = PlatformEngine::new(order, settings, movetime);
    let lines = spawn_reader(std::io::BufReader::new(std::io::stdin()));
    let (out, writer) = spawn_writer(std::io::stdout());
    let (forward, input) = crossbeam_channel::unbounded();
    let (stop, ahead, tap_out) = (engine.stop_flag(), engine.ahead.clone(), out.clone());
    std::thread::Builder::new().name("platform-input".into()).spawn(move || {
        for item in lines.iter() {
            if !read_ahead(&item, order, &ahead, &stop, &tap_out) {
                continue;
            }
            // After `quit` nothing more is read (and this thread's output handle goes,
            // so that the writer can finish).
            let last = ahead.quit.load(SeqCst);
            if forward.send(item).is_err() || last {
                break;
            }
        }
    })?;
    let mut stderr = std::io::stderr();
    for item in input.iter() {
        let line = match item {
            Input::Line(line) => line,
            Input::TooLong { length: n, .. } => {
                let _ = writeln!(stderr, "sente: a line of {n} bytes ignored (at most {MAX_LINE})");
                continue;
            }
            Input::Eof => break,
        };
        let step = engine.handle_line(&line);
        for l in step.out {
            out.line(l);
        }
        for l in &step.err {
            let _ = writeln!(stderr, "sente: {l}");
        }
        if step.quit {
            break;
        }
    }
    drop(out);
    writer.join().map_err(|_| anyhow::anyhow!("the output thread failed"))?;
    Ok(())
}

/// The input thread's look at one item before the loop gets it: `name?` is answered
/// here (false: not passed on); `quit`, `end` and the end of input are marked in
/// `ahead` and stop the search.
fn read_ahead(item: &Input, order: LetterOrder, ahead: &ReadAhead, stop: &StopFlag, out: &Output) -> bool {
    let command = match item {
        Input::Line(line) => parse(line, order).ok(),
        Input::TooLong { .. } => None,
        Input::Eof => Some(Command::Quit),
    };
    match command {
        Some(Command::Name) => {
            out.line(name_line("sente"));
            return false;
        }
        Some(Command::Quit) => ahead.quit.store(true, SeqCst),
        Some(Command::End | Command::New(_)) => {
            ahead.ends.fetch_add(1, SeqCst);
        }
        _ => return true,
    }
    stop.stop();
    true
}

/// Draws a view for a person: rows 9..1, GTP letters, `X` black, `O` white.
fn draw_view(view: &View) -> String {
    let mut out = String::from("   A B C D E F G H J\n");
    for r in 0..SIZE {
        out.push_str(&format!("{} ", SIZE - r));
        for c in 0..SIZE {
            let p = Point::new(r, c);
            out.push(' ');
            out.push(match view.at(p) {
                Some(Color::BLACK) => 'X',
                Some(Color::WHITE) => 'O',
                None if view.refused() & p.bit() != 0 => '?',
                None => '.',
            });
        }
        out.push('\n');
    }
    out
}

fn vertices(set: u128) -> String {
    bits(set).map(|p| p.to_gtp(SIZE)).collect::<Vec<_>>().join(" ")
}

/// `sente phantom play`: a person (colour `human`) against the engine, refereed here.
/// The person sees only their own board, the referee's answers and the captures.
pub fn play(
    human: Color,
    settings: PlayerSettings,
    movetime: Duration,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let config = PhantomConfig::for_rules(settings.rules).with_komi(settings.komi);
    let mut referee = Referee::new(config);
    let mut seed = 1u64;
    writeln!(
        out,
        "Phantom Go, you play {}. Moves: E5 (GTP), pass, quit.",
        if human == Color::BLACK { "black (X)" } else { "white (O)" }
    )?;
    while !referee.is_over() {
        let mover = referee.to_move();
        let answer = if mover == human {
            write!(out, "{}your try> ", draw_view(referee.view(human)))?;
            out.flush()?;
            let line = match crate::io::read_line(input) {
                Input::Line(line) => line,
                Input::TooLong { length, .. } => {
                    writeln!(out, "a line of {length} bytes ignored: longer than {MAX_LINE}")?;
                    continue;
                }
                Input::Eof => {
                    writeln!(out)?;
                    return Ok(());
                }
            };
            let text = line.trim();
            if text.eq_ignore_ascii_case("quit") {
                return Ok(());
            }
            let mv = match crate::games::phantom::parse_try(text) {
                Ok(m) => m,
                Err(e) => {
                    writeln!(out, "not a move: {e}")?;
                    continue;
                }
            };
            let answer = match referee.try_move(mv) {
                Ok(a) => a,
                Err(e) => {
                    writeln!(out, "not a try: {e}")?;
                    continue;
                }
            };
            match answer {
                Answer::Legal { captured } if captured != 0 => {
                    writeln!(out, "accepted; you took {}: {}", captured.count_ones(), vertices(captured))?
                }
                Answer::Legal { .. } => writeln!(out, "accepted")?,
                Answer::Passed => writeln!(out, "you pass")?,
                Answer::Illegal { turn_passed: true, .. } => writeln!(out, "illegal; your turn became a pass")?,
                Answer::Illegal { .. } => writeln!(out, "illegal, try again")?,
            }
            answer
        } else {
            seed += 1;
            let view = referee.view(mover).clone();
            let limits = Limits::movetime(try_time(movetime, view.refused().count_ones()));
            let choice = choose(&view, &settings, &limits, &StopFlag::new(), seed);
            let answer = referee.try_move(choice.mv).map_err(|e| anyhow::anyhow!("the engine's try: {e}"))?;
            match answer {
                Answer::Legal { captured } if captured != 0 => writeln!(
                    out,
                    "sente moved and took {} of your stones: {}",
                    captured.count_ones(),
                    vertices(captured)
                )?,
                Answer::Legal { .. } => writeln!(out, "sente moved")?,
                Answer::Passed | Answer::Illegal { turn_passed: true, .. } => writeln!(out, "sente passes")?,
                Answer::Illegal { .. } => {}
            }
            answer
        };
        let _ = answer;
    }
    let result = referee.result(crate::games::phantom::referee_dead(&referee));
    writeln!(out, "game over: {}", result.map_or("?".to_string(), |r| r.text()))?;
    writeln!(out, "the full board:\n{}", referee.board().draw())?;
    Ok(())
}

/// `sente phantom`'s command line.
#[derive(clap::Args)]
pub struct PhantomArgs {
    #[command(subcommand)]
    pub command: Option<PhantomCommand>,
    /// Which of the two letters of a point is the row: row-column (the seed's ij
    /// order, the default) or column-row.
    #[arg(long, default_value = "row-column", value_parser = parse_letters, global = true)]
    pub letters: bitboards::go::LetterOrder,
    /// The player: combined (belief-state search proposes, flat Monte-Carlo decides),
    /// belief (belief-state search), ismcts (information-set MCTS) or flat (flat
    /// Monte-Carlo).
    #[arg(long, default_value_t = search::phantom::PlayerSettings::default().player, value_parser = search::phantom::PhantomPlayer::parse, global = true)]
    pub player: search::phantom::PhantomPlayer,
    /// Milliseconds for a turn's first try (later tries of the turn get less).
    #[arg(long, default_value_t = 1000, global = true)]
    pub movetime: u64,
    /// Komi.
    #[arg(long, default_value_t = 7.5, global = true, value_parser = bitboards::go::parse_komi, allow_negative_numbers = true)]
    pub komi: f64,
    /// The playouts of the belief search (also the combined player's) and of ismcts:
    /// light or heavy.
    #[arg(long, default_value_t = search::phantom::PlayerSettings::default().playouts, value_parser = search::go::playout::Policy::parse, global = true)]
    pub playouts: search::go::playout::Policy,
}

/// `sente phantom referee`'s arguments (komi, letters and movetime are `sente
/// phantom`'s); the server is [`crate::referee`], dispatched by the crate's root.
#[derive(clap::Args, Clone, Debug)]
pub struct RefereeArgs {
    /// The address to listen on: 127.0.0.1 (this machine only) by default; an address
    /// of this machine's network (or 0.0.0.0) when the teams' laptops join over it.
    /// Port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:8099")]
    pub listen: std::net::SocketAddr,
    /// The game record, written after every action (a new game refuses a file that
    /// exists: resume it or name another).
    #[arg(long, default_value = "phantom-referee.json")]
    pub record: std::path::PathBuf,
    /// Go on with the game of this record (written by an earlier run, killed or not):
    /// same position, timers, penalties and tokens; the record goes on being written
    /// there.
    #[arg(long, conflicts_with = "record")]
    pub resume: Option<std::path::PathBuf>,
    /// Seat an engine for Black: an arena engine specification, e.g.
    /// "cmd='sente phantom' proto=phantom name=sente" (the platform protocol) or
    /// "cmd='sente' proto=ugi" (UGI+).
    #[arg(long)]
    pub black: Option<String>,
    /// Seat an engine for White (as --black).
    #[arg(long)]
    pub white: Option<String>,
    /// Each side's time for the game, in minutes (penalties included). The pages show
    /// the time left; once a side's is used up the referee may declare it lost on
    /// time. Without it the timers only count.
    #[arg(long, conflicts_with = "resume")]
    pub time: Option<f64>,
}
#[derive(clap::Subcommand)]
pub enum PhantomCommand {
    /// A game against the engine in the terminal: you see your own stones only.
    Play {
        /// Your colour.
        #[arg(long, default_value = "black")]
        color: String,
    },
    /// The referee's board: a local web server running one game, with three pages
    /// (the referee's and each player's), each behind its own token.
    Referee(RefereeArgs),
}

/// Runs `sente phantom` (the platform protocol) and `sente phantom play`.
pub fn main(args: PhantomArgs) -> anyhow::Result<()> {
    let PhantomArgs { command, letters, player, movetime, komi, playouts } = args;
    let settings = PlayerSettings { player, rules: bitboards::phantom::PhantomRules::Ccgc, komi, playouts };
    let movetime = Duration::from_millis(movetime.max(1));
    match command {
        None => run(letters, settings, movetime),
        Some(PhantomCommand::Referee(_)) => anyhow::bail!("sente phantom referee is run by the crate's root"),
        Some(PhantomCommand::Play { color }) => {
            let human = match color.to_ascii_lowercase().as_str() {
                "black" | "b" => Color::BLACK,
                "white" | "w" => Color::WHITE,
                other => anyhow::bail!("--color '{other}': black or white"),
            };
            let stdin = std::io::stdin();
            play(human, settings, movetime, &mut stdin.lock(), &mut std::io::stdout().lock())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> PlatformEngine {
        PlatformEngine::new(LetterOrder::RowColumn, PlayerSettings::default(), Duration::from_millis(20))
    }

    #[test]
    fn a_person_sees_only_their_stones() {
        let mut input = std::io::Cursor::new("E5\nE5\nZ0\nquit\n");
        let mut out = Vec::new();
        let settings = PlayerSettings::default();
        play(Color::BLACK, settings, Duration::from_millis(10), &mut input, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("accepted"), "{text}");
        assert!(text.contains("sente moved"), "{text}");
        assert!(text.contains("illegal, try again"), "{text}");
        assert!(text.contains("not a move"), "{text}");
        assert!(!text.contains('O'), "white's stones are hidden: {text}");
    }

    #[test]
    fn a_short_game_as_white() {
        let mut e = engine();
        assert_eq!(e.handle_line("name?").out, vec!["name sente"]);
        assert!(e.handle_line("new white").out.is_empty());
        let s = e.handle_line("move go");
        assert_eq!(s.out.len(), 1);
        assert!(s.out[0].starts_with("move "), "{s:?}");
        let s = e.handle_line("refuse");
        assert_eq!(s.out.len(), 1, "another try after a refusal");
        assert_eq!(e.view().unwrap().refused().count_ones(), 1);
        assert!(e.handle_line("accept").out.is_empty());
        assert_eq!(e.view().unwrap().own().count_ones(), 1);
        assert_eq!(e.view().unwrap().opponent_count(), 1);
        let own = e.view().unwrap().own();
        let elsewhere = if own & Point::new(0, 0).bit() == 0 { "AA" } else { "AB" };
        let bad = e.handle_line(&format!("taked 1 {elsewhere}"));
        assert!(bad.err.iter().any(|l| l.contains("not ours")), "{bad:?}");
        assert_eq!(e.view().unwrap().own(), own, "a bad 'taked' changes nothing");
    }

    /// The letters of the try in a `move XY` line.
    fn try_letters(step: &Step) -> String {
        let line = step.out.last().expect("a try");
        line.strip_prefix("move ").expect("a move line").to_string()
    }

    #[test]
    fn a_take_that_contradicts_the_view_changes_nothing() {
        let mut e = engine();
        e.handle_line("new white");
        let ours = try_letters(&e.handle_line("move go"));
        // The platform names our own waiting try as the stone we took.
        let bad = e.handle_line(&format!("take 1 {ours}"));
        assert!(bad.err.iter().any(|l| l.contains("our own stones")), "{bad:?}");
        assert_eq!(e.view().unwrap().own(), 0, "the try is not taken as accepted");
        assert_eq!(e.view().unwrap().opponent_count(), 1);
        // The try still waits for its answer.
        assert!(e.handle_line("accept").err.is_empty());
        assert_eq!(e.view().unwrap().own().count_ones(), 1);
    }

    #[test]
    fn access_take_accepts_the_try_and_removes_the_stones() {
        let mut e = engine();
        e.handle_line("new white");
        let ours = try_letters(&e.handle_line("move go"));
        let other = if ours == "AA" { "II" } else { "AA" };
        let step = e.handle_line(&format!("access take 1 {other}"));
        assert!(step.err.is_empty(), "{step:?}");
        let view = e.view().unwrap();
        assert_eq!(view.own().count_ones(), 1, "the capture means the try stood");
        assert_eq!(view.opponent_count(), 0);
        assert_eq!(view.taken(), 1);
    }

    #[test]
    fn a_turn_the_referee_passed_for_us() {
        // No `refuse`: the opponent's `move go` after our try says our turn became a
        // pass (the illegal-try bound or rule 7).
        let mut e = engine();
        e.handle_line("new white");
        e.handle_line("move go");
        assert_eq!(e.handle_line("refuse").out.len(), 1, "another try");
        let step = e.handle_line("move go");
        assert!(step.err.iter().any(|l| l.contains("taken as a pass")), "{step:?}");
        assert_eq!(step.out.len(), 1, "a try for the new turn: {step:?}");
        let view = e.view().unwrap();
        assert_eq!(view.own(), 0);
        assert_eq!(view.opponent_count(), 2);
        assert_eq!(view.refused(), 0, "a new turn starts with no refusals");
        assert_eq!(view.earlier_refused().count_ones(), 1, "the refused point is remembered");
    }
}
