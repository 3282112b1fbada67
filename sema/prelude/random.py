# glc's tl prelude: triton.language's random numbers (tl.random), written
# in tl. Philox 4x32-10 (Salmon et al., "Parallel random numbers: as easy
# as 1, 2, 3", SC 2011; 4x64 for 64-bit counters) with Triton 3.6's
# conventions, so that a seed and offsets give the bits Triton gives: the
# key is the seed's low and high 32 bits, the counter (offset low, offset
# high, 0, 0); uniform floats from the signed 32-bit value folded to
# [0, 2^31) times 2^-31 (rounded to stay below 1); normal ones by Box and
# Muller. The code is glc's.
import triton
import triton.language as tl

N_ROUNDS_DEFAULT = tl.constexpr(10)


@triton.constexpr_function
def _philox_constants(bits):
    # the Weyl increments of the key and the round multipliers
    if bits == 32:
        return (0x9E3779B9, 0xBB67AE85, 0xD2511F53, 0xCD9E8D57)
    return (0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B, 0xD2E7470EE14C6C93, 0xCA5A826395121157)


@triton.jit
def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    tl.static_assert(c0.dtype == tl.uint32 or c0.dtype == tl.uint64,
                     "philox_impl takes uint32 or uint64 counters")
    inc0, inc1, mul0, mul1 = _philox_constants(c0.dtype.primitive_bitwidth)
    for _ in tl.static_range(n_rounds):
        a, b = c0, c2
        c0 = tl.umulhi(mul1, b) ^ c1 ^ k0
        c2 = tl.umulhi(mul0, a) ^ c3 ^ k1
        c1 = tl.mul(mul1, b, sanitize_overflow=False)
        c3 = tl.mul(mul0, a, sanitize_overflow=False)
        k0 = tl.add(k0, inc0, sanitize_overflow=False)
        k1 = tl.add(k1, inc1, sanitize_overflow=False)
    return c0, c1, c2, c3


@triton.jit
def philox(seed, c0, c1, c2, c3, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    key = tl.core.to_tensor(seed)
    tl.static_assert(key.dtype.is_int(), "philox's seed is an integer")
    key = key.to(tl.uint64)
    c0 = tl.core.to_tensor(c0)
    c1 = tl.core.to_tensor(c1)
    c2 = tl.core.to_tensor(c2)
    c3 = tl.core.to_tensor(c3)
    if c0.dtype.primitive_bitwidth == 32:
        word = tl.uint32
        hi = ((key >> 32) & 0xFFFFFFFF).to(tl.uint32)
        lo = (key & 0xFFFFFFFF).to(tl.uint32)
    else:
        tl.static_assert(c0.dtype.primitive_bitwidth == 64, "philox takes 32- or 64-bit counters")
        word = tl.uint64
        hi = tl.full((1, ), 0, dtype=tl.uint64)
        lo = key
    return philox_impl(c0.to(word, bitcast=True), c1.to(word, bitcast=True),
                       c2.to(word, bitcast=True), c3.to(word, bitcast=True), lo, hi, n_rounds)


@triton.jit
def randint4x(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    lo = offset.to(tl.uint32)
    zero = lo * 0
    if offset.dtype.primitive_bitwidth > 32:
        hi = (offset >> 32).to(tl.uint32)
    else:
        hi = zero
    return philox(seed, lo, hi, zero, zero, n_rounds)


@triton.jit
def randint(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    r0, r1, r2, r3 = randint4x(seed, offset, n_rounds)
    return r0


@triton.jit
def uint_to_uniform_float(x):
    if x.dtype == tl.uint32 or x.dtype == tl.int32:
        v = x.to(tl.int32, bitcast=True)
        scale = 4.6566127342e-10
    else:
        tl.static_assert(x.dtype == tl.uint64 or x.dtype == tl.int64,
                         "uint_to_uniform_float takes 32- or 64-bit integers")
        v = x.to(tl.int64, bitcast=True)
        scale = 1.0842020432385337e-19
    # the negative half folded onto [0, 2^(bits-1))
    v = tl.where(v < 0, -v - 1, v)
    return v * scale


@triton.jit
def rand(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    return uint_to_uniform_float(randint(seed, offset, n_rounds))


@triton.jit
def rand4x(seed, offsets, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    r0, r1, r2, r3 = randint4x(seed, offsets, n_rounds)
    return (uint_to_uniform_float(r0), uint_to_uniform_float(r1), uint_to_uniform_float(r2),
            uint_to_uniform_float(r3))


@triton.jit
def pair_uniform_to_normal(u1, u2):
    u1 = tl.maximum(1.0e-7, u1)
    angle = 6.283185307179586 * u2
    radius = tl.sqrt(-2.0 * tl.log(u1))
    return radius * tl.cos(angle), radius * tl.sin(angle)


@triton.jit
def randn(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    r0, r1, r2, r3 = randint4x(seed, offset, n_rounds)
    n0, n1 = pair_uniform_to_normal(uint_to_uniform_float(r0), uint_to_uniform_float(r1))
    return n0


@triton.jit
def randn4x(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    u0, u1, u2, u3 = rand4x(seed, offset, n_rounds)
    n0, n1 = pair_uniform_to_normal(u0, u1)
    n2, n3 = pair_uniform_to_normal(u2, u3)
    return n0, n1, n2, n3
