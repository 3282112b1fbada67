# Probes of triton.experimental.gluon.language.nvidia.hopper: TMA, mbarriers,
# WGMMA and the proxy fence, as the Hopper tutorials use them, with Triton
# 3.6's parameter names. Descriptors come from the signature (tensordesc<>),
# as TensorDescriptor.from_tensor makes them on the host.
from typing import Union
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia import hopper
from triton.experimental.gluon.language.nvidia.hopper import (tma, mbarrier, fence_async_shared, warpgroup_mma,
                                                              warpgroup_mma_wait, warpgroup_mma_init,
                                                              warpgroup_mma_accumulator)
from triton.experimental.gluon.language.nvidia.hopper.tma import tensor_descriptor
from triton.language.core import _aggregate as aggregate

ACC: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])


@gluon.jit
def load_tile(desc, smem, bar):
    mbarrier.expect(bar, desc.block_type.nbytes)
    tma.async_copy_global_to_shared(desc, [0, 0], bar, smem)
    mbarrier.wait(bar, 0)


# probe nvidia.hopper.tma async_copy_global_to_shared -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, i1"
# probe nvidia.hopper.tma async_copy_shared_to_global -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, i1"
# probe nvidia.hopper.tma store_wait -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, i1"
# probe nvidia.hopper.mbarrier MBarrierLayout -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, i1"
# probe nvidia.hopper.mbarrier init -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, i1"
# probe nvidia.hopper.mbarrier expect -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, i1"
# probe nvidia.hopper.mbarrier wait -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, i1"
# probe nvidia.hopper.mbarrier invalidate -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, i1"
@gluon.jit
def tma_copy_kernel(in_desc, out_desc, pred):
    smem = gl.allocate_shared_memory(in_desc.dtype, in_desc.block_type.shape, in_desc.layout)
    bars = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    mbarrier.init(bars.index(0), count=1)
    mbarrier.init(mbarrier=bars.index(1), count=1)
    mbarrier.expect(bars.index(0), bytes=in_desc.block_type.nbytes, pred=pred)
    tma.async_copy_global_to_shared(tensor_desc=in_desc, coord=[0, 64], barrier=bars.index(0), result=smem, pred=pred)
    mbarrier.wait(bars.index(0), phase=0, pred=True, deps=(smem, ))
    mbarrier.invalidate(bars.index(0))
    mbarrier.invalidate(mbarrier=bars.index(1))
    tma.async_copy_shared_to_global(tensor_desc=out_desc, coord=[64, 0], src=smem)
    tma.store_wait(pendings=0)
    tma.store_wait(0)


# probe nvidia.hopper.mbarrier arrive -- -s "*i32"
@gluon.jit
def mbarrier_arrive_kernel(p):
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=4)
    mbarrier.arrive(bar)
    mbarrier.arrive(bar, count=1, pred=True)
    mbarrier.arrive(bar, count=2)
    mbarrier.wait(bar, 0)
    gl.store(p, 1)


# probe nvidia.hopper.tma tensor_descriptor.block_type -- -s "tensordesc<fp16[64,64]>, *i32"
# probe nvidia.hopper.tma tensor_descriptor.block_shape -- -s "tensordesc<fp16[64,64]>, *i32"
# probe nvidia.hopper.tma tensor_descriptor.dtype -- -s "tensordesc<fp16[64,64]>, *i32"
# probe nvidia.hopper.tma tensor_descriptor.layout -- -s "tensordesc<fp16[64,64]>, *i32"
@gluon.jit
def descriptor_attrs_kernel(desc, p):
    gl.static_assert(desc.block_type.shape == [64, 64])
    gl.static_assert(desc.block_type.nbytes == 64 * 64 * 2)
    gl.static_assert(desc.block_shape == [64, 64])
    gl.static_assert(desc.dtype == gl.float16)
    gl.static_assert(desc.layout == gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16))
    smem = gl.allocate_shared_memory(desc.dtype, desc.block_shape, desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    load_tile(desc, smem, bar)
    gl.store(p, desc.shape[0])


@aggregate
class Operands:
    a: tensor_descriptor
    b: tensor_descriptor


# probe nvidia.hopper.tma tensor_descriptor -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>"
@gluon.jit
def descriptor_field_kernel(a_desc, b_desc):
    ops = Operands(a_desc, b_desc)
    smem = gl.allocate_shared_memory(gl.float16, [64, 64], ops.a.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    load_tile(ops.a, smem, bar)
    tma.async_copy_shared_to_global(ops.b, [0, 0], smem)
    tma.store_wait(0)


# probe nvidia.hopper.tma tensor_descriptor -- -s "tensordesc<fp16[64,64]>, *i32"
@gluon.jit
def descriptor_isinstance_kernel(desc, p):
    gl.static_assert(isinstance(desc, tensor_descriptor))
    gl.store(p, 1)


# probe nvidia.hopper.tma tensor_descriptor_type -- -s "tensordesc<fp16[64,64]>, *i32"
@gluon.jit
def descriptor_type_kernel(desc, p):
    gl.static_assert(isinstance(desc.type, tma.tensor_descriptor_type))
    gl.store(p, 1)


# probe nvidia.hopper.tma tensor_descriptor_type -- -s "tensordesc<fp16[64,64]>, *i32"
@gluon.jit
def descriptor_type_ctor_kernel(desc, p):
    ty: gl.constexpr = tma.tensor_descriptor_type(gl.block_type(gl.float16, [64, 64]),
                                                  gl.tuple_type([gl.int32, gl.int32]),
                                                  gl.tuple_type([gl.int64, gl.int64]), desc.layout)
    gl.static_assert(desc.type == ty)
    gl.store(p, 1)


# probe nvidia.hopper.tma make_tensor_descriptor -- -s "*fp16, i32, i32"
@gluon.jit
def make_tensor_descriptor_kernel(p, M, N):
    layout: gl.constexpr = gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16)
    desc = tma.make_tensor_descriptor(p, shape=[M, N], strides=[N, 1], block_shape=[64, 64], layout=layout,
                                      padding_option="zero")
    smem = gl.allocate_shared_memory(gl.float16, [64, 64], layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    load_tile(desc, smem, bar)


# probe nvidia.hopper warpgroup_mma -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, *fp32"
# probe nvidia.hopper warpgroup_mma_wait -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, *fp32"
# probe nvidia.hopper warpgroup_mma_init -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, *fp32"
# probe nvidia.hopper fence_async_shared -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, *fp32"
@gluon.jit
def wgmma_kernel(a_desc, b_desc, c_ptr):
    a = gl.allocate_shared_memory(gl.float16, [64, 64], a_desc.layout)
    b = gl.allocate_shared_memory(gl.float16, [64, 64], b_desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
    tma.async_copy_global_to_shared(a_desc, [0, 0], bar, a)
    tma.async_copy_global_to_shared(b_desc, [0, 0], bar, b)
    mbarrier.wait(bar, 0)
    acc = warpgroup_mma_init(gl.zeros([64, 64], gl.float32, layout=ACC))
    acc = warpgroup_mma(a, b, acc, use_acc=False, precision=None, max_num_imprecise_acc=None, is_async=True)
    acc = warpgroup_mma_wait(num_outstanding=0, deps=(acc, ))
    acc = warpgroup_mma(a, b.permute((1, 0)), acc, use_acc=True)
    a.store(acc.to(gl.float16).permute((1, 0)).to(gl.float16))
    fence_async_shared()
    acc = warpgroup_mma(a, b, acc)
    rows = gl.arange(0, 64, layout=gl.SliceLayout(1, ACC))
    cols = gl.arange(0, 64, layout=gl.SliceLayout(0, ACC))
    gl.store(c_ptr + rows[:, None] * 64 + cols[None, :], acc)


# probe nvidia.hopper fence_async_shared -- -s "*fp32"
@gluon.jit
def fence_cluster_kernel(p):
    smem = gl.allocate_shared_memory(gl.float32, [128], gl.SwizzledSharedLayout(1, 1, 1, [0]))
    smem.store(gl.full([128], 1.0, gl.float32, layout=gl.BlockedLayout([1], [32], [4], [0])))
    fence_async_shared(cluster=False)
    gl.store(p, 1.0)


@aggregate
class Acc:
    value: Union[warpgroup_mma_accumulator, gl.tensor]


# probe nvidia.hopper warpgroup_mma_accumulator -- -s "tensordesc<fp16[64,64]>, *fp32"
@gluon.jit
def wgmma_accumulator_field_kernel(a_desc, c_ptr):
    a = gl.allocate_shared_memory(gl.float16, [64, 64], a_desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    load_tile(a_desc, a, bar)
    acc = Acc(warpgroup_mma(a, a, gl.zeros([64, 64], gl.float32, layout=ACC), is_async=True))
    out = warpgroup_mma_wait(0, deps=(acc.value, ))
    rows = gl.arange(0, 64, layout=gl.SliceLayout(1, ACC))
    cols = gl.arange(0, 64, layout=gl.SliceLayout(0, ACC))
    gl.store(c_ptr + rows[:, None] * 64 + cols[None, :], out)


# probe nvidia.hopper warpgroup_mma_accumulator -- -s "tensordesc<fp16[64,64]>, *fp32"
# probe nvidia.hopper warpgroup_mma_accumulator_type -- -s "tensordesc<fp16[64,64]>, *fp32"
@gluon.jit
def wgmma_accumulator_type_kernel(a_desc, c_ptr):
    a = gl.allocate_shared_memory(gl.float16, [64, 64], a_desc.layout)
    zero = gl.zeros([64, 64], gl.float32, layout=ACC)
    acc = warpgroup_mma(a, a, zero, is_async=True)
    gl.static_assert(isinstance(acc, warpgroup_mma_accumulator))
    gl.static_assert(not isinstance(acc, gl.tensor))
    gl.static_assert(isinstance(acc.type, hopper.warpgroup_mma_accumulator_type))
    gl.static_assert(acc.type == hopper.warpgroup_mma_accumulator_type(zero.type))
    gl.static_assert(acc.type.tensor_type == zero.type)
    acc = warpgroup_mma(a, a, acc, is_async=True)
    out = warpgroup_mma_wait(0, deps=[acc])
    gl.static_assert(isinstance(out, gl.tensor))
    gl.store(c_ptr + gl.arange(0, 64, layout=gl.SliceLayout(0, ACC)), gl.sum(out, axis=0))


# probe nvidia.hopper tma -- -s "tensordesc<fp32[64]>"
# probe nvidia.hopper mbarrier -- -s "tensordesc<fp32[64]>"
@gluon.jit
def hopper_modules_kernel(desc):
    smem = gl.allocate_shared_memory(gl.float32, [64], desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], hopper.mbarrier.MBarrierLayout())
    hopper.mbarrier.init(bar, count=1)
    hopper.mbarrier.expect(bar, 256)
    hopper.tma.async_copy_global_to_shared(desc, [0], bar, smem)
    hopper.mbarrier.wait(bar, 0)
    hopper.tma.async_copy_shared_to_global(desc, [64], smem)
    hopper.tma.store_wait(0)


# probe nvidia.hopper async_copy -- -s "*fp32, *fp32"
@gluon.jit
def hopper_async_copy_kernel(p, q):
    L: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    smem = gl.allocate_shared_memory(gl.float32, [128], gl.SwizzledSharedLayout(1, 1, 1, [0]))
    offs = gl.arange(0, 128, layout=L)
    hopper.async_copy.async_copy_global_to_shared(smem, p + offs)
    hopper.async_copy.commit_group()
    hopper.async_copy.wait_group(0)
    gl.store(q + offs, smem.load(L))


# probe nvidia.hopper mma_v2 -- -s "*fp16, *fp16, *fp32"
@gluon.jit
def hopper_mma_v2_kernel(a_ptr, b_ptr, c_ptr):
    acc_l: gl.constexpr = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[4, 1], instr_shape=[16, 8])
    a_l: gl.constexpr = gl.DotOperandLayout(0, acc_l, 2)
    b_l: gl.constexpr = gl.DotOperandLayout(1, acc_l, 2)
    m = gl.arange(0, 64, layout=gl.SliceLayout(1, a_l))
    k = gl.arange(0, 16, layout=gl.SliceLayout(0, a_l))
    a = gl.load(a_ptr + m[:, None] * 16 + k[None, :])
    kb = gl.arange(0, 16, layout=gl.SliceLayout(1, b_l))
    n = gl.arange(0, 16, layout=gl.SliceLayout(0, b_l))
    b = gl.load(b_ptr + kb[:, None] * 16 + n[None, :])
    acc = hopper.mma_v2(a, b, gl.zeros([64, 16], gl.float32, layout=acc_l))
    mc = gl.arange(0, 64, layout=gl.SliceLayout(1, acc_l))
    nc = gl.arange(0, 16, layout=gl.SliceLayout(0, acc_l))
    gl.store(c_ptr + mc[:, None] * 16 + nc[None, :], acc)


# probe nvidia.hopper.tma async_load -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>"
# probe nvidia.hopper.tma async_store -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>"
# probe nvidia.hopper.mbarrier allocate_mbarrier -- -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>"
@gluon.jit
def newer_names_kernel(in_desc, out_desc):
    smem = gl.allocate_shared_memory(in_desc.dtype, in_desc.block_type.shape, in_desc.layout)
    bar = mbarrier.allocate_mbarrier()
    mbarrier.init(bar, count=1)
    mbarrier.expect(bar, in_desc.block_type.nbytes)
    tma.async_load(in_desc, [0, 0], bar, smem)
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)
    tma.async_store(out_desc, [0, 0], smem)
    tma.store_wait(pendings=0)
