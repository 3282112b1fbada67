/*
 * One LLVM module: creation with the target's triple and data layout, line
 * tables for -g, verification, the optimization pipeline, and emission of
 * textual IR and PTX.
 */
#include "codegen/llvm/llvm.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <string.h>

/* DICompileUnit::DebugDirectivesOnly, which LLVM-C's LLVMDWARFEmissionKind
 * does not name (its values are the C++ enum's; the C API casts). With it
 * the NVPTX backend emits .file/.loc but no DWARF sections and no ", debug"
 * on .target: line information like nvcc -lineinfo. Line tables or full
 * debug info would mark the PTX as a debug target, for which ptxas ignores
 * setmaxnreg and serializes WGMMA. */
enum { DEBUG_DIRECTIVES_ONLY = 3 };

static void
init_debug_info(CgModule *m, const Sources *src, uint32_t file)
{
	/* The path exactly as given on the command line and no directory, so
	 * the output does not depend on where glc runs. */
	const char *path = src_path(src, file);
	m->dib = LLVMCreateDIBuilder(m->mod);
	m->di_file = LLVMDIBuilderCreateFile(m->dib, path, strlen(path), "", 0);
	static const char producer[] = "glc";
	m->di_cu = LLVMDIBuilderCreateCompileUnit(
		m->dib, LLVMDWARFSourceLanguageC, m->di_file, producer, sizeof producer - 1,
		m->target->opt_level > 0, "", 0, 0, "", 0, (LLVMDWARFEmissionKind)DEBUG_DIRECTIVES_ONLY, 0,
		false, false, "", 0, "", 0);
	LLVMAddModuleFlag(m->mod, LLVMModuleFlagBehaviorWarning, "Debug Info Version",
	                  strlen("Debug Info Version"),
	                  LLVMValueAsMetadata(LLVMConstInt(m->i32, LLVMDebugMetadataVersion(), 0)));
}

void
cg_module_init(CgModule *m, CgTarget *t, const char *name, const Sources *src, uint32_t file,
               Arena *a, Diags *d)
{
	memset(m, 0, sizeof *m);
	m->target = t;
	m->arena = a;
	m->diags = d;
	m->ctx = LLVMContextCreate();
	m->mod = LLVMModuleCreateWithNameInContext(name, m->ctx);
	LLVMSetTarget(m->mod, t->triple);
	char *dl = LLVMCopyStringRepOfTargetData(t->data);
	LLVMSetDataLayout(m->mod, dl);
	LLVMDisposeMessage(dl);
	m->b = LLVMCreateBuilderInContext(m->ctx);
	m->void_t = LLVMVoidTypeInContext(m->ctx);
	m->i1 = LLVMInt1TypeInContext(m->ctx);
	m->i8 = LLVMInt8TypeInContext(m->ctx);
	m->i16 = LLVMInt16TypeInContext(m->ctx);
	m->i32 = LLVMInt32TypeInContext(m->ctx);
	m->i64 = LLVMInt64TypeInContext(m->ctx);
	m->f16 = LLVMHalfTypeInContext(m->ctx);
	m->bf16 = LLVMBFloatTypeInContext(m->ctx);
	m->f32 = LLVMFloatTypeInContext(m->ctx);
	m->f64 = LLVMDoubleTypeInContext(m->ctx);
	m->ptr = LLVMPointerTypeInContext(m->ctx, CG_AS_GENERIC);
	m->ptr_global = LLVMPointerTypeInContext(m->ctx, CG_AS_GLOBAL);
	m->ptr_shared = LLVMPointerTypeInContext(m->ctx, CG_AS_SHARED);
	m->src = src;
	if (t->debug_info && src && file)
		init_debug_info(m, src, file);
}

void
cg_module_dispose(CgModule *m)
{
	if (m->dib)
		LLVMDisposeDIBuilder(m->dib);
	if (m->b)
		LLVMDisposeBuilder(m->b);
	if (m->mod)
		LLVMDisposeModule(m->mod);
	if (m->ctx)
		LLVMContextDispose(m->ctx);
	memset(m, 0, sizeof *m);
}

void
cg_set_loc(CgModule *m, SrcSpan at)
{
	m->at = at;
	if (!m->dib || !m->di_sub || at.file == 0 || at.line == 0)
		return;
	LLVMMetadataRef loc = LLVMDIBuilderCreateDebugLocation(m->ctx, at.line, at.col,
	                                                       m->di_sub, NULL);
	LLVMSetCurrentDebugLocation2(m->b, loc);
}

bool
cg_module_verify(CgModule *m)
{
	if (m->dib)
		LLVMDIBuilderFinalize(m->dib);
	char *msg = NULL;
	if (LLVMVerifyModule(m->mod, LLVMReturnStatusAction, &msg)) {
		diag_internal(m->diags, (SrcSpan){0}, "glc built invalid LLVM IR:\n%s",
		           msg ? msg : "");
		LLVMDisposeMessage(msg);
		return false;
	}
	LLVMDisposeMessage(msg);
	return true;
}

bool
cg_module_optimize(CgModule *m)
{
	static const char *const pipelines[] = {
		"default<O0>", "default<O1>", "default<O2>", "default<O3>",
	};
	LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
	LLVMErrorRef err = LLVMRunPasses(m->mod, pipelines[m->target->opt_level], m->target->tm,
	                                 opts);
	LLVMDisposePassBuilderOptions(opts);
	if (err) {
		char *msg = LLVMGetErrorMessage(err);
		diag_internal(m->diags, (SrcSpan){0}, "LLVM's optimizer failed: %s", msg);
		LLVMDisposeErrorMessage(msg);
		return false;
	}
	return true;
}

CgBlob
cg_module_ir(CgModule *m)
{
	char *s = LLVMPrintModuleToString(m->mod);
	size_t n = strlen(s);
	char *copy = arena_strndup(m->arena, s, n);
	LLVMDisposeMessage(s);
	return (CgBlob){(const unsigned char *)copy, n};
}

bool
cg_module_ptx(CgModule *m, CgBlob *ptx)
{
	LLVMMemoryBufferRef mb = NULL;
	char *msg = NULL;
	LLVMTargetMachineRef tm = cg_target_tm(m->target, m->min_ptx, m->diags);
	if (!tm)
		return false;
	if (LLVMTargetMachineEmitToMemoryBuffer(tm, m->mod, LLVMAssemblyFile, &msg, &mb)) {
		diag_internal(m->diags, (SrcSpan){0}, "the NVPTX backend failed: %s",
		           msg ? msg : "");
		LLVMDisposeMessage(msg);
		return false;
	}
	size_t n = LLVMGetBufferSize(mb);
	char *copy = arena_strndup(m->arena, LLVMGetBufferStart(mb), n);
	LLVMDisposeMemoryBuffer(mb);
	*ptx = (CgBlob){(const unsigned char *)copy, strlen(copy)};
	cg_ptx_rewrite_negations(m->arena, ptx);
	return true;
}
