# Kernels of test_names.c that need a Gluon .py file: the type and layout
# classes a kernel imports (_layouts' DistributedLayout and SharedLayout,
# hopper's accumulator, tma's descriptor), a constexpr function calling
# PaddedSharedLayout.verify, and TMA descriptors passed by the host. Each
# kernel is compiled as triton/tools/compile.py compiles it (bundle.sh: -n,
# -s with tensordesc, :16 and :1 entries, -w, -ns, -on, -o); `launch` is the
# host code a Gluon user writes, which glc reads but does not run:
# test_names.c encodes the same descriptors in C.
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language._layouts import DistributedLayout, SharedLayout
from triton.experimental.gluon.language.nvidia import hopper
from triton.experimental.gluon.language.nvidia.hopper import (
    tma,
    mbarrier,
    warpgroup_mma,
    warpgroup_mma_wait,
    warpgroup_mma_accumulator,
)
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

L1: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
L2: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
# threads down the columns: the padded buffer is read in another order
L1_2D: gl.constexpr = gl.BlockedLayout([1, 1], [2, 16], [4, 1], [0, 1])
S: gl.constexpr = gl.SwizzledSharedLayout(1, 1, 1, [1, 0])
ACC: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                              instr_shape=[16, 64, 16])


@gluon.constexpr_function
def bits(flags):
    """The flags as an integer: bit i set when flags[i] holds."""
    n = 0
    for i in range(len(flags)):
        if flags[i]:
            n += 1 << i
    return n


@gluon.constexpr_function
def verified(layout):
    """layout, once PaddedSharedLayout.verify accepts it."""
    layout.verify()
    return layout


@gluon.jit
def pair(x):
    return x, x + 1


@gluon.jit
def tile_offsets(R: gl.constexpr, C: gl.constexpr, layout: gl.constexpr):
    r = gl.arange(0, R, layout=gl.SliceLayout(1, layout))
    c = gl.arange(0, C, layout=gl.SliceLayout(0, layout))
    return r[:, None] * C + c[None, :]


# out[0]: gl.to_tensor(5) plus 0 + 1 + ... + (n - 1) plus gl.to_tensor(n);
# out[1]: gl.num_ctas(); out[2]: the numel of a [32, 16] buffer; out[3]:
# the answers of type and layout queries as bits (some must be false).
# y: x (32 x 16 f32) through a buffer in a PaddedSharedLayout that a
# constexpr function verified.
@gluon.jit
def queries(x, y, out, n):
    t = gl.to_tensor(5)
    for i in range(n):
        t = t + i
    gl.store(out, t + gl.to_tensor(n))
    gl.store(out + 1, gl.num_ctas())
    buf = gl.allocate_shared_memory(gl.float16, [32, 16], S)
    gl.static_print("queries: buf.numel =", buf.numel)
    gl.store(out + 2, buf.numel)

    v = gl.arange(0, 128, layout=L1)
    p = pair(v)
    flags: gl.constexpr = bits([
        isinstance(v, gl.base_value),
        isinstance(v.type, gl.base_type),
        isinstance(v.type, gl.distributed_type),
        v.type == gl.distributed_type(gl.int32, [128], L1),
        isinstance(buf, gl.shared_memory_descriptor),
        isinstance(v, gl.shared_memory_descriptor),  # false
        buf.type == gl.shared_memory_descriptor_type(gl.float16, [32, 16], S, [32, 16]),
        isinstance(buf.type, gl.distributed_type),  # false
        isinstance(p, gl.tuple),
        isinstance(p.type, gl.tuple_type),
        p.type == gl.tuple_type([v.type, v.type]),
        isinstance(gl.void, gl.dtype) and gl.void != gl.float32,
        isinstance(L2, DistributedLayout),
        isinstance(S, DistributedLayout),  # false
        isinstance(S, SharedLayout),
        len(gl.SliceLayout(0, L2).cga_layout) == 0,
        len(gl.DotOperandLayout(0, L2, 1).cga_layout) == 0,
        buf.rank == 2,
        L2.rank == 2,
    ])
    gl.store(out + 3, flags)

    P: gl.constexpr = verified(gl.PaddedSharedLayout([[16, 4]], [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0],
                                                                [2, 0], [4, 0], [8, 0], [16, 0]], [],
                                                     [32, 16]))
    padded = gl.allocate_shared_memory(gl.float32, [32, 16], P, gl.load(x + tile_offsets(32, 16, L2)))
    gl.store(y + tile_offsets(32, 16, L1_2D), padded.load(L1_2D))


# c = a @ b (64 x 64 f16, f32 out), A and B loaded by tma.async_load on a
# barrier from mbarrier.allocate_mbarrier, multiplied by an asynchronous
# WGMMA; out_desc gets the A tile back by tma.async_store; flags: the
# answers of queries on the accumulator and the descriptors as bits. ONE
# is the compile.py entry i32:1 (the constant 1), the column stride of c.
@gluon.jit
def tma_wgmma(a_desc, b_desc, out_desc, c, flags, ONE, K: gl.constexpr):
    a = gl.allocate_shared_memory(a_desc.dtype, a_desc.block_type.shape, a_desc.layout)
    b = gl.allocate_shared_memory(b_desc.dtype, b_desc.block_type.shape, b_desc.layout)
    bar = mbarrier.allocate_mbarrier()
    mbarrier.init(bar, count=1)
    mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
    tma.async_load(a_desc, [0, 0], bar, a)
    tma.async_load(b_desc, [0, 0], bar, b)
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)

    zero = gl.zeros([64, K], gl.float32, layout=ACC)
    acc = warpgroup_mma(a, b, zero, is_async=True)
    answers: gl.constexpr = bits([
        isinstance(acc, warpgroup_mma_accumulator),
        isinstance(acc, gl.tensor),  # false
        isinstance(acc.type, hopper.warpgroup_mma_accumulator_type),
        acc.type == hopper.warpgroup_mma_accumulator_type(zero.type),
        isinstance(a_desc, tma.tensor_descriptor),
        isinstance(c, tma.tensor_descriptor),  # false
        isinstance(b_desc.type, tma.tensor_descriptor_type),
        a_desc.type == tma.tensor_descriptor_type(gl.block_type(gl.float16, [64, 64]),
                                                  gl.tuple_type([gl.int32, gl.int32]),
                                                  gl.tuple_type([gl.int64, gl.int64]),
                                                  a_desc.layout),
    ])
    out = warpgroup_mma_wait(0, deps=[acc])
    rows = gl.arange(0, 64, layout=gl.SliceLayout(1, ACC))
    cols = gl.arange(0, K, layout=gl.SliceLayout(0, ACC))
    gl.store(c + rows[:, None] * K + cols[None, :] * ONE, out)
    tma.async_store(out_desc, [0, 0], a)
    tma.store_wait(0)
    gl.store(flags, answers)


def launch(a, b, out, c, flags):
    """What a Gluon host program does for tma_wgmma (a, b, out: 64 x 64 fp16
    torch tensors; c: 64 x 64 fp32; flags: one int32)."""
    layout = gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16)
    a_desc = TensorDescriptor.from_tensor(a, [64, 64], layout)
    b_desc = TensorDescriptor(b, list(b.shape), list(b.stride()), [64, 64],
                              gl.NVMMASharedLayout(128, 16))
    out_desc = TensorDescriptor.from_tensor(out, [64, 64], layout)
    tma_wgmma[(1, )](a_desc, b_desc, out_desc, c, flags, 1, 64, num_warps=4)
