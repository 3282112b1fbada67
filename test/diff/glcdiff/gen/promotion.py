"""The generator's dtype rules: the dtype Triton 3.6 gives a binary operator or a
reduction over its operands' dtypes, and the cases where glc's differs
(found/003-promotion-differs-from-triton.gl). base_ops.py asks result_dtype and
reduce_dtype, which answer None where Triton rejects the operation or, while the
promotion_quirks feature is off, where the two compilers disagree.
"""
from glcdiff.dtypes import DTYPES, is_float, is_int
from glcdiff.gen.features import enabled

# dtype.kind() in Triton 3.6: signed and unsigned integers are one kind.
KIND = {"bool": 0, "uint": 1, "int": 1, "float": 2}


def _computation(a, b, b_lit, div_or_mod):
    """Triton 3.6's computation_type_impl for tensor a and operand b (b_lit: b is
    a Python literal of b's kind); None where Triton raises."""
    da = DTYPES[a]
    lit = "f32" if b_lit and is_float(b) else ("i32" if b_lit else b)
    if b_lit and KIND[DTYPES[lit].kind] <= KIND[da.kind]:
        return "f32" if div_or_mod and a in ("f16", "bf16") else a
    s = {a, lit}
    if "f64" in s:
        return "f64"
    if "f32" in s:
        return "f32"
    if "f16" in s:
        return "f32" if div_or_mod else "f16"
    if s == {"bf16"}:
        return "f32" if div_or_mod else "bf16"
    if "bf16" in s:
        return "f32"
    if a.startswith("f8") and lit.startswith("f8"):
        return a if a == lit else "f16"
    db = DTYPES[lit]
    if not (is_int(a) and is_int(lit)):
        return None
    if da.kind == db.kind:
        return a if da.bits > db.bits else lit
    if div_or_mod:
        return None
    if da.kind == "uint":
        return a if da.bits >= db.bits else lit
    return lit if db.bits >= da.bits else a


def triton_dtype(op, a, b, b_lit=False):
    """The dtype Triton 3.6 gives `a op b`. gl.maximum/minimum turn literals into
    i32/f32 tensors and bf16 into f32 first; / and % on 16-bit floats are f32."""
    if op in ("maximum", "minimum"):
        a = "f32" if a == "bf16" else a
        b = ("f32" if is_float(b) else "i32") if b_lit else ("f32" if b == "bf16" else b)
        return _computation(a, b, False, False)
    return _computation(a, b, b_lit, op in ("/", "%", "//"))


def glc_dtype(op, a, b, b_lit=False):
    """The dtype glc gives `a op b` where it is known to differ from Triton
    (found/003-promotion-differs-from-triton.gl); else Triton's."""
    if b_lit:
        return a
    if op == "/" and a == b and a in ("f16", "bf16"):
        return a
    if op in ("maximum", "minimum") and a == b:
        return a
    if {a, b} & {"bf16"} and (is_int(a) or is_int(b)):
        return "bf16"
    if {a, b} == {"f16", "bf16"}:
        return "f32"
    return triton_dtype(op, a, b, b_lit)


def result_dtype(op, a, b, b_lit=False):
    """Triton's dtype of `a op b`, or None when Triton rejects it or (unless the
    promotion_quirks feature is on) glc types it differently."""
    t = triton_dtype(op, a, b, b_lit)
    if t is not None and not enabled("promotion_quirks") and glc_dtype(op, a, b, b_lit) != t:
        return None
    return t


def reduce_dtype(kind, dtype):
    """Triton's result dtype of gl.sum/max/min over dtype, or None as above."""
    d = DTYPES[dtype]
    if kind == "sum":
        return ("i32" if d.kind == "int" else "u32") if is_int(dtype) and d.bits < 32 else dtype
    if d.bits >= 32:
        return dtype
    if not enabled("promotion_quirks"):
        return None
    return "f32" if is_float(dtype) else "i32"
