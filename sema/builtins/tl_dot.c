/*
 * tl.dot as Triton 3.6 compiles it for Hopper (its AccelerateMatmul and
 * OptimizeDotOperands passes), from the builtins of mma.c and smem.c:
 *
 *   - WGMMA (NVMMADistributedLayout version 3) when M is a multiple of 64,
 *     the warps a multiple of 4 and the dtypes are the tensor cores'
 *     (f16, bf16, fp8, tf32 for f32, int8): instr_shape [16, n, 256/bits]
 *     with n the largest multiple of 8 up to 256 dividing N and at most
 *     N / (the warps left after 16 rows each), warps down M first (4 at
 *     least, one warpgroup), then along N;
 *   - else mma.sync (version 2, warps as Triton's warpsPerTileV2), its
 *     operands in registers;
 *   - else (input_precision="ieee" for f32, f64, other integers) FMAs in
 *     Triton's default BlockedLayout.
 *
 * WGMMA's B, and A when it is a value loaded from memory, are stored to
 * shared memory in an NVMMASharedLayout, row-major as the tensor is
 * loaded (Triton follows the register order), K-major instead where the
 * dtype is not 16-bit (the hardware transposes only those); an operand
 * that is tl.trans of a tensor is stored as that tensor and read through a
 * permuted view (Triton's memdesc_trans). A computed A stays
 * in registers (DotOperandLayout(0, acc, 32/bits)). The accumulator is
 * converted to the MMA layout (a soft conversion: a loop-carried one stays
 * in it); the result is softly converted to its users' layout.
 */
#include "sema/builtins/builtins.h"

#include <string.h>

typedef enum DotKind { DOT_WGMMA, DOT_MMA_V2, DOT_FMA } DotKind;

/* What made v, looking through soft conversions (the places sema marked)
 * and the reads of variables (to the value written last). */
static const TInst *
made_by(Check *ck, const TValue *v)
{
	const TInst *d = sema_def(ck, v);
	for (int depth = 0; d && depth < 64; depth++) {
		if (d->op == OP_CONVERT_LAYOUT && d->attr.soft)
			d = sema_def(ck, d->args[0]);
		else if (d->op == OP_VAR_READ && (size_t)d->var->id < ck->written.len &&
		         ck->written.data[d->var->id])
			d = sema_def(ck, ck->written.data[d->var->id]);
		else
			break;
	}
	return d;
}

static bool
from_memory(const TInst *d)
{
	return d && (d->op == OP_LOAD || d->op == OP_SMEM_LOAD);
}

/* The transposed tensor when v is tl.trans of a 2-D one, else NULL. */
static TValue *
transposed_of(Check *ck, const TValue *v)
{
	const TInst *d = made_by(ck, v);
	return d && d->op == OP_PERMUTE && v->type->rank == 2 && d->attr.order[0] == 1
	       ? d->args[0] : NULL;
}

/* Triton's WGMMA layout for an [M, N] accumulator with operands of `bits`
 * bits (mmaVersionToInstrShape, warpsPerTileV3). */
static const LLDesc *
wgmma_layout(Check *ck, int64_t M, int64_t N, int bits, bool int8)
{
	int warps = ck->k->num_warps;
	int64_t m_warps = M / 16 > 1 ? M / 16 : 1;
	int64_t n_warps = warps / m_warps > 1 ? warps / m_warps : 1;
	int64_t max_n = N / n_warps > 8 ? N / n_warps : 8, n = 8;
	for (int64_t c = int8 ? 224 : 256; c >= 8; c -= int8 && c > 32 ? 16 : 8)
		if (N % c == 0 && c <= max_n) {
			n = c;
			break;
		}
	int64_t wm = 4, wn = 1;
	while (wm * wn < warps) {
		if (M > 16 * wm)
			wm *= 2;
		else
			wn *= 2;
	}
	LLDesc *d = arena_alloc(ck->a, sizeof *d);
	*d = *ll_desc_wgmma(ck->a, warps, (int)n, 256 / bits);
	d->warps_per_cta.v[0] = wm;
	d->warps_per_cta.v[1] = wn;
	return d;
}

/* Triton's mma.sync layout (warpsPerTileV2). */
static const LLDesc *
mma_v2_layout(Check *ck, int64_t M, int64_t N)
{
	int warps = ck->k->num_warps;
	int64_t wm = 1, wn = 1;
	while (wm * wn < warps) {
		if (M / 16 / wm >= N / 16 / wn) {
			if (wm < M / 16)
				wm *= 2;
			else
				wn *= 2;
		} else {
			wn *= 2;
		}
	}
	LLDesc *d = arena_alloc(ck->a, sizeof *d);
	*d = *ll_desc_wgmma(ck->a, warps, 8, 16);
	d->version = (LLInts){.n = 2, .v = {2, 0}};
	d->warps_per_cta = (LLInts){.n = 2, .v = {wm, wn}};
	d->instr_shape = (LLInts){.n = 2, .v = {16, 8}};
	return d;
}

/* x in shared memory for WGMMA, as operand idx (0: A, 1: B): a buffer in
 * Triton's NVMMASharedLayout holding it, or the permuted view of one
 * holding the tensor x transposes. */
static Value *
smem_operand(Check *ck, const Node *call, TValue *x, int idx)
{
	TValue *src = transposed_of(ck, x);
	TValue *held = src ? src : x;
	const TType *t = held->type;
	/* The buffer is row-major (the order the tensor is loaded in, as
	 * Triton follows it), but K-major where K is its dim 0 and the dtype
	 * is not 16-bit (WGMMA transposes only those): K is A's dim 1 and B's
	 * dim 0, swapped for a held transpose. */
	int k_dim = (idx == 0) != (src != NULL) ? 1 : 0;
	bool transposed = ir_dtype_bits(t->dtype) != 16 && k_dim == 0;
	Value *shape[2] = {sema_int_value(&ck->ev, t->shape[0], call->span),
	                   sema_int_value(&ck->ev, t->shape[1], call->span)};
	Value *dt = sema_new_value(&ck->ev, VAL_DTYPE, call->span);
	dt->u.dtype = t->dtype;
	Value *tr = sema_new_value(&ck->ev, VAL_BOOL, call->span);
	tr->u.b = transposed;
	Value *def[4] = {sema_list_value(&ck->ev, VAL_LIST, shape, 2, call->span), dt, tr};
	Value *l = sema_nvmma_default(ck, call, def);
	Value *a[4] = {dt, def[0], l, sema_rt_value(ck, held, call->span)};
	Value *buf = l ? sema_smem_alloc(ck, call, a) : NULL;
	if (!buf || !src)
		return buf;
	Value *order[2] = {sema_int_value(&ck->ev, 1, call->span),
	                   sema_int_value(&ck->ev, 0, call->span)};
	Value *p[SEMA_MAX_BUILTIN_PARAMS] = {sema_list_value(&ck->ev, VAL_LIST, order, 2, call->span)};
	return sema_check_smem_method(ck, call, BF_SMEM_PERMUTE, buf, p);
}

/* The kind of MMA Triton picks for a [M, K] x [K, N] dot of dtype t. */
static DotKind
dot_kind(Check *ck, const TType *A, const TType *B, bool ieee)
{
	TDType t = A->dtype;
	bool cores = t == DT_F16 || t == DT_BF16 || t == DT_F8E4M3 || t == DT_F8E5M2 ||
	             t == DT_I8 || (t == DT_F32 && !ieee);
	if (!cores)
		return DOT_FMA;
	int bits = ir_dtype_bits(t);
	if (A->shape[0] % 64 == 0 && ck->k->num_warps % 4 == 0 && B->shape[1] % 8 == 0 &&
	    A->shape[1] % (256 / bits) == 0)
		return DOT_WGMMA;
	if (t == DT_F8E4M3 || t == DT_F8E5M2)
		return DOT_FMA;
	return A->shape[1] % (256 / bits) == 0 ? DOT_MMA_V2 : DOT_FMA;
}

/* input_precision (or allow_tf32): true for "ieee" (f32 multiplied in
 * f32); "tf32" and "tf32x3" use the tensor cores (tf32x3 as tf32). */
static bool
precision(Check *ck, Value *p, Value *allow, bool *ieee)
{
	*ieee = false;
	if (p && p->kind != VAL_NONE) {
		static const char *const names[] = {"tf32", "tf32x3", "ieee"};
		for (int k = 0; p->kind == VAL_STR && k < 3; k++)
			if (p->u.str.len == strlen(names[k]) && !memcmp(p->u.str.s, names[k], p->u.str.len)) {
				*ieee = k == 2;
				return true;
			}
		diag_error(ck->d, p->span, "tl.dot's input_precision must be \"tf32\", \"tf32x3\" or "
		           "\"ieee\"");
		return false;
	}
	bool tf32 = true;
	if (allow && !sema_opt_bool(ck, allow, true, "allow_tf32", &tf32))
		return false;
	*ieee = !tf32;
	return true;
}

Value *
sema_tl_dot(Check *ck, const Node *call, Value **a)
{
	TValue *x = sema_tensor_arg(ck, a[0], "tl.dot's input");
	TValue *y = x ? sema_tensor_arg(ck, a[1], "tl.dot's other") : NULL;
	bool ieee;
	if (!y || !precision(ck, a[3], a[4], &ieee))
		return NULL;
	const TType *A = x->type, *B = y->type;
	if (A->rank != 2 || B->rank != 2) {
		diag_error(ck->d, call->span, "tl.dot of %s and %s: glc multiplies 2-D tensors (a "
		           "batched 3-D tl.dot is not supported)", sema_type_str(ck, A),
		           sema_type_str(ck, B));
		return NULL;
	}
	if (A->shape[1] != B->shape[0] || A->shape[0] < 16 || A->shape[1] < 16 || B->shape[1] < 16) {
		diag_error(ck->d, call->span, "tl.dot of %s and %s: the shapes must be [M, K] and "
		           "[K, N] with M, N and K at least 16", sema_type_str(ck, A),
		           sema_type_str(ck, B));
		return NULL;
	}
	bool fp8 = (A->dtype == DT_F8E4M3 || A->dtype == DT_F8E5M2) &&
	           (B->dtype == DT_F8E4M3 || B->dtype == DT_F8E5M2);
	if (A->dtype != B->dtype && !fp8) {
		diag_error(ck->d, call->span, "tl.dot's operands must have one dtype, not %s and %s",
		           ir_dtype_name(A->dtype), ir_dtype_name(B->dtype));
		return NULL;
	}
	TDType out = DT_F32;
	if (a[6] && a[6]->kind != VAL_NONE && !sema_value_dtype(ck, a[6], "tl.dot's out_dtype", &out))
		return NULL;
	if (!ir_dtype_is_float(A->dtype))
		out = DT_I32;
	int64_t M = A->shape[0], N = B->shape[1], shape[2] = {M, N};
	DotKind kind = dot_kind(ck, A, B, ieee);
	int bits = ir_dtype_bits(A->dtype);
	const LLDesc *cl = kind == DOT_WGMMA ? wgmma_layout(ck, M, N, bits, A->dtype == DT_I8)
	                 : kind == DOT_MMA_V2 ? mma_v2_layout(ck, M, N)
	                 : ll_desc_blocked_default(ck->a, shape, 2, ck->k->num_warps);
	TType *ct = sema_tensor_type(ck, call->span, sema_type_scalar(ck, out), shape, 2, cl);
	if (!ct)
		return NULL;
	TValue *acc;
	if (a[2] && a[2]->kind != VAL_NONE) {
		if (!(acc = sema_tensor_arg(ck, a[2], "tl.dot's acc")))
			return NULL;
		if (!ir_same_shape(acc->type, ct) || acc->type->dtype != out) {
			diag_error(ck->d, a[2]->span, "tl.dot's acc must be %s of [%lld, %lld], not %s",
			           ir_dtype_name(out), (long long)M, (long long)N,
			           sema_type_str(ck, acc->type));
			return NULL;
		}
		acc = sema_soft_convert(ck, call->span, acc, cl);
	} else {
		TValue *zero = sema_materialize(ck, sema_int_value(&ck->ev, 0, call->span), out);
		acc = zero ? sema_splat_to(ck, zero, ct, call->span) : NULL;
	}
	if (!acc)
		return NULL;
	Value *args[SEMA_MAX_BUILTIN_PARAMS] = {NULL};
	args[2] = sema_rt_value(ck, acc, call->span);
	BuiltinFn fn = kind == DOT_WGMMA ? BF_WGMMA : kind == DOT_MMA_V2 ? BF_MMA_V2 : BF_DOT_FMA;
	int kw = kind == DOT_FMA ? 1 : 32 / (bits < 8 ? 8 : bits);
	bool smem_a = kind == DOT_WGMMA && (from_memory(made_by(ck, x)) || transposed_of(ck, x));
	for (int k = 0; k < 2; k++) {
		TValue *v = k ? y : x;
		if (kind == DOT_WGMMA && (k == 1 || smem_a)) {
			args[k] = smem_operand(ck, call, v, k);
		} else {
			TValue *r = sema_soft_convert(ck, call->span, v, ll_desc_dot_operand(ck->a, cl, k, kw));
			args[k] = r ? sema_rt_value(ck, r, call->span) : NULL;
		}
		if (!args[k])
			return NULL;
	}
	if (kind == DOT_WGMMA) {
		Value *none[SEMA_MAX_BUILTIN_PARAMS] = {NULL};
		if (!sema_check_hopper_call(ck, call, BF_FENCE_ASYNC_SHARED, none))
			return NULL;
		args[5] = a[5];
	}
	Value *r = sema_check_mma_call(ck, call, fn, args);
	if (!r)
		return NULL;
	return sema_rt_value(ck, sema_soft_fresh(ck, call->span, r->u.rt), call->span);
}
