/*
 * codegen/llvm: the LLVM base of code generation, which knows no IR value:
 * the target machine, the module under construction (context, builder,
 * cached types, debug info), its verification, optimization and PTX (with
 * the negation rewrite), dtypes as LLVM types, and a kernel's declaration.
 * Only codegen (and its unit tests) include codegen's headers and llvm-c;
 * package builds its host object on llvm-c alone.
 */
#ifndef CG_LLVM_H
#define CG_LLVM_H

#include "codegen/codegen.h"

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

/* The PTX versions past the target's own that a module may need. */
enum { CG_LATER_PTX = 2 };

/* Address spaces of NVPTX. */
enum { CG_AS_GENERIC = 0, CG_AS_GLOBAL = 1, CG_AS_SHARED = 3, CG_AS_CLUSTER = 7 };

struct CgTarget {
	LLVMTargetMachineRef tm;
	/* For modules with instructions newer than tm's PTX version (see
	 * cg_target_tm): made on first use. */
	LLVMTargetMachineRef tm_later[CG_LATER_PTX];
	LLVMTargetRef llvm_target;
	LLVMCodeGenOptLevel level;
	LLVMTargetDataRef data;
	const char *arch;
	const char *triple;
	int opt_level;
	bool debug_info;
	bool asserts;
	bool no_fp_contract;
	Limits limits;
};

/* One LLVM module under construction. */
typedef struct CgModule {
	CgTarget *target;
	Arena *arena;
	Diags *diags;
	LLVMContextRef ctx;
	LLVMModuleRef mod;
	LLVMBuilderRef b;
	LLVMTypeRef void_t, i1, i8, i16, i32, i64, f16, bf16, f32, f64;
	LLVMTypeRef ptr, ptr_global, ptr_shared;
	/* -g: line tables (all NULL without it) */
	const Sources *src;
	LLVMDIBuilderRef dib;
	LLVMMetadataRef di_file, di_cu, di_sub;
	LLVMValueRef fn;       /* the kernel being built */
	LLVMValueRef lane, warp;  /* its lane and warp ids, built once (nvvm.c) */
	SrcSpan at;            /* the operation being lowered (internal errors) */
	/* cg_barrier inside a warp-specialize partition: named barrier bar_id
	 * over bar_threads threads (0: bar.sync 0 for the whole CTA) */
	int bar_id, bar_threads;
	const char *libdevice;  /* the libdevice file to link (libdevice.c), or NULL */
	/* The PTX ISA version the module's inline PTX needs (84 for 8.4), 0
	 * for the target's own */
	int min_ptx;
	/* The kernels compiled without floating-point contraction
	 * (cg_module_contract leaves them as they are). */
	VEC(LLVMValueRef) strict_fns;
} CgModule;

/* The target machine of t for a module needing PTX ISA version ptx (0 or
 * 80: t->tm; up to 84: PTX 8.4; up to 87: PTX 8.7; each made once); NULL
 * after an error in d. */
LLVMTargetMachineRef cg_target_tm(CgTarget *t, int ptx, Diags *d);

/* A fresh module named `name` with the target's triple and data layout. With
 * t->debug_info, line tables refer to source `file` of src. */
void cg_module_init(CgModule *m, CgTarget *t, const char *name, const Sources *src,
                    uint32_t file, Arena *a, Diags *d);

/* Disposes the builder, debug builder, module and context. */
void cg_module_dispose(CgModule *m);

/* Finalizes debug info and verifies the module; an invalid module is an
 * internal error reported to m->diags. */
bool cg_module_verify(CgModule *m);

/* Runs default<On> for the target's opt level. */
bool cg_module_optimize(CgModule *m);

/* Floating-point contraction as Triton's enable_fp_fusion (contract.c):
 * marks every fadd, fsub and fmul of the module's functions, except those
 * of m->strict_fns, contractible. Run after cg_module_optimize. */
void cg_module_contract(CgModule *m);

/* The module's textual IR into a. */
CgBlob cg_module_ir(CgModule *m);

/* PTX for the module through the target machine, NUL-terminated, in a,
 * with its negations in the form cg_ptx_rewrite_negations gives them. */
bool cg_module_ptx(CgModule *m, CgBlob *ptx);

/* Replaces every `neg.s32 D, S;` and `neg.s16 D, S;` statement of the
 * NUL-terminated PTX (guarded or not, inline asm included) by `not.bN D, S;`
 * then `add.sN D, D, 1;`, the same value, which ptxas 13.0 does not
 * miscompile inside min/max chains (ptx_negate.c). The new text is in a;
 * PTX without such a statement is left as it is. */
void cg_ptx_rewrite_negations(Arena *a, CgBlob *ptx);

/* Sets the source of the instructions built next: m->at for internal
 * errors and, with -g, their debug location (none for a span outside any
 * file). */
void cg_set_loc(CgModule *m, SrcSpan at);

/* The LLVM type of a scalar dtype (f8 types are i8 bit patterns). */
LLVMTypeRef cg_dtype_type(CgModule *m, TDType t);

/* Whether dtype t is an LLVM floating-point type: f16, bf16, f32 and f64
 * (f8 types are i8 bit patterns). */
bool cg_dtype_is_fp(TDType t);

/* Declares sig's kernel: ptx_kernel calling convention, launch attributes,
 * global pointers (with the alignment assumed), scalars (with assumed
 * divisors) and grid-constant tensor maps; creates its entry block, positions
 * the builder there and returns the function (also m->fn). */
LLVMValueRef cg_kernel_begin(CgModule *m, const CgKernelSig *sig);

#endif
