# FOUND 015, shrunk (shrink.py --seed 12 --index 987 --mode tl) from kernel 987 of
# seed 12 in the tl mode (cpu_check.py --seed 12 --seconds 200 --mode tl: 6 of 1024
# kernels fail so: 503, 659, 778, 790, 815, 987): tl.join of a histogram's
# result and a loaded tensor of the same shape and dtype.
#   build/glc test/diff/found/015-tl-join-histogram.py -n k12_987 -s "*i32, *i32, i32" -w 8 --emit=ir
# Expected: compiles (in triton.language the layouts of the two operands are the
# compiler's to choose; Triton's passes convert one of them).
# Got: "internal compiler error: invalid IR: types: 'join' takes two tensors of one
# type, not tensor<i32, [32], BlockedLayout(...)> and ...": the operands of the join
# keep two different inferred layouts.
import triton
import triton.language as tl


# kernel k12_987: *i32, *i32, i32; -w 8
@triton.jit
def k12_987(x17, x20, n21):
    pid = tl.program_id(0) + tl.program_id(1) * tl.num_programs(0)
    o3_0 = tl.arange(0, 16)
    o3 = pid * 16 + o3_0
    v18 = tl.load(x17 + o3)
    v19 = tl.histogram(v18, 32)
    o22_0 = tl.arange(0, 32)
    o22 = pid * 32 + o22_0
    m22 = o22 < n21
    v23 = tl.load(x20 + o22, mask=m22, other=0)
    v25 = v19
    v26 = v23
    w27 = tl.join(v25, v26)
    s28, s29 = w27.split()
