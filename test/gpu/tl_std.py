# Kernels of test_tl_std.c: more of triton.language (`tl`) as Triton's
# kernels use it, every layout inferred, compiled as tl.py's are (bundle.sh
# reads the "# kernel" lines): the standard library's sort, topk,
# bitonic_merge and swizzle2d, tl.random, control flow (tl.range with
# num_stages, static_range, a tl.condition while loop, a runtime if),
# tl.gather, map_elementwise and inline_asm_elementwise, and the
# compile-time names (dtypes, types, tl.constexpr, tl.target_info,
# tl.standard, tl.core) through the values the kernels store.
import triton
import triton.language as tl

# kernel sorts: *fp32:16, *fp32:16, *fp32:16, 4, 64, 8
# kernel swizzle: *i32:16, 8, 16, 3
# kernel random: *u32:16, *fp32:16, i64, i32, 256
# kernel control: *fp32:16, *fp32:16, *i32:16, i32, i32, 128
# kernel gathers: *fp32:16, *i32:16, *fp32:16, 16, 32
# kernel asm_ops: *i32:16, *fp32:16, 128; interp=no


@triton.jit
def sorts(x_ptr, out_ptr, bit_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    """Sorting of the M x N block x: ascending and descending along rows,
    the negated rows ascending (dim=1), topk (the K largest per row, largest
    first), and bitonic_merge of bit (rows ascending then descending)."""
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.sort(x))
    tl.store(out_ptr + M * N + offs, tl.sort(x, dim=1, descending=True))
    tl.store(out_ptr + 2 * M * N + offs, tl.sort(x * -1.0, 1))
    top = tl.topk(x, K)
    tl.store(out_ptr + 3 * M * N + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], top)
    bit = tl.load(bit_ptr + offs)
    tl.store(out_ptr + 3 * M * N + M * K + offs, tl.bitonic_merge(bit))
    tl.store(out_ptr + 4 * M * N + M * K + offs, tl.sort(x, descending=True) + x.flip(1))


@triton.jit
def swizzle(out_ptr, SI: tl.constexpr, SJ: tl.constexpr, G: tl.constexpr):
    """tl.swizzle2d of every (i, j) of an SI x SJ grid, groups of G rows:
    out[(i * SJ + j) * 2] the new i, + 1 the new j."""
    i = tl.arange(0, SI)[:, None] + tl.zeros([SI, SJ], tl.int32)
    j = tl.arange(0, SJ)[None, :] + tl.zeros([SI, SJ], tl.int32)
    ni, nj = tl.swizzle2d(i, j, SI, SJ, G)
    o = (i * SJ + j) * 2
    tl.store(out_ptr + o, ni)
    tl.store(out_ptr + o + 1, nj)


@triton.jit
def random(iout_ptr, fout_ptr, seed, n, BLOCK: tl.constexpr):
    """tl.random at offsets 0 .. n-1: iout gets randint, the four of
    randint4x and philox of (offset, 1, 2, 3), then philox_impl of the same
    with the seed's two words as the key; fout rand, randn, rand4x's four,
    randn4x's four, then uint_to_uniform_float and pair_uniform_to_normal of
    the randint4x words (each a row of n)."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(iout_ptr + offs, tl.randint(seed, offs), mask=mask)
    a, b, c, d = tl.randint4x(seed, offs)
    tl.store(iout_ptr + n + offs, a, mask=mask)
    tl.store(iout_ptr + 2 * n + offs, b, mask=mask)
    tl.store(iout_ptr + 3 * n + offs, c, mask=mask)
    tl.store(iout_ptr + 4 * n + offs, d, mask=mask)
    one = tl.full([BLOCK], 1, tl.uint32)
    p = tl.philox(seed, offs, one, one + 1, one + 2, n_rounds=7)
    key = seed.to(tl.uint64)
    q = tl.philox_impl(offs.to(tl.uint32), one, one + 1, one + 2, (key & 0xffffffff).to(tl.uint32),
                       ((key >> 32) & 0xffffffff).to(tl.uint32), 7)
    for k in tl.static_range(4):
        tl.store(iout_ptr + (5 + k) * n + offs, p[k], mask=mask)
        tl.store(iout_ptr + (9 + k) * n + offs, q[k], mask=mask)
    tl.store(fout_ptr + offs, tl.rand(seed, offs), mask=mask)
    tl.store(fout_ptr + n + offs, tl.randn(seed, offs), mask=mask)
    r4 = tl.rand4x(seed, offs)
    n4 = tl.randn4x(seed, offs)
    for k in tl.static_range(4):
        tl.store(fout_ptr + (2 + k) * n + offs, r4[k], mask=mask)
        tl.store(fout_ptr + (6 + k) * n + offs, n4[k], mask=mask)
    u1 = tl.random.uint_to_uniform_float(a)
    u2 = tl.uint_to_uniform_float(b)
    z1, z2 = tl.pair_uniform_to_normal(u1, u2)
    tl.store(fout_ptr + 10 * n + offs, u1, mask=mask)
    tl.store(fout_ptr + 11 * n + offs, z1, mask=mask)
    tl.store(fout_ptr + 12 * n + offs, z2, mask=mask)


@triton.jit
def twice(v):
    return v * 2


@triton.jit
def control(x_ptr: tl.const, y_ptr, info_ptr, n, flag, BLOCK: tl.constexpr):
    """y = 2 (x + 3) (x read through a tl.const pointer) through a grid-stride tl.range loop (num_stages, as Triton
    pipelines it) and a static_range; info: program_id/num_programs facts,
    a tl.condition while loop's trip count, compile-time queries as bits,
    map_elementwise's results (test_tl.c's run_control)."""
    pid = tl.program_id(0)
    npg = tl.num_programs(0)
    for start in tl.range(pid * BLOCK, n, npg * BLOCK, num_stages=2):
        offs = tl.multiple_of(start, BLOCK) + tl.arange(0, BLOCK)
        offs = tl.max_contiguous(offs, BLOCK)
        mask = offs < n
        v = tl.load(x_ptr + offs, mask=mask)
        for k in tl.static_range(3):
            v = v + (k + 1) / 2
        tl.store(y_ptr + offs, twice(v), mask=mask)
    tl.assume(n > 0)
    # the number of doublings of 1 below n
    i = 0
    t = 1
    while tl.condition(t < n, disable_licm=True):
        t = t * 2
        i += 1
    tl.debug_barrier()
    r = tl.arange(0, BLOCK)
    if flag != 0:
        tl.device_print("never printed", flag)
    tl.device_assert(r < BLOCK, "r in range")
    tl.store(info_ptr + r, tl.map_elementwise(lambda_max, r, r * 0 + 40))
    flags: tl.constexpr = (
        isinstance(r, tl.tensor) * 1 + isinstance(r.dtype, tl.dtype) * 2 +
        isinstance(r.type, tl.block_type) * 4 + isinstance(x_ptr.dtype, tl.pointer_type) * 8 +
        (tl.TRITON_MAX_TENSOR_NUMEL >= 1048576) * 16 + (r.dtype == tl.int32) * 32 +
        (tl.pi32_t == tl.pointer_type(tl.int32)) * 64 + tl.target_info.is_cuda() * 128 +
        (x_ptr.dtype.element_ty == tl.float32) * 256 + isinstance(BLOCK, tl.constexpr) * 512 +
        (tl.constexpr(3) == 3) * 1024 + (r.shape[0] == BLOCK) * 2048)
    q = tl.core.to_tensor(i)
    tl.store(info_ptr + BLOCK + pid, q * 1000000 + pid * 1000 + npg)
    if pid == 0:
        tl.store(info_ptr + BLOCK + npg, flags)
        pair = (r, r + 1)
        tl.static_assert(len(pair) == 2)
        s = tl.standard.sum(pair[1], 0) + tl.sum(pair[0], 0)
        tl.store(info_ptr + BLOCK + npg + 1, s)
        p = tl.cast(info_ptr + BLOCK + npg + 2, tl.pi32_t)
        tl.store(p, tl.load(x_ptr).to(tl.int32, bitcast=True))


@triton.jit
def lambda_max(a, b):
    if a > b:
        m = a
    else:
        m = b
    return m


@triton.jit
def gathers(x_ptr, idx_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    """tl.gather of the M x N block x along dim 1 and along dim 0 at the
    indices idx (M x N, each < M and < N)."""
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offs)
    i = tl.load(idx_ptr + offs)
    tl.store(out_ptr + offs, tl.gather(x, i, 1))
    tl.store(out_ptr + M * N + offs, tl.gather(x, i % M, axis=0))


@triton.jit
def asm_ops(iout_ptr, fout_ptr, BLOCK: tl.constexpr):
    """tl.inline_asm_elementwise and tl.extra.cuda.libdevice (Triton's
    interpreter can run neither): iout = r rotated left by 8 (one value per
    thread element), fout the two f32 outputs of one asm block of a pair of
    inputs packed 2 per call, then libdevice's exp2 of r / 32."""
    r = tl.arange(0, BLOCK)
    rot = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $1, 8;", "=r,r", [r], dtype=tl.int32,
                                    is_pure=True, pack=1)
    tl.store(iout_ptr + r, rot)
    f = r.to(tl.float32)
    a, b = tl.inline_asm_elementwise("add.f32 $0, $2, $3; mul.f32 $1, $2, $3;", "=r,=r,r,r",
                                     [f, f + 0.5], dtype=(tl.float32, tl.float32), is_pure=True,
                                     pack=1)
    tl.store(fout_ptr + r, a)
    tl.store(fout_ptr + BLOCK + r, b)
    tl.store(fout_ptr + 2 * BLOCK + r, tl.extra.cuda.libdevice.exp2(f / 32.0))
