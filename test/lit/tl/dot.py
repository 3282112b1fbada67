# tl.dot as Triton 3.6 compiles it for Hopper (each layout checked against
# its ttgir): WGMMA with instr_shape [16, n, 16] (n the largest multiple of
# 8 dividing N within N / the warps across N) and warps down M, A and B
# stored row-major into 128-byte swizzled NVMMASharedLayouts, a fence, the
# accumulator loop-carried in the MMA layout and converted once for the
# store (Triton's #blocked of the C tile); mma.sync below M = 64.
# RUN: %glc %s -n matmul -s "*fp16, *fp16, *fp16, i32, i32, i32, i32, i32, i32, 128, 128, 64" --emit=ir | FileCheck %s --check-prefix=MM
# MM-DAG: #[[MMA:mma[0-9]*]] = NVMMADistributedLayout([3,0],[4,1],[16,128,16]) on [128, 128]
# MM-DAG: #[[SA:nvmma[0-9]*]] = NVMMASharedLayout(128, 16) on [128, 64]
# MM-DAG: #[[SB:nvmma[0-9]*]] = NVMMASharedLayout(128, 16) on [64, 128]
# MM-DAG: #[[LA:blocked[0-9]*]] = BlockedLayout([1,8],[4,8],[4,1],[1,0]) on [128, 64]
# MM-DAG: #[[LB:blocked[0-9]*]] = BlockedLayout([1,8],[2,16],[4,1],[1,0]) on [64, 128]
# MM-DAG: #[[LC:blocked[0-9]*]] = BlockedLayout([1,8],[2,16],[4,1],[1,0]) on [128, 128]
# MM: for $
# MM: load {{.*}} : tensor<f16, [128, 64], #[[LA]]>
# MM: load {{.*}} : tensor<f16, [64, 128], #[[LB]]>
# MM: smem_alloc alloc=0 : smem<f16, [128, 64], #[[SA]]
# MM: smem_alloc alloc=1 : smem<f16, [64, 128], #[[SB]]
# MM: fence_async_shared
# MM: warpgroup_mma {{.*}} : tensor<f32, [128, 128], #[[MMA]]>
# MM-NOT: convert_layout soft plan=shared
# MM: }
# MM: convert_layout soft plan=shared {{.*}} : tensor<f16, [128, 128], #[[LC]]>
# MM-NEXT: store
# RUN: %glc %s -n matmul -s "*fp16, *fp16, *fp16, i32, i32, i32, i32, i32, i32, 128, 128, 64" --emit=cubin -o %t.cubin
#
# a chained dot (attention's P V, 8 warps): the computed P stays in
# registers (DotOperandLayout(0, mma, 2)); tl.trans(k) is stored as k and
# read through a transposed view (Triton's memdesc_trans)
# RUN: %glc %s -n chain -s "*fp16, *fp16, *fp16, *fp32, 128, 64, 64" -w 8 --emit=ir | FileCheck %s --check-prefix=CHAIN
# CHAIN-DAG: #[[M8:mma[0-9]*]] = NVMMADistributedLayout([3,0],[8,1],[16,64,16]) on [128, 64]
# CHAIN-DAG: #[[T:nvmma[0-9]*]] = NVMMASharedLayout(128, 16, transposed=True) on [64, 64]
# CHAIN-DAG: #[[DOT:dot_op[0-9]*]] = DotOperandLayout(0, NVMMADistributedLayout([3,0],[8,1],[16,64,16]), 2) on [128, 64]
# CHAIN: smem_view {{.*}} : smem<f16, [64, 64], #[[T]]
# CHAIN: warpgroup_mma
# CHAIN: convert_layout soft {{.*}} : tensor<f16, [128, 64], #[[DOT]]>
# CHAIN: warpgroup_mma
# RUN: %glc %s -n chain -s "*fp16, *fp16, *fp16, *fp32, 128, 64, 64" -w 8 --emit=cubin -o %t.chain.cubin
#
# below M = 64, mma.sync with Triton's warpsPerTileV2: [1, 4] for 16 x 32,
# [2, 2] for 32 x 32; at 64 x 32 WGMMA [16, 32, 16]
# RUN: %glc %s -n small -s "*fp16, *fp16, *fp32, 16, 32, 32" --emit=ir | FileCheck %s --check-prefix=S16
# S16: NVMMADistributedLayout([2,0],[1,4],[16,8]) on [16, 32]
# RUN: %glc %s -n small -s "*fp16, *fp16, *fp32, 32, 32, 32" --emit=ir | FileCheck %s --check-prefix=S32
# S32: NVMMADistributedLayout([2,0],[2,2],[16,8]) on [32, 32]
# RUN: %glc %s -n small -s "*fp16, *fp16, *fp32, 64, 32, 32" --emit=ir | FileCheck %s --check-prefix=S64
# S64: NVMMADistributedLayout([3,0],[4,1],[16,32,16]) on [64, 32]
#
# f32 inputs with input_precision="ieee": FMAs, in glc's default BlockedLayout (Triton's
# FMA dot has [2, 2] elements per thread there)
# RUN: %glc %s -n ieee -s "*fp32, *fp32, *fp32, 32" --emit=ir | FileCheck %s --check-prefix=IEEE
# IEEE: dot {{.*}} : tensor<f32, [32, 32], #{{blocked[0-9]*}}>
# RUN: %glc %s -n ieee -s "*fp32, *fp32, *fp32, 32" --emit=cubin -o %t.ieee.cubin
import triton
import triton.language as tl


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    offs_m = (tl.program_id(0) * BM + tl.arange(0, BM)) % M
    offs_n = (tl.program_id(1) * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    c = acc.to(tl.float16)
    offs_cm = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_cn = tl.program_id(1) * BN + tl.arange(0, BN)
    tl.store(c_ptr + stride_cm * offs_cm[:, None] + offs_cn[None, :], c,
             mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@triton.jit
def chain(q_ptr, k_ptr, v_ptr, o_ptr, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    k = tl.load(k_ptr + rn[:, None] * D + rd[None, :])
    v = tl.load(v_ptr + rn[:, None] * D + rd[None, :])
    s = tl.dot(q, tl.trans(k))
    p = tl.exp(s - tl.max(s, 1)[:, None]).to(tl.float16)
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], tl.dot(p, v))


@triton.jit
def small(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], tl.dot(a, b))


@triton.jit
def ieee(a_ptr, b_ptr, c_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    a = tl.load(a_ptr + r[:, None] * B + r[None, :])
    b = tl.load(b_ptr + r[:, None] * B + r[None, :])
    tl.store(c_ptr + r[:, None] * B + r[None, :], tl.dot(a, b, input_precision="ieee"))
