/*
 * layout: linear layouts over GF(2), the constructors of Gluon's layouts
 * (bit-exact with Triton's toLinearLayout), conversion planning on the
 * algebra, and printers (JSON, owner table, F2 matrix, SVG).
 *
 * Pure value code: no I/O, never exits. An LLayout is a plain value (a
 * fixed-size struct, ~0.5 KB): copy it with `=`, compare it with ll_equal.
 * Anything that user input can break returns false and, when an LLErr is
 * given, a sentence in err->msg allocated in err->arena.
 *
 * Representation. A layout maps input dimensions (register, lane, warp,
 * block for distributed layouts; offset, block for shared ones) to output
 * dimensions (dim0..dim4, or hardware dims for conversion maps). Every
 * dimension has a power-of-two size, held as its number of bits. The input
 * bits of all in-dims are stacked into one index (in-dim 0 lowest); col[k] is
 * the image of input bit k, with the output bits packed row-major: the last
 * out-dim occupies the lowest bits, out-dim 0 the highest. So a row-major
 * reshape of the outputs is a relabelling, and ll_apply_packed is an XOR of
 * columns.
 */
#ifndef LAYOUT_H
#define LAYOUT_H

#include "support/support.h"

enum {
	LL_MAX_DIMS = 6,    /* in-dims or out-dims of one layout */
	LL_MAX_RANK = 5,    /* tensor rank */
	LL_MAX_BITS = 64,   /* total input bits and total output bits */
	LL_MAX_LIST = 32,   /* entries stored per list of a description */
	LL_MAX_CTA_BITS = 4, /* block bits: a Hopper cluster holds at most 16 CTAs */
};

/* Names of dimensions. */
typedef enum LLName {
	LL_REGISTER, LL_LANE, LL_WARP, LL_BLOCK, LL_OFFSET,
	LL_DIM0, LL_DIM1, LL_DIM2, LL_DIM3, LL_DIM4,
	LL_NAME_COUNT
} LLName;

typedef struct LLayout {
	uint8_t n_in, n_out;
	uint8_t in_name[LL_MAX_DIMS], in_bits[LL_MAX_DIMS];
	uint8_t out_name[LL_MAX_DIMS], out_bits[LL_MAX_DIMS];
	uint64_t col[LL_MAX_BITS];   /* image of input bit k; unused columns are 0 */
} LLayout;

/* Where an operation reports why it failed. msg stays NULL on success. */
typedef struct LLErr {
	Arena *arena;
	const char *msg;
} LLErr;

/* -- Building and reading ------------------------------------------------- */

/* The name as Triton spells it ("register", "lane", ..., "dim0"). */
const char *ll_name_str(LLName n);
/* The empty layout (no dims): the unit of ll_product. */
LLayout ll_empty(void);
/* Appends an in-dim (or out-dim) of 2^bits elements; returns its index, or
 * -1 when the name is already present or limits would be exceeded. */
int ll_add_in(LLayout *l, LLName name, int bits);
int ll_add_out(LLayout *l, LLName name, int bits);
/* Index of the dim with this name, or -1. */
int ll_in_index(const LLayout *l, LLName name);
int ll_out_index(const LLayout *l, LLName name);
/* Bits of the named dim; 0 when absent. */
int ll_in_bits(const LLayout *l, LLName name);
int ll_out_bits(const LLayout *l, LLName name);
/* First column of in-dim i; lowest packed output bit of out-dim j. */
int ll_in_start(const LLayout *l, int i);
int ll_out_shift(const LLayout *l, int j);
int ll_total_in_bits(const LLayout *l);
int ll_total_out_bits(const LLayout *l);
/* Sets basis `bit` of in-dim i to the coordinates v[0..n_out-1]. */
void ll_set_basis(LLayout *l, int i, int bit, const uint32_t *v);
/* Reads basis `bit` of in-dim i into v[0..n_out-1]. */
void ll_get_basis(const LLayout *l, int i, int bit, uint32_t *v);
/* identity1D(2^bits, in, out) and zeros1D(2^bits, in, out) as in Triton. */
LLayout ll_identity_1d(int bits, LLName in, LLName out);
LLayout ll_zeros_1d(int bits, LLName in, LLName out);
/* Packs per-out-dim values v[] into an output word, and back. */
uint64_t ll_pack_out(const LLayout *l, const uint32_t *v);
void ll_unpack_out(const LLayout *l, uint64_t packed, uint32_t *v);

/* -- Algebra -------------------------------------------------------------- */

/* L(x) for a packed input index x (in-dim 0 in the lowest bits). */
uint64_t ll_apply_packed(const LLayout *l, uint64_t x);
/* L(in) with in[i] the value of in-dim i; out[j] receives out-dim j. */
void ll_apply(const LLayout *l, const uint32_t *in, uint32_t *out);
/* Equality of maps: same dims (names, order, sizes) and same bases. */
bool ll_equal(const LLayout *a, const LLayout *b);
/* Triton's a * b: shared in-dims stack b's bits above a's; shared out-dims
 * shift b's outputs above a's size. Dims keep first-appearance order. */
bool ll_product(const LLayout *a, const LLayout *b, LLayout *out, LLErr *err);
/* outer ∘ l: l's out-dims must equal outer's in-dims (names and sizes,
 * any order). */
bool ll_compose(const LLayout *l, const LLayout *outer, LLayout *out, LLErr *err);
/* Rank of the matrix (Gaussian elimination over GF(2)). */
int ll_rank(const LLayout *l);
bool ll_is_injective(const LLayout *l);
bool ll_is_surjective(const LLayout *l);
/* The inverse of a bijection (in-dims and out-dims swap roles). */
bool ll_invert(const LLayout *l, LLayout *out, LLErr *err);
/* C with a(x) = b(C(x)); a and b have the same out-dims; C picks the
 * numerically smallest preimage when b is not injective. Fails when some
 * value of a is outside b's image. */
bool ll_invert_and_compose(const LLayout *a, const LLayout *b, LLayout *out, LLErr *err);
/* B with l(B(y)) = y for every y (smallest preimages); l must be surjective. */
bool ll_pseudo_invert(const LLayout *l, LLayout *out, LLErr *err);
/* masks[i]: bits of in-dim i that are free variables (do not change the
 * output given the lower input bits): duplicates and broadcasts. */
void ll_free_masks(const LLayout *l, uint64_t masks[LL_MAX_DIMS]);
/* Keeps only the listed in-dims and out-dims (sizes kept, listed order). */
bool ll_sublayout(const LLayout *l, const LLName *ins, int n_ins, const LLName *outs,
                  int n_outs, LLayout *out, LLErr *err);
/* C with a = b * C when a has that block form. */
bool ll_divide_left(const LLayout *a, const LLayout *b, LLayout *out, LLErr *err);
/* Largest V = 2^k such that V consecutive values of in-dim `in` map to V
 * consecutive values of out-dim `out` and no other basis touches the low
 * k bits of `out` (Triton's getNumConsecutiveInOut). */
int ll_num_consecutive(const LLayout *l, LLName in, LLName out);
/* Out-dims reordered: out-dim j of the result is out-dim perm[j] of l
 * (names kept: the same map, listed in another order). */
bool ll_transpose_outs(const LLayout *l, const int *perm, LLayout *out, LLErr *err);
/* The map of a permuted tensor (numpy transpose): out-dim j of the result,
 * named dim j, is out-dim perm[j] of l (l's out-dims are dim0..dim{n-1}). */
bool ll_permute_outs(const LLayout *l, const int *perm, LLayout *out, LLErr *err);
/* Out-dims replaced by dim0..dim{n-1} of 2^bits[j] elements each, row-major
 * (numpy reshape); the total size must match. */
bool ll_reshape_outs(const LLayout *l, const int *bits, int n, LLayout *out, LLErr *err);
/* The layouts of join and split (Triton's inferJoinOpEncoding and
 * inferSplitOpEncoding in linear form; l's out-dims are dim0..dim{n-1}):
 * join adds dim{n} (2 elements) as the first register bit; split removes
 * the last dim, which must be 2 elements given by one register bit that
 * nothing else moves along (else false with a sentence). */
bool ll_join(const LLayout *l, LLayout *out, LLErr *err);
bool ll_split(const LLayout *l, LLayout *out, LLErr *err);
/* The layout of gl.fp4_to_fp's result (Triton's inferFp4ToFpOpEncoding in
 * linear form; l's out-dims are dim0..dim{n-1}): identity1D(2, register,
 * dim{axis}) * l, so result register 2r + b holds nibble b (0: the low
 * one) of the byte in l's register r, and dim{axis} doubles. */
bool ll_fp4_unpacked(const LLayout *l, int axis, LLayout *out, LLErr *err);
/* Whether maps a and b give every thread the same elements: equal but for
 * the order of their register bases. */
bool ll_same_threads(const LLayout *a, const LLayout *b);
/* Drops the zero bases of in-dim `name` (Triton's removeZeroBasesAlongDim). */
LLayout ll_remove_zero_bases(const LLayout *l, LLName name);
/* True when l is the identity on dim `name` (same size as in and out) and
 * mixes it with no other dim; then *out is l without that dim. */
bool ll_quotient(const LLayout *l, LLName name, LLayout *out);

/* -- Layout descriptions (what the front end fills from source) ----------- */

typedef enum LLKind {
	LL_BLOCKED,            /* BlockedLayout(spt, tpw, wpc, order) */
	LL_SLICE,              /* SliceLayout(dim, parent) */
	LL_DOT_OPERAND,        /* DotOperandLayout(operand_index, parent, k_width) */
	LL_NVMMA_DISTRIBUTED,  /* NVMMADistributedLayout(version, wpc, instr_shape) */
	LL_DISTRIBUTED_LINEAR, /* DistributedLinearLayout(reg, lane, warp, block, shape) */
	LL_NVMMA_SHARED,       /* NVMMASharedLayout(swizzle, bitwidth, rank, transposed) */
	LL_SWIZZLED_SHARED,    /* SwizzledSharedLayout(vec, per_phase, max_phase, order) */
	LL_SHARED_LINEAR,      /* SharedLinearLayout(offset_bases, block_bases) */
	LL_PADDED_SHARED,      /* PaddedSharedLayout(interval_padding_pairs, offset_bases,
	                          block_bases, shape): a linear part (offset ->
	                          coordinates) and a padding (LLPadding) */
	LL_AUTO,               /* AutoLayout(id): a layout left to inference (the
	                          layout-infer pass); fitted meanwhile as Triton's
	                          default coalesced BlockedLayout for 32-bit data */
} LLKind;

/* A list of integers as written: n is the count given (may exceed
 * LL_MAX_LIST; only the first LL_MAX_LIST are stored). */
typedef struct LLInts {
	int n;
	int64_t v[LL_MAX_LIST];
} LLInts;

/* A list of basis vectors as written; each basis keeps its own length. */
typedef struct LLBases {
	int n;
	LLInts b[LL_MAX_LIST];
} LLBases;

typedef struct LLDesc LLDesc;
struct LLDesc {
	LLKind kind;
	/* Blocked */
	LLInts size_per_thread, threads_per_warp, warps_per_cta, order;
	/* Blocked, NVMMADistributed, NVMMAShared, SwizzledShared: Gluon's
	 * cga_layout, the block bases in units of one CTA's tile (basis i: the
	 * tile CTA 2^i holds); empty on one CTA. Slice and DotOperand derive
	 * theirs from the parent; the linear kinds give block_bases instead. */
	LLBases cga_layout;
	/* Slice, DotOperand */
	int dim;
	const LLDesc *parent;
	int operand_index, k_width;
	/* NVMMADistributed (warps_per_cta above) */
	LLInts version, instr_shape;
	/* DistributedLinear / SharedLinear / PaddedShared */
	LLBases reg_bases, lane_bases, warp_bases, block_bases, offset_bases;
	LLInts shape;
	/* PaddedShared: [interval, padding] pairs, in elements */
	LLBases interval_padding_pairs;
	/* NVMMAShared */
	int swizzle_byte_width, element_bitwidth, rank;
	bool transposed;
	bool fp4_padded;  /* packed fp4 in 8-bit elements, half of each 16 bytes padding */
	/* SwizzledShared (order above) */
	int vec, per_phase, max_phase;
	/* Auto: which unknown (ids are per kernel) */
	int auto_id;
};

/* True for the shared-memory kinds. */
bool ll_desc_is_shared(const LLDesc *d);
/* The linear layout of d fitted to shape[0..rank-1] exactly as Gluon fits
 * it. num_warps > 0 also checks the warp count. On a bad description or
 * shape returns false with a sentence naming the parameter. */
bool ll_build(const LLDesc *d, const int64_t *shape, int rank, int num_warps,
              LLayout *out, LLErr *err);
/* The constructor's name of kind k, as Gluon spells it ("BlockedLayout",
 * ...; "layout" for no kind). */
const char *ll_kind_name(LLKind k);
/* Constructor text, e.g. `BlockedLayout([1,4],[8,4],[4,1],[1,0])`. */
void ll_desc_print(const LLDesc *d, StrBuf *out);
/* Reads constructor text as ll_desc_print writes it (blanks between tokens
 * allowed) from s[0..len-1]; the description and its parents are allocated
 * in a. On success *consumed is the length of the text read (what follows
 * is left alone); on failure *out is NULL, *consumed is the offset of the
 * mistake and err (when given) says what was expected there. */
bool ll_desc_parse(const char *s, size_t len, Arena *a, const LLDesc **out, size_t *consumed,
                   LLErr *err);
/* Equality of descriptions as Gluon's layouts compare: the same
 * constructor with the same parameters (parents compared the same way). */
bool ll_desc_equal(const LLDesc *a, const LLDesc *b);

/* Descriptions the compiler makes (allocated in a): SliceLayout(dim,
 * parent); DotOperandLayout(operand_index, parent, k_width); the WGMMA
 * accumulator NVMMADistributedLayout([3, 0], [num_warps, 1],
 * [16, instr_n, instr_k]); the
 * SharedLinearLayout whose offset bases are those of shared map ll; the
 * DistributedLinearLayout with the register, lane, warp and block bases of
 * distributed map ll on shape[0..rank-1]; and
 * Triton's default coalesced BlockedLayout for shape with elements of
 * `bits` bits (16-byte vectors along the last dim, then lanes and warps
 * from the fastest dim outwards). */
const LLDesc *ll_desc_slice(Arena *a, const LLDesc *parent, int dim);
const LLDesc *ll_desc_dot_operand(Arena *a, const LLDesc *parent, int operand_index,
                                  int k_width);
const LLDesc *ll_desc_wgmma(Arena *a, int num_warps, int instr_n, int instr_k);
const LLDesc *ll_desc_shared_linear(Arena *a, const LLayout *ll);
const LLDesc *ll_desc_distributed_linear(Arena *a, const LLayout *ll, const int64_t *shape,
                                         int rank);
const LLDesc *ll_desc_coalesced(Arena *a, const int64_t *shape, int rank, int bits,
                                int num_warps);
/* Triton's BlockedLayout for shape[0..rank-1] with spt elements per
 * thread and dims in `order` (fastest first): lanes, then warps, spread
 * from the fastest dim out, the slowest taking what is left (Triton's
 * BlockedEncodingAttr::get; ll_blocked.c). */
const LLDesc *ll_desc_blocked_fit(Arena *a, const int64_t *shape, int rank, const int64_t *spt,
                                  const int64_t *order, int num_warps);
/* Triton's default layout of a shape: one element per thread, order
 * [rank-1, ..., 0], through ll_desc_blocked_fit. */
const LLDesc *ll_desc_blocked_default(Arena *a, const int64_t *shape, int rank, int num_warps);
/* AutoLayout(id), an unknown to be inferred. */
const LLDesc *ll_desc_auto(Arena *a, int id);
/* True when d is AutoLayout or a slice or dot operand of one. */
bool ll_desc_has_auto(const LLDesc *d);

/* -- Clusters: CGA layouts (ll_cga.c, ll_cta.c) ------------------------------ */

/* A layout's block in-dim says which CTA of the cluster holds what: CTA c
 * holds l(x, c) = l(x, 0) ^ l(block = c), x over the other in-dims. The
 * constructors that take a cga_layout get their block bases as Triton's
 * combineCtaCgaWithShape gives them: the cga_layout is a map block -> CTA
 * tiles (each dim as long as the smallest power of two above its largest
 * coordinate; every tile must be reached), cut to the tensor's shape (a
 * tensor smaller than the grid broadcasts); one CTA's layout is built and
 * fitted on shape / that grid, and the block bases are the cga_layout's
 * scaled by the tile. An empty cga_layout (one CTA) changes nothing. */

/* log2 of the number of CTAs the layout of d spans: the number of
 * cga_layout bases (Slice, DotOperand: the parent's) or of block_bases
 * (the linear kinds); -1 for AutoLayout (inference decides). A layout is
 * valid in a kernel only when this is log2 of its num_ctas. */
int ll_desc_cta_bits(const LLDesc *d);
/* Gluon's `layout.cga_layout`: d's own; SliceLayout's is the parent's
 * without coordinate `dim`, DotOperandLayout's the parent's with the K
 * coordinate (the last for operand 0, the one before for operand 1)
 * zeroed. False, out untouched, for the linear kinds and AutoLayout,
 * which have none. */
bool ll_desc_cga_layout(const LLDesc *d, LLBases *out);
/* One CTA's layout: l without its block in-dim (kept with 0 bits) and with
 * the coordinate bits that only block bases reach deleted from the
 * out-dims, so each out-dim counts positions inside CTA 0's part (for a
 * dim split over CTAs along its top bits: the tile; the bits deleted are
 * found from the highest down). A layout with no block bits, or only zero
 * ones, comes back unchanged. Fails when l's non-block bases cannot be
 * squeezed (never for layouts ll_build makes). */
bool ll_cta_tile(const LLayout *l, LLayout *out, LLErr *err);
/* Which part of the tensor CTA `cta` holds, as a box: extent[j] elements
 * of dim j from origin[j]. Fails with a sentence when the parts are not
 * boxes (the non-block bases must reach exactly the low bits of each dim:
 * then every CTA's part is that box moved by its block bases). */
bool ll_cta_box(const LLayout *l, int cta, int64_t *origin, int64_t *extent, LLErr *err);
/* The CTAs whose copy is CTA `cta`'s element for element (l(x, c) =
 * l(x, cta) for every x: the block bases of c ^ cta XOR to zero), as a
 * mask, bit c for CTA c (cta's own bit included). For a shared layout
 * broadcast over CTAs (zero block bases) it is the ctaMask of a
 * `multicast::cluster` TMA load: those CTAs receive the same box at the
 * same offsets; for a distributed layout, the CTAs holding the same
 * registers. 1 for a layout without block bits and cta 0; 0 for a cta out
 * of range. */
uint32_t ll_cta_multicast_mask(const LLayout *l, int cta);

/* -- Padded shared layouts (ll_padded.c) ------------------------------------ */

/* A PaddedSharedLayout is not a linear map: ll_build gives its linear part
 * (offset -> coordinates, a permutation of the coordinate bits) and the
 * padding below places each linear offset x in memory at
 *     pad(x) = x + sum over pairs of (x >> log2 interval) << log2 padding,
 * i.e. `padding` unused elements after every `interval` elements, summed
 * over the pairs (Triton's PaddedSharedEncodingAttr). pad is additive over
 * offsets with disjoint bits: pad(a | b) = pad(a) + pad(b) when a & b = 0. */
typedef struct LLPadding {
	int n;                                /* pairs; 0: no padding */
	uint8_t interval_bits[LL_MAX_LIST];   /* log2 of each interval */
	uint8_t pad_bits[LL_MAX_LIST];        /* log2 of each padding */
} LLPadding;

/* The padding of d: its pairs for a PaddedSharedLayout whose pairs are
 * valid (ll_desc_verify), none (n = 0) for every other layout. */
LLPadding ll_desc_padding(const LLDesc *d);
/* Whether a and b pad alike (the same pairs, in any order). */
bool ll_padding_equal(const LLPadding *a, const LLPadding *b);
/* pad(x) above: where linear offset x sits, in elements. */
int64_t ll_pad(const LLPadding *p, int64_t x);
/* Elements that `elems` linear offsets 0..elems-1 span once padded
 * (pad(elems - 1) + 1; Triton's getPaddedSize); 0 for none. */
int64_t ll_padded_size(const LLPadding *p, int64_t elems);
/* The most elements V (a power of two, at most 2^30) such that every run
 * of V linear offsets starting at a multiple of V stays V consecutive
 * elements, starting at a multiple of V, once padded: the smallest
 * interval or padding. */
int ll_padding_vector(const LLPadding *p);
/* The checks Gluon's PaddedSharedLayout makes when it is constructed and
 * by .verify(): at least one pair, pairs of two powers of two with no
 * interval twice, a non-empty shape, bases of the shape's rank. True for
 * other layouts. */
bool ll_desc_verify(const LLDesc *d, LLErr *err);
/* PaddedSharedLayout.with_identity_for(pairs, shape, order): the pairs
 * over the row-major identity of shape[0..rank-1] whose offset bits walk
 * the dims in `order` (fastest first); NULL with a sentence when shape is
 * not powers of two or order is not a permutation. */
const LLDesc *ll_desc_padded_identity(Arena *a, const LLBases *pairs, const int64_t *shape,
                                      const int64_t *order, int rank, LLErr *err);
/* The PaddedSharedLayout with the pairs of `padded` whose linear part is
 * shared map ll over shape[0..rank-1] (a view of a padded buffer). */
const LLDesc *ll_desc_padded(Arena *a, const LLDesc *padded, const LLayout *ll,
                             const int64_t *shape, int rank);

/* The descriptions Triton 3.6 gives the results of the register shape
 * operations on an operand described by d (ll_desc_shape.c): reshaped from
 * shape `from` to `to`, permuted (result dim i is operand dim perm[i]),
 * joined (a new last dim of 2) and split (the last dim of 2 removed);
 * rank is the operand's. ll_desc_permuted also gives a shared buffer's
 * permuted view (Triton's memdesc_trans: an NVMMASharedLayout with
 * `transposed` flipped for [1, 0] in 2-D, a SwizzledSharedLayout with its
 * order renumbered) and ll_desc_smem_reshaped a reshaped view's (Triton's
 * memdesc_reshape: an NVMMASharedLayout of the new rank). NULL where
 * Triton describes the result by its linear map. The caller checks that
 * the description builds the map. */
const LLDesc *ll_desc_reshaped(Arena *a, const LLDesc *d, const int64_t *from, int from_rank,
                               const int64_t *to, int to_rank, int num_warps);
const LLDesc *ll_desc_permuted(Arena *a, const LLDesc *d, const int *perm, int rank);
const LLDesc *ll_desc_smem_reshaped(Arena *a, const LLDesc *d, int to_rank);
const LLDesc *ll_desc_joined(Arena *a, const LLDesc *d, int rank);
const LLDesc *ll_desc_split(Arena *a, const LLDesc *d, int rank);
/* The register shape operations whose result layout is derived from the
 * operand's. */
typedef enum LLShapeOp { LL_OP_RESHAPE, LL_OP_PERMUTE, LL_OP_JOIN, LL_OP_SPLIT } LLShapeOp;
/* The result layout of op on an operand described by d, fitted to shape
 * in[0..rank-1] as ll (ll_shape_result.c): the result's shape into
 * shape[0..*out_rank-1], its map into *out, and its description, the
 * constructor form Triton derives when it builds to the same threads, else
 * a DistributedLinearLayout (a split of a rank-1 tensor gives scalars:
 * d). arg[0..n-1] is a reshape's new shape or a permute's order (result
 * dim i is operand dim arg[i]). NULL with err->msg when the algebra has no
 * such map. */
const LLDesc *ll_shape_result(Arena *a, LLShapeOp op, const LLDesc *d, const LLayout *ll,
                              const int64_t *in, int rank, const int64_t *arg, int n,
                              int num_warps, int64_t *shape, int *out_rank, LLayout *out,
                              LLErr *err);
/* gl.fp4_to_fp's result along `axis` (Triton's legacy forms, used when the
 * axis comes first in the operand's order): a BlockedLayout with
 * size_per_thread[axis] doubled, a DotOperandLayout with k_width doubled;
 * NULL otherwise. */
const LLDesc *ll_desc_fp4_unpacked(Arena *a, const LLDesc *d, int axis, int rank);

/* -- Memory access analysis ----------------------------------------------- */

/* Cost of one warp-wide shared-memory access instruction. */
typedef struct LLBankCost {
	int vec;            /* elements per thread per instruction */
	int wavefronts;     /* shared-memory wavefronts per instruction */
	int ideal;          /* wavefronts with no bank conflict */
} LLBankCost;

/* A distributed layout `dist` reading or writing a shared layout `shared`
 * (same tensor) with elements of `bitwidth` bits: the vector width and the
 * wavefronts of each ld/st.shared instruction. Banks: 32 x 4 bytes; 8-byte
 * accesses go by half-warps, 16-byte ones by quarter-warps. Over several
 * CTAs the cost is one CTA's (every CTA's accesses are CTA 0's moved by a
 * constant); a dist whose CTAs need elements that their own CTA's buffer
 * lacks is refused (that would read distributed shared memory). */
bool ll_bank_conflicts(const LLayout *dist, const LLayout *shared, int bitwidth,
                       LLBankCost *cost, LLErr *err);
/* Gluon's gl.bank_conflicts (Triton 3.6's bankConflictsMemDesc): with
 * register broadcasts removed and the widest vector of at most 128 bits
 * that dist's registers give along shared's offsets, the shared offsets
 * split into vector, bank (32 x 32 bits) and segment bits; the count is
 * 2^k - 1, k the dimension of the span of the segment bases met by the
 * span of dist's lane bases (those of one wavefront: without the highest
 * log2(vector bits / 32) lanes). bitwidth >= 1. Per CTA, as above. */
bool ll_gluon_bank_conflicts(const LLayout *dist, const LLayout *shared, int bitwidth, int *out,
                             LLErr *err);
/* Elements per global ld/st for a row-major contiguous tensor in layout l:
 * contiguity of registers along the last dim, capped at 16 bytes and by the
 * known alignment of the base address (align_bytes, a power of two). */
int ll_global_vector_width(const LLayout *l, int bitwidth, int align_bytes);

/* -- Conversion planning --------------------------------------------------- */

typedef enum LLCvtKind { LL_CVT_FREE, LL_CVT_SHUFFLE, LL_CVT_SHARED } LLCvtKind;

/* One shfl.sync.idx round inside each warp: lane l sends its register
 * send_reg[l]; lane l reads lane src_lane[l]; lanes in recv_mask store the
 * value into their register dst_reg[l]. */
typedef struct LLShuffleRound {
	uint32_t recv_mask;
	int dst_reg[32];
	uint8_t src_lane[32];
	int send_reg[32];
} LLShuffleRound;

typedef struct LLCvtPlan {
	LLCvtKind kind;
	int bitwidth;
	LLayout map;        /* dst hardware -> src hardware, after quotienting */
	int n_src_regs, n_dst_regs;
	/* free: dst register i is src register reg_perm[i] of the same thread */
	int *reg_perm;
	/* shuffle */
	int n_rounds;
	LLShuffleRound *rounds;
	/* shared: scratch layout (offset -> tensor), and the hardware -> offset
	 * maps of the store (src side) and the load (dst side) */
	LLayout smem, store, load;
	LLBankCost store_cost, load_cost;
	int64_t scratch_bytes;
	int smem_rounds;    /* barrier-separated rounds (1: whole tile at once) */
} LLCvtPlan;

/* Plans convert_layout from distributed layout src to dst (same shape) for
 * elements of `bitwidth` bits (8, 16, 32 or 64). Arrays live in err->arena
 * (err is required). Follows Triton's minimalCvtLayout: free when only
 * registers move, shuffles when only registers and lanes move, otherwise
 * shared memory through a swizzled scratch layout chosen to avoid bank
 * conflicts on both sides. Layouts over several CTAs (the same number on
 * both sides) plan as one CTA's parts (ll_cta_tile) when the block dim
 * quotients out, i.e. every CTA moves its elements as CTA 0 does (equal
 * block bases); a conversion that moves elements between CTAs (or whose
 * CTAs would convert differently) is refused with a sentence: it needs
 * distributed shared memory, which is not planned. */
bool ll_plan_convert(const LLayout *src, const LLayout *dst, int bitwidth,
                     LLCvtPlan *plan, LLErr *err);
const char *ll_cvt_kind_str(LLCvtKind k);

/* -- Printers --------------------------------------------------------------- */

/* Every printer takes the padding of a PaddedSharedLayout as pad (NULL or
 * n = 0: none; l is then its linear part). */
/* {"kind":"distributed","shape":[..],"bases":{"register":[[..]],...}} and a
 * newline; shared layouts print "offset" and "block" (and a padded one
 * "padding":[[interval,padding],...]); other maps print "kind":"map" with
 * "outs". */
void ll_format_json(const LLayout *l, const LLPadding *pad, StrBuf *out);
/* Owner table: per element the first thread/register holding it
 * (`t5:r3`, warps folded into t = 32*warp + lane), or for shared layouts
 * its offset (padded). Rank 3+ prints a 2-D slice per index of the leading
 * dims. */
void ll_format_text(const LLayout *l, const LLPadding *pad, StrBuf *out);
/* The F2 matrix: one row per output bit (dim0[2]), one column per input
 * bit (reg0, lane3, warp1, off5, blk0); a padding follows on one line. */
void ll_format_matrix(const LLayout *l, const LLPadding *pad, StrBuf *out);
/* An SVG picture of the tile (rank 1 or 2; leading dims of rank 3+ fixed
 * at 0): cells coloured by warp and lane, labelled T5:R3; shared layouts
 * label offsets (padded) and colour by 16-byte chunk (bitwidth gives the
 * chunk). */
void ll_format_svg(const LLayout *l, const LLPadding *pad, int bitwidth, StrBuf *out);
/* The conversion report: map and plan with its cost (the JSON form is one
 * object on one line, ending with a newline). */
void ll_plan_report_text(const LLCvtPlan *p, StrBuf *out);
void ll_plan_report_json(const LLCvtPlan *p, StrBuf *out);

#endif
