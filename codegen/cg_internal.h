/*
 * codegen internals shared by its files: the target machine, the module
 * being built (context, builder, cached types, debug info), kernel
 * scaffolding and the NVVM builder helpers. Only codegen/ (and its unit
 * tests) include this header and llvm-c.
 */
#ifndef CG_INTERNAL_H
#define CG_INTERNAL_H

#include "codegen/codegen.h"
#include "passes/passes.h"

#include <llvm-c/Core.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/DebugInfo.h>
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
} CgModule;

/* The target machine of t for a module needing PTX ISA version ptx (0 or
 * 80: t->tm; up to 84: PTX 8.4; up to 87: PTX 8.7; each made once); NULL
 * after an error in d. */
LLVMTargetMachineRef cg_target_tm(CgTarget *t, int ptx, Diags *d);

/* -- Module (module.c) --------------------------------------------------------- */

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

/* -- Types (types.c) --------------------------------------------------------- */

/* The LLVM type of a scalar dtype (f8 types are i8 bit patterns). */
LLVMTypeRef cg_dtype_type(CgModule *m, TDType t);
/* -- Kernels (kernel.c) -------------------------------------------------------- */

/* Declares sig's kernel: ptx_kernel calling convention, launch attributes,
 * global pointers (with the alignment assumed), scalars (with assumed
 * divisors) and grid-constant tensor maps; creates its entry block, positions
 * the builder there and returns the function (also m->fn). */
LLVMValueRef cg_kernel_begin(CgModule *m, const CgKernelSig *sig);

/* -- NVVM helpers (nvvm.c) ------------------------------------------------------ */

/* Calls intrinsic `name` (overloaded on over[0..n_over-1]). A name LLVM
 * does not know exactly, an overloaded intrinsic without overload types (or
 * the reverse), or arguments or a result that do not match its signature
 * are an internal error at m->at; nothing is built and the result is poison
 * of ret (NULL for void). */
LLVMValueRef cg_intrinsic(CgModule *m, const char *name, LLVMTypeRef ret, LLVMTypeRef *over,
                          int n_over, LLVMValueRef *args, int n_args);

typedef enum CgSreg {
	CG_TID_X, CG_TID_Y, CG_TID_Z, CG_NTID_X,
	CG_CTAID_X, CG_CTAID_Y, CG_CTAID_Z,
	CG_NCTAID_X, CG_NCTAID_Y, CG_NCTAID_Z,
	CG_LANEID, CG_CLUSTER_CTARANK,
} CgSreg;

/* Reads a special register (i32). */
LLVMValueRef cg_sreg(CgModule *m, CgSreg r);
/* Lane (tid.x % 32) and warp (tid.x / 32) of the calling thread, i32; the
 * warp index is made warp-uniform. Built once per kernel at the top of its
 * entry block, so every use is dominated (a dispatch loop's worker
 * partition has its own, cg_thread_ids_here). */
LLVMValueRef cg_lane_id(CgModule *m);
LLVMValueRef cg_warp_id(CgModule *m);
/* Makes cg_lane_id and cg_warp_id, from now on, ids read at the builder
 * through inline asm that LLVM cannot hoist: what a dispatch loop's
 * partition derives from them is computed inside it, not kept live across
 * the loop (lower_ws.c). The caller restores m->lane and m->warp after. */
void cg_thread_ids_here(CgModule *m);

typedef enum CgShfl { CG_SHFL_IDX, CG_SHFL_BFLY, CG_SHFL_UP, CG_SHFL_DOWN } CgShfl;

/* shfl.sync over the full warp of any 8..64-bit scalar value: `lane` is the
 * source lane (idx), the xor mask (bfly) or the delta (up/down). */
LLVMValueRef cg_shfl(CgModule *m, CgShfl kind, LLVMValueRef v, LLVMValueRef lane);
/* bar.sync 0 for all threads of the CTA, or inside a partition its named
 * barrier (m->bar_id, m->bar_threads). */
void cg_barrier(CgModule *m);
/* barrier.sync id, threads without .aligned: the threads may wait at
 * different instructions (warp_specialize's join, one per partition). */
void cg_barrier_unaligned(CgModule *m, int id, int threads);
/* A static shared-memory array of `bytes` bytes (addrspace 3). */
LLVMValueRef cg_shared_global(CgModule *m, const char *name, uint64_t bytes, unsigned align);
/* The dynamic shared memory (extern [0 x i8], addrspace 3), declared once. */
LLVMValueRef cg_dynamic_smem(CgModule *m);

/* mbarrier, TMA, fences, setmaxnreg (bar: ptr addrspace(3)). */
void cg_mbarrier_init(CgModule *m, LLVMValueRef bar, LLVMValueRef count);
void cg_mbarrier_expect_tx(CgModule *m, LLVMValueRef bar, LLVMValueRef bytes);
void cg_mbarrier_arrive(CgModule *m, LLVMValueRef bar);
/* One thread's arrival counting `count` (i32) arrivals; invalidation. */
void cg_mbarrier_arrive_n(CgModule *m, LLVMValueRef bar, LLVMValueRef count);
void cg_mbarrier_inval(CgModule *m, LLVMValueRef bar);
/* Spins on try_wait.parity until the phase with parity `phase` completed. */
void cg_mbarrier_wait(CgModule *m, LLVMValueRef bar, LLVMValueRef phase);
/* TMA tile copy global -> shared (rank 1..5 coordinates, i32). */
void cg_tma_load(CgModule *m, LLVMValueRef smem, LLVMValueRef bar, LLVMValueRef tmap,
                 LLVMValueRef *coords, int rank);
void cg_tma_store(CgModule *m, LLVMValueRef tmap, LLVMValueRef smem, LLVMValueRef *coords,
                  int rank);
void cg_tma_store_commit(CgModule *m);
void cg_tma_store_wait(CgModule *m, int pending);
/* tensormap.replace.tile.FIELD.global on the 128-byte tensor map at global
 * address map: FIELD "global.address" (v an i64), "rank", "elemtype",
 * "interleave.layout", "swizzle.mode" or "fill.mode" (i32; ord -1), or, of
 * dimension ord (TMA order), "box.dim", "global.dim", "element.stride"
 * (i32) or "global.stride" (i64, bytes). */
void cg_tensormap_replace(CgModule *m, const char *field, LLVMValueRef map, int ord,
                          LLVMValueRef v);
/* fence.proxy.tensormap::generic: the release of a thread's tensor-map
 * writes (gpu scope), and the acquire before TMA reads the 128-byte map at
 * generic address map. */
void cg_tensormap_release(CgModule *m);
void cg_tensormap_acquire(CgModule *m, LLVMValueRef map);
void cg_fence_async_shared(CgModule *m);
void cg_fence_mbarrier_init(CgModule *m);
/* setmaxnreg.{inc,dec}: regs a multiple of 8 in [24, 256]. */
void cg_setmaxnreg(CgModule *m, bool inc, int regs);

/* The call intrinsic `name` on one operand (two for the binary form), the
 * result of the operand's type; overloaded: on that type. */
LLVMValueRef cg_unary_intrinsic(CgModule *m, const char *name, LLVMValueRef x, bool overloaded);
LLVMValueRef cg_binary_intrinsic(CgModule *m, const char *name, LLVMValueRef a, LLVMValueRef b,
                                 bool overloaded);

/* -- libdevice (libdevice.c) ----------------------------------------------------- */

/* A call of libdevice's `name` (float or double, one operand of x's type);
 * the first use finds the library, or reports at m->at that it is
 * missing. */
LLVMValueRef cg_libdevice_call(CgModule *m, const char *name, LLVMValueRef x);
/* Links libdevice into the module when a call needs it (before the
 * optimizer, which drops what no call reaches); false after a diagnostic. */
bool cg_link_libdevice(CgModule *m);

/* -- Tensor-core instructions (wgmma.c) ---------------------------------------- */

/* One wgmma.mma_async form: m64, n, k = cg_wgmma_k(a); operand dtypes a
 * and b (f16, bf16, f32 read as tf32, f8e4m3, f8e5m2, i8 as s8, u8), the
 * accumulator dtype d (f32, f16, i32), A from registers or from a shared
 * memory descriptor, and the operands' majorness in shared memory
 * (MN-major: the M or N dim is the contiguous one). */
typedef struct CgWgmma {
	int n;
	TDType a, b, d;
	bool a_in_regs, mn_major_a, mn_major_b;
} CgWgmma;

/* The instruction k of operand dtype t (256 / bits; tf32: 8), 0 for a
 * dtype WGMMA does not take. */
int cg_wgmma_k(TDType t);
/* Whether Hopper has form f (the table at the top of wgmma.c). */
bool cg_wgmma_valid(const CgWgmma *f);
/* Builds one wgmma.mma_async of form f: acc[0..n/2-1] are this thread's
 * accumulator elements in fragment order (NULL for a fresh start: poison
 * inputs, scale-d false), scale_d an i1; A is desc_a (i64) or a_words[0..3]
 * (its fragment packed by cg_pack_words); B is desc_b. Writes the result
 * elements into out[0..n/2-1]. Returns false (nothing built) for a form
 * cg_wgmma_valid rejects. */
bool cg_wgmma_mma(CgModule *m, const CgWgmma *f, const LLVMValueRef *acc, LLVMValueRef desc_a,
                  const LLVMValueRef *a_words, LLVMValueRef desc_b, LLVMValueRef scale_d,
                  LLVMValueRef *out);
/* mma.sync.aligned.m16n8kK.row.col (Ampere's tensor-core instruction, K =
 * cg_wgmma_k(a)) on operand dtypes a and b (the WGMMA families) into
 * accumulator dtype d (f32; also f16 for f16 operands; i32 for 8-bit
 * integers): acc[0..3] are this thread's accumulator elements c0..c3,
 * a_words[0..3] and b_words[0..1] its packed fragments (mma_frag.c); the
 * results go to out[0..3]. False (nothing built) for a form it lacks. */
bool cg_mma_sync(CgModule *m, TDType a, TDType b, TDType d, const LLVMValueRef *acc,
                 const LLVMValueRef *a_words, const LLVMValueRef *b_words, LLVMValueRef *out);
/* n elements of dtype t (8, 16 or 32 bits; n a multiple of 32 / bits) as
 * n * bits / 32 i32 words, consecutive elements in rising bit positions;
 * and back. */
void cg_pack_words(CgModule *m, TDType t, const LLVMValueRef *elems, int n, LLVMValueRef *out);
void cg_unpack_words(CgModule *m, TDType t, const LLVMValueRef *words, int n,
                     LLVMValueRef *out);
/* wgmma.wait_group `pending` with the n accumulator elements vals (dtype d:
 * f32, i32, or f16 with n even) tied through it: out[i] are the values after
 * the wait, so no read of an accumulator can be scheduled before it. */
void cg_wgmma_wait_tied(CgModule *m, int pending, TDType d, LLVMValueRef *vals, int n,
                        LLVMValueRef *out);
void cg_wgmma_fence(CgModule *m);
void cg_wgmma_commit(CgModule *m);
void cg_wgmma_wait(CgModule *m, int pending);

/* -- Lowering the IR (lower*.c) ------------------------------------------------ */

/* The LLVM values of one IR value: one per register of this thread for a
 * register tensor (indexed by the layout's register index), one for a
 * scalar. */
typedef struct CgVal {
	LLVMValueRef *r;
	int n;
} CgVal;

typedef struct CgWs CgWs;

typedef struct Lower {
	CgModule *m;
	const TKernel *k;
	CgVal *vals;            /* by TValue id */
	LLVMValueRef **vars;    /* by TVar id: one alloca per register */
	LLVMBasicBlockRef brk, cont;  /* innermost loop's exits */
	/* Shared memory (lower_smem.c): the block's base (ptr addrspace(3)),
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
	 * (lower_ws.c): its calls and their shared-memory area; NULL for one
	 * call at the top level, or none. */
	struct CgWs *ws;
	/* tma.make_tensor_descriptor (lower_hopper.c): the kernel's global
	 * scratch parameter (CgKernelSig.scratch_bytes), the kernel's
	 * descriptor sites (128 bytes each per program) and the next one */
	LLVMValueRef scratch;
	int desc_sites, desc_next;
	/* inside a map's body (lower_asm.c): the scalars of the pack being
	 * lowered, and where map_yield puts its results */
	LLVMValueRef *map_args, *map_yield;
	bool failed;
} Lower;

/* Lowers the instructions of b in order (lower.c); false after an error. */
bool cg_lower_block(Lower *l, const TBlock *b);
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

/* a op b for one element of dtype t (reductions' combine); in locates
 * errors. */
LLVMValueRef cg_binary(Lower *l, const TInst *in, TOp op, TDType t, LLVMValueRef a,
                       LLVMValueRef b);

/* One element of a math op (OP_EXP ... OP_UMULHI, lower_math.c) on
 * operands of dtype t (b, c: NULL when op takes fewer); NULL after a
 * diagnostic at in. */
LLVMValueRef cg_math(Lower *l, const TInst *in, TOp op, TDType t, LLVMValueRef a,
                     LLVMValueRef b, LLVMValueRef c);
/* One element of OP_CAST or OP_BITCAST `in` from dtype `from` to `to`
 * (lower_cast.c). */
LLVMValueRef cg_cast(Lower *l, const TInst *in, TDType from, TDType to, LLVMValueRef x);
/* The f8 (e4m3 or e5m2) value of the constant v, converted as Triton
 * converts a constant: from an f32, to nearest even, saturating to the
 * largest finite value (lower_cast.c). */
LLVMValueRef cg_f8_constant(CgModule *m, TDType to, double v);

/* Elementwise, casts, math (lower_ops.c); layout ops and reductions
 * (lower_layout.c); convert_layout (lower_convert.c); global memory
 * (lower_mem.c); shared memory (lower_smem.c). Each builds in->res from
 * in->args. */
bool cg_lower_elementwise(Lower *l, const TInst *in);
bool cg_lower_layout_op(Lower *l, const TInst *in);
bool cg_lower_convert(Lower *l, const TInst *in);
/* Bytes of scratch shared memory an OP_REDUCE by attr.combine needs (0:
 * none). */
int64_t cg_reduce_scratch(const TInst *in);
/* OP_SCAN and OP_REDUCE with a combine region (lower_scan.c); the scratch
 * shared memory they need. */
bool cg_lower_scan(Lower *l, const TInst *in);
int64_t cg_scan_scratch(const TInst *in);
/* OP_RESHAPE, OP_PERMUTE, OP_JOIN and OP_SPLIT: registers renamed
 * (lower_shape.c). */
bool cg_lower_shape(Lower *l, const TInst *in);
/* OP_FP4_TO_FP: e2m1 pairs unpacked by byte permutes (lower_fp4.c). */
bool cg_lower_fp4(Lower *l, const TInst *in);
/* OP_GATHER (lower_gather.c) and OP_HISTOGRAM (lower_histogram.c), and the
 * scratch shared memory each needs. */
bool cg_lower_gather(Lower *l, const TInst *in);
int64_t cg_gather_scratch(const TInst *in);
bool cg_lower_histogram(Lower *l, const TInst *in);
int64_t cg_histogram_scratch(const TInst *in);
bool cg_lower_memory(Lower *l, const TInst *in);
/* OP_ATOMIC_RMW and OP_ATOMIC_CAS (lower_atomic.c); the scratch shared
 * memory that brings their old values to every thread holding them. */
bool cg_lower_atomic(Lower *l, const TInst *in);
int64_t cg_atomic_scratch(const TInst *in);
/* A call of inline PTX `text` with constraints cons on args[0..n-1]
 * (side effects: never removed or merged), returning ret. */
LLVMValueRef cg_inline_asm(CgModule *m, LLVMTypeRef ret, const char *text, const char *cons,
                           LLVMValueRef *args, int n);
/* i1: a chunk of v consecutive elements of `bits` starting at pointer
 * first is aligned to its size and every mask[0..v-1] is set (mask NULL:
 * no mask). */
LLVMValueRef cg_chunk_ok(CgModule *m, LLVMValueRef first, LLVMValueRef *mask, int v, int bits);
/* createpolicy.fractional of L2 eviction priority evict (first or last)
 * for the whole line: the operand of an access's .L2::cache_hint. */
LLVMValueRef cg_l2_policy(CgModule *m, TEvict evict);
/* A global load of one element of init's type from ptr where pred holds
 * (init where it does not), touching no memory otherwise. */
LLVMValueRef cg_load_elem(CgModule *m, LLVMValueRef ptr, LLVMValueRef pred, LLVMValueRef init);
/* Writing each element of a layout that holds elements more than once
 * from one place: registers with a free register bit are skipped
 * (*free_regs), and of the threads holding the same elements only the one
 * whose free lane and warp bits are all 0 acts. Returns that thread
 * condition (i1), or NULL when every thread owns its elements. */
LLVMValueRef cg_first_owner(Lower *l, const LLayout *ly, uint64_t *free_regs);
/* cp.async and its groups and barrier (lower_async.c). */
bool cg_lower_async(Lower *l, const TInst *in);
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
bool cg_lower_smem(Lower *l, const TInst *in);
/* OP_SMEM_STORE of a 16-bit tensor whose access map has the m8n8 fragment
 * shape, as stmatrix.x4 (lower_stmatrix.c); false (nothing built) when the
 * map does not fit and cg_lower_smem must store. */
bool cg_stmatrix_store(Lower *l, const TInst *in);
/* mbarriers, TMA, fences, descriptor extents (lower_hopper.c); WGMMA and
 * its wait (lower_wgmma.c). */
bool cg_lower_hopper(Lower *l, const TInst *in);
bool cg_lower_wgmma(Lower *l, const TInst *in);
/* OP_DOT (lower_dot.c): mma.sync over a version 2 NVMMADistributedLayout
 * accumulator, FMAs over a BlockedLayout one. */
bool cg_lower_dot(Lower *l, const TInst *in);
/* OP_WARP_SPECIALIZE (lower_ws.c): one call at the kernel's top level gets
 * one branch per partition, each with its setmaxnreg and its own return;
 * in a kernel with the dispatch loop, the call releases the worker warps
 * and runs the default partition. lower_block lowers a partition's body. */
bool cg_lower_warp_specialize(Lower *l, const TInst *in,
                              bool (*lower_block)(Lower *, const TBlock *));
/* At the kernel's entry (the builder in the entry block, before
 * cg_smem_begin): when its warp_specialize calls are several or inside
 * runtime control flow, sets l->ws, sends the worker warps to the dispatch
 * loop (built by cg_ws_end) and leaves the builder on the default
 * partition's path; false after an error (reported). */
bool cg_ws_begin(Lower *l);
/* The shared memory that ends at byte `end`, with the dispatch loop's area
 * (state word and captures) placed after it when l->ws: the new end. */
int64_t cg_ws_area(Lower *l, int64_t end);
/* At the end of the kernel's body: the default path releases the workers
 * for good and returns, then the workers' dispatch loop is built (every
 * call's worker partitions, lowered by lower_block). Nothing without
 * l->ws. False after an error. */
bool cg_ws_end(Lower *l, bool (*lower_block)(Lower *, const TBlock *));
/* Register budgets of kernel k's partitions (one call at the top level):
 * the budget every thread starts with (what nvvm.minctasm 1 gives the
 * block) and partition part's setmaxnreg target. */
int cg_ws_entry_regs(const TKernel *k);
int cg_ws_part_regs(const TKernel *k, int part);
/* The first hidden parameter (global extents, i32 each) of every
 * descriptor parameter of k, -1 for the others; they follow k's own
 * parameters in order. */
void cg_desc_hidden_params(const TKernel *k, int *first);
/* tid.x == 32 * l->first_warp: the thread that issues single-thread
 * operations for the partition. */
LLVMValueRef cg_leader(Lower *l);
/* The tma.make_tensor_descriptor operations of k (lower_hopper.c): each
 * has a 128-byte tensor map per program in the global scratch buffer. */
int cg_desc_sites(const TKernel *k);
/* inline_asm, map, map_arg, map_yield and extract (lower_asm.c);
 * lower_block lowers a map's body. */
bool cg_lower_escape(Lower *l, const TInst *in, bool (*lower_block)(Lower *, const TBlock *));
/* device_print and device_assert (lower_debug.c). */
bool cg_lower_debug(Lower *l, const TInst *in);
/* An alloca of type t at the top of the kernel's entry block. */
LLVMValueRef cg_entry_alloca(Lower *l, LLVMTypeRef t, const char *name);
/* The placement of smem view s (ir_smem_place: coordinates -> offset, and
 * the origin), or an unsupported-layout error at in. */
bool cg_smem_place(Lower *l, const TInst *in, const TType *s, LLayout *map, int64_t *origin);
/* The element offset (origin ^ map(coords)) of coords[0..rank-1]. */
int64_t cg_smem_offset(const LLayout *map, int64_t origin, const int64_t *coords, int rank);

/* -- MMA fragments (mma_frag.c) ----------------------------------------------- */

/* (dim0, dim1) of a rank-2 tensor element. */
typedef int64_t CgCoord2[2];

/* The coordinates of each of the n registers of rank-2 layout ly at lane 0,
 * warp 0 (in a). */
CgCoord2 *cg_reg_coords(Arena *a, const LLayout *ly, int n);
/* Basis b of in-dim `in` of rank-2 layout ly as (dim0, dim1) in rc. */
void cg_basis2(const LLayout *ly, LLName in, int b, int64_t *rc);
/* Whether in-dim `name` of ly starts with exactly the bases want[0..n). */
bool cg_bases_are(const LLayout *ly, LLName name, const int64_t (*want)[2], int n);
/* Whether operand op (idx 0: A [M, K]; 1: B [K, N]) of an MMA whose
 * accumulator has layout acc has the lanes and warps of its fragments
 * (mma_frag.c), kw elements a 32-bit word. */
bool cg_mma_operand_fits(const LLayout *op, const LLayout *acc, int idx, int kw);
/* mma_v2 operand v of type t (idx 0: A, 1: B; acc: the accumulator's
 * layout) as the registers *out of the DotOperandLayout *std with k_width
 * 32 / bits, K permuted as Triton does for a larger k_width
 * (mma_kwidth.c); v itself when its k_width is that already. False when
 * the registers do not have Triton's groups. */
bool cg_mma_kwidth_operand(Lower *l, const TType *t, int idx, const LLDesc *acc, CgVal v,
                           LLayout *std, CgVal *out);
/* The words of operand fragment idx (A: 4 words at rows r0.., columns
 * c0.. = K; B: 2 words at K rows r0.., column c0) of tensor value v of
 * dtype t, whose registers are at rc; false when v does not hold it. */
bool cg_mma_frag_words(CgModule *m, TDType t, CgVal v, const CgCoord2 *rc, int idx, int64_t r0,
                       int64_t c0, LLVMValueRef *words);

/* -- WGMMA descriptors (wgmma_desc.c) ------------------------------------------ */

/* One shared-memory WGMMA operand: its base address, placement,
 * majorness and the constant descriptor bits (LBO, SBO, swizzle mode). */
typedef struct CgWgmmaOperand {
	LLVMValueRef addr;    /* i64 shared address of the view */
	LLayout place;        /* ir_smem_place: coordinates -> offset */
	int64_t origin;
	int mn_dim, k_dim, elem_bytes;
	bool mn_major;
	uint64_t bits;        /* descriptor without the start address */
} CgWgmmaOperand;

/* The operand of smem view v whose M (A) or N (B) dim is mn_dim; an
 * unsupported-operand error at in when v is not an NVMMASharedLayout view
 * or is MN-major without a swizzle. */
bool cg_wgmma_operand(Lower *l, const TInst *in, const TValue *v, int mn_dim,
                      CgWgmmaOperand *o);
/* The descriptor (i64) of o's element (mn, k) plus a runtime byte offset
 * (rt: i64 or NULL). */
LLVMValueRef cg_wgmma_desc(Lower *l, const CgWgmmaOperand *o, int64_t mn, int64_t k,
                           LLVMValueRef rt);
/* The runtime byte offset (i64) of o's element (mn, 0) for an mn (i32)
 * whose set bits lie in [lo, hi) (powers of two): the XOR of the offsets of
 * its bits, which share no bit with those of the coordinates below lo. */
LLVMValueRef cg_wgmma_mn_offset(Lower *l, const CgWgmmaOperand *o, LLVMValueRef mn, int64_t lo,
                                int64_t hi);

/* -- Shared memory (lower_smem.c) ------------------------------------------------ */

/* Places kernel k's shared memory: sema's allocations, then the largest
 * scratch any operation of the kernel's body needs, or the scratch of every
 * warp-specialize partition side by side when that is more. Up to 48 KB it
 * is a static array, beyond that the dynamic shared memory, whose size goes
 * to *dynamic_bytes (0 otherwise). Sets l->smem, l->scratch_off and
 * l->part_scratch_off; more than a block may have is reported (at the
 * kernel) and sets l->failed. */
void cg_smem_begin(Lower *l, uint32_t *dynamic_bytes);
/* The scratch region (ptr addrspace(3)) of the code being lowered: the
 * kernel body's, or the current partition's. */
LLVMValueRef cg_scratch(Lower *l);
/* Element type of t as stored in shared memory (i1 as i8, pointers as
 * i64), and conversions of one element to and from it. */
LLVMTypeRef cg_smem_elem_type(CgModule *m, const TType *t);
LLVMValueRef cg_to_smem(CgModule *m, LLVMValueRef v, LLVMTypeRef st);
LLVMValueRef cg_from_smem(CgModule *m, LLVMValueRef v, LLVMTypeRef t);
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
