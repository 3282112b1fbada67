"""The generator's kernel under construction: its random stream, parameters and
their manifest entries, statements, pool of values, launch shape and layouts,
the global loads and stores of its tiles (offsets and masks with tails), the
operand helpers every operation draws through, and its .gl source. The
operations themselves are in base_ops.py and ops.py; generate.py drives them.

A value is a Val (name, dtype, shape, layout, value range); a statement is a
Stmt (its lines and the names it defines), so that shrink.py can drop
statements and the names they define together.
"""
import math
import random
import re
from collections import namedtuple

from glcdiff.gen import erase
from glcdiff.gen import layouts as lay
from glcdiff.gen import ranges as R
from glcdiff.dtypes import DTYPES, is_float, is_int
from glcdiff.gen.features import enabled

Val = namedtuple("Val", "name dtype shape layout rng")
# layout: the distributed layout of a site's offsets (Kernel.site), for erase.py
Stmt = namedtuple("Stmt", "lines defs layout", defaults=(None,))

RTOL = {"f64": 1e-9, "f32": 1e-4, "f16": 5e-3, "bf16": 3e-2, "f8e4m3": 0.13, "f8e5m2": 0.26}
LOAD_DTYPES = [("f32", 6), ("f16", 3), ("i32", 3), ("bf16", 2), ("i8", 1), ("i16", 1),
               ("i64", 1), ("u8", 1), ("u16", 1), ("u32", 1), ("u64", 1), ("f64", 1),
               ("f8e4m3", 1), ("f8e5m2", 1), ("i1", 1)]


def _fmt(v, dtype):
    """A literal of dtype's kind."""
    if DTYPES[dtype].kind == "bool":
        return "True" if v else "False"
    if is_float(dtype):
        return repr(float(v))
    return str(int(v))


def kernel_name(seed, index):
    """Unique across seeds, so that kernels of several seeds share a bundle."""
    return f"k{seed}_{index}"


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
        """A new value name: prefix and a counter."""
        self.count += 1
        return f"{prefix}{self.count}"

    def emit(self, lines, defs, layout=None):
        """Append a statement: its source lines, the names it defines and, for a
        site, the layout its offsets are built in."""
        self.stmts.append(Stmt(lines if isinstance(lines, list) else [lines], set(defs),
                               layout))

    def param(self, prefix, decl, entry):
        """A new kernel parameter named prefix+N, declared `decl`, with its manifest entry."""
        name = self.fresh(prefix)
        self.decls.append(f"{name}: {decl}")
        self.params.append(dict(entry, name=name))
        return name

    def scalar_param(self, prefix, dtype, value):
        """A new runtime scalar parameter of dtype, passed `value`."""
        return self.param(prefix, f"gl.{dtype}", {"role": "scalar", "dtype": dtype,
                                                  "value": value})

    def in_param(self, dtype, shape, r):
        """A new input pointer for shape-sized tiles of dtype, one per program,
        filled with values of range r."""
        return self.param("x", f"gl.ptr[gl.{dtype}]", {
            "role": "in", "dtype": dtype, "numel": math.prod(shape) * self.programs,
            "lo": r.lo, "hi": r.hi, "q": r.q})

    def out_param(self, dtype, shape, r):
        """A new output pointer for shape-sized tiles of dtype holding values of
        range r: compared exactly where r is exact, else within dtype's tolerance."""
        mode = "exact" if r.exact else "close"
        rtol = RTOL.get(dtype, 0.0) if mode == "close" else 0.0
        return self.param("y", f"gl.ptr[gl.{dtype}]", {
            "role": "out", "dtype": dtype, "numel": math.prod(shape) * self.programs,
            "mode": mode, "rtol": rtol, "atol": rtol * max(R.mag(r), 1.0)})

    def device_fn(self, prefix, params, body):
        """The name of a new @gl.jit function of `params` whose body is `body`
        (indented lines); the kernel's source carries it while a statement calls it."""
        name = f"{prefix}{self.seed}_{self.index}_{len(self.helpers)}"
        self.helpers.append((name, f"@gl.jit\ndef {name}({params}):\n{body}"))
        return name

    def value(self, text, dtype, shape, layout, rng, uses=()):
        """A new pool value `NAME = text` of dtype, shape, layout and range rng;
        `uses` (pool values it reads) count as consumed."""
        name = self.fresh()
        self.emit(f"{name} = {text}", [name])
        self.consumed.update(u.name for u in uses)
        v = Val(name, dtype, tuple(shape), layout, rng)
        self.pool.append(v)
        return v

    # ------------------------------------------------------------ launch shape
    def choose_shape(self):
        """Draw num_warps, the tile shape (rank 1 to 3, powers of two) and the grid."""
        rng = self.rng
        self.warps = lay.weighted(rng, [(4, 5), (8, 2), (2, 2), (1, 1)])
        ranks = [(1, 3), (2, 6)] + ([(3, 1)] if enabled("rank3") else [])
        rank = lay.weighted(rng, ranks)
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
        """A new random distributed layout for shape (None for a scalar)."""
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
            value = lay.weighted(rng, [(total, 3), (total - rng.randint(1, max(1, numel - 1)), 4),
                                        (rng.randint(1, total), 1)])
            value = max(1, min(total, value))
            self.limits[numel] = (self.scalar_param("n", "i32", value), value, total)
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
                tpw = [1 << e for e in lay.split_bits(self.rng, 5, rank)]
            else:   # lanes across the contiguous dim: one element per access
                lane_c = min(32, shape[c]).bit_length() - 1
                tpw = [1 << e for e in lay.split_bits(self.rng, 5 - lane_c, rank)]
                tpw[c] <<= lane_c
            wpc = [1 << e for e in lay.split_bits(self.rng, self.warps.bit_length() - 1, rank)]
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
        numel = math.prod(shape)
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
        self.emit(lines, defs, layout.text if layout else None)
        self.sites[key] = (k, mask)
        return self.sites[key]

    def input_range(self, dtype):
        """A random value range for an input of dtype (small multiples of a quantum)."""
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
        """Add an input parameter and a masked gl.load of one tile of it (shape and
        dtype random unless given); returns the loaded pool value."""
        rng = self.rng
        shape = self.shape if shape is None else shape
        if dtype is None:
            dtype = lay.weighted(rng, [p for p in LOAD_DTYPES
                                        if (p[0] != "i1" or enabled("bool_memory"))
                                        and (not p[0].startswith("f8") or enabled("f8_memory"))])
        layout = self.layout_for(shape)
        r = self.input_range(dtype)
        x = self.in_param(dtype, shape, r)
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
        """Add an output parameter and a masked gl.store of value v into it (i1 and
        f8 widened while their memory features are off)."""
        dtype = v.dtype
        text = v.name
        if dtype == "i1" and not enabled("bool_memory"):
            dtype, text = "i8", f"{v.name}.to(gl.i8)"
        if dtype.startswith("f8") and not enabled("f8_memory"):
            dtype, text = "f32", f"{v.name}.to(gl.f32)"
        y = self.out_param(dtype, v.shape, v.rng)
        io, order = self.narrow_io(v.shape, dtype, v.layout)
        if io is not v.layout:
            text = f"gl.convert_layout({text}, {io.text})"
        offs, mask = self.site(v.shape, io, order)
        m = f", mask={mask}" if mask else ""
        self.emit(f"gl.store({y} + {offs}, {text}{m})", [])

    # ------------------------------------------------------------ operand helpers
    def pick(self, pred=lambda v: True):
        """A random pool value satisfying pred, preferring unconsumed ones; None if none."""
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

    def partner(self, a, same_dtype=False):
        """An operand for a: a pool value of a's shape (converted to a's layout)."""
        b = self.pick(lambda v: v.shape == a.shape and v.name != a.name and v.dtype != "i1"
                      and R.fits(v.dtype, v.rng) and (not same_dtype or v.dtype == a.dtype))
        if b is None:
            return None
        return self.coerce(b, a.shape, a.layout)

    def literal(self, dtype, positive=False):
        """(source text, range) of a small random literal of dtype (> 0 if positive)."""
        rng = self.rng
        if is_float(dtype):
            v = rng.randint(1 if positive else -8, 8) * 0.25
        elif DTYPES[dtype].kind == "uint" or positive:
            v = rng.randint(1, 7)
        else:
            v = rng.randint(-5, 5)
        return _fmt(v, dtype), R.const(v, dtype)

    # ------------------------------------------------------------ source
    def kept(self, keep):
        """(statements, parameter indices) left when only statements `keep` stay
        (None: all); a parameter no kept statement names goes too."""
        stmts = [s for k, s in enumerate(self.stmts) if keep is None or k in keep]
        names = set(re.findall(r"[A-Za-z_]\w*", " ".join(ln for s in stmts for ln in s.lines)))
        params = [i for i, p in enumerate(self.params) if keep is None or p["name"] in names]
        return stmts, params

    def text(self, keep=None, mode="gl"):
        """The kernel's .gl source; `keep` (statement indices) drops the others; mode
        (erase.KERNEL_MODES) says which layouts are left to inference."""
        stmts, params = self.kept(keep)
        code = " ".join(ln for st in stmts for ln in st.lines)
        out = [src + "\n" for name, src in self.helpers if re.search(rf"\b{name}\b", code)]
        out += [f"@gl.kernel(num_warps={self.warps})",
                f"def {self.name}(" + ", ".join(self.decls[i] for i in params) + "):"]
        erasable = erase.plan(stmts) if mode == "erased" else None
        for s in stmts:
            out += ["    " + line for line in erase.rewrite(s, mode, self.seed, self.index,
                                                           erasable)]
        if not stmts:   # everything dropped (shrink.py tries it): still a function
            out.append("    pass")
        return "\n".join(out) + "\n"

    def manifest(self, keep=None):
        """The kernel's manifest entry (name, seed, index, num_warps, grid, parameters)
        with only statements `keep` (None: all)."""
        return {"name": self.name, "seed": self.seed, "index": self.index,
                "num_warps": self.warps, "grid": self.grid,
                "params": [self.params[i] for i in self.kept(keep)[1]]}
