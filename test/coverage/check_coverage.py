#!/usr/bin/env python3
"""Keeps docs/coverage.md true: the coverage table of Triton 3.6's Gluon surface.

Contract:
  * Every name of the surface list (surface.txt: "NAMESPACE NAME" per line) has
    exactly one row in the table, and every row names a surface name.
  * A row is "| `NAME` | `NAMESPACE` | STATUS | DOCS |" where STATUS is `yes`
    (or `yes (NOTE)`), `partial: WHAT IS MISSING` or `no: REASON`; DOCS links to
    where glc documents the name (optional for `no` rows), and the files and
    headings it links to exist.
  * Probes are kernels in probes/*.py, each under a marker comment
        # probe NAMESPACE NAME -- GLC ARGUMENTS
        # probe-fails NAMESPACE NAME -- GLC ARGUMENTS
    directly above its @gluon.jit def (several markers may share one kernel).
    A probe compiles the kernel to an object: glc FILE -n KERNEL ARGS -c -o X.o.
  * `yes` rows: at least one `probe`, none `probe-fails`; every probe exits 0.
    `partial` rows: at least one `probe` (exit 0); their `probe-fails` (the
    part that is missing), when given, must fail cleanly.
    `no` rows: at least one `probe-fails`, no `probe`; each must fail cleanly.
  * Failing cleanly: exit status 1 and an error line "PROBE.py:LINE:COL: error:"
    whose text names the construct (a dotted part of NAME: the member or its
    class). For the command-line options of the AOT tool (namespace
    compile.py) a usage error (exit 2) naming the option counts too. Exit
    3 or 4, a signal or an "internal compiler error" fails the check
    whatever the row says.
  * GPU tests: every `yes` and `partial` row is used by a GPU test source, one
    of test/gpu/*.gl and test/gpu/*.py (the kernels test/gpu/bundle.sh compiles
    and test/gpu/run.sh runs) and examples/NAME.gl whose NAME is a word of
    bundle.sh (outside its comment lines). Comments and docstrings are left
    out. A plain NAME is used
    where it occurs as a word; a member `CLASS.MEMBER` (or `*.MEMBER`) where
    `.MEMBER` occurs as an attribute, of whatever value (the class is not
    checked, nor is the namespace: a name of two namespaces is used by
    either). The AOT tool's rows (namespace compile.py) are used where
    bundle.sh, which compiles test/gpu/*.py as compile.py does, matches the
    pattern GPU_AOT gives for the option or signature entry (only its .py
    commands match, except for `-o`, which its .gl commands use too).

Prints one line per broken rule, then a summary; exits 0 iff nothing broke.
Standard library only.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))

ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|\s*([^|]*?)\s*\|\s*(.*?)\s*\|\s*$")
MARK = re.compile(r"^#\s*(probe|probe-fails)\s+(\S+)\s+(\S+)\s+--\s*(.*)$")
DEF = re.compile(r"^\s*def\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(")
LINK = re.compile(r"\]\(([^)#\s]*)(#[^)\s]*)?\)")
AOT = "compile.py"
# How bundle.sh shows each option and signature entry of compile.py when it
# compiles test/gpu/*.py: the pattern a row of namespace compile.py needs
# (the signature entries are those of its -s strings).
GPU_AOT = {
    "-n": r'\.py" -n ',
    "-s": r'\s-s "',
    "-w": r"\s-w \d",
    "-ns": r"\s-ns \d",
    "-o": r"\s-o\s",
    "-g": r"\s-g\s",
    "-on": r"\s-on\s",
    "sig-pointer": r'"\*(fp|i|u|bf)\d+',
    "sig-scalar": r"[\s,\"]i32[,\"]",
    "sig-div16": r":16[,\"]",
    "sig-one": r"i32:1[,\"]",
    "sig-constexpr": r", \d+\"",
}
COMMENT = re.compile(r'"""(?:.|\n)*?"""|#[^\n]*')


def read_surface(path):
    names = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 2:
                sys.exit(f"{path}:{n}: expected 'NAMESPACE NAME', got {line!r}")
            names.append((parts[0], parts[1]))
    return names


def anchors(path):
    """The GitHub anchors of the headings of a Markdown file."""
    found, fenced = set(), False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced and line.startswith("#"):
                title = line.lstrip("#").strip().lower()
                found.add(re.sub(r"[^a-z0-9 _-]", "", title).replace(" ", "-"))
    return found


def read_table(path, errors):
    rows = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = ROW.match(line)
            if not m:
                continue
            name, ns, status, docs = m.groups()
            key = (ns, name)
            if key in rows:
                errors.append(f"{path}:{n}: second row for {ns} {name}")
                continue
            if re.match(r"^yes( \(.+\))?$", status):
                kind = "yes"
            elif re.match(r"^(partial|no): \S", status):
                kind = status.split(":", 1)[0]
            else:
                errors.append(f"{path}:{n}: {ns} {name}: status {status!r} is not "
                              "`yes`, `partial: ...` or `no: ...`")
                continue
            links = LINK.findall(docs)
            if kind != "no" and not links:
                errors.append(f"{path}:{n}: {ns} {name}: no link to where glc documents it")
            for target, anchor in links:
                target = os.path.join(os.path.dirname(path), target) if target else path
                if not os.path.exists(target):
                    errors.append(f"{path}:{n}: {ns} {name}: link to missing {target}")
                elif anchor and anchor[1:] not in anchors(target):
                    errors.append(f"{path}:{n}: {ns} {name}: no heading {anchor} in {target}")
            rows[key] = (kind, n)
    return rows


def read_probes(folder):
    probes = []  # (kind, ns, name, file, line, kernel, args)
    for fname in sorted(os.listdir(folder)):
        if not fname.endswith(".py"):
            continue
        path = os.path.join(folder, fname)
        pending = []
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                m = MARK.match(line)
                if m:
                    pending.append((m.group(1), m.group(2), m.group(3), n, m.group(4)))
                    continue
                d = DEF.match(line)
                if d:
                    for kind, ns, name, ln, args in pending:
                        probes.append((kind, ns, name, path, ln, d.group(1), shlex.split(args)))
                    pending = []
                elif pending and not line.strip().startswith(("@", "#")) and line.strip():
                    sys.exit(f"{path}:{pending[0][3]}: marker is not followed by a def")
    return probes


def gpu_sources(gpu, examples):
    """The code of the GPU test sources (see the contract) without comments
    and docstrings, and bundle.sh's commands (its comment lines left out)."""
    with open(os.path.join(gpu, "bundle.sh"), encoding="utf-8") as f:
        bundle = re.sub(r"(?m)^\s*#.*$", "", f.read())
    paths = [os.path.join(gpu, n) for n in os.listdir(gpu) if n.endswith((".gl", ".py"))]
    paths += [os.path.join(examples, n) for n in os.listdir(examples)
              if n.endswith(".gl") and re.search(r"\b%s\b" % re.escape(n[:-3]), bundle)]
    code = []
    for path in sorted(paths):
        with open(path, encoding="utf-8") as f:
            code.append(COMMENT.sub("", f.read()))
    return "\n".join(code), bundle


def gpu_used(ns, name, code, bundle):
    """Whether a GPU test source (or bundle.sh, for compile.py) uses the name."""
    if ns == AOT:
        return bool(re.search(GPU_AOT.get(name, r"(?!)"), bundle))
    if "." in name:
        return bool(re.search(r"\." + re.escape(name.rsplit(".", 1)[1]) + r"\b", code))
    return bool(re.search(r"\b" + re.escape(name) + r"\b", code))


def run_probe(glc, probe, tmp):
    kind, ns, name, path, line, kernel, args = probe
    out = os.path.join(tmp, f"{os.path.basename(path)}.{line}.o")
    cmd = glc + [path, "-n", kernel] + args + ["-c", "-o", out]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
        text, rc = p.stdout.decode("utf-8", "replace"), p.returncode
    except subprocess.TimeoutExpired:
        text, rc = "timed out", -1
    where = f"{os.path.relpath(path, ROOT)}:{line}: {ns} {name}"
    if rc < 0 or rc > 2 or "internal compiler error" in text:
        return f"{where}: internal error (exit {rc}):\n{text.rstrip()}"
    if kind == "probe":
        if rc != 0:
            return f"{where}: the probe does not compile (exit {rc}):\n{text.rstrip()}"
        return None
    construct = "(" + "|".join(re.escape(part) for part in name.split(".") if part != "*") + ")"
    located = re.compile(re.escape(os.path.basename(path)) + r":\d+:\d+: error: .*" + construct)
    if rc == 1 and any(located.search(l) for l in text.splitlines()):
        return None
    if ns == AOT and rc in (1, 2) and re.search(r"error: .*" + construct, text):
        return None
    if rc == 0:
        return f"{where}: the probe compiles, so the row should not say it is missing"
    return f"{where}: not a clean error naming '{name}' (exit {rc}):\n{text.rstrip()}"


def list_probes(a):
    glc = shlex.split(a.glc)
    todo = [p for p in read_probes(a.probes) if not a.only or p[2] == a.only]

    def one(p):
        out = os.path.join(tmp, f"{os.path.basename(p[3])}.{p[4]}.o")
        r = subprocess.run(glc + [p[3], "-n", p[5]] + p[6] + ["-c", "-o", out],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        text = r.stdout.decode("utf-8", "replace")
        first = next((l for l in text.splitlines() if "error" in l), "")
        return f"{p[0]:11} {p[1]} {p[2]}: exit {r.returncode} {first}"

    with tempfile.TemporaryDirectory() as tmp:
        with concurrent.futures.ThreadPoolExecutor(max(1, a.j)) as pool:
            for line in pool.map(one, todo):
                print(line)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--glc", default=os.path.join(ROOT, "build", "glc"),
                    help="the glc command (may carry flags)")
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "coverage.md"))
    ap.add_argument("--surface", default=os.path.join(HERE, "surface.txt"))
    ap.add_argument("--probes", default=os.path.join(HERE, "probes"))
    ap.add_argument("--gpu", default=os.path.join(ROOT, "test", "gpu"),
                    help="the GPU tests (their kernels and bundle.sh)")
    ap.add_argument("--examples", default=os.path.join(ROOT, "examples"))
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--only", help="run the probes of this name only")
    ap.add_argument("--list", action="store_true",
                    help="run every probe and print its exit status and first error, "
                         "whatever the table says (for writing the table)")
    a = ap.parse_args()
    if a.list:
        return list_probes(a)

    errors = []
    surface = read_surface(a.surface)
    rows = read_table(a.doc, errors)
    probes = read_probes(a.probes)
    known = set(surface)
    for key in surface:
        if key not in rows:
            errors.append(f"{a.doc}: {key[0]} {key[1]} (a Gluon 3.6 name) has no row")
    for key, (_, line) in rows.items():
        if key not in known:
            errors.append(f"{a.doc}:{line}: {key[0]} {key[1]} is not in {a.surface}")
    code, bundle = gpu_sources(a.gpu, a.examples)
    for key, (kind, line) in rows.items():
        if kind != "no" and not gpu_used(key[0], key[1], code, bundle):
            errors.append(f"{a.doc}:{line}: {key[0]} {key[1]} ({kind}): no GPU test uses it")
    by_row = {}
    for p in probes:
        if (p[1], p[2]) not in known:
            errors.append(f"{p[3]}:{p[4]}: probe of {p[1]} {p[2]}, which is not a surface name")
        by_row.setdefault((p[1], p[2]), []).append(p)
    for key, (kind, line) in rows.items():
        got = by_row.get(key, [])
        ok = [p for p in got if p[0] == "probe"]
        bad = [p for p in got if p[0] == "probe-fails"]
        where = f"{a.doc}:{line}: {key[0]} {key[1]} ({kind})"
        if kind in ("yes", "partial") and not ok:
            errors.append(f"{where}: no probe that compiles it")
        if kind == "yes" and bad:
            errors.append(f"{where}: has a probe-fails, so it is not `yes`")
        if kind == "no" and (ok or not bad):
            errors.append(f"{where}: needs probe-fails markers and no probe markers")

    todo = [p for p in probes if (p[1], p[2]) in rows and (not a.only or p[2] == a.only)]
    glc = shlex.split(a.glc)
    with tempfile.TemporaryDirectory() as tmp:
        with concurrent.futures.ThreadPoolExecutor(max(1, a.j)) as pool:
            for msg in pool.map(lambda p: run_probe(glc, p, tmp), todo):
                if msg:
                    errors.append(msg)
    for e in errors:
        print("error: " + e)
    kinds = [k for k, _ in rows.values()]
    summary = (f"{len(rows)} rows ({kinds.count('yes')} yes, {kinds.count('partial')} partial, "
               f"{kinds.count('no')} no), {len(todo)} probes")
    if errors:
        print(f"coverage: {summary}: {len(errors)} broken")
        return 1
    print(f"coverage: {summary}: all rows hold")
    return 0


if __name__ == "__main__":
    sys.exit(main())
