/*
 * codegen/ops: the lowering of each family of operations, one file each
 * (lower_*.c), as the dispatcher (codegen/lower/) calls them, the shared
 * memory each needs, the warp-specialize setup of a kernel, and the
 * element-level helpers families share.
 */
#ifndef CG_OPS_H
#define CG_OPS_H

#include "codegen/llvm/nvvm.h"
#include "codegen/values/values.h"

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

/* Elementwise, casts, math (lower_ops.c); layout ops (lower_layout.c);
 * reductions (lower_reduce.c); convert_layout (lower_convert.c); global
 * memory (lower_mem.c); shared memory (lower_smem.c). Each builds in->res
 * from in->args. */
bool cg_lower_elementwise(Lower *l, const TInst *in);
bool cg_lower_layout_op(Lower *l, const TInst *in);
bool cg_lower_reduce(Lower *l, const TInst *in);
bool cg_lower_convert(Lower *l, const TInst *in);
bool cg_lower_memory(Lower *l, const TInst *in);
bool cg_lower_smem(Lower *l, const TInst *in);

/* The constant tensor coordinate of input (reg, lane, warp) of ly, dims in
 * order; c with dim axis left out (of rank dims); whether the first rank
 * dims of a and b agree (lower_layout.c). */
typedef struct CgCoord {
	uint32_t c[LL_MAX_RANK];
} CgCoord;
CgCoord cg_coord_of(const LLayout *ly, int rank, uint32_t reg, uint32_t lane, uint32_t warp);
CgCoord cg_coord_drop(CgCoord c, int axis, int rank);
bool cg_coord_eq(CgCoord a, CgCoord b, int rank);

/* The most inputs a reduction or scan combines together (a tuple's). */
enum { CG_MAX_COMBINE = 8 };

/* out[0..n-1] = a combined with b, n = in->n_args: in's combine region
 * instantiated on them, or attr.combine on one input (lower_reduce.c).
 * out may be a or b. */
void cg_combine(Lower *l, const TInst *in, const LLVMValueRef *a, const LLVMValueRef *b,
                LLVMValueRef *out);

/* Whether OP_REDUCE in combines commutatively: by attr.combine, or a
 * region whose every result is one commutative operation (add, mul, max,
 * min, and, or, xor) of its two arguments of that input. cg_lower_reduce
 * (and cg_reduce_scratch) lower those, in Triton's order; cg_lower_scan
 * (and cg_scan_scratch) the others, in order along the axis. */
bool cg_reduce_commutes(const TInst *in);
int64_t cg_reduce_scratch(const TInst *in);

/* OP_SCAN and OP_REDUCE by a region that may not commute (lower_scan.c);
 * the scratch shared memory they need. */
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

/* OP_ATOMIC_RMW and OP_ATOMIC_CAS (lower_atomic.c); the scratch shared
 * memory that brings their old values to every thread holding them. */
bool cg_lower_atomic(Lower *l, const TInst *in);
int64_t cg_atomic_scratch(const TInst *in);

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
 * and runs the default partition. */
bool cg_lower_warp_specialize(Lower *l, const TInst *in);

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
 * call's worker partitions). Nothing without l->ws. False after an
 * error. */
bool cg_ws_end(Lower *l);

/* Register budgets of kernel k's partitions (one call at the top level):
 * the budget every thread starts with (what nvvm.minctasm 1 gives the
 * block) and partition part's setmaxnreg target. */
int cg_ws_entry_regs(const TKernel *k);
int cg_ws_part_regs(const TKernel *k, int part);

/* The first hidden parameter (global extents, i32 each) of every
 * descriptor parameter of k, -1 for the others; they follow k's own
 * parameters in order. */
void cg_desc_hidden_params(const TKernel *k, int *first);

/* The tma.make_tensor_descriptor operations of k (lower_hopper.c): each
 * has a 128-byte tensor map per program in the global scratch buffer. */
int cg_desc_sites(const TKernel *k);

/* inline_asm, map, map_arg, map_yield and extract (lower_asm.c). */
bool cg_lower_escape(Lower *l, const TInst *in);
/* OP_EXTERN: libdevice's function of each element (lower_math.c). */
bool cg_lower_extern(Lower *l, const TInst *in);

/* device_print and device_assert (lower_debug.c). */
bool cg_lower_debug(Lower *l, const TInst *in);

#endif
