/*
 * The verifier's rules for fma and clamp, bitcasts, the axis hints and
 * assume, cp.async, device_print and device_assert, inline_asm, map,
 * extract and extern (the operations vf_is_ext names; the others are in
 * verify_ops.c):
 *
 *   fma, clamp       three floats of one type, the result of that type
 *   bitcast          the operand's shape and layout, a dtype of its width
 *   hints            the operand's type, an integer or pointer one; values
 *                    powers of two, one per dim
 *   assume           an i1 (scalar or tensor), no result
 *   async_copy       a shared buffer, pointers to its dtype in its shape,
 *                    an optional i1 mask shaped like them
 *   device_print     numbers or pointers; device_assert an i1 condition
 *                    and optional i1 mask of one shape
 *   inline_asm, map  operands: numbers, the tensors of one shape and
 *                    layout; the result a tensor of that shape and layout,
 *                    or a tuple of them; pack >= 1 dividing the registers
 *   map_arg          in a map's body: a scalar of argument index / pack's
 *                    dtype; map_yield ends the body with pack scalars per
 *                    result, of the results' dtypes
 *   extract          element index of a tuple
 *   extern           1 to 4 numbers (the tensors of one shape and layout),
 *                    a number of that shape and layout; a __nv_ symbol
 */
#include "ir/verify/verify.h"

#include <string.h>

bool
vf_is_ext(TOp op)
{
	switch (op) {
	case OP_FMA: case OP_CLAMP: case OP_BITCAST: case OP_MULTIPLE_OF: case OP_MAX_CONTIGUOUS:
	case OP_MAX_CONSTANCY: case OP_ASSUME: case OP_ASYNC_COPY: case OP_ASYNC_COMMIT:
	case OP_ASYNC_WAIT: case OP_ASYNC_MBAR_ARRIVE: case OP_PRINT: case OP_ASSERT:
	case OP_INLINE_ASM: case OP_MAP: case OP_MAP_ARG: case OP_MAP_YIELD: case OP_EXTRACT:
	case OP_EXTERN:
		return true;
	default:
		return false;
	}
}

static bool
is_num(const TType *t)
{
	return t->kind == TY_SCALAR || (t->kind == TY_TENSOR && !t->elem_is_ptr);
}

static bool
is_ptr(const TType *t)
{
	return t->kind == TY_PTR || (t->kind == TY_TENSOR && t->elem_is_ptr);
}

/* The operands and the result of i take the counts lo..hi and want_res. */
static bool
counts(Verifier *v, const TInst *i, int lo, int hi, bool want_res)
{
	const char *op = ir_op_name(i->op);
	if ((i->n_args < lo || i->n_args > hi) && lo == hi)
		return vf_fail(v, i->at, "operands", "'%s' takes %d operands, not %d", op, lo,
		               i->n_args);
	if (i->n_args < lo || i->n_args > hi)
		return vf_fail(v, i->at, "operands", "'%s' takes %d to %d operands, not %d", op, lo, hi,
		               i->n_args);
	if (want_res != (i->res != NULL))
		return vf_fail(v, i->at, "operands", "'%s' %s", op, want_res ? "defines a value"
		                                                             : "defines no value");
	return true;
}

/* The tensor of the operands of inline_asm and map (NULL when all are
 * scalars); false after a diagnostic when they do not agree. */
static bool
elementwise_args(Verifier *v, const TInst *i, const TType **shape)
{
	*shape = NULL;
	for (int k = 0; k < i->n_args; k++) {
		const TType *t = i->args[k]->type;
		if (!is_num(t))
			return vf_fail(v, i->at, "types", "'%s' takes numbers, not %s", ir_op_name(i->op),
			               vf_type_str(v, t));
		if (t->kind != TY_TENSOR)
			continue;
		if (*shape && !vf_same_shape(*shape, t))
			return vf_fail(v, i->at, "layouts", "the tensors of '%s' have one shape and "
			               "layout: %s and %s", ir_op_name(i->op), vf_type_str(v, *shape),
			               vf_type_str(v, t));
		*shape = t;
	}
	return true;
}

/* Result e of elementwise op i: a number shaped like the tensor operands
 * (shape; NULL: a scalar). */
static bool
result_like(Verifier *v, const TInst *i, const TType *e, const TType *shape)
{
	return (is_num(e) && (shape ? vf_same_shape(shape, e) : e->kind != TY_TENSOR)) ||
	       vf_fail(v, i->at, "types", "'%s' gives %s for operands like %s", ir_op_name(i->op),
	               vf_type_str(v, e), shape ? vf_type_str(v, shape) : "scalars");
}

/* The results of inline_asm and map: one tensor shaped like the operands,
 * or a tuple of them; their number into *n. */
static bool
elementwise_results(Verifier *v, const TInst *i, const TType *shape, int *n)
{
	const TType *r = i->res->type;
	*n = r->kind == TY_TUPLE ? r->n_elems : 1;
	for (int k = 0; k < *n; k++)
		if (!result_like(v, i, r->kind == TY_TUPLE ? r->elems[k] : r, shape))
			return false;
	int regs = shape ? 1 << ll_in_bits(&shape->layout.ll, LL_REGISTER) : 1;
	if (i->attr.pack < 1 || regs % i->attr.pack)
		return vf_fail(v, i->at, "operands", "pack=%d does not divide the %d elements of each "
		               "thread", i->attr.pack, regs);
	return true;
}

/* The element type of result r of map m (a tuple or one value). */
static const TType *
result_elem(const TInst *m, int r)
{
	const TType *t = m->res->type;
	return t->kind == TY_TUPLE ? t->elems[r] : t;
}

static bool
map_parts(Verifier *v, const TInst *i)
{
	const TInst *m = v->map;
	if (!m)
		return vf_fail(v, i->at, "structure", "'%s' belongs in a map's body",
		               ir_op_name(i->op));
	int pack = m->attr.pack;
	if (i->op == OP_MAP_ARG) {
		int a = i->attr.index / pack;
		if (!counts(v, i, 0, 0, true))
			return false;
		if (a >= m->n_args || i->res->type->kind != TY_SCALAR ||
		    i->res->type->dtype != m->args[a]->type->dtype)
			return vf_fail(v, i->at, "types", "map_arg index=%d of a map with %d operands of "
			               "pack %d gives %s", i->attr.index, m->n_args, pack,
			               vf_type_str(v, i->res->type));
		return true;
	}
	int n = m->res->type->kind == TY_TUPLE ? m->res->type->n_elems : 1;
	if (!counts(v, i, n * pack, n * pack, false))
		return false;
	if (m->body.insts[m->body.n - 1] != i)
		return vf_fail(v, i->at, "structure", "map_yield ends its map's body");
	for (int k = 0; k < i->n_args; k++) {
		const TType *t = i->args[k]->type;
		if (t->kind != TY_SCALAR || t->dtype != result_elem(m, k / pack)->dtype)
			return vf_fail(v, i->at, "types", "map_yield operand %d is %s, not a scalar of "
			               "result %d's dtype", k, vf_type_str(v, t), k / pack);
	}
	return true;
}

/* fma, clamp, bitcast, hints, assume. */
static bool
values(Verifier *v, const TInst *i)
{
	const TType *a = i->n_args ? i->args[0]->type : NULL, *r = i->res ? i->res->type : NULL;
	switch (i->op) {
	case OP_FMA: case OP_CLAMP:
		if (!counts(v, i, 3, 3, true))
			return false;
		for (int k = 0; k < 3; k++)
			if (!ir_type_equal(i->args[k]->type, r) || !is_num(r) || !ir_dtype_is_float(r->dtype))
				return vf_fail(v, i->at, "types", "'%s' takes three floats of its result's "
				               "type %s", ir_op_name(i->op), vf_type_str(v, r));
		return true;
	case OP_BITCAST:   /* numbers of one width, or pointers (Gluon's pointer casts) */
		return (counts(v, i, 1, 1, true) && vf_same_shape(a, r) &&
		        ((is_num(a) && is_num(r) && ir_dtype_bits(a->dtype) == ir_dtype_bits(r->dtype)) ||
		         (is_ptr(a) && is_ptr(r)))) ||
		       (v->ok && vf_fail(v, i->at, "types", "bitcast of %s to %s", vf_type_str(v, a),
		                         vf_type_str(v, r)));
	case OP_ASSUME:
		return counts(v, i, 1, 1, false) &&
		       ((is_num(a) && a->dtype == DT_I1) ||
		        vf_fail(v, i->at, "types", "assume takes an i1, not %s", vf_type_str(v, a)));
	default: {   /* the hints */
		if (!counts(v, i, 1, 1, true))
			return false;
		if (!ir_type_equal(a, r) || (!is_ptr(a) && !(is_num(a) &&
		    !ir_dtype_is_float(a->dtype) && a->dtype != DT_I1)))
			return vf_fail(v, i->at, "types", "'%s' of %s gives %s", ir_op_name(i->op),
			               vf_type_str(v, a), vf_type_str(v, r));
		int rank = a->kind == TY_TENSOR ? a->rank : 1;
		for (int d = 0; d < rank; d++)
			if (i->attr.hint[d] < 1 || (i->attr.hint[d] & (i->attr.hint[d] - 1)))
				return vf_fail(v, i->at, "operands", "'%s' values are powers of two",
				               ir_op_name(i->op));
		return true;
	}
	}
}

/* cp.async and its group and barrier operations. */
static bool
async(Verifier *v, const TInst *i)
{
	switch (i->op) {
	case OP_ASYNC_COPY: {
		if (!counts(v, i, 2 + i->attr.has_mask, 2 + i->attr.has_mask, false))
			return false;
		const TType *s = i->args[0]->type, *p = i->args[1]->type;
		if (s->kind != TY_SMEM || p->kind != TY_TENSOR || !p->elem_is_ptr ||
		    !ir_same_shape(s, p) || s->dtype != p->dtype || s->dtype == DT_I1)
			return vf_fail(v, i->at, "types", "async_copy into %s from %s",
			               vf_type_str(v, s), vf_type_str(v, p));
		const TType *m = i->attr.has_mask ? i->args[2]->type : NULL;
		if (m && !(m->kind == TY_TENSOR && m->dtype == DT_I1 && vf_same_shape(m, p)))
			return vf_fail(v, i->at, "types", "the mask of async_copy is i1 shaped like its "
			               "pointers");
		if (i->attr.cache != CACHE_NONE && i->attr.cache != CACHE_CA &&
		    i->attr.cache != CACHE_CG)
			return vf_fail(v, i->at, "operands", "cp.async takes cache=ca or cache=cg");
		return true;
	}
	case OP_ASYNC_MBAR_ARRIVE:
		return counts(v, i, 1, 1, false) &&
		       (i->args[0]->type->kind == TY_MBARRIER ||
		        vf_fail(v, i->at, "types", "'%s' takes an mbarrier", ir_op_name(i->op)));
	default:
		return counts(v, i, 0, 0, false) &&
		       (i->attr.count >= 0 || vf_fail(v, i->at, "operands", "a negative count"));
	}
}

bool
vf_ext_op(Verifier *v, const TInst *i)
{
	const TType *shape;
	int n;
	switch (i->op) {
	case OP_ASYNC_COPY: case OP_ASYNC_COMMIT: case OP_ASYNC_WAIT: case OP_ASYNC_MBAR_ARRIVE:
		return async(v, i);
	case OP_PRINT:
		for (int k = 0; k < i->n_args; k++)
			if (!is_num(i->args[k]->type) && !is_ptr(i->args[k]->type))
				return vf_fail(v, i->at, "types", "device_print prints numbers and pointers");
		return counts(v, i, 0, 1 << 20, false) && (i->attr.text ||
		       vf_fail(v, i->at, "operands", "device_print has a prefix"));
	case OP_ASSERT: {
		if (!counts(v, i, 1, 2, false))
			return false;
		const TType *c = i->args[0]->type, *m = i->n_args > 1 ? i->args[1]->type : c;
		return (is_num(c) && c->dtype == DT_I1 && m->dtype == DT_I1 && vf_same_shape(c, m) &&
		        i->attr.text) ||
		       vf_fail(v, i->at, "types", "device_assert takes an i1 condition and mask of "
		               "one shape, and a message");
	}
	case OP_INLINE_ASM: case OP_MAP:
		if (!counts(v, i, 0, 1 << 20, true) || !elementwise_args(v, i, &shape) ||
		    !elementwise_results(v, i, shape, &n))
			return false;
		if (i->op == OP_MAP)
			return true;
		if (!i->attr.text || !i->attr.text2)
			return vf_fail(v, i->at, "operands", "inline_asm has its asm and constraints");
		int outs, ins;
		IrSpan bad;
		const char *why;
		return ir_asm_check_constraints(i->attr.text2, &outs, &ins, &bad, &why) ||
		       vf_fail(v, i->at, "operands", "inline_asm constraint '%.*s' is not one LLVM's "
		               "NVPTX back end takes: %s", (int)bad.n, bad.s, why);
	case OP_MAP_ARG: case OP_MAP_YIELD:
		return map_parts(v, i);
	case OP_EXTERN:
		if (!counts(v, i, 1, 4, true) || !elementwise_args(v, i, &shape) ||
		    !result_like(v, i, i->res->type, shape))
			return false;
		return (i->attr.text && strncmp(i->attr.text, "__nv_", 5) == 0) ||
		       vf_fail(v, i->at, "operands", "extern calls a libdevice function (__nv_...)");
	case OP_EXTRACT: {
		if (!counts(v, i, 1, 1, true))
			return false;
		const TType *t = i->args[0]->type;
		return (t->kind == TY_TUPLE && i->attr.index >= 0 && i->attr.index < t->n_elems &&
		        ir_type_equal(t->elems[i->attr.index], i->res->type)) ||
		       vf_fail(v, i->at, "types", "extract index=%d of %s gives %s", i->attr.index,
		               vf_type_str(v, t), vf_type_str(v, i->res->type));
	}
	default:
		return values(v, i);
	}
}
