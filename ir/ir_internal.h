/*
 * ir: what the files of the module share and nothing else includes — the
 * table of operations as text (spellings, attributes, operand labels) that
 * the printer, the reader and the verifier agree on.
 */
#ifndef IR_INTERNAL_H
#define IR_INTERNAL_H

#include "ir/ir.h"

/* The length span_join gives a span that runs past its first line (joins
 * of such spans are longer still); the text spells them all `+*`, which
 * reads back as this length (diagnostics underline to the end of the line
 * either way). */
enum { IR_SPAN_MULTILINE = UINT32_MAX / 2 };

/* The attributes an operation carries in the text (ir_op_attrs), i.e. the
 * TInst.attr fields that matter for it. */
typedef enum IrAttr {
	IA_AXIS = 1 << 0,     /* axis=N */
	IA_COMBINE = 1 << 1,  /* combine=add|max|min|and|or|xor */
	IA_RANGE = 1 << 2,    /* start=N end=N (attr.lo, attr.hi) */
	IA_COUNT = 1 << 3,    /* count=N */
	IA_ALLOC = 1 << 4,    /* alloc=N */
	IA_VIEW = 1 << 5,     /* offset=N stride=N */
	IA_ASYNC = 1 << 6,    /* the flag `async` (attr.is_async) */
	IA_PLAN = 1 << 7,     /* plan=free|shuffle|shared [scratch=N]: what the
	                         plan is, for the reader (the reader drops them;
	                         the cvt-plan pass computes the plan again) */
	IA_IMPRECISE = 1 << 8, /* max_num_imprecise_acc=N (attr.count), printed
	                          when nonzero */
	IA_TRIVIAL = 1 << 9,  /* the flags `trivial` and `soft` (attr.trivial, attr.soft) */
	IA_ROUND = 1 << 10,   /* rounding=rtne|rtz (absent: the default) */
	IA_NAN = 1 << 11,     /* the flag `propagate_nan` */
	IA_ACCESS = 1 << 12,  /* cache=ca|cg|cs|cv|wb|wt evict=first|last, the
	                         flag `volatile` (each absent when not set) */
	IA_HINT = 1 << 13,    /* values=[N, ...] (attr.hint, one per dim) */
	IA_TEXT = 1 << 14,    /* KEY="..." (attr.text; KEY is ir_text_key) */
	IA_ASM = 1 << 15,     /* constraints="..." (attr.text2), the flag `pure` */
	IA_PACK = 1 << 16,    /* pack=N */
	IA_INDEX = 1 << 17,   /* index=N */
	IA_HEX = 1 << 18,     /* the flag `hex` */
	IA_REVERSE = 1 << 19, /* the flag `reverse` (attr.reverse) */
	IA_ORDER = 1 << 20,   /* order=[N, ...] (one per result dim) */
	IA_RMW = 1 << 21,     /* rmw=add|and|or|xor|max|min|xchg */
	IA_SEM = 1 << 22,     /* sem=acq_rel|acquire|release|relaxed scope=gpu|cta|sys */
	IA_NANFILL = 1 << 23, /* the flag `nan_fill` (attr.nan_fill) */
} IrAttr;

/* "rtne" and "rtz" ("" for the default); cache operators without their
 * dot, "ca" ... "wt" ("" for none). */
const char *ir_round_name(TRound r);
const char *ir_cache_name(TCache c);
/* The key of op's attr.text in the text: "prefix" (device_print),
 * "message" (device_assert) or "asm" (inline_asm). */
const char *ir_text_key(TOp op);

/* The operation spelled s[0..n-1], or OP_COUNT. */
TOp ir_op_lookup(const char *s, size_t n);
/* The IrAttr bits of op. */
unsigned ir_op_attrs(TOp op);
/* The label the text puts before operand k of i ("mask", "other", "pred",
 * "use_acc"), or NULL for a plain operand; it depends on i's flags. */
const char *ir_arg_label(const TInst *i, int k);
/* True for the operations a reduce combines with by attr.combine: add,
 * max, min, and, or, xor. */
bool ir_combine_op(TOp op);
/* True when the last attr.n_coords operands of op are coordinates, written
 * as one bracketed list. */
bool ir_op_has_coords(TOp op);

/* ir_type_print with every layout written by `layout` (the printer writes
 * its aliases, diagnostics the constructor text). */
typedef void (*IrLayoutFn)(void *ctx, const TLayout *l, const TType *t, StrBuf *out);
void ir_type_print_with(const TType *t, IrLayoutFn layout, void *ctx, StrBuf *out);

/* True for the types that carry a layout: tensors, shared memory,
 * mbarriers and tensor descriptors. */
bool ir_type_has_layout(const TType *t);
/* The shape a layout is fitted to in a type (or allocation) of shape
 * shape[0..rank-1]: the trailing dims ll covers (all of a tensor's, those
 * of one buffer of a shared-memory type) into out. Returns their count. */
int ir_layout_shape(const int64_t *shape, int rank, const LLayout *ll, int64_t *out);

#endif
