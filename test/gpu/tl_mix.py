# Kernels of test_tl_mix.c: one file, both languages, as a migration goes.
# matmul_tl is the Triton GEMM of the lecture's first practice step (a
# tiled tl.dot loop, tutorial 03's without the grouped order); matmul_gl is
# its port with the main loop moved to Gluon (explicit layouts, operands
# stored to NVMMA-swizzled shared memory, warpgroup_mma) and the Triton
# epilogue left as it was: it calls the same @triton.jit `epilogue`, whose
# layouts flow in from the accumulator (NVMMADistributedLayout) as Gluon's
# AutoLayout does; both call the same @triton.jit tile helper on scalars.
# gl_scale_tl is the reverse: a @triton.jit kernel calling a @gluon.jit
# helper. bundle.sh compiles each "# kernel" line as compile.py would; the
# interpreter (test/tl/interp_gpu.sh) runs the Triton kernels only.
import triton
import triton.language as tl
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import fence_async_shared, warpgroup_mma

# kernel matmul_tl: *fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32, 128, 128, 64
# kernel matmul_gl: *fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32, i32, i32, 128, 128, 64; interp=no
# kernel scale_tl: *fp32:16, *fp32:16, i32, 1024


@triton.jit
def tile_of(pid, N, BLOCK_N: tl.constexpr):
    """The (row, column) tile of program pid, row-major over the tiles of C."""
    num_pid_n = tl.cdiv(N, BLOCK_N)
    return pid // num_pid_n, pid % num_pid_n


@triton.jit
def epilogue(c_ptr, acc, pid_m, pid_n, M, N, stride_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """C's tile: the f32 accumulator rounded to f16, stored where it is inside C."""
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, acc.to(tl.float16), mask=c_mask)


@triton.jit
def matmul_tl(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BLOCK_M: tl.constexpr,
              BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """C = A B for row-major f16 A (M x K), B (K x N), C (M x N); one tile per program."""
    pid_m, pid_n = tile_of(tl.program_id(0), N, BLOCK_N)
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_bn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    epilogue(c_ptr, acc, pid_m, pid_n, M, N, stride_cm, BLOCK_M, BLOCK_N)


@gluon.jit
def matmul_gl(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm, BLOCK_M: gl.constexpr,
              BLOCK_N: gl.constexpr, BLOCK_K: gl.constexpr):
    """matmul_tl with its main loop in Gluon (4 warps, one warpgroup): coalesced loads in
    the layouts Triton picks for these tiles, the operands stored to 128-byte swizzled
    shared memory, a synchronous WGMMA into an NVMMA accumulator; the epilogue is Triton's."""
    LA: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    LB: gl.constexpr = gl.BlockedLayout([1, 8], [2, 16], [4, 1], [1, 0])
    ACC: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1],
                                                  instr_shape=[16, BLOCK_N, 16])
    SA: gl.constexpr = gl.NVMMASharedLayout.get_default_for([BLOCK_M, BLOCK_K], gl.float16)
    SB: gl.constexpr = gl.NVMMASharedLayout.get_default_for([BLOCK_K, BLOCK_N], gl.float16)
    pid_m, pid_n = tile_of(gl.program_id(0), N, BLOCK_N)
    offs_am = (pid_m * BLOCK_M + gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, LA))) % M
    offs_ka = gl.arange(0, BLOCK_K, layout=gl.SliceLayout(0, LA))
    offs_kb = gl.arange(0, BLOCK_K, layout=gl.SliceLayout(1, LB))
    offs_bn = (pid_n * BLOCK_N + gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, LB))) % N
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_ka[None, :]
    b_ptrs = b_ptr + offs_kb[:, None] * stride_bk + offs_bn[None, :]
    a_smem = gl.allocate_shared_memory(gl.float16, [BLOCK_M, BLOCK_K], SA)
    b_smem = gl.allocate_shared_memory(gl.float16, [BLOCK_K, BLOCK_N], SB)
    acc = gl.zeros([BLOCK_M, BLOCK_N], gl.float32, layout=ACC)
    for k in range(0, gl.cdiv(K, BLOCK_K)):
        a = gl.load(a_ptrs, mask=offs_ka[None, :] < K - k * BLOCK_K, other=0.0)
        b = gl.load(b_ptrs, mask=offs_kb[:, None] < K - k * BLOCK_K, other=0.0)
        a_smem.store(a)
        b_smem.store(b)
        fence_async_shared()
        acc = warpgroup_mma(a_smem, b_smem, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    epilogue(c_ptr, acc, pid_m, pid_n, M, N, stride_cm, BLOCK_M, BLOCK_N)


@gluon.jit
def gl_axpb(v, a, b):
    """a v + b, computed in a layout of its own (4 consecutive elements per thread)."""
    w = gl.convert_layout(v, gl.BlockedLayout([4], [32], [4], [0]))
    return w * a + b


@triton.jit
def scale_tl(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    """y = 3 x + 1 through a Gluon helper, masked at n."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, gl_axpb(tl.load(x_ptr + offs, mask=mask), 3.0, 1.0), mask=mask)
