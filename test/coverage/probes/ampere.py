# Probes of triton.experimental.gluon.language.nvidia.ampere (which Hopper
# runs too): cp.async copies and their groups, mbarriers, mma_v2.
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.ampere import async_copy, mbarrier, mma_v2

L1: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])


# probe nvidia.ampere.async_copy async_copy_global_to_shared -- -s "*fp32, *fp32, i32"
# probe nvidia.ampere.async_copy commit_group -- -s "*fp32, *fp32, i32"
# probe nvidia.ampere.async_copy wait_group -- -s "*fp32, *fp32, i32"
@gluon.jit
def cp_async_kernel(p, q, n):
    smem = gl.allocate_shared_memory(gl.float32, [2, 128], gl.SwizzledSharedLayout(1, 1, 1, [0]))
    offs = gl.arange(0, 128, layout=L1)
    async_copy.async_copy_global_to_shared(smem.index(0), p + offs, mask=offs < n, cache_modifier=".cg",
                                           eviction_policy="evict_first", volatile=False)
    async_copy.commit_group()
    async_copy.async_copy_global_to_shared(smem=smem.index(1), pointer=p + 128 + offs)
    async_copy.commit_group()
    async_copy.wait_group(num_outstanding=1)
    async_copy.wait_group(0)
    gl.store(q + offs, smem.index(0).load(L1) + smem.index(1).load(L1))


# probe nvidia.ampere.async_copy mbarrier_arrive -- -s "*fp32, *fp32"
# probe nvidia.ampere.mbarrier MBarrierLayout -- -s "*fp32, *fp32"
# probe nvidia.ampere.mbarrier init -- -s "*fp32, *fp32"
# probe nvidia.ampere.mbarrier wait -- -s "*fp32, *fp32"
# probe nvidia.ampere.mbarrier invalidate -- -s "*fp32, *fp32"
@gluon.jit
def cp_async_mbarrier_kernel(p, q):
    smem = gl.allocate_shared_memory(gl.float32, [128], gl.SwizzledSharedLayout(1, 1, 1, [0]))
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=128)
    offs = gl.arange(0, 128, layout=L1)
    async_copy.async_copy_global_to_shared(smem, p + offs)
    async_copy.mbarrier_arrive(bar, increment_count=False)
    mbarrier.wait(bar, phase=0, pred=True, deps=(smem, ))
    mbarrier.invalidate(bar)
    gl.store(q + offs, smem.load(L1))


# probe nvidia.ampere.mbarrier arrive -- -s "*i32"
@gluon.jit
def ampere_arrive_kernel(p):
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    mbarrier.arrive(bar, pred=True)
    mbarrier.wait(bar, 0)
    gl.store(p, 1)


# probe nvidia.ampere mma_v2 -- -s "*bf16, *bf16, *fp32"
@gluon.jit
def mma_v2_kernel(a_ptr, b_ptr, c_ptr):
    acc_l: gl.constexpr = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])
    a_l: gl.constexpr = gl.DotOperandLayout(0, acc_l, 2)
    b_l: gl.constexpr = gl.DotOperandLayout(1, acc_l, 2)
    m = gl.arange(0, 32, layout=gl.SliceLayout(1, a_l))
    k = gl.arange(0, 32, layout=gl.SliceLayout(0, a_l))
    a = gl.load(a_ptr + m[:, None] * 32 + k[None, :])
    kb = gl.arange(0, 32, layout=gl.SliceLayout(1, b_l))
    n = gl.arange(0, 32, layout=gl.SliceLayout(0, b_l))
    b = gl.load(b_ptr + kb[:, None] * 32 + n[None, :])
    acc = mma_v2(a, b, gl.zeros([32, 32], gl.float32, layout=acc_l), input_precision=None)
    mc = gl.arange(0, 32, layout=gl.SliceLayout(1, acc_l))
    nc = gl.arange(0, 32, layout=gl.SliceLayout(0, acc_l))
    gl.store(c_ptr + mc[:, None] * 32 + nc[None, :], acc)


# probe nvidia.ampere mma_v2 -- -s "*bf16, *bf16, *fp32"
@gluon.jit
def mma_v2_wide_k_kernel(a_ptr, b_ptr, c_ptr):
    acc_l: gl.constexpr = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])
    a_l: gl.constexpr = gl.DotOperandLayout(0, acc_l, 4)
    b_l: gl.constexpr = gl.DotOperandLayout(1, acc_l, 4)
    m = gl.arange(0, 32, layout=gl.SliceLayout(1, a_l))
    k = gl.arange(0, 32, layout=gl.SliceLayout(0, a_l))
    a = gl.load(a_ptr + m[:, None] * 32 + k[None, :])
    kb = gl.arange(0, 32, layout=gl.SliceLayout(1, b_l))
    n = gl.arange(0, 32, layout=gl.SliceLayout(0, b_l))
    b = gl.load(b_ptr + kb[:, None] * 32 + n[None, :])
    acc = mma_v2(a, b, gl.zeros([32, 32], gl.float32, layout=acc_l))
    gl.store(c_ptr, gl.sum(gl.sum(acc, 1), 0))
