/*
 * The layout-infer pass's state (passes/layout_infer.c, passes/layout_soft.c): the
 * unknowns of a kernel (its AutoLayout ids) in a union-find, what each
 * class must be (a concrete layout, a slice of another class), what it
 * would like to be (a tl access's Triton layout), and the soft conversions
 * of tl functions, merged where their two sides can be one.
 */
#ifndef PASSES_LAYOUT_INFER_H
#define PASSES_LAYOUT_INFER_H

#include "passes/passes.h"

/* One unknown (an AutoLayout id of the kernel). */
typedef struct Unknown {
	int up;               /* union-find link (itself for a root) */
	int parent, dim;      /* this = SliceLayout(dim, unknown parent); -1: none */
	bool seen;
	SrcSpan at;           /* where it first appears */
	int rank, warps;      /* the largest tensor it lays out, and its warps */
	int64_t shape[LL_MAX_RANK];
	const LLDesc *fixed;  /* a concrete layout it must be */
	SrcSpan fixed_at;
	int mem_bits, mem_rank;   /* the narrowest global access through it */
	int64_t mem_shape[LL_MAX_RANK];
	const LLDesc *pref;   /* the layout Triton gives a tl access through it */
	bool tl;              /* met by a soft conversion: left alone, it takes
	                         Triton's default layout */
	const char *conflict; /* why it cannot be decided, or NULL */
	SrcSpan conflict_at;
	const LLDesc *res;    /* the solution */
} Unknown;

/* A soft convert_layout: its two sides, and when it is tried (lower
 * first; passes/layout_soft.c). */
typedef struct SoftEdge {
	const TInst *cvt;
	int rank;
} SoftEdge;

/* A tl shape operation whose result layout is derived from its operand's
 * once that is decided. */
typedef struct Derived {
	const TInst *op;
} Derived;

typedef struct Infer {
	Arena *a;
	Diags *d;
	TKernel *k;
	Unknown *u;           /* by AutoLayout id, then the unknowns between
	                         the layouts of a chain of slices */
	int n, cap;
	int warps;            /* of the code being walked (ir_walk_warps) */
	bool ok;
	/* tl functions' soft conversions (none: a Gluon kernel) */
	SoftEdge *soft;
	size_t n_soft;
	Derived *derived;     /* in program order */
	size_t n_derived;
	const TInst **def;    /* by value id: the instruction defining it */
	const IrAxis *axis;   /* the axis facts Triton's Coalesce reads */
} Infer;

/* The class of unknown v; a and b made one class. */
int li_find(Infer *x, int v);
void li_unite(Infer *x, int a, int b);
/* The unknown d is, or is a slice of (the slices' dims in dims[0..*n-1],
 * outermost first); -1 when d involves none. */
int li_root(const Infer *x, const LLDesc *d, int *dims, int *n);
/* The constructor form of d, for messages. */
const char *li_desc_str(Infer *x, const LLDesc *d);
/* Whether layouts a and b are one map over shape. */
bool li_same_map(Infer *x, const LLDesc *a, const LLDesc *b, const int64_t *shape, int rank);
/* Class v must be concrete layout l (at: the requirement). */
void li_fix(Infer *x, int v, const LLDesc *l, SrcSpan at);
/* The layout class v is decided to be (cached). */
const LLDesc *li_resolve(Infer *x, int v, int depth);
/* Layouts a and b must be one (at: the requirement). */
void li_unify(Infer *x, const LLDesc *a, const LLDesc *b, SrcSpan at);
/* Slices of one class share their parent's class; members' shapes, fixes
 * and hints become their class root's. */
void li_merge_parents(Infer *x);
void li_gather(Infer *x);

/* -- coalesce.c -- */
/* Triton's Coalesce layout for global access `in` (load, store, atomic,
 * cp.async) of a tl function, from the axis facts of its pointers; NULL
 * when Triton leaves the access to the layouts around it (fewer elements
 * than threads). */
const LLDesc *li_coalesced_layout(Arena *a, const TInst *in, const IrAxis *axis, int num_warps);
/* The layout Triton gives a tl tensor read from shared memory, of type t:
 * 16 bytes per thread along the last dim (at most its elements per
 * thread), lanes and warps spread from there. */
const LLDesc *li_vector_layout(Arena *a, const TType *t, int num_warps);

/* -- layout_soft.c -- */
/* Reads the kernel for its soft conversions (and the instruction defining
 * each value); false when it has none. */
bool li_soft_scan(Infer *x);
/* The Triton layout tl access `in` would like (NULL: none, or not a tl
 * access). */
const LLDesc *li_access_pref(Infer *x, const TInst *in);
/* Merges the two sides of each soft conversion, in their order, where
 * their classes can be one. */
void li_soft_merge(Infer *x);

#endif
