# The GEMM constructs of the Hopper tutorials (05, 07) in glc's own
# kernel: an @aggregate wrapper of WGMMA whose methods return new instances
# and tuples, a tile-scheduler class passed as a constexpr, constexpr
# functions that loop over a list (triton.cdiv, `w[0] *= 2`), Union field
# annotations, a ring of TMA buffers shaped [STAGES] + block_shape, helpers
# with a defaulted pred, static_range(start, stop, step), warpgroup_mma_init,
# waits with deps=(acc, ), permuted (transposed) B views and min() on
# runtime scalars.
# RUN: %glc %s -n gemm -s "tensordesc<fp16[128,64]>, tensordesc<fp16[128,64]>, tensordesc<fp16[128,128]>, Wgmma, RowMajor, 3, 8" -w 8 --emit=ir | FileCheck %s
# RUN: %glc %s -n gemm -s "tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, tensordesc<fp16[64,64]>, Wgmma, RowMajor, 2, 4" -c -o %t.o
# CHECK: #mma = NVMMADistributedLayout([3,0],[8,1],[16,128,16]) on [128, 128]
# CHECK: #nvmma2 = NVMMASharedLayout(128, 16, transposed=True) on [64, 128]
# CHECK: kernel gemm({{.*}}) num_warps=8
# CHECK: alloc 0 a_bufs f16 [3, 128, 64]
# CHECK: for $[[T:[0-9]+]] =
# CHECK: for $[[K:[0-9]+]] =
# CHECK: warpgroup_mma async {{.*}} use_acc
# CHECK: warpgroup_mma_wait count=1
# CHECK: warpgroup_mma_wait count=0
import triton
from typing import Union
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.language.core import _aggregate as aggregate
from triton.experimental.gluon.language.nvidia.hopper import (tma, mbarrier, fence_async_shared, warpgroup_mma,
                                                              warpgroup_mma_init, warpgroup_mma_wait,
                                                              warpgroup_mma_accumulator)


@gluon.constexpr_function
def warps_for(BM, num_warps):
    w = [4, 1]
    while w[0] * w[1] != num_warps:
        if BM > 16 * w[0]:
            w[0] *= 2
        else:
            w[1] *= 2
    return w


@gluon.constexpr_function
def acc_layout(dtype, BM, BN, num_warps):
    reps = triton.cdiv(num_warps, triton.cdiv(BM, 16))
    n = min(256, max(BN // reps, 8))
    return gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=warps_for(BM, num_warps),
                                     instr_shape=[16, n, 256 // dtype.primitive_bitwidth])


@aggregate
class Wgmma:
    acc: Union[warpgroup_mma_accumulator, gl.tensor]
    first: gl.tensor

    @gluon.constexpr_function
    def __init__(self, acc, first):
        self.acc = acc
        self.first = first

    @gluon.jit
    def start(dtype: gl.constexpr, BM: gl.constexpr, BN: gl.constexpr, num_warps: gl.constexpr):
        layout: gl.constexpr = acc_layout(dtype, BM, BN, num_warps)
        return Wgmma(warpgroup_mma_init(gl.zeros((BM, BN), gl.float32, layout)), gl.to_tensor(True))

    @gluon.jit
    def issue(self, a, b):
        acc = warpgroup_mma(a, b, self.acc, use_acc=not self.first, is_async=True)
        return Wgmma(acc, gl.to_tensor(False))

    @gluon.jit
    def drain(self, pending: gl.constexpr):
        return Wgmma(warpgroup_mma_wait(pending, deps=(self.acc, )), self.first)

    @gluon.jit
    def result(self):
        return self.acc, Wgmma(self.acc, gl.to_tensor(True))


@aggregate
class RowMajor:
    first: gl.tensor
    last: gl.tensor
    tiles_m: gl.tensor

    @gluon.jit
    def create(M, N, BM: gl.constexpr, BN: gl.constexpr):
        tiles_m = gl.cdiv(M, BM)
        total = tiles_m * gl.cdiv(N, BN)
        per = gl.cdiv(total, gl.num_programs(0))
        first = gl.program_id(0) * per
        return RowMajor(first, min(first + per, total), tiles_m)

    @gluon.jit
    def count(self):
        return self.last - self.first

    @gluon.jit
    def tile(self, i):
        t = self.first + i
        return t % self.tiles_m, t // self.tiles_m


@gluon.jit
def load_stage(k_iter, a_desc, b_desc, off_m, off_n, bars, a_bufs, b_bufs, STAGES: gl.constexpr, pred=True):
    s = k_iter % STAGES
    bar = bars.index(s)
    mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes, pred=pred)
    tma.async_copy_global_to_shared(a_desc, [off_m, k_iter * a_desc.block_type.shape[1]], bar, a_bufs.index(s), pred)
    tma.async_copy_global_to_shared(b_desc, [off_n, k_iter * b_desc.block_type.shape[1]], bar, b_bufs.index(s), pred)
    return k_iter + 1


@gluon.jit
def gemm(a_desc, b_desc, c_desc, Mma: gl.constexpr, Sched: gl.constexpr, STAGES: gl.constexpr,
         num_warps: gl.constexpr):
    BM: gl.constexpr = c_desc.block_type.shape[0]
    BN: gl.constexpr = c_desc.block_type.shape[1]
    BK: gl.constexpr = a_desc.block_type.shape[1]
    dtype: gl.constexpr = a_desc.dtype
    a_bufs = gl.allocate_shared_memory(dtype, [STAGES] + a_desc.block_type.shape, a_desc.layout)
    b_bufs = gl.allocate_shared_memory(dtype, [STAGES] + b_desc.block_type.shape, b_desc.layout)
    bars = gl.allocate_shared_memory(gl.int64, [STAGES, 1], mbarrier.MBarrierLayout())
    for s in gl.static_range(STAGES):
        mbarrier.init(bars.index(s), count=1)
    c_smem = gl.allocate_shared_memory(dtype, c_desc.block_type.shape, c_desc.layout)
    k_tiles = gl.cdiv(a_desc.shape[1], BK)
    loaded = 0
    used = 0
    mma = Mma.start(dtype, BM, BN, num_warps)
    sched = Sched.create(c_desc.shape[0], c_desc.shape[1], BM, BN)
    for t in range(sched.count()):
        pid_m, pid_n = sched.tile(t)
        off_m = pid_m * BM
        off_n = pid_n * BN
        for k in gl.static_range(0, BK * (STAGES - 1), BK):
            loaded = load_stage(loaded, a_desc, b_desc, off_m, off_n, bars, a_bufs, b_bufs, STAGES, k // BK < k_tiles)
        for k in range(k_tiles):
            s = used % STAGES
            mbarrier.wait(bars.index(s), used // STAGES & 1)
            used += 1
            mma = mma.issue(a_bufs.index(s), b_bufs.index(s).permute((1, 0)))
            mma = mma.drain(1)
            loaded = load_stage(loaded, a_desc, b_desc, off_m, off_n, bars, a_bufs, b_bufs, STAGES,
                                k + STAGES - 1 < k_tiles)
        mma = mma.drain(0)
        acc, mma = mma.result()
        tma.store_wait(pendings=0)
        c_smem.store(acc.to(dtype))
        fence_async_shared()
        tma.async_copy_shared_to_global(c_desc, [off_m, off_n], c_smem)
    tma.store_wait(pendings=0)
