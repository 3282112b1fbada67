# Signature and kernel-name mistakes name the parameter; a constexpr
# function that never ends stops at the step limit where it was.
# RUN: not %glc %s -n kern -s "*fp32, i32" 2>&1 | FileCheck %s --check-prefix=COUNT
# COUNT: error: -s '*fp32, i32': 2 entries for 3 parameters of 'kern'
# RUN: not %glc %s -n kern -s "*fp32, i32:7, 64" 2>&1 | FileCheck %s --check-prefix=BAD
# BAD: errors.py:24:17: error: -s entry 2 'i32:7' for parameter 'n' is not a type
# RUN: not %glc %s -n kern -s "*fp32, i32, *fp16" 2>&1 | FileCheck %s --check-prefix=CX
# CX: error: parameter 'BLOCK' is gl.constexpr, but its -s entry '*fp16' is a type; give a value
# RUN: not %glc %s -n kernn -s "*fp32, i32, 64" 2>&1 | FileCheck %s --check-prefix=NAME
# NAME: error: -n kernn: {{.*}}errors.py has no @gluon.jit function of that name
# NAME: note: did you mean 'kern'?
# RUN: not %glc %s -n host_fn -s "1" 2>&1 | FileCheck %s --check-prefix=HOST
# HOST: error: -n host_fn: 'host_fn' is not a @gluon.jit function
# RUN: not %glc %s -n loops -s "*fp32" --constexpr-steps=500 2>&1 | FileCheck %s --check-prefix=STEPS
# STEPS: errors.py:35:9: error: compile-time evaluation did not finish within 500 steps
# RUN: not %glc %s -n kern 2>&1 | FileCheck %s --check-prefix=NOSIG
# NOSIG: error: -n kern: give the kernel's signature with -s
import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def kern(x_ptr, n, BLOCK: gl.constexpr):
    pass


def host_fn(x):
    return torch.zeros(x)


@gluon.constexpr_function
def forever(n):
    while n > 0:
        n = n + 1
    return n


@gluon.jit
def loops(x_ptr):
    v: gl.constexpr = forever(1)
