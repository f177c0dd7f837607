#!/usr/bin/env python3
"""Cross-check `chuhan perft --divide` against Fairy-Stockfish on seeded random positions.

Plays random games (moves drawn from the shared legal-move list), and at every position compares
the per-move perft counts of both programs at a small depth. Prints the first divergence (FEN,
move, both counts) and exits 1, or a summary and exits 0.

    scripts/fairy_crosscheck.py [--games 20] [--plies 60] [--depth 2] [--seed 1]
                                [--chuhan target/release/chuhan] [--fairy /usr/games/fairy-stockfish]

Fairy-Stockfish prints ranks 1-10 in UCI mode; chuhan uses 0-9. Moves are converted both ways.
"""
import argparse
import re
import subprocess
import sys

from crosscheck_common import divide_counts, run

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def fairy_to_ours(move):
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    if not m:
        raise ValueError(f"unexpected Fairy-Stockfish move {move!r}")
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


def fairy_divide(fairy, fen, depth):
    script = (
        "uci\nsetoption name UCI_Variant value xiangqi\n"
        f"position fen {fen}\ngo perft {depth}\nquit\n"
    )
    out = subprocess.run([fairy], input=script, capture_output=True, text=True, timeout=600).stdout
    if "Nodes searched" not in out:
        raise RuntimeError(f"Fairy-Stockfish gave no perft for {fen}:\n{out}")
    return divide_counts(out, r"[a-i]\d+[a-i]\d+", fairy_to_ours)


def chuhan_divide(chuhan, fen, depth):
    res = subprocess.run(
        [chuhan, "perft", "--fen", fen, "--depth", str(depth), "--divide", "--threads", "1"],
        capture_output=True, text=True, timeout=600,
    )
    if res.returncode != 0:
        raise RuntimeError(f"chuhan perft failed on {fen}: {res.stderr}")
    return divide_counts(res.stdout, r"[a-i]\d[a-i]\d")


def next_fen(fairy, fen, move_fairy):
    script = (
        "uci\nsetoption name UCI_Variant value xiangqi\n"
        f"position fen {fen} moves {move_fairy}\nd\nquit\n"
    )
    out = subprocess.run([fairy], input=script, capture_output=True, text=True, timeout=60).stdout
    for line in out.splitlines():
        if line.startswith("Fen: "):
            return line[5:].strip()
    raise RuntimeError(f"no FEN from Fairy-Stockfish after {move_fairy} in {fen}")


def ours_to_fairy(move):
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chuhan", default="target/release/chuhan")
    ap.add_argument("--fairy", default="/usr/games/fairy-stockfish")
    args = ap.parse_args()
    return run(
        args,
        START,
        lambda fen: chuhan_divide(args.chuhan, fen, args.depth),
        lambda fen: fairy_divide(args.fairy, fen, args.depth),
        lambda fen, move: next_fen(args.fairy, fen, ours_to_fairy(move)),
        "fairy-stockfish",
    )

if __name__ == "__main__":
    sys.exit(main())
