/*
 * ir: the typed, fully specialized program that semantic analysis hands to
 * the passes and to code generation (the "typed IR"). No constexprs are left (they are folded into constants and
 * attributes), device functions are inlined, static_range loops unrolled and
 * constexpr `if`s resolved. Every value has a type; every register tensor
 * carries its layout both as a description (for printing) and as a fitted
 * linear layout (for lowering). Everything lives in the compilation's arena.
 *
 * Shape of the program:
 *   TProgram -> TKernel[] -> TBlock (list of TInst)
 *   A TInst is one operation; it may define one value (`res`, numbered per
 *   kernel) and uses earlier values as operands. Values are SSA inside a
 *   block and visible in nested blocks. Named variables (TVar) are mutable
 *   slots declared per kernel; OP_VAR_READ / OP_VAR_WRITE access them, so
 *   loops and branches need no phis (codegen allocas them and lets LLVM
 *   promote them). Control flow is structured: OP_FOR, OP_IF, OP_WHILE own
 *   nested blocks (ir_nest lists the blocks of every instruction; ir_walk
 *   walks them).
 *
 * This is the module's one header for other modules. It is written in three
 * parts: the types (ir/types.h), the operations (ir/ops.h), and here the
 * values, instructions, kernels, building, walking, text and verifying.
 */
#ifndef IR_IR_H
#define IR_IR_H

#include "ir/ops.h"
#include "ir/types.h"

/* -- Values and variables --------------------------------------------------- */

typedef struct TValue {
	int id;               /* %id, unique per kernel */
	const TType *type;
	SrcSpan layout_at;    /* where a tensor's layout was fixed (diagnostics) */
} TValue;

typedef struct TVar {
	int id;               /* $id, unique per kernel */
	const char *name;     /* the source name (not unique: shadowing) */
	const TType *type;
} TVar;

typedef struct TBlock TBlock;
typedef struct TInst TInst;

struct TBlock {
	TInst **insts;
	size_t n, cap;
};

struct TInst {
	TOp op;
	SrcSpan at;           /* source of the operation */
	TValue *res;          /* NULL when the op defines nothing */
	TValue **args;
	int n_args;
	TVar *var;            /* OP_VAR_*, OP_FOR */
	union { int64_t i; double f; } c;   /* OP_CONST */
	int param;            /* OP_PARAM: index into TKernel.params */
	struct {
		int axis;
		TOp combine;      /* OP_REDUCE without a region */
		bool reverse;     /* OP_SCAN */
		int64_t order[LL_MAX_RANK];   /* OP_PERMUTE */
		TAtomicOp rmw;    /* OP_ATOMIC_RMW */
		TMemSem sem;      /* OP_ATOMIC_* */
		TMemScope scope;
		int64_t lo, hi;   /* OP_ARANGE */
		int64_t count;    /* OP_MBAR_INIT/ARRIVE count, waits' pending count,
		                     OP_WARP_SPECIALIZE's partitions */
		int alloc;        /* OP_SMEM_ALLOC: index into TKernel.smem */
		bool has_mask, has_other, has_pred, is_async, has_use_acc;
		bool trivial;     /* OP_CONVERT_LAYOUT: must be a register renaming
		                     (assert_trivial, gl.set_auto_layout) */
		bool soft;        /* OP_CONVERT_LAYOUT: where a tl function's value
		                     meets another layout; layout-infer merges the
		                     two sides when it can (passes/layout_soft.c) */
		int n_coords;     /* TMA ops */
		int64_t offset, stride;  /* OP_SMEM_VIEW, in elements */
		const LLCvtPlan *plan;   /* OP_CONVERT_LAYOUT */
		TRound round;            /* OP_CAST */
		bool propagate_nan;      /* OP_MIN, OP_MAX, OP_CLAMP: NaN in, NaN out */
		TCache cache;            /* OP_LOAD, OP_STORE, OP_ASYNC_COPY */
		TEvict evict;
		bool is_volatile;        /* OP_LOAD */
		int64_t hint[LL_MAX_RANK];   /* OP_MULTIPLE_OF and the other hints */
		const char *text, *text2;    /* OP_INLINE_ASM, OP_PRINT, OP_ASSERT, OP_EXTERN */
		int pack, index;         /* OP_INLINE_ASM, OP_MAP; OP_MAP_ARG, OP_EXTRACT,
		                            OP_SPLIT, OP_WARP_SPECIALIZE's first
		                            partition */
		bool is_pure, hex;       /* OP_INLINE_ASM; OP_PRINT */
		bool nan_fill;           /* OP_MAKE_DESC */
	} attr;
	TBlock body, else_body;          /* OP_FOR/OP_IF/OP_WHILE/OP_MAP; body: a
	                                    combine region */
	TBlock cond_block;               /* OP_WHILE */
	TValue *cond_value;              /* OP_WHILE */
	/* OP_REDUCE / OP_SCAN with a combine function: body computes the
	 * combination of two groups of scalars, region[0..n-1] (the left one,
	 * earlier along the axis) and region[n..2n-1] (the right one), n the
	 * number of inputs; it ends with OP_YIELD of n scalars. */
	TValue **region;
	int n_region;
};

/* -- Kernels ----------------------------------------------------------------- */

typedef enum TParamKind { TP_SCALAR, TP_PTR, TP_DESC } TParamKind;

typedef struct TParam {
	const char *name;
	TParamKind kind;
	const TType *type;    /* TY_SCALAR, TY_PTR or TY_DESC */
	/* What the kernel may assume of the argument: a pointer's byte
	 * alignment, an integer's divisor (a power of two; 0 or 1: nothing).
	 * The launcher checks it before running a specialized variant. */
	uint32_t divisibility;
} TParam;

/* One static shared-memory allocation. Lifetimes are instruction ranges in
 * program order of the kernel (first_use..last_use as a preorder index);
 * offset is assigned by sema (no two live allocations overlap). */
typedef struct TSmemAlloc {
	const char *name;     /* the variable it was first bound to, or "smem" */
	SrcSpan at;
	TDType dtype;
	int rank;
	int64_t shape[LL_MAX_RANK];
	TLayout layout;       /* fitted to the whole allocation shape */
	int64_t bytes;        /* ir_smem_extent of its type, in bytes */
	int64_t offset;       /* byte offset in the block's shared memory */
	int align;            /* bytes: 1024 for 128-byte swizzles, 16 otherwise */
	bool is_mbarrier;
	int first_use, last_use;  /* live range: preorder instruction indices of the
	                             kernel (partitions count inside the
	                             warp_specialize); uses in a loop that the
	                             allocation precedes extend to the loop's end */
} TSmemAlloc;

/* A warp-specialize partition: each call's partitions lie together in
 * TKernel.parts, the default one (runs on the kernel's num_warps warps)
 * first, its workers after it. Each is an inlined body. */
typedef struct TPartition {
	const char *fn;       /* the @gl.jit function's name */
	int num_warps;
	int num_regs;         /* setmaxnreg budget; 0 for the default partition */
	int first_warp;       /* the default partition's warps come first */
	TBlock body;
} TPartition;

typedef struct TKernel {
	const char *name;     /* specialized symbol name (the function's name) */
	SrcSpan at;
	int num_warps;        /* of the default partition */
	int total_warps;      /* including worker warps (rounded to warpgroups; the
	                         most any warp_specialize call takes) */
	TParam *params;
	int n_params;
	TVar **vars;
	int n_vars;
	TSmemAlloc *smem;
	int n_smem;
	int64_t smem_bytes;   /* total static shared memory */
	/* @gl.kernel(enable_fp_fusion=False), as Triton's option: no
	 * floating-point contraction (a * b + c stays a mul and an add, each
	 * rounded) in this kernel; by default codegen contracts as Triton does. */
	bool no_fp_fusion;
	TPartition *parts;    /* every warp_specialize call's, in program order;
	                         non-NULL when the kernel warp-specializes */
	int n_parts;
	TBlock body;          /* the default path (up to OP_WARP_SPECIALIZE) */
	int n_values;         /* values are numbered 0..n_values-1 */
	/* constexpr parameters with their final values, for names and printing */
	const char **cx_names, **cx_values;
	int n_cx;
	/* The specialized variant (the specialize pass): this kernel under the
	 * parameter assumptions of its own params, sharing body, variables and
	 * allocations; NULL when none pays. Variants are not listed in
	 * TProgram.kernels. */
	struct TKernel *fast;
	const struct TKernel *generic;   /* a variant: the kernel it specializes */
	/* Axis facts by value id (the axis pass); NULL before it runs. */
	const struct IrAxis *axis;
} TKernel;

typedef struct TProgram {
	TKernel **kernels;
	int n_kernels;
	/* Built by glc (sema), not read from a user's .ir file: whatever the
	 * verifier finds in it is glc's bug (an internal compiler error). */
	bool built;
} TProgram;

/* The most shared memory one block may use on Hopper (227 KB). */
enum { IR_SMEM_LIMIT = 232448 };

/* -- Walking ------------------------------------------------------------------- */

/* How deep blocks (loop and if bodies, combine regions, partitions) may nest
 * in one kernel, inlined calls included: every recursive walk of the IR (the
 * reader, the verifier, the passes, code generation) stays well within the
 * stack, and LLVM's loop passes within seconds, below it. */
enum { IR_MAX_NEST = 256 };
/* Reports a block nested deeper than IR_MAX_NEST in any kernel of p, at the
 * instruction that opens it, as an error in the input (a limit); false
 * then. Its own walk stops at the limit. */
bool ir_check_nesting(const TProgram *p, Diags *d);

/* What a nested block is to the instruction that owns it. */
typedef enum IrRole {
	IR_BODY,         /* a for's, while's or map's body, an if's then (and the
	                    kernel's body, or a block walked by itself) */
	IR_ELSE,         /* an if's else, owned when it is not empty */
	IR_COND,         /* a while's condition */
	IR_REGION,       /* a reduce's or scan's combine region (TInst.region
	                    holds the values defined in it) */
	IR_PARTITION,    /* a warp_specialize partition */
} IrRole;

/* A block being walked, and the ones around it. */
typedef struct IrNest {
	TInst *owner;          /* NULL: the kernel's body or a block walked alone */
	const TBlock *block;
	IrRole role;
	TPartition *part;      /* IR_PARTITION: the partition (else NULL) ... */
	int index;             /* ... and its index in TKernel.parts (else -1) */
	const struct IrNest *up;   /* the block around this one; NULL at the top */
	size_t at;             /* the instruction visited: block->insts[at] */
} IrNest;

/* Block n (counting from 0 in program order) of instruction in, as the
 * text form writes them: a for's or map's body; an if's then, and its else
 * when not empty; a while's condition, then its body; the combine region
 * of a reduce or scan that has one; a warp_specialize's partitions, the
 * default one first. False past the last (up is left NULL). */
bool ir_nest(const TKernel *k, TInst *in, int n, IrNest *out);

/* What a hook tells the walk: go on (into the instruction's blocks, into
 * the block), pass over it (the instruction's blocks and post hook, the
 * block's instructions and leave hook), or stop the whole walk. */
typedef enum IrStep { IR_ON, IR_PASS, IR_STOP } IrStep;

/* A walk over the instructions of kernel k in program order: pre before an
 * instruction's blocks (ir_nest), post after them; enter before a block's
 * instructions, leave after them. Any hook may be NULL (IR_ON); post and
 * leave stop the walk with IR_STOP and go on otherwise. During a hook, at
 * is the block being walked (for enter and leave, that block). */
typedef struct IrWalker IrWalker;
struct IrWalker {
	const TKernel *k;
	void *ctx;
	IrStep (*pre)(IrWalker *w, TInst *in);
	IrStep (*post)(IrWalker *w, TInst *in);
	IrStep (*enter)(IrWalker *w, const IrNest *n);
	IrStep (*leave)(IrWalker *w, const IrNest *n);
	IrNest *at;            /* kept by the walk */
};

/* Walks k's body: the default path, with each warp_specialize's partitions
 * at the warp_specialize. False when a hook stopped it. */
bool ir_walk(IrWalker *w);
/* Walks k->parts[p]'s body by itself (role IR_PARTITION, no owner). */
bool ir_walk_partition(IrWalker *w, int p);
/* Walks block n (from ir_nest) inside the block being walked: for a pre
 * hook that passes over its instruction and walks its blocks itself. */
bool ir_walk_nest(IrWalker *w, IrNest *n);
/* Inserts i (storage in a) before the instruction being visited; the walk
 * goes on after the visited one. The kernel must be the caller's to
 * change. */
void ir_walk_insert(IrWalker *w, Arena *a, TInst *i);
/* Removes the instruction being visited (from a post hook, or a pre hook
 * that passes over its blocks) from its block; the walk goes on with the
 * next one. The kernel must be the caller's to change. */
void ir_walk_remove(IrWalker *w);
/* The warps that run the code being walked: its partition's, else the
 * kernel's num_warps. */
int ir_walk_warps(const IrWalker *w);
/* The partitions of warp_specialize `in` (its default partition first) and
 * their number in *n: k->parts[in->attr.index ...]. */
TPartition *ir_ws_parts(const TKernel *k, const TInst *in, int *n);

/* -- Axis facts ------------------------------------------------------------------ */

/* Axis facts of an integer or pointer value, per dim d (scalars: d = 0),
 * all powers of two: values consecutive in aligned runs of contig[d]
 * indices, the first of each run a multiple of div[d] (pointers: bytes;
 * for contig[d] = 1 every element), equal in aligned runs of cnst[d]. The
 * axis pass (passes/) computes them into TKernel.axis. */
typedef struct IrAxis {
	int64_t contig[LL_MAX_RANK], div[LL_MAX_RANK], cnst[LL_MAX_RANK];
} IrAxis;

/* -- Tensor cores ----------------------------------------------------------------- */

/* The operand families of the tensor-core instructions (WGMMA, mma.sync):
 * A and B of one family multiply. */
typedef enum IrMmaFamily {
	IR_MMA_NONE,     /* a dtype no tensor-core instruction takes */
	IR_MMA_F16,
	IR_MMA_BF16,
	IR_MMA_TF32,     /* f32 operands, read as tf32 */
	IR_MMA_F8,       /* f8e4m3 and f8e5m2, in any mix */
	IR_MMA_I8,       /* i8 and u8, in any mix */
} IrMmaFamily;
/* The family of operand dtype t. */
IrMmaFamily ir_mma_family(TDType t);
/* Whether family f accumulates in dtype acc, on WGMMA (wgmma) or on
 * mma.sync: 8-bit integers in i32; f16 in f32 or f16; fp8 in f32, and on
 * WGMMA in f16 too; bf16 and tf32 in f32. */
bool ir_mma_acc_ok(IrMmaFamily f, TDType acc, bool wgmma);
/* Whether WGMMA reads family f's shared-memory operands MN-major (their M
 * or N dim contiguous): it transposes only the 16-bit families. */
bool ir_mma_mn_major_ok(IrMmaFamily f);
/* The WGMMA accumulator layout glc picks for an inferred one over acc's
 * shape with operands of `bits` bits: version 3, warps down M, the widest
 * instruction N (a multiple of 8 up to 256 dividing N). */
const LLDesc *ir_wgmma_layout(Arena *a, const TType *acc, int bits, int num_warps);

/* -- Building ------------------------------------------------------------------ */

/* A new instruction: operation op at `at`, with no result, operands or
 * blocks yet (storage in a). */
TInst *ir_inst_new(Arena *a, TOp op, SrcSpan at);
/* Gives i its result: value %id of type t, its layout fixed where i is. */
TValue *ir_inst_result(Arena *a, TInst *i, int id, const TType *t);
/* Gives i room for n operands (i->n_args = n) and returns it to be
 * filled. */
TValue **ir_inst_operands(Arena *a, TInst *i, int n);
/* Appends i to block b (storage in a). */
void ir_block_push(Arena *a, TBlock *b, TInst *i);
/* Inserts i into block b before instruction `at` (at == b->n: appends). */
void ir_block_insert(Arena *a, TBlock *b, size_t at, TInst *i);
/* A variant of k named `name` (generic = k) with its own parameter array
 * (to change their assumptions), sharing everything else; no variant of
 * its own, no axis facts. */
TKernel *ir_kernel_variant(Arena *a, const TKernel *k, const char *name);

/* The names of p's kernels (ir/names.c), to name variants after. */
typedef struct IrNames IrNames;
IrNames *ir_names_new(const TProgram *p, Arena *a);
/* The name of k's specialized variant: `K__spec`, or `K__spec2`, ... when a
 * kernel in s is called so (a variant name ends in "__spec" or a digit, so
 * two variants never clash). */
const char *ir_variant_name(const IrNames *s, const TKernel *k, Arena *a);
/* Whether every kernel and variant of p has a name of its own; each clash
 * is reported (internal: as glc's bug) at the later one. */
bool ir_names_distinct(const TProgram *p, bool internal, Diags *d);

/* What a kernel declares besides its parameters and body, gathered while
 * it is built (by sema as it checks the kernel, by the reader as it reads
 * it). */
typedef struct IrKernelDecls {
	TVar **vars;
	size_t n_vars;
	TSmemAlloc *smem;
	size_t n_smem;
	const char **cx_names, **cx_values;
	size_t n_cx;
} IrKernelDecls;
/* Completes kernel k once its body is built: its variables, allocations
 * and constexpr parameters are d's arrays, which k owns from here on. */
void ir_kernel_finish(TKernel *k, const IrKernelDecls *d);

/* -- Text ---------------------------------------------------------------------- */

/* The program as text (`glc --emit=ir`; ir/text/print.c has an example): every
 * field that code generation reads, so that ir_read gives the program back.
 * Locations in `file` (the source the program came from; 0: none) print as
 * LINE:COL, others with their path from src. verbose prints every layout's
 * bases, not only those its constructor does not rebuild. */
void ir_print(const TProgram *p, const Sources *src, uint32_t file, bool verbose, StrBuf *out);

/* How the reader registers a source file the text names (`source "path"`,
 * loc("path":...)): load returns its file id in src, with its text when it
 * can be read (so that diagnostics quote its lines), or 0 to have it
 * registered without text. */
typedef struct IrLoader {
	uint32_t (*load)(void *ctx, Sources *src, const char *path);
	void *ctx;
} IrLoader;

/* Reads the text of file (what ir_print wrote, or written by hand) back
 * into the program: the same fields the printer wrote, except what the
 * passes compute again (convert_layout plans, which the text shows for
 * information; the axis facts --verbose shows in comments). Names are
 * interned in in; load may be NULL.
 * *origin (when given) receives the file of the `source` line, 0 without
 * one. The first mistake is reported at its line and column of file and
 * gives NULL. The result is not verified: run ir_verify on it. */
TProgram *ir_read(Arena *a, Interner *in, Sources *src, uint32_t file, const IrLoader *load,
                  Diags *d, uint32_t *origin);

/* -- Verifying ------------------------------------------------------------------- */

/* Checks the invariants the passes and code generation rely on
 * (docs/internals.md lists them): operand counts and types per operation,
 * layouts, dominance, variables, loops, warp_specialize partitions,
 * parameters, shared-memory views in range. planned: the passes have run,
 * so also what they provide (every convert_layout's plan, shared-memory
 * lifetimes and offsets). Each violation is reported at the instruction,
 * naming the rule: as a user error when the program came from a .ir file
 * and the passes have not run, otherwise as an internal compiler error
 * (glc built or transformed it wrongly). True when there is none. */
bool ir_verify(const TProgram *p, bool planned, Diags *d);

#endif
