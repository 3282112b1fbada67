/*
 * Kernel scaffolding: the LLVM function of an entry point. Kernels are marked
 * with the ptx_kernel calling convention (nvvm.annotations metadata added
 * through the C API is not upgraded and would give a .func); launch bounds
 * are string attributes; tensor maps are byval grid constants so TMA sees
 * their parameter-space address instead of a local copy. A kernel that
 * builds tensor maps takes its global scratch buffer last.
 */
#include "codegen/llvm/nvvm.h"

#include <stdio.h>
#include <string.h>

static void
fn_attr(CgModule *m, LLVMValueRef fn, const char *key, const char *val)
{
	LLVMAttributeRef a = LLVMCreateStringAttribute(m->ctx, key, (unsigned)strlen(key), val,
	                                               (unsigned)strlen(val));
	LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, a);
}

static void
enum_attr(CgModule *m, LLVMValueRef fn, unsigned idx, const char *name, uint64_t val)
{
	unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
	LLVMAddAttributeAtIndex(fn, idx, LLVMCreateEnumAttribute(m->ctx, kind, val));
}

static LLVMTypeRef
param_type(CgModule *m, const CgParam *p)
{
	switch (p->kind) {
	case CG_PARAM_PTR: return m->ptr_global;
	case CG_PARAM_TENSOR_MAP: return m->ptr;
	case CG_PARAM_SCALAR: break;
	}
	/* i1 travels as a byte, like C's bool; nonzero is true (lower/lower.c). */
	return p->dtype == DT_I1 ? m->i8 : cg_dtype_type(m, p->dtype);
}

static void
attach_subprogram(CgModule *m, LLVMValueRef fn, const CgKernelSig *sig)
{
	if (!m->dib) {
		m->di_sub = NULL;
		return;
	}
	LLVMMetadataRef ty = LLVMDIBuilderCreateSubroutineType(m->dib, m->di_file, NULL, 0,
	                                                       LLVMDIFlagZero);
	size_t n = strlen(sig->name);
	m->di_sub = LLVMDIBuilderCreateFunction(m->dib, m->di_file, sig->name, n, sig->name, n,
	                                        m->di_file, sig->at.line, ty, false, true,
	                                        sig->at.line, LLVMDIFlagZero,
	                                        m->target->opt_level > 0);
	LLVMSetSubprogram(fn, m->di_sub);
}

/* Tells LLVM that scalar parameter v is a multiple of `div` (a power of
 * two): assume((v & (div - 1)) == 0). */
static void
assume_divisible(CgModule *m, LLVMValueRef v, uint32_t div)
{
	LLVMTypeRef t = LLVMTypeOf(v);
	LLVMValueRef low = LLVMBuildAnd(m->b, v, LLVMConstInt(t, div - 1, 0), "");
	LLVMValueRef ok = LLVMBuildICmp(m->b, LLVMIntEQ, low, LLVMConstInt(t, 0, 0), "");
	cg_intrinsic(m, "llvm.assume", m->void_t, NULL, 0, &ok, 1);
}

LLVMValueRef
cg_kernel_begin(CgModule *m, const CgKernelSig *sig)
{
	LLVMTypeRef *pts = arena_alloc(m->arena, (size_t)(sig->n_params + 1) * sizeof *pts);
	for (int i = 0; i < sig->n_params; i++)
		pts[i] = param_type(m, &sig->params[i]);
	int n = sig->n_params;
	if (sig->scratch_bytes)
		pts[n++] = m->ptr_global;
	LLVMTypeRef fty = LLVMFunctionType(m->void_t, pts, (unsigned)n, false);
	LLVMValueRef fn = LLVMAddFunction(m->mod, sig->name, fty);
	LLVMSetFunctionCallConv(fn, LLVMPTXKernelCallConv);
	m->fn = fn;
	m->lane = m->warp = NULL;

	char buf[64];
	snprintf(buf, sizeof buf, "%d", cg_block_threads(sig));
	fn_attr(m, fn, "nvvm.maxntid", buf);
	if (sig->minctasm > 0) {
		snprintf(buf, sizeof buf, "%d", sig->minctasm);
		fn_attr(m, fn, "nvvm.minctasm", buf);
	}
	if (sig->maxnreg > 0) {
		snprintf(buf, sizeof buf, "%d", sig->maxnreg);
		fn_attr(m, fn, "nvvm.maxnreg", buf);
	}
	if (sig->cluster[0] > 0) {
		snprintf(buf, sizeof buf, "%d,%d,%d", sig->cluster[0],
		         sig->cluster[1] > 0 ? sig->cluster[1] : 1,
		         sig->cluster[2] > 0 ? sig->cluster[2] : 1);
		fn_attr(m, fn, "nvvm.cluster_dim", buf);
	}

	for (int i = 0; i < sig->n_params; i++) {
		const CgParam *p = &sig->params[i];
		LLVMValueRef v = LLVMGetParam(fn, (unsigned)i);
		LLVMSetValueName2(v, p->name, strlen(p->name));
		unsigned idx = (unsigned)i + 1;
		if (p->kind == CG_PARAM_PTR && p->divisibility > 1) {
			enum_attr(m, fn, idx, "align", p->divisibility);
		} else if (p->kind == CG_PARAM_TENSOR_MAP) {
			unsigned kind = LLVMGetEnumAttributeKindForName("byval", 5);
			LLVMTypeRef map = LLVMArrayType2(m->i8, 128);
			LLVMAddAttributeAtIndex(fn, idx, LLVMCreateTypeAttribute(m->ctx, kind, map));
			enum_attr(m, fn, idx, "align", 64);
			LLVMAddAttributeAtIndex(fn, idx,
			                        LLVMCreateStringAttribute(m->ctx, "nvvm.grid_constant",
			                                                  18, "", 0));
		}
	}

	if (sig->scratch_bytes) {   /* tma.make_tensor_descriptor's tensor maps */
		LLVMValueRef v = LLVMGetParam(fn, (unsigned)sig->n_params);
		LLVMSetValueName2(v, "global_scratch", 14);
		enum_attr(m, fn, (unsigned)sig->n_params + 1, "align", 128);
	}
	attach_subprogram(m, fn, sig);
	LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(m->ctx, fn, "entry");
	LLVMPositionBuilderAtEnd(m->b, entry);
	cg_set_loc(m, sig->at);
	for (int i = 0; i < sig->n_params; i++) {
		const CgParam *p = &sig->params[i];
		if (p->kind == CG_PARAM_SCALAR && p->divisibility > 1 && p->dtype != DT_I1 &&
		    LLVMGetTypeKind(param_type(m, p)) == LLVMIntegerTypeKind)
			assume_divisible(m, LLVMGetParam(fn, (unsigned)i), p->divisibility);
	}
	return fn;
}

int
cg_block_threads(const CgKernelSig *sig)
{
	return 32 * (sig->num_warps > 0 ? sig->num_warps : 1);
}
