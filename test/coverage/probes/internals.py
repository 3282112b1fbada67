# Probes of the hooks Triton's own front end uses (to_ir, mangle, the type
# property of layouts, the builtin decorator). A Gluon user meets them only
# in compile-time Python (a @constexpr_function sees the real objects).
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language._core import builtin

L2: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])


@gluon.constexpr_function
def layout_key(layout):
    return layout.mangle()


# probe-fails gl *.mangle -- -s "*fp32"
@gluon.jit
def mangle_kernel(p):
    gl.static_assert(len(layout_key(L2)) > 0)
    gl.store(p, 1.0)


@gluon.constexpr_function
def ir_of(ty):
    return ty.to_ir(None)


# probe-fails gl *.to_ir -- -s "*fp32"
@gluon.jit
def to_ir_kernel(p):
    x = gl.full([32, 16], 1.0, gl.float32, layout=L2)
    gl.static_assert(ir_of(x.type) is not None)
    gl.store(p, 1.0)


@gluon.constexpr_function
def layout_type(layout):
    return layout.type


# probe-fails gl._layouts DistributedLayout.type -- -s "*fp32"
@gluon.jit
def distributed_type_property_kernel(p):
    gl.static_assert(layout_type(L2) is not None)
    gl.store(p, 1.0)


# probe-fails gl._layouts SharedLayout.type -- -s "*fp32"
@gluon.jit
def shared_type_property_kernel(p):
    gl.static_assert(layout_type(gl.SwizzledSharedLayout(1, 1, 1, [0])) is not None)
    gl.store(p, 1.0)


@builtin
def twice(x, _semantic=None):
    return _semantic.add(x, x, True)


# probe-fails gl._core builtin -- -s "*fp32"
@gluon.jit
def builtin_kernel(p):
    x = gl.full([128], 1.0, gl.float32, layout=gl.BlockedLayout([1], [32], [4], [0]))
    gl.store(p + gl.arange(0, 128, layout=gl.BlockedLayout([1], [32], [4], [0])), twice(x))
