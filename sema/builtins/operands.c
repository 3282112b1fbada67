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
	if (v->kind == VAL_INT && !sema_int_fits(dt, v->u.i)) {
		diag_error(ck->d, v->span, "%s is %lld, which does not fit the instruction's %s operand",
		           what, (long long)v->u.i, ir_dtype_name(dt));
		return NULL;
	}
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

const char *
sema_jit_name(const Check *ck)
{
	return ck->fr && ck->fr->tl ? "@triton.jit" : "@gl.jit";
}

const char *
sema_fn_name(Check *ck, const char *name)
{
	const char *ns = ck->call ? sema_builtin_ns(ck->call) : NULL;
	if (!ns)
		ns = ck->fr && ck->fr->tl ? "tl" : "gl";
	return arena_printf(ck->a, "%s.%s", ns, name);
}

/* The integer operands that are immediates of their instruction (or are
 * bounded by it), with the values each takes: one table for every
 * builtin, so that none is truncated to its field (store_wait(2^32) was
 * wait_group 0). */
static const struct {
	const char *what;
	int64_t lo, hi;
	const char *why;
} IMMS[IMM_COUNT_] = {
	[IMM_ARRIVE_COUNT] = {"the arrival count", 1, (1 << 20) - 1,
	                      "mbarrier's arrival count is 20 bits"},
	[IMM_TX_BYTES] = {"the byte count", 0, (1 << 20) - 1, "mbarrier's transaction count is 20 bits"},
	[IMM_GROUPS] = {"the count of pending groups", 0, INT32_MAX,
	                "wait_group's count is a 32-bit immediate"},
};

bool
sema_imm_operand(Check *ck, const Value *v, SemaImm k, int64_t *out)
{
	if (!sema_value_int(ck, v, IMMS[k].what, out))
		return false;
	if (*out >= IMMS[k].lo && *out <= IMMS[k].hi)
		return true;
	diag_error(ck->d, v->span, "%s is %lld; it must be in [%lld, %lld] (%s)", IMMS[k].what,
	           (long long)*out, (long long)IMMS[k].lo, (long long)IMMS[k].hi, IMMS[k].why);
	return false;
}

TValue *
sema_imm_or_operand(Check *ck, Value *v, SemaImm k)
{
	int64_t n;
	if (v->kind == VAL_INT && !sema_imm_operand(ck, v, k, &n))
		return NULL;
	return sema_int_operand(ck, v, IMMS[k].what, DT_I32);
}
