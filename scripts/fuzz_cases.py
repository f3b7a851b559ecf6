#!/usr/bin/env python3
"""The outside fuzzer (issue 77): seeded case files for every surface sente speaks,
run against a `sente` binary, kept as plain transcripts under tests/data/fuzz_cases/.

It is written apart from the engine's own fuzz tests (tests/fuzz_conversation.rs and
the proptest parsers): it knows the protocols from docs/ alone, generates each case
from the command set of one surface (valid commands with odd arguments: huge numbers,
negatives, NaN, unicode, empty, repeated and queued commands, `quit` behind queued
searches, `go infinite`/`stop`, `end`/`new` during a platform search, SGF files with odd
setup for GTP `loadsgf`, KataGo JSON queries with odd fields, arena result files with
duplicated or renumbered games, bad scores and absurd rounds) and then mutates some
lines (tokens deleted, repeated, swapped, replaced by odd values, lines cut short).

Made with (CPython 3.11, stdlib only):

    cargo build --release -p sente
    python3 scripts/fuzz_cases.py --seed 77 --count 60 --keep 12 \\
        --sente target/release/sente --out tests/data/fuzz_cases

which writes `--count` cases per surface, runs each (one core, niced), and keeps
the first `--keep` of each surface plus every case that failed, each failing case
minimised (lines dropped while it still fails). `--surface S` limits it to one surface;
`--no-run` keeps every generated case without running it. The checks are the ones
tests/fuzz_cases.rs makes when the suite replays the kept cases; see that file.

Case format: a header `# surface: S game=G args=A B C`, then one line to send per
line. Lines starting `#! ` are for the runner, never sent: `#! sleep MS` waits,
`#! file NAME` starts a file (its lines follow, up to the next `#! ` line) written into
a fresh temporary folder, `#! end-file` ends it, `#! run ARGS` (arena cases) runs
`sente ARGS` instead of talking to it. `{dir}` in a sent line or argument is that
folder.
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

SURFACES = ["ugi", "gtp", "nboard", "phantom", "analysis", "arena"]

ODD = [
    "-1", "0", "-0", "4294967296", "18446744073709551616", "99999999999999999999999",
    "NaN", "nan", "inf", "-inf", "1e308", "-1e308", "0.5", "", "é", "日本", "🀄", "x",
    "--", "\t", "0x10", "+3", "１",
]


def mutate(rng, line):
    tokens = line.split(" ")
    op = rng.randrange(7)
    i = rng.randrange(len(tokens))
    if op == 0 and len(tokens) > 1:
        del tokens[i]
    elif op == 1:
        tokens.insert(i, tokens[i])
    elif op == 2:
        tokens[i] = rng.choice(ODD) if i else tokens[i]
        if i == 0 and len(tokens) > 1:
            tokens[-1] = rng.choice(ODD)
    elif op == 3:
        tokens.insert(i + 1, rng.choice(ODD))
    elif op == 4 and len(tokens) > 1:
        j = rng.randrange(len(tokens))
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif op == 5:
        text = " ".join(tokens)
        return text[: rng.randrange(len(text) + 1)]
    else:
        tokens[-1] = tokens[-1] + rng.choice(ODD)
    return " ".join(tokens)


def sleep(rng):
    return "#! sleep %d" % rng.choice([20, 50, 100, 200])


# ---------------------------------------------------------------- UGI+

UGI_GAMES = {
    "othello": (["f5", "d6", "c3", "d3", "c4", "f4", "c5", "b3"], ["e3", "a1", "z9", "d5"]),
    "go": (["e5", "c3", "g7", "c7", "g3", "e3", "pass", "e7"], ["e5", "j10", "a0", "i5"]),
    "phantomgo": (["e5", "c3", "g7", "c7", "g3", "pass"], ["e5", "z1", "k9"]),
    "chaosclock": ([], ["1", "13", "0-0", "x"]),
}


def ugi_case(rng, game):
    good, bad = UGI_GAMES[game]
    lines = [rng.choice(["ugi", "uci"]), "setoption name Game value %s" % game, "isready"]
    if rng.random() < 0.3:
        lines.append("setoption name BoardSize value %s" % rng.choice(["6", "7", "9", "10", "0", "-1", "NaN", "99"]))
    lines += ["uginewgame", "position startpos"]
    for _ in range(rng.randint(8, 25)):
        r = rng.random()
        moves = good[: rng.randint(0, len(good))]
        if r < 0.14:
            extra = [rng.choice(bad)] if rng.random() < 0.3 else []
            lines.append(" ".join(["position startpos"] + (["moves"] + moves + extra if moves or extra else [])))
        elif r < 0.30:
            lines.append(rng.choice([
                "go nodes %d" % rng.randint(1, 300), "go depth %d" % rng.randint(1, 3),
                "go movetime %d" % rng.randint(1, 60), "go nodes 100 depth 2",
                "go wtime 300 btime 300 winc 0 binc 0", "go p1time 200 p2time 200 movestogo 3",
            ]))
        elif r < 0.36:
            lines += ["go infinite"] + ([sleep(rng)] if rng.random() < 0.5 else []) + \
                ([rng.choice(["isready", "query fen", "d"])] if rng.random() < 0.4 else []) + ["stop"]
        elif r < 0.44:
            lines.append(rng.choice(["isready", "query gameover", "query p1turn", "query result",
                                     "query legalmoves", "query fen", "query score", "d", "stop",
                                     "query islegal %s" % rng.choice(good + bad or ["x"])]))
        elif r < 0.54:
            # An odd line between two `query fen`: if it gets an error the position stays.
            odd = rng.choice([
                "position startpos moves %s" % " ".join(moves + [rng.choice(bad)]),
                "position fen %s" % rng.choice(ODD),
                "position fen", "position startpos moves", "position",
                "setoption name Komi value %s" % rng.choice(ODD),
                "setoption name BoardSize value %s" % rng.choice(ODD),
                "go %s" % rng.choice(["nodes", "depth", "movetime", "wtime", "nodes -5", "depth NaN", "searchmoves zz"]),
            ])
            lines += ["query fen", odd, "query fen"]
        elif r < 0.60:
            lines.append("setoption name %s value %s" % rng.choice([
                ("Hash", rng.choice(["1", "16", "0", "-1", "NaN", "99999999999999999999", ""])),
                ("Threads", rng.choice(["1", "2", "0", "-3", "NaN", "18446744073709551616"])),
                ("Komi", rng.choice(["6.5", "-7.5", "1e308", "NaN", "inf"])),
                ("Book", rng.choice(["true", "false", "maybe"])),
                ("Seed", rng.choice(["1", "-1", "99999999999999999999"])),
                ("ResultWords", rng.choice(["full", "ugi", "x"])),
                ("Nonsense", "1"),
            ]))
        elif r < 0.64:
            lines.append(rng.choice(["perft 1", "perft 2", "perft -1", "perft NaN", "bench 1"]))
        elif r < 0.68:
            lines.append(sleep(rng))
        elif r < 0.72:
            lines.append(rng.choice(["uginewgame", "ucinewgame", "ugi", "uci"]))
        else:
            base = rng.choice(["position startpos moves " + " ".join(good[:3]), "go nodes 50",
                               "query islegal e5", "setoption name Komi value 7.5", "isready",
                               "query fen", "go depth 1", "d"])
            lines.append(mutate(rng, base))
    if rng.random() < 0.1:
        # `stop` after a `go infinite` queued behind a search: it ends the infinite one.
        lines += ["go movetime 2000", "go infinite", "stop", "#! sync", "isready"]
    if rng.random() < 0.2:
        # quit with searches queued: every go still gets its bestmove.
        lines += ["go nodes %d" % rng.randint(1, 50), "go nodes 10", "query result", "quit"]
        if rng.random() < 0.3:
            lines.append("go nodes 10")  # after quit: never read
    return lines


# ---------------------------------------------------------------- GTP

SGFS = [
    "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cc];B[gg])",
    "(;GM[1]FF[4]SZ[9]AB[aa]AW[ab][ba])",
    "(;GM[1]FF[4]SZ[3]AW[aa][ab][ac][ba][bb][bc][ca][cb][cc])",
    "(;GM[1]FF[4]SZ[9:7])",
    "(;GM[1]FF[4]SZ[19])",
    "(;GM[1]FF[4]SZ[0])",
    "(;GM[1]FF[4]SZ[9]KM[NaN];B[zz])",
    "(;GM[1]FF[4]SZ[9]AB[ee][ee]AW[ee])",
    "(;GM[1]FF[4]SZ[9]HA[99]AB[ee];B[ee])",
    "(;GM[1]FF[4]SZ[5]AB[aa][ab][ac][ad][ae][ba][bb][bc][bd][be][ca][cb][cc][cd][ce][da][db][dc][dd][de][ea][eb][ec][ed][ee])",
    "(;GM[1]FF[4]SZ[9];B[ee];W[ee])",
    "(;GM[1]SZ[9]",
    "",
    "(;GM[2]FF[4]SZ[8])",
]


def gtp_case(rng, game):
    lines = []
    if game == "othello":
        lines.append("set_game Othello")
    ident = [0]

    def cmd(text):
        if rng.random() < 0.4:
            ident[0] += rng.randint(1, 9)
            return "%d %s" % (ident[0], text)
        return text

    vert = (["D3", "C4", "F5", "E6", "A1", "H8"] if game == "othello"
            else ["E5", "C3", "G7", "A1", "J9", "pass", "T19", "I5"])
    files = []
    for _ in range(rng.randint(8, 25)):
        r = rng.random()
        if r < 0.18:
            lines.append(cmd("play %s %s" % (rng.choice(["b", "w", "black", "white", "x"]), rng.choice(vert))))
        elif r < 0.26:
            lines.append(cmd("genmove %s" % rng.choice(["b", "w"])))
        elif r < 0.36:
            lines.append(cmd(rng.choice([
                "boardsize %s" % rng.choice(["9", "7", "5", "2", "19", "1", "0", "-1", "NaN", "10"]),
                "komi %s" % rng.choice(["6.5", "-3", "NaN", "1e308", "inf", "x"]),
                "clear_board", "undo", "final_score", "final_status_list dead",
                "final_status_list %s" % rng.choice(["alive", "seki", "x"]), "is_legal b E5",
                "sente-ownership", "printsgf", "list_commands", "known_command play",
                "sente-superko %s" % rng.choice(["", "positional", "x"]),
                "sente-playouts %s" % rng.choice(["", "light", "heavy", "x"]),
                "sente-threads %s" % rng.choice(["", "1", "2", "0", "300", "NaN"]),
                "sente-hash %s" % rng.choice(["", "8", "0", "99999999999999999999"]),
                "time_left b %s 0" % rng.choice(["1", "0", "-1"]),
                "list_games", "kgs-genmove_cleanup b", "gogui-analyze_commands",
            ])))
        elif r < 0.46:
            odd = rng.choice([
                "play b %s" % rng.choice(["Z9", "A0", "", "E55", "pass pass"]),
                "boardsize %s" % rng.choice(ODD), "komi %s" % rng.choice(ODD),
                "undo", "play %s E5" % rng.choice(ODD), "set_game %s" % rng.choice(["Chess", "", "go"]),
                "loadsgf {dir}/missing.sgf", "is_legal", "genmove x",
            ])
            lines += ["showboard", cmd(odd), "showboard"]
        elif r < 0.54 and game == "go":
            name = "g%d.sgf" % len(files)
            files.append((name, rng.choice(SGFS)))
            lines += ["showboard", cmd("loadsgf {dir}/%s%s" % (name, rng.choice(["", " 2", " 99", " -1"]))),
                      "showboard"]
            if rng.random() < 0.5:
                lines.append(cmd(rng.choice(["final_status_list dead", "final_score", "genmove b"])))
        elif r < 0.58 and game == "go":
            lines += [cmd("%s %s" % (rng.choice(["lz-analyze", "kata-analyze"]), rng.choice(["10", "1", "0", "-5", "b 10", "x"])))]
            lines += [sleep(rng), cmd("name")]
        elif r < 0.62:
            lines.append(sleep(rng))
        elif r < 0.66:
            lines.append("%s %s" % (rng.choice(["18446744073709551616", "-1", "3.5", "007"]), rng.choice(["name", "version"])))
        else:
            base = rng.choice(["play b E5", "genmove w", "boardsize 9", "komi 7.5", "showboard",
                               "protocol_version", "time_settings 0 1 1", "final_score"])
            lines.append(cmd(mutate(rng, base)))
    if rng.random() < 0.6:
        lines += [cmd("genmove b"), cmd("genmove w"), cmd("quit")]
    header_files = []
    for name, text in files:
        header_files += ["#! file " + name, text, "#! end-file"]
    return header_files + lines


# ---------------------------------------------------------------- NBoard

GGF = "(;GM[Othello]PC[fuzz]PB[a]PW[b]RE[?]TI[0//0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]%s;)"


def nboard_case(rng):
    lines = ["nboard 2", "set depth %d" % rng.randint(1, 3), "set game " + GGF % ""]
    ping = 0
    for _ in range(rng.randint(8, 25)):
        r = rng.random()
        if r < 0.2:
            lines.append(rng.choice(["go", "hint 2", "hint 1"]))
        elif r < 0.35:
            ping += 1
            lines.append("ping %d" % ping)
        elif r < 0.5:
            lines.append("move %s" % rng.choice(["f5", "d6", "c3", "pa", "a1", "z9", "F5/1.0/0.1", ""]))
        elif r < 0.6:
            lines.append("set game " + rng.choice([
                GGF % "B[F5]W[D6]", GGF % "B[A1]", GGF.replace("TY[8]", "TY[10]") % "",
                GGF.replace("TY[8]", "TY[8a]") % "", GGF.replace("BO[8 ", "BO[9 ") % "",
                "(;GM[Othello]TY[8];)", "(;", "",
            ]))
        elif r < 0.68:
            lines.append("set %s %s" % (rng.choice(["depth", "contempt", "x"]), rng.choice(["1", "2", "0", "-1", "NaN", "99999999999999999999"])))
        elif r < 0.72:
            lines.append(rng.choice(["learn", "analyze"]))
        elif r < 0.76:
            lines.append(sleep(rng))
        else:
            lines.append(mutate(rng, rng.choice(["move d3", "set depth 2", "go", "nboard 2", "hint 2"])))
        if "depth" in lines[-1] and not lines[-1].startswith("#"):
            # NBoard has no stop: keep searches short.
            toks = lines[-1].split(" ")
            try:
                if int(toks[-1]) > 4:
                    toks[-1] = "3"
                    lines[-1] = " ".join(toks)
            except ValueError:
                pass
    if rng.random() < 0.5:
        lines += ["go", "ping %d" % (ping + 1), "quit"]
    return lines


# ---------------------------------------------------------------- Phantom platform

def phantom_case(rng):
    lines = [rng.choice(["name?", "name ?"]), "new %s" % rng.choice(["black", "white"])]
    for _ in range(rng.randint(8, 25)):
        r = rng.random()
        if r < 0.25:
            lines.append("move go")
        elif r < 0.3:
            lines.append("move pass")
        elif r < 0.45:
            lines.append(rng.choice(["accept", "refuse"]))
        elif r < 0.55:
            pt = "".join(rng.choice("ABCDEFGHI") for _ in range(2))
            lines.append("%s 1 %s" % (rng.choice(["take", "access take", "taked"]), pt))
        elif r < 0.62:
            lines += ["end", "name?"] + (["new %s" % rng.choice(["black", "white"])] if rng.random() < 0.7 else [])
        elif r < 0.7:
            lines.append(sleep(rng))
        elif r < 0.75:
            lines.append("name?")
        else:
            lines.append(mutate(rng, rng.choice(["take 2 EEFF", "move go", "new black", "taked 1 AA", "error", "accept"])))
    return lines


def phantom_end_case(rng):
    """A try asked for, then `end` while it is searched (a long movetime): no try may come."""
    lines = ["name?"]
    for _ in range(rng.randint(1, 3)):
        lines += ["new white", "move go", sleep(rng), "end", "#! sleep 200", "name?"]
    return lines


# ---------------------------------------------------------------- KataGo analysis

VERTS = ["E5", "C3", "G7", "C7", "pass", "(4,4)", "Z9", "A0", "", "e5", "T19"]


def analysis_case(rng):
    lines = []
    for n in range(rng.randint(3, 12)):
        q = {"id": "q%d" % n, "moves": [["B", "E5"], ["W", "C3"]][: rng.randint(0, 2)],
             "rules": "chinese", "komi": 7.5, "boardXSize": 9, "boardYSize": 9,
             "maxVisits": rng.randint(1, 40)}
        for _ in range(rng.randint(0, 3)):
            field = rng.choice(["rules", "komi", "size", "maxVisits", "moves", "avoid", "turns",
                                "initial", "drop", "id", "override", "unknown", "player"])
            if field == "rules":
                q["rules"] = rng.choice(["japanese", "tromp-taylor", "aga", "nonsense", "", 5, None,
                                         {"ko": "SIMPLE", "scoring": "TERRITORY"}, {"ko": "X"}])
            elif field == "komi":
                q["komi"] = rng.choice([-1000, 1e308, 7.25, "7.5", None, 0, -0.5])
            elif field == "size":
                s = rng.choice([0, 1, 2, 10, 19, -1, "9", 9.5, 4294967296])
                q["boardXSize"] = s
                q["boardYSize"] = rng.choice([s, 9, 7])
            elif field == "maxVisits":
                q["maxVisits"] = rng.choice([0, -1, 1, "10", 1.5, None])
            elif field == "moves":
                q["moves"] = rng.choice([[["B", rng.choice(VERTS)]], [["X", "E5"]], [["B", "E5"], ["B", "E5"]],
                                         "E5", [[]], [["W", "E5"], ["B", "pass"], ["W", "pass"], ["B", "pass"]]])
            elif field == "avoid":
                every = ["%s%d" % (c, r) for c in "ABCDEFGHJ" for r in range(1, 10)]
                q["avoidMoves"] = rng.choice([
                    [{"player": "B", "moves": every + ["pass"], "untilDepth": 1}],
                    [{"player": "B", "moves": every, "untilDepth": 1}],
                    [{"player": "W", "moves": ["E5"], "untilDepth": -1}], "x", [{}]])
                if rng.random() < 0.5:
                    q["allowMoves"] = [{"player": "B", "moves": ["Z9"], "untilDepth": 1}]
            elif field == "turns":
                q["analyzeTurns"] = rng.choice([[0, 1, 2], [99], [-1], [], "0", [0, 0, 0]])
            elif field == "initial":
                q["initialStones"] = rng.choice([[["B", "A1"], ["W", "A2"], ["W", "B1"]], [["B", "E5"], ["W", "E5"]],
                                                 [["B", "Z1"]], "x"])
                q["initialPlayer"] = rng.choice(["B", "W", "X", 1])
            elif field == "drop":
                q.pop(rng.choice(["moves", "rules", "komi", "boardXSize", "maxVisits"]), None)
            elif field == "id":
                q["id"] = rng.choice([5, None, "", "日本", "q0"])
            elif field == "override":
                q["overrideSettings"] = rng.choice([{"maxVisits": 10, "reportAnalysisWinratesAs": "WHITE"},
                                                    {"maxTime": -1}, {"maxTime": 0.01}, {"wideRootNoise": 1},
                                                    {"reportAnalysisWinratesAs": "X"}, "x"])
            elif field == "unknown":
                q["includeOwnership"] = rng.choice([True, "yes", 1])
                q["includePolicy"] = True
                q["reportDuringSearchEvery"] = rng.choice([0.01, 0, -1, "x"])
            else:
                q["priority"] = rng.choice([1, -1, 1e308, "x"])
        line = json.dumps(q, ensure_ascii=False)
        if rng.random() < 0.1:
            line = mutate(rng, line)
        lines.append(line)
        r = rng.random()
        if r < 0.1:
            lines.append(json.dumps({"id": "a%d" % n, "action": rng.choice(["query_version", "query_models", "clear_cache", "frobnicate"])}))
        elif r < 0.15:
            lines.append(json.dumps({"id": "t%d" % n, "action": "terminate", "terminateId": "q%d" % n,
                                     "turnNumbers": rng.choice([[0], [5], "x"])}))
        elif r < 0.2:
            lines.append(rng.choice(["not json", "{", "[]", "{}", '{"id": 3}', "null", '"x"']))
        elif r < 0.25:
            lines.append(sleep(rng))
    if rng.random() < 0.3:
        lines.append(json.dumps({"id": "big", "moves": [], "rules": "chinese", "komi": 7.5,
                                 "boardXSize": 9, "boardYSize": 9, "maxVisits": 10 ** 12}))
        lines.append(json.dumps({"id": "ta", "action": "terminate_all"}))
    return lines


# ---------------------------------------------------------------- arena files

def match_json(rng, game, engines, rounds):
    return {"version": 1, "game": game, "size": 8 if game == "othello" else 9, "komi": 7.5, "phantom_rules": "ccgc",
            "max_moves": 300, "solve_empties": 0, "dead_stones": "arena",
            "engines": [{"name": e, "command": ["sente"], "protocol": "ugi", "options": [], "init": []} for e in engines],
            "control": "--nodes 100", "openings": {"source": "random", "plies": 0, "seed": 1}, "rounds": rounds,
            "shard": "0/1"}


def result_row(game, opening, first, second, score_a):
    result = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}.get(score_a, "1-0")
    return {"game": game, "opening": opening, "first": first, "second": second, "result": result,
            "score_a": score_a, "reason": "no moves", "score": "B+1", "moves": 60,
            "record": "games/%06d.txt" % game}


def arena_case(rng):
    game = rng.choice(["othello", "go"])
    rounds = rng.choice([1, 2, 3])
    engines = ["a", "b"]
    rows = []
    for g in range(rng.randint(0, 2 * rounds)):
        first, second = (engines if g % 2 == 0 else engines[::-1])
        s = rng.choice([1.0, 0.0, 0.5])
        rows.append(result_row(g, g // 2, first, second, s if first == "a" else 1 - s))
    mj = match_json(rng, game, engines, rounds)
    for _ in range(rng.randint(0, 3)):
        k = rng.randrange(9)
        if mj is None and k in (4, 5, 6):
            continue
        if k == 0 and rows:
            rows.append(dict(rng.choice(rows)))
        elif k == 1 and rows:
            rng.choice(rows)["game"] = rng.choice([99, -1, 2 ** 64, "1", None, 1.5])
        elif k == 2 and rows:
            rng.choice(rows)["first"] = "c"
        elif k == 3 and rows:
            rng.choice(rows)["score_a"] = rng.choice([-7, 1e308, 2, "x", None, 0.25])
        elif k == 4:
            mj["rounds"] = rng.choice([0, -1, 2 ** 64 - 1, 2 ** 32, "2", None, 1.5])
        elif k == 5:
            mj["engines"] = rng.choice([[], mj["engines"][:1], mj["engines"] + [dict(mj["engines"][0], name="c")]])
        elif k == 6:
            mj[rng.choice(["game", "version", "openings", "size", "control"])] = rng.choice([None, "x", 99, -1, {}])
        elif k == 7 and rows:
            rng.choice(rows)["opening"] = rng.choice([7, -1, None, 2 ** 64])
        else:
            mj = None
    text_rows = [json.dumps(r) for r in rows]
    if rng.random() < 0.15:
        text_rows.append(rng.choice(["not json", "{", "", "[]", '{"game": 0}']))
    files = []
    command = rng.choice(["report", "merge", "compare"])
    if command == "compare":
        # Two matches on the same schedule; the second one's openings may differ.
        other = [dict(r) for r in rows]
        if other and rng.random() < 0.5:
            rng.choice(other)["opening"] += 1
        for sub, rs in (("x", text_rows), ("y", [json.dumps(r) for r in other])):
            if mj is not None:
                files += ["#! file %s/match.json" % sub, json.dumps(mj), "#! end-file"]
            files += ["#! file %s/results.jsonl" % sub] + rs + ["#! end-file"]
        files.append("#! run arena compare {dir}/x {dir}/y")
    else:
        if mj is not None:
            files += ["#! file m/match.json", json.dumps(mj), "#! end-file"]
        files += ["#! file m/results.jsonl"] + text_rows + ["#! end-file"]
        if command == "report":
            files.append("#! run arena report {dir}/m" + rng.choice(["", " --sprt 0,5", " --normalized", " --out {dir}/m"]))
        else:
            files.append("#! run arena merge {dir}/m/results.jsonl" + rng.choice(["", " --sprt \"elo0=0 elo1=5\""]))
    return files


def arena_special(rng, k):
    """The issue's own shapes: absurd rounds, a report over an existing page folder."""
    rows = [json.dumps(result_row(g, g // 2, *(("a", "b") if g % 2 == 0 else ("b", "a")), 1.0)) for g in range(2)]
    mj = match_json(rng, "othello", ["a", "b"], [2 ** 64 - 1, 2 ** 63, 10 ** 12, 4][k % 4])
    files = ["#! file m/match.json", json.dumps(mj), "#! end-file", "#! file m/results.jsonl"] + rows + ["#! end-file"]
    if k % 2 == 1:
        files += ["#! file m/page/old.html", "x", "#! end-file"]
        return files + ["#! run arena report {dir}/m --out {dir}/m/page"]
    return files + ["#! run arena " + rng.choice(["report {dir}/m", "merge {dir}/m/results.jsonl"])]


# ---------------------------------------------------------------- making cases

def make_case(rng, surface, index):
    if surface == "ugi":
        game = ["othello", "go", "phantomgo", "chaosclock"][index % 4]
        extra = " --debug" if rng.random() < 0.03 else ""
        return "# surface: ugi game=%s args=%s" % (game, extra.strip()), ugi_case(rng, game)
    if surface == "gtp":
        game = ["go", "othello"][index % 2]
        extra = " --debug" if rng.random() < 0.03 else ""
        return "# surface: gtp game=%s args=gtp%s" % (game, extra), gtp_case(rng, game)
    if surface == "nboard":
        return "# surface: nboard game=othello args=nboard", nboard_case(rng)
    if surface == "phantom":
        if index % 6 == 5:
            return "# surface: phantom game=phantomgo args=phantom --movetime 100000 strict-end", phantom_end_case(rng)
        return "# surface: phantom game=phantomgo args=phantom --movetime 20", phantom_case(rng)
    if surface == "analysis":
        return "# surface: analysis game=go args=analysis --visits 30", analysis_case(rng)
    if index % 9 == 8:
        return "# surface: arena game=files args=", arena_special(rng, index // 9)
    return "# surface: arena game=files args=", arena_case(rng)


# ---------------------------------------------------------------- running and checking

def parse(text):
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    header = lines[0]
    m = re.match(r"# surface: (\S+) game=(\S*) args=(.*)$", header)
    surface, game, args = m.group(1), m.group(2), m.group(3).split()
    strict = "strict-end" in args
    args = [a for a in args if a != "strict-end"]
    return surface, game, args, strict, lines[1:]


def run_case(sente, text, timeout=30.0):
    """Runs one case; returns a list of problems (empty: it passed)."""
    surface, game, args, strict, body = parse(text)
    tmp = tempfile.mkdtemp(prefix="sente-fuzz-")
    try:
        return _run(sente, surface, args, strict, body, tmp, timeout)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _run(sente, surface, args, strict, body, tmp, timeout):
    sub = lambda s: s.replace("{dir}", tmp)
    send, current, run = [], None, None
    for line in body:
        if line.startswith("#! file "):
            current = open(_mkfile(tmp, line[8:]), "w")
        elif line == "#! end-file":
            current.close()
            current = None
        elif current is not None:
            current.write(line + "\n")
        elif line.startswith("#! run "):
            run = line[7:]
        else:
            send.append(line)
    if run is not None:
        import shlex
        argv = [sente] + [sub(a) for a in shlex.split(run)]
        try:
            p = subprocess.run(argv, capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return ["hang: no exit within %ds" % timeout]
        err = p.stderr.decode("utf-8", "replace")
        problems = []
        if p.returncode < 0:
            problems.append("killed by signal %d" % -p.returncode)
        elif p.returncode != 0 and not err.strip():
            problems.append("exit %d without a message" % p.returncode)
        if "panicked" in err:
            problems.append("panic: " + err[:300])
        for root, dirs, names in os.walk(tmp):
            for n in names + dirs:
                if n.endswith(".partial"):
                    problems.append("%s left behind" % n)
        return problems
    proc = subprocess.Popen([sente] + [sub(a) for a in args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    out = []  # (line, number of lines sent when it arrived)
    sent = [0]
    err = []

    def reader():
        for raw in proc.stdout:
            out.append((raw.decode("utf-8", "replace").rstrip("\n"), sent[0]))

    def err_reader():
        err.append(proc.stderr.read().decode("utf-8", "replace"))

    threads = [threading.Thread(target=reader, daemon=True), threading.Thread(target=err_reader, daemon=True)]
    for t in threads:
        t.start()
    sent_lines = []
    problems = []
    try:
        for line in send:
            if line == "#! sync":
                # UGI+: every `go` sent so far answered (or refused) within 20 s.
                deadline = time.time() + 20
                while time.time() < deadline and not ugi_synced(sent_lines, out):
                    time.sleep(0.01)
                if not ugi_synced(sent_lines, out):
                    problems.append("hang: a go without its bestmove 20 s after the line that ends it")
                continue
            if line.startswith("#! sleep "):
                time.sleep(int(line[9:]) / 1000)
                continue
            proc.stdin.write((sub(line) + "\n").encode())
            proc.stdin.flush()
            sent_lines.append(line)
            sent[0] = len(sent_lines)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        for t in threads:
            t.join()
        return ["hang: no exit within %ds of the end of input" % timeout]
    for t in threads:
        t.join()
    if code != 0:
        problems.append("exit status %d" % code)
    if "panicked" in "".join(err):
        problems.append("panic: " + "".join(err)[:300])
    problems += CHECKS[surface](sent_lines, out, strict)
    return problems


def _mkfile(tmp, name):
    path = os.path.join(tmp, *name.split("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return path


def gtp_id(tok):
    return re.fullmatch(r"[0-9]+", tok) is not None


def first_token(line, gtp=False):
    toks = line.split()
    if gtp and toks and gtp_id(toks[0]):
        toks = toks[1:]
    return toks[0] if toks else ""


def until_quit(sent, gtp=False):
    for i, line in enumerate(sent):
        if first_token(line, gtp) == "quit":
            return sent[: i + 1]
    return sent


def ugi_synced(sent, out):
    lines = [l for l, _ in list(out)]
    gos = sum(first_token(l) == "go" for l in until_quit(sent))
    done = sum(l.startswith("bestmove") or l.startswith("info string error: 'go") for l in lines)
    return done >= gos


def check_ugi(sent, out, strict):
    sent = until_quit(sent)
    lines = [l for l, _ in out]
    p = []
    # A `go` that is refused (`info string error: 'go…`) gets no search.
    gos = sum(first_token(l) == "go" for l in sent)
    refused = sum(l.startswith("info string error: 'go") for l in lines)
    best = sum(l.startswith("bestmove") for l in lines)
    if gos - refused != best:
        p.append("%d go (%d refused), %d bestmove" % (gos, refused, best))
    ready = sum(first_token(l) == "isready" for l in sent)
    ready -= sum(l.startswith("info string error: 'isready") for l in lines)
    ok = sum(l == "readyok" for l in lines)
    if ready != ok:
        p.append("%d isready, %d readyok" % (ready, ok))
    # Corruption: `query fen`, a line, `query fen`: after an error the same position.
    queries = [i for i, l in enumerate(sent) if first_token(l) == "query"]
    refused = sum(l.startswith("info string error: 'query") for l in lines)
    responses = [i for i, l in enumerate(lines) if l.startswith("response")]
    if len(queries) - refused != len(responses):
        p.append("%d query (%d refused), %d response" % (len(queries), refused, len(responses)))
    elif refused == 0:
        for k in range(len(queries) - 1):
            a, b = queries[k], queries[k + 1]
            if b == a + 2 and sent[a] == "query fen" and sent[b] == "query fen":
                between = lines[responses[k] + 1: responses[k + 1]]
                if any(l.startswith("info string error") for l in between) and lines[responses[k]] != lines[responses[k + 1]]:
                    p.append("%r got an error and changed the position: %r -> %r" % (sent[a + 1], lines[responses[k]], lines[responses[k + 1]]))
    return p


def gtp_commands(sent):
    # Empty lines, comments and a line with an id alone are not commands (GNU Go).
    return [l for l in until_quit(sent, True) if first_token(l, True) and not l.lstrip().startswith("#")]


def check_gtp(sent, out, strict):
    cmds = gtp_commands(sent)
    blocks, cur = [], []
    for l, _ in out:
        if l == "":
            blocks.append(cur)
            cur = []
        else:
            cur.append(l)
    p = []
    if cur:
        p.append("a reply not ended by an empty line: %r" % cur[:3])
    if len(blocks) != len(cmds):
        p.append("%d commands, %d replies" % (len(cmds), len(blocks)))
        return p
    for c, b in zip(cmds, blocks):
        toks = c.split()
        m = re.match(r"^([=?])([0-9]*)( |$)", b[0]) if b else None
        if not m:
            p.append("%r answered %r" % (c, b[:1]))
        elif gtp_id(toks[0]) and int(toks[0]) < 2 ** 64:
            if m.group(2) == "" or int(m.group(2)) != int(toks[0]):
                p.append("%r answered %r" % (c, b[:1]))
        elif gtp_id(toks[0]):
            # An id beyond 64 bits: its own id back, or an error (issue 77, item 6).
            if not (m.group(1) == "?" or (m.group(2) and int(m.group(2)) == int(toks[0]))):
                p.append("%r answered %r" % (c, b[:1]))
        elif m.group(2):
            p.append("%r answered %r" % (c, b[:1]))
    for k, (c, b) in enumerate(zip(cmds, blocks)):
        rows = go_board(b) if first_token(c, True) == "showboard" else None
        point = rows and without_liberties(rows)
        if point:
            p.append("command %d, showboard: a group without liberties at %s" % (k + 1, point))
            break
    for k in range(len(cmds) - 2):
        if first_token(cmds[k], True) == "showboard" and first_token(cmds[k + 2], True) == "showboard" \
                and blocks[k + 1] and blocks[k + 1][0].startswith("?"):
            if [l.lstrip("=0123456789") for l in blocks[k]] != [l.lstrip("=0123456789") for l in blocks[k + 2]]:
                p.append("%r failed and changed the board" % cmds[k + 1])
    return p


def go_board(block):
    """The Go board of a `showboard` reply (rows `N . X O … N`), or None."""
    rows = []
    for line in block:
        t = line.split()
        if len(t) >= 3 and t[0].isdigit() and t[-1] == t[0] and all(c in "XO.+" for c in t[1:-1]):
            rows.append(t[1:-1])
    return rows or None


def without_liberties(rows):
    """A point of a group with no liberty (a position no Go game reaches), or None."""
    h, w = len(rows), len(rows[0])
    seen = set()
    for y in range(h):
        for x in range(w):
            if rows[y][x] in "XO" and (y, x) not in seen:
                group, stack, free = {(y, x)}, [(y, x)], False
                while stack:
                    cy, cx = stack.pop()
                    for ny, nx in ((cy + 1, cx), (cy - 1, cx), (cy, cx + 1), (cy, cx - 1)):
                        if 0 <= ny < h and 0 <= nx < len(rows[ny]):
                            c = rows[ny][nx]
                            if c in ".+":
                                free = True
                            elif c == rows[y][x] and (ny, nx) not in group:
                                group.add((ny, nx))
                                stack.append((ny, nx))
                seen |= group
                if not free:
                    return "%s%d" % ("ABCDEFGHJKLMNOPQRST"[x], h - y)
    return None


def check_nboard(sent, out, strict):
    sent = until_quit(sent)
    lines = [l for l, _ in out]
    p = []
    gos = sum(first_token(l) == "go" for l in sent)
    moves = sum(l.startswith("===") for l in lines)
    if gos != moves:
        p.append("%d go, %d ===" % (gos, moves))
    pings = [l.split()[1] if len(l.split()) > 1 else "0" for l in sent if first_token(l) == "ping"]
    pongs = [l.split()[1] if len(l.split()) > 1 else "" for l in lines if l.startswith("pong")]
    if len(pings) != len(pongs):
        p.append("%d ping, %d pong" % (len(pings), len(pongs)))
    return p


def asks_try(line):
    t = line.split()
    return t in (["new", "black"], ["move", "go"], ["move", "pass"], ["refuse"])


def check_phantom(sent, out, strict):
    sent = until_quit(sent)
    p = []
    for l, _ in out:
        if not (l.startswith("move ") or l.startswith("name ")):
            p.append("unexpected line %r" % l)
    asks = sum(asks_try(l) for l in sent)
    moves = sum(l.startswith("move ") for l, _ in out)
    if moves > asks:
        p.append("%d tries for %d lines asking for one" % (moves, asks))
    names = sum(l.split() in (["name?"], ["name", "?"]) for l in sent)
    if names != sum(l.startswith("name ") for l, _ in out):
        p.append("%d name?, %d name" % (names, sum(l.startswith("name ") for l, _ in out)))
    if strict:
        # Every search is longer than the case: a try after `end` (and before the next
        # `new`) answers the game that ended.
        for l, at in out:
            if l.startswith("move ") and at > 0:
                before = [s for s in sent[:at] if s.split() and s.split()[0] in ("new", "end")]
                if before and before[-1] == "end":
                    p.append("%r after end" % l)
    return p


def check_analysis(sent, out, strict):
    p = []
    ids = set()
    for l, _ in out:
        try:
            v = json.loads(l)
        except ValueError:
            p.append("not JSON: %r" % l[:100])
            continue
        if not isinstance(v, dict):
            p.append("not an object: %r" % l[:100])
            continue
        if "id" in v:
            ids.add(json.dumps(v["id"]))
    for l in sent:
        try:
            q = json.loads(l)
        except ValueError:
            continue
        if isinstance(q, dict) and isinstance(q.get("id"), str) and json.dumps(q["id"]) not in ids \
                and q.get("analyzeTurns") != []:
            p.append("no answer for id %r" % q["id"])
    return p


CHECKS = {"ugi": check_ugi, "gtp": check_gtp, "nboard": check_nboard, "phantom": check_phantom,
          "analysis": check_analysis}


def minimise(sente, text, budget=30):
    header, *body = text.split("\n")
    body = [l for l in body if l != ""] if not text.startswith("# surface: arena") else body
    protected = lambda l: l.startswith("#! ") and not l.startswith("#! sleep")
    step = max(1, len(body) // 2)
    while step >= 1:
        i = 0
        while i < len(body):
            trial = body[:i] + [l for l in body[i:i + step] if protected(l)] + body[i + step:]
            budget -= 1
            if budget < 0:
                return "\n".join([header] + body) + "\n"
            if trial != body and run_case(sente, "\n".join([header] + trial) + "\n"):
                body = trial
            else:
                i += step
        step //= 2
    return "\n".join([header] + body) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--count", type=int, default=60, help="cases generated per surface")
    ap.add_argument("--keep", type=int, default=12, help="passing cases kept per surface")
    ap.add_argument("--minimise", type=int, default=1, help="failing cases minimised per kind of finding")
    ap.add_argument("--surface", choices=SURFACES, action="append")
    ap.add_argument("--sente", default="target/release/sente")
    ap.add_argument("--out", default="tests/data/fuzz_cases")
    ap.add_argument("--no-run", action="store_true")
    a = ap.parse_args()
    for surface in a.surface or SURFACES:
        rng = random.Random("%d/%s" % (a.seed, surface))
        folder = os.path.join(a.out, surface)
        os.makedirs(folder, exist_ok=True)
        kept, seen = 0, {}
        for n in range(a.count):
            header, lines = make_case(rng, surface, n)
            text = "\n".join([header] + lines) + "\n"
            name = os.path.join(folder, "%04d.txt" % n)
            if a.no_run:
                open(name, "w").write(text)
                continue
            problems = run_case(a.sente, text)
            if problems:
                print("%s: %s" % (name, "; ".join(problems)), flush=True)
                open(name, "w").write(text)
                # The first cases of each kind of finding are minimised too.
                kind = re.sub(r"'[^']*'|[0-9]+", "N", problems[0])[:60]
                seen[kind] = seen.get(kind, 0) + 1
                # (Not the hangs: each try would wait out the limit.)
                if seen[kind] <= a.minimise and not problems[0].startswith("hang"):
                    small = minimise(a.sente, text)
                    print("  minimised: %s" % "; ".join(run_case(a.sente, small)), flush=True)
                    open(name.replace(".txt", "-min.txt"), "w").write(small)
            elif kept < a.keep:
                kept += 1
                open(name, "w").write(text)

if __name__ == "__main__":
    sys.exit(main())
