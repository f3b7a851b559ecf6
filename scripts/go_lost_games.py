#!/usr/bin/env python3
"""KataGo's view of the games sente lost (issue 75): where each game was lost.

For every game of the match folders given (an arena folder: results.jsonl, and the
records under games/) that the engine named by --engine lost, it asks KataGo's JSON
analysis engine for the position after every move of the record (`analyzeTurns`), at
`--visits` visits each (1 = the raw network), and appends one line per game to
`--out`:

    FOLDER GAME COLOUR RESULT OPENING MOVES WINRATES

COLOUR is the engine's (B or W), RESULT the record's, OPENING the number of moves of
the arena's opening (match.json's random plies: no engine chose them), MOVES the
record's moves (`B:E5`, `W:pass`), WINRATES the engine's winrate (its own view, 3 decimals) before each move of
the game and after the last, so that move t took the winrate from WINRATES[t] to
WINRATES[t + 1]. Games already in the file are skipped: the same command goes on
after a stop (a line torn by a kill is dropped first). `--summary` prints, from the
file alone, the engine move (after the opening) that lost the most winrate in each
game and the move after which the game stayed lost, by phase (opening before move 12, middle game
before move 40, endgame).

It drives a KataGo found through the environment (as scripts/go_accuracy_label.py;
see docs/go.md) and never downloads or builds anything. Rules sent to KataGo: area
scoring, positional superko, no suicide, the record's komi. Python 3 standard
library only.
"""

import argparse
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from go_accuracy_label import data_lines, katago_from_env, open_for_append, position_query  # noqa: E402

SIZE = 9
COLUMNS = "ABCDEFGHJ"


def sgf_moves(text):
    """(komi, [(colour, vertex)]) of an SGF record of a 9x9 game without setup stones."""
    if re.search(r"\bA[BW]\[", text):
        raise ValueError("setup stones are not read")
    size = re.search(r"SZ\[(\d+)\]", text)
    if size and int(size.group(1)) != SIZE:
        raise ValueError(f"board size {size.group(1)}")
    komi = re.search(r"KM\[([-0-9.]+)\]", text)
    moves = []
    for colour, point in re.findall(r";([BW])\[([a-z]{0,2})\]", text):
        if point in ("", "tt"):
            moves.append((colour, "pass"))
        else:
            col, row = ord(point[0]) - ord("a"), ord(point[1]) - ord("a")
            moves.append((colour, f"{COLUMNS[col]}{SIZE - row}"))
    return (float(komi.group(1)) if komi else 7.0), moves


def lost_games(folder, engine):
    """(game number, record path, engine colour, result, opening plies) of the games
    `engine` lost."""
    games = []
    # `score_a` is the score of the match's first engine (match.json), whatever its colour.
    with open(os.path.join(folder, "match.json")) as f:
        match = json.load(f)
    names = [e["name"] for e in match["engines"]]
    opening = int(match.get("openings", {}).get("plies", 0))
    if engine not in names:
        return games
    lost_score = 0.0 if names[0] == engine else 1.0
    with open(os.path.join(folder, "results.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            if r.get("record") is None or r["score_a"] != lost_score:
                continue
            path = os.path.join(folder, r["record"])
            with open(path) as g:
                text = g.read()
            black = re.search(r"PB\[([^\]]*)\]", text)
            colour = "B" if black and black.group(1) == engine else "W"
            result = re.search(r"RE\[([^\]]*)\]", text)
            games.append((r["game"], path, colour, result.group(1) if result else "?", opening))
    return games


def scan(katago, ident, komi, moves, visits):
    """Black's winrate before each move and after the last."""
    history = [[c, m] for c, m in moves]
    katago.send([position_query(ident, komi, history, visits, analyzeTurns=list(range(len(moves) + 1)))])
    black = [None] * (len(moves) + 1)
    while any(w is None for w in black):
        a = katago.read_line()
        if a.get("id") != ident or a.get("isDuringSearch"):
            continue
        if "warning" in a and "turnNumber" not in a:
            continue
        t = a["turnNumber"]
        to_move = "B" if t == 0 else ("W" if moves[t - 1][0] == "B" else "B")
        w = a["rootInfo"]["winrate"]
        black[t] = w if to_move == "B" else 1.0 - w
    return black


def phase(t):
    return "opening" if t < 12 else "middle" if t < 40 else "endgame"


def summary(path, lost_below):
    rows = []
    for line in data_lines(path):
        folder, game, colour, result, opening, moves, rates = line.split()
        moves = moves.split(",")
        rates = [float(x) for x in rates.split(",")]
        own = [(t, m.split(":")[1]) for t, m in enumerate(moves) if m.startswith(colour + ":") and t >= int(opening)]
        if not own:
            continue
        # A game the opening's random plies lost: below the line at the engine's first move.
        start = rates[own[0][0]]
        if start < lost_below:
            rows.append((folder, game, colour, result, len(moves), start, None, None))
            continue
        worst = max((rates[t] - rates[t + 1], t, v) for t, v in own)
        # The own move after which the winrate never came back above the line.
        gone = None
        for t, v in own:
            if rates[t] >= lost_below and all(r < lost_below for r in rates[t + 1:]):
                gone = (rates[t] - rates[t + 1], t, v)
        rows.append((folder, game, colour, result, len(moves), start, worst, gone))
    print(f"{len(rows)} lost games; winrates are the engine's, by KataGo")
    print("folder game colour result moves | winrate at its first move | the move that lost the most: number vertex "
          f"phase loss | the move after which the game stayed below {lost_below}")
    for folder, game, colour, result, n, start, worst, gone in rows:
        w = f"{worst[1]} {worst[2]} {phase(worst[1])} {worst[0]:.3f}" if worst else "lost by the opening"
        g = f"{gone[1]} {gone[2]} {phase(gone[1])}" if gone else "-"
        print(f"{folder} {game} {colour} {result} {n} | {start:.3f} | {w} | {g}")
    played = [r for r in rows if r[6]]
    print(f"lost by the opening's random plies (below {lost_below} at the first move): {len(rows) - len(played)}")
    for name, pick in (("the move that lost the most", lambda r: r[6]), ("stayed lost after", lambda r: r[7])):
        counts = {}
        for r in played:
            p = pick(r)
            key = phase(p[1]) if p else "came back above the line"
            counts[key] = counts.get(key, 0) + 1
        print(f"{name}: " + ", ".join(f"{k} {counts.get(k, 0)}"
                                       for k in ("opening", "middle", "endgame", "came back above the line")))
    drops = sorted(r[6][0] for r in played)
    if drops:
        print(f"its winrate loss: median {drops[len(drops) // 2]:.3f}, mean {sum(drops) / len(drops):.3f}; "
              f"above 0.3 in {sum(d > 0.3 for d in drops)} of {len(drops)} games")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", help="arena match folders (results.jsonl, games/)")
    parser.add_argument("--engine", default="sente", help="the engine whose lost games are read")
    parser.add_argument("--out", required=True)
    parser.add_argument("--config", default=os.environ.get("KATAGO_CONFIG"))
    parser.add_argument("--visits", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=55.0, help="stop after this long (a chunk)")
    parser.add_argument("--summary", action="store_true", help="print the summary of --out and stop")
    parser.add_argument("--lost-below", type=float, default=0.2)
    args = parser.parse_args()
    if args.summary:
        summary(args.out, args.lost_below)
        return
    todo = []
    for folder in args.folders:
        name = os.path.basename(os.path.normpath(folder))
        for game, path, colour, result, opening in lost_games(folder, args.engine):
            todo.append((f"{name}/{game}", path, colour, result, opening))
    done_pairs = {"/".join(line.split()[:2]) for line in data_lines(args.out)}
    todo = [t for t in todo if t[0] not in done_pairs]
    print(f"{len(done_pairs)} games scanned; {len(todo)} to go", flush=True)
    katago = katago_from_env(args.config)
    start, made = time.time(), 0
    header = (f"# KataGo's view of lost games (scripts/go_lost_games.py, {args.visits} visit(s) a position): "
              "folder game colour result opening moves winrates (the engine's, before each move and "
              "after the last)\n")
    with open_for_append(args.out, header) as out:
        for ident, path, colour, result, opening in todo:
            if time.time() - start > args.minutes * 60:
                break
            with open(path) as g:
                komi, moves = sgf_moves(g.read())
            black = scan(katago, ident, komi, moves, args.visits)
            own = [w if colour == "B" else 1.0 - w for w in black]
            folder, game = ident.split("/")
            out.write(f"{folder} {game} {colour} {result} {opening} {','.join(c + ':' + m for c, m in moves)} "
                      f"{','.join(f'{w:.3f}' for w in own)}\n")
            out.flush()
            made += 1
    katago.close()
    print(f"scanned {made} games in {(time.time() - start) / 60:.1f} min", flush=True)


if __name__ == "__main__":
    main()
