# glc's tl prelude: triton.language's standard library, written in tl.
#
# glc compiles these functions as it compiles a @triton.jit kernel's own:
# `tl.softmax(x)` in a kernel inlines softmax below. They give what Triton
# 3.6's standard library gives (the same values, dtypes and shapes); the
# code is glc's. Names starting with '_' are helpers that only this file
# and sema's builtins call (tl.max(..., return_indices=True) calls
# _reduce_with_indices).
import triton
import triton.language as tl

TRITON_MAX_TENSOR_NUMEL = tl.constexpr(1048576)
pi32_t = tl.pointer_type(tl.int32)


@triton.constexpr_function
def _log2(n):
    k = 0
    while (1 << k) < n:
        k += 1
    return k


@triton.constexpr_function
def _numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


@triton.constexpr_function
def _int_dtype(bits):
    if bits == 8:
        return tl.int8
    if bits == 16:
        return tl.int16
    if bits == 32:
        return tl.int32
    return tl.int64


@triton.jit
def sigmoid(x):
    return 1 / (1 + tl.exp(-x))


@triton.jit
def softmax(x, dim=None, keep_dims=False, ieee_rounding=False):
    if dim is None:
        axis: tl.constexpr = 0
    else:
        axis: tl.constexpr = dim
    shifted = x - tl.max(x, axis, keep_dims=keep_dims)
    e = tl.exp(shifted)
    return tl.fdiv(e, tl.sum(e, axis, keep_dims=keep_dims), ieee_rounding)


# -- max and min with their indices -------------------------------------------


@triton.jit
def _pick_max_left(v, i, w, j):
    # a strictly larger value wins; of equal values the smaller index
    take = (v > w) | ((v == w) & (i < j))
    return tl.where(take, v, w), tl.where(take, i, j)


@triton.jit
def _pick_max(v, i, w, j):
    take = v > w
    return tl.where(take, v, w), tl.where(take, i, j)


@triton.jit
def _pick_min_left(v, i, w, j):
    take = (v < w) | ((v == w) & (i < j))
    return tl.where(take, v, w), tl.where(take, i, j)


@triton.jit
def _pick_min(v, i, w, j):
    take = v < w
    return tl.where(take, v, w), tl.where(take, i, j)


@triton.jit
def _reduce_with_indices(input, axis, tie_break_left, keep_dims, is_max):
    tl.static_assert(axis is not None, "max and min with return_indices=True need an axis")
    if input.dtype == tl.bfloat16:
        x = input.to(tl.float32)
    else:
        x = input
    rank: tl.constexpr = len(x.shape)
    ax: tl.constexpr = axis + rank if axis < 0 else axis
    idx = tl.arange(0, x.shape[ax])
    for d in tl.static_range(rank):
        if d != ax:
            idx = tl.expand_dims(idx, d)
    idx = tl.broadcast_to(idx, x.shape)
    if is_max:
        if tie_break_left:
            return tl.reduce((x, idx), ax, _pick_max_left, keep_dims=keep_dims)
        else:
            return tl.reduce((x, idx), ax, _pick_max, keep_dims=keep_dims)
    else:
        if tie_break_left:
            return tl.reduce((x, idx), ax, _pick_min_left, keep_dims=keep_dims)
        else:
            return tl.reduce((x, idx), ax, _pick_min, keep_dims=keep_dims)


@triton.jit
def argmax(input, axis, tie_break_left=True, keep_dims=False):
    value, index = _reduce_with_indices(input, axis, tie_break_left, keep_dims, True)
    return index


@triton.jit
def argmin(input, axis, tie_break_left=True, keep_dims=False):
    value, index = _reduce_with_indices(input, axis, tie_break_left, keep_dims, False)
    return index


# -- swizzle2d, interleave ------------------------------------------------------


@triton.jit
def swizzle2d(i, j, size_i, size_j, size_g):
    # row-major (i, j) in a size_i x size_j grid, renumbered so that groups
    # of size_g rows are walked column by column
    linear = i * size_j + j
    per_group = size_g * size_j
    first_row = (linear // per_group) * size_g
    rows = tl.minimum(size_i - first_row, size_g)
    within = linear % per_group
    return first_row + within % rows, within // rows


@triton.jit
def interleave(a, b):
    pairs = tl.join(a, b)
    if len(pairs.shape) == 2:
        return tl.reshape(pairs, [2 * pairs.shape[0]])
    return tl.reshape(pairs, pairs.shape[:-2] + [2 * pairs.shape[-2]])


# -- flip ------------------------------------------------------------------------


@triton.constexpr_function
def _flip_dim(dim, shape):
    if dim is None:
        return len(shape) - 1
    return dim + len(shape) if dim < 0 else dim


@triton.jit
def flip(x, dim=None):
    tl.static_assert(dim is None or (-len(x.shape) <= dim and dim < len(x.shape)),
                     "flip's dim is out of range")
    d: tl.constexpr = _flip_dim(dim, x.shape)
    n: tl.constexpr = x.shape[d]
    tl.static_assert(n & (n - 1) == 0, "flip needs a power-of-two length")
    # Index k of the flipped dim reads n - 1 - k: every bit of k inverted.
    # Bit b is the middle dim of shape [outer, n >> (b + 1), 2, 1 << b,
    # inner]; xor-ing each element with its pair's xor swaps the two
    # exactly, whatever the dtype (its bits as an integer).
    bits = x.to(_int_dtype(x.dtype.primitive_bitwidth), bitcast=True)
    outer: tl.constexpr = _numel(x.shape[:d])
    inner: tl.constexpr = _numel(x.shape[d + 1:])
    for b in tl.static_range(_log2(n)):
        cube = tl.reshape(bits, [outer, n >> (b + 1), 2, (1 << b) * inner])
        cube = cube ^ tl.xor_sum(cube, 2, keep_dims=True)
        bits = tl.reshape(cube, x.shape)
    return bits.to(x.dtype, bitcast=True)


# -- sort, topk, bitonic_merge -----------------------------------------------------


@triton.jit
def _exchange(x, stride, rows, n, block, descending):
    # One compare-exchange step of a bitonic network along the last dim of
    # x, viewed as [rows, n]: element k meets k ^ stride. block: the
    # direction changes every `block` elements (0: never; descending then
    # says it). The left element of a pair keeps the smaller value in an
    # ascending run, the right one takes it when it is not larger (as
    # Triton's network decides, NaNs included).
    cube = tl.reshape(x, [rows, n // (2 * stride), 2, stride])
    bits = cube.to(_int_dtype(x.dtype.primitive_bitwidth), bitcast=True)
    other = (bits ^ tl.xor_sum(bits, 2, keep_dims=True)).to(x.dtype, bitcast=True)
    right = tl.arange(0, 2)[None, None, :, None]
    if block == 0:
        down = right * 0 + descending
    else:
        pair = tl.arange(0, n // (2 * stride))[None, :, None, None]
        down = (pair * 2 * stride // block) % 2
    swap = (cube > other) != ((down ^ right) != 0)
    return tl.reshape(tl.where(swap, other, cube), x.shape)


@triton.jit
def _merge(x, rows, n, size, block, descending):
    # the bitonic merge of runs of `size` elements: strides size/2 .. 1
    for s in tl.static_range(_log2(size)):
        x = _exchange(x, size >> (s + 1), rows, n, block, descending)
    return x


@triton.jit
def _sort_last(x, k, descending):
    n: tl.constexpr = x.shape[-1]
    rows: tl.constexpr = _numel(x.shape[:-1])
    log_n: tl.constexpr = _log2(n)
    log_k: tl.constexpr = _log2(k)
    tl.static_assert(n & (n - 1) == 0, "sort and topk need a power-of-two length")
    flat = tl.reshape(x, [rows, n])
    # runs of 2, 4, ... k elements sorted, in alternating directions while
    # they are shorter than the whole
    for s in tl.static_range(1, log_k + 1):
        flat = _merge(flat, rows, n, 1 << s, 0 if s == log_n else 2 << s >> 1, descending)
    # topk: adjacent runs of k (sorted in opposite directions) meet
    # elementwise, keeping the larger (smaller) halves, which are merged
    # again, until one run of k is left (bitonic top-k)
    for s in tl.static_range(log_k + 1, log_n + 1):
        # n >> (s - log_k - 1) elements per row are left, halved here
        pairs = tl.reshape(flat, [rows, n >> s, 2, k])
        if descending:
            flat = tl.reshape(tl.max(pairs, 2), [rows, n >> (s - log_k)])
        else:
            flat = tl.reshape(tl.min(pairs, 2), [rows, n >> (s - log_k)])
        flat = _merge(flat, rows, n >> (s - log_k), k, 0 if s == log_n else k, descending)
    return tl.reshape(flat, x.shape[:-1] + [k])


@triton.jit
def sort(x, dim=None, descending=0):
    tl.static_assert(dim is None or dim == len(x.shape) - 1 or dim == -1,
                     "sort: only the last dim is supported")
    return _sort_last(x, x.shape[-1], descending)


@triton.jit
def topk(x, k, dim=None):
    tl.static_assert(dim is None or dim == len(x.shape) - 1 or dim == -1,
                     "topk: only the last dim is supported")
    return _sort_last(x, k, 1)


@triton.jit
def bitonic_merge(x, dim=None, descending=0):
    tl.static_assert(dim is None or dim == len(x.shape) - 1 or dim == -1,
                     "bitonic_merge: only the last dim is supported")
    n: tl.constexpr = x.shape[-1]
    rows: tl.constexpr = _numel(x.shape[:-1])
    return tl.reshape(_merge(tl.reshape(x, [rows, n]), rows, n, n, 0, descending), x.shape)


# -- str_to_ty ---------------------------------------------------------------------

@triton.constexpr_function
def str_to_ty(name, c):
    # a signature entry of compile.py ("fp16", "*fp32", "i1", ...) as a type
    names = {"i1": tl.int1, "i8": tl.int8, "i16": tl.int16, "i32": tl.int32, "i64": tl.int64,
             "u1": tl.int1, "u8": tl.uint8, "u16": tl.uint16, "u32": tl.uint32,
             "u64": tl.uint64, "fp8e4nv": tl.float8e4nv, "fp8e5": tl.float8e5,
             "fp16": tl.float16, "bf16": tl.bfloat16, "fp32": tl.float32, "fp64": tl.float64}
    for short, t in names.items():
        if name == short:
            return t
        if name == "*" + short:
            return tl.pointer_type(t)
    raise ValueError("str_to_ty: unknown type " + name)


# The tl builtins that Triton's standard.py defines too, for
# tl.standard.NAME.
sum = tl.sum
max = tl.max
min = tl.min
xor_sum = tl.xor_sum
reduce_or = tl.reduce_or
cumsum = tl.cumsum
cumprod = tl.cumprod
cdiv = tl.cdiv
ravel = tl.ravel
zeros = tl.zeros
zeros_like = tl.zeros_like
