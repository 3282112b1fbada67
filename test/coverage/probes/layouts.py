# Probes of gl's layout classes (_layouts): each layout is constructed with
# Triton 3.6's parameters and used for what it describes (a register tensor
# or a shared-memory buffer that is stored to and loaded from).
from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language._layouts import DistributedLayout, SharedLayout, bases_per_dim, warps_per_cta
from triton.experimental.gluon.language.nvidia.ampere import mma_v2

L1: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
L2: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])


@gluon.jit
def tile_offsets(M: gl.constexpr, N: gl.constexpr, layout: gl.constexpr):
    r = gl.arange(0, M, layout=gl.SliceLayout(1, layout))
    c = gl.arange(0, N, layout=gl.SliceLayout(0, layout))
    return r[:, None] * N + c[None, :]


@gluon.jit
def smem_roundtrip(p, smem_layout: gl.constexpr):
    offs = tile_offsets(32, 16, L2)
    x = gl.load(p + offs)
    smem = gl.allocate_shared_memory(gl.float32, [32, 16], smem_layout)
    smem.store(x)
    gl.store(p + offs, smem.load(L2) + 1)


# probe gl BlockedLayout -- -s "*fp32"
@gluon.jit
def blocked_kernel(p):
    layout: gl.constexpr = gl.BlockedLayout(size_per_thread=[2, 4], threads_per_warp=[4, 8],
                                            warps_per_cta=[2, 2], order=[1, 0], cga_layout=[])
    offs = tile_offsets(32, 64, layout)
    gl.store(p + offs, gl.load(p + offs) * 2)


# probe gl SliceLayout -- -s "*fp32"
@gluon.jit
def slice_kernel(p):
    rows = gl.arange(0, 32, layout=gl.SliceLayout(dim=1, parent=L2))
    cols = gl.arange(0, 16, layout=gl.SliceLayout(0, L2))
    gl.store(p + rows[:, None] * 16 + cols[None, :], 1.0)


# probe gl DistributedLinearLayout -- -s "*fp32"
@gluon.jit
def linear_kernel(p):
    # BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0]) on [32, 16], written as bases
    layout: gl.constexpr = gl.DistributedLinearLayout(
        reg_bases=[[0, 1], [0, 2]], lane_bases=[[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]],
        warp_bases=[[8, 0], [16, 0]], block_bases=[], shape=[32, 16])
    offs = tile_offsets(32, 16, layout)
    x = gl.load(p + offs)
    gl.store(p + gl.convert_layout(offs, L2, assert_trivial=True), gl.convert_layout(x, L2) + 1)


# probe gl DotOperandLayout -- -s "*fp16, *fp16, *fp32"
# probe gl NVMMADistributedLayout -- -s "*fp16, *fp16, *fp32"
@gluon.jit
def mma_layouts_kernel(a_ptr, b_ptr, c_ptr):
    acc_l: gl.constexpr = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[4, 1], instr_shape=[16, 8],
                                                    cga_layout=[])
    a_l: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=acc_l, k_width=2)
    b_l: gl.constexpr = gl.DotOperandLayout(1, acc_l, 2)
    a = gl.load(a_ptr + tile_offsets(64, 32, a_l))
    b = gl.load(b_ptr + tile_offsets(32, 32, b_l))
    acc = gl.zeros([64, 32], gl.float32, layout=acc_l)
    acc = mma_v2(a, b, acc)
    gl.store(c_ptr + tile_offsets(64, 32, acc_l), acc)


# probe gl AutoLayout -- -s "*fp32, i32"
@gluon.jit
def auto_kernel(p, n):
    offs = gl.arange(0, 128, layout=gl.AutoLayout())
    x = gl.load(p + offs, mask=offs < n)
    gl.store(p + offs, gl.set_auto_layout(x + 1, L1), mask=gl.set_auto_layout(offs < n, L1))


# probe gl CoalescedLayout -- -s "*fp32, i32"
@gluon.jit
def coalesced_kernel(p, n):
    offs = gl.arange(0, 128, layout=gl.CoalescedLayout())
    gl.store(p + offs, 1.0, mask=offs < n)


# probe gl SwizzledSharedLayout -- -s "*fp32"
@gluon.jit
def swizzled_kernel(p):
    smem_roundtrip(p, gl.SwizzledSharedLayout(vec=4, per_phase=1, max_phase=4, order=[1, 0], cga_layout=[]))


# probe gl NVMMASharedLayout -- -s "*fp32"
@gluon.jit
def nvmma_shared_kernel(p):
    smem_roundtrip(p, gl.NVMMASharedLayout(swizzle_byte_width=64, element_bitwidth=32, rank=2, transposed=False,
                                           fp4_padded=False, cga_layout=[]))


# probe gl NVMMASharedLayout.get_default_for -- -s "*fp32"
@gluon.jit
def get_default_for_kernel(p):
    layout: gl.constexpr = gl.NVMMASharedLayout.get_default_for([32, 16], gl.float32)
    gl.static_assert(layout == gl.NVMMASharedLayout(64, 32, 2))
    smem_roundtrip(p, gl.NVMMASharedLayout.get_default_for([32, 16], gl.float32, transposed=True))


# probe gl SharedLinearLayout -- -s "*fp32"
@gluon.jit
def shared_linear_kernel(p):
    # row-major [32, 16] with the rows' 4-element groups XOR-swizzled
    layout: gl.constexpr = gl.SharedLinearLayout(
        offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [1, 4], [2, 8], [4, 0], [8, 0], [16, 0]], block_bases=[],
        alignment=16)
    smem_roundtrip(p, layout)


# probe gl PaddedSharedLayout -- -s "*fp32"
@gluon.jit
def padded_kernel(p):
    layout: gl.constexpr = gl.PaddedSharedLayout(
        interval_padding_pairs=[[16, 1]],
        offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], block_bases=[],
        shape=[32, 16])
    smem_roundtrip(p, layout)


# probe gl PaddedSharedLayout -- -s "*fp32, i32"
@gluon.jit
def padded_views_kernel(p, i):
    # Gluon's example: +4 every 32 elements, +8 every 64, over two buffers
    layout: gl.constexpr = gl.PaddedSharedLayout.with_identity_for([[32, 4], [64, 8]], [32, 16], [1, 0])
    offs = tile_offsets(32, 16, L2)
    bufs = gl.allocate_shared_memory(gl.float32, [2, 32, 16], layout)
    bufs.index(i).store(gl.load(p + offs))
    top = bufs.index(i).slice(0, 16).permute([1, 0]).load(gl.BlockedLayout([1, 1], [4, 8], [4, 1], [1, 0]))
    gl.store(p + offs, bufs.index(i).load(L2) + gl.sum(gl.sum(top, 1), 0))


# probe gl PaddedSharedLayout.with_identity_for -- -s "*fp32"
@gluon.jit
def padded_identity_kernel(p):
    smem_roundtrip(p, gl.PaddedSharedLayout.with_identity_for([[16, 1]], [32, 16], [1, 0]))


@gluon.constexpr_function
def padded_ok(layout):
    layout.verify()
    return True


# probe gl PaddedSharedLayout.verify -- -s "*fp32"
@gluon.jit
def padded_verify_kernel(p):
    gl.static_assert(padded_ok(gl.PaddedSharedLayout([[16, 1]], [[1], [2], [4], [8], [16]], [], [32])))
    gl.store(p, 1.0)


@gluon.constexpr_function
def is_distributed(layout):
    return isinstance(layout, DistributedLayout)


# probe gl._layouts DistributedLayout -- -s "*fp32"
@gluon.jit
def distributed_layout_kernel(p):
    gl.static_assert(is_distributed(L2))
    gl.store(p, 1.0)


# probe gl._layouts SharedLayout -- -s "*fp32"
@gluon.jit
def shared_layout_kernel(p):
    gl.static_assert(isinstance(gl.SwizzledSharedLayout(1, 1, 1, [0]), SharedLayout))
    gl.store(p, 1.0)


@gluon.constexpr_function
def rank_of(layout):
    return layout.rank


# probe gl._layouts DistributedLayout.rank -- -s "*fp32"
@gluon.jit
def rank_kernel(p):
    gl.static_assert(rank_of(L2) == 2)
    gl.static_assert(L1.rank == 1)
    gl.static_assert(gl.SliceLayout(0, L2).rank == 1)
    gl.store(p, 1.0)


# probe gl SliceLayout.cga_layout -- -s "*fp32"
@gluon.jit
def slice_cga_kernel(p):
    gl.static_assert(len(gl.SliceLayout(0, L2).cga_layout) == 0)
    gl.store(p, 1.0)


# probe gl DotOperandLayout.cga_layout -- -s "*fp32"
@gluon.jit
def dot_cga_kernel(p):
    gl.static_assert(len(gl.DotOperandLayout(0, L2, 1).cga_layout) == 0)
    gl.store(p, 1.0)


@gluon.constexpr_function
def warps_of(layout, shape):
    return warps_per_cta(layout, shape)


# probe-fails gl._layouts warps_per_cta -- -s "*fp32"
@gluon.jit
def warps_per_cta_kernel(p):
    gl.static_assert(warps_of(gl.SliceLayout(1, L2), [32]) == [4, 1])
    gl.store(p, 1.0)


@gluon.constexpr_function
def lane_dims(layout):
    return bases_per_dim(layout.lane_bases, 2)


# probe-fails gl._layouts bases_per_dim -- -s "*fp32"
@gluon.jit
def bases_per_dim_kernel(p):
    layout: gl.constexpr = gl.DistributedLinearLayout([[0, 1], [0, 2]], [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]],
                                                      [[8, 0], [16, 0]], [], [32, 16])
    gl.static_assert(lane_dims(layout) == [8, 4])
    gl.store(p, 1.0)


# probe gl NVMMASharedLayout -- -s "*u8"
@gluon.jit
def nvmma_fp4_padded_kernel(p):
    L: gl.constexpr = gl.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])
    o = gl.arange(0, 64, layout=gl.SliceLayout(1, L))[:, None] * 64 + \
        gl.arange(0, 64, layout=gl.SliceLayout(0, L))[None, :]
    smem = gl.allocate_shared_memory(gl.uint8, [64, 64], gl.NVMMASharedLayout(128, 8, 2, fp4_padded=True),
                                     gl.load(p + o))
    gl.store(p + o, smem.load(L))
