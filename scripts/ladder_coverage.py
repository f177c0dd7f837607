#!/usr/bin/env python3
"""Coverage of a ladder's neighbour-gap intervals against known gaps, over runs at many seeds.

    scripts/ladder_coverage.py --truth easy,easy-medium,291,272,311 \
        --truth easy-medium,medium,299,280,319 results/cov/s*

Each run folder holds the ladder's gaps.csv (from,to,elo,ci_low,ci_high; an open side is empty)
and pairings.csv. A --truth gives a gap's validated value and its own 95% interval (a much
longer run). For every run and gap with a truth the interval holds the truth or misses it;
two-sided and one-sided intervals are counted apart. The fraction comes with a Wilson 95%
interval. Because the truth is itself measured (about +-20 Elo), a second count compares each
run's estimate with the truth on the combined scale: |est - truth| <= 1.96 sqrt(s_run^2 +
s_truth^2), s = the 95% half-width on the side toward the truth / 1.96.

--pairing A,B adds a chi-square homogeneity test of that pairing's game pairs over the runs:
the pentanomial counts of pairings.csv, handed to `chuhan stats --json --counts ...` (one
--counts a run), which computes it (chuhan_stats::homogeneity). --chuhan names the binary
(default target/release/chuhan).
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys


def wilson(k, n, z=1.96):
    if n == 0:
        return (float("nan"), float("nan"))
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def num(s):
    return float(s) if s not in ("", None) else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+", help="ladder run folders")
    ap.add_argument("--truth", action="append", default=[], help="FROM,TO,ELO,LOW,HIGH")
    ap.add_argument("--pairing", action="append", default=[], help="A,B: homogeneity over runs")
    ap.add_argument("--chuhan", default="target/release/chuhan", help="the chuhan binary")
    a = ap.parse_args()

    truths = {}
    for t in a.truth:
        f, to, e, lo, hi = t.split(",")
        truths[(f, to)] = (float(e), float(lo), float(hi))

    runs = [r for r in a.runs if os.path.exists(os.path.join(r, "gaps.csv"))]
    if not runs:
        sys.exit("ladder_coverage.py: no run folder with a gaps.csv")
    stats = {k: {"two": [0, 0], "one": [0, 0], "z": [0, 0], "misses": []} for k in truths}
    for r in runs:
        with open(os.path.join(r, "gaps.csv")) as fh:
            for row in csv.DictReader(fh):
                key = (row["from"], row["to"])
                if key not in truths:
                    continue
                truth, tlo, thi = truths[key]
                est, lo, hi = num(row["elo"]), num(row["ci_low"]), num(row["ci_high"])
                kind = "two" if lo is not None and hi is not None else "one"
                held = (lo is None or lo <= truth) and (hi is None or truth <= hi)
                s = stats[key]
                s[kind][0] += held
                s[kind][1] += 1
                if not held:
                    s["misses"].append((os.path.basename(r.rstrip("/")), est, lo, hi))
                if est is not None and lo is not None and hi is not None:
                    side = (est - lo) if truth < est else (hi - est)
                    tside = (truth - tlo) if est < truth else (thi - truth)
                    z = abs(est - truth) / math.hypot(side / 1.96, tside / 1.96)
                    s["z"][0] += z <= 1.96
                    s["z"][1] += 1

    print(f"{len(runs)} runs")
    print(f"{'gap':<28} {'truth':>6}  {'two-sided held':>15}  {'one-sided held':>15}  {'combined-scale':>15}")
    tot = {"two": [0, 0], "one": [0, 0], "z": [0, 0]}
    for key, s in stats.items():
        for k in tot:
            tot[k][0] += s[k][0]
            tot[k][1] += s[k][1]
        print(
            f"{key[0] + ' -> ' + key[1]:<28} {truths[key][0]:>+6.0f}  "
            f"{s['two'][0]:>7}/{s['two'][1]:<7}  {s['one'][0]:>7}/{s['one'][1]:<7}  "
            f"{s['z'][0]:>7}/{s['z'][1]:<7}"
        )
    for k, label in (("two", "two-sided"), ("one", "one-sided"), ("z", "combined scale")):
        held, n = tot[k]
        if n:
            lo, hi = wilson(held, n)
            print(f"{label}: {held}/{n} = {held / n:.1%} held, Wilson 95% [{lo:.1%}, {hi:.1%}]")
        else:
            print(f"{label}: none")
    for key, s in stats.items():
        for run, est, lo, hi in s["misses"]:
            fmt = lambda v: "open" if v is None else f"{v:+.0f}"
            print(f"miss: {run} {key[0]} -> {key[1]} {fmt(est)} [{fmt(lo)}, {fmt(hi)}] truth {truths[key][0]:+.0f}")

    for pairing in a.pairing:
        first, second = pairing.split(",")
        groups = []
        for r in runs:
            with open(os.path.join(r, "pairings.csv")) as fh:
                for row in csv.DictReader(fh):
                    if (row["first"], row["second"]) == (first, second):
                        counts = [int(x) for x in row["pentanomial"].strip("[]").split(",")]
                        groups.append(counts)
        cmd = [a.chuhan, "stats", "--json"]
        for g in groups:
            cmd += ["--counts", ",".join(str(c) for c in g)]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"ladder_coverage.py: {' '.join(cmd[:3])} ...: {out.stderr.strip()}")
        h = json.loads(out.stdout)
        if "chi2" not in h:
            print(f"homogeneity {first} vs {second}: {len(groups)} run(s), no test (needs two)")
            continue
        n, chi2, df, p = h["games"] // 2, h["chi2"], h["df"], h["p_value"]
        print(
            f"homogeneity {first} vs {second}: {len(groups)} runs, {n} pairs, "
            f"pooled Elo {h['elo']:+.1f}, chi2 {chi2:.1f} on {df} df, p = {p:.3f}"
        )


if __name__ == "__main__":
    main()
