/*
 * Building the typed program: instructions, constants, and the implicit
 * conversions that sema makes explicit (casts, splats, broadcasts), plus the
 * layout-clash diagnostic that shows both layouts.
 */
#include "sema/emit/emit.h"

#include <stdarg.h>
#include <string.h>

TInst *
sema_emit(Check *ck, TOp op, SrcSpan at, const TType *res, int n_args, ...)
{
	TInst *i = ir_inst_new(ck->a, op, at);
	if (res) {
		ir_inst_result(ck->a, i, ck->k->n_values++, res);
		while (ck->defs.len < (size_t)ck->k->n_values)
			vec_push(ck->a, &ck->defs, NULL);
		ck->defs.data[i->res->id] = i;
	}
	TValue **args = ir_inst_operands(ck->a, i, n_args);
	va_list ap;
	va_start(ap, n_args);
	for (int k = 0; k < n_args; k++)
		args[k] = va_arg(ap, TValue *);
	va_end(ap);
	ir_block_push(ck->a, ck->blk, i);
	return i;
}

TValue *
sema_materialize(Check *ck, Value *v, TDType want)
{
	TInst *i;
	switch (v->kind) {
	case VAL_RUNTIME:
		return v->u.rt;
	case VAL_BOOL:
	case VAL_INT: {
		TDType t = want != DT_VOID ? want : v->kind == VAL_BOOL ? DT_I1 :
		           (v->u.i >= INT32_MIN && v->u.i <= INT32_MAX) ? DT_I32 : DT_I64;
		i = sema_emit(ck, OP_CONST, v->span, sema_type_scalar(ck, t), 0);
		if (ir_dtype_is_float(t))
			i->c.f = v->kind == VAL_BOOL ? v->u.b : (double)v->u.i;
		else
			i->c.i = v->kind == VAL_BOOL ? v->u.b : v->u.i;
		return i->res;
	}
	case VAL_FLOAT: {
		TDType t = want != DT_VOID && ir_dtype_is_float(want) ? want : DT_F32;
		i = sema_emit(ck, OP_CONST, v->span, sema_type_scalar(ck, t), 0);
		i->c.f = v->u.f;
		return i->res;
	}
	default:
		diag_error(ck->d, v->span, "expected a number or tensor here, got %s",
		           sema_value_kind_phrase(v));
		return NULL;
	}
}

TValue *
sema_cast_to(Check *ck, TValue *v, TDType t, SrcSpan at)
{
	if (v->type->dtype == t && !v->type->elem_is_ptr && v->type->kind != TY_PTR)
		return v;
	TType *ty = sema_type_with_elem(ck, v->type, sema_type_scalar(ck, t));
	TValue *r = sema_emit(ck, OP_CAST, at, ty, 1, v)->res;
	r->layout_at = v->layout_at;
	return r;
}

TValue *
sema_splat_to(Check *ck, TValue *v, const TType *like, SrcSpan at)
{
	TType *ty = sema_type_with_elem(ck, like, v->type);
	TValue *r = sema_emit(ck, OP_SPLAT, at, ty, 1, v)->res;
	return r;
}

static void
describe_layout(Check *ck, Diag *g, const TValue *v, const char *role)
{
	StrBuf b = {0};
	ir_layout_print(&v->type->layout, &b);
	buf_puts(&b, "\n    bases: ");
	ir_layout_print_bases(&v->type->layout.ll, &b);
	diag_note(ck->d, g, v->layout_at, "%s has layout %s", role, b.s);
	buf_free(&b);
}

void
sema_layout_clash(Check *ck, SrcSpan at, const char *what, const TValue *a, const char *a_role,
             const TValue *b, const char *b_role)
{
	Diag *g = diag_error(ck->d, at, "%s: the layouts differ", what);
	describe_layout(ck, g, a, a_role);
	describe_layout(ck, g, b, b_role);
	diag_note(ck->d, g, (SrcSpan){0}, "use gl.convert_layout to move one operand into the "
	          "other's layout");
}

TValue *
sema_broadcast(Check *ck, TValue *v, const int64_t *shape, int rank, SrcSpan at)
{
	TType *ty = sema_tensor_type(ck, at, sema_type_elem(ck, v->type), shape, rank,
	                             v->type->layout.desc);
	if (!ty)
		return NULL;
	TValue *r = sema_emit(ck, OP_BROADCAST, at, ty, 1, v)->res;
	r->layout_at = v->layout_at;
	return r;
}

bool
sema_unify_shapes(Check *ck, SrcSpan at, const char *what, TValue **a, TValue **b)
{
	return sema_unify_roles(ck, at, what, a, "the left operand", b, "the right operand");
}

bool
sema_unify_roles(Check *ck, SrcSpan at, const char *what, TValue **a, const char *a_role,
                 TValue **b, const char *b_role)
{
	const TType *ta = (*a)->type, *tb = (*b)->type;
	/* only registers broadcast: a shared-memory buffer, an mbarrier or a
	 * descriptor is no operand (they were splatted into invalid IR) */
	for (int k = 0; k < 2; k++) {
		const TType *t = k ? tb : ta;
		if (t->kind == TY_TENSOR || t->kind == TY_SCALAR || t->kind == TY_PTR)
			continue;
		diag_error(ck->d, at, "%s: %s must be a register tensor or a scalar, not %s", what,
		           k ? b_role : a_role, sema_type_str(ck, t));
		return false;
	}
	bool ia = ta->kind == TY_TENSOR, ib = tb->kind == TY_TENSOR;
	if (!ia && !ib)
		return true;
	if (!ia) {
		*a = sema_splat_to(ck, *a, tb, at);
		return true;
	}
	if (!ib) {
		*b = sema_splat_to(ck, *b, ta, at);
		return true;
	}
	/* Triton gives the lower-rank operand leading axes first */
	while (sema_in_tl(ck) && ta->rank != tb->rank) {
		TValue **low = ta->rank < tb->rank ? a : b;
		if (!(*low = sema_soft_expand_front(ck, at, *low)))
			return false;
		ta = (*a)->type;
		tb = (*b)->type;
	}
	if (ta->rank != tb->rank) {
		diag_error(ck->d, at, "%s: operands have ranks %d and %d", what, ta->rank, tb->rank);
		return false;
	}
	int64_t shape[LL_MAX_RANK];
	for (int i = 0; i < ta->rank; i++) {
		if (ta->shape[i] != tb->shape[i] && ta->shape[i] != 1 && tb->shape[i] != 1) {
			StrBuf sa = {0}, sb = {0};
			ir_shape_print(ta->shape, ta->rank, &sa);
			ir_shape_print(tb->shape, tb->rank, &sb);
			diag_error(ck->d, at, "%s: shapes %s and %s do not broadcast (dimension %d)",
			           what, sa.s, sb.s, i);
			buf_free(&sa);
			buf_free(&sb);
			return false;
		}
		shape[i] = ta->shape[i] > tb->shape[i] ? ta->shape[i] : tb->shape[i];
	}
	bool same_a = memcmp(shape, ta->shape, (size_t)ta->rank * sizeof *shape) == 0;
	bool same_b = memcmp(shape, tb->shape, (size_t)tb->rank * sizeof *shape) == 0;
	if (!same_a && !(*a = sema_broadcast(ck, *a, shape, ta->rank, at)))
		return false;
	if (!same_b && !(*b = sema_broadcast(ck, *b, shape, tb->rank, at)))
		return false;
	if (!sema_auto_unify(ck, at, *a, *b) &&
	    !ll_equal(&(*a)->type->layout.ll, &(*b)->type->layout.ll)) {
		/* Triton converts one operand of a tl function's operation */
		if (sema_in_tl(ck))
			return (*b = sema_soft_convert(ck, at, *b, (*a)->type->layout.desc)) != NULL;
		sema_layout_clash(ck, at, what, *a, a_role, *b, b_role);
		return false;
	}
	return true;
}

const TInst *
sema_def(Check *ck, const TValue *v)
{
	return v && (size_t)v->id < ck->defs.len ? ck->defs.data[v->id] : NULL;
}
