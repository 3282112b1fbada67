"""The kernels of the code-parity table (standard library only): rows and glc compile units.

A row is one kernel specialization both compilers run:
  {"id", "origin": "tutorial"|"example"|"generated", "label", "unit" (the glc unit),
   "launcher" (glc's C launcher), "py" (the Gluon source, relative to the work folder),
   "kernel" (its name there, `outer.inner` for a kernel defined in a test function),
   "num_warps", "grid", "launch" (Triton launch options, e.g. maxnreg), "args", "check"}
args are bench/gluon_tutorials.list's: an int (an i32 scalar), {"scalar": v, "dtype": "i64"|"f32"},
{"constexpr": source} (Triton's argument only), a tensor {"tensor": shape, "dtype": torch name,
"fill", "out"}, a descriptor {"desc": tensor, "block", "layout"}, or {"gen": manifest parameter}
(a generated kernel's, test/diff/gen.py). A unit is one glc compilation:
{"id", "src" (relative to the work folder), "argv"}.

  tutorials(list_path, tutdir, work)   Triton's Gluon tutorials and test_core (33 rows)
  examples(list_path, work)            examples/ with a Gluon twin (gl2gluon.py)
  generated(seed, count, work)         a sample of generated kernels, one file each
  cases(case_dir, work)                the reproducers of bench/parity/cases/, one row per kernel
Each copies or writes its sources under work/ and returns (rows, units).
"""
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "test", "diff"))

from glcdiff.dtypes import DTYPES  # noqa: E402
from glcdiff.gen import generate as gen  # noqa: E402
from glcdiff.translate.gl2gluon import translate  # noqa: E402


def read_list(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.startswith("{")]


def tutorials(list_path, tutdir, work):
    """One row and one unit per line of gluon_tutorials.list; the files are copied to work/tut."""
    dst = os.path.join(work, "tut")
    os.makedirs(dst, exist_ok=True)
    rows, units = [], []
    for i, r in enumerate(read_list(list_path)):
        src = os.path.join(tutdir, r["file"])
        if not os.path.exists(src):
            raise FileNotFoundError(f"{src}: fetch the tutorial sources first (bench/gluon_tutorials.list)")
        shutil.copy(src, dst)
        uid = f"t{i:02d}"
        units.append({"id": uid, "src": f"tut/{r['file']}",
                      "argv": ["-n", r["kernel"], "-s", r["signature"], "-w", str(r["num_warps"])]})
        rows.append({"id": uid, "origin": "tutorial", "label": f"{r['file'][:-3]} {r['kernel']}",
                     "unit": uid, "launcher": r["kernel"].replace(".", "_"), "py": f"tut/{r['file']}",
                     "kernel": r["kernel"], "num_warps": r["num_warps"], "grid": r["grid"],
                     "launch": r.get("launch", {}), "args": r["args"], "check": r["check"]})
    return rows, units


def _translate(gl_path, py_path):
    """Writes the Gluon twin of a .gl file; returns its signatures (gl2gluon.py)."""
    with open(gl_path) as f:
        src, sigs = translate(f.read())
    with open(py_path, "w") as f:
        f.write(src)
    return sigs


def examples(list_path, work):
    """One row per line of examples.list, one unit per example file (all its kernels)."""
    os.makedirs(os.path.join(work, "ex"), exist_ok=True)
    rows, units, seen = [], [], set()
    for r in read_list(list_path):
        stem = r["file"][:-3]
        if stem not in seen:
            seen.add(stem)
            shutil.copy(os.path.join(ROOT, "examples", r["file"]), os.path.join(work, "ex"))
            _translate(os.path.join(ROOT, "examples", r["file"]), os.path.join(work, "ex", stem + ".py"))
            units.append({"id": f"e_{stem}", "src": f"ex/{r['file']}", "argv": []})
        rows.append({"id": f"e_{r['kernel']}", "origin": "example", "label": f"{stem} {r['kernel']}",
                     "unit": f"e_{stem}", "launcher": r["kernel"], "py": f"ex/{stem}.py",
                     "kernel": r["kernel"], "num_warps": r["num_warps"], "grid": r["grid"],
                     "launch": {}, "args": r["args"], "check": r["check"],
                     **{k: r[k] for k in ("rtol", "atol", "note") if k in r}})
    return rows, units


def _gen_arg(p):
    """A generated kernel's manifest parameter as a row argument."""
    if p["role"] == "scalar":
        return p["value"] if p["dtype"] == "i32" else {"scalar": p["value"], "dtype": p["dtype"]}
    return {"gen": p, "tensor": [p["numel"]], "dtype": DTYPES[p["dtype"]].torch, "out": p["role"] == "out"}


def generated(seed, count, work):
    """Kernels 0..count-1 of gen.py's seed, one file (and unit) each, with their Gluon twins."""
    gdir = os.path.join(work, "gen")
    paths = gen.generate_files(seed, 0, count, 1, gdir)
    rows, units = [], []
    for path in paths:
        stem = os.path.splitext(os.path.basename(path))[0]
        _translate(path, os.path.join(gdir, stem + ".py"))
        with open(os.path.join(gdir, stem + ".json")) as f:
            (man, ) = json.load(f)
        uid = f"g{man['seed']}_{man['index']}"
        units.append({"id": uid, "src": f"gen/{stem}.gl", "argv": []})
        rows.append({"id": uid, "origin": "generated", "label": man["name"], "unit": uid,
                     "launcher": man["name"], "py": f"gen/{stem}.py", "kernel": man["name"],
                     "num_warps": man["num_warps"], "grid": man["grid"], "launch": {},
                     "args": [_gen_arg(p) for p in man["params"]], "check": "manifest"})
    return rows, units


def _case_args(sig, given):
    """A reproducer kernel's arguments: `given` (a `# args: [...]` line of the file, JSON) or, for
    kernels of pointers and constexprs only, a 1024-element tensor per pointer."""
    if given is not None:
        return given
    args = []
    for p in sig["params"]:
        if p["kind"] == "ptr":
            args.append({"tensor": [1024], "dtype": DTYPES[p["dtype"]].torch})
        elif p["kind"] != "constexpr":
            raise ValueError(f"{sig['name']}: parameter {p['name']} needs an `# args:` line")
    return args


def cases(case_dir, work):
    """One row per kernel of each case_dir/*.gl (one unit per file); a line `# args NAME: [...]`
    gives kernel NAME's arguments (JSON, as in the lists) where it has scalars or descriptors."""
    dst = os.path.join(work, "cases")
    os.makedirs(dst, exist_ok=True)
    rows, units = [], []
    for name in sorted(os.listdir(case_dir)):
        if not name.endswith(".gl"):
            continue
        stem = name[:-3]
        shutil.copy(os.path.join(case_dir, name), dst)
        with open(os.path.join(case_dir, name)) as f:
            text = f.read()
        given = {}
        for line in text.splitlines():
            if line.startswith("# args "):
                k, v = line[len("# args "):].split(":", 1)
                given[k.strip()] = json.loads(v)
        sigs = _translate(os.path.join(case_dir, name), os.path.join(dst, stem + ".py"))
        units.append({"id": f"c_{stem}", "src": f"cases/{name}", "argv": []})
        for sig in sigs:
            rows.append({"id": f"c_{stem}.{sig['name']}", "origin": "case", "label": f"{stem} {sig['name']}",
                         "unit": f"c_{stem}", "launcher": sig["name"], "py": f"cases/{stem}.py",
                         "kernel": sig["name"], "num_warps": sig["num_warps"], "grid": [1], "launch": {},
                         "args": _case_args(sig, given.get(sig["name"])), "check": "close"})
    return rows, units
