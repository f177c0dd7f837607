#!/usr/bin/env bash
# Chess perft speed: chuhan vs Stockfish's `go perft`, the same positions and depths, single
# thread, the two programs alternately (ROUNDS times each, in one run). For the start position
# and Kiwipete prints both counts, the best wall and CPU (user + system) time of each program,
# node rates, and the ratio Stockfish time / chuhan time (above 1: chuhan is faster). CPU time is
# the figure to quote on a loaded machine; Stockfish's includes its start-up, measured apart
# (`go perft 1`) and printed.
#   scripts/perft_vs_stockfish.sh [START_DEPTH] [KIWIPETE_DEPTH]   (defaults 7 and 5)
#   env: ROUNDS=3  STOCKFISH=/usr/games/stockfish  CHUHAN=target/release/chuhan (built if unset)
set -euo pipefail
start_depth=${1:-7}
kiwi_depth=${2:-5}
rounds=${ROUNDS:-3}
stockfish=${STOCKFISH:-/usr/games/stockfish}
cd "$(dirname "$0")/.."
if [ -z "${CHUHAN:-}" ]; then
  cargo build --release --quiet -p chuhan-cli
  chuhan=target/release/chuhan
else
  chuhan=$CHUHAN
fi
[ -x "$stockfish" ] || { echo "no Stockfish at $stockfish (apt-get install stockfish)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Runs "$@" under /usr/bin/time; prints "count wall cpu" (count from stdout by awk program $1).
timed() {
  local pick=$1
  shift
  /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >"$tmp/out" 2>/dev/null
  local count
  count=$(awk "$pick" "$tmp/out")
  read -r wall user sys <"$tmp/time"
  echo "$count $wall $(python3 -c "print($user + $sys)")"
}

ours() {
  timed '/^total:/ {print $2}' "$chuhan" perft --game chess --fen "$1" --depth "$2" --threads 1
}

theirs() {
  printf 'uci\nsetoption name Threads value 1\nposition fen %s\ngo perft %s\nquit\n' "$1" "$2" >"$tmp/in"
  timed '/^Nodes searched/ {print $3}' "$stockfish" <"$tmp/in"
}

startup=$(theirs "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" 1)
read -r _ startup_wall startup_cpu <<<"$startup"
echo "$("$stockfish" <<<"quit" | sed -n 1p); start-up (go perft 1): wall $startup_wall s, cpu $startup_cpu s"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

compare() {
  local name=$1 fen=$2 depth=$3
  : >"$tmp/runs"
  for _ in $(seq "$rounds"); do
    echo "chuhan $(ours "$fen" "$depth")" >>"$tmp/runs"
    echo "stockfish $(theirs "$fen" "$depth")" >>"$tmp/runs"
  done
  python3 - "$name" "$depth" "$tmp/runs" "$startup_cpu" <<'PY'
import sys
name, depth, path, startup = sys.argv[1:]
runs = {}
for line in open(path):
    who, count, wall, cpu = line.split()
    runs.setdefault(who, []).append((int(count), float(wall), float(cpu)))
counts = {who: {r[0] for r in rs} for who, rs in runs.items()}
best = {who: (min(r[1] for r in rs), min(r[2] for r in rs)) for who, rs in runs.items()}
n = next(iter(counts["chuhan"]))
for who in ("chuhan", "stockfish"):
    wall, cpu = best[who]
    print(f"{name} perft {depth}: {who:9} {n:,} nodes: best of {len(runs[who])} wall {wall:.3f} s, "
          f"cpu {cpu:.2f} s ({n / max(cpu, 0.01) / 1e6:.0f} M nodes/cpu-s; time resolution 0.01 s)")
agree = counts["chuhan"] == counts["stockfish"] and len(counts["chuhan"]) == 1
print(f"{name} perft {depth}: counts {'agree' if agree else 'DIFFER ' + str(counts)}; "
      f"ratio stockfish/chuhan: cpu {best['stockfish'][1] / max(best['chuhan'][1], 0.01):.2f}x, "
      f"wall {best['stockfish'][0] / max(best['chuhan'][0], 0.01):.2f}x, "
      f"cpu less Stockfish's start-up {(best['stockfish'][1] - float(startup)) / max(best['chuhan'][1], 0.01):.2f}x")
if not agree:
    sys.exit(1)
PY
}

compare "start position" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" "$start_depth"
compare "Kiwipete" "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" "$kiwi_depth"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
