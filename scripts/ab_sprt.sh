#!/usr/bin/env bash
# A/B test of two engine binaries at a time control through `chuhan sprt`, each binary playing
# as an external UCI engine (`chuhan uci`), so process and pipe overhead is the same for both.
#
#   scripts/ab_sprt.sh snapshot                 # build HEAD, copy to $BINS/chuhan-<commit>
#   scripts/ab_sprt.sh run NAME BASE TEST ARGS  # BASE/TEST: short commits already snapshotted
#
# Example (the tests in docs/strength.md):
#   scripts/ab_sprt.sh run see 7cd7027 dd5020d --movetime 30 --elo0 0 --elo1 20 \
#       --model logistic --max-pairs 100
#
# Every run adds --concurrency ${CONCURRENCY:-1} (one game per core: 2 on a quiet 2-core
# machine, where each game has one engine thinking at a time) --resign-score 1000 --resign-plies 8 and logs the command,
# `uptime` at start and end and the verdict to $BINS/results/NAME.log. The harness is the
# binary in $HARNESS (default: the BASE binary).
set -euo pipefail
BINS=${BINS:-results/bins}
mkdir -p "$BINS/results"

engine_file() {
    local c=$1
    cat > "$BINS/chuhan-$c.toml" <<TOML
name = "chuhan-$c"

[uci]
command = "$BINS/chuhan-$c"
args = ["uci"]
coordinates = "a0"
move_margin_ms = 1000

[uci.options]
Hash = 16
TOML
}

case "${1:-}" in
snapshot)
    nice -n 10 cargo build --release --locked --bin chuhan
    c=$(git rev-parse --short=7 HEAD)
    cp target/release/chuhan "$BINS/chuhan-$c"
    engine_file "$c"
    echo "$BINS/chuhan-$c"
    ;;
run)
    # With the kernel's session autogroups on, `nice` ranks processes only inside their own
    # session: a build niced to 19 in another shell still gets an equal share of the CPU, and
    # the timed games run short of time (measured: both engines together got 35% of a core
    # while eight sessions built). As root, `echo 0 > /proc/sys/kernel/sched_autogroup_enabled`
    # makes nice apply machine-wide (68% of a core at 25 ms a move, the rest being pipes).
    if [ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo 0)" = 1 ]; then
        echo "warning: sched_autogroup is on: other sessions' niced work takes equal CPU shares" >&2
    fi
    name=$2 base=$3 test=$4
    shift 4
    for c in "$base" "$test"; do
        [ -x "$BINS/chuhan-$c" ] || { echo "no binary $BINS/chuhan-$c (snapshot it first)" >&2; exit 2; }
        [ -f "$BINS/chuhan-$c.toml" ] || engine_file "$c"
    done
    harness=${HARNESS:-$BINS/chuhan-$base}
    out=$BINS/results/$name
    log=$BINS/results/$name.log
    args=(sprt --base "$BINS/chuhan-$base.toml" --test "$BINS/chuhan-$test.toml" "$@"
          --concurrency "${CONCURRENCY:-1}" --resign-score 1000 --resign-plies 8 --out "$out")
    { echo "date: $(date -u +%FT%TZ)"; echo "start: $(uptime)"; echo "cmd: chuhan ${args[*]}"; } > "$log"
    rc=0
    "$harness" "${args[@]}" >> "$log" 2> "$BINS/results/$name.err" || rc=$?
    { echo "rc: $rc"; echo "end: $(uptime)"; date -u +%FT%TZ; } >> "$log"
    tail -n 20 "$log"
    ;;
*)
    sed -n '2,14p' "$0"
    exit 2
    ;;
esac
