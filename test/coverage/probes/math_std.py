# Probes of gl's _math and _standard functions (and clamp, a Triton core
# builtin), each on a loaded tensor with Triton 3.6's parameter names.
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

L1: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
L2: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])


# probe gl exp -- -s "*fp32, *fp32"
@gluon.jit
def exp_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.exp(x))


# probe gl exp2 -- -s "*fp32, *fp32"
@gluon.jit
def exp2_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.exp2(x))


# probe gl log -- -s "*fp32, *fp32"
@gluon.jit
def log_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.log(x))


# probe gl log2 -- -s "*fp32, *fp32"
@gluon.jit
def log2_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.log2(x))


# probe gl cos -- -s "*fp32, *fp32"
@gluon.jit
def cos_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.cos(x))


# probe gl rsqrt -- -s "*fp32, *fp32"
@gluon.jit
def rsqrt_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.rsqrt(x))


# probe gl sin -- -s "*fp32, *fp32"
@gluon.jit
def sin_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.sin(x))


# probe gl sqrt -- -s "*fp32, *fp32"
@gluon.jit
def sqrt_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.sqrt(x))


# probe gl sqrt_rn -- -s "*fp32, *fp32"
@gluon.jit
def sqrt_rn_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.sqrt_rn(x))


# probe gl abs -- -s "*fp32, *fp32"
@gluon.jit
def abs_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.abs(x))


# probe gl erf -- -s "*fp32, *fp32"
@gluon.jit
def erf_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.erf(x))


# probe gl floor -- -s "*fp32, *fp32"
@gluon.jit
def floor_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.floor(x))


# probe gl ceil -- -s "*fp32, *fp32"
@gluon.jit
def ceil_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.ceil(x))


# probe gl abs -- -s "*i32, *i32"
@gluon.jit
def abs_int_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    gl.store(q + offs, gl.abs(gl.load(p + offs)))


# probe gl umulhi -- -s "*u32, *u32"
@gluon.jit
def umulhi_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.umulhi(x, x + 3))


# probe gl fma -- -s "*fp32, *fp32"
@gluon.jit
def fma_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.fma(x, x, 1.0))


# probe gl fdiv -- -s "*fp32, *fp32"
@gluon.jit
def fdiv_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.fdiv(x, 3.0) + gl.fdiv(x, x + 1, ieee_rounding=True))


# probe gl div_rn -- -s "*fp32, *fp32"
@gluon.jit
def div_rn_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.div_rn(x, 3.0))


# probe gl clamp -- -s "*fp32, *fp32"
@gluon.jit
def clamp_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.clamp(x, -1.0, 1.0) + gl.clamp(x, 0.0, 2.0, propagate_nan=gl.PropagateNan.ALL))


# probe gl cdiv -- -s "*i32, i32, 64"
@gluon.jit
def cdiv_kernel(p, n, BLOCK: gl.constexpr):
    tiles = gl.cdiv(n, div=BLOCK)
    STATIC: gl.constexpr = gl.cdiv(1000, BLOCK)
    gl.static_assert(STATIC == 16)
    gl.store(p, tiles + STATIC)


# probe gl zeros -- -s "*fp16"
@gluon.jit
def zeros_kernel(p):
    rows = gl.arange(0, 32, layout=gl.SliceLayout(1, L2))
    cols = gl.arange(0, 16, layout=gl.SliceLayout(0, L2))
    gl.store(p + rows[:, None] * 16 + cols[None, :], gl.zeros([32, 16], gl.float16, layout=L2))


# probe gl full_like -- -s "*fp32, *fp16"
@gluon.jit
def full_like_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(p + offs, gl.full_like(x, 2.0))
    gl.store(q + offs, gl.full_like(x, 3.0, dtype=gl.float16, layout=L1))


# probe gl zeros_like -- -s "*fp32, *i32"
@gluon.jit
def zeros_like_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(p + offs, gl.zeros_like(x))
    gl.store(q + offs, gl.zeros_like(x, shape=[128], dtype=gl.int32))


# probe gl ravel -- -s "*i32"
@gluon.jit
def ravel_kernel(p):
    rows = gl.arange(0, 32, layout=gl.SliceLayout(1, L2))
    cols = gl.arange(0, 16, layout=gl.SliceLayout(0, L2))
    offs = rows[:, None] * 16 + cols[None, :]
    flat = gl.ravel(offs, can_reorder=False)
    gl.store(p + flat, flat)


# probe gl sum -- -s "*fp16, *fp32"
@gluon.jit
def sum_kernel(p, q):
    rows = gl.arange(0, 32, layout=gl.SliceLayout(1, L2))
    cols = gl.arange(0, 16, layout=gl.SliceLayout(0, L2))
    x = gl.load(p + rows[:, None] * 16 + cols[None, :])
    gl.store(q + rows, gl.sum(x, axis=1, dtype=gl.float32))
    gl.store(q + cols[None, :], gl.sum(x, 0, keep_dims=True).to(gl.float32))
    gl.store(q, gl.sum(x).to(gl.float32))


# probe gl max -- -s "*fp32, *fp32"
@gluon.jit
def max_kernel(p, q):
    rows = gl.arange(0, 32, layout=gl.SliceLayout(1, L2))
    cols = gl.arange(0, 16, layout=gl.SliceLayout(0, L2))
    x = gl.load(p + rows[:, None] * 16 + cols[None, :])
    gl.store(q + rows, gl.max(x, axis=1))
    gl.store(q + cols[None, :], gl.max(x, 0, keep_dims=True))


# probe gl min -- -s "*i32, *i32"
@gluon.jit
def min_kernel(p, q):
    rows = gl.arange(0, 32, layout=gl.SliceLayout(1, L2))
    cols = gl.arange(0, 16, layout=gl.SliceLayout(0, L2))
    x = gl.load(p + rows[:, None] * 16 + cols[None, :])
    gl.store(q + rows, gl.min(x, 1))


# probe gl xor_sum -- -s "*i32, *i32"
@gluon.jit
def xor_sum_kernel(p, q):
    rows = gl.arange(0, 32, layout=gl.SliceLayout(1, L2))
    cols = gl.arange(0, 16, layout=gl.SliceLayout(0, L2))
    x = gl.load(p + rows[:, None] * 16 + cols[None, :])
    gl.store(q + rows, gl.xor_sum(x, axis=1, keep_dims=False))


# probe gl reduce_or -- -s "*i32, *i32"
@gluon.jit
def reduce_or_kernel(p, q):
    rows = gl.arange(0, 32, layout=gl.SliceLayout(1, L2))
    cols = gl.arange(0, 16, layout=gl.SliceLayout(0, L2))
    x = gl.load(p + rows[:, None] * 16 + cols[None, :])
    gl.store(q + rows, gl.reduce_or(x, axis=1))


# probe gl cdiv -- -s "*i32, i32"
@gluon.jit
def cdiv_keyword_kernel(p, n):
    gl.store(p, gl.cdiv(n, div=64))
