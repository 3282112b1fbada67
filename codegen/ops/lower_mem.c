/*
 * Masked global loads and stores.
 *
 * The axis analysis (passes/axis.c, pass_access_plan) picks the tensor dim along which
 * the pointers are contiguous and the layout holds consecutive registers;
 * registers r..r+V-1 along it form chunks of up to 16 bytes. When the
 * analysis proves every chunk aligned to its size and uniformly masked (the
 * specialized variant of a kernel, with 16-byte aligned pointers and
 * integers that are multiples of 16), each chunk is exactly one predicated
 * vector instruction. Otherwise a chunk is one predicated vector
 * instruction taken when, at run time, its pointers are consecutive, the
 * first is aligned to the chunk's size and the whole mask is set; where it
 * is not taken (tails, odd strides, unaligned bases), a branch enters one
 * predicated scalar instruction per element. Correctness never rests on an
 * unproven fact. Both forms are inline PTX so that a false predicate
 * touches no memory (ld.global.v4.b32 / st.global.v4.b32 for 128 bits).
 * Stores of layouts that duplicate elements (ll_free_masks) write each
 * element from one register of one thread. Where a thread has at most 64
 * registers, a checked store rebuilds its mask next to it (remat) rather
 * than share a load's predicates across the kernel.
 */
#include "codegen/ops/ops.h"
#include "passes/passes.h"

#include <stdio.h>
#include <string.h>

/* Inline-asm register class and integer type of an element of `bits`. */
static const char *
reg_class(int bits)
{
	return bits == 64 ? "l" : bits == 32 ? "r" : "h";
}

static LLVMTypeRef
word_type(CgModule *m, int bits)
{
	return bits == 64 ? m->i64 : bits == 32 ? m->i32 : m->i16;
}

static int
ptx_bits(int bits)
{
	return bits < 16 ? 8 : bits;
}

static LLVMValueRef
to_bits(CgModule *m, LLVMValueRef v, int bits)
{
	LLVMTypeRef t = LLVMTypeOf(v);
	if (t == m->i1)
		return LLVMBuildZExt(m->b, v, m->i16, "");
	if (bits == 8)
		return LLVMBuildZExt(m->b, v, m->i16, "");
	return LLVMBuildBitCast(m->b, v, word_type(m, bits), "");
}

static LLVMValueRef
from_bits(CgModule *m, LLVMValueRef w, LLVMTypeRef t, int bits)
{
	if (t == m->i1)
		return LLVMBuildICmp(m->b, LLVMIntNE, w, LLVMConstInt(m->i16, 0, 0), "");
	if (bits == 8)
		return LLVMBuildTrunc(m->b, w, t, "");
	return LLVMBuildBitCast(m->b, w, t, "");
}

/* Elements of one chunk packed into 32- or 64-bit words, and back. */
static void
pack(CgModule *m, LLVMValueRef *elems, int v, int bits, LLVMValueRef *words, int n_words)
{
	int per = v / n_words;
	LLVMTypeRef wt = bits == 64 ? m->i64 : m->i32;
	for (int w = 0; w < n_words; w++) {
		LLVMValueRef acc = LLVMConstInt(wt, 0, 0);
		for (int i = 0; i < per; i++) {
			LLVMValueRef e = to_bits(m, elems[w * per + i], bits);
			if (LLVMTypeOf(e) != wt)
				e = LLVMBuildZExt(m->b, e, wt, "");
			acc = LLVMBuildOr(m->b, acc, LLVMBuildShl(m->b, e,
			                  LLVMConstInt(wt, (uint64_t)(i * bits), 0), ""), "");
		}
		words[w] = acc;
	}
}

static void
unpack(CgModule *m, LLVMValueRef *words, int n_words, int v, int bits, LLVMTypeRef et,
       LLVMValueRef *elems)
{
	int per = v / n_words;
	LLVMTypeRef it = LLVMIntTypeInContext(m->ctx, (unsigned)bits);
	for (int w = 0; w < n_words; w++)
		for (int i = 0; i < per; i++) {
			LLVMValueRef x = LLVMBuildLShr(m->b, words[w], LLVMConstInt(LLVMTypeOf(words[w]),
			                               (uint64_t)(i * bits), 0), "");
			x = LLVMBuildTrunc(m->b, x, it, "");
			elems[w * per + i] = et == m->i1 ? LLVMBuildICmp(m->b, LLVMIntNE, x,
			                                                 LLVMConstInt(it, 0, 0), "")
			                                 : LLVMBuildBitCast(m->b, x, et, "");
		}
}

LLVMValueRef
cg_chunk_ok(CgModule *m, LLVMValueRef first, LLVMValueRef *mask, int v, int bits)
{
	LLVMValueRef base = LLVMBuildPtrToInt(m->b, first, m->i64, "");
	uint64_t bytes = (uint64_t)v * (uint64_t)bits / 8;
	LLVMValueRef low = LLVMBuildAnd(m->b, base, LLVMConstInt(m->i64, bytes - 1, 0), "");
	LLVMValueRef ok = LLVMBuildICmp(m->b, LLVMIntEQ, low, LLVMConstInt(m->i64, 0, 0), "");
	for (int i = 0; mask && i < v; i++)
		ok = LLVMBuildAnd(m->b, ok, mask[i], "");
	return ok;
}

/* How one instruction accesses memory: the opcode with its state space
 * ("ld.global", "ld.volatile.global", "st.global"), the cache operator and
 * eviction qualifiers, and the L2 policy that .L2::cache_hint takes. */
typedef struct Access {
	const char *op;
	const char *mods;
	LLVMValueRef policy;
} Access;

/* The access of OP_LOAD or OP_STORE `in`, as Triton spells it:
 * cache_modifier as the cache operator, eviction_policy as an L2 policy of
 * that priority for the whole line, plus the same L1 eviction priority
 * when there is no cache operator (PTX allows one or the other). */
static Access
access_of(CgModule *m, const TInst *in, bool load)
{
	static const char *const cache[] = {
		[CACHE_NONE] = "", [CACHE_CA] = ".ca", [CACHE_CG] = ".cg", [CACHE_CS] = ".cs",
		[CACHE_CV] = ".cv", [CACHE_WB] = ".wb", [CACHE_WT] = ".wt",
	};
	Access ac = {load ? (in->attr.is_volatile ? "ld.volatile.global" : "ld.global")
	                  : "st.global", cache[in->attr.cache], NULL};
	if (in->attr.evict == EVICT_NORMAL)
		return ac;
	bool first = in->attr.evict == EVICT_FIRST;
	ac.mods = in->attr.cache ? arena_printf(m->arena, "%s.L2::cache_hint", ac.mods)
	                         : first ? ".L1::evict_first.L2::cache_hint"
	                                 : ".L1::evict_last.L2::cache_hint";
	ac.policy = cg_l2_policy(m, in->attr.evict);
	return ac;
}

LLVMValueRef
cg_l2_policy(CgModule *m, TEvict evict)
{
	const char *text = evict == EVICT_FIRST
	                   ? "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;"
	                   : "createpolicy.fractional.L2::evict_last.b64 $0, 1.0;";
	LLVMTypeRef fty = LLVMFunctionType(m->i64, NULL, 0, false);
	LLVMValueRef fn = LLVMGetInlineAsm(fty, (char *)text, strlen(text), "=l", 2, false, false,
	                                   LLVMInlineAsmDialectATT, false);
	return LLVMBuildCall2(m->b, fty, fn, NULL, 0, "");
}

/* The predicated opcode of a global access of n words of `bits`:
 * `ld.global.v2.b32 ` or, for one word, `ld.global.b32 ` (PTX has no .v1;
 * its operand then takes no braces). */
static void
access_opcode(StrBuf *text, const Access *ac, int pred, int n, int bits)
{
	buf_printf(text, "@$%d %s%s", pred, ac->op, ac->mods);
	if (n > 1)
		buf_printf(text, ".v%d", n);
	buf_printf(text, ".b%d ", ptx_bits(bits));
}

/* Words of a chunk: 64-bit elements stay whole, others pack into b32. */
static int
chunk_words(int v, int bits)
{
	return bits == 64 ? v : v * bits / 32;
}

/* Loads n words of `bits` from ptr where pred holds; words[] hold the
 * values kept where it does not, and receive the result. */
static void
load_words(CgModule *m, const Access *ac, LLVMValueRef ptr, LLVMValueRef pred,
           LLVMValueRef *words, int n, int bits)
{
	StrBuf text = {0}, cons = {0};
	access_opcode(&text, ac, n + 1, n, bits);
	if (n > 1)
		buf_putc(&text, '{');
	for (int i = 0; i < n; i++) {
		buf_printf(&text, "%s$%d", i ? ", " : "", i);
		buf_printf(&cons, "=%s,", reg_class(bits));
	}
	buf_printf(&text, "%s, [$%d]", n == 1 ? "" : "}", n);
	buf_puts(&cons, "l,b");
	for (int i = 0; i < n; i++)
		buf_printf(&cons, ",%d", i);
	LLVMTypeRef wt = word_type(m, bits);
	LLVMValueRef args[3 + 4];
	LLVMTypeRef fields[4];
	args[0] = ptr;
	args[1] = pred;
	for (int i = 0; i < n; i++) {
		args[2 + i] = words[i];
		fields[i] = wt;
	}
	if (ac->policy) {
		args[2 + n] = ac->policy;
		buf_printf(&text, ", $%d", 2 * n + 2);
		buf_puts(&cons, ",l");
	}
	buf_putc(&text, ';');
	LLVMTypeRef ret = n == 1 ? wt : LLVMStructTypeInContext(m->ctx, fields, (unsigned)n, false);
	LLVMValueRef r = cg_inline_asm(m, ret, text.s, cons.s, args, 2 + n + (ac->policy != NULL));
	for (int i = 0; i < n; i++)
		words[i] = n == 1 ? r : LLVMBuildExtractValue(m->b, r, (unsigned)i, "");
	buf_free(&text);
	buf_free(&cons);
}

/* Stores n words of `bits` to ptr where pred holds. */
static void
store_words(CgModule *m, const Access *ac, LLVMValueRef ptr, LLVMValueRef pred,
            LLVMValueRef *words, int n, int bits)
{
	StrBuf text = {0}, cons = {0};
	access_opcode(&text, ac, n + 1, n, bits);
	buf_puts(&text, "[$0], ");
	if (n > 1)
		buf_putc(&text, '{');
	buf_puts(&cons, "l");
	for (int i = 0; i < n; i++) {
		buf_printf(&text, "%s$%d", i ? ", " : "", i + 1);
		buf_printf(&cons, ",%s", reg_class(bits));
	}
	if (n > 1)
		buf_putc(&text, '}');
	buf_puts(&cons, ",b");
	LLVMValueRef args[3 + 4];
	args[0] = ptr;
	for (int i = 0; i < n; i++)
		args[1 + i] = words[i];
	args[1 + n] = pred;
	if (ac->policy) {
		args[2 + n] = ac->policy;
		buf_printf(&text, ", $%d", n + 2);
		buf_puts(&cons, ",l");
	}
	buf_puts(&text, ";");
	buf_puts(&cons, ",~{memory}");
	cg_inline_asm(m, m->void_t, text.s, cons.s, args, 2 + n + (ac->policy != NULL));
	buf_free(&text);
	buf_free(&cons);
}

LLVMValueRef
cg_load_elem(CgModule *m, LLVMValueRef ptr, LLVMValueRef pred, LLVMValueRef init)
{
	static const Access plain = {"ld.global", "", NULL};
	LLVMTypeRef t = LLVMTypeOf(init);
	int bits = t == m->i1 ? 8 : (int)LLVMSizeOfTypeInBits(m->target->data, t);
	LLVMValueRef w = to_bits(m, init, bits);
	load_words(m, &plain, ptr, pred, &w, 1, bits);
	return from_bits(m, w, t, bits);
}

LLVMValueRef
cg_first_owner(Lower *l, const LLayout *ly, uint64_t *free_regs)
{
	CgModule *m = l->m;
	uint64_t free[LL_MAX_DIMS];
	ll_free_masks(ly, free);
	int ri = ll_in_index(ly, LL_REGISTER), li = ll_in_index(ly, LL_LANE);
	int wi = ll_in_index(ly, LL_WARP);
	*free_regs = ri >= 0 ? free[ri] : 0;
	LLVMValueRef cond = NULL;
	if (li >= 0 && free[li]) {
		LLVMValueRef x = LLVMBuildAnd(m->b, cg_lane_id(m), LLVMConstInt(m->i32, free[li], 0), "");
		cond = LLVMBuildICmp(m->b, LLVMIntEQ, x, LLVMConstInt(m->i32, 0, 0), "");
	}
	if (wi >= 0 && free[wi]) {
		LLVMValueRef x = LLVMBuildAnd(m->b, cg_warp_id(m), LLVMConstInt(m->i32, free[wi], 0), "");
		x = LLVMBuildICmp(m->b, LLVMIntEQ, x, LLVMConstInt(m->i32, 0, 0), "");
		cond = cond ? LLVMBuildAnd(m->b, cond, x, "") : x;
	}
	return cond;
}

/*
 * The elements c..c+v-1 one at a time, each under its own predicate, from
 * the chunk's first pointer (so the others need not stay live). After a
 * vector attempt `vec_ok` (NULL: none), they run in a block of their own
 * entered only where the vector instruction did not: the vector's result
 * (the initial values where it did not run) meets theirs in a phi. A branch
 * rather than predicates `mask && !vec_ok` keeps ptxas from hoisting every
 * chunk's scalar instructions, each with a live predicate and address,
 * above the rest of the kernel, which made long row tiles spill.
 */
static void
scalar_fallback(Lower *l, const Access *ac, bool load, LLVMValueRef first, LLVMTypeRef et,
                int bits, LLVMValueRef *pred, LLVMValueRef *init, CgVal *val, int c, int v,
                LLVMValueRef vec_ok)
{
	CgModule *m = l->m;
	LLVMBasicBlockRef from = NULL, each = NULL, done = NULL;
	if (vec_ok) {
		from = LLVMGetInsertBlock(m->b);
		each = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "mem.each");
		done = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "mem.done");
		LLVMBuildCondBr(m->b, vec_ok, done, each);
		LLVMPositionBuilderAtEnd(m->b, each);
	}
	LLVMValueRef got[16];
	for (int i = 0; i < v; i++) {
		LLVMValueRef idx = LLVMConstInt(m->i64, (uint64_t)i, 0);
		LLVMValueRef ptr = i == 0 ? first : LLVMBuildGEP2(m->b, et, first, &idx, 1, "");
		LLVMValueRef w = to_bits(m, load ? init[i] : val->r[val->n == 1 ? 0 : c + i], bits);
		if (load) {
			load_words(m, ac, ptr, pred[i], &w, 1, bits);
			got[i] = from_bits(m, w, et, bits);
		} else {
			store_words(m, ac, ptr, pred[i], &w, 1, bits);
		}
	}
	if (vec_ok) {
		LLVMBasicBlockRef end = LLVMGetInsertBlock(m->b);
		LLVMBuildBr(m->b, done);
		LLVMPositionBuilderAtEnd(m->b, done);
		for (int i = 0; load && i < v; i++) {
			LLVMValueRef phi = LLVMBuildPhi(m->b, et, "");
			LLVMValueRef in[2] = {init[i], got[i]};
			LLVMBasicBlockRef bb[2] = {from, end};
			LLVMAddIncoming(phi, in, bb, 2);
			got[i] = phi;
		}
	}
	for (int i = 0; load && i < v; i++)
		val->r[c + i] = got[i];
}

/*
 * Store masks rebuilt at the store. A masked store's mask is often the same
 * compare as a masked load's far earlier (`cols < N` at both ends of a row
 * kernel); LLVM merges the two, at the IR and at the machine level, so each
 * element's predicate stays live across the kernel body, and where a thread
 * has few registers ptxas spills. Rebuilt from opaque copies of its
 * thread-dependent roots, the compare is a value no CSE can merge with the
 * load's: only the roots stay live, and the compare with its constant
 * offsets runs again next to the store.
 */
enum { REMAT_MAX = 64 };  /* values rebuilt per store; past that, shared */

typedef struct Remat {
	LLVMValueRef from[REMAT_MAX], to[REMAT_MAX];
	int n;
} Remat;

/* Integer v (32 or 64 bits) through a side-effecting mov: the same number,
 * computed here, that LLVM cannot prove equal to v. */
static LLVMValueRef
opaque_copy(CgModule *m, LLVMValueRef v)
{
	bool wide = LLVMTypeOf(v) == m->i64;
	return cg_inline_asm(m, LLVMTypeOf(v), wide ? "mov.b64 $0, $1;" : "mov.b32 $0, $1;",
	                     wide ? "=l,l" : "=r,r", &v, 1);
}

static bool
has_const_operand(LLVMValueRef v)
{
	return LLVMIsConstant(LLVMGetOperand(v, 0)) || LLVMIsConstant(LLVMGetOperand(v, 1));
}

/* v rebuilt at the builder: integer compares and arithmetic with a
 * constant operand cloned over their rebuilt operands, other i32 and i64
 * roots copied by opaque_copy, the rest (constants among them) as is. Each
 * value is rebuilt once per store (r). */
static LLVMValueRef
remat(CgModule *m, Remat *r, LLVMValueRef v)
{
	if (LLVMIsConstant(v))
		return v;
	for (int i = 0; i < r->n; i++)
		if (r->from[i] == v)
			return r->to[i];
	if (r->n == REMAT_MAX)
		return v;
	LLVMTypeRef t = LLVMTypeOf(v);
	LLVMValueRef x = v;
	if (LLVMIsAICmpInst(v) || (LLVMIsABinaryOperator(v) && has_const_operand(v))) {
		x = LLVMInstructionClone(v);
		for (unsigned k = 0; k < 2; k++)
			LLVMSetOperand(x, k, remat(m, r, LLVMGetOperand(v, k)));
		LLVMInsertIntoBuilder(m->b, x);
	} else if (t == m->i32 || t == m->i64) {
		x = opaque_copy(m, v);
	}
	r->from[r->n] = v;
	r->to[r->n++] = x;
	return x;
}

/* Whether a masked store rebuilds its masks (remat): only around the
 * run-time checks of vectors (the specialized variant's uniform chunks keep
 * one predicate each), and only where a thread has at most 64 registers
 * (1024 threads); with more, ptxas keeps the predicates without spilling
 * and rebuilding them is pure cost. */
static bool
rebuilds_masks(const Lower *l, const PassAccess *acc)
{
	return !acc->proven && acc->width > 1 && cg_ws_entry_regs(l->k) <= 64;
}

/* Mask element p of a store that rebuilds its masks: a compare that nothing
 * uses yet (computed for this store) is rebuilt; one the program already
 * shares (vector_add's `mask`, computed once for its loads and its store)
 * stays shared. */
static LLVMValueRef
store_mask(CgModule *m, Remat *r, LLVMValueRef p)
{
	return LLVMIsAICmpInst(p) && !LLVMGetFirstUse(p) ? remat(m, r, p) : p;
}

bool
cg_lower_memory(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	bool load = in->op == OP_LOAD;
	const TType *pt = in->args[0]->type;
	const TType *vt = load ? in->res->type : in->args[1]->type;
	CgVal ptrs = cg_val(l, in->args[0]);
	CgVal val = load ? cg_val_new(l, cg_type_regs(vt)) : cg_val(l, in->args[1]);
	int mi = load ? 1 : 2;
	bool has_mask = load ? in->attr.has_mask : in->n_args > 2;
	CgVal mask = has_mask ? cg_val(l, in->args[mi]) : (CgVal){0};
	bool has_other = load && in->attr.has_other;
	CgVal other = has_other ? cg_val(l, in->args[2]) : (CgVal){0};
	LLVMTypeRef et = cg_elem_type(m, vt);
	if (vt->elem_is_ptr) {
		cg_unsupported(l, in, "loads or stores of pointers");
		return false;
	}
	int bits = vt->dtype == DT_I1 ? 8 : (int)LLVMSizeOfTypeInBits(m->target->data, et);
	Access ac = access_of(m, in, load);
	int n = ptrs.n;
	PassAccess acc = pass_access_plan(in, l->axis);
	int v = acc.width;
	uint64_t free_regs = 0;
	LLVMValueRef owner = !load && pt->kind == TY_TENSOR ? cg_first_owner(l, &pt->layout.ll,
	                                                                  &free_regs) : NULL;
	bool use_pred = has_mask || owner;
	bool remat_mask = !load && has_mask && rebuilds_masks(l, &acc);
	Remat rm = {0};
	LLVMValueRef *pred = arena_alloc(m->arena, (size_t)n * sizeof *pred);
	LLVMValueRef *init = arena_alloc(m->arena, (size_t)n * sizeof *init);
	for (int i = 0; i < n; i++) {
		pred[i] = has_mask ? mask.r[mask.n == 1 ? 0 : i] : LLVMConstInt(m->i1, 1, 0);
		if (remat_mask)
			pred[i] = store_mask(m, &rm, pred[i]);
		if (owner)
			pred[i] = LLVMBuildAnd(m->b, pred[i], owner, "");
		if (load)
			init[i] = has_other ? other.r[other.n == 1 ? 0 : i] : LLVMConstNull(et);
	}
	for (int c = 0; c < n; c += v) {
		LLVMValueRef *p = &ptrs.r[c];
		if ((uint64_t)c & free_regs)
			continue;
		if (v > 1) {
			int nw = chunk_words(v, bits), wb = bits == 64 ? 64 : 32;
			LLVMValueRef ok = acc.proven ? pred[c]
			                             : cg_chunk_ok(m, p[0], use_pred ? &pred[c] : NULL, v,
			                                           bits);
			LLVMValueRef words[4];
			if (load) {
				pack(m, &init[c], v, bits, words, nw);
				load_words(m, &ac, p[0], ok, words, nw, wb);
				unpack(m, words, nw, v, bits, et, &init[c]);
			} else {
				pack(m, &val.r[c], v, bits, words, nw);
				store_words(m, &ac, p[0], ok, words, nw, wb);
			}
			if (acc.proven) {
				for (int i = c; load && i < c + v; i++)
					val.r[i] = init[i];
				continue;
			}
			scalar_fallback(l, &ac, load, p[0], et, bits, &pred[c], &init[c], &val, c, v, ok);
			continue;
		}
		scalar_fallback(l, &ac, load, p[0], et, bits, &pred[c], &init[c], &val, c, v, NULL);
	}
	if (load)
		l->vals[in->res->id] = val;
	return true;
}
