# mbarrier.allocate_mbarrier(), the newer spelling of an int64 buffer of
# shape [1] (or [batch, 1]) in MBarrierLayout, as tutorials on Triton's main
# branch write it; two_ctas needs a cluster, which glc does not launch.
# RUN: %glc %s -n ring -s "*i32, False" --emit=ir | FileCheck %s
# RUN: not %glc %s -n ring -s "*i32, True" 2>&1 | FileCheck %s --check-prefix=TWO
# CHECK: alloc 0 bar i64 [1] #swizzled {{.*}} mbarrier
# CHECK: alloc 1 bars i64 [3, 1] #swizzled {{.*}} mbarrier
# CHECK: %{{[0-9]+}} = smem_alloc alloc=0 : mbarrier<i64, [1]
# TWO: error: two_ctas=True needs a cluster of CTAs
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import mbarrier


@gluon.jit
def ring(x, PAIR: gl.constexpr):
    bar = mbarrier.allocate_mbarrier(two_ctas=PAIR)
    bars = mbarrier.allocate_mbarrier(batch=3)
    mbarrier.init(bar, count=1)
    for i in gl.static_range(3):
        mbarrier.init(bars.index(i), count=1)
    mbarrier.arrive(bars.index(1))
    mbarrier.wait(bars.index(1), 0)
    mbarrier.invalidate(bar)
