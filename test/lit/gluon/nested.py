# Kernels defined inside a test function, as Triton's test files define
# them, are named outer.inner: they read the outer function's constexpr
# assignments (chained ones too) and the module's names, such as the
# target's warp size from triton.runtime.driver.active.get_current_target().
# RUN: %glc %s -n test_halves.kernel -s "*i32, *i32" --emit=ir | FileCheck %s
# RUN: %glc %s -n test_halves.kernel -s "*i32, *i32" --emit=header | FileCheck %s --check-prefix=HDR
# RUN: %glc %s -n test_halves.kernel -s "*i32, *i32" -c -o %t.o
# CHECK: kernel test_halves_kernel(src: ptr<i32>, dst: ptr<i32>)
# CHECK: smem_alloc alloc=0 : smem<i8, [1024]
# CHECK: smem_view offset=512
# CHECK: smem_view offset=0 stride=0 %{{[0-9]+}} : smem<i32, [8, 16]
# HDR: test_halves_kernel(
import pytest
import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as ttgl

LANES_PER_WARP = triton.runtime.driver.active.get_current_target().warp_size


def test_halves():
    TOTAL = ttgl.constexpr(1024)
    HALF = ttgl.constexpr(TOTAL // 2)
    ROWS = GROUP = ttgl.constexpr(8)
    COLS = ttgl.constexpr(HALF // 4 // ROWS)
    LANES = ttgl.constexpr(LANES_PER_WARP)

    @gluon.jit
    def kernel(src, dst):
        flat: ttgl.constexpr = ttgl.SwizzledSharedLayout(1, 1, 1, [0])
        grid: ttgl.constexpr = ttgl.SwizzledSharedLayout(1, 1, 1, [1, 0])
        raw = ttgl.allocate_shared_memory(ttgl.int8, [TOTAL], flat)
        words = raw.slice(HALF, HALF)._reinterpret(ttgl.int32, [ROWS, COLS], grid)
        offs = ttgl.arange(0, ROWS)[:, None] * COLS + ttgl.arange(0, COLS)[None, :]
        layout: ttgl.constexpr = ttgl.BlockedLayout([1, 1], [GROUP, LANES // GROUP], [1, 4], [1, 0])
        words.store(ttgl.load(ttgl.set_auto_layout(src + offs, layout)))
        ttgl.store(ttgl.set_auto_layout(dst + offs, layout), words.load(layout))

    x = torch.arange(ROWS * COLS, dtype=torch.int32, device="cuda")
    y = torch.empty_like(x)
    kernel[(1, )](x, y)
    torch.testing.assert_close(x, y)
