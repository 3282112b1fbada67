# A plain def that a -s entry calls runs as compile-time Python (it is the
# host's launch argument): here it defines an @aggregate class whose
# methods read the def's names, a new class per call ("like C++
# templates"), as tutorial 07's GroupedPersistentTileScheduler(GROUP) does.
# RUN: %glc %s -n scale -s "*fp32, Scaler(2)" -s "*fp32, Scaler(3)" --emit=ir | FileCheck %s
# RUN: not %glc %s -n scale -s "*fp32, make_tensor(2)" 2>&1 | FileCheck %s --check-prefix=HOST
# CHECK: kernel scale_0(
# CHECK: const 2.0 : f32
# CHECK: kernel scale_1(
# CHECK: const 3.0 : f32
# HOST: error: only @aggregate classes can be defined in compile-time functions
import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.language.core import _aggregate as aggregate


def Scaler(factor):
    FACTOR = gl.constexpr(float(factor))

    @aggregate
    class ScalerImpl:
        value: gl.tensor

        @gluon.jit
        def create(x):
            return ScalerImpl(x * FACTOR)

    ScalerImpl.__name__ = f"Scaler({factor})"
    return ScalerImpl


def make_tensor(n):

    class Plain:
        pass

    return Plain


@gluon.jit
def scale(x_ptr, Impl: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    offs = gl.arange(0, 128, layout)
    s = Impl.create(gl.load(x_ptr + offs))
    gl.store(x_ptr + offs, s.value)


if __name__ == "__main__":
    x = torch.ones(128, device="cuda")
    scale[(1, )](x, Scaler(2))
