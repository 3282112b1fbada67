# Misuses of Gluon's classes that Triton 3.6 rejects too: constructing a
# value class, dtype names that are not Triton's, a distributed_type over a
# shared layout, a block_type (no layout) where a distributed_type is
# needed, a pointer type of another address space.
# RUN: %glc %s -n misuse -s "*fp32" --verify-diagnostics -o /dev/null
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

B: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
S: gl.constexpr = gl.SwizzledSharedLayout(1, 1, 1, [0])


@gluon.jit
def misuse(p):
    x = gl.arange(0, 128, layout=B)
    # expected-error@+1 {{gl.tensor cannot be called in a kernel}}
    y = gl.tensor(x)
    # expected-error@+1 {{gl.dtype: 'float16' is not a dtype name glc supports (Triton's names: int1}}
    a: gl.constexpr = gl.dtype("float16")
    # expected-error@+1 {{gl.distributed_type's layout must be a distributed layout, not a shared layout}}
    b: gl.constexpr = gl.distributed_type(gl.int32, [128], S)
    buf = gl.allocate_shared_memory(gl.int32, [128], S)
    # expected-error@+1 {{gl.bank_conflicts expects the register type to be a distributed_type (x.type of a register tensor), not block_type<i32, [128]>}}
    c: gl.constexpr = gl.bank_conflicts(gl.block_type(gl.int32, [128]), buf.type)
    # expected-error@+1 {{glc's pointers are global (address_space=1) and not const}}
    d: gl.constexpr = gl.pointer_type(gl.float32, 3)
    # expected-error@+1 {{has no attribute 'layout'}}
    e: gl.constexpr = gl.block_type(gl.int32, [128]).layout
    gl.store(p + x, x.to(gl.float32))
