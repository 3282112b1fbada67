/* Failures the process cannot go on from, handed to the program's hook. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>

/* The only mutable statics of support: set once by the driver at start. */
static FatalHook fatal_hook;
static void *fatal_ctx;

void
fatal_set_hook(FatalHook hook, void *ctx)
{
	fatal_hook = hook;
	fatal_ctx = ctx;
}

_Noreturn void
fatal_error(FatalKind kind, const char *what)
{
	if (fatal_hook)
		fatal_hook(fatal_ctx, kind, what);
	fprintf(stderr, "glc: %s: %s\n",
	        kind == FATAL_OUT_OF_MEMORY ? "out of memory" : "fatal error", what);
	abort();
}
