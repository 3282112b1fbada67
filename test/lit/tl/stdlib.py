# tl's standard library is glc's prelude, written in tl (sema/prelude/):
# each function inlines into the kernel and compiles through ptxas. The
# values it computes are Triton's (checked against Triton 3.6's own
# library under its interpreter: test/tl/prelude_check.py; on the GPU by
# test/gpu/test_tl.c).
# RUN: for k in "k_softmax:*fp32, *fp32, 16, 64" "k_sigmoid:*fp32, *fp32, 256" \
# RUN:   "k_argmax:*fp32, *fp32, *i32, 16, 32" "k_sort:*fp32, *fp32, 4, 64, 0" \
# RUN:   "k_sort:*fp32, *fp32, 4, 64, 1" "k_topk:*fp32, *fp32, 4, 64, 8" \
# RUN:   "k_flip:*fp32, *fp32, 8, 32" "k_cumsum:*fp32, *fp32, 8, 32" "k_rand:*u32, i32, 256" \
# RUN:   "k_misc:*fp32, *fp32, 8, 16"; do \
# RUN:   %glc %s -n "${k%%%%:*}" -s "${k#*:}" --emit=cubin -o %t.cubin || exit 1; echo "${k%%%%:*} ok"; \
# RUN: done | FileCheck %s --check-prefix=ALL
# ALL-COUNT-10: ok
#
# sort: a bitonic network of compare-exchanges, each the xor of a pair
# found by a reduction over a dim of 2 (2 + 1 merges of 16 + 32 ...: 21
# steps for 64 elements)
# RUN: %glc %s -n k_sort -s "*fp32, *fp32, 4, 64, 0" --emit=ir | FileCheck %s --check-prefix=SORT
# SORT-COUNT-21: reduce axis=2 combine=xor
# SORT-NOT: reduce axis=2 combine=xor
#
# max with return_indices: one reduction of (value, index) pairs whose
# combine takes the larger value, of equal ones the smaller index
# RUN: %glc %s -n k_argmax -s "*fp32, *fp32, *i32, 16, 32" --emit=ir | FileCheck %s --check-prefix=ARG
# ARG: reduce axis=1 {{.*}} : (tensor<f32, [16]
# ARG: combine(
# ARG: gt
# ARG: eq
# ARG: lt
#
# the random numbers: Philox's round multipliers 0xD2511F53 and
# 0xCD9E8D57, ten rounds
# RUN: %glc %s -n k_rand -s "*u32, i32, 256" --emit=ir | FileCheck %s --check-prefix=RAND
# RAND-COUNT-20: umulhi
# RAND: const 3528531795 : u32
import triton
import triton.language as tl


@triton.jit
def k_softmax(x, y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(y + r, tl.softmax(tl.load(x + r), 1, keep_dims=True))


@triton.jit
def k_sigmoid(x, y, N: tl.constexpr):
    r = tl.arange(0, N)
    tl.store(y + r, tl.sigmoid(tl.load(x + r)))


@triton.jit
def k_argmax(x, y, yi, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    v = tl.load(x + r)
    m, i = tl.max(v, 1, return_indices=True)
    tl.store(y + tl.arange(0, M), m)
    tl.store(yi + tl.arange(0, M), i)
    tl.store(yi + M + tl.arange(0, N), tl.argmin(v, 0))


@triton.jit
def k_sort(x, y, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    r = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(y + r, tl.sort(tl.load(x + r), descending=D))


@triton.jit
def k_topk(x, y, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    r = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    t = tl.topk(tl.load(x + r), K)
    tl.store(y + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], t)


@triton.jit
def k_flip(x, y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    v = tl.load(x + r)
    tl.store(y + r, tl.flip(v, 1) + tl.flip(v, 0) * 1000)


@triton.jit
def k_cumsum(x, y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    v = tl.load(x + r)
    tl.store(y + r, tl.cumsum(v, 1) + tl.cumprod(v, 0, reverse=True))


@triton.jit
def k_rand(y, seed, N: tl.constexpr):
    o = tl.arange(0, N)
    a, b, c, d = tl.randint4x(seed, o)
    tl.store(y + o, a)
    tl.store(y + N + o, tl.rand(seed, o).to(tl.uint32, bitcast=True))


@triton.jit
def k_misc(x, y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    v = tl.load(x + r)
    w = tl.interleave(v, -v)
    tl.store(y + tl.arange(0, M)[:, None] * 2 * N + tl.arange(0, 2 * N)[None, :], w)
    i, j = tl.swizzle2d(tl.arange(0, M)[:, None], tl.arange(0, N)[None, :], M, N, 3)
    tl.store(y + 2 * M * N + r, (i * N + j).to(tl.float32))
