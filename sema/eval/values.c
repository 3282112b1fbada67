/*
 * Arguments read as what an operation needs, each failure a diagnostic
 * naming the argument: compile-time ints, shapes, layouts, dtypes and
 * bools, register tensors; and a runtime value as a Value.
 */
#include "sema/eval/eval.h"

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

TValue *
sema_tensor_arg(Check *ck, Value *v, const char *what)
{
	if (v->kind == VAL_RUNTIME && v->u.rt->type->kind == TY_TENSOR)
		return v->u.rt;
	diag_error(ck->d, v->span, "%s must be a register tensor, not %s", what,
	           v->kind == VAL_RUNTIME ? sema_type_str(ck, v->u.rt->type) : sema_value_kind_phrase(v));
	return NULL;
}

bool
sema_opt_bool(Check *ck, const Value *v, bool dflt, const char *what, bool *out)
{
	if (!v) {
		*out = dflt;
		return true;
	}
	if (v->kind == VAL_BOOL) {
		*out = v->u.b;
		return true;
	}
	diag_error(ck->d, v->span, "%s must be True or False at compile time, not %s", what,
	           sema_value_kind_phrase(v));
	return false;
}

Value *
sema_rt_value(Check *ck, TValue *v, SrcSpan at)
{
	Value *r = sema_new_value(&ck->ev, VAL_RUNTIME, at);
	r->u.rt = v;
	return r;
}
