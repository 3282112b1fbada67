# ir: the typed IR (types, printer, reader, verifier) and the named passes
# over it. Depends on layout/ and support/ only.
IR_SRCS += ir/type.c ir/print.c ir/walk.c ir/smem_plan.c ir/cvt_plan.c ir/axis.c \
           ir/specialize.c
