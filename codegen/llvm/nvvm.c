/*
 * Builders for NVVM intrinsics: special registers, warp shuffles, barriers,
 * shared-memory globals, mbarriers, TMA, fences and setmaxnreg. Intrinsics
 * are type-checked by the verifier, so they are preferred to inline PTX.
 */
#include "codegen/llvm/nvvm.h"

#include <stdio.h>
#include <string.h>

/* Why a call of intrinsic `id` named `name` would be invalid, or NULL. */
static const char *
intrinsic_mismatch(unsigned id, const char *name, LLVMTypeRef ret, LLVMValueRef *args,
                   int n_args, LLVMTypeRef fty)
{
	size_t len = 0;
	const char *base = LLVMIntrinsicGetName(id, &len);
	if (len != strlen(name) || memcmp(base, name, len) != 0)
		return "is not its exact name";
	if (!fty)
		return "has no signature";
	if (LLVMGetReturnType(fty) != ret)
		return "returns another type";
	if (LLVMCountParamTypes(fty) != (unsigned)n_args || LLVMIsFunctionVarArg(fty))
		return "takes another number of arguments";
	LLVMTypeRef ps[16];
	if (n_args > 16)
		return "takes too many arguments";
	LLVMGetParamTypes(fty, ps);
	for (int i = 0; i < n_args; i++)
		if (ps[i] != LLVMTypeOf(args[i]))
			return "takes another argument type";
	return NULL;
}

LLVMValueRef
cg_intrinsic(CgModule *m, const char *name, LLVMTypeRef ret, LLVMTypeRef *over, int n_over,
             LLVMValueRef *args, int n_args)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	const char *why = NULL;
	LLVMTypeRef fty = NULL;
	if (!id)
		why = "does not exist";
	else if (LLVMIntrinsicIsOverloaded(id) != (n_over > 0))
		why = n_over > 0 ? "is not overloaded" : "needs overload types";
	else {
		fty = LLVMIntrinsicGetType(m->ctx, id, over, (size_t)n_over);
		why = intrinsic_mismatch(id, name, ret, args, n_args, fty);
	}
	if (why) {
		diag_internal(m->diags, m->at, "LLVM intrinsic %s %s", name, why);
		return ret == m->void_t ? NULL : LLVMGetPoison(ret);
	}
	LLVMValueRef fn = LLVMGetIntrinsicDeclaration(m->mod, id, over, (size_t)n_over);
	return LLVMBuildCall2(m->b, fty, fn, args, (unsigned)n_args, "");
}

static LLVMValueRef
i32c(CgModule *m, uint64_t v)
{
	return LLVMConstInt(m->i32, v, 0);
}

LLVMValueRef
cg_sreg(CgModule *m, CgSreg r)
{
	static const char *const names[] = {
		[CG_TID_X] = "tid.x", [CG_TID_Y] = "tid.y", [CG_TID_Z] = "tid.z",
		[CG_NTID_X] = "ntid.x",
		[CG_CTAID_X] = "ctaid.x", [CG_CTAID_Y] = "ctaid.y", [CG_CTAID_Z] = "ctaid.z",
		[CG_NCTAID_X] = "nctaid.x", [CG_NCTAID_Y] = "nctaid.y", [CG_NCTAID_Z] = "nctaid.z",
		[CG_LANEID] = "laneid", [CG_CLUSTER_CTARANK] = "cluster.ctarank",
	};
	char name[64];
	snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s", names[r]);
	return cg_intrinsic(m, name, m->i32, NULL, 0, NULL, 0);
}

/* The lane and warp ids from tid, at the builder. */
static void
ids_from_tid(CgModule *m, LLVMValueRef tid)
{
	m->lane = LLVMBuildAnd(m->b, tid, i32c(m, 31), "lane");
	LLVMValueRef w = LLVMBuildLShr(m->b, tid, i32c(m, 5), "");
	/* Broadcast from lane 0 so LLVM and ptxas know it is warp-uniform. */
	LLVMValueRef args[] = {i32c(m, 0xffffffffu), w, i32c(m, 0), i32c(m, 0x1f)};
	m->warp = cg_intrinsic(m, "llvm.nvvm.shfl.sync.idx.i32", m->i32, NULL, 0, args, 4);
}

/* Builds the lane and warp ids at the top of the entry block. */
static void
thread_ids(CgModule *m)
{
	LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(m->fn);
	LLVMBuilderRef saved = m->b;
	m->b = LLVMCreateBuilderInContext(m->ctx);
	LLVMValueRef first = LLVMGetFirstInstruction(entry);
	if (first)
		LLVMPositionBuilderBefore(m->b, first);
	else
		LLVMPositionBuilderAtEnd(m->b, entry);
	ids_from_tid(m, cg_sreg(m, CG_TID_X));
	LLVMDisposeBuilder(m->b);
	m->b = saved;
}

void
cg_thread_ids_here(CgModule *m)
{
	ids_from_tid(m, cg_inline_asm(m, m->i32, "mov.u32 $0, %tid.x;", "=r", NULL, 0));
}

LLVMValueRef
cg_lane_id(CgModule *m)
{
	if (!m->lane)
		thread_ids(m);
	return m->lane;
}

LLVMValueRef
cg_warp_id(CgModule *m)
{
	if (!m->warp)
		thread_ids(m);
	return m->warp;
}

/* One 32-bit shuffle. */
static LLVMValueRef
shfl32(CgModule *m, CgShfl kind, LLVMValueRef v, LLVMValueRef lane)
{
	static const char *const names[] = {"idx", "bfly", "up", "down"};
	/* c: the segment clamp; up shuffles clamp at lane 0. */
	LLVMValueRef c = i32c(m, kind == CG_SHFL_UP ? 0 : 0x1f);
	char name[64];
	snprintf(name, sizeof name, "llvm.nvvm.shfl.sync.%s.i32", names[kind]);
	LLVMValueRef args[] = {i32c(m, 0xffffffffu), v, lane, c};
	return cg_intrinsic(m, name, m->i32, NULL, 0, args, 4);
}

LLVMValueRef
cg_shfl(CgModule *m, CgShfl kind, LLVMValueRef v, LLVMValueRef lane)
{
	LLVMTypeRef t = LLVMTypeOf(v);
	unsigned bits = LLVMSizeOfTypeInBits(m->target->data, t);
	LLVMTypeRef it = LLVMIntTypeInContext(m->ctx, bits);
	LLVMValueRef x = LLVMTypeOf(v) == it ? v : LLVMBuildBitCast(m->b, v, it, "");
	LLVMValueRef r;
	if (bits == 64) {
		LLVMValueRef lo = LLVMBuildTrunc(m->b, x, m->i32, "");
		LLVMValueRef hi = LLVMBuildTrunc(m->b, LLVMBuildLShr(m->b, x,
		                                 LLVMConstInt(m->i64, 32, 0), ""), m->i32, "");
		lo = LLVMBuildZExt(m->b, shfl32(m, kind, lo, lane), m->i64, "");
		hi = LLVMBuildZExt(m->b, shfl32(m, kind, hi, lane), m->i64, "");
		r = LLVMBuildOr(m->b, lo, LLVMBuildShl(m->b, hi, LLVMConstInt(m->i64, 32, 0), ""),
		                "");
	} else if (bits == 32) {
		r = shfl32(m, kind, x, lane);
	} else {
		r = LLVMBuildTrunc(m->b, shfl32(m, kind, LLVMBuildZExt(m->b, x, m->i32, ""), lane),
		                   it, "");
	}
	return it == t ? r : LLVMBuildBitCast(m->b, r, t, "");
}

void
cg_barrier(CgModule *m)
{
	if (m->bar_threads > 0) {
		LLVMValueRef args[] = {i32c(m, (uint64_t)m->bar_id), i32c(m, (uint64_t)m->bar_threads)};
		cg_intrinsic(m, "llvm.nvvm.barrier.cta.sync.aligned.count", m->void_t, NULL, 0, args,
		             2);
		return;
	}
	LLVMValueRef id = i32c(m, 0);
	cg_intrinsic(m, "llvm.nvvm.barrier.cta.sync.aligned.all", m->void_t, NULL, 0, &id, 1);
}

void
cg_barrier_unaligned(CgModule *m, int id, int threads)
{
	LLVMValueRef args[] = {i32c(m, (uint64_t)id), i32c(m, (uint64_t)threads)};
	cg_intrinsic(m, "llvm.nvvm.barrier.cta.sync.count", m->void_t, NULL, 0, args, 2);
}

LLVMValueRef
cg_shared_global(CgModule *m, const char *name, uint64_t bytes, unsigned align)
{
	LLVMTypeRef t = LLVMArrayType2(m->i8, bytes);
	LLVMValueRef g = LLVMAddGlobalInAddressSpace(m->mod, t, name, CG_AS_SHARED);
	LLVMSetInitializer(g, LLVMGetPoison(t));
	LLVMSetLinkage(g, LLVMInternalLinkage);
	LLVMSetAlignment(g, align);
	return g;
}

LLVMValueRef
cg_dynamic_smem(CgModule *m)
{
	static const char name[] = "glc_dynamic_smem";
	LLVMValueRef g = LLVMGetNamedGlobal(m->mod, name);
	if (g)
		return g;
	g = LLVMAddGlobalInAddressSpace(m->mod, LLVMArrayType2(m->i8, 0), name, CG_AS_SHARED);
	LLVMSetLinkage(g, LLVMExternalLinkage);
	LLVMSetAlignment(g, 1024);
	return g;
}

void
cg_mbarrier_init(CgModule *m, LLVMValueRef bar, LLVMValueRef count)
{
	LLVMValueRef args[] = {bar, count};
	cg_intrinsic(m, "llvm.nvvm.mbarrier.init.shared", m->void_t, NULL, 0, args, 2);
}

void
cg_mbarrier_expect_tx(CgModule *m, LLVMValueRef bar, LLVMValueRef bytes)
{
	LLVMValueRef args[] = {bar, bytes};
	cg_intrinsic(m, "llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta", m->i64, NULL,
	             0, args, 2);
}

void
cg_mbarrier_arrive(CgModule *m, LLVMValueRef bar)
{
	cg_intrinsic(m, "llvm.nvvm.mbarrier.arrive.shared", m->i64, NULL, 0, &bar, 1);
}

void
cg_mbarrier_arrive_n(CgModule *m, LLVMValueRef bar, LLVMValueRef count)
{
	LLVMValueRef args[] = {bar, count};
	cg_intrinsic(m, "llvm.nvvm.mbarrier.arrive.scope.cta.space.cta", m->i64, NULL, 0, args, 2);
}

void
cg_mbarrier_inval(CgModule *m, LLVMValueRef bar)
{
	cg_intrinsic(m, "llvm.nvvm.mbarrier.inval.shared", m->void_t, NULL, 0, &bar, 1);
}

void
cg_mbarrier_wait(CgModule *m, LLVMValueRef bar, LLVMValueRef phase)
{
	LLVMBasicBlockRef cur = LLVMGetInsertBlock(m->b);
	LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "mbar.wait");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(m->ctx, m->fn, "mbar.done");
	LLVMMoveBasicBlockAfter(loop, cur);
	LLVMMoveBasicBlockAfter(done, loop);
	LLVMBuildBr(m->b, loop);
	LLVMPositionBuilderAtEnd(m->b, loop);
	LLVMValueRef args[] = {bar, phase};
	LLVMValueRef ok = cg_intrinsic(m, "llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta",
	                               m->i1, NULL, 0, args, 2);
	LLVMBuildCondBr(m->b, ok, done, loop);
	LLVMPositionBuilderAtEnd(m->b, done);
}

void
cg_tma_load(CgModule *m, LLVMValueRef smem, LLVMValueRef bar, LLVMValueRef tmap,
            LLVMValueRef *coords, int rank)
{
	char name[80];
	snprintf(name, sizeof name, "llvm.nvvm.cp.async.bulk.tensor.g2s.tile.%dd", rank);
	LLVMValueRef args[5 + 5 + 5];
	int n = 0;
	args[n++] = LLVMBuildAddrSpaceCast(m->b, smem,
	                                   LLVMPointerTypeInContext(m->ctx, CG_AS_CLUSTER), "");
	args[n++] = bar;
	args[n++] = tmap;
	for (int i = 0; i < rank; i++)
		args[n++] = coords[i];
	args[n++] = LLVMConstInt(m->i16, 0, 0);   /* multicast mask */
	args[n++] = LLVMConstInt(m->i64, 0, 0);   /* cache hint */
	args[n++] = LLVMConstInt(m->i1, 0, 0);    /* no multicast */
	args[n++] = LLVMConstInt(m->i1, 0, 0);    /* no cache hint */
	args[n++] = i32c(m, 0);                    /* cta_group: none */
	cg_intrinsic(m, name, m->void_t, NULL, 0, args, n);
}

void
cg_tma_store(CgModule *m, LLVMValueRef tmap, LLVMValueRef smem, LLVMValueRef *coords, int rank)
{
	char name[80];
	snprintf(name, sizeof name, "llvm.nvvm.cp.async.bulk.tensor.s2g.tile.%dd", rank);
	LLVMValueRef args[4 + 5];
	int n = 0;
	args[n++] = smem;
	args[n++] = tmap;
	for (int i = 0; i < rank; i++)
		args[n++] = coords[i];
	args[n++] = LLVMConstInt(m->i64, 0, 0);
	args[n++] = LLVMConstInt(m->i1, 0, 0);
	cg_intrinsic(m, name, m->void_t, NULL, 0, args, n);
}

void
cg_tma_store_commit(CgModule *m)
{
	cg_intrinsic(m, "llvm.nvvm.cp.async.bulk.commit.group", m->void_t, NULL, 0, NULL, 0);
}

void
cg_tma_store_wait(CgModule *m, int pending)
{
	LLVMValueRef n = i32c(m, (uint64_t)pending);
	cg_intrinsic(m, "llvm.nvvm.cp.async.bulk.wait.group.read", m->void_t, NULL, 0, &n, 1);
}

void
cg_tensormap_replace(CgModule *m, const char *field, LLVMValueRef map, int ord, LLVMValueRef v)
{
	char name[80];
	snprintf(name, sizeof name, "llvm.nvvm.tensormap.replace.%s", field);
	LLVMValueRef args[3] = {map};
	int n = 1;
	if (ord >= 0)
		args[n++] = i32c(m, (uint64_t)ord);
	args[n++] = v;
	LLVMTypeRef over = LLVMTypeOf(map);
	cg_intrinsic(m, name, m->void_t, &over, 1, args, n);
}

void
cg_tensormap_release(CgModule *m)
{
	cg_intrinsic(m, "llvm.nvvm.fence.proxy.tensormap_generic.release.gpu", m->void_t, NULL, 0,
	             NULL, 0);
}

void
cg_tensormap_acquire(CgModule *m, LLVMValueRef map)
{
	LLVMValueRef args[2] = {map, i32c(m, 128)};
	cg_intrinsic(m, "llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu", m->void_t, NULL, 0,
	             args, 2);
}

void
cg_fence_async_shared(CgModule *m)
{
	cg_intrinsic(m, "llvm.nvvm.fence.proxy.async.shared_cta", m->void_t, NULL, 0, NULL, 0);
}

void
cg_fence_mbarrier_init(CgModule *m)
{
	cg_intrinsic(m, "llvm.nvvm.fence.mbarrier_init.release.cluster", m->void_t, NULL, 0,
	             NULL, 0);
}

void
cg_setmaxnreg(CgModule *m, bool inc, int regs)
{
	LLVMValueRef n = i32c(m, (uint64_t)regs);
	cg_intrinsic(m, inc ? "llvm.nvvm.setmaxnreg.inc.sync.aligned.u32"
	                    : "llvm.nvvm.setmaxnreg.dec.sync.aligned.u32",
	             m->void_t, NULL, 0, &n, 1);
}

LLVMValueRef
cg_inline_asm(CgModule *m, LLVMTypeRef ret, const char *text, const char *cons,
              LLVMValueRef *args, int n)
{
	LLVMTypeRef ts[40];
	for (int i = 0; i < n; i++)
		ts[i] = LLVMTypeOf(args[i]);
	LLVMTypeRef fty = LLVMFunctionType(ret, ts, (unsigned)n, false);
	LLVMValueRef fn = LLVMGetInlineAsm(fty, (char *)text, strlen(text), (char *)cons,
	                                   strlen(cons), true, false, LLVMInlineAsmDialectATT, false);
	return LLVMBuildCall2(m->b, fty, fn, args, (unsigned)n, "");
}

LLVMValueRef
cg_unary_intrinsic(CgModule *m, const char *name, LLVMValueRef x, bool overloaded)
{
	LLVMTypeRef t = LLVMTypeOf(x);
	return cg_intrinsic(m, name, t, overloaded ? &t : NULL, overloaded ? 1 : 0, &x, 1);
}

LLVMValueRef
cg_binary_intrinsic(CgModule *m, const char *name, LLVMValueRef a, LLVMValueRef b,
                    bool overloaded)
{
	LLVMTypeRef t = LLVMTypeOf(a);
	LLVMValueRef args[] = {a, b};
	return cg_intrinsic(m, name, t, overloaded ? &t : NULL, overloaded ? 1 : 0, args, 2);
}
