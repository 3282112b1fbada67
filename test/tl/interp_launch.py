"""The Python half of interp_glrt.c: runs a kernel of a test/gpu .py file
under Triton 3.6's interpreter (TRITON_INTERPRET=1, numpy, no torch) on
the host memory the driver's "device" pointers address.

launch(file, name, gx, gy, gz, args): NAME is a "# kernel NAME[=FN]:
SIGNATURE[; FLAGS]" line of FILE (bundle.sh compiles the same lines); the
signature's constexpr entries (plain integers) and `:1` entries become
the kernel's constants, the others take args in order: pointers as
addresses, scalars as Python numbers, tensordesc<...> entries as the
(rank, words) tuples of interp_glrt.c's encoder.
"""
import importlib.util
import inspect
import os
import re
import sys

os.environ["TRITON_INTERPRET"] = "1"
import numpy as np  # noqa: E402
import triton  # noqa: E402

LINE = re.compile(r"^# kernel ([A-Za-z0-9_]+)(?:=([A-Za-z0-9_]+))?: ([^;]*)(?:;(.*))?$")
NP = {"fp32": np.float32, "fp16": np.float16, "bf16": np.uint16, "fp64": np.float64,
      "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
      "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
      "fp8e4nv": np.uint8, "fp8e5": np.uint8}
TORCH = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16", "fp64": "float64",
         "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
         "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
         "fp8e4nv": "float8_e4m3fn", "fp8e5": "float8_e5m2"}
_modules = {}


def split_sig(sig):
    """The entries of a signature, split at top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in sig:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class _Dtype:
    def __init__(self, name, itemsize):
        self.name, self.itemsize = name, itemsize

    def __str__(self):
        return "torch." + self.name


class _Storage:
    def __init__(self, p):
        self.p = p

    def data_ptr(self):
        return self.p.addr

    def cpu(self):
        return self

    def copy_(self, other):
        pass


class Ptr:
    """A device pointer as the interpreter wants a tensor: its address and
    element type (the memory is the driver's own host buffer)."""
    def __init__(self, addr, ty):
        self.addr, self.ty = addr, ty
        self.dtype = _Dtype(TORCH[ty], np.dtype(NP[ty]).itemsize)

    def data_ptr(self):
        return self.addr

    def untyped_storage(self):
        return _Storage(self)

    def new_empty(self, *a, **k):
        return self

    def set_(self, *a):
        return self

    def storage_offset(self):
        return 0

    def size(self):
        return (0,)

    def stride(self):
        return (1,)

    def copy_(self, other):
        pass

    def cpu(self):
        return self


_mangle = triton.runtime.jit.mangle_type


def _mangle_ptr(arg, specialize=False):
    if isinstance(arg, Ptr):
        return "*" + arg.ty
    return _mangle(arg, specialize)


triton.runtime.jit.mangle_type = _mangle_ptr

# The interpreter's scalars are 1-element arrays, which numpy 2 no longer
# turns into an int (tl.range over a bound computed from program_id).
_interp = triton.runtime.interpreter
_patch_tensor = _interp._patch_lang_tensor


def _patch_lang_tensor(tensor, scope):
    _patch_tensor(tensor, scope)
    scope.set_attr(tensor, "__index__", lambda self: int(self.handle.data.reshape(-1)[0]))
    # tl.math's functions as tensor methods (x.exp()) call the unpatched
    # builtin; send them to the patched tl.math function instead.
    for name, member in inspect.getmembers(tensor, inspect.isfunction):
        if not name.startswith("_") and hasattr(triton.language.math, name) and \
                not triton.language.core.is_builtin(member):
            scope.set_attr(tensor, name, _math_method(name))


def _math_method(name):
    return lambda self, *a, **k: getattr(triton.language.math, name)(self, *a, **k)


_interp._patch_lang_tensor = _patch_lang_tensor

# Roundings where the interpreter is not the GPU: an f32 fma rounds once
# (the product of two f32 is exact in f64, so f64 then one rounding),
# f32 -> bf16 and f32 -> fp8 round to nearest even (the interpreter
# truncates bf16 and loses the carry of fp8's rounding into the exponent).
_Builder = _interp.InterpreterBuilder
_cast_impl = _Builder.cast_impl


def _fma(self, x, y, z):
    if z.dtype.scalar == triton.language.float32:
        exact = x.data.astype(np.float64) * y.data + z.data
        return _interp.TensorHandle(exact.astype(np.float32), z.dtype.scalar)
    return _interp.TensorHandle(x.data * y.data + z.data, z.dtype.scalar)


def _cast(self, src, dst_type):
    if src.dtype.scalar == triton.language.float32 and dst_type.scalar == triton.language.bfloat16:
        b = src.data.astype(np.float32).view(np.uint32).astype(np.uint64)
        rne = ((b + 0x7fff + ((b >> 16) & 1)) >> 16).astype(np.uint16)
        return _interp.TensorHandle(np.where(np.isnan(src.data), np.uint16(0x7fc0), rne),
                                    dst_type.scalar)
    return _cast_impl(self, src, dst_type)


def _fp8_table(exp_bits, bias, ieee):
    """The finite values of an fp8 format, ascending, and their codes."""
    vals, codes = [], []
    for c in range(256):
        e, m = (c >> (7 - exp_bits)) & ((1 << exp_bits) - 1), c & ((1 << (7 - exp_bits)) - 1)
        mbits = 7 - exp_bits
        if (ieee and e == (1 << exp_bits) - 1) or (not ieee and c & 0x7f == 0x7f):
            continue
        v = (m / (1 << mbits)) * 2.0 ** (1 - bias) if e == 0 else \
            (1 + m / (1 << mbits)) * 2.0 ** (e - bias)
        vals.append(-v if c & 0x80 else v)
        codes.append(c)
    order = np.argsort(vals, kind="stable")
    return np.array(vals)[order], np.array(codes, np.uint8)[order]


_FP8 = {"fp8e4nv": _fp8_table(4, 7, False), "fp8e5": _fp8_table(5, 15, True)}
_fp_to_fp = _Builder.create_fp_to_fp


def _to_fp8(self, src, dst_type, rounding_mode):
    """f32 -> fp8 as the GPU converts it: nearest, ties to the even code,
    saturated to the largest finite value (cvt.rn.satfinite)."""
    name = str(dst_type.scalar)
    if src.dtype.scalar != triton.language.float32 or name not in _FP8:
        return _fp_to_fp(self, src, dst_type, rounding_mode)
    vals, codes = _FP8[name]
    x = src.data.astype(np.float64).reshape(-1)
    hi = np.clip(np.searchsorted(vals, x), 1, len(vals) - 1)
    lo = hi - 1
    dlo, dhi = np.abs(x - vals[lo]), np.abs(vals[hi] - x)
    pick = np.where((dhi < dlo) | ((dhi == dlo) & (codes[hi] % 2 == 0)), hi, lo)
    out = codes[pick]
    out = np.where(np.isnan(x), np.uint8(0x7f), out)
    return _interp.TensorHandle(out.reshape(src.data.shape), dst_type.scalar)


# `while tl.condition(c):` tests the wrapper, which the interpreter leaves
# always true.
triton.language.condition.__bool__ = lambda self: bool(self.condition)

_patch_lang = _interp._patch_lang


def _patch_lang_and_core(fn):
    """The interpreter patches tl.core only where a kernel's module imports
    it by name; kernels reach it as tl.core too (tl.core.to_tensor)."""
    scope = _patch_lang(fn)
    core = triton.language.core
    if not any(v is core for v in fn.__globals__.values()):
        _interp._patch_builtin(core, _interp.interpreter_builder, scope)
    return scope


_interp._patch_lang = _patch_lang_and_core


def _map_elementwise(scalar_fn, *args, pack=1):
    """tl.map_elementwise as the interpreter lacks it: scalar_fn run on
    every element (pack 1) of the broadcast arguments."""
    tl = triton.language
    data = np.broadcast_arrays(*[a.handle.data for a in args])
    outs = None
    for idx in np.ndindex(*data[0].shape):
        elems = [tl.core.tensor(_interp.TensorHandle(np.array([d[idx]]), a.dtype.scalar),
                                a.dtype.scalar) for d, a in zip(data, args)]
        r = scalar_fn(*elems)
        r = list(r) if isinstance(r, tuple) else [r]
        if outs is None:
            outs = [(np.empty(data[0].shape, v.handle.data.dtype), v.dtype) for v in r]
        for (o, _), v in zip(outs, r):
            o[idx] = v.handle.data.reshape(-1)[0]
    res = [tl.core.tensor(_interp.TensorHandle(o, t.scalar), args[0].type.with_element_ty(t.scalar))
           for o, t in outs]
    return res[0] if len(res) == 1 else tuple(res)


triton.language.map_elementwise = _map_elementwise
# The kernels are compiled for CUDA; the interpreter's target is not.
triton.language.target_info.is_cuda = lambda: True
_Builder.create_fma = _fma
_Builder.cast_impl = _cast
_Builder.create_fp_to_fp = _to_fp8


def _gluon_helpers_as_triton(m):
    """The @gluon.jit helpers of module m, which the interpreter does not
    run, as @triton.jit functions, their layout operations the identity
    (the interpreter has no layouts)."""
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon._runtime import GluonJITFunction
    gl.convert_layout = lambda x, layout, assert_trivial=False: x
    gl.num_warps = lambda: 4
    for name, v in list(vars(m).items()):
        if isinstance(v, GluonJITFunction):
            setattr(m, name, triton.jit(v.fn))


def _module(path):
    if path not in _modules:
        spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        _gluon_helpers_as_triton(m)
        lines = {}
        for line in open(path):
            k = LINE.match(line.rstrip("\n"))
            if k:
                lines[k.group(1)] = (k.group(2) or k.group(1), k.group(3), k.group(4) or "")
        _modules[path] = (m, lines)
    return _modules[path]


def _desc(entry, value):
    """A TensorDescriptor of the interpreter from a tensordesc<DT[...]> entry
    and interp_glrt.c's (rank, words)."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    ty = re.match(r"tensordesc<(\w+)\[", entry).group(1)
    rank, w = value
    shape = [w[1 + i] for i in range(rank)]
    strides = [w[6 + i] for i in range(rank)]
    block = [w[11 + i] for i in range(rank)]
    return TensorDescriptor(Ptr(w[0], ty), shape, strides, block)


def launch(path, name, gx, gy, gz, args):
    m, lines = _module(path)
    fn_name, sig, flags = lines[name]
    fn = getattr(m, fn_name)
    entries = split_sig(sig)
    call, it = [], iter(args)
    for e in entries:
        if re.fullmatch(r"-?\d+", e):
            call.append(triton.language.constexpr(int(e)))
        elif e.endswith(":1"):
            call.append(1)
        else:
            v = next(it)
            e = e.split(":")[0]
            if e.startswith("*"):
                call.append(Ptr(v, e[1:]))
            elif e.startswith("tensordesc"):
                call.append(_desc(e, v))
            else:
                call.append(v)
    fn[(gx, gy, gz)](*call)
