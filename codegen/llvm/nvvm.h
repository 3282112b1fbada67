/*
 * codegen/llvm: the NVVM builders over a module: intrinsics, special
 * registers, lane and warp ids, shuffles, barriers, shared-memory globals,
 * mbarriers, TMA, tensor maps, fences, setmaxnreg, inline PTX, libdevice,
 * and the tensor-core instructions (wgmma.mma_async, mma.sync).
 */
#ifndef CG_NVVM_H
#define CG_NVVM_H

#include "codegen/llvm/llvm.h"

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
 * the loop (codegen/ops/lower_ws.c). The caller restores m->lane and
 * m->warp after. */
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

/* A call of libdevice's `name` (float or double, one operand of x's type);
 * the first use finds the library, or reports at m->at that it is
 * missing. */
LLVMValueRef cg_libdevice_call(CgModule *m, const char *name, LLVMValueRef x);
/* libdevice's function name of args[0..n-1] (n <= 4) returning ret. */
LLVMValueRef cg_libdevice_calln(CgModule *m, const char *name, LLVMTypeRef ret,
                                LLVMValueRef *args, int n);

/* Links libdevice into the module when a call needs it (before the
 * optimizer, which drops what no call reaches); false after a diagnostic. */
bool cg_link_libdevice(CgModule *m);

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
 * a_words[0..3] and b_words[0..1] its packed fragments (ops/mma_frag.c); the
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

/* A call of inline PTX `text` with constraints cons on args[0..n-1]
 * (side effects: never removed or merged), returning ret. */
LLVMValueRef cg_inline_asm(CgModule *m, LLVMTypeRef ret, const char *text, const char *cons,
                           LLVMValueRef *args, int n);

#endif
