"""Times Triton's cold compile of the tutorial kernels that glc compiles (on the GPU machine).

    python3 gluon_tutorials_triton_time.py BUNDLE TUTDIR [--runs 3]

BUNDLE and TUTDIR are gluon_tutorials_run.py's. Each compile is a fresh Python
process with an empty TRITON_CACHE_DIR, timed from its start to its exit, as
`time python3 -m triton.tools.compile ...` would be: compile.py itself
(`python3 -m triton.tools.compile FILE -n KERNEL -s SIGNATURE -w N -g GRID -o OUT`) for the
rows whose signature it can take (types and int/float constexprs, a top-level
kernel), and for the others (layouts, tensor descriptors, classes as constexprs,
kernels inside test functions, or when compile.py refuses a Gluon kernel) a
process that loads the file and compiles the kernel with Triton's
`kernel.warmup(*args, grid=..., num_warps=N)`, the same pipeline without a launch.
Prints per row the median of RUNS seconds and the method, then the median over
the rows.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def compile_py_ok(row):
    """Whether compile.py's signature format can say this row's signature."""
    if "." in row["kernel"]:
        return False
    for e in row["signature"].split(","):
        e = e.strip()
        if not re.fullmatch(r"\*?(i1|i8|i16|i32|i64|u8|u16|u32|u64|fp16|bf16|fp32|fp64)(:(1|16))?|-?\d+(\.\d*)?",
                            e):
            return False
    return True


def warmup_one(bundle, tutdir, i):
    """In this (fresh) process: compile row i through Triton's warmup."""
    sys.path.insert(0, HERE)
    sys.path.insert(0, tutdir)
    import torch
    from triton.experimental.gluon import language as gl
    import gluon_tutorials_run as r
    rows = [json.loads(l) for l in open(os.path.join(bundle, "gluon_tutorials.list")) if l.startswith("{")]
    row = rows[i]
    path = os.path.join(tutdir, row["file"])
    ns, tree = r.load_module(path, [])
    kernel = r.kernel_object(ns, tree, path, row["kernel"])
    _, tri_args, _, _ = r.make_args(torch, gl, ns, row, 1000 + i)
    kernel.warmup(*tri_args, grid=tuple(row["grid"]), num_warps=row["num_warps"], **row.get("launch", {}))


def timed(cmd, cwd):
    env = dict(os.environ, TRITON_CACHE_DIR=tempfile.mkdtemp(prefix="triton-cold-"))
    start = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    return time.perf_counter() - start, p


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bundle")
    ap.add_argument("tutdir")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    bundle, tutdir = os.path.abspath(args.bundle), os.path.abspath(args.tutdir)
    if args.one is not None:
        warmup_one(bundle, tutdir, args.one)
        return
    rows = [json.loads(l) for l in open(os.path.join(bundle, "gluon_tutorials.list")) if l.startswith("{")]
    medians = []
    for i, row in enumerate(rows):
        if not os.path.exists(os.path.join(bundle, f"{i:02d}.o")):
            continue
        out = tempfile.mkdtemp(prefix="compile-py-")
        methods = []
        if compile_py_ok(row):
            methods.append(("compile.py", [sys.executable, "-m", "triton.tools.compile",
                                           os.path.join(tutdir, row["file"]), "-n", row["kernel"], "-s",
                                           row["signature"], "-w", str(row["num_warps"]), "-g",
                                           ",".join(str(g) for g in (row["grid"] + [1, 1])[:3]), "-o",
                                           os.path.join(out, "k")]))
        methods.append(("warmup", [sys.executable, os.path.abspath(__file__), bundle, tutdir, "--one", str(i)]))
        for name, cmd in methods:
            times, p = [], None
            for _ in range(args.runs):
                t, p = timed(cmd, tutdir)
                if p.returncode != 0:
                    break
                times.append(t)
            if len(times) == args.runs:
                medians.append(statistics.median(times))
                print(f"{i:02d} {row['file']} {row['kernel']}: {medians[-1]:.2f} s ({name})", flush=True)
                break
            err = (p.stderr.strip().splitlines() or ["?"])[-1][:200]
            print(f"{i:02d} {row['file']} {row['kernel']}: {name} failed: {err}", flush=True)
    if medians:
        print(f"median Triton seconds per kernel (cold, {len(medians)} kernels): {statistics.median(medians):.2f}")


if __name__ == "__main__":
    main()
