# Probes of the host side: the TensorDescriptor a Gluon host program builds
# (glc takes it as a tensordesc<> signature entry), and the options and
# signature entries of Triton's AOT tool (triton/tools/compile.py), which
# glc's command line follows.
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import tma, mbarrier
from triton.experimental.gluon.nvidia.hopper import TensorDescriptor

L1: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])


# probe gluon.nvidia.hopper TensorDescriptor -- -s "tensordesc<fp16[64,64],gl.NVMMASharedLayout(128, 16)>"
# probe gluon.nvidia.hopper TensorDescriptor.from_tensor -- -s "tensordesc<bf16[32,64]>"
@gluon.jit
def descriptor_kernel(desc):
    smem = gl.allocate_shared_memory(desc.dtype, desc.block_type.shape, desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    mbarrier.expect(bar, desc.block_type.nbytes)
    tma.async_copy_global_to_shared(desc, [0, 0], bar, smem)
    mbarrier.wait(bar, 0)
    tma.async_copy_shared_to_global(desc, [desc.shape[0] - 64, 0], smem)
    tma.store_wait(0)


# probe-fails gluon.nvidia.hopper TensorDescriptor -- -s "*fp16, i32, i32"
@gluon.jit
def descriptor_in_kernel(p, M, N):
    desc = TensorDescriptor(p, [M, N], [N, 1], [64, 64], gl.NVMMASharedLayout(128, 16))
    gl.store(p, 1.0)


def launch(x, y, n):
    grid = (triton.cdiv(n, 1024), )
    add_kernel[grid](x, y, n, 1024, num_warps=4)


# probe compile.py -n -- -s "*fp32, i32, 1024" -w 4
# probe compile.py -s -- -s "*fp32, i32, 1024" -s "*fp32:16, i32:16, 512"
# probe compile.py -w -- -s "*fp32, i32, 1024" -w 8
# probe compile.py -ns -- -s "*fp32, i32, 1024" -ns 3
# probe compile.py -o -- -s "*fp32, i32, 1024"
# probe compile.py -on -- -s "*fp32, i32, 1024" -on add_f32
# probe compile.py sig-pointer -- -s "*fp32, i32, 1024"
# probe compile.py sig-scalar -- -s "*fp32, i64, 1024"
# probe compile.py sig-div16 -- -s "*fp32:16, i32:16, 1024"
# probe compile.py sig-constexpr -- -s "*fp32, i32, 1024"
# probe compile.py sig-one -- -s "*fp32:16, i32:1, 1024"
@gluon.jit
def add_kernel(x_ptr, n, BLOCK: gl.constexpr):
    offs = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout=gl.BlockedLayout([1], [32], [gl.num_warps()], [0]))
    x = gl.load(x_ptr + offs, mask=offs < n)
    gl.store(x_ptr + offs, x + 1, mask=offs < n)


# probe compile.py sig-constexpr -- -s "*fp32, 4, 1024"
# probe compile.py sig-one -- -s "*fp32, i32:1, 1024"
@gluon.jit
def strided_kernel(x_ptr, stride, BLOCK: gl.constexpr):
    offs = gl.arange(0, BLOCK, layout=L1)
    gl.store(x_ptr + offs * stride, 1.0)


# probe compile.py -g -- -s "*fp32, i32, 1024" -g "(n + 1023) / 1024, 1, 1"
# probe compile.py -g -- -s "*fp32, i32, 1024" --grid "(n + BLOCK - 1) / BLOCK, 1, 1"
@gluon.jit
def grid_kernel(x_ptr, n, BLOCK: gl.constexpr):
    offs = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout=L1)
    gl.store(x_ptr + offs, 1.0, mask=offs < n)
