# ir: the typed IR (types, printer, reader, verifier) and the named passes
# over it. Depends on layout/ and support/ only.
IR_SRCS += ir/op.c ir/type.c ir/print.c
