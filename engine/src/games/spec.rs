//! [`GameSpec`]: everything the front ends, the arena and the tools need to know of
//! one game, in one place. A game implements it once; UGI+ (`setoption name Game`,
//! `BoardSize`), GTP (`list_games`, `set_game`), the arena (`--game`, its referee,
//! its defaults) and the subcommands' `--game` all read it.

use crate::error::Result;
use crate::games::referee::{Opening, RefereeRules, Refereed};
use crate::games::replay::{ReplayInput, Replayed, ReportFace};
use crate::games::session::GameSession;

/// The board sizes a game is played on, as UGI+ `setoption name BoardSize` takes
/// them and `ugi` announces them (a spin from `min` to `max`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSizes {
    /// The size of a new session.
    pub default: usize,
    /// The smallest size.
    pub min: usize,
    /// The largest size.
    pub max: usize,
    /// The sizes in words, e.g. `6, 8 or 10`.
    pub text: &'static str,
}

/// One game as the rest of the engine sees it.
pub trait GameSpec: Send + Sync + 'static {
    /// The name UGI+ `setoption name Game`, `--game` and the records use, in lower
    /// case (`othello`).
    fn name(&self) -> &'static str;
    /// Other names read as this game (`reversi`).
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }
    /// The name in titles (`Phantom Go`).
    fn title(&self) -> &'static str;
    /// Player one and player two in the game's own terms: black and white unless the
    /// game says otherwise (Chaos Clock: 乙 and 甲).
    fn player_names(&self) -> (&'static str, &'static str) {
        ("black", "white")
    }
    /// The board sizes it is played on.
    fn board_sizes(&self) -> BoardSizes;
    /// A new session (UGI+, and GTP for a game with a [`GameSpec::gtp_name`]) on a
    /// board of side `size` (the default if `None`); a size the game is not played on
    /// is refused with a message naming the sizes.
    fn new_session(&self, size: Option<usize>) -> Result<Box<dyn GameSession>>;
    /// The name GTP's `list_games` gives, for a game GTP plays (its session's GTP
    /// commands, on its default board).
    fn gtp_name(&self) -> Option<&'static str> {
        None
    }
    /// The referee of a new game at `start` (the game's text form; `None`: the
    /// standard start), before an opening's moves are played.
    fn new_referee(&self, rules: &RefereeRules, start: Option<&str>) -> std::result::Result<Box<dyn Refereed>, String>;
    /// The board side the arena plays on, given the `--size` asked for.
    fn arena_size(&self, size: Option<usize>) -> std::result::Result<usize, String> {
        let sizes = self.board_sizes();
        match size {
            None => Ok(sizes.default),
            Some(n) if (sizes.min..=sizes.max).contains(&n) => Ok(n),
            Some(n) => Err(format!("{} is played on boards of side {}, not {n}", self.title(), sizes.text)),
        }
    }
    /// The komi the arena gives when none is asked for, `None` for a game without
    /// komi (the arena then records 7 and sends none).
    fn default_komi(&self) -> Option<f64> {
        None
    }
    /// The arena's move cap on a board of side `size`.
    fn max_moves(&self, size: usize) -> usize {
        let _ = size;
        1000
    }
    /// The plies of a random opening when none is asked for.
    fn random_plies(&self) -> usize {
        2
    }
    /// How `sente arena report` shows this game: the seats' names, the words for a
    /// turn, the replay's layout and hint.
    fn report_face(&self) -> ReportFace {
        ReportFace::default()
    }
    /// The game and the match's settings in the report's title line (`Go 9×9, komi
    /// 7`; Phantom Go names its rule set).
    fn describe_match(&self, rules: &RefereeRules) -> String {
        let _ = rules;
        self.title().to_string()
    }
    /// The captions of the boards a replay draws side by side, with the engines in
    /// the first and second seat.
    fn board_captions(&self, first: &str, second: &str) -> Vec<String> {
        let [a, b] = self.report_face().seats;
        vec![format!("{a} {first} – {b} {second}")]
    }
    /// Whether a game record (its file name in the match folder and its text) is this
    /// game's: how the report tells the game of a match folder without `match.json`.
    fn reads_record(&self, file: &str, text: &str) -> bool {
        let _ = (file, text);
        false
    }
    /// The frames of one game's record for the report's replay, or why it cannot be
    /// replayed (by default the report draws no boards for the game).
    fn replay(&self, input: &ReplayInput) -> anyhow::Result<Replayed> {
        let _ = input;
        anyhow::bail!("the report draws no {} boards (the record is kept as it is)", self.title())
    }
    /// One line of an `--openings` file (comments and blank lines left out): moves
    /// from the start, separated by spaces, unless the game reads its lines otherwise
    /// (Othello: a position or `f5d6c3`; Chaos Clock: a position). The arena then
    /// checks it move by move with the game's referee.
    fn opening_of_line(&self, line: &str) -> std::result::Result<Opening, String> {
        Ok(Opening { start: None, moves: line.split_whitespace().map(str::to_string).collect() })
    }
    /// A whole `--openings` file read as one opening, for a file that is a game record
    /// (Go: an SGF file's main line) on a board of side `size`; `None`: read it line
    /// by line.
    fn opening_of_file(&self, text: &str, size: usize) -> Option<std::result::Result<Opening, String>> {
        let _ = (text, size);
        None
    }
    /// Random opening `k` of a match seeded `seed`, for a game whose openings are not
    /// random moves (Chaos Clock: a deal; Phantom Go: the empty board); `None`: the
    /// arena plays random legal moves.
    fn deal_opening(&self, seed: u64, k: u64) -> Option<Opening> {
        let _ = (seed, k);
        None
    }
    /// Whether the game hides the opponent's moves, so that the arena referees it try
    /// by try (its hidden-information loop, `arena/phantom.rs`) rather than move by
    /// move (Phantom Go).
    fn hides_moves(&self) -> bool {
        false
    }
    /// Whether NBoard engines play it (the NBoard protocol is Othello's).
    fn speaks_nboard(&self) -> bool {
        false
    }
    /// Whether a pass is never chosen, only forced (Othello): GTP engines that play
    /// it implicitly may refuse `play <colour> pass`, and the arena lets them.
    fn passes_only_when_forced(&self) -> bool {
        false
    }
    /// Every point of a board of side `size` as a move text (Othello `a1`..`h8`, Go
    /// `A1`..`J9`), for scripts that look for a move the rules refuse; empty for a game
    /// without such points.
    fn board_points(&self, size: usize) -> Vec<String> {
        let _ = size;
        Vec::new()
    }
    /// A short line of moves from the standard start that ends the game (Othello: a
    /// wipeout in 9 moves), for scripts that check an engine's view of a finished
    /// game; `None` where there is none.
    fn ended_line(&self) -> Option<&'static [&'static str]> {
        None
    }
}
