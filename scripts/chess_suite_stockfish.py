#!/usr/bin/env python3
"""Generate or verify the chess perft suite `crates/engine/tests/data/chess.epd` with Stockfish.

    scripts/chess_suite_stockfish.py generate [--seed 17] [--random 110] [--max-nodes 20000000]
                                              [--out crates/engine/tests/data/chess.epd]
    scripts/chess_suite_stockfish.py verify   [--suite crates/engine/tests/data/chess.epd]
    scripts/chess_suite_stockfish.py crosscheck [--games 20] [--plies 80] [--depth 3] [--seed 1]
                                              [--perft target/release/examples/chess_perft]
    (all take [--stockfish /usr/games/stockfish])

`generate` writes hand-picked tricky positions (the CPW perft positions 1-6, en passant that
exposes the king along a rank or a diagonal, castling through, out of and into check, castling
that gives check, promotions and under-promotions, double and discovered checks, stalemate
traps), then positions from seeded random games played from varied starts. Each random game
(half its moves drawn from the pawn moves) keeps one position, preferring one where en
passant, a promotion, castling or a check is on the board. Every count is Stockfish's `go perft N` (depths 1.. while the count stays under
--max-nodes, at most 6). `verify` recomputes every count of the file with Stockfish and exits 1
on the first difference (printing line, FEN, depth and both counts), 0 when all agree.

`crosscheck` plays seeded random games and, at every position, compares the divide of the
engine's `chess_perft` example (`cargo build --release -p chuhan-engine --example chess_perft`)
with Stockfish's at --depth; it prints the first divergence (FEN, move, both counts) and exits
1, or a summary and exits 0.

No chess library is needed: the random games draw their moves from Stockfish's `go perft 1`
list and read the next FEN from its `d` command.

With --chess960 (before the subcommand) the same is done for Chess960: Stockfish is told
`setoption name UCI_Chess960 value true`, `generate` writes the hand-picked Chess960 positions
(positions of the CPW Chess960 perft list, and castles that are easy to get wrong: the king
that does not move, the rook that does not move, king and rook that swap squares, the rook
that shields the king's target, the rook that starts beyond the king's target, a rook's path
blocked where the king's is clear, an attacked rook target that does not matter, X-FEN's
outermost rook against an inner rook named by its file) and positions from random games from
seeded random Chess960 start positions, to crates/engine/tests/data/chess960.epd; `verify`
checks that file; `crosscheck` runs the example with `--chess960`.

    scripts/chess_suite_stockfish.py --chess960 generate [--seed 960] [--random 40] [--max-nodes 2000000]
"""
import argparse
import random
import re
import subprocess
import sys

from stockfish_crosscheck import chess960_start

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# (comment, FEN): positions whose rules are easy to get wrong.
HAND_PICKED = [
    ("start position", START),
    ("CPW perft 2, Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("CPW perft 3, en passant and rank pins", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("CPW perft 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    ("CPW perft 4 mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"),
    ("CPW perft 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
    ("CPW perft 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"),
    ("en passant would expose the king along the rank", "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1"),
    ("en passant along the rank, black to take", "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"),
    ("en passant would expose the king on a diagonal", "8/1k6/8/8/3Pp3/8/8/4K2B b - d3 0 1"),
    ("illegal en passant: the capturer is pinned", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1"),
    ("avoid the illegal en passant", "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1"),
    ("en passant capture checks the opponent", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1"),
    ("en passant captures the checking pawn", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1"),
    ("en passant would open the rank to a rook", "8/8/8/8/1k1Pp2R/8/8/4K3 b - d3 0 1"),
    ("short castling gives check", "5k2/8/8/8/8/8/8/4K2R w K - 0 1"),
    ("long castling gives check", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1"),
    ("castling rights and bishops", "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1"),
    ("castling prevented", "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1"),
    ("castling through attacked squares", "r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1"),
    ("castling out of check is illegal", "r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1"),
    ("queen side: b1 attacked does not stop castling", "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1"),
    ("rook capture removes castling rights", "r3k2r/8/8/8/8/8/8/R3K1nR b KQkq - 0 1"),
    ("promote out of check", "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1"),
    ("discovered check", "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1"),
    ("promote to give check", "4k3/1P6/8/8/8/8/K7/8 w - - 0 1"),
    ("under-promote to give check", "8/P1k5/K7/8/8/8/8/8 w - - 0 1"),
    ("self stalemate", "K1k5/8/P7/8/8/8/8/8 w - - 0 1"),
    ("stalemate and checkmate", "8/k1P5/8/1K6/8/8/8/8 w - - 0 1"),
    ("double check", "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1"),
    ("promotions with captures on both wings", "r1n1k1nr/1P4P1/8/8/8/8/1p4p1/R1N1K1NR w KQkq - 0 1"),
    ("pinned pawns and pieces", "4k3/4r3/8/1b6/2P5/3PN3/4K3/4R3 w - - 0 1"),
    ("pinned pawn may capture along the pin", "4k3/8/8/8/8/2b5/3P4/4K3 w - - 0 1"),
    ("checked king, blocks and captures", "4k3/8/8/8/1b6/8/3N1P2/R3K2R w KQ - 0 1"),
]

# (comment, FEN) for Chess960: read with UCI_Chess960 on.
HAND_PICKED_960 = [
    ("Chess960 start position 518 (the standard array)", START),
    ("CPW Chess960 perft list", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"),
    ("CPW Chess960 perft list", "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9"),
    ("CPW Chess960 perft list", "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9"),
    ("CPW Chess960 perft list", "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9"),
    ("CPW Chess960 perft list", "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9"),
    ("the king already on g1 (and g8): O-O moves only the rook", "1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1"),
    ("king already on c1: the rook on b1 shields it from the queen on a1", "4k3/8/8/8/8/8/8/qRK5 w Q - 0 1"),
    ("king already on c1, nothing on a1: castling is legal", "4k3/8/8/8/8/8/8/1RK5 w Q - 0 1"),
    ("king and rook swap squares", "4k3/8/8/8/8/8/8/5KR1 w K - 0 1"),
    ("king and rook swap squares, Black", "2rk4/8/8/8/8/8/8/4K3 b q - 0 1"),
    ("the rook does not move", "4k3/8/8/8/8/8/8/4KR2 w K - 0 1"),
    ("the rook starts beyond the king's target", "4k3/8/8/8/8/8/8/1K5R w K - 0 1"),
    ("the king moves towards the centre on the queen side", "4k3/8/8/8/8/8/8/RK6 w Q - 0 1"),
    ("the rook's path is blocked, the king's is not", "4k3/8/8/8/8/8/8/RNK5 w Q - 0 1"),
    ("an attacked rook target off the king's path does not stop castling", "4k3/8/8/8/8/8/3r4/RK6 w Q - 0 1"),
    ("a long king path with one attacked square", "4k3/8/8/8/8/8/4r3/1K5R w K - 0 1"),
    ("Q is the outermost rook; the inner one blocks it", "4k3/8/8/8/8/8/8/RR2K2R w KQ - 0 1"),
    ("B names the inner rook, which may castle", "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1"),
    ("both sides, rooks next to the king", "1rk1r3/8/8/8/8/8/8/1RK1R3 w KQkq - 0 1"),
    ("castling out of check is illegal in Chess960 too", "1r2k1r1/8/8/8/8/8/8/1R1rK1R1 w KQkq - 0 1"),
    ("a rook capture takes the right with it", "rk5r/8/8/8/8/6n1/8/RK5R b KQkq - 0 1"),
]

# Starts for the random games, besides the hand-picked positions.
STARTS = [
    START,
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1p2ppp/8/3pP3/8/8/PP1P1PPP/R3K2R w KQkq d6 0 1",
    "4k3/PP4PP/8/8/8/8/pp4pp/4K3 w - - 0 1",
    "r3k2r/1P4P1/8/3pP3/3Pp3/8/1p4p1/R3K2R w KQkq - 0 1",
    "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
    "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 0 1",
]


CHESS960 = False


class Stockfish:
    def __init__(self, path):
        self.sent = []
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.read_until(lambda l: l == "uciok")
        if CHESS960:
            self.send("setoption name UCI_Chess960 value true")

    def send(self, line):
        self.sent = (self.sent + [line])[-3:]
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def read_until(self, done):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"stockfish exited unexpectedly after: {self.sent}")
            line = line.strip()
            lines.append(line)
            if done(line):
                return lines

    def divide(self, fen, depth):
        """Per-move counts and the total of `go perft depth`."""
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        lines = self.read_until(lambda l: l.startswith("Nodes searched"))
        moves = {}
        for l in lines:
            m = re.fullmatch(r"([a-h][1-8][a-h][1-8][qrbn]?): (\d+)", l)
            if m:
                moves[m[1]] = int(m[2])
        return moves, int(lines[-1].split()[-1])

    def after(self, fen, move):
        """FEN after `move`, and whether the side to move is then in check."""
        self.send(f"position fen {fen} moves {move}")
        self.send("d")
        lines = self.read_until(lambda l: l.startswith("Checkers:"))
        new = next(l[5:].strip() for l in lines if l.startswith("Fen: "))
        return new, lines[-1] != "Checkers:"

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def counts(sf, fen, max_nodes):
    out = []
    for depth in range(1, 7):
        _, n = sf.divide(fen, depth)
        if depth > 3 and n > max_nodes:
            break
        out.append((depth, n))
        if n > max_nodes:
            break
    return out


def features(sf, fen):
    """A score for how many hard rules a position exercises, and their names."""
    moves, _ = sf.divide(fen, 1)
    found = []
    if fen.split()[3] != "-":
        found.append("en passant")
    if any(len(m) == 5 for m in moves):
        found.append("promotion")
    if CHESS960:
        # Castling is the king taking its own rook.
        castles = [m for m in moves if piece_at(fen, m[:2]) in "Kk"
                   and piece_at(fen, m[2:4]) == ("R" if piece_at(fen, m[:2]) == "K" else "r")]
    else:
        castles = [m for m in moves if m in ("e1g1", "e1c1", "e8g8", "e8c8")]
    if fen.split()[2] != "-" and castles:
        found.append("castling")
    return moves, found


# How much each feature counts when a random game picks the position it keeps.
WEIGHTS = {"en passant": 4, "promotion": 3, "castling": 2, "check": 1}


def piece_at(fen, square):
    """The FEN letter on `square` (like 'e2'), '' for an empty square."""
    rows = fen.split()[0].split("/")
    row = rows[8 - int(square[1])]
    file = ord(square[0]) - ord("a")
    col = 0
    for ch in row:
        if ch.isdigit():
            col += int(ch)
        else:
            if col == file:
                return ch
            col += 1
        if col > file:
            return ""
    return ""


def pick_move(rng, fen, moves):
    """A random move, drawn from the pawn moves (double steps first) half of the time so that
    games reach en passant and promotions more often than uniform play does."""
    pawn = [m for m in moves if piece_at(fen, m[:2]) in ("P", "p")]
    double = [m for m in pawn if abs(int(m[1]) - int(m[3])) == 2]
    r = rng.random()
    if double and r < 0.25:
        return rng.choice(double)
    if pawn and r < 0.5:
        return rng.choice(pawn)
    return rng.choice(moves)


def random_positions(sf, rng, count):
    seen = set()
    out = []
    attempts = 0
    while len(out) < count and attempts < count * 20:
        attempts += 1
        fen = rng.choice(starts())
        plies = rng.randint(1, 60)
        best = None
        for _ in range(plies):
            moves, found = features(sf, fen)
            if not moves:
                break
            move = pick_move(rng, fen, sorted(moves))
            fen, check = sf.after(fen, move)
            _, found = features(sf, fen)
            if check:
                found.append("check")
            score = sum(WEIGHTS[f] for f in found)
            if best is None or score > best[0]:
                best = (score, fen, found)
        if best is None:
            continue
        key = " ".join(best[1].split()[:4])
        if key in seen:
            continue
        moves, _ = sf.divide(best[1], 1)
        if not moves:
            continue
        seen.add(key)
        out.append((best[1], best[2]))
    return out


STARTS_960 = []


def starts():
    """Starts for the random games (and the crosscheck): the hand-picked positions and more."""
    if CHESS960:
        return STARTS_960 + [f for _, f in HAND_PICKED_960[1:]]
    return STARTS + [f for _, f in HAND_PICKED[1:]]


def generate(args):
    sf = Stockfish(args.stockfish)
    rng = random.Random(args.seed)
    flag = " --chess960" if CHESS960 else ""
    title = "Chess960 perft suite (read with UCI_Chess960 on)" if CHESS960 else "Chess perft suite"
    lines = [
        f"# {title}: FEN ;D1 n ;D2 n ... Every count is Stockfish's `go perft`",
        f"# (scripts/chess_suite_stockfish.py{flag} generate --seed {args.seed} --random {args.random}"
        f" --max-nodes {args.max_nodes}).",
        "# hand-picked positions",
    ]
    for comment, fen in HAND_PICKED_960 if CHESS960 else HAND_PICKED:
        body = " ".join(f";D{d} {n}" for d, n in counts(sf, fen, args.max_nodes))
        lines.append(f"# {comment}")
        lines.append(f"{fen} {body}")
    lines.append(f"# positions from seeded random games (seed {args.seed}), with what each exercises")
    for fen, found in random_positions(sf, rng, args.random):
        body = " ".join(f";D{d} {n}" for d, n in counts(sf, fen, args.max_nodes))
        lines.append(f"# {', '.join(found) or 'plain'}")
        lines.append(f"{fen} {body}")
    sf.close()
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    n = sum(1 for l in lines if l and not l.startswith("#"))
    print(f"wrote {n} positions to {args.out}")


def verify(args):
    sf = Stockfish(args.stockfish)
    checked = 0
    with open(args.suite) as f:
        for number, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            fen, *parts = [p.strip() for p in line.split(";")]
            for part in parts:
                m = re.fullmatch(r"D(\d+) (\d+)", part)
                if not m:
                    print(f"{args.suite}:{number}: bad entry '{part}'")
                    sys.exit(1)
                depth, expected = int(m[1]), int(m[2])
                _, got = sf.divide(fen, depth)
                if got != expected:
                    print(f"{args.suite}:{number}: {fen} depth {depth}: file {expected}, stockfish {got}")
                    sys.exit(1)
                checked += 1
    sf.close()
    print(f"all {checked} counts agree with Stockfish")


def ours_divide(binary, fen, depth):
    out = subprocess.run(
        [binary, str(depth), fen, "--divide"] + (["--chess960"] if CHESS960 else []),
        capture_output=True, text=True, timeout=600,
    )
    if out.returncode != 0:
        sys.exit(f"{binary} failed on {fen}: {out.stderr.strip()}")
    moves = {}
    for l in out.stdout.splitlines():
        m = re.fullmatch(r"([a-h][1-8][a-h][1-8][qrbn]?): (\d+)", l.strip())
        if m:
            moves[m[1]] = int(m[2])
    return moves


def crosscheck(args):
    sf = Stockfish(args.stockfish)
    rng = random.Random(args.seed)
    positions = 0
    for game in range(args.games):
        fen = starts()[game % len(starts())]
        for _ in range(args.plies):
            theirs, _ = sf.divide(fen, args.depth)
            ours = ours_divide(args.perft, fen, args.depth)
            if ours != theirs:
                for move in sorted(set(ours) | set(theirs)):
                    if ours.get(move) != theirs.get(move):
                        print(f"game {game}: {fen}: {move}: ours {ours.get(move)}, stockfish {theirs.get(move)}")
                        sys.exit(1)
            positions += 1
            if not theirs:
                break
            fen, _ = sf.after(fen, pick_move(rng, fen, sorted(theirs)))
    sf.close()
    print(f"{positions} positions in {args.games} games: every divide at depth {args.depth} agrees")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--chess960", action="store_true", help="Chess960 (UCI_Chess960) positions")
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--seed", type=int, default=None, help="17, or 960 with --chess960")
    g.add_argument("--random", type=int, default=None, help="110, or 40 with --chess960")
    g.add_argument("--max-nodes", type=int, default=None, help="20000000, or 2000000 with --chess960")
    g.add_argument("--out", default=None)
    v = sub.add_parser("verify")
    v.add_argument("--suite", default=None)
    c = sub.add_parser("crosscheck")
    c.add_argument("--games", type=int, default=20)
    c.add_argument("--plies", type=int, default=80)
    c.add_argument("--depth", type=int, default=3)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--perft", default="target/release/examples/chess_perft")
    args = ap.parse_args()
    global CHESS960
    CHESS960 = args.chess960
    suite = "crates/engine/tests/data/chess960.epd" if CHESS960 else "crates/engine/tests/data/chess.epd"
    for name, standard, chess960 in [("seed", 17, 960), ("random", 110, 40),
                                     ("max_nodes", 20_000_000, 2_000_000), ("out", suite, suite),
                                     ("suite", suite, suite)]:
        if hasattr(args, name) and getattr(args, name) is None:
            setattr(args, name, chess960 if CHESS960 else standard)
    if CHESS960:
        picks = random.Random(f"chess960 starts {args.seed if hasattr(args, 'seed') else 0}")
        STARTS_960.extend(chess960_start(picks.randrange(960), i % 2 == 1) for i in range(12))
    {"generate": generate, "verify": verify, "crosscheck": crosscheck}[args.cmd](args)


if __name__ == "__main__":
    main()
