#!/usr/bin/env python3
"""Grows sente's 9x9 Go opening book with KataGo as the judge (issue 75).

The book (search/data/go-book.txt) holds positions near the start of a 9x9 game at
komi 7, each with KataGo's move after a search of `--visits` visits. It grows best
first: every position carries the chance that a game in which sente follows the book
reaches it, once as Black and once as White (by the likeliest path that reaches it:
transpositions are not summed). The book's own move keeps that chance;
any other move multiplies it by KataGo's raw policy for the move (the opponent is
taken to play as KataGo's network would). The position with the greatest sum of the
two chances that is not yet in the book is valued next; the children of a valued
position are its book move and the moves of policy at least `--min-prior`, up to
`--max-ply` moves from the empty board, down to a chance of `--min-reach`. Symmetric
images of a position (the 8 symmetries of the square) are one position.

The roots are the balanced 2-move openings the arena's Go matches start from
(docs/matches/openings/go-2move-balanced.txt: their symmetry classes share a chance
of 1, each by its number of lines) and the empty board (chance `--empty-weight` for
each colour: games a GUI starts).

One line per position, in the order valued:

    PATH | MOVE WINRATE SCORE | TOP:P TOP:P ...

PATH is the moves from the empty board (Black first; empty for the empty board);
MOVE is KataGo's best move, WINRATE and SCORE its winrate and score lead for the side
to move; then the raw policy's moves of probability at least 0.01 (at most 12, best
first). sente reads the first two parts (`search::go::Book`); the policy is what the
book grows by.

The growth is in rounds of `--parallel` positions, so the order does not depend on
which answer comes first: the same command goes on after a stop or a kill (positions
already in the file are replayed from it, not asked again; a line torn by a kill is
dropped first). It stops after `--minutes` (a chunk) or `--count` new positions.
Rules sent to KataGo: area scoring, positional superko, no suicide, komi 7.

KataGo is found through the environment (KATAGO_DIR, KATAGO_MODEL, KATAGO_CONFIG) as
for scripts/go_accuracy_label.py; nothing is downloaded or built. See docs/go.md
("An opening book from KataGo") for the commands. Python 3 standard library only.
"""

import argparse
import heapq
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from go_accuracy_label import COLUMNS, SIZE, data_lines, katago_from_env, open_for_append, policy_point, position_query  # noqa: E402

KOMI = 7.0
POLICY_KEEP = 0.01
POLICY_TOP = 12


def point(vertex):
    """(row, col) of a GTP vertex, row 0 at the bottom."""
    return int(vertex[1:]) - 1, COLUMNS.index(vertex[0].upper())


def neighbours(r, c):
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
            yield r + dr, c + dc


def chain(board, r, c):
    """The chain at (r, c) and whether it has a liberty."""
    colour = board[r][c]
    seen, stack, free = {(r, c)}, [(r, c)], False
    while stack:
        for n in neighbours(*stack.pop()):
            v = board[n[0]][n[1]]
            if v == ".":
                free = True
            elif v == colour and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen, free


def replay(path):
    """The board (rows of 'X', 'O', '.') after the moves of `path`, captures made."""
    board = [["."] * SIZE for _ in range(SIZE)]
    for i, vertex in enumerate(path):
        if vertex == "pass":
            continue
        own, other = ("X", "O") if i % 2 == 0 else ("O", "X")
        r, c = point(vertex)
        board[r][c] = own
        for n in neighbours(r, c):
            if board[n[0]][n[1]] == other:
                stones, free = chain(board, *n)
                if not free:
                    for s in stones:
                        board[s[0]][s[1]] = "."
    return board


def images(board):
    """The 8 symmetric images of a board as strings."""
    out = []
    for flip in range(8):
        cells = []
        for r in range(SIZE):
            for c in range(SIZE):
                rr, cc = (c, r) if flip & 4 else (r, c)
                if flip & 1:
                    rr = SIZE - 1 - rr
                if flip & 2:
                    cc = SIZE - 1 - cc
                cells.append(board[rr][cc])
        out.append("".join(cells))
    return out


def key(path):
    """The position after `path` up to symmetry, with the side to move."""
    return min(images(replay(path))) + ("B" if len(path) % 2 == 0 else "W")


def roots(openings, empty_weight):
    """[(chance as Black, chance as White, path)]: the empty board (`empty_weight`) and
    the balanced openings' symmetry classes (1 in all)."""
    out = [(empty_weight, empty_weight, [])]
    classes = {}
    for line in data_lines(openings):
        moves = line.split("#")[0].split()
        k = key(moves)
        count, first = classes.get(k, (0, moves))
        classes[k] = (count + 1, first)
    total = sum(count for count, _ in classes.values())
    for count, moves in classes.values():
        out.append((count / total, count / total, moves))
    return out


def book_line(path, answer):
    """The book line of a KataGo answer, and its (move, policy) for growing."""
    best = min(answer["moveInfos"], key=lambda m: m["order"])
    root = answer["rootInfo"]
    ranked = sorted(((p, i) for i, p in enumerate(answer["policy"]) if p >= POLICY_KEEP), reverse=True)
    policy = [(policy_point(i), p) for p, i in ranked[:POLICY_TOP]]
    top = " ".join(f"{m}:{p:.3f}" for m, p in policy)
    line = f"{' '.join(path)} | {best['move']} {root['winrate']:.4f} {root['scoreLead']:+.2f} | {top}"
    return line.lstrip()


def parse_line(line):
    """(path, move, policy) of a book line."""
    parts = [p.strip() for p in line.split("|")]
    path = parts[0].split()
    move = parts[1].split()[0]
    policy = [(w.split(":")[0], float(w.split(":")[1])) for w in parts[2].split()]
    return path, move, policy


class Growth:
    """The frontier of the book: positions by their chance of being reached."""

    def __init__(self, args):
        self.args = args
        self.heap = []
        self.best = {}  # key -> greatest chance pushed
        self.done = set()

    def push(self, black, white, path):
        if len(path) > self.args.max_ply or black + white < self.args.min_reach:
            return
        k = key(path)
        if k in self.done or self.best.get(k, -1.0) >= black + white:
            return
        self.best[k] = black + white
        heapq.heappush(self.heap, (-(black + white), " ".join(path), black, white, k))

    def pop_round(self, size):
        """The next `size` positions to value: [(black, white, path, key)]."""
        out = []
        while self.heap and len(out) < size:
            priority, text, black, white, k = heapq.heappop(self.heap)
            if k in self.done or -priority < self.best[k]:
                continue
            self.done.add(k)
            out.append((black, white, text.split(), k))
        return out

    def grow(self, black, white, path, move, policy):
        """Pushes the children of a valued position."""
        black_to_move = len(path) % 2 == 0
        prior = dict(policy)
        for m in dict.fromkeys([move] + [m for m, p in policy if p >= self.args.min_prior and m != "pass"]):
            if m == "pass":
                continue
            p = prior.get(m, 0.0)
            own = 1.0 if m == move else 0.0
            b, w = (black * own, white * p) if black_to_move else (black * p, white * own)
            self.push(b, w, path + [m])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="search/data/go-book.txt")
    parser.add_argument("--openings", default="docs/matches/openings/go-2move-balanced.txt")
    parser.add_argument("--visits", type=int, default=32)
    parser.add_argument("--empty-weight", type=float, default=0.2, help="the empty board's chance (the openings share 1)")
    parser.add_argument("--max-ply", type=int, default=16)
    parser.add_argument("--min-prior", type=float, default=0.05)
    parser.add_argument("--min-reach", type=float, default=1e-4)
    parser.add_argument("--parallel", type=int, default=8)
    parser.add_argument("--count", type=int, default=1_000_000)
    parser.add_argument("--minutes", type=float, default=55.0, help="stop after this long (a chunk)")
    parser.add_argument("--config", default=os.environ.get("KATAGO_CONFIG"))
    parser.add_argument("--override-config", default="", help="passed to KataGo")
    args = parser.parse_args()

    known = {}
    for number, line in enumerate(data_lines(args.out), 1):
        try:
            path, move, policy = parse_line(line)
        except (IndexError, ValueError) as e:
            sys.exit(f"{args.out}: book line {number} ({line!r}): {e}")
        known[key(path)] = (path, move, policy)
    growth = Growth(args)
    for black, white, path in roots(args.openings, args.empty_weight):
        growth.push(black, white, path)
    # Winrates for the side to move, whatever the config says: the book's lines are so.
    overrides = args.override_config or f"numAnalysisThreads={args.parallel},nnMaxBatchSize={args.parallel}"
    overrides += ",reportAnalysisWinratesAs=SIDETOMOVE"
    katago = None
    header = (
        f"# sente 9x9 Go opening book (scripts/go_book.py): KataGo {args.visits} visits, komi {KOMI:g}, "
        f"area scoring, positional superko; PATH | MOVE WINRATE SCORE | POLICY\n"
    )
    start = time.time()
    added = replayed = 0
    with open_for_append(args.out, header) as out:
        while added < args.count and time.time() - start < args.minutes * 60:
            batch = growth.pop_round(args.parallel)
            if not batch:
                break
            asked = {}
            for i, (black, white, path, k) in enumerate(batch):
                if k not in known:
                    history = [["B" if j % 2 == 0 else "W", m] for j, m in enumerate(path)]
                    asked[str(i)] = position_query(str(i), KOMI, history, args.visits, includePolicy=True)
            if asked:
                if katago is None:
                    katago = katago_from_env(args.config, overrides)
                katago.send(asked.values())
                answers = katago.wait(list(asked))
                for i, answer in answers.items():
                    path = batch[int(i)][2]
                    line = book_line(path, answer)
                    if parse_line(line)[1] == "pass":
                        # No book move to give (sente's book refuses a pass): the
                        # position is left out, and nothing grows from it.
                        print(f"KataGo passes after {' '.join(path) or 'nothing'}: left out", flush=True)
                        known[batch[int(i)][3]] = (path, "pass", [])
                        continue
                    out.write(line + "\n")
                    known[batch[int(i)][3]] = parse_line(line)
                    added += 1
                out.flush()
            replayed += len(batch) - len(asked)
            for black, white, _, k in batch:
                # The position as it was valued (the same up to symmetry): its move is
                # in that orientation.
                path, move, policy = known[k]
                if move != "pass":
                    growth.grow(black, white, path, move, policy)
    if katago is not None:
        katago.close()
    minutes = (time.time() - start) / 60
    print(
        f"{added} positions valued, {replayed} replayed from {args.out}, in {minutes:.1f} min; "
        f"{len(growth.heap)} waiting",
        flush=True,
    )


if __name__ == "__main__":
    main()
