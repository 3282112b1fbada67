/*
 * The budget of compile-time evaluation: every loop, comprehension, list
 * operation, `**` and call of compile-time code charges the steps it
 * takes and the bytes of the values it makes to one count per compilation,
 * so that no input makes the evaluator run or allocate without end
 * (--max-eval-steps, --max-eval-bytes; docs/limits.md).
 */
#include "sema/value/value.h"

#include <string.h>

static uint64_t
limit_of(const Eval *e, LimitId id)
{
	if (e->lim)
		return e->lim->max[id];
	Limits def = limits_default();
	return def.max[id];
}

bool
sema_charge(Eval *e, SrcSpan at, uint64_t steps, uint64_t bytes)
{
	if (e->over)
		return false;
	uint64_t max_steps = limit_of(e, LIM_EVAL_STEPS), max_bytes = limit_of(e, LIM_EVAL_BYTES);
	/* the bytes are those of the arena since evaluation began (values,
	 * scopes, the kernels built) and those about to be allocated */
	uint64_t used = arena_used(e->arena) - e->arena_base;
	bool steps_over = steps > max_steps - (e->steps < max_steps ? e->steps : max_steps);
	bool bytes_over = used > max_bytes || bytes > max_bytes - used;
	if (!steps_over && !bytes_over) {
		e->steps += steps;
		return true;
	}
	e->over = true;
	Diag *g = steps_over
	        ? diag_error(e->diags, at, "compile-time evaluation does not finish within %llu "
	                     "steps (does this loop end?)", (unsigned long long)max_steps)
	        : diag_error(e->diags, at, "compile-time evaluation takes more than %llu bytes",
	                     (unsigned long long)max_bytes);
	Limits def = limits_default();
	diag_limit_note(e->diags, g, e->lim ? e->lim : &def, steps_over ? LIM_EVAL_STEPS
	                                                                : LIM_EVAL_BYTES);
	return false;
}

Value **
sema_items_alloc(Eval *e, SrcSpan at, size_t n)
{
	if (n >= SIZE_MAX / sizeof(Value *) - 1 ||
	    !sema_charge(e, at, n, (n + 1) * sizeof(Value *)))
		return NULL;
	return arena_alloc(e->arena, (n + 1) * sizeof(Value *));
}

bool
sema_list_push(Eval *e, SrcSpan at, Value *l, Value *x)
{
	size_t n = l->u.list.n;
	if (n + 1 >= l->u.list.cap) {
		size_t cap = n < 4 ? 8 : 2 * n;
		Value **items = sema_items_alloc(e, at, cap);
		if (!items)
			return false;
		if (n)
			memcpy(items, l->u.list.items, n * sizeof(Value *));
		l->u.list.items = items;
		l->u.list.cap = cap + 1;
	} else if (!sema_charge(e, at, 1, 0)) {
		return false;
	}
	l->u.list.items[n] = x;
	l->u.list.n = n + 1;
	return true;
}
