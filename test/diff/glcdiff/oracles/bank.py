"""Checks glc's gl.bank_conflicts against Triton 3.6's: random distributed
layouts (layouts.distributed) and shared layouts (layouts.shared) on random
shapes and element types; Triton's number comes from
`GluonOpBuilder.get_shared_bank_conflicts` (what `gl.bank_conflicts` calls),
glc's from one kernel per case that `gl.static_print`s
`gl.bank_conflicts(x.type, smem.type)`.

Needs Triton 3.6 importable (a venv with `pip install triton==3.6.0`; no GPU:
only its layout code runs), so it is a developer check, not part of make check:

    /path/to/venv/bin/python test/diff/bank_oracle.py --glc build/glc --count 2000

Triton runs each case in a forked child: it aborts (an assertion in reshapeIns)
on buffers smaller than one row of banks, which glc counts as 0 conflicts; those
are tallied apart. Prints one line per mismatch and `N cases, N agree, N differ,
N refused, N Triton aborts` (refused: one side gives a number and the other an
error); --dump FILE writes the agreeing cases as `REG|SHARED|SHAPE|DTYPE|WARPS|COUNT`
lines.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

from glcdiff.gen import layouts

from triton._C.libtriton import gluon_ir, ir  # noqa: E402
from triton.experimental.gluon import language as gl  # noqa: E402

DTYPES = {"int8": 8, "float16": 16, "float32": 32, "float64": 64}


def triton_count(builder, reg, shared, shape, bits):
    """Triton's count, None when it refuses, or "abort" when it dies (in a
    child process: an assertion on buffers smaller than one row of banks)."""
    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rd)
        try:
            r = eval(reg, {"gl": gl})
            s = eval(shared, {"gl": gl})
            n = builder.get_shared_bank_conflicts(r._to_ir(builder), s._to_ir(builder),
                                                  list(shape), bits)
            os.write(wr, str(n).encode())
        except Exception:  # Triton rejects the pair
            pass
        os._exit(0)
    os.close(wr)
    with os.fdopen(rd) as f:
        out = f.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return "abort"
    return int(out) if out else None


def glc_counts(glc, cases):
    """glc's count per case (None: refused), from one file of kernels."""
    lines = ["from triton.experimental.gluon import language as gl", ""]
    for i, (reg, shared, shape, dtype, warps) in enumerate(cases):
        lines += [f"@gl.kernel(num_warps={warps})",
                  f"def case{i}(p: gl.ptr[gl.f32]):",
                  f"    x = gl.full({shape}, 0, gl.{dtype}, layout={reg})",
                  f"    s = gl.allocate_shared_memory(gl.{dtype}, {shape}, {shared})",
                  f"    gl.static_print('case', {i}, gl.bank_conflicts(x.type, s.type))", ""]
    with tempfile.NamedTemporaryFile("w", suffix=".gl", delete=False) as f:
        f.write("\n".join(lines))
        path = f.name
    out = {}
    try:
        # each kernel on its own, so that one refusal does not hide the others
        for i in range(len(cases)):
            r = subprocess.run([glc, path, "--kernel", f"case{i}", "--emit=ir", "-o", os.devnull],
                               capture_output=True, text=True)
            m = re.search(rf"static_print: case {i} (-?\d+)", r.stderr)
            out[i] = int(m.group(1)) if m else None
    finally:
        os.unlink(path)
    return out


def main():
    """Command line: see the module's docstring."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--glc", default="build/glc")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dump", help="write the agreeing cases here")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    cases = []
    while len(cases) < args.count:
        rank = rng.choice([1, 2, 2, 2, 3])
        shape = [1 << rng.randrange(0, 7) for _ in range(rank)]
        if sum(s.bit_length() - 1 for s in shape) > 12:
            continue
        warps = rng.choice([1, 2, 4, 8])
        dtype = rng.choice(list(DTYPES))
        reg = layouts.distributed(rng, shape, warps).text
        shared = layouts.shared(rng, shape, DTYPES[dtype]).text
        cases.append((reg, shared, shape, dtype, warps))
    got = glc_counts(args.glc, cases)
    agree = differ = refused = aborts = nonzero = 0
    dump = []
    for i, (reg, shared, shape, dtype, warps) in enumerate(cases):
        want = triton_count(builder, reg, shared, shape, DTYPES[dtype])
        if want == "abort":
            aborts += 1   # Triton has no number; glc says 0 (no segment: no conflict)
            continue
        if want is None and got[i] is None:
            agree += 1
        elif want is None or got[i] is None:
            refused += 1
            print(f"refused #{i}: {reg} / {shared} on {shape} {dtype}: triton={want} "
                  f"glc={got[i]}")
        elif want != got[i]:
            differ += 1
            print(f"differ #{i}: {reg} / {shared} on {shape} {dtype}: triton={want} "
                  f"glc={got[i]}")
        else:
            agree += 1
            nonzero += want != 0
            dump.append(f"{reg}|{shared}|{shape}|{dtype}|{warps}|{want}")
    if args.dump:
        with open(args.dump, "w") as f:
            f.write("\n".join(dump) + "\n")
    print(f"{len(cases)} cases, {agree} agree ({nonzero} with conflicts), {differ} differ, "
          f"{refused} refused, {aborts} Triton aborts")
    return 1 if differ or refused else 0


if __name__ == "__main__":
    sys.exit(main())
