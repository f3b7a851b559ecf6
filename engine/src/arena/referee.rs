//! The true game of a match, held by the arena with our own rules: it checks every
//! move an engine sends, knows when the game is over and who won, and writes the
//! record (SGF for Go, GGF for Othello, a text form for Chaos Clock).

use std::sync::atomic::AtomicBool;

use bitboards::chaosclock::{self as cc, Record};
use bitboards::go::{self, Color as GoColor, Point, Superko};
use bitboards::othello::{Board, Color, Move as OthelloMove, Position};
use search::go::mcts::dead_stones;
use search::othello::{SolveLimits, SolveMode, Solver};

use crate::go::{DEAD_THRESHOLD, STATUS_PLAYOUTS};

/// The games the arena referees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameKind {
    /// Othello 8×8.
    Othello,
    /// Go up to 9×9, area scoring.
    Go,
    /// Chaos Clock.
    ChaosClock,
}

impl GameKind {
    /// Reads `othello`, `go` or `chaosclock`.
    pub fn parse(text: &str) -> Result<GameKind, String> {
        match text.to_ascii_lowercase().as_str() {
            "othello" | "reversi" => Ok(GameKind::Othello),
            "go" => Ok(GameKind::Go),
            "chaosclock" | "chaos-clock" => Ok(GameKind::ChaosClock),
            other => Err(format!("unknown game '{other}': othello, go or chaosclock")),
        }
    }
}

/// How a game ended, from the first player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The first player (Othello and Go black, Chaos Clock 乙) won.
    FirstWins,
    /// The second player won.
    SecondWins,
    /// A draw (Othello, Go with integer komi).
    Draw,
    /// Chaos Clock: both won (a draw for the statistics).
    BothWin,
    /// Chaos Clock: both lost (a draw for the statistics).
    BothLose,
}

impl Outcome {
    /// The first player's score: 1, ½ or 0.
    pub fn first_score(self) -> f64 {
        match self {
            Outcome::FirstWins => 1.0,
            Outcome::SecondWins => 0.0,
            _ => 0.5,
        }
    }

    /// The outcome of a margin from the first player's side (positive: first wins).
    pub fn of_margin(margin: f64) -> Outcome {
        if margin > 0.0 {
            Outcome::FirstWins
        } else if margin < 0.0 {
            Outcome::SecondWins
        } else {
            Outcome::Draw
        }
    }

    /// The loss of `seat` (0: first player).
    pub fn loss_of(seat: usize) -> Outcome {
        if seat == 0 { Outcome::SecondWins } else { Outcome::FirstWins }
    }

    /// `1-0`, `0-1`, `1/2-1/2`, `both-win`, `both-lose`.
    pub fn text(self) -> &'static str {
        match self {
            Outcome::FirstWins => "1-0",
            Outcome::SecondWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::BothWin => "both-win",
            Outcome::BothLose => "both-lose",
        }
    }
}

/// A finished game's outcome, why it ended, and the score text (`B+3.5`, `34-30`).
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// The outcome.
    pub outcome: Outcome,
    /// Why the game ended.
    pub reason: String,
    /// The score in the game's own terms, if any.
    pub score: Option<String>,
}

/// Settings of the referee.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RefereeRules {
    /// Board side (Go).
    pub size: usize,
    /// Komi (Go).
    pub komi: f64,
    /// Othello: solve exactly and end the game at this many empties (0: never).
    pub solve_empties: u32,
    /// End the game after this many moves: Go is then scored as it stands, Chaos
    /// Clock ends with both losing, Othello cannot last that long.
    pub max_moves: usize,
}

/// The game being refereed.
pub enum Referee {
    /// Othello from a start position.
    Othello {
        /// The start.
        start: Position<Board>,
        /// The current position.
        position: Position<Board>,
        /// The exact solver for early adjudication.
        solver: Option<Box<Solver>>,
    },
    /// Go.
    Go(go::Game),
    /// Chaos Clock.
    ChaosClock(Record),
}

/// An opening: a start position (game text form; `None`: the standard start) and
/// moves played from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    /// The start position.
    pub start: Option<String>,
    /// Moves from the start.
    pub moves: Vec<String>,
}

impl Referee {
    /// The game at the start of `opening`, its moves not yet played.
    pub fn new(kind: GameKind, rules: &RefereeRules, start: Option<&str>) -> Result<Referee, String> {
        Ok(match kind {
            GameKind::Othello => {
                let start = match start {
                    None => Position::start(),
                    Some(text) => Position::parse(text).map_err(|e| format!("bad Othello position '{text}': {e}"))?,
                };
                let solver = (rules.solve_empties > 0).then(|| Box::new(Solver::new(16, 1)));
                Referee::Othello { start, position: start, solver }
            }
            GameKind::Go => {
                if start.is_some() {
                    return Err("Go openings are move sequences, not positions".into());
                }
                if !(2..=go::MAX_SIZE).contains(&rules.size) {
                    return Err(format!("Go board size {} is not supported (2..{})", rules.size, go::MAX_SIZE));
                }
                Referee::Go(go::Game::new(go::Board::new(rules.size), rules.komi, Superko::Positional))
            }
            GameKind::ChaosClock => {
                let text = start.ok_or("Chaos Clock openings are positions (deals)")?;
                let state = cc::State::parse(text).map_err(|e| format!("bad Chaos Clock position '{text}': {e}"))?;
                Referee::ChaosClock(Record::new(state))
            }
        })
    }

    /// The seat to move (0: the first player).
    pub fn seat_to_move(&self) -> usize {
        match self {
            Referee::Othello { position, .. } => usize::from(position.side_to_move() == Color::White),
            Referee::Go(g) => usize::from(g.board().to_move() == GoColor::White),
            Referee::ChaosClock(r) => usize::from(r.state().to_move() == cc::Side::Jia),
        }
    }

    /// Plays a move of the side to move given as text; returns it in the arena's
    /// canonical text, or why it is not legal.
    pub fn play(&mut self, text: &str) -> Result<String, String> {
        match self {
            Referee::Othello { position, .. } => {
                let mv = OthelloMove::parse(text, 8).map_err(|e| e.to_string())?;
                *position = position.play(mv).map_err(|e| e.to_string())?;
                Ok(mv.name(8))
            }
            Referee::Go(g) => {
                let size = g.board().size();
                let mv = if text.eq_ignore_ascii_case("pass") {
                    go::Move::Pass
                } else {
                    go::Move::Play(Point::from_gtp(text, size).map_err(|e| e.to_string())?)
                };
                let color = g.board().to_move();
                g.play(color, mv).map_err(|e| e.to_string())?;
                Ok(match mv {
                    go::Move::Pass => "pass".to_string(),
                    go::Move::Play(p) => p.to_gtp(size),
                })
            }
            Referee::ChaosClock(r) => {
                let mv = cc::Move::parse(text)?;
                r.play(mv).map_err(|e| e.to_string())?;
                Ok(mv.to_string())
            }
        }
    }

    /// The ending, if the game is over by its rules, by adjudication with the exact
    /// solver (Othello) or by the move cap.
    pub fn ending(&mut self, rules: &RefereeRules, moves: usize) -> Option<Ending> {
        match self {
            Referee::Othello { position, solver, .. } => {
                if let Some(r) = position.result() {
                    let (b, w) = r.wof_counts();
                    let outcome = Outcome::of_margin(r.black_margin().into());
                    return Some(Ending { outcome, reason: "game over".into(), score: Some(format!("{b}-{w}")) });
                }
                let empties = position.board().empty_count();
                if let Some(solver) = solver
                    && empties <= rules.solve_empties
                {
                    let s = solver.solve(
                        position.board(),
                        SolveMode::Exact,
                        &AtomicBool::new(false),
                        SolveLimits::default(),
                    )?;
                    let black_margin = if position.side_to_move() == Color::Black { s.score } else { -s.score };
                    return Some(Ending {
                        outcome: Outcome::of_margin(black_margin.into()),
                        reason: format!("adjudicated by the exact solver at {empties} empties"),
                        score: Some(format!("black {black_margin:+} with perfect play")),
                    });
                }
                None
            }
            Referee::Go(g) => {
                if g.is_over() || moves >= rules.max_moves {
                    let score = g.score(judge_dead(g));
                    let reason = if moves >= rules.max_moves {
                        format!("move cap ({} moves): scored as it stands", rules.max_moves)
                    } else {
                        "two passes: area scoring".to_string()
                    };
                    return Some(Ending {
                        outcome: Outcome::of_margin(score.margin()),
                        reason,
                        score: Some(score.result()),
                    });
                }
                None
            }
            Referee::ChaosClock(r) => {
                let reason = match r.state().outcome() {
                    Some(_) if r.moves().len() >= 2 && r.state().outcome() == Some(cc::Outcome::BothLose) => {
                        "both lose (two passes or a repeated position)".to_string()
                    }
                    Some(_) => "game over".to_string(),
                    None if moves >= rules.max_moves => {
                        return Some(Ending {
                            outcome: Outcome::BothLose,
                            reason: format!("move cap ({} moves): both lose", rules.max_moves),
                            score: None,
                        });
                    }
                    None => return None,
                };
                let outcome = match r.state().outcome()? {
                    cc::Outcome::Win(cc::Side::Yi) => Outcome::FirstWins,
                    cc::Outcome::Win(cc::Side::Jia) => Outcome::SecondWins,
                    cc::Outcome::BothWin => Outcome::BothWin,
                    cc::Outcome::BothLose => Outcome::BothLose,
                };
                Some(Ending { outcome, reason, score: None })
            }
        }
    }

    /// Go: the arena's dead stones as sorted GTP vertices.
    pub fn dead_vertices(&self) -> Vec<String> {
        let Referee::Go(g) = self else { return Vec::new() };
        let size = g.board().size();
        let dead = judge_dead(g);
        let mut v: Vec<String> = go::points(size).filter(|p| dead & p.bit() != 0).map(|p| p.to_gtp(size)).collect();
        v.sort();
        v
    }

    /// Go: the score when `dead` (GTP vertices) are removed.
    pub fn score_with_dead(&self, dead: &[String]) -> Option<Ending> {
        let Referee::Go(g) = self else { return None };
        let size = g.board().size();
        let mut bits = 0u128;
        for v in dead {
            bits |= Point::from_gtp(v, size).ok()?.bit();
        }
        let score = g.score(bits);
        Some(Ending {
            outcome: Outcome::of_margin(score.margin()),
            reason: "two passes: area scoring".into(),
            score: Some(score.result()),
        })
    }

    /// The start in GGF `BO` form (Othello; empty otherwise).
    pub fn ggf_board(&self) -> String {
        match self {
            Referee::Othello { start, .. } => {
                let text = start.to_string();
                let (squares, side) = text.split_once(' ').unwrap_or((&text, "X"));
                let squares: String = squares.chars().map(|c| if c == 'X' { '*' } else { c }).collect();
                format!("8 {squares} {}", if side == "X" { '*' } else { 'O' })
            }
            _ => String::new(),
        }
    }
}

/// The stones the arena judges dead at the end of a Go game: the same settling
/// playouts as our `final_status_list`.
fn judge_dead(g: &go::Game) -> u128 {
    dead_stones(g.board(), STATUS_PLAYOUTS, DEAD_THRESHOLD, 7)
}

/// Writes a finished game's record: (file extension, text).
pub fn write_record(
    referee: &Referee,
    names: [&str; 2],
    moves: &[String],
    ending: &Ending,
    start: Option<&str>,
) -> (&'static str, String) {
    match referee {
        Referee::Go(g) => {
            let sgf = go::sgf::SgfGame {
                size: g.board().size(),
                komi: Some(g.komi()),
                rules: Some("Chinese".into()),
                black: Some(names[0].to_string()),
                white: Some(names[1].to_string()),
                result: Some(match ending.outcome {
                    Outcome::Draw => "0".to_string(),
                    Outcome::FirstWins if ending.score.as_deref().is_none_or(|s| !s.starts_with("B+")) => {
                        "B+R".to_string()
                    }
                    Outcome::SecondWins if ending.score.as_deref().is_none_or(|s| !s.starts_with("W+")) => {
                        "W+R".to_string()
                    }
                    _ => ending.score.clone().unwrap_or_default(),
                }),
                comment: Some(ending.reason.clone()),
                moves: g.moves().to_vec(),
                ..Default::default()
            };
            ("sgf", go::sgf::write(&sgf))
        }
        Referee::Othello { position, .. } => {
            // GGS writes black's final margin; a game ended otherwise has RE[?] and
            // its outcome in the comment.
            let result = position.result().map_or("?".to_string(), |r| format!("{:+}.000", r.black_margin()));
            let mut text = format!(
                "(;GM[Othello]PC[sente arena]PB[{}]PW[{}]RE[{result}]TY[8]GC[{}: {}]BO[{}]",
                esc(names[0]),
                esc(names[1]),
                ending.outcome.text(),
                esc(&ending.reason),
                referee.ggf_board()
            );
            let mut black = start.is_none_or(|s| s.trim_end().ends_with('X') || s.trim_end().ends_with('*'));
            for m in moves {
                let t = if m == "pass" { "PA".to_string() } else { m.to_ascii_uppercase() };
                text.push_str(&format!("{}[{t}]", if black { "B" } else { "W" }));
                black = !black;
            }
            text.push_str(";)");
            ("ggf", text)
        }
        Referee::ChaosClock(r) => {
            let mut text = format!(
                "# Chaos Clock game (sente arena)\nstart {}\n乙 (first) {}\n甲 (second) {}\nmoves {}\nresult {}\nreason {}\n",
                r.start(),
                names[0],
                names[1],
                moves.join(" "),
                ending.outcome.text(),
                ending.reason
            );
            text.push_str(&format!("final {}\n", r.state()));
            ("txt", text)
        }
    }
}

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}
