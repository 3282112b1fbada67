/*
 * Matrix multiplies: warpgroup_mma (Hopper's WGMMA), warpgroup_mma_wait,
 * mma_v2 (Ampere's mma.sync), gl.dot_fma and warpgroup_mma_init (the
 * accumulator of a tensor). The checks accept exactly the WGMMA forms
 * Hopper has (codegen/llvm/wgmma.c lists them; the families and their
 * accumulators are ir/mma.c's) and say the hardware's rule at the user's
 * line for the others:
 *
 *   A, B (one family)          accumulator   operands in shared memory
 *   f16                        f32 or f16    K- or MN-major
 *   bf16                       f32           K- or MN-major
 *   f32 (read as tf32)         f32           K-major
 *   f8e4m3/f8e5m2 (any mix)    f32 or f16    K-major
 *   i8/u8 (any mix)            i32           K-major
 *
 * B lives in shared memory (NVMMASharedLayout), A there too or in registers
 * in DotOperandLayout(0, <the accumulator's layout>, 32 / bits); the
 * accumulator is in NVMMADistributedLayout version 3 whose warps stack 4 to
 * a warpgroup down M.
 */
#include "sema/builtins/builtins.h"

#include <string.h>

static bool
given(const Value *v)
{
	return v && v->kind != VAL_NONE;
}

/* A WGMMA operand family's name in messages (ir_mma_family). */
static const char *const family_name[] = {
	[IR_MMA_F16] = "an f16", [IR_MMA_BF16] = "a bf16", [IR_MMA_TF32] = "a tf32 (f32 operands)",
	[IR_MMA_F8] = "an fp8", [IR_MMA_I8] = "an int8",
};

/* "<rule>; it is in <v's layout>" at v's use, with where v's layout was
 * fixed. */
static void
layout_error(Check *ck, const Value *v, const char *rule)
{
	StrBuf b = {0};
	ll_desc_print(v->u.rt->type->layout.desc, &b);
	Diag *g = diag_error(ck->d, v->span, "%s; it is in %s", rule, b.s);
	diag_note(ck->d, g, v->u.rt->layout_at, "its layout was fixed here");
	buf_free(&b);
}

/* The dtypes of op ("warpgroup_mma" or "mma_v2", whose instruction is
 * instr): one family for A and B, an accumulator the instruction has for it
 * (fp8 into f16 only on WGMMA). */
static bool
check_dtypes(Check *ck, const Node *call, const Value *acc, const TType *A, const TType *B,
             const TType *C, const char *op, const char *instr)
{
	IrMmaFamily f = ir_mma_family(A->dtype);
	if (f == IR_MMA_NONE || ir_mma_family(B->dtype) != f) {
		diag_error(ck->d, call->span, "%s multiplies f16 x f16, bf16 x bf16, f32 x f32 (as "
		           "tf32), fp8 x fp8 (f8e4m3, f8e5m2 in any mix) or 8-bit integers (i8, u8 in "
		           "any mix); got %s x %s", op, ir_dtype_name(A->dtype), ir_dtype_name(B->dtype));
		return false;
	}
	bool wgmma = !strcmp(op, "warpgroup_mma"), f16_acc = ir_mma_acc_ok(f, DT_F16, wgmma);
	if (!ir_mma_acc_ok(f, C->dtype, wgmma)) {
		diag_error(ck->d, acc->span, "%s %s accumulates in %s, not %s", family_name[f], instr,
		           f == IR_MMA_I8 ? "i32" : f16_acc ? "f32 or f16" : "f32",
		           ir_dtype_name(C->dtype));
		return false;
	}
	return true;
}

/* What follows "must use an NVMMASharedLayout" for a WGMMA operand buffer
 * in shared layout t: why, for a padded one. */
static const char *
wgmma_layout_note(const TType *t)
{
	return t->layout.desc->kind == LL_PADDED_SHARED
	       ? ", not a PaddedSharedLayout: WGMMA reads operands through matrix descriptors "
	         "of unpadded core matrices (Triton: unexpected operand layout for "
	         "NvidiaMmaEncodingAttr v3)"
	       : "";
}

/* Shapes [M, K], [K, N], [M, N]. */
static bool
check_chain(Check *ck, const Node *call, const char *op, const TType *A, const TType *B,
            const TType *C)
{
	if (A->rank == 2 && B->rank == 2 && C->rank == 2 && A->shape[1] == B->shape[0] &&
	    A->shape[0] == C->shape[0] && B->shape[1] == C->shape[1])
		return true;
	diag_error(ck->d, call->span, "%s shapes do not chain: A %s, B %s, acc %s (need [M, K], "
	           "[K, N], [M, N])", op, sema_type_str(ck, A), sema_type_str(ck, B),
	           sema_type_str(ck, C));
	return false;
}

/* The accumulator tile against the instruction: warps 4 to a warpgroup
 * down M, instr_shape [16, n, 256 / bits], the tile a whole number of
 * instructions per warp. */
static bool
check_tile(Check *ck, const Value *acc, const TType *C, int bits)
{
	const LLDesc *cl = C->layout.desc;
	const LLInts *is = &cl->instr_shape, *w = &cl->warps_per_cta;
	int64_t M = C->shape[0], N = C->shape[1], k = 256 / bits;
	int64_t wm = w->n == 2 ? w->v[0] : 0, wn = w->n == 2 ? w->v[1] : 0;
	if (wm < 4 || wm % 4 || is->n != 3 || is->v[1] % 8 || is->v[1] > 256 || is->v[2] != k ||
	    M % (16 * wm) || N % (is->v[1] * wn)) {
		diag_error(ck->d, acc->span, "the accumulator tile [%lld, %lld] with instr_shape "
		           "[%lld, %lld, %lld] does not fit WGMMA: warps_per_cta[0] must be a "
		           "multiple of 4 (a warpgroup's 4 warps hold 16 rows each), M a multiple of "
		           "16 x warps_per_cta[0], N a multiple of instr_shape[1] x "
		           "warps_per_cta[1], instr_shape[1] a multiple of 8 up to 256, and K = "
		           "256 / %d bits = %lld", (long long)M, (long long)N,
		           (long long)(is->n > 0 ? is->v[0] : 0), (long long)(is->n > 1 ? is->v[1] : 0),
		           (long long)(is->n > 2 ? is->v[2] : 0), bits, (long long)k);
		return false;
	}
	return true;
}

/* The dim of smem type s that is contiguous in memory (offset bit 0). */
static int
contiguous_dim(const TType *s)
{
	uint32_t v[LL_MAX_DIMS];
	const LLayout *l = &s->layout.ll;
	int oi = ll_in_index(l, LL_OFFSET), j1 = ll_out_index(l, LL_DIM1);
	if (oi < 0 || l->in_bits[oi] == 0 || j1 < 0)
		return 1;
	ll_get_basis(l, oi, 0, v);
	return v[j1] ? 1 : 0;
}

/* The distance in elements between rows mn and mn + 1 of smem type s along
 * dim mn_dim (the offset whose coordinates are 1 along it), 0 when no
 * single offset bit moves one row. */
static int64_t
row_stride(const TType *s, int mn_dim)
{
	uint32_t v[LL_MAX_DIMS];
	const LLayout *l = &s->layout.ll;
	int oi = ll_in_index(l, LL_OFFSET);
	int j0 = ll_out_index(l, LL_DIM0), j1 = ll_out_index(l, LL_DIM1);
	for (int b = 0; oi >= 0 && b < l->in_bits[oi]; b++) {
		ll_get_basis(l, oi, b, v);
		if (v[mn_dim ? j1 : j0] == 1 && v[mn_dim ? j0 : j1] == 0)
			return (int64_t)1 << b;
	}
	return 0;
}

/* A shared-memory operand's majorness: MN-major (its M or N dim, mn_dim, is
 * contiguous) needs a 16-bit dtype and a swizzle; an unswizzled K-major
 * operand is read as 8 x 16-byte core matrices of 128 contiguous bytes. */
static bool
check_major(Check *ck, const Value *v, IrMmaFamily f, int mn_dim,
            const char *name)
{
	const TType *s = v->u.rt->type;
	Diag *g;
	if (contiguous_dim(s) != mn_dim)
		return true;
	if (!ir_mma_mn_major_ok(f))
		g = diag_error(ck->d, v->span, "%s WGMMA needs K-major A and B (the hardware "
		               "transposes only 16-bit operands); %s is %s-major here: %s",
		               family_name[f], name, mn_dim ? "N" : "M",
		               mn_dim ? "keep B as [N, K] in shared memory and pass b.permute([1, 0])"
		                      : "keep A as [M, K] with K contiguous (transposed=False)");
	else if (!s->layout.desc->swizzle_byte_width)
		g = diag_error(ck->d, v->span, "an %s-major WGMMA operand needs a swizzled "
		               "NVMMASharedLayout (swizzle_byte_width 32, 64 or 128)",
		               mn_dim ? "N" : "M");
	else
		return true;
	diag_note(ck->d, g, v->origin, "%s is %s", name, sema_type_str(ck, s));
	return false;
}

static bool
check_unswizzled(Check *ck, const Value *v, int mn_dim, const char *name)
{
	const TType *s = v->u.rt->type;
	int64_t row = row_stride(s, mn_dim) * ir_dtype_bits(s->dtype) / 8;
	if (s->layout.desc->swizzle_byte_width || contiguous_dim(s) == mn_dim || row == 16)
		return true;
	Diag *g = diag_error(ck->d, v->span, "WGMMA reads an unswizzled operand as 8 x 16-byte "
	                     "core matrices, each in 128 contiguous bytes, but %s's rows are %lld "
	                     "bytes apart: use an NVMMASharedLayout with swizzle_byte_width 32, 64 "
	                     "or 128", name, (long long)row);
	diag_note(ck->d, g, v->origin, "%s is %s", name, sema_type_str(ck, s));
	return false;
}

/* Operand v (what: "A in registers", "B of mma_v2", ...) of an MMA whose
 * accumulator has layout acc_layout: exactly DotOperandLayout(idx,
 * acc_layout, kw) as a map (kw 0: v's own k_width, which a blocked parent
 * ignores). */
static bool
check_dot_operand(Check *ck, Value *v, int idx, const LLDesc *acc_layout, int kw,
                  const char *what)
{
	const TType *t = v->u.rt->type;
	const LLDesc *d = t->layout.desc;
	if (!kw)
		kw = d->kind == LL_DOT_OPERAND ? d->k_width : 1;
	const LLDesc *want = ll_desc_dot_operand(ck->a, acc_layout, idx, kw);
	LLayout ll;
	LLErr err = {0};
	if (t->rank == 2 && ll_build(want, t->shape, 2, ck->k->num_warps, &ll, &err) &&
	    ll_equal(&ll, &t->layout.ll))
		return true;
	StrBuf w = {0};
	ll_desc_print(want, &w);
	layout_error(ck, v, arena_printf(ck->a, "%s must be in %s", what, w.s));
	buf_free(&w);
	return false;
}

/* precision (mma_v2: input_precision, named param): "tf32" (the default),
 * "tf32x3" or "ieee"; the tensor cores (instr) take f32 operands as tf32
 * only. */
static bool
check_precision(Check *ck, const Value *p, IrMmaFamily f, const char *instr, const char *param)
{
	if (!given(p))
		return true;
	static const char *const names[] = {"tf32", "tf32x3", "ieee"};
	int k = -1;
	for (int i = 0; p->kind == VAL_STR && i < 3; i++)
		if (p->u.str.len == strlen(names[i]) && !memcmp(p->u.str.s, names[i], p->u.str.len))
			k = i;
	if (k < 0) {
		diag_error(ck->d, p->span, "%s must be \"tf32\", \"tf32x3\" or \"ieee\"", param);
		return false;
	}
	if (f == IR_MMA_TF32 && k == 1) {
		diag_error(ck->d, p->span, "%s=\"tf32x3\" is not a %s mode: the tensor cores "
		           "multiply tf32; split each operand into big and small tf32 parts and add "
		           "three products", param, instr);
		return false;
	}
	if (f == IR_MMA_TF32 && k == 2) {
		diag_error(ck->d, p->span, "%s has no IEEE f32 mode: the tensor cores read f32 "
		           "operands as tf32 (%s=\"tf32\"); gl.dot_fma multiplies in f32", instr,
		           param);
		return false;
	}
	return true;
}

/* max_num_imprecise_acc: for fp8 with an f32 accumulator, how many products
 * (K elements) the tensor cores may add in their reduced precision before
 * the sum is added to the accumulator in f32 (Triton's Hopper default: all
 * of K); ignored otherwise, as in Gluon. Sets *chunk (0: no split). */
static bool
check_imprecise(Check *ck, const Value *v, IrMmaFamily f, const TType *C, int64_t K, int64_t *chunk)
{
	*chunk = 0;
	int64_t n;
	if (!given(v))
		return true;
	if (!sema_value_int(ck, v, "max_num_imprecise_acc", &n))
		return false;
	if (f != IR_MMA_F8 || C->dtype != DT_F32)
		return true;
	if (n < 32 || n > K) {
		diag_error(ck->d, v->span, "max_num_imprecise_acc is %lld; with fp8 operands and an "
		           "f32 accumulator it must be from 32 (one instruction adds 32 products) "
		           "to K = %lld", (long long)n, (long long)K);
		return false;
	}
	*chunk = n;
	return true;
}

Value *
sema_wgmma_acc(Check *ck, Value *inner, SrcSpan at)
{
	Value *v = sema_new_value(&ck->ev, VAL_WGMMA_ACC, at);
	v->u.inner = inner;
	return v;
}

Value *
sema_wgmma_init(Check *ck, Value *v)
{
	if (!sema_want_rt(ck, v, TY_TENSOR, "warpgroup_mma_init's value"))
		return NULL;
	return sema_wgmma_acc(ck, v, v->span);
}

/* The tensor of v, an accumulator or a tensor, located at v's use. */
static Value *
acc_tensor(Check *ck, Value *v)
{
	if (v->kind != VAL_WGMMA_ACC)
		return v;
	Value *t = sema_new_value(&ck->ev, VAL_RUNTIME, v->span);
	t->origin = v->origin;
	t->u.rt = v->u.inner->u.rt;
	return t;
}

/* warpgroup_mma(a, b, acc, ...): acc a tensor or an accumulator; the result
 * an accumulator when is_async, as Gluon's. */
static Value *
wgmma(Check *ck, const Node *call, Value **a)
{
	a[2] = acc_tensor(ck, a[2]);
	if (!sema_want_rt(ck, a[1], TY_SMEM, "B") ||
	    !sema_want_rt(ck, a[2], TY_TENSOR, "the accumulator"))
		return NULL;
	const TType *A = a[0]->kind == VAL_RUNTIME ? a[0]->u.rt->type : NULL;
	const TType *B = a[1]->u.rt->type, *C = a[2]->u.rt->type;
	/* An inferred accumulator (or register A) is checked as the layout the
	 * layout-infer pass will give it: ir_wgmma_layout (its DotOperandLayout). */
	int b_bits = ir_dtype_bits(B->dtype) < 8 ? 8 : ir_dtype_bits(B->dtype);
	bool inferred_a = A && A->kind == TY_TENSOR && sema_auto_involved(ck, A->layout.desc);
	if (sema_auto_involved(ck, C->layout.desc) &&
	    !(C = sema_tensor_type(ck, call->span, sema_type_elem(ck, C), C->shape, C->rank,
	                           ir_wgmma_layout(ck->a, C, b_bits, ck->k->num_warps))))
		return NULL;
	if (inferred_a &&
	    !(A = sema_tensor_type(ck, call->span, sema_type_elem(ck, A), A->shape, A->rank,
	                           ll_desc_dot_operand(ck->a, C->layout.desc, 0, 32 / b_bits))))
		return NULL;
	const LLDesc *cl = C->layout.desc;
	if (cl->kind != LL_NVMMA_DISTRIBUTED || cl->version.n < 1 || cl->version.v[0] != 3) {
		layout_error(ck, a[2], "the accumulator must be in NVMMADistributedLayout(version=[3, "
		             "0], ...)");
		return NULL;
	}
	if (!A || (A->kind != TY_SMEM && A->kind != TY_TENSOR)) {
		sema_want_rt(ck, a[0], TY_SMEM, "A");
		return NULL;
	}
	if (A->kind == TY_SMEM && A->layout.desc->kind != LL_NVMMA_SHARED) {
		diag_error(ck->d, a[0]->span, "A in shared memory must use an NVMMASharedLayout%s",
		           wgmma_layout_note(A));
		return NULL;
	}
	if (B->layout.desc->kind != LL_NVMMA_SHARED) {
		diag_error(ck->d, a[1]->span, "B must use an NVMMASharedLayout%s",
		           wgmma_layout_note(B));
		return NULL;
	}
	for (int k = 0; k < 2; k++) {
		const TType *op = k ? B : A;
		if (op->kind == TY_SMEM && op->layout.desc->fp4_padded) {
			diag_error(ck->d, a[k]->span, "%s's NVMMASharedLayout has fp4_padded=True, the "
			           "packed-fp4 operand format of Blackwell's MMA; Hopper's WGMMA takes no "
			           "fp4 operands", k ? "B" : "A");
			return NULL;
		}
	}
	if (!check_dtypes(ck, call, a[2], A, B, C, "warpgroup_mma", "WGMMA"))
		return NULL;
	if (!check_chain(ck, call, "warpgroup_mma", A, B, C))
		return NULL;
	IrMmaFamily f = ir_mma_family(A->dtype);
	int bits = ir_dtype_bits(A->dtype);
	int64_t chunk, kk = 256 / bits;
	if (A->shape[1] % kk) {
		diag_error(ck->d, call->span, "warpgroup_mma's K is %lld, not a multiple of the "
		           "instruction's K = 256 / %d bits = %lld", (long long)A->shape[1], bits,
		           (long long)kk);
		return NULL;
	}
	if (!check_tile(ck, a[2], C, bits) ||
	    (A->kind == TY_TENSOR && !inferred_a &&
	     !check_dot_operand(ck, a[0], 0, cl, 32 / bits, "A in registers")) ||
	    (A->kind == TY_SMEM && (!check_major(ck, a[0], f, 0, "A") ||
	                            !check_unswizzled(ck, a[0], 0, "A"))) ||
	    !check_major(ck, a[1], f, 1, "B") || !check_unswizzled(ck, a[1], 1, "B") ||
	    !check_precision(ck, a[4], f, "WGMMA", "precision") ||
	    !check_imprecise(ck, a[5], f, C, A->shape[1], &chunk))
		return NULL;
	TValue *use = NULL;
	bool is_async = false;
	if (given(a[3]) && !(use = sema_pred_operand(ck, a[3], "use_acc")))
		return NULL;
	if (given(a[6])) {
		if (a[6]->kind != VAL_BOOL) {
			diag_error(ck->d, a[6]->span, "is_async must be True or False");
			return NULL;
		}
		is_async = a[6]->u.b;
	}
	if (A->kind == TY_SMEM)
		sema_fence_check(ck, call->span, A, "warpgroup_mma");
	sema_fence_check(ck, call->span, B, "warpgroup_mma");
	TInst *i = sema_emit(ck, OP_WGMMA, call->span, C, 3 + (use != NULL), a[0]->u.rt, a[1]->u.rt,
	                     a[2]->u.rt, use);
	i->attr.is_async = is_async;
	i->attr.has_use_acc = use != NULL;
	i->attr.count = chunk;
	i->res->layout_at = a[2]->u.rt->layout_at;
	Value *r = sema_rt_value(ck, i->res, call->span);
	return is_async ? sema_wgmma_acc(ck, r, call->span) : r;
}

/* A shared-memory dependency of warpgroup_mma_wait: a WGMMA operand kept
 * alive until the wait, returned as it is (as Gluon's). */
static bool
smem_dep(const Value *d)
{
	return d->kind == VAL_RUNTIME && d->u.rt->type->kind == TY_SMEM;
}

/* warpgroup_mma_wait(num_outstanding, deps): each dependency (an
 * accumulator or a tensor) comes back as its tensor, once the WGMMAs that
 * write it are done; shared-memory operands among them come back as they
 * are. deps is required, as in Gluon 3.6. */
static Value *
wgmma_wait(Check *ck, const Node *call, Value **a)
{
	int64_t n;
	if (!sema_imm_operand(ck, a[0], IMM_GROUPS, &n))
		return NULL;
	if (!a[1] || (a[1]->kind != VAL_TUPLE && a[1]->kind != VAL_LIST)) {
		diag_error(ck->d, a[1] ? a[1]->span : call->span, "warpgroup_mma_wait's deps must be a "
		           "tuple of the accumulators (and shared-memory operands) the wait is for, as "
		           "Gluon requires, not %s", a[1] ? sema_value_kind_phrase(a[1]) : "None");
		return NULL;
	}
	size_t nd = a[1]->u.list.n, waits = 0;
	Value *out = sema_new_value(&ck->ev, VAL_TUPLE, call->span);
	out->u.list.n = nd;
	out->u.list.items = arena_alloc(ck->a, (nd + 1) * sizeof(Value *));
	for (size_t k = 0; k < nd; k++) {
		Value *d = acc_tensor(ck, a[1]->u.list.items[k]);
		if (smem_dep(d)) {
			out->u.list.items[k] = d;
			continue;
		}
		if (!sema_want_rt(ck, d, TY_TENSOR, "a dependency"))
			return NULL;
		TInst *i = sema_emit(ck, OP_WGMMA_WAIT, call->span, d->u.rt->type, 1, d->u.rt);
		i->attr.count = n;
		i->res->layout_at = d->u.rt->layout_at;
		out->u.list.items[k] = sema_rt_value(ck, i->res, call->span);
		waits++;
	}
	if (waits == 0)
		sema_emit(ck, OP_WGMMA_WAIT, call->span, NULL, 0)->attr.count = n;
	return nd == 1 ? out->u.list.items[0] : out;
}

/* Whether FMAs in acc's dtype multiply operands of dtype t exactly: floats
 * into a float at least as wide, integers of up to 32 bits into i32. */
static bool
fma_dtypes_ok(TDType t, TDType acc)
{
	if (ir_dtype_is_float(t) && !ir_dtype_is_f8(t))
		return ir_dtype_is_float(acc) && !ir_dtype_is_f8(acc) &&
		       (acc == t || ir_dtype_bits(acc) > ir_dtype_bits(t));
	return !ir_dtype_is_float(t) && t != DT_I1 && ir_dtype_bits(t) <= 32 && acc == DT_I32;
}

static Value *
dot_fma(Check *ck, const Node *call, Value **a)
{
	if (!sema_want_rt(ck, a[0], TY_TENSOR, "A") || !sema_want_rt(ck, a[1], TY_TENSOR, "B") ||
	    !sema_want_rt(ck, a[2], TY_TENSOR, "the accumulator"))
		return NULL;
	const TType *A = a[0]->u.rt->type, *B = a[1]->u.rt->type, *C = a[2]->u.rt->type;
	if (A->elem_is_ptr || B->elem_is_ptr || C->elem_is_ptr || A->dtype != B->dtype ||
	    !fma_dtypes_ok(A->dtype, C->dtype)) {
		diag_error(ck->d, call->span, "gl.dot_fma multiplies operands of one dtype, floats "
		           "into a float accumulator of that dtype or wider, integers of up to 32 "
		           "bits into i32; got %s x %s into %s", sema_type_str(ck, A),
		           sema_type_str(ck, B), sema_type_str(ck, C));
		return NULL;
	}
	if (!check_chain(ck, call, "gl.dot_fma", A, B, C))
		return NULL;
	const LLDesc *cl = C->layout.desc;
	if (cl->kind != LL_BLOCKED) {
		layout_error(ck, a[2], "the accumulator of gl.dot_fma must be in a BlockedLayout");
		return NULL;
	}
	if (!check_dot_operand(ck, a[0], 0, cl, 0, "A of gl.dot_fma") ||
	    !check_dot_operand(ck, a[1], 1, cl, 0, "B of gl.dot_fma"))
		return NULL;
	TInst *i = sema_emit(ck, OP_DOT, call->span, C, 3, a[0]->u.rt, a[1]->u.rt, a[2]->u.rt);
	i->res->layout_at = a[2]->u.rt->layout_at;
	return sema_rt_value(ck, i->res, call->span);
}

/* The k_width of mma_v2's operands: A's own when it is a DotOperandLayout
 * with a power-of-two multiple of 32 / bits (Triton permutes K for a
 * larger one: codegen/ops/lower_dot.c), else 32 / bits (and the check of A's
 * layout reports it). */
static int
mma_v2_k_width(const TType *A)
{
	int e = 32 / ir_dtype_bits(A->dtype), kw = A->layout.desc->k_width;
	if (A->layout.desc->kind != LL_DOT_OPERAND || kw < e || kw % e || (kw & (kw - 1)))
		return e;
	return kw;
}

/* mma_v2 (Ampere's mma.sync m16n8, on Hopper too): A, B and the
 * accumulator in registers, the accumulator in NVMMADistributedLayout
 * version [2, 0], A and B in its DotOperandLayouts with one k_width, a
 * power-of-two multiple of 32 / bits; the dtypes of WGMMA but fp8 only into
 * f32; input_precision as precision. */
static Value *
mma_v2(Check *ck, const Node *call, Value **a)
{
	if (!sema_want_rt(ck, a[0], TY_TENSOR, "A") || !sema_want_rt(ck, a[1], TY_TENSOR, "B") ||
	    !sema_want_rt(ck, a[2], TY_TENSOR, "the accumulator"))
		return NULL;
	const TType *A = a[0]->u.rt->type, *B = a[1]->u.rt->type, *C = a[2]->u.rt->type;
	const LLDesc *cl = C->layout.desc;
	if (cl->kind != LL_NVMMA_DISTRIBUTED || cl->version.n < 1 || cl->version.v[0] != 2) {
		layout_error(ck, a[2], "the accumulator of mma_v2 must be in "
		             "NVMMADistributedLayout(version=[2, 0], ...)");
		return NULL;
	}
	if (!check_dtypes(ck, call, a[2], A, B, C, "mma_v2", "mma_v2") ||
	    !check_chain(ck, call, "mma_v2", A, B, C))
		return NULL;
	int bits = ir_dtype_bits(A->dtype);
	int64_t kk = 256 / bits, wm = cl->warps_per_cta.v[0], wn = cl->warps_per_cta.v[1];
	if (A->shape[1] % kk || C->shape[0] % (16 * wm) || C->shape[1] % (8 * wn)) {
		diag_error(ck->d, call->span, "mma_v2 on [%lld, %lld] x [%lld, %lld] does not fit "
		           "mma.sync m16n8k%lld: K must be a multiple of %lld, M of 16 x "
		           "warps_per_cta[0] = %lld and N of 8 x warps_per_cta[1] = %lld",
		           (long long)A->shape[0], (long long)A->shape[1], (long long)B->shape[0],
		           (long long)B->shape[1], (long long)kk, (long long)kk, (long long)(16 * wm),
		           (long long)(8 * wn));
		return NULL;
	}
	int kw = mma_v2_k_width(A);
	if (A->shape[1] < 4 * kw) {
		diag_error(ck->d, call->span, "mma_v2 with k_width %d over K = %lld: the 4 lanes along "
		           "K hold k_width elements each, 4 x %d = %d, so some would hold copies that "
		           "mma.sync adds twice; use a k_width of at most K / 4", kw,
		           (long long)A->shape[1], kw, 4 * kw);
		return NULL;
	}
	if (!check_dot_operand(ck, a[0], 0, cl, kw, "A of mma_v2") ||
	    !check_dot_operand(ck, a[1], 1, cl, kw, "B of mma_v2") ||
	    !check_precision(ck, a[3], ir_mma_family(A->dtype), "mma_v2", "input_precision"))
		return NULL;
	TInst *i = sema_emit(ck, OP_DOT, call->span, C, 3, a[0]->u.rt, a[1]->u.rt, a[2]->u.rt);
	i->res->layout_at = a[2]->u.rt->layout_at;
	return sema_rt_value(ck, i->res, call->span);
}

Value *
sema_check_mma_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	switch (fn) {
	case BF_WGMMA: return wgmma(ck, call, a);
	case BF_WGMMA_WAIT: return wgmma_wait(ck, call, a);
	case BF_DOT_FMA: return dot_fma(ck, call, a);
	default: return mma_v2(ck, call, a);
	}
}
