# gl.to_linear_layout gives the layout's bases fitted to a shape, as Gluon:
# a DistributedLinearLayout for a distributed layout, a SharedLinearLayout
# for a shared one (not == to the layout: other classes, as in Gluon).
# RUN: %glc %s -n k -s "*fp32" -w 4 --emit=typed -o /dev/null 2>&1 | FileCheck %s
# The bases are Triton 3.6's (its compiler printed the same for L2; for a
# shared layout its to_linear_layout aborts, glc gives the SharedLinearLayout).
# CHECK: static_print: DistributedLinearLayout({{\[\[}}0,1],[0,2]],{{\[\[}}0,4],[0,8],[1,0],[2,0],[4,0]],{{\[\[}}8,0],[16,0]],[],[32,16]) SharedLinearLayout({{\[\[}}0,1],[0,2],[0,4],[0,8],[0,16],[1,0],[2,8],[4,16],[8,0],[16,0],[32,0]])
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

L2: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
S: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=16, rank=2)


@gluon.jit
def k(p):
    ll: gl.constexpr = gl.to_linear_layout(L2, [32, 16])
    sl: gl.constexpr = gl.to_linear_layout(S, [64, 32])
    gl.static_print(ll, sl)
    rows = gl.arange(0, 32, layout=gl.SliceLayout(1, ll))
    cols = gl.arange(0, 16, layout=gl.SliceLayout(0, ll))
    offs = rows[:, None] * 16 + cols[None, :]
    gl.store(p + offs, offs.to(gl.float32))
