"""Triton contestants of bench/rowwise.py: each job written the way Triton's tutorials write it.

Our own code, in the style of python/tutorials/05-layer-norm.py (one row per
program, loops over the row in BLOCK_SIZE chunks: the mean, the variance,
then the normalized output; BLOCK_SIZE the row's next power of two up to
64 KB, num_warps from the block size), the same for RMSNorm, and of
02-fused-softmax.py for long rows (a whole row in registers) next to the
online softmax (one loop keeping a running maximum and sum, one writing).
The GEMV is a 2-D tile of A times a slice of x accumulated in f32 over a
loop along K, as 03-matrix-multiplication.py tiles its loads. Each job has a
short list of configurations that bench/harness.py autotunes per problem.

candidates() gives job -> [(label, factory)]; a factory takes the job's
tensors (inputs first, the output last) and returns a launch closure.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def layer_norm_fwd(X, Y, W, B, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        acc += x * x
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        tl.store(Y + cols, ((x - mean) * rstd * w + b).to(Y.dtype.element_ty), mask=mask)


@triton.jit
def rms_norm_fwd(X, Y, W, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        acc += x * x
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        tl.store(Y + cols, (x * rstd * w).to(Y.dtype.element_ty), mask=mask)


@triton.jit
def softmax_row(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * out_stride + cols, num / tl.sum(num, axis=0), mask=cols < n_cols)


@triton.jit
def softmax_online(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    m = tl.full([BLOCK_SIZE], -float("inf"), tl.float32)
    s = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
        m_new = tl.maximum(m, x)
        base = tl.where(m_new == -float("inf"), 0., m_new)
        s = s * tl.exp(m - base) + tl.exp(x - base)
        m = m_new
    row_max = tl.max(m, axis=0)
    inv = 1 / tl.sum(s * tl.exp(m - row_max), axis=0)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
        tl.store(out_ptr + row * out_stride + cols, tl.exp(x - row_max) * inv, mask=cols < n_cols)


@triton.jit
def gemv_kernel(A, X, Y, M, K, stride_am, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros([BLOCK_M, BLOCK_K], dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        rk = k + tl.arange(0, BLOCK_K)
        a = tl.load(A + rm[:, None] * stride_am + rk[None, :],
                    mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.)
        x = tl.load(X + rk, mask=rk < K, other=0.)
        acc += a.to(tl.float32) * x.to(tl.float32)[None, :]
    tl.store(Y + rm, tl.sum(acc, axis=1).to(Y.dtype.element_ty), mask=rm < M)


def tutorial_block(n, element_size):
    """05-layer-norm.py's block: the next power of two of the row, at most
    64 KB; its warps: one per 256 elements, 1 to 8."""
    block = min(65536 // element_size, triton.next_power_of_2(n))
    return block, min(max(block // 256, 1), 8)


def layer_norm(block, warps, eps):
    def factory(x, w, b, out):
        m, n = x.shape
        return lambda: layer_norm_fwd[(m, )](x, out, w, b, x.stride(0), n, eps, BLOCK_SIZE=block,
                                             num_warps=warps)
    return factory


def rms_norm(block, warps, eps):
    def factory(x, w, out):
        m, n = x.shape
        return lambda: rms_norm_fwd[(m, )](x, out, w, x.stride(0), n, eps, BLOCK_SIZE=block,
                                           num_warps=warps)
    return factory


def softmax(kernel, block, warps):
    def factory(x, out):
        m, n = x.shape
        return lambda: kernel[(m, )](out, x, x.stride(0), out.stride(0), n, BLOCK_SIZE=block,
                                     num_warps=warps)
    return factory


def gemv(bm, bk, warps):
    def factory(a, x, out):
        m, k = a.shape
        return lambda: gemv_kernel[(triton.cdiv(m, bm), )](a, x, out, m, k, a.stride(0), BLOCK_M=bm,
                                                           BLOCK_K=bk, num_warps=warps)
    return factory


def candidates(n, element_size, eps):
    """job -> [(label, factory)] for rows of n elements of element_size bytes."""
    block, warps = tutorial_block(n, element_size)
    norms = [(block, warps, "tutorial")] + [(block, w, "") for w in (4, 8, 16) if w != warps] + \
            [(block // 2, w, "") for w in (4, 8) if block >= 2048]
    long_rows = triton.next_power_of_2(n)
    return {
        "layer_norm": [(f"BLOCK {b} w{w} {t}".strip(), layer_norm(b, w, eps)) for b, w, t in norms],
        "rms_norm": [(f"BLOCK {b} w{w} {t}".strip(), rms_norm(b, w, eps)) for b, w, t in norms],
        "softmax": [(f"row in registers w{w}", softmax(softmax_row, long_rows, w)) for w in (16, 32)] +
                   [(f"online BLOCK {b} w{w}", softmax(softmax_online, b, w))
                    for b in (2048, 4096, 8192) for w in (4, 8, 16) if b // (32 * w) <= 32],
        "gemv": [(f"{bm}x{bk} w{w}", gemv(bm, bk, w))
                 for bm, bk, w in ((16, 512, 4), (32, 256, 4), (8, 1024, 4), (16, 256, 4), (32, 512, 8),
                                   (64, 128, 4), (4, 1024, 4))],
    }
