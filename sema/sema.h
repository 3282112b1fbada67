/*
 * sema: names, compile-time evaluation and specialization, types, and layout
 * checking. Turns a parsed module into the typed, specialized program of
 * ir/ir.h (the typed IR) that code generation consumes. Also the compile-time
 * evaluation of layout constructor expressions (Gluon's syntax, e.g.
 * `gl.BlockedLayout([1,4],[8,4],[4,1],[1,0])`) used by `glc layout`.
 */
#ifndef SEMA_H
#define SEMA_H

#include "layout/layout.h"
#include "parser/parser.h"
#include "ir/ir.h"

/* A -D NAME=VALUE from the command line; VALUE is source text evaluated as
 * a constexpr expression (e.g. `64`, `gl.bf16`, `True`). */
typedef struct SemaDefine {
	const char *name;
	const char *value;
} SemaDefine;

/* Checks module (from parse_module) and specializes every @gl.kernel (only
 * the one called `kernel` when non-NULL) with its constexpr defaults
 * overridden by defs, within the limits lim (static_range bodies unrolled
 * and calls inlined per kernel, elements per thread). Diagnostics go to d;
 * define values are registered in src as "<-D NAME>" files. Returns NULL
 * when there was any error. */
TProgram *sema_check(Arena *a, Interner *in, Sources *src, Diags *d, const Node *module,
                     const SemaDefine *defs, size_t n_defs, const char *kernel,
                     const Limits *lim);

/* Reads and parses the Gluon file that an import names (`name` such as
 * "05-wgmma" or "pkg.helpers"), looked up next to the importing file (path
 * `from`) and in the -I folders; *file receives its id. NULL when there is
 * no such file (no diagnostic); its syntax errors go to the Diags. */
typedef const Node *(*SemaImportFn)(void *ctx, const char *name, const char *from,
                                    uint32_t *file);

/* A Gluon .py file compiled as compile.py does: the kernel named, one
 * specialization per signature (compile.py's format, extended). */
typedef struct SemaGluon {
	const char *kernel;              /* -n: the @gluon.jit kernel */
	const char *const *signatures;   /* -s, in order */
	size_t n_signatures;
	int num_warps;                   /* -w */
	const char *out_name;            /* -on: the launchers' name; NULL: the kernel's */
	SemaImportFn import;
	void *import_ctx;
} SemaGluon;

/* Checks the Gluon file `module` (file id `file`) and specializes kernel
 * g->kernel once per signature, within the limits lim (as sema_check, and
 * the statements constexpr functions run): the launchers are called NAME
 * (one signature) or NAME_0, NAME_1, ..., NAME being g->out_name or else
 * g->kernel ('.' as '_'). Host code is never checked. Returns NULL when
 * there was any error. */
TProgram *sema_check_gluon(Arena *a, Interner *in, Sources *src, Diags *d, const Node *module,
                           uint32_t file, const SemaGluon *g, const Limits *lim);

/* Evaluates expr, which must be a layout constructor call (optionally
 * qualified: gl., ttgl., mbarrier.), to a layout description allocated in
 * a. Each mistake is reported at the argument it concerns; returns NULL when
 * there was any. */
const LLDesc *sema_eval_layout(Arena *a, Diags *d, const Node *expr);

/* Builds desc for the tensor shape[0..rank-1] and reports a failure at
 * `at` (the expression the description came from). */
bool sema_build_layout(Diags *d, SrcSpan at, const LLDesc *desc, const int64_t *shape,
                       int rank, int num_warps, Arena *a, LLayout *out);

/* The element bit width of a dtype name ("f16" -> 16, "f8e4m3" -> 8), or 0
 * when the name is not a dtype. */
int sema_dtype_bits(const char *name);

#endif
