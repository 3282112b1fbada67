/*
 * ir: the typed, fully specialized program that semantic analysis hands to
 * the passes and to code generation (the "typed IR"). No constexprs are left (they are folded into constants and
 * attributes), device functions are inlined, static_range loops unrolled and
 * constexpr `if`s resolved. Every value has a type; every register tensor
 * carries its layout both as a description (for printing) and as a fitted
 * linear layout (for lowering). Everything lives in the compilation's arena.
 *
 * Shape of the program:
 *   TProgram -> TKernel[] -> TBlock (list of TInst)
 *   A TInst is one operation; it may define one value (`res`, numbered per
 *   kernel) and uses earlier values as operands. Values are SSA inside a
 *   block and visible in nested blocks. Named variables (TVar) are mutable
 *   slots declared per kernel; OP_VAR_READ / OP_VAR_WRITE access them, so
 *   loops and branches need no phis (codegen allocas them and lets LLVM
 *   promote them). Control flow is structured: OP_FOR, OP_IF, OP_WHILE own
 *   nested blocks.
 */
#ifndef IR_IR_H
#define IR_IR_H

#include "layout/layout.h"

/* -- Types ------------------------------------------------------------------ */

typedef enum TDType {
	DT_VOID,
	DT_I1, DT_I8, DT_I16, DT_I32, DT_I64,
	DT_U8, DT_U16, DT_U32, DT_U64,
	DT_F16, DT_BF16, DT_F32, DT_F64, DT_F8E4M3, DT_F8E5M2,
	DT_COUNT
} TDType;

/* "i32", "f16", ... */
const char *ir_dtype_name(TDType t);
int ir_dtype_bits(TDType t);
bool ir_dtype_is_float(TDType t);
bool ir_dtype_is_signed(TDType t);   /* i* (i1 counts as unsigned) */
bool ir_dtype_is_unsigned(TDType t); /* u* */

typedef enum TTypeKind {
	TY_VOID,
	TY_SCALAR,   /* dtype */
	TY_PTR,      /* global pointer to dtype (pointee); dtype == pointee */
	TY_TENSOR,   /* register tensor: elem (a scalar or pointer type), shape, layout */
	TY_SMEM,     /* shared-memory descriptor: dtype, shape, layout, view */
	TY_MBARRIER, /* one mbarrier (an 8-byte smem word): a view of an
	                i64 buffer in MBarrierLayout; alloc as for TY_SMEM */
	TY_DESC,     /* TMA tensor descriptor: dtype, block shape, shared layout */
	TY_TUPLE,    /* elems */
} TTypeKind;

typedef struct TType TType;

/* A layout attached to a type: what the source wrote and its fitted map. */
typedef struct TLayout {
	const LLDesc *desc;   /* constructor form (ll_desc_print) */
	LLayout ll;           /* fitted to the type's shape (shared: to the view) */
} TLayout;

struct TType {
	TTypeKind kind;
	TDType dtype;         /* scalar, pointee, tensor element (for pointer
	                         tensors: the pointee), smem/desc element */
	bool elem_is_ptr;     /* tensor of pointers */
	int rank;
	int64_t shape[LL_MAX_RANK];   /* tensor/smem shape; desc block shape */
	TLayout layout;       /* tensors: distributed; smem/desc: shared */
	/* TY_SMEM / TY_MBARRIER: the allocation viewed (index into
	 * TKernel.smem); shape and layout above are the view's (layout maps
	 * offset within the view's origin -> view coordinates; a
	 * PaddedSharedLayout's offsets are then padded, ll_desc_padding). */
	int alloc;
	/* TY_SMEM, a strided view (ir_smem_strided): the layout is fitted to
	 * the region the view was sliced from, larger than the view's trailing
	 * dims, and view_at is the view's first element in that region's
	 * coordinates (per dim of the type; 0 for dims the layout does not
	 * cover). All zero for a dense view. */
	int64_t view_at[LL_MAX_RANK];
	/* TY_SMEM / TY_MBARRIER: Gluon's alloc_shape, as its view operations
	 * carry it (an allocation, .index and ._reinterpret start it as the
	 * shape, .slice keeps it, .permute and .reshape rewrite its trailing
	 * dims); only sema reads it. */
	int64_t alloc_shape[LL_MAX_RANK];
	int alloc_rank;
	/* TY_TUPLE */
	const TType **elems;
	int n_elems;
	/* TY_TUPLE: Gluon's field names, one per element (NULL: none, which
	 * Gluon reads as all ""); only sema reads them. */
	const char **fields;
};

/* Equality of types: kinds, dtypes, shapes and layouts as maps (ll_equal;
 * shared layouts also by their padding). */
bool ir_type_equal(const TType *a, const TType *b);
/* Equal ranks and shapes. */
bool ir_same_shape(const TType *a, const TType *b);
/* The elements a shared view of type t spans from its pointer: its
 * ir_smem_span, padded when its layout is a PaddedSharedLayout (Triton's
 * getPaddedSize; INT64_MAX when that overflows). */
int64_t ir_smem_extent(const TType *t);

/* -- Inline assembly ------------------------------------------------------- */

/* A piece of a string (not terminated). */
typedef struct IrSpan {
	const char *s;
	size_t n;
} IrSpan;
/* The most operands (outputs and inputs) one inline asm takes. */
enum { IR_ASM_MAX_OPERANDS = 256 };
/* Checks an inline-asm constraint string s (no blanks): each comma-separated
 * item an output `=`/`=&` and a register letter (r h l f d b c q), an input
 * letter, `n` or a tied output's number, or a clobber `~{...}`, as LLVM's
 * NVPTX back end takes them: outputs first, then inputs, then clobbers; a
 * tied input names an output, and no output has two. Counts the outputs
 * and inputs; false with the first bad item in *bad and the rule it breaks
 * in *why. */
bool ir_asm_check_constraints(const char *s, int *outs, int *ins, IrSpan *bad,
                              const char **why);
/* The same without the rule. */
bool ir_asm_constraints(const char *s, int *outs, int *ins, IrSpan *bad);
/* Input k (from 0) of a valid constraint string: "r", "n", "0", ... */
IrSpan ir_asm_input(const char *s, int k);
/* Checks the operand references of inline-asm text as LLVM's AsmPrinter
 * reads them: $N and ${N} (or ${N:r}) below n_operands, $$, the variant
 * markers $( $| $) (not nested), ${:uid}, ${:comment}, ${:private}; false
 * with the first bad one in *bad and why in *why. (LLVM ends the process on
 * the others.) */
bool ir_asm_text(const char *text, int n_operands, IrSpan *bad, const char **why);

/* -- Shared-memory views -------------------------------------------------- */

/* A view of shared memory is dense when its layout is fitted to its own
 * trailing dims: its elements are one block at its pointer. A strided view
 * (a .slice that is not one block of its buffer's layout, as Gluon allows)
 * keeps the layout of the region it was sliced from and its position in it
 * (TType.view_at); its pointer is that region's start. */
bool ir_smem_strided(const TType *t);
/* Where view t's elements lie: the element at trailing coordinates x (of
 * the dims its layout covers, sized as the view's) is origin ^ map(x)
 * elements past the view's pointer. map (coordinates -> offset, block) is
 * the inverse of t's layout restricted to the view, origin the offset of
 * view_at (0 for a dense view). False, with err->msg when err is given,
 * when the layout is not onto. */
bool ir_smem_place(const TType *t, LLayout *map, int64_t *origin, LLErr *err);
/* Gluon's rule for a strided view t: its layout is one to one, and every
 * coordinate bit of the region that the view does not span moves exactly
 * one offset bit (so the view's origin shares no bit with an aligned
 * vector of its elements). */
bool ir_smem_view_ok(const TType *t);
/* The elements past its pointer that view t may touch, before padding: its
 * leading dims times its layout's region, the larger of its coordinates and
 * its offsets (fp4 padding: twice its coordinates) (INT64_MAX when that
 * overflows). */
int64_t ir_smem_span(const TType *t);
/* The box of one TMA copy of descriptor d (tensor order): its block with
 * every dim clamped to 256 and, when swizzled, the contiguous dim cut to
 * one swizzle row (as glrt_tensor_map_encode_nvmma encodes it). */
void ir_tma_box(const TType *d, int64_t *box);
/* Whether TMA copies of descriptor d can move view s box by box: same
 * dtype and shape, and each box lands where s's layout puts its elements
 * (a dense view: s's layout is d's). */
bool ir_tma_fits(const TType *d, const TType *s);

/* Printed forms: `tensor<f16, [64, 64], BlockedLayout(...)>`, `[64, 64]`,
 * a layout's constructor form, and its bases (`register=[[0,1]] lane=...`). */
void ir_type_print(const TType *t, StrBuf *out);
void ir_shape_print(const int64_t *shape, int rank, StrBuf *out);
void ir_layout_print(const TLayout *l, StrBuf *out);
void ir_layout_print_bases(const LLayout *l, StrBuf *out);

/* -- Values and variables --------------------------------------------------- */

typedef struct TValue {
	int id;               /* %id, unique per kernel */
	const TType *type;
	SrcSpan layout_at;    /* where a tensor's layout was fixed (diagnostics) */
} TValue;

typedef struct TVar {
	int id;               /* $id, unique per kernel */
	const char *name;     /* the source name (not unique: shadowing) */
	const TType *type;
} TVar;

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

typedef struct TBlock TBlock;
typedef struct TInst TInst;

struct TBlock {
	TInst **insts;
	size_t n, cap;
};

struct TInst {
	TOp op;
	SrcSpan at;           /* source of the operation */
	TValue *res;          /* NULL when the op defines nothing */
	TValue **args;
	int n_args;
	TVar *var;            /* OP_VAR_*, OP_FOR */
	union { int64_t i; double f; } c;   /* OP_CONST */
	int param;            /* OP_PARAM: index into TKernel.params */
	struct {
		int axis;
		TOp combine;      /* OP_REDUCE without a region */
		bool reverse;     /* OP_SCAN */
		int64_t order[LL_MAX_RANK];   /* OP_PERMUTE */
		TAtomicOp rmw;    /* OP_ATOMIC_RMW */
		TMemSem sem;      /* OP_ATOMIC_* */
		TMemScope scope;
		int64_t lo, hi;   /* OP_ARANGE */
		int64_t count;    /* OP_MBAR_INIT/ARRIVE count, waits' pending count,
		                     OP_WARP_SPECIALIZE's partitions */
		int alloc;        /* OP_SMEM_ALLOC: index into TKernel.smem */
		bool has_mask, has_other, has_pred, is_async, has_use_acc;
		bool trivial;     /* OP_CONVERT_LAYOUT: must be a register renaming
		                     (assert_trivial, gl.set_auto_layout) */
		int n_coords;     /* TMA ops */
		int64_t offset, stride;  /* OP_SMEM_VIEW, in elements */
		const LLCvtPlan *plan;   /* OP_CONVERT_LAYOUT */
		TRound round;            /* OP_CAST */
		bool propagate_nan;      /* OP_MIN, OP_MAX, OP_CLAMP: NaN in, NaN out */
		TCache cache;            /* OP_LOAD, OP_STORE, OP_ASYNC_COPY */
		TEvict evict;
		bool is_volatile;        /* OP_LOAD */
		int64_t hint[LL_MAX_RANK];   /* OP_MULTIPLE_OF and the other hints */
		const char *text, *text2;    /* OP_INLINE_ASM, OP_PRINT, OP_ASSERT */
		int pack, index;         /* OP_INLINE_ASM, OP_MAP; OP_MAP_ARG, OP_EXTRACT,
		                            OP_SPLIT, OP_WARP_SPECIALIZE's first
		                            partition */
		bool is_pure, hex;       /* OP_INLINE_ASM; OP_PRINT */
		bool nan_fill;           /* OP_MAKE_DESC */
	} attr;
	TBlock body, else_body;          /* OP_FOR/OP_IF/OP_WHILE/OP_MAP; body: a
	                                    combine region */
	TBlock cond_block;               /* OP_WHILE */
	TValue *cond_value;              /* OP_WHILE */
	/* OP_REDUCE / OP_SCAN with a combine function: body computes the
	 * combination of two groups of scalars, region[0..n-1] (the left one,
	 * earlier along the axis) and region[n..2n-1] (the right one), n the
	 * number of inputs; it ends with OP_YIELD of n scalars. */
	TValue **region;
	int n_region;
};

/* -- Kernels ----------------------------------------------------------------- */

typedef enum TParamKind { TP_SCALAR, TP_PTR, TP_DESC } TParamKind;

typedef struct TParam {
	const char *name;
	TParamKind kind;
	const TType *type;    /* TY_SCALAR, TY_PTR or TY_DESC */
	/* What the kernel may assume of the argument: a pointer's byte
	 * alignment, an integer's divisor (a power of two; 0 or 1: nothing).
	 * The launcher checks it before running a specialized variant. */
	uint32_t divisibility;
} TParam;

/* One static shared-memory allocation. Lifetimes are instruction ranges in
 * program order of the kernel (first_use..last_use as a preorder index);
 * offset is assigned by sema (no two live allocations overlap). */
typedef struct TSmemAlloc {
	const char *name;     /* the variable it was first bound to, or "smem" */
	SrcSpan at;
	TDType dtype;
	int rank;
	int64_t shape[LL_MAX_RANK];
	TLayout layout;       /* fitted to the whole allocation shape */
	int64_t bytes;        /* ir_smem_extent of its type, in bytes */
	int64_t offset;       /* byte offset in the block's shared memory */
	int align;            /* bytes: 1024 for 128-byte swizzles, 16 otherwise */
	bool is_mbarrier;
	int first_use, last_use;  /* live range: preorder instruction indices of the
	                             kernel (partitions count inside the
	                             warp_specialize); uses in a loop that the
	                             allocation precedes extend to the loop's end */
} TSmemAlloc;

/* A warp-specialize partition: each call's partitions lie together in
 * TKernel.parts, the default one (runs on the kernel's num_warps warps)
 * first, its workers after it. Each is an inlined body. */
typedef struct TPartition {
	const char *fn;       /* the @gl.jit function's name */
	int num_warps;
	int num_regs;         /* setmaxnreg budget; 0 for the default partition */
	int first_warp;       /* the default partition's warps come first */
	TBlock body;
} TPartition;

typedef struct TKernel {
	const char *name;     /* specialized symbol name (the function's name) */
	SrcSpan at;
	int num_warps;        /* of the default partition */
	int total_warps;      /* including worker warps (rounded to warpgroups; the
	                         most any warp_specialize call takes) */
	TParam *params;
	int n_params;
	TVar **vars;
	int n_vars;
	TSmemAlloc *smem;
	int n_smem;
	int64_t smem_bytes;   /* total static shared memory */
	TPartition *parts;    /* every warp_specialize call's, in program order;
	                         non-NULL when the kernel warp-specializes */
	int n_parts;
	TBlock body;          /* the default path (up to OP_WARP_SPECIALIZE) */
	int n_values;         /* values are numbered 0..n_values-1 */
	/* constexpr parameters with their final values, for names and printing */
	const char **cx_names, **cx_values;
	int n_cx;
	/* The specialized variant (the specialize pass): this kernel under the
	 * parameter assumptions of its own params, sharing body, variables and
	 * allocations; NULL when none pays. Variants are not listed in
	 * TProgram.kernels. */
	struct TKernel *fast;
	const struct TKernel *generic;   /* a variant: the kernel it specializes */
	/* Axis facts by value id (the axis pass); NULL before it runs. */
	const struct IrAxis *axis;
} TKernel;

typedef struct TProgram {
	TKernel **kernels;
	int n_kernels;
	/* Built by glc (sema), not read from a user's .ir file: whatever the
	 * verifier finds in it is glc's bug (an internal compiler error). */
	bool built;
} TProgram;

/* The most shared memory one block may use on Hopper (227 KB). */
enum { IR_SMEM_LIMIT = 232448 };

/* -- Walking ------------------------------------------------------------------- */

/* How deep blocks (loop and if bodies, combine regions, partitions) may nest
 * in one kernel, inlined calls included: every recursive walk of the IR (the
 * reader, the verifier, the passes, code generation) stays well within the
 * stack, and LLVM's loop passes within seconds, below it. */
enum { IR_MAX_NEST = 256 };
/* Reports a block nested deeper than IR_MAX_NEST in any kernel of p, at the
 * instruction that opens it, as an error in the input (a limit); false
 * then. Its own walk stops at the limit. */
bool ir_check_nesting(const TProgram *p, Diags *d);

/* Called on each instruction; returning false stops the walk. */
typedef bool (*IrVisit)(TInst *in, void *ctx);
/* Visits every instruction of k in program order: nested blocks after the
 * instruction owning them (a while's condition before its body), the
 * warp_specialize partitions at the warp_specialize. False when fn stopped
 * it. */
bool ir_walk(const TKernel *k, IrVisit fn, void *ctx);
/* The partitions of warp_specialize `in` (its default partition first) and
 * their number in *n: k->parts[in->attr.index ...]. */
TPartition *ir_ws_parts(const TKernel *k, const TInst *in, int *n);

/* -- Analyses -------------------------------------------------------------------- */

/* Axis facts of an integer or pointer value, per dim d (scalars: d = 0),
 * all powers of two: values consecutive in aligned runs of contig[d]
 * indices, the first of each run a multiple of div[d] (pointers: bytes;
 * for contig[d] = 1 every element), equal in aligned runs of cnst[d]. */
typedef struct IrAxis {
	int64_t contig[LL_MAX_RANK], div[LL_MAX_RANK], cnst[LL_MAX_RANK];
} IrAxis;

/* The facts for every value of k (indexed by value id), from what its
 * params' divisibility lets it assume. */
IrAxis *ir_axis_analyze(Arena *a, const TKernel *k);

/* How a global load, store or cp.async moves its registers: chunks of `width`
 * consecutive registers along tensor dim `dim` (1: one element each), each
 * one vector access. proven: every chunk's address is aligned to its size
 * and its mask is uniform, so no run-time check or scalar fallback is
 * needed. */
typedef struct IrAccess {
	int dim, width;
	bool proven;
} IrAccess;
IrAccess ir_access_plan(const TInst *in, const IrAxis *axis);

/* The plan of convert_layout from src's layout to dst's (tensors of one
 * shape): elements of the dtype's width (8 at least; pointers 64). NULL
 * with err->msg when the algebra finds none, or a side holds more than
 * 2^20 elements per thread. */
const LLCvtPlan *ir_plan_convert(Arena *a, const TType *src, const TType *dst, LLErr *err);

/* A variant of k named `name` (generic = k) with its own parameter array
 * (to change their assumptions), sharing everything else; no variant of
 * its own, no axis facts. */
TKernel *ir_kernel_variant(Arena *a, const TKernel *k, const char *name);

/* The names of p's kernels (ir/names.c), to name variants after. */
typedef struct IrNames IrNames;
IrNames *ir_names_new(const TProgram *p, Arena *a);
/* The name of k's specialized variant: `K__spec`, or `K__spec2`, ... when a
 * kernel in s is called so (a variant name ends in "__spec" or a digit, so
 * two variants never clash). */
const char *ir_variant_name(const IrNames *s, const TKernel *k, Arena *a);
/* Whether every kernel and variant of p has a name of its own; each clash
 * is reported (internal: as glc's bug) at the later one. */
bool ir_names_distinct(const TProgram *p, bool internal, Diags *d);

/* -- Passes ---------------------------------------------------------------------- */

/* Each pass works on every kernel of p (and their variants where it says
 * so), reports problems to d, and returns false after an error. All of them
 * are idempotent: running one again, or on IR that was printed after it and
 * read back, changes nothing. The driver lists them in order
 * (driver/passes.c); docs/internals.md says what each guarantees. */
/* layout-infer: every AutoLayout decided (ir/layout_infer.c); none left. */
bool ir_layout_infer(TProgram *p, Arena *a, Diags *d);
/* The WGMMA accumulator layout glc picks for an inferred one over acc's
 * shape with operands of `bits` bits: version 3, warps down M, the widest
 * instruction N (a multiple of 8 up to 256 dividing N). */
const LLDesc *ir_wgmma_layout(Arena *a, const TType *acc, int bits, int num_warps);
/* smem-plan: allocations' live ranges and offsets, smem_bytes; the 227 KB
 * limit. */
bool ir_smem_plan(TProgram *p, Arena *a, Diags *d);
/* membar: a thread_barrier before every shared-memory access that would
 * race with one made since the last barrier, as Triton's Membar pass
 * places them (ir/membar.c says which pairs need none); live ranges
 * renumbered, offsets unchanged. */
bool ir_membar(TProgram *p, Arena *a, Diags *d);
/* cvt-plan: every convert_layout gets its plan (attr.plan). */
bool ir_cvt_plan(TProgram *p, Arena *a, Diags *d);
/* specialize: TKernel.fast for kernels whose accesses the alignment and
 * divisibility assumptions prove (ir/specialize.c). */
bool ir_specialize(TProgram *p, Arena *a, Diags *d);
/* axis: TKernel.axis for every kernel and variant. */
bool ir_axis(TProgram *p, Arena *a, Diags *d);

/* -- Building ------------------------------------------------------------------ */

/* Appends i to block b (storage in a). */
void ir_block_push(Arena *a, TBlock *b, TInst *i);
/* Inserts i into block b before instruction `at` (at == b->n: appends). */
void ir_block_insert(Arena *a, TBlock *b, size_t at, TInst *i);

/* -- Text ---------------------------------------------------------------------- */

/* The program as text (`glc --emit=ir`; ir/print.c has an example): every
 * field that code generation reads, so that ir_read gives the program back.
 * Locations in `file` (the source the program came from; 0: none) print as
 * LINE:COL, others with their path from src. verbose prints every layout's
 * bases, not only those its constructor does not rebuild. */
void ir_print(const TProgram *p, const Sources *src, uint32_t file, bool verbose, StrBuf *out);

/* How the reader registers a source file the text names (`source "path"`,
 * loc("path":...)): load returns its file id in src, with its text when it
 * can be read (so that diagnostics quote its lines), or 0 to have it
 * registered without text. */
typedef struct IrLoader {
	uint32_t (*load)(void *ctx, Sources *src, const char *path);
	void *ctx;
} IrLoader;

/* Reads the text of file (what ir_print wrote, or written by hand) back
 * into the program: the same fields the printer wrote, except what the
 * passes compute again (convert_layout plans, which the text shows for
 * information; the axis facts --verbose shows in comments). Names are
 * interned in in; load may be NULL.
 * *origin (when given) receives the file of the `source` line, 0 without
 * one. The first mistake is reported at its line and column of file and
 * gives NULL. The result is not verified: run ir_verify on it. */
TProgram *ir_read(Arena *a, Interner *in, Sources *src, uint32_t file, const IrLoader *load,
                  Diags *d, uint32_t *origin);

/* -- Verifying ------------------------------------------------------------------- */

/* Checks the invariants the passes and code generation rely on
 * (docs/internals.md lists them): operand counts and types per operation,
 * layouts, dominance, variables, loops, warp_specialize partitions,
 * parameters, shared-memory views in range. planned: the passes have run,
 * so also what they provide (every convert_layout's plan, shared-memory
 * lifetimes and offsets). Each violation is reported at the instruction,
 * naming the rule: as a user error when the program came from a .ir file
 * and the passes have not run, otherwise as an internal compiler error
 * (glc built or transformed it wrongly). True when there is none. */
bool ir_verify(const TProgram *p, bool planned, Diags *d);

#endif
