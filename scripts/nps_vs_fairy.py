#!/usr/bin/env python3
"""Search speed context: chuhan's bench nodes/s beside Fairy-Stockfish's on the same positions.

Runs `chuhan bench` (fixed depth, one thread) and then Fairy-Stockfish on each bench position
for a fixed time, one thread, and prints both node rates. Their node counting differs (Fairy
counts every make, including quiescence), so the ratio is context, not a target.

    scripts/nps_vs_fairy.py [--movetime 2000] [--chuhan target/release/chuhan]
"""
import argparse
import re
import subprocess
import sys

FENS = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "r1bakabr1/9/2n3nc1/p3C1p1p/2p6/6P2/PcP1P3P/1CN3N2/9/R1BAKABR1 b - - 0 6",
    "rnbakab1C/9/2c5r/4p1p1p/p1p6/2B1P4/P1P3P1P/RcC3N2/9/1N1AKAB1R b - - 12 8",
    "3aka1n1/9/b3b4/4pcp1r/6PrC/p1P5P/P1n1P1NRC/8R/2N1K4/2B2A3 w - - 13 46",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--movetime", type=int, default=2000)
    ap.add_argument("--chuhan", default="target/release/chuhan")
    ap.add_argument("--fairy", default="/usr/games/fairy-stockfish")
    args = ap.parse_args()
    out = subprocess.run([args.chuhan, "bench"], capture_output=True, text=True, check=True).stdout
    ours = float(re.search(r"nps: (\d+)", out)[1])
    nodes = int(re.search(r"nodes: (\d+)", out)[1])
    total_nodes, total_ms = 0, 0
    for fen in FENS:
        script = (
            "uci\nsetoption name Threads value 1\nsetoption name Hash value 16\n"
            "setoption name UCI_Variant value xiangqi\nucinewgame\n"
            f"position fen {fen}\ngo movetime {args.movetime}\n"
        )
        proc = subprocess.Popen([args.fairy], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        proc.stdin.write(script)
        proc.stdin.flush()
        last = None
        for line in proc.stdout:
            if line.startswith("info") and " nodes " in line and " time " in line:
                last = line
            if line.startswith("bestmove"):
                break
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait()
        n = int(re.search(r" nodes (\d+)", last)[1])
        t = int(re.search(r" time (\d+)", last)[1])
        total_nodes += n
        total_ms += t
    theirs = total_nodes / (total_ms / 1000)
    print(f"chuhan bench: {nodes:,} nodes, {ours/1e6:.2f} M nodes/s (one thread)")
    print(f"fairy-stockfish: {total_nodes:,} nodes in {total_ms} ms on the same 10 positions, "
          f"{theirs/1e6:.2f} M nodes/s (one thread)")
    print(f"ratio chuhan/fairy-stockfish = {ours/theirs:.2f} (node counts differ: context only)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
