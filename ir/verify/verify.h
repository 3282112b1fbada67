/*
 * The IR verifier's internal interface (verify.c walks the kernels and
 * checks structure, dominance, variables, loops and partitions;
 * verify_ops.c, verify_tensor.c and verify_ext.c the types of each
 * operation; verify_smem.c shared memory; verify_report.c reports). Every
 * violation is an error at the instruction (or kernel, allocation) it
 * concerns, its message starting with the rule's name.
 */
#ifndef IR_VERIFY_VERIFY_H
#define IR_VERIFY_VERIFY_H

#include "ir/ir_internal.h"

typedef struct Verifier {
	Diags *d;
	Arena *a;
	const TKernel *k;
	bool ok;
	bool planned;         /* the passes have run: check what they provide */
	bool internal;        /* a failure is glc's bug (ir_verify's contract) */
	/* where the instruction checked stands (from the walk) */
	int warps;            /* of the code (partition or kernel) */
	int loops;            /* loops around it inside its partition or map */
	bool in_part;         /* in a warp_specialize partition */
	const TInst *yield;   /* the yield that ends the region it is in, or NULL */
	const TInst *map;     /* the map whose body it is in, or NULL */
	int n_inst;           /* preorder number of the next instruction */
	int ws_parts;         /* partitions of the warp_specialize calls met */
	/* by value id */
	const TInst **def;    /* the defining instruction, once met */
	bool *visible;        /* defined in the block walked or one around it */
	int64_t *reach;       /* smem values: the furthest byte offset from the
	                         allocation's start that the view's origin takes */
	bool *created;        /* by allocation: its smem_alloc was met */
} Verifier;

/* -- verify_report.c -- */
/* Reports "rule: message" at `at` and marks the kernel invalid; false. */
bool vf_fail(Verifier *v, SrcSpan at, const char *rule, const char *fmt, ...) GL_PRINTF(4, 5);
/* A type as text (for messages), allocated in v->a. */
const char *vf_type_str(Verifier *v, const TType *t);

/* -- verify_ops.c -- */
/* Checks a type's own consistency (layout fitted to its shape, warps of
 * the code it lives in when warps > 0). */
bool vf_type(Verifier *v, SrcSpan at, const TType *t, int warps);
/* The operands, attributes and result of i against its operation. */
bool vf_op(Verifier *v, const TInst *i);
/* a and b: both not tensors (scalars, pointers), or tensors of one shape
 * and layout. */
static inline bool
vf_same_shape(const TType *a, const TType *b)
{
	if ((a->kind == TY_TENSOR) != (b->kind == TY_TENSOR))
		return false;
	return a->kind != TY_TENSOR || (ir_same_shape(a, b) && ll_equal(&a->layout.ll, &b->layout.ll));
}

/* Operand counts the verifier allows a reduce, scan or yield (the inputs
 * combined together). */
enum { IR_MAX_COMBINED = 8 };

/* -- verify_tensor.c -- */
/* big and small are one tensor with and without axis attr.axis:
 * SliceLayout(axis, big's layout) for small (expand_dims, reduce). */
bool vf_axis_pair(Verifier *v, const TInst *i, const TType *big, const TType *small);
/* reduce, scan, yield, reshape, permute, join,
 * split, fp4_to_fp, gather, histogram and the atomics. */
bool vf_tensor_op(Verifier *v, const TInst *i, const TType *r);
/* A reduce's or scan's combine region: its values (scalars of the inputs'
 * dtypes, left group then right) are defined for its block, which ends in
 * a yield; false when it is not to be walked. Closing it hides the values
 * and checks the yield: one scalar per input. */
bool vf_region_open(Verifier *v, const TInst *i);
void vf_region_close(Verifier *v, const TInst *i);

/* -- verify_ext.c -- */
/* True for the operations verify_ext.c checks (fma, clamp, bitcast, the
 * hints, assume, cp.async, device_print/assert, inline_asm, map, extract). */
bool vf_is_ext(TOp op);
/* Their operand counts, result, attributes and types. */
bool vf_ext_op(Verifier *v, const TInst *i);

/* -- verify_smem.c -- */
/* The kernel's allocations: sizes and layouts; once planned also offsets,
 * alignment, bounds, and no two whose live ranges overlap sharing a byte. */
bool vf_allocs(Verifier *v);
/* Instruction i (preorder number n): a view's bytes stay inside its
 * allocation (recorded in v->reach for views of views); once planned, its
 * shared-memory operands are used inside their allocations' live ranges. */
bool vf_smem_inst(Verifier *v, const TInst *i, int n);

#endif
