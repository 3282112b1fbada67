"""Checks the layouts glc gives the results of the register shape operations
(gl.reshape, gl.permute, gl.join, gl.split) against Triton 3.6's: random
distributed layouts (layouts.py) on random shapes, each operation traced by
Triton's Gluon front end (no compilation, no GPU: `gl.static_print` of the
result's layout) and compiled by glc (`--emit=ir`, the result's layout); the
two descriptions must be the same constructor with the same parameters, or
both sides must reject the operation.

Needs Triton 3.6 importable (a venv with `pip install triton==3.6.0`), so it
is a developer check, not part of make check:

    /path/to/venv/bin/python test/diff/shape_oracle.py --glc build/glc --count 500

Prints one line per mismatch and `N cases, N agree, N differ, N refused`
(refused: one side rejects what the other accepts; layouts Triton cannot even
build on the shape are not counted).
"""
import argparse
import contextlib
import importlib.util
import io
import os
import random
import re
import subprocess
import sys
import tempfile

from glcdiff.gen import layouts

from triton._C.libtriton import ir  # noqa: E402
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler.compiler import make_backend  # noqa: E402
from triton.experimental.gluon._runtime import GluonASTSource  # noqa: E402

TARGET = GPUTarget("cuda", 90, 32)


def trace(fn, warps):
    """What tracing Gluon kernel fn (no parameters) prints."""
    backend = make_backend(TARGET)
    options = backend.parse_options({"num_warps": warps})
    ctx = ir.context()
    ir.load_dialects(ctx)
    backend.load_dialects(ctx)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        GluonASTSource(fn, {}, constexprs={}).make_ir(
            TARGET, options, backend.get_codegen_implementation(options),
            backend.get_module_map(), ctx)
    return out.getvalue().strip()


def canonical(text):
    """A layout's constructor text without `gl.`, keywords, blanks and empty CGA layouts."""
    text = re.sub(r"\bgl\.", "", text)
    text = re.sub(r"\w+=", "", text)
    text = re.sub(r",\s*\[\]\)", ")", text)
    return text.replace(" ", "")


def case(rng):
    """(num_warps, shape, layout text, operation expression over `a`)."""
    kind = rng.choice(["reshape", "reshape", "permute", "join", "split"])
    warps = rng.choice([1, 2, 4, 8])
    rank = rng.choice([1, 2, 2, 3])
    bits = [rng.randint(0, 5) for _ in range(rank)]
    if kind == "split":
        bits[-1] = 1
    shape = [1 << b for b in bits]
    lay = layouts.distributed(rng, shape, warps)
    if kind == "reshape":
        total, n = sum(bits), rng.choice([1, 2, 3])
        cut = sorted(rng.randint(0, total) for _ in range(n - 1))
        parts = [b - a for a, b in zip([0] + cut, cut + [total])]
        expr = f"gl.reshape(a, {[1 << p for p in parts]})"
    elif kind == "permute":
        perm = list(range(rank))
        rng.shuffle(perm)
        expr = f"gl.permute(a, {perm})"
    elif kind == "join":
        expr = "gl.join(a, a)"
    else:
        expr = "gl.split(a)[0]"
    return warps, shape, lay.text, expr


@contextlib.contextmanager
def quiet_stderr():
    """MLIR reports rejected operations on file descriptor 2: silence it."""
    saved = os.dup(2)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def triton_side(cases, tmp):
    """Triton's result layout (canonical) or ("error", why) per case."""
    src = ["from triton.experimental import gluon",
           "from triton.experimental.gluon import language as gl"]
    for n, (_, shape, lay, expr) in enumerate(cases):
        src += ["@gluon.jit", f"def k{n}():", f"    a = gl.full({shape}, 0, gl.int32, layout={lay})",
                f"    gl.static_print({expr}.type.layout)"]
    path = os.path.join(tmp, "cases.py")
    with open(path, "w") as f:
        f.write("\n".join(src) + "\n")
    spec = importlib.util.spec_from_file_location("shape_oracle_cases", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    out = []
    for n, (warps, _, _, _) in enumerate(cases):
        try:
            with quiet_stderr():
                out.append(canonical(trace(getattr(mod, f"k{n}"), warps)))
        except Exception as e:  # Triton's errors have many types
            lines = str(e).strip().splitlines()
            out.append(("error", lines[-1][:200] if lines else type(e).__name__))
    return out


def glc_side(glc, case_, path):
    """glc's result layout (canonical) or ("error", first diagnostic)."""
    warps, shape, lay, expr = case_
    with open(path, "w") as f:
        f.write("from triton.experimental.gluon import language as gl\n"
                f"@gl.kernel(num_warps={warps})\ndef k():\n"
                f"    a = gl.full({shape}, 0, gl.i32, layout={lay})\n    b = {expr}\n")
    r = subprocess.run([glc, path, "--emit=ir"], capture_output=True, text=True)
    if r.returncode != 0:
        return ("error", (r.stderr.strip().splitlines() or ["?"])[0][:200])
    defs = dict(re.findall(r"^(#\w+) = (.*) on \[", r.stdout, re.M))
    ops = re.findall(r"= (?:reshape|permute|join|split)\b.*: tensor<\w+, \[[^\]]*\], (#\w+)>",
                     r.stdout)
    return canonical(defs[ops[0]]) if ops else canonical(lay)  # no op: the operand's layout


def main():
    """Command line: see the module's docstring."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--glc", default="build/glc")
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    cases = [case(rng) for _ in range(args.count)]
    agree = differ = refused = unbuildable = 0
    with tempfile.TemporaryDirectory() as tmp:
        want = triton_side(cases, tmp)
        for n, c in enumerate(cases):
            got = glc_side(args.glc, c, os.path.join(tmp, f"c{n}.gl"))
            w_err, g_err = isinstance(want[n], tuple), isinstance(got, tuple)
            what = f"#{n} {c[3]} of {c[2]} on {c[1]} warps={c[0]}"
            if w_err and "during parsing" in want[n][1]:
                unbuildable += 1    # Triton cannot build the operand's layout
            elif w_err and "no attribute 'layout'" in want[n][1] and not g_err:
                agree += 1          # a scalar result (split of a rank-1 tensor)
            elif w_err or g_err:
                if w_err != g_err:
                    refused += 1
                    print(f"refused {what}: triton={want[n][1] if w_err else 'ok'} "
                          f"glc={got[1] if g_err else 'ok'}")
                else:
                    agree += 1
            elif want[n] == got:
                agree += 1
            else:
                differ += 1
                print(f"differ {what}\n  triton {want[n]}\n  glc    {got}")
    print(f"{args.count - unbuildable} cases, {agree} agree, {differ} differ, {refused} refused")
    return 1 if differ or refused else 0


if __name__ == "__main__":
    sys.exit(main())
