# Probes of the type and value classes of gl: used as a Gluon user uses them,
# in isinstance tests, as annotations of @aggregate fields, constructed and
# compared with the types of values (test/lit/gluon/type_classes.py has more).
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.language.core import _aggregate as aggregate

L: gl.constexpr = gl.BlockedLayout([1, 1], [1, 32], [4, 1], [1, 0])
S: gl.constexpr = gl.SwizzledSharedLayout(1, 1, 1, [1, 0])


@aggregate
class Tile:
    data: gl.tensor
    buf: gl.shared_memory_descriptor
    scale: gl.constexpr

    @gluon.jit
    def total(self):
        return self.data + self.buf.load(L) * self.scale


# probe gl constexpr -- -s "*fp32, 4"
@gluon.jit
def constexpr_kernel(p, N: gl.constexpr):
    M: gl.constexpr = gl.constexpr(N * 2)
    gl.static_assert(M == 8)
    offs = gl.arange(0, 32 * M, layout=gl.BlockedLayout([1], [32], [4], [0]))
    gl.store(p + offs, offs.to(gl.float32))


# probe gl tensor -- -s "*fp32"
# probe gl shared_memory_descriptor -- -s "*fp32"
@gluon.jit
def aggregate_fields_kernel(p):
    r = gl.arange(0, 4, layout=gl.SliceLayout(1, L))
    c = gl.arange(0, 32, layout=gl.SliceLayout(0, L))
    offs = r[:, None] * 32 + c[None, :]
    x = gl.load(p + offs)
    buf = gl.allocate_shared_memory(gl.float32, [4, 32], S, x)
    t = Tile(x, buf, 2.0)
    gl.store(p + offs, t.total())


# probe gl tensor -- -s "*fp32"
@gluon.jit
def isinstance_tensor_kernel(p):
    x = gl.arange(0, 128, layout=gl.BlockedLayout([1], [32], [4], [0]))
    gl.static_assert(isinstance(x, gl.tensor))
    gl.store(p + x, x.to(gl.float32))


# probe gl shared_memory_descriptor -- -s "*fp32"
@gluon.jit
def isinstance_smem_kernel(p):
    buf = gl.allocate_shared_memory(gl.float32, [4, 32], S)
    gl.static_assert(isinstance(buf, gl.shared_memory_descriptor))
    gl.store(p, 1.0)


# probe gl dtype -- -s "*fp16, gl.float16"
@gluon.jit
def dtype_kernel(p, DT: gl.constexpr):
    gl.static_assert(isinstance(DT, gl.dtype))
    gl.static_assert(isinstance(p.dtype.element_ty, gl.dtype))
    offs = gl.arange(0, 128, layout=gl.BlockedLayout([1], [32], [4], [0]))
    gl.store(p + offs, gl.full([128], 1, DT, layout=gl.BlockedLayout([1], [32], [4], [0])))


# probe gl void -- -s "*fp32"
@gluon.jit
def void_kernel(p):
    gl.static_assert(gl.void != gl.float32)
    gl.static_assert(isinstance(gl.void, gl.dtype))
    gl.store(p, 1.0)


# probe gl pointer_type -- -s "*fp32"
@gluon.jit
def pointer_type_kernel(p):
    gl.static_assert(p.dtype == gl.pointer_type(gl.float32))
    gl.static_assert(isinstance(p.type, gl.pointer_type))
    gl.store(p, 7.0)


# probe gl pointer_type -- -s "*fp32"
@gluon.jit
def pointer_cast_kernel(p):
    q = p.to(gl.pointer_type(gl.int32), bitcast=True)
    gl.store(q, 7)


# probe gl pointer_type -- -s "*fp32"
@gluon.jit
def pointer_int_cast_kernel(p):
    addr = p.to(gl.int64)
    q = (addr + 4).to(gl.pointer_type(gl.float32))
    gl.store(q, 1.0, mask=p.to(gl.int1))
    offs = gl.arange(0, 128, layout=gl.BlockedLayout([1], [32], [4], [0]))
    ps = (p + offs).to(gl.int64, bitcast=True).to(gl.pointer_type(gl.float32), bitcast=True)
    gl.store(ps, 2.0)


# probe gl base_value -- -s "*fp32"
@gluon.jit
def base_value_kernel(p):
    x = gl.arange(0, 128, layout=gl.BlockedLayout([1], [32], [4], [0]))
    gl.static_assert(isinstance(x, gl.base_value))
    gl.store(p + x, x.to(gl.float32))


# probe gl base_type -- -s "*fp32"
@gluon.jit
def base_type_kernel(p):
    x = gl.arange(0, 128, layout=gl.BlockedLayout([1], [32], [4], [0]))
    gl.static_assert(isinstance(x.type, gl.base_type))
    gl.store(p + x, x.to(gl.float32))


# probe gl block_type -- -s "*fp32"
@gluon.jit
def block_type_kernel(p):
    x = gl.arange(0, 128, layout=gl.BlockedLayout([1], [32], [4], [0]))
    gl.static_assert(isinstance(x.type, gl.block_type))
    gl.store(p + x, x.to(gl.float32))


@gluon.jit
def pair(x):
    return x, x + 1


# probe gl tuple -- -s "*i32"
@gluon.jit
def tuple_kernel(p):
    x = gl.arange(0, 128, layout=gl.BlockedLayout([1], [32], [4], [0]))
    t = pair(x)
    gl.static_assert(isinstance(t, gl.tuple))
    gl.store(p + x, t[0] + t[1])


# probe gl tuple_type -- -s "*i32"
@gluon.jit
def tuple_type_kernel(p):
    x = gl.arange(0, 128, layout=gl.BlockedLayout([1], [32], [4], [0]))
    ty: gl.constexpr = gl.tuple_type([x.type, x.type])
    t = pair(x)
    gl.store(p + x, t[0] + t[1])


# probe gl tuple_type -- -s "*i32"
@gluon.jit
def named_tuple_type_kernel(p):
    a: gl.constexpr = gl.tuple_type([gl.int32, gl.float32], fields=["i", "f"])
    gl.static_assert(a == gl.tuple_type([gl.int32, gl.float32], ["i", "f"]))
    gl.static_assert(a != gl.tuple_type([gl.int32, gl.float32]))
    gl.store(p, 1)


# probe gl distributed_type -- -s "*fp32"
@gluon.jit
def distributed_type_kernel(p):
    x = gl.arange(0, 128, layout=gl.BlockedLayout([1], [32], [4], [0]))
    ty: gl.constexpr = gl.distributed_type(gl.int32, [128], gl.BlockedLayout([1], [32], [4], [0]))
    gl.static_assert(x.type == ty)
    gl.store(p + x, x.to(gl.float32))


# probe gl distributed_type.with_element_ty -- -s "*fp32"
@gluon.jit
def with_element_ty_kernel(p):
    x = gl.arange(0, 128, layout=gl.BlockedLayout([1], [32], [4], [0]))
    y = x.to(gl.float32)
    gl.static_assert(y.type == x.type.with_element_ty(gl.float32))
    gl.store(p + x, y)


# probe gl shared_memory_descriptor_type -- -s "*fp32"
@gluon.jit
def smem_type_kernel(p):
    buf = gl.allocate_shared_memory(gl.float32, [4, 32], S)
    ty: gl.constexpr = gl.shared_memory_descriptor_type(gl.float32, [4, 32], S, [4, 32])
    gl.static_assert(buf.type == ty)
    # a permuted view's type is the one Gluon infers (memdesc_trans)
    tt: gl.constexpr = gl.shared_memory_descriptor_type(
        gl.float32, [32, 4], gl.SwizzledSharedLayout(1, 1, 1, [0, 1]), [32, 4])
    gl.static_assert(buf.permute([1, 0]).type == tt)
    buf.store(gl.full([4, 32], 1.0, gl.float32, layout=L))
    r = gl.arange(0, 4, layout=gl.SliceLayout(1, L))
    c = gl.arange(0, 32, layout=gl.SliceLayout(0, L))
    gl.store(p + r[:, None] * 32 + c[None, :], buf.load(L))
