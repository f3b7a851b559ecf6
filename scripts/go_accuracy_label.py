#!/usr/bin/env python3
"""Labels the positions of `sente go-accuracy` with KataGo as the judge (issue 75).

For each position of the positions file (engine/data/go_accuracy.txt, made by
`sente go-accuracy --make`) it asks KataGo's JSON analysis engine for

* a root search of `--root-visits` visits with the raw policy: the policy says which
  moves KataGo holds legal (-1 marks an illegal point), the search names KataGo's
  best move;
* every legal move's child position (pass included) at `--child-visits` visits
  (1 = the raw network): its winrate and scoreLead, turned to the view of the side
  to move in the position (1 - winrate, -scoreLead of the child).

and appends one line per position to the labels file
(engine/data/go_accuracy_labels.txt):

    ID ROOT_VISITS BEST MOVE:WINRATE:SCORE MOVE:WINRATE:SCORE ...

Positions already in the labels file are skipped, so the same command goes on
after a stop or a kill (a line torn by a kill is dropped first). It stops after
`--minutes` (a chunk; default 55) or `--count` positions. Rules sent to KataGo:
area scoring, positional superko, no suicide, komi from the positions file (7) —
sente's rules.

It drives a KataGo found through the environment and never downloads or builds
anything:

    KATAGO_DIR      the extracted KataGo AppImage (squashfs-root, with AppRun)
    KATAGO_MODEL    the network (.bin.gz)
    KATAGO_CONFIG   an analysis config (or --config); KataGo runs in its folder, so
                    its relative paths (logDir, homeDataDir with the OpenCL tuning)
                    are there

See docs/go.md (the go-accuracy section) for the setup and the commands.
Python 3 standard library only.
"""

import argparse
import json
import os
import subprocess
import sys
import time

# Area scoring, positional superko, no suicide: sente's rules, in KataGo's short form.
RULES = "koPOSITIONALscoreAREAtaxNONEsui0"
SIZE = 9
COLUMNS = "ABCDEFGHJ"


def read_positions(path):
    """(id, komi, moves) of every position: moves as GTP words, alternating from Black."""
    komi = None
    positions = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if line.startswith("# komi "):
                komi = float(line.split()[2])
            if not line or line.startswith("#"):
                continue
            words = line.split()
            if len(words) < 7:
                sys.exit(f"{path}: line {number}: expected 'id source ply split phase kind moves'")
            ident, ply, moves = words[0], int(words[2]), words[6:]
            if moves == ["-"]:
                moves = []
            if len(moves) != ply:
                sys.exit(f"{path}: line {number}: ply {ply} but {len(moves)} moves")
            positions.append((ident, moves))
    if komi is None:
        sys.exit(f"{path}: no '# komi K' line")
    return komi, positions


def data_lines(path):
    """The lines of an output file that a resumed run appends to, comments left out
    (none if it does not exist yet); a last line without its newline (a kill) is cut
    off the file first."""
    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        data = f.read()
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        print(f"{path}: dropping a torn last line ({len(data) - cut} bytes)", file=sys.stderr)
        with open(path, "r+b") as f:
            f.truncate(cut)
        data = data[:cut]
    return [line for line in data.decode().splitlines() if line and not line.startswith("#")]


def labelled_ids(path):
    """The ids already labelled (see data_lines)."""
    return {line.split()[0] for line in data_lines(path)}


def policy_point(index):
    """The GTP vertex of KataGo's policy index (row 0 at the top), or 'pass'."""
    if index == SIZE * SIZE:
        return "pass"
    row, col = divmod(index, SIZE)
    return f"{COLUMNS[col]}{SIZE - row}"


class KataGo:
    def __init__(self, katago_dir, model, config, overrides):
        config = os.path.abspath(config)
        command = [os.path.join(katago_dir, "AppRun"), "analysis", "-config", config, "-model", model]
        if overrides:
            command += ["-override-config", overrides]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            # Relative paths of the config (logDir, homeDataDir) are beside it, never
            # in the repository.
            cwd=os.path.dirname(config),
        )
        self.answers = {}

    def send(self, queries):
        for q in queries:
            self.process.stdin.write(json.dumps(q) + "\n")
        self.process.stdin.flush()

    def read_line(self):
        """KataGo's next answer line, parsed; exits when KataGo has ended or refused a
        query."""
        line = self.process.stdout.readline()
        if not line:
            sys.exit("KataGo ended unexpectedly (see its log folder)")
        answer = json.loads(line)
        if "error" in answer:
            sys.exit(f"KataGo refused a query: {line.strip()}")
        return answer

    def read_answer(self):
        """Reads KataGo's next final answer into `answers` (progress reports and
        answers without an id are passed over)."""
        answer = self.read_line()
        if "id" in answer and not answer.get("isDuringSearch"):
            self.answers[answer["id"]] = answer

    def wait(self, ids):
        """Reads answers until every one of `ids` has come: {id: answer} (answers to
        other queries sent are kept for a later wait)."""
        while not all(i in self.answers for i in ids):
            self.read_answer()
        return {i: self.answers.pop(i) for i in ids}

    def next_answer(self, ids):
        """The first answer to any of `ids` to come: (id, answer)."""
        while True:
            ready = next((i for i in ids if i in self.answers), None)
            if ready is not None:
                return ready, self.answers.pop(ready)
            self.read_answer()

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def katago_from_env(config, overrides=""):
    """The KataGo of the environment (KATAGO_DIR, KATAGO_MODEL) with the analysis
    config `config` (KATAGO_CONFIG by default); exits saying what is missing."""
    katago_dir, model = os.environ.get("KATAGO_DIR"), os.environ.get("KATAGO_MODEL")
    if not katago_dir or not model or not config:
        sys.exit("set KATAGO_DIR, KATAGO_MODEL and KATAGO_CONFIG (or --config): see docs/go.md")
    return KataGo(katago_dir, model, config, overrides)


def open_for_append(path, header):
    """The output file `path` opened to append to, with the comment line `header`
    written first when the file is new or empty."""
    new_file = not os.path.exists(path) or os.path.getsize(path) == 0
    out = open(path, "a")
    if new_file:
        out.write(header)
    return out


def position_query(ident, komi, history, visits, **fields):
    """An analysis query of the 9x9 position after `history` ([colour, vertex] pairs from
    the empty board) under sente's rules; `fields` are added as they are (e.g.
    analyzeTurns)."""
    return {
        "id": ident,
        "moves": history,
        "initialPlayer": "B",
        "rules": RULES,
        "komi": komi,
        "boardXSize": SIZE,
        "boardYSize": SIZE,
        "maxVisits": visits,
        **fields,
    }


def query(ident, komi, moves, visits, policy=False):
    history = [["B" if i % 2 == 0 else "W", m] for i, m in enumerate(moves)]
    return position_query(ident, komi, history, visits, **({"includePolicy": True} if policy else {}))


def children_queries(ident, komi, moves, root, child_visits):
    """The legal moves (KataGo's policy: -1 marks an illegal point) and their child queries."""
    legal = [policy_point(i) for i, p in enumerate(root["policy"]) if p >= 0]
    return legal, [query(f"{ident}/{m}", komi, moves + [m], child_visits) for m in legal]


def label_line(ident, root, legal, children, root_visits):
    """The labels line of one position."""
    best = min(root["moveInfos"], key=lambda m: m["order"])["move"]
    fields = [ident, str(root_visits), best]
    for m in legal:
        info = children[f"{ident}/{m}"]["rootInfo"]
        # The analysis config reports from the side to move (reportAnalysisWinratesAs
        # SIDETOMOVE): the child's side to move is the opponent.
        fields.append(f"{m}:{1.0 - info['winrate']:.4f}:{-info['scoreLead']:+.2f}")
    return " ".join(fields)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", default="engine/data/go_accuracy.txt")
    parser.add_argument("--labels", default="engine/data/go_accuracy_labels.txt")
    parser.add_argument("--config", default=os.environ.get("KATAGO_CONFIG"))
    parser.add_argument("--root-visits", type=int, default=32)
    parser.add_argument("--child-visits", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=55.0, help="stop after this long (a chunk)")
    parser.add_argument("--count", type=int, help="stop after labelling this many positions")
    parser.add_argument("--override-config", default="", help="passed to KataGo, e.g. numAnalysisThreads=4")
    args = parser.parse_args()
    katago = katago_from_env(args.config, args.override_config)
    komi, positions = read_positions(args.positions)
    done = labelled_ids(args.labels)
    todo = [(i, m) for i, m in positions if i not in done]
    print(f"{len(done)} of {len(positions)} positions labelled; {len(todo)} to go", flush=True)
    start = time.time()
    made = 0
    header = (
        "# sente go-accuracy labels by KataGo (scripts/go_accuracy_label.py): "
        "id root_visits best move:winrate:scoreLead ..., every legal move and pass, "
        f"from the side to move; children at {args.child_visits} visit(s)\n"
    )
    with open_for_append(args.labels, header) as out:
        # The root search of the next position runs beside the children of this one
        # (the root search is one thread; the children fill the other core).
        if todo:
            ident, moves = todo[0]
            katago.send([query(f"{ident}/root", komi, moves, args.root_visits, policy=True)])
        for k, (ident, moves) in enumerate(todo):
            if time.time() - start > args.minutes * 60 or (args.count is not None and made >= args.count):
                break
            root = katago.wait([f"{ident}/root"])[f"{ident}/root"]
            legal, children = children_queries(ident, komi, moves, root, args.child_visits)
            katago.send(children)
            if k + 1 < len(todo):
                next_ident, next_moves = todo[k + 1]
                katago.send([query(f"{next_ident}/root", komi, next_moves, args.root_visits, policy=True)])
            answers = katago.wait([q["id"] for q in children])
            out.write(label_line(ident, root, legal, answers, args.root_visits) + "\n")
            out.flush()
            made += 1
    katago.close()
    hours = (time.time() - start) / 3600
    rate = made / hours if hours > 0 else 0
    print(f"labelled {made} positions in {hours * 60:.1f} min ({rate:.0f} an hour); "
          f"{len(done) + made} of {len(positions)} in {args.labels}", flush=True)


if __name__ == "__main__":
    main()
