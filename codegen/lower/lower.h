/*
 * codegen/lower: the dispatcher of the lowering and its kernels: lower.c
 * lowers a block instruction by instruction (control flow, variables,
 * constants and parameters itself, every other family through ops/),
 * smem_layout.c places a kernel's shared memory, compile.c lowers each
 * kernel and the program (cg_compile).
 */
#ifndef CG_LOWER_H
#define CG_LOWER_H

#include "codegen/ops/ops.h"

/* Lowers the instructions of b in order (lower.c); false after an error. */
bool cg_lower_block(Lower *l, const TBlock *b);

/* Places kernel k's shared memory: sema's allocations, then the largest
 * scratch any operation of the kernel's body needs, or the scratch of every
 * warp-specialize partition side by side when that is more. Up to 48 KB it
 * is a static array, beyond that the dynamic shared memory, whose size goes
 * to *dynamic_bytes (0 otherwise). Sets l->smem, l->scratch_off and
 * l->part_scratch_off; more than a block may have is reported (at the
 * kernel) and sets l->failed. */
void cg_smem_begin(Lower *l, uint32_t *dynamic_bytes);

#endif
