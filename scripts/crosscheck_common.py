"""The loop both perft cross-checks share (fairy_crosscheck.py for xiangqi against
Fairy-Stockfish, stockfish_crosscheck.py for chess against Stockfish): seeded random games, and
at every position the per-move perft counts of both programs compared."""
import random
import re


def divide_counts(text, move_pattern, convert=lambda m: m):
    """`move: count` lines of a perft divide -> {move: count} (moves through `convert`)."""
    counts = {}
    for line in text.splitlines():
        m = re.fullmatch(rf"({move_pattern}): (\d+)", line.strip())
        if m:
            counts[convert(m[1])] = int(m[2])
    return counts


def run(args, start, ours, theirs, next_fen, their_name):
    """Plays args.games random games of at most args.plies plies from `start` (a FEN, or a
    function of the game number giving one); `ours(fen)` and
    `theirs(fen)` give divides, `next_fen(fen, move)` the position after one of our moves.
    Prints the first divergence and returns 1, or a summary and returns 0."""
    rng = random.Random(args.seed)
    positions = 0
    for game in range(args.games):
        fen = start(game) if callable(start) else start
        for ply in range(args.plies):
            mine = ours(fen)
            other = theirs(fen)
            positions += 1
            if mine != other:
                print(f"DIVERGENCE game {game} ply {ply}: {fen}")
                for mv in sorted(set(mine) | set(other)):
                    if mine.get(mv) != other.get(mv):
                        print(f"  {mv}: chuhan {mine.get(mv)}  {their_name} {other.get(mv)}")
                return 1
            if not mine:
                break
            fen = next_fen(fen, rng.choice(sorted(mine)))
    if positions == 0:
        print("checked nothing")
        return 1
    print(f"agree: {positions} positions, {args.games} games, perft depth {args.depth} divides identical")
    return 0
