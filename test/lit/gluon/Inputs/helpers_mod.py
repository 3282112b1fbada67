# A helper module imported by the Gluon tests (never compiled on its own).
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.constexpr_function
def pick_layout(block, num_warps):
    per_thread = max(1, block // (32 * num_warps))
    return gl.BlockedLayout([per_thread], [32], [num_warps], [0])


@gluon.jit
def scaled(x, factor: gl.constexpr):
    return x * factor
