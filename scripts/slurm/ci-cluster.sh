#!/usr/bin/env bash
# CI on a real (one-node) Slurm cluster: installs Debian's munge, slurmctld, slurmd and
# slurm-client when missing (root), starts them without systemd, runs 4-task arrays of a small
# match (one shard resumed from an interrupted folder), a small ladder, a sharded SPRT, a
# datagen (one shard file resumed) and a calibration stage by stage (calibrate.sh) through
# scripts/slurm/*.sbatch, merges each with
# merge.sbatch (--dependency=afterok), compares every
# merged folder with the single-machine run, and stops the daemons it started by their PIDs
# (also on failure).
#   scripts/slurm/ci-cluster.sh            (builds and uses target/release/chuhan)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
say() { echo "ci-cluster: $*" >&2; }

cargo build --release --locked --quiet
started=$(date +%s)
export CHUHAN=$root/target/release/chuhan

packages=(munge slurmctld slurmd slurm-client)
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
  ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  [ "$(id -u)" -eq 0 ] || { say "installing ${packages[*]} needs root"; exit 2; }
  say "installing ${packages[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null; }
fi

work=$(mktemp -d /tmp/chuhan-slurm.XXXXXX)
pids=()
cleanup() {
  local code=$?
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  done
  if [ "$code" -ne 0 ]; then
    say "FAILED (exit $code); logs kept in $work"
    tail -n 20 "$work"/slurmctld.log "$work"/slurmd.log "$work"/logs/* 2>/dev/null >&2 || true
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

# munge: reuse a running munged (a systemd host), else start one as the munge user.
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  [ -f /etc/munge/munge.key ] || mungekey --create >/dev/null
  chown munge:munge /etc/munge/munge.key && chmod 0400 /etc/munge/munge.key
  mkdir -p /run/munge && chown munge:munge /run/munge
  runuser -u munge -- /usr/sbin/munged
  for _ in $(seq 50); do [ -s /run/munge/munged.pid ] && break; sleep 0.1; done
  pids+=("$(cat /run/munge/munged.pid)")
  munge -n | unmunge >/dev/null
fi

# A one-node cluster whose files all live in $work; ports apart from the default ones.
node=$(slurmd -C | head -n 1)
cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$node")
memory=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$node")
node=${node#NodeName=* }
node=${node/RealMemory=$memory/RealMemory=$((memory * 9 / 10))}
mkdir -p "$work"/state "$work"/spool "$work"/logs "$work"/runs
export SLURM_CONF=$work/slurm.conf
cat >"$SLURM_CONF" <<CONF
ClusterName=chuhan-ci
SlurmctldHost=localhost
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
NodeName=localhost $node
PartitionName=ci Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF"
for _ in $(seq 50); do [ -s "$work/slurmctld.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/slurmctld.pid")")
slurmd -f "$SLURM_CONF" -N localhost
for _ in $(seq 50); do [ -s "$work/slurmd.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$work/slurmd.pid")")
for _ in $(seq 100); do
  sinfo -h -N -o %T 2>/dev/null | grep -q idle && break
  sleep 0.2
done
sinfo -h -N -o %T | grep -q idle || { say "the node did not come up"; exit 1; }
say "cluster up with $cpus CPUs in $(($(date +%s) - started)) s"

runs=$work/runs
match_args=(--player random --player greedy --player random --pairs 6 --seed 5 --quiet)
ladder_file=$work/ladder.toml
cat >"$ladder_file" <<'TOML'
name = "ci"
seed = 4
pairs = 3
neighbours = 2
max_nodes = 300
[[players]]
name = "random"
spec = "random"
[[players]]
name = "greedy"
spec = "greedy"
[[players]]
name = "d1"
spec = "default:depth=1"
TOML
ladder_args=(--config "$ladder_file" --quiet)
# A pair limit far beyond the decision (23 pairs): on a quiet machine these games run at over
# 1,000 a second, and a shard must still be playing when the first check sees the decision.
sprt_args=(--test greedy --base random --elo0 0 --elo1 50 --model logistic --max-pairs 40000
  --seed 3 --quiet)

# A task finds its folder interrupted (as after a requeue): shard 1 of the match has lost its
# last games and half a row; the array task must resume it.
"$CHUHAN" match "${match_args[@]}" --shard 1/4 --out "$runs/match/shard-1" --concurrency 1 >/dev/null
head -n 3 "$runs/match/shard-1/games.csv" >"$work/cut.csv"
printf '3,7,cut-off' >>"$work/cut.csv"
mv "$work/cut.csv" "$runs/match/shard-1/games.csv"

submit() { # KIND ARGS...: a 4-task array and its merge job; prints the merge job's id
  local kind=$1
  shift
  local array
  array=$(sbatch --parsable --array=0-3 --cpus-per-task=1 -o "$work/logs/$kind-%A_%a.out" \
    scripts/slurm/"$kind".sbatch "$runs/$kind" "$@")
  sbatch --parsable --dependency="afterok:${array%%;*}" --kill-on-invalid-dep=yes \
    -o "$work/logs/merge-$kind-%j.out" scripts/slurm/merge.sbatch "$runs/$kind"
}
export CHUHAN_CHECK_SECONDS=1
merges=("$(submit match "${match_args[@]}")" "$(submit ladder "${ladder_args[@]}")"
  "$(submit sprt "${sprt_args[@]}")")
say "submitted arrays and merge jobs ${merges[*]}"
# A calibration, stage by stage: 4-task arrays of the grid and of the validation, each merged
# into runs/calibrate/merged, the four jobs chained by calibrate.sh.
calibrate_args=(--knob nodes --grid 40,150,600 --targets 0,200 --names weak,strong --pairs 2
  --validate-pairs 4 --seed 6 --quiet)
CHUHAN_SBATCH="-o $work/logs/calibrate-%x-%A_%a.out" CHUHAN_ARRAY_SBATCH=--cpus-per-task=1 \
  scripts/slurm/calibrate.sh "$runs/calibrate" 4 "${calibrate_args[@]}" >&2

# datagen: a 4-task array of shard files (no merge job: the shards are concatenated). Shard 2
# finds its file cut mid-game (as after a requeue) and must resume it.
datagen_args=(--engine default --games 12 --nodes 300 --random-plies 4 --seed 9 --quiet)
"$CHUHAN" datagen "${datagen_args[@]}" --shard 2/4 --out "$runs/datagen/shard-2.txt" \
  --concurrency 1 >/dev/null
head -n 5 "$runs/datagen/shard-2.txt" >"$work/cut.txt"
mv "$work/cut.txt" "$runs/datagen/shard-2.txt"
sbatch --parsable --array=0-3 --cpus-per-task=1 -o "$work/logs/datagen-%A_%a.out" \
  scripts/slurm/datagen.sbatch "$runs/datagen" "${datagen_args[@]}" >/dev/null

# The single-machine runs, meanwhile.
"$CHUHAN" datagen "${datagen_args[@]}" --out "$work/single-datagen.txt" >/dev/null
"$CHUHAN" match "${match_args[@]}" --out "$work/single-match" >/dev/null
"$CHUHAN" ladder "${ladder_args[@]}" --out "$work/single-ladder" >/dev/null
"$CHUHAN" sprt "${sprt_args[@]}" --out "$work/single-sprt" >/dev/null
"$CHUHAN" calibrate "${calibrate_args[@]}" --out "$work/single-calibrate" >/dev/null

for _ in $(seq 600); do
  [ -z "$(squeue -h -o %i)" ] && break
  sleep 0.2
done
[ -z "$(squeue -h -o %i)" ] || { say "jobs still queued after 2 minutes"; squeue >&2; exit 1; }
for kind in match ladder sprt; do
  [ -f "$runs/$kind/merged/summary.csv" ] || { say "no merged $kind folder"; exit 1; }
done
"$CHUHAN" merge --check "$runs/calibrate/merged" >/dev/null ||
  { say "the sharded calibration is not finished"; exit 1; }
grep -q "resuming shard 1/4" "$work"/logs/match-*_1.out || { say "shard 1 was not resumed"; exit 1; }
grep -q "resuming shard 2/4" "$work"/logs/datagen-*_2.out ||
  { say "datagen shard 2 was not resumed"; exit 1; }
[ -f "$runs/sprt/decided" ] || { say "no sprt task saw the decision"; exit 1; }
stopped=$(cat "$work"/logs/sprt-*.out | grep -c -e "stopping shard" -e "is not needed" -e "stopped itself" || true)
# Tasks that finished their share before every shard had reached the decision end on their
# own (on 2 CPUs the first two finish before the last two start); the others must be stopped.
[ "$stopped" -ge 1 ] || { say "no sprt task was stopped by the decision"; exit 1; }
after=$("$CHUHAN" merge --check "$runs/sprt"/shard-* | sed -n 's/^games after the stop: //p')
say "sprt: $stopped of 4 tasks stopped by the decision; games after the stop: $(sed -n 's/^games after the stop: //p' "$runs/sprt/decided") when it was seen, $after in all"

python3 - "$work" <<'PY'
import csv, sys, tomllib
work = sys.argv[1]

def games(folder, below=None):
    with open(f"{folder}/games.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    out = {}
    for r in rows:
        r.pop("seconds")
        g = int(r["game"])
        if below is None or g < below:
            out[g] = r
    return out

def text(folder, name):
    with open(f"{folder}/{name}") as f:
        return f.read()

def check(kind, files, below=None):
    single, merged = f"{work}/single-{kind}", f"{work}/runs/{kind}/merged"
    assert games(merged) == games(single, below), f"{kind}: games.csv differs"
    for name in files:
        assert text(merged, name) == text(single, name), f"{kind}: {name} differs"
    print(f"ci-cluster: {kind}: merged {len(games(merged))} games equal the single run's",
          file=sys.stderr)

check("match", ["summary.csv"])
check("ladder", ["summary.csv", "ratings.csv", "gaps.csv", "pairings.csv"])
with open(f"{work}/runs/sprt/merged/manifest.toml", "rb") as f:
    stop = tomllib.load(f)["merge"]["stopped_at_pair"]
check("sprt", ["summary.csv"], below=2 * stop + 2)
assert ",H1" in text(f"{work}/runs/sprt/merged", "summary.csv")

def blocks(paths):
    """datagen's games by index: each block of lines ends with its `#game INDEX ...` marker."""
    out = {}
    for path in paths:
        block = []
        with open(path) as f:
            for line in f:
                block.append(line)
                if line.startswith("#game "):
                    index = int(line.split()[1])
                    assert index not in out, f"{path}: game {index} twice"
                    out[index] = "".join(block)
                    block = []
        assert not block, f"{path}: lines after the last game"
    return out

import glob
shard_files = sorted(glob.glob(f"{work}/runs/datagen/shard-*.txt"))
assert len(shard_files) == 4, shard_files
single_games = blocks([f"{work}/single-datagen.txt"])
assert sorted(single_games) == list(range(12)), sorted(single_games)
assert blocks(shard_files) == single_games, "datagen: the shards' games differ from the single run's"
print(f"ci-cluster: datagen: 4 shard files hold the single run's {len(single_games)} games",
      file=sys.stderr)

single, merged = f"{work}/single-calibrate", f"{work}/runs/calibrate/merged"
for stage in ["grid", "validate"]:
    assert games(f"{merged}/{stage}") == games(f"{single}/{stage}"), f"calibrate: {stage} differs"
for name in ["calibration.csv", "levels.toml", "validation.csv", "gaps.csv"]:
    assert text(merged, name) == text(single, name), f"calibrate: {name} differs"
print(f"ci-cluster: calibrate: merged grid ({len(games(merged + '/grid'))} games) and validation "
      f"({len(games(merged + '/validate'))}) equal the single run's", file=sys.stderr)
PY
say "passed in $(($(date +%s) - started)) s"
