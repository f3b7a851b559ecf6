#!/usr/bin/env python3
"""Plays 9x9 games with KataGo's raw policy and keeps its policy at every move: the
teacher data of the Go move model (`sente train-go fit --teacher`, issue 75).

Each game starts from the empty board. At every position KataGo's analysis engine is
asked for one visit with the raw policy (the network alone); the move played is drawn
from the policy raised to 1/T (T = `--temperature` for the first `--open-plies` plies,
`--late-temperature` after them), with a random generator seeded by `--seed` and the
game's number, so the same KataGo, network and config replay the same games (with
`nnRandomize = false` in the config, as in docs/go.md's, each position is evaluated
in one fixed orientation). A game ends when
the drawn move is a pass, or after `--max-plies` plies. Each finished game is one
line of the teacher file:

    N MOVE|TOP:P,TOP:P,... MOVE|TOP:P,...

N is the game's number; then for every ply the move played and the policy's moves of
probability at least `--min-probability` (at most `--top`, best first; pass is
'pass'), probabilities rounded to 3 decimals. Rules sent to KataGo: area scoring,
positional superko, no suicide, komi 7 (sente's rules).

Games already in the file are skipped, so the same command goes on after a stop or
a kill (a line torn by a kill is dropped first). It stops after `--minutes` (a chunk;
default 55) or when games 0 to `--games` - 1 are all there. `--parallel` games are in
flight at once, so KataGo's network evaluates several positions in one batch.

KataGo is found through the environment (KATAGO_DIR, KATAGO_MODEL, KATAGO_CONFIG) as
for scripts/go_accuracy_label.py; nothing is downloaded or built. See
docs/go-move-model.md for the commands. Python 3 standard library only.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from go_accuracy_label import data_lines, katago_from_env, open_for_append, policy_point, position_query  # noqa: E402

KOMI = 7.0


def done_games(path):
    """The game numbers already in the teacher file."""
    return {int(line.split()[0]) for line in data_lines(path)}


def draw(policy, temperature, rng):
    """A move drawn from the legal moves' probabilities raised to 1/temperature."""
    moves = [(policy_point(i), p) for i, p in enumerate(policy) if p > 0]
    weights = [p ** (1.0 / temperature) for _, p in moves]
    return rng.choices([m for m, _ in moves], weights=weights)[0]


def top_moves(policy, min_probability, top):
    """The policy's best moves as 'MOVE:P' words, best first."""
    ranked = sorted(((p, i) for i, p in enumerate(policy) if p >= min_probability), reverse=True)[:top]
    return ",".join(f"{policy_point(i)}:{p:.3f}" for p, i in ranked)


class Game:
    """One game in flight: its moves and the words of its line so far."""

    def __init__(self, number, seed):
        self.number = number
        self.rng = random.Random(seed * 1_000_003 + number)
        self.moves = []
        self.words = []

    def query(self):
        history = [["B" if i % 2 == 0 else "W", m] for i, m in enumerate(self.moves)]
        ident = f"{self.number}/{len(self.moves)}"
        return position_query(ident, KOMI, history, 1, includePolicy=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="the teacher file (appended to)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=75)
    parser.add_argument("--open-plies", type=int, default=10)
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--late-temperature", type=float, default=0.3)
    parser.add_argument("--max-plies", type=int, default=100)
    parser.add_argument("--min-probability", type=float, default=0.005)
    parser.add_argument("--top", type=int, default=16)
    parser.add_argument("--parallel", type=int, default=8)
    parser.add_argument("--minutes", type=float, default=55.0, help="stop after this long (a chunk)")
    parser.add_argument("--config", default=os.environ.get("KATAGO_CONFIG"))
    parser.add_argument("--override-config", default="", help="passed to KataGo")
    args = parser.parse_args()
    if args.temperature <= 0 or args.late_temperature <= 0:
        sys.exit("the temperatures must be above 0")
    overrides = args.override_config or f"numAnalysisThreads={args.parallel},nnMaxBatchSize={args.parallel}"
    katago = katago_from_env(args.config, overrides)
    done = done_games(args.out)
    todo = [n for n in range(args.games) if n not in done]
    print(f"{len(done)} games in {args.out}; {len(todo)} to play", flush=True)
    start = time.time()
    finished = positions = 0
    waiting = {}  # query id -> game
    header = (
        "# sente Go teacher games (scripts/go_teacher_games.py): KataGo's raw policy, "
        f"komi {KOMI:g}, seed {args.seed}, T {args.temperature:g} for {args.open_plies} plies "
        f"then {args.late_temperature:g}; N MOVE|TOP:P,... per ply\n"
    )
    with open_for_append(args.out, header) as out:
        queue = iter(todo)
        stopping = False
        while True:
            while not stopping and len(waiting) < args.parallel:
                if time.time() - start > args.minutes * 60:
                    stopping = True
                    break
                n = next(queue, None)
                if n is None:
                    stopping = True
                    break
                game = Game(n, args.seed)
                q = game.query()
                waiting[q["id"]] = game
                katago.send([q])
            if not waiting:
                break
            ident, answer = katago.next_answer(set(waiting))
            game = waiting.pop(ident)
            positions += 1
            policy = answer["policy"]
            ply = len(game.moves)
            temperature = args.temperature if ply < args.open_plies else args.late_temperature
            move = draw(policy, temperature, game.rng)
            game.words.append(f"{move}|{top_moves(policy, args.min_probability, args.top)}")
            game.moves.append(move)
            if move == "pass" or len(game.moves) >= args.max_plies:
                out.write(f"{game.number} {' '.join(game.words)}\n")
                out.flush()
                finished += 1
                continue
            q = game.query()
            waiting[q["id"]] = game
            katago.send([q])
    katago.close()
    minutes = (time.time() - start) / 60
    print(
        f"{finished} games ({positions} positions) in {minutes:.1f} min "
        f"({positions / max(minutes * 60, 1e-9):.2f} positions/s); {len(done) + finished} in {args.out}",
        flush=True,
    )


if __name__ == "__main__":
    main()
