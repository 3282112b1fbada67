/*
 * The register-tensor builtins of gl that belong to no other family:
 * program_id and num_programs, arange, full, zeros and their _like forms,
 * to_tensor, add, sub and mul, where, convert_layout, set_auto_layout,
 * expand_dims, and to_linear_layout.
 */
#include "sema/builtins/builtins.h"

#include <string.h>

static Value *
result(Check *ck, TInst *i, SrcSpan at)
{
	return sema_rt_value(ck, i->res, at);
}

static Value *
call_axis_query(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	const char *name = fn == BF_PROGRAM_ID ? sema_fn_name(ck, "program_id") : sema_fn_name(ck, "num_programs");
	int64_t axis;
	if (!sema_value_int(ck, a[0], "the axis", &axis))
		return NULL;
	if (axis < 0 || axis > 2) {
		diag_error(ck->d, a[0]->span, "%s axis is %lld; it must be 0, 1 or 2", name,
		           (long long)axis);
		return NULL;
	}
	TInst *i = sema_emit(ck, fn == BF_PROGRAM_ID ? OP_PROGRAM_ID : OP_NUM_PROGRAMS, call->span,
	                sema_type_scalar(ck, DT_I32), 0);
	i->attr.axis = (int)axis;
	return result(ck, i, call->span);
}

static Value *
call_arange(Check *ck, const Node *call, Value **a)
{
	int64_t lo, hi;
	if (!sema_value_int(ck, a[0], sema_fn_name(ck, "arange's start"), &lo) ||
	    !sema_value_int(ck, a[1], sema_fn_name(ck, "arange's end"), &hi))
		return NULL;
	if (lo < INT32_MIN || hi > INT32_MAX) {
		diag_error(ck->d, call->span, "gl.arange(%lld, %lld): its values must fit in i32",
		           (long long)lo, (long long)hi);
		return NULL;
	}
	int64_t n = hi - lo;
	if (n <= 0 || (n & (n - 1))) {
		diag_error(ck->d, call->span, "gl.arange(%lld, %lld) has %lld elements; the count "
		           "must be a positive power of two", (long long)lo, (long long)hi,
		           (long long)n);
		return NULL;
	}
	SrcSpan lat;
	const LLDesc *l = sema_auto_layout_arg(ck, a[2], call->span, &n, 1, sema_fn_name(ck, "arange's layout"), &lat);
	TType *t = l ? sema_tensor_type(ck, lat, sema_type_scalar(ck, DT_I32), &n, 1, l) : NULL;
	if (!t)
		return NULL;
	TInst *i = sema_emit(ck, OP_ARANGE, call->span, t, 0);
	i->attr.lo = lo;
	i->attr.hi = hi;
	i->res->layout_at = lat;
	return result(ck, i, call->span);
}

/* OP_FULL of val (converted to dt) over shape sh in layout l, fixed at lat. */
static Value *
emit_full(Check *ck, const Node *call, const char *fname, Value *val, TDType dt,
          const int64_t *sh, int rank, const LLDesc *l, SrcSpan lat)
{
	TType *t = l ? sema_tensor_type(ck, lat, sema_type_scalar(ck, dt), sh, rank, l) : NULL;
	if (!t)
		return NULL;
	if (val->kind == VAL_INT && !ir_dtype_is_float(dt) && !sema_int_fits(dt, val->u.i)) {
		diag_error(ck->d, val->span, "%s's value %lld does not fit its dtype %s", fname,
		           (long long)val->u.i, ir_dtype_name(dt));
		return NULL;
	}
	TValue *s = sema_materialize(ck, val, dt);
	if (!s)
		return NULL;
	if (s->type->kind != TY_SCALAR) {
		diag_error(ck->d, val->span, "%s's value must be a scalar", fname);
		return NULL;
	}
	s = sema_cast_to(ck, s, dt, call->span);
	TInst *i = sema_emit(ck, OP_FULL, call->span, t, 1, s);
	i->res->layout_at = lat;
	return result(ck, i, call->span);
}

static Value *
call_full(Check *ck, const Node *call, bool zeros, Value **a)
{
	const char *fname = zeros ? sema_fn_name(ck, "zeros") : sema_fn_name(ck, "full");
	Value *shape = a[0], *dtype = zeros ? a[1] : a[2], *layout = zeros ? a[2] : a[3];
	Value zero = {.kind = VAL_INT, .span = call->span};
	int64_t sh[LL_MAX_RANK];
	int rank;
	TDType dt;
	if (!sema_value_shape(ck, shape, arena_printf(ck->a, "%s's shape", fname), sh, &rank) ||
	    !sema_value_dtype(ck, dtype, arena_printf(ck->a, "%s's dtype", fname), &dt))
		return NULL;
	SrcSpan lat;
	const LLDesc *l = sema_auto_layout_arg(ck, layout, call->span, sh, rank,
	                                       arena_printf(ck->a, "%s's layout", fname), &lat);
	return emit_full(ck, call, fname, zeros ? &zero : a[1], dt, sh, rank, l, lat);
}

/* gl.full_like / gl.zeros_like: shape, dtype and layout default to the
 * input tensor's (Gluon's _standard.py). */
static Value *
call_full_like(Check *ck, const Node *call, bool zeros, Value **a)
{
	const char *fname = zeros ? sema_fn_name(ck, "zeros_like") : sema_fn_name(ck, "full_like");
	Value *shape = a[zeros ? 1 : 2], *dtype = a[zeros ? 2 : 3], *layout = a[zeros ? 3 : 4];
	Value zero = {.kind = VAL_INT, .span = call->span};
	TValue *x = sema_tensor_arg(ck, a[0], arena_printf(ck->a, "%s's input", fname));
	if (!x)
		return NULL;
	const TType *xt = x->type;
	int64_t sh[LL_MAX_RANK];
	int rank = xt->rank;
	memcpy(sh, xt->shape, sizeof sh);
	TDType dt = xt->dtype;
	if ((shape && !sema_value_shape(ck, shape, arena_printf(ck->a, "%s's shape", fname), sh,
	                                &rank)) ||
	    (dtype && !sema_value_dtype(ck, dtype, arena_printf(ck->a, "%s's dtype", fname), &dt)))
		return NULL;
	SrcSpan lat = x->layout_at;
	const LLDesc *l = layout ? sema_auto_layout_arg(ck, layout, call->span, sh, rank,
	                                                arena_printf(ck->a, "%s's layout", fname),
	                                                &lat)
	                         : xt->layout.desc;
	return emit_full(ck, call, fname, zeros ? &zero : a[1], dt, sh, rank, l, lat);
}

/* gl.to_linear_layout(layout, shape): the layout fitted to shape, as a
 * DistributedLinearLayout or a SharedLinearLayout (Gluon's semantic: a
 * DistributedLinearLayout or AutoLayout is returned as it is). */
static Value *
call_to_linear_layout(Check *ck, const Node *call, Value **a)
{
	if (a[0]->kind != VAL_LAYOUT) {
		diag_error(ck->d, a[0]->span, "gl.to_linear_layout's layout must be a layout, not %s",
		           sema_value_kind_phrase(a[0]));
		return NULL;
	}
	const LLDesc *d = a[0]->u.layout;
	int64_t sh[LL_MAX_RANK];
	int rank;
	if (!sema_value_shape(ck, a[1], sema_fn_name(ck, "to_linear_layout's shape"), sh, &rank))
		return NULL;
	if (d->kind == LL_AUTO || d->kind == LL_DISTRIBUTED_LINEAR)
		return a[0];
	if (d->kind == LL_PADDED_SHARED) {
		Diag *g = diag_error(ck->d, a[0]->span, "gl.to_linear_layout: a PaddedSharedLayout is "
		                     "not a linear layout (its padding is not linear)");
		diag_note(ck->d, g, (SrcSpan){0}, "its linear part is "
		          "gl.SharedLinearLayout(layout.offset_bases); Triton 3.6 aborts here");
		return NULL;
	}
	LLayout ll;
	LLErr err = {ck->a, NULL};
	if (!ll_build(d, sh, rank, 0, &ll, &err)) {
		diag_error(ck->d, a[1]->span, "gl.to_linear_layout: %s", err.msg ? err.msg :
		           "the layout does not fit this shape");
		return NULL;
	}
	Value *v = sema_new_value(&ck->ev, VAL_LAYOUT, call->span);
	v->u.layout = ll_desc_is_shared(d) ? ll_desc_shared_linear(ck->a, &ll)
	                                   : ll_desc_distributed_linear(ck->a, &ll, sh, rank);
	return v;
}

/* gl.expand_dims(x, axis) with one axis or a sequence of them, as Triton:
 * each counted in the result's rank, no two alike, inserted lowest first. */
static Value *
call_expand_dims(Check *ck, const Node *call, Value **a)
{
	TValue *x = sema_tensor_arg(ck, a[0], sema_fn_name(ck, "expand_dims's input"));
	if (!x)
		return NULL;
	bool many = a[1]->kind == VAL_TUPLE || a[1]->kind == VAL_LIST;
	size_t n = many ? a[1]->u.list.n : 1;
	int rank = x->type->rank + (int)n;
	if (rank > LL_MAX_RANK) {
		diag_error(ck->d, a[1]->span, "gl.expand_dims would make a rank-%d tensor; at most %d",
		           rank, LL_MAX_RANK);
		return NULL;
	}
	int axes[LL_MAX_RANK];
	for (size_t i = 0; i < n; i++) {
		int64_t ax;
		if (!sema_value_int(ck, many ? a[1]->u.list.items[i] : a[1], sema_fn_name(ck, "expand_dims's axis"),
		                    &ax))
			return NULL;
		if (ax < -rank || ax >= rank) {
			diag_error(ck->d, a[1]->span, "expand_dims axis %lld is out of range for a "
			           "rank-%d result", (long long)ax, rank);
			return NULL;
		}
		int v = (int)(ax < 0 ? ax + rank : ax), j = (int)i;
		for (int k = 0; k < (int)i; k++)
			if (axes[k] == v) {
				diag_error(ck->d, a[1]->span, "expand_dims axis %d is given twice", v);
				return NULL;
			}
		while (j > 0 && axes[j - 1] > v) {
			axes[j] = axes[j - 1];
			j--;
		}
		axes[j] = v;
	}
	Value *r = sema_rt_value(ck, x, call->span);
	for (size_t i = 0; i < n; i++) {
		if (!(r = sema_expand_dims(ck, call->span, x, axes[i])))
			return NULL;
		x = r->u.rt;
	}
	return r;
}

Value *
sema_expand_dims(Check *ck, SrcSpan at, TValue *x, int axis)
{
	const TType *xt = x->type;
	const LLDesc *d = xt->layout.desc;
	if (axis < 0 || axis > xt->rank || xt->rank >= LL_MAX_RANK) {
		diag_error(ck->d, at, "expand_dims axis %d is out of range for a rank-%d tensor",
		           axis, xt->rank);
		return NULL;
	}
	/* Triton converts a tensor to the slice of the layout it expands to
	 * (a SliceLayout along this axis expands as it is). */
	if (sema_in_tl(ck) && !(d->kind == LL_SLICE && d->dim == axis)) {
		if (!(x = sema_soft_fresh(ck, at, x)))
			return NULL;
		xt = x->type;
		d = xt->layout.desc;
	}
	int64_t sh[LL_MAX_RANK];
	for (int i = 0, r = 0; i <= xt->rank; i++)
		sh[i] = i == axis ? 1 : xt->shape[r++];
	const LLDesc *inferred = sema_auto_expand(ck, at, x, axis, sh, xt->rank + 1);
	if (inferred)
		d = ll_desc_slice(ck->a, inferred, axis);
	if (d->kind != LL_SLICE || d->dim != axis) {
		StrBuf b = {0};
		ll_desc_print(d, &b);
		Diag *g = diag_error(ck->d, at, "expand_dims at axis %d needs a tensor in "
		                     "SliceLayout(%d, P), which becomes P; this tensor's layout is %s",
		                     axis, axis, b.s);
		diag_note(ck->d, g, x->layout_at, "its layout was fixed here");
		if (d->kind == LL_SLICE)
			diag_note(ck->d, g, (SrcSpan){0}, "it is a slice along dimension %d: insert "
			          "the new axis at %d instead", d->dim, d->dim);
		buf_free(&b);
		return NULL;
	}
	TType *t = sema_tensor_type(ck, at, sema_type_elem(ck, xt), sh, xt->rank + 1, d->parent);
	if (!t)
		return NULL;
	TInst *i = sema_emit(ck, OP_EXPAND_DIMS, at, t, 1, x);
	i->attr.axis = axis;
	i->res->layout_at = x->layout_at;
	return result(ck, i, at);
}

static Value *
call_convert(Check *ck, const Node *call, Value **a)
{
	TValue *x = sema_tensor_arg(ck, a[0], sema_fn_name(ck, "convert_layout's value"));
	const LLDesc *l = sema_value_layout(ck, a[1], sema_fn_name(ck, "convert_layout's layout"), false);
	bool trivial;
	if (!x || !l || !sema_opt_bool(ck, a[2], false, "assert_trivial", &trivial))
		return NULL;
	TType *t = sema_tensor_type(ck, a[1]->span, sema_type_elem(ck, x->type), x->type->shape,
	                       x->type->rank, l);
	if (!t)
		return NULL;
	/* The cvt-plan pass plans it, and reports a trivial one that is not. */
	TInst *i = sema_emit(ck, OP_CONVERT_LAYOUT, call->span, t, 1, x);
	i->res->layout_at = a[1]->span;
	i->attr.trivial = trivial;
	return result(ck, i, call->span);
}

static Value *
call_set_auto_layout(Check *ck, const Node *call, Value **a)
{
	TValue *x = sema_tensor_arg(ck, a[0], sema_fn_name(ck, "set_auto_layout's value"));
	const LLDesc *l = sema_value_layout(ck, a[1], sema_fn_name(ck, "set_auto_layout's layout"), false);
	if (!x || !l)
		return NULL;
	TType *t = sema_tensor_type(ck, a[1]->span, sema_type_elem(ck, x->type), x->type->shape,
	                       x->type->rank, l);
	if (!t)
		return NULL;
	if (sema_auto_involved(ck, x->type->layout.desc)) {
		/* x's unknown becomes l (the layout-infer pass unifies the two
		 * sides of a trivial conversion, which then moves nothing) */
		TInst *i = sema_emit(ck, OP_CONVERT_LAYOUT, call->span, t, 1, x);
		i->res->layout_at = a[1]->span;
		i->attr.trivial = true;
		return result(ck, i, call->span);
	}
	if (!ll_equal(&t->layout.ll, &x->type->layout.ll)) {
		TValue want = {.type = t, .layout_at = a[1]->span};
		sema_layout_clash(ck, call->span, "gl.set_auto_layout on a tensor whose layout is "
		             "already fixed", x, "the tensor", &want, "the requested layout");
		return NULL;
	}
	return a[0];
}

static Value *
call_where(Check *ck, const Node *call, Value **a)
{
	TValue *c = sema_materialize(ck, a[0], DT_I1);
	if (!c)
		return NULL;
	if (c->type->dtype != DT_I1 || c->type->kind > TY_TENSOR || c->type->elem_is_ptr) {
		diag_error(ck->d, a[0]->span, "gl.where's condition must be i1, not %s",
		           sema_type_str(ck, c->type));
		return NULL;
	}
	/* the dtype of x op y decides; a select on it keeps the shapes */
	const TType *tx = a[1]->kind == VAL_RUNTIME ? a[1]->u.rt->type : NULL;
	const TType *ty = a[2]->kind == VAL_RUNTIME ? a[2]->u.rt->type : NULL;
	TDType dx = tx ? tx->dtype : sema_literal_dtype(a[1]);
	TDType dy = ty ? ty->dtype : sema_literal_dtype(a[2]);
	TDType dt = sema_computation_type(dx, !tx, dy, !ty, false);
	if (dt == DT_VOID) {
		diag_error(ck->d, call->span, "gl.where has no common type for %s and %s",
		           ir_dtype_name(dx), ir_dtype_name(dy));
		return NULL;
	}
	TValue *x = sema_materialize(ck, a[1], dt), *y = sema_materialize(ck, a[2], dt);
	if (!x || !y)
		return NULL;
	x = sema_cast_to(ck, x, dt, call->span);
	y = sema_cast_to(ck, y, dt, call->span);
	if (!sema_unify_shapes(ck, call->span, sema_fn_name(ck, "where"), &x, &y) ||
	    !sema_unify_shapes(ck, call->span, sema_fn_name(ck, "where"), &c, &x) ||
	    !sema_unify_shapes(ck, call->span, sema_fn_name(ck, "where"), &x, &y))
		return NULL;
	TInst *i = sema_emit(ck, OP_SELECT, call->span, x->type, 3, c, x, y);
	i->res->layout_at = x->layout_at;
	return result(ck, i, call->span);
}

/* gl.to_tensor(x): a runtime value as it is, a number as a constant. */
static Value *
call_to_tensor(Check *ck, const Node *call, Value **a)
{
	if (a[0]->kind == VAL_RUNTIME)
		return a[0];
	TValue *t = sema_materialize(ck, a[0], DT_VOID);
	return t ? sema_rt_value(ck, t, call->span) : NULL;
}

/* A binary operator called by name: gl.add, gl.sub, gl.mul, and Python's
 * min and max of a runtime value. */
static Value *
call_operator(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	if (fn == BF_MIN_PY || fn == BF_MAX_PY) {
		TValue *r = sema_arith(ck, call->span, fn == BF_MIN_PY ? OP_MIN : OP_MAX, a[0], a[1]);
		return r ? sema_rt_value(ck, r, call->span) : NULL;
	}
	/* sanitize_overflow only adds checks in Triton's debug mode; the
	 * values are those of the operators. */
	bool sanitize;
	if (!sema_opt_bool(ck, a[2], true, "sanitize_overflow", &sanitize))
		return NULL;
	TValue *r = sema_arith(ck, call->span, fn == BF_ADD ? OP_ADD : fn == BF_SUB ? OP_SUB
	                                                     : OP_MUL, a[0], a[1]);
	return r ? sema_rt_value(ck, r, call->span) : NULL;
}

Value *
sema_check_tensor_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	switch (fn) {
	case BF_PROGRAM_ID: case BF_NUM_PROGRAMS: return call_axis_query(ck, call, fn, a);
	case BF_ARANGE: return call_arange(ck, call, a);
	case BF_FULL: return call_full(ck, call, false, a);
	case BF_ZEROS: return call_full(ck, call, true, a);
	case BF_FULL_LIKE: return call_full_like(ck, call, false, a);
	case BF_ZEROS_LIKE: return call_full_like(ck, call, true, a);
	case BF_TO_TENSOR: return call_to_tensor(ck, call, a);
	case BF_TO_LINEAR_LAYOUT: return call_to_linear_layout(ck, call, a);
	case BF_WHERE: return call_where(ck, call, a);
	case BF_CONVERT_LAYOUT: return call_convert(ck, call, a);
	case BF_SET_AUTO_LAYOUT: return call_set_auto_layout(ck, call, a);
	case BF_EXPAND_DIMS: return call_expand_dims(ck, call, a);
	default: return call_operator(ck, call, fn, a);
	}
}
