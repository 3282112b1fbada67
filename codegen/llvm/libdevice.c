/*
 * CUDA's libdevice (libdevice.10.bc, the math library nvcc and Triton link)
 * for the functions PTX has no instruction for: sin, cos and erf, and f64
 * exp and log. Calls are declared while lowering; before optimizing, the
 * bitcode is linked in, every function but the kernels is made internal
 * and the unused ones are dropped by the optimizer. NVVM's reflection
 * (__CUDA_FTZ, __CUDA_ARCH) is resolved by LLVM's NVPTX pipeline.
 *
 * The file is $GLC_LIBDEVICE, else nvvm/libdevice/libdevice.10.bc under
 * $CUDA_HOME, else under /usr/local/cuda.
 */
#include "codegen/llvm/nvvm.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char LIBDEVICE[] = "nvvm/libdevice/libdevice.10.bc";

/* The libdevice file to link, or NULL when none is readable. */
static const char *
find_libdevice(Arena *a)
{
	const char *env = getenv("GLC_LIBDEVICE");
	if (env && *env)
		return access(env, R_OK) == 0 ? env : NULL;
	const char *home = getenv("CUDA_HOME");
	const char *p = arena_printf(a, "%s/%s", home && *home ? home : "/usr/local/cuda",
	                             LIBDEVICE);
	return access(p, R_OK) == 0 ? p : NULL;
}

LLVMValueRef
cg_libdevice_calln(CgModule *m, const char *name, LLVMTypeRef ret, LLVMValueRef *args, int n)
{
	if (!m->libdevice) {
		m->libdevice = find_libdevice(m->arena);
		if (!m->libdevice) {
			diag_error(m->diags, m->at, "%s needs CUDA's libdevice (%s under $CUDA_HOME or "
			           "/usr/local/cuda); set GLC_LIBDEVICE to its path", name, LIBDEVICE);
			return LLVMGetPoison(ret);
		}
	}
	LLVMTypeRef ts[4];
	for (int i = 0; i < n && i < 4; i++)
		ts[i] = LLVMTypeOf(args[i]);
	LLVMTypeRef fty = LLVMFunctionType(ret, ts, (unsigned)n, false);
	LLVMValueRef fn = LLVMGetNamedFunction(m->mod, name);
	if (!fn)
		fn = LLVMAddFunction(m->mod, name, fty);
	return LLVMBuildCall2(m->b, fty, fn, args, (unsigned)n, "");
}

LLVMValueRef
cg_libdevice_call(CgModule *m, const char *name, LLVMValueRef x)
{
	return cg_libdevice_calln(m, name, LLVMTypeOf(x), &x, 1);
}

bool
cg_link_libdevice(CgModule *m)
{
	if (!m->libdevice)
		return true;
	LLVMMemoryBufferRef buf = NULL;
	LLVMModuleRef lib = NULL;
	char *msg = NULL;
	if (LLVMCreateMemoryBufferWithContentsOfFile(m->libdevice, &buf, &msg) ||
	    LLVMParseBitcodeInContext2(m->ctx, buf, &lib)) {
		diag_error(m->diags, (SrcSpan){0}, "cannot read libdevice %s%s%s", m->libdevice,
		           msg ? ": " : "", msg ? msg : "");
		LLVMDisposeMessage(msg);
		if (buf)
			LLVMDisposeMemoryBuffer(buf);
		return false;
	}
	LLVMDisposeMemoryBuffer(buf);
	/* Same target as the kernels: no mismatch warning from the linker. */
	LLVMSetTarget(lib, LLVMGetTarget(m->mod));
	LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(m->mod));
	if (LLVMLinkModules2(m->mod, lib)) {
		diag_error(m->diags, (SrcSpan){0}, "internal error: linking libdevice %s failed",
		           m->libdevice);
		return false;
	}
	for (LLVMValueRef f = LLVMGetFirstFunction(m->mod); f; f = LLVMGetNextFunction(f))
		if (!LLVMIsDeclaration(f) && LLVMGetFunctionCallConv(f) != LLVMPTXKernelCallConv)
			LLVMSetLinkage(f, LLVMInternalLinkage);
	/* Drop what nothing calls now, so the optimizer does not work on it. */
	for (bool changed = true; changed;) {
		changed = false;
		for (LLVMValueRef f = LLVMGetFirstFunction(m->mod), next; f; f = next) {
			next = LLVMGetNextFunction(f);
			if (LLVMGetLinkage(f) == LLVMInternalLinkage && !LLVMGetFirstUse(f)) {
				LLVMDeleteFunction(f);
				changed = true;
			}
		}
	}
	return true;
}
