#!/usr/bin/env bash
# Perft speed: chuhan vs Fairy-Stockfish on the same position and depth, one after the other,
# single thread. Prints both times, both node rates and the ratio.
#   scripts/perft_vs_fairy.sh [DEPTH] [FEN]
set -euo pipefail
depth=${1:-5}
fen=${2:-"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"}
fairy=${FAIRY:-/usr/games/fairy-stockfish}
cd "$(dirname "$0")/.."
cargo build --release --quiet
chuhan=target/release/chuhan

t0=$(date +%s.%N)
ours=$("$chuhan" perft --fen "$fen" --depth "$depth" --threads 1 2>/dev/null | awk '/^total:/ {print $2}')
t1=$(date +%s.%N)
theirs=$(printf 'uci\nsetoption name Threads value 1\nsetoption name UCI_Variant value xiangqi\nposition fen %s\ngo perft %s\nquit\n' "$fen" "$depth" \
  | "$fairy" | awk '/^Nodes searched/ {print $3}')
t2=$(date +%s.%N)

python3 - "$ours" "$theirs" "$t0" "$t1" "$t2" "$depth" <<'PY'
import sys
ours, theirs, t0, t1, t2, depth = sys.argv[1:]
a, b = float(t1) - float(t0), float(t2) - float(t1)
print(f"perft {depth}: chuhan {int(ours):,} nodes in {a:.3f} s ({int(ours)/a/1e6:.1f} M/s); "
      f"fairy-stockfish {int(theirs):,} nodes in {b:.3f} s ({int(theirs)/b/1e6:.1f} M/s)")
print(f"counts {'agree' if ours == theirs else 'DIFFER'}; speed ratio chuhan/fairy-stockfish = {b/a:.2f}x")
PY
