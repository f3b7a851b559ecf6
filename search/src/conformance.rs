//! One conformance suite for every [`Game`]: run by each game's tests so that
//! Othello, Go and Chaos Clock are held to the same contract.

use crate::game::Game;

/// Plays `games` random games of at most `max_plies` plies from `start` (choices
/// drawn from `seed`) and checks the contract on every position:
///
/// * a position is over exactly when it has no legal move;
/// * every legal move's text reads back as the same move;
/// * playing a move is deterministic and changes the position's hash.
///
/// Returns the number of positions checked.
pub fn check_random_games<G: Game>(start: &G, games: usize, max_plies: usize, seed: u64) -> usize {
    let mut state = seed;
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..max_plies {
            checked += 1;
            let moves = pos.legal_moves();
            assert_eq!(pos.outcome().is_some(), moves.is_empty(), "over iff no legal move");
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let name = pos.move_name(mv);
                assert_eq!(pos.parse_move(&name), Ok(mv), "move text '{name}' reads back");
            }
            state = bitboards::rng::splitmix64(state);
            let mv = moves[(state % moves.len() as u64) as usize];
            let next = pos.play(mv);
            assert_eq!(next.hash(), pos.play(mv).hash(), "play is deterministic");
            assert_ne!(next.hash(), pos.hash(), "a move changes the position");
            pos = next;
        }
    }
    checked
}
