/*
 * Scopes (function locals, then module globals) and the helpers that read
 * compile-time values: ints, shapes, layouts and dtypes with diagnostics.
 */
#include "sema/check.h"

#include <string.h>

/* -- scopes ------------------------------------------------------------------ */

Binding *
sema_scope_find(Check *ck, const char *name)
{
	if (ck->fr)
		for (Binding *b = ck->fr->locals; b; b = b->next)
			if (b->name == name)
				return b;
	for (SemaModule *m = ck->mod; m; m = m->enclosing)
		for (Binding *b = m->globals; b; b = b->next)
			if (b->name == name)
				return b;
	return NULL;
}

Binding *
sema_local_find(Check *ck, const char *name)
{
	Binding *first = ck->fr ? ck->fr->locals : ck->mod->globals;
	for (Binding *b = first; b; b = b->next)
		if (b->name == name)
			return b;
	return NULL;
}

void
sema_scope_bind(Check *ck, const char *name, Value *v, bool is_constexpr, SrcSpan at)
{
	Binding *b = arena_alloc(ck->a, sizeof *b);
	b->name = name;
	b->v = v;
	b->is_constexpr = is_constexpr;
	b->at = at;
	Binding **head = ck->fr ? &ck->fr->locals : &ck->mod->globals;
	b->next = *head;
	*head = b;
}

size_t
sema_check_visible_names(Check *ck, const char **out, size_t max)
{
	size_t n = 0;
	if (ck->fr)
		for (Binding *b = ck->fr->locals; b && n < max; b = b->next)
			out[n++] = b->name;
	for (SemaModule *m = ck->mod; m; m = m->enclosing)
		for (Binding *b = m->globals; b && n < max; b = b->next)
			out[n++] = b->name;
	return n;
}

/* What a name whose value failed to evaluate reads as (silently NULL). */
static const Value poison = {.kind = VAL_POISON};

const Value *
sema_lookup(void *ctx, const char *name)
{
	Check *ck = ctx;
	Binding *b = sema_scope_find(ck, name);
	if (!b)
		return NULL;
	if (b->v && b->v->kind == VAL_LAZY && !sema_force_lazy(ck, b))
		return &poison;
	return b->v ? sema_read_vars(ck, b->v, b->at) : NULL;
}

/* -- value helpers --------------------------------------------------------- */

bool
sema_value_is_rt(const Value *v)
{
	return v->kind == VAL_RUNTIME;
}

bool
sema_value_int(Check *ck, const Value *v, const char *what, int64_t *out)
{
	if (v->kind == VAL_INT) {
		*out = v->u.i;
		return true;
	}
	diag_error(ck->d, v->span, "%s must be a compile-time integer, not %s", what,
	           sema_value_kind_phrase(v));
	return false;
}

bool
sema_value_shape(Check *ck, const Value *v, const char *what, int64_t *out, int *n)
{
	if ((v->kind != VAL_LIST && v->kind != VAL_TUPLE) || v->u.list.n == 0 ||
	    v->u.list.n > LL_MAX_RANK) {
		diag_error(ck->d, v->span, "%s must be a list of 1 to %d compile-time integers, "
		           "not %s", what, LL_MAX_RANK, sema_value_kind_phrase(v));
		return false;
	}
	*n = (int)v->u.list.n;
	for (int i = 0; i < *n; i++) {
		if (!sema_value_int(ck, v->u.list.items[i], what, &out[i]))
			return false;
		if (out[i] <= 0 || (out[i] & (out[i] - 1)) != 0) {
			diag_error(ck->d, v->u.list.items[i]->span, "%s: dimension %d is %lld; "
			           "tensor dimensions must be powers of two", what, i,
			           (long long)out[i]);
			return false;
		}
	}
	return true;
}

const LLDesc *
sema_value_layout(Check *ck, const Value *v, const char *what, bool shared)
{
	if (v->kind == VAL_LAYOUT && ll_desc_is_shared(v->u.layout) == shared)
		return v->u.layout;
	diag_error(ck->d, v->span, "%s must be a %s layout, not %s", what,
	           shared ? "shared" : "distributed",
	           v->kind == VAL_LAYOUT ? (shared ? "a distributed layout" : "a shared layout")
	                                 : sema_value_kind_phrase(v));
	return NULL;
}

bool
sema_value_dtype(Check *ck, const Value *v, const char *what, TDType *out)
{
	if (v->kind == VAL_DTYPE) {
		*out = v->u.dtype;
		return true;
	}
	diag_error(ck->d, v->span, "%s must be a dtype (e.g. gl.f16), not %s", what,
	           sema_value_kind_phrase(v));
	return false;
}

