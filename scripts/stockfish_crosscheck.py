#!/usr/bin/env python3
"""Cross-check `chuhan perft --game chess --divide` against Stockfish on seeded random games.

Plays random games (moves drawn from the shared legal-move list), and at every position compares
the per-move perft counts of both programs at a small depth. Prints the first divergence (FEN,
move, both counts) and exits 1, or a summary and exits 0. Both programs write moves in UCI, so
nothing is converted; the next position's FEN comes from Stockfish's `d`.

    scripts/stockfish_crosscheck.py [--games 20] [--plies 80] [--depth 2] [--seed 1]
                                    [--chuhan target/release/chuhan] [--stockfish /usr/games/stockfish]
"""
import argparse
import subprocess
import sys

from crosscheck_common import divide_counts, run

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
MOVE = r"[a-h][1-8][a-h][1-8][nbrq]?"


def stockfish(stockfish_bin, script):
    return subprocess.run(
        [stockfish_bin], input=f"uci\n{script}\nquit\n", capture_output=True, text=True, timeout=600
    ).stdout


def stockfish_divide(stockfish_bin, fen, depth):
    out = stockfish(stockfish_bin, f"position fen {fen}\ngo perft {depth}")
    if "Nodes searched" not in out:
        raise RuntimeError(f"Stockfish gave no perft for {fen}:\n{out}")
    return divide_counts(out, MOVE)


def chuhan_divide(chuhan, fen, depth):
    res = subprocess.run(
        [chuhan, "perft", "--game", "chess", "--fen", fen, "--depth", str(depth), "--divide",
         "--threads", "1"],
        capture_output=True, text=True, timeout=600,
    )
    if res.returncode != 0:
        raise RuntimeError(f"chuhan perft failed on {fen}: {res.stderr}")
    return divide_counts(res.stdout, MOVE)


def next_fen(stockfish_bin, fen, move):
    out = stockfish(stockfish_bin, f"position fen {fen} moves {move}\nd")
    for line in out.splitlines():
        if line.startswith("Fen: "):
            return line[5:].strip()
    raise RuntimeError(f"no FEN from Stockfish after {move} in {fen}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--plies", type=int, default=80)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chuhan", default="target/release/chuhan")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    args = ap.parse_args()
    return run(
        args,
        START,
        lambda fen: chuhan_divide(args.chuhan, fen, args.depth),
        lambda fen: stockfish_divide(args.stockfish, fen, args.depth),
        lambda fen, move: next_fen(args.stockfish, fen, move),
        "stockfish",
    )

if __name__ == "__main__":
    sys.exit(main())
