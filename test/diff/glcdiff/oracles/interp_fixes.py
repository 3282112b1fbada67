"""What Triton 3.6's interpreter gets wrong about bf16 and fp8, put right for oracle.py.

The interpreter keeps bf16 and fp8 values as their bit patterns (uint16, uint8)
and then computes on those integers: bf16 `a + a` adds bit patterns, `<` compares
them, max/min/sum reduce them; there is no bf16 constant; its float conversions
(_convert_float) round by one cut-off bit, carry the significand into the
exponent and know nothing of e4m3's encoding. `apply()` patches the interpreter
(once per process) so that:
  - every floating-point computation on bf16/fp8 operands runs on their float32
    values and rounds the result back (to nearest even, through torch);
  - every conversion with a float on either side goes through torch's, which are
    IEEE-correct for every dtype here (float -> int truncates toward zero);
  - bf16 constants exist;
  - the interpreter's fast reductions and scans (numpy sum/max/min/cumsum on the
    stored bits) give way to the generic path, which combines through the
    patched operations;
  - atomics run here, one element after another in index order (the C++ ones
    refuse xchg on some dtypes and add bf16 bit patterns); float atomic_max /
    atomic_min are one max/min each (semantic.py splits them into integer
    atomics on the bits, and types the negative half's result as a pointer,
    which the interpreter then computes with).
"""
import numpy as np
import torch
import triton.language as tl
from triton.runtime import interpreter as I

_TORCH = {tl.int1: torch.bool, tl.int8: torch.int8, tl.int16: torch.int16,
          tl.int32: torch.int32, tl.int64: torch.int64, tl.uint8: torch.uint8,
          tl.uint16: torch.uint16, tl.uint32: torch.uint32, tl.uint64: torch.uint64,
          tl.float16: torch.float16, tl.bfloat16: torch.bfloat16, tl.float32: torch.float32,
          tl.float64: torch.float64, tl.float8e4nv: torch.float8_e4m3fn,
          tl.float8e5: torch.float8_e5m2}
_BITS = {tl.bfloat16: torch.int16, tl.float8e4nv: torch.int8, tl.float8e5: torch.int8}
_FLOAT_OPS = [n for n in dir(I.InterpreterBuilder) if n.startswith("create_f")
              and n not in ("create_fp_to_fp", "create_fp_to_si", "create_fp_to_ui",
                            "create_fp_ext", "create_fp_trunc")]
_FLOAT_OPS += ["create_maximumf", "create_minimumf", "create_maxnumf", "create_minnumf",
               "create_clampf", "create_exp", "create_exp2", "create_log", "create_log2",
               "create_sqrt", "create_rsqrt", "create_precise_sqrt", "create_precise_divf",
               "create_sin", "create_cos", "create_erf", "create_floor", "create_ceil",
               "create_select"]


def _torch_of(handle):
    """The handle's values as a torch tensor of its dtype (a copy)."""
    dtype = handle.dtype.scalar
    t = torch.from_numpy(np.array(handle.data, copy=True))
    if dtype in _BITS:
        return t.view(_BITS[dtype]).view(_TORCH[dtype])
    return t.to(_TORCH[dtype])


def _handle_of(t, dtype):
    """A TensorHandle of dtype holding torch tensor t (converted to dtype)."""
    t = t.to(_TORCH[dtype])
    if dtype in _BITS:
        data = t.view(_BITS[dtype]).numpy().view(I._get_np_dtype(dtype))
    else:
        data = t.numpy().astype(I._get_np_dtype(dtype))
    return I.TensorHandle(data, dtype)


def _convert(self, src, dst_type, *rest):
    dst = dst_type.scalar
    if not (src.dtype.scalar.is_floating() or dst.is_floating()):
        return I.TensorHandle(src.data.astype(I._get_np_dtype(dst)), dst)
    return _handle_of(_torch_of(src), dst)


def _on_floats(op):
    """op computing on float32 values where an operand is bf16 or fp8."""
    def wrapped(self, *args):
        narrow = {a.dtype.scalar for a in args if isinstance(a, I.TensorHandle)
                  and a.dtype.scalar in _BITS}
        if not narrow:
            return op(self, *args)
        wide = [_handle_of(_torch_of(a), tl.float32)
                if isinstance(a, I.TensorHandle) and a.dtype.scalar in _BITS else a for a in args]
        out = op(self, *wide)
        # a comparison's handle keeps its operands' dtype over boolean data
        if (isinstance(out, I.TensorHandle) and out.dtype.scalar == tl.float32
                and np.issubdtype(out.data.dtype, np.floating)):
            return _handle_of(torch.from_numpy(out.data), narrow.pop())
        return out
    return wrapped


def _generic_unless_narrow(cls, generic):
    """cls.apply_impl, taking the generic (combine-function) path for bf16/fp8."""
    fast = cls.apply_impl

    def apply_impl(self, input):
        if any(t.dtype.scalar in _BITS for t in input):
            if cls is I.ScanOps and self.reverse:
                flipped = [self.to_tensor(np.flip(t.handle.data, axis=self.axis), t.dtype)
                           for t in input]
                ret = generic(self, flipped)
                for t in ret:
                    t.handle.data = np.flip(t.handle.data, axis=self.axis)
                return ret
            return generic(self, input)
        return fast(self, input)
    return apply_impl


def _rmw_value(op, dtype, old, val):
    """The value an atomic `op` leaves where `old` was (1-element numpy arrays)."""
    A = I._ir.ATOMIC_OP
    if op == A.XCHG:
        return val
    if dtype.is_floating():
        a, b = (_torch_of(I.TensorHandle(x, dtype)).double() for x in (old, val))
        r = {A.FADD: a + b, A.MAX: torch.maximum(a, b), A.MIN: torch.minimum(a, b)}[op]
        return _handle_of(r, dtype).data
    fn = {A.ADD: np.add, A.AND: np.bitwise_and, A.OR: np.bitwise_or, A.XOR: np.bitwise_xor,
          A.MAX: np.maximum, A.UMAX: np.maximum, A.MIN: np.minimum, A.UMIN: np.minimum}[op]
    return fn(old, val).astype(old.dtype)


def _atomic(handle, ptr, mask, update):
    """Sequential atomics: for each element i whose mask is set, old[i] = *ptr[i]
    and *ptr[i] = update(i, old[i]); returns the old values."""
    dtype = handle.dtype.scalar
    np_t = I._get_np_dtype(dtype)
    ptrs = ptr.data.reshape(-1)
    on = np.broadcast_to(mask.data, ptr.data.shape).reshape(-1) if mask is not None else None
    old = np.zeros(ptrs.size, np_t)
    one = np.ones(1, np.bool_)
    for i in range(ptrs.size):
        if on is not None and not on[i]:
            continue
        cur = I._interpreter.load(ptrs[i:i + 1], one, np.zeros(1, np_t), np_t)
        old[i] = cur[0]
        I._interpreter.store(ptrs[i:i + 1], update(i, cur), one)
    return I.TensorHandle(old.reshape(ptr.data.shape), dtype)


def _atomic_rmw(self, op, ptr, val, mask, sem, scope):
    vals = val.data.reshape(-1)
    return _atomic(val, ptr, mask,
                   lambda i, cur: _rmw_value(op, val.dtype.scalar, cur, vals[i:i + 1]))


def _atomic_cas(self, ptr, cmp, val, sem, scope):
    cmps, vals = cmp.data.reshape(-1), val.data.reshape(-1)
    return _atomic(val, ptr, None, lambda i, cur: vals[i:i + 1] if
                   cur.tobytes() == cmps[i:i + 1].tobytes() else cur)


def _float_minmax(name, op):
    """TritonSemantic.atomic_max/min, one float max/min for float values."""
    from triton.language.semantic import TritonSemantic
    integer = getattr(TritonSemantic, name)

    def atomic(self, ptr, val, mask, sem, scope):
        ptr, val, mask = self.atom_red_typechecking_impl(ptr, val, mask, name[7:])
        if not val.type.scalar.is_floating():
            return integer(self, ptr, val, mask, sem, scope)
        return self.tensor(self.builder.create_atomic_rmw(op, ptr.handle, val.handle, mask.handle,
                                                          None, None), val.type)
    return atomic


_applied = []


def apply():
    """Patch the interpreter (idempotent)."""
    if _applied:
        return
    _applied.append(True)
    B = I.InterpreterBuilder
    for name in ("cast_impl", "create_fp_to_fp"):
        setattr(B, name, _convert)
    for name in ("create_si_to_fp", "create_ui_to_fp", "create_fp_to_si", "create_fp_to_ui",
                 "create_fp_ext", "create_fp_trunc"):
        setattr(B, name, lambda self, src, dst_type: _convert(self, src, dst_type))
    for name in sorted(set(_FLOAT_OPS)):
        setattr(B, name, _on_floats(getattr(B, name)))
    from triton.language.semantic import TritonSemantic
    TritonSemantic.atomic_max = _float_minmax("atomic_max", I._ir.ATOMIC_OP.MAX)
    TritonSemantic.atomic_min = _float_minmax("atomic_min", I._ir.ATOMIC_OP.MIN)
    B.create_atomic_rmw = _atomic_rmw
    B.create_atomic_cas = _atomic_cas
    B.get_bf16 = lambda self, value: _handle_of(torch.tensor([value], dtype=torch.float64),
                                                tl.bfloat16)
    I.ReduceOps.apply_impl = _generic_unless_narrow(I.ReduceOps, I.ReduceOps.generic_reduce)
    I.ScanOps.apply_impl = _generic_unless_narrow(I.ScanOps, I.ScanOps.generic_scan)
