#!/usr/bin/env python3
"""Plays random Phantom Go games in OpenSpiel and writes what OpenSpiel answered.

The file it writes, tests/data/phantom/openspiel_games.txt, is replayed through
sente's referee with the OpenSpiel rules by bitboards/tests/openspiel_phantom.rs,
which checks that every try gets the same answer (accepted or refused), that the
game ends at the same try, and that the returns, the true board and both players'
observations at the end agree.

Made with (OpenSpiel from PyPI: `pip install open_spiel`, CPython 3.11):

    python3 scripts/openspiel_phantom_games.py --games 50 --seed 43 \
        > tests/data/phantom/openspiel_games.txt

The game is `phantom_go` with OpenSpiel's default parameters (9x9, komi 7.5, at most
324 actions). Each try is drawn from OpenSpiel's `legal_actions()` for the player
to move: every point that player sees empty (it may hold a hidden enemy stone, or
be suicide or a ko retake: the try is then refused and the same player tries
again) and the pass. To make games end by passes too, not only at the action cap,
each game has a pass weight: the chance that a try is the pass (0: uniform over the
legal actions, pass included), cycling through PASS_WEIGHTS.

Format, one block per game:

    game N pass-weight P
    tries A A- A:N ...      actions in order (0..80: row*9 + column from a1; 81: pass);
                            `-` marks a try OpenSpiel refused, `:N` one that captured
                            N stones
    end terminal R_BLACK R_WHITE    after the last try: terminal or not, the returns
    board ...               the true board, 81 characters, rows 9 to 1, a to j:
                            X black, O white, + empty
    black ...               black's observation, the same way
    white ...               white's observation
"""

import argparse
import random
import sys

import pyspiel

PASS_WEIGHTS = [0.0, 0.05, 0.2, 0.5, 0.8]


def board_text(text):
    """The 81 points of an OpenSpiel board drawing (rows ` 9 +++...` to ` 1 ...`)."""
    rows = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit() and len(parts[1]) == 9:
            rows.append(parts[1])
    if len(rows) != 9:
        raise ValueError(f"not a 9x9 board drawing: {text!r}")
    return "".join(rows)


def true_board(state):
    """The true board: the drawing in the state's text before the observations."""
    text = state.to_string()
    return board_text(text.split("Observation")[0])


def play(game, rng, pass_weight):
    state = game.new_initial_state()
    pass_action = game.num_distinct_actions() - 1
    tries = []
    while not state.is_terminal():
        mover = state.current_player()
        actions = state.legal_actions()
        if pass_weight > 0 and rng.random() < pass_weight:
            action = pass_action
        elif pass_weight > 0:
            points = [a for a in actions if a != pass_action]
            action = rng.choice(points) if points else pass_action
        else:
            action = rng.choice(actions)
        state.apply_action(action)
        lines = state.observation_string(mover).splitlines()
        said = [line for line in lines if line.startswith("Previous move was")]
        if len(said) != 1:
            raise ValueError(f"no answer in the observation: {lines!r}")
        accepted = said[0].startswith("Previous move was valid")
        captured = 0
        for line in lines:
            if line.startswith("In previous move ") and line.endswith(" stones were captured"):
                captured = int(line.split()[3])
        if not state.is_terminal():
            # A refused try leaves the same player to move; an accepted one does not.
            assert (state.current_player() != mover) == accepted, (tries, action)
        if not accepted:
            tries.append(f"{action}-")
        elif captured:
            tries.append(f"{action}:{captured}")
        else:
            tries.append(f"{action}")
    returns = state.returns()
    return tries, state.is_terminal(), returns, true_board(state), [
        board_text(state.observation_string(p)) for p in (0, 1)
    ]


def pattern_count(tries):
    """Pass, one or more refused tries, pass: the pattern OpenSpiel does not end on."""
    count = 0
    for i, t in enumerate(tries):
        if t != "81":
            continue
        j = i + 1
        while j < len(tries) and tries[j].endswith("-"):
            j += 1
        if j > i + 1 and j < len(tries) and tries[j] == "81":
            count += 1
    return count


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=43)
    args = parser.parse_args()
    game = pyspiel.load_game("phantom_go")
    rng = random.Random(args.seed)
    out = sys.stdout
    version = getattr(pyspiel, "__version__", None)
    if version is None:
        from importlib.metadata import version as package_version

        version = package_version("open_spiel")
    out.write("# Random OpenSpiel phantom_go games, what OpenSpiel answered at each try.\n")
    out.write(f"# Made with: python3 scripts/openspiel_phantom_games.py --games {args.games} --seed {args.seed}\n")
    out.write(f"# open_spiel {version}; phantom_go {game.get_parameters()}\n")
    out.write("# Format: see scripts/openspiel_phantom_games.py. Replayed by bitboards/tests/openspiel_phantom.rs.\n")
    patterns = 0
    ends = {}
    for n in range(args.games):
        weight = PASS_WEIGHTS[n % len(PASS_WEIGHTS)]
        tries, terminal, returns, board, views = play(game, rng, weight)
        patterns += pattern_count(tries)
        reason = "cap" if len(tries) >= game.max_game_length() else "passes-or-superko"
        ends[reason] = ends.get(reason, 0) + 1
        out.write(f"game {n} pass-weight {weight}\n")
        out.write("tries " + " ".join(tries) + "\n")
        out.write(f"end {'terminal' if terminal else 'open'} {returns[0]:g} {returns[1]:g}\n")
        out.write(f"board {board}\nblack {views[0]}\nwhite {views[1]}\n")
    print(f"{args.games} games; pass, refused tries, pass: {patterns} times; ends: {ends}", file=sys.stderr)


if __name__ == "__main__":
    main()
