//! `sente` with tic-tac-toe added: the whole cost of a new game is its folder
//! (`game.rs`) and the one registration line below. Built by `cargo test` as the
//! example `tictactoe`; the tests of `mod.rs` run it.

mod game;

use std::process::ExitCode;

fn main() -> ExitCode {
    if let Err(e) = sente::games::register(&game::TicTacToeSpec) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    sente::main()
}
