/*
 * codegen/values: what every family of the lowering works with: the state
 * of the kernel being lowered (Lower), the values of IR values as
 * per-thread registers, the coordinates a register holds, allocas, the
 * partition's leader, the placement of shared-memory views, the block's
 * shared memory and its scratch, and vectorized shared-memory accesses
 * (values.c, smem.c).
 */
#ifndef CG_VALUES_H
#define CG_VALUES_H

#include "codegen/llvm/llvm.h"

/* The LLVM values of one IR value: one per register of this thread for a
 * register tensor (indexed by the layout's register index), one for a
 * scalar. */
typedef struct CgVal {
	LLVMValueRef *r;
	int n;
} CgVal;

typedef struct CgWs CgWs;

/* The kernel being lowered (codegen/lower/compile.c sets it up). */
typedef struct Lower {
	CgModule *m;
	const TKernel *k;
	CgVal *vals;            /* by TValue id */
	LLVMValueRef **vars;    /* by TVar id: one alloca per register */
	LLVMBasicBlockRef brk, cont;  /* innermost loop's exits */
	/* Shared memory (codegen/lower/smem_layout.c places it): the block's
	 * base (ptr addrspace(3)),
	 * sema's allocations at their offsets, then one scratch region that
	 * reductions and layout conversions reuse. Warp-specialize partitions
	 * run at once, so each has its own region: partition p's at
	 * part_scratch_off[p]. */
	LLVMValueRef smem;
	int64_t scratch_off;
	int64_t *part_scratch_off;
	const IrAxis *axis;   /* by IR value id (the axis pass, passes/axis.c) */
	/* The warp-specialize partition being lowered: its index, its first
	 * warp (its leader thread is 32 * first_warp) and warps; -1, 0 and the
	 * kernel's warps outside warp_specialize. */
	int part, first_warp, part_warps;
	/* A kernel whose warp_specialize calls need the dispatch loop
	 * (ops/lower_ws.c): its calls and their shared-memory area; NULL for one
	 * call at the top level, or none. */
	struct CgWs *ws;
	/* tma.make_tensor_descriptor (ops/lower_hopper.c): the kernel's global
	 * scratch parameter (CgKernelSig.scratch_bytes), the kernel's
	 * descriptor sites (128 bytes each per program) and the next one */
	LLVMValueRef scratch;
	int desc_sites, desc_next;
	/* inside a map's body (ops/lower_asm.c): the scalars of the pack being
	 * lowered, and where map_yield puts its results */
	LLVMValueRef *map_args, *map_yield;
	/* Lowers the instructions of a nested block in order (the dispatcher's,
	 * codegen/lower/lower.c): how an operation that owns blocks has them
	 * lowered. False after an error. */
	bool (*lower_block)(struct Lower *l, const TBlock *b);
	bool failed;
} Lower;

/* -- Values (values.c) ---------------------------------------------------------- */

/* Reports an operation codegen cannot lower (sema approved it, so this is an
 * internal compiler error) and marks the kernel failed. */
void cg_unsupported(Lower *l, const TInst *in, const char *what);

/* The value of IR value v (registers or the scalar). */
CgVal cg_val(Lower *l, const TValue *v);

/* A fresh CgVal of n registers in the arena. */
CgVal cg_val_new(Lower *l, int n);

/* Registers per thread of a tensor type (1 for scalars). */
int cg_type_regs(const TType *t);

/* The LLVM type of one element (or the scalar) of t. */
LLVMTypeRef cg_elem_type(CgModule *m, const TType *t);

/* Tensor coordinate `dim` (i32) of register r of this thread under layout
 * ly: the XOR of its register bases' and this thread's lane/warp bases'
 * coordinates. */
LLVMValueRef cg_coord(Lower *l, const LLayout *ly, int r, int dim);

/* Out-dim `out` (i32) of hardware map ly (register, lane, warp in-dims) at
 * register r of this thread; 0 when ly has no such out-dim. */
LLVMValueRef cg_apply_hw(Lower *l, const LLayout *ly, int r, LLName out);

/* tid.x == 32 * l->first_warp: the thread that issues single-thread
 * operations for the partition. */
LLVMValueRef cg_leader(Lower *l);

/* Opens `if (cond) { ... }`: the builder moves into the body and the
 * block after it is returned, which cg_if_close branches to and moves the
 * builder into. */
LLVMBasicBlockRef cg_if_open(Lower *l, LLVMValueRef cond);
void cg_if_close(Lower *l, LLVMBasicBlockRef done);

/* An alloca of type t at the top of the kernel's entry block. */
LLVMValueRef cg_entry_alloca(Lower *l, LLVMTypeRef t, const char *name);

/* The placement of smem view s (ir_smem_place: coordinates -> offset, and
 * the origin), or an unsupported-layout error at in. */
bool cg_smem_place(Lower *l, const TInst *in, const TType *s, LLayout *map, int64_t *origin);

/* The element offset (origin ^ map(coords)) of coords[0..rank-1]. */
int64_t cg_smem_offset(const LLayout *map, int64_t origin, const int64_t *coords, int rank);

/* -- Shared memory (smem.c) --------------------------------------------------- */

/* Byte off of the block's shared memory (ptr addrspace(3)). */
LLVMValueRef cg_smem_at(Lower *l, int64_t off);

/* The scratch region (ptr addrspace(3)) of the code being lowered: the
 * kernel body's, or the current partition's. */
LLVMValueRef cg_scratch(Lower *l);

/* pad(x) (ll_pad) of an integer element offset x at run time. */
LLVMValueRef cg_pad_offset(CgModule *m, const LLPadding *p, LLVMValueRef x);

/* Element type of t as stored in shared memory (i1 as i8, pointers as
 * i64), and conversions of one element to and from it. */
LLVMTypeRef cg_smem_elem_type(CgModule *m, const TType *t);
LLVMValueRef cg_to_smem(CgModule *m, LLVMValueRef v, LLVMTypeRef st);
LLVMValueRef cg_from_smem(CgModule *m, LLVMValueRef v, LLVMTypeRef t);

/* How distributed tensor type t moves through shared view s: hw sends
 * (register, lane, warp) to an element offset, and register r's element is
 * at base + pad(offset ^ flip) (elements of st). base is s's pointer plus
 * the bits of its origin (ir_smem_place) that no offset of hw touches; flip
 * holds the others (a strided view whose origin lands inside its swizzle
 * pattern); they lie above every vector hw moves. pad is the view's
 * PaddedSharedLayout padding (none: pad.n == 0; such views are never
 * strided, so flip is 0 there). */
typedef struct CgSmemMap {
	LLayout hw;
	LLVMValueRef base;
	uint32_t flip;
	LLPadding pad;
} CgSmemMap;

/* The map of tensor t through view value s (an error at in when the
 * layouts do not compose). */
bool cg_smem_access_map(Lower *l, const TInst *in, const TValue *s, const TType *t,
                        LLVMTypeRef st, CgSmemMap *map);

/* The address of register r's element (r the first of its vector). */
LLVMValueRef cg_smem_elem(Lower *l, const CgSmemMap *map, LLVMTypeRef st, int r);

/* Stores (or loads) every register of v through map (elements of st):
 * registers that it sends to consecutive offsets go in vectors of up to
 * 16 bytes; duplicated registers (free register bits) are stored once.
 * Loads fill v.r[*] with values of type et. */
void cg_smem_store(Lower *l, const CgSmemMap *map, LLVMTypeRef st, CgVal v);
void cg_smem_load(Lower *l, const CgSmemMap *map, LLVMTypeRef st, LLVMTypeRef et, CgVal v);

/* The most registers that move as one vector through hw (consecutive
 * offsets that a padding, pad.n > 0, keeps together). */
int cg_smem_vector(const LLayout *hw, const LLPadding *pad);

/* The hardware map (register, lane, warp -> offset) of tensor type t
 * stored row-major, as cg_smem_store and cg_smem_load take it. */
LLayout cg_offset_map(const TType *t);

#endif
