# gl.expand_dims and x.expand_dims take one axis or a sequence of them, as
# Triton: each counted in the result's rank, inserted lowest first; an axis
# given twice is an error at the argument.
# RUN: %glc %s -n k -s "*fp32" -w 4 --emit=typed | FileCheck %s
# RUN: not %glc %s -n bad -s "*fp32" -w 4 --emit=typed 2>&1 | FileCheck %s --check-prefix=BAD
# CHECK: expand_dims axis=1 %{{[0-9]+}} : tensor<i32, [4, 1], #slice{{[0-9]*}}>
# CHECK-NEXT: expand_dims axis=2 %{{[0-9]+}} : tensor<i32, [4, 1, 1], #blocked>
# CHECK: expand_dims axis=1 %{{[0-9]+}} : tensor<i32, [4, 1], #slice{{[0-9]*}}>
# CHECK-NEXT: expand_dims axis=2 %{{[0-9]+}} : tensor<i32, [4, 1, 1], #blocked>
# BAD: expand_dims_axes.py:[[@LINE+16]]:36: error: expand_dims axis 1 is given twice
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

L3: gl.constexpr = gl.BlockedLayout([1, 1, 1], [1, 1, 32], [4, 1, 1], [2, 1, 0])


@gluon.jit
def k(p):
    x = gl.arange(0, 4, layout=gl.SliceLayout(1, gl.SliceLayout(2, L3)))
    gl.store(p + gl.expand_dims(x, (2, 1)) + x.expand_dims([-1, 1]), 1.0)


@gluon.jit
def bad(p):
    x = gl.arange(0, 4, layout=gl.SliceLayout(1, gl.SliceLayout(2, L3)))
    gl.store(p + gl.expand_dims(x, (1, 1)), 1.0)
