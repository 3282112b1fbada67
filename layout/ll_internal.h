/*
 * Helpers shared by the files of layout/ (not part of the public API).
 */
#ifndef LL_INTERNAL_H
#define LL_INTERNAL_H

#include "layout/layout.h"

/* Records a failure: formats msg into err->arena when err is given. Always
 * returns false so callers can `return ll_fail(err, ...)`. */
bool ll_fail(LLErr *err, const char *fmt, ...) GL_PRINTF(2, 3);

/* An incremental GF(2) basis: vectors are reduced by their highest bit;
 * comb[b] records which inserted tags combine into piv[b]. */
typedef struct LLGf2 {
	uint64_t piv[LL_MAX_BITS];
	uint64_t comb[LL_MAX_BITS];
	int rank;
} LLGf2;

void ll_gf2_init(LLGf2 *g);
/* Inserts v tagged with `tag`; true when v was independent of the basis. */
bool ll_gf2_insert(LLGf2 *g, uint64_t v, uint64_t tag);
/* Reduces v by the basis: returns the residue and XORs the tags used into
 * *tags (when not NULL). Residue 0 means v is in the span. */
uint64_t ll_gf2_reduce(const LLGf2 *g, uint64_t v, uint64_t *tags);

/* Packs and unpacks input indices (in-dim 0 in the lowest bits). */
uint64_t ll_pack_in(const LLayout *l, const uint32_t *v);
void ll_unpack_in(const LLayout *l, uint64_t x, uint32_t *v);
/* Mask of the packed output bits of out-dim j. */
uint64_t ll_out_mask(const LLayout *l, int j);
/* log2 of a power of two (floor for others). */
static inline int
ll_log2(uint64_t v)
{
	int k = 0;
	while (v > 1) {
		v >>= 1;
		k++;
	}
	return k;
}
static inline bool
ll_is_pow2(int64_t v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

/* The linear part of a PaddedSharedLayout on shape (ll_build dispatches
 * to it): the offset bases, which must span exactly the shape. */
bool ll_build_padded(const LLDesc *d, const int64_t *shape, int rank, LLayout *out,
                     LLErr *err);
/* NVMMAShared and SwizzledShared on one CTA's tile, before fitting
 * (ll_build dispatches to it). */
bool ll_build_shared(const LLDesc *d, const int64_t *shape, int rank, LLayout *out,
                     LLErr *err);
/* Triton's ensureLayoutNotSmallerThan / ensureLayoutNotLargerThan on the
 * layout's out-dims (named dim0..), then its out-dims put in standard order. */
bool ll_fit_shape(LLayout *l, const int64_t *shape, int rank, LLErr *err);
/* LinearEncodingAttr::toLinearLayout: out-dims taken in the order the
 * register bases reach them, ensureLayoutNotSmallerThan, then
 * ensureLayoutNotLargerThan removing (not zeroing) register bases; out-dims
 * end in standard order. */
bool ll_fit_linear(LLayout *l, const int64_t *shape, int rank, LLErr *err);
/* ensureLayoutNotLargerThan on out-dims dim0.. (zeroing the largest bases
 * of a dim until it fits shape), then out-dims resized and in standard order. */
void ll_shrink(LLayout *l, const int64_t *shape);
/* Triton's identityStandardND(in, sizes, order) (sizes as bit counts). */
LLayout ll_identity_nd(LLName in, const int *bits, const int *order, int rank);
/* Out-dims permuted so that they read dim0, dim1, ... */
LLayout ll_standard_outs(const LLayout *l);

/* -- CGA layouts (ll_cga.c, ll_cta.c) -- */

/* Triton 3.6's checks of the block bases of l, the layout of d: at most
 * 2^LL_MAX_CTA_BITS CTAs; in a distributed layout each basis moves along
 * one dim at most; in a shared one the nonzero bases are independent of the
 * offsets and of each other. */
bool ll_check_cta_bases(const LLDesc *d, const LLayout *l, LLErr *err);

/* The cga_layout d builds its block bases from: its own (Blocked,
 * NVMMADistributed, NVMMAShared, SwizzledShared), or a DotOperandLayout's
 * parent's with the K coordinate zeroed; false for the other kinds. */
bool ll_cga_of(const LLDesc *d, LLBases *out);
/* The block -> tensor map of cga_layout bases for shape[0..rank-1]
 * (Triton's CGA layout made no larger than the shape); cta_shape receives
 * one CTA's tile, shape over the CGA's size (at least 1) per dim. */
bool ll_cga_map(const LLDesc *d, const LLBases *cga, const int64_t *shape, int rank,
                LLayout *out, int64_t *cta_shape, LLErr *err);
/* combineCtaCgaWithShape: cta (one CTA's layout, out-dims dim0.. in any
 * order) fitted to cta_shape, times the CGA map (its bases scaled by the
 * tile). */
bool ll_cga_combine(LLayout *cta, const LLayout *cga, const int64_t *cta_shape, int rank,
                    LLayout *out, LLErr *err);
/* l with its block in-dim cut to 0 bits and its out-dims squeezed as
 * ll_cta_tile squeezes ref's: the coordinate bits CTA 0's part of ref does
 * not span are deleted. Fails when a non-block basis of l lies outside
 * that part. */
bool ll_cta_squeeze(const LLayout *ref, const LLayout *l, LLayout *out, LLErr *err);
/* Whether every CTA c finds among the elements `have` gives CTA c all
 * those `need` gives it (same number of block bits); else false with a
 * sentence. */
bool ll_cta_covers(const LLayout *have, const LLayout *need, LLErr *err);

/* Cost of the accesses of `access` (hardware -> offset, offset counted in
 * elements of `bitwidth` bits), vectorizing registers up to renaming. */
void ll_access_cost(const LLayout *access, int bitwidth, LLBankCost *cost);

/* "[d0<sep>d1...]" of shape appended to b (messages). */
void ll_shape_text(const int64_t *shape, int rank, const char *sep, StrBuf *b);

/* Triton's default coalesced BlockedLayout (ll_desc_coalesced) into d. */
void ll_coalesced_fill(LLDesc *d, const int64_t *shape, int rank, int bits, int num_warps);
/* d = BlockedLayout(spt, tpw, wpc, order) of rank dims. */
void ll_blocked_fill(LLDesc *d, int rank, const int64_t *spt, const int64_t *tpw, const int64_t *wpc,
                     const int64_t *order);

#endif
