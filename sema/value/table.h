/*
 * The rows of the builtin tables (sema/value): what a row is, the scopes a
 * row is visible in, and the macros the tables are written with. Gluon's
 * rows are builtin_table.c's, triton.language's tl_table.c's and
 * libdevice's libdevice_table.c's; lookups go through all of them
 * (builtin_table.c).
 */
#ifndef SEMA_VALUE_TABLE_H
#define SEMA_VALUE_TABLE_H

#include "sema/value/value.h"

typedef enum BuiltinKind { BI_NAMESPACE, BI_LAYOUT_CTOR, BI_FUNC, BI_DTYPE } BuiltinKind;

/* Scopes a builtin is visible in (bit set); a namespace opens one scope.
 * Methods live in scopes of their own, reached through the receiver. */
enum {
	IN_GLOBAL = 1, IN_GL = 2, IN_TTGL = 4, IN_MBARRIER = 8, IN_TMA = 16,
	IN_SMEM_METHODS = 32, IN_VALUE_METHODS = 64,
	/* reached only through imports of a .py file (sema_builtin_namespace) */
	IN_TRITON = 128, IN_EXPERIMENTAL = 256, IN_GLUON = 512, IN_HOPPER = 1024,
	IN_TL_CORE = 2048, IN_NVMMA_STATICS = 4096, IN_AMPERE = 8192,
	IN_ASYNC_COPY = 16384, IN_PROPAGATE_NAN = 32768, IN_PADDED_STATICS = 1u << 16,
	IN_DESC_METHODS = 1u << 17, IN_LIBDEVICE = 1u << 19,
	/* triton.runtime.driver.active.get_current_target() */
	IN_RUNTIME = 1u << 20, IN_DRIVER = 1u << 21, IN_ACTIVE = 1u << 22, IN_TARGET = 1u << 23,
	/* triton.language (tl), tl.math, tl.extra, tl.extra.cuda */
	IN_TL = 1u << 24, IN_TL_MATH = 1u << 25, IN_TL_EXTRA = 1u << 26, IN_TL_CUDA = 1u << 27,
};

/* The signature of every callable builtin lives in a table row: its
 * parameter names in order, optional ones marked with a trailing '?'.
 * Arguments are bound against it in one place (sema_bind_builtin). */
struct Builtin {
	const char *name;
	BuiltinKind kind;
	unsigned visible_in;   /* IN_* bits */
	unsigned opens;        /* namespaces: the scope of their members */
	BuiltinFn fn;          /* BI_FUNC */
	TDType dtype;          /* BI_DTYPE */
	const char *params[SEMA_MAX_BUILTIN_PARAMS];  /* BI_FUNC; NULL-terminated */
};

#define FN(n, in, f, ...) {n, BI_FUNC, in, 0, f, DT_VOID, {__VA_ARGS__}}

/* The rows of tl_table.c and libdevice_table.c, and their numbers. */
extern const Builtin sema_tl_rows[];
extern const size_t sema_tl_n_rows;
extern const Builtin sema_libdevice_rows[];
extern const size_t sema_libdevice_n_rows;

#endif
