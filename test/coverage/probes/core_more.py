# Probes of gl's _core operations that combine values (scans, reductions,
# atomics, gather, histogram), run user code (inline asm, map_elementwise),
# multiply (dot_fma), partition warps, or inspect layouts.
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

L1: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
L2: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])


@gluon.jit
def _add(a, b):
    return a + b


@gluon.jit
def _argmax(v1, i1, v2, i2):
    gt = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return gl.where(gt, v1, v2), gl.where(gt, i1, i2)


# probe gl associative_scan -- -s "*fp32, *fp32"
@gluon.jit
def associative_scan_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.associative_scan(x, 0, _add, reverse=True))


# probe gl reduce -- -s "*fp32, *fp32, *i32"
@gluon.jit
def reduce_kernel(p, q, r):
    rows = gl.arange(0, 32, layout=gl.SliceLayout(1, L2))
    cols = gl.arange(0, 16, layout=gl.SliceLayout(0, L2))
    x = gl.load(p + rows[:, None] * 16 + cols[None, :])
    idx = gl.zeros([32, 16], gl.int32, layout=L2) + cols[None, :]
    v, i = gl.reduce((x, idx), 1, _argmax)
    gl.store(q + rows, v)
    gl.store(r + rows, i)
    s = gl.reduce(x, axis=0, combine_fn=_add, keep_dims=True)
    gl.store(q + cols[None, :], s)


# probe gl atomic_add -- -s "*fp32, *fp32"
@gluon.jit
def k_atomic_add(p, q):
    offs = gl.arange(0, 128, layout=L1)
    old = gl.atomic_add(p + offs, 1.0, mask=offs < 100, sem="relaxed", scope="gpu")
    gl.store(q + offs, old)


# probe gl atomic_and -- -s "*i32"
@gluon.jit
def k_atomic_and(p):
    offs = gl.arange(0, 128, layout=L1)
    gl.atomic_and(p + offs, 0xF0, sem="release", scope="cta")


# probe gl atomic_or -- -s "*i32"
@gluon.jit
def k_atomic_or(p):
    offs = gl.arange(0, 128, layout=L1)
    gl.atomic_or(p + offs, offs, mask=offs < 64)


# probe gl atomic_xor -- -s "*i64"
@gluon.jit
def k_atomic_xor(p):
    offs = gl.arange(0, 128, layout=L1)
    gl.atomic_xor(p + offs, offs.to(gl.int64), sem="acquire", scope="sys")


# probe gl atomic_max -- -s "*fp32, *fp32"
@gluon.jit
def k_atomic_max(p, q):
    offs = gl.arange(0, 128, layout=L1)
    gl.store(q + offs, gl.atomic_max(p + offs, gl.load(q + offs)))


# probe gl atomic_min -- -s "*i32"
@gluon.jit
def k_atomic_min(p):
    offs = gl.arange(0, 128, layout=L1)
    gl.atomic_min(p + offs % 4, offs, sem="acq_rel")


# probe gl atomic_xchg -- -s "*i32, *i32"
@gluon.jit
def k_atomic_xchg(p, q):
    offs = gl.arange(0, 128, layout=L1)
    gl.store(q + offs, gl.atomic_xchg(p + offs, 1, mask=offs < 32))


# probe gl atomic_cas -- -s "*i32, *i32"
@gluon.jit
def k_atomic_cas(lock, out):
    offs = gl.arange(0, 128, layout=L1)
    old = gl.atomic_cas(lock + offs, 0, 1, sem="acquire", scope="gpu")
    gl.store(out + offs, old)


# probe gl gather -- -s "*fp32, *i32, *fp32"
@gluon.jit
def gather_kernel(p, idx, q):
    rows = gl.arange(0, 32, layout=gl.SliceLayout(1, L2))
    cols = gl.arange(0, 16, layout=gl.SliceLayout(0, L2))
    offs = rows[:, None] * 16 + cols[None, :]
    src = gl.load(p + offs)
    i = gl.load(idx + offs)
    gl.store(q + offs, gl.gather(src, i, axis=1))


# probe gl histogram -- -s "*i32, *i32"
@gluon.jit
def histogram_kernel(p, h):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    bins = gl.histogram(x, 64, mask=offs < 100, layout=gl.BlockedLayout([1], [32], [4], [0]))
    gl.store(h + gl.arange(0, 64, layout=gl.BlockedLayout([1], [32], [4], [0])), bins)


# probe gl inline_asm_elementwise -- -s "*fp32, *fp32"
@gluon.jit
def inline_asm_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    y = gl.inline_asm_elementwise("mul.f32 $0, $1, 0f40000000;", "=r,r", [x], dtype=gl.float32,
                                  is_pure=True, pack=1)
    gl.store(q + offs, y)


@gluon.jit
def _relu_or_scale(x, s):
    if x > 0:
        return x * s
    return 0.0 * s


# probe gl map_elementwise -- -s "*fp32, *fp32"
@gluon.jit
def map_elementwise_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.map_elementwise(_relu_or_scale, x, x * 2, pack=1))


# probe gl dot_fma -- -s "*fp32, *fp32, *fp32"
@gluon.jit
def dot_fma_kernel(a_ptr, b_ptr, c_ptr):
    acc_l: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    a_l: gl.constexpr = gl.DotOperandLayout(0, acc_l, 1)
    b_l: gl.constexpr = gl.DotOperandLayout(1, acc_l, 1)
    m = gl.arange(0, 32, layout=gl.SliceLayout(1, a_l))
    k = gl.arange(0, 16, layout=gl.SliceLayout(0, a_l))
    a = gl.load(a_ptr + m[:, None] * 16 + k[None, :])
    kb = gl.arange(0, 16, layout=gl.SliceLayout(1, b_l))
    n = gl.arange(0, 16, layout=gl.SliceLayout(0, b_l))
    b = gl.load(b_ptr + kb[:, None] * 16 + n[None, :])
    acc = gl.zeros([32, 16], gl.float32, layout=acc_l)
    c = gl.dot_fma(a, b, acc)
    mc = gl.arange(0, 32, layout=gl.SliceLayout(1, acc_l))
    nc = gl.arange(0, 16, layout=gl.SliceLayout(0, acc_l))
    gl.store(c_ptr + mc[:, None] * 16 + nc[None, :], c)


# probe gl allocate_shared_memory -- -s "*fp32"
@gluon.jit
def allocate_shared_memory_kernel(p):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    layout: gl.constexpr = gl.SwizzledSharedLayout(1, 1, 1, [0])
    a = gl.allocate_shared_memory(gl.float32, [128], layout, value=x)
    b = gl.allocate_shared_memory(element_ty=gl.float32, shape=[2, 128], layout=gl.SwizzledSharedLayout(1, 1, 1, [0]))
    b.index(1).store(a.load(L1) + 1)
    gl.store(p + offs, b.index(1).load(L1))


@gluon.jit
def _default(p, bar_smem):
    offs = gl.arange(0, 128, layout=L1)
    gl.store(p + offs, 1.0)


@gluon.jit
def _worker(p, bar_smem):
    offs = gl.arange(0, 32, layout=gl.BlockedLayout([1], [32], [1], [0]))
    gl.store(p + 128 + offs, 2.0)


# probe gl warp_specialize -- -s "*fp32"
@gluon.jit
def warp_specialize_kernel(p):
    smem = gl.allocate_shared_memory(gl.int64, [1], gl.SwizzledSharedLayout(1, 1, 1, [0]))
    gl.warp_specialize([(_default, (p, smem)), (_worker, (p, smem))], worker_num_warps=[1],
                       worker_num_regs=[48])


# probe gl fp4_to_fp -- -s "*u8, *bf16, *fp16"
@gluon.jit
def fp4_to_fp_kernel(p, q, r):
    rows = gl.arange(0, 32, layout=gl.SliceLayout(1, L2))
    cols = gl.arange(0, 16, layout=gl.SliceLayout(0, L2))
    x = gl.load(p + rows[:, None] * 16 + cols[None, :])
    y = gl.fp4_to_fp(x, gl.bfloat16, axis=1)
    cols2 = gl.arange(0, 32, layout=gl.SliceLayout(0, L2))
    gl.store(q + rows[:, None] * 32 + cols2[None, :], gl.convert_layout(y, L2))
    z = gl.fp4_to_fp(src=x, elem_type=gl.float16, axis=0)
    rows2 = gl.arange(0, 64, layout=gl.SliceLayout(1, L2))
    gl.store(r + rows2[:, None] * 16 + cols[None, :], gl.convert_layout(z, L2))


# probe gl bank_conflicts -- -s "*fp32"
@gluon.jit
def bank_conflicts_kernel(p):
    x = gl.full([32, 16], 1.0, gl.float32, layout=L2)
    smem = gl.allocate_shared_memory(gl.float32, [32, 16], gl.SwizzledSharedLayout(1, 1, 1, [1, 0]), x)
    n: gl.constexpr = gl.bank_conflicts(x.type, smem.type)
    gl.static_assert(n == 0)
    gl.store(p, smem.load(L2).sum())


# probe gl to_linear_layout -- -s "*fp32"
@gluon.jit
def to_linear_layout_kernel(p):
    ll: gl.constexpr = gl.to_linear_layout(L2, [32, 16])
    rows = gl.arange(0, 32, layout=gl.SliceLayout(1, ll))
    cols = gl.arange(0, 16, layout=gl.SliceLayout(0, ll))
    offs = rows[:, None] * 16 + cols[None, :]
    gl.store(p + offs, offs.to(gl.float32))


@gluon.jit
def _default_returns(p):
    offs = gl.arange(0, 128, layout=L1)
    return (gl.load(p + offs), )


@gluon.jit
def _worker_stores(p):
    gl.store(p + 128 + gl.arange(0, 32, layout=gl.BlockedLayout([1], [32], [1], [0])), 2.0)


# probe gl warp_specialize -- -s "*fp32"
@gluon.jit
def warp_specialize_result_kernel(p):
    x = gl.warp_specialize([(_default_returns, (p, )), (_worker_stores, (p, ))], [1], [48])
    gl.static_assert(x is not None, "warp_specialize returned None, not the default partition's result")
    gl.store(p + gl.arange(0, 128, layout=L1), x[0] + 1)


# probe gl warp_specialize -- -s "*fp32, i32"
@gluon.jit
def warp_specialize_loop_kernel(p, n):
    gl.warp_specialize([(_default, (p, p)), (_worker, (p, p))], [1], [48])
    for i in range(n):
        gl.warp_specialize([(_default, (p + i, p)), (_worker, (p + i, p))], [1], [64])


# probe gl warp_specialize -- -s "*fp32"
@gluon.jit
def warp_specialize_keywords_kernel(p):
    gl.warp_specialize(functions_and_args=[(_default, (p, p)), (_worker, (p, p))], worker_num_warps=[1],
                       worker_num_regs=[48])
