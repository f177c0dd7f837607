#!/usr/bin/env bash
# Runs every cargo-fuzz target of fuzz/ for a bounded time and fails on any crash.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]     (default 20: 14 targets, about 5 minutes plus the build)
#
# Each target starts from its committed seed corpus (fuzz/corpus/<target>/) and keeps what it
# learns in fuzz/corpus-run/<target>/ (not committed), so repeated runs go deeper; the tokens
# of fuzz/dict/<target>.dict are used when there is one. Built with debug assertions and
# overflow checks (cargo fuzz's default). A crash, assertion failure,
# out-of-memory or timeout makes the script print the input's path and exit 1; reproduce it
# with `cd fuzz && cargo +nightly fuzz run <target> <path>`. Needs the nightly toolchain;
# installs cargo-fuzz when it is missing.
set -u

secs="${1:-20}"
case "$secs" in
'' | *[!0-9]* | 0)
    echo "fuzz.sh: SECONDS_PER_TARGET must be a positive whole number, got '$secs'" >&2
    exit 2
    ;;
esac

cd "$(dirname "$0")/../fuzz" || exit 1

if ! command -v rustup >/dev/null 2>&1 || ! rustup toolchain list | grep -q '^nightly'; then
    echo "fuzz.sh: the nightly Rust toolchain is not installed; cargo-fuzz needs it." >&2
    echo "         install it with: rustup toolchain install nightly" >&2
    exit 1
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: installing cargo-fuzz"
    cargo install cargo-fuzz --locked || {
        echo "fuzz.sh: could not install cargo-fuzz" >&2
        exit 1
    }
fi

cargo +nightly fuzz build || {
    echo "fuzz.sh: the fuzz targets do not build" >&2
    exit 1
}

failed=0
for target in $(cargo +nightly fuzz list); do
    mkdir -p "corpus-run/$target" "corpus/$target"
    log="corpus-run/$target.log"
    echo "fuzz.sh: $target for ${secs}s"
    # The target's tokens (Chinese characters, PGN tags...) are hard to reach by mutating bytes.
    dict=()
    [ -f "dict/$target.dict" ] && dict=(-dict="dict/$target.dict")
    # -timeout: one input taking 10 s is a hang; -rss_limit_mb: a runaway allocation is a
    # failure, not a swapping machine.
    cargo +nightly fuzz run "$target" "corpus-run/$target" "corpus/$target" -- \
        ${dict[@]+"${dict[@]}"} -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -print_final_stats=1 >"$log" 2>&1
    rc=$?
    grep -a -E '^#[0-9]+[[:space:]]+DONE|^stat::number_of_executed_units|^stat::average_exec_per_sec' "$log"
    if [ "$rc" -ne 0 ]; then
        failed=1
        grep -a -E 'panicked at|^SUMMARY' "$log" | head -5
        input=$(grep -a -o 'Test unit written to .*' "$log" | head -1 | sed 's/^Test unit written to //')
        echo "fuzz.sh: $target FAILED (exit $rc); input: ${input:-none written, see fuzz/$log}" >&2
        [ -n "$input" ] && echo "fuzz.sh: reproduce: cd fuzz && cargo +nightly fuzz run $target $input" >&2
    fi
done

if [ "$failed" -ne 0 ]; then
    echo "fuzz.sh: crashes found" >&2
    exit 1
fi
echo "fuzz.sh: all targets ran ${secs}s without a crash"
