# tl's tensor descriptors as Triton 3.6 lowers them without pipelining:
# each load a TMA copy into a buffer in the descriptor's NVMMASharedLayout
# with its own mbarrier (init, expect the block's bytes, wait for phase 0,
# invalidate), read at 16 bytes per thread (Triton's [1, 8], [4, 8], [4, 1]
# for 64 x 64 f16); each store a TMA copy out after a fence, waited for. A
# descriptor made in the kernel has the block's default NVMMASharedLayout,
# as a `tensordesc<...>` argument does.
# RUN: %glc %s -n made -s "*fp16, *fp16, i32, i32, 64, 64" --emit=ir | FileCheck %s
# CHECK-DAG: #[[S:nvmma[0-9]*]] = NVMMASharedLayout(128, 16) on [64, 64]
# CHECK-DAG: #[[L:blocked[0-9]*]] = BlockedLayout([1,8],[4,8],[4,1],[1,0]) on [64, 64]
# CHECK: make_desc
# CHECK: for $
# CHECK: smem_alloc {{.*}} : smem<f16, [64, 64], #[[S]]
# CHECK: mbarrier.init count=1
# CHECK: mbarrier.expect
# CHECK: tma.load
# CHECK: mbarrier.wait
# CHECK: mbarrier.invalidate
# CHECK: smem_load {{.*}} : tensor<f16, [64, 64], #[[L]]>
# CHECK: fence_async_shared
# CHECK: tma.store
# CHECK: tma.store_wait count=0
# RUN: %glc %s -n made -s "*fp16, *fp16, i32, i32, 64, 64" --emit=cubin -o %t.cubin
# RUN: %glc %s -n args -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, 64" --emit=cubin -o %t.args.cubin
import triton
import triton.language as tl


@triton.jit
def made(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    a = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    b = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    for j in range(0, tl.cdiv(N, BN)):
        v = tl.load_tensor_descriptor(a, [pid * BM, j * BN])
        tl.store_tensor_descriptor(b, [pid * BM, j * BN], v + 1)


@triton.jit
def args(in_desc, out_desc, BM: tl.constexpr):
    pid = tl.program_id(0)
    x = in_desc.load([pid * BM, 0])
    out_desc.store([pid * BM, 0], x * 2)
