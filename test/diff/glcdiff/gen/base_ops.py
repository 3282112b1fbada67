"""The generator's base operations, drawn from a kernel's main random stream:
elementwise arithmetic (in @gl.jit device functions too), bitwise and shift
operators, comparisons, logical operators, gl.where, math functions, casts
between every dtype, literals and runtime scalar parameters, convert_layout
between random layouts, reductions (sum, max, min, down to scalars), expand_dims
with broadcasting, gl.full / gl.zeros, shared-memory round trips (Swizzled, NVMMA,
SharedLinear, PaddedShared layouts; index, slice, permute and reinterpret views; value=
initialisation), runtime for- and while-loops carrying tensors, scalars and
tuples, and runtime if/else. `chain` draws 3 to 16 of them; promotion.py keeps
result dtypes the ones both compilers give and ranges.py keeps values exact.
"""
import math

from glcdiff.gen import layouts as lay
from glcdiff.gen import ranges as R
from glcdiff.dtypes import DTYPES, int_range, is_float, is_int
from glcdiff.gen.features import enabled
from glcdiff.gen.kernel import LOAD_DTYPES, Kernel, Val
from glcdiff.gen.promotion import reduce_dtype, result_dtype

MATH = {"exp": (-8, 8, math.exp), "exp2": (-12, 12, lambda x: 2.0**x),
        "log": (0.1, None, math.log), "log2": (0.1, None, math.log2),
        "sqrt": (0, None, math.sqrt), "rsqrt": (0.1, None, lambda x: x**-0.5)}


def _arithmetic(v):
    """Whether v can be an operand of arithmetic: no i1 or f8, value in range."""
    return v.dtype != "i1" and not v.dtype.startswith("f8") and R.fits(v.dtype, v.rng)


# ------------------------------------------------------------ operand helpers
def arith(a, b_text, b_rng, b_dtype, op, b_lit=False):
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
        n = int(br.hi)
        r = R.Range(ar.lo * 2**n, ar.hi * 2**n, 1.0, True) if op == "<<" else R.Range(
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


def _binary_operand(k, a, op):
    """(text, range, dtype, uses, literal?) of a second operand for `a op _`."""
    rng = k.rng
    positive = op in ("/", "//", "%")
    if op in ("<<", ">>"):
        n = rng.randint(0, 3)
        return str(n), R.Range(n, n, 1.0, True), a.dtype, [], True
    choice = rng.random()
    if choice < 0.25 or (positive and choice < 0.6):
        text, r = k.literal(a.dtype, positive)
        return text, r, a.dtype, [], True
    if choice < 0.35 and a.dtype in ("i32", "f32"):
        value = rng.randint(1, 6) * (0.5 if a.dtype == "f32" else 1)
        s = k.scalar_param("s", a.dtype, value)
        return s, R.const(value, a.dtype), a.dtype, [], False
    b = k.partner(a, same_dtype=rng.random() < 0.6)
    if b is None:
        text, r = k.literal(a.dtype, positive)
        return text, r, a.dtype, [], True
    return b.name, b.rng, b.dtype, [b], False


def _ops_for(dtype):
    if is_float(dtype):
        return ["+", "-", "*", "/", "maximum", "minimum"]
    return ["+", "-", "*", "//", "%", "&", "|", "^", "<<", ">>", "maximum", "minimum"]


def _cast_range(v, dtype):
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


# ------------------------------------------------------------ elementwise
def op_binary(k):
    """Appends `a op b` (+ - * / // % & | ^ << >> maximum minimum, by dtype) of a
    pool value and a partner or literal, sometimes through a @gl.jit helper; False
    when no operand fits."""
    a = k.pick(_arithmetic)
    if a is None:
        return False
    op = k.rng.choice(_ops_for(a.dtype))
    b_text, b_rng, b_dtype, uses, lit = _binary_operand(k, a, op)
    res = arith(a, b_text, b_rng, b_dtype, op, lit)
    if res is None:
        return False
    text, dtype, r = res
    if uses and enabled("device_functions") and k.rng.random() < 0.25:
        body = arith(a._replace(name="a"), "b", b_rng, b_dtype, op, lit)[0]
        fn = k.device_fn("h", "a, b", f"    return {body}\n")
        text = f"{fn}({a.name}, {b_text})"
    k.value(text, dtype, a.shape, a.layout, r, [a] + uses)
    return True


def op_unary(k):
    """Appends -a, gl.abs(a), ~a or a math function (f32 only) of a pool value;
    False when none keeps the value in range."""
    rng = k.rng
    a = k.pick(_arithmetic)
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
    k.value(text, d, a.shape, a.layout, out, [a])
    return True


def op_compare(k):
    """Appends a comparison (an i1 tensor) of an exact pool value with another or
    a literal; False when there is none."""
    a = k.pick(lambda v: v.rng.exact and _arithmetic(v))
    if a is None:
        return False
    if k.rng.random() < 0.4:
        b_text, _ = k.literal(a.dtype)
        uses = []
    else:
        b = k.partner(a, same_dtype=True)
        if b is None or not b.rng.exact:
            return False
        b_text, uses = b.name, [b]
    op = k.rng.choice(["<", "<=", ">", ">=", "==", "!="])
    k.value(f"{a.name} {op} {b_text}", "i1", a.shape, a.layout,
            R.Range(0, 1, 1.0, True), [a] + uses)
    return True


def op_logical(k):
    """Appends `&`, `|` or `^` of two i1 values of one shape; False when there are
    not two."""
    a = k.pick(lambda v: v.dtype == "i1")
    if a is None:
        return False
    b = k.pick(lambda v: v.dtype == "i1" and v.shape == a.shape and v.name != a.name)
    if b is None:
        return False
    b = k.coerce(b, a.shape, a.layout)
    op = k.rng.choice(["&", "|", "^"])
    k.value(f"{a.name} {op} {b.name}", "i1", a.shape, a.layout, a.rng, [a, b])
    return True


def op_where(k):
    """Appends gl.where(c, a, b) of an i1 condition and values of its shape;
    False when there are none."""
    c = k.pick(lambda v: v.dtype == "i1" and v.shape)
    if c is None:
        return False
    a = k.pick(lambda v: v.shape == c.shape and v.dtype != "i1")
    if a is None:
        return False
    a = k.coerce(a, a.shape, c.layout)
    if (k.rng.random() < 0.3 and R.fits(a.dtype, a.rng) and not a.dtype.startswith("f8")
            and result_dtype("where", a.dtype, a.dtype, True) == a.dtype):
        b_text, b_rng = k.literal(a.dtype)
        uses = []
    else:
        b = k.pick(lambda v: v.shape == c.shape and v.dtype == a.dtype and v.name != a.name)
        if b is None:
            return False
        b = k.coerce(b, b.shape, c.layout)
        b_text, b_rng, uses = b.name, b.rng, [b]
    r = R.union(a.rng, b_rng)
    k.value(f"gl.where({c.name}, {a.name}, {b_text})", a.dtype, a.shape, c.layout, r,
            [c, a] + uses)
    return True


def op_cast(k):
    """Appends a.to(gl.<dtype>) where every value of a is exact in the new dtype;
    False otherwise."""
    a = k.pick(lambda v: True)
    if a is None:
        return False
    dtype = lay.weighted(k.rng, [p for p in LOAD_DTYPES if p[0] != "i1"])
    r = _cast_range(a, dtype)
    if r is None:
        return False
    k.value(f"{a.name}.to(gl.{dtype})", dtype, a.shape, a.layout, r, [a])
    return True


def op_convert(k):
    """Appends gl.convert_layout of a tensor to a new random distributed layout."""
    a = k.pick(lambda v: v.shape)
    if a is None:
        return False
    layout = k.new_layout(a.shape)
    k.value(f"gl.convert_layout({a.name}, {layout.text})", a.dtype, a.shape, layout,
            a.rng, [a])
    return True


def op_full(k):
    """Appends gl.zeros or gl.full of a shape and layout the kernel has seen."""
    shape = k.rng.choice([v.shape for v in k.pool if v.shape] or [k.shape])
    dtype = lay.weighted(k.rng, [p for p in LOAD_DTYPES if p[0] != "i1"])
    layout = k.layout_for(shape)
    if k.rng.random() < 0.3:
        k.value(f"gl.zeros({list(shape)}, gl.{dtype}, layout={layout.text})", dtype,
                shape, layout, R.Range(0, 0, 1.0, True))
        return True
    text, r = k.literal(dtype)
    if not R.fits(dtype, r):
        return False
    k.value(f"gl.full({list(shape)}, {text}, gl.{dtype}, layout={layout.text})", dtype,
            shape, layout, r)
    return True


# ------------------------------------------------------------ reductions, broadcasting
def op_reduce(k):
    """Appends gl.sum/max/min of a tensor along one axis (the dtype Triton's
    promotion gives); False when none fits."""
    a = k.pick(lambda v: v.shape and _arithmetic(v)
               and (len(v.shape) > 1 or enabled("scalar_reduce")))
    if a is None:
        return False
    axis = k.rng.randrange(len(a.shape))
    kind = k.rng.choice(["sum", "sum", "max", "min"])
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
    k.value(f"gl.{kind}({a.name}, axis={axis})", dtype, shape, layout, r, [a])
    return True


def op_expand(k):
    """b (rank r) -> expand_dims into the layout of a rank r+1 value p, then p op b."""
    p = k.pick(lambda v: len(v.shape) >= 2 and _arithmetic(v))
    if p is None:
        return False
    d = k.rng.randrange(len(p.shape))
    shape = p.shape[:d] + p.shape[d + 1:]
    b = k.pick(lambda v: v.shape == shape and _arithmetic(v))
    if b is None:
        return False
    b = k.coerce(b, shape, lay.slice_of(p.layout, d))
    eshape = p.shape[:d] + (1,) + p.shape[d + 1:]
    if k.rng.random() < 0.5 and len(eshape) <= 3:
        idx = ", ".join("None" if e == d else ":" for e in range(len(eshape)))
        text = f"{b.name}[{idx}]"
    else:
        text = f"gl.expand_dims({b.name}, {d})"
    e = k.value(text, b.dtype, eshape, p.layout, b.rng, [b])
    op = k.rng.choice(["+", "-", "*", "maximum", "minimum"])
    res = arith(p, e.name, e.rng, e.dtype, op)
    if res is None:
        return True
    text, dtype, r = res
    k.value(text, dtype, p.shape, p.layout, r, [p, e])
    return True


# ------------------------------------------------------------ shared memory
def op_smem(k):
    """Registers -> shared memory -> registers, through a random shared layout and
    view; the load may use another layout (or dtype, through _reinterpret)."""
    rng = k.rng
    a = k.pick(lambda v: v.shape and v.dtype != "i1")
    if a is None:
        return False
    dt, shape, bits = a.dtype, list(a.shape), DTYPES[a.dtype].bits
    name = k.fresh("smem")
    view = lay.weighted(rng, [
        ("plain", 3), ("value", 1), ("index", 2 if enabled("smem_index") else 0),
        ("slice", 2 if enabled("smem_slice") and len(shape) > 1 else 0),
        ("permute", 2 if enabled("smem_permute") and len(shape) == 2 else 0),
        ("reinterpret", 1 if enabled("smem_reinterpret") else 0)])
    base = shape[::-1] if view == "permute" else shape
    whole = view in ("plain", "value", "reinterpret")
    slayout = lay.shared(rng, base, bits, allow_linear=whole, allow_padded=whole)
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
        d, n = rng.choice(dims), rng.choice([2, 4])
        alloc_shape = shape[:d] + [shape[d] * n] + shape[d + 1:]
        access = f"{name}.slice({rng.randrange(n) * shape[d]}, {shape[d]}, dim={d})"
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
    k.emit(lines, [name])
    k.consumed.add(a.name)
    if view == "reinterpret":
        twins = [d for d in DTYPES if DTYPES[d].bits == bits and d != dt and d != "i1"]
        out_dtype = rng.choice(twins)
        access = f"{name}._reinterpret(gl.{out_dtype}, {shape}, {slayout.text})"
        lo, hi = int_range(out_dtype) if is_int(out_dtype) else (-math.inf, math.inf)
        out_rng = R.Range(lo, hi, 1.0, is_int(out_dtype))
    if view == "permute" and rng.random() < 0.5:
        access, out_shape = name, tuple(base)
    layout = a.layout if out_shape == a.shape and rng.random() < 0.3 else k.new_layout(
        out_shape)
    k.value(f"{access}.load({layout.text})", out_dtype, out_shape, layout, out_rng)
    return True


# ------------------------------------------------------------ control flow
def op_loop(k):
    """Appends a runtime or constant-trip `for` (or `while`) loop carrying an
    accumulator, a running maximum, a counter or (loop_tuples) a swapped tuple."""
    rng = k.rng
    a = k.pick(_arithmetic)
    if a is None:
        return False
    trips = rng.randint(1, 4)
    if rng.random() < 0.5:
        t_text = k.scalar_param("t", "i32", trips)
    else:
        t_text = str(trips)
    i = k.fresh("i")
    c = k.fresh("c")
    kind = lay.weighted(rng, [("acc", 3), ("max", 1), ("counter", 2),
                               ("tuple", 2 if enabled("loop_tuples") else 0)])
    if kind == "tuple":
        b = k.partner(a, same_dtype=True)
        if b is None:
            return False
        lines = [f"{c} = ({a.name}, {b.name})", f"for {i} in range({t_text}):",
                 f"    {c} = ({c}[1], {c}[0])"]
        k.emit(lines, [c, i])
        k.value(f"{c}[0]", a.dtype, a.shape, a.layout, R.union(a.rng, b.rng), [a, b])
        return True
    if kind == "counter":
        step = rng.randint(1, 3)
        r = R.Range(0, step * trips + (trips - 1) * trips // 2, 1.0, True)
        lines = [f"{c} = 0", f"for {i} in range({t_text}):", f"    {c} += {i} + {step}"]
        res = arith(a, c, r, "i32", rng.choice(["+", "-", "maximum"]))
        if res is None:
            return False
        k.emit(lines, [c, i])
        text, dtype, rr = res
        k.value(text, dtype, a.shape, a.layout, rr, [a])
        return True
    b = k.partner(a, same_dtype=True)
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
        k.emit([f"{c} = {a.name}", f"{i} = 0", f"while {i} < {t_text}:", body,
                f"    {i} += 1"], [c, i])
    else:
        k.emit([f"{c} = {a.name}", f"for {i} in range({t_text}):", body], [c, i])
    k.consumed.update([a.name, b.name])
    k.pool.append(Val(c, a.dtype, a.shape, a.layout, r))
    return True


def op_if(k):
    """Appends a runtime if/else (on the program id or a bound parameter) whose
    branches give one value two different operations of a and a partner."""
    a = k.pick(_arithmetic)
    if a is None:
        return False
    b = k.partner(a, same_dtype=True)
    if b is None:
        return False
    ops = k.rng.sample(["+", "-", "maximum", "minimum"], 2)
    res = [arith(a, b.name, b.rng, b.dtype, op) for op in ops]
    if None in res or res[0][1] != res[1][1]:
        return False
    c = k.fresh("c")
    cond = k.rng.choice(["pid % 2 == 0", "pid > 0", f"{k.limit(math.prod(k.shape))[0]} > 5"])
    k.emit([f"if {cond}:", f"    {c} = {res[0][0]}", "else:", f"    {c} = {res[1][0]}"], [c])
    k.consumed.update([a.name, b.name])
    k.pool.append(Val(c, res[0][1], a.shape, a.layout, R.union(res[0][2], res[1][2])))
    return True


# ------------------------------------------------------------ driver
# name -> (weight, feature switch or None, function)
OPS = {
    "binary": (10, None, op_binary), "unary": (4, None, op_unary),
    "compare": (3, None, op_compare), "logical": (1, None, op_logical),
    "where": (3, None, op_where), "cast": (4, None, op_cast), "convert": (5, None, op_convert),
    "reduce": (4, None, op_reduce), "expand": (3, None, op_expand), "full": (1, None, op_full),
    "smem": (4, "shared_memory", op_smem), "load": (2, None, Kernel.op_load),
    "loop": (2, "loops", op_loop), "if": (1, "runtime_if", op_if),
}


def chain(k):
    """Appends 3 to 16 of the enabled operations to kernel k (200 draws at most)."""
    rng = k.rng
    ops = [(n, w) for n, (w, feature, _) in OPS.items() if feature is None or enabled(feature)]
    steps = rng.randint(3, 16)
    tries = 0
    while steps > 0 and tries < 200:
        tries += 1
        if OPS[lay.weighted(rng, ops)][2](k):
            steps -= 1
