#!/usr/bin/env python3
"""Time to depth with `Threads` 1 and 2 (or any list) through `chuhan uci`.

    scripts/threads_bench.py --binary target/release/chuhan --depth 12 --threads 1,2 --rounds 1

For every bench position (read from crates/engine/src/bench.rs) and every round, each thread
count in turn (alternating, so both see the same load): `ucinewgame`, `position fen`,
`go depth D`; the wall time to `bestmove` and the last `info` line's nodes. Prints one line per
search and the totals (time, nodes, nodes/s) per thread count, with `uptime` before and after.
"""
import argparse
import re
import subprocess
import time
from pathlib import Path


def fens():
    src = Path(__file__).resolve().parent.parent / "crates/engine/src/bench.rs"
    text = src.read_text()
    block = text[text.index("BENCH_FENS"):]
    block = block[: block.index("];")]
    return re.findall(r'"([^"]+)"', block)


class Uci:
    def __init__(self, binary, threads):
        self.p = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send(f"setoption name Threads value {threads}")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"engine ended before {prefix}: {lines}")
            line = line.strip()
            if line.startswith("info string"):
                raise RuntimeError(line)
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def search(self, fen, depth):
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.until("readyok")
        start = time.monotonic()
        self.send(f"go depth {depth}")
        lines = self.until("bestmove")
        elapsed = time.monotonic() - start
        infos = [l for l in lines if l.startswith("info depth")]
        nodes = int(infos[-1].split(" nodes ")[1].split()[0]) if infos else 0
        return elapsed, nodes, lines[-1].split()[1]

    def close(self):
        self.send("quit")
        self.p.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default="target/release/chuhan")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    counts = [int(t) for t in args.threads.split(",")]
    print("start:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    engines = {t: Uci(args.binary, t) for t in counts}
    totals = {t: [0.0, 0] for t in counts}
    for r in range(args.rounds):
        for i, fen in enumerate(fens()):
            for t in counts:
                elapsed, nodes, best = engines[t].search(fen, args.depth)
                totals[t][0] += elapsed
                totals[t][1] += nodes
                print(f"round {r + 1} position {i + 1} threads {t}: {elapsed:.3f} s, "
                      f"{nodes} nodes, bestmove {best}", flush=True)
    for e in engines.values():
        e.close()
    for t in counts:
        s, n = totals[t]
        print(f"threads {t}: {s:.2f} s to depth {args.depth} over {args.rounds} round(s), "
              f"{n} nodes, {n / max(s, 1e-9) / 1e6:.2f} M nodes/s")
    print("end:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
