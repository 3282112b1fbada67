/*
 * ir: the types of the typed IR: dtypes, types (TType) with their layouts,
 * shared-memory views and TMA boxes, and their printed forms. A part of
 * ir/ir.h, which includes it; other modules include ir/ir.h.
 */
#ifndef IR_TYPES_H
#define IR_TYPES_H

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
bool ir_dtype_is_f8(TDType t);       /* f8e4m3, f8e5m2 */

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
/* Registers per thread a tensor may hold (as bits): far past what code
 * generation unrolls (it reports those), small enough that the passes can
 * count registers in an int. Sema refuses a tensor past it at the tensor,
 * the verifier in IR. */
enum { IR_MAX_REG_BITS = 30 };
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

#endif
