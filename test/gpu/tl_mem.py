# Kernels of test_tl_mem.c: triton.language's memory operations as Triton's
# kernels use them, every layout inferred, compiled as compile.py compiles
# them (bundle.sh reads the "# kernel" lines): block pointers (make_block_ptr,
# advance, boundary_check with zero and nan padding), tensor descriptors
# made in the kernel and passed as tensordesc<...> arguments (TMA loads and
# stores, clipped at the tensor's edges), and the atomics (add, max, min,
# and, or, xor under contention, xchg and cas with their old values, f32
# add).
import triton
import triton.language as tl

# kernel bp_copy: *fp32:16, *fp32:16, i32, i32, i32, 32, 64
# kernel bp_rows: *fp32:16, *fp32:16, i32, i32:16, 16, 32
# kernel desc_made: *fp16:16, *fp16:16, i32, i32:16, 64, 64
# kernel desc_args: tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, 64
# kernel atomics: *i32:16, *i32:16, *fp32:16, *i32:16, *fp32:16, *i32:16, i32, 256


@triton.jit
def bp_copy(x_ptr, y_ptr, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    """y[i, j] = 2 x[i, j] inside the M x N matrix (rows `stride` apart),
    one BM x BN block per program; nothing written outside it."""
    p = tl.make_block_ptr(x_ptr, (M, N), (stride, 1), (tl.program_id(0) * BM, 0), (BM, BN), (1, 0))
    x = tl.load(p, boundary_check=(0, 1), padding_option="zero")
    q = tl.make_block_ptr(y_ptr, (M, N), (stride, 1), (tl.program_id(0) * BM, 0), (BM, BN), (1, 0))
    tl.store(q, x * 2, boundary_check=(0, 1))


@triton.jit
def bp_rows(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    """y (M x BN): the sum of x's column blocks of BN (tl.advance along the
    rows), past N padded with NaN, which the store turns into -1000."""
    p = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (tl.program_id(0) * BM, 0), (BM, BN), (1, 0))
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, tl.cdiv(N, BN)):
        acc += tl.load(p, boundary_check=(0, 1), padding_option="nan")
        p = tl.advance(p, (0, BN))
    q = tl.make_block_ptr(y_ptr, (M, BN), (BN, 1), (tl.program_id(0) * BM, 0), (BM, BN), (1, 0))
    tl.store(q, tl.where(acc == acc, acc, -1000.0), boundary_check=(0, ))


@triton.jit
def desc_made(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    """y = x + 1 (M x N f16) through descriptors made in the kernel, one
    row of blocks per program; the last row of blocks clipped at M."""
    pid = tl.program_id(0)
    a = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    b = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    for j in range(0, tl.cdiv(N, BN)):
        v = tl.load_tensor_descriptor(a, [pid * BM, j * BN])
        tl.store_tensor_descriptor(b, [pid * BM, j * BN], v + 1)


@triton.jit
def desc_args(in_desc, out_desc, BM: tl.constexpr):
    """out = 2 in, block row pid, through descriptor arguments."""
    pid = tl.program_id(0)
    x = in_desc.load([pid * BM, 0])
    out_desc.store([pid * BM, 0], x * 2)


@triton.jit
def atomics(x_ptr, idx_ptr, f_ptr, buckets_ptr, fbuckets_ptr, uniq_ptr, n, BLOCK: tl.constexpr):
    """Element i of x (i32) and f (f32) goes to bucket idx[i] (of 16): row
    0 of buckets gets atomic_add, rows 1 to 5 max, min, and, or, xor;
    fbuckets the f32 adds. uniq (8 rows of n): row 0 atomic_add of x, its
    old values in row 1; row 2 xchg, old values in row 3; row 4 cas
    (compares with the initial value on even i, with it + 1 on odd i), old
    values in row 5 (n a multiple of BLOCK: cas takes no mask); row 6 an
    acquire/release add at cta scope, row 7 a relaxed max."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    f = tl.load(f_ptr + offs, mask=mask, other=0.0)
    b = tl.load(idx_ptr + offs, mask=mask, other=0)
    tl.atomic_add(buckets_ptr + b, x, mask=mask)
    tl.atomic_max(buckets_ptr + 16 + b, x, mask=mask)
    tl.atomic_min(buckets_ptr + 32 + b, x, mask=mask)
    tl.atomic_and(buckets_ptr + 48 + b, x, mask=mask)
    tl.atomic_or(buckets_ptr + 64 + b, x, mask=mask)
    tl.atomic_xor(buckets_ptr + 80 + b, x, mask=mask)
    tl.atomic_add(fbuckets_ptr + b, f, mask=mask)
    old = tl.atomic_add(uniq_ptr + offs, x, mask=mask)
    tl.store(uniq_ptr + n + offs, old, mask=mask)
    old = tl.atomic_xchg(uniq_ptr + 2 * n + offs, x, mask=mask)
    tl.store(uniq_ptr + 3 * n + offs, old, mask=mask)
    init = tl.load(uniq_ptr + 5 * n + offs, mask=mask, other=0)
    cmp = tl.where(offs % 2 == 0, init, init + 1)
    old = tl.atomic_cas(uniq_ptr + 4 * n + offs, cmp, x)
    tl.store(uniq_ptr + 5 * n + offs, old, mask=mask)
    tl.atomic_add(uniq_ptr + 6 * n + offs, x, mask=mask, sem="acq_rel", scope="cta")
    tl.atomic_max(uniq_ptr + 7 * n + offs, x, mask=mask, sem="relaxed")
