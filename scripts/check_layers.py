#!/usr/bin/env python3
"""Module-level import checks for every crate under crates/*/src (stdlib only).

For each crate the module tree is built from the files (lib.rs / main.rs, `mod x;` found as
x.rs or x/mod.rs), and every reference from a file to another module of the same crate is
collected: `use crate::…`, `use super::…`, `use self::…`, uses through a child module or a local
alias, `pub use` re-exports, and paths in code such as `crate::a::b::f()` or `super::x::Y`.
A path resolves to the deepest existing module; a path naming an item re-exported by that
module (`pub use child::Item`, or a glob re-export of a module that defines it) resolves to the
module the re-export points at, so a facade does not hide a dependency. Inline modules count
as part of their file. Edges between a module and its own ancestor or descendant are
containment, not dependencies, and are ignored. Test code (items under `#[cfg(test)]`: inline
`mod tests { … }`, `#[cfg(test)] mod x;` files) is left out: a test may use any module of its
crate, and nothing in the library depends on it. `--with-tests` counts it too (for a look).

Two checks:

1. No import cycles: every strongly connected component of more than one module is reported
   with the references that close it (file:line and the line).

2. The arena's report layer sits below play's orchestration and below the jobs
   (docs/architecture.md: "report <- play, jobs: they emit events; report shows them"):
   no module under `report` may reference
     - `jobs` or any module under it, nor
     - play's orchestration: `play::runner` (plays a schedule on workers), `play::setup`
       (plans, folders, execution) and `play::schedule` (pairings and seeds).
   Report reads the data those produce (`play::record`: played games and runner events;
   `play::results`: manifests and run configurations) and takes its own plain input types.

Exits 1 on any violation, 0 otherwise. `--self-test` runs the checker on small synthetic
crates with known cycles and violations (and clean ones) and exits 1 if it misjudges any.
"""

import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (crate directory name, layer prefix, forbidden prefixes): modules under the layer prefix may
# reference no module under any forbidden prefix.
LAYER_RULES = [
    (
        "arena",
        ("report",),
        [("jobs",), ("play", "runner"), ("play", "setup"), ("play", "schedule")],
    ),
]

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
KEYWORD_ROOTS = {"crate", "super", "self"}


def strip(src):
    """Comments, strings and char literals blanked to spaces (newlines kept), so that offsets
    and line numbers still match the source."""
    out = list(src)
    i, n = 0, len(src)

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif c == "r" and re.match(r'r#*"', src[i:i + 300]) and not (
            i > 0 and (src[i - 1].isalnum() or src[i - 1] == "_")
        ):
            m = re.match(r'r(#*)"', src[i:])
            end = src.find('"' + m.group(1), i + len(m.group(0)))
            j = n if end < 0 else end + 1 + len(m.group(1))
            blank(i, j)
            i = j
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
        elif c == "'":
            # A char literal ('x', '\n', '\u{..}'), not a lifetime ('a).
            m = re.match(r"'(\\.|\\u\{[0-9a-fA-F]+\}|[^\\'])'", src[i:i + 12])
            if m:
                blank(i, i + len(m.group(0)))
                i += len(m.group(0))
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


class Module:
    def __init__(self, path, file):
        self.path = path  # tuple of names from the crate root
        self.file = file
        self.text = ""  # stripped source
        self.raw_lines = []
        self.children = {}
        self.inline = []  # (start, end, names) of inline `mod x { … }` blocks
        self.reexports = {}  # name -> absolute target path (tuple)
        self.glob_reexports = []  # absolute module paths
        self.defines = set()  # item names defined in the file
        self.test_spans = []  # (start, end) of #[cfg(test)] items
        self.is_test = False  # a file module declared under #[cfg(test)]


def child_file(dir_, name):
    for cand in (os.path.join(dir_, name + ".rs"), os.path.join(dir_, name, "mod.rs")):
        if os.path.isfile(cand):
            return cand
    return None


MOD_DECL = re.compile(r"\bmod\s+(" + IDENT + r")\s*;")
CFG_TEST = re.compile(r"#\[cfg\(\s*test\s*\)\]")
ATTR = re.compile(r"\s*#\[[^\]]*\]")


def test_spans(text):
    """The spans of the items under `#[cfg(test)]`: to the end of their braces, or to their
    `;` (a `mod x;`, a `use`)."""
    spans = []
    for m in CFG_TEST.finditer(text):
        j = m.end()
        while True:
            a = ATTR.match(text, j)
            if not a:
                break
            j = a.end()
        semi, brace = text.find(";", j), text.find("{", j)
        if semi < 0 and brace < 0:
            continue
        if brace < 0 or (0 <= semi < brace):
            spans.append((m.start(), semi + 1))
        else:
            spans.append((m.start(), match_brace(text, brace) + 1))
    return spans
INLINE_MOD = re.compile(r"\bmod\s+(" + IDENT + r")\s*\{")
DEFINES = re.compile(
    r"\b(?:fn|struct|enum|trait|type|const|static|union|mod)\s+(" + IDENT + r")|"
    r"\bmacro_rules!\s*(" + IDENT + r")"
)


def build_tree(root_file):
    modules = {}

    def load(path, file):
        m = Module(path, file)
        with open(file, encoding="utf-8") as f:
            raw = f.read()
        m.raw_lines = raw.split("\n")
        m.text = strip(raw)
        m.test_spans = test_spans(m.text)
        modules[path] = m
        base = os.path.basename(file)
        if base in ("lib.rs", "main.rs", "mod.rs"):
            dir_ = os.path.dirname(file)
        else:
            dir_ = file[:-3]
        for mm in INLINE_MOD.finditer(m.text):
            end = match_brace(m.text, mm.end() - 1)
            m.inline.append((mm.start(), end, mm.group(1)))
        for mm in MOD_DECL.finditer(m.text):
            name = mm.group(1)
            if inline_names(m, mm.start()):
                continue  # a file module declared inside an inline module: not used here
            cf = child_file(dir_, name)
            if cf:
                m.children[name] = path + (name,)
                load(path + (name,), cf)
                if m.is_test or in_test(m, mm.start()):
                    mark_test(modules, path + (name,))
        for mm in DEFINES.finditer(m.text):
            m.defines.add(mm.group(1) or mm.group(2))

    load((), root_file)
    return modules


def in_test(m, pos):
    return any(a <= pos < b for a, b in m.test_spans)


def mark_test(modules, path):
    for p, m in modules.items():
        if p[: len(path)] == path:
            m.is_test = True


def match_brace(text, open_at):
    depth = 0
    for k in range(open_at, len(text)):
        if text[k] == "{":
            depth += 1
        elif text[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(text)


def inline_names(m, pos):
    return [name for (a, b, name) in m.inline if a < pos < b]


def line_of(m, pos):
    return m.text.count("\n", 0, pos) + 1


USE_DECL = re.compile(r"(?<![A-Za-z0-9_])((?:pub(?:\s*\([^)]*\))?\s+)?)use\s+([^;]*);")


def parse_use_tree(s):
    """`a::{b, c::d as e, f::*}` -> [(segments, alias or None, glob)]."""
    tokens = re.findall(IDENT + r"|::|\{|\}|,|\*", s)
    pos = [0]

    def peek():
        return tokens[pos[0]] if pos[0] < len(tokens) else None

    def take():
        t = peek()
        pos[0] += 1
        return t

    def tree(prefix):
        out = []
        segs = list(prefix)
        while True:
            t = peek()
            if t is None:
                return out
            if t == "{":
                take()
                while peek() not in (None, "}"):
                    out.extend(tree(segs))
                    if peek() == ",":
                        take()
                take()
                return out
            if t == "*":
                take()
                out.append((segs, None, True))
                return out
            if t in (",", "}"):
                return out
            if t == "::":
                take()
                continue
            take()
            segs = segs + [t]
            if peek() == "as":
                take()
                alias = take()
                out.append((segs, alias, False))
                return out
            if peek() != "::":
                out.append((segs, None, False))
                return out

    if tokens and tokens[0] == "::":
        take()
    return tree([])


class Crate:
    def __init__(self, name, root_file, with_tests=False):
        self.name = name
        self.with_tests = with_tests
        self.modules = build_tree(root_file)
        self.src = os.path.dirname(root_file)
        self.uses = {}  # module path -> [(pos, segments, alias, glob, is_pub)]
        self.aliases = {}  # module path -> {alias: absolute path}
        for path, m in self.modules.items():
            uses = []
            for um in USE_DECL.finditer(m.text):
                for segs, alias, glob in parse_use_tree(um.group(2)):
                    uses.append((um.start(), segs, alias, glob, bool(um.group(1).strip())))
            self.uses[path] = uses
        # Absolute forms of the use paths, then re-exports and aliases.
        self.abs_uses = {}
        for path, m in self.modules.items():
            absu, aliases = [], {}
            for pos, segs, alias, glob, is_pub in self.uses[path]:
                a = self.absolute(m, pos, segs, {})
                if a is None:
                    continue
                absu.append((pos, a, glob))
                if glob:
                    if is_pub and not inline_names(m, pos):
                        m.glob_reexports.append(a)
                    continue
                name = alias or a[-1]
                if name == "self":
                    name, a = a[-2] if len(a) > 1 else name, a[:-1]
                if not inline_names(m, pos):
                    aliases[name] = a
                    if is_pub:
                        m.reexports[name] = a
            self.abs_uses[path] = absu
            self.aliases[path] = aliases

    def absolute(self, m, pos, segs, aliases):
        """The absolute path (from the crate root) of `segs` used in module `m` at `pos`, or
        None when it leaves the crate (std, other crates)."""
        if not segs:
            return None
        scope = m.path + tuple(inline_names(m, pos))
        first = segs[0]
        if first == "crate":
            return tuple(segs[1:])
        if first in ("super", "self"):
            cur = list(scope)
            k = 0
            while k < len(segs) and segs[k] in ("super", "self"):
                if segs[k] == "super":
                    if not cur:
                        return None
                    cur.pop()
                k += 1
            return tuple(cur) + tuple(segs[k:])
        # A bare first segment: a child module of this scope, or a local alias.
        if scope in self.modules and first in self.modules[scope].children:
            return scope + tuple(segs)
        if first in aliases:
            return tuple(aliases[first]) + tuple(segs[1:])
        return None

    def resolve(self, a, depth=0):
        """The module an absolute path lands in: the deepest existing module, following
        re-exports of the item it names."""
        k = 0
        while k < len(a) and a[: k + 1] in self.modules:
            k += 1
        mod = a[:k]
        if k < len(a) and depth < 16:
            m = self.modules[mod]
            name = a[k]
            if name in m.reexports and m.reexports[name] != a:
                target = m.reexports[name] + a[k + 1:]
                return self.resolve(target, depth + 1)
            if name not in m.defines:
                for g in m.glob_reexports:
                    if g in self.modules and (
                        name in self.modules[g].defines or name in self.modules[g].reexports
                    ):
                        return self.resolve(g + a[k:], depth + 1)
        return mod

    def edges(self):
        """[(from module, to module, file, line, text)] without containment edges."""
        out = []
        path_re = re.compile(
            r"(?<![A-Za-z0-9_:$])(" + IDENT + r")((?:\s*::\s*" + IDENT + r")+)"
        )
        for path, m in self.modules.items():
            if m.is_test and not self.with_tests:
                continue
            refs = []
            use_spans = []
            for um in USE_DECL.finditer(m.text):
                use_spans.append((um.start(), um.end()))
            for pos, a, glob in self.abs_uses[path]:
                refs.append((pos, a))
            aliases = self.aliases[path]
            for pm in path_re.finditer(m.text):
                if any(s <= pm.start() < e for s, e in use_spans):
                    continue
                first = pm.group(1)
                if first not in KEYWORD_ROOTS and first not in aliases and not (
                    first in m.children
                ):
                    continue
                segs = [first] + re.findall(IDENT, pm.group(2))
                a = self.absolute(m, pm.start(), segs, aliases)
                if a is not None:
                    refs.append((pm.start(), a))
            seen = set()
            for pos, a in sorted(refs):
                if not self.with_tests and in_test(m, pos):
                    continue
                target = self.resolve(a)
                if is_containment(path, target):
                    continue
                line = line_of(m, pos)
                if (target, line) in seen:
                    continue
                seen.add((target, line))
                out.append((path, target, m.file, line, m.raw_lines[line - 1].strip()))
        return out


def is_containment(a, b):
    n = min(len(a), len(b))
    return a[:n] == b[:n]


def sccs(nodes, adj):
    """Tarjan's strongly connected components (iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(adj.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(adj.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def name(path):
    return "::".join(path) if path else "crate"


def check_crate(crate_name, root_file, rules, rel=lambda p: p, with_tests=False):
    """Messages for one crate: cycles, then layer violations."""
    crate = Crate(crate_name, root_file, with_tests)
    edges = crate.edges()
    adj = {}
    for a, b, *_ in edges:
        adj.setdefault(a, set()).add(b)
    msgs = []
    cycles = [c for c in sccs(crate.modules.keys(), adj) if len(c) > 1]
    for c in cycles:
        members = set(c)
        msgs.append(
            f"{crate_name}: import cycle among {len(c)} modules: "
            + ", ".join(name(p) for p in c)
        )
        for a, b, file, line, text in sorted(edges, key=lambda e: (e[0], e[1], e[3])):
            if a in members and b in members:
                msgs.append(f"  {name(a)} -> {name(b)}  {rel(file)}:{line}: {text}")
    violations = 0
    for rule_crate, layer, forbidden in rules:
        if rule_crate != crate_name:
            continue
        for a, b, file, line, text in edges:
            if a[: len(layer)] != layer:
                continue
            for f in forbidden:
                if b[: len(f)] == f:
                    violations += 1
                    msgs.append(
                        f"{crate_name}: layer rule: {name(a)} (under {name(layer)}) must not "
                        f"import {name(f)}: {name(a)} -> {name(b)}  {rel(file)}:{line}: {text}"
                    )
    return msgs, len(cycles), violations


def crate_roots(crates_dir):
    for c in sorted(os.listdir(crates_dir)):
        src = os.path.join(crates_dir, c, "src")
        for root in ("lib.rs", "main.rs"):
            f = os.path.join(src, root)
            if os.path.isfile(f):
                yield c, f


def run(root, with_tests=False):
    crates_dir = os.path.join(root, "crates")
    rel = lambda p: os.path.relpath(p, root)
    total_cycles = total_violations = 0
    for crate_name, root_file in crate_roots(crates_dir):
        msgs, cycles, violations = check_crate(
            crate_name, root_file, LAYER_RULES, rel, with_tests
        )
        for msg in msgs:
            print(msg)
        total_cycles += cycles
        total_violations += violations
    if total_cycles or total_violations:
        print(
            f"check_layers: {total_cycles} import cycle(s), {total_violations} layer "
            "violation(s)"
        )
        return 1
    print("check_layers: no import cycles, layers respected")
    return 0


def self_test():
    files = {
        # A two-module cycle through a use and a code path.
        "a/src/lib.rs": "pub mod x;\npub mod y;\nmod z;\n",
        "a/src/x.rs": "use crate::y::Thing;\npub fn f() {}\n",
        "a/src/y.rs": "pub struct Thing;\n// use crate::z::Nothing;\n"
        "fn g() { crate::x::f(); let _ = \"crate::z::h\"; }\n",
        "a/src/z.rs": "pub fn h() {}\n",
        # A cycle hidden behind a facade's re-export, one through a child and an alias, and a
        # containment edge that is not a cycle.
        "b/src/lib.rs": "pub mod jobs;\npub mod report;\n",
        "b/src/jobs/mod.rs": "pub mod spsa;\npub use spsa::Param;\nuse crate::report;\n"
        "fn k() { report::plots::draw(); }\n",
        "b/src/jobs/spsa.rs": "pub struct Param;\nuse super::super::report::plots;\n",
        "b/src/report/mod.rs": "pub mod plots;\n",
        "b/src/report/plots.rs": "use crate::jobs::Param;\npub fn draw() {}\n"
        "mod tests { use super::super::plots; }\n",
        # Test code is left out: a sibling used only by tests is no cycle.
        "d/src/lib.rs": "pub mod p;\npub mod q;\n#[cfg(test)]\nmod fixtures;\n",
        "d/src/p.rs": "pub fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::q::g;\n}\n",
        "d/src/q.rs": "pub fn g() { crate::p::f(); }\n",
        "d/src/fixtures.rs": "use crate::q::g;\n",
        # Clean: a parent using its child and the child its parent; report using play data.
        "c/src/lib.rs": "pub mod play;\npub mod report;\nuse report::show;\n",
        "c/src/play/mod.rs": "pub mod record;\npub mod runner;\n"
        "pub use record::Game;\n",
        "c/src/play/record.rs": "use super::*;\npub struct Game;\n",
        "c/src/play/runner.rs": "pub use super::record::Game;\nuse crate::report::show;\n",
        "c/src/report/mod.rs": "use crate::play::runner::Game;\npub fn show() {}\n"
        "use crate::{play::record::{self as rec}};\n",
    }
    rules = [("b", ("report",), [("jobs",)]), ("c", ("report",), [("play", "runner")])]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for path, text in files.items():
            full = os.path.join(tmp, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        root = lambda c: os.path.join(tmp, c, "src", "lib.rs")

        msgs, cycles, violations = check_crate("a", root("a"), rules)
        if (cycles, violations) != (1, 0) or not any("x, y" in m for m in msgs):
            failures.append(f"crate a: want the cycle x <-> y only, got {msgs}")
        if any("-> z" in m for m in msgs):
            failures.append(f"crate a: a comment or a string made an edge: {msgs}")

        msgs, cycles, violations = check_crate("b", root("b"), rules)
        if cycles != 1 or not any("jobs::spsa, report::plots" in m for m in msgs):
            failures.append(f"crate b: want the cycle jobs::spsa <-> report::plots, got {msgs}")
        if violations != 1 or not any("plots.rs:1" in m for m in msgs):
            failures.append(f"crate b: want one layer violation at plots.rs:1, got {msgs}")

        msgs, cycles, violations = check_crate("c", root("c"), rules)
        if (cycles, violations) != (0, 0):
            failures.append(f"crate c: want clean (re-export to play::record), got {msgs}")

        msgs, cycles, violations = check_crate("d", root("d"), rules)
        if (cycles, violations) != (0, 0):
            failures.append(f"crate d: want clean without tests, got {msgs}")
        msgs, cycles, violations = check_crate("d", root("d"), rules, with_tests=True)
        if cycles != 1 or not any("p, q" in m for m in msgs):
            failures.append(f"crate d: want the cycle p <-> q with tests, got {msgs}")

    tree = parse_use_tree("crate::{a::{self, b as c}, d::*}")
    if tree != [(["crate", "a", "self"], None, False), (["crate", "a", "b"], "c", False),
                (["crate", "d"], None, True)]:
        failures.append(f"use tree parsed as {tree}")

    for f in failures:
        print("self-test FAILED:", f)
    if not failures:
        print("check_layers self-test: ok")
    return 1 if failures else 0


if __name__ == "__main__":
    if "--self-test" in sys.argv[1:]:
        sys.exit(self_test())
    sys.exit(run(ROOT, with_tests="--with-tests" in sys.argv[1:]))
