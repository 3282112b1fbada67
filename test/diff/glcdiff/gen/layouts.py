"""Random valid Gluon layouts, as source text plus the structure the generator needs.

A `Layout` is a constructor expression (`text`, valid in .gl and in Gluon), its
`kind` and `rank`, and for a SliceLayout its `dim` and `parent`. Two layouts are
treated as equal only when their text is equal (Gluon compares constructors, not
linear maps), so the generator converts whenever the texts differ.

Distributed layouts (`distributed`): Blocked, Slice, NVMMADistributed (WGMMA
accumulator), DotOperand (A operand of WGMMA, or of an FMA dot over a Blocked
parent), DistributedLinearLayout. Shared layouts (`shared`): Swizzled, NVMMA (every
swizzle width, transposed or not), SharedLinearLayout (a random bijection with
XOR-swizzled bases), PaddedSharedLayout (the identity in a random order, one or
two padding pairs). All use `num_warps` warps and powers of two.
"""
import ast
from collections import namedtuple

from glcdiff.gen.features import enabled

Layout = namedtuple("Layout", "text kind rank dim parent")


def _log2(x):
    return x.bit_length() - 1


def split_bits(rng, bits, rank):
    """Split `bits` powers of two over `rank` dims: a list of exponents."""
    out = [0] * rank
    for _ in range(bits):
        out[rng.randrange(rank)] += 1
    return out


def _order(rng, rank):
    """A dimension order, most minor first; usually row-major."""
    order = list(range(rank - 1, -1, -1))
    if rng.random() < 0.35:
        rng.shuffle(order)
    return order


def _plain(text, kind, rank):
    return Layout(text, kind, rank, None, None)


# Registers per thread a generated BlockedLayout may need for its shape. Lanes
# and warps split at random over the dims can leave a thread most of a big
# tensor (a [2, 128, 4] tile with 1024 registers gave 74k lines of PTX and a
# minute of ptxas); real kernels stay far below this.
MAX_REGS = 128


def _blocked_regs(shape, spt, tpw, wpc):
    regs = 1
    for d, n in enumerate(shape):
        regs *= spt[d] * max(1, n // (spt[d] * tpw[d] * wpc[d]))
    return regs


def blocked(rng, shape, warps):
    """A random BlockedLayout for shape over `warps` warps (at most MAX_REGS
    registers per thread when it can)."""
    rank = len(shape)
    for _ in range(16):
        spt = []
        budget = rng.choice([0, 1, 2, 2, 3, 3, 4])
        for d in range(rank):
            e = min(rng.randint(0, budget), _log2(shape[d]) if rng.random() < 0.9 else 3)
            budget -= e
            spt.append(1 << max(e, 0))
        tpw = [1 << e for e in split_bits(rng, 5, rank)]
        wpc = [1 << e for e in split_bits(rng, _log2(warps), rank)]
        if _blocked_regs(shape, spt, tpw, wpc) <= MAX_REGS:
            break
    text = f"gl.BlockedLayout({spt}, {tpw}, {wpc}, {_order(rng, rank)})"
    return _plain(text, "blocked", rank)


def nvmma_distributed(rng, shape, warps):
    """The WGMMA accumulator layout (version 3): rank 2, at least 4 warps."""
    w0 = rng.choice([w for w in (4, 8, 16, 32) if w <= warps])
    n = rng.choice([8, 16, 32, 64, 128, 256])
    k = rng.choice([8, 16, 32])
    return _plain(f"gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[{w0}, {warps // w0}], "
                  f"instr_shape=[16, {n}, {k}])", "nvmma", 2)


def dot_operand(rng, shape, warps):
    """DotOperandLayout: operand A of a WGMMA accumulator, or either operand over Blocked."""
    if warps >= 4 and rng.random() < 0.6:
        parent = nvmma_distributed(rng, shape, warps)
        return Layout(f"gl.DotOperandLayout(operand_index=0, parent={parent.text}, "
                      f"k_width={rng.choice([1, 2, 4, 8])})", "dot", 2, None, parent)
    # Over a Blocked parent each thread holds whole rows of K: keep K short.
    op = rng.randrange(2)
    if shape[1 - op] > 16:
        return blocked(rng, shape, warps)
    parent = blocked(rng, shape, warps)
    return Layout(f"gl.DotOperandLayout(operand_index={op}, parent={parent.text}, "
                  f"k_width=0)", "dot", 2, None, parent)


def _dot_regs(dot, shape):
    """Registers per thread of a DotOperandLayout over a Blocked parent on shape (rank
    2): every element of K (dim 1 - operand) times the parent's along the other dim."""
    op = int(dot.text.split("operand_index=")[1].split(",")[0])
    spt, tpw, wpc, _ = ast.literal_eval(dot.parent.text[len("gl.BlockedLayout("):-1])
    return shape[1 - op] * spt[op] * max(1, shape[op] // (spt[op] * tpw[op] * wpc[op]))


def _unit(rank, d, k):
    v = [0] * rank
    v[d] = 1 << k
    return v


def linear(rng, shape, warps):
    """DistributedLinearLayout: the shape's index bits permuted over registers, lanes
    and warps; lanes and warps left over broadcast (zero bases)."""
    rank = len(shape)
    bits = [(d, k) for d in range(rank) for k in range(_log2(shape[d]))]
    rng.shuffle(bits)
    slots = 5 + _log2(warps)
    nreg = max(0, len(bits) - slots)
    nreg = min(len(bits), nreg + rng.randint(0, 2))
    regs = [_unit(rank, *b) for b in bits[:nreg]]
    rest = [_unit(rank, *b) for b in bits[nreg:]] + [[0] * rank] * (slots - len(bits) + nreg)
    rng.shuffle(rest)
    lanes, warp_bases = rest[:5], rest[5:]
    text = (f"gl.DistributedLinearLayout(reg_bases={regs}, lane_bases={lanes}, "
            f"warp_bases={warp_bases}, block_bases=[], shape={list(shape)})")
    return _plain(text, "linear", rank)


def slice_of(parent, dim):
    """SliceLayout(dim, parent) as a Layout."""
    return Layout(f"gl.SliceLayout({dim}, {parent.text})", "slice", parent.rank - 1, dim, parent)


def slice_layout(rng, shape, warps):
    """SliceLayout(d, P) for a random parent P of one rank more."""
    dim = rng.randrange(len(shape) + 1)
    pshape = list(shape[:dim]) + [rng.choice([1, 2, 4, 8, 16])] + list(shape[dim:])
    return slice_of(distributed(rng, pshape, warps, depth=1), dim)


def distributed(rng, shape, warps, depth=0):
    """A random distributed layout for a tensor of `shape`."""
    rank = len(shape)
    kinds = [("blocked", 5), ("linear", 3)]
    if depth == 0 and rank <= 2 and enabled("slice_layouts"):
        kinds.append(("slice", 3))
    if rank == 2 and warps >= 4 and enabled("nvmma_layouts"):
        kinds.append(("nvmma", 2))
    if rank == 2 and enabled("dot_layouts"):
        kinds.append(("dot", 2))
    kind = weighted(rng, kinds)
    out = {"blocked": blocked, "linear": linear, "slice": slice_layout,
           "nvmma": nvmma_distributed, "dot": dot_operand}[kind](rng, shape, warps)
    if (depth == 0 and out.kind == "dot" and out.parent.kind == "blocked"
            and _dot_regs(out, shape) > 256):   # what glc takes (--max-elems-per-thread)
        return out.parent
    return out


def weighted(rng, pairs):
    """One item of [(item, weight)], drawn with probability proportional to weight."""
    total = sum(w for _, w in pairs)
    x = rng.uniform(0, total)
    for item, w in pairs:
        x -= w
        if x <= 0:
            return item
    return pairs[-1][0]


def slice_path(layout, dim):
    """The layout of the 1-D arange along `dim` that expands back to `layout`:
    every other dimension sliced away, the highest first."""
    out = layout
    for d in range(layout.rank - 1, -1, -1):
        if d != dim:
            out = slice_of(out, d)
    return out


# ---------------------------------------------------------------- shared layouts
# A shared layout also says which dim is contiguous (`contig`), how many rows
# of the other dims one swizzle pattern spans (`period`: a slice view must not
# cut through a pattern), and which dim is outermost in memory for glc
# (`slowest`) and whether a slice along it is one contiguous block (`whole`),
# the only slices glc accepts.
Shared = namedtuple("Shared", "text kind rank contig period slowest whole")


def swizzled(rng, shape, bits):
    """A random SwizzledSharedLayout for a buffer of shape (elements of `bits`)."""
    rank = len(shape)
    vec, per_phase, max_phase = (rng.choice([1, 2, 4, 8, 16]), rng.choice([1, 2, 4]),
                                 rng.choice([1, 2, 4, 8]))
    order = _order(rng, rank)
    return Shared(f"gl.SwizzledSharedLayout({vec}, {per_phase}, {max_phase}, {order})",
                  "swizzled", rank, order[0], per_phase * max_phase if max_phase > 1 else 1,
                  order[-1], True)


def nvmma_shared(rng, shape, bits):
    """NVMMASharedLayout with a swizzle the shape can hold (rows of at least one
    swizzle width, at least 8 of them), or None."""
    rank = len(shape)
    transposed = rank == 2 and rng.random() < 0.3
    contig = 0 if transposed else rank - 1
    rows = 1
    for d, s in enumerate(shape):
        rows *= s if d != contig else 1
    widths = [sw for sw in (0, 32, 64, 128)
              if shape[contig] * bits >= 8 * max(sw, 16) and (sw == 0 or rows >= 8)]
    if not widths:
        return None
    sw = rng.choice(widths)
    slowest = rank - 1 if transposed and sw else 0
    return Shared(f"gl.NVMMASharedLayout(swizzle_byte_width={sw}, element_bitwidth={bits}, "
                  f"rank={rank}, transposed={transposed})", "nvmma_shared", rank, contig,
                  8 if sw else 1, slowest, sw == 0 or shape[contig] * bits == 8 * sw)


def shared_linear(rng, shape, bits):
    """A bijection from offsets to the shape: permuted unit bases, some XORed with
    lower ones (a swizzle). Never sliced (period: the whole buffer)."""
    rank = len(shape)
    units = [_unit(rank, d, k) for d in range(rank) for k in range(_log2(shape[d]))]
    rng.shuffle(units)
    bases = []
    for v in units:
        if bases and rng.random() < 0.3:
            w = rng.choice(bases)
            v = [a ^ b for a, b in zip(v, w)]
        bases.append(v)
    return Shared(f"gl.SharedLinearLayout(offset_bases={bases})", "shared_linear", rank, None,
                  None, None, False)


def padded(rng, shape, bits):
    """PaddedSharedLayout over the identity in a random order: one or two pairs,
    intervals 8..256, paddings of 16 bytes or 32 (Triton 3.6 caps its vectors by
    the interval only, so a smaller padding misaligns them there). Shape-specific
    like SharedLinearLayout, so never sliced or permuted."""
    rank = len(shape)
    order = _order(rng, rank)
    unit = max(1, 128 // bits)
    intervals = rng.sample([8, 16, 32, 64, 128, 256], rng.choice([1, 1, 2]))
    pairs = [[i, unit << rng.randrange(2)] for i in intervals]
    return Shared(f"gl.PaddedSharedLayout.with_identity_for({pairs}, {list(shape)}, {order})",
                  "padded", rank, order[0], None, None, False)


def shared(rng, shape, bits, allow_linear=True, allow_padded=False):
    """A random shared layout for a buffer of `shape` with `bits`-bit elements
    (a SharedLinearLayout only with allow_linear, a PaddedSharedLayout only with
    allow_padded: both fit one shape)."""
    kinds = [("swizzled", 4)]
    if len(shape) >= 2 and enabled("nvmma_shared"):
        kinds.append(("nvmma_shared", 3))
    if allow_linear and enabled("shared_linear") and max(shape) > 1:
        kinds.append(("shared_linear", 2))
    if allow_padded and enabled("padded_shared"):
        kinds.append(("padded", 2))
    kind = weighted(rng, kinds)
    out = {"swizzled": swizzled, "nvmma_shared": nvmma_shared,
           "shared_linear": shared_linear, "padded": padded}[kind](rng, shape, bits)
    return out or swizzled(rng, shape, bits)
