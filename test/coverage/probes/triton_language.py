# Probes of triton.language (`tl`, Triton 3.6), written as Triton's kernels use
# the names: no layout anywhere, every one inferred. Several names share a kernel.
import triton
import triton.language as tl


# probe tl int1 -- -s "*fp32, *fp32"
# probe tl int8 -- -s "*fp32, *fp32"
# probe tl int16 -- -s "*fp32, *fp32"
# probe tl int32 -- -s "*fp32, *fp32"
# probe tl int64 -- -s "*fp32, *fp32"
# probe tl uint8 -- -s "*fp32, *fp32"
# probe tl uint16 -- -s "*fp32, *fp32"
# probe tl uint32 -- -s "*fp32, *fp32"
# probe tl uint64 -- -s "*fp32, *fp32"
# probe tl float16 -- -s "*fp32, *fp32"
# probe tl bfloat16 -- -s "*fp32, *fp32"
# probe tl float32 -- -s "*fp32, *fp32"
# probe tl float64 -- -s "*fp32, *fp32"
# probe tl float8e4nv -- -s "*fp32, *fp32"
# probe tl float8e5 -- -s "*fp32, *fp32"
# probe tl cast -- -s "*fp32, *fp32"
@triton.jit
def casts(p, q):
    offs = tl.arange(0, 128)
    x = tl.load(p + offs)
    y = x.to(tl.int1).to(tl.int8).to(tl.int16).to(tl.int32).to(tl.int64).to(tl.uint8).to(tl.uint16)
    y = y.to(tl.uint32).to(tl.uint64).to(tl.float16).to(tl.bfloat16).to(tl.float64)
    z = tl.cast(x, tl.float8e4nv).to(tl.float32) + x.to(tl.float8e5).to(tl.float32)
    tl.store(q + offs, y.to(tl.float32) + z)


# probe-fails tl float8e4b15 -- -s "*fp32, *fp32"
@triton.jit
def cast_float8e4b15(p, q):
    offs = tl.arange(0, 128)
    tl.store(q + offs, tl.load(p + offs).to(tl.float8e4b15).to(tl.float32))


# probe-fails tl float8e4b8 -- -s "*fp32, *fp32"
@triton.jit
def cast_float8e4b8(p, q):
    offs = tl.arange(0, 128)
    tl.store(q + offs, tl.load(p + offs).to(tl.float8e4b8).to(tl.float32))


# probe-fails tl float8e5b16 -- -s "*fp32, *fp32"
@triton.jit
def cast_float8e5b16(p, q):
    offs = tl.arange(0, 128)
    tl.store(q + offs, tl.load(p + offs).to(tl.float8e5b16).to(tl.float32))


# probe tl program_id -- -s "*fp32, *fp32, i32"
# probe tl num_programs -- -s "*fp32, *fp32, i32"
# probe tl arange -- -s "*fp32, *fp32, i32"
# probe tl full -- -s "*fp32, *fp32, i32"
# probe tl zeros -- -s "*fp32, *fp32, i32"
# probe tl zeros_like -- -s "*fp32, *fp32, i32"
# probe tl add -- -s "*fp32, *fp32, i32"
# probe tl sub -- -s "*fp32, *fp32, i32"
# probe tl mul -- -s "*fp32, *fp32, i32"
# probe tl where -- -s "*fp32, *fp32, i32"
# probe tl maximum -- -s "*fp32, *fp32, i32"
# probe tl minimum -- -s "*fp32, *fp32, i32"
# probe tl clamp -- -s "*fp32, *fp32, i32"
# probe tl cdiv -- -s "*fp32, *fp32, i32"
@triton.jit
def elementwise(p, q, n):
    offs = tl.program_id(0) * 128 + tl.arange(0, 128) + tl.num_programs(0) * 0
    x = tl.load(p + offs, mask=offs < n, other=0.0)
    y = tl.add(x, tl.full([128], 2.0, tl.float32)) - tl.sub(x, 1.0) + tl.mul(x, x) + tl.zeros([128], tl.float32)
    y = tl.where(x > 0, y, tl.zeros_like(y)) + tl.maximum(x, 0.5) + tl.minimum(x, 0.5) + tl.clamp(x, -1.0, 1.0)
    tl.store(q + offs, y + tl.cdiv(n, 128), mask=offs < n)


# probe tl exp -- -s "*fp32, *fp32, *u32"
# probe tl exp2 -- -s "*fp32, *fp32, *u32"
# probe tl log -- -s "*fp32, *fp32, *u32"
# probe tl log2 -- -s "*fp32, *fp32, *u32"
# probe tl sqrt -- -s "*fp32, *fp32, *u32"
# probe tl sqrt_rn -- -s "*fp32, *fp32, *u32"
# probe tl rsqrt -- -s "*fp32, *fp32, *u32"
# probe tl abs -- -s "*fp32, *fp32, *u32"
# probe tl sin -- -s "*fp32, *fp32, *u32"
# probe tl cos -- -s "*fp32, *fp32, *u32"
# probe tl erf -- -s "*fp32, *fp32, *u32"
# probe tl floor -- -s "*fp32, *fp32, *u32"
# probe tl ceil -- -s "*fp32, *fp32, *u32"
# probe tl fdiv -- -s "*fp32, *fp32, *u32"
# probe tl div_rn -- -s "*fp32, *fp32, *u32"
# probe tl fma -- -s "*fp32, *fp32, *u32"
# probe tl umulhi -- -s "*fp32, *fp32, *u32"
@triton.jit
def math(p, q, r):
    offs = tl.arange(0, 128)
    x = tl.load(p + offs)
    y = tl.exp(x) + tl.exp2(x) + tl.log(x) + tl.log2(x) + tl.sqrt(x) + tl.sqrt_rn(x) + tl.rsqrt(x)
    y += tl.abs(x) + tl.sin(x) + tl.cos(x) + tl.erf(x) + tl.floor(x) + tl.ceil(x)
    y += tl.fdiv(x, y) + tl.div_rn(x, y) + tl.fma(x, y, x)
    u = tl.load(r + offs)
    tl.store(q + offs, y)
    tl.store(r + offs, tl.umulhi(u, u))


# probe tl load -- -s "*fp32, *fp32, i32"
# probe tl store -- -s "*fp32, *fp32, i32"
# probe tl multiple_of -- -s "*fp32, *fp32, i32"
# probe tl max_contiguous -- -s "*fp32, *fp32, i32"
# probe tl max_constancy -- -s "*fp32, *fp32, i32"
# probe tl assume -- -s "*fp32, *fp32, i32"
# probe tl debug_barrier -- -s "*fp32, *fp32, i32"
@triton.jit
def memory(p, q, n):
    tl.assume(n > 0)
    offs = tl.max_contiguous(tl.multiple_of(tl.arange(0, 128), 128), 128)
    c = tl.max_constancy(offs // 128, 128)
    x = tl.load(p + offs + c, mask=offs < n, other=0.0, cache_modifier=".cg", eviction_policy="evict_last")
    tl.debug_barrier()
    tl.store(q + offs, x, mask=offs < n)


# probe tl make_block_ptr -- -s "*fp32, *fp32, i32, i32, i32"
# probe tl advance -- -s "*fp32, *fp32, i32, i32, i32"
@triton.jit
def block_ptrs(p, q, m, n, stride):
    src = tl.make_block_ptr(p, (m, n), (stride, 1), (0, 0), (32, 32), (1, 0))
    dst = tl.make_block_ptr(q, (m, n), (stride, 1), (0, 0), (32, 32), (1, 0))
    x = tl.load(tl.advance(src, (32, 0)), boundary_check=(0, 1), padding_option="zero")
    tl.store(dst, x, boundary_check=(0, 1))


# probe tl make_tensor_descriptor -- -s "*fp16, *fp16, i32, i32:16"
# probe tl load_tensor_descriptor -- -s "*fp16, *fp16, i32, i32:16"
# probe tl store_tensor_descriptor -- -s "*fp16, *fp16, i32, i32:16"
# probe tl tensor_descriptor -- -s "*fp16, *fp16, i32, i32:16"
@triton.jit
def descriptors(p, q, m, n):
    a = tl.make_tensor_descriptor(p, [m, n], [n, 1], [64, 64])
    b = tl.make_tensor_descriptor(q, [m, n], [n, 1], [64, 64])
    tl.static_assert(isinstance(a, tl.tensor_descriptor))
    x = tl.load_tensor_descriptor(a, [0, 0])
    tl.store_tensor_descriptor(b, [0, 0], x + a.load([64, 0]))


# probe tl atomic_add -- -s "*i32, *fp32"
# probe tl atomic_and -- -s "*i32, *fp32"
# probe tl atomic_or -- -s "*i32, *fp32"
# probe tl atomic_xor -- -s "*i32, *fp32"
# probe tl atomic_max -- -s "*i32, *fp32"
# probe tl atomic_min -- -s "*i32, *fp32"
# probe tl atomic_xchg -- -s "*i32, *fp32"
# probe tl atomic_cas -- -s "*i32, *fp32"
@triton.jit
def atomics(p, f):
    offs = tl.arange(0, 128)
    tl.atomic_add(p + offs, 1)
    tl.atomic_and(p + offs, 7)
    tl.atomic_or(p + offs, 8)
    tl.atomic_xor(p + offs, 3)
    tl.atomic_max(p + offs, 2)
    tl.atomic_min(p + offs, 100)
    tl.atomic_xchg(p + offs, 5)
    tl.atomic_cas(p, 5, 6)
    tl.atomic_add(f + offs, 1.0, sem="relaxed", scope="gpu")


@triton.jit
def _add(a, b):
    return a + b


# probe tl sum -- -s "*fp32, *fp32, *i32"
# probe tl max -- -s "*fp32, *fp32, *i32"
# probe tl min -- -s "*fp32, *fp32, *i32"
# probe tl xor_sum -- -s "*fp32, *fp32, *i32"
# probe tl reduce_or -- -s "*fp32, *fp32, *i32"
# probe tl reduce -- -s "*fp32, *fp32, *i32"
# probe tl associative_scan -- -s "*fp32, *fp32, *i32"
# probe tl cumsum -- -s "*fp32, *fp32, *i32"
# probe tl cumprod -- -s "*fp32, *fp32, *i32"
# probe tl argmax -- -s "*fp32, *fp32, *i32"
# probe tl argmin -- -s "*fp32, *fp32, *i32"
@triton.jit
def reductions(p, q, r):
    offs = tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :]
    x = tl.load(p + offs)
    i = tl.load(r + offs)
    s = tl.sum(x, 1) + tl.max(x, 1) + tl.min(x, 1) + tl.reduce(x, 1, _add) + tl.argmax(x, 1) + tl.argmin(x, 1)
    t = tl.xor_sum(i, 1) + tl.reduce_or(i, 1)
    tl.store(q + tl.arange(0, 64), s + t)
    y = tl.cumsum(x, 1) + tl.cumprod(x, 1) + tl.associative_scan(x, 1, _add)
    tl.store(p + offs, y)


# probe tl histogram -- -s "*i32, *i32, *fp32"
# probe tl gather -- -s "*i32, *i32, *fp32"
@triton.jit
def hist_gather(p, q, r):
    offs = tl.arange(0, 128)
    i = tl.load(p + offs) % 32
    tl.store(q + tl.arange(0, 32), tl.histogram(i, 32))
    tl.store(r + offs, tl.gather(tl.load(r + offs), i, 0))


# probe tl expand_dims -- -s "*fp32, *fp32"
# probe tl broadcast -- -s "*fp32, *fp32"
# probe tl broadcast_to -- -s "*fp32, *fp32"
# probe tl reshape -- -s "*fp32, *fp32"
# probe tl view -- -s "*fp32, *fp32"
# probe tl permute -- -s "*fp32, *fp32"
# probe tl trans -- -s "*fp32, *fp32"
# probe tl join -- -s "*fp32, *fp32"
# probe tl split -- -s "*fp32, *fp32"
# probe tl cat -- -s "*fp32, *fp32"
# probe tl ravel -- -s "*fp32, *fp32"
# probe tl interleave -- -s "*fp32, *fp32"
# probe tl flip -- -s "*fp32, *fp32"
@triton.jit
def shapes(p, q):
    offs = tl.arange(0, 32)[:, None] * 16 + tl.arange(0, 16)[None, :]
    x = tl.load(p + offs)
    y = tl.broadcast_to(tl.expand_dims(tl.sum(x, 1), 1), (32, 16))
    a, b = tl.broadcast(x, y)
    z = tl.reshape(tl.trans(tl.permute(a, (1, 0))), (16, 32)) + tl.view(b, (16, 32))
    j = tl.join(z, z)
    u, v = tl.split(j)
    w = tl.cat(tl.ravel(u), tl.ravel(v), can_reorder=True)
    tl.store(q + tl.arange(0, 1024), w + tl.interleave(tl.ravel(u), tl.ravel(v)) + tl.flip(w, 0))


# probe tl dot -- -s "*fp16, *fp16, *fp32"
@triton.jit
def dots(a, b, c):
    offs = tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]
    acc = tl.dot(tl.load(a + offs), tl.load(b + offs), input_precision="tf32", out_dtype=tl.float32)
    tl.store(c + offs, acc)


# probe-fails tl dot_scaled -- -s "*fp8e4nv, *fp8e4nv, *fp32, *u8, *u8"
@triton.jit
def dot_scaled_kernel(a, b, c, sa, sb):
    offs = tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]
    so = tl.arange(0, 64)[:, None] * 2 + tl.arange(0, 2)[None, :]
    acc = tl.dot_scaled(tl.load(a + offs), tl.load(sa + so), "e4m3", tl.load(b + offs), tl.load(sb + so), "e4m3")
    tl.store(c + offs, acc)


# probe tl softmax -- -s "*fp32, *fp32, *i32"
# probe tl sigmoid -- -s "*fp32, *fp32, *i32"
# probe tl sort -- -s "*fp32, *fp32, *i32"
# probe tl topk -- -s "*fp32, *fp32, *i32"
# probe tl bitonic_merge -- -s "*fp32, *fp32, *i32"
# probe tl swizzle2d -- -s "*fp32, *fp32, *i32"
@triton.jit
def standard(p, q, r):
    offs = tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :]
    x = tl.load(p + offs)
    y = tl.softmax(x) + tl.sigmoid(x) + tl.sort(x, 1) + tl.bitonic_merge(x, 1, 1)
    tl.store(q + offs, y)
    tl.store(q + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 4)[None, :], tl.topk(x, 4))
    i, j = tl.swizzle2d(tl.program_id(0), tl.program_id(1), 16, 16, 4)
    tl.store(r, i + j)


# probe tl philox -- -s "*fp32, *fp32, i32"
# probe tl philox_impl -- -s "*fp32, *fp32, i32"
# probe tl rand -- -s "*fp32, *fp32, i32"
# probe tl rand4x -- -s "*fp32, *fp32, i32"
# probe tl randint -- -s "*fp32, *fp32, i32"
# probe tl randint4x -- -s "*fp32, *fp32, i32"
# probe tl randn -- -s "*fp32, *fp32, i32"
# probe tl randn4x -- -s "*fp32, *fp32, i32"
# probe tl pair_uniform_to_normal -- -s "*fp32, *fp32, i32"
# probe tl uint_to_uniform_float -- -s "*fp32, *fp32, i32"
@triton.jit
def random(p, q, seed):
    offs = tl.arange(0, 128)
    a, b, c, d = tl.randint4x(seed, offs)
    e, f, g, h = tl.rand4x(seed, offs)
    m, n, o, s = tl.randn4x(seed, offs)
    u, v = tl.pair_uniform_to_normal(e, f)
    w, x, y, z = tl.philox(seed, a, b, c, d)
    w1, x1, y1, z1 = tl.philox_impl(a, b, c, d, a.to(tl.uint32), b.to(tl.uint32))
    r = tl.rand(seed, offs) + tl.randn(seed, offs) + tl.uint_to_uniform_float(tl.randint(seed, offs))
    tl.store(q + offs, r + u + v + m + g + h + n + o + s + tl.uint_to_uniform_float(w + x + y + z + w1 + x1 + y1 + z1))


@triton.jit
def _twice(x):
    return x * 2


# probe tl inline_asm_elementwise -- -s "*fp32, *fp32"
# probe tl map_elementwise -- -s "*fp32, *fp32"
# probe tl device_print -- -s "*fp32, *fp32"
# probe tl device_assert -- -s "*fp32, *fp32"
# probe tl static_assert -- -s "*fp32, *fp32"
# probe tl static_print -- -s "*fp32, *fp32"
@triton.jit
def escapes(p, q):
    offs = tl.arange(0, 128)
    x = tl.load(p + offs)
    tl.static_assert(x.shape[0] == 128)
    tl.static_print(x.dtype)
    tl.device_assert(offs < 128, "in range")
    tl.device_print("x", offs)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.float32, is_pure=True, pack=1)
    tl.store(q + offs, tl.map_elementwise(_twice, y))


# probe tl constexpr -- -s "*fp32, *fp32, i32, 128"
# probe tl static_range -- -s "*fp32, *fp32, i32, 128"
# probe tl range -- -s "*fp32, *fp32, i32, 128"
# probe tl condition -- -s "*fp32, *fp32, i32, 128"
# probe tl tensor -- -s "*fp32, *fp32, i32, 128"
# probe tl tuple -- -s "*fp32, *fp32, i32, 128"
# probe tl dtype -- -s "*fp32, *fp32, i32, 128"
# probe tl block_type -- -s "*fp32, *fp32, i32, 128"
# probe tl pointer_type -- -s "*fp32, *fp32, i32, 128"
# probe tl const -- -s "*fp32, *fp32, i32, 128"
# probe tl void -- -s "*fp32, *fp32, i32, 128"
@triton.jit
def compile_time(p, q, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], tl.float32)
    for i in tl.static_range(2):
        acc += i
    for i in tl.range(0, n, 1, num_stages=2):
        acc += tl.load(p + i * BLOCK + offs)
    while tl.condition(n < 0):
        n += 1
    t = (acc, acc)
    tl.static_assert(isinstance(acc, tl.tensor) and isinstance(t, tl.tuple))
    tl.static_assert(isinstance(acc.dtype, tl.dtype) and isinstance(acc.type, tl.block_type))
    tl.static_assert(isinstance(p.dtype, tl.pointer_type))
    tl.store(q + offs, t[0] + t[1])


# probe tl PropagateNan -- -s "*fp32, *fp32"
# probe tl TRITON_MAX_TENSOR_NUMEL -- -s "*fp32, *fp32"
# probe tl math -- -s "*fp32, *fp32"
# probe tl extra -- -s "*fp32, *fp32"
# probe tl target_info -- -s "*fp32, *fp32"
@triton.jit
def namespaces(p, q):
    offs = tl.arange(0, 128)
    x = tl.load(p + offs)
    y = tl.maximum(x, 0.0, propagate_nan=tl.PropagateNan.ALL) + tl.math.exp(x) + tl.extra.cuda.libdevice.exp(x)
    tl.static_assert(tl.TRITON_MAX_TENSOR_NUMEL >= 128)
    tl.static_assert(tl.target_info.is_cuda())
    tl.store(q + offs, y)


# probe tl pi32_t -- -s "*fp32, *fp32"
# probe tl const -- -s "*fp32, *fp32"
@triton.jit
def pointers(p, q: tl.const):
    offs = tl.arange(0, 128)
    r = tl.cast(p, tl.pi32_t)
    tl.store(r + offs, tl.load(q + offs).to(tl.int32))


# probe-fails tl constexpr_type -- -s "*fp32, *fp32"
@triton.jit
def constexpr_type_kernel(p, q):
    offs = tl.arange(0, 128)
    tl.static_assert(isinstance(offs.dtype, tl.constexpr_type))
    tl.store(q + offs, tl.load(p + offs))


# probe-fails tl slice -- -s "*fp32, *fp32"
@triton.jit
def slice_kernel(p, q):
    offs = tl.arange(0, 128)
    x = tl.load(p + offs)
    tl.store(q + tl.arange(0, 64), x[tl.slice(0, 64, 1)])

