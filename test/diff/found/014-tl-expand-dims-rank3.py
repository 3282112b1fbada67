# FOUND 014, shrunk (shrink.py --seed 2 --index 46 --mode tl) from kernel 46 of
# seed 2 in the generator's tl mode (plain triton.language, cpu_check.py --mode tl:
# 2 of 256 kernels, 46 and 59, fail so): a [64, 1, 16] tile addressed with dim 0
# most minor, loaded as u64 and as i16 through the same offsets, 8 warps.
#   build/glc test/diff/found/014-tl-expand-dims-rank3.py -n k2_46 -s "*u64, i32, *i16" -w 8 --emit=ir
# Expected: compiles (Triton 3.6's interpreter runs it; its layouts are Triton's
# to choose, as for any @triton.jit kernel).
# Got: "internal compiler error: invalid IR: layouts: 'expand_dims' at axis 2
# relates tensor<i32, [1, 1], SliceLayout(2, BlockedLayout([2,1,1],[32,1,1],
# [1,1,8],[0,2,1]))> to tensor<i32, [1, 1, 1], BlockedLayout([4,1,1],[16,1,2],
# [1,1,8],[0,2,1])>; one is the other in SliceLayout(2, its layout) without the
# axis" at o3_1[None, :, None] (before the fix). The cause was soft-clean
# (passes/soft_clean.c): it computes the i16 access's offsets again in that access's
# layout, and kept the one-element [1, 1] expansion as it was, its map being the
# wanted one's; expand_dims relates descriptions. Fixed: such an operand is cloned
# unless its description is the wanted one (test/lit/regress/diff_found_014.test;
# values: test/emu/tl_kernels.py's rank3_widths).
import triton
import triton.language as tl


@triton.jit
def k2_46(x1, n2, x5):
    pid = tl.program_id(0)
    o3_0 = tl.arange(0, 64)
    o3_1 = tl.arange(0, 1)
    o3_2 = tl.arange(0, 16)
    o3 = pid * 1024 + o3_0[:, None, None] + o3_1[None, :, None] * 1024 + o3_2[None, None, :] * 64
    m3 = o3 < n2
    v4 = tl.load(x1 + o3, mask=m3, other=0)
    v6 = tl.load(x5 + o3, mask=m3, other=-50)
