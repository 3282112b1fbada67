/*
 * The checker's side of evaluation: the table of hooks through which the
 * compile-time evaluator (sema/eval, which includes no header of this room)
 * hands the checker what involves the program being built, and the name
 * lookup that reads a variable of runtime control flow in the current
 * block.
 */
#include "sema/check/check.h"

/* What a name whose value failed to evaluate reads as (silently NULL). */
static const Value poison = {.kind = VAL_POISON};

/* The value bound to name, a variable's current value read; NULL when
 * unknown. */
static const Value *
lookup(Check *ck, const char *name)
{
	Binding *b = sema_scope_find(ck, name);
	if (!b)
		return NULL;
	if (b->v && b->v->kind == VAL_LAZY && !sema_force_lazy(ck, b))
		return &poison;
	return b->v ? sema_read_vars(ck, b->v, b->at) : NULL;
}

const EvalHooks sema_check_hooks = {
	.lookup = lookup,
	.unary = sema_check_unary,
	.binary = sema_check_binary,
	.compare = sema_check_compare,
	.arith = sema_arith,
	.attr = sema_check_attr,
	.subscript = sema_check_subscript,
	.method_call = sema_check_method_call,
	.builtin_call = sema_check_builtin_call,
	.block = sema_check_block,
};
