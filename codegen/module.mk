# codegen: typed IR -> LLVM IR -> PTX, in rooms ordered one way (the rooms
# table of docs/internals.md): lower -> ops -> values -> llvm. Its objects
# (and package's) see LLVM's headers.
CODEGEN_SRCS += codegen/llvm/target.c codegen/llvm/module.c codegen/llvm/types.c \
                codegen/llvm/kernel.c codegen/llvm/nvvm.c codegen/llvm/libdevice.c \
                codegen/llvm/wgmma.c codegen/llvm/ptx_negate.c \
                codegen/llvm/contract.c
CODEGEN_SRCS += codegen/values/values.c codegen/values/smem.c
CODEGEN_SRCS += codegen/ops/lower_ops.c codegen/ops/lower_math.c codegen/ops/lower_cast.c \
                codegen/ops/lower_layout.c codegen/ops/lower_reduce.c \
                codegen/ops/lower_convert.c codegen/ops/lower_scan.c \
                codegen/ops/lower_shape.c codegen/ops/lower_fp4.c codegen/ops/lower_gather.c \
                codegen/ops/lower_histogram.c codegen/ops/lower_mem.c codegen/ops/lower_atomic.c \
                codegen/ops/lower_async.c codegen/ops/lower_smem.c codegen/ops/lower_stmatrix.c \
                codegen/ops/lower_hopper.c codegen/ops/lower_wgmma.c codegen/ops/wgmma_desc.c \
                codegen/ops/mma_frag.c codegen/ops/mma_kwidth.c codegen/ops/lower_dot.c \
                codegen/ops/lower_ws.c codegen/ops/lower_asm.c codegen/ops/lower_debug.c
CODEGEN_SRCS += codegen/lower/lower.c codegen/lower/smem_layout.c codegen/lower/compile.c
