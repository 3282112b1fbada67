# glc's tl prelude: triton.language's standard library, written in tl.
import triton
import triton.language as tl


@triton.jit
def sigmoid(x):
    return 1 / (1 + tl.exp(-x))
