"""Runs the tutorial kernels that glc compiled through glc and through Triton (Gluon's
tutorials, or triton.language's: bench/triton_tutorials.list) on the same inputs, and
compares the outputs (on the GPU machine).

    python3 gluon_tutorials_run.py BUNDLE TUTDIR [--only N ...]

BUNDLE is the OUT folder of `sh bench/gluon_tutorials.sh DIR GLC OUT`: NN.o and
NN.h for each row of gluon_tutorials.list that compiled, the list, runtime/ (libglrt's
sources) and this script. TUTDIR holds Triton's files, as DIR did. Each object is
linked with libglrt (gcc) into BUNDLE/work/libNN.so. For each row: the Triton file
is loaded statement by statement (a statement that fails, such as an import of a
name this Triton lacks, is skipped and reported), a kernel `outer.inner` is made by
running outer's statements up to inner's def; inputs come from the row's
arguments (seeded by the row index); outputs are filled alike for both (`empty`:
0xFF bytes); glc's launcher is called through ctypes on torch's stream and Triton's
kernel as `k[grid](*args, num_warps=N, **launch)` (launch: num_stages, maxnreg, ...;
a global-memory allocator is set for descriptors made in a kernel); each output is
compared byte for byte (check "exact") or with torch.allclose (check "close", rtol
1e-3, atol the row's "atol" or 1e-2). glc's launcher is the row's "out_name" (glc
-on) or the kernel's name. Arguments: an int (an i32), {"scalar": v, "dtype":
"i32"|"i64"|"f32"}, {"constexpr": source} (Triton's only), a tensor {"tensor": shape,
"dtype", "fill", "out"} (fill randn, rand, randn_nonzero, randint, zeros, ones, empty,
or "values" with the tensor's "values"), a descriptor {"desc": tensor, "block",
"layout"}, or {"group": [tensors]}: an int64 tensor of the tensors' addresses (each
compiler gets its own outputs). Prints one line per row and last `N rows, N agree,
N disagree, N errors`.
"""
import argparse
import ast
import ctypes
import glob
import json
import os
import subprocess
import sys

TMA_DTYPES = {"float16": 6, "float32": 7, "bfloat16": 9, "int32": 3, "float8_e4m3fn": 0, "float8_e5m2": 0}


def read_rows(path):
    """The rows of a tutorial list (its JSON lines)."""
    with open(path) as f:
        return [json.loads(line) for line in f if line.startswith("{")]


def build(bundle):
    """work/libNN.so for every NN.o: the object and libglrt."""
    work = os.path.join(bundle, "work")
    os.makedirs(work, exist_ok=True)
    rt = os.path.join(bundle, "runtime")
    objs = []
    for c in sorted(glob.glob(os.path.join(rt, "*.c"))):
        o = os.path.join(work, "rt_" + os.path.basename(c)[:-2] + ".o")
        subprocess.run(["gcc", "-std=c11", "-D_GNU_SOURCE", "-O2", "-fPIC", "-I" + rt, "-c", c, "-o", o],
                       check=True)
        objs.append(o)
    for o in sorted(glob.glob(os.path.join(bundle, "*.o"))):
        so = os.path.join(work, "lib" + os.path.basename(o)[:-2] + ".so")
        subprocess.run(["gcc", "-shared", "-o", so, o] + objs + ["-ldl", "-pthread"], check=True)


class _Anything:
    """Stands for pytest where it is not installed: its decorators return what they decorate."""

    def __getattr__(self, name):
        return _Anything()

    def __call__(self, *args, **kwargs):
        return args[0] if len(args) == 1 and callable(args[0]) and not kwargs else _Anything()


def load_module(path, skipped):
    """The file's top-level statements run one by one in a fresh namespace (pytest, which
    only the files' tests use, is stubbed when it is not installed)."""
    try:
        import pytest  # noqa: F401
    except ImportError:
        sys.modules["pytest"] = _Anything()
    src = open(path).read()
    tree = ast.parse(src, path)
    ns = {"__name__": os.path.basename(path)[:-3].replace("-", "_"), "__file__": path}
    for st in tree.body:
        try:
            exec(compile(ast.Module(body=[st], type_ignores=[]), path, "exec"), ns)
        except Exception as e:  # host code this Triton or machine cannot run
            skipped.append(f"{path}:{st.lineno}: {type(e).__name__}: {e}"[:200])
            if isinstance(st, ast.FunctionDef) and jit_only(st, path, ns):
                skipped[-1] += " (defined with its jit decorator only)"
    return ns, tree


def jit_only(st, path, ns):
    """A kernel whose other decorators fail here (an autotune list that asks the device):
    defined with its @*.jit decorator alone, as glc reads it (the rows give the
    configuration)."""
    jit = [d for d in st.decorator_list if "jit" in ast.unparse(d)]
    if not jit or len(jit) == len(st.decorator_list):
        return False
    st = ast.FunctionDef(**{**{f: getattr(st, f) for f in st._fields}, "decorator_list": jit})
    ast.fix_missing_locations(st)
    try:
        exec(compile(ast.Module(body=[st], type_ignores=[]), path, "exec"), ns)
    except Exception:
        return False
    return True


def kernel_object(ns, tree, path, name):
    """The @gluon.jit object -n `name` names (outer.inner: run outer's body up to inner)."""
    if "." not in name:
        k = ns[name]
        while type(k).__name__ in ("Autotuner", "Heuristics"):
            k = k.fn   # launched with the configuration's constexprs given
        return k
    outer, inner = name.split(".", 1)
    fn = next(s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == outer)
    local = dict(ns)
    for st in fn.body:
        exec(compile(ast.Module(body=[st], type_ignores=[]), path, "exec"), local)
        if isinstance(st, ast.FunctionDef) and st.name == inner:
            return local[inner]
    raise KeyError(name)


def make_tensor(torch, spec, gen):
    shape, dtype, fill = spec["tensor"], getattr(torch, spec["dtype"]), spec["fill"]
    if fill == "empty":
        t = torch.empty(shape, dtype=dtype, device="cuda")
        t.view(torch.uint8).fill_(0xFF)
        return t
    if fill == "values":
        return torch.tensor(spec["values"], dtype=dtype, device="cuda").reshape(shape)
    if fill in ("zeros", "ones"):
        return getattr(torch, fill)(shape, dtype=dtype, device="cuda")
    if fill == "randint":
        return torch.randint(0, 100, shape, generator=gen, device="cuda").to(dtype)
    t = (torch.rand if fill == "rand" else torch.randn)(shape, generator=gen, device="cuda")
    if fill == "randn_nonzero":
        t[t == 0] = 1.0
    return t.to(dtype)


class TensorMap:
    """A 64-byte aligned glrt_tensor_map (192 bytes) in host memory."""

    def __init__(self):
        self.buf = ctypes.create_string_buffer(256)
        self.addr = (ctypes.addressof(self.buf) + 63) & ~63


def nvmma_layout(gl, spec, ns):
    """The desc argument's NVMMASharedLayout: the row's, or Gluon's default for the block."""
    if "layout" in spec:
        layout = eval(spec["layout"], ns)
        return layout.value if isinstance(layout, gl.constexpr) else layout   # a module constant
    return gl.NVMMASharedLayout.get_default_for(spec["block"], getattr(gl, spec["desc"]["dtype"]))


def tensor_map(lib, t, spec, layout):
    """glc's tensor map of t for the desc argument spec (libglrt's encoder)."""
    m = TensorMap()
    n = t.dim()
    arrays = [(ctypes.c_uint64 * n)(*t.shape), (ctypes.c_uint64 * n)(*t.stride()),
              (ctypes.c_uint32 * n)(*spec["block"]),
              (ctypes.c_uint32 * 3)(layout.swizzle_byte_width, layout.element_bitwidth, int(layout.transposed))]
    enc = lib.glrt_tensor_map_encode_nvmma
    enc.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_uint64] + [ctypes.c_void_p] * 4 + \
        [ctypes.c_int]
    st = enc(m.addr, TMA_DTYPES[spec["desc"]["dtype"]], n, t.data_ptr(),
             *[ctypes.cast(x, ctypes.c_void_p) for x in arrays], 0)
    if st != 0:
        raise RuntimeError(f"glrt_tensor_map_encode_nvmma: status {st}")
    return m


SCALARS = {"i32": ctypes.c_int32, "i64": ctypes.c_int64, "f32": ctypes.c_float}


def address_table(torch, specs, gen, outs, keep):
    """A "group" argument: (glc's, Triton's) int64 tensors of the addresses of the specs'
    tensors (outputs apart for each compiler)."""
    tensors = []
    for spec in specs:
        t = make_tensor(torch, spec, gen)
        g = t.clone() if spec.get("out") else t
        if spec.get("out"):
            outs.append((spec, (g, t)))
        tensors.append((g, t))
    keep.extend(tensors)
    return [torch.tensor([x[k].data_ptr() for x in tensors], dtype=torch.int64, device="cuda")
            for k in (0, 1)]


def make_args(torch, gl, ns, row, seed, lib=None):
    """The row's arguments: (glc's, Triton's, [(spec, (glc output, Triton output))],
    tensor maps and tensors to keep alive); glc's only with lib."""
    from triton.experimental.gluon.nvidia.hopper import TensorDescriptor
    gen = torch.Generator(device="cuda")
    gen.manual_seed(seed)
    glc_args, tri_args, outs, keep = [], [], [], []
    for a in row["args"]:
        if isinstance(a, int) and not isinstance(a, bool):
            glc_args.append(ctypes.c_int32(a))
            tri_args.append(a)
            continue
        if "scalar" in a:
            glc_args.append(SCALARS[a["dtype"]](a["scalar"]))
            tri_args.append(a["scalar"])
            continue
        if "constexpr" in a:
            tri_args.append(eval(a["constexpr"], ns))
            continue
        if "group" in a:
            g, t = address_table(torch, a["group"], gen, outs, keep)
            keep.append(g)
            glc_args.append(ctypes.c_uint64(g.data_ptr()))
            tri_args.append(t)
            continue
        spec = a["desc"] if "desc" in a else a
        t = make_tensor(torch, spec, gen)
        g = t.clone() if spec.get("out") else t
        if spec.get("out"):
            outs.append((spec, (g, t)))
        if "desc" in a:
            layout = nvmma_layout(gl, a, ns)
            if lib:
                keep.append(tensor_map(lib, g, a, layout))
                glc_args.append(ctypes.c_void_p(keep[-1].addr))
            tri_args.append(TensorDescriptor.from_tensor(t, a["block"], layout))
        else:
            glc_args.append(ctypes.c_uint64(g.data_ptr()))
            tri_args.append(t)
    return glc_args, tri_args, outs, keep


def load_cached(cache, path):
    if path not in cache:
        skipped = []
        cache[path] = load_module(path, skipped) + (skipped, )
    return cache[path]


def run_row(torch, gl, bundle, tutdir, i, row, cache):
    path = os.path.join(tutdir, row["file"])
    ns, tree, _ = load_cached(cache, path)
    kernel = kernel_object(ns, tree, path, row["kernel"])
    lib = ctypes.CDLL(os.path.join(bundle, "work", f"lib{i:02d}.so"))
    glc_args, tri_args, outs, keep = make_args(torch, gl, ns, row, 1000 + i, lib)
    grid = list(row["grid"]) + [1] * (3 - len(row["grid"]))
    fn = getattr(lib, row.get("out_name", row["kernel"].replace(".", "_")))
    fn.restype = ctypes.c_int
    torch.cuda.synchronize()
    st = fn(ctypes.c_void_p(torch.cuda.current_stream().cuda_stream), grid[0], grid[1], grid[2], *glc_args)
    if st != 0:
        lib.glrt_last_error.restype = ctypes.c_char_p
        return "error", f"glc launch: status {st}: {lib.glrt_last_error().decode()}"
    torch.cuda.synchronize()
    kernel[tuple(row["grid"])](*tri_args, num_warps=row["num_warps"], **row.get("launch", {}))
    torch.cuda.synchronize()
    for spec, (g, t) in outs:
        if row["check"] == "exact":
            same = torch.equal(g.view(torch.uint8), t.view(torch.uint8))
        else:
            same = torch.allclose(g.double(), t.double(), rtol=1e-3, atol=row.get("atol", 1e-2),
                                  equal_nan=True)
        if not same:
            diff = (g.double() - t.double()).abs().nan_to_num(float("inf"))
            return "disagree", f"output {spec['tensor']}: max |glc - triton| {diff.max().item():.3g}"
    return "agree", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bundle")
    ap.add_argument("tutdir")
    ap.add_argument("--only", type=int, nargs="*")
    args = ap.parse_args()
    bundle, tutdir = os.path.abspath(args.bundle), os.path.abspath(args.tutdir)
    build(bundle)
    sys.path.insert(0, tutdir)   # importlib.import_module("05-wgmma") in the tutorials
    import torch
    import triton
    from triton.experimental.gluon import language as gl
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    rows = read_rows(os.path.join(bundle, "gluon_tutorials.list"))
    tally = {"agree": 0, "disagree": 0, "error": 0}
    cache = {}
    for i, row in enumerate(rows):
        if not os.path.exists(os.path.join(bundle, "work", f"lib{i:02d}.so")) or \
                (args.only is not None and i not in args.only):
            continue
        try:
            outcome, detail = run_row(torch, gl, bundle, tutdir, i, row, cache)
        except Exception as e:
            outcome, detail = "error", f"{type(e).__name__}: {str(e).strip()[:300]}"
        tally[outcome] += 1
        print(f"{i:02d} {row['file']} {row['kernel']}: {outcome} {detail}", flush=True)
    for path, (_, _, skipped) in cache.items():
        for s in skipped:
            print(f"skipped host statement: {s}")
    n = sum(tally.values())
    print(f"{n} rows, {tally['agree']} agree, {tally['disagree']} disagree, {tally['error']} errors")


if __name__ == "__main__":
    main()
