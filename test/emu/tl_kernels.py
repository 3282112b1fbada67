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
