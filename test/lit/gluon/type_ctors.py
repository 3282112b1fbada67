# tma.tensor_descriptor_type(block_type, shape_type, strides_type, layout)
# and gl.tuple_type(types, fields) build types that compare as Gluon's:
# a descriptor type equals desc.type when its parts do (shape_type and
# strides_type: an i32 and an i64 per block dim), tuple types compare their
# field names too (none reads as all ""). The misuses are errors.
# RUN: %glc %s -n k -s "tensordesc<fp16[64,64]>, *i32" -c -o %t.o
# RUN: %glc %s -n misuse -s "tensordesc<fp16[64,64]>, *i32" --verify-diagnostics -o /dev/null
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import tma


@gluon.jit
def k(desc, p):
    t: gl.constexpr = tma.tensor_descriptor_type(desc.block_type, desc.type.shape_type, desc.type.strides_type, desc.layout)
    gl.static_assert(desc.type == t)
    u: gl.constexpr = tma.tensor_descriptor_type(gl.block_type(gl.float16, [64, 64]), gl.tuple_type([gl.int32, gl.int32]), gl.tuple_type([gl.int64, gl.int64]), gl.NVMMASharedLayout.get_default_for([64, 64], gl.float16))
    gl.static_assert(desc.type == u)
    v: gl.constexpr = tma.tensor_descriptor_type(gl.block_type(gl.float16, [64, 32]), gl.tuple_type([gl.int32, gl.int32]), gl.tuple_type([gl.int64, gl.int64]), gl.NVMMASharedLayout.get_default_for([64, 32], gl.float16))
    gl.static_assert(desc.type != v)
    gl.static_assert(isinstance(u, tma.tensor_descriptor_type))
    a: gl.constexpr = gl.tuple_type([gl.int32, gl.float32], fields=["x", "y"])
    b: gl.constexpr = gl.tuple_type([gl.int32, gl.float32], ["x", "y"])
    c: gl.constexpr = gl.tuple_type([gl.int32, gl.float32])
    d: gl.constexpr = gl.tuple_type([gl.int32, gl.float32], fields=["", ""])
    gl.static_assert(a == b)
    gl.static_assert(a != c)
    gl.static_assert(c == d)
    gl.static_assert(isinstance(a, gl.tuple_type))
    gl.store(p, 1)


@gluon.jit
def misuse(desc, p):
    # expected-error@+1 {{tma.tensor_descriptor_type's block_type must be a gl.block_type of numbers (desc.block_type), not a dtype}}
    a: gl.constexpr = tma.tensor_descriptor_type(gl.float16, desc.type.shape_type, desc.type.strides_type, desc.layout)
    # expected-error@+1 {{tma.tensor_descriptor_type: glc's descriptors of rank 2 have shape_type gl.tuple_type([gl.int32] * 2) and strides_type gl.tuple_type([gl.int64] * 2)}}
    b: gl.constexpr = tma.tensor_descriptor_type(desc.block_type, desc.type.strides_type, desc.type.strides_type, desc.layout)
    # expected-error@+1 {{gl.tuple_type's fields must be a list of 2 names, one per type}}
    c: gl.constexpr = gl.tuple_type([gl.int32, gl.int32], fields=["x"])
    # expected-error@+1 {{gl.tuple_type: a field name must be a string, not an integer}}
    d: gl.constexpr = gl.tuple_type([gl.int32, gl.int32], fields=["x", 1])
    gl.store(p, 1)
