# libdevice's fast f32 functions, imported from Gluon's extra namespace as
# Triton's tests import them: fast_expf is gl.exp (ex2.approx of x*log2(e)),
# fast_dividef gl.fdiv (div.full, the non-IEEE division).
# RUN: %glc %s -n fast -s "*fp32, *fp32, *fp32" --emit=ptx | FileCheck %s
# CHECK: ex2.approx
# CHECK: div.full.f32
from triton.experimental import gluon
from triton.experimental.gluon import language as ttgl
from triton.experimental.gluon.language.extra import libdevice


@gluon.jit
def fast(x_ptr, y_ptr, z_ptr):
    layout: ttgl.constexpr = ttgl.BlockedLayout([1], [32], [4], [0])
    offs = ttgl.arange(0, 128, layout=layout)
    x = ttgl.load(x_ptr + offs)
    y = ttgl.load(y_ptr + offs)
    ttgl.store(z_ptr + offs, libdevice.fast_dividef(libdevice.fast_expf(x), y))
