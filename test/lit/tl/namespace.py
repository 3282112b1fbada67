# triton.language is a namespace of its own: a tl kernel reaches tl's names
# with Triton 3.6's signatures, and the diagnostics name tl. Gluon's names
# are not tl's (tl.convert_layout is no member); the standard library
# (tl.softmax, tl.math, libdevice) is there.
# RUN: %glc %s --split-input-file --verify-diagnostics -n k -s "*fp32, 128" --emit=ir -o /dev/null
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    # expected-error@+1 {{'tl' has no member 'convert_layout'}}
    tl.convert_layout(r, None)

# -----
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    # expected-error@+1 {{tl.load has no parameter 'layout'}}
    tl.load(x_ptr + r, layout=None)

# -----
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    # expected-error@+1 {{tl.load: 'other' needs a mask}}
    tl.load(x_ptr + r, other=1.0)

# -----
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r)
    # expected-error@+1 {{tl.reshape: dimension 0 is 3; every dimension must be a power of two}}
    tl.reshape(x, (3, 4))

# -----
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    # expected-error@+1 {{tl.dot_scaled is not supported by glc: Hopper has no scaled MMA}}
    tl.dot_scaled(x_ptr, x_ptr, "e4m3", x_ptr, x_ptr, "e4m3")

# -----
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r).to(tl.float16)
    # expected-error@+1 {{libdevice.tanh has no variant for arguments (f16); it takes (f32), (f64)}}
    libdevice.tanh(x)

# -----
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r)
    y = tl.softmax(x) + tl.math.exp(x) + tl.sigmoid(x) + x.sigmoid() + tl.extra.cuda.libdevice.erfinv(x)
    tl.store(x_ptr + r, y)

# -----
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    # expected-error@+1 {{tl.reduce's combine_fn must be a @triton.jit function, not an integer}}
    tl.reduce(r, 0, 3)

# -----
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    # expected-error@+1 {{tl.map_elementwise maps a @triton.jit function, not an integer}}
    tl.map_elementwise(3, r)

# -----
# tl.standard's names for the builtins Triton's standard.py defines too;
# a tuple of runtime values is a tl.tuple.
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r)
    pair = (x, r)
    tl.static_assert(isinstance(pair, tl.tuple))
    s = tl.standard.sum(x, 0) + tl.standard.max(x, 0) + tl.standard.min(x, 0)
    c = tl.standard.cumsum(x, 0) + tl.standard.cumprod(x, 0) + tl.standard.zeros_like(x)
    i = tl.standard.xor_sum(r, 0) + tl.standard.reduce_or(r, 0) + tl.standard.cdiv(BLOCK, 4)
    tl.store(x_ptr + r, tl.standard.ravel(c) + s + i + tl.standard.zeros([BLOCK], tl.float32))
