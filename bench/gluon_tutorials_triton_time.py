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
the rows. With --cpu (no GPU, e.g. on the build machine with torch and triton 3.6 in a
venv) each process instead compiles the kernel with `triton.compile(GluonASTSource(...),
target=GPUTarget("cuda", 90, 32))`, what compile.py runs after parsing its signature; the
files' host code then sees an sm_90 target and device (for their `is_hopper()` checks).
"""
import argparse
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
    rows = r.read_rows(os.path.join(bundle, "gluon_tutorials.list"))
    row = rows[i]
    path = os.path.join(tutdir, row["file"])
    ns, tree = r.load_module(path, [])
    kernel = r.kernel_object(ns, tree, path, row["kernel"])
    _, tri_args, _, _ = r.make_args(torch, gl, ns, row, 1000 + i)
    kernel.warmup(*tri_args, grid=tuple(row["grid"]), num_warps=row["num_warps"], **row.get("launch", {}))


TORCH_TO_TRITON = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "int32": "i32", "int64": "i64"}


def compile_one_cpu(bundle, tutdir, i):
    """In this (fresh) process: compile row i with triton.compile for cuda:90, no GPU needed
    (the arguments' specializations written as Triton's JIT would make them)."""
    sys.path.insert(0, HERE)
    sys.path.insert(0, tutdir)
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon import language as gl
    from triton.compiler import ASTSource
    from triton.experimental.gluon._runtime import GluonASTSource, GluonJITFunction
    import torch
    import gluon_tutorials_run as r

    class H200:
        """What the files' host code asks the (absent) driver and torch.cuda."""

        def get_current_target(self):
            return GPUTarget("cuda", 90, 32)

    triton.runtime.driver.set_active(H200())
    torch.cuda.get_device_capability = lambda *_: (9, 0)
    rows = r.read_rows(os.path.join(bundle, "gluon_tutorials.list"))
    row = rows[i]
    path = os.path.join(tutdir, row["file"])
    ns, tree = r.load_module(path, [])
    kernel = r.kernel_object(ns, tree, path, row["kernel"])
    names = [n for n in kernel.arg_names if n != "num_warps" or "num_warps" not in kernel.arg_names]
    sig, cx = {}, {}
    for name, a in zip(names, row["args"]):
        if isinstance(a, int) and not isinstance(a, bool):
            sig[name] = "i32"
        elif "scalar" in a:
            sig[name] = {"f32": "fp32"}.get(a["dtype"], a["dtype"])
        elif "group" in a:
            sig[name] = "*i64"
        elif "constexpr" in a:
            sig[name], cx[name] = "constexpr", eval(a["constexpr"], ns)
        elif "desc" in a:
            d = a["desc"]
            layout = r.nvmma_layout(gl, a, ns)
            sig[name] = f"tensordesc<{TORCH_TO_TRITON[d['dtype']]}{a['block']},{layout!r}>"
        else:
            sig[name] = "*" + TORCH_TO_TRITON[a["dtype"]]
    if "num_warps" in kernel.arg_names:
        sig["num_warps"], cx["num_warps"] = "constexpr", row["num_warps"]
    src = (GluonASTSource if isinstance(kernel, GluonJITFunction) else ASTSource)(kernel, sig, constexprs=cx)
    triton.compile(src, target=GPUTarget("cuda", 90, 32),
                   options={"num_warps": row["num_warps"], **row.get("launch", {})})


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
    ap.add_argument("--cpu", action="store_true",
                    help="no GPU: time triton.compile for cuda:90 in a fresh process instead")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    bundle, tutdir = os.path.abspath(args.bundle), os.path.abspath(args.tutdir)
    if args.one is not None:
        (compile_one_cpu if args.cpu else warmup_one)(bundle, tutdir, args.one)
        return
    sys.path.insert(0, HERE)
    import gluon_tutorials_run as r
    rows = r.read_rows(os.path.join(bundle, "gluon_tutorials.list"))
    medians = []
    for i, row in enumerate(rows):
        if not os.path.exists(os.path.join(bundle, f"{i:02d}.o")):
            continue
        out = tempfile.mkdtemp(prefix="compile-py-")
        methods = []
        if args.cpu:
            methods.append(("triton.compile", [sys.executable, os.path.abspath(__file__), bundle, tutdir,
                                               "--cpu", "--one", str(i)]))
        elif compile_py_ok(row):
            methods.append(("compile.py", [sys.executable, "-m", "triton.tools.compile",
                                           os.path.join(tutdir, row["file"]), "-n", row["kernel"], "-s",
                                           row["signature"], "-w", str(row["num_warps"]), "-ns",
                                           str(row.get("launch", {}).get("num_stages", 3)), "-g",
                                           ",".join(str(g) for g in (row["grid"] + [1, 1])[:3]), "-o",
                                           os.path.join(out, "k")] +
                                          (["-on", row["out_name"]] if "out_name" in row else [])))
        if not args.cpu:
            methods.append(("warmup", [sys.executable, os.path.abspath(__file__), bundle, tutdir, "--one",
                                       str(i)]))
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
