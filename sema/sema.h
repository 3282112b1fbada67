/*
 * sema: names, compile-time evaluation, types and layout checking. For now
 * the compile-time evaluation of layout constructor expressions (Gluon's
 * syntax, e.g. `gl.BlockedLayout([1,4],[8,4],[4,1],[1,0])`), which both the
 * `glc layout` command and the checker of kernel code use.
 */
#ifndef SEMA_H
#define SEMA_H

#include "layout/layout.h"
#include "parser/parser.h"

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
