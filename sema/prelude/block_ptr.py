# glc's tl prelude: block pointers (tl.make_block_ptr, tl.advance, and
# tl.load / tl.store through one), written in tl.
#
# A block pointer is an aggregate of the base pointer, the tensor's shape
# and strides (int64), the block's offsets (int32, or int64 when given so)
# and its constexpr block shape and order. A load or store through it is
# the pointer arithmetic Triton's RewriteTensorPointer pass produces for
# Hopper: base + sum over the dims of (offset + arange) * stride in int64,
# masked to 0 <= index < shape along the dims of boundary_check, padded
# with 0 or NaN as padding_option says. tl.load and tl.store call
# _load_block_ptr and _store_block_ptr when their pointer is one (sema's
# memory builtins); the code is glc's.
import triton
import triton.language as tl
from triton.language.core import _aggregate as aggregate


@aggregate
class _BlockPointer:
    base: tl.tensor
    shape: tl.tuple
    strides: tl.tuple
    offsets: tl.tuple
    block_shape: tl.constexpr
    order: tl.constexpr

    @triton.constexpr_function
    def __init__(self, base, shape, strides, offsets, block_shape, order):
        self.base = base
        self.shape = shape
        self.strides = strides
        self.offsets = offsets
        self.block_shape = block_shape
        self.order = order

    @triton.jit
    def advance(self, offsets):
        return advance(self, offsets)


@triton.constexpr_function
def _listed(v):
    # an int or a sequence of them, as a list
    if isinstance(v, (list, tuple)):
        return list(v)
    return [v]


@triton.constexpr_function
def _is_permutation(order):
    return sorted(order) == list(range(len(order)))


@triton.jit
def _ints(values, i64):
    # each value a scalar tensor: int64 when i64 (shape, strides), else
    # int32 unless it is an int64 already (offsets)
    out = ()
    for d in tl.static_range(len(values)):
        v = tl.core.to_tensor(values[d])
        tl.static_assert(v.dtype.is_int(), "block pointer shapes, strides and offsets are integers")
        if i64 or v.dtype == tl.int64:
            out = out + (v.to(tl.int64), )
        else:
            out = out + (v.to(tl.int32), )
    return out


@triton.jit
def make_block_ptr(base, shape, strides, offsets, block_shape, order):
    blocks: tl.constexpr = _listed(block_shape)
    perm: tl.constexpr = _listed(order)
    tl.static_assert(len(shape) == len(blocks) and len(strides) == len(blocks) and
                     len(offsets) == len(blocks) and len(perm) == len(blocks),
                     "make_block_ptr: shape, strides, offsets, block_shape and order have one "
                     "length")
    tl.static_assert(_is_permutation(perm), "make_block_ptr: order is a permutation of the dims")
    return _BlockPointer(base, _ints(shape, True), _ints(strides, True), _ints(offsets, False),
                         blocks, perm)


@triton.jit
def advance(base, offsets):
    deltas = _ints(_listed(offsets), False)
    tl.static_assert(len(deltas) == len(base.offsets), "advance: one offset per dim")
    moved = ()
    for d in tl.static_range(len(deltas)):
        moved = moved + (base.offsets[d] + deltas[d], )
    return _BlockPointer(base.base, base.shape, base.strides, moved, base.block_shape, base.order)


@triton.constexpr_function
def _checked(boundary_check, rank):
    dims = _listed(boundary_check) if boundary_check is not None else []
    for d in dims:
        if d < 0 or d >= rank:
            raise ValueError("boundary_check dim " + str(d) + " is out of range")
    return dims


@triton.jit
def _index(p, d):
    # the int64 indices of the block along dim d, shaped to broadcast
    rank: tl.constexpr = len(p.block_shape)
    i = p.offsets[d].to(tl.int64) + tl.arange(0, p.block_shape[d]).to(tl.int64)
    for e in tl.static_range(rank):
        if e != d:
            i = tl.expand_dims(i, e)
    return i


@triton.jit
def _pointers(p):
    rank: tl.constexpr = len(p.block_shape)
    offs = _index(p, 0) * p.strides[0]
    for d in tl.static_range(1, rank):
        offs = offs + _index(p, d) * p.strides[d]
    return p.base + offs


@triton.jit
def _in_bounds(p, dims):
    mask = None
    for k in tl.static_range(len(dims)):
        i = _index(p, dims[k])
        inside = (i >= 0) & (i < p.shape[dims[k]])
        if mask is None:
            mask = inside
        else:
            mask = mask & inside
    return mask


@triton.jit
def _load_block_ptr(p, boundary_check, padding_option, cache_modifier, eviction_policy,
                    volatile):
    dims: tl.constexpr = _checked(boundary_check, len(p.block_shape))
    ptrs = tl.broadcast_to(_pointers(p), p.block_shape)
    if len(dims) == 0:
        return tl.load(ptrs, cache_modifier=cache_modifier, eviction_policy=eviction_policy,
                       volatile=volatile)
    mask = tl.broadcast_to(_in_bounds(p, dims), p.block_shape)
    if padding_option == "zero":
        return tl.load(ptrs, mask, 0, cache_modifier=cache_modifier,
                       eviction_policy=eviction_policy, volatile=volatile)
    if padding_option == "nan":
        return tl.load(ptrs, mask, float("nan"), cache_modifier=cache_modifier,
                       eviction_policy=eviction_policy, volatile=volatile)
    tl.static_assert(padding_option == "", "padding_option is \"zero\", \"nan\" or \"\"")
    return tl.load(ptrs, mask, cache_modifier=cache_modifier, eviction_policy=eviction_policy,
                   volatile=volatile)


@triton.jit
def _store_block_ptr(p, value, boundary_check, cache_modifier, eviction_policy):
    dims: tl.constexpr = _checked(boundary_check, len(p.block_shape))
    ptrs = tl.broadcast_to(_pointers(p), p.block_shape)
    v = tl.broadcast_to(value, p.block_shape)
    if len(dims) == 0:
        tl.store(ptrs, v, cache_modifier=cache_modifier, eviction_policy=eviction_policy)
    else:
        tl.store(ptrs, v, tl.broadcast_to(_in_bounds(p, dims), p.block_shape),
                 cache_modifier=cache_modifier, eviction_policy=eviction_policy)
