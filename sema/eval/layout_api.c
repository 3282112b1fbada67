/*
 * sema's public entry points for `glc layout`, which works without a
 * program: a layout constructor expression evaluated, and the width of a
 * dtype named on the command line (sema_build_layout, which fits the
 * layout to a shape, is types.c's).
 */
#include "sema/eval/eval.h"

#include <string.h>

const LLDesc *
sema_eval_layout(Arena *a, Diags *d, const Node *expr)
{
	Eval e = {a, d, NULL, .lim = NULL, .arena_base = arena_used(a)};
	int before = d->errors;
	Value *v = sema_eval_expr(&e, expr);
	if (!v)
		return NULL;
	if (v->kind != VAL_LAYOUT) {
		if (d->errors == before)
			diag_error(d, expr->span, "expected a layout, e.g. "
			           "BlockedLayout([1,4],[8,4],[4,1],[1,0]); got %s", sema_value_kind_phrase(v));
		return NULL;
	}
	return v->u.layout;
}

int
sema_dtype_bits(const char *name)
{
	static const struct { const char *name; int bits; } dtypes[] = {
		{"i1", 1}, {"i8", 8}, {"i16", 16}, {"i32", 32}, {"i64", 64},
		{"u8", 8}, {"u16", 16}, {"u32", 32}, {"u64", 64},
		{"f16", 16}, {"bf16", 16}, {"f32", 32}, {"f64", 64},
		{"f8e4m3", 8}, {"f8e5m2", 8},
		{"float16", 16}, {"bfloat16", 16}, {"float32", 32}, {"float64", 64},
		{"int8", 8}, {"int16", 16}, {"int32", 32}, {"int64", 64},
	};
	for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
		if (strcmp(dtypes[i].name, name) == 0)
			return dtypes[i].bits;
	return 0;
}
