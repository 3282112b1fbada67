"""The torch package on the GPU: glc-built kernels as torch custom ops.

Checks vector_add_f32/f16 and glc link's dispatchers (scale_kernel,
add_kernel: four specializations each, picked by alignment and BLOCK)
against torch on fresh random inputs with poisoned outputs, on the current
stream and a side stream, inside a CUDA graph and under torch.compile
(fullgraph=True: a graph break is an error). Prints one line per check;
exit 0 when all pass, 77 without torch or a GPU.
"""
import sys

try:
    import torch
except ImportError:
    print("no torch")
    sys.exit(77)
if not torch.cuda.is_available():
    print("no GPU")
    sys.exit(77)

import glc
import glc.torch

lib = glc.Library("./libkernels.so", "lib.json")
reg = glc.torch.register(lib)
ops = torch.ops.glc
failed = 0


def check(name, got, want):
    global failed
    ok = torch.equal(got, want)
    failed += not ok
    print("%s: %s" % ("ok" if ok else "FAIL", name))


def cdiv(a, b):
    return (a + b - 1) // b


def poisoned(like):
    return torch.full_like(like, float("nan"))


n = 1000003
x = torch.randn(n, device="cuda")
y = torch.randn(n, device="cuda")
z = poisoned(x)
ops.vector_add_f32(x, y, z, n, grid=[cdiv(n, 2048), 1, 1])
check("vector_add_f32", z, x + y)
xh, yh = x.half(), y.half()
zh = poisoned(xh)
ops.vector_add_f16(xh, yh, zh, n, grid=[cdiv(n, 4096), 1, 1])
check("vector_add_f16", zh, xh + yh)

for block in (1024, 256):
    for off in (0, 1):   # 16-byte aligned and n % 16 == 0, or neither
        m = n - off
        xs, ys = x[off:], poisoned(x)[off:]
        ops.scale_kernel(xs, ys, m, block, grid=[cdiv(m, block), 1, 1])
        check("scale_kernel BLOCK=%d offset %d" % (block, off), ys, xs + xs)
        zs = poisoned(x)[off:]
        ops.add_kernel(xs, y[off:], zs, m, block, grid=[cdiv(m, block), 1, 1])
        check("add_kernel BLOCK=%d offset %d" % (block, off), zs, xs + y[off:])

side = torch.cuda.Stream()
z = poisoned(x)
with torch.cuda.stream(side):
    ops.vector_add_f32(x, y, z, n, grid=[cdiv(n, 2048), 1, 1])
side.synchronize()
check("vector_add_f32 on a side stream", z, x + y)

z = poisoned(x)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    ops.scale_kernel(x, z, n, 1024, grid=[cdiv(n, 1024), 1, 1])
x.copy_(torch.randn(n, device="cuda"))
g.replay()
torch.cuda.synchronize()
check("scale_kernel in a CUDA graph", z, x + x)


def step(a, b):
    out = torch.empty_like(a)
    ops.add_kernel(a, b, out, a.numel(), 1024, grid=[cdiv(a.numel(), 1024), 1, 1])
    return out * 2


compiled = torch.compile(step, fullgraph=True)
check("add_kernel under torch.compile(fullgraph=True)", compiled(x, y), (x + y) * 2)
print("skipped (tensor maps):", reg.skipped)
print("%d failed" % failed)
sys.exit(1 if failed else 0)
