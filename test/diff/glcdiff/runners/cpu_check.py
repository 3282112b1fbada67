"""The CPU half of the differential tester: generated kernels must compile or get a
user diagnostic, never an internal error.

    python3 cpu_check.py [--glc build/glc] [--seed S|random] [--seconds T] [--count N]
                         [--per-file K] [--jobs J] [--out DIR] [--mode gl|erased|auto|mix]

Generates kernels 0, 1, 2, ... of seed S in files of K (in a mode of
glcdiff/gen/erase.py: layouts given, or some left to glc's inference), compiles each file with
`glc --emit=cubin` (LLVM, then ptxas) on J parallel jobs, and retries the kernels
of a failing file one at a time to classify each (glc.py): compiled, user
diagnostic (the generator wrote an invalid program: reported, not fatal) or
internal error (a glc bug: fatal). Stops after N kernels or T seconds,
whichever comes first. Failing kernels are kept in DIR (default
build/diff-cpu) with glc's message; shrink.py reduces one to a reproducer.
Prints one line per failing kernel, the disabled feature switches, and last
`cpu_check: N kernels, N compiled, N user diagnostics, N internal errors`;
exits 1 when there was an internal error.
"""
import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from glcdiff.gen import erase
from glcdiff.gen import generate as gen
from glcdiff.runners import glc
from glcdiff.gen.features import disabled_list


def check_file(glc_path, path, names):
    """[(kernel, outcome, message)] for one generated file (a .py file of tl kernels:
    one glc run per kernel)."""
    if not path.endswith(".py") and glc.cubin(glc_path, path)[0] == "ok":
        return [(n, "ok", "") for n in names]
    return [(n,) + glc.cubin(glc_path, path, kernel=n) for n in names]


def main(argv=None):
    """Command line: see the module's docstring; exit status 1 on an internal error."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--glc", default=glc.DEFAULT_GLC)
    ap.add_argument("--seed", default="1", help="an integer, or 'random'")
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--count", type=int, default=1_000_000)
    ap.add_argument("--per-file", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--out", default=os.path.join(glc.ROOT, "build", "diff-cpu"))
    ap.add_argument("--mode", choices=gen.MODES, default="gl",
                    help="which layouts are left to glc's inference (glcdiff/gen/erase.py), "
                         "or tl: plain triton.language kernels")
    args = ap.parse_args(argv)
    seed = random.randrange(1 << 30) if args.seed == "random" else int(args.seed)
    print(f"cpu_check: seed {seed}, mode {args.mode}, {args.glc}")
    for name, why in disabled_list():
        print(f"  feature {name} off: {why}")
    deadline = time.monotonic() + args.seconds
    tally = {"ok": 0, "user": 0, "internal": 0, "timeout": 0}
    os.makedirs(args.out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="diff-cpu-")
    try:
        with ThreadPoolExecutor(args.jobs) as pool:
            pending, start = [], 0
            while pending or (start < args.count and time.monotonic() < deadline):
                while (len(pending) < 2 * args.jobs and start < args.count
                       and time.monotonic() < deadline):
                    n = min(args.per_file, args.count - start)
                    path, = gen.generate_files(seed, start, n, n, tmp, args.mode)
                    names = [gen.kernel_name(seed, i) for i in range(start, start + n)]
                    pending.append((path, pool.submit(check_file, args.glc, path, names)))
                    start += n
                path, fut = pending.pop(0)
                for name, outcome, msg in fut.result():
                    tally[outcome] += 1
                    if outcome != "ok":
                        keep = os.path.join(args.out, name)
                        shutil.copy(path, keep + os.path.splitext(path)[1])
                        with open(keep + ".txt", "w") as f:
                            f.write(msg)
                        mode = args.mode if args.mode == "tl" else erase.kernel_mode(
                            seed, int(name.split("_")[1]), args.mode)
                        ext = os.path.splitext(path)[1]
                        print(f"{outcome.upper()} seed {seed} kernel {name.split('_')[1]} "
                              f"mode {mode} ({keep}{ext}): {glc.signature(outcome, msg)}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    total = sum(tally.values())
    bad = tally["internal"] + tally["timeout"]
    print(f"cpu_check: {total} kernels, {tally['ok']} compiled, {tally['user']} user "
          f"diagnostics, {bad} internal errors")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
