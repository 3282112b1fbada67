# RUN: %glc %s -n f_agg -s "*fp32, *fp32, i32" -w 4 --emit=ir | FileCheck %s
# An @aggregate of tensors of inferred layout carried by a loop, rebuilt by a
# helper's result each trip: each field is written back.
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.language.core import _aggregate as aggregate

@gluon.jit
def sq(v):
    return v * v

@aggregate
class Acc:
    s: gl.tensor
    m: gl.tensor

    @gluon.constexpr_function
    def __init__(self, s, m):
        self.s = s
        self.m = m

@gluon.jit
def f_agg(x, y, N):
    cols = gl.arange(0, 512)
    a = Acc(gl.zeros([512], gl.float32), gl.full([512], -1e30, gl.float32))
    for n0 in range(0, N, 512):
        v = gl.load(x + n0 + cols)
        a = Acc(a.s + sq(v), gl.maximum(a.m, v))
    gl.store(y + cols, a.s + a.m)
# CHECK: var $[[S:[0-9]+]] a.0 : tensor<f32, [512], #[[L:[a-z_0-9]+]]>
# CHECK: var $[[M:[0-9]+]] a.1 : tensor<f32, [512], #[[L]]>
# CHECK: for $
# CHECK: %[[A:[0-9]+]] = add %{{[0-9]+}}, %{{[0-9]+}} : tensor<f32, [512], #[[L]]>
# CHECK: %[[X:[0-9]+]] = max
# CHECK-NEXT: write $[[S]], %[[A]]
# CHECK-NEXT: write $[[M]], %[[X]]
# CHECK: store
