#!/usr/bin/env python3
"""The game seam's gate (issue 40 item 2), stdlib only.

The arena matches on the game in one module, `crates/arena/src/play/any.rs`. A line elsewhere
in `crates/arena/src` or `crates/cli/src` that names a game variant (`GameKind::X`,
`AnyGame::X`, `AnyMove::X`, or `chess960` in any spelling) is a leak of the seam. Today many
files still leak (the seam is being built); `scripts/seam_allow.txt` lists each of them with
the number of leaking lines it may have. The gate:

- fails when a file not on the list names a variant (a new leak), naming the file and line;
- fails when a listed file has more leaking lines than allowed;
- fails when a listed file has fewer than allowed, asking to lower (or drop) its entry, so
  the list only shrinks and shows the work left.

When the list is empty, the seam is whole. Exits 1 on a failure, 0 otherwise. `--self-test`
checks the checker on synthetic trees; `--write` rewrites the list from the tree (for a change
that removes leaks).
"""

import os
import re
import sys
import tempfile

SEAM = "crates/arena/src/play/any.rs"
ROOTS = ["crates/arena/src", "crates/cli/src"]
ALLOW = "scripts/seam_allow.txt"
PATTERN = re.compile(r"\b(GameKind|AnyGame|AnyMove)::|chess960", re.IGNORECASE)


def leaks(root):
    """{path: [(line number, text)]} of every leaking line under root's ROOTS."""
    found = {}
    for top in ROOTS:
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith(".rs"):
                    continue
                path = os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")
                if path == SEAM:
                    continue
                with open(os.path.join(root, path), encoding="utf-8") as fh:
                    for n, line in enumerate(fh, 1):
                        if PATTERN.search(line):
                            found.setdefault(path, []).append((n, line.strip()))
    return found


def read_allow(path):
    allow = {}
    if not os.path.exists(path):
        return allow
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 2 or not parts[0].isdigit():
                raise SystemExit(f"{path}:{n}: expected '<lines> <file>', got '{line}'")
            allow[parts[1]] = int(parts[0])
    return allow


def check(root, allow):
    """The failure messages of a tree against an allow list."""
    found = leaks(root)
    problems = []
    for path, lines in sorted(found.items()):
        limit = allow.get(path)
        if limit is None:
            for n, text in lines:
                problems.append(f"{path}:{n}: names a game variant outside {SEAM}: {text}")
        elif len(lines) > limit:
            problems.append(
                f"{path}: {len(lines)} lines name a game variant, {limit} allowed in {ALLOW}; "
                f"the new ones belong in {SEAM}: "
                + "; ".join(f"line {n}" for n, _ in lines)
            )
    for path, limit in sorted(allow.items()):
        have = len(found.get(path, []))
        if have < limit:
            problems.append(
                f"{ALLOW}: {path} is allowed {limit} lines but has {have}: lower its entry "
                f"to {have}" + (" (remove it)" if have == 0 else "")
            )
    return problems


def write(root):
    found = leaks(root)
    with open(os.path.join(root, ALLOW), "w", encoding="utf-8") as fh:
        fh.write(
            "# Files outside crates/arena/src/play/any.rs that still name a game variant, with\n"
            "# the lines each may have (scripts/check_seam.py). This list only shrinks.\n"
        )
        for path, lines in sorted(found.items()):
            fh.write(f"{len(lines)} {path}\n")
    print(f"check_seam: wrote {ALLOW}: {len(found)} files, "
          f"{sum(len(v) for v in found.values())} lines")


def self_test():
    def tree(files):
        d = tempfile.mkdtemp(prefix="check-seam-")
        for path, text in files.items():
            p = os.path.join(d, path)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", encoding="utf-8") as fh:
                fh.write(text)
        return d

    base = {
        SEAM: "match g { GameKind::Chess => 1, GameKind::Xiangqi => 2 }\n",
        "crates/arena/src/jobs/a.rs": "let x = GameKind::Chess;\nlet y = 1;\n",
        "crates/cli/src/b.rs": "fn f(chess960: bool) {}\n",
    }
    d = tree(base)
    exact = {"crates/arena/src/jobs/a.rs": 1, "crates/cli/src/b.rs": 1}
    assert check(d, exact) == [], check(d, exact)
    # A new leak in a file not listed, named by file and line.
    p = check(d, {"crates/arena/src/jobs/a.rs": 1})
    assert len(p) == 1 and p[0].startswith("crates/cli/src/b.rs:1:"), p
    # More lines than allowed.
    p = check(d, {"crates/arena/src/jobs/a.rs": 0, "crates/cli/src/b.rs": 1})
    assert any("1 lines name a game variant, 0 allowed" in x for x in p), p
    # Fewer than allowed: the entry must come down.
    p = check(d, {**exact, "crates/cli/src/gone.rs": 2})
    assert p == [f"{ALLOW}: crates/cli/src/gone.rs is allowed 2 lines but has 0: lower its "
                 "entry to 0 (remove it)"], p
    # The seam itself and other crates are not checked; AnyMove:: and Chess960 are caught.
    d2 = tree({SEAM: "AnyMove::Chess(m)\n", "crates/engine/src/c.rs": "GameKind::Chess\n",
               "crates/arena/src/d.rs": "// a Chess960 start\nAnyMove::Xiangqi(m)\n"})
    assert [x.split(":")[1] for x in check(d2, {})] == ["1", "2"], check(d2, {})
    print("check_seam: self-test passed")


def main():
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    if "--self-test" in sys.argv:
        self_test()
        return 0
    if "--write" in sys.argv:
        write(root)
        return 0
    problems = check(root, read_allow(os.path.join(root, ALLOW)))
    for p in problems:
        print(p)
    found = leaks(root)
    if problems:
        print(f"check_seam: {len(problems)} problems")
        return 1
    print(f"check_seam: no new leaks; {len(found)} files, "
          f"{sum(len(v) for v in found.values())} lines still to move into {SEAM}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
