/*
 * codegen/ops: what the matrix-multiply families (lower_dot.c,
 * lower_wgmma.c) share: registers as MMA fragments (mma_frag.c,
 * mma_kwidth.c) and shared-memory WGMMA operands as matrix descriptors
 * (wgmma_desc.c).
 */
#ifndef CG_MMA_H
#define CG_MMA_H

#include "codegen/values/values.h"

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

#endif
