# tl kernels that test/emu/emu.py runs on the CPU (no warp shuffles or
# reductions, and at most one trip through each shared-memory scratch:
# each thread runs its whole kernel before the next): their layouts are
# inferred as Triton's passes infer them, with a conversion through shared
# memory where two meet.
import triton
import triton.language as tl


# y = x transposed, 32 x 32 (tl_trans.c)
@triton.jit
def trans(x_ptr, y_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    x = tl.load(x_ptr + r[:, None] * B + r[None, :])
    tl.store(y_ptr + r[:, None] * B + r[None, :], tl.trans(x))


# y = 2 x through block pointers of a 50 x 40 matrix (tl_block_ptr.c): the
# 64 x 64 block checked at both bounds
@triton.jit
def bp_copy(x_ptr, y_ptr, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    p = tl.make_block_ptr(x_ptr, (M, N), (stride, 1), (0, 0), (BM, BN), (1, 0))
    q = tl.make_block_ptr(y_ptr, (M, N), (stride, 1), (0, 0), (BM, BN), (1, 0))
    tl.store(q, tl.load(p, boundary_check=(0, 1), padding_option="zero") * 2,
             boundary_check=(0, 1))


# FOUND 014 (test/diff/found/014-tl-expand-dims-rank3.py): a [64, 1, 16]
# tile addressed with dim 0 most minor, loaded as u64 and as i16 through
# the same offsets and mask, each stored back changed (tl_rank3.c); the
# i16 access's layout is rematerialized from the aranges, down to the
# one-element [1, 1] expansion
@triton.jit
def rank3_widths(x1, n2, x5, y1, y5):
    o3_0 = tl.arange(0, 64)
    o3_1 = tl.arange(0, 1)
    o3_2 = tl.arange(0, 16)
    o3 = o3_0[:, None, None] + o3_1[None, :, None] * 1024 + o3_2[None, None, :] * 64
    m3 = o3 < n2
    v4 = tl.load(x1 + o3, mask=m3, other=0)
    v6 = tl.load(x5 + o3, mask=m3, other=-50)
    tl.store(y1 + o3, v4 + 1, mask=m3)
    tl.store(y5 + o3, v6 * 2)
