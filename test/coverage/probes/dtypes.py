# Probes of the dtypes of gl: each kernel makes a tensor of the dtype by name,
# checks its dtype and stores it through a pointer of that type.
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

L: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])

# probe gl int1 -- -s "*i1"
@gluon.jit
def int1_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.int1, layout=L)
    gl.static_assert(v.dtype == gl.int1)
    gl.store(p + offs, v)

# probe gl int8 -- -s "*i8"
@gluon.jit
def int8_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.int8, layout=L)
    gl.static_assert(v.dtype == gl.int8)
    gl.store(p + offs, v)

# probe gl int16 -- -s "*i16"
@gluon.jit
def int16_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.int16, layout=L)
    gl.static_assert(v.dtype == gl.int16)
    gl.store(p + offs, v)

# probe gl int32 -- -s "*i32"
@gluon.jit
def int32_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.int32, layout=L)
    gl.static_assert(v.dtype == gl.int32)
    gl.store(p + offs, v)

# probe gl int64 -- -s "*i64"
@gluon.jit
def int64_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.int64, layout=L)
    gl.static_assert(v.dtype == gl.int64)
    gl.store(p + offs, v)

# probe gl uint8 -- -s "*u8"
@gluon.jit
def uint8_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.uint8, layout=L)
    gl.static_assert(v.dtype == gl.uint8)
    gl.store(p + offs, v)

# probe gl uint16 -- -s "*u16"
@gluon.jit
def uint16_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.uint16, layout=L)
    gl.static_assert(v.dtype == gl.uint16)
    gl.store(p + offs, v)

# probe gl uint32 -- -s "*u32"
@gluon.jit
def uint32_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.uint32, layout=L)
    gl.static_assert(v.dtype == gl.uint32)
    gl.store(p + offs, v)

# probe gl uint64 -- -s "*u64"
@gluon.jit
def uint64_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.uint64, layout=L)
    gl.static_assert(v.dtype == gl.uint64)
    gl.store(p + offs, v)

# probe gl float8e5 -- -s "*fp8e5"
@gluon.jit
def float8e5_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.float8e5, layout=L)
    gl.static_assert(v.dtype == gl.float8e5)
    gl.store(p + offs, v)

# probe gl float8e4nv -- -s "*fp8e4nv"
@gluon.jit
def float8e4nv_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.float8e4nv, layout=L)
    gl.static_assert(v.dtype == gl.float8e4nv)
    gl.store(p + offs, v)

# probe gl float16 -- -s "*fp16"
@gluon.jit
def float16_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.float16, layout=L)
    gl.static_assert(v.dtype == gl.float16)
    gl.store(p + offs, v)

# probe gl bfloat16 -- -s "*bf16"
@gluon.jit
def bfloat16_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.bfloat16, layout=L)
    gl.static_assert(v.dtype == gl.bfloat16)
    gl.store(p + offs, v)

# probe gl float32 -- -s "*fp32"
@gluon.jit
def float32_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.float32, layout=L)
    gl.static_assert(v.dtype == gl.float32)
    gl.store(p + offs, v)

# probe gl float64 -- -s "*fp64"
@gluon.jit
def float64_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.float64, layout=L)
    gl.static_assert(v.dtype == gl.float64)
    gl.store(p + offs, v)

# probe-fails gl float8e5b16 -- -s "*i8"
@gluon.jit
def float8e5b16_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.float8e5b16, layout=L)
    gl.store(p + offs, v.to(gl.int8, bitcast=True))

# probe-fails gl float8e4b8 -- -s "*i8"
@gluon.jit
def float8e4b8_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.float8e4b8, layout=L)
    gl.store(p + offs, v.to(gl.int8, bitcast=True))

# probe-fails gl float8e4b15 -- -s "*i8"
@gluon.jit
def float8e4b15_kernel(p):
    offs = gl.arange(0, 128, layout=L)
    v = gl.full([128], 1, gl.float8e4b15, layout=L)
    gl.store(p + offs, v.to(gl.int8, bitcast=True))
