"""Checks glc's CGA layouts (the block bases of layouts spread over the CTAs
of a cluster) against Triton 3.6's own: random layouts with a cga_layout
(Blocked, NVMMADistributed, DotOperand and Slice of those, NVMMAShared,
SwizzledShared) or block_bases (DistributedLinearLayout, SharedLinearLayout)
on random shapes, each fitted by glc (`glc layout ... --format=json`) and by
Triton, must give the same bases, basis by basis, or both must refuse.

Triton's distributed bases come from `GluonOpBuilder.to_linear_layout`. For
shared layouts Triton 3.6's to_linear_layout aborts, so a one-line Gluon
kernel allocates the buffer and reshapes it to its own shape: Triton
describes that view by its linear map (a SharedLinearLayout with offset and
block bases), which `gl.static_print` shows. Each case runs in a forked
child: Triton aborts the process on a cga_layout it rejects.

Needs Triton 3.6 importable (no GPU: only its layout code runs), so it is a
developer check, not part of make check:

    /path/to/venv/bin/python test/diff/cga_oracle.py --glc build/glc --count 600

Prints one line per mismatch and `N layouts, N agree, N differ, N refused`
(refused: a layout one side rejects and the other accepts), how many of the
agreeing ones both sides rejected, and apart the shared layouts whose view
Triton cannot print: its reshape aborts on a cga_layout with a diagonal
basis (one moving along two dims) that the allocation itself accepts.
"""
import argparse
import ast
import contextlib
import importlib.util
import io
import json
import os
import random
import re
import subprocess
import sys
import tempfile

from glcdiff.gen import layouts

from glcdiff.oracles.shape import trace
from triton._C.libtriton import gluon_ir, ir  # noqa: E402
from triton.experimental.gluon import language as gl  # noqa: E402

DIST = {"register": "reg_bases", "lane": "lane_bases", "warp": "warp_bases",
        "block": "block_bases"}
DTYPES = {8: "gl.int8", 16: "gl.float16", 32: "gl.float32", 64: "gl.float64"}


def _unit(rank, d, v):
    out = [0] * rank
    out[d] = v
    return out


def cga_layout(rng, rank, bits):
    """Random cga_layout bases for 2^bits CTAs: a grid of CTA tiles (the bits
    split over the dims, the bases in any order), sometimes with a broadcast
    (zero) basis, a basis XORed with another, or a gap (which Triton rejects)."""
    split = [0] * rank
    for _ in range(bits):
        split[rng.randrange(rank)] += 1
    bases = [_unit(rank, d, 1 << k) for d in range(rank) for k in range(split[d])]
    rng.shuffle(bases)
    r = rng.random()
    if bases and r < 0.2:
        bases[rng.randrange(len(bases))] = [0] * rank
    elif len(bases) >= 2 and r < 0.35:
        i, j = rng.sample(range(len(bases)), 2)
        bases[i] = [a ^ b for a, b in zip(bases[i], bases[j])]
    elif bases and r < 0.4:
        i = rng.randrange(len(bases))
        bases[i] = [2 * c for c in bases[i]]
    return bases


def _grid(cga, rank):
    """The CGA's size per dim: the smallest power of two above the largest coordinate."""
    out = [1] * rank
    for b in cga:
        for d in range(rank):
            while out[d] <= b[d]:
                out[d] *= 2
    return out


def _tile(shape, cga):
    return [max(1, s // g) for s, g in zip(shape, _grid(cga, len(shape)))]


def _with_cga(text, cga):
    return f"{text[:-1]}, cga_layout={cga})"


def distributed_case(rng):
    """(text, shape) of a random distributed layout with CTA bases."""
    kind = rng.choice(["blocked", "blocked", "nvmma", "dot", "slice", "linear"])
    bits = rng.choice([1, 1, 2, 2, 3, 4])
    warps = rng.choice([1, 2, 4, 8])
    if kind == "linear":
        rank = rng.choice([1, 2, 2, 3])
        shape = [1 << rng.randrange(0, 7) for _ in range(rank)]
        return linear_with_blocks(rng, shape, warps, bits), shape
    if kind in ("nvmma", "dot"):
        warps = max(warps, 4)
        shape = [1 << rng.randrange(4, 9), 1 << rng.randrange(3, 9)]
        parent = layouts.nvmma_distributed(rng, shape, warps).text
        cga = cga_layout(rng, 2, bits)
        parent = _with_cga(parent, cga)
        if kind == "nvmma":
            return parent, shape
        if rng.random() < 0.5:
            return (f"gl.DotOperandLayout(operand_index=0, parent={parent}, "
                    f"k_width={rng.choice([1, 2, 4, 8])})", shape)
        op = rng.randrange(2)
        shape = [1 << rng.randrange(0, 7), 1 << rng.randrange(0, 7)]
        shape[1 - op] = min(shape[1 - op], 16)
        blocked = _with_cga(layouts.blocked(rng, _tile(shape, cga), warps).text, cga)
        return f"gl.DotOperandLayout(operand_index={op}, parent={blocked}, k_width=0)", shape
    rank = rng.choice([1, 2, 2, 2, 3])
    shape = [1 << rng.randrange(0, 8) for _ in range(rank)]
    if kind == "slice":
        dim = rng.randrange(rank + 1)
        pshape = shape[:dim] + [rng.choice([1, 2, 4, 8, 16])] + shape[dim:]
        cga = cga_layout(rng, rank + 1, bits)
        parent = _with_cga(layouts.blocked(rng, _tile(pshape, cga), warps).text, cga)
        return f"gl.SliceLayout({dim}, {parent})", shape
    cga = cga_layout(rng, rank, bits)
    return _with_cga(layouts.blocked(rng, _tile(shape, cga), warps).text, cga), shape


def linear_with_blocks(rng, shape, warps, bits):
    """A DistributedLinearLayout whose block bases take some of the shape's
    index bits (or broadcast), the rest permuted over registers, lanes and warps."""
    rank = len(shape)
    idx = [(d, k) for d in range(rank) for k in range(shape[d].bit_length() - 1)]
    rng.shuffle(idx)
    blocks = [_unit(rank, d, 1 << k) for d, k in idx[:bits]]
    blocks += [[0] * rank] * (bits - len(blocks))
    rng.shuffle(blocks)
    idx = idx[bits:]
    slots = 5 + warps.bit_length() - 1
    nreg = max(0, len(idx) - slots)
    regs = [_unit(rank, d, 1 << k) for d, k in idx[:nreg]]
    rest = [_unit(rank, d, 1 << k) for d, k in idx[nreg:]] + [[0] * rank] * (slots - len(idx) + nreg)
    rng.shuffle(rest)
    return (f"gl.DistributedLinearLayout(reg_bases={regs}, lane_bases={rest[:5]}, "
            f"warp_bases={rest[5:]}, block_bases={blocks}, shape={list(shape)})")


def shared_case(rng):
    """(text, shape, element bits) of a random shared layout with CTA bases."""
    bits = rng.choice([1, 1, 2, 2, 3])
    ebits = rng.choice([8, 16, 16, 32])
    kind = rng.choice(["nvmma", "nvmma", "swizzled", "linear"])
    rank = 2 if kind == "nvmma" else rng.choice([1, 2, 2, 3])
    shape = [1 << rng.randrange(2, 9) for _ in range(rank)]
    cga = cga_layout(rng, rank, bits)
    tile = _tile(shape, cga)
    while max(tile) == 1:   # no offset bases: the view's repr would refuse them
        shape = [2 * s for s in shape]
        tile = _tile(shape, cga)
    if kind == "nvmma":
        lay = layouts.nvmma_shared(rng, tile, ebits) or layouts.swizzled(rng, tile, ebits)
        return _with_cga(lay.text, cga), shape, ebits
    if kind == "swizzled":
        return _with_cga(layouts.swizzled(rng, tile, ebits).text, cga), shape, ebits
    if max(tile) == 1 or any(g > s for g, s in zip(_grid(cga, rank), shape)):
        return _with_cga(layouts.swizzled(rng, tile, ebits).text, cga), shape, ebits
    offs = ast.literal_eval(layouts.shared_linear(rng, tile, ebits).text.split("=", 1)[1][:-1])
    blocks = [[c * t for c, t in zip(b, tile)] for b in cga]
    return f"gl.SharedLinearLayout(offset_bases={offs}, block_bases={blocks})", shape, ebits


def in_child(fn):
    """fn() in a forked child: its result, or ("error", why) when it raises or
    aborts (Triton aborts on cga_layouts it rejects)."""
    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rd)
        try:
            with open(os.devnull, "w") as null:
                os.dup2(null.fileno(), 2)
            out = ("ok", fn())
        except BaseException as e:  # Triton's errors have many types
            lines = str(e).strip().splitlines()
            out = ("error", lines[-1][:200] if lines else type(e).__name__)
        os.write(wr, json.dumps(out).encode())
        os._exit(0)
    os.close(wr)
    data = b""
    while chunk := os.read(rd, 1 << 16):
        data += chunk
    os.close(rd)
    _, status = os.waitpid(pid, 0)
    if not data:
        return ("error", f"Triton aborted (status {status})")
    kind, value = json.loads(data)
    return (kind, value)


def triton_distributed(text, shape):
    """Triton's bases of distributed layout `text` on shape, {kind: [[...]]}."""
    ctx = ir.context()
    ir.load_dialects(ctx)
    builder = gluon_ir.GluonOpBuilder(ctx)
    layout = eval(text, {"gl": gl})  # text made above
    ll = builder.to_linear_layout(layout._to_ir(builder), list(shape))
    return {k: [list(b) for b in getattr(ll, v)] for k, v in DIST.items()}


def triton_shared(text, shape, ebits, tmp):
    """Triton's offset and block bases of a shared layout: the SharedLinearLayout
    of the buffer reshaped to its own shape, as the traced kernel prints it."""
    path = os.path.join(tmp, "case.py")
    with open(path, "w") as f:
        f.write("from triton.experimental import gluon\n"
                "from triton.experimental.gluon import language as gl\n"
                "@gluon.jit\ndef k():\n"
                f"    s = gl.allocate_shared_memory({DTYPES[ebits]}, {shape}, {text})\n"
                f"    gl.static_print(s.reshape({shape}).type.layout)\n")
    spec = importlib.util.spec_from_file_location("cga_case", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with contextlib.redirect_stdout(io.StringIO()):
        printed = trace(mod.k, 4)
    m = re.search(r"offset_bases=(\[.*?\]\]|\[\]), block_bases=(\[.*?\]\]|\[\])", printed)
    if not m:
        raise RuntimeError(f"unexpected view layout: {printed[:200]}")
    return {"offset": ast.literal_eval(m.group(1)), "block": ast.literal_eval(m.group(2))}


def glc_bases(glc, text, shape):
    """glc's bases, or ("error", first line) when glc rejects the layout."""
    spec = re.sub(r"\bgl\.", "", text)
    r = subprocess.run([glc, "layout", spec, "--shape", ",".join(map(str, shape)),
                        "--format=json"], capture_output=True, text=True)
    if r.returncode != 0:
        return ("error", (r.stderr.strip().splitlines() or ["?"])[0][:200])
    return ("ok", json.loads(r.stdout)["bases"])


def diagonal(blocks):
    """True when a block basis has more than one nonzero coordinate."""
    return any(sum(1 for c in b if c) > 1 for b in blocks)


def main():
    """Command line: see the module's docstring."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--glc", default="build/glc")
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shared", type=float, default=0.35, help="share of shared layouts")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    agree = differ = refused = both_refuse = with_blocks = no_view = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(args.count):
            if rng.random() < args.shared:
                text, shape, ebits = shared_case(rng)
                want = in_child(lambda: triton_shared(text, shape, ebits, tmp))
            else:
                text, shape = distributed_case(rng)
                want = in_child(lambda: triton_distributed(text, shape))
            got = glc_bases(args.glc, text, shape)
            what = f"#{n} {text} on {shape}"
            if "Shared" in text and want[0] == "error" and "aborted" in want[1] and got[0] == "ok" \
                    and diagonal(got[1]["block"]):
                no_view += 1
                continue
            if want[0] == "error" or got[0] == "error":
                if want[0] != got[0]:
                    refused += 1
                    print(f"refused {what}: triton={want[1] if want[0] == 'error' else 'ok'} "
                          f"glc={got[1] if got[0] == 'error' else 'ok'}")
                else:
                    agree += 1
                    both_refuse += 1
                continue
            with_blocks += any(any(b) for b in want[1]["block"])
            if all(want[1][k] == got[1].get(k, []) for k in want[1]):
                agree += 1
            else:
                differ += 1
                print(f"differ {what}\n  triton {want[1]}\n  glc    {got[1]}")
    print(f"{args.count - no_view} layouts, {agree} agree, {differ} differ, {refused} refused "
          f"({both_refuse} rejected by both; {with_blocks} with nonzero block bases); "
          f"{no_view} shared layouts with diagonal CTA bases whose view Triton aborts on")
    return 1 if differ or refused else 0


if __name__ == "__main__":
    sys.exit(main())
