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

static int
log2_of(int64_t n)
{
	int b = 0;
	while ((int64_t)1 << b < n)
		b++;
	return b;
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

/* A tensor of xt's element type over shape in map ll: described by nice
 * (a constructor form, or NULL) when it builds to ll up to the order of the
 * registers (as Triton accepts), else by a DistributedLinearLayout. */
static TType *
result_type(Check *ck, SrcSpan at, const TType *xt, const int64_t *shape, int rank,
            const LLDesc *nice, const LLayout *ll)
{
	LLayout built;
	LLErr err = {ck->a, NULL};
	if (nice && ll_build(nice, shape, rank, ck->k->num_warps, &built, &err) &&
	    ll_same_threads(&built, ll))
		return sema_tensor_type(ck, at, sema_type_elem(ck, xt), shape, rank, nice);
	return linear_type(ck, at, sema_type_elem(ck, xt), shape, rank, ll);
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
	const LLDesc *nice = ll_desc_reshaped(ck->a, xt->layout.desc, xt->shape, xt->rank, shape,
	                                      rank, ck->k->num_warps);
	if (rank == xt->rank && memcmp(shape, xt->shape, (size_t)rank * sizeof *shape) == 0 &&
	    nice)
		return x;
	int bits[LL_MAX_RANK];
	for (int d = 0; d < rank; d++)
		bits[d] = log2_of(shape[d]);
	LLayout ll;
	LLErr err = {ck->a, NULL};
	if (!ll_reshape_outs(&xt->layout.ll, bits, rank, &ll, &err)) {
		diag_error(ck->d, at, "cannot reshape this layout: %s", err.msg);
		return NULL;
	}
	TType *t = result_type(ck, at, xt, shape, rank, nice, &ll);
	if (!t)
		return NULL;
	TInst *i = sema_emit(ck, OP_RESHAPE, at, t, 1, x);
	return i->res;
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
	if (reorder)
		diag_error(ck->d, v->span, "%s: can_reorder is not supported in Gluon", fname);
	return !reorder;
}

static Value *
call_reshape(Check *ck, const Node *call, TValue *x, Value **a)
{
	int64_t shape[LL_MAX_RANK];
	int rank;
	if (!int_items(ck, a[1], call->span, "gl.reshape's shape", shape, &rank) ||
	    !no_reorder(ck, a[2], "gl.reshape"))
		return NULL;
	for (int d = 0; d < rank; d++)
		if (shape[d] < 1 || (shape[d] & (shape[d] - 1))) {
			diag_error(ck->d, call->span, "gl.reshape: dimension %d is %lld; every dimension "
			           "must be a power of two", d, (long long)shape[d]);
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
	int n, perm[LL_MAX_RANK];
	unsigned seen = 0;
	if (!int_items(ck, a[1], call->span, "gl.permute's dims", order, &n))
		return NULL;
	for (int d = 0; d < n; d++) {
		if (n != xt->rank || order[d] < 0 || order[d] >= n || (seen >> order[d] & 1)) {
			diag_error(ck->d, a[1]->span, "gl.permute's dims must be a permutation of 0..%d "
			           "for a rank-%d tensor", xt->rank - 1, xt->rank);
			return NULL;
		}
		seen |= 1u << order[d];
		perm[d] = (int)order[d];
	}
	int64_t shape[LL_MAX_RANK];
	for (int d = 0; d < n; d++)
		shape[d] = xt->shape[perm[d]];
	LLayout ll;
	LLErr err = {ck->a, NULL};
	if (!ll_permute_outs(&xt->layout.ll, perm, &ll, &err)) {
		diag_error(ck->d, call->span, "gl.permute: %s", err.msg);
		return NULL;
	}
	const LLDesc *nice = ll_desc_permuted(ck->a, xt->layout.desc, perm, n);
	if (nice == xt->layout.desc)
		return sema_rt_value(ck, x, call->span);
	TType *t = result_type(ck, call->span, xt, shape, n, nice, &ll);
	if (!t)
		return NULL;
	TInst *i = sema_emit(ck, OP_PERMUTE, call->span, t, 1, x);
	for (int k = 0; k < n; k++)
		i->attr.order[k] = order[k];
	return sema_rt_value(ck, i->res, call->span);
}

static Value *
call_join(Check *ck, const Node *call, Value **a)
{
	TValue *x = sema_materialize(ck, a[0], DT_VOID), *y = sema_materialize(ck, a[1], DT_VOID);
	if (!x || !y || !sema_unify_shapes(ck, call->span, "gl.join", &x, &y) ||
	    (x->type->kind == TY_TENSOR && (!known_layout(ck, a[0]->span, x, "gl.join's a") ||
	                                    !known_layout(ck, a[1]->span, y, "gl.join's b"))))
		return NULL;
	const TType *xt = x->type;
	if (xt->kind != TY_TENSOR || xt->dtype != y->type->dtype || xt->rank >= LL_MAX_RANK) {
		diag_error(ck->d, call->span, "gl.join needs two tensors of one dtype and rank "
		           "below %d, not %s and %s", LL_MAX_RANK, sema_type_str(ck, xt),
		           sema_type_str(ck, y->type));
		return NULL;
	}
	int r = xt->rank;
	LLayout ll;
	LLErr err = {ck->a, NULL};
	if (!ll_join(&xt->layout.ll, &ll, &err)) {
		diag_error(ck->d, call->span, "gl.join: %s", err.msg);
		return NULL;
	}
	int64_t shape[LL_MAX_RANK];
	memcpy(shape, xt->shape, sizeof shape);
	shape[r] = 2;
	const LLDesc *nice = ll_desc_joined(ck->a, xt->layout.desc, r);
	TType *t = result_type(ck, call->span, xt, shape, r + 1, nice, &ll);
	if (!t)
		return NULL;
	return sema_rt_value(ck, sema_emit(ck, OP_JOIN, call->span, t, 2, x, y)->res, call->span);
}

static Value *
call_split(Check *ck, const Node *call, TValue *x)
{
	const TType *xt = x->type;
	int r = xt->rank - 1;
	LLayout ll;
	LLErr err = {ck->a, NULL};
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
	if (!ll_split(&xt->layout.ll, &ll, &err)) {
		Diag *g = diag_error(ck->d, call->span, "%s; convert_layout first", err.msg);
		diag_note(ck->d, g, x->layout_at, "the tensor's layout was fixed here");
		return NULL;
	}
	const TType *t = sema_type_scalar(ck, xt->dtype);
	const LLDesc *d = xt->layout.desc;
	if (r > 0) {
		const LLDesc *nice = ll_desc_split(ck->a, d, r + 1);
		if (!(t = result_type(ck, call->span, xt, xt->shape, r, nice, &ll)))
			return NULL;
	}
	Value *out = sema_new_value(&ck->ev, VAL_TUPLE, call->span);
	out->u.list.items = arena_alloc(ck->a, 2 * sizeof *out->u.list.items);
	out->u.list.n = 2;
	for (int k = 0; k < 2; k++) {
		TInst *i = sema_emit(ck, OP_SPLIT, call->span, t, 1, x);
		i->attr.index = k;
		i->res->layout_at = x->layout_at;
		out->u.list.items[k] = sema_rt_value(ck, i->res, call->span);
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
	TValue *x = sema_tensor_arg(ck, a[0], "gl.fp4_to_fp's src");
	TDType et;
	int64_t axis;
	if (!x || !sema_value_dtype(ck, a[1], "gl.fp4_to_fp's elem_type", &et) ||
	    !sema_value_int(ck, a[2], "gl.fp4_to_fp's axis", &axis) ||
	    !known_layout(ck, a[0]->span, x, "gl.fp4_to_fp's src"))
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
	TValue *src = sema_tensor_arg(ck, a[0], "gl.gather's src");
	TValue *idx = src ? sema_tensor_arg(ck, a[1], "gl.gather's index") : NULL;
	int64_t axis;
	if (!idx || !sema_value_int(ck, a[2], "gl.gather's axis", &axis))
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
		diag_error(ck->d, a[1]->span, "gl.gather's source and index tensors must have the "
		           "same rank; they are %s and %s", sema_type_str(ck, st), sema_type_str(ck, it));
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
	TValue *x = sema_tensor_arg(ck, a[0], "gl.histogram's input"), *m = NULL;
	int64_t bins;
	if (!x || !sema_value_int(ck, a[1], "gl.histogram's num_bins", &bins))
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
	if (!a[3] || a[3]->kind == VAL_NONE) {
		diag_error(ck->d, call->span, "gl.histogram requires a destination layout "
		           "(layout=...)");
		return NULL;
	}
	if (a[2] && a[2]->kind != VAL_NONE) {
		if (!(m = sema_materialize(ck, a[2], DT_I1)) ||
		    !sema_unify_shapes(ck, call->span, "gl.histogram's mask", &m, &x))
			return NULL;
		if (m->type->dtype != DT_I1) {
			diag_error(ck->d, a[2]->span, "gl.histogram's mask must be i1, not %s",
			           sema_type_str(ck, m->type));
			return NULL;
		}
	}
	SrcSpan lat;
	const LLDesc *l = sema_auto_layout_arg(ck, a[3], call->span, &bins, 1,
	                                       "gl.histogram's layout", &lat);
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
	if (!x || !y || !sema_unify_shapes(ck, call->span, "gl.broadcast", &x, &y))
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
		[BF_RESHAPE] = "gl.reshape's input", [BF_PERMUTE] = "gl.permute's input",
		[BF_SPLIT] = "gl.split's input", [BF_RAVEL] = "gl.ravel's input",
	};
	TValue *x = sema_tensor_arg(ck, a[0], what[fn]);
	if (!x || !known_layout(ck, a[0]->span, x, what[fn]))
		return NULL;
	switch (fn) {
	case BF_RESHAPE: return call_reshape(ck, call, x, a);
	case BF_PERMUTE: return call_permute(ck, call, x, a);
	case BF_SPLIT: return call_split(ck, call, x);
	default: {
		int64_t n = numel(x->type->shape, x->type->rank);
		TValue *r = no_reorder(ck, a[1], "gl.ravel") ? sema_reshape(ck, call->span, x, &n, 1)
		                                             : NULL;
		return r ? sema_rt_value(ck, r, call->span) : NULL;
	}
	}
}
