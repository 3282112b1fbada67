"""Triton contestants of bench/bandwidth.py: each job written the way Triton's tutorials write it.

Our own code, in the style of python/tutorials/01-vector-add.py (one block of
BLOCK_SIZE elements per program, masked tail) and 02-fused-softmax.py (a
persistent grid walking the rows with tl.range, a whole row in registers),
and for the jobs the tutorials do not have (transpose, copy, row and column
sums, row cumsums, histograms) the same style: 2-D blocks of pointers,
tl.trans, tl.sum over a loop-carried accumulator, tl.cumsum with a running
carry, tl.histogram with tl.atomic_add (per block, and persistent with the
counts kept in registers). Each job comes with a short list of
configurations that bench/harness.py autotunes per problem.

candidates() gives job -> [(label, factory)]; a factory takes the job's
tensors (inputs first, the output last) and returns a launch closure.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@triton.jit
def swiglu_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x * tl.sigmoid(x) * y, mask=mask)


@triton.jit
def tile_copy_kernel(src_ptr, dst_ptr, M, N, stride_src, stride_dst, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr, TRANSPOSE: tl.constexpr):
    # dst = src (M x N), or dst = src^T (N x M) with TRANSPOSE.
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tile = tl.load(src_ptr + rm[:, None] * stride_src + rn[None, :], mask=mask)
    if TRANSPOSE:
        tl.store(dst_ptr + rn[:, None] * stride_dst + rm[None, :], tl.trans(tile), mask=tl.trans(mask))
    else:
        tl.store(dst_ptr + rm[:, None] * stride_dst + rn[None, :], tile, mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                   num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        col_offsets = tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        row = tl.load(in_ptr + row_idx * in_row_stride + col_offsets, mask=mask, other=-float("inf"))
        row = row.to(tl.float32)
        numerator = tl.exp(row - tl.max(row, axis=0))
        out = numerator / tl.sum(numerator, axis=0)
        tl.store(out_ptr + row_idx * out_row_stride + col_offsets, out.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, M, N, stride_xm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for n0 in range(0, N, BLOCK_N):
        mask = (rows[:, None] < M) & (n0 + cols[None, :] < N)
        acc += tl.load(x_ptr + rows[:, None] * stride_xm + n0 + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + rows, tl.sum(acc, axis=1), mask=rows < M)


@triton.jit
def col_sum_kernel(x_ptr, out_ptr, M, N, stride_xm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.arange(0, BLOCK_M)
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for m0 in range(0, M, BLOCK_M):
        mask = (m0 + rows[:, None] < M) & (cols[None, :] < N)
        acc += tl.load(x_ptr + (m0 + rows[:, None]) * stride_xm + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0), mask=cols < N)


@triton.jit
def cumsum_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_ym, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    carry = tl.zeros((BLOCK_M, ), dtype=tl.float32)
    for n0 in range(0, N, BLOCK_N):
        mask = (rows[:, None] < M) & (n0 + cols[None, :] < N)
        v = tl.load(x_ptr + rows[:, None] * stride_xm + n0 + cols[None, :], mask=mask, other=0.0)
        s = tl.cumsum(v, axis=1) + carry[:, None]
        tl.store(y_ptr + rows[:, None] * stride_ym + n0 + cols[None, :], s, mask=mask)
        # The next block's carry is this block's last prefix (`carry += tl.sum(v, axis=1)`
        # trips an assertion in Triton 3.6's OptimizeThreadLocality pass).
        carry = tl.sum(tl.where(cols[None, :] == BLOCK_N - 1, s, 0.0), axis=1)


@triton.jit
def histogram_kernel(x_ptr, bins_ptr, n, NUM_BINS: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0)
    tl.atomic_add(bins_ptr + tl.arange(0, NUM_BINS), tl.histogram(x, NUM_BINS, mask=mask), sem="relaxed")


@triton.jit
def histogram_persistent_kernel(x_ptr, bins_ptr, n, NUM_BINS: tl.constexpr, BLOCK: tl.constexpr):
    # The counts stay in registers over a grid-strided walk: one atomic add per bin and program.
    counts = tl.zeros((NUM_BINS, ), dtype=tl.int32)
    for start in range(tl.program_id(0) * BLOCK, n, tl.num_programs(0) * BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        mask = offsets < n
        x = tl.load(x_ptr + offsets, mask=mask, other=0)
        counts += tl.histogram(x, NUM_BINS, mask=mask)
    tl.atomic_add(bins_ptr + tl.arange(0, NUM_BINS), counts, sem="relaxed")


def elementwise(kernel, block, warps):
    def factory(x, y, out):
        n = out.numel()
        grid = (triton.cdiv(n, block), )
        return lambda: kernel[grid](x, y, out, n, BLOCK_SIZE=block, num_warps=warps)
    return factory


def tile_copy(bm, bn, warps, transpose):
    def factory(src, dst):
        m, n = src.shape
        grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
        return lambda: tile_copy_kernel[grid](src, dst, m, n, src.stride(0), dst.stride(0), BLOCK_M=bm,
                                              BLOCK_N=bn, TRANSPOSE=transpose, num_warps=warps)
    return factory


def softmax(warps, stages, per_sm):
    # The tutorial sizes the grid from the kernel's occupancy; here the
    # number of programs per SM is one of the configuration's knobs.
    def factory(x, out):
        m, n = x.shape
        progs = min(m, per_sm * sm_count(x))
        return lambda: softmax_kernel[(progs, )](out, x, x.stride(0), out.stride(0), m, n,
                                                 BLOCK_SIZE=triton.next_power_of_2(n), num_stages=stages,
                                                 num_warps=warps)
    return factory


def reduction(kernel, axis, bm, bn, warps):
    def factory(x, out):
        m, n = x.shape
        grid = (triton.cdiv(m, bm), ) if axis == 1 else (triton.cdiv(n, bn), )
        return lambda: kernel[grid](x, out, m, n, x.stride(0), BLOCK_M=bm, BLOCK_N=bn, num_warps=warps)
    return factory


def cumsum(bm, bn, warps):
    def factory(x, out):
        m, n = x.shape
        return lambda: cumsum_kernel[(triton.cdiv(m, bm), )](x, out, m, n, x.stride(0), out.stride(0), BLOCK_M=bm,
                                                             BLOCK_N=bn, num_warps=warps)
    return factory


def histogram(block, warps, per_sm):
    # per_sm None: a program per block of the input; else a persistent grid.
    def factory(x, out):
        n = x.numel()
        if per_sm is None:
            grid, kernel = (triton.cdiv(n, block), ), histogram_kernel
        else:
            grid, kernel = (per_sm * sm_count(x), ), histogram_persistent_kernel
        return lambda: (out.zero_(), kernel[grid](x, out, n, NUM_BINS=out.numel(), BLOCK=block, num_warps=warps))
    return factory


def sm_count(t):
    return torch.cuda.get_device_properties(t.device).multi_processor_count if t.is_cuda else 4


def candidates():
    """job -> [(label, factory)]"""
    vec = [(b, w) for b in (1024, 2048, 4096) for w in (4, 8)]
    tiles = [(32, 32, 4), (64, 64, 4), (64, 64, 8), (128, 64, 8), (64, 128, 8)]
    return {
        "vector_add": [(f"BLOCK {b} w{w}", elementwise(add_kernel, b, w)) for b, w in vec],
        "swiglu": [(f"BLOCK {b} w{w}", elementwise(swiglu_kernel, b, w)) for b, w in vec],
        "transpose": [(f"{bm}x{bn} w{w}", tile_copy(bm, bn, w, True)) for bm, bn, w in tiles],
        "copy": [(f"{bm}x{bn} w{w}", tile_copy(bm, bn, w, False)) for bm, bn, w in tiles],
        "softmax": [(f"w{w} s{s} {p}/SM", softmax(w, s, p)) for w in (4, 8) for s in (2, 4) for p in (4, 8)],
        "row_sum": [(f"{bm}x{bn} w{w}", reduction(row_sum_kernel, 1, bm, bn, w))
                    for bm, bn, w in ((8, 256, 4), (4, 512, 4), (16, 256, 8), (8, 512, 8), (2, 1024, 4))],
        "col_sum": [(f"{bm}x{bn} w{w}", reduction(col_sum_kernel, 0, bm, bn, w))
                    for bm, bn, w in ((32, 128, 4), (64, 64, 4), (128, 32, 4), (64, 128, 8), (256, 32, 8))],
        "cumsum": [(f"{bm}x{bn} w{w}", cumsum(bm, bn, w))
                   for bm, bn, w in ((1, 1024, 4), (1, 2048, 8), (2, 1024, 4), (4, 512, 4), (4, 1024, 4),
                                     (8, 512, 8))],
        "histogram": [(f"BLOCK {b} w{w}" + (f" persistent {p}/SM" if p else ""), histogram(b, w, p))
                      for b in (2048, 4096, 8192) for w in (4, 8) for p in (None, 2, 4)],
    }
