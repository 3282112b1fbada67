"""Shrink a failing generated kernel to a small reproducer (delta debugging).

    python3 shrink.py --seed S --index I [--gpu] [--glc build/glc] [-o OUT.gl]
                      [--mode gl|erased|auto|mix|tl]

Regenerates kernel I of seed S and removes statements (ddmin over its statement
list; a statement whose names lose their definition goes too, so every
candidate is a well-formed kernel) while the kernel still fails the same way:
  - default (CPU): glc fails with the same outcome and first error line
    (glc.signature), e.g. the same internal error;
  - --gpu (a machine with a GPU, torch and Triton, and LLVM for glc): glc and
    Triton still disagree on the kernel (compiled and run as run_gpu.py does).
Prints the reproducer (or writes it to OUT.gl) with the command that shows
the failure.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from glcdiff import TOOLS_DIR
from glcdiff.gen import generate as gen
from glcdiff.runners import glc


def write(kernel, keep, path, mode="gl"):
    """Write kernel (only statements keep; None: all) in mode and its manifest to path."""
    gen.write_file(path, [kernel], {kernel.index: keep}, mode)


def cpu_predicate(glc_path, kernel, tmp, mode="gl"):
    """A test 'keep -> still fails like the original' for glc on the CPU."""
    path = os.path.join(tmp, "cand" + (".py" if mode == "tl" else ".gl"))
    write(kernel, None, path, mode)
    name = kernel.name if mode == "tl" else None   # a tl file: compiled kernel by kernel
    want = glc.signature(*glc.cubin(glc_path, path, name))
    if want.startswith("ok"):
        sys.exit(f"kernel {kernel.index} of seed {kernel.seed} compiles: nothing to shrink")

    def still_fails(keep):
        write(kernel, keep, path, mode)
        return glc.signature(*glc.cubin(glc_path, path, name)) == want
    return still_fails, want


def gpu_predicate(glc_path, kernel, tmp, mode="gl"):
    """A test 'keep -> glc and Triton still disagree' (needs a GPU here)."""
    from glcdiff.runners import bundle
    kdir = os.path.join(tmp, "kernels")
    work = os.path.join(tmp, "work")
    os.makedirs(kdir, exist_ok=True)
    os.makedirs(work, exist_ok=True)
    stem = f"diff_{kernel.seed}_{kernel.index}"
    lib = os.path.join(glc.ROOT, "build", "libglrt.a")

    def outcome(keep):
        path = os.path.join(kdir, stem + ".gl")
        write(kernel, keep, path, mode)
        bundle.build_file(glc_path, path, [kernel], [], mode)
        subprocess.run(["cc", "-shared", "-o", os.path.join(work, f"lib{stem}.so"),
                        os.path.join(kdir, stem + ".o"), "-Wl,--whole-archive", lib,
                        "-Wl,--no-whole-archive", "-ldl", "-pthread"], check=True)
        subprocess.run([sys.executable, os.path.join(TOOLS_DIR, "run_gpu.py"), tmp, "--jobs", "1",
                        "--out", tmp], capture_output=True)
        with open(os.path.join(tmp, "results.jsonl")) as f:
            return json.loads(f.readline())["outcome"]

    if outcome(None) != "disagree":
        sys.exit(f"kernel {kernel.index} of seed {kernel.seed}: glc and Triton agree")
    return (lambda keep: outcome(keep) == "disagree"), "disagree"


def ddmin(items, still_fails):
    """A 1-minimal subset of items (a sorted list) on which still_fails holds."""
    n = 2
    while len(items) >= 2:
        size = max(1, len(items) // n)
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        for chunk in chunks:
            rest = [x for x in items if x not in chunk]
            if still_fails(rest):
                items, n = rest, max(n - 1, 2)
                break
        else:
            if size == 1:
                return items
            n = min(2 * n, len(items))
    return items


def main(argv=None):
    """Command line: see the module's docstring."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--index", type=int, required=True)
    ap.add_argument("--gpu", action="store_true")
    ap.add_argument("--glc", default=glc.DEFAULT_GLC)
    ap.add_argument("-o", "--output")
    ap.add_argument("--mode", choices=gen.MODES, default="gl",
                    help="the mode the kernel failed in (cpu_check.py prints it)")
    args = ap.parse_args(argv)
    kernel = gen.kernel(args.seed, args.index, args.mode)
    with tempfile.TemporaryDirectory() as tmp:
        make = gpu_predicate if args.gpu else cpu_predicate
        still_fails, want = make(args.glc, kernel, tmp, args.mode)

        def test(keep):
            kept = gen.closure(kernel.stmts, set(keep))
            return still_fails(kept)
        keep = ddmin(list(range(len(kernel.stmts))), test)
        kept = gen.closure(kernel.stmts, set(keep))
        out = args.output or os.path.join(tmp, "out" + (".py" if args.mode == "tl" else ".gl"))
        write(kernel, kept, out, args.mode)
        with open(out) as f:
            text = f.read()
    print(f"# shrunk from {len(kernel.stmts)} to {len(kept)} statements; fails as: {want}")
    if not args.output:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
