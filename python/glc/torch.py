"""glc kernels as torch.library custom ops, launched on torch's current stream.

    lib = glc.Library("libkernels.so", "kernels.json")
    glc.torch.register(lib)                        # namespace "glc"
    torch.ops.glc.scale_kernel(x, y, n, 1024, grid=[(n + 1023) // 1024, 1, 1])

Each launcher of the library becomes the op NAMESPACE::SYMBOL with the
launcher's real signature: a pointer parameter is a CUDA tensor (the
kernel may write it: each is marked mutable, so torch.compile orders the op
correctly without a graph break), an integer, float or bool parameter a
Python scalar, and `grid` (an int list) the launch grid when the caller
gives it. The op launches on torch.cuda.current_stream(), so it can be
captured in a CUDA graph (call it once before capturing, which loads the
module). Kernels taking tensor maps are not registered yet (listed in the
result's `skipped`).
"""
import torch

_SCALARS = {"bool": "bool", "float": "float", "double": "float"}


def _schema(k):
    args = []
    for i, p in enumerate(k.params):
        if p["kind"] == "ptr":
            args.append("Tensor(a%d!) %s" % (i, p["c_name"]))
        elif p["ctype"] == "uint16_t" and p["dtype"] in ("f16", "bf16"):
            args.append("float %s" % p["c_name"])
        else:
            args.append("%s %s" % (_SCALARS.get(p["ctype"], "int"), p["c_name"]))
    if k.caller_grid:
        args.append("int[] grid")
    return "(%s) -> ()" % ", ".join(args)


def _impl(k):
    def run(*args):
        grid = None
        if k.caller_grid:
            *args, grid = args
        values, device = [], None
        for p, a in zip(k.params, args):
            if p["kind"] == "ptr":
                if not a.is_cuda:
                    raise ValueError("%s: %s must be a CUDA tensor" % (k.symbol, p["name"]))
                device = a.device
                values.append(a.data_ptr())
            else:
                values.append(a)
        stream = torch.cuda.current_stream(device).cuda_stream
        k(stream, tuple(grid) if grid is not None else None, *values)
    return run


class Registered:
    """The ops register() made: ops[symbol], and the launchers it skipped."""

    def __init__(self, namespace):
        self.namespace = namespace
        self.ops = {}
        self.skipped = []
        self._lib = torch.library.Library(namespace, "FRAGMENT")


def register(library, namespace="glc"):
    """Registers every launcher of library (a glc.Library) as a custom op."""
    reg = Registered(namespace)
    for symbol, k in library.kernels.items():
        if any(p["kind"] == "tensor_map" for p in k.params):
            reg.skipped.append(symbol)
            continue
        reg._lib.define(symbol + _schema(k))
        reg._lib.impl(symbol, _impl(k), "CUDA")
        torch.library.register_fake("%s::%s" % (namespace, symbol))(lambda *a, **kw: None)
        reg.ops[symbol] = getattr(getattr(torch.ops, namespace), symbol)
    return reg
