#!/usr/bin/env bash
# A fuzz campaign: every cargo-fuzz target of fuzz/ run to a fixed number of executions (not a
# time), in two queues side by side, then a table of what each run did.
#
#   scripts/fuzz_campaign.sh [RUNS] [OUT]      (default: 10000000 runs, out folder fuzz/campaign)
#
# The targets are built without AddressSanitizer (`cargo fuzz build -s none`): the workspace's
# crates forbid `unsafe` code, so a run checks for panics (debug assertions and overflow checks
# stay on), aborts, out-of-memory (-rss_limit_mb=2048) and hangs (-timeout=10), at about 2-5
# times the executions per CPU second. CI's bounded run (scripts/fuzz.sh) keeps ASan on.
# Each target continues the corpus in fuzz/corpus-run/<target>/ from the committed seeds, with
# its dictionary when there is one. Runs go at `nice -n 19`. The exit status is 1 when any run
# failed (its input is then in fuzz/artifacts/<target>/).
set -u

runs="${1:-10000000}"
case "$runs" in
'' | *[!0-9]* | 0)
    echo "fuzz_campaign.sh: RUNS must be a positive whole number, got '$runs'" >&2
    exit 2
    ;;
esac
cd "$(dirname "$0")/../fuzz" || exit 1
out="${2:-campaign}"
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)

cargo +nightly fuzz build -s none || {
    echo "fuzz_campaign.sh: the fuzz targets do not build" >&2
    exit 1
}
bin=target/x86_64-unknown-linux-gnu/release
# Binaries copied aside, so a rebuild during the campaign does not change what runs.
mkdir -p "$out/bin"
targets=$(cargo +nightly fuzz list)
for t in $targets; do cp "$bin/$t" "$out/bin/$t" || exit 1; done
echo "commit $(git rev-parse --short HEAD) $(git diff --quiet HEAD -- . ../crates || echo dirty)" >"$out/commit"

# One queue: each target in turn, timed by /usr/bin/time (CPU seconds), load at start and end.
queue() {
    for t in "$@"; do
        mkdir -p "corpus-run/$t" "artifacts/$t"
        local dict=()
        [ -f "dict/$t.dict" ] && dict=("-dict=dict/$t.dict")
        echo "$t start $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/times.txt"
        /usr/bin/time -v nice -n 19 "$out/bin/$t" "-artifact_prefix=artifacts/$t/" "${dict[@]}" \
            "-runs=$runs" -timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
            "corpus-run/$t" "corpus/$t" >"$out/$t.log" 2>&1
        echo "$t end $(date -u +%FT%TZ) rc $? load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/times.txt"
    done
}
set -- $targets
a=() b=()
i=0
for t in "$@"; do
    if [ $((i % 2)) -eq 0 ]; then a+=("$t"); else b+=("$t"); fi
    i=$((i + 1))
done
queue "${a[@]}" &
queue "${b[@]}" &
wait

failed=0
echo "| target | executions | wall s | CPU s (user + sys) | exec per CPU s | coverage (edges / features) | corpus units | peak RSS MB | exit |"
echo "|---|---|---|---|---|---|---|---|---|"
for t in $targets; do
    f="$out/$t.log"
    done_line=$(grep -a 'DONE ' "$f" | tail -n 1)
    n=$(grep -a '^Done' "$f" | awk '{print $2}')
    wall=$(grep -a '^Done' "$f" | awk '{print $5}')
    cpu=$(awk '/User time|System time/ {s += $4} END {printf "%.1f", s}' "$f")
    rate=$(awk -v n="${n:-0}" -v c="$cpu" 'BEGIN {if (c > 0) printf "%d", n / c; else print 0}')
    cov=$(echo "$done_line" | sed -nE 's/.*cov: ([0-9]+) ft: ([0-9]+).*/\1 \/ \2/p')
    corp=$(echo "$done_line" | sed -nE 's/.*corp: ([0-9]+)\/.*/\1/p')
    rss=$(awk '/stat::peak_rss_mb/ {print $2}' "$f")
    code=$(awk '/Exit status/ {print $3}' "$f")
    [ "${code:-1}" = 0 ] && [ "${n:-0}" = "$runs" ] || failed=1
    echo "| \`$t\` | ${n:-0} | ${wall:-} | $cpu | $rate | ${cov:-} | ${corp:-} | ${rss:-} | ${code:-?} |"
done
exit $failed
