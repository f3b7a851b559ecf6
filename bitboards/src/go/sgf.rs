//! SGF (`FF[4]`) for Go games: reading the main line of a game and writing one.
//!
//! Read: `SZ`, `KM`, `RU`, `PB`, `PW`, `RE`, `PL`, setup `AB`/`AW` (with `aa:cc`
//! rectangles), moves `B`/`W` (`[]` or `[tt]` for a pass). Of several variations the
//! first is followed, at any depth of nesting (read with an explicit stack, not by
//! recursion). Values may contain `\]`. `KM` must be a komi the GTP `komi` command
//! takes ([`super::parse_komi`]: finite, at most [`super::MAX_KOMI`] either way).

use thiserror::Error;

use super::board::{Board, Color, SetupError};
use super::coords::Point;
use super::game::Move;

/// A Go game read from or written to SGF.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SgfGame {
    /// Board side (`SZ`, default 19; sente plays up to 9).
    pub size: usize,
    /// Komi (`KM`).
    pub komi: Option<f64>,
    /// Rules (`RU`).
    pub rules: Option<String>,
    /// Black's name (`PB`).
    pub black: Option<String>,
    /// White's name (`PW`).
    pub white: Option<String>,
    /// Result (`RE`), e.g. `B+3.5`.
    pub result: Option<String>,
    /// A comment on the game (`GC`).
    pub comment: Option<String>,
    /// Setup stones (`AB`, `AW`).
    pub setup: Vec<(Color, Point)>,
    /// Who moves first after the setup (`PL`).
    pub to_play: Option<Color>,
    /// The moves of the main line.
    pub moves: Vec<(Color, Move)>,
    /// A comment on each move of the main line (`C` on its node), by index; missing
    /// or `None`: no comment.
    pub move_comments: Vec<Option<String>>,
}

/// An SGF text that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SgfError {
    /// No game tree.
    #[error("no SGF game tree: the text must start with '(;'")]
    NoGame,
    /// Unbalanced brackets or parentheses.
    #[error("unexpected end of SGF (unclosed '[' or '(')")]
    Truncated,
    /// A value that cannot be used.
    #[error("SGF property {property}[{value}]: {problem}")]
    Value {
        /// The property.
        property: String,
        /// Its value.
        value: String,
        /// What is wrong.
        problem: String,
    },
    /// Setup stones no game reaches, or a board sente does not play.
    #[error("{0}")]
    Setup(#[from] SetupError),
}

/// The nodes of the main line: each node a list of (property, values).
type Node = Vec<(String, Vec<String>)>;

/// A game tree being read, in [`Reader::tree`].
struct OpenTree {
    /// Whether its nodes belong to the main line.
    on_main_line: bool,
    /// Whether its next variation is its first one (the one the main line follows).
    first_variation: bool,
}

struct Reader<'a> {
    text: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn skip_space(&mut self) {
        while self.pos < self.text.len() && self.text[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.get(self.pos).copied()
    }

    /// Reads a game tree `( node* tree* )`, appending the main line to `out`: the
    /// nodes of the tree and, recursively, of its first variation. Iterative, with
    /// an explicit stack, so that no nesting depth can overflow the call stack.
    fn tree(&mut self, out: &mut Vec<Node>) -> Result<(), SgfError> {
        if self.peek() != Some(b'(') {
            return Err(SgfError::NoGame);
        }
        // The open trees, innermost last: whether the tree is on the main line, and
        // whether its first variation is still to come.
        let mut open: Vec<OpenTree> = Vec::new();
        let mut on_main_line = true;
        loop {
            // At a '(' that opens a tree: its nodes first, then its variations.
            self.pos += 1;
            open.push(OpenTree { on_main_line, first_variation: true });
            while self.peek() == Some(b';') {
                self.pos += 1;
                let node = self.node()?;
                if on_main_line {
                    out.push(node);
                }
            }
            // Variations, closing parentheses and stray text, until a variation opens.
            loop {
                match self.peek() {
                    Some(b'(') => {
                        let Some(parent) = open.last_mut() else { return Ok(()) };
                        on_main_line = parent.on_main_line && parent.first_variation;
                        parent.first_variation = false;
                        break;
                    }
                    Some(b')') => {
                        self.pos += 1;
                        open.pop();
                        if open.is_empty() {
                            return Ok(());
                        }
                    }
                    Some(_) => {
                        // Stray text between nodes: skip a character.
                        self.pos += 1;
                    }
                    None => return Err(SgfError::Truncated),
                }
            }
        }
    }

    fn node(&mut self) -> Result<Node, SgfError> {
        let mut props = Vec::new();
        loop {
            self.skip_space();
            let start = self.pos;
            while self.pos < self.text.len() && self.text[self.pos].is_ascii_alphabetic() {
                self.pos += 1;
            }
            if self.pos == start {
                return Ok(props);
            }
            let name: String = String::from_utf8_lossy(&self.text[start..self.pos])
                .chars()
                .filter(|c| c.is_ascii_uppercase())
                .collect();
            let mut values = Vec::new();
            while self.peek() == Some(b'[') {
                self.pos += 1;
                let mut v = Vec::new();
                loop {
                    match self.text.get(self.pos) {
                        None => return Err(SgfError::Truncated),
                        Some(b'\\') => {
                            if let Some(&c) = self.text.get(self.pos + 1) {
                                v.push(c);
                            }
                            self.pos += 2;
                        }
                        Some(b']') => {
                            self.pos += 1;
                            break;
                        }
                        Some(&c) => {
                            v.push(c);
                            self.pos += 1;
                        }
                    }
                }
                values.push(String::from_utf8_lossy(&v).into_owned());
            }
            props.push((name, values));
        }
    }
}

fn bad(property: &str, value: &str, problem: impl Into<String>) -> SgfError {
    SgfError::Value { property: property.to_string(), value: value.to_string(), problem: problem.into() }
}

impl SgfGame {
    /// The position before the first move: the setup stones checked by the one rule
    /// for setup stones ([`Board::with_stones`]: a supported size, no point given both
    /// colours, no group without liberties), and the side to move (`PL`, else the
    /// colour of the first move, else black).
    pub fn start_board(&self) -> Result<Board, SgfError> {
        let mut board = Board::with_stones(self.size, self.setup.iter().copied())?;
        board.set_to_move(self.to_play.or(self.moves.first().map(|m| m.0)).unwrap_or(Color::BLACK));
        Ok(board)
    }
}

/// Reads the first game of an SGF text.
pub fn parse(text: &str) -> Result<SgfGame, SgfError> {
    let start = text.find('(').ok_or(SgfError::NoGame)?;
    let mut reader = Reader { text: &text.as_bytes()[start..], pos: 0 };
    let mut nodes = Vec::new();
    reader.tree(&mut nodes)?;
    let mut game = SgfGame { size: 19, ..SgfGame::default() };
    // The size must be known before points are read: look for SZ first.
    for (name, values) in nodes.iter().flatten() {
        if name == "SZ" {
            let v = values.first().map(String::as_str).unwrap_or("");
            let side = |t: &str| t.trim().parse::<usize>().map_err(|_| bad("SZ", v, "not a size"));
            game.size = match v.split_once(':') {
                None => side(v)?,
                Some((columns, rows)) if side(columns)? == side(rows)? => side(columns)?,
                Some(_) => return Err(bad("SZ", v, "a rectangular board: sente plays square boards only")),
            };
        }
    }
    let point = |prop: &str, v: &str, size: usize| -> Result<Option<Point>, SgfError> {
        if v.is_empty() || (v == "tt" && size <= 19) {
            return Ok(None);
        }
        Point::from_sgf(v, size).map(Some).map_err(|e| bad(prop, v, e.to_string()))
    };
    for (name, values) in nodes.iter().flatten() {
        let first = values.first().map(String::as_str).unwrap_or("");
        match name.as_str() {
            // The checks of the GTP `komi` command: a finite number of sane size.
            "KM" => game.komi = Some(super::text::parse_komi(first).map_err(|e| bad("KM", first, e))?),
            "RU" => game.rules = Some(first.to_string()),
            "PB" => game.black = Some(first.to_string()),
            "PW" => game.white = Some(first.to_string()),
            "RE" => game.result = Some(first.to_string()),
            "GC" => game.comment = Some(first.to_string()),
            "PL" => {
                game.to_play = Some(match first.trim() {
                    "B" | "b" => Color::BLACK,
                    "W" | "w" => Color::WHITE,
                    _ => return Err(bad("PL", first, "not B or W")),
                })
            }
            "AB" | "AW" => {
                let color = if name == "AB" { Color::BLACK } else { Color::WHITE };
                for v in values {
                    match v.split_once(':') {
                        Some((a, b)) => {
                            let (Some(a), Some(b)) = (point(name, a, game.size)?, point(name, b, game.size)?) else {
                                return Err(bad(name, v, "an empty point in a rectangle"));
                            };
                            for r in a.row().min(b.row())..=a.row().max(b.row()) {
                                for c in a.col().min(b.col())..=a.col().max(b.col()) {
                                    game.setup.push((color, Point::new(r, c)));
                                }
                            }
                        }
                        None => {
                            if let Some(p) = point(name, v, game.size)? {
                                game.setup.push((color, p));
                            }
                        }
                    }
                }
            }
            "B" | "W" => {
                let color = if name == "B" { Color::BLACK } else { Color::WHITE };
                let mv = point(name, first, game.size)?.map_or(Move::Pass, Move::Play);
                game.moves.push((color, mv));
            }
            _ => {}
        }
    }
    // A node's comment belongs to its move (the last, should a node hold two).
    game.move_comments = nodes
        .iter()
        .flat_map(|node| {
            let moves = node.iter().filter(|(name, _)| name == "B" || name == "W").count();
            let comment = node.iter().find(|(name, _)| name == "C").and_then(|(_, v)| v.first().cloned());
            (0..moves).map(move |i| if i + 1 == moves { comment.clone() } else { None })
        })
        .collect();
    if game.move_comments.iter().all(Option::is_none) {
        game.move_comments.clear();
    }
    Ok(game)
}

/// Writes a game as SGF.
pub fn write(game: &SgfGame) -> String {
    let esc = |s: &str| s.replace('\\', "\\\\").replace(']', "\\]");
    let mut out = format!("(;FF[4]GM[1]CA[UTF-8]AP[sente]SZ[{}]", game.size);
    if let Some(k) = game.komi {
        out.push_str(&format!("KM[{k}]"));
    }
    for (tag, v) in
        [("RU", &game.rules), ("PB", &game.black), ("PW", &game.white), ("RE", &game.result), ("GC", &game.comment)]
    {
        if let Some(v) = v {
            out.push_str(&format!("{tag}[{}]", esc(v)));
        }
    }
    for color in [Color::BLACK, Color::WHITE] {
        let stones: Vec<String> =
            game.setup.iter().filter(|(c, _)| *c == color).map(|(_, p)| format!("[{}]", p.to_sgf())).collect();
        if !stones.is_empty() {
            out.push_str(if color == Color::BLACK { "AB" } else { "AW" });
            out.push_str(&stones.concat());
        }
    }
    if let Some(c) = game.to_play {
        out.push_str(&format!("PL[{}]", c.stone_letter()));
    }
    for (i, (c, m)) in game.moves.iter().enumerate() {
        if i % 10 == 0 {
            out.push('\n');
        }
        let v = match m {
            Move::Play(p) => p.to_sgf(),
            Move::Pass => String::new(),
        };
        out.push_str(&format!(";{}[{v}]", c.stone_letter()));
        if let Some(Some(comment)) = game.move_comments.get(i) {
            out.push_str(&format!("C[{}]", esc(comment)));
        }
    }
    out.push_str(")\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_comments_follow_the_main_line() {
        let text = "(;SZ[5]C[root];B[aa]C[first \\] one];W[bb];B[cc]C[x](;W[dd]C[main])(;W[ee]C[variation]))";
        let game = parse(text).expect("an SGF game");
        assert_eq!(game.moves.len(), 4);
        assert_eq!(game.move_comments, vec![Some("first ] one".into()), None, Some("x".into()), Some("main".into())]);
        assert_eq!(game.comment, None, "the root's C is no move's");
        // Written back, each comment stays on its move.
        assert_eq!(parse(&write(&game)).expect("written SGF").move_comments, game.move_comments);
    }

    #[test]
    fn reads_a_game_with_setup_passes_and_variations() {
        let text = "(;FF[4]GM[1]SZ[9]KM[6.5]RU[Chinese]PB[Black \\] man]PW[w]AB[aa][bb:cc]AW[ii]PL[W]\n;W[ee];B[tt](;W[dd];B[])(;W[ff]))";
        let g = parse(text).unwrap();
        assert_eq!(g.size, 9);
        assert_eq!(g.komi, Some(6.5));
        assert_eq!(g.black.as_deref(), Some("Black ] man"));
        assert_eq!(g.setup.len(), 1 + 4 + 1);
        assert_eq!(g.to_play, Some(Color::WHITE));
        assert_eq!(
            g.moves,
            vec![
                (Color::WHITE, Move::Play(Point::new(4, 4))),
                (Color::BLACK, Move::Pass),
                (Color::WHITE, Move::Play(Point::new(3, 3))),
                (Color::BLACK, Move::Pass),
            ]
        );
    }

    #[test]
    fn write_then_read() {
        let g = SgfGame {
            size: 7,
            komi: Some(7.5),
            result: Some("W+2.5".into()),
            setup: vec![(Color::BLACK, Point::new(3, 3))],
            moves: vec![(Color::WHITE, Move::Play(Point::new(0, 6))), (Color::BLACK, Move::Pass)],
            ..SgfGame::default()
        };
        assert_eq!(parse(&write(&g)).unwrap(), SgfGame { size: 7, ..g.clone() });
    }

    #[test]
    fn deep_nesting_of_trees_is_read_without_recursion() {
        let depth = 50_000;
        let text = format!("{};SZ[9]{}", "(".repeat(depth), ")".repeat(depth));
        assert_eq!(parse(&text), Ok(SgfGame { size: 9, ..SgfGame::default() }));
        // Unclosed, it is truncated.
        assert_eq!(parse(&text[..text.len() - 1]), Err(SgfError::Truncated));
    }

    #[test]
    fn a_long_chain_of_variations_is_read_without_recursion() {
        let depth = 60_000;
        let point = |i: usize| Point::new(i % 9, (i / 9) % 9);
        let mut text = String::from("(;SZ[9]");
        for i in 0..depth {
            let color = if i % 2 == 0 { 'B' } else { 'W' };
            text.push_str(&format!("(;{color}[{}]", point(i).to_sgf()));
        }
        text.push_str(&")".repeat(depth + 1));
        let g = parse(&text).unwrap();
        assert_eq!(g.size, 9);
        assert_eq!(g.moves.len(), depth);
        assert_eq!(g.moves[0], (Color::BLACK, Move::Play(point(0))));
        assert_eq!(g.moves[depth - 1], (Color::WHITE, Move::Play(point(depth - 1))));
    }

    #[test]
    fn deep_variations_off_the_main_line_are_skipped() {
        // Each level: a first variation (on the main line only at the top) and a second
        // one holding the next level.
        let depth = 60_000;
        let mut text = String::from("(;SZ[9];B[ee]");
        for _ in 0..depth {
            text.push_str("(;W[cc])(;W[dd]");
        }
        text.push_str(&")".repeat(depth + 1));
        let g = parse(&text).unwrap();
        assert_eq!(
            g.moves,
            vec![(Color::BLACK, Move::Play(Point::new(4, 4))), (Color::WHITE, Move::Play(Point::new(2, 2)))]
        );
        // Unclosed deep down, it is truncated.
        let truncated = format!("{}(;W[cc])(;W[dd]", &text[..text.len() - depth - 1]);
        assert_eq!(parse(&truncated), Err(SgfError::Truncated));
    }

    #[test]
    fn variations_and_stray_text_are_read_as_before() {
        // The main line follows first variations only, wherever they nest.
        let g = parse("(;SZ[5](;B[aa](;W[bb])(;W[cc]);B[dd])x(;B[ee]))").unwrap();
        assert_eq!(
            g.moves,
            vec![
                (Color::BLACK, Move::Play(Point::from_sgf("aa", 5).unwrap())),
                (Color::WHITE, Move::Play(Point::from_sgf("bb", 5).unwrap()))
            ]
        );
        // Nodes after the variations of a tree are stray text.
        let g = parse("(;SZ[5](;B[aa])  ;W[bb])").unwrap();
        assert_eq!(g.moves.len(), 1);
        // Text before the first '(' is skipped; a node without its ';' is stray text.
        assert_eq!(parse("garbage (;SZ[5])").map(|g| g.size), Ok(5));
        assert_eq!(parse("(SZ[5])").map(|g| g.size), Ok(19));
        assert_eq!(parse("(;SZ[5](;B[aa]"), Err(SgfError::Truncated));
        assert_eq!(parse("(;SZ[5](;B[aa])(;W[a"), Err(SgfError::Truncated));
    }

    #[test]
    fn errors() {
        assert_eq!(parse("no game"), Err(SgfError::NoGame));
        assert_eq!(parse("(;SZ[9];B[aa"), Err(SgfError::Truncated));
        assert!(matches!(parse("(;SZ[9];B[zz])"), Err(SgfError::Value { .. })));
        assert!(matches!(parse("(;SZ[x])"), Err(SgfError::Value { .. })));
        assert!(matches!(parse("(;SZ[9:7])"), Err(SgfError::Value { .. })), "a rectangular board");
        assert_eq!(parse("(;SZ[ 9 : 9 ])").map(|g| g.size), Ok(9));
        assert!(matches!(parse("(;KM[lots])"), Err(SgfError::Value { .. })));
    }

    #[test]
    fn komi_gets_the_checks_of_the_gtp_komi_command() {
        assert_eq!(parse("(;SZ[9]KM[ -6.5 ])").map(|g| g.komi), Ok(Some(-6.5)));
        for k in ["NaN", "nan", "inf", "-inf", "1e999", "1001", "-1e9", ""] {
            let text = format!("(;GM[1]SZ[9]KM[{k}];B[ee])");
            match parse(&text) {
                Err(SgfError::Value { property, value, problem }) => {
                    assert_eq!((property.as_str(), value.as_str()), ("KM", k));
                    assert!(problem.contains("bad komi"), "{problem}");
                }
                other => panic!("{text} gives {other:?}"),
            }
        }
    }

    #[test]
    fn the_start_board_applies_the_one_rule_for_setup_stones() {
        let start = |t: &str| parse(t).unwrap().start_board();
        let a9 = Point::new(0, 0);
        assert_eq!(start("(;SZ[9]AB[aa]AW[ab][ba])"), Err(SgfError::Setup(SetupError::NoLiberties(a9, 9))));
        assert!(matches!(start("(;SZ[3]AW[aa:cc])"), Err(SgfError::Setup(SetupError::NoLiberties(..)))));
        assert_eq!(start("(;SZ[9]AB[aa]AW[aa])"), Err(SgfError::Setup(SetupError::BothColours(a9, 9))));
        assert_eq!(start("(;SZ[19])"), Err(SgfError::Setup(SetupError::Size(19))));
        let board = start("(;SZ[9]AB[aa]AW[ab];W[cc])").unwrap();
        assert_eq!((board.at(a9), board.to_move()), (Some(Color::BLACK), Color::WHITE));
    }
}
