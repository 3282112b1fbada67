/*
 * gl.bank_conflicts(distr_ty, shared_ty): Gluon's compile-time count of the
 * bank conflicts per wavefront of the ld.shared/st.shared instructions that
 * move a register tensor of type distr_ty to or from a buffer of type
 * shared_ty, with Triton 3.6's checks and its number
 * (ll_gluon_bank_conflicts). The types are `x.type` and `smem.type`.
 */
#include "sema/builtins/builtins.h"

static const TType *
type_arg(const Value *v, TTypeKind k1, TTypeKind k2)
{
	/* a block_type (no layout) is no distributed_type */
	return v->kind == VAL_TYPE && (v->u.type->kind == k1 || v->u.type->kind == k2) &&
	       v->u.type->layout.desc ? v->u.type : NULL;
}

static const char *
elem_name(const TType *t)
{
	return t->elem_is_ptr ? "a pointer" : ir_dtype_name(t->dtype);
}

Value *
sema_bank_conflicts(Check *ck, const Node *call, Value **a)
{
	const TType *r = type_arg(a[0], TY_TENSOR, TY_TENSOR);
	const TType *s = type_arg(a[1], TY_SMEM, TY_MBARRIER);
	if (!r || !s) {
		const Value *bad = r ? a[1] : a[0];
		diag_error(ck->d, bad->span, "gl.bank_conflicts expects the %s, not %s",
		           r ? "shared type to be a shared_memory_descriptor_type (smem.type)"
		             : "register type to be a distributed_type (x.type of a register tensor)",
		           bad->kind == VAL_TYPE ? sema_type_str(ck, bad->u.type)
		                                 : sema_value_kind_phrase(bad));
		return NULL;
	}
	if (!ir_same_shape(r, s)) {
		diag_error(ck->d, call->span, "gl.bank_conflicts: register shape %s and shared shape "
		           "%s must match", sema_type_str(ck, r), sema_type_str(ck, s));
		return NULL;
	}
	if (r->dtype != s->dtype || r->elem_is_ptr) {
		diag_error(ck->d, call->span, "gl.bank_conflicts: mismatched dtypes between register "
		           "(%s) and shared (%s) layouts", elem_name(r), ir_dtype_name(s->dtype));
		return NULL;
	}
	bool sub = s->alloc_rank < s->rank;   /* Gluon: shape != alloc_shape[-rank:] */
	for (int i = 0; !sub && i < s->rank; i++)
		sub = s->shape[i] != s->alloc_shape[s->alloc_rank - s->rank + i];
	if (sub) {
		diag_error(ck->d, a[1]->span, "gl.bank_conflicts is not implemented for a .slice of a "
		           "buffer (Triton 3.6: NYI for subslices); take it on the whole buffer");
		return NULL;
	}
	if (s->layout.ll.n_out != s->rank) {
		diag_error(ck->d, a[1]->span, "gl.bank_conflicts needs a view without leading buffer "
		           "dims; take .index(i) first");
		return NULL;
	}
	if (ll_desc_has_auto(r->layout.desc)) {
		diag_error(ck->d, a[0]->span, "gl.bank_conflicts needs the tensor's layout, which is "
		           "left to inference here (AutoLayout); give the tensor a layout");
		return NULL;
	}
	if (s->layout.desc->kind == LL_PADDED_SHARED) {
		Diag *g = diag_error(ck->d, a[1]->span, "gl.bank_conflicts does not take a "
		                     "PaddedSharedLayout: its count is defined on linear layouts, "
		                     "and padding is not linear");
		diag_note(ck->d, g, (SrcSpan){0}, "Triton 3.6 has no linear layout for a padded one "
		          "and aborts here");
		return NULL;
	}
	LLErr err = {ck->a, NULL};
	int n;
	if (!ll_gluon_bank_conflicts(&r->layout.ll, &s->layout.ll, ir_dtype_bits(r->dtype), &n,
	                             &err)) {
		diag_error(ck->d, call->span, "gl.bank_conflicts: %s", err.msg);
		return NULL;
	}
	Value *v = sema_new_value(&ck->ev, VAL_INT, call->span);
	v->u.i = n;
	return v;
}
