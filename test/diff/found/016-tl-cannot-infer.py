# FOUND 016, shrunk (shrink.py --seed 12 --index 46 --mode tl) from kernel 46 of
# seed 12 in the tl mode (3 of 1024 kernels of that run: 46, 552, 849): a tuple
# swapped in a runtime loop, reductions of its element and of a load, broadcast
# against each other and merged in a runtime if.
#   build/glc test/diff/found/016-tl-cannot-infer.py -n k12_46 -s "*fp32, *fp32, i32" -w 1 --emit=ir
# Expected: compiles (valid triton.language: Triton's interpreter runs it, and a
# tl program has no layouts for its author to give).
# Got: "error: cannot infer a layout for this tensor (AutoLayout)" at a load, with
# "it must be BlockedLayout(...) here" and "here it meets a differently sliced
# inferred layout": in tl code an inference conflict is glc's to resolve with a
# conversion, not the user's.
import triton
import triton.language as tl


# kernel k12_46: *fp32, *fp32, i32; -w 1
@triton.jit
def k12_46(x1, x5, t8):
    pid = tl.program_id(0) + tl.program_id(1) * tl.num_programs(0)
    o3_0 = tl.arange(0, 1)
    o3_1 = tl.arange(0, 16)
    o3_2 = tl.arange(0, 2)
    o3 = pid * 32 + o3_0[:, None, None] * 32 + o3_1[None, :, None] * 2 + o3_2[None, None, :]
    v4 = tl.load(x1 + o3)
    v6 = tl.load(x5 + o3)
    v7 = tl.sum(v6, axis=0)
    c10 = (v4, v6)
    for i9 in range(t8):
        c10 = (c10[1], c10[0])
    v11 = c10[0]
    v12 = tl.min(v11, axis=2)
    v13 = tl.sum(v12, axis=0)
    v14 = v13
    v15 = v14[:, None]
    v16 = tl.maximum(v7, v15)
    v17 = tl.sum(v16, axis=1)
    if pid % 2 == 0:
        c19 = tl.maximum(v17, v14)
    else:
        c19 = tl.minimum(v17, v14)
