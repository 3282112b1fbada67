"""Value ranges: what the generator knows about every value it creates.

A `Range` bounds a value (`lo`..`hi`) and says whether it is *exact*: every
element is a multiple of the quantum `q` and is computed without rounding, so
any evaluation order or fusion gives the same bits in glc and in Triton. Inputs
are small multiples of a power of two; +, -, *, max, min, abs, sums and casts
keep them exact as long as the result still fits the dtype's significand.
exp, log, sqrt, rsqrt and / give inexact values, which are compared within a
tolerance, never fed to comparisons or to integer casts.
A range that does not `fit` its dtype (overflow, or an exact value that would
round) is never generated: no test depends on overflow or rounding behaviour.
"""
import math
from collections import namedtuple

from glcdiff.dtypes import DTYPES, int_range, is_float

Range = namedtuple("Range", "lo hi q exact")

# Smallest quantum per float dtype that keeps values clear of subnormals.
MIN_Q = {"f16": 2.0**-14, "bf16": 2.0**-20, "f32": 2.0**-20, "f64": 2.0**-20,
         "f8e4m3": 2.0**-6, "f8e5m2": 2.0**-14}
# Headroom below the dtype's largest value.
MARGIN = 0.25


def mag(r):
    """The largest magnitude in r."""
    return max(abs(r.lo), abs(r.hi))


def fits(dtype, r):
    """Whether every value of r is representable in dtype as described above."""
    d = DTYPES[dtype]
    if d.kind == "bool":
        return 0 <= r.lo and r.hi <= 1
    if d.kind in ("int", "uint"):
        lo, hi = int_range(dtype)
        return r.exact and lo <= r.lo and r.hi <= hi and r.lo == int(r.lo) and r.hi == int(r.hi)
    if mag(r) > d.max * MARGIN:
        return False
    if r.exact:
        return r.q >= MIN_Q[dtype] and mag(r) <= r.q * 2.0**d.precision
    return True


def const(v, dtype):
    """The range of a literal."""
    q = 1.0
    if is_float(dtype) and v != 0:
        q = 2.0 ** min(0, math.floor(math.log2(abs(v))) - 8)
        while v / q != int(v / q):
            q /= 2
    return Range(v, v, q if v else 1.0, True)


def _q(a, b):
    return min(a.q, b.q)


def add(a, b):
    """The range of a + b."""
    return Range(a.lo + b.lo, a.hi + b.hi, _q(a, b), a.exact and b.exact)


def sub(a, b):
    """The range of a - b."""
    return Range(a.lo - b.hi, a.hi - b.lo, _q(a, b), a.exact and b.exact)


def mul(a, b):
    """The range of a * b."""
    c = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
    return Range(min(c), max(c), a.q * b.q, a.exact and b.exact)


def maximum(a, b):
    """The range of maximum(a, b)."""
    return Range(max(a.lo, b.lo), max(a.hi, b.hi), _q(a, b), a.exact and b.exact)


def minimum(a, b):
    """The range of minimum(a, b)."""
    return Range(min(a.lo, b.lo), min(a.hi, b.hi), _q(a, b), a.exact and b.exact)


def union(a, b):
    """A range covering a and b (either one may be the value)."""
    return Range(min(a.lo, b.lo), max(a.hi, b.hi), _q(a, b), a.exact and b.exact)


def neg(a):
    """The range of -a."""
    return Range(-a.hi, -a.lo, a.q, a.exact)


def absolute(a):
    """The range of abs(a)."""
    lo = 0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))
    return Range(lo, mag(a), a.q, a.exact)


def inexact(lo, hi):
    """An inexact range, widened a little for rounding."""
    pad = 1e-3 * max(abs(lo), abs(hi), 1e-3)
    return Range(lo - pad, hi + pad, 0.0, False)


def scaled_sum(a, n):
    """The range of a sum of n elements of range a."""
    return Range(min(a.lo * n, a.lo), max(a.hi * n, a.hi), a.q, a.exact)


def trunc_div(a, d):
    """a // d (C truncation) for a divisor range d > 0."""
    m = mag(a) // d.lo
    lo = 0 if a.lo >= 0 else -m
    hi = 0 if a.hi <= 0 else m
    return Range(lo, hi, 1.0, True)


def trunc_mod(a, d):
    """a % d (C remainder, sign of a) for a divisor range d > 0."""
    m = d.hi - 1
    return Range(0 if a.lo >= 0 else -m, 0 if a.hi <= 0 else m, 1.0, True)


def bits_of(a):
    """[0, 2^k - 1] covering a non-negative integer range: |, ^ results."""
    return Range(0, (1 << int(a.hi).bit_length()) - 1, 1.0, True)
