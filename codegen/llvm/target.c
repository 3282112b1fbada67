/*
 * The NVPTX target machine. LLVM turns a target/PTX-version mismatch into a
 * fatal error that aborts the process, so the arch is checked against a
 * table of pairs known to work before any target machine exists.
 */
#include "codegen/llvm/llvm.h"

#include <stdio.h>
#include <string.h>

static const char TRIPLE[] = "nvptx64-nvidia-cuda";

/* Architectures glc targets, with the PTX ISA they are emitted for. PTX 8.0
 * is the first with sm_90a and what a CUDA 12.0 driver JITs, so the PTX
 * fallback loads on every Hopper driver. A module that needs a later ISA
 * (WGMMA on mixed signed and unsigned 8-bit integers: 8.4; tensor maps
 * built in the kernel: 8.7, see lower_hopper.c) is emitted for the first
 * of LATER that has it; its PTX fallback needs a driver that JITs it. */
static const struct {
	const char *arch, *features;
} ARCHES[] = {
	{"sm_90a", "+ptx80"},
};
static const int LATER[CG_LATER_PTX] = {84, 87};

/* LLVM's fatal errors (report_fatal_error) end the process; this makes them
 * an internal compiler error through support's fatal hook. */
static void
on_llvm_fatal(const char *reason)
{
	fatal_error(FATAL_INTERNAL, reason);
}

CgTarget *
cg_target_new(const CgOptions *o, Diags *d)
{
	const char *features = NULL;
	for (size_t i = 0; i < sizeof ARCHES / sizeof ARCHES[0]; i++)
		if (o->arch && strcmp(o->arch, ARCHES[i].arch) == 0)
			features = ARCHES[i].features;
	if (!features) {
		Diag *e = diag_error(d, (SrcSpan){0}, "unsupported target architecture '%s'",
		                     o->arch ? o->arch : "");
		diag_note(d, e, (SrcSpan){0}, "glc generates code for sm_90a (Hopper) only");
		return NULL;
	}
	if (o->opt_level < 0 || o->opt_level > 3) {
		diag_error(d, (SrcSpan){0}, "optimization level -O%d is not one of -O0..-O3",
		           o->opt_level);
		return NULL;
	}
	LLVMInitializeNVPTXTargetInfo();
	LLVMInitializeNVPTXTarget();
	LLVMInitializeNVPTXTargetMC();
	LLVMInitializeNVPTXAsmPrinter();
	LLVMInstallFatalErrorHandler(on_llvm_fatal);

	LLVMTargetRef target;
	char *msg = NULL;
	if (LLVMGetTargetFromTriple(TRIPLE, &target, &msg)) {
		diag_error(d, (SrcSpan){0}, "LLVM has no NVPTX backend: %s", msg ? msg : "");
		LLVMDisposeMessage(msg);
		return NULL;
	}
	static const LLVMCodeGenOptLevel levels[] = {
		LLVMCodeGenLevelNone, LLVMCodeGenLevelLess, LLVMCodeGenLevelDefault,
		LLVMCodeGenLevelAggressive,
	};
	CgTarget *t = arena_alloc(d->arena, sizeof *t);
	t->tm = LLVMCreateTargetMachine(target, TRIPLE, o->arch, features,
	                                levels[o->opt_level], LLVMRelocDefault,
	                                LLVMCodeModelDefault);
	if (!t->tm) {
		diag_error(d, (SrcSpan){0}, "LLVM could not create a target machine for %s",
		           o->arch);
		return NULL;
	}
	t->data = LLVMCreateTargetDataLayout(t->tm);
	t->llvm_target = target;
	t->level = levels[o->opt_level];
	t->arch = o->arch;
	t->triple = TRIPLE;
	t->opt_level = o->opt_level;
	t->debug_info = o->debug_info;
	t->asserts = o->asserts;
	t->no_fp_contract = o->no_fp_contract;
	t->limits = o->limits ? *o->limits : limits_default();
	return t;
}

void
cg_target_free(CgTarget *t)
{
	if (!t)
		return;
	LLVMDisposeTargetData(t->data);
	LLVMDisposeTargetMachine(t->tm);
	for (int i = 0; i < CG_LATER_PTX; i++)
		if (t->tm_later[i])
			LLVMDisposeTargetMachine(t->tm_later[i]);
}

LLVMTargetMachineRef
cg_target_tm(CgTarget *t, int ptx, Diags *d)
{
	if (ptx <= 80)
		return t->tm;
	int i = 0;
	while (i + 1 < CG_LATER_PTX && LATER[i] < ptx)
		i++;
	if (!t->tm_later[i]) {
		char features[16];
		snprintf(features, sizeof features, "+ptx%d", LATER[i]);
		t->tm_later[i] = LLVMCreateTargetMachine(t->llvm_target, TRIPLE, t->arch, features,
		                                         t->level, LLVMRelocDefault,
		                                         LLVMCodeModelDefault);
	}
	if (!t->tm_later[i])
		diag_error(d, (SrcSpan){0}, "LLVM could not create a target machine for %s with "
		           "PTX %d.%d", t->arch, LATER[i] / 10, LATER[i] % 10);
	return t->tm_later[i];
}

const char *
cg_llvm_version(void)
{
	static char text[32];
	unsigned major, minor, patch;
	LLVMGetVersion(&major, &minor, &patch);
	snprintf(text, sizeof text, "%u.%u.%u", major, minor, patch);
	return text;
}

const char *
cg_target_arch(const CgTarget *t)
{
	return t->arch;
}
