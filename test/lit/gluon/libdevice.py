# libdevice's fast f32 functions, imported from Gluon's extra namespace as
# Triton's tests import them: calls of libdevice's __nv_fast_expf (ex2.approx
# of x*log2(e)) and __nv_fast_fdividef (div.approx), as Triton calls them.
# RUN: %glc %s -n fast -s "*fp32, *fp32, *fp32" --emit=ir | FileCheck %s --check-prefix=IR
# IR: extern symbol="__nv_fast_expf"
# IR: extern symbol="__nv_fast_fdividef"
# RUN: %glc %s -n fast -s "*fp32, *fp32, *fp32" --emit=ptx | FileCheck %s
# CHECK: ex2.approx
# CHECK: div.approx.f32
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
