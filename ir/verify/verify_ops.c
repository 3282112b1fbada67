/*
 * The verifier's rules for types and operations, as sema guarantees them
 * and code generation relies on them:
 *
 *   layouts   a layout is fitted to its type's shape (out dims sized as the
 *             shape's trailing dims, 32 lanes, and the warps of the code a
 *             tensor lives in, at most 2^30 registers)
 *   operands  each operation's operand count, result, attributes and flags
 *   types     elementwise operands and results share shape, layout and
 *             dtype; compares give i1; casts keep shape and layout; splat,
 *             broadcast, expand_dims (SliceLayout(axis, P) -> P),
 *             convert_layout, loads and stores
 *             (mask i1, other like the result), shared memory, mbarriers,
 *             TMA, WGMMA and their operand kinds
 */
#include "ir/verify/verify.h"

#include <string.h>

/* Whether t's layout is fitted to its shape: out dims sized as its
 * trailing dims, or for a strided view (region) to a region holding the
 * view at view_at, a multiple of its size along each dim. */
static bool
fits(const TType *t, bool whole, bool region)
{
	const LLayout *l = &t->layout.ll;
	int rank = t->rank, base = rank - l->n_out;
	if (base < 0 || (whole && base != 0))
		return false;
	for (int d = 0; d < base; d++)
		if (region && t->view_at[d])
			return false;
	for (int j = 0; j < l->n_out; j++) {
		int64_t s = t->shape[base + j], r = 1ll << l->out_bits[j];
		int64_t at = region ? t->view_at[base + j] : 0;
		if (s < 1 || (s & (s - 1)) || (region ? at < 0 || at % s || at + s > r : r != s))
			return false;
	}
	return true;
}

bool
vf_type(Verifier *v, SrcSpan at, const TType *t, int warps)
{
	const LLayout *l = &t->layout.ll;
	switch (t->kind) {
	case TY_VOID:
		return vf_fail(v, at, "types", "a value of type void");
	case TY_SCALAR:
	case TY_PTR:
		return (t->dtype > DT_VOID && t->dtype < DT_COUNT) ||
		       vf_fail(v, at, "types", "a scalar or pointer needs an element type");
	case TY_TUPLE:
		for (int i = 0; i < t->n_elems; i++)
			if (!t->elems[i] || !vf_type(v, at, t->elems[i], warps))
				return false;
		return true;
	default:
		break;
	}
	bool whole = t->kind == TY_TENSOR || t->kind == TY_DESC;
	if (t->rank < 1 || t->rank > LL_MAX_RANK || t->dtype <= DT_VOID || t->dtype >= DT_COUNT ||
	    !fits(t, whole, t->kind == TY_SMEM))
		return vf_fail(v, at, "layouts", "the layout of %s is not fitted to its shape",
		               vf_type_str(v, t));
	if (ir_smem_strided(t) && !ir_smem_view_ok(t))
		return vf_fail(v, at, "layouts", "%s is a strided view whose region's other "
		               "coordinates do not each move one offset bit (Gluon's rule for "
		               "slices)", vf_type_str(v, t));
	if ((t->kind == TY_SMEM || t->kind == TY_MBARRIER) && (t->alloc < 0 || t->alloc >= v->k->n_smem))
		return vf_fail(v, at, "smem", "%s views allocation %d of %d", vf_type_str(v, t),
		               t->alloc, v->k->n_smem);
	if (t->kind != TY_TENSOR)
		return true;
	if (ll_in_bits(l, LL_REGISTER) > IR_MAX_REG_BITS)
		return vf_fail(v, at, "layouts", "%s holds 2^%d elements per thread; the IR allows "
		               "at most 2^%d", vf_type_str(v, t), ll_in_bits(l, LL_REGISTER),
		               IR_MAX_REG_BITS);
	int wb = 0;
	while (warps > 0 && (1 << wb) < warps)
		wb++;
	if (ll_in_index(l, LL_REGISTER) < 0 || ll_in_bits(l, LL_LANE) != 5 ||
	    (warps > 0 && ll_in_bits(l, LL_WARP) != wb))
		return vf_fail(v, at, "layouts", "%s does not spread over 32 lanes and the %d warps "
		               "of this code", vf_type_str(v, t), warps);
	return true;
}

/* -- predicates ------------------------------------------------------------- */

static bool
is_ptr(const TType *t)
{
	return t->kind == TY_PTR || (t->kind == TY_TENSOR && t->elem_is_ptr);
}

/* A number: a scalar, or a tensor of numbers. */
static bool
is_num(const TType *t)
{
	return t->kind == TY_SCALAR || (t->kind == TY_TENSOR && !t->elem_is_ptr);
}

static bool
is_int(const TType *t)
{
	return is_num(t) && !ir_dtype_is_float(t->dtype);
}

static bool
is_scalar(const TType *t, TDType dt)
{
	return t->kind == TY_SCALAR && t->dtype == dt;
}

/* b is a with its elements' dtype changed to dt (not pointers). */
static bool
is_like(const TType *b, const TType *a, TDType dt)
{
	return vf_same_shape(a, b) && is_num(b) && b->dtype == dt;
}

static bool
is_smem(const TType *t)
{
	return t->kind == TY_SMEM || t->kind == TY_MBARRIER;
}

/* -- operations -------------------------------------------------------------- */

/* The operand count (lo..hi) and whether a result is defined (1 yes, 0 no,
 * -1 either) of i's operation. */
static void
arity(const TInst *i, int *lo, int *hi, int *res)
{
	const int flag_mask = i->attr.has_mask, flag_other = i->attr.has_other;
	const int pred = i->attr.has_pred, coords = i->attr.n_coords;
	*res = 1;
	*lo = *hi = 0;
	switch (i->op) {
	case OP_CONST: case OP_PARAM: case OP_PROGRAM_ID: case OP_NUM_PROGRAMS: case OP_ARANGE:
	case OP_SMEM_ALLOC: case OP_VAR_READ:
		break;
	case OP_NEG: case OP_NOT: case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2:
	case OP_SQRT: case OP_RSQRT: case OP_ABS: case OP_SIN: case OP_COS: case OP_ERF:
	case OP_FLOOR: case OP_CEIL: case OP_SQRT_RN: case OP_CAST: case OP_SPLAT: case OP_BROADCAST:
	case OP_EXPAND_DIMS: case OP_CONVERT_LAYOUT: case OP_FULL:
	case OP_SMEM_LOAD: case OP_DESC_SHAPE: case OP_RESHAPE: case OP_PERMUTE: case OP_SPLIT:
	case OP_FP4_TO_FP:
		*lo = *hi = 1;
		break;
	case OP_REDUCE: case OP_SCAN: *lo = 1, *hi = IR_MAX_COMBINED; break;
	case OP_YIELD: *lo = 1, *hi = IR_MAX_COMBINED; *res = 0; break;
	case OP_JOIN: case OP_GATHER: *lo = *hi = 2; break;
	case OP_HISTOGRAM: *lo = *hi = 1 + flag_mask; break;
	case OP_ATOMIC_RMW: *lo = *hi = 2 + flag_mask; break;
	case OP_ATOMIC_CAS: *lo = *hi = 3; break;
	case OP_SELECT: case OP_DOT: *lo = *hi = 3; break;
	case OP_LOAD: *lo = *hi = 1 + flag_mask + flag_other; break;
	case OP_STORE: *lo = *hi = 2 + flag_mask; *res = 0; break;
	case OP_SMEM_VIEW: *lo = 1, *hi = 2; break;
	case OP_SMEM_STORE: *lo = *hi = 2; *res = 0; break;
	case OP_MBAR_INIT: case OP_MBAR_INVALIDATE: *lo = *hi = 1; *res = 0; break;
	case OP_MBAR_EXPECT: case OP_MBAR_WAIT: *lo = *hi = 2 + pred; *res = 0; break;
	case OP_MBAR_ARRIVE: *lo = *hi = 1 + pred; *res = 0; break;
	case OP_TMA_LOAD: *lo = *hi = 3 + pred + coords; *res = 0; break;
	case OP_TMA_STORE: *lo = *hi = 2 + coords; *res = 0; break;
	case OP_WGMMA: *lo = *hi = 3 + i->attr.has_use_acc; break;
	case OP_MAKE_DESC: *lo = 2, *hi = 2 * LL_MAX_RANK; break;
	case OP_WGMMA_WAIT: *hi = 1; *res = -1; break;
	case OP_VAR_WRITE: case OP_IF: *lo = *hi = 1; *res = 0; break;
	case OP_FOR: *lo = *hi = 3; *res = 0; break;
	case OP_TMA_STORE_WAIT: case OP_FENCE_ASYNC_SHARED: case OP_THREAD_BARRIER: case OP_WHILE:
	case OP_BREAK: case OP_CONTINUE: case OP_WARP_SPECIALIZE:
		*res = 0;
		break;
	default:   /* binary operations */
		*lo = *hi = 2;
		break;
	}
}

/* The flags of i that its operation does not have. */
static bool
stray_flags(const TInst *i)
{
	bool mem = i->op == OP_LOAD || i->op == OP_STORE || i->op == OP_ATOMIC_RMW ||
	           i->op == OP_HISTOGRAM;   /* (async_copy: verify_ext.c) */
	bool pred = i->op == OP_MBAR_EXPECT || i->op == OP_MBAR_WAIT || i->op == OP_MBAR_ARRIVE ||
	            i->op == OP_TMA_LOAD;
	return (i->attr.has_mask && !mem) || (i->attr.has_other && i->op != OP_LOAD) ||
	       (i->attr.has_pred && !pred) || (i->attr.is_async && i->op != OP_WGMMA) ||
	       (i->attr.trivial && i->op != OP_CONVERT_LAYOUT) ||
	       (i->attr.has_use_acc && i->op != OP_WGMMA) ||
	       (i->attr.nan_fill && i->op != OP_MAKE_DESC) ||
	       (i->attr.n_coords && !ir_op_has_coords(i->op)) || i->attr.n_coords < 0;
}

static bool
elementwise(Verifier *v, const TInst *i, const TType *r)
{
	const TType *a = i->args[0]->type, *b = i->args[1]->type;
	bool compare = i->op >= OP_LT && i->op <= OP_NE;
	if (!ir_type_equal(a, b) || (!is_num(a) && !(compare && is_ptr(a))))
		return vf_fail(v, i->at, "types", "'%s' needs two numbers of one type; got %s and %s",
		               ir_op_name(i->op), vf_type_str(v, a), vf_type_str(v, b));
	if (compare)
		return is_like(r, a, DT_I1) ||
		       vf_fail(v, i->at, "types", "'%s' gives i1 in its operands' shape, not %s",
		               ir_op_name(i->op), vf_type_str(v, r));
	if (!ir_type_equal(a, r))
		return vf_fail(v, i->at, "types", "'%s' of %s gives %s", ir_op_name(i->op),
		               vf_type_str(v, a), vf_type_str(v, r));
	TOnDtype on = ir_binary_on(i->op);
	if ((on == IR_ON_INTS && !is_int(a)) || (on == IR_ON_FLOATS && is_int(a)))
		return vf_fail(v, i->at, "types", "'%s' is not defined on %s", ir_op_name(i->op),
		               ir_dtype_name(a->dtype));
	return true;
}

static bool
unary(Verifier *v, const TInst *i, const TType *r)
{
	const TType *a = i->args[0]->type;
	bool floats = i->op != OP_NEG && i->op != OP_NOT && i->op != OP_ABS;
	if (!ir_type_equal(a, r) || !is_num(a) || (floats && is_int(a)) ||
	    (i->op == OP_NOT && !is_int(a)))
		return vf_fail(v, i->at, "types", "'%s' of %s gives %s", ir_op_name(i->op),
		               vf_type_str(v, a), vf_type_str(v, r));
	return true;
}

/* A cast's element types, as Triton's: numbers to numbers, a pointer to
 * i64 (its address), an integer to a pointer. */
static bool
cast_types_ok(const TType *a, const TType *r)
{
	if (is_ptr(a))
		return is_num(r) && r->dtype == DT_I64;
	return is_num(a) && (is_num(r) || (is_ptr(r) && !ir_dtype_is_float(a->dtype)));
}

/* cast, splat, broadcast, expand_dims, convert_layout, full. */
static bool
reshaping(Verifier *v, const TInst *i, const TType *r)
{
	const TType *a = i->args[0]->type;
	bool ok = true;
	switch (i->op) {
	case OP_CAST:
		ok = vf_same_shape(a, r) && cast_types_ok(a, r);
		break;
	case OP_SPLAT:
		ok = (a->kind == TY_SCALAR || a->kind == TY_PTR) && r->kind == TY_TENSOR &&
		     r->dtype == a->dtype && r->elem_is_ptr == (a->kind == TY_PTR);
		break;
	case OP_FULL:
		ok = a->kind == TY_SCALAR && r->kind == TY_TENSOR && !r->elem_is_ptr &&
		     r->dtype == a->dtype;
		break;
	case OP_CONVERT_LAYOUT:
		ok = a->kind == TY_TENSOR && r->kind == TY_TENSOR && ir_same_shape(a, r) &&
		     a->dtype == r->dtype && a->elem_is_ptr == r->elem_is_ptr;
		if (ok && v->planned && !i->attr.plan)
			return vf_fail(v, i->at, "operands", "convert_layout has no plan after the "
			               "cvt-plan pass");
		break;
	case OP_BROADCAST:
		ok = a->kind == TY_TENSOR && r->kind == TY_TENSOR && a->rank == r->rank &&
		     a->dtype == r->dtype && a->elem_is_ptr == r->elem_is_ptr &&
		     ll_desc_equal(a->layout.desc, r->layout.desc);
		for (int d = 0; ok && d < a->rank; d++)
			ok = a->shape[d] == r->shape[d] || a->shape[d] == 1;
		break;
	default:   /* expand_dims: the tensor with and without the axis */
		return vf_axis_pair(v, i, r, a);
	}
	return ok || vf_fail(v, i->at, "types", "'%s' of %s cannot give %s", ir_op_name(i->op),
	                     vf_type_str(v, a), vf_type_str(v, r));
}

/* load, store, select, ptr_add. */
static bool
memory(Verifier *v, const TInst *i, const TType *r)
{
	const TType *p = i->args[0]->type;
	switch (i->op) {
	case OP_PTR_ADD:
		if (!is_ptr(p) || !is_int(i->args[1]->type) || !vf_same_shape(p, i->args[1]->type) ||
		    !ir_type_equal(p, r))
			return vf_fail(v, i->at, "types", "ptr_add of %s and %s gives %s",
			               vf_type_str(v, p), vf_type_str(v, i->args[1]->type),
			               vf_type_str(v, r));
		return true;
	case OP_SELECT: {
		const TType *c = i->args[0]->type, *x = i->args[1]->type, *y = i->args[2]->type;
		if (!ir_type_equal(x, y) || !ir_type_equal(x, r) || !is_like(c, x, DT_I1))
			return vf_fail(v, i->at, "types", "select needs an i1 condition shaped like two "
			               "values of one type: %s, %s, %s", vf_type_str(v, c),
			               vf_type_str(v, x), vf_type_str(v, y));
		return true;
	}
	default:
		break;
	}
	if (!is_ptr(p))
		return vf_fail(v, i->at, "types", "'%s' needs pointers, not %s", ir_op_name(i->op),
		               vf_type_str(v, p));
	const TType *val = i->op == OP_LOAD ? r : i->args[1]->type;
	if (!is_like(val, p, p->dtype))
		return vf_fail(v, i->at, "types", "'%s' through %s moves %s", ir_op_name(i->op),
		               vf_type_str(v, p), vf_type_str(v, val));
	if (i->attr.has_mask && !is_like(i->args[i->op == OP_LOAD ? 1 : 2]->type, p, DT_I1))
		return vf_fail(v, i->at, "types", "the mask of '%s' is i1 shaped like its pointers",
		               ir_op_name(i->op));
	if (i->attr.has_other && !ir_type_equal(i->args[i->n_args - 1]->type, r))
		return vf_fail(v, i->at, "types", "the 'other' of load has the result's type");
	return true;
}

/* Shared memory, mbarriers, TMA, WGMMA. */
/* make_desc: a pointer to the descriptor's dtype, one i32 extent per dim,
 * one i64 stride per dim but the last, and an NVMMASharedLayout descriptor
 * (NaN fill only for floats). */
static bool
make_desc(Verifier *v, const TInst *i, const TType *r)
{
	int rank = r ? r->rank : 0;
	bool ok = r && r->kind == TY_DESC && i->n_args == 2 * rank &&
	          i->args[0]->type->kind == TY_PTR && i->args[0]->type->dtype == r->dtype &&
	          r->layout.desc && r->layout.desc->kind == LL_NVMMA_SHARED &&
	          !r->layout.desc->transposed && (!i->attr.nan_fill || ir_dtype_is_float(r->dtype));
	for (int d = 0; ok && d < rank; d++)
		ok = is_scalar(i->args[1 + d]->type, DT_I32) &&
		     (d + 1 == rank || is_scalar(i->args[1 + rank + d]->type, DT_I64));
	return ok || vf_fail(v, i->at, "types", "make_desc takes a pointer to the descriptor's "
	                     "dtype, an i32 extent per dim and an i64 stride per dim but the "
	                     "last, for a descriptor in an NVMMASharedLayout; not %s",
	                     r ? vf_type_str(v, r) : "no result");
}

static bool
hopper(Verifier *v, const TInst *i, const TType *r)
{
	TValue *const *a = i->args;
	const char *op = ir_op_name(i->op);
	const TKernel *k = v->k;
	switch (i->op) {
	case OP_SMEM_ALLOC: {
		int n = i->attr.alloc;
		const TSmemAlloc *s = n >= 0 && n < k->n_smem ? &k->smem[n] : NULL;
		if (!s || !is_smem(r) || r->alloc != n || r->dtype != s->dtype || r->rank != s->rank ||
		    memcmp(r->shape, s->shape, (size_t)s->rank * sizeof *s->shape) != 0 ||
		    !ll_equal(&r->layout.ll, &s->layout.ll))
			return vf_fail(v, i->at, "smem", "smem_alloc alloc=%d gives %s, not the "
			               "allocation", n, vf_type_str(v, r));
		return true;
	}
	case OP_SMEM_VIEW:
		if (!is_smem(a[0]->type) || !is_smem(r) || r->alloc != a[0]->type->alloc ||
		    (i->n_args == 2 && !(a[1]->type->kind == TY_SCALAR && is_int(a[1]->type))))
			return vf_fail(v, i->at, "types", "smem_view of %s gives %s", vf_type_str(v,
			               a[0]->type), vf_type_str(v, r));
		return true;
	case OP_SMEM_LOAD:
	case OP_SMEM_STORE: {
		const TType *t = i->op == OP_SMEM_LOAD ? r : a[1]->type;
		if (a[0]->type->kind != TY_SMEM || t->kind != TY_TENSOR || t->elem_is_ptr ||
		    t->dtype != a[0]->type->dtype || !ir_same_shape(t, a[0]->type))
			return vf_fail(v, i->at, "types", "'%s' between %s and %s", op,
			               vf_type_str(v, a[0]->type), vf_type_str(v, t));
		return true;
	}
	case OP_MBAR_INIT: case OP_MBAR_INVALIDATE: case OP_MBAR_EXPECT: case OP_MBAR_WAIT:
	case OP_MBAR_ARRIVE:
		if (a[0]->type->kind != TY_MBARRIER)
			return vf_fail(v, i->at, "types", "'%s' needs an mbarrier, not %s", op,
			               vf_type_str(v, a[0]->type));
		if ((i->op == OP_MBAR_EXPECT || i->op == OP_MBAR_WAIT) && !is_scalar(a[1]->type, DT_I32))
			return vf_fail(v, i->at, "types", "'%s' takes an i32", op);
		if (i->op == OP_MBAR_INIT && (i->attr.count < 1 || i->attr.count > (1 << 20)))
			return vf_fail(v, i->at, "operands", "the arrival count is in [1, 2^20]");
		break;
	case OP_TMA_LOAD:
	case OP_TMA_STORE: {
		bool load = i->op == OP_TMA_LOAD;
		const TType *d = a[0]->type, *s = a[load ? 2 : 1]->type;
		if (d->kind != TY_DESC || s->kind != TY_SMEM || (load && a[1]->type->kind != TY_MBARRIER))
			return vf_fail(v, i->at, "types", "'%s' takes a tensor_desc, %san smem buffer",
			               op, load ? "an mbarrier, " : "");
		if (!ir_tma_fits(d, s))
			return vf_fail(v, i->at, "layouts", "'%s': the descriptor %s and the buffer %s "
			               "differ", op, vf_type_str(v, d), vf_type_str(v, s));
		if (i->attr.n_coords != d->rank)
			return vf_fail(v, i->at, "operands", "'%s' takes %d coordinates", op, d->rank);
		for (int c = i->n_args - i->attr.n_coords; c < i->n_args; c++)
			if (!is_scalar(a[c]->type, DT_I32))
				return vf_fail(v, i->at, "types", "TMA coordinates are i32");
		break;
	}
	case OP_DESC_SHAPE:
		if (a[0]->type->kind != TY_DESC || i->attr.axis < 0 || i->attr.axis >= a[0]->type->rank ||
		    !is_scalar(r, DT_I32))
			return vf_fail(v, i->at, "types", "desc_shape axis=%d of %s", i->attr.axis,
			               vf_type_str(v, a[0]->type));
		return true;
	case OP_MAKE_DESC:
		return make_desc(v, i, r);
	case OP_WGMMA:
		if ((a[0]->type->kind != TY_SMEM && a[0]->type->kind != TY_TENSOR) ||
		    a[1]->type->kind != TY_SMEM || a[2]->type->kind != TY_TENSOR ||
		    !ir_type_equal(a[2]->type, r))
			return vf_fail(v, i->at, "types", "warpgroup_mma takes A in shared memory or "
			               "registers, B in shared memory and an accumulator like its result");
		break;
	case OP_DOT:
		if (a[0]->type->kind != TY_TENSOR || a[1]->type->kind != TY_TENSOR ||
		    !ir_type_equal(a[2]->type, r) || r->rank != 2)
			return vf_fail(v, i->at, "types", "dot takes A and B register tensors and a 2-D "
			               "accumulator like its result");
		return true;
	case OP_WGMMA_WAIT:
		if ((i->n_args == 1) != (r != NULL) || (r && !ir_type_equal(a[0]->type, r)))
			return vf_fail(v, i->at, "types", "warpgroup_mma_wait gives back its dependency");
		return true;
	default:
		return true;
	}
	/* the optional predicate (or use_acc) is an i1 scalar */
	for (int n = 0; n < i->n_args; n++) {
		const char *label = ir_arg_label(i, n);
		if (label && (!strcmp(label, "pred") || !strcmp(label, "use_acc")) &&
		    !is_scalar(a[n]->type, DT_I1))
			return vf_fail(v, i->at, "types", "%s is an i1 scalar", label);
	}
	return true;
}

bool
vf_op(Verifier *v, const TInst *i)
{
	const char *op = ir_op_name(i->op);
	int lo, hi, res;
	if (i->op >= OP_COUNT)
		return vf_fail(v, i->at, "operands", "unknown operation %d", (int)i->op);
	if (vf_is_ext(i->op))
		return vf_ext_op(v, i);
	arity(i, &lo, &hi, &res);
	if ((i->n_args < lo || i->n_args > hi) && lo == hi)
		return vf_fail(v, i->at, "operands", "'%s' takes %d operands here, not %d", op, lo,
		               i->n_args);
	if (i->n_args < lo || i->n_args > hi)
		return vf_fail(v, i->at, "operands", "'%s' takes %d to %d operands, not %d", op, lo,
		               hi, i->n_args);
	if (res >= 0 && res != (i->res != NULL))
		return vf_fail(v, i->at, "operands", "'%s' %s", op, res ? "defines a value"
		                                                         : "defines no value");
	if (stray_flags(i))
		return vf_fail(v, i->at, "operands", "'%s' has a flag it does not take", op);
	const TType *r = i->res ? i->res->type : NULL;
	switch (i->op) {
	case OP_CONST:
		return r->kind == TY_SCALAR || vf_fail(v, i->at, "types", "a constant is a scalar");
	case OP_PARAM:
		if (i->param < 0 || i->param >= v->k->n_params ||
		    !ir_type_equal(v->k->params[i->param].type, r))
			return vf_fail(v, i->at, "params", "param %d is not a parameter of this type",
			               i->param);
		return true;
	case OP_PROGRAM_ID:
	case OP_NUM_PROGRAMS:
		return (is_scalar(r, DT_I32) && i->attr.axis >= 0 && i->attr.axis <= 2) ||
		       vf_fail(v, i->at, "types", "'%s' axis=%d (0, 1 or 2) gives i32", op,
		               i->attr.axis);
	case OP_ARANGE:
		return (r->kind == TY_TENSOR && r->rank == 1 && is_like(r, r, DT_I32) &&
		        i->attr.hi - i->attr.lo == r->shape[0]) ||
		       vf_fail(v, i->at, "types", "arange start=%lld end=%lld gives %s",
		               (long long)i->attr.lo, (long long)i->attr.hi, vf_type_str(v, r));
	case OP_NEG: case OP_NOT: case OP_EXP: case OP_EXP2: case OP_LOG: case OP_LOG2:
	case OP_SQRT: case OP_RSQRT: case OP_ABS: case OP_SIN: case OP_COS: case OP_ERF:
	case OP_FLOOR: case OP_CEIL: case OP_SQRT_RN:
		return unary(v, i, r);
	case OP_CAST: case OP_SPLAT: case OP_BROADCAST: case OP_EXPAND_DIMS:
	case OP_CONVERT_LAYOUT: case OP_FULL:
		return reshaping(v, i, r);
	case OP_REDUCE: case OP_SCAN: case OP_YIELD: case OP_RESHAPE: case OP_PERMUTE:
	case OP_JOIN: case OP_SPLIT: case OP_FP4_TO_FP: case OP_GATHER: case OP_HISTOGRAM:
	case OP_ATOMIC_RMW: case OP_ATOMIC_CAS:
		return vf_tensor_op(v, i, r);
	case OP_PTR_ADD: case OP_SELECT: case OP_LOAD: case OP_STORE:
		return memory(v, i, r);
	case OP_IF:
		return is_scalar(i->args[0]->type, DT_I1) ||
		       vf_fail(v, i->at, "types", "an if's condition is an i1 scalar");
	case OP_FOR:
		for (int k = 0; k < 3; k++)
			if (i->var && !ir_type_equal(i->args[k]->type, i->var->type))
				return vf_fail(v, i->at, "types", "the loop bounds have the type of $%d",
				               i->var->id);
		return true;
	case OP_TMA_STORE_WAIT:
		return i->attr.count >= 0 || vf_fail(v, i->at, "operands", "a negative count");
	case OP_VAR_READ: case OP_VAR_WRITE: case OP_WHILE: case OP_BREAK: case OP_CONTINUE:
	case OP_WARP_SPECIALIZE: case OP_FENCE_ASYNC_SHARED: case OP_THREAD_BARRIER:
		return true;
	case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_FLOORDIV: case OP_MOD:
	case OP_AND: case OP_OR: case OP_XOR: case OP_SHL: case OP_SHR: case OP_MIN: case OP_MAX:
	case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_EQ: case OP_NE: case OP_CDIV:
	case OP_DIV_RN: case OP_FDIV: case OP_UMULHI:
		return elementwise(v, i, r);
	default:
		return hopper(v, i, r);
	}
}
