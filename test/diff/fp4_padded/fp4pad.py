# A buffer in NVMMASharedLayout(fp4_padded=True) written from registers, read
# back, and dumped whole through a flat byte view (zeroed first, so the
# padding reads 0): glc against Triton 3.6 on the H200.
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def fp4pad_kernel(x, y, z, SW: gl.constexpr, T: gl.constexpr, R: gl.constexpr, C: gl.constexpr,
                  N: gl.constexpr):
    L: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    F1: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])
    S: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=SW, element_bitwidth=8, rank=2,
                                           transposed=T, fp4_padded=True)
    s = gl.allocate_shared_memory(gl.uint8, [R, C], S)
    f = s._reinterpret(gl.uint8, [N], gl.SwizzledSharedLayout(1, 1, 1, [0]))
    f.store(gl.zeros([N], gl.uint8, F1))
    gl.thread_barrier()
    r = gl.arange(0, R, layout=gl.SliceLayout(1, L))
    c = gl.arange(0, C, layout=gl.SliceLayout(0, L))
    o = r[:, None] * C + c[None, :]
    s.store(gl.load(x + o))
    gl.thread_barrier()
    gl.store(y + o, s.load(L))
    i = gl.arange(0, N, layout=F1)
    gl.store(z + i, f.load(F1))
