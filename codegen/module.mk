# codegen: typed IR -> LLVM IR -> PTX. Its objects (and package's) see
# LLVM's headers.
CODEGEN_SRCS += codegen/target.c codegen/module.c codegen/types.c codegen/kernel.c \
                codegen/nvvm.c codegen/wgmma.c  \
                codegen/lower.c codegen/lower_ops.c \
                codegen/lower_layout.c codegen/lower_convert.c codegen/lower_mem.c \
                codegen/lower_smem.c
CODEGEN_SRCS += codegen/lower_hopper.c codegen/lower_wgmma.c codegen/wgmma_desc.c codegen/mma_frag.c codegen/mma_kwidth.c codegen/lower_dot.c codegen/lower_ws.c \
                codegen/lower_stmatrix.c codegen/ptx_negate.c
CODEGEN_SRCS += codegen/lower_math.c codegen/lower_cast.c codegen/libdevice.c codegen/lower_async.c \
                codegen/lower_debug.c codegen/lower_asm.c
CODEGEN_SRCS += codegen/lower_scan.c codegen/lower_shape.c codegen/lower_atomic.c \
                codegen/lower_gather.c codegen/lower_histogram.c codegen/lower_fp4.c
