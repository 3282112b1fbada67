/*
 * triton.language's operations that Gluon has no name for: tl.view (a
 * reshape that may reorder: glc keeps the order), tl.broadcast_to,
 * tl.cat (of two 1-D tensors, which Triton allows only with
 * can_reorder=True; glc gives them in order, a then b), tl.condition (a
 * while loop's condition, as it is), and the tensor methods logical_and,
 * logical_or (of booleans) and item (the element of a one-element
 * tensor). tl.trans is shape.c's permute.
 */
#include "sema/builtins/builtins.h"

#include <string.h>

/* The integers of a `*shape` argument (one tuple or list of them, or the
 * values themselves) into out[0..*n-1]. */
static bool
shape_items(Check *ck, Value *v, const char *what, int64_t *out, int *n)
{
	if (v->u.list.n == 1 && (v->u.list.items[0]->kind == VAL_LIST ||
	                         v->u.list.items[0]->kind == VAL_TUPLE))
		v = v->u.list.items[0];
	return sema_value_shape(ck, v, what, out, n);
}

static Value *
call_view(Check *ck, const Node *call, Value **a)
{
	TValue *x = sema_tensor_arg(ck, a[0], "tl.view's input");
	int64_t shape[LL_MAX_RANK];
	int rank;
	if (!x || !shape_items(ck, a[1], "tl.view's shape", shape, &rank))
		return NULL;
	TValue *r = sema_reshape(ck, call->span, x, shape, rank);
	return r ? sema_rt_value(ck, r, call->span) : NULL;
}

static Value *
call_broadcast_to(Check *ck, const Node *call, Value **a)
{
	TValue *x = sema_materialize(ck, a[0], DT_VOID);
	int64_t shape[LL_MAX_RANK];
	int rank;
	if (!x || !shape_items(ck, a[1], "tl.broadcast_to's shape", shape, &rank))
		return NULL;
	if (x->type->kind != TY_TENSOR)
		return sema_rt_value(ck, sema_splat_to(ck, x, sema_tensor_type(ck, call->span,
		                     x->type, shape, rank, sema_auto_source(ck, call->span, shape,
		                                                            rank)), call->span),
		                     call->span);
	const TType *xt = x->type;
	bool ok = xt->rank == rank;
	for (int d = 0; ok && d < rank; d++)
		ok = xt->shape[d] == shape[d] || xt->shape[d] == 1;
	if (!ok) {
		StrBuf b = {0};
		ir_shape_print(shape, rank, &b);
		diag_error(ck->d, call->span, "tl.broadcast_to cannot broadcast %s to %s (dims of 1 "
		           "grow, the others stay)", sema_type_str(ck, xt), b.s);
		buf_free(&b);
		return NULL;
	}
	if (memcmp(xt->shape, shape, (size_t)rank * sizeof *shape) == 0)
		return sema_rt_value(ck, x, call->span);
	TValue *r = sema_broadcast(ck, x, shape, rank, call->span);
	return r ? sema_rt_value(ck, r, call->span) : NULL;
}

/* tl.cat(a, b): join, the new axis moved first, flattened. */
static Value *
call_cat(Check *ck, const Node *call, Value **a)
{
	bool reorder;
	if (!sema_opt_bool(ck, a[2], false, "can_reorder", &reorder))
		return NULL;
	if (!reorder) {
		diag_error(ck->d, call->span, "tl.cat needs can_reorder=True (Triton 3.6 implements "
		           "only that)");
		return NULL;
	}
	TValue *x = sema_tensor_arg(ck, a[0], "tl.cat's input");
	TValue *y = x ? sema_tensor_arg(ck, a[1], "tl.cat's other") : NULL;
	if (!y)
		return NULL;
	if (x->type->rank != 1 || !ir_type_equal(sema_type_elem(ck, x->type),
	                                         sema_type_elem(ck, y->type)) ||
	    x->type->shape[0] != y->type->shape[0]) {
		diag_error(ck->d, call->span, "tl.cat takes two 1-D tensors of one shape and dtype, "
		           "not %s and %s", sema_type_str(ck, x->type), sema_type_str(ck, y->type));
		return NULL;
	}
	Value *j[2] = {sema_rt_value(ck, x, a[0]->span), sema_rt_value(ck, y, a[1]->span)};
	Value *joined = sema_check_shape_call(ck, call, BF_JOIN, j);
	if (!joined)
		return NULL;
	Value *order = sema_list_value(&ck->ev, VAL_TUPLE, (Value *[]){
		sema_int_value(&ck->ev, 1, call->span), sema_int_value(&ck->ev, 0, call->span)}, 2,
		call->span);
	Value *p[2] = {joined, sema_list_value(&ck->ev, VAL_TUPLE, &order, 1, call->span)};
	Value *t = sema_check_shape_call(ck, call, BF_PERMUTE, p);
	int64_t n = 2 * x->type->shape[0];
	TValue *r = t ? sema_reshape(ck, call->span, t->u.rt, &n, 1) : NULL;
	return r ? sema_rt_value(ck, r, call->span) : NULL;
}

/* x.logical_and(y), x.logical_or(y): of booleans (Triton bitcasts other
 * dtypes to int1, which only booleans survive). */
static Value *
call_logical(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	const char *fname = fn == BF_LOGICAL_AND ? ".logical_and" : ".logical_or";
	for (int k = 0; k < 2; k++) {
		const TType *t = a[k]->kind == VAL_RUNTIME ? a[k]->u.rt->type : NULL;
		if (t ? t->dtype != DT_I1 || t->elem_is_ptr : a[k]->kind != VAL_BOOL) {
			diag_error(ck->d, a[k]->span, "%s takes booleans (int1), not %s", fname,
			           t ? sema_type_str(ck, t) : sema_value_kind_phrase(a[k]));
			return NULL;
		}
	}
	TValue *r = sema_arith(ck, call->span, fn == BF_LOGICAL_AND ? OP_AND : OP_OR, a[0], a[1]);
	return r ? sema_rt_value(ck, r, call->span) : NULL;
}

/* x.item(): the element of a one-element tensor, as a scalar. */
static Value *
call_item(Check *ck, const Node *call, Value **a)
{
	if (a[0]->kind != VAL_RUNTIME || a[0]->u.rt->type->kind != TY_TENSOR)
		return a[0];
	const TType *t = a[0]->u.rt->type;
	int64_t n = 1;
	for (int d = 0; d < t->rank; d++)
		n *= t->shape[d];
	if (n != 1) {
		diag_error(ck->d, call->span, ".item() of %s: only a one-element tensor has one",
		           sema_type_str(ck, t));
		return NULL;
	}
	Value *r[4] = {a[0]};
	return sema_check_reduce_call(ck, call, BF_MAX, r);
}

Value *
sema_check_tl_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	switch (fn) {
	case BF_VIEW: return call_view(ck, call, a);
	case BF_BROADCAST_TO: return call_broadcast_to(ck, call, a);
	case BF_CAT: return call_cat(ck, call, a);
	case BF_CONDITION: return a[0];
	case BF_LOGICAL_AND: case BF_LOGICAL_OR: return call_logical(ck, call, fn, a);
	default: return call_item(ck, call, a);
	}
}
