# ir: the typed IR (types, builder, walker, names) and, in rooms of their
# own, its text form (text/: printer and reader) and its verifier
# (verify/). Depends on layout/ and support/ only.
IR_SRCS += ir/op.c ir/type.c ir/type_print.c ir/build.c ir/walk.c ir/smem_view.c ir/asm.c \
           ir/mma.c ir/names.c
IR_SRCS += ir/text/print.c ir/text/read_lex.c ir/text/read_type.c ir/text/read_attr.c \
           ir/text/read_inst.c ir/text/read.c
IR_SRCS += ir/verify/verify.c ir/verify/verify_ops.c ir/verify/verify_smem.c \
           ir/verify/verify_ext.c ir/verify/verify_tensor.c ir/verify/verify_report.c
