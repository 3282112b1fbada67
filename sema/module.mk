SEMA_SRCS += sema/consteval.c sema/builtins.c sema/layout_ctor.c
