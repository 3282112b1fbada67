/*
 * Reductions and scans: gl.sum, gl.max, gl.min, gl.xor_sum, gl.reduce_or,
 * gl.reduce and gl.associative_scan, over one tensor or a tuple of them
 * (one shape, one layout). The builtin reductions combine with one IR op
 * (attr.combine); a user combine function is inlined once per operation
 * into a combine region (TInst.region and body, ended by OP_YIELD) that
 * code generation instantiates at every combine step. axis=None reduces
 * over every element, as Gluon does: the inputs are reshaped to one
 * dimension first (axis after axis while their layout is left to
 * inference).
 */
#include "sema/builtins/builtins.h"

#include <string.h>

enum { MAX_OPERANDS = 8 };

/* The inputs of a reduction or scan. */
typedef struct Operands {
	TValue *x[MAX_OPERANDS];
	int n;
	bool tuple;     /* given as a tuple: the result is a tuple too */
} Operands;

/* Whether x (the input `item`) holds values a reduction or scan can
 * combine: numbers, not pointers; a diagnostic otherwise. */
static bool
combinable(Check *ck, const Value *item, const TValue *x, const char *fname)
{
	if (!x->type->elem_is_ptr)
		return true;
	diag_error(ck->d, item->span, "%s cannot combine pointers (%s)", fname,
	           sema_type_str(ck, x->type));
	return false;
}

static bool
operands(Check *ck, Value *v, const char *fname, Operands *ops)
{
	bool tuple = (v->kind == VAL_TUPLE || v->kind == VAL_LIST) && !v->u.list.cls;
	size_t n = tuple ? v->u.list.n : 1;
	if (n < 1 || n > MAX_OPERANDS) {
		diag_error(ck->d, v->span, "%s takes 1 to %d inputs; this tuple has %zu", fname,
		           MAX_OPERANDS, n);
		return false;
	}
	ops->n = (int)n;
	ops->tuple = tuple;
	for (size_t k = 0; k < n; k++) {
		Value *item = tuple ? v->u.list.items[k] : v;
		TValue *x = sema_tensor_arg(ck, item, arena_printf(ck->a, "%s's input", fname));
		if (!x || !combinable(ck, item, x, fname))
			return false;
		ops->x[k] = x;
		if (!k)
			continue;
		if (!ir_same_shape(x->type, ops->x[0]->type)) {
			diag_error(ck->d, item->span, "%s's inputs must have one shape; input %zu is %s "
			           "but input 0 is %s", fname, k, sema_type_str(ck, x->type),
			           sema_type_str(ck, ops->x[0]->type));
			return false;
		}
		if (!sema_auto_unify(ck, item->span, ops->x[0], x) &&
		    !ll_equal(&x->type->layout.ll, &ops->x[0]->type->layout.ll)) {
			sema_layout_clash(ck, item->span, arena_printf(ck->a, "%s's inputs", fname),
			                  ops->x[0], "input 0", x, arena_printf(ck->a, "input %zu", k));
			return false;
		}
	}
	return true;
}

/* The axis argument v (NULL or None: *axis = -1 when none_ok) in range
 * for a rank-`rank` tensor, made non-negative. */
static bool
axis_arg(Check *ck, const Value *v, SrcSpan at, int rank, bool none_ok, int *axis)
{
	if (!v || v->kind == VAL_NONE) {
		if (none_ok) {
			*axis = -1;
			return true;
		}
		diag_error(ck->d, v ? v->span : at, "this operation needs an axis (an integer)");
		return false;
	}
	int64_t ax;
	if (!sema_value_int(ck, v, "the axis", &ax))
		return false;
	if (ax < -rank || ax >= rank) {
		diag_error(ck->d, v->span, "axis %lld is out of range for a rank-%d tensor",
		           (long long)ax, rank);
		return false;
	}
	*axis = (int)(ax < 0 ? ax + rank : ax);
	return true;
}

static bool
opt_dtype(Check *ck, const Value *v, const char *what, TDType *out)
{
	if (!v || v->kind == VAL_NONE) {
		*out = DT_VOID;
		return true;
	}
	return sema_value_dtype(ck, v, what, out);
}

/* The operation op over the inputs, with res_types[k] the type of result
 * k (the op's result is their tuple when there are several). */
static TInst *
emit_over(Check *ck, TOp op, SrcSpan at, const Operands *ops, const TType **res_types)
{
	const TType *rt = res_types[0];
	if (ops->n > 1) {
		TType *t = arena_alloc(ck->a, sizeof *t);
		t->kind = TY_TUPLE;
		t->elems = arena_alloc(ck->a, (size_t)ops->n * sizeof *t->elems);
		memcpy(t->elems, res_types, (size_t)ops->n * sizeof *t->elems);
		t->n_elems = ops->n;
		rt = t;
	}
	TInst *i = sema_emit(ck, op, at, rt, 0);
	i->n_args = ops->n;
	i->args = arena_alloc(ck->a, (size_t)ops->n * sizeof *i->args);
	memcpy(i->args, ops->x, (size_t)ops->n * sizeof *i->args);
	i->res->layout_at = ops->x[0]->layout_at;
	return i;
}

/* -- Combine regions ----------------------------------------------------------- */

/* Whether the region in b computes on scalars only: no memory access, no
 * synchronization, no tensor. Reports the first offender. */
static bool
scalar_only(Check *ck, const TBlock *b, const char *fname)
{
	for (size_t k = 0; k < b->n; k++) {
		const TInst *in = b->insts[k];
		bool ok = in->op <= OP_CAST || in->op == OP_CONST || in->op == OP_YIELD ||
		          in->op == OP_VAR_READ || in->op == OP_VAR_WRITE || in->op == OP_FOR ||
		          in->op == OP_IF || in->op == OP_WHILE || in->op == OP_BREAK ||
		          in->op == OP_CONTINUE;
		if (!ok || (in->res && in->res->type->kind != TY_SCALAR)) {
			diag_error(ck->d, in->at, "%s's combine function must compute on scalars only; "
			           "this %s cannot be part of it", fname, ir_op_name(in->op));
			return false;
		}
		if (!scalar_only(ck, &in->body, fname) || !scalar_only(ck, &in->else_body, fname) ||
		    !scalar_only(ck, &in->cond_block, fname))
			return false;
	}
	return true;
}

/* Ends the region with the function's result ret: n scalars of the inputs'
 * dtypes (compile-time numbers are converted). */
static bool
yield(Check *ck, SrcSpan at, Value *ret, const Operands *ops, const char *fname, const Node *f)
{
	Value *one[1] = {ret};
	Value **items = one;
	size_t count = 1;
	if ((ret->kind == VAL_TUPLE || ret->kind == VAL_LIST) && !ret->u.list.cls) {
		items = ret->u.list.items;
		count = ret->u.list.n;
	}
	if ((int)count != ops->n) {
		Diag *g = diag_error(ck->d, at, "%s's combine function must return %d value%s (one "
		                     "per input), but '%s' returns %zu", fname, ops->n,
		                     ops->n == 1 ? "" : "s", f->u.func.name, count);
		diag_note(ck->d, g, ret->span, "'%s' returns this", f->u.func.name);
		return false;
	}
	TInst *y = sema_emit(ck, OP_YIELD, at, NULL, 0);
	y->n_args = ops->n;
	y->args = arena_alloc(ck->a, (size_t)ops->n * sizeof *y->args);
	for (int k = 0; k < ops->n; k++) {
		TDType dt = ops->x[k]->type->dtype;
		TValue *v = sema_materialize(ck, items[k], dt);
		if (!v)
			return false;
		if (v->type->kind != TY_SCALAR || v->type->dtype != dt) {
			Diag *g = diag_error(ck->d, at, "%s's combine function returns %s for input %d, "
			                     "whose elements are %s", fname, sema_type_str(ck, v->type), k,
			                     ir_dtype_name(dt));
			diag_note(ck->d, g, items[k]->span, "'%s' returns this", f->u.func.name);
			return false;
		}
		y->args[k] = v;
	}
	return true;
}

/* Gives in its region's arguments: a scalar per input for the left group,
 * then the right one; returns them as values. */
static Value **
region_args(Check *ck, TInst *in, SrcSpan at, const Operands *ops)
{
	int n = ops->n;
	in->n_region = 2 * n;
	in->region = arena_alloc(ck->a, (size_t)(2 * n) * sizeof *in->region);
	Value **args = arena_alloc(ck->a, (size_t)(2 * n) * sizeof *args);
	for (int k = 0; k < 2 * n; k++) {
		TValue *v = arena_alloc(ck->a, sizeof *v);
		v->id = ck->k->n_values++;
		v->type = sema_type_scalar(ck, ops->x[k % n]->type->dtype);
		v->layout_at = at;
		in->region[k] = v;
		args[k] = sema_rt_value(ck, v, at);
	}
	return args;
}

/* The region of in (one input) combining by the IR op `op`: Triton's
 * _sum_combine and _prod_combine. */
static void
op_region(Check *ck, TInst *in, SrcSpan at, const Operands *ops, TOp op)
{
	region_args(ck, in, at, ops);
	TBlock *saved = ck->blk;
	ck->blk = &in->body;
	TInst *c = sema_emit(ck, op, at, in->region[0]->type, 2, in->region[0], in->region[1]);
	sema_emit(ck, OP_YIELD, at, NULL, 1, c->res);
	ck->blk = saved;
}

/* Inlines combine function fn (2n scalars in: the left group, then the
 * right one) into the region of in. */
static bool
build_region(Check *ck, TInst *in, SrcSpan at, const Value *fn, const Operands *ops,
             const char *fname)
{
	int n = ops->n;
	if (fn->kind != VAL_FUNC || sema_func_kind(ck, fn->u.func) != FK_JIT) {
		diag_error(ck->d, fn->span, "%s's combine_fn must be a %s function, not %s",
		           fname, sema_jit_name(ck), sema_value_kind_phrase(fn));
		return false;
	}
	const Node *f = fn->u.func;
	if ((int)f->u.func.params.len != 2 * n) {
		Diag *g = diag_error(ck->d, fn->span, "%s combines %d input%s, so its combine "
		                     "function takes %d scalars (the left group, then the right); "
		                     "'%s' takes %zu", fname, n, n == 1 ? "" : "s", 2 * n,
		                     f->u.func.name, f->u.func.params.len);
		diag_note(ck->d, g, f->span, "'%s' is defined here", f->u.func.name);
		return false;
	}
	Value **args = region_args(ck, in, at, ops);
	TBlock *saved = ck->blk;
	ck->blk = &in->body;
	int errors = ck->d->errors;
	Value *ret = sema_inline_call(ck, at, f, args, 2 * n);
	bool ok = ret && ck->d->errors == errors && yield(ck, at, ret, ops, fname, f) &&
	          scalar_only(ck, &in->body, fname);
	ck->blk = saved;
	return ok;
}

/* -- Results --------------------------------------------------------------------- */

/* x (a reduction of a tensor of type xt along axis) with that axis put
 * back as a dimension of size 1 (keep_dims): SliceLayout(axis, P) -> P. */
static TValue *
keep_dim(Check *ck, SrcSpan at, TValue *x, const TType *xt, int axis)
{
	int64_t sh[LL_MAX_RANK];
	memcpy(sh, xt->shape, sizeof sh);
	sh[axis] = 1;
	TType *kt = sema_tensor_type(ck, at, sema_type_elem(ck, x->type), sh, xt->rank,
	                             xt->layout.desc);
	if (!kt)
		return NULL;
	TInst *e = sema_emit(ck, OP_EXPAND_DIMS, at, kt, 1, x);
	e->attr.axis = axis;
	e->res->layout_at = x->layout_at;
	return e->res;
}

/* The value of the op's results: one, or a tuple (OP_EXTRACT each); keep_axis
 * >= 0 expands each result at that axis of the input type xt. */
static Value *
results(Check *ck, TInst *i, const Operands *ops, SrcSpan at, const TType *xt, int keep_axis)
{
	TValue *r[MAX_OPERANDS];
	for (int k = 0; k < ops->n; k++) {
		if (ops->n == 1) {
			r[k] = i->res;
		} else {
			TInst *g = sema_emit(ck, OP_EXTRACT, at, i->res->type->elems[k], 1, i->res);
			g->attr.index = k;
			g->res->layout_at = i->res->layout_at;
			r[k] = g->res;
		}
		if (keep_axis >= 0 && r[k]->type->kind == TY_TENSOR &&
		    !(r[k] = keep_dim(ck, at, r[k], xt, keep_axis)))
			return NULL;
	}
	if (!ops->tuple)
		return sema_rt_value(ck, r[0], at);
	Value *t = sema_new_value(&ck->ev, VAL_TUPLE, at);
	t->u.list.items = arena_alloc(ck->a, (size_t)ops->n * sizeof *t->u.list.items);
	t->u.list.n = (size_t)ops->n;
	for (int k = 0; k < ops->n; k++)
		t->u.list.items[k] = sema_rt_value(ck, r[k], at);
	return t;
}

/* The type of a tensor of type xt reduced along axis: a scalar for rank 1,
 * else SliceLayout(axis, xt's layout). */
static const TType *
reduced_type(Check *ck, SrcSpan at, const TType *xt, int axis)
{
	if (xt->rank == 1)
		return sema_type_scalar(ck, xt->dtype);
	int64_t sh[LL_MAX_RANK];
	int r = 0;
	for (int d = 0; d < xt->rank; d++)
		if (d != axis)
			sh[r++] = xt->shape[d];
	return sema_tensor_type(ck, at, sema_type_elem(ck, xt), sh, r,
	                        ll_desc_slice(ck->a, xt->layout.desc, axis));
}

/* The reduction along axis (-1: over all elements) of ops by combine op
 * `combine` or, when fn is given, by that combine function. */
static Value *
reduce(Check *ck, SrcSpan at, Operands *ops, int axis, TOp combine, const Value *fn,
       bool keep, const char *fname)
{
	const TType *xt = ops->x[0]->type;
	if (keep && axis < 0 && xt->rank > 1) {
		diag_error(ck->d, at, "%s: keep_dims=True needs an axis (Gluon cannot expand the "
		           "scalar of a reduction over every element)", fname);
		return NULL;
	}
	if (axis < 0 && xt->rank > 1 && sema_auto_involved(ck, xt->layout.desc)) {
		/* A layout left to inference cannot be reshaped yet: the last axis
		 * first, then what is left (the same combination in order). */
		Value *part = reduce(ck, at, ops, xt->rank - 1, combine, fn, false, fname);
		Operands rest = *ops;
		for (int k = 0; part && k < ops->n; k++)
			rest.x[k] = (ops->tuple ? part->u.list.items[k] : part)->u.rt;
		return part ? reduce(ck, at, &rest, -1, combine, fn, false, fname) : NULL;
	}
	if (axis < 0) {
		int64_t numel = 1;
		for (int d = 0; d < xt->rank; d++)
			numel *= xt->shape[d];
		for (int k = 0; k < ops->n && xt->rank > 1; k++)
			if (!(ops->x[k] = sema_reshape(ck, at, ops->x[k], &numel, 1)))
				return NULL;
		axis = 0;
	}
	const TType *rts[MAX_OPERANDS];
	for (int k = 0; k < ops->n; k++)
		if (!(rts[k] = reduced_type(ck, at, ops->x[k]->type, axis)))
			return NULL;
	TInst *i = emit_over(ck, OP_REDUCE, at, ops, rts);
	i->attr.axis = axis;
	i->attr.combine = combine;
	if (fn && !build_region(ck, i, at, fn, ops, fname))
		return NULL;
	return results(ck, i, ops, at, xt, keep ? axis : -1);
}

/* -- The builtins ------------------------------------------------------------------ */

static const char *
fname_of(Check *ck, BuiltinFn fn)
{
	switch (fn) {
	case BF_SUM: return sema_fn_name(ck, "sum");
	case BF_MAX: return sema_fn_name(ck, "max");
	case BF_MIN: return sema_fn_name(ck, "min");
	case BF_XOR_SUM: return sema_fn_name(ck, "xor_sum");
	case BF_REDUCE_OR: return sema_fn_name(ck, "reduce_or");
	case BF_REDUCE: return sema_fn_name(ck, "reduce");
	case BF_CUMSUM: return sema_in_tl(ck) ? "tl.cumsum" : "cumsum";
	case BF_CUMPROD: return sema_in_tl(ck) ? "tl.cumprod" : "cumprod";
	default: return sema_fn_name(ck, "associative_scan");
	}
}

/* gl.sum(input, axis=None, keep_dims=False, dtype=None): integers narrower
 * than 32 bits (i1 included: a count, not a parity) add in 32 bits of the
 * same signedness, as Triton does; dtype casts the input first. */
static Value *
call_sum(Check *ck, const Node *call, Operands *ops, int axis, bool keep, const Value *dtype)
{
	TDType dt;
	if (!opt_dtype(ck, dtype, sema_fn_name(ck, "sum's dtype"), &dt))
		return NULL;
	TDType in = ops->x[0]->type->dtype;
	if (dt == DT_VOID && !ir_dtype_is_float(in) && ir_dtype_bits(in) < 32)
		dt = ir_dtype_is_signed(in) ? DT_I32 : DT_U32;
	if (dt != DT_VOID)
		ops->x[0] = sema_cast_to(ck, ops->x[0], dt, call->span);
	return reduce(ck, call->span, ops, axis, OP_ADD, NULL, keep, sema_fn_name(ck, "sum"));
}

/* gl.max / gl.min(input, axis=None, return_indices=False,
 * return_indices_tie_break_left=True, keep_dims=False): below 32 bits,
 * floats reduce in f32 and integers in i32 (Triton's rule). */
static Value *
call_max_min(Check *ck, const Node *call, BuiltinFn fn, Operands *ops, int axis, Value **a)
{
	const char *fname = fname_of(ck, fn);
	bool indices, keep;
	if (!sema_opt_bool(ck, a[2], false, "return_indices", &indices) ||
	    !sema_opt_bool(ck, a[4], false, "keep_dims", &keep))
		return NULL;
	if (indices && sema_in_tl(ck)) {
		/* tl's (value, index) reduction: glc's prelude */
		const Node *f = sema_prelude_func(ck, "_reduce_with_indices");
		Value *tie = a[3] ? a[3] : sema_new_value(&ck->ev, VAL_BOOL, call->span);
		if (!a[3])
			tie->u.b = true;
		Value *is_max = sema_new_value(&ck->ev, VAL_BOOL, call->span);
		is_max->u.b = fn == BF_MAX;
		Value *args[5] = {a[0], a[1] ? a[1] : sema_new_value(&ck->ev, VAL_NONE, call->span),
		                  tie, sema_new_value(&ck->ev, VAL_BOOL, call->span), is_max};
		args[3]->u.b = keep;
		return f ? sema_inline_call(ck, call->span, f, args, 5) : NULL;
	}
	if (indices) {
		diag_error(ck->d, a[2]->span, "%s(return_indices=True) is not supported (Triton "
		           "3.6's Gluon cannot compile it either: its index arange has no layout); "
		           "reduce a (value, index) tuple with gl.reduce", fname);
		return NULL;
	}
	TDType in = ops->x[0]->type->dtype;
	if (ir_dtype_bits(in) < 32)
		ops->x[0] = sema_cast_to(ck, ops->x[0], ir_dtype_is_float(in) ? DT_F32 : DT_I32,
		                         call->span);
	return reduce(ck, call->span, ops, axis, fn == BF_MAX ? OP_MAX : OP_MIN, NULL, keep,
	              fname);
}

/* gl.associative_scan(input, axis, combine_fn, reverse=False), and the
 * tensor methods x.cumsum(axis=0, reverse=False, dtype=None) and
 * x.cumprod(axis=0, reverse=False) of Triton's standard library: bf16
 * scans in f32, cumsum of integers narrower than 32 bits in 32 bits (as
 * gl.sum), dtype casting the input first. */
static Value *
call_scan(Check *ck, const Node *call, BuiltinFn fn, Operands *ops, int axis, Value **a)
{
	bool reverse;
	Value *rev = fn == BF_SCAN ? a[3] : a[2];
	if (!sema_opt_bool(ck, rev, false, "reverse", &reverse))
		return NULL;
	if (fn != BF_SCAN) {
		TDType in = ops->x[0]->type->dtype, dt = in == DT_BF16 ? DT_F32 : DT_VOID;
		if (fn == BF_CUMSUM && !opt_dtype(ck, a[3], "cumsum's dtype", &dt))
			return NULL;
		if (fn == BF_CUMSUM && dt == DT_VOID && !ir_dtype_is_float(in) &&
		    ir_dtype_bits(in) < 32)
			dt = ir_dtype_is_signed(in) ? DT_I32 : DT_U32;
		if (dt != DT_VOID)
			ops->x[0] = sema_cast_to(ck, ops->x[0], dt, call->span);
	}
	const TType *rts[MAX_OPERANDS];
	for (int k = 0; k < ops->n; k++)
		rts[k] = ops->x[k]->type;
	TInst *i = emit_over(ck, OP_SCAN, call->span, ops, rts);
	i->attr.axis = axis;
	i->attr.reverse = reverse;
	if (fn != BF_SCAN)
		op_region(ck, i, call->span, ops, fn == BF_CUMSUM ? OP_ADD : OP_MUL);
	else if (!build_region(ck, i, call->span, a[2], ops, sema_fn_name(ck, "associative_scan")))
		return NULL;
	return results(ck, i, ops, call->span, NULL, -1);
}

Value *
sema_check_reduce_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	const char *fname = fname_of(ck, fn);
	Operands ops;
	int axis;
	bool multi = fn == BF_REDUCE || fn == BF_SCAN;
	if (!multi) {
		ops.n = 1;
		ops.tuple = false;
		if (!(ops.x[0] = sema_tensor_arg(ck, a[0], arena_printf(ck->a, "%s's input", fname))))
			return NULL;
		if (!combinable(ck, a[0], ops.x[0], fname))
			return NULL;
	} else if (!operands(ck, a[0], fname, &ops)) {
		return NULL;
	}
	const TType *xt = ops.x[0]->type;
	bool scan = fn == BF_SCAN || fn == BF_CUMSUM || fn == BF_CUMPROD;
	if (scan && fn != BF_SCAN && !a[1])
		axis = 0;
	else if (!axis_arg(ck, a[1], call->span, xt->rank, !scan, &axis))
		return NULL;
	if ((fn == BF_XOR_SUM || fn == BF_REDUCE_OR) && ir_dtype_is_float(xt->dtype)) {
		diag_error(ck->d, a[0]->span, "%s is only supported for integers, not %s", fname,
		           sema_type_str(ck, xt));
		return NULL;
	}
	if (fn == BF_MAX || fn == BF_MIN)
		return call_max_min(ck, call, fn, &ops, axis, a);
	if (scan)
		return call_scan(ck, call, fn, &ops, axis, a);
	/* keep_dims: sum/xor_sum/reduce_or's third parameter, gl.reduce's fourth */
	bool keep;
	if (!sema_opt_bool(ck, fn == BF_REDUCE ? a[3] : a[2], false, "keep_dims", &keep))
		return NULL;
	switch (fn) {
	case BF_SUM:
		return call_sum(ck, call, &ops, axis, keep, a[3]);
	case BF_XOR_SUM:
		return reduce(ck, call->span, &ops, axis, OP_XOR, NULL, keep, fname);
	case BF_REDUCE_OR:
		return reduce(ck, call->span, &ops, axis, OP_OR, NULL, keep, fname);
	default:
		return reduce(ck, call->span, &ops, axis, OP_COUNT, a[2], keep, fname);
	}
}
