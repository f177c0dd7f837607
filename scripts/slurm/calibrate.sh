#!/usr/bin/env bash
# Submits a sharded `chuhan calibrate` as four Slurm jobs chained with --dependency=afterok:
# the grid's array, its merge into RUN_DIR/merged, the validation's array (from RUN_DIR/merged)
# and its merge into the same folder. Run it where sbatch works (a login node):
#   scripts/slurm/calibrate.sh RUN_DIR SHARDS <chuhan calibrate args, fixed budgets>
# e.g. scripts/slurm/calibrate.sh ~/runs/nodes 16 --knob nodes --targets 0,200,400 --pairs 200
# CHUHAN_SBATCH: more sbatch options for all four jobs (word-split, e.g. "-p long");
# CHUHAN_ARRAY_SBATCH: for the two arrays only (e.g. "--cpus-per-task=8"); CHUHAN_THROTTLE=k
# runs at most k tasks of an array at once. Prints the job ids; results in RUN_DIR/merged;
# `chuhan merge --check RUN_DIR/merged` exits 0 once the calibration is finished.
set -euo pipefail
run_dir=${1:?usage: calibrate.sh RUN_DIR SHARDS <chuhan calibrate args>}
shards=${2:?usage: calibrate.sh RUN_DIR SHARDS <chuhan calibrate args>}
shift 2
case $shards in '' | *[!0-9]* | 0) echo "calibrate.sh: SHARDS must be a positive number" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2206 # word-split on purpose: several options
common=(${CHUHAN_SBATCH:-})
# shellcheck disable=SC2206
arrays=(${CHUHAN_ARRAY_SBATCH:-})
range=0-$((shards - 1))${CHUHAN_THROTTLE:+%$CHUHAN_THROTTLE}
mkdir -p "$run_dir"
# Refused here rather than in every task: an adaptive calibration does not shard.
case " $* " in *" --precision"* | *" --grid-precision"* | *" --max-games"* | *" --max-time"*)
  echo "calibrate.sh: a calibration played to a precision plans each round from every game so far; shard one with fixed budgets (--pairs, --validate-pairs)" >&2
  exit 2 ;;
esac
after() { echo "--dependency=afterok:${1%%;*} --kill-on-invalid-dep=yes"; }
grid=$(sbatch --parsable "${common[@]}" "${arrays[@]}" --array="$range" \
  "$here/calibrate.sbatch" "$run_dir" grid "$@")
# shellcheck disable=SC2046 # the dependency options, split
merge_grid=$(sbatch --parsable "${common[@]}" $(after "$grid") \
  "$here/merge.sbatch" "$run_dir/grid" "$run_dir/merged")
# shellcheck disable=SC2046
validate=$(sbatch --parsable "${common[@]}" "${arrays[@]}" --array="$range" $(after "$merge_grid") \
  "$here/calibrate.sbatch" "$run_dir" validate "$@")
# shellcheck disable=SC2046
merge_validate=$(sbatch --parsable "${common[@]}" $(after "$validate") \
  "$here/merge.sbatch" "$run_dir/validate" "$run_dir/merged")
echo "grid $grid, merge $merge_grid, validate $validate, merge $merge_validate; results in $run_dir/merged"
