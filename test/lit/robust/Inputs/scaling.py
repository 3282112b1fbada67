#!/usr/bin/env python3
"""Linear scaling of glc in the size of its input (issue 11).

For each shape of large input (many names, many lines, many kernels, deep
nesting, many errors, long string joins) this writes an input of size n and
one of size 10n, runs `glc --emit=typed` (or --emit=ast) on each and checks
that the larger takes at most 15 times as long as the smaller (the best of
three runs each, taken in turns, and measured again once when too slow,
so that a busy machine does not fail it), and at most LIMIT seconds. A pass that is quadratic in its input takes about 100 times
as long.

usage: scaling.py OUTDIR LIMIT GLC [FLAGS...]   (LIMIT: seconds per run)
Prints one line per shape and exits 1 if any is too slow.
"""
import os
import subprocess
import sys
import time

HEAD = "from triton.experimental.gluon import language as gl\n"
KERNEL = "@gl.kernel(num_warps=4)\ndef k(x: gl.ptr[gl.i32]):\n"


def names(n):
    """n local names, each defined from the one before."""
    body = ["    v0 = 0\n"] + ["    v%d = v%d + 1\n" % (i, i - 1) for i in range(1, n)]
    return HEAD + KERNEL + "".join(body) + "    gl.store(x, v%d)\n" % (n - 1)


def globals_(n):
    """n module-level constexprs."""
    defs = ["C%d: gl.constexpr = %d\n" % (i, i) for i in range(n)]
    return HEAD + "".join(defs) + KERNEL + "    gl.store(x, C%d + C0)\n" % (n - 1)


def lines(n):
    """n lines: statements, blank lines and comments in a kernel."""
    body = []
    for i in range(n // 3):
        body.append("    s = s + 1\n\n    # line %d\n" % i)
    return HEAD + KERNEL + "    s = 0\n" + "".join(body) + "    gl.store(x, s)\n"


def kernels(n):
    """n small kernels."""
    out = [HEAD]
    for i in range(n):
        out.append("@gl.kernel(num_warps=4)\ndef k%d(x: gl.ptr[gl.i32]):\n"
                   "    gl.store(x, %d)\n" % (i, i))
    return "".join(out)


def nesting(n):
    """n statements, each an expression nested 40 deep."""
    expr = "(" * 40 + "1" + " + 1)" * 40
    body = ["    s = s + %s\n" % expr for _ in range(n)]
    return HEAD + KERNEL + "    s = 0\n" + "".join(body) + "    gl.store(x, s)\n"


def unknown(n):
    """n names defined and n unknown names (errors with suggestions)."""
    body = ["    v%d = 1\n" % i for i in range(n)]
    body += ["    gl.store(x, w%d)\n" % i for i in range(n)]
    return HEAD + KERNEL + "".join(body)


def strings(n):
    """One literal joined from n adjacent strings."""
    return "x = (" + " ".join(['"abcdefgh"'] * n) + ")\n"


# shape, generator, n, extra arguments
SHAPES = [
    ("names", names, 10000, ["--emit=typed"]),
    ("globals", globals_, 10000, ["--emit=typed"]),
    ("lines", lines, 100000, ["--emit=typed"]),
    ("kernels", kernels, 1000, ["--emit=typed"]),
    ("nesting", nesting, 2000, ["--emit=typed"]),
    ("unknown", unknown, 2000, ["--emit=typed", "--max-errors=0"]),
    ("strings", strings, 50000, ["--emit=ast"]),
]


def run_time(cmd, limit):
    t0 = time.perf_counter()
    try:
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=limit)
    except subprocess.TimeoutExpired:
        return limit
    return time.perf_counter() - t0


def best_times(cmds, limit):
    """The best of three runs of each command, taken in turns so that a
    moment of load on the machine weighs on both sizes alike."""
    best = [limit] * len(cmds)
    for _ in range(3):
        for i, cmd in enumerate(cmds):
            best[i] = min(best[i], run_time(cmd, limit))
    return best


def main():
    outdir, limit, glc = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    os.makedirs(outdir, exist_ok=True)
    failed = 0
    for name, gen, n, args in SHAPES:
        cmds = []
        for size in (n, 10 * n):
            path = os.path.join(outdir, "%s_%d.gl" % (name, size))
            with open(path, "w") as f:
                f.write(gen(size))
            # the largest inputs pass the default --max-tokens (2^20)
            cmds.append(glc + [path] + args + ["--max-tokens=67108864"])
        # A quadratic pass is about 100x slower at 10n every time; a ratio
        # past 15 is measured again once before it counts, as load on a
        # shared machine can make one measurement look so.
        for _ in range(2):
            times = best_times(cmds, limit)
            ratio = times[1] / times[0]
            ok = ratio <= 15 and times[1] < limit
            if ok:
                break
        failed += not ok
        print("%-8s n=%-7d %.3f s  10n=%-8d %.3f s  ratio %.1f %s" %
              (name, n, times[0], 10 * n, times[1], ratio, "ok" if ok else "TOO SLOW"))
    print("scaling: %d of %d shapes linear" % (len(SHAPES) - failed, len(SHAPES)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
