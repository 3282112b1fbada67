# ir: the typed IR (types, printer, reader, verifier) and the named passes
# over it. Depends on layout/ and support/ only.
IR_SRCS += ir/op.c ir/type.c ir/build.c ir/print.c ir/read_lex.c ir/read_type.c ir/read_inst.c \
           ir/read.c ir/verify.c ir/verify_ops.c ir/verify_smem.c ir/walk.c ir/layout_infer.c \
           ir/smem_plan.c ir/membar.c ir/cvt_plan.c ir/axis.c ir/specialize.c
IR_SRCS += ir/verify_ext.c ir/verify_tensor.c ir/smem_view.c ir/asm.c ir/names.c
