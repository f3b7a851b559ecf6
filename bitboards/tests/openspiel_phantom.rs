//! Random games of OpenSpiel's own `phantom_go` (9×9, its default parameters), replayed
//! through sente's referee with the OpenSpiel rules: every try must get the answer
//! OpenSpiel gave (accepted or refused, and the stones a capture took), the game must
//! end at the same try, and the returns, the true board and both players' observations
//! at the end must agree. The games were made by `scripts/openspiel_phantom_games.py`
//! (the command is at the top of the data file); some end on two passes after a
//! "pass, refused tries, pass" that OpenSpiel does not end on.

use bitboards::go::{Color, Move, Point};
use bitboards::phantom::{Answer, PhantomConfig, Referee, SIZE};

const GAMES: &str = include_str!("../../tests/data/phantom/openspiel_games.txt");

/// OpenSpiel's pass action on 9×9.
const PASS: u32 = 81;

/// One try as OpenSpiel answered it.
#[derive(Clone, Copy, Debug)]
struct Try {
    action: u32,
    accepted: bool,
    captured: u32,
}

/// One game as OpenSpiel played it.
#[derive(Debug, Default)]
struct OpenSpielGame {
    number: String,
    tries: Vec<Try>,
    terminal: bool,
    returns: [f64; 2],
    board: String,
    views: [String; 2],
}

fn parse(text: &str) -> Vec<OpenSpielGame> {
    let mut games: Vec<OpenSpielGame> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        if key == "game" {
            games.push(OpenSpielGame { number: rest.to_string(), ..OpenSpielGame::default() });
            continue;
        }
        let game = games.last_mut().unwrap_or_else(|| panic!("'{line}' before the first game"));
        match key {
            "tries" => {
                game.tries = rest
                    .split_whitespace()
                    .map(|t| {
                        let (accepted, t) = match t.strip_suffix('-') {
                            Some(t) => (false, t),
                            None => (true, t),
                        };
                        let (action, captured) = t.split_once(':').unwrap_or((t, "0"));
                        Try {
                            action: action.parse().unwrap_or_else(|_| panic!("bad action '{t}'")),
                            accepted,
                            captured: captured.parse().unwrap_or_else(|_| panic!("bad capture '{t}'")),
                        }
                    })
                    .collect()
            }
            "end" => {
                let fields: Vec<&str> = rest.split_whitespace().collect();
                assert_eq!(fields.len(), 3, "{line}");
                game.terminal = fields[0] == "terminal";
                game.returns = [fields[1].parse().unwrap(), fields[2].parse().unwrap()];
            }
            "board" => game.board = rest.to_string(),
            "black" => game.views[0] = rest.to_string(),
            "white" => game.views[1] = rest.to_string(),
            _ => panic!("unknown line '{line}'"),
        }
    }
    games
}

/// OpenSpiel's action: row × 9 + column, rows from the bottom (a1 is 0); 81 passes.
fn to_move(action: u32) -> Move {
    if action == PASS {
        return Move::Pass;
    }
    let (row_from_bottom, col) = (action as usize / SIZE, action as usize % SIZE);
    Move::Play(Point::new(SIZE - 1 - row_from_bottom, col))
}

/// A board as OpenSpiel draws it: rows 9 to 1, columns a to j, `X`, `O` or `+`.
fn drawing(at: impl Fn(Point) -> Option<Color>) -> String {
    (0..SIZE * SIZE)
        .map(|i| match at(Point::new(i / SIZE, i % SIZE)) {
            Some(Color::BLACK) => 'X',
            Some(Color::WHITE) => 'O',
            None => '+',
        })
        .collect()
}

/// Whether `tries` hold a pass, then refused tries, then a pass.
fn has_pass_refused_pass(tries: &[Try]) -> bool {
    tries.iter().enumerate().any(|(i, t)| {
        let refused = tries[i + 1..].iter().take_while(|t| !t.accepted).count();
        t.action == PASS && refused > 0 && tries.get(i + 1 + refused).is_some_and(|t| t.action == PASS)
    })
}

#[test]
fn sente_s_referee_answers_as_openspiel_did() {
    let games = parse(GAMES);
    assert_eq!(games.len(), 50);
    let with_pattern = games.iter().filter(|g| has_pass_refused_pass(&g.tries)).count();
    assert!(with_pattern >= 5, "only {with_pattern} games with pass, refused tries, pass");
    for game in &games {
        let name = format!("game {}", game.number);
        let mut r = Referee::new(PhantomConfig::open_spiel());
        for (i, t) in game.tries.iter().enumerate() {
            assert!(!r.is_over(), "{name}: sente's game ended before try {i} ({:?})", r.end_reason());
            let answer = r.try_move(to_move(t.action)).unwrap_or_else(|e| panic!("{name}, try {i}: {e}"));
            assert_eq!(answer.is_legal(), t.accepted, "{name}, try {i} ({}): {answer:?}", t.action);
            let captured = if let Answer::Legal { captured } = answer { captured.count_ones() } else { 0 };
            assert_eq!(captured, t.captured, "{name}, try {i} ({}): stones captured", t.action);
        }
        assert_eq!(r.is_over(), game.terminal, "{name}: over after the last try ({:?})", r.end_reason());
        let result = r.result(0).unwrap_or_else(|| panic!("{name}: no result"));
        let returns = match result.winner {
            Some(Color::BLACK) => [1.0, -1.0],
            Some(Color::WHITE) => [-1.0, 1.0],
            None => [0.0, 0.0],
        };
        assert_eq!(returns, game.returns, "{name}: {} ({:?})", result.text(), result.reason);
        assert_eq!(drawing(|p| r.board().at(p)), game.board, "{name}: the true board");
        for (color, view) in [(Color::BLACK, &game.views[0]), (Color::WHITE, &game.views[1])] {
            assert_eq!(&drawing(|p| r.view(color).at(p)), view, "{name}: {color:?}'s observation");
        }
    }
}
