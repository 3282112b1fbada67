# A Gluon file compiled as triton/tools/compile.py compiles it, with a launch
# grid the launchers compute (-g): test_grid.c launches it through the
# object of `-c` and through the C of the .c/.h pair (no -c or --emit).
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def scale_rows(src, dst, m, n, stride, alpha, BLOCK: gl.constexpr):
    # program (i, j): row j, columns BLOCK i .. BLOCK (i + 1) - 1
    col = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout=gl.BlockedLayout([4], [32], [4], [0]))
    row = gl.program_id(1)
    mask = (col < n) & (row < m)
    gl.store(dst + row * stride + col, gl.load(src + row * stride + col, mask=mask) * alpha,
             mask=mask)
