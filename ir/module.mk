# ir: the typed IR (types, builder, walker, printer, reader, verifier).
# Depends on layout/ and support/ only.
IR_SRCS += ir/op.c ir/type.c ir/build.c ir/walk.c ir/smem_view.c ir/asm.c ir/mma.c \
           ir/print.c ir/read_lex.c ir/read_type.c ir/read_inst.c ir/read.c \
           ir/verify.c ir/verify_ops.c ir/verify_smem.c ir/verify_ext.c ir/verify_tensor.c
