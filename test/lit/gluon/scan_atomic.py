# Scans, tuple reductions, shape operations and atomics from a Gluon file as
# Triton users write it (tensor methods, keyword arguments, gl.constexpr
# layouts), compiled from its signature; ptxas accepts the result.
# RUN: %glc %s -n row_stats -s "*fp32:16, *fp32, *i32, *i32, 128" -w 4 --emit=typed | FileCheck %s
# RUN: %glc %s -n row_stats -s "*fp32:16, *fp32, *i32, *i32, 128" -w 4 --emit=cubin -o %t.cubin
# CHECK: scan axis=1 reverse
# CHECK: reduce axis=1 combine=max
# CHECK-NEXT: expand_dims axis=1
# CHECK: reduce axis=1 {{.*}} combine(
# CHECK: extract index=1
# CHECK: atomic_rmw rmw=max sem=relaxed scope=gpu
# CHECK: histogram
import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

L = gl.constexpr(gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0]))
BINS = gl.constexpr(gl.BlockedLayout([1], [32], [4], [0]))


@gluon.jit
def _argmax(v1, i1, v2, i2):
    gt = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return gl.where(gt, v1, v2), gl.where(gt, i1, i2)


@gluon.jit
def row_stats(x, suffix, best, hist, BLOCK: gl.constexpr):
    i = gl.arange(0, 32, layout=gl.SliceLayout(1, L))
    j = gl.arange(0, BLOCK, layout=gl.SliceLayout(0, L))
    offs = i[:, None] * BLOCK + j[None, :]
    v = gl.load(x + offs)
    gl.store(suffix + offs, v.cumsum(1, reverse=True) - gl.max(v, 1).expand_dims(1))
    idx = gl.zeros([32, BLOCK], gl.int32, layout=L) + j[None, :]
    vmax, imax = gl.reduce((v, idx), 1, _argmax)
    (best + i).atomic_max(imax, sem="relaxed")
    h = gl.histogram(gl.reshape(imax, [32]), 128, layout=BINS)
    gl.atomic_add(hist + gl.arange(0, 128, layout=BINS), h)


def launch(x):
    suffix = torch.empty_like(x)
    row_stats[(1, )](x, suffix, num_warps=4)
