# Gluon names glc knows but does not support are errors that say so and
# why (sema/value/unsupported.c), whether reached as gl.NAME, imported from a
# Gluon module, tested with isinstance or used as a decorator; isinstance
# against a host class is an error rather than a silent False.
# RUN: not %glc %s -n member -s "*u8" 2>&1 | FileCheck %s --check-prefix=MEMBER
# MEMBER: unsupported.py:25:17: error: gl.float8e4b15 is not supported by glc: Triton's software fp8 format
# RUN: not %glc %s -n imported -s "*fp32" 2>&1 | FileCheck %s --check-prefix=IMPORT
# IMPORT: unsupported.py:31:9: error: 'warps_per_cta' (from triton.experimental.gluon.language._layouts) is not supported by glc: a host-side helper
# RUN: not %glc %s -n host_class -s "*fp32" 2>&1 | FileCheck %s --check-prefix=HOST
# HOST: unsupported.py:36:55: error: module 'torch.Tensor' is host Python
# RUN: not %glc %s -n decorated -s "*fp32" 2>&1 | FileCheck %s --check-prefix=DECO
# DECO: unsupported.py:46:17: error: 'twice' is decorated with 'builtin' (from triton.experimental.gluon.language._core), which is not supported by glc: Triton's decorator for its own builtins
from torch import Tensor
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language._core import builtin
from triton.experimental.gluon.language._layouts import warps_per_cta

L: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])


@gluon.jit
def member(p):
    x = gl.load(p + gl.arange(0, 128, layout=L))
    y = x.to(gl.float8e4b15)


@gluon.jit
def imported(p):
    x = gl.load(p + gl.arange(0, 128, layout=L))
    w = warps_per_cta(L, [128])


@gluon.jit
def host_class(p):
    gl.static_assert(isinstance(L, (gl.BlockedLayout, Tensor)))


@builtin
def twice(x, _semantic=None):
    return _semantic.add(x, x, True)


@gluon.jit
def decorated(p):
    gl.store(p, twice(1.0))
