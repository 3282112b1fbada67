# Signature and kernel-name mistakes name the parameter; a constexpr
# function that never ends stops at the step limit where it was.
# RUN: not %glc %s -n kern -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=COUNT
# COUNT: errors.py:37:20: error: -s '*fp32, i32' has 2 entries for the 3 parameters of 'kern': parameter 'BLOCK' has no entry
# RUN: not %glc %s -n kern -s "*fp32" 2>&1 | FileCheck %s --check-prefix=FEW
# FEW: error: -s '*fp32' has 1 entry for the 3 parameters of 'kern': parameters 'n' to 'BLOCK' have no entry
# RUN: not %glc %s -n kern -s "*fp32, i32, 64, 8" 2>&1 | FileCheck %s --check-prefix=MANY
# MANY: error: -s '*fp32, i32, 64, 8' has 4 entries for the 3 parameters of 'kern': entry 4 '8' is past the last parameter
# RUN: not %glc %s -n kern -s "*fp32, i32:7, 64" 2>&1 | FileCheck %s --check-prefix=BAD
# BAD: errors.py:37:17: error: -s entry 2 'i32:7' for parameter 'n' is not a type
# RUN: not %glc %s -n kern -s "*fp32, i32, *fp16" 2>&1 | FileCheck %s --check-prefix=CX
# CX: error: parameter 'BLOCK' is gl.constexpr, but its -s entry '*fp16' is a type; give a value
# RUN: not %glc %s -n kern -s "16, i32, 64" 2>&1 | FileCheck %s --check-prefix=PTR
# PTR: errors.py:37:10: error: parameter 'x_ptr' is used as a pointer, but its -s entry '16' is a constexpr value; give its type, such as *fp32
# PTR: errors.py:39:14: note: 'x_ptr' is used as a pointer here
# RUN: not %glc %s -n kernn -s "*fp32, i32, 64" 2>&1 | FileCheck %s --check-prefix=NAME
# NAME: error: -n kernn: {{.*}}errors.py has no @gluon.jit function of that name
# NAME: note: did you mean 'kern'?
# RUN: not %glc %s -n inner -s "*fp32" 2>&1 | FileCheck %s --check-prefix=NESTED
# NESTED: error: -n inner: {{.*}}errors.py has no @gluon.jit function of that name
# NESTED: note: 'inner' is defined inside 'test_outer': -n test_outer.inner
# RUN: not %glc %s -n test_outer.innr -s "*fp32" 2>&1 | FileCheck %s --check-prefix=INNER
# INNER: error: -n test_outer.innr: 'test_outer' defines no @gluon.jit function 'innr'
# INNER: note: did you mean 'inner'?
# RUN: not %glc %s -n host_fn -s "1" 2>&1 | FileCheck %s --check-prefix=HOST
# HOST: error: -n host_fn: 'host_fn' is not a @gluon.jit function
# RUN: not %glc %s -n loops -s "*fp32" --max-eval-steps=500 2>&1 | FileCheck %s --check-prefix=STEPS
# STEPS: errors.py:55:5: error: compile-time evaluation does not finish within 500 steps
# RUN: not %glc %s -n kern 2>&1 | FileCheck %s --check-prefix=NOSIG
# NOSIG: error: -n kern: give the kernel's signature with -s
import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def kern(x_ptr, n, BLOCK: gl.constexpr):
    p = x_ptr + n
    gl.store(p, 1.0)


def host_fn(x):
    return torch.zeros(x)


def test_outer():

    @gluon.jit
    def inner(y):
        gl.store(y, 2.0)


@gluon.constexpr_function
def forever(n):
    while n > 0:
        n = n + 1
    return n


@gluon.jit
def loops(x_ptr):
    v: gl.constexpr = forever(1)


# A constexpr value, or i32:1, for a parameter that scales the offsets of a
# pointer is no pointer use (only operands of + and - can be pointers).
# RUN: %glc %s -n strided -s "*fp32, 4, 64" --emit=typed | FileCheck %s --check-prefix=STRIDE4
# STRIDE4: kernel strided(x_ptr: ptr<f32>)
# RUN: %glc %s -n strided -s "*fp32, i32:1, 64" --emit=typed | FileCheck %s --check-prefix=STRIDE1
# STRIDE1: kernel strided(x_ptr: ptr<f32>)
# RUN: not %glc %s -n strided -s "4, *fp32, 64" 2>&1 | FileCheck %s --check-prefix=STRIDEPTR
# STRIDEPTR: error: parameter 'x_ptr' is used as a pointer, but its -s entry '4' is a constexpr value
@gluon.jit
def strided(x_ptr, stride, BLOCK: gl.constexpr):
    offs = gl.arange(0, BLOCK, layout=gl.BlockedLayout([1], [32], [4], [0]))
    row = offs * stride
    gl.store(x_ptr + row, 1.0)
