/*
 * Axis analysis (axis.c): contiguity, divisibility and constancy of the
 * the IR's integer and pointer values along each dim, what they prove about a
 * global access, and the specialized variant of a kernel that they pay for.
 * Internal to codegen/.
 */
#ifndef CG_AXIS_H
#define CG_AXIS_H

#include "codegen/cg_internal.h"

/* Per dim d (scalars: d = 0), all powers of two: values consecutive in
 * aligned runs of contig[d] indices, the first of each run a multiple of
 * div[d] (pointers: bytes; for contig[d] = 1 every element), equal in
 * aligned runs of cnst[d] indices. */
typedef struct CgAxis {
	int64_t contig[LL_MAX_RANK], div[LL_MAX_RANK], cnst[LL_MAX_RANK];
} CgAxis;

/* The facts for every value of k (indexed by value id), starting from what
 * params[i].divisibility lets the kernel assume. */
CgAxis *cg_axis_analyze(Arena *a, const TKernel *k, const CgParam *params);

/* How a global load or store moves its registers: chunks of `width`
 * consecutive registers along tensor dim `dim` (1: one element each), each
 * one vector access. proven: every chunk's address is aligned to its size
 * and its mask is uniform, so no run-time check or scalar fallback is
 * needed. */
typedef struct CgAccess {
	int dim, width;
	bool proven;
} CgAccess;
CgAccess cg_access_plan(const TInst *in, const CgAxis *axis);

/* The specialized variant of kernel k whose generic signature is sig:
 * named "<name>__spec", assuming pointer parameters 16-byte aligned and
 * integer parameters multiples of 16 where that proves more accesses (only
 * the assumptions some proof needs are kept). NULL when nothing is gained. */
CgKernelSig *cg_axis_fast_sig(Arena *a, const TKernel *k, const CgKernelSig *sig);

#endif
