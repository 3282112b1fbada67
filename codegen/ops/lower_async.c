/*
 * Ampere's asynchronous copies (cp.async), global -> shared, which Hopper
 * keeps: every thread copies the elements its registers of the pointer
 * tensor address into the buffer, at the offsets the buffer's layout gives
 * their coordinates; commit_group, wait_group and mbarrier_arrive as PTX
 * has them.
 *
 * Registers that are consecutive both in global memory (the axis analysis,
 * as for loads) and in the buffer move as one cp.async of 4, 8 or 16
 * bytes; masked-off elements are zero-filled (src-size 0). A chunk the
 * analysis does not prove aligned and uniformly masked is checked at run
 * time; when the check fails its elements move one by one: cp.async of 4
 * or 8 bytes for wide elements, and for narrower ones (which cp.async
 * cannot move alone) a load and a shared-memory store, which are complete
 * before any wait_group and so just as ordered. cache_modifier ".cg" (the
 * default for 16-byte copies) skips L1; eviction_policy becomes an L2
 * cache hint; volatile has no meaning for cp.async and is ignored. A
 * buffer in a PaddedSharedLayout takes padded addresses and vectors that
 * its padding keeps whole (cg_smem_elem, cg_smem_vector).
 */
#include "codegen/ops/ops.h"
#include "passes/passes.h"

#include <stdio.h>
#include <string.h>

static LLVMValueRef
i32c(CgModule *m, int64_t v)
{
	return LLVMConstInt(m->i32, (uint64_t)v, 0);
}

/* One cp.async of `bytes` from src to dst (ptr addrspace(3)), copying
 * src_size bytes of it (i32; the rest zero-filled). */
static void
cp_async(CgModule *m, const TInst *in, LLVMValueRef dst, LLVMValueRef src, int bytes,
         LLVMValueRef src_size, LLVMValueRef policy)
{
	bool cg = bytes == 16 && in->attr.cache != CACHE_CA;
	char text[128];
	snprintf(text, sizeof text, "cp.async.%s.shared.global%s [$0], [$1], %d, $2%s;",
	         cg ? "cg" : "ca", policy ? ".L2::cache_hint" : "", bytes, policy ? ", $3" : "");
	const char *cons = policy ? "r,l,r,l,~{memory}" : "r,l,r,~{memory}";
	LLVMValueRef args[] = {LLVMBuildPtrToInt(m->b, dst, m->i32, ""), src, src_size, policy};
	LLVMTypeRef ts[] = {m->i32, LLVMTypeOf(src), m->i32, m->i64};
	unsigned n = policy ? 4 : 3;
	LLVMTypeRef fty = LLVMFunctionType(m->void_t, ts, n, false);
	LLVMValueRef fn = LLVMGetInlineAsm(fty, text, strlen(text), (char *)cons, strlen(cons), true,
	                                   false, LLVMInlineAsmDialectATT, false);
	LLVMBuildCall2(m->b, fty, fn, args, n, "");
}

/* The bytes to copy of an element or chunk of `bytes`: all of them where
 * mask holds (or there is none), none elsewhere. */
static LLVMValueRef
src_size(CgModule *m, LLVMValueRef mask, int bytes)
{
	return mask ? LLVMBuildSelect(m->b, mask, i32c(m, bytes), i32c(m, 0), "") : i32c(m, bytes);
}

/* Registers c..c+w-1 one at a time (the fallback of an unproven chunk). */
static void
copy_each(Lower *l, const TInst *in, const CgSmemMap *map, LLVMTypeRef et,
          int bytes, const CgVal *ptrs, LLVMValueRef *mask, int c, int w, LLVMValueRef policy)
{
	CgModule *m = l->m;
	for (int i = c; i < c + w; i++) {
		LLVMValueRef dst = cg_smem_elem(l, map, et, i), mi = mask ? mask[i] : NULL;
		if (bytes >= 4) {
			cp_async(m, in, dst, ptrs->r[i], bytes, src_size(m, mi, bytes), policy);
			continue;
		}
		LLVMValueRef v = cg_load_elem(m, ptrs->r[i], mi ? mi : LLVMConstInt(m->i1, 1, 0),
		                              LLVMConstNull(et));
		LLVMBuildStore(m->b, v, dst);
	}
}

static bool
lower_copy(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	const TType *s = in->args[0]->type, *pt = in->args[1]->type;
	LLVMTypeRef et = cg_dtype_type(m, s->dtype);
	CgSmemMap map;
	if (!cg_smem_access_map(l, in, in->args[0], pt, et, &map))
		return false;
	CgVal ptrs = cg_val(l, in->args[1]);
	LLVMValueRef *mask = in->attr.has_mask ? cg_val(l, in->args[2]).r : NULL;
	int bits = ir_dtype_bits(s->dtype), bytes = bits / 8;
	PassAccess acc = pass_access_plan(in, l->axis);
	int w = cg_smem_vector(&map.hw, &map.pad);
	w = w < acc.width ? w : acc.width;
	if (w * bytes < 4)
		w = 1;
	LLVMValueRef policy = in->attr.evict ? cg_l2_policy(m, in->attr.evict) : NULL;
	uint64_t free[LL_MAX_DIMS];
	ll_free_masks(&pt->layout.ll, free);
	int ri = ll_in_index(&pt->layout.ll, LL_REGISTER);
	uint64_t dup = ri >= 0 ? free[ri] : 0;
	for (int c = 0; c < ptrs.n; c += w) {
		if ((uint64_t)c & dup)   /* the same element as a lower register */
			continue;
		if (w == 1 || acc.proven) {
			if (w == 1)
				copy_each(l, in, &map, et, bytes, &ptrs, mask, c, 1, policy);
			else
				cp_async(m, in, cg_smem_elem(l, &map, et, c), ptrs.r[c], w * bytes,
				         src_size(m, mask ? mask[c] : NULL, w * bytes), policy);
			continue;
		}
		LLVMValueRef ok = cg_chunk_ok(m, ptrs.r[c], mask ? mask + c : NULL, w, bits);
		LLVMBasicBlockRef vec = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "cp.vec");
		LLVMBasicBlockRef each = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "cp.each");
		LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "cp.done");
		LLVMBuildCondBr(m->b, ok, vec, each);
		LLVMPositionBuilderAtEnd(m->b, vec);
		cp_async(m, in, cg_smem_elem(l, &map, et, c), ptrs.r[c], w * bytes,
		         i32c(m, w * bytes), policy);
		LLVMBuildBr(m->b, done);
		LLVMPositionBuilderAtEnd(m->b, each);
		copy_each(l, in, &map, et, bytes, &ptrs, mask, c, w, policy);
		LLVMBuildBr(m->b, done);
		LLVMPositionBuilderAtEnd(m->b, done);
	}
	return true;
}

bool
cg_lower_async(Lower *l, const TInst *in)
{
	CgModule *m = l->m;
	switch (in->op) {
	case OP_ASYNC_COPY:
		return lower_copy(l, in);
	case OP_ASYNC_COMMIT:
		cg_intrinsic(m, "llvm.nvvm.cp.async.commit.group", m->void_t, NULL, 0, NULL, 0);
		return true;
	case OP_ASYNC_WAIT: {
		LLVMValueRef n = i32c(m, in->attr.count);
		cg_intrinsic(m, "llvm.nvvm.cp.async.wait.group", m->void_t, NULL, 0, &n, 1);
		return true;
	}
	case OP_ASYNC_MBAR_ARRIVE: {
		LLVMValueRef bar = cg_val(l, in->args[0]).r[0];
		cg_intrinsic(m, in->attr.count ? "llvm.nvvm.cp.async.mbarrier.arrive.shared"
		                               : "llvm.nvvm.cp.async.mbarrier.arrive.noinc.shared",
		             m->void_t, NULL, 0, &bar, 1);
		return true;
	}
	default:
		cg_unsupported(l, in, "this cp.async operation");
		return false;
	}
}
