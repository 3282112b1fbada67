# Kernels of test_tl.c: triton.language (`tl`) as Triton's kernels use it,
# every layout inferred (no Gluon layout anywhere). Each kernel is compiled
# as triton/tools/compile.py compiles it: bundle.sh reads the "# kernel
# NAME: SIGNATURE[; FLAGS]" lines below and builds kernels/tl.NAME.o and .h
# (launcher tl_NAME). The arithmetic, math, casts, reductions, scans, shape
# operations and the standard library functions among them (softmax,
# sigmoid, argmax/argmin, flip, interleave, zeros_like, ravel, cdiv);
# test_tl.c checks each against float64 or bit-exact host references.
# tl_std.py has the rest of the standard library, tl.random, control flow
# and the compile-time names.
import triton
import triton.language as tl

# kernel elementwise: *fp32:16, *fp32:16, *fp32:16, *fp32:16, i32, 256
# kernel int_ops: *i32:16, *i32:16, *i32:16, i32, 128
# kernel casts: *fp32:16, *i32:16, *fp32:16, *i32:16, i32, 256
# kernel reductions: *fp32:16, *fp32:16, *i32:16, i32, 16, 64
# kernel int_reductions: *i32:16, *i32:16, 8, 32
# kernel scans: *fp32:16, *fp32:16, 8, 64
# kernel shapes: *fp32:16, *fp32:16, 8, 16

# The rows elementwise stores, in order (test_tl.c's ELEMENTWISE table).
N_ELEMENTWISE = tl.constexpr(27)
# a dtype named as compile.py's signatures name it
HALF = tl.constexpr(tl.str_to_ty("fp16", None))


@triton.jit
def elementwise(x_ptr, y_ptr, z_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """out[k * n + i]: the k-th function of x[i], y[i], z[i] (x, y in [-3, 3),
    z in [0.5, 4)); the tail of each row past n stays unwritten."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    z = tl.load(z_ptr + offs, mask=mask, other=1.0)
    rows = (
        tl.add(x, y),
        tl.sub(x, y),
        tl.mul(x, y),
        tl.fma(x, y, z),
        tl.fdiv(x, z),
        tl.div_rn(x, z),
        tl.maximum(x, y),
        tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL),
        tl.clamp(x, -1.0, 2.0),
        tl.where(x > y, x, y),
        tl.abs(x),
        tl.floor(x),
        tl.ceil(x),
        tl.exp(x),
        tl.exp2(x),
        tl.log(z),
        tl.log2(z),
        tl.sqrt(z),
        tl.sqrt_rn(z),
        tl.rsqrt(z),
        tl.sin(x),
        tl.cos(x),
        tl.erf(x),
        tl.sigmoid(x),
        tl.math.exp(x) + tl.math.fdiv(x, z, ieee_rounding=True),
        x.exp() * 2 - x.abs(),
        x / z + x * y - y % 2.0,
    )
    tl.static_assert(len(rows) == N_ELEMENTWISE)
    for k in tl.static_range(len(rows)):
        tl.store(out_ptr + k * n + offs, rows[k], mask=mask)


@triton.jit
def int_ops(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """out[k * n + i]: the k-th integer function of x[i], y[i] (y never 0)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    y = tl.load(y_ptr + offs, mask=mask, other=1)
    ux = x.to(tl.uint32, bitcast=True)
    uy = y.to(tl.uint32, bitcast=True)
    rows = (
        x + y,
        x * y,
        x // y,
        x % y,
        x >> 3,
        x << 5,
        (ux >> 7).to(tl.int32, bitcast=True),
        x & y,
        x | y,
        x ^ y,
        ~x,
        -x,
        tl.umulhi(ux, uy).to(tl.int32, bitcast=True),
        tl.cdiv(tl.abs(x), 7),
        tl.maximum(x, y),
        tl.minimum(x, y),
        tl.abs(x),
        tl.where(x < y, x, y),
        (x < y).to(tl.int32) + (x == y).to(tl.int32) * 2 + (x >= 0).to(tl.int32) * 4,
        (ux // uy).to(tl.int32, bitcast=True),
        (ux % uy).to(tl.int32, bitcast=True),
        x.cdiv(3),
    )
    for k in tl.static_range(len(rows)):
        tl.store(out_ptr + k * n + offs, rows[k], mask=mask)


@triton.jit
def casts(x_ptr, i_ptr, out_ptr, iout_ptr, n, BLOCK: tl.constexpr):
    """Conversions of x (f32 in [-3, 3)) and i (i32): out[k * n + j] the
    float ones back as f32, iout[k * n + j] the integer ones as i32."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    i = tl.load(i_ptr + offs, mask=mask, other=0)
    f = (
        x.to(tl.float16).to(tl.float32),
        x.to(tl.float16, fp_downcast_rounding="rtz").to(tl.float32),
        tl.cast(x, tl.bfloat16).to(tl.float32),
        x.to(tl.float8e4nv).to(tl.float32),
        x.to(tl.float8e5).to(tl.float32),
        x.to(tl.float64).to(tl.float32),
        i.to(tl.float32),
        (i.to(tl.uint32, bitcast=True) >> 8).to(tl.float32),
        x.to(HALF).to(tl.float32),
    )
    for k in tl.static_range(len(f)):
        tl.store(out_ptr + k * n + offs, f[k], mask=mask)
    g = (
        x.to(tl.int32),
        (x * 40).to(tl.int8).to(tl.int32),
        (x * 100).to(tl.int16).to(tl.int32),
        i.to(tl.int8).to(tl.int32),
        i.to(tl.uint8).to(tl.int32),
        i.to(tl.int16).to(tl.int32),
        i.to(tl.uint16).to(tl.int32),
        (i.to(tl.int64) * 3 >> 2).to(tl.int32),
        (i.to(tl.uint64) >> 33).to(tl.int32),
        (i > 0).to(tl.int1).to(tl.int32),
        x.to(tl.int32, bitcast=True),
        (tl.abs(x) * 1000).to(tl.uint32).to(tl.int32, bitcast=True),
    )
    for k in tl.static_range(len(g)):
        tl.store(iout_ptr + k * n + offs, g[k], mask=mask)


@triton.jit
def pair_add(a0, a1, b0, b1):
    return a0 + b0, a1 + b1


@triton.jit
def mul_fn(a, b):
    return a * b


@triton.jit
def reductions(x_ptr, out_ptr, idx_ptr, m, BM: tl.constexpr, BN: tl.constexpr):
    """Reductions of the m x BN block x (rows past m masked: -inf, +inf or
    0 as each reduction needs): out holds the float results one after
    another (test_tl.c's layout), idx the indices."""
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    rmask = rows < m
    offs = rows[:, None] * BN + cols[None, :]
    x = tl.load(x_ptr + offs, mask=rmask[:, None], other=0.0)
    lo = tl.where(rmask[:, None], x, float("-inf"))
    hi = tl.where(rmask[:, None], x, float("inf"))
    tl.store(out_ptr + rows, tl.sum(x, axis=1), mask=rmask)
    tl.store(out_ptr + 2 * BM + cols, tl.max(lo, 0))
    tl.store(out_ptr + 2 * BM + BN + rows, tl.min(hi, axis=1), mask=rmask)
    mx, imx = tl.max(lo, 1, return_indices=True)
    tl.store(out_ptr + 3 * BM + BN + rows, mx, mask=rmask)
    tl.store(idx_ptr + rows, imx, mask=rmask)
    tl.store(idx_ptr + BM + rows, tl.argmin(hi, 1), mask=rmask)
    tl.store(idx_ptr + 2 * BM + cols, tl.argmax(lo, axis=0))
    mn, imn = tl.min(hi, 0, return_indices=True, return_indices_tie_break_left=False)
    tl.store(idx_ptr + 2 * BM + BN + cols, imn)
    tl.store(out_ptr + 4 * BM + BN + cols, mn)
    s1, s2 = tl.reduce((x, x * x), 1, pair_add)
    tl.store(out_ptr + 4 * BM + 2 * BN + rows, s2 - s1, mask=rmask)
    s = tl.sum(x, axis=1, keep_dims=True)
    tl.store(out_ptr + 5 * BM + 2 * BN + offs, x - s / BN, mask=rmask[:, None])
    tl.store(out_ptr + 5 * BM + 2 * BN + BM * BN, tl.sum(x))
    tl.store(out_ptr + 5 * BM + 2 * BN + BM * BN + 1, tl.max(tl.reduce(lo, 1, max_scan)))
    sm = tl.softmax(lo, dim=1, keep_dims=True)
    tl.store(out_ptr + 5 * BM + 2 * BN + BM * BN + 2 + offs, sm, mask=rmask[:, None])
    sm0 = tl.softmax(lo, 0, keep_dims=True, ieee_rounding=True)
    tl.store(out_ptr + 5 * BM + 2 * BN + 2 * BM * BN + 2 + offs, sm0, mask=rmask[:, None])
    tl.store(out_ptr + 5 * BM + 2 * BN + 3 * BM * BN + 2 + cols, x.sum(0) + x.max(0))
    tl.store(out_ptr + 5 * BM + 3 * BN + 3 * BM * BN + 2 + rows, tl.reduce(x, 1, mul_fn),
             mask=rmask)
    tl.store(out_ptr + 6 * BM + 3 * BN + 3 * BM * BN + 2 + cols, tl.sum(x, axis=0))


@triton.jit
def int_reductions(x_ptr, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    """Integer reductions of the BM x BN block x (i32): per row xor_sum,
    reduce_or, sum, max, min, then per column xor_sum and sum, then a
    histogram of x & 15 and the whole block's xor_sum."""
    rows = tl.arange(0, BM)
    cols = tl.arange(0, BN)
    x = tl.load(x_ptr + rows[:, None] * BN + cols[None, :])
    tl.store(out_ptr + rows, tl.xor_sum(x, 1))
    tl.store(out_ptr + BM + rows, tl.reduce_or(x, 1))
    tl.store(out_ptr + 2 * BM + rows, tl.sum(x, 1))
    tl.store(out_ptr + 3 * BM + rows, tl.max(x, 1))
    tl.store(out_ptr + 4 * BM + rows, tl.min(x, 1))
    tl.store(out_ptr + 5 * BM + cols, tl.xor_sum(x, axis=0))
    tl.store(out_ptr + 5 * BM + BN + cols, tl.sum(x, axis=0))
    h = tl.histogram(tl.reshape(x & 15, [BM * BN]), 16)
    tl.store(out_ptr + 5 * BM + 2 * BN + tl.arange(0, 16), h)
    tl.store(out_ptr + 5 * BM + 2 * BN + 16, tl.xor_sum(tl.ravel(x)))
    hm = tl.histogram(tl.ravel(x & 7), 8, mask=tl.ravel(x) > 0)
    tl.store(out_ptr + 5 * BM + 2 * BN + 17 + tl.arange(0, 8), hm)


@triton.jit
def max_scan(a, b):
    return tl.maximum(a, b)


@triton.jit
def scans(x_ptr, out_ptr, BM: tl.constexpr, BN: tl.constexpr):
    """Scans of the BM x BN block x (f32 in [0.5, 1.5)): cumsum along rows,
    along columns reversed, cumprod, a running maximum (associative_scan),
    each a BM x BN block of out."""
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.cumsum(x, 1))
    tl.store(out_ptr + BM * BN + offs, tl.cumsum(x, axis=0, reverse=True))
    tl.store(out_ptr + 2 * BM * BN + offs, tl.cumprod(x, 1))
    tl.store(out_ptr + 3 * BM * BN + offs, tl.associative_scan(x, 1, max_scan))
    tl.store(out_ptr + 4 * BM * BN + offs, tl.associative_scan(x, 1, max_scan, reverse=True))
    tl.store(out_ptr + 5 * BM * BN + offs, x.cumsum(1) - x)


@triton.jit
def shapes(x_ptr, out_ptr, R: tl.constexpr, C: tl.constexpr):
    """Shape operations on the R x C block x; each result stored row-major
    (its numel after the previous one's: test_tl.c's SHAPES table)."""
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    x = tl.load(x_ptr + r[:, None] * C + c[None, :])
    n: tl.constexpr = R * C
    # x^T (C x R)
    tl.store(out_ptr + c[:, None] * R + r[None, :], tl.trans(x))
    # x.T + 1 through permute, as a C x R block
    tl.store(out_ptr + n + c[:, None] * R + r[None, :], tl.permute(x, 1, 0) + 1)
    # reshape to (C, R): the same row-major elements
    tl.store(out_ptr + 2 * n + c[:, None] * R + r[None, :], tl.reshape(x, C, R) * 2)
    # ravel and view: x flat
    tl.store(out_ptr + 3 * n + tl.arange(0, n), tl.ravel(x) + tl.view(x, [n]))
    # join (R x C x 2), then split back with the halves swapped
    j = tl.join(x, x * 3)
    a, b = tl.split(j)
    t = tl.arange(0, 2)
    tl.store(out_ptr + 4 * n + (r[:, None, None] * C + c[None, :, None]) * 2 + t[None, None, :], j)
    tl.store(out_ptr + 6 * n + r[:, None] * C + c[None, :], b - a)
    # interleave: R x 2C
    tl.store(out_ptr + 7 * n + r[:, None] * 2 * C + tl.arange(0, 2 * C)[None, :],
             tl.interleave(x, -x))
    # flip along dim 1, then along dim 0
    tl.store(out_ptr + 9 * n + r[:, None] * C + c[None, :], tl.flip(x, 1))
    tl.store(out_ptr + 10 * n + r[:, None] * C + c[None, :], x.flip(0))
    # broadcast of a column and a row: x[:, 0] + x[0, :]
    col = tl.sum(tl.where(c[None, :] == 0, x, 0.0), 1)
    row = tl.sum(tl.where(r[:, None] == 0, x, 0.0), 0)
    p, q = tl.broadcast(col[:, None], row[None, :])
    tl.store(out_ptr + 11 * n + r[:, None] * C + c[None, :], p + q)
    tl.store(out_ptr + 12 * n + r[:, None] * C + c[None, :],
             tl.broadcast_to(tl.expand_dims(row, 0), (R, C)) + x.broadcast_to(R, C))
    # expand_dims on two axes, permute of rank 3
    e = tl.expand_dims(x, (0, 3))
    tl.store(out_ptr + 13 * n + c[:, None] * R + r[None, :],
             tl.reshape(tl.permute(e, (0, 2, 1, 3)), (C, R)))
    # full, zeros, zeros_like
    tl.store(out_ptr + 14 * n + r[:, None] * C + c[None, :],
             tl.full((R, C), 2.5, tl.float32) + tl.zeros([R, C], dtype=tl.float32) +
             tl.zeros_like(x))
    # cat: the 2n elements of x and x + 10 in some order (can_reorder)
    tl.store(out_ptr + 15 * n + tl.arange(0, 2 * n),
             tl.cat(tl.ravel(x), tl.ravel(x) + 10, can_reorder=True))
