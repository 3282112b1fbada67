"""Seeded random generator of valid .gl kernels for the differential tester.

    python3 gen.py --seed S [--start I] [--count N] [--per-file K] -o DIR

writes DIR/diff_S_I.gl (K kernels `kS_I`, `kS_I+1`, ...) and DIR/diff_S_I.json (one
manifest per kernel) for kernels I .. I+N-1 of seed S. Kernel (S, I) depends on
S and I only, so any kernel can be regenerated alone (shrink.py does).

A kernel loads random inputs through masked loads with tails, runs a random
chain of operations over them and stores every value nothing else consumed.
Operations: elementwise arithmetic, bitwise and shift operators, comparisons,
gl.where, math functions, casts between every dtype, literals and runtime
scalar parameters, convert_layout between random layouts, reductions (sum, max,
min, down to scalars), expand_dims with broadcasting, shared-memory round trips
(Swizzled, NVMMA, SharedLinear layouts; index, slice, permute and reinterpret
views; value= initialisation), runtime for-loops carrying tensors, scalars and
tuples, and runtime if/else. ranges.py keeps every value free of overflow,
NaN and (for exact outputs) rounding, so glc and Triton must agree bit for bit
on exact outputs and within the dtype's tolerance on the others.

The manifest lists, per kernel: name, num_warps, grid and the parameters in
order, each an input ("in": dtype, numel, value range lo/hi/q), an output
("out": dtype, numel, compare mode "exact" or "close" with rtol/atol) or a
runtime scalar ("scalar": dtype, value).
"""
import argparse
import json
import math
import os
import random
import re
import sys
from collections import namedtuple

import layouts as lay
import ranges as R
from dtypes import DTYPES, int_range, is_float, is_int
from features import enabled

Val = namedtuple("Val", "name dtype shape layout rng")
Stmt = namedtuple("Stmt", "lines defs")

HEADER = "from triton.experimental.gluon import language as gl\n"
RTOL = {"f64": 1e-9, "f32": 1e-4, "f16": 5e-3, "bf16": 3e-2, "f8e4m3": 0.13, "f8e5m2": 0.26}
LOAD_DTYPES = [("f32", 6), ("f16", 3), ("i32", 3), ("bf16", 2), ("i8", 1), ("i16", 1),
               ("i64", 1), ("u8", 1), ("u16", 1), ("u32", 1), ("u64", 1), ("f64", 1),
               ("f8e4m3", 1), ("f8e5m2", 1), ("i1", 1)]
MATH = {"exp": (-8, 8, math.exp), "exp2": (-12, 12, lambda x: 2.0**x),
        "log": (0.1, None, math.log), "log2": (0.1, None, math.log2),
        "sqrt": (0, None, math.sqrt), "rsqrt": (0.1, None, lambda x: x**-0.5)}


def _pick(rng, pairs):
    return lay._weighted(rng, pairs)


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _fmt(v, dtype):
    """A literal of dtype's kind."""
    if DTYPES[dtype].kind == "bool":
        return "True" if v else "False"
    if is_float(dtype):
        return repr(float(v))
    return str(int(v))


KIND = {"bool": 0, "uint": 1, "int": 2, "float": 3}


def _computation(a, b, b_lit, div_or_mod):
    """Triton 3.6's computation_type_impl for tensor a and operand b (b_lit: b is
    a Python literal of b's kind); None where Triton raises."""
    da = DTYPES[a]
    lit = "f32" if b_lit and is_float(b) else ("i32" if b_lit else b)
    if b_lit and KIND[DTYPES[lit].kind] <= KIND[da.kind]:
        return "f32" if div_or_mod and a in ("f16", "bf16") else a
    s = {a, lit}
    if "f64" in s:
        return "f64"
    if "f32" in s:
        return "f32"
    if "f16" in s:
        return "f32" if div_or_mod else "f16"
    if s == {"bf16"}:
        return "f32" if div_or_mod else "bf16"
    if "bf16" in s:
        return "f32"
    if a.startswith("f8") and lit.startswith("f8"):
        return a if a == lit else "f16"
    db = DTYPES[lit]
    if not (is_int(a) and is_int(lit)):
        return None
    if da.kind == db.kind:
        return a if da.bits > db.bits else lit
    if div_or_mod:
        return None
    if da.kind == "uint":
        return a if da.bits >= db.bits else lit
    return lit if db.bits >= da.bits else a


def triton_dtype(op, a, b, b_lit=False):
    """The dtype Triton 3.6 gives `a op b`. gl.maximum/minimum turn literals into
    i32/f32 tensors and bf16 into f32 first; / and % on 16-bit floats are f32."""
    if op in ("maximum", "minimum"):
        a = "f32" if a == "bf16" else a
        b = ("f32" if is_float(b) else "i32") if b_lit else ("f32" if b == "bf16" else b)
        return _computation(a, b, False, False)
    return _computation(a, b, b_lit, op in ("/", "%", "//"))


def glc_dtype(op, a, b, b_lit=False):
    """The dtype glc gives `a op b` where it is known to differ from Triton
    (found/003-promotion-differs-from-triton.gl); else Triton's."""
    if b_lit:
        return a
    if op == "/" and a == b and a in ("f16", "bf16"):
        return a
    if op in ("maximum", "minimum") and a == b:
        return a
    if {a, b} & {"bf16"} and (is_int(a) or is_int(b)):
        return "bf16"
    if {a, b} == {"f16", "bf16"}:
        return "f32"
    return triton_dtype(op, a, b, b_lit)


def result_dtype(op, a, b, b_lit=False):
    """Triton's dtype of `a op b`, or None when Triton rejects it or (unless the
    promotion_quirks feature is on) glc types it differently."""
    t = triton_dtype(op, a, b, b_lit)
    if t is not None and not enabled("promotion_quirks") and glc_dtype(op, a, b, b_lit) != t:
        return None
    return t


def reduce_dtype(kind, dtype):
    """Triton's result dtype of gl.sum/max/min over dtype, or None as above."""
    d = DTYPES[dtype]
    if kind == "sum":
        return ("i32" if d.kind == "int" else "u32") if is_int(dtype) and d.bits < 32 else dtype
    if d.bits >= 32:
        return dtype
    if not enabled("promotion_quirks"):
        return None
    return "f32" if is_float(dtype) else "i32"


class Kernel:
    """One generated kernel: parameters, statements, launch shape."""

    def __init__(self, seed, index):
        self.seed, self.index = seed, index
        self.name = kernel_name(seed, index)
        self.rng = random.Random(f"{seed}:{index}")
        self.params = []     # manifest entries, in signature order
        self.decls = []      # their .gl declarations
        self.stmts = []
        self.pool = []
        self.consumed = set()
        self.sites = {}
        self.limits = {}
        self.helpers = []    # (name, source) of @gl.jit device functions
        self.count = 0

    # ------------------------------------------------------------ plumbing
    def fresh(self, prefix="v"):
        self.count += 1
        return f"{prefix}{self.count}"

    def emit(self, lines, defs):
        self.stmts.append(Stmt(lines if isinstance(lines, list) else [lines], set(defs)))

    def param(self, prefix, decl, entry):
        name = self.fresh(prefix)
        self.decls.append(f"{name}: {decl}")
        self.params.append(dict(entry, name=name))
        return name

    def value(self, text, dtype, shape, layout, rng, uses=()):
        name = self.fresh()
        self.emit(f"{name} = {text}", [name])
        self.consumed.update(u.name for u in uses)
        v = Val(name, dtype, tuple(shape), layout, rng)
        self.pool.append(v)
        return v

    # ------------------------------------------------------------ launch shape
    def choose_shape(self):
        rng = self.rng
        self.warps = _pick(rng, [(4, 5), (8, 2), (2, 2), (1, 1)])
        ranks = [(1, 3), (2, 6)] + ([(3, 1)] if enabled("rank3") else [])
        rank = _pick(rng, ranks)
        cap = min(12, 9 + self.warps.bit_length() - 1)
        while True:
            exps = [rng.randint(0, 7) for _ in range(rank)]
            if 4 <= sum(exps) <= cap and (rank == 1 or max(exps) <= 7):
                break
        self.shape = tuple(1 << e for e in exps)
        self.grid = [rng.choice([1, 1, 2, 3]), rng.choice([1, 1, 2]), 1]
        if self.grid[1] > 1:
            self.emit("pid = gl.program_id(0) + gl.program_id(1) * gl.num_programs(0)", ["pid"])
        else:
            self.emit("pid = gl.program_id(0)", ["pid"])
        self.programs = self.grid[0] * self.grid[1]

    def new_layout(self, shape):
        if not shape:
            return None
        return lay.distributed(self.rng, shape, self.warps)

    def layout_for(self, shape):
        """A layout already used for this shape (often) or a new one."""
        seen = [v.layout for v in self.pool if v.shape == tuple(shape)]
        if seen and self.rng.random() < 0.6:
            return self.rng.choice(seen)
        return self.new_layout(shape)

    # ------------------------------------------------------------ memory
    def limit(self, numel):
        """The i32 parameter bounding offsets of buffers of numel-element tiles."""
        if numel not in self.limits:
            total = numel * self.programs
            rng = self.rng
            value = _pick(rng, [(total, 3), (total - rng.randint(1, max(1, numel - 1)), 4),
                                (rng.randint(1, total), 1)])
            value = max(1, min(total, value))
            self.limits[numel] = (self.param("n", "gl.i32", {"role": "scalar", "dtype": "i32",
                                                             "value": value}), value, total)
        return self.limits[numel]

    def narrow_io(self, shape, dtype, layout):
        """(layout, memory order) for a global access of dtype through `layout`.
        While narrow_vector_access is off, 8- and 16-bit elements move through a
        Blocked layout with 1 or 16 bytes per thread along the contiguous dim
        (found/006-narrow-vector-access-v1.gl), converted from / to `layout`."""
        if not shape or DTYPES[dtype].bits >= 32 or enabled("narrow_vector_access"):
            return layout, None
        key = ("narrow", tuple(shape))
        if key not in self.sites:
            rank = len(shape)
            order = list(range(rank - 1, -1, -1))
            if self.rng.random() < 0.3:
                self.rng.shuffle(order)
            c, wide = order[0], 128 // max(DTYPES[dtype].bits, 8)
            spt = [1] * rank
            if shape[c] >= wide and self.rng.random() < 0.5:
                spt[c] = wide
                tpw = [1 << e for e in lay._split_bits(self.rng, 5, rank)]
            else:   # lanes across the contiguous dim: one element per access
                lane_c = min(32, shape[c]).bit_length() - 1
                tpw = [1 << e for e in lay._split_bits(self.rng, 5 - lane_c, rank)]
                tpw[c] <<= lane_c
            wpc = [1 << e for e in lay._split_bits(self.rng, self.warps.bit_length() - 1, rank)]
            self.sites[key] = (lay.Layout(f"gl.BlockedLayout({spt}, {tpw}, {wpc}, {order})",
                                          "blocked", rank, None, None), order)
        return self.sites[key]

    def site(self, shape, layout, order=None):
        """(offsets, mask or None) for tile `pid` of a buffer of shape-sized tiles,
        addressed through `layout`, with dims in memory `order` (most minor first;
        random when None)."""
        key = (tuple(shape), layout.text if layout else None)
        if key in self.sites:
            return self.sites[key]
        numel = _numel(shape)
        lim, value, total = self.limit(numel)
        if not shape:
            self.sites[key] = ("pid", None)
            return self.sites[key]
        rank = len(shape)
        if order is None:
            order = list(range(rank - 1, -1, -1))
            if self.rng.random() < 0.3:
                self.rng.shuffle(order)
        stride, strides = 1, [0] * rank
        for d in order:
            strides[d] = stride
            stride *= shape[d]
        k = self.fresh("o")
        lines, terms = [], []
        for d in range(rank):
            a = f"{k}_{d}"
            lines.append(f"{a} = gl.arange(0, {shape[d]}, layout={lay.slice_path(layout, d).text})")
            idx = ", ".join(":" if e == d else "None" for e in range(rank))
            ref = a if rank == 1 else f"{a}[{idx}]"
            terms.append(ref if strides[d] == 1 else f"{ref} * {strides[d]}")
        lines.append(f"{k} = pid * {numel} + " + " + ".join(terms))
        defs = [f"{k}_{d}" for d in range(rank)] + [k]
        mask = None
        if value < total or self.rng.random() < 0.3:
            mask = f"m{k[1:]}"
            lines.append(f"{mask} = {k} < {lim}")
            defs.append(mask)
        self.emit(lines, defs)
        self.sites[key] = (k, mask)
        return self.sites[key]

    def input_range(self, dtype):
        rng = self.rng
        d = DTYPES[dtype]
        if d.kind == "bool":
            return R.Range(0, 1, 1.0, True)
        positive = rng.random() < 0.3
        if d.kind in ("int", "uint"):
            top = rng.choice([3, 10, 50, 100]) if d.bits > 8 else rng.choice([3, 10, 20])
            lo = 1 if positive else (0 if d.kind == "uint" else -top)
            return R.Range(lo, top, 1.0, True)
        q = 2.0 ** -rng.randint(0, 3)
        k = min(rng.choice([4, 8, 16, 32, 64]), 2 ** d.precision)
        return R.Range(q if positive else -k * q, k * q, q, True)

    def op_load(self, shape=None, dtype=None):
        rng = self.rng
        shape = self.shape if shape is None else shape
        if dtype is None:
            dtype = _pick(rng, [p for p in LOAD_DTYPES if (p[0] != "i1" or enabled("bool_memory"))
                                and (not p[0].startswith("f8") or enabled("f8_memory"))])
        layout = self.layout_for(shape)
        r = self.input_range(dtype)
        x = self.param("x", f"gl.ptr[gl.{dtype}]", {
            "role": "in", "dtype": dtype, "numel": _numel(shape) * self.programs,
            "lo": r.lo, "hi": r.hi, "q": r.q})
        io, order = self.narrow_io(shape, dtype, layout)
        offs, mask = self.site(shape, io, order)
        if mask:
            other = r.lo if is_int(dtype) or dtype == "i1" else r.lo + r.q * rng.randint(
                0, int((r.hi - r.lo) / r.q))
            text = f"gl.load({x} + {offs}, mask={mask}, other={_fmt(other, dtype)})"
        else:
            text = f"gl.load({x} + {offs})"
        v = self.value(text, dtype, shape, io, r)
        return self.coerce(v, shape, layout)

    def store(self, v):
        dtype = v.dtype
        text = v.name
        if dtype == "i1" and not enabled("bool_memory"):
            dtype, text = "i8", f"{v.name}.to(gl.i8)"
        if dtype.startswith("f8") and not enabled("f8_memory"):
            dtype, text = "f32", f"{v.name}.to(gl.f32)"
        mode = "exact" if v.rng.exact else "close"
        rtol = RTOL.get(dtype, 0.0) if mode == "close" else 0.0
        y = self.param("y", f"gl.ptr[gl.{dtype}]", {
            "role": "out", "dtype": dtype, "numel": _numel(v.shape) * self.programs,
            "mode": mode, "rtol": rtol, "atol": rtol * max(R.mag(v.rng), 1.0)})
        io, order = self.narrow_io(v.shape, dtype, v.layout)
        if io is not v.layout:
            text = f"gl.convert_layout({text}, {io.text})"
        offs, mask = self.site(v.shape, io, order)
        m = f", mask={mask}" if mask else ""
        self.emit(f"gl.store({y} + {offs}, {text}{m})", [])

    # ------------------------------------------------------------ operand helpers
    def pick(self, pred=lambda v: True):
        cands = [v for v in self.pool if pred(v)]
        if not cands:
            return None
        fresh = [v for v in cands if v.name not in self.consumed]
        if fresh and self.rng.random() < 0.7:
            return self.rng.choice(fresh)
        return self.rng.choice(cands)

    def coerce(self, v, shape, layout):
        """v in `layout` (converted when the layout text differs); v.shape == shape."""
        if v.layout is None or layout is None or v.layout.text == layout.text:
            return v
        return self.value(f"gl.convert_layout({v.name}, {layout.text})", v.dtype, shape,
                          layout, v.rng, [v])

    def cast(self, v, dtype):
        return self.value(f"{v.name}.to(gl.{dtype})", dtype, v.shape, v.layout,
                          self.cast_range(v, dtype), [v])

    def cast_range(self, v, dtype):
        """The range of v.to(dtype), or None when the cast could round differently."""
        r, src = v.rng, v.dtype
        if dtype == "i1" or src == dtype:
            return None
        f8 = [t for t in (src, dtype) if t.startswith("f8")]
        if f8 and {src, dtype} - set(f8) - {"f16", "bf16", "f32"} or len(f8) == 2:
            return None  # Triton converts f8 only to and from 16/32-bit floats
        if src == "i1":
            return R.Range(0, 1, 1.0, True)
        if not R.fits(src, r):
            return None
        if is_int(dtype):
            if not r.exact:
                return None
            t = R.Range(math.trunc(r.lo), math.trunc(r.hi), 1.0, True)
            return t if R.fits(dtype, t) else None
        if R.fits(dtype, r):
            return r
        if not r.exact and R.mag(r) <= DTYPES[dtype].max * R.MARGIN:
            return r
        return None

    def partner(self, a, same_dtype=False):
        """An operand for a: a pool value of a's shape (converted to a's layout)."""
        b = self.pick(lambda v: v.shape == a.shape and v.name != a.name and v.dtype != "i1"
                      and R.fits(v.dtype, v.rng) and (not same_dtype or v.dtype == a.dtype))
        if b is None:
            return None
        return self.coerce(b, a.shape, a.layout)

    def literal(self, dtype, positive=False):
        rng = self.rng
        if is_float(dtype):
            v = rng.randint(1 if positive else -8, 8) * 0.25
        elif DTYPES[dtype].kind == "uint" or positive:
            v = rng.randint(1, 7)
        else:
            v = rng.randint(-5, 5)
        return _fmt(v, dtype), R.const(v, dtype)

    # ------------------------------------------------------------ operations
    def arith(self, a, b_text, b_rng, b_dtype, op, b_lit=False):
        """(text, dtype, range) of `a op b`, or None when it is not safe."""
        dtype = result_dtype(op, a.dtype, b_dtype, b_lit)
        if dtype is None or dtype.startswith("f8") or dtype == "i1":
            return None
        ar, br = a.rng, b_rng
        if not (R.fits(a.dtype, ar) and R.fits(b_dtype, br)):
            return None
        fl = is_float(dtype)
        if op in ("+", "-", "*"):
            r = {"+": R.add, "-": R.sub, "*": R.mul}[op](ar, br)
        elif op in ("maximum", "minimum"):
            r = (R.maximum if op == "maximum" else R.minimum)(ar, br)
        elif op == "/" and fl and (br.lo >= 0.5 or br.hi <= -0.5):
            c = [ar.lo / br.lo, ar.lo / br.hi, ar.hi / br.lo, ar.hi / br.hi]
            r = R.inexact(min(c), max(c))
        elif op in ("//", "%") and not fl and br.lo >= 1:
            r = (R.trunc_div if op == "//" else R.trunc_mod)(ar, br)
        elif op in ("&", "|", "^") and not fl and ar.lo >= 0 and br.lo >= 0:
            r = R.bits_of(R.Range(0, max(ar.hi, br.hi), 1.0, True))
            if op == "&":
                r = R.Range(0, min(ar.hi, br.hi), 1.0, True)
        elif op in ("<<", ">>") and not fl and br.lo >= 0 and br.hi <= 4 and b_dtype == dtype:
            k = int(br.hi)
            r = R.Range(ar.lo * 2**k, ar.hi * 2**k, 1.0, True) if op == "<<" else R.Range(
                min(ar.lo, 0), max(ar.hi, 0), 1.0, True)
            if op == "<<" and ar.lo < 0:
                return None
        else:
            return None
        if not R.fits(dtype, r):
            return None
        if op in ("maximum", "minimum"):
            return f"gl.{op}({a.name}, {b_text})", dtype, r
        return f"{a.name} {op} {b_text}", dtype, r

    def binary_operand(self, a, op):
        """(text, range, dtype, uses, literal?) of a second operand for `a op _`."""
        rng = self.rng
        positive = op in ("/", "//", "%")
        if op in ("<<", ">>"):
            k = rng.randint(0, 3)
            return str(k), R.Range(k, k, 1.0, True), a.dtype, [], True
        choice = rng.random()
        if choice < 0.25 or (positive and choice < 0.6):
            text, r = self.literal(a.dtype, positive)
            return text, r, a.dtype, [], True
        if choice < 0.35 and a.dtype in ("i32", "f32"):
            value = rng.randint(1, 6) * (0.5 if a.dtype == "f32" else 1)
            s = self.param("s", f"gl.{a.dtype}", {"role": "scalar", "dtype": a.dtype,
                                                   "value": value})
            return s, R.const(value, a.dtype), a.dtype, [], False
        b = self.partner(a, same_dtype=rng.random() < 0.6)
        if b is None:
            text, r = self.literal(a.dtype, positive)
            return text, r, a.dtype, [], True
        return b.name, b.rng, b.dtype, [b], False

    def ops_for(self, dtype):
        if is_float(dtype):
            return ["+", "-", "*", "/", "maximum", "minimum"]
        return ["+", "-", "*", "//", "%", "&", "|", "^", "<<", ">>", "maximum", "minimum"]

    def op_binary(self):
        a = self.pick(lambda v: v.dtype != "i1" and not v.dtype.startswith("f8")
                      and R.fits(v.dtype, v.rng))
        if a is None:
            return False
        op = self.rng.choice(self.ops_for(a.dtype))
        b_text, b_rng, b_dtype, uses, lit = self.binary_operand(a, op)
        res = self.arith(a, b_text, b_rng, b_dtype, op, lit)
        if res is None:
            return False
        text, dtype, r = res
        if uses and enabled("device_functions") and self.rng.random() < 0.25:
            text = self.helper(self.arith(a._replace(name="a"), "b", b_rng, b_dtype, op, lit)[0],
                               a.name, b_text)
        self.value(text, dtype, a.shape, a.layout, r, [a] + uses)
        return True

    def helper(self, body, *args):
        """A call of a new @gl.jit function returning `body` (over a, b, ...)."""
        name = f"h{self.seed}_{self.index}_{len(self.helpers)}"
        params = ", ".join("ab"[:len(args)])
        self.helpers.append((name, f"@gl.jit\ndef {name}({params}):\n    return {body}\n"))
        return f"{name}({', '.join(args)})"

    def op_unary(self):
        rng = self.rng
        a = self.pick(lambda v: v.dtype != "i1" and not v.dtype.startswith("f8")
                      and R.fits(v.dtype, v.rng))
        if a is None:
            return False
        r, d = a.rng, a.dtype
        choice = rng.choice(["neg", "abs", "invert", "math"])
        if choice == "math" and d == "f32":
            name = rng.choice(sorted(MATH))
            lo, hi, fn = MATH[name]
            if r.lo < lo or (hi is not None and r.hi > hi) or (name in ("exp", "exp2") and r.lo < -20):
                return False
            out = R.inexact(fn(max(r.lo, 1e-30) if lo > 0 else r.lo), fn(r.hi))
            if name == "rsqrt":
                out = R.inexact(fn(r.hi), fn(r.lo))
            text = f"gl.{name}({a.name})"
        elif choice == "neg" and DTYPES[d].kind != "uint":
            out, text = R.neg(r), f"-{a.name}"
        elif choice == "abs" and DTYPES[d].kind != "uint":
            out, text = R.absolute(r), f"gl.abs({a.name})"
        elif choice == "invert" and DTYPES[d].kind == "int":
            out, text = R.Range(-r.hi - 1, -r.lo - 1, 1.0, True), f"~{a.name}"
        else:
            return False
        if not R.fits(d, out):
            return False
        self.value(text, d, a.shape, a.layout, out, [a])
        return True

    def op_compare(self):
        a = self.pick(lambda v: v.dtype != "i1" and v.rng.exact and R.fits(v.dtype, v.rng)
                      and not v.dtype.startswith("f8"))
        if a is None:
            return False
        if self.rng.random() < 0.4:
            b_text, _ = self.literal(a.dtype)
            uses = []
        else:
            b = self.partner(a, same_dtype=True)
            if b is None or not b.rng.exact:
                return False
            b_text, uses = b.name, [b]
        op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
        self.value(f"{a.name} {op} {b_text}", "i1", a.shape, a.layout,
                   R.Range(0, 1, 1.0, True), [a] + uses)
        return True

    def op_logical(self):
        a = self.pick(lambda v: v.dtype == "i1")
        if a is None:
            return False
        b = self.pick(lambda v: v.dtype == "i1" and v.shape == a.shape and v.name != a.name)
        if b is None:
            return False
        b = self.coerce(b, a.shape, a.layout)
        op = self.rng.choice(["&", "|", "^"])
        self.value(f"{a.name} {op} {b.name}", "i1", a.shape, a.layout, a.rng, [a, b])
        return True

    def op_where(self):
        c = self.pick(lambda v: v.dtype == "i1" and v.shape)
        if c is None:
            return False
        a = self.pick(lambda v: v.shape == c.shape and v.dtype != "i1")
        if a is None:
            return False
        a = self.coerce(a, a.shape, c.layout)
        if (self.rng.random() < 0.3 and R.fits(a.dtype, a.rng) and not a.dtype.startswith("f8")
                and result_dtype("where", a.dtype, a.dtype, True) == a.dtype):
            b_text, b_rng = self.literal(a.dtype)
            uses = []
        else:
            b = self.pick(lambda v: v.shape == c.shape and v.dtype == a.dtype and v.name != a.name)
            if b is None:
                return False
            b = self.coerce(b, b.shape, c.layout)
            b_text, b_rng, uses = b.name, b.rng, [b]
        r = R.union(a.rng, b_rng)
        self.value(f"gl.where({c.name}, {a.name}, {b_text})", a.dtype, a.shape, c.layout, r,
                   [c, a] + uses)
        return True

    def op_cast(self):
        a = self.pick(lambda v: True)
        if a is None:
            return False
        dtype = _pick(self.rng, [p for p in LOAD_DTYPES if p[0] != "i1"])
        if self.cast_range(a, dtype) is None:
            return False
        self.cast(a, dtype)
        return True

    def op_convert(self):
        a = self.pick(lambda v: v.shape)
        if a is None:
            return False
        layout = self.new_layout(a.shape)
        self.value(f"gl.convert_layout({a.name}, {layout.text})", a.dtype, a.shape, layout,
                   a.rng, [a])
        return True

    def op_reduce(self):
        a = self.pick(lambda v: v.shape and v.dtype != "i1" and not v.dtype.startswith("f8")
                      and R.fits(v.dtype, v.rng)
                      and (len(v.shape) > 1 or enabled("scalar_reduce")))
        if a is None:
            return False
        axis = self.rng.randrange(len(a.shape))
        kind = self.rng.choice(["sum", "sum", "max", "min"])
        dtype, r = reduce_dtype(kind, a.dtype), a.rng
        if dtype is None:
            return False
        if kind == "sum":
            r = R.scaled_sum(r, a.shape[axis])
            if not r.exact:
                r = R.inexact(r.lo, r.hi)
        if not R.fits(dtype, r):
            return False
        shape = a.shape[:axis] + a.shape[axis + 1:]
        layout = lay.slice_of(a.layout, axis) if shape else None
        self.value(f"gl.{kind}({a.name}, axis={axis})", dtype, shape, layout, r, [a])
        return True

    def op_expand(self):
        """b (rank r) -> expand_dims into the layout of a rank r+1 value p, then p op b."""
        p = self.pick(lambda v: len(v.shape) >= 2 and v.dtype != "i1"
                      and not v.dtype.startswith("f8") and R.fits(v.dtype, v.rng))
        if p is None:
            return False
        d = self.rng.randrange(len(p.shape))
        shape = p.shape[:d] + p.shape[d + 1:]
        b = self.pick(lambda v: v.shape == shape and v.dtype != "i1" and R.fits(v.dtype, v.rng)
                      and not v.dtype.startswith("f8"))
        if b is None:
            return False
        b = self.coerce(b, shape, lay.slice_of(p.layout, d))
        eshape = p.shape[:d] + (1,) + p.shape[d + 1:]
        if self.rng.random() < 0.5 and len(eshape) <= 3:
            idx = ", ".join("None" if e == d else ":" for e in range(len(eshape)))
            text = f"{b.name}[{idx}]"
        else:
            text = f"gl.expand_dims({b.name}, {d})"
        e = self.value(text, b.dtype, eshape, p.layout, b.rng, [b])
        op = self.rng.choice(["+", "-", "*", "maximum", "minimum"])
        res = self.arith(p, e.name, e.rng, e.dtype, op)
        if res is None:
            return True
        text, dtype, r = res
        self.value(text, dtype, p.shape, p.layout, r, [p, e])
        return True

    def op_full(self):
        shape = self.rng.choice([v.shape for v in self.pool if v.shape] or [self.shape])
        dtype = _pick(self.rng, [p for p in LOAD_DTYPES if p[0] != "i1"])
        layout = self.layout_for(shape)
        if self.rng.random() < 0.3:
            self.value(f"gl.zeros({list(shape)}, gl.{dtype}, layout={layout.text})", dtype,
                       shape, layout, R.Range(0, 0, 1.0, True))
            return True
        text, r = self.literal(dtype)
        if not R.fits(dtype, r):
            return False
        self.value(f"gl.full({list(shape)}, {text}, gl.{dtype}, layout={layout.text})", dtype,
                   shape, layout, r)
        return True

    # ------------------------------------------------------------ shared memory
    def op_smem(self):
        """Registers -> shared memory -> registers, through a random shared layout and
        view; the load may use another layout (or dtype, through _reinterpret)."""
        rng = self.rng
        a = self.pick(lambda v: v.shape and v.dtype != "i1")
        if a is None:
            return False
        dt, shape, bits = a.dtype, list(a.shape), DTYPES[a.dtype].bits
        name = self.fresh("smem")
        view = _pick(rng, [("plain", 3), ("value", 1), ("index", 2 if enabled("smem_index") else 0),
                           ("slice", 2 if enabled("smem_slice") and len(shape) > 1 else 0),
                           ("permute", 2 if enabled("smem_permute") and len(shape) == 2 else 0),
                           ("reinterpret", 1 if enabled("smem_reinterpret") else 0)])
        base = shape[::-1] if view == "permute" else shape
        slayout = lay.shared(rng, base, bits, allow_linear=view in ("plain", "value", "reinterpret"))
        alloc_shape, access = base, name
        out_shape, out_dtype, out_rng = tuple(shape), dt, a.rng
        if view == "index":
            nb = rng.choice([2, 3, 4])
            alloc_shape = [nb] + shape
            j = str(rng.randrange(nb)) if rng.random() < 0.5 else f"pid % {nb}"
            access = f"{name}.index({j})"
        elif view == "slice":
            if enabled("smem_strided_slice"):
                dims = [d for d in range(len(shape)) if d != slayout.contig
                        and shape[d] % slayout.period == 0]
            else:
                d = slayout.slowest
                dims = [d] if (slayout.whole and d != slayout.contig
                               and shape[d] % slayout.period == 0) else []
            if not dims:
                return False
            d, k = rng.choice(dims), rng.choice([2, 4])
            alloc_shape = shape[:d] + [shape[d] * k] + shape[d + 1:]
            access = f"{name}.slice({rng.randrange(k) * shape[d]}, {shape[d]}, dim={d})"
        elif view == "permute":
            access = f"{name}.permute([1, 0])"
        lines = []
        if view == "value":
            lines.append(f"{name} = gl.allocate_shared_memory(gl.{dt}, {alloc_shape}, "
                         f"{slayout.text}, {a.name})")
        else:
            lines.append(f"{name} = gl.allocate_shared_memory(gl.{dt}, {alloc_shape}, "
                         f"{slayout.text})")
            lines.append(f"{access}.store({a.name})")
        lines.append("gl.thread_barrier()")
        self.emit(lines, [name])
        self.consumed.add(a.name)
        if view == "reinterpret":
            twins = [d for d in DTYPES if DTYPES[d].bits == bits and d != dt and d != "i1"]
            out_dtype = rng.choice(twins)
            access = f"{name}._reinterpret(gl.{out_dtype}, {shape}, {slayout.text})"
            lo, hi = int_range(out_dtype) if is_int(out_dtype) else (-math.inf, math.inf)
            out_rng = R.Range(lo, hi, 1.0, is_int(out_dtype))
        if view == "permute" and rng.random() < 0.5:
            access, out_shape = name, tuple(base)
        layout = a.layout if out_shape == a.shape and rng.random() < 0.3 else self.new_layout(
            out_shape)
        self.value(f"{access}.load({layout.text})", out_dtype, out_shape, layout, out_rng)
        return True

    # ------------------------------------------------------------ control flow
    def op_loop(self):
        rng = self.rng
        a = self.pick(lambda v: v.dtype != "i1" and not v.dtype.startswith("f8")
                      and R.fits(v.dtype, v.rng))
        if a is None:
            return False
        trips = rng.randint(1, 4)
        if rng.random() < 0.5:
            t_text = self.param("t", "gl.i32", {"role": "scalar", "dtype": "i32", "value": trips})
        else:
            t_text = str(trips)
        i = self.fresh("i")
        c = self.fresh("c")
        kind = _pick(rng, [("acc", 3), ("max", 1), ("counter", 2),
                           ("tuple", 2 if enabled("loop_tuples") else 0)])
        if kind == "tuple":
            b = self.partner(a, same_dtype=True)
            if b is None:
                return False
            lines = [f"{c} = ({a.name}, {b.name})", f"for {i} in range({t_text}):",
                     f"    {c} = ({c}[1], {c}[0])"]
            self.emit(lines, [c, i])
            self.value(f"{c}[0]", a.dtype, a.shape, a.layout, R.union(a.rng, b.rng), [a, b])
            return True
        if kind == "counter":
            step = rng.randint(1, 3)
            r = R.Range(0, step * trips + (trips - 1) * trips // 2, 1.0, True)
            lines = [f"{c} = 0", f"for {i} in range({t_text}):", f"    {c} += {i} + {step}"]
            res = self.arith(a, c, r, "i32", rng.choice(["+", "-", "maximum"]))
            if res is None:
                return False
            self.emit(lines, [c, i])
            text, dtype, rr = res
            self.value(text, dtype, a.shape, a.layout, rr, [a])
            return True
        b = self.partner(a, same_dtype=True)
        if b is None:
            return False
        if result_dtype("+" if kind == "acc" else "maximum", a.dtype, a.dtype) != a.dtype:
            return False
        if kind == "acc":
            step = R.Range(min(b.rng.lo * trips, 0), max(b.rng.hi * trips, 0), b.rng.q, b.rng.exact)
            r = R.add(a.rng, step)
            body = f"    {c} = {c} + {b.name}"
        else:
            r = R.maximum(a.rng, b.rng)
            body = f"    {c} = gl.maximum({c}, {b.name})"
        if not R.fits(a.dtype, r):
            return False
        if enabled("while_loops") and rng.random() < 0.3:
            self.emit([f"{c} = {a.name}", f"{i} = 0", f"while {i} < {t_text}:", body,
                       f"    {i} += 1"], [c, i])
        else:
            self.emit([f"{c} = {a.name}", f"for {i} in range({t_text}):", body], [c, i])
        self.consumed.update([a.name, b.name])
        self.pool.append(Val(c, a.dtype, a.shape, a.layout, r))
        return True

    def op_if(self):
        a = self.pick(lambda v: v.dtype != "i1" and not v.dtype.startswith("f8")
                      and R.fits(v.dtype, v.rng))
        if a is None:
            return False
        b = self.partner(a, same_dtype=True)
        if b is None:
            return False
        ops = self.rng.sample(["+", "-", "maximum", "minimum"], 2)
        res = [self.arith(a, b.name, b.rng, b.dtype, op) for op in ops]
        if None in res or res[0][1] != res[1][1]:
            return False
        c = self.fresh("c")
        cond = self.rng.choice(["pid % 2 == 0", "pid > 0", f"{self.limit(_numel(self.shape))[0]} > 5"])
        self.emit([f"if {cond}:", f"    {c} = {res[0][0]}", "else:", f"    {c} = {res[1][0]}"], [c])
        self.consumed.update([a.name, b.name])
        self.pool.append(Val(c, res[0][1], a.shape, a.layout, R.union(res[0][2], res[1][2])))
        return True

    # ------------------------------------------------------------ driver
    OPS = [("binary", 10), ("unary", 4), ("compare", 3), ("logical", 1), ("where", 3),
           ("cast", 4), ("convert", 5), ("reduce", 4), ("expand", 3), ("full", 1),
           ("smem", 4), ("load", 2), ("loop", 2), ("if", 1)]

    def generate(self):
        rng = self.rng
        self.choose_shape()
        for _ in range(rng.randint(1, 2)):
            self.op_load()
        ops = [(n, w) for n, w in self.OPS
               if (n != "loop" or enabled("loops")) and (n != "if" or enabled("runtime_if"))]
        steps = rng.randint(3, 16)
        tries = 0
        while steps > 0 and tries < 200:
            tries += 1
            if getattr(self, "op_" + _pick(rng, ops))():
                steps -= 1
        leaves = [v for v in self.pool if v.name not in self.consumed]
        rng.shuffle(leaves)
        for v in (leaves[:4] or self.pool[-1:]):
            self.store(v)
        return self

    def kept(self, keep):
        """(statements, parameter indices) left when only statements `keep` stay
        (None: all); a parameter no kept statement names goes too."""
        stmts = [s for k, s in enumerate(self.stmts) if keep is None or k in keep]
        names = set(re.findall(r"[A-Za-z_]\w*", " ".join(ln for s in stmts for ln in s.lines)))
        params = [i for i, p in enumerate(self.params) if keep is None or p["name"] in names]
        return stmts, params

    def text(self, keep=None):
        """The kernel's .gl source; `keep` (statement indices) drops the others."""
        stmts, params = self.kept(keep)
        code = " ".join(ln for st in stmts for ln in st.lines)
        out = [src + "\n" for name, src in self.helpers if name + "(" in code]
        out += [f"@gl.kernel(num_warps={self.warps})",
               f"def {self.name}(" + ", ".join(self.decls[i] for i in params) + "):"]
        for s in stmts:
            out += ["    " + line for line in s.lines]
        return "\n".join(out) + "\n"

    def manifest(self, keep=None):
        return {"name": self.name, "seed": self.seed, "index": self.index,
                "num_warps": self.warps, "grid": self.grid,
                "params": [self.params[i] for i in self.kept(keep)[1]]}


def kernel_name(seed, index):
    """Unique across seeds, so that kernels of several seeds share a bundle."""
    return f"k{seed}_{index}"


def kernel(seed, index):
    """Kernel `index` of `seed`, generated."""
    return Kernel(seed, index).generate()


def depends(stmts):
    """For each statement, the indices of earlier statements it reads a name of."""
    out, owner = [], {}
    for k, s in enumerate(stmts):
        names = set(re.findall(r"[A-Za-z_]\w*", " ".join(s.lines)))
        out.append({owner[n] for n in names if n in owner})
        for d in s.defs:
            owner.setdefault(d, k)
    return out


def closure(stmts, keep):
    """keep minus every statement that reads a name whose definition was dropped."""
    deps = depends(stmts)
    kept = set()
    for k in range(len(stmts)):
        if k in keep and deps[k] <= kept:
            kept.add(k)
    return kept


def write_file(path, kernels, keeps=None):
    """One .gl file with the kernels and its manifest beside it (PATH.json)."""
    keeps = keeps or {}
    with open(path, "w") as f:
        f.write(f"# Generated by test/diff/gen.py: kernels {kernels[0].index}.."
                f"{kernels[-1].index} of seed {kernels[0].seed}.\n" + HEADER)
        for k in kernels:
            f.write("\n\n" + k.text(keeps.get(k.index)))
    with open(os.path.splitext(path)[0] + ".json", "w") as f:
        json.dump([k.manifest(keeps.get(k.index)) for k in kernels], f, indent=0)


def generate_files(seed, start, count, per_file, outdir):
    """Write kernels start..start+count-1 of seed in files of per_file; returns the paths."""
    os.makedirs(outdir, exist_ok=True)
    paths = []
    for first in range(start, start + count, per_file):
        last = min(first + per_file, start + count)
        path = os.path.join(outdir, f"diff_{seed}_{first}.gl")
        write_file(path, [kernel(seed, i) for i in range(first, last)])
        paths.append(path)
    return paths


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=8)
    ap.add_argument("--per-file", type=int, default=8)
    ap.add_argument("-o", "--outdir", required=True)
    args = ap.parse_args(argv)
    for p in generate_files(args.seed, args.start, args.count, args.per_file, args.outdir):
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
