"""Checks glc's layout algebra against Triton 3.6's own: random distributed
layouts (Blocked, Slice, NVMMADistributed, DotOperand) on random shapes, each
fitted by glc (`glc layout ... --format=json`) and by Triton's
`GluonOpBuilder.to_linear_layout`, must give the same bases, basis by basis.

Needs Triton 3.6 importable (a venv with `pip install triton==3.6.0`; no GPU:
only its layout code runs), so it is a developer check, not part of make check:

    /path/to/venv/bin/python test/diff/layout_oracle.py --glc build/glc --count 2000

Prints one line per mismatch and `N layouts, N agree, N differ, N refused`
(refused: a layout one side rejects and the other accepts).
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys

from glcdiff.gen import layouts

from triton._C.libtriton import gluon_ir, ir  # noqa: E402
from triton.experimental.gluon import language as gl  # noqa: E402

NAMES = {"register": "reg_bases", "lane": "lane_bases", "warp": "warp_bases", "block": "block_bases"}


def triton_bases(builder, text, shape):
    """Triton's bases of layout `text` (constructor syntax) fitted to shape."""
    layout = eval(text, {"gl": gl})  # text made by layouts.py
    ll = builder.to_linear_layout(layout._to_ir(builder), list(shape))
    return {k: [list(b) for b in getattr(ll, v)] for k, v in NAMES.items()}


def glc_bases(glc, text, shape):
    """glc's bases, or None when glc rejects the layout."""
    spec = re.sub(r"\bgl\.", "", text)
    r = subprocess.run([glc, "layout", spec, "--shape", ",".join(map(str, shape)),
                        "--format=json"], capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return json.loads(r.stdout)["bases"], ""


def main():
    """Command line: see the module's docstring."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--glc", default="build/glc")
    ap.add_argument("--count", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    agree = differ = refused = 0
    for n in range(args.count):
        rank = rng.choice([1, 2, 2, 2, 3])
        shape = [1 << rng.randrange(0, 8) for _ in range(rank)]
        warps = rng.choice([1, 2, 4, 8])
        lay = layouts.distributed(rng, shape, warps)
        try:
            want = triton_bases(builder, lay.text, shape)
        except Exception as e:  # Triton rejects it
            want, why_t = None, str(e).splitlines()[0] if str(e) else type(e).__name__
        got, why_g = glc_bases(args.glc, lay.text, shape)
        if want is None or got is None:
            if (want is None) != (got is None):
                refused += 1
                print(f"refused #{n}: {lay.text} on {shape} warps={warps}: "
                      f"triton={'ok' if want else why_t} glc={'ok' if got else why_g}")
            else:
                agree += 1
            continue
        if all(want[k] == got.get(k, []) for k in want):
            agree += 1
        else:
            differ += 1
            print(f"differ #{n}: {lay.text} on {shape} warps={warps}\n  triton {want}\n  glc    {got}")
    print(f"{args.count} layouts, {agree} agree, {differ} differ, {refused} refused")
    return 1 if differ or refused else 0


if __name__ == "__main__":
    sys.exit(main())
