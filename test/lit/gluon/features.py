# A Gluon file as a user has it: host code, constexpr functions, an
# aggregate, imports of a helper module, compiled from its signature.
# RUN: %glc %s -n add_kernel -s "*fp32:16, *fp32:16, *fp32, i32, 1024" -w 4 --emit=typed | FileCheck %s
# RUN: %glc %s -n add_kernel -s "*fp32:16, *fp32:16, *fp32, i32, 1024" -s "*fp16, *fp16, *fp16, i32:16, 256" --emit=header | FileCheck %s --check-prefix=HDR
# RUN: %glc %s -n add_kernel -s "*fp32, *fp32, *fp32, i32, 512" -c -o %t.o -MD && FileCheck %s --check-prefix=DEP < %t.d
# CHECK: kernel add_kernel
# CHECK: tensor<f32, [1024]
# HDR: add_kernel_0(
# HDR: add_kernel_1(
# DEP: {{.*}}.o:
# DEP-NEXT: {{.*}}features.py
# DEP-NEXT: {{.*}}helpers_mod.py
import importlib
import pytest
import torch
import triton
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.language.core import _aggregate as aggregate

helpers = importlib.import_module("Inputs.helpers_mod")
from Inputs.helpers_mod import scaled

SCALE = gl.constexpr(2.0)
TABLE = {"small": 128, "large": 1024}


@gluon.constexpr_function
def block_info(block, num_warps):
    sizes = [block // 2**i for i in range(3) if block // 2**i >= 32]
    shape = [1] + [sizes[0]]
    total = 0
    for s in sizes:
        total += s
    while total > block:
        total -= block
    return {"shape": shape, "total": total, "warps": num_warps}


@aggregate
class Offsets:
    base: gl.tensor
    limit: gl.tensor
    layout: gl.constexpr

    @gluon.constexpr_function
    def __init__(self, base, limit, layout):
        self.base = base
        self.limit = limit
        self.layout = gl.constexpr(layout)

    @gluon.jit
    def create(n, BLOCK: gl.constexpr, layout: gl.constexpr):
        base = gl.program_id(0) * BLOCK + gl.arange(0, BLOCK, layout=layout)
        return Offsets(base, n, layout)

    @gluon.jit
    def mask(self):
        return self.base < self.limit


@triton.autotune(configs=[triton.Config({"BLOCK": b}) for b in [256, 1024]], key=["n"])
@gluon.jit
def add_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: gl.constexpr):
    info: gl.constexpr = block_info(BLOCK, gl.num_warps())
    gl.static_assert(info["warps"] == 4)
    assert len(info["shape"]) == 2, f"shape is {info}"
    layout: gl.constexpr = helpers.pick_layout(BLOCK, gl.num_warps())
    offs = Offsets.create(n, BLOCK, layout)
    mask = offs.mask()
    x = gl.load(x_ptr + offs.base, mask=mask)
    y = gl.load(y_ptr + offs.base, mask=mask)
    gl.store(z_ptr + offs.base, scaled(x, SCALE) + y, mask=mask)


def launch(x, y):
    z = torch.empty_like(x)
    grid = lambda META: (triton.cdiv(x.numel(), META["BLOCK"]), )
    add_kernel[grid](x, y, z, x.numel())
    return z


@pytest.mark.parametrize("n", [1000, 4096])
def test_add(n):
    x = torch.randn(n, device="cuda")
    torch.testing.assert_close(launch(x, x), 3 * x)


if __name__ == "__main__":
    print(f"{launch(torch.ones(8), torch.ones(8))}")
