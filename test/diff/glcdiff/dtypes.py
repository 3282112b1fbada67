"""The element types the differential tester uses, one row per dtype.

Each row gives glc's spelling (the key), Gluon's (`gl.<gluon>`), torch's
(`torch.<torch>`), the width in bits, the kind ("bool", "int", "uint" or
"float"), and for floats the significand precision (bits, with the implicit
one) and the largest finite value. The generator reasons about exactness with
these numbers; the translator and the GPU runner map names with them.
"""
from collections import namedtuple

DType = namedtuple("DType", "name gluon torch bits kind precision max")

_ROWS = [
    DType("i1", "int1", "bool", 1, "bool", 0, 1),
    DType("i8", "int8", "int8", 8, "int", 0, 2**7 - 1),
    DType("i16", "int16", "int16", 16, "int", 0, 2**15 - 1),
    DType("i32", "int32", "int32", 32, "int", 0, 2**31 - 1),
    DType("i64", "int64", "int64", 64, "int", 0, 2**63 - 1),
    DType("u8", "uint8", "uint8", 8, "uint", 0, 2**8 - 1),
    DType("u16", "uint16", "uint16", 16, "uint", 0, 2**16 - 1),
    DType("u32", "uint32", "uint32", 32, "uint", 0, 2**32 - 1),
    DType("u64", "uint64", "uint64", 64, "uint", 0, 2**64 - 1),
    DType("f16", "float16", "float16", 16, "float", 11, 65504.0),
    DType("bf16", "bfloat16", "bfloat16", 16, "float", 8, 3.38e38),
    DType("f32", "float32", "float32", 32, "float", 24, 3.4e38),
    DType("f64", "float64", "float64", 64, "float", 53, 1.7e308),
    DType("f8e4m3", "float8e4nv", "float8_e4m3fn", 8, "float", 4, 448.0),
    DType("f8e5m2", "float8e5", "float8_e5m2", 8, "float", 3, 57344.0),
]

DTYPES = {d.name: d for d in _ROWS}

# Every spelling glc accepts after `gl.` -> the canonical (short) name.
SPELLINGS = {d.name: d.name for d in _ROWS}
SPELLINGS.update({d.gluon: d.name for d in _ROWS})


def is_int(name):
    """True for signed and unsigned integers (not i1)."""
    return DTYPES[name].kind in ("int", "uint")


def is_float(name):
    """True for the floating-point dtypes (f8 to f64)."""
    return DTYPES[name].kind == "float"


def int_range(name):
    """The [min, max] of an integer (or i1) dtype."""
    d = DTYPES[name]
    if d.kind == "int":
        return -(d.max + 1), d.max
    return 0, d.max
