/*
 * Shape operations on register tensors: gl.reshape, gl.ravel, gl.permute,
 * gl.join, gl.split, gl.fp4_to_fp and gl.broadcast, whose result layouts
 * come from the linear-layout algebra as Gluon infers them (Triton's
 * infer{Reshape,Trans,Join,Split,Fp4ToFp}OpEncoding): each thread keeps the
 * elements it holds, so the operations only rename registers. A result is
 * described as the BlockedLayout Triton derives from a blocked operand
 * when that gives the same map, else as a DistributedLinearLayout. Also
 * gl.gather (the index's shape and layout) and gl.histogram (the layout
 * given).
 */
#include "sema/builtins/builtins.h"

#include <string.h>

static int64_t
numel(const int64_t *shape, int rank)
{
	int64_t n = 1;
	for (int d = 0; d < rank; d++)
		n *= shape[d];
	return n;
}

/* A tensor of element type elem over shape in distributed map ll (fitted to
 * that shape), described as a DistributedLinearLayout. */
static TType *
linear_type(Check *ck, SrcSpan at, const TType *elem, const int64_t *shape, int rank,
            const LLayout *ll)
{
	const LLDesc *d = ll_desc_distributed_linear(ck->a, ll, shape, rank);
	TType *t = sema_tensor_type(ck, at, elem, shape, rank, d);
	if (t && !ll_equal(&t->layout.ll, ll)) {
		diag_error(ck->d, at, "internal error: the inferred layout does not rebuild");
		return NULL;
	}
	return t;
}

/* Whether x's layout is decided: the algebra derives a reshaped, permuted,
 * joined or split layout from it, so it cannot be left to inference. */
static bool
known_layout(Check *ck, SrcSpan at, const TValue *x, const char *what)
{
	if (!sema_auto_involved(ck, x->type->layout.desc))
		return true;
	Diag *g = diag_error(ck->d, at, "%s has a layout left to inference (AutoLayout); this "
	                     "operation derives its result's layout from it, so it must be "
	                     "known here", what);
	diag_note(ck->d, g, x->layout_at, "the layout comes from here; give it layout=... or "
	          "use gl.set_auto_layout");
	return false;
}

/* The type of shape operation op's result on x (arg[0..n-1]: a reshape's
 * shape, a permute's order), whose layout the algebra derives from x's
 * (ll_shape_result). In a tl function whose x has a layout left to
 * inference, the result gets an AutoLayout of its own (*derived set),
 * which the layout-infer pass derives once x's is decided; elsewhere an
 * inferred layout of x is an error. NULL after a diagnostic. */
static const TType *
shape_result(Check *ck, SrcSpan at, LLShapeOp op, const TValue *x, const int64_t *arg, int n,
             const char *what, bool *derived)
{
	const TType *xt = x->type;
	int64_t shape[LL_MAX_RANK];
	int rank;
	*derived = sema_in_tl(ck) && sema_auto_involved(ck, xt->layout.desc);
	if (*derived) {
		rank = op == LL_OP_RESHAPE ? n : op == LL_OP_JOIN ? xt->rank + 1 : op == LL_OP_SPLIT
		       ? xt->rank - 1 : xt->rank;
		for (int d = 0; d < rank; d++)
			shape[d] = op == LL_OP_RESHAPE ? arg[d] : op == LL_OP_PERMUTE ? xt->shape[arg[d]]
			           : d < xt->rank ? xt->shape[d] : 2;
		return sema_tensor_type(ck, at, sema_type_elem(ck, xt), shape, rank,
		                        sema_auto_source(ck, at, shape, rank));
	}
	if (!known_layout(ck, at, x, what))
		return NULL;
	LLayout ll;
	LLErr err = {ck->a, NULL};
	const LLDesc *d = ll_shape_result(ck->a, op, xt->layout.desc, &xt->layout.ll, xt->shape,
	                                  xt->rank, arg, n, ck->k->num_warps, shape, &rank, &ll,
	                                  &err);
	if (!d) {
		const char *msg = err.msg ? err.msg : "no such layout";
		Diag *g = op == LL_OP_SPLIT ? diag_error(ck->d, at, "%s; convert_layout first", msg)
		        : op == LL_OP_RESHAPE ? diag_error(ck->d, at, "cannot reshape this layout: %s", msg)
		        : diag_error(ck->d, at, "%s: %s", what, msg);
		diag_note(ck->d, g, x->layout_at, "the tensor's layout was fixed here");
		return NULL;
	}
	return rank ? sema_tensor_type(ck, at, sema_type_elem(ck, xt), shape, rank, d)
	            : sema_type_scalar(ck, xt->dtype);
}

/* The result r of a shape operation just emitted: in a tl function, when
 * its layout is derived, softly converted to a layout of its users'. */
static TValue *
shaped(Check *ck, SrcSpan at, TValue *r, bool derived)
{
	return derived ? sema_soft_fresh(ck, at, r) : r;
}

TValue *
sema_reshape(Check *ck, SrcSpan at, TValue *x, const int64_t *shape, int rank)
{
	const TType *xt = x->type;
	if (numel(shape, rank) != numel(xt->shape, xt->rank)) {
		StrBuf b = {0};
		ir_shape_print(shape, rank, &b);
		diag_error(ck->d, at, "cannot reshape %s (%lld elements) to %s (%lld elements)",
		           sema_type_str(ck, xt), (long long)numel(xt->shape, xt->rank), b.s,
		           (long long)numel(shape, rank));
		buf_free(&b);
		return NULL;
	}
	/* the same shape: the operand itself where Triton keeps its description
	 * (an inferred layout too) */
	if (rank == xt->rank && memcmp(shape, xt->shape, (size_t)rank * sizeof *shape) == 0 &&
	    (sema_auto_involved(ck, xt->layout.desc) ||
	     ll_desc_reshaped(ck->a, xt->layout.desc, xt->shape, xt->rank, shape, rank,
	                      ck->k->num_warps)))
		return x;
	bool derived;
	const TType *t = shape_result(ck, at, LL_OP_RESHAPE, x, shape, rank,
	                              sema_fn_name(ck, "reshape"), &derived);
	if (!t)
		return NULL;
	return shaped(ck, at, sema_emit(ck, OP_RESHAPE, at, t, 1, x)->res, derived);
}

/* The integers of a `*name` argument: the items of tuple v, or of its
 * only item when that is a list or tuple (Triton's _unwrap_iterable). */
static bool
int_items(Check *ck, Value *v, SrcSpan at, const char *what, int64_t *out, int *n)
{
	if (v->u.list.n == 1 && (v->u.list.items[0]->kind == VAL_LIST ||
	                         v->u.list.items[0]->kind == VAL_TUPLE))
		v = v->u.list.items[0];
	if (v->u.list.n < 1 || v->u.list.n > LL_MAX_RANK) {
		diag_error(ck->d, at, "%s must list 1 to %d integers, not %zu", what, LL_MAX_RANK,
		           v->u.list.n);
		return false;
	}
	*n = (int)v->u.list.n;
	for (int i = 0; i < *n; i++)
		if (!sema_value_int(ck, v->u.list.items[i], what, &out[i]))
			return false;
	return true;
}

static bool
no_reorder(Check *ck, const Value *v, const char *fname)
{
	bool reorder;
	if (!sema_opt_bool(ck, v, false, "can_reorder", &reorder))
		return false;
	/* tl may give the elements in any order: in order is one */
	if (reorder && !sema_in_tl(ck))
		diag_error(ck->d, v->span, "%s: can_reorder is not supported in Gluon", fname);
	return !reorder;
}

static Value *
call_reshape(Check *ck, const Node *call, TValue *x, Value **a)
{
	int64_t shape[LL_MAX_RANK];
	int rank;
	const char *fname = sema_fn_name(ck, "reshape");
	if (!int_items(ck, a[1], call->span, arena_printf(ck->a, "%s's shape", fname), shape,
	               &rank) || !no_reorder(ck, a[2], fname))
		return NULL;
	for (int d = 0; d < rank; d++)
		if (shape[d] < 1 || (shape[d] & (shape[d] - 1))) {
			diag_error(ck->d, call->span, "%s: dimension %d is %lld; every dimension "
			           "must be a power of two", fname, d, (long long)shape[d]);
			return NULL;
		}
	TValue *r = sema_reshape(ck, call->span, x, shape, rank);
	return r ? sema_rt_value(ck, r, call->span) : NULL;
}

static Value *
call_permute(Check *ck, const Node *call, TValue *x, Value **a)
{
	const TType *xt = x->type;
	int64_t order[LL_MAX_RANK];
	int n;
	const char *fname = sema_fn_name(ck, sema_builtin_fn(ck->call) == BF_TRANS ? "trans"
	                                                                            : "permute");
	const Value *dims = a[1]->u.list.n == 1 && a[1]->u.list.items[0]->kind == VAL_TUPLE
	                    ? a[1]->u.list.items[0] : a[1];
	if (sema_builtin_fn(ck->call) == BF_TRANS && dims->u.list.n == 0) {
		/* tl.trans(x): the last two dims swapped */
		if (xt->rank < 2) {
			diag_error(ck->d, call->span, "%s of a rank-%d tensor: it swaps the last two "
			           "dims", fname, xt->rank);
			return NULL;
		}
		n = xt->rank;
		for (int d = 0; d < n; d++)
			order[d] = d < n - 2 ? d : d == n - 2 ? n - 1 : n - 2;
	} else if (!int_items(ck, a[1], call->span, arena_printf(ck->a, "%s's dims", fname), order,
	                      &n)) {
		return NULL;
	}
	return sema_permute(ck, call->span, a[1]->span, x, order, n, fname);
}

Value *
sema_permute(Check *ck, SrcSpan at, SrcSpan dims_at, TValue *x, const int64_t *order, int n,
             const char *fname)
{
	const TType *xt = x->type;
	unsigned seen = 0;
	bool identity = true;
	for (int d = 0; d < n; d++) {
		if (n != xt->rank || order[d] < 0 || order[d] >= n || (seen >> order[d] & 1)) {
			diag_error(ck->d, dims_at, "%s's dims must be a permutation of 0..%d for a "
			           "rank-%d tensor", fname, xt->rank - 1, xt->rank);
			return NULL;
		}
		seen |= 1u << order[d];
		identity &= order[d] == d;
	}
	if (identity)
		return sema_rt_value(ck, x, at);
	bool derived;
	const TType *t = shape_result(ck, at, LL_OP_PERMUTE, x, order, n, fname, &derived);
	if (!t)
		return NULL;
	TInst *i = sema_emit(ck, OP_PERMUTE, at, t, 1, x);
	for (int k = 0; k < n; k++)
		i->attr.order[k] = order[k];
	return sema_rt_value(ck, shaped(ck, at, i->res, derived), at);
}

static Value *
call_join(Check *ck, const Node *call, Value **a)
{
	const char *fname = sema_fn_name(ck, "join");
	TValue *x = sema_materialize(ck, a[0], DT_VOID), *y = sema_materialize(ck, a[1], DT_VOID);
	if (!x || !y || !sema_unify_shapes(ck, call->span, fname, &x, &y))
		return NULL;
	const TType *xt = x->type;
	if (xt->kind != TY_TENSOR || xt->dtype != y->type->dtype || xt->rank >= LL_MAX_RANK) {
		diag_error(ck->d, call->span, "%s needs two tensors of one dtype and rank below %d, "
		           "not %s and %s", fname, LL_MAX_RANK, sema_type_str(ck, xt),
		           sema_type_str(ck, y->type));
		return NULL;
	}
	/* the pass relates no layouts through a join: in a tl function Triton
	 * converts b to a's layout where they differ (the pass merges the two
	 * when they can be one) */
	if (sema_in_tl(ck) && !(y = sema_soft_convert(ck, call->span, y, xt->layout.desc)))
		return NULL;
	bool derived;
	const TType *t = shape_result(ck, call->span, LL_OP_JOIN, x, NULL, 0,
	                              arena_printf(ck->a, "%s's a", fname), &derived);
	if (!t)
		return NULL;
	TInst *i = sema_emit(ck, OP_JOIN, call->span, t, 2, x, y);
	return sema_rt_value(ck, shaped(ck, call->span, i->res, derived), call->span);
}

static Value *
call_split(Check *ck, const Node *call, TValue *x)
{
	/* Triton moves the operand to a layout holding the last dim in each
	 * thread's registers where it does not (the pass picks it) */
	if (sema_in_tl(ck) && x->type->kind == TY_TENSOR && x->type->rank > 1 &&
	    !(x = sema_soft_fresh(ck, call->span, x)))
		return NULL;
	const TType *xt = x->type;
	int r = xt->rank - 1;
	if (xt->shape[r] != 2) {
		diag_error(ck->d, call->span, "split needs a last dimension of size 2; this tensor "
		           "is %s", sema_type_str(ck, xt));
		return NULL;
	}
	if (r == 0 && !(xt->layout.desc->kind == LL_SLICE && xt->layout.desc->dim == 0)) {
		Diag *g = diag_error(ck->d, call->span, "split of a rank-1 tensor needs a "
		                     "SliceLayout(0, ...): Gluon splits it as expand_dims(a, 0)");
		diag_note(ck->d, g, x->layout_at, "the tensor's layout was fixed here");
		return NULL;
	}
	bool derived;
	const TType *t = shape_result(ck, call->span, LL_OP_SPLIT, x, NULL, 0,
	                              sema_fn_name(ck, "split"), &derived);
	if (!t)
		return NULL;
	Value *out = sema_new_value(&ck->ev, VAL_TUPLE, call->span);
	out->u.list.items = arena_alloc(ck->a, 2 * sizeof *out->u.list.items);
	out->u.list.n = 2;
	for (int k = 0; k < 2; k++) {
		TInst *i = sema_emit(ck, OP_SPLIT, call->span, t, 1, x);
		i->attr.index = k;
		i->res->layout_at = x->layout_at;
		out->u.list.items[k] = sema_rt_value(ck, shaped(ck, call->span, i->res, derived),
		                                     call->span);
	}
	return out;
}

/* gl.fp4_to_fp(src, elem_type, axis): the e2m1 pairs packed in bytes
 * unpacked to bf16 or f16, the low nibble first, the axis twice as long.
 * The result's register 2r + b is nibble b of the operand's register r
 * (ll_fp4_unpacked), described as Triton does when the description builds
 * exactly that map. */
static Value *
call_fp4_to_fp(Check *ck, const Node *call, Value **a)
{
	TValue *x = sema_tensor_arg(ck, a[0], sema_fn_name(ck, "fp4_to_fp's src"));
	TDType et;
	int64_t axis;
	if (!x || !sema_value_dtype(ck, a[1], sema_fn_name(ck, "fp4_to_fp's elem_type"), &et) ||
	    !sema_value_int(ck, a[2], sema_fn_name(ck, "fp4_to_fp's axis"), &axis) ||
	    !known_layout(ck, a[0]->span, x, sema_fn_name(ck, "fp4_to_fp's src")))
		return NULL;
	const TType *xt = x->type;
	if ((xt->dtype != DT_U8 && xt->dtype != DT_I8) || xt->elem_is_ptr) {
		diag_error(ck->d, a[0]->span, "gl.fp4_to_fp unpacks bytes (a uint8 or int8 tensor "
		           "of e2m1 pairs), not %s", sema_type_str(ck, xt));
		return NULL;
	}
	if (et != DT_BF16 && et != DT_F16) {
		diag_error(ck->d, a[1]->span, "gl.fp4_to_fp gives bfloat16 or float16, not %s (as "
		           "in Triton 3.6)", ir_dtype_name(et));
		return NULL;
	}
	if (axis < 0 || axis >= xt->rank) {
		diag_error(ck->d, a[2]->span, "axis %lld is out of range for a rank-%d tensor (0 to "
		           "%d)", (long long)axis, xt->rank, xt->rank - 1);
		return NULL;
	}
	int64_t shape[LL_MAX_RANK];
	memcpy(shape, xt->shape, sizeof shape);
	shape[axis] *= 2;
	LLayout ll, built;
	LLErr err = {ck->a, NULL};
	if (!ll_fp4_unpacked(&xt->layout.ll, (int)axis, &ll, &err)) {
		diag_error(ck->d, call->span, "gl.fp4_to_fp: %s", err.msg);
		return NULL;
	}
	const LLDesc *nice = ll_desc_fp4_unpacked(ck->a, xt->layout.desc, (int)axis, xt->rank);
	const TType *elem = sema_type_scalar(ck, et);
	TType *t = nice && ll_build(nice, shape, xt->rank, ck->k->num_warps, &built, &err) &&
	           ll_equal(&built, &ll)
	           ? sema_tensor_type(ck, call->span, elem, shape, xt->rank, nice)
	           : linear_type(ck, call->span, elem, shape, xt->rank, &ll);
	if (!t)
		return NULL;
	TInst *i = sema_emit(ck, OP_FP4_TO_FP, call->span, t, 1, x);
	i->attr.axis = (int)axis;
	i->res->layout_at = x->layout_at;
	return sema_rt_value(ck, i->res, call->span);
}

static Value *
call_gather(Check *ck, const Node *call, Value **a)
{
	TValue *src = sema_tensor_arg(ck, a[0], sema_fn_name(ck, "gather's src"));
	TValue *idx = src ? sema_tensor_arg(ck, a[1], sema_fn_name(ck, "gather's index")) : NULL;
	int64_t axis;
	if (!idx || !sema_value_int(ck, a[2], sema_fn_name(ck, "gather's axis"), &axis))
		return NULL;
	const TType *st = src->type, *it = idx->type;
	if (ir_dtype_is_float(it->dtype) || it->elem_is_ptr || it->dtype == DT_I1) {
		diag_error(ck->d, a[1]->span, "gl.gather's index must be an integer tensor, not %s",
		           sema_type_str(ck, it));
		return NULL;
	}
	if (st->elem_is_ptr) {
		diag_error(ck->d, a[0]->span, "gl.gather cannot gather pointers (%s)",
		           sema_type_str(ck, st));
		return NULL;
	}
	if (it->rank != st->rank) {
		diag_error(ck->d, a[1]->span, "%s's source and index tensors must have the same rank; "
		           "they are %s and %s", sema_fn_name(ck, "gather"), sema_type_str(ck, st),
		           sema_type_str(ck, it));
		return NULL;
	}
	if (axis < -st->rank || axis >= st->rank) {
		diag_error(ck->d, a[2]->span, "axis %lld is out of range for a rank-%d tensor",
		           (long long)axis, st->rank);
		return NULL;
	}
	if (axis < 0)
		axis += st->rank;
	for (int d = 0; d < st->rank; d++)
		if (d != axis && it->shape[d] != st->shape[d]) {
			diag_error(ck->d, a[1]->span, "gl.gather's index dim %d (%lld) must match the "
			           "source's (%lld); only dim %lld may differ", d, (long long)it->shape[d],
			           (long long)st->shape[d], (long long)axis);
			return NULL;
		}
	const TType *rt = sema_type_with_elem(ck, it, sema_type_scalar(ck, st->dtype));
	TInst *i = sema_emit(ck, OP_GATHER, call->span, rt, 2, src, idx);
	i->attr.axis = (int)axis;
	i->res->layout_at = idx->layout_at;
	return sema_rt_value(ck, i->res, call->span);
}

static Value *
call_histogram(Check *ck, const Node *call, Value **a)
{
	TValue *x = sema_tensor_arg(ck, a[0], sema_fn_name(ck, "histogram's input")), *m = NULL;
	int64_t bins;
	if (!x || !sema_value_int(ck, a[1], sema_fn_name(ck, "histogram's num_bins"), &bins))
		return NULL;
	const TType *xt = x->type;
	if (xt->rank != 1 || ir_dtype_is_float(xt->dtype) || xt->elem_is_ptr) {
		diag_error(ck->d, a[0]->span, "gl.histogram needs a 1-D integer tensor, not %s",
		           sema_type_str(ck, xt));
		return NULL;
	}
	if (bins < 1 || bins > (1 << 20) || (bins & (bins - 1))) {
		diag_error(ck->d, a[1]->span, "gl.histogram's num_bins is %lld; it must be a power of "
		           "two up to 2^20", (long long)bins);
		return NULL;
	}
	if ((!a[3] || a[3]->kind == VAL_NONE) && !sema_in_tl(ck)) {
		diag_error(ck->d, call->span, "gl.histogram requires a destination layout "
		           "(layout=...)");
		return NULL;
	}
	if (a[2] && a[2]->kind != VAL_NONE) {
		if (!(m = sema_materialize(ck, a[2], DT_I1)) ||
		    !sema_unify_shapes(ck, call->span, sema_fn_name(ck, "histogram's mask"), &m, &x))
			return NULL;
		if (m->type->dtype != DT_I1) {
			diag_error(ck->d, a[2]->span, "gl.histogram's mask must be i1, not %s",
			           sema_type_str(ck, m->type));
			return NULL;
		}
	}
	SrcSpan lat;
	const LLDesc *l = sema_auto_layout_arg(ck, a[3], call->span, &bins, 1,
	                                       sema_fn_name(ck, "histogram's layout"), &lat);
	TType *t = l ? sema_tensor_type(ck, lat, sema_type_scalar(ck, DT_I32), &bins, 1, l) : NULL;
	if (!t)
		return NULL;
	TInst *i = sema_emit(ck, OP_HISTOGRAM, call->span, t, 1 + (m != NULL), x, m);
	i->attr.has_mask = m != NULL;
	i->res->layout_at = lat;
	return sema_rt_value(ck, i->res, call->span);
}

static Value *
call_broadcast(Check *ck, const Node *call, Value **a)
{
	TValue *x = sema_materialize(ck, a[0], DT_VOID), *y = sema_materialize(ck, a[1], DT_VOID);
	if (!x || !y || !sema_unify_shapes(ck, call->span, sema_fn_name(ck, "broadcast"), &x, &y))
		return NULL;
	Value *out = sema_new_value(&ck->ev, VAL_TUPLE, call->span);
	out->u.list.items = arena_alloc(ck->a, 2 * sizeof *out->u.list.items);
	out->u.list.n = 2;
	out->u.list.items[0] = sema_rt_value(ck, x, call->span);
	out->u.list.items[1] = sema_rt_value(ck, y, call->span);
	return out;
}

Value *
sema_check_shape_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	switch (fn) {
	case BF_JOIN: return call_join(ck, call, a);
	case BF_BROADCAST: return call_broadcast(ck, call, a);
	case BF_GATHER: return call_gather(ck, call, a);
	case BF_HISTOGRAM: return call_histogram(ck, call, a);
	case BF_FP4_TO_FP: return call_fp4_to_fp(ck, call, a);
	default: break;
	}
	static const char *const what[] = {
		[BF_RESHAPE] = "reshape", [BF_PERMUTE] = "permute", [BF_SPLIT] = "split",
		[BF_RAVEL] = "ravel", [BF_TRANS] = "trans",
	};
	TValue *x = sema_tensor_arg(ck, a[0], arena_printf(ck->a, "%s's input",
	                                                  sema_fn_name(ck, what[fn])));
	if (!x)
		return NULL;
	switch (fn) {
	case BF_RESHAPE: return call_reshape(ck, call, x, a);
	case BF_PERMUTE: case BF_TRANS: return call_permute(ck, call, x, a);
	case BF_SPLIT: return call_split(ck, call, x);
	default: {
		int64_t n = numel(x->type->shape, x->type->rank);
		TValue *r = no_reorder(ck, a[1], sema_fn_name(ck, "ravel"))
		            ? sema_reshape(ck, call->span, x, &n, 1)
		                                             : NULL;
		return r ? sema_rt_value(ck, r, call->span) : NULL;
	}
	}
}
