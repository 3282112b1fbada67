# The warp-specialization constructs of tutorial 08 in glc's own kernel:
# partitions that take tuples of descriptors, barriers and buffers and
# unpack them, the list form gl.warp_specialize([(f, args), ...], warps,
# regs), mbarrier.arrive(count=, pred=), tma.store_wait(N) with N a
# constexpr, and an @aggregate counter whose @gluon.must_use_result method
# steps through a ring with gl.where.
# RUN: %glc %s -n scale_ws -s "tensordesc<fp32[32,64]>, tensordesc<fp32[32,64]>, i32, 2, 2" -w 4 --emit=ir | FileCheck %s
# RUN: %glc %s -n scale_ws -s "tensordesc<fp32[32,64]>, tensordesc<fp32[32,64]>, i32, 3, 2" -w 8 -c -o %t.o
# CHECK: kernel scale_ws({{.*}}) num_warps=4 total_warps=
# CHECK: warp_specialize
# CHECK: mbarrier.arrive count=1 %{{[0-9]+}} loc
# CHECK: tma.store_wait count=1
# CHECK: mbarrier.arrive count=1 %{{[0-9]+}}, pred
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.language.core import _aggregate as aggregate
from triton.experimental.gluon.language.nvidia.hopper import tma, mbarrier, fence_async_shared


@aggregate
class Ring:
    index: gl.tensor
    phase: gl.tensor
    size: gl.constexpr

    @gluon.jit
    def start(phase, size: gl.constexpr):
        return Ring(gl.to_tensor(0), gl.to_tensor(phase), size)

    @gluon.must_use_result
    @gluon.jit
    def next(self):
        wrap = self.index + 1 == self.size
        return Ring(gl.where(wrap, 0, self.index + 1), gl.where(wrap, self.phase ^ 1, self.phase), self.size)


@gluon.jit
def loader(descs, bars, bufs, rows):
    in_desc, out_desc = descs
    empty, ready, done, free = bars
    in_bufs, out_bufs = bufs
    ring = Ring.start(1, in_bufs.type.shape[0])
    for i in range(gl.cdiv(rows, in_desc.block_type.shape[0])):
        mbarrier.wait(empty.index(ring.index), ring.phase)
        mbarrier.expect(ready.index(ring.index), in_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(in_desc, [i * in_desc.block_type.shape[0], 0], ready.index(ring.index),
                                        in_bufs.index(ring.index))
        ring = ring.next()


@gluon.jit
def storer(descs, bars, bufs, rows):
    in_desc, out_desc = descs
    empty, ready, done, free = bars
    in_bufs, out_bufs = bufs
    n: gl.constexpr = out_bufs.type.shape[0]
    keep: gl.constexpr = n - 1
    for i in range(gl.cdiv(rows, out_desc.block_type.shape[0])):
        mbarrier.wait(done.index(i % n), i // n & 1)
        tma.async_copy_shared_to_global(out_desc, [i * out_desc.block_type.shape[0], 0], out_bufs.index(i % n))
        tma.store_wait(keep)
        mbarrier.arrive(free.index((i - keep) % n), count=1, pred=i >= keep)
    tma.store_wait(0)


@gluon.jit
def compute(bars, bufs, rows, BLOCK: gl.constexpr, layout: gl.constexpr):
    empty, ready, done, free = bars
    in_bufs, out_bufs = bufs
    ring = Ring.start(0, in_bufs.type.shape[0])
    n: gl.constexpr = out_bufs.type.shape[0]
    for i in range(gl.cdiv(rows, BLOCK)):
        mbarrier.wait(ready.index(ring.index), ring.phase)
        x = in_bufs.index(ring.index).load(layout)
        fence_async_shared()
        mbarrier.arrive(empty.index(ring.index), count=1)
        ring = ring.next()
        mbarrier.wait(free.index(i % n), i // n & 1 ^ 1)
        out_bufs.index(i % n).store(x * 3.0)
        fence_async_shared()
        mbarrier.arrive(done.index(i % n), count=1)


@gluon.jit
def scale_ws(in_desc, out_desc, rows, IN_BUFS: gl.constexpr, OUT_BUFS: gl.constexpr, num_warps: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1, 1], [1, 32], [1, num_warps], [1, 0])
    in_bufs = gl.allocate_shared_memory(in_desc.dtype, [IN_BUFS] + in_desc.block_type.shape, in_desc.layout)
    out_bufs = gl.allocate_shared_memory(out_desc.dtype, [OUT_BUFS] + out_desc.block_type.shape, out_desc.layout)
    empty = gl.allocate_shared_memory(gl.int64, [IN_BUFS, 1], mbarrier.MBarrierLayout())
    ready = gl.allocate_shared_memory(gl.int64, [IN_BUFS, 1], mbarrier.MBarrierLayout())
    done = gl.allocate_shared_memory(gl.int64, [OUT_BUFS, 1], mbarrier.MBarrierLayout())
    free = gl.allocate_shared_memory(gl.int64, [OUT_BUFS, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(IN_BUFS):
        mbarrier.init(empty.index(i), count=1)
        mbarrier.init(ready.index(i), count=1)
    for i in gl.static_range(OUT_BUFS):
        mbarrier.init(done.index(i), count=1)
        mbarrier.init(free.index(i), count=1)
    descs = (in_desc, out_desc)
    bars = (empty, ready, done, free)
    bufs = (in_bufs, out_bufs)
    gl.warp_specialize([
        (compute, (bars, bufs, rows, in_desc.block_type.shape[0], layout)),
        (loader, (descs, bars, bufs, rows)),
        (storer, (descs, bars, bufs, rows)),
    ], [1, 1], [24, 24])
