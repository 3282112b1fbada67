/*
 * Types of the typed program as sema makes them (scalars, pointers, tensors
 * and shared buffers with their layouts fitted, TMA descriptor types,
 * Gluon's block types), a layout fitted to a shape with its diagnostic, and
 * Triton 3.6's dtype promotion for mixed arithmetic
 * (python/triton/language/semantic.py: computation_type_impl,
 * integer_promote_impl, to_tensor_type).
 */
#include "sema/eval/eval.h"

#include <string.h>

/* Triton's dtype kinds, in the order its promotion compares them
 * (dtype.kind(): signed and unsigned integers are one kind, so a Python
 * int next to a u16 tensor stays u16). */
enum { KIND_BOOL, KIND_INT, KIND_FLOAT };

static int
kind(TDType t)
{
	return t == DT_I1 ? KIND_BOOL : ir_dtype_is_float(t) ? KIND_FLOAT : KIND_INT;
}

/* i1 counts as unsigned, as in Triton. */
static bool
is_unsigned_int(TDType t)
{
	return t == DT_I1 || ir_dtype_is_unsigned(t);
}

TDType
sema_integer_promote(TDType a, TDType b)
{
	int ra = ir_dtype_bits(a), rb = ir_dtype_bits(b);
	bool ua = is_unsigned_int(a), ub = is_unsigned_int(b);
	if (ua == ub)
		return ra > rb ? a : b;
	if (ua)
		return ra >= rb ? a : b;
	return rb >= ra ? b : a;
}

TDType
sema_computation_type(TDType a, bool a_lit, TDType b, bool b_lit, bool div_or_mod)
{
	/* 0) a Python number of a lower or equal kind takes the tensor's type */
	if (a_lit != b_lit) {
		TDType lit = a_lit ? a : b, ten = a_lit ? b : a;
		if (kind(lit) <= kind(ten))
			return div_or_mod && (ten == DT_F16 || ten == DT_BF16) ? DT_F32 : ten;
	}
	if (a == DT_F64 || b == DT_F64)
		return DT_F64;
	if (a == DT_F32 || b == DT_F32)
		return DT_F32;
	if (a == DT_F16 || b == DT_F16)
		return div_or_mod ? DT_F32 : DT_F16;
	if (a == DT_BF16 && b == DT_BF16)
		return div_or_mod ? DT_F32 : DT_BF16;
	if (a == DT_BF16 || b == DT_BF16)
		return DT_F32;
	bool fa = a == DT_F8E4M3 || a == DT_F8E5M2, fb = b == DT_F8E4M3 || b == DT_F8E5M2;
	if (fa && fb)
		return a == b ? a : DT_F16;
	if (fa || fb || ir_dtype_is_float(a) || ir_dtype_is_float(b))
		return DT_VOID;
	if (div_or_mod && is_unsigned_int(a) != is_unsigned_int(b))
		return DT_VOID;
	return sema_integer_promote(a, b);
}

TDType
sema_literal_dtype(const Value *v)
{
	if (v->kind == VAL_BOOL)
		return DT_I1;
	if (v->kind == VAL_FLOAT) {
		double x = v->u.f < 0 ? -v->u.f : v->u.f;
		bool f32 = x == 0 || x != x || x == 1.0 / 0.0 ||
		           (x >= 0x1p-126 && x <= 0x1.fffffep127);
		return f32 ? DT_F32 : DT_F64;
	}
	int64_t i = v->u.i;
	return i >= INT32_MIN && i <= INT32_MAX ? DT_I32 : i >= 0 && i <= UINT32_MAX ? DT_U32
	                                                                             : DT_I64;
}

bool
sema_int_fits(TDType dt, int64_t i)
{
	int bits = ir_dtype_bits(dt);
	if (dt == DT_I1)
		return i == 0 || i == 1;
	if (ir_dtype_is_unsigned(dt))
		return i >= 0 && (bits >= 64 || i < ((int64_t)1 << bits));
	return bits >= 64 || (i >= -((int64_t)1 << (bits - 1)) && i < ((int64_t)1 << (bits - 1)));
}

/* A fresh type with only a kind and a dtype. */
static const TType *
simple_type(Check *ck, TTypeKind kind, TDType dtype)
{
	TType *ty = arena_alloc(ck->a, sizeof *ty);
	ty->kind = kind;
	ty->dtype = dtype;
	return ty;
}

const TType *
sema_type_scalar(Check *ck, TDType t)
{
	return simple_type(ck, TY_SCALAR, t);
}

const TType *
sema_type_ptr(Check *ck, TDType pointee)
{
	return simple_type(ck, TY_PTR, pointee);
}

TType *
sema_type_with_elem(Check *ck, const TType *like, const TType *elem)
{
	TType *ty = arena_alloc(ck->a, sizeof *ty);
	*ty = *like;
	if (like->kind != TY_TENSOR) {
		*ty = *elem;
		return ty;
	}
	ty->dtype = elem->dtype;
	ty->elem_is_ptr = elem->kind == TY_PTR;
	return ty;
}

const TType *
sema_type_elem(Check *ck, const TType *t)
{
	if (t->kind != TY_TENSOR)
		return t;
	return t->elem_is_ptr ? sema_type_ptr(ck, t->dtype) : sema_type_scalar(ck, t->dtype);
}

const char *
sema_type_str(Check *ck, const TType *t)
{
	StrBuf b = {0};
	if (t->kind == TY_TENSOR && !t->layout.desc) {   /* a block_type */
		buf_printf(&b, "block_type<%s, ", ir_dtype_name(t->dtype));
		ir_shape_print(t->shape, t->rank, &b);
		buf_putc(&b, '>');
	} else
		ir_type_print(t, &b);
	char *s = arena_strndup(ck->a, b.s ? b.s : "", b.len);
	buf_free(&b);
	return s;
}

TType *
sema_tensor_type(Check *ck, SrcSpan at, const TType *elem, const int64_t *shape, int rank,
            const LLDesc *desc)
{
	TType *t = arena_alloc(ck->a, sizeof *t);
	t->kind = TY_TENSOR;
	t->dtype = elem->dtype;
	t->elem_is_ptr = elem->kind == TY_PTR;
	t->rank = rank;
	memcpy(t->shape, shape, (size_t)rank * sizeof *shape);
	t->layout.desc = desc;
	if (!sema_build_layout(ck->d, at, desc, shape, rank, ck->k ? ck->k->num_warps : 0,
	                       ck->a, &t->layout.ll))
		return NULL;
	int bits = ll_in_bits(&t->layout.ll, LL_REGISTER);
	if (bits > IR_MAX_REG_BITS) {
		diag_error(ck->d, at, "this tensor holds 2^%d elements in each thread, more than glc "
		           "takes (2^%d; code generation takes far fewer: --max-elems-per-thread)", bits,
		           IR_MAX_REG_BITS);
		return NULL;
	}
	return t;
}

int
sema_smem_layout_rank(const LLDesc *l)
{
	switch (l->kind) {
	case LL_NVMMA_SHARED: return l->rank;
	case LL_SHARED_LINEAR: return l->offset_bases.n ? l->offset_bases.b[0].n : 1;
	case LL_PADDED_SHARED: return l->shape.n;
	default: return l->order.n;
	}
}

bool
sema_is_mbarrier_layout(const LLDesc *l, TDType dt)
{
	return l->kind == LL_SWIZZLED_SHARED && l->vec == 1 && l->per_phase == 1 &&
	       l->max_phase == 1 && l->order.n == 1 && dt == DT_I64;
}

TType *
sema_smem_type(Check *ck, SrcSpan at, TDType dt, const int64_t *shape, int rank,
               const LLDesc *l, int alloc)
{
	TType *t = arena_alloc(ck->a, sizeof *t);
	int lr = sema_smem_layout_rank(l);
	t->kind = sema_is_mbarrier_layout(l, dt) && rank == 1 && shape[0] == 1 ? TY_MBARRIER : TY_SMEM;
	t->dtype = dt;
	t->rank = rank;
	memcpy(t->shape, shape, (size_t)rank * sizeof *shape);
	memcpy(t->alloc_shape, shape, (size_t)rank * sizeof *shape);
	t->alloc_rank = rank;
	t->layout.desc = l;
	t->alloc = alloc;
	if (rank < lr) {
		diag_error(ck->d, at, "this view has rank %d but its layout needs rank %d", rank, lr);
		return NULL;
	}
	if (l->kind == LL_PADDED_SHARED && rank > lr + 1) {
		diag_error(ck->d, at, "a PaddedSharedLayout of rank %d lays out buffers of rank %d or "
		           "%d (one leading dim of buffers at most, as in Triton); this one has rank %d",
		           lr, lr, lr + 1, rank);
		return NULL;
	}
	if (!sema_build_layout(ck->d, at, l, shape + (rank - lr), lr, 0, ck->a, &t->layout.ll))
		return NULL;
	return t;
}

TType *
sema_desc_type(Check *ck, TDType dt, const int64_t *block, int rank, const LLDesc *layout,
               SrcSpan layout_at)
{
	TType *t = arena_alloc(ck->a, sizeof *t);
	memset(t, 0, sizeof *t);
	t->kind = TY_DESC;
	t->dtype = dt;
	t->rank = rank;
	memcpy(t->shape, block, (size_t)rank * sizeof *block);
	t->layout.desc = layout;
	if (layout->kind == LL_PADDED_SHARED) {
		diag_error(ck->d, layout_at, "a tensor descriptor's layout cannot be a "
		           "PaddedSharedLayout: TMA copies a box without padding (Triton: the TMA "
		           "buffer must have an NVMMASharedLayout)");
		return NULL;
	}
	if (layout->kind == LL_NVMMA_SHARED && layout->fp4_padded) {
		diag_error(ck->d, layout_at, "a tensor descriptor's layout cannot have "
		           "fp4_padded=True: TMA writes that layout only with Blackwell's packed-fp4 "
		           "type (16U4_ALIGN16B), which a Hopper driver refuses to encode");
		return NULL;
	}
	if (layout->kind == LL_NVMMA_SHARED && layout->element_bitwidth != ir_dtype_bits(dt)) {
		diag_error(ck->d, layout_at, "the descriptor's layout is for %d-bit elements but its "
		           "dtype %s has %d bits", layout->element_bitwidth, ir_dtype_name(dt),
		           ir_dtype_bits(dt));
		return NULL;
	}
	if (!sema_build_layout(ck->d, layout_at, layout, t->shape, t->rank, 0, ck->a,
	                       &t->layout.ll))
		return NULL;
	return t;
}

const TType *
sema_block_type(Check *ck, const TType *elem, const int64_t *shape, int rank)
{
	TType *t = sema_type_with_elem(ck, &(TType){.kind = TY_TENSOR}, elem);
	t->rank = rank;
	memcpy(t->shape, shape, (size_t)rank * sizeof *shape);
	return t;
}

bool
sema_build_layout(Diags *d, SrcSpan at, const LLDesc *desc, const int64_t *shape, int rank,
                  int num_warps, Arena *a, LLayout *out)
{
	LLErr err = {a, NULL};
	if (ll_build(desc, shape, rank, num_warps, out, &err))
		return true;
	StrBuf text = {0};
	ll_desc_print(desc, &text);
	Diag *g = diag_error(d, at, "invalid layout: %s", err.msg ? err.msg : "rejected");
	diag_note(d, g, (SrcSpan){0}, "the layout is %s", text.s ? text.s : "");
	buf_free(&text);
	return false;
}
