#!/usr/bin/env python3
"""Cross-check `chuhan perft --game chess --divide` against Stockfish on seeded random games.

Plays random games (moves drawn from the shared legal-move list), and at every position compares
the per-move perft counts of both programs at a small depth. Prints the first divergence (FEN,
move, both counts) and exits 1, or a summary and exits 0. Both programs write moves in UCI, so
nothing is converted; the next position's FEN comes from Stockfish's `d`.

With --chess960 each game starts from a seeded random Chess960 start position (Scharnagl's
numbering 0..959; written as X-FEN `KQkq` in even games and Shredder-FEN file letters in odd
ones), both programs are told (`--chess960`; `setoption name UCI_Chess960 value true`), castling
is the king taking its own rook in both divides, and Stockfish's FENs (Shredder-FEN) are read
back by ours.

    scripts/stockfish_crosscheck.py [--games 20] [--plies 80] [--depth 2] [--seed 1] [--chess960]
                                    [--chuhan target/release/chuhan] [--stockfish /usr/games/stockfish]
"""
import argparse
import random
import subprocess
import sys

from crosscheck_common import divide_counts, run

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
MOVE = r"[a-h][1-8][a-h][1-8][nbrq]?"


CHESS960 = False


def chess960_back_rank(n):
    """White's first rank of Chess960 start position `n` (0..959, Scharnagl's numbering; 518 is
    RNBQKBNR)."""
    rank = [None] * 8
    n, light = divmod(n, 4)
    rank[2 * light + 1] = "B"
    n, dark = divmod(n, 4)
    rank[2 * dark] = "B"
    n, queen = divmod(n, 6)
    empty = [f for f in range(8) if rank[f] is None]
    rank[empty[queen]] = "Q"
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    empty = [f for f in range(8) if rank[f] is None]
    for k in knights:
        rank[empty[k]] = "N"
    for f, piece in zip([f for f in range(8) if rank[f] is None], "RKR"):
        rank[f] = piece
    return "".join(rank)


def chess960_start(n, shredder):
    """The FEN of Chess960 start position `n`, castling as `KQkq` or as the rooks' files."""
    back = chess960_back_rank(n)
    if shredder:
        rooks = [chr(ord("A") + f) for f, p in enumerate(back) if p == "R"]
        rights = rooks[1] + rooks[0] + rooks[1].lower() + rooks[0].lower()
    else:
        rights = "KQkq"
    return f"{back.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{back} w {rights} - 0 1"


def stockfish(stockfish_bin, script):
    option = "setoption name UCI_Chess960 value true\n" if CHESS960 else ""
    return subprocess.run(
        [stockfish_bin], input=f"uci\n{option}{script}\nquit\n", capture_output=True, text=True,
        timeout=600,
    ).stdout


def stockfish_divide(stockfish_bin, fen, depth):
    out = stockfish(stockfish_bin, f"position fen {fen}\ngo perft {depth}")
    if "Nodes searched" not in out:
        raise RuntimeError(f"Stockfish gave no perft for {fen}:\n{out}")
    return divide_counts(out, MOVE)


def chuhan_divide(chuhan, fen, depth):
    res = subprocess.run(
        [chuhan, "perft", "--game", "chess", "--fen", fen, "--depth", str(depth), "--divide",
         "--threads", "1"] + (["--chess960"] if CHESS960 else []),
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
    ap.add_argument("--chess960", action="store_true",
                    help="random Chess960 start positions, UCI_Chess960 castling")
    args = ap.parse_args()
    global CHESS960
    CHESS960 = args.chess960
    start = START
    if args.chess960:
        # One seeded start position per game, drawn apart from the moves' generator.
        picks = random.Random(f"chess960 {args.seed}")
        starts = [chess960_start(picks.randrange(960), g % 2 == 1) for g in range(args.games)]
        start = lambda game: starts[game]
    return run(
        args,
        start,
        lambda fen: chuhan_divide(args.chuhan, fen, args.depth),
        lambda fen: stockfish_divide(args.stockfish, fen, args.depth),
        lambda fen, move: next_fen(args.stockfish, fen, move),
        "stockfish",
    )

if __name__ == "__main__":
    sys.exit(main())
