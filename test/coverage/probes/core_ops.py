# Probes of gl's tensor operations from _core (creation, arithmetic, shape,
# layouts, hints, program queries, compile-time helpers), each called with
# Triton 3.6's parameter names.
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

L1: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
L2: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])


@gluon.jit
def tile_offsets(M: gl.constexpr, N: gl.constexpr, layout: gl.constexpr):
    r = gl.arange(0, M, layout=gl.SliceLayout(1, layout))
    c = gl.arange(0, N, layout=gl.SliceLayout(0, layout))
    return r[:, None] * N + c[None, :]


# probe gl arange -- -s "*i32"
@gluon.jit
def arange_kernel(p):
    offs = gl.arange(start=0, end=128, layout=L1)
    gl.store(p + offs, gl.arange(128, 256, layout=L1))


# probe gl full -- -s "*fp16"
@gluon.jit
def full_kernel(p):
    offs = tile_offsets(32, 16, L2)
    gl.store(p + offs, gl.full(shape=[32, 16], value=1.5, dtype=gl.float16, layout=L2))


# probe gl add -- -s "*i32, *i32"
@gluon.jit
def add_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    gl.store(q + offs, gl.add(gl.load(p + offs), 5, sanitize_overflow=False))


# probe gl sub -- -s "*fp32, *fp32"
@gluon.jit
def sub_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.sub(x, 1.0, sanitize_overflow=True))


# probe gl mul -- -s "*i32, *i32"
@gluon.jit
def mul_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.mul(x, x))


# probe gl cast -- -s "*fp32, *fp16, *i32"
@gluon.jit
def cast_kernel(p, q, r):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.cast(x, gl.float16, fp_downcast_rounding="rtz"))
    gl.store(r + offs, gl.cast(x, gl.int32, bitcast=True))


# probe gl broadcast -- -s "*fp32"
@gluon.jit
def broadcast_kernel(p):
    r = gl.arange(0, 32, layout=gl.SliceLayout(1, L2))[:, None]
    c = gl.arange(0, 16, layout=gl.SliceLayout(0, L2))[None, :]
    a, b = gl.broadcast(r, c)
    gl.store(p + a * 16 + b, (a + b).to(gl.float32))


# probe gl where -- -s "*fp32, *fp32"
@gluon.jit
def where_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.where(condition=x > 0, x=x, y=0.0))


# probe gl maximum -- -s "*fp32, *fp32"
@gluon.jit
def maximum_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.maximum(x, 0.5, propagate_nan=gl.PropagateNan.ALL) + gl.maximum(x, 1.0))


# probe gl minimum -- -s "*fp32, *fp32"
@gluon.jit
def minimum_kernel(p, q):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.store(q + offs, gl.minimum(x, 0.5, propagate_nan=gl.PropagateNan.NONE))


# probe gl expand_dims -- -s "*fp32"
@gluon.jit
def expand_dims_kernel(p):
    r = gl.arange(0, 32, layout=gl.SliceLayout(1, L2))
    c = gl.arange(0, 16, layout=gl.SliceLayout(0, L2))
    offs = gl.expand_dims(r, 1) * 16 + gl.expand_dims(c, axis=0)
    gl.store(p + offs, offs.to(gl.float32))


# probe gl reshape -- -s "*i32"
@gluon.jit
def reshape_kernel(p):
    x = gl.arange(0, 128, layout=L1)
    y = gl.reshape(x, [4, 32])
    z = gl.reshape(y, 128, can_reorder=False)
    gl.store(p + x, gl.convert_layout(z, L1))


# probe gl permute -- -s "*i32"
@gluon.jit
def permute_kernel(p):
    offs = tile_offsets(32, 16, L2)
    t = gl.permute(offs, (1, 0))
    gl.store(p + gl.permute(offs, 1, 0), t)


# probe gl join -- -s "*fp32"
# probe gl split -- -s "*fp32"
@gluon.jit
def join_split_kernel(p):
    offs = gl.arange(0, 128, layout=L1)
    x = offs.to(gl.float32)
    j = gl.join(x, x * 2)
    a, b = gl.split(j)
    gl.store(p + offs, a + b)


# probe gl convert_layout -- -s "*fp32, *fp32"
@gluon.jit
def convert_layout_kernel(p, q):
    offs = tile_offsets(32, 16, L2)
    x = gl.load(p + offs)
    other: gl.constexpr = gl.BlockedLayout([4, 1], [4, 8], [1, 4], [0, 1])
    y = gl.convert_layout(x, other, assert_trivial=False)
    gl.store(q + gl.convert_layout(offs, other), y)


# probe gl set_auto_layout -- -s "*fp32"
@gluon.jit
def set_auto_layout_kernel(p):
    offs = gl.arange(0, 128)
    offs = gl.set_auto_layout(offs, L1)
    gl.store(p + offs, offs.to(gl.float32))


# probe gl program_id -- -s "*i32"
# probe gl num_programs -- -s "*i32"
@gluon.jit
def program_kernel(p):
    pid = gl.program_id(axis=0) + gl.program_id(1) * 7 + gl.program_id(2)
    gl.store(p + pid, gl.num_programs(axis=0) + gl.num_programs(1) + gl.num_programs(2))


# probe gl num_warps -- -s "*i32" -w 8
@gluon.jit
def num_warps_kernel(p):
    gl.static_assert(gl.num_warps() == 8)
    offs = gl.arange(0, 256, layout=gl.BlockedLayout([1], [32], [gl.num_warps()], [0]))
    gl.store(p + offs, offs)


# probe gl num_ctas -- -s "*i32"
@gluon.jit
def num_ctas_kernel(p):
    gl.static_assert(gl.num_ctas() == 1)
    gl.store(p, gl.num_ctas())


# probe gl to_tensor -- -s "*i32, i32"
@gluon.jit
def to_tensor_kernel(p, n):
    t = gl.to_tensor(5)
    for i in range(n):
        t = t + i
    gl.store(p, t + gl.to_tensor(n))


# probe gl static_range -- -s "*fp32"
@gluon.jit
def static_range_kernel(p):
    offs = gl.arange(0, 128, layout=L1)
    acc = gl.zeros([128], gl.float32, layout=L1)
    for i in gl.static_range(4):
        acc += i
    for i in gl.static_range(1, 9, 2):
        acc += i
    gl.store(p + offs, acc)


# probe gl static_assert -- -s "*fp32, 64"
@gluon.jit
def static_assert_kernel(p, BLOCK: gl.constexpr):
    gl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32")
    gl.static_assert(cond=BLOCK > 0, msg="positive")
    gl.store(p, 1.0)


# probe gl static_print -- -s "*fp32, 64"
@gluon.jit
def static_print_kernel(p, BLOCK: gl.constexpr):
    gl.static_print("BLOCK is", BLOCK, sep=" ", end="\n")
    gl.store(p, 1.0)


# probe gl thread_barrier -- -s "*fp32"
@gluon.jit
def thread_barrier_kernel(p):
    offs = gl.arange(0, 128, layout=L1)
    gl.store(p + offs, 1.0)
    gl.thread_barrier()
    gl.store(p + offs, gl.load(p + 127 - offs) + 1.0)


# probe gl multiple_of -- -s "*fp32, i32"
# probe gl max_contiguous -- -s "*fp32, i32"
# probe gl max_constancy -- -s "*fp32, i32"
@gluon.jit
def hints_kernel(p, n):
    offs = gl.max_contiguous(gl.multiple_of(gl.arange(0, 128, layout=L1), 128), 128)
    start = gl.multiple_of(n, 16)
    same = gl.max_constancy(gl.full([128], 0, gl.int32, layout=L1) + start, values=128)
    gl.store(p + start + offs + same, 1.0)


# probe gl assume -- -s "*fp32, i32"
@gluon.jit
def assume_kernel(p, n):
    gl.assume(n % 16 == 0)
    gl.assume(cond=n > 0)
    offs = gl.arange(0, 128, layout=L1)
    gl.store(p + n + offs, 1.0)


# probe gl load -- -s "*fp32, *fp32, i32"
@gluon.jit
def load_kernel(p, q, n):
    offs = gl.arange(0, 128, layout=L1)
    m = offs < n
    a = gl.load(pointer=p + offs, mask=m, other=0.0, cache_modifier=".cg", eviction_policy="evict_last")
    b = gl.load(p + offs, m, 1.0, volatile=True)
    gl.store(q + offs, a + b, mask=m)


# probe gl store -- -s "*fp32, i32"
@gluon.jit
def store_kernel(p, n):
    offs = gl.arange(0, 128, layout=L1)
    gl.store(pointer=p + offs, value=1.0, mask=offs < n, cache_modifier=".cs", eviction_policy="evict_first")


# probe gl device_print -- -s "*fp32"
@gluon.jit
def device_print_kernel(p):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.device_print("x", x)
    gl.device_print("offs ", offs, hex=True)


# probe gl device_assert -- -s "*fp32" --debug
# probe gl device_assert -- -s "*fp32"
@gluon.jit
def device_assert_kernel(p):
    offs = gl.arange(0, 128, layout=L1)
    x = gl.load(p + offs)
    gl.device_assert(x >= 0, "x must not be negative")
    gl.device_assert(x < 100, msg="small", mask=offs < 64)
    gl.store(p + offs, x + 1)


# probe gl expand_dims -- -s "*fp32"
@gluon.jit
def expand_dims_tuple_kernel(p):
    L3: gl.constexpr = gl.BlockedLayout([1, 1, 1], [1, 1, 32], [4, 1, 1], [2, 1, 0])
    x = gl.arange(0, 4, layout=gl.SliceLayout(1, gl.SliceLayout(2, L3)))
    y = gl.expand_dims(x, (1, 2))
    gl.store(p + y, 1.0)


# probe gl static_range -- -s "*fp32"
@gluon.jit
def static_range_keywords_kernel(p):
    for i in gl.static_range(arg1=0, arg2=4, step=2):
        gl.store(p + i, 1.0)
