# Tensor descriptors from the signature: the default layout
# (NVMMASharedLayout.get_default_for) or one given; tma.async_load/async_store.
# RUN: %glc %s -n copy_tile -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64],gl.NVMMASharedLayout(128, 16, 2)>" --emit=ir | FileCheck %s
# CHECK: #[[D:[a-z0-9_]+]] = NVMMASharedLayout(128, 16) on [64, 64]
# CHECK: kernel copy_tile(in_desc: tensor_desc<f16, [64, 64], #[[D]]>, out_desc: tensor_desc<f16, [64, 64], #[[D]]>)
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import tma, mbarrier, fence_async_shared

@gluon.jit
def copy_tile(in_desc, out_desc):
    smem = gl.allocate_shared_memory(in_desc.dtype, in_desc.block_type.shape, in_desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    mbarrier.expect(bar, in_desc.block_type.nbytes)
    tma.async_load(in_desc, [0, 0], bar, smem)
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)
    tma.async_store(out_desc, [0, 0], smem)
    tma.store_wait(pendings=0)
