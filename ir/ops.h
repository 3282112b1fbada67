/*
 * ir: the operations of the typed IR (TOp, what each takes and gives) and
 * the enumerations their attributes use, with their spellings. A part of
 * ir/ir.h, which includes it; other modules include ir/ir.h.
 */
#ifndef IR_OPS_H
#define IR_OPS_H

#include "ir/types.h"

/* -- Operations -------------------------------------------------------------- */

typedef enum TOp {
	/* constants and parameters */
	OP_CONST,         /* scalar constant: c.i / c.f (type dtype) */
	OP_PARAM,         /* runtime kernel parameter number `param` */
	OP_PROGRAM_ID,    /* axis = attr.axis */
	OP_NUM_PROGRAMS,  /* axis = attr.axis */
	/* elementwise (operands have equal types; results of compares are i1) */
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD,  /* DIV: true division;
	                     FLOORDIV/MOD on ints truncate like C (Triton's rule) */
	OP_AND, OP_OR, OP_XOR, OP_SHL, OP_SHR,
	OP_MIN, OP_MAX,
	OP_NEG, OP_NOT,   /* NOT: bitwise for ints, logical for i1 */
	OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
	OP_PTR_ADD,       /* pointer(s) + integer offset(s) in elements */
	OP_SELECT,        /* where(cond, a, b) */
	/* math on floats */
	OP_EXP, OP_EXP2, OP_LOG, OP_LOG2, OP_SQRT, OP_RSQRT, OP_ABS,
	OP_SIN, OP_COS, OP_ERF, OP_FLOOR, OP_CEIL,
	OP_SQRT_RN,       /* IEEE square root, round to nearest even */
	OP_DIV_RN,        /* IEEE division, round to nearest even */
	OP_FDIV,          /* division, f32 approximate (div.full: 2 ulp) */
	OP_FMA,           /* a * b + c, one rounding */
	OP_CLAMP,         /* min(max(x, lo), hi); attr.propagate_nan */
	OP_UMULHI,        /* high half of the unsigned product of integers */
	OP_CDIV,          /* ceil division of integers */
	/* conversions and shape */
	OP_CAST,          /* to res type's dtype (int/float/width changes);
	                     attr.round: a float downcast's rounding */
	OP_BITCAST,       /* the same bits as res type's dtype (equal widths) */
	/* hints: the operand itself, with a fact the axis analysis may use
	 * (attr.hint, one value per dim; a scalar's in hint[0]) */
	OP_MULTIPLE_OF,   /* every element (of a run) divisible by hint[d] */
	OP_MAX_CONTIGUOUS,/* values consecutive in runs of hint[d] */
	OP_MAX_CONSTANCY, /* values equal in runs of hint[d] */
	OP_ASSUME,        /* operand: an i1 the program promises is true */
	OP_SPLAT,         /* scalar -> tensor */
	OP_BROADCAST,     /* tensor with size-1 dims -> larger shape, same layout
	                     family (dims of size 1 in the operand) */
	OP_EXPAND_DIMS,   /* axis = attr.axis; SliceLayout(axis, P) -> P */
	OP_CONVERT_LAYOUT,/* attr.plan: the algebra's plan */
	OP_REDUCE,        /* operands: the inputs (one shape and layout); attr.axis;
	                     attr.combine (OP_ADD/OP_MAX/OP_MIN/OP_AND/OP_OR/
	                     OP_XOR), or a combine region (TInst.region); res:
	                     the result, a tuple of them for several inputs
	                     (taken apart by OP_EXTRACT) */
	OP_SCAN,          /* operands: the inputs (one shape and layout);
	                     attr.axis, attr.reverse; the combine region; res as
	                     for reduce, in the inputs' layout */
	OP_YIELD,         /* ends a combine region: operands are its results */
	OP_RESHAPE,       /* res type's shape, in the layout the algebra gives
	                     (registers renamed) */
	OP_PERMUTE,       /* attr.order: dim d of res is dim order[d] of the operand */
	OP_JOIN,          /* a, b -> [..., 2] with a at index 0 of the new last dim */
	OP_SPLIT,         /* [..., 2] -> the half at index attr.index of the last dim */
	OP_FP4_TO_FP,     /* bytes (i8/u8) of e2m1 pairs -> bf16/f16, dim attr.axis
	                     twice as long: element 2j + b along it is nibble b
	                     (0: the low one) of byte j; res in the layout
	                     ll_fp4_unpacked gives (register 2r + b from the
	                     operand's register r) */
	OP_GATHER,        /* src, index (an integer tensor); attr.axis: res[i] is src
	                     at i with coordinate attr.axis replaced by index[i] */
	OP_HISTOGRAM,     /* input [, mask]: res[b] counts the (unmasked) elements
	                     equal to b; others are ignored */
	/* tensor creation */
	OP_ARANGE,        /* attr.lo .. attr.hi */
	OP_FULL,          /* operand 0: the scalar value (a constant) */
	/* global memory */
	OP_LOAD,          /* ptrs [, mask [, other]]  (attr.has_mask, attr.has_other);
	                     attr.cache, attr.evict, attr.is_volatile */
	OP_STORE,         /* ptrs, value [, mask]; attr.cache, attr.evict */
	OP_ATOMIC_RMW,    /* ptrs, value [, mask]; attr.rmw, attr.sem, attr.scope;
	                     res: the old values (a masked-off element: 0) */
	OP_ATOMIC_CAS,    /* ptrs, cmp, value; attr.sem, attr.scope; res: the old
	                     values */
	/* shared memory */
	OP_SMEM_ALLOC,    /* attr.alloc; optional operand: initial tensor */
	OP_SMEM_VIEW,     /* base smem [, runtime index i]: res type is the view;
	                     its origin is base + pad(i * attr.stride +
	                     attr.offset) elements, pad the padding of the
	                     base's layout (ll_desc_padding; none: the
	                     identity) (index, slice, permute, reshape fold here;
	                     a ._reinterpret view has offset 0, so the element
	                     size of a nonzero offset is the operand's and the
	                     result's alike) */
	OP_SMEM_LOAD,     /* smem -> tensor in res type's layout */
	OP_SMEM_STORE,    /* smem, tensor */
	/* Ampere's cp.async (global -> shared, also on Hopper) */
	OP_ASYNC_COPY,    /* smem, ptrs [, mask]: each thread copies its
	                     elements (masked ones are zero-filled); attr.cache,
	                     attr.evict */
	OP_ASYNC_COMMIT,  /* cp.async.commit_group */
	OP_ASYNC_WAIT,    /* cp.async.wait_group attr.count */
	OP_ASYNC_MBAR_ARRIVE, /* bar: arrives once this thread's copies land;
	                         attr.count 1: counts as an arrival, 0: .noinc */
	/* mbarriers */
	OP_MBAR_INIT,     /* bar; attr.count */
	OP_MBAR_INVALIDATE, /* bar */
	OP_MBAR_EXPECT,   /* bar, bytes [, pred] */
	OP_MBAR_WAIT,     /* bar, phase */
	OP_MBAR_ARRIVE,   /* bar [, pred]; attr.count */
	/* TMA */
	OP_TMA_LOAD,      /* desc, bar, smem, pred?, coords... (attr.n_coords) */
	OP_TMA_STORE,     /* desc, smem, coords... */
	OP_TMA_STORE_WAIT,/* attr.count: pendings allowed */
	OP_DESC_SHAPE,    /* desc; attr.axis: the runtime global extent */
	OP_MAKE_DESC,     /* base pointer, the rank extents (i32), the rank - 1
	                     leading strides in elements (i64; the last is 1) ->
	                     a descriptor built in the kernel (res type: dtype,
	                     block shape, NVMMASharedLayout); attr.nan_fill:
	                     out-of-bounds elements read as NaN, not 0 */
	/* WGMMA */
	OP_WGMMA,         /* a, b, acc [, use_acc i1]; attr.is_async; res: the acc
	                     type (when async, valid after a wait); attr.count:
	                     fp8 x fp8 into f32, max_num_imprecise_acc (K
	                     elements summed in the tensor cores before each f32
	                     add; 0: all of K) */
	OP_WGMMA_WAIT,    /* attr.count pending groups; operands: deps; res: the
	                     first dep's value (tuple deps: one wait per dep) */
	OP_DOT,           /* a, b, acc register tensors in DotOperandLayouts of
	                     acc's layout: res = a @ b + acc (mma_v2: mma.sync
	                     over an NVMMADistributedLayout version 2 acc;
	                     gl.dot_fma: FMAs over a BlockedLayout acc) */
	/* synchronization */
	OP_FENCE_ASYNC_SHARED,
	OP_THREAD_BARRIER,
	/* debugging */
	OP_PRINT,         /* operands: printed with the program id and each
	                     element's index; attr.text: the prefix, attr.hex */
	OP_ASSERT,        /* cond [, mask]: traps where cond is false (and the
	                     mask true); attr.text: the message. Lowered only
	                     with -g or --debug (Triton's rule) */
	/* elementwise escapes */
	OP_INLINE_ASM,    /* operands: the arguments (one shape and layout, or
	                     scalars); attr.text: the PTX, attr.text2: the
	                     constraints, attr.pack elements per instance,
	                     attr.is_pure; res: a tensor or a tuple of them */
	OP_MAP,           /* operands: the arguments as for OP_INLINE_ASM; body:
	                     the scalar function for attr.pack elements of each,
	                     from OP_MAP_ARGs to an OP_MAP_YIELD; res likewise */
	OP_MAP_ARG,       /* in an OP_MAP body: scalar attr.index, i.e. element
	                     index % pack of argument index / pack */
	OP_MAP_YIELD,     /* ends an OP_MAP body: its scalar results, result r's
	                     element e at r * pack + e */
	OP_EXTRACT,       /* element attr.index of a tuple value */
	OP_EXTERN,        /* operands: 1-4 numbers (one shape and layout, or
	                     scalars); res: libdevice's function attr.text
	                     (a __nv_ symbol) of each element, of res's dtype */
	/* variables */
	OP_VAR_READ,      /* var -> res */
	OP_VAR_WRITE,     /* var := operand 0 */
	/* structured control flow */
	OP_FOR,           /* var (the induction variable, i32 or i64), operands
	                     lo, hi, step; body */
	OP_IF,            /* operand 0: i1 condition; body (then), else_body */
	OP_WHILE,         /* cond_block computes cond_value; body */
	OP_BREAK, OP_CONTINUE,
	OP_WARP_SPECIALIZE, /* runs attr.count partitions of TKernel.parts from
	                       attr.index (the first is the default partition);
	                       the arguments were bound when inlining each part */
	OP_COUNT
} TOp;

/* A float downcast's rounding (gl.cast's fp_downcast_rounding); the default
 * rounds to nearest even as well. */
typedef enum TRound { RND_DEFAULT, RND_RTNE, RND_RTZ } TRound;
/* Cache operators of global accesses (PTX .ca .cg .cs .cv .wb .wt) and L2
 * eviction priorities, as Triton spells them in cache_modifier and
 * eviction_policy. */
typedef enum TCache {
	CACHE_NONE, CACHE_CA, CACHE_CG, CACHE_CS, CACHE_CV, CACHE_WB, CACHE_WT,
} TCache;
typedef enum TEvict { EVICT_NORMAL, EVICT_FIRST, EVICT_LAST } TEvict;

/* "add", "convert_layout", ... (the printer's spelling). */
const char *ir_op_name(TOp op);

/* The read-modify-write of an atomic, its memory ordering and scope (PTX's
 * .sem and .scope; Triton's defaults are acq_rel and gpu). */
typedef enum TAtomicOp {
	AT_ADD, AT_AND, AT_OR, AT_XOR, AT_MAX, AT_MIN, AT_XCHG, AT_COUNT
} TAtomicOp;
typedef enum TMemSem { SEM_ACQ_REL, SEM_ACQUIRE, SEM_RELEASE, SEM_RELAXED, SEM_COUNT } TMemSem;
typedef enum TMemScope { SCOPE_GPU, SCOPE_CTA, SCOPE_SYS, SCOPE_COUNT } TMemScope;
/* Their spellings: "add", "acq_rel", "gpu", ... (also Gluon's strings). */
const char *ir_atomic_name(TAtomicOp op);
const char *ir_sem_name(TMemSem sem);
const char *ir_scope_name(TMemScope scope);
/* Whether atomic op (AT_COUNT: compare-and-swap) takes elements of t, as
 * Triton allows: add on 32/64-bit integers and f16, bf16, f32, f64; the
 * others on 32/64-bit integers, f32 and f64 (and/or/xor on their bits);
 * compare-and-swap on every 16-, 32- and 64-bit type. */
bool ir_atomic_dtype_ok(TAtomicOp op, TDType t);
/* Which elements binary operation op takes (sema refuses the others at the
 * call, the verifier in IR): IR_ON_INTS for the bitwise ones, shifts, cdiv
 * and umulhi; IR_ON_FLOATS for / and the float divisions; IR_ON_ANY for
 * the rest. */
typedef enum TOnDtype { IR_ON_ANY, IR_ON_INTS, IR_ON_FLOATS } TOnDtype;
TOnDtype ir_binary_on(TOp op);

#endif
