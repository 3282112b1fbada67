# The smaller constructs of the tutorials and test_core.py in glc's own
# kernels: a kernel called from another kernel, a runtime loop bounded by
# min(), SliceLayout(dim=, parent=), a device function returning a tuple,
# convert_layout, gl.sum over an axis, load's other=, and on the Hopper
# side static_asserts on block types, layouts and isinstance, gl.full over
# a descriptor's block, the A operand in registers (DotOperandLayout with
# k_width=32 // bits), deps=[acc] as a list, `phase ^= 1`, a wrapped
# ttgl.constexpr(mbarrier.MBarrierLayout()) and hopper.warpgroup_mma.
# RUN: %glc %s -n copy_rows -s "*fp32, *fp32, i32, i32, 64" -w 4 --emit=ir | FileCheck %s --check-prefix=ROWS
# RUN: %glc %s -n small_mma -s "tensordesc<fp16[64,32]>, tensordesc<fp16[32,64]>, tensordesc<fp32[64,64]>, 2" -c -o %t.o
# RUN: %glc %s -n small_mma -s "tensordesc<fp16[64,32]>, tensordesc<fp16[32,64]>, tensordesc<fp32[64,64]>, 2" --emit=ir | FileCheck %s --check-prefix=MMA
# ROWS: kernel copy_rows(
# ROWS: = min
# ROWS: for $0 =
# ROWS: convert_layout
# ROWS: reduce axis=1 combine=add
# MMA: warpgroup_mma async %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tensor<f32, [64, 64]
# MMA: warpgroup_mma_wait count=0
import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as ttgl
from triton.experimental.gluon.language.nvidia import hopper
from triton.experimental.gluon.language.nvidia.hopper import tma, mbarrier, fence_async_shared


@gluon.jit
def offsets_and_mask(start, n, stride, BLOCK: ttgl.constexpr, layout: ttgl.constexpr):
    rows = start + ttgl.arange(0, BLOCK, layout=ttgl.SliceLayout(dim=1, parent=layout))
    cols = ttgl.arange(0, 32, layout=ttgl.SliceLayout(dim=0, parent=layout))
    return rows[:, None] * stride + cols[None, :], (rows < n)[:, None] & (cols < 32)[None, :]


@gluon.jit
def copy_block(src, dst, start, n, BLOCK: ttgl.constexpr):
    load_layout: ttgl.constexpr = ttgl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    store_layout: ttgl.constexpr = ttgl.BlockedLayout([4, 1], [8, 4], [1, 4], [0, 1])
    offs, mask = offsets_and_mask(start, n, 32, BLOCK, load_layout)
    x = ttgl.load(src + offs, mask=mask, other=0.0)
    out_offs, out_mask = offsets_and_mask(start, n, 32, BLOCK, store_layout)
    ttgl.store(dst + out_offs, ttgl.convert_layout(x, store_layout), mask=out_mask)
    return ttgl.sum(x, axis=1)


@gluon.jit
def copy_rows(src, dst, n, per_program, BLOCK: ttgl.constexpr):
    start = ttgl.program_id(0) * per_program
    end = min(start + per_program, n)
    for s in range(start, end, BLOCK):
        copy_block(src, dst, s, end, BLOCK)


@gluon.jit
def small_mma(a_desc, b_desc, c_desc, ROUNDS: ttgl.constexpr):
    ttgl.static_assert(a_desc.block_type.shape[1] == b_desc.block_type.shape[0])
    ttgl.static_assert(a_desc.layout == ttgl.NVMMASharedLayout.get_default_for([64, 32], ttgl.float16))
    bar = ttgl.allocate_shared_memory(ttgl.int64, [1], ttgl.constexpr(mbarrier.MBarrierLayout()))
    mbarrier.init(bar, count=1)
    a_smem = ttgl.allocate_shared_memory(a_desc.dtype, a_desc.block_type.shape, a_desc.layout)
    b_smem = ttgl.allocate_shared_memory(b_desc.dtype, b_desc.block_type.shape, b_desc.layout)
    ttgl.static_assert(isinstance(b_smem.type.layout, ttgl.NVMMASharedLayout))
    acc_layout: ttgl.constexpr = ttgl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                            instr_shape=[16, 64, 16])
    a_layout: ttgl.constexpr = ttgl.DotOperandLayout(operand_index=0, parent=acc_layout,
                                                      k_width=32 // a_desc.dtype.primitive_bitwidth)
    acc = ttgl.full(c_desc.block_shape, 0, c_desc.dtype, acc_layout)
    phase = 0
    for i in range(ROUNDS):
        mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(a_desc, [0, i * 32], bar, a_smem)
        tma.async_copy_global_to_shared(b_desc, [i * 32, 0], bar, b_smem)
        mbarrier.wait(bar, phase)
        phase ^= 1
        acc = hopper.warpgroup_mma(a_smem.load(a_layout), b_smem, acc, is_async=True)
        acc = hopper.warpgroup_mma_wait(num_outstanding=0, deps=[acc])
    mbarrier.invalidate(bar)
    c_smem = ttgl.allocate_shared_memory(c_desc.dtype, c_desc.block_type.shape, c_desc.layout)
    c_smem.store(acc)
    fence_async_shared()
    tma.async_copy_shared_to_global(c_desc, [0, 0], c_smem)
    tma.store_wait(0)
