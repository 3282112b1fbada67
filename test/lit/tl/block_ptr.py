# Block pointers are the pointer arithmetic Triton's RewriteTensorPointer
# gives Hopper: int64 offsets (offset + arange) * stride summed over the
# dims, masks 0 <= index < shape for the dims of boundary_check, the
# padding as `other`; the tile in Triton's coalesced layout ([1, 4],
# [2, 16], [4, 1] for 64 x 64 f32). A loop carries the block pointer's
# offsets (tl.advance).
# RUN: %glc %s -n copy -s "*fp32, *fp32, i32, i32, i32, 64, 64" --emit=ir | FileCheck %s
# CHECK: #[[L:blocked[0-9]*]] = BlockedLayout([1,4],[2,16],[4,1],[1,0]) on [64, 64]
# CHECK: cast {{.*}} : tensor<i64, [64]
# CHECK: ge {{.*}} : tensor<i1, [64, 1]
# CHECK: lt {{.*}} : tensor<i1, [64, 1]
# CHECK: ge {{.*}} : tensor<i1, [1, 64]
# CHECK: lt {{.*}} : tensor<i1, [1, 64]
# CHECK: load {{.*}}, mask {{.*}}, other {{.*}} : tensor<f32, [64, 64], #[[L]]>
# CHECK: store
# RUN: %glc %s -n copy -s "*fp32, *fp32, i32, i32, i32, 64, 64" --emit=cubin -o %t.cubin
#
# boundary_check of dim 1 only, NaN padding, through a loop of tl.advance
# RUN: %glc %s -n rows -s "*fp32, *fp32, i32, i32, 16, 64" --emit=ir | FileCheck %s --check-prefix=ROWS
# ROWS: var ${{[0-9]+}} p.3.0 : i32
# ROWS: for $
# ROWS: const nan : f32
# ROWS: load
# RUN: %glc %s -n rows -s "*fp32, *fp32, i32, i32, 16, 64" --emit=cubin -o %t.rows.cubin
#
# RUN: not %glc %s -n bad -s "*fp32, 64" 2>&1 | FileCheck %s --check-prefix=BAD
# BAD: error: tl.load through a block pointer takes no mask or other
import triton
import triton.language as tl


@triton.jit
def copy(x_ptr, y_ptr, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.make_block_ptr(x_ptr, (M, N), (stride, 1), (tl.program_id(0) * BM, 0), (BM, BN), (1, 0))
    x = tl.load(p, boundary_check=(0, 1), padding_option="zero")
    q = tl.make_block_ptr(y_ptr, (M, N), (stride, 1), (tl.program_id(0) * BM, 0), (BM, BN), (1, 0))
    tl.store(q, x * 2, boundary_check=(0, 1))


@triton.jit
def rows(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (tl.program_id(0) * BM, 0), (BM, BN), (1, 0))
    acc = tl.zeros((BM, BN), tl.float32)
    for _ in range(0, tl.cdiv(N, BN)):
        acc += tl.load(p, boundary_check=(1, ), padding_option="nan")
        p = tl.advance(p, (0, BN))
    q = tl.make_block_ptr(y_ptr, (M, BN), (BN, 1), (tl.program_id(0) * BM, 0), (BM, BN), (1, 0))
    tl.store(q, acc)


@triton.jit
def bad(x_ptr, B: tl.constexpr):
    p = tl.make_block_ptr(x_ptr, (B, ), (1, ), (0, ), (B, ), (0, ))
    tl.load(p, mask=tl.arange(0, B) < 3)
