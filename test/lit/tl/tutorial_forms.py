# Forms of Triton's tutorials that glc once refused (bench/triton_tutorials.list):
# a @triton.jit helper's `tl.constexpr` annotation does not make a tensor
# argument a compile-time one (Triton takes a helper's constexprs from its
# arguments: tutorial 06 passes offs_m to `offs_m: tl.constexpr`), and `x.T`
# is permute(x, (1, 0)) (tutorials 08 and 09: tl.dot(a, b.T)). A @gluon.jit
# helper is still held to its annotation.
# RUN: %glc %s -n helper_cx -s "*fp32, *fp32, 64" --emit=ir | FileCheck %s --check-prefix=CX
# CX: arange
# CX: add
# CX: store
# RUN: %glc %s -n dot_t -s "*fp16, *fp16, *fp32, 64" --emit=ir | FileCheck %s --check-prefix=T
# T: load {{.*}} : tensor<f16, [64, 64],
# T: load {{.*}} : tensor<f16, [64, 64],
# T: permute
# T: warpgroup_mma
# RUN: %glc %s -n dot_t -s "*fp16, *fp16, *fp32, 64" --emit=cubin -o %t.cubin
# RUN: not %glc %s -n t_rank1 -s "*fp32, 64" 2>&1 | FileCheck %s --check-prefix=R1
# R1: tutorial_forms.py:[[# @LINE + 30]]:{{[0-9]+}}: error: T's dims must be a permutation of 0..0 for a rank-1 tensor
# RUN: not %glc %s -n gluon_cx -s "*fp32, 64" 2>&1 | FileCheck %s --check-prefix=GL
# GL: error: argument 'offs' of gl_add must be known at compile time
import triton
import triton.language as tl
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@triton.jit
def add_at(x, offs: tl.constexpr, BLOCK: tl.constexpr):
    return tl.load(x + offs) + BLOCK


@triton.jit
def helper_cx(x, y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y + offs, add_at(x, offs, BLOCK))


@triton.jit
def dot_t(a, b, c, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tile = offs[:, None] * BLOCK + offs[None, :]
    acc = tl.dot(tl.load(a + tile), tl.load(b + tile).T)
    tl.store(c + tile, acc)


@triton.jit
def t_rank1(x, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK)).T
    tl.store(x + tl.arange(0, BLOCK), v)


@gluon.jit
def gl_add(x, offs: gl.constexpr):
    return gl.load(x + offs)


@gluon.jit
def gluon_cx(x, BLOCK: gl.constexpr):
    L: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    offs = gl.arange(0, BLOCK, layout=L)
    gl.store(x + offs, gl_add(x, offs))
