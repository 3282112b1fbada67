"""glc's Python package: glc-built kernel libraries from Python and PyTorch.

    lib = glc.Library("libkernels.so", "kernels.json")
    lib.scale_kernel(stream, (grid_x, 1, 1), x_ptr, y_ptr, n, 1024)   # device pointers as ints
    ops = glc.torch.register(lib)           # torch.ops.glc.scale_kernel(x, y, n, 1024, grid=[g, 1, 1])
"""
from .library import GlrtError, Kernel, Library

__all__ = ["GlrtError", "Kernel", "Library"]
