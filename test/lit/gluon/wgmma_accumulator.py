# Gluon's warpgroup_mma_accumulator: an asynchronous warpgroup_mma result (or
# warpgroup_mma_init's) is an accumulator, not a gl.tensor; only warpgroup_mma
# and warpgroup_mma_wait take it, and any other use says to wait first. A
# name keeps being an accumulator or not across a loop and both arms of an
# if, as in Gluon; elements of a loop-carried aggregate may change in the
# body (07-persistence.py's WGMMA class does).
# RUN: %glc %s -n ok -s "*fp32, i32" -c -o %t.o
# RUN: %glc %s -n rebind -s "*fp32, i32" -c -o %t2.o
# RUN: not %glc %s -n arith -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=ARITH
# ARITH: wgmma_accumulator.py:85:23: error: {{.*}}a warpgroup_mma_accumulator (an asynchronous warpgroup_mma result: warpgroup_mma_wait(num_outstanding, deps=[acc]) returns its tensor)
# RUN: not %glc %s -n store -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=STORE
# STORE: wgmma_accumulator.py:60:58: error: expected a number or tensor here, got a warpgroup_mma_accumulator (an asynchronous warpgroup_mma result: warpgroup_mma_wait
# STORE: wgmma_accumulator.py:92:5: note: 'store_tile' is called here
# RUN: not %glc %s -n method -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=METHOD
# METHOD: wgmma_accumulator.py:99:17: error: a warpgroup_mma_accumulator has no attribute 'to' (an asynchronous warpgroup_mma result: call warpgroup_mma_wait(num_outstanding, deps=[acc]) first; it returns the tensor)
# RUN: not %glc %s -n loop -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=LOOP
# LOOP: wgmma_accumulator.py:106:5: error: 'acc' is not an accumulator before the loop but a warpgroup_mma_accumulator at the end of its body
# RUN: not %glc %s -n branch -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=BRANCH
# BRANCH: wgmma_accumulator.py:115:5: error: 'acc' is a warpgroup_mma_accumulator at the end of the then-branch but not an accumulator at the end of the else-branch
# RUN: not %glc %s -n init_twice -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=INIT
# INIT: wgmma_accumulator.py:124:49: error: warpgroup_mma_init's value must be a register tensor, not a warpgroup_mma_accumulator
# RUN: not %glc %s -n construct -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=CTOR
# CTOR: wgmma_accumulator.py:129:11: error: warpgroup_mma_accumulator cannot be called in a kernel
# RUN: not %glc %s -n no_deps -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=DEPS
# DEPS: wgmma_accumulator.py:151:5: error: warpgroup_mma_wait's deps must be a tuple of the accumulators (and shared-memory operands) the wait is for, as Gluon requires, not None
# RUN: not %glc %s -n bad_type -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=TYPE
# TYPE: wgmma_accumulator.py:134:54: error: warpgroup_mma_accumulator_type takes the type of the accumulator's tensor
from typing import Union
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (warpgroup_mma, warpgroup_mma_wait, warpgroup_mma_init,
                                                              warpgroup_mma_accumulator, warpgroup_mma_accumulator_type)
from triton.language.core import _aggregate as aggregate

ACC: gl.constexpr = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])
SMEM: gl.constexpr = gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16)


@aggregate
class Mma:
    acc: Union[warpgroup_mma_accumulator, gl.tensor]

    @gluon.constexpr_function
    def __init__(self, acc):
        self.acc = acc

    @gluon.jit
    def issue(self, a):
        return Mma(warpgroup_mma(a, a, self.acc, is_async=True))

    @gluon.jit
    def wait(self):
        return Mma(warpgroup_mma_wait(0, deps=(self.acc, )))


@gluon.jit
def store_tile(c_ptr, x):
    rows = gl.arange(0, 64, layout=gl.SliceLayout(1, ACC))
    cols = gl.arange(0, 64, layout=gl.SliceLayout(0, ACC))
    gl.store(c_ptr + rows[:, None] * 64 + cols[None, :], x)


@gluon.jit
def ok(c_ptr, n):
    a = gl.allocate_shared_memory(gl.float16, [64, 64], SMEM)
    acc = warpgroup_mma_init(gl.zeros([64, 64], gl.float32, layout=ACC))
    for i in range(n):
        acc = warpgroup_mma_wait(0, deps=(acc, ))
        acc = warpgroup_mma(a, a, acc, is_async=True)
    out, buf = warpgroup_mma_wait(0, deps=(acc, a))
    gl.static_assert(isinstance(out, gl.tensor))
    mma = Mma(out)
    for i in range(n):
        mma = mma.issue(a)
        gl.static_assert(isinstance(mma.acc, warpgroup_mma_accumulator))
        mma = mma.wait()
    gl.static_assert(isinstance(mma.acc, gl.tensor))
    store_tile(c_ptr, mma.acc + out)


@gluon.jit
def arith(c_ptr, n):
    a = gl.allocate_shared_memory(gl.float16, [64, 64], SMEM)
    acc = warpgroup_mma(a, a, gl.zeros([64, 64], gl.float32, layout=ACC), is_async=True)
    store_tile(c_ptr, acc * 2.0)


@gluon.jit
def store(c_ptr, n):
    a = gl.allocate_shared_memory(gl.float16, [64, 64], SMEM)
    acc = warpgroup_mma(a, a, gl.zeros([64, 64], gl.float32, layout=ACC), is_async=True)
    store_tile(c_ptr, acc)


@gluon.jit
def method(c_ptr, n):
    a = gl.allocate_shared_memory(gl.float16, [64, 64], SMEM)
    acc = warpgroup_mma(a, a, gl.zeros([64, 64], gl.float32, layout=ACC), is_async=True)
    a.store(acc.to(gl.float16))


@gluon.jit
def loop(c_ptr, n):
    a = gl.allocate_shared_memory(gl.float16, [64, 64], SMEM)
    acc = gl.zeros([64, 64], gl.float32, layout=ACC)
    for i in range(n):
        acc = warpgroup_mma(a, a, acc, is_async=True)
    store_tile(c_ptr, warpgroup_mma_wait(0, deps=[acc]))


@gluon.jit
def branch(c_ptr, n):
    a = gl.allocate_shared_memory(gl.float16, [64, 64], SMEM)
    acc = gl.zeros([64, 64], gl.float32, layout=ACC)
    if n > 0:
        acc = warpgroup_mma(a, a, acc, is_async=True)
    else:
        acc = warpgroup_mma(a, a, acc)
    store_tile(c_ptr, acc)


@gluon.jit
def init_twice(c_ptr, n):
    acc = warpgroup_mma_init(warpgroup_mma_init(gl.zeros([64, 64], gl.float32, layout=ACC)))


@gluon.jit
def construct(c_ptr, n):
    acc = warpgroup_mma_accumulator(gl.zeros([64, 64], gl.float32, layout=ACC), gl.float32)


@gluon.jit
def bad_type(c_ptr, n):
    t: gl.constexpr = warpgroup_mma_accumulator_type(gl.float32)


@gluon.jit
def rebind(c_ptr, n):
    a = gl.allocate_shared_memory(gl.float16, [64, 64], SMEM)
    for i in range(n):
        # c is new in the body: its tensor may change type (as in Python)
        c = warpgroup_mma(a, a, gl.zeros([64, 64], gl.float32, layout=ACC), is_async=True)
        c = warpgroup_mma_wait(0, deps=[c]).to(gl.float16)
        a.store(c)


@gluon.jit
def no_deps(c_ptr, n):
    a = gl.allocate_shared_memory(gl.float16, [64, 64], SMEM)
    acc = warpgroup_mma(a, a, gl.zeros([64, 64], gl.float32, layout=ACC), is_async=True)
    warpgroup_mma_wait(0)
