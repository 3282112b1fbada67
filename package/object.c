/*
 * `glc -c`: the launchers of launcher.c built as LLVM IR for the host and
 * emitted by LLVM's host backend into an ELF object, so that no C compiler
 * and no installed glrt.h are needed at compile time. The CPU is "generic"
 * and the IR has no paths or times in it, so the object is byte-identical
 * across runs and machines. A kernel with a specialized variant picks its
 * table entry from the arguments exactly as launcher.c's C text does, and
 * one that takes a global scratch buffer launches through
 * glrt_launch_scratch as it does.
 */
#include "package/pkg_internal.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <string.h>

/* Byte offsets in runtime/glrt.h's glrt_tensor_map (the runtime asserts
 * them): the recorded rank and shape after the 128-byte CUtensorMap. */
enum { MAP_RANK_OFFSET = 128, MAP_SHAPE_OFFSET = 132 };

/* The host module being built: its context, builder and the types the
 * launchers use. */
typedef struct HostModule {
	Arena *arena;
	LLVMContextRef ctx;
	LLVMModuleRef mod;
	LLVMBuilderRef b;
	LLVMTypeRef void_t, i1, i8, i16, i32, i64, f32, f64, ptr;
} HostModule;

typedef struct Host {
	HostModule m;
	LLVMTypeRef lazy_kernel;
	LLVMValueRef kernels;      /* [n x glrt_lazy_kernel] */
	LLVMValueRef get, launch;  /* glrt_lazy_kernel_get, glrt_launch */
	LLVMTypeRef get_t, launch_t;
	LLVMValueRef launch_scratch;  /* glrt_launch_scratch */
	LLVMTypeRef launch_scratch_t;
	LLVMValueRef invalid;      /* glrt_invalid_argument */
	LLVMTypeRef invalid_t;
	StrBuf text;               /* scratch for messages */
} Host;

static LLVMValueRef
bytes_global(Host *h, const char *name, CgBlob blob, bool nul)
{
	HostModule *m = &h->m;
	LLVMValueRef init = LLVMConstStringInContext2(m->ctx, (const char *)blob.data, blob.len,
	                                              !nul);
	LLVMValueRef g = LLVMAddGlobal(m->mod, LLVMTypeOf(init), name);
	LLVMSetInitializer(g, init);
	LLVMSetGlobalConstant(g, true);
	LLVMSetLinkage(g, LLVMPrivateLinkage);
	LLVMSetAlignment(g, 64);
	return g;
}

static LLVMValueRef
u32_array(Host *h, const char *name, const int v[3])
{
	HostModule *m = &h->m;
	LLVMValueRef e[3];
	for (int i = 0; i < 3; i++)
		e[i] = LLVMConstInt(m->i32, (uint64_t)v[i], 0);
	LLVMValueRef init = LLVMConstArray2(m->i32, e, 3);
	LLVMValueRef g = LLVMAddGlobal(m->mod, LLVMTypeOf(init), name);
	LLVMSetInitializer(g, init);
	LLVMSetGlobalConstant(g, true);
	LLVMSetLinkage(g, LLVMPrivateLinkage);
	return g;
}

/* The images, the lazy module and its kernel table. */
static void
images(Host *h, const PkgUnit *p)
{
	HostModule *m = &h->m;
	LLVMTypeRef lm_fields[] = {m->ptr, m->i64, m->ptr, m->i64, m->ptr};
	LLVMTypeRef lazy_module = LLVMStructTypeInContext(m->ctx, lm_fields, 5, false);
	LLVMTypeRef lk_fields[] = {m->ptr, m->ptr, m->ptr};
	h->lazy_kernel = LLVMStructTypeInContext(m->ctx, lk_fields, 3, false);

	LLVMValueRef null = LLVMConstPointerNull(m->ptr);
	LLVMValueRef ptx = bytes_global(h, "glc.ptx", p->ptx, true);
	/* a lazy module per image (one without a cubin when there is none) */
	int n_mods = p->n_cubins ? p->n_cubins : 1;
	LLVMValueRef *mods = arena_alloc(m->arena, (size_t)n_mods * sizeof *mods);
	for (int i = 0; i < n_mods; i++) {
		CgBlob c = p->n_cubins ? p->cubins[i] : (CgBlob){0};
		LLVMValueRef cubin = c.len ? bytes_global(h, "glc.cubin", c, false) : null;
		LLVMValueRef lm_init[] = {cubin, LLVMConstInt(m->i64, c.len, 0), ptx,
		                          LLVMConstInt(m->i64, p->ptx.len + 1, 0), null};
		mods[i] = LLVMAddGlobal(m->mod, lazy_module, "glc.module");
		LLVMSetInitializer(mods[i], LLVMConstNamedStruct(lazy_module, lm_init, 5));
		LLVMSetLinkage(mods[i], LLVMInternalLinkage);
		LLVMSetAlignment(mods[i], 8);
	}

	int n = pkg_entry_index(p, p->n_kernels, false);
	LLVMValueRef *entries = arena_alloc(m->arena, (size_t)(n + 1) * sizeof *entries);
	for (int i = 0; i < p->n_kernels; i++)
		for (int f = 0; f < (p->kernels[i].fast ? 2 : 1); f++) {
			const char *name = f ? p->kernels[i].fast->name : p->kernels[i].name;
			CgBlob s = {(const unsigned char *)name, strlen(name)};
			LLVMValueRef str = bytes_global(h, "glc.name", s, true);
			LLVMSetAlignment(str, 1);
			LLVMValueRef e[] = {mods[p->n_cubins > 1 ? p->image_of[i] : 0], str, null};
			entries[pkg_entry_index(p, i, f)] = LLVMConstNamedStruct(h->lazy_kernel, e, 3);
		}
	LLVMValueRef table = LLVMConstArray2(h->lazy_kernel, entries, (uint64_t)n);
	h->kernels = LLVMAddGlobal(m->mod, LLVMTypeOf(table), "glc.kernels");
	LLVMSetInitializer(h->kernels, table);
	LLVMSetLinkage(h->kernels, LLVMInternalLinkage);
	LLVMSetAlignment(h->kernels, 8);

	LLVMTypeRef get_args[] = {m->ptr, m->ptr};
	h->get_t = LLVMFunctionType(m->i32, get_args, 2, false);
	h->get = LLVMAddFunction(m->mod, "glrt_lazy_kernel_get", h->get_t);
	LLVMTypeRef launch_args[] = {m->ptr, m->ptr, m->ptr, m->ptr, m->i32, m->ptr, m->ptr};
	h->launch_t = LLVMFunctionType(m->i32, launch_args, 7, false);
	h->launch = LLVMAddFunction(m->mod, "glrt_launch", h->launch_t);
	LLVMTypeRef scratch_args[] = {m->ptr, m->ptr, m->ptr, m->ptr, m->i32, m->ptr, m->ptr,
	                              m->i64, m->ptr};
	h->launch_scratch_t = LLVMFunctionType(m->i32, scratch_args, 9, false);
	h->invalid_t = LLVMFunctionType(m->i32, &m->ptr, 1, false);
	h->invalid = LLVMAddFunction(m->mod, "glrt_invalid_argument", h->invalid_t);
}

/* The host type of a launcher parameter (what pkg_param_ctype names). */
static LLVMTypeRef
host_type(HostModule *m, const CgParam *p)
{
	if (p->kind == CG_PARAM_PTR)
		return m->i64;
	if (p->kind == CG_PARAM_TENSOR_MAP)
		return m->ptr;
	switch (p->dtype) {
	case DT_I1: case DT_I8: case DT_U8: case DT_F8E4M3: case DT_F8E5M2: return m->i8;
	case DT_I16: case DT_U16: case DT_F16: case DT_BF16: return m->i16;
	case DT_I32: case DT_U32: return m->i32;
	case DT_I64: case DT_U64: return m->i64;
	case DT_F32: return m->f32;
	case DT_F64: return m->f64;
	case DT_VOID: case DT_COUNT: break;
	}
	return m->void_t;
}

/* if (fail) return status; */
static void
return_if(Host *h, LLVMValueRef fn, LLVMValueRef fail, LLVMValueRef status)
{
	HostModule *m = &h->m;
	LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(m->ctx, fn, "invalid");
	LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(m->ctx, fn, "ok");
	LLVMBuildCondBr(m->b, fail, bad, next);
	LLVMPositionBuilderAtEnd(m->b, bad);
	LLVMBuildRet(m->b, status);
	LLVMPositionBuilderAtEnd(m->b, next);
}

/* if (fail) return glrt_invalid_argument("<pkg_arg_error's message>"), or
 * pkg_grid_error's when q is NULL. */
static void
reject_if(Host *h, LLVMValueRef fn, LLVMValueRef fail, const CgKernelSig *k, const CgParam *q,
          PkgArgCheck check)
{
	HostModule *m = &h->m;
	LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(m->ctx, fn, "invalid");
	LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(m->ctx, fn, "ok");
	LLVMBuildCondBr(m->b, fail, bad, next);
	LLVMPositionBuilderAtEnd(m->b, bad);
	buf_clear(&h->text);
	if (q)
		pkg_arg_error(k, q, check, &h->text);
	else
		pkg_grid_error(k, &h->text);
	LLVMValueRef msg = bytes_global(h, "glc.why", (CgBlob){(const unsigned char *)h->text.s,
	                                h->text.len}, true);
	LLVMSetAlignment(msg, 1);
	LLVMBuildRet(m->b, LLVMBuildCall2(m->b, h->invalid_t, h->invalid, &msg, 1, ""));
	LLVMPositionBuilderAtEnd(m->b, next);
}

/* i1: v % q->divisibility == 0 (signed remainder for signed scalars). */
static LLVMValueRef
divisible(Host *h, const CgParam *q, LLVMValueRef v)
{
	HostModule *m = &h->m;
	LLVMValueRef d = LLVMConstInt(LLVMTypeOf(v), q->divisibility, 0);
	LLVMValueRef r = ir_dtype_is_signed(q->dtype) && q->kind == CG_PARAM_SCALAR
	                         ? LLVMBuildSRem(m->b, v, d, "")
	                         : LLVMBuildURem(m->b, v, d, "");
	return LLVMBuildICmp(m->b, LLVMIntEQ, r, LLVMConstInt(LLVMTypeOf(v), 0, 0), "");
}

/* &glc.kernels[e]. */
static LLVMValueRef
table_entry(Host *h, int e)
{
	HostModule *m = &h->m;
	LLVMValueRef idx[] = {LLVMConstInt(m->i64, 0, 0), LLVMConstInt(m->i64, (uint64_t)e, 0)};
	return LLVMConstInBoundsGEP2(LLVMGlobalGetValueType(h->kernels), h->kernels, idx, 2);
}

/* Extent q of k, read from the glrt_tensor_map `map` (see launcher.c's
 * extents()): fails the launch when the map's recorded rank is not the
 * descriptor's (checked at dim 0) or the extent does not fit an i32. */
static LLVMValueRef
map_extent(Host *h, LLVMValueRef fn, LLVMValueRef map, const CgKernelSig *k, const CgParam *q)
{
	HostModule *m = &h->m;
	if (q->map_dim == 0) {
		LLVMValueRef at = LLVMBuildInBoundsGEP2(m->b, m->i8, map,
		        (LLVMValueRef[]){LLVMConstInt(m->i64, MAP_RANK_OFFSET, 0)}, 1, "");
		LLVMValueRef r = LLVMBuildLoad2(m->b, m->i32, at, "rank");
		LLVMValueRef rank = LLVMConstInt(m->i32, (uint64_t)pkg_map_rank(k, q->map_param), 0);
		reject_if(h, fn, LLVMBuildICmp(m->b, LLVMIntNE, r, rank, ""), k, q, PKG_CHECK_RANK);
	}
	LLVMValueRef at = LLVMBuildInBoundsGEP2(m->b, m->i8, map,
	        (LLVMValueRef[]){LLVMConstInt(m->i64, MAP_SHAPE_OFFSET + 4 * (uint64_t)q->map_dim,
	                                      0)}, 1, "");
	LLVMValueRef v = LLVMBuildLoad2(m->b, m->i32, at, "extent");
	reject_if(h, fn, LLVMBuildICmp(m->b, LLVMIntSLT, v, LLVMConstInt(m->i32, 0, 0), ""), k, q,
	          PKG_CHECK_I32);
	return v;
}

/* Grid node e as an i64 (CgGridExpr's arithmetic) over the parameter
 * values vals, rejecting the launch where a division traps. */
static LLVMValueRef
grid_value(Host *h, LLVMValueRef fn, const CgKernelSig *k, const CgGridExpr *e,
           LLVMValueRef *vals)
{
	HostModule *m = &h->m;
	if (e->op == CG_GRID_CONST)
		return LLVMConstInt(m->i64, (uint64_t)e->value, 1);
	if (e->op == CG_GRID_PARAM) {
		const CgParam *q = &k->params[e->param];
		return ir_dtype_is_signed(q->dtype) ? LLVMBuildSExtOrBitCast(m->b, vals[e->param], m->i64, "")
		                           : LLVMBuildZExtOrBitCast(m->b, vals[e->param], m->i64, "");
	}
	LLVMValueRef a = grid_value(h, fn, k, e->lhs, vals);
	if (e->op == CG_GRID_NEG)
		return LLVMBuildNeg(m->b, a, "");
	LLVMValueRef b = grid_value(h, fn, k, e->rhs, vals);
	if ((e->op == CG_GRID_DIV || e->op == CG_GRID_REM) && pkg_grid_checked(e)) {
		LLVMValueRef zero = LLVMBuildICmp(m->b, LLVMIntEQ, b, LLVMConstInt(m->i64, 0, 0), "");
		LLVMValueRef m1 = LLVMBuildICmp(m->b, LLVMIntEQ, b, LLVMConstAllOnes(m->i64), "");
		LLVMValueRef min = LLVMBuildICmp(m->b, LLVMIntEQ, a,
		                                 LLVMConstInt(m->i64, (uint64_t)INT64_MIN, 0), "");
		LLVMValueRef fail = LLVMBuildOr(m->b, zero, LLVMBuildAnd(m->b, m1, min, ""), "");
		reject_if(h, fn, fail, k, NULL, PKG_CHECK_RULE);
	}
	switch (e->op) {
	case CG_GRID_ADD: return LLVMBuildAdd(m->b, a, b, "");
	case CG_GRID_SUB: return LLVMBuildSub(m->b, a, b, "");
	case CG_GRID_MUL: return LLVMBuildMul(m->b, a, b, "");
	case CG_GRID_DIV: return LLVMBuildSDiv(m->b, a, b, "");
	default: return LLVMBuildSRem(m->b, a, b, "");
	}
}

/* Stores the grid into `grid` ([3 x i32]): the caller's grid_x, grid_y,
 * grid_z, or the computed one, returning GLRT_SUCCESS when a dimension of
 * that is 0. */
static void
store_grid(Host *h, LLVMValueRef fn, const CgKernelSig *k, LLVMValueRef *vals,
           LLVMValueRef grid)
{
	HostModule *m = &h->m;
	LLVMTypeRef grid_t = LLVMArrayType2(m->i32, 3);
	LLVMValueRef empty = LLVMConstInt(m->i1, 0, 0);
	for (int i = 0; i < 3; i++) {
		LLVMValueRef v;
		if (!k->grid[0]) {
			v = LLVMGetParam(fn, (unsigned)i + 1);
		} else {
			v = LLVMBuildTrunc(m->b, grid_value(h, fn, k, k->grid[i], vals), m->i32, "");
			empty = LLVMBuildOr(m->b, empty, LLVMBuildICmp(m->b, LLVMIntEQ, v,
			                                                LLVMConstInt(m->i32, 0, 0), ""), "");
		}
		LLVMValueRef idx[] = {LLVMConstInt(m->i64, 0, 0), LLVMConstInt(m->i64, (uint64_t)i, 0)};
		LLVMBuildStore(m->b, v, LLVMBuildInBoundsGEP2(m->b, grid_t, grid, idx, 2, ""));
	}
	if (k->grid[0])
		return_if(h, fn, empty, LLVMConstInt(m->i32, 0, 0));
}

static void
launcher(Host *h, const PkgUnit *p, int index)
{
	HostModule *m = &h->m;
	const CgKernelSig *k = &p->kernels[index];
	int n = k->n_params, hn = 0;
	/* Host parameters: stream, grid (unless computed), then the kernel's
	 * parameters except the descriptor extents, which come from the tensor
	 * maps. */
	LLVMTypeRef *pts = arena_alloc(m->arena, (size_t)(n + 4) * sizeof *pts);
	pts[hn++] = m->ptr;
	while (!k->grid[0] && hn < 4)
		pts[hn++] = m->i32;
	int first = hn;
	for (int i = 0; i < n; i++)
		if (!k->params[i].map_param)
			pts[hn++] = host_type(m, &k->params[i]);
	LLVMValueRef fn = LLVMAddFunction(m->mod, k->name,
	                                  LLVMFunctionType(m->i32, pts, (unsigned)hn, false));
	LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
	                        LLVMCreateEnumAttribute(m->ctx, LLVMGetEnumAttributeKindForName(
	                                                "nounwind", 8), 0));
	LLVMPositionBuilderAtEnd(m->b, LLVMAppendBasicBlockInContext(m->ctx, fn, "entry"));

	LLVMTypeRef grid_t = LLVMArrayType2(m->i32, 3);
	LLVMValueRef grid = LLVMBuildAlloca(m->b, grid_t, "grid");
	LLVMValueRef kernel = LLVMBuildAlloca(m->b, m->ptr, "kernel");
	int n_args = n + (k->scratch_bytes ? 1 : 0);
	LLVMTypeRef args_t = LLVMArrayType2(m->ptr, (uint64_t)n_args);
	LLVMValueRef args = n_args ? LLVMBuildAlloca(m->b, args_t, "args")
	                           : LLVMConstPointerNull(m->ptr);
	LLVMValueRef scratch = k->scratch_bytes ? LLVMBuildAlloca(m->b, m->i64, "scratch") : NULL;
	LLVMValueRef *slots = arena_alloc(m->arena, (size_t)(n + 1) * sizeof *slots);
	LLVMValueRef *vals = arena_alloc(m->arena, (size_t)(n + 1) * sizeof *vals);
	for (int i = 0, hp = first; i < n; i++) {
		if (k->params[i].kind != CG_PARAM_TENSOR_MAP)
			slots[i] = LLVMBuildAlloca(m->b, host_type(m, &k->params[i]), k->params[i].name);
		if (!k->params[i].map_param)
			vals[i] = LLVMGetParam(fn, (unsigned)hp++);
	}

	/* The caller's arguments first (maps not NULL), then the extents the
	 * maps carry. */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++) {
			const CgParam *q = &k->params[i];
			if ((q->map_param != 0) != (pass == 1))
				continue;
			if (q->map_param)
				vals[i] = map_extent(h, fn, vals[q->map_param - 1], k, q);
			if (!pkg_param_checked(q))
				continue;
			LLVMValueRef v = vals[i];
			LLVMValueRef fail = q->kind == CG_PARAM_TENSOR_MAP
			                            ? LLVMBuildIsNull(m->b, v, "")
			                            : LLVMBuildNot(m->b, divisible(h, q, v), "");
			reject_if(h, fn, fail, k, q, PKG_CHECK_RULE);
		}

	store_grid(h, fn, k, vals, grid);
	LLVMValueRef entry = table_entry(h, pkg_entry_index(p, index, false));
	if (k->fast) {
		LLVMValueRef fast = LLVMConstInt(m->i1, 1, 0);
		for (int i = 0; i < n; i++)
			if (pkg_param_specialized(k, i))
				fast = LLVMBuildAnd(m->b, fast, divisible(h, &k->fast->params[i], vals[i]), "");
		entry = LLVMBuildSelect(m->b, fast, table_entry(h, pkg_entry_index(p, index, true)),
		                        entry, "entry");
	}
	LLVMValueRef get_args[] = {kernel, entry};
	LLVMValueRef st = LLVMBuildCall2(m->b, h->get_t, h->get, get_args, 2, "status");
	return_if(h, fn, LLVMBuildICmp(m->b, LLVMIntNE, st, LLVMConstInt(m->i32, 0, 0), ""), st);

	for (int i = 0; i < n; i++) {
		LLVMValueRef v = vals[i], slot = v;
		if (k->params[i].kind != CG_PARAM_TENSOR_MAP) {
			LLVMBuildStore(m->b, v, slots[i]);
			slot = slots[i];
		}
		LLVMValueRef idx[] = {LLVMConstInt(m->i64, 0, 0), LLVMConstInt(m->i64, (uint64_t)i, 0)};
		LLVMBuildStore(m->b, slot, LLVMBuildInBoundsGEP2(m->b, args_t, args, idx, 2, ""));
	}
	if (scratch) {
		LLVMValueRef idx[] = {LLVMConstInt(m->i64, 0, 0), LLVMConstInt(m->i64, (uint64_t)n, 0)};
		LLVMBuildStore(m->b, LLVMConstInt(m->i64, 0, 0), scratch);
		LLVMBuildStore(m->b, scratch, LLVMBuildInBoundsGEP2(m->b, args_t, args, idx, 2, ""));
	}
	int block[3] = {cg_block_threads(k), 1, 1};
	LLVMValueRef cluster = k->cluster[0] > 0 ? u32_array(h, "glc.cluster", k->cluster)
	                                         : LLVMConstPointerNull(m->ptr);
	LLVMValueRef launch_args[] = {
		LLVMBuildLoad2(m->b, m->ptr, kernel, ""), grid, u32_array(h, "glc.block", block),
		cluster, LLVMConstInt(m->i32, k->smem_bytes, 0), LLVMGetParam(fn, 0), args,
		LLVMConstInt(m->i64, k->scratch_bytes, 0), scratch,
	};
	if (scratch) {
		if (!h->launch_scratch)
			h->launch_scratch = LLVMAddFunction(m->mod, "glrt_launch_scratch",
			                                    h->launch_scratch_t);
		LLVMBuildRet(m->b, LLVMBuildCall2(m->b, h->launch_scratch_t, h->launch_scratch,
		                                  launch_args, 9, ""));
		return;
	}
	LLVMBuildRet(m->b, LLVMBuildCall2(m->b, h->launch_t, h->launch, launch_args, 7, ""));
}

/* A fresh module named `name` for target machine tm. */
static void
host_module_init(HostModule *m, LLVMTargetMachineRef tm, const char *triple, const char *name,
                 Arena *a)
{
	m->arena = a;
	m->ctx = LLVMContextCreate();
	m->mod = LLVMModuleCreateWithNameInContext(name, m->ctx);
	LLVMSetTarget(m->mod, triple);
	LLVMTargetDataRef data = LLVMCreateTargetDataLayout(tm);
	char *dl = LLVMCopyStringRepOfTargetData(data);
	LLVMSetDataLayout(m->mod, dl);
	LLVMDisposeMessage(dl);
	LLVMDisposeTargetData(data);
	m->b = LLVMCreateBuilderInContext(m->ctx);
	m->void_t = LLVMVoidTypeInContext(m->ctx);
	m->i1 = LLVMInt1TypeInContext(m->ctx);
	m->i8 = LLVMInt8TypeInContext(m->ctx);
	m->i16 = LLVMInt16TypeInContext(m->ctx);
	m->i32 = LLVMInt32TypeInContext(m->ctx);
	m->i64 = LLVMInt64TypeInContext(m->ctx);
	m->f32 = LLVMFloatTypeInContext(m->ctx);
	m->f64 = LLVMDoubleTypeInContext(m->ctx);
	m->ptr = LLVMPointerTypeInContext(m->ctx, 0);
}

static void
host_module_dispose(HostModule *m)
{
	LLVMDisposeBuilder(m->b);
	LLVMDisposeModule(m->mod);
	LLVMContextDispose(m->ctx);
}

/* An invalid host module is glc's bug, reported to d. */
static bool
host_module_verify(HostModule *m, Diags *d)
{
	char *msg = NULL;
	bool bad = LLVMVerifyModule(m->mod, LLVMReturnStatusAction, &msg);
	if (bad)
		diag_internal(d, (SrcSpan){0}, "glc built invalid LLVM IR:\n%s", msg ? msg : "");
	LLVMDisposeMessage(msg);
	return !bad;
}

bool
pkg_emit_object(const PkgUnit *p, Arena *a, Diags *d, CgBlob *obj)
{
	LLVMInitializeNativeTarget();
	LLVMInitializeNativeAsmPrinter();
	char *triple = LLVMGetDefaultTargetTriple();
	LLVMTargetRef target;
	char *msg = NULL;
	if (LLVMGetTargetFromTriple(triple, &target, &msg)) {
		diag_error(d, (SrcSpan){0}, "LLVM cannot emit host objects for %s: %s", triple,
		           msg ? msg : "");
		LLVMDisposeMessage(msg);
		LLVMDisposeMessage(triple);
		return false;
	}
	LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, triple, "generic", "",
	                                                  LLVMCodeGenLevelDefault, LLVMRelocPIC,
	                                                  LLVMCodeModelDefault);
	Host h = {0};
	host_module_init(&h.m, tm, triple, p->unit, a);
	images(&h, p);
	for (int i = 0; i < p->n_kernels; i++)
		launcher(&h, p, i);
	buf_free(&h.text);
	bool ok = host_module_verify(&h.m, d);
	LLVMMemoryBufferRef mb = NULL;
	if (ok && LLVMTargetMachineEmitToMemoryBuffer(tm, h.m.mod, LLVMObjectFile, &msg,
	                                              &mb)) {
		diag_internal(d, (SrcSpan){0}, "LLVM could not emit the object: %s",
		           msg ? msg : "");
		LLVMDisposeMessage(msg);
		ok = false;
	}
	if (ok) {
		size_t n = LLVMGetBufferSize(mb);
		unsigned char *data = arena_alloc(a, n + 1);
		memcpy(data, LLVMGetBufferStart(mb), n);
		*obj = (CgBlob){data, n};
		LLVMDisposeMemoryBuffer(mb);
	}
	host_module_dispose(&h.m);
	LLVMDisposeTargetMachine(tm);
	LLVMDisposeMessage(triple);
	return ok;
}
