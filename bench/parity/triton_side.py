"""The Triton half of the code-parity harness: a row's kernel compiled by Triton 3.6's JIT
for sm_90a on a machine without a GPU (needs a Python with triton; torch is not needed).

  compile_row(row, root, outdir)   writes outdir/ID.ptx, ID.cubin (Triton's own, its bundled
                                   ptxas) and ID.json ({"name", "shared", "num_warps", "hash",
                                   "signature"}) for the row (see parity.py for rows)

The kernel goes through `JITFunction.warmup` with a stand-in driver (target cuda:90, warp 32)
and stand-in tensors (MockTensor: data_ptr() 0, so 16-byte aligned, as torch's allocations
are), so Triton specializes it exactly as its launch on the GPU does: pointers divisible by
16, integers divisible by 16 or equal to 1 (then a constant), descriptors with their block
and layout. Without torch installed, a stub module `torch` answers what the tutorials' module
code asks (is_available() is False, capability (9, 0)); the tutorials are loaded statement
by statement (bench/gluon_tutorials_run.py), so a statement that still fails is skipped.
"""
import json
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
for _d in (HERE, os.path.join(HERE, "..")):   # gluon_tutorials_run.py: bench/, or beside in a bundle
    if os.path.exists(os.path.join(_d, "gluon_tutorials_run.py")) and _d not in sys.path:
        sys.path.insert(0, _d)


class FakeDtype:
    """A torch dtype as Triton's specialization reads it (class name "dtype", module torch)."""
    __module__ = "torch"

    def __init__(self, name):
        self.name = name
        self.is_floating_point = name.startswith(("float", "bfloat"))

    def __str__(self):
        return "torch." + self.name

    __repr__ = __str__

    def __eq__(self, other):
        return str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


FakeDtype.__name__ = FakeDtype.__qualname__ = "dtype"


def install_cpu_env():
    """The stand-in driver, and a stub torch when the real one is missing."""
    import triton
    from triton.backends.compiler import GPUTarget

    class Hopper:
        def get_current_target(self):
            return GPUTarget("cuda", 90, 32)

        def get_current_device(self):
            return 0

        def get_current_stream(self, device=None):
            return 0

        def get_active_torch_device(self):
            return None

    triton.runtime.driver.set_active(Hopper())
    try:
        import torch  # noqa: F401
    except ImportError:
        stub = types.ModuleType("torch")
        stub.cuda = types.SimpleNamespace(is_available=lambda: False,
                                          get_device_capability=lambda *_: (9, 0))
        for n in ("float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
                  "uint8", "uint16", "uint32", "uint64", "bool", "float8_e4m3fn", "float8_e5m2"):
            setattr(stub, n, FakeDtype(n))
        stub.float = stub.float32
        sys.modules["torch"] = stub


def mock_tensor(spec):
    """A stand-in tensor of a row's tensor spec ({"tensor": shape, "dtype": torch name}): torch's
    dtype (the stub's without torch), data_ptr() 0."""
    import torch
    from triton.runtime.jit import MockTensor
    return MockTensor(getattr(torch, spec["dtype"]), list(spec["tensor"]))


def jit_args(row, ns):
    """The arguments the row's launch passes to Triton, stand-ins for tensors."""
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor
    from triton.experimental.gluon import language as gl
    import gluon_tutorials_run as tut
    args = []
    for a in row["args"]:
        if isinstance(a, (int, float)) and not isinstance(a, bool):
            args.append(a)
        elif "scalar" in a:
            args.append(a["scalar"])
        elif "constexpr" in a:
            args.append(eval(a["constexpr"], ns))
        elif "desc" in a:
            t = mock_tensor(a["desc"])
            args.append(TensorDescriptor.from_tensor(t, a["block"], tut.nvmma_layout(gl, a, ns)))
        else:
            args.append(mock_tensor(a))
    return args


def load_kernel(row, root):
    """(kernel object, module namespace) of the row's Gluon kernel."""
    import gluon_tutorials_run as tut
    path = os.path.join(root, row["py"])
    sys.path.insert(0, os.path.dirname(path))   # importlib.import_module("05-wgmma") in tutorials
    ns, tree = tut.load_module(path, [])
    return tut.kernel_object(ns, tree, path, row["kernel"]), ns


def warmup(row, root):
    """The row's kernel compiled by Triton's JIT for the row's arguments (a CompiledKernel); the
    driver is the active one (the stand-in of install_cpu_env, or the GPU's)."""
    kernel, ns = load_kernel(row, root)
    return kernel.warmup(*jit_args(row, ns), grid=tuple(row["grid"]), num_warps=row["num_warps"],
                         **row.get("launch", {}))


def compile_row(row, root, outdir):
    """Compiles the row with Triton; writes outdir/ID.{ptx,cubin,json}. Raises what Triton raises."""
    install_cpu_env()
    ck = warmup(row, root)
    base = os.path.join(outdir, row["id"])
    with open(base + ".ptx", "w") as f:
        f.write(ck.asm["ptx"])
    with open(base + ".cubin", "wb") as f:
        f.write(ck.asm["cubin"])
    md = ck.metadata
    with open(base + ".json", "w") as f:
        json.dump({"name": md.name, "shared": md.shared, "num_warps": md.num_warps, "hash": md.hash,
                   "signature": {k: str(v) for k, v in ck.src.signature.items()}}, f)
