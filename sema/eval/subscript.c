/*
 * Compile-time subscripts: a list's or tuple's item and slices (as Python
 * slices them), a dict's value by key; other objects (runtime values,
 * types) go to the checker.
 */
#include "sema/eval/eval.h"

/* A slice bound (lo, hi or step) of a compile-time list: None (NULL node)
 * gives dflt. */
static bool
slice_bound(Eval *e, const Node *b, int64_t dflt, int64_t *out)
{
	*out = dflt;
	if (!b)
		return true;
	Value *v = sema_eval_expr(e, b);
	if (!v)
		return false;
	if (v->kind == VAL_NONE)
		return true;
	if (v->kind != VAL_INT) {
		diag_error(e->diags, v->span, "a slice bound must be a compile-time integer, not %s",
		           sema_value_kind_phrase(v));
		return false;
	}
	*out = v->u.i;
	return true;
}

/* obj[lo:hi:step] of a compile-time list or tuple, as Python slices. */
static Value *
eval_slice(Eval *e, Value *obj, const Node *s)
{
	int64_t n = (int64_t)obj->u.list.n, step, lo, hi;
	if (!slice_bound(e, s->u.slice.step, 1, &step))
		return NULL;
	if (step == 0) {
		diag_error(e->diags, s->span, "slice step cannot be zero");
		return NULL;
	}
	if (!slice_bound(e, s->u.slice.lo, step > 0 ? 0 : n - 1, &lo) ||
	    !slice_bound(e, s->u.slice.hi, step > 0 ? n : -n - 1, &hi))
		return NULL;
	if (lo < 0)
		lo = lo + n < 0 ? (step > 0 ? 0 : -1) : lo + n;
	if (hi < 0)
		hi = hi + n < 0 ? (step > 0 ? 0 : -1) : hi + n;
	if (lo > n)
		lo = step > 0 ? n : n - 1;
	if (hi > n)
		hi = n;
	Value **items = sema_items_alloc(e, s->span, (size_t)n);
	if (!items)
		return NULL;
	Value *out = sema_new_value(e, obj->kind, s->span);
	out->u.list.items = items;
	for (int64_t i = lo; step > 0 ? i < hi : i > hi; i += step)
		out->u.list.items[out->u.list.n++] = obj->u.list.items[i];
	return out;
}

Value *
sema_eval_subscript(Eval *e, const Node *n)
{
	Value *obj = sema_eval_expr(e, n->u.subscript.obj);
	if (!obj)
		return NULL;
	if (obj->kind == VAL_DICT) {
		Value *key = sema_eval_expr(e, n->u.subscript.index);
		if (!key || !sema_charge(e, key->span, obj->u.list.n / 2, 0))
			return NULL;
		for (size_t i = 0; i + 1 < obj->u.list.n; i += 2)
			if (sema_same_value(obj->u.list.items[i], key))
				return obj->u.list.items[i + 1];
		diag_error(e->diags, key->span, "the dict has no such key");
		return NULL;
	}
	if ((obj->kind == VAL_LIST || obj->kind == VAL_TUPLE) && !obj->u.list.cls &&
	    n->u.subscript.index->kind == N_SLICE)
		return eval_slice(e, obj, n->u.subscript.index);
	if (obj->kind == VAL_LIST || obj->kind == VAL_TUPLE) {
		Value *ix = sema_eval_expr(e, n->u.subscript.index);
		if (!ix)
			return NULL;
		if (ix->kind != VAL_INT) {
			diag_error(e->diags, ix->span, "a list index must be a compile-time integer, "
			           "not %s", sema_value_kind_phrase(ix));
			return NULL;
		}
		int64_t i = ix->u.i < 0 ? ix->u.i + (int64_t)obj->u.list.n : ix->u.i;
		if (i < 0 || i >= (int64_t)obj->u.list.n) {
			diag_error(e->diags, ix->span, "index %lld is out of range for %s of %zu items",
			           (long long)ix->u.i, sema_value_kind_phrase(obj), obj->u.list.n);
			return NULL;
		}
		return obj->u.list.items[i];
	}
	if (e->ck)
		return e->ck->hooks->subscript(e->ck, n, obj);
	diag_error(e->diags, n->span, "%s cannot be indexed at compile time",
	           sema_value_kind_phrase(obj));
	return NULL;
}
