#!/usr/bin/env python3
"""Balanced 9x9 Go openings of two moves, valued by KataGo (issue 75).

The arena's random openings of 2 plies (`--random-plies 2`) are often lost before
either engine moves: a first stone on the edge is worth many points on 9x9. This
values every 2-move opening (Black, then White, no pass), one per symmetry class of the
board's 8 symmetries, with KataGo's JSON analysis engine at `--visits` visits, and
appends `B W BLACK_WINRATE BLACK_SCORELEAD` lines to `--values` (resumable: values
already there are skipped). `--select` then writes the openings whose Black winrate
lies within `--margin` of one half, every symmetric copy of each, as an arena openings
file (`E5 C3 # 0.512 +0.4`: the moves, then Black's winrate and score lead), in a
fixed shuffled order (`--seed`):

    sente arena --game go --openings FILE ...

Rules sent to KataGo: area scoring, positional superko, no suicide, komi `--komi`
(7, as the arena's Go matches). It drives a KataGo found through the environment (as
scripts/go_accuracy_label.py; see docs/go.md) and never downloads or builds
anything. Python 3 standard library only.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from go_accuracy_label import data_lines, katago_from_env, open_for_append, position_query  # noqa: E402

SIZE = 9
COLUMNS = "ABCDEFGHJ"


def vertex(x, y):
    return f"{COLUMNS[x]}{y + 1}"


def point(text):
    return COLUMNS.index(text[0]), int(text[1:]) - 1


def transforms(x, y):
    """The 8 images of a point under the board's symmetries, in a fixed order."""
    n = SIZE - 1
    return [(x, y), (n - x, y), (x, n - y), (n - x, n - y), (y, x), (n - y, x), (y, n - x), (n - y, n - x)]


def symmetric_copies(moves):
    """Every distinct image of an opening (a list of vertices) under the symmetries."""
    images = [[] for _ in range(8)]
    for m in moves:
        for k, (x, y) in enumerate(transforms(*point(m))):
            images[k].append(vertex(x, y))
    seen, out = set(), []
    for image in images:
        if tuple(image) not in seen:
            seen.add(tuple(image))
            out.append(image)
    return out


def canonical_openings():
    """One opening of each symmetry class: the least of its images."""
    points = [vertex(x, y) for y in range(SIZE) for x in range(SIZE)]
    classes = set()
    for b in points:
        for w in points:
            if b != w:
                classes.add(min(tuple(image) for image in symmetric_copies([b, w])))
    return sorted(classes)


def value_openings(args):
    done = {tuple(line.split()[:2]) for line in data_lines(args.values)}
    todo = [o for o in canonical_openings() if o not in done]
    print(f"{len(done)} openings valued; {len(todo)} to go", flush=True)
    katago = katago_from_env(args.config)
    start, made = time.time(), 0
    header = (f"# 2-move 9x9 openings valued by KataGo (scripts/go_balanced_openings.py, {args.visits} "
              f"visits, komi {args.komi}): black white black_winrate black_scorelead\n")
    with open_for_append(args.values, header) as out:
        for k in range(0, len(todo), args.batch):
            if time.time() - start > args.minutes * 60:
                break
            batch = todo[k:k + args.batch]
            queries = [position_query(f"{b}-{w}", args.komi, [["B", b], ["W", w]], args.visits) for b, w in batch]
            katago.send(queries)
            answers = katago.wait([q["id"] for q in queries])
            for b, w in batch:
                info = answers[f"{b}-{w}"]["rootInfo"]
                # Black is to move after two moves: the side to move's view is Black's.
                out.write(f"{b} {w} {info['winrate']:.4f} {info['scoreLead']:+.2f}\n")
            out.flush()
            made += len(batch)
    katago.close()
    print(f"valued {made} openings in {(time.time() - start) / 60:.1f} min", flush=True)


def select(args):
    rows = []
    for line in data_lines(args.values):
        b, w, rate, lead = line.split()
        rows.append((b, w, float(rate), float(lead)))
    chosen = [r for r in rows if abs(r[2] - 0.5) <= args.margin]
    lines = []
    for b, w, rate, lead in chosen:
        for image in symmetric_copies([b, w]):
            lines.append(f"{image[0]} {image[1]} # {rate:.3f} {lead:+.1f}")
    random.Random(args.seed).shuffle(lines)
    with open(args.select, "w") as out:
        out.write(f"# 9x9 Go openings of 2 moves with Black's winrate within {args.margin} of 0.5 by KataGo "
                  f"({args.values}), every symmetric copy, shuffled with seed {args.seed}: "
                  "moves # black_winrate black_scorelead\n")
        out.write("\n".join(lines) + "\n")
    print(f"{len(chosen)} of {len(rows)} opening classes within {args.margin} of even: {len(lines)} openings "
          f"in {args.select}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--values", required=True, help="the values file (appended to)")
    parser.add_argument("--config", default=os.environ.get("KATAGO_CONFIG"))
    parser.add_argument("--visits", type=int, default=8)
    parser.add_argument("--komi", type=float, default=7.0)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--minutes", type=float, default=55.0, help="stop after this long (a chunk)")
    parser.add_argument("--select", help="write the balanced openings to this file and stop")
    parser.add_argument("--margin", type=float, default=0.15)
    parser.add_argument("--seed", type=int, default=75)
    args = parser.parse_args()
    if args.select:
        select(args)
    else:
        value_openings(args)


if __name__ == "__main__":
    main()
