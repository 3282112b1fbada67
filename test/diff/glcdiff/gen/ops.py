"""The generator's operations on scans, reductions by combine functions, register
shape operations, gather, histogram and atomics. base_ops.py draws a kernel's
own operations first; `extend` then appends one to four of these over its values,
drawn from a random stream of their own, so that the kernel's main stream (and
every earlier kernel body) is what it was before they existed. Each has a
feature switch in features.py.

  scan        gl.associative_scan with a @gl.jit combine (a + b; for integers
              also a max or min through gl.where), forward or reverse, or the
              tensor method x.cumsum, of a tensor in a BlockedLayout (Triton 3.6
              lowers scans of no other layout: "unsupported scan layout")
  reduce_fn   gl.reduce with such a combine, or of a (value, index) pair by a
              lexicographic argmax (integers: no -0.0 to tell apart)
  shape       gl.reshape, gl.permute, gl.join (then split back) of register
              tensors; the result is converted to a random layout, since the
              layouts Gluon infers are not tracked here. Joins start from a
              BlockedLayout without repeated registers: Triton 3.6's split
              rejects the joined layout otherwise (its inferred type differs
              from Gluon's)
  gather      gl.gather of a tile by an index tensor loaded in range
  histogram   gl.histogram of a 1-D i32 tensor of bin numbers, masked like its
              load (Triton 3.6 fails to lower other input widths)
  atomic      an output tile stored, a barrier, then gl.atomic_* (or the
              compare-and-swap) on it with a value tile, the old values stored
              to a second output under the same mask: every element is updated
              once, so the results are exact wherever the ranges are
Float maxima and minima stay out of combine functions: -0.0 and 0.0 compare
equal, so the winner could differ with the combination order.
"""
import math
import random

from glcdiff.gen import layouts as lay
from glcdiff.gen import ranges as R
from glcdiff.dtypes import is_float, is_int
from glcdiff.gen.features import enabled

SCAN_DTYPES = ("i32", "i64", "u32", "f32", "f16", "f64")
ATOMIC_DTYPES = {
    "add": ("i32", "u32", "i64", "u64", "f32", "f64", "f16", "bf16"),
    "and": ("i32", "u32", "i64", "u64"), "or": ("i32", "u32", "i64", "u64"),
    "xor": ("i32", "u32", "i64", "u64"),
    "max": ("i32", "u32", "i64", "u64", "f32", "f64"),
    "min": ("i32", "u32", "i64", "u64", "f32", "f64"),
    "xchg": ("i32", "u32", "i64", "u64", "f32", "f64"),
    "cas": ("i32", "u32", "i64", "u64", "f32", "f64", "f16", "bf16"),
}
SEMS = ["acq_rel", "acquire", "release", "relaxed"]
SCOPES = ["gpu", "cta", "sys"]


def _small(k, v):
    """Whether v has at most 8 elements per thread (unless its layout repeats them):
    the operations here unroll per element, and ptxas takes minutes over kernels
    of thousands of registers."""
    return bool(v.shape) and math.prod(v.shape) <= 8 * 32 * k.warps


def _plain_blocked(k, shape):
    """A BlockedLayout for shape with no more elements per thread than the shape
    has along any dim (so no register repeats an element)."""
    rng, rank = k.rng, len(shape)
    spt = [rng.choice([s for s in (1, 2, 4) if s <= shape[d]]) for d in range(rank)]
    tpw = [1 << e for e in lay.split_bits(rng, 5, rank)]
    wpc = [1 << e for e in lay.split_bits(rng, k.warps.bit_length() - 1, rank)]
    order = list(range(rank - 1, -1, -1))
    if rng.random() < 0.3:
        rng.shuffle(order)
    return lay.Layout(f"gl.BlockedLayout({spt}, {tpw}, {wpc}, {order})", "blocked", rank, None,
                      None)


def _combine_fn(k, kind):
    """A new @gl.jit combine function: `add`, `max` or `min` of two scalars, or
    `argmax` of two (value, index) pairs (the larger value, then the smaller
    index)."""
    if kind == "argmax":
        body = ("    gt = (a > b) | ((a == b) & (ai < bi))\n"
                "    return gl.where(gt, a, b), gl.where(gt, ai, bi)\n")
        params = "a, ai, b, bi"
    else:
        expr = {"add": "a + b", "max": "gl.where(a > b, a, b)",
                "min": "gl.where(a < b, a, b)"}[kind]
        body, params = f"    return {expr}\n", "a, b"
    return k.device_fn("c", params, body)


def _combined_range(kind, r, n):
    """The range of a scan or reduction by `kind` of n elements of range r."""
    if kind != "add":
        return r
    s = R.scaled_sum(r, n)
    return s if s.exact else R.inexact(s.lo, s.hi)


def op_scan(k):
    """Appends gl.associative_scan (or .cumsum) of a small tensor along one axis;
    False when none fits."""
    a = k.pick(lambda v: _small(k, v) and v.dtype in SCAN_DTYPES and R.fits(v.dtype, v.rng))
    if a is None:
        return False
    rng = k.rng
    axis = rng.randrange(len(a.shape))
    kind = "add" if is_float(a.dtype) else rng.choice(["add", "add", "max", "min"])
    r = _combined_range(kind, a.rng, a.shape[axis])
    if not R.fits(a.dtype, r):
        return False
    a = k.coerce(a, a.shape, _plain_blocked(k, a.shape))
    reverse = rng.random() < 0.4
    rev = ", reverse=True" if reverse else ""
    if kind == "add" and a.dtype in ("i32", "i64", "f32", "f64") and rng.random() < 0.3:
        text = f"{a.name}.cumsum({axis}{rev})"
    else:
        text = f"gl.associative_scan({a.name}, {axis}, {_combine_fn(k, kind)}{rev})"
    k.value(text, a.dtype, a.shape, a.layout, r, [a])
    return True


def op_reduce_fn(k):
    """Appends gl.reduce of a small tensor with a generated combine function."""
    a = k.pick(lambda v: _small(k, v) and v.dtype in SCAN_DTYPES and R.fits(v.dtype, v.rng)
               and (len(v.shape) > 1 or enabled("scalar_reduce")))
    if a is None:
        return False
    rng = k.rng
    axis = rng.randrange(len(a.shape))
    shape = a.shape[:axis] + a.shape[axis + 1:]
    layout = lay.slice_of(a.layout, axis) if shape else None
    if is_int(a.dtype) and rng.random() < 0.4:
        idx = k.pick(lambda v: v.shape == a.shape and v.dtype == "i32" and v.name != a.name
                     and v.rng.exact)
        if idx is None:
            return False
        idx = k.coerce(idx, a.shape, a.layout)
        fn = _combine_fn(k, "argmax")
        t = k.fresh("t")
        k.emit(f"{t} = gl.reduce(({a.name}, {idx.name}), {axis}, {fn})", [t])
        k.consumed.update([a.name, idx.name])
        k.value(f"{t}[0]", a.dtype, shape, layout, a.rng)
        k.value(f"{t}[1]", idx.dtype, shape, layout, idx.rng)
        return True
    kind = "add" if is_float(a.dtype) else rng.choice(["add", "max", "min"])
    r = _combined_range(kind, a.rng, a.shape[axis])
    if not R.fits(a.dtype, r):
        return False
    k.value(f"gl.reduce({a.name}, {axis}, {_combine_fn(k, kind)})", a.dtype, shape, layout, r,
            [a])
    return True


def _reshaped(rng, shape):
    """A random shape of rank 1 to 3 with shape's number of elements."""
    total = sum(s.bit_length() - 1 for s in shape)
    n = rng.choice([1, 2, 3])
    cut = sorted(rng.randint(0, total) for _ in range(n - 1))
    return [1 << (b - a) for a, b in zip([0] + cut, cut + [total])]


def op_shape(k):
    """Appends gl.reshape, gl.permute or gl.join (+ split) of a small tensor."""
    rng = k.rng
    a = k.pick(lambda v: _small(k, v) and len(v.shape) <= 3)
    if a is None:
        return False
    kind = rng.choice(["reshape", "permute", "join"])
    if kind == "permute" and len(a.shape) < 2:
        kind = "reshape"
    if kind == "join" and len(a.shape) > 2:
        kind = "reshape"
    if kind == "reshape":
        shape = _reshaped(rng, a.shape)
        text = f"gl.reshape({a.name}, {shape})"
    elif kind == "permute":
        perm = list(range(len(a.shape)))
        while perm == sorted(perm):
            rng.shuffle(perm)
        shape = [a.shape[d] for d in perm]
        text = f"gl.permute({a.name}, {perm})"
    else:
        a = k.coerce(a, a.shape, _plain_blocked(k, a.shape))
        b = k.partner(a, same_dtype=True) or a
        w = k.fresh("w")
        lo, hi = k.fresh("s"), k.fresh("s")
        k.emit([f"{w} = gl.join({a.name}, {b.name})", f"{lo}, {hi} = {w}.split()"], [w, lo, hi])
        k.consumed.update([a.name, b.name])
        if rng.random() < 0.5:
            layout = k.new_layout(a.shape)
            k.value(f"gl.convert_layout({hi}, {layout.text})", b.dtype, a.shape, layout, b.rng)
        layout = k.new_layout(a.shape + (2,))
        k.value(f"gl.convert_layout({w}, {layout.text})", a.dtype, a.shape + (2,), layout,
                R.union(a.rng, b.rng))
        return True
    layout = k.new_layout(shape)
    k.value(f"gl.convert_layout({text}, {layout.text})", a.dtype, shape, layout, a.rng, [a])
    return True


def _load_in_range(k, shape, dtype, lo, hi):
    """A new input tile of shape and dtype with values in [lo, hi] (the masked-off
    elements lo), in a layout used for that shape or a new one; (value, mask)."""
    layout = k.layout_for(shape)
    r = R.Range(lo, hi, 1.0, True)
    x = k.in_param(dtype, shape, r)
    offs, mask = k.site(shape, layout)
    m = f", mask={mask}, other={lo}" if mask else ""
    return k.value(f"gl.load({x} + {offs}{m})", dtype, shape, layout, r), mask


def op_gather(k):
    """Appends gl.gather of a small tensor by loaded in-range indices."""
    rng = k.rng
    src = k.pick(lambda v: _small(k, v) and v.dtype != "i1" and not v.dtype.startswith("f8"))
    if src is None:
        return False
    axis = rng.randrange(len(src.shape))
    shape = list(src.shape)
    shape[axis] = rng.choice([max(1, shape[axis] // 2), shape[axis], shape[axis] * 2])
    if math.prod(shape) > 8 * 32 * k.warps:
        return False
    idx, _ = _load_in_range(k, tuple(shape), "i32", 0, src.shape[axis] - 1)
    k.value(f"gl.gather({src.name}, {idx.name}, {axis})", src.dtype, tuple(shape), idx.layout,
            src.rng, [src, idx])
    return True


def op_histogram(k):
    """Appends gl.histogram of loaded values in [0, bins)."""
    rng = k.rng
    shapes = [v.shape for v in k.pool if len(v.shape) == 1] or [(math.prod(k.shape),)]
    shape = rng.choice(shapes)
    if shape[0] > 8 * 32 * k.warps:
        return False
    bins = rng.choice([8, 32, 64, 256])
    x, mask = _load_in_range(k, shape, "i32", 0, bins - 1)
    layout = k.new_layout((bins,))
    m = f", mask={mask}" if mask else ""
    k.value(f"gl.histogram({x.name}, {bins}{m}, layout={layout.text})", "i32", (bins,),
            layout, R.Range(0, shape[0], 1.0, True), [x])
    return True


def _atomic_range(op, a, b):
    """The range of op(a, b) on one element, or None when it could overflow or round."""
    if op == "add":
        return R.add(a, b)
    if op in ("max", "min"):
        return (R.maximum if op == "max" else R.minimum)(a, b)
    if op in ("and", "or", "xor"):
        if a.lo < 0 or b.lo < 0:
            return None
        return (R.Range(0, min(a.hi, b.hi), 1.0, True) if op == "and"
                else R.bits_of(R.Range(0, max(a.hi, b.hi), 1.0, True)))
    return R.union(a, b)   # xchg, cas


def op_atomic(k):
    """Appends an atomic read-modify-write (or cas) of a tensor and a partner on a
    fresh output, storing the old values into a second one."""
    rng = k.rng
    op = rng.choice(list(ATOMIC_DTYPES))
    a = k.pick(lambda v: _small(k, v) and v.dtype in ATOMIC_DTYPES[op] and R.fits(v.dtype, v.rng))
    if a is None:
        return False
    b = k.partner(a, same_dtype=True)
    if b is None:
        return False
    r = _atomic_range(op, a.rng, b.rng)
    if r is None or not R.fits(a.dtype, r):
        return False
    offs, mask = k.site(a.shape, a.layout)
    if op == "cas" and mask:
        return False   # gl.atomic_cas has no mask: masked-off elements would be touched
    y, old = (k.out_param(a.dtype, a.shape, rr) for rr in (r, a.rng))
    m = f", mask={mask}" if mask else ""
    opts = "".join(f", {key}={rng.choice(vals)!r}" for key, vals in
                   (("sem", SEMS), ("scope", SCOPES)) if rng.random() < 0.5)
    o = k.fresh("o")
    if op == "cas":
        cmp = a.name if rng.random() < 0.6 else b.name
        call = f"gl.atomic_cas({y} + {offs}, {cmp}, {b.name}{opts})"
    elif rng.random() < 0.2:
        call = f"({y} + {offs}).atomic_{op}({b.name}{m}{opts})"
    else:
        call = f"gl.atomic_{op}({y} + {offs}, {b.name}{m}{opts})"
    k.emit([f"gl.store({y} + {offs}, {a.name}{m})", "gl.thread_barrier()", f"{o} = {call}",
            f"gl.store({old} + {offs}, {o}{m})"], [o])
    k.consumed.update([a.name, b.name])
    return True


# name -> (weight, feature switch, function)
OPS = {
    "scan": (3, "scans", op_scan),
    "reduce_fn": (2, "user_reduce", op_reduce_fn),
    "shape": (3, "shape_ops", op_shape),
    "gather": (1, "gather", op_gather),
    "histogram": (1, "histogram", op_histogram),
    "atomic": (2, "atomics", op_atomic),
}


def extend(k):
    """Appends one to four of the enabled operations to kernel k."""
    ops = [(n, w) for n, (w, feature, _) in OPS.items() if enabled(feature)]
    if not ops:
        return
    main, k.rng = k.rng, random.Random(f"{k.seed}:{k.index}:ops")
    try:
        for _ in range(k.rng.randint(1, 4)):
            for _ in range(20):
                if OPS[lay.weighted(k.rng, ops)][2](k):
                    break
    finally:
        k.rng = main
