/*
 * Atomics on global memory: one atom per element with the operation's
 * .sem and .scope (red when the old values are unused, the ordering is
 * relaxed or release and the operation is not an exchange), predicated on the mask and on owning the element:
 * a layout that holds an element in several registers, lanes or warps
 * updates it from its first owner only (as stores do), and the old value
 * goes back to the others by register copies, shuffles from the owner
 * lane, or shared memory. A scalar pointer is updated by one thread and
 * its old value broadcast through shared memory.
 *
 * f16 and bf16 adds of two consecutive elements go as one packed
 * f16x2/bf16x2 atomic when their address is 4-byte aligned and both are
 * unmasked (proven by the axis analysis, or checked at run time with a
 * per-element fallback). Float max and min use Triton's trick: the signed
 * integer max (min) of the bits for values with the sign bit clear, the
 * unsigned min (max) for the others. A masked-off element's old value is
 * 0.
 */
#include "codegen/ops/ops.h"
#include "passes/passes.h"

#include <string.h>

typedef struct Use {
	const TValue *v;
	bool used;
} Use;

static IrStep
visit_use(IrWalker *w, TInst *in)
{
	Use *u = w->ctx;
	for (int k = 0; k < in->n_args; k++)
		u->used |= in->args[k] == u->v;
	u->used |= in->cond_value == u->v;
	return u->used ? IR_STOP : IR_ON;
}

static bool
value_used(const TKernel *k, const TValue *v)
{
	Use u = {v, false};
	ir_walk(&(IrWalker){.k = k, .ctx = &u, .pre = visit_use});
	return u.used;
}

static LLVMTypeRef
word(CgModule *m, int bits)
{
	return bits == 64 ? m->i64 : bits == 32 ? m->i32 : m->i16;
}

/* One predicated atomic on a word of `bits` bits: `op.type` (cmp: a
 * compare-and-swap); NULL for a red. */
static LLVMValueRef
atomic1(CgModule *m, const TInst *in, bool red, const char *op, const char *type, int bits,
        LLVMValueRef ptr, LLVMValueRef cmp, LLVMValueRef val, LLVMValueRef pred)
{
	const char *rc = bits == 64 ? "l" : bits == 32 ? "r" : "h";
	StrBuf text = {0}, cons = {0};
	const char *how = arena_printf(m->arena, "%s.%s.%s.global.%s.%s", red ? "red" : "atom",
	                               ir_sem_name(in->attr.sem), ir_scope_name(in->attr.scope),
	                               op, type);
	LLVMValueRef args[5] = {ptr};
	int n = 1;
	if (red) {
		buf_printf(&text, "@$2 %s [$0], $1;", how);
		buf_printf(&cons, "l,%s,b,~{memory}", rc);
	} else if (cmp) {
		buf_printf(&text, "@$4 %s $0, [$1], $2, $3;", how);
		buf_printf(&cons, "=%s,l,%s,%s,b,0,~{memory}", rc, rc, rc);
		args[n++] = cmp;
	} else {
		buf_printf(&text, "@$3 %s $0, [$1], $2;", how);
		buf_printf(&cons, "=%s,l,%s,b,0,~{memory}", rc, rc);
	}
	args[n++] = val;
	args[n++] = pred;
	if (!red)
		args[n++] = LLVMConstInt(word(m, bits), 0, 0);
	LLVMValueRef r = cg_inline_asm(m, red ? m->void_t : word(m, bits), text.s, cons.s, args, n);
	buf_free(&text);
	buf_free(&cons);
	return red ? NULL : r;
}

/* The PTX operation and type of an integer-like atomic on dtype t. */
static void
op_type(TAtomicOp op, TDType t, bool cas, const char **name, const char **type)
{
	static const char *const names[AT_COUNT] = {
		[AT_ADD] = "add", [AT_AND] = "and", [AT_OR] = "or", [AT_XOR] = "xor",
		[AT_MAX] = "max", [AT_MIN] = "min", [AT_XCHG] = "exch",
	};
	int bits = ir_dtype_bits(t);
	*name = cas ? "cas" : names[op];
	if (op == AT_ADD && !cas) {
		*type = t == DT_F16 ? "noftz.f16" : t == DT_BF16 ? "noftz.bf16" : t == DT_F32 ? "f32"
		      : t == DT_F64 ? "f64" : bits == 64 ? "u64" : "u32";
	} else if ((op == AT_MAX || op == AT_MIN) && !cas) {
		*type = ir_dtype_is_unsigned(t) ? (bits == 64 ? "u64" : "u32")
		                                : (bits == 64 ? "s64" : "s32");
	} else {
		*type = bits == 64 ? "b64" : bits == 32 ? "b32" : "b16";
	}
}

/* The old value of one element. */
static LLVMValueRef
element(CgModule *m, const TInst *in, bool red, TDType t, LLVMValueRef ptr, LLVMValueRef cmp,
        LLVMValueRef val, LLVMValueRef pred)
{
	bool cas = in->op == OP_ATOMIC_CAS;
	int bits = ir_dtype_bits(t);
	LLVMTypeRef et = LLVMTypeOf(val), wt = word(m, bits);
	LLVMValueRef x = LLVMBuildBitCast(m->b, val, wt, "");
	LLVMValueRef c = cas ? LLVMBuildBitCast(m->b, cmp, wt, "") : NULL;
	const char *name, *type;
	LLVMValueRef r;
	if (!cas && (in->attr.rmw == AT_MAX || in->attr.rmw == AT_MIN) && ir_dtype_is_float(t)) {
		bool max = in->attr.rmw == AT_MAX;
		const char *s = bits == 64 ? "s64" : "s32", *u = bits == 64 ? "u64" : "u32";
		LLVMValueRef neg = LLVMBuildICmp(m->b, LLVMIntSLT, x, LLVMConstInt(wt, 0, 0), "");
		LLVMValueRef pos_ret = atomic1(m, in, red, max ? "max" : "min", s, bits, ptr, NULL, x,
		                               LLVMBuildAnd(m->b, pred, LLVMBuildNot(m->b, neg, ""), ""));
		LLVMValueRef neg_ret = atomic1(m, in, red, max ? "min" : "max", u, bits, ptr, NULL, x,
		                               LLVMBuildAnd(m->b, pred, neg, ""));
		r = red ? NULL : LLVMBuildSelect(m->b, neg, neg_ret, pos_ret, "");
	} else {
		op_type(in->attr.rmw, t, cas, &name, &type);
		r = atomic1(m, in, red, name, type, bits, ptr, c, x, pred);
	}
	return r ? LLVMBuildBitCast(m->b, r, et, "") : NULL;
}

/* A pair of f16/bf16 adds as one packed atomic on 32 bits (old values into
 * old[0..1]). */
static void
packed_pair(CgModule *m, const TInst *in, bool red, TDType t, LLVMValueRef ptr, LLVMValueRef *val,
            LLVMValueRef pred, LLVMValueRef *old)
{
	LLVMValueRef lo = LLVMBuildZExt(m->b, LLVMBuildBitCast(m->b, val[0], m->i16, ""), m->i32, "");
	LLVMValueRef hi = LLVMBuildZExt(m->b, LLVMBuildBitCast(m->b, val[1], m->i16, ""), m->i32, "");
	LLVMValueRef w = LLVMBuildOr(m->b, lo, LLVMBuildShl(m->b, hi, LLVMConstInt(m->i32, 16, 0),
	                                                    ""), "");
	LLVMValueRef r = atomic1(m, in, red, "add", t == DT_F16 ? "noftz.f16x2" : "noftz.bf16x2", 32,
	                         ptr, NULL, w, pred);
	for (int i = 0; !red && i < 2; i++) {
		LLVMValueRef h = LLVMBuildTrunc(m->b, i ? LLVMBuildLShr(m->b, r,
		                                LLVMConstInt(m->i32, 16, 0), "") : r, m->i16, "");
		old[i] = LLVMBuildBitCast(m->b, h, LLVMTypeOf(val[0]), "");
	}
}

/* Elements a packed atomic takes at once: 2 for f16/bf16 adds whose pairs
 * the axis analysis finds consecutive, else 1. */
static int
pair_width(Lower *l, const TInst *in, bool *proven)
{
	TDType t = in->args[0]->type->dtype;
	*proven = false;
	if (in->op != OP_ATOMIC_RMW || in->attr.rmw != AT_ADD || (t != DT_F16 && t != DT_BF16) ||
	    in->args[0]->type->kind != TY_TENSOR)
		return 1;
	PassAccess acc = pass_access_plan(in, l->axis);
	*proven = acc.proven;
	return acc.width >= 2 ? 2 : 1;
}

/* Whether every free bit of in-dim `name` of ly is a broadcast (zero basis). */
static bool
free_bits_zero(const LLayout *ly, LLName name)
{
	uint64_t free[LL_MAX_DIMS];
	ll_free_masks(ly, free);
	int i = ll_in_index(ly, name);
	for (int b = 0; i >= 0 && b < ly->in_bits[i]; b++) {
		uint32_t v[LL_MAX_DIMS] = {0};
		ll_get_basis(ly, i, b, v);
		for (int j = 0; (free[i] >> b & 1) && j < ly->n_out; j++)
			if (v[j])
				return false;
	}
	return true;
}

/* Whether the old values reach the threads that do not own their elements
 * through shared memory (else registers and shuffles suffice). */
static bool
via_smem(const TType *pt)
{
	if (pt->kind != TY_TENSOR)
		return true;
	uint64_t free[LL_MAX_DIMS];
	ll_free_masks(&pt->layout.ll, free);
	int wi = ll_in_index(&pt->layout.ll, LL_WARP);
	return (wi >= 0 && free[wi]) || !free_bits_zero(&pt->layout.ll, LL_LANE);
}

int64_t
cg_atomic_scratch(const TInst *in)
{
	const TType *pt = in->args[0]->type;
	int64_t n = 1;
	for (int d = 0; pt->kind == TY_TENSOR && d < pt->rank; d++)
		n *= pt->shape[d];
	return via_smem(pt) ? n * ir_dtype_bits(pt->dtype) / 8 : 0;
}

/* The owners' old values to everyone through the scratch: owners (owner
 * NULL: every thread) store their elements, all load every register. */
static void
broadcast_smem(Lower *l, const TInst *in, LLVMValueRef owner, uint64_t free_regs, CgVal old)
{
	CgModule *m = l->m;
	const TType *pt = in->args[0]->type;
	LLVMTypeRef et = cg_elem_type(m, in->res->type);
	LLVMValueRef base = cg_scratch(l);
	LLayout hw = pt->kind == TY_TENSOR ? cg_offset_map(pt) : ll_empty();
	cg_barrier(m);
	LLVMBasicBlockRef own = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "atomic.owner");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "atomic.shared");
	LLVMBuildCondBr(m->b, owner ? owner : LLVMConstInt(m->i1, 1, 0), own, done);
	LLVMPositionBuilderAtEnd(m->b, own);
	for (int i = 0; i < old.n; i++) {
		if ((uint64_t)i & free_regs)
			continue;
		LLVMValueRef off = pt->kind == TY_TENSOR ? cg_apply_hw(l, &hw, i, LL_OFFSET)
		                                         : LLVMConstInt(m->i32, 0, 0);
		LLVMBuildStore(m->b, old.r[i], LLVMBuildGEP2(m->b, et, base, &off, 1, ""));
	}
	LLVMBuildBr(m->b, done);
	LLVMPositionBuilderAtEnd(m->b, done);
	cg_barrier(m);
	if (pt->kind != TY_TENSOR) {
		LLVMValueRef zero = LLVMConstInt(m->i32, 0, 0);
		old.r[0] = LLVMBuildLoad2(m->b, et, LLVMBuildGEP2(m->b, et, base, &zero, 1, ""), "");
		return;
	}
	CgSmemMap map = {.hw = hw, .base = base};
	cg_smem_load(l, &map, et, et, old);
}

/* The owners' old values to the other lanes (broadcast lane bits) and
 * registers holding the same elements. */
static void
broadcast_regs(Lower *l, const TType *pt, uint64_t free_regs, CgVal old)
{
	CgModule *m = l->m;
	const LLayout *ly = &pt->layout.ll;
	uint64_t free[LL_MAX_DIMS];
	ll_free_masks(ly, free);
	int li = ll_in_index(ly, LL_LANE);
	if (li >= 0 && free[li]) {
		LLVMValueRef src = LLVMBuildAnd(m->b, cg_lane_id(m),
		                                LLVMConstInt(m->i32, ~free[li] & 31, 0), "");
		for (int i = 0; i < old.n; i++)
			if (!((uint64_t)i & free_regs))
				old.r[i] = cg_shfl(m, CG_SHFL_IDX, old.r[i], src);
	}
	int ri = ll_in_index(ly, LL_REGISTER);
	for (int i = 0; ri >= 0 && i < old.n; i++) {
		if (!((uint64_t)i & free_regs))
			continue;
		/* the owner register: the same element, no free bit */
		uint32_t in[LL_MAX_DIMS] = {0}, want[LL_MAX_DIMS], have[LL_MAX_DIMS];
		in[ri] = (uint32_t)i;
		ll_apply(ly, in, want);
		for (int j = 0; j < old.n; j++) {
			in[ri] = (uint32_t)j;
			ll_apply(ly, in, have);
			if (!((uint64_t)j & free_regs) &&
			    !memcmp(want, have, (size_t)ly->n_out * sizeof *have)) {
				old.r[i] = old.r[j];
				break;
			}
		}
	}
}

bool
cg_lower_atomic(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	bool cas = in->op == OP_ATOMIC_CAS;
	const TType *pt = in->args[0]->type;
	TDType t = pt->dtype;
	CgVal ptrs = cg_val(l, in->args[0]), val = cg_val(l, in->args[cas ? 2 : 1]);
	CgVal cmp = cas ? cg_val(l, in->args[1]) : (CgVal){0};
	CgVal mask = !cas && in->n_args > 2 ? cg_val(l, in->args[2]) : (CgVal){0};
	bool used = value_used(l->k, in->res);
	bool red = !used && !cas && in->attr.rmw != AT_XCHG &&
	           (in->attr.sem == SEM_RELAXED || in->attr.sem == SEM_RELEASE);
	uint64_t free_regs = 0;
	LLVMValueRef owner = pt->kind == TY_TENSOR ? cg_first_owner(l, &pt->layout.ll, &free_regs)
	                                           : cg_leader(l);
	int n = ptrs.n;
	CgVal old = cg_val_new(l, n);
	LLVMValueRef *pred = arena_alloc(m->arena, (size_t)n * sizeof *pred);
	for (int i = 0; i < n; i++) {
		pred[i] = mask.n ? mask.r[i] : LLVMConstInt(m->i1, 1, 0);
		if (owner)
			pred[i] = LLVMBuildAnd(m->b, pred[i], owner, "");
	}
	bool proven;
	int v = pair_width(l, in, &proven);
	for (int c = 0; c < n; c += v) {
		if ((uint64_t)c & free_regs)
			continue;
		LLVMValueRef ok = NULL, pair[2];
		if (v == 2) {
			ok = proven ? pred[c] : cg_chunk_ok(m, ptrs.r[c], &pred[c], 2, 16);
			packed_pair(m, in, red, t, ptrs.r[c], &val.r[c], ok, pair);
			if (proven) {
				old.r[c] = pair[0];
				old.r[c + 1] = pair[1];
				continue;
			}
		}
		for (int i = c; i < c + v; i++) {
			LLVMValueRef p = ok ? LLVMBuildAnd(m->b, pred[i], LLVMBuildNot(m->b, ok, ""), "")
			                    : pred[i];
			old.r[i] = element(m, in, red, t, ptrs.r[i], cas ? cmp.r[i] : NULL, val.r[i], p);
			if (ok && !red)
				old.r[i] = LLVMBuildSelect(m->b, ok, pair[i - c], old.r[i], "");
		}
	}
	l->vals[in->res->id] = old;
	if (!used)
		return true;
	if (via_smem(pt))
		broadcast_smem(l, in, owner, free_regs, old);
	else
		broadcast_regs(l, pt, free_regs, old);
	return true;
}
