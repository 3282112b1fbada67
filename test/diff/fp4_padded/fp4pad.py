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


@gluon.jit
def fp4pad_views_kernel(x, y, z, SW: gl.constexpr, T: gl.constexpr, R: gl.constexpr,
                        C: gl.constexpr):
    # Buffer 1 of a [2, R, C] fp4-padded buffer (its layout of rank 2, as
    # Gluon code multi-buffers), written from registers and read back through
    # its permuted view ([C, R]): y[c * R + r] = x[r * C + c], z the same + 1.
    L: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    LT: gl.constexpr = gl.BlockedLayout([4, 1], [4, 8], [1, 4], [0, 1])
    S: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=SW, element_bitwidth=8, rank=2,
                                           transposed=T, fp4_padded=True)
    s = gl.allocate_shared_memory(gl.uint8, [2, R, C], S)
    o = gl.arange(0, R, layout=gl.SliceLayout(1, L))[:, None] * C + \
        gl.arange(0, C, layout=gl.SliceLayout(0, L))[None, :]
    s.index(1).store(gl.load(x + o))
    gl.thread_barrier()
    v = s.index(1).permute([1, 0]).load(LT)
    ot = gl.arange(0, C, layout=gl.SliceLayout(1, LT))[:, None] * R + \
        gl.arange(0, R, layout=gl.SliceLayout(0, LT))[None, :]
    gl.store(y + ot, v)
    gl.store(z + ot, v + 1)
