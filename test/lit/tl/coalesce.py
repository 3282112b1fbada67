# The layouts of a tl kernel are those Triton 3.6 gives it (each checked
# against its ttgir for the same kernel and signature, pointers :16): an
# access's from Triton's Coalesce (dims ordered by the pointers'
# contiguity, 16 bytes per thread where they are contiguous and aligned,
# at most the elements per thread), spread to what computes its pointers
# (aranges computed again in each layout they are needed in), a
# conversion only where two layouts meet.
#
# vector add (1024 f32, 4 warps): Triton's #blocked = [4], [32], [4], [0]
# RUN: %glc %s -n add -s "*fp32, *fp32, *fp32, i32, 1024" --emit=ir | FileCheck %s --check-prefix=ADD
# ADD: #blocked = BlockedLayout([4],[32],[4],[0]) on [1024]
# ADD-NOT: convert_layout
# ADD-NOT: #blocked1
#
# 64 x 64 f32 loaded by rows: [1, 4], [2, 16], [4, 1], [1, 0]; the row and
# column aranges are one arange each in the two slices (no conversion).
# RUN: %glc %s -n rows -s "*fp32, *fp32, 64" --emit=ir | FileCheck %s --check-prefix=ROWS
# ROWS: BlockedLayout([1,4],[2,16],[4,1],[1,0]) on [64, 64]
# ROWS-COUNT-2: arange start=0 end=64
# ROWS-NOT: plan=shared
#
# the same through column-major pointers (dim 0 contiguous): order [0, 1]
# RUN: %glc %s -n cols -s "*fp32, *fp32, 64" --emit=ir | FileCheck %s --check-prefix=COLS
# COLS: BlockedLayout([4,1],[16,2],[1,4],[0,1]) on [64, 64]
#
# f16 tiles of a GEMM's loads, 128 x 64 and 64 x 128: [1, 8], [4, 8] and
# [1, 8], [2, 16] (Triton's #blocked1 and #blocked)
# RUN: %glc %s -n tiles -s "*fp16, *fp16, *fp16, i32" --emit=ir | FileCheck %s --check-prefix=TILES
# TILES-DAG: BlockedLayout([1,8],[4,8],[4,1],[1,0]) on [128, 64]
# TILES-DAG: BlockedLayout([1,8],[2,16],[4,1],[1,0]) on [64, 128]
#
# an access of fewer elements than threads is no anchor: it takes the
# layout of the row it is added to (Triton converts at the store instead)
# RUN: %glc %s -n small -s "*fp32, *fp32, 64" --emit=ir | FileCheck %s --check-prefix=SMALL
# SMALL: #slice = SliceLayout(1, BlockedLayout([1,4],[2,16],[4,1],[1,0])) on [64]
# SMALL-NOT: plan=shared
#
# tl.trans of a loaded tile: permuted registers, converted to the store's
# layout (Triton: tt.trans to [4, 1], [8, 4], [1, 4], [0, 1], then
# convert_layout back)
# RUN: %glc %s -n trans -s "*fp32, *fp32, 32" --emit=ir | FileCheck %s --check-prefix=TRANS
# TRANS: #[[T:blocked[0-9]*]] = BlockedLayout([4,1],[8,4],[1,4],[0,1]) on [32, 32]
# TRANS: permute order=[1, 0] {{.*}} #[[T]]>
# TRANS-NEXT: convert_layout soft plan=shared
import triton
import triton.language as tl


@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


@triton.jit
def rows(x_ptr, y_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    x = tl.load(x_ptr + r[:, None] * B + r[None, :])
    tl.store(y_ptr + r[:, None] * B + r[None, :], x * 2)


@triton.jit
def cols(x_ptr, y_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    x = tl.load(x_ptr + r[:, None] + r[None, :] * B)
    tl.store(y_ptr + r[:, None] + r[None, :] * B, x * 2)


@triton.jit
def tiles(a_ptr, b_ptr, c_ptr, k):
    m = tl.arange(0, 128)
    n = tl.arange(0, 64)
    a = tl.load(a_ptr + m[:, None] * 64 + n[None, :])
    b = tl.load(b_ptr + n[:, None] * 128 + m[None, :])
    tl.store(c_ptr + m[:, None] * 64 + n[None, :], a + k)
    tl.store(c_ptr + n[:, None] * 128 + m[None, :], b + k)


@triton.jit
def small(x_ptr, y_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    x = tl.load(x_ptr + r[:, None] * B + r[None, :])
    tl.store(y_ptr + r, tl.sum(x, 1) + tl.load(x_ptr + r))


@triton.jit
def trans(x_ptr, y_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    x = tl.load(x_ptr + r[:, None] * B + r[None, :])
    tl.store(y_ptr + r[:, None] * B + r[None, :], tl.trans(x))
