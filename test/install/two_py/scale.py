# y = 2 * x, specialized four ways (test/install/two_py/CMakeLists.txt).
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

from helpers import twice


@gluon.jit
def scale_kernel(x_ptr, y_ptr, n, BLOCK: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([BLOCK // 128], [32], [4], [0])
    offs = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout=layout)
    mask = offs < n
    x = gl.load(x_ptr + offs, mask=mask)
    gl.store(y_ptr + offs, twice(x), mask=mask)
