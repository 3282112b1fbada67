/*
 * codegen: the typed IR, after the passes, to LLVM IR through the LLVM-C
 * API and to PTX through LLVM's NVPTX backend; the signatures of the
 * kernels it builds, which host packaging (package/) wraps in launchers.
 * This header exposes no LLVM type, so the driver and package include it
 * without llvm-c; the IR builders live in codegen's internal headers.
 *
 * Every failure (unsupported target) is a diagnostic and a false/NULL
 * return. Failures that mean glc itself is wrong (invalid IR, an operation
 * sema approved that lowering cannot handle, a pass result missing) are
 * internal compiler errors (diag_internal). LLVM's fatal errors
 * are prevented by validating first; one that still happens goes to
 * fatal_error(FATAL_INTERNAL, ...).
 */
#ifndef CODEGEN_H
#define CODEGEN_H

#include "ir/ir.h"
#include "support/support.h"

/* -- Kernel signatures ------------------------------------------------------ */

typedef enum CgParamKind {
	CG_PARAM_PTR,        /* pointer to dtype in the global address space */
	CG_PARAM_SCALAR,     /* a scalar of dtype */
	CG_PARAM_TENSOR_MAP, /* a 128-byte CUtensorMap, by value, grid constant */
} CgParamKind;

typedef struct CgParam {
	const char *name;
	CgParamKind kind;
	TDType dtype;          /* pointee, scalar type, or tensor-map element */
	/* What the kernel may assume, checked by the launcher before launching:
	 * for a pointer, its byte alignment; for an integer scalar, a divisor of
	 * its value. 0 or 1: nothing assumed. A power of two. */
	uint32_t divisibility;
	/* A tensor descriptor's global extent, which the kernel takes as an i32
	 * after its own parameters: map_param > 0 says the launcher reads it
	 * from shape[map_dim] of the glrt_tensor_map passed as parameter
	 * map_param - 1 instead of taking it as an argument. 0: an ordinary
	 * parameter. */
	int map_param, map_dim;
} CgParam;

/* A launch-grid dimension computed by the launcher from its arguments
 * (compile.py's --grid), as a tree. Arithmetic is on 64-bit two's
 * complement integers: a parameter is sign- or zero-extended as its dtype is
 * signed or not (i1 is 0 or 1), + - * and negation wrap, / and % truncate
 * toward zero as in C. A divisor of 0, or -1 dividing INT64_MIN, makes the
 * launcher return GLRT_ERROR_INVALID_ARGUMENT; the result is converted to
 * unsigned as C converts (modulo 2^32). */
typedef enum CgGridOp {
	CG_GRID_CONST,         /* value */
	CG_GRID_PARAM,         /* the integer scalar CgKernelSig.params[param] */
	CG_GRID_NEG,           /* -lhs */
	CG_GRID_ADD, CG_GRID_SUB, CG_GRID_MUL, CG_GRID_DIV, CG_GRID_REM,   /* lhs op rhs */
} CgGridOp;

typedef struct CgGridExpr {
	CgGridOp op;
	int64_t value;
	int param;
	const struct CgGridExpr *lhs, *rhs;
} CgGridExpr;

/* One entry point: its LLVM function and its host launcher follow this. */
typedef struct CgKernelSig {
	const char *name;      /* the PTX entry and the launcher's C name */
	const CgParam *params;
	int n_params;
	int num_warps;         /* threads per block = 32 * num_warps (maxntid) */
	int minctasm;          /* nvvm.minctasm, 0: none */
	int maxnreg;           /* nvvm.maxnreg, 0: none */
	int cluster[3];        /* cluster dims; all 0: no cluster */
	uint32_t smem_bytes;   /* dynamic shared memory per block */
	/* Global scratch bytes per program (the tensor maps that
	 * tma.make_tensor_descriptor builds): when not 0, the kernel takes a
	 * 128-byte aligned global pointer to (grid_x * grid_y * grid_z) *
	 * scratch_bytes bytes after all its other parameters, which the
	 * launcher has libglrt allocate for the launch (glrt_launch_scratch). */
	uint32_t scratch_bytes;
	SrcSpan at;            /* the kernel's definition (debug info, errors) */
	/* The specialized variant (NULL: none): the same kernel compiled
	 * assuming its params' divisibility (16-byte aligned pointers, integers
	 * that are multiples of 16). The launcher launches it when the
	 * arguments meet every one of them, this generic entry otherwise. */
	const struct CgKernelSig *fast;
	/* The grid's x, y and z, computed by the launcher, which then takes no
	 * grid arguments and launches nothing (returning GLRT_SUCCESS) when one
	 * is 0. All NULL: the caller passes grid_x, grid_y, grid_z. */
	const CgGridExpr *grid[3];
} CgKernelSig;

/* Threads per block of a signature (the kernel's maxntid, the launcher's
 * block size). */
int cg_block_threads(const CgKernelSig *sig);

/* Bytes owned by an arena (PTX text carries a NUL after len bytes). */
typedef struct CgBlob {
	const unsigned char *data;
	size_t len;
} CgBlob;

/* -- Target ------------------------------------------------------------------- */

typedef struct CgOptions {
	const char *arch;      /* "sm_90a" (the only target for now) */
	int opt_level;         /* 0..3: LLVM's default<On> pipeline */
	bool debug_info;       /* -g: PTX .loc at .gl lines (line information only) */
	bool asserts;          /* -g or --debug: device assertions are kept */
	const Limits *limits;  /* elements per thread lowered; NULL: the defaults */
	/* -ffp-contract=off: no floating-point contraction in any kernel (the
	 * default contracts as Triton's enable_fp_fusion=True) */
	bool no_fp_contract;
} CgOptions;

/* The NVPTX target machine for o->arch. Initializes LLVM's NVPTX backend
 * (once per process). An unknown arch or opt level is reported (no
 * location) and gives NULL. Free with cg_target_free. */
typedef struct CgTarget CgTarget;
CgTarget *cg_target_new(const CgOptions *o, Diags *d);
void cg_target_free(CgTarget *t);
/* The version of the LLVM library glc runs with ("22.1.8"). */
const char *cg_llvm_version(void);

/* "sm_90a": the architecture the target was made for. */
const char *cg_target_arch(const CgTarget *t);

/* -- Compiling a typed program ------------------------------------------------ */

/* What compiling one file gives: one LLVM module with every kernel, its
 * PTX, and the signatures the launchers need. */
typedef struct CgResult {
	CgBlob llvm_ir;        /* textual IR after optimization */
	CgBlob ptx;            /* NUL-terminated PTX */
	CgKernelSig *kernels;
	int n_kernels;
	/* No kernel of the module contracts: ptxas must not either (its
	 * --fmad=false, as Triton passes for enable_fp_fusion=False). */
	bool no_fp_contract;
} CgResult;

/* Lowers every kernel of prog (or only `only` when not NULL) into one
 * module, optimizes it and emits PTX. Errors are reported at the source of
 * the operation that could not be lowered. */
bool cg_compile(CgTarget *t, const TProgram *prog, const char *only, const Sources *src,
                uint32_t file, Arena *a, Diags *d, CgResult *out);

#endif
