# Probes of gl.shared_memory_descriptor's members: the attributes of a
# buffer and its views (index, slice, permute, reshape), loads and stores.
from triton.experimental import gluon
from triton.experimental.gluon import language as gl

L2: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
S2: gl.constexpr = gl.SwizzledSharedLayout(1, 1, 1, [1, 0])


@gluon.jit
def tile_offsets(M: gl.constexpr, N: gl.constexpr, layout: gl.constexpr):
    r = gl.arange(0, M, layout=gl.SliceLayout(1, layout))
    c = gl.arange(0, N, layout=gl.SliceLayout(0, layout))
    return r[:, None] * N + c[None, :]


# probe gl shared_memory_descriptor.dtype -- -s "*fp16"
# probe gl shared_memory_descriptor.shape -- -s "*fp16"
# probe gl shared_memory_descriptor.layout -- -s "*fp16"
@gluon.jit
def smem_attrs_kernel(p):
    buf = gl.allocate_shared_memory(gl.float16, [2, 32, 16], S2)
    gl.static_assert(buf.dtype == gl.float16)
    gl.static_assert(buf.shape == [2, 32, 16])
    gl.static_assert(buf.shape[1] == 32)
    gl.static_assert(buf.layout == S2)
    view = buf.index(1)
    view.store(gl.full(view.shape, 1.0, view.dtype, layout=L2))
    gl.store(p + tile_offsets(32, 16, L2), view.load(L2))


# probe gl shared_memory_descriptor.rank -- -s "*fp16"
@gluon.jit
def smem_rank_kernel(p):
    buf = gl.allocate_shared_memory(gl.float16, [32, 16], S2)
    gl.static_assert(buf.rank == 2)
    gl.store(p, 1.0)


# probe gl shared_memory_descriptor.numel -- -s "*fp16"
@gluon.jit
def smem_numel_kernel(p):
    buf = gl.allocate_shared_memory(gl.float16, [32, 16], S2)
    gl.static_assert(buf.numel == 512)
    gl.store(p, 1.0)


# probe gl shared_memory_descriptor.load -- -s "*fp32"
# probe gl shared_memory_descriptor.store -- -s "*fp32"
@gluon.jit
def smem_load_store_kernel(p):
    offs = tile_offsets(32, 16, L2)
    buf = gl.allocate_shared_memory(gl.float32, [32, 16], S2)
    buf.store(value=gl.load(p + offs))
    other: gl.constexpr = gl.BlockedLayout([4, 1], [4, 8], [1, 4], [0, 1])
    y = buf.load(layout=other)
    gl.store(p + tile_offsets(32, 16, other), y * 2)


# probe gl shared_memory_descriptor.index -- -s "*fp32, i32"
@gluon.jit
def smem_index_kernel(p, i):
    offs = tile_offsets(32, 16, L2)
    bufs = gl.allocate_shared_memory(gl.float32, [4, 32, 16], S2)
    bufs.index(0).store(gl.load(p + offs))
    bufs.index(i % 4).store(gl.load(p + offs) + 1)
    gl.store(p + offs, bufs.index(index=0).load(L2))


# probe gl shared_memory_descriptor.slice -- -s "*fp32"
@gluon.jit
def smem_slice_kernel(p):
    offs = tile_offsets(32, 16, L2)
    buf = gl.allocate_shared_memory(gl.float32, [64, 16], S2)
    buf.slice(0, 32).store(gl.load(p + offs))
    buf.slice(start=32, length=32, dim=0).store(gl.load(p + offs) + 1)
    gl.store(p + offs, buf.slice(32, 32).load(L2))


# probe gl shared_memory_descriptor.permute -- -s "*fp32"
@gluon.jit
def smem_permute_kernel(p):
    buf = gl.allocate_shared_memory(gl.float32, [16, 32], S2)
    t = buf.permute((1, 0))
    gl.static_assert(t.shape == [32, 16])
    t.store(gl.load(p + tile_offsets(32, 16, L2)))
    gl.store(p + tile_offsets(32, 16, L2), buf.permute(order=[1, 0]).load(L2))


# probe gl shared_memory_descriptor.reshape -- -s "*fp32"
@gluon.jit
def smem_reshape_kernel(p):
    buf = gl.allocate_shared_memory(gl.float32, [32, 16], S2)
    buf.store(gl.load(p + tile_offsets(32, 16, L2)))
    flat = buf.reshape([512])
    gl.static_assert(flat.shape == [512])
    L1: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])
    gl.store(p + gl.arange(0, 512, layout=L1), flat.reshape(shape=[512]).load(L1))


# probe gl shared_memory_descriptor.slice -- -s "*fp32"
@gluon.jit
def smem_strided_slice_kernel(p):
    buf = gl.allocate_shared_memory(gl.float32, [32, 16], S2)
    cols = buf.slice(8, 8, dim=1)
    L8: gl.constexpr = gl.BlockedLayout([1, 1], [4, 8], [4, 1], [1, 0])
    cols.store(gl.full([32, 8], 1.0, gl.float32, layout=L8))
    gl.store(p + tile_offsets(32, 8, L8), cols.load(L8))


# probe gl shared_memory_descriptor.slice -- -s "*fp16"
@gluon.jit
def smem_nvmma_slices_kernel(p):
    NV: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2)
    buf = gl.allocate_shared_memory(gl.float16, [64, 128], NV)
    buf.store(gl.load(p + tile_offsets(64, 128, L2)))
    rows = buf.slice(32, 32, dim=0)
    gl.store(p + tile_offsets(32, 128, L2), rows.load(L2))
    cols = rows.slice(32, 32, dim=1)
    gl.store(p + tile_offsets(32, 32, L2), cols.load(L2))
    gl.store(p + tile_offsets(32, 32, L2), cols.permute([1, 0]).load(L2))
