/*
 * The operand checks the builtin families share: a runtime value of a
 * given kind (a buffer, an mbarrier, a descriptor, a tensor), an integer
 * or boolean scalar operand, and the warning for shared memory read by the
 * async proxy (TMA, WGMMA) after ordinary stores without a fence.
 */
#include "sema/builtins/builtins.h"

static const TType *
rt_of(const Value *v, TTypeKind k)
{
	return v && v->kind == VAL_RUNTIME && v->u.rt->type->kind == k ? v->u.rt->type : NULL;
}

bool
sema_want_rt(Check *ck, const Value *v, TTypeKind k, const char *what)
{
	if (rt_of(v, k))
		return true;
	static const char *const kinds[] = {[TY_SMEM] = "a shared-memory buffer",
	                                    [TY_MBARRIER] = "an mbarrier (e.g. bars.index(i))",
	                                    [TY_DESC] = "a tensor descriptor",
	                                    [TY_TENSOR] = "a register tensor"};
	diag_error(ck->d, v->span, "%s must be %s, not %s", what, kinds[k],
	           v->kind == VAL_RUNTIME ? sema_type_str(ck, v->u.rt->type) : sema_value_kind_phrase(v));
	return false;
}

void
sema_fence_check(Check *ck, SrcSpan at, const TType *smem, const char *reader)
{
	if (!ck->unfenced.data[smem->alloc])
		return;
	Diag *g = diag_warning(ck->d, at, "%s reads shared memory written by ordinary stores "
	                       "without fence_async_shared() in between", reader);
	diag_note(ck->d, g, ck->smem.data[smem->alloc].at, "the buffer was allocated here");
	ck->unfenced.data[smem->alloc] = false;
}

TValue *
sema_int_operand(Check *ck, Value *v, const char *what, TDType dt)
{
	TValue *t = sema_materialize(ck, v, dt);
	if (t && (t->type->kind != TY_SCALAR || ir_dtype_is_float(t->type->dtype) ||
	          t->type->dtype == DT_I1)) {
		diag_error(ck->d, v->span, "%s must be an integer scalar, not %s", what,
		           sema_type_str(ck, t->type));
		return NULL;
	}
	return t ? sema_cast_to(ck, t, dt, v->span) : NULL;
}

TValue *
sema_pred_operand(Check *ck, Value *v, const char *what)
{
	TValue *t = sema_materialize(ck, v, DT_I1);
	if (t && (t->type->kind != TY_SCALAR || t->type->dtype != DT_I1)) {
		diag_error(ck->d, v->span, "%s must be a boolean scalar, not %s", what,
		           sema_type_str(ck, t->type));
		return NULL;
	}
	return t;
}
