/*
 * Atomics: gl.atomic_add/and/or/xor/max/min/xchg(pointer, val, mask=None,
 * sem=None, scope=None) and gl.atomic_cas(pointer, cmp, val, sem=None,
 * scope=None) on global memory, with Triton's element types per operation
 * and its defaults (sem "acq_rel", scope "gpu"). The value and mask are
 * broadcast and cast to the pointer's shape, layout and element type; cmp
 * and val of atomic_cas are not converted (as in Triton) but for numbers
 * written in the source and integers of the pointer's width and the other
 * signedness, which give the old values in their own dtype. The result,
 * the old values, has the pointer's layout.
 */
#include "sema/builtins/builtins.h"

#include <string.h>

static const struct {
	BuiltinFn fn;
	TAtomicOp op;
	const char *name;
	const char *types;    /* the element types allowed, for messages */
} ops[] = {
	{BF_ATOMIC_ADD, AT_ADD, "gl.atomic_add", "i32, u32, i64, u64, f16, bf16, f32 and f64"},
	{BF_ATOMIC_AND, AT_AND, "gl.atomic_and", "i32, u32, i64, u64, f32 and f64"},
	{BF_ATOMIC_OR, AT_OR, "gl.atomic_or", "i32, u32, i64, u64, f32 and f64"},
	{BF_ATOMIC_XOR, AT_XOR, "gl.atomic_xor", "i32, u32, i64, u64, f32 and f64"},
	{BF_ATOMIC_MAX, AT_MAX, "gl.atomic_max", "i32, u32, i64, u64, f32 and f64"},
	{BF_ATOMIC_MIN, AT_MIN, "gl.atomic_min", "i32, u32, i64, u64, f32 and f64"},
	{BF_ATOMIC_XCHG, AT_XCHG, "gl.atomic_xchg", "i32, u32, i64, u64, f32 and f64"},
	{BF_ATOMIC_CAS, AT_COUNT, "gl.atomic_cas",
	 "16-, 32- and 64-bit types (i16, u16, f16, bf16, i32, u32, f32, i64, u64, f64)"},
};

/* A string argument (NULL or None: index 0) among names[0..n-1]. */
static bool
choice(Check *ck, const Value *v, const char *fname, const char *what,
       const char *(*name)(int), int n, int *out)
{
	*out = 0;
	if (!v || v->kind == VAL_NONE)
		return true;
	for (int i = 0; v->kind == VAL_STR && i < n; i++)
		if (strlen(name(i)) == v->u.str.len && memcmp(name(i), v->u.str.s, v->u.str.len) == 0) {
			*out = i;
			return true;
		}
	StrBuf b = {0};
	for (int i = 0; i < n; i++)
		buf_printf(&b, "%s\"%s\"", !i ? "" : i == n - 1 ? " or " : ", ", name(i));
	if (v->kind == VAL_STR)
		diag_error(ck->d, v->span, "%s's %s must be %s, not \"%.*s\"", fname, what, b.s,
		           (int)v->u.str.len, v->u.str.s);
	else
		diag_error(ck->d, v->span, "%s's %s must be a string (%s), not %s", fname, what, b.s,
		           sema_value_kind_phrase(v));
	buf_free(&b);
	return false;
}

static const char *
sem_name(int i)
{
	return ir_sem_name((TMemSem)i);
}

static const char *
scope_name(int i)
{
	return ir_scope_name((TMemScope)i);
}

/* An operand v (value, mask, cmp) of the atomic through ptr as dtype dt:
 * splatted, broadcast and cast to the pointer's shape and layout (the
 * pointer does not grow, as in Triton's atomics); NULL after a diagnostic
 * naming role. */
static TValue *
operand(Check *ck, SrcSpan at, TValue *ptr, Value *v, TDType dt, const char *role)
{
	TValue *t = sema_materialize(ck, v, dt);
	if (!t)
		return NULL;
	if (t->type->kind == TY_SCALAR)
		t = sema_cast_to(ck, t, dt, at);
	if (ptr->type->kind != TY_TENSOR) {
		if (t->type->kind == TY_TENSOR) {
			diag_error(ck->d, v->span, "%s is a tensor but the pointer is a scalar", role);
			return NULL;
		}
		return t;
	}
	if (t->type->kind != TY_TENSOR)
		return sema_splat_to(ck, t, ptr->type, at);
	if (t->type->rank != ptr->type->rank ||
	    memcmp(t->type->shape, ptr->type->shape, (size_t)t->type->rank * 8) != 0) {
		diag_error(ck->d, v->span, "%s has shape %s but the pointer tensor has shape %s",
		           role, sema_type_str(ck, t->type), sema_type_str(ck, ptr->type));
		return NULL;
	}
	if (!sema_auto_unify(ck, at, ptr, t) && !ll_equal(&t->type->layout.ll, &ptr->type->layout.ll)) {
		sema_layout_clash(ck, v->span, arena_printf(ck->a, "%s and pointer", role), ptr,
		             "the pointer", t, role);
		return NULL;
	}
	return sema_cast_to(ck, t, dt, at);
}

/* atomic_cas's operand v (cmp or val) for elements of dt: of dt, or an
 * integer of its width (*as gets that dtype), or a number in the source. */
static bool
cas_operand(Check *ck, const Value *v, TDType dt, const char *what, TDType *as)
{
	if (v->kind != VAL_RUNTIME)
		return true;
	TDType t = v->u.rt->type->dtype;
	bool ints = !ir_dtype_is_float(t) && !ir_dtype_is_float(dt) && t != DT_I1 &&
	            ir_dtype_bits(t) == ir_dtype_bits(dt);
	if (t == dt || (ints && !v->u.rt->type->elem_is_ptr)) {
		*as = t;
		return true;
	}
	diag_error(ck->d, v->span, "gl.atomic_cas does not convert its operands: %s is %s but the "
	           "pointer's elements are %s; cast it with .to(gl.%s)", what,
	           sema_type_str(ck, v->u.rt->type), ir_dtype_name(dt), ir_dtype_name(dt));
	return false;
}

Value *
sema_check_atomic_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	size_t k = 0;
	while (ops[k].fn != fn)
		k++;
	const char *fname = ops[k].name;
	bool cas = fn == BF_ATOMIC_CAS;
	if (!sema_want_ptr(ck, a[0], fname))
		return NULL;
	TValue *p = a[0]->u.rt;
	TDType dt = p->type->dtype;
	if (!ir_atomic_dtype_ok(ops[k].op, dt)) {
		diag_error(ck->d, a[0]->span, "%s does not support %s elements; it supports %s",
		           fname, ir_dtype_name(dt), ops[k].types);
		return NULL;
	}
	int sem, scope;
	if (!choice(ck, a[3], fname, "sem", sem_name, SEM_COUNT, &sem) ||
	    !choice(ck, a[4], fname, "scope", scope_name, SCOPE_COUNT, &scope))
		return NULL;
	TDType as = dt;
	if (cas && (!cas_operand(ck, a[1], dt, "cmp", &as) || !cas_operand(ck, a[2], dt, "val", &as)))
		return NULL;
	TValue *x = operand(ck, call->span, p, a[cas ? 2 : 1], dt, "the value");
	TValue *y = NULL;
	if (!x || (a[cas ? 1 : 2] && !(y = operand(ck, call->span, p, a[cas ? 1 : 2],
	                                                  cas ? dt : DT_I1,
	                                                  cas ? "cmp" : "the mask"))))
		return NULL;
	const TType *rt = sema_type_with_elem(ck, p->type, sema_type_scalar(ck, dt));
	TInst *i = cas ? sema_emit(ck, OP_ATOMIC_CAS, call->span, rt, 3, p, y, x)
	               : sema_emit(ck, OP_ATOMIC_RMW, call->span, rt, 2 + (y != NULL), p, x, y);
	i->attr.rmw = ops[k].op;
	i->attr.has_mask = !cas && y;
	i->attr.sem = (TMemSem)sem;
	i->attr.scope = (TMemScope)scope;
	i->res->layout_at = p->layout_at;
	TValue *old = as == dt ? i->res : sema_cast_to(ck, i->res, as, call->span);
	return sema_rt_value(ck, old, call->span);
}
