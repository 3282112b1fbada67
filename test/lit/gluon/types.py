# What the tutorials read off types and write in loops: x.type.layout,
# desc.type.block_type.element_ty, buf.type.shape, smem._keep_alive(),
# Python's bools as ints ([STAGES + EXTRA]), and a name a loop body
# introduces rebound there with another type (c = v; c = c.to(f16)).
# RUN: %glc %s -n ring -s "tensordesc<fp32[32,64]>, tensordesc<fp16[32,64]>, i32, 2, True" --emit=ir | FileCheck %s
# RUN: %glc %s -n ring -s "tensordesc<fp32[32,64]>, tensordesc<fp16[32,64]>, i32, 2, True" -c -o %t.o
# CHECK: alloc 0 bufs f32 [3, 32, 64]
# CHECK: for $0
# CHECK: %[[V:[0-9]+]] = mul {{.*}} : tensor<f32, [32, 64]
# CHECK-NEXT: write $[[F32:[0-9]+]], %[[V]]
# CHECK: %[[H:[0-9]+]] = cast {{.*}} : tensor<f16, [32, 64]
# CHECK-NEXT: write $[[F16:[0-9]+]], %[[H]]
# CHECK: tma.store %1
# CHECK: tma.store_wait count=0
# CHECK-NEXT: smem_view offset=0 stride=0 %{{[0-9]+}} : smem<f16, [32, 64]
import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import tma, mbarrier, fence_async_shared


@gluon.jit
def ring(in_desc, out_desc, n, STAGES: gl.constexpr, EXTRA: gl.constexpr):
    dtype: gl.constexpr = in_desc.type.block_type.element_ty
    gl.static_assert(dtype == gl.float32)
    bufs = gl.allocate_shared_memory(dtype, [STAGES + EXTRA] + in_desc.block_type.shape, in_desc.layout)
    count: gl.constexpr = bufs.type.shape[0]
    gl.static_assert(count == 3)
    gl.static_assert(bufs.type.layout == in_desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    out = gl.allocate_shared_memory(out_desc.dtype, out_desc.block_type.shape, out_desc.layout)
    reg: gl.constexpr = gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    for i in range(n):
        slot = bufs.index(i % count)
        mbarrier.expect(bar, in_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(in_desc, [i * 32, 0], bar, slot)
        mbarrier.wait(bar, i & 1)
        c = slot.load(reg) * 2.0
        gl.static_assert(c.type.layout == reg)
        c = c.to(gl.float16)
        tma.store_wait(0)
        out.store(c)
        fence_async_shared()
        tma.async_copy_shared_to_global(out_desc, [i * 32, 0], out)
    tma.store_wait(0)
    out._keep_alive()
    mbarrier.invalidate(bar)
