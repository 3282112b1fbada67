# A layout's constructor parameters read back as attributes, as Gluon's layout
# classes keep them (lists, the parent layout, cga_layout as []), and rank.
# RUN: %glc %s -n k -s "*fp32" -w 4 --emit=typed -o /dev/null 2>&1 | FileCheck %s
# CHECK: static_print: [1, 4] [1, 0] 2 BlockedLayout([1,4],[8,4],[4,1],[1,0]) 0 1 64 False 2 []
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
L2: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
S: gl.constexpr = gl.SliceLayout(0, L2)
N: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2)
@gluon.jit
def k(p):
    gl.static_print(L2.size_per_thread, L2.order, L2.rank, S.parent, S.dim, S.rank, N.swizzle_byte_width, N.transposed, N.rank, L2.cga_layout)
    gl.static_assert(L2.warps_per_cta[0] == 4)
    gl.store(p, 1.0)
