# Gluon's classes as values: isinstance with Triton 3.6's hierarchy on
# tensors, shared-memory descriptors, tuples, tensor descriptors, their
# types, dtypes and layouts; type objects constructed as kernels construct
# them and compared with the types of values (every assertion also holds
# in Triton 3.6).
# RUN: %glc %s -n values -s "*fp32" -c -o %t.o
# RUN: %glc %s -n smem_types -s "*fp32" -c -o %t.o
# RUN: %glc %s -n tuples -s "*fp32" -c -o %t.o
# RUN: %glc %s -n descs -s "tensordesc<fp16[64,64]>, *fp32" -c -o %t.o
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language._layouts import DistributedLayout, SharedLayout
from triton.experimental.gluon.language.nvidia.hopper import tma
from triton.experimental.gluon.language.nvidia.hopper.tma import tensor_descriptor, tensor_descriptor_type

B: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
L: gl.constexpr = gl.BlockedLayout([1, 1], [1, 32], [4, 1], [1, 0])
S: gl.constexpr = gl.SwizzledSharedLayout(1, 1, 1, [1, 0])


@gluon.jit
def pair(x):
    return x, x + 1


@gluon.jit
def values(p):
    x = gl.arange(0, 128, layout=B)
    pid = gl.program_id(0)
    t = pair(x)
    # value classes
    gl.static_assert(isinstance(x, gl.tensor) and isinstance(x, gl.base_value))
    gl.static_assert(isinstance(p, gl.tensor) and isinstance(pid, gl.tensor))
    gl.static_assert(not isinstance(x, gl.tuple) and not isinstance(x, gl.shared_memory_descriptor))
    gl.static_assert(isinstance(t, gl.tuple) and isinstance(t, gl.base_value))
    gl.static_assert(isinstance((1, 2), gl.tuple) and isinstance([1, 2], gl.tuple))
    gl.static_assert(not isinstance(4, gl.base_value) and not isinstance(4, gl.tensor))
    # type classes
    gl.static_assert(isinstance(x.type, gl.distributed_type) and isinstance(x.type, gl.block_type))
    gl.static_assert(isinstance(x.type, gl.dtype) and isinstance(x.type, gl.base_type))
    gl.static_assert(isinstance(pid.type, gl.dtype) and not isinstance(pid.type, gl.block_type))
    gl.static_assert(pid.type == gl.int32 and gl.int32 == pid.type)
    gl.static_assert(isinstance(p.type, gl.pointer_type) and isinstance(p.dtype, gl.pointer_type))
    gl.static_assert(isinstance(p.dtype, gl.dtype) and not isinstance(x.dtype, gl.pointer_type))
    gl.static_assert(isinstance(x.dtype, gl.dtype) and not isinstance(x.dtype, gl.block_type))
    gl.static_assert(isinstance(gl.float16, gl.dtype) and isinstance(gl.float16, gl.base_type))
    gl.static_assert(isinstance(t.type, gl.tuple_type) and isinstance(t.type, gl.base_type))
    gl.static_assert(t.type == gl.tuple_type([x.type, x.type]))
    gl.static_assert(t.type != gl.tuple_type([x.type, x.to(gl.float32).type]))
    # layout base classes
    gl.static_assert(isinstance(B, DistributedLayout) and not isinstance(B, SharedLayout))
    gl.static_assert(isinstance(S, SharedLayout) and not isinstance(S, DistributedLayout))
    gl.static_assert(isinstance(gl.SliceLayout(0, L), DistributedLayout))
    gl.static_assert(isinstance(gl.NVMMASharedLayout(128, 16, 2), SharedLayout))
    # constructed types and their equality
    gl.static_assert(x.type == gl.distributed_type(gl.int32, [128], B))
    gl.static_assert(x.type == gl.distributed_type(gl.int32, [128], gl.BlockedLayout([1], [32], [4], [0])))
    gl.static_assert(x.type != gl.distributed_type(gl.float32, [128], B))
    gl.static_assert(x.type != gl.distributed_type(gl.int32, [128], gl.BlockedLayout([2], [32], [4], [0])))
    gl.static_assert(x.type.with_element_ty(gl.float32) == x.to(gl.float32).type)
    gl.static_assert(x.type.with_element_ty(gl.float32) == gl.distributed_type(gl.float32, [128], B))
    gl.static_assert(gl.distributed_type(gl.int32, [128], B).element_ty == gl.int32)
    gl.static_assert(gl.distributed_type(gl.int32, [128], B).layout == B)
    # a block_type equals only a block_type: Triton's distributed_type.__eq__
    gl.static_assert(x.type != gl.block_type(gl.int32, [128]))
    gl.static_assert(gl.block_type(gl.int32, [128]) != x.type)
    gl.static_assert(gl.block_type(gl.int32, [128]) == gl.block_type(gl.int32, [128]))
    gl.static_assert(gl.block_type(gl.int32, [128]).shape == [128])
    gl.static_assert(isinstance(gl.block_type(gl.int32, [128]), gl.block_type))
    gl.static_assert(not isinstance(gl.block_type(gl.int32, [128]), gl.distributed_type))
    gl.static_assert(p.dtype == gl.pointer_type(gl.float32) and p.type == gl.pointer_type(gl.float32))
    gl.static_assert(p.dtype != gl.pointer_type(gl.float16) and p.dtype != gl.float32)
    gl.static_assert(gl.pointer_type(gl.float32).element_ty == gl.float32)
    gl.static_assert(isinstance(gl.pointer_type(gl.float32), gl.dtype))
    # dtypes by name, and void
    gl.static_assert(gl.dtype("fp16") == gl.float16 and gl.dtype("int1") == gl.int1)
    gl.static_assert(gl.void != gl.float32 and gl.void == gl.void and gl.dtype("void") == gl.void)
    gl.static_assert(isinstance(gl.void, gl.dtype) and x.dtype != gl.void)
    gl.store(p + x, x.to(gl.float32))


@gluon.jit
def smem_types(p):
    buf = gl.allocate_shared_memory(gl.float32, [4, 32], S)
    bufs = gl.allocate_shared_memory(gl.float32, [2, 4, 32], S)
    gl.static_assert(isinstance(buf, gl.shared_memory_descriptor) and isinstance(buf, gl.base_value))
    gl.static_assert(not isinstance(buf, gl.tensor))
    gl.static_assert(isinstance(buf.type, gl.shared_memory_descriptor_type))
    gl.static_assert(isinstance(buf.type, gl.base_type) and not isinstance(buf.type, gl.dtype))
    gl.static_assert(buf.type == gl.shared_memory_descriptor_type(gl.float32, [4, 32], S, [4, 32]))
    # alloc_shape: .index starts it again, .slice keeps it
    gl.static_assert(bufs.index(1).type == buf.type)
    gl.static_assert(bufs.index(1).type == gl.shared_memory_descriptor_type(gl.float32, [4, 32], S, [4, 32]))
    gl.static_assert(buf.slice(0, 2).type == gl.shared_memory_descriptor_type(gl.float32, [2, 32], S, [4, 32]))
    gl.static_assert(buf.slice(0, 2).type != gl.shared_memory_descriptor_type(gl.float32, [2, 32], S, [2, 32]))
    # as Triton's own tests call gl.bank_conflicts
    gl.static_assert(gl.bank_conflicts(gl.distributed_type(gl.float32, [4, 32], L),
                                       gl.shared_memory_descriptor_type(gl.float32, [4, 32], S, [4, 32])) == 0)
    gl.static_assert(gl.bank_conflicts(gl.distributed_type(gl.float32, [4, 32], L), buf.type) == 0)
    buf.store(gl.full([4, 32], 1.0, gl.float32, layout=L))
    r = gl.arange(0, 4, layout=gl.SliceLayout(1, L))
    c = gl.arange(0, 32, layout=gl.SliceLayout(0, L))
    gl.store(p + r[:, None] * 32 + c[None, :], buf.load(L))


@gluon.jit
def descs(desc, p):
    gl.static_assert(isinstance(desc, tensor_descriptor) and isinstance(desc, gl.base_value))
    gl.static_assert(isinstance(desc, tma.tensor_descriptor) and not isinstance(desc, gl.tensor))
    gl.static_assert(isinstance(desc.type, tensor_descriptor_type))
    gl.static_assert(isinstance(desc.type, gl.base_type) and not isinstance(desc.type, gl.dtype))
    gl.static_assert(isinstance(desc.block_type, gl.block_type))
    gl.static_assert(not isinstance(desc.block_type, gl.distributed_type))
    gl.static_assert(desc.block_type == gl.block_type(gl.float16, [64, 64]))
    gl.static_assert(desc.block_type.nbytes == 8192 and desc.block_type.shape == [64, 64])
    gl.store(p, 1.0)


@gluon.jit
def tuples(p):
    x = gl.arange(0, 128, layout=B)
    t = gl.tuple([x, x + 1])
    gl.static_assert(isinstance(t, gl.tuple) and len(t) == 2)
    gl.static_assert(t.type == pair(x).type)
    gl.store(p + x, (t[0] + t[1]).to(gl.float32))
