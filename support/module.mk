SUPPORT_SRCS += support/arena.c support/strbuf.c support/intern.c support/source.c support/diag.c \
	support/suggest.c support/fatal.c support/limits.c support/json.c
