/*
 * The verifier's rules for reductions, scans and their combine regions,
 * the shape operations, gather, histogram and atomics:
 *
 *   types    reduce and scan inputs share a shape and layout; each result
 *            is its input reduced along the axis (SliceLayout(axis, P)) or,
 *            for a scan, the input's type; several results form a tuple
 *            that get takes apart; a region has two scalars per input and
 *            yields one; gather gives the source's dtype in the index's
 *            shape and layout; histogram counts a 1-D integer tensor into
 *            i32; atomics move the pointers' element type in their shape;
 *            fp4_to_fp turns bytes into bf16/f16 along an axis twice as long
 *   layouts  reshape, permute, join and split give the layout the algebra
 *            derives from the operand's (registers renamed); fp4_to_fp
 *            exactly ll_fp4_unpacked's
 */
#include "ir/verify/verify.h"

#include <string.h>

static bool
same_tensor_shape(const TType *a, const TType *b)
{
	return a->kind == TY_TENSOR && b->kind == TY_TENSOR && ir_same_shape(a, b) &&
	       ll_equal(&a->layout.ll, &b->layout.ll);
}

/* a and b are tensors of one shape and layout; b's elements are dt. */
static bool
like(const TType *b, const TType *a, TDType dt)
{
	return same_tensor_shape(a, b) && !b->elem_is_ptr && b->dtype == dt;
}

/* Result k of an operation with n results: r itself, or its tuple's k-th. */
static const TType *
result(const TType *r, int n, int k)
{
	if (n == 1)
		return r;
	return r->kind == TY_TUPLE && r->n_elems == n ? r->elems[k] : NULL;
}

static bool
combining(Verifier *v, const TInst *i, const TType *r)
{
	const char *op = ir_op_name(i->op);
	int n = i->n_args;
	const TType *a = i->args[0]->type;
	if (a->kind != TY_TENSOR || a->elem_is_ptr)
		return vf_fail(v, i->at, "types", "'%s' combines tensors of numbers, not %s", op,
		               vf_type_str(v, a));
	if (i->attr.axis < 0 || i->attr.axis >= a->rank)
		return vf_fail(v, i->at, "operands", "'%s' axis=%d of a rank-%d tensor", op,
		               i->attr.axis, a->rank);
	if (!i->n_region && (i->op == OP_SCAN || n > 1 || !ir_combine_op(i->attr.combine)))
		return vf_fail(v, i->at, "operands", "'%s' of %d input%s needs a combine region%s", op,
		               n, n == 1 ? "" : "s", i->op == OP_REDUCE && n == 1
		               ? " or combine=add|max|min|and|or|xor" : "");
	for (int k = 0; k < n; k++) {
		const TType *x = i->args[k]->type, *rk = result(r, n, k);
		if (!same_tensor_shape(a, x) || x->elem_is_ptr)
			return vf_fail(v, i->at, "types", "the inputs of '%s' share one shape and layout: "
			               "%s and %s", op, vf_type_str(v, a), vf_type_str(v, x));
		if (!rk)
			return vf_fail(v, i->at, "types", "'%s' of %d inputs gives a tuple of %d results",
			               op, n, n);
		if (i->op == OP_REDUCE) {
			if (!vf_axis_pair(v, i, x, rk))
				return false;
		} else if (!ir_type_equal(x, rk)) {
			return vf_fail(v, i->at, "types", "a scan of %s gives %s", vf_type_str(v, x),
			               vf_type_str(v, rk));
		}
	}
	return true;
}

bool
vf_region_open(Verifier *v, const TInst *i)
{
	int n = i->n_args;
	if (i->n_region != 2 * n)
		return vf_fail(v, i->at, "structure", "the combine region of '%s' takes %d values "
		               "(two per input), not %d", ir_op_name(i->op), 2 * n, i->n_region);
	for (int k = 0; k < i->n_region; k++) {
		const TValue *x = i->region[k];
		TDType dt = i->args[k % n]->type->dtype;
		if (x->id < 0 || x->id >= v->k->n_values || v->def[x->id])
			return vf_fail(v, i->at, "values", "region value %%%d is defined twice or "
			               "outside the kernel's values", x->id);
		if (x->type->kind != TY_SCALAR || x->type->dtype != dt)
			return vf_fail(v, i->at, "types", "region value %%%d is %s, not the %s of "
			               "input %d", x->id, vf_type_str(v, x->type), ir_dtype_name(dt),
			               k % n);
		v->def[x->id] = i;
		v->visible[x->id] = true;
	}
	const TInst *y = i->body.n ? i->body.insts[i->body.n - 1] : NULL;
	if (!y || y->op != OP_YIELD)
		return vf_fail(v, i->at, "structure", "a combine region ends with a yield");
	return true;
}

void
vf_region_close(Verifier *v, const TInst *i)
{
	int n = i->n_args;
	const TInst *y = i->body.insts[i->body.n - 1];
	for (int k = 0; k < i->n_region; k++)
		v->visible[i->region[k]->id] = false;
	if (!v->ok)
		return;
	if (y->n_args != n)
		return (void)vf_fail(v, y->at, "types", "the region of '%s' yields %d values, one per "
		                     "input (%d)", ir_op_name(i->op), y->n_args, n);
	for (int k = 0; k < n; k++)
		if (y->args[k]->type->kind != TY_SCALAR || y->args[k]->type->dtype !=
		    i->args[k]->type->dtype)
			return (void)vf_fail(v, y->at, "types", "yield %d is %s, not the %s of input %d",
			                     k, vf_type_str(v, y->args[k]->type),
			                     ir_dtype_name(i->args[k]->type->dtype), k);
}

/* reshape, permute, join, split: r is the operand in the layout the
 * algebra derives. */
static bool
renaming(Verifier *v, const TInst *i, const TType *r)
{
	const TType *a = i->args[0]->type;
	const char *op = ir_op_name(i->op);
	if (a->kind != TY_TENSOR || (i->op == OP_JOIN && !ir_type_equal(a, i->args[1]->type)))
		return vf_fail(v, i->at, "types", "'%s' takes %s, not %s", op,
		               i->op == OP_JOIN ? "two tensors of one type" : "a tensor",
		               vf_type_str(v, a));
	bool scalar = i->op == OP_SPLIT && a->rank == 1;
	if (r->kind != (scalar ? TY_SCALAR : TY_TENSOR) || r->dtype != a->dtype ||
	    (!scalar && r->elem_is_ptr != a->elem_is_ptr) || (scalar && a->elem_is_ptr))
		return vf_fail(v, i->at, "types", "'%s' of %s gives %s", op, vf_type_str(v, a),
		               vf_type_str(v, r));
	LLayout want;
	LLErr err = {v->a, NULL};
	int bits[LL_MAX_RANK], perm[LL_MAX_RANK];
	int64_t shape[LL_MAX_RANK];
	int rank = r->kind == TY_TENSOR ? r->rank : 0;
	bool ok;
	switch (i->op) {
	case OP_RESHAPE:
		for (int d = 0; d < rank; d++)
			bits[d] = ll_out_bits(&r->layout.ll, (LLName)(LL_DIM0 + d));
		ok = ll_reshape_outs(&a->layout.ll, bits, rank, &want, &err);
		break;
	case OP_PERMUTE: {
		unsigned seen = 0;
		ok = rank == a->rank;
		for (int d = 0; ok && d < rank; d++) {
			int64_t o = i->attr.order[d];
			ok = o >= 0 && o < rank && !(seen >> o & 1);
			seen |= ok ? 1u << o : 0;
			perm[d] = (int)o;
			shape[d] = ok ? a->shape[o] : 0;
		}
		if (!ok)
			return vf_fail(v, i->at, "operands", "permute's order is not a permutation of "
			               "the %d dims", a->rank);
		ok = memcmp(shape, r->shape, (size_t)rank * sizeof *shape) == 0 &&
		     ll_permute_outs(&a->layout.ll, perm, &want, &err);
		break;
	}
	case OP_JOIN:
		ok = rank == a->rank + 1 && r->shape[a->rank] == 2;
		for (int d = 0; ok && d < a->rank; d++)
			ok = r->shape[d] == a->shape[d];
		ok = ok && ll_join(&a->layout.ll, &want, &err);
		break;
	default:   /* split */
		ok = i->attr.index >= 0 && i->attr.index < 2 && a->shape[a->rank - 1] == 2 &&
		     rank == a->rank - 1 && ll_split(&a->layout.ll, &want, &err);
		for (int d = 0; ok && d < rank; d++)
			ok = r->shape[d] == a->shape[d];
		break;
	}
	if (!ok)
		return vf_fail(v, i->at, "types", "'%s' of %s cannot give %s%s%s", op,
		               vf_type_str(v, a), vf_type_str(v, r), err.msg ? ": " : "",
		               err.msg ? err.msg : "");
	if (rank && !ll_same_threads(&want, &r->layout.ll))
		return vf_fail(v, i->at, "layouts", "'%s' gives its operand's elements in the layout "
		               "the algebra derives, not %s", op, vf_type_str(v, r));
	return true;
}

/* fp4_to_fp: bytes to bf16/f16 along the axis, in exactly the layout
 * ll_fp4_unpacked gives (code generation reads nibble b of register r as
 * register 2r + b). */
static bool
fp4(Verifier *v, const TInst *i, const TType *r)
{
	const TType *a = i->args[0]->type;
	int ax = i->attr.axis;
	bool ok = a->kind == TY_TENSOR && !a->elem_is_ptr &&
	          (a->dtype == DT_U8 || a->dtype == DT_I8) && r->kind == TY_TENSOR &&
	          !r->elem_is_ptr && (r->dtype == DT_BF16 || r->dtype == DT_F16) &&
	          r->rank == a->rank && ax >= 0 && ax < a->rank;
	for (int d = 0; ok && d < a->rank; d++)
		ok = r->shape[d] == (d == ax ? 2 : 1) * a->shape[d];
	if (!ok)
		return vf_fail(v, i->at, "types", "fp4_to_fp axis=%d of %s gives %s", ax,
		               vf_type_str(v, a), vf_type_str(v, r));
	LLayout want;
	LLErr err = {v->a, NULL};
	if (!ll_fp4_unpacked(&a->layout.ll, ax, &want, &err) || !ll_equal(&want, &r->layout.ll))
		return vf_fail(v, i->at, "layouts", "fp4_to_fp gives its operand's nibbles in the "
		               "layout the algebra derives, not %s", vf_type_str(v, r));
	return true;
}

static bool
gather(Verifier *v, const TInst *i, const TType *r)
{
	const TType *s = i->args[0]->type, *x = i->args[1]->type;
	int ax = i->attr.axis;
	bool ok = s->kind == TY_TENSOR && !s->elem_is_ptr && x->kind == TY_TENSOR &&
	          !x->elem_is_ptr && !ir_dtype_is_float(x->dtype) && x->rank == s->rank &&
	          ax >= 0 && ax < s->rank && like(r, x, s->dtype);
	for (int d = 0; ok && d < s->rank; d++)
		ok = d == ax || s->shape[d] == x->shape[d];
	return ok || vf_fail(v, i->at, "types", "gather axis=%d of %s by %s gives %s", ax,
	                     vf_type_str(v, s), vf_type_str(v, x), vf_type_str(v, r));
}

static bool
histogram(Verifier *v, const TInst *i, const TType *r)
{
	const TType *x = i->args[0]->type;
	if (x->kind != TY_TENSOR || x->rank != 1 || x->elem_is_ptr || ir_dtype_is_float(x->dtype) ||
	    r->kind != TY_TENSOR || r->rank != 1 || r->dtype != DT_I32 || r->elem_is_ptr)
		return vf_fail(v, i->at, "types", "histogram counts a 1-D integer tensor into i32, "
		               "not %s into %s", vf_type_str(v, x), vf_type_str(v, r));
	if (i->attr.has_mask && !like(i->args[1]->type, x, DT_I1))
		return vf_fail(v, i->at, "types", "the mask of histogram is i1 shaped like its input");
	return true;
}

static bool
atomic(Verifier *v, const TInst *i, const TType *r)
{
	const TType *p = i->args[0]->type;
	bool tensor = p->kind == TY_TENSOR;
	TAtomicOp op = i->op == OP_ATOMIC_CAS ? AT_COUNT : i->attr.rmw;
	if (!(p->kind == TY_PTR || (tensor && p->elem_is_ptr)) || !ir_atomic_dtype_ok(op, p->dtype) ||
	    i->attr.sem >= SEM_COUNT || i->attr.scope >= SCOPE_COUNT)
		return vf_fail(v, i->at, "types", "'%s' %s%s of %s", ir_op_name(i->op),
		               i->op == OP_ATOMIC_RMW ? ir_atomic_name(i->attr.rmw) : "",
		               i->op == OP_ATOMIC_RMW ? "" : "cas", vf_type_str(v, p));
	for (int k = 1; k < i->n_args + 1; k++) {
		const TType *t = k < i->n_args ? i->args[k]->type : r;
		TDType want = i->attr.has_mask && k == 2 ? DT_I1 : p->dtype;
		if (tensor ? !like(t, p, want) : !(t->kind == TY_SCALAR && t->dtype == want))
			return vf_fail(v, i->at, "types", "'%s' through %s: %s is %s", ir_op_name(i->op),
			               vf_type_str(v, p), k == i->n_args ? "the result" : "an operand",
			               vf_type_str(v, t));
	}
	return true;
}

bool
vf_tensor_op(Verifier *v, const TInst *i, const TType *r)
{
	switch (i->op) {
	case OP_REDUCE: case OP_SCAN:
		return combining(v, i, r);
	case OP_YIELD:
		return i == v->yield || vf_fail(v, i->at, "structure", "a yield ends a combine "
		                                "region");
	case OP_RESHAPE: case OP_PERMUTE: case OP_JOIN: case OP_SPLIT:
		return renaming(v, i, r);
	case OP_FP4_TO_FP:
		return fp4(v, i, r);
	case OP_GATHER:
		return gather(v, i, r);
	case OP_HISTOGRAM:
		return histogram(v, i, r);
	default:
		return atomic(v, i, r);
	}
}

bool
vf_axis_pair(Verifier *v, const TInst *i, const TType *big, const TType *small)
{
	bool expand = i->op == OP_EXPAND_DIMS;
	int ax = i->attr.axis;
	if (big->kind != TY_TENSOR || ax < 0 || ax >= big->rank || big->dtype != small->dtype)
		return vf_fail(v, i->at, "types", "'%s' along axis %d of %s and %s",
		               ir_op_name(i->op), ax, vf_type_str(v, big), vf_type_str(v, small));
	if (!expand && big->rank == 1)
		return small->kind == TY_SCALAR ||
		       vf_fail(v, i->at, "types", "reducing a rank-1 tensor gives a scalar");
	const LLDesc *sl = small->kind == TY_TENSOR ? small->layout.desc : NULL;
	bool ok = small->kind == TY_TENSOR && small->rank == big->rank - 1 &&
	          small->elem_is_ptr == big->elem_is_ptr && (!expand || big->shape[ax] == 1) &&
	          sl && sl->kind == LL_SLICE && sl->dim == ax &&
	          ll_desc_equal(sl->parent, big->layout.desc);
	for (int d = 0, s = 0; ok && d < big->rank; d++)
		if (d != ax)
			ok = big->shape[d] == small->shape[s++];
	if (!ok)
		return vf_fail(v, i->at, "layouts", "'%s' at axis %d relates %s to %s; one is "
		               "the other in SliceLayout(%d, its layout) without the axis",
		               ir_op_name(i->op), ax, vf_type_str(v, small), vf_type_str(v, big), ax);
	return true;
}
