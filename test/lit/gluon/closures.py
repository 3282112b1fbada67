# Lambdas made while a compile-time function runs read that function's
# names (Python's closures), as helpers that build per-call functions do.
# RUN: %glc %s -n fill -s "*i32, 4" --emit=ir | FileCheck %s
# CHECK: const 128 : i32
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.constexpr_function
def first_scaled(sizes, base):
    scale = base * 2
    times = lambda s: s * scale
    wide = [s for s in sizes if times(s) > 64]
    return times(wide[0])


@gluon.jit
def fill(out, BASE: gl.constexpr):
    N: gl.constexpr = first_scaled([8, 16, 32], BASE)
    gl.store(out, N)
