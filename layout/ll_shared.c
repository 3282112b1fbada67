/* Shared-memory layout constructors: NVMMASharedLayout (TMA/WGMMA
 * swizzles) and SwizzledSharedLayout, bit-exact with Triton. */
#include "layout/ll_internal.h"

/* Column `c` of a swizzle row as stored: itself, or with fp4 padding (each
 * 16 bytes hold 8 of data, then 8 of padding) the column whose data it
 * holds; the padding's offsets then map where the data's do, so the
 * layout's inverse picks the data's. */
static uint32_t
packed_col(int c, bool fp4_padded)
{
	return (uint32_t)(fp4_padded ? c / 16 * 8 + c % 8 : c);
}

/* getCoreMatrixLinearLayout: 8 rows x (8*sw/bitwidth) offsets a row; rows
 * 1, 2, 4 XOR the 16-byte chunk index with (row / per_phase) % max_phase.
 * With fp4 padding a row holds half as many columns (packed_col). */
static LLayout
core_matrix(int sw, int bitwidth, bool fp4_padded)
{
	int vec = 128 / bitwidth, per_phase = 128 / sw, max_phase = sw / 16;
	int cols = 8 * sw / bitwidth;
	LLayout l = ll_empty();
	ll_add_in(&l, LL_OFFSET, ll_log2((uint64_t)cols) + 3);
	ll_add_out(&l, LL_DIM0, 3);
	ll_add_out(&l, LL_DIM1, ll_log2((uint64_t)cols) - (fp4_padded ? 1 : 0));
	int k = 0;
	for (int c = 1; c < cols; c *= 2)
		ll_set_basis(&l, 0, k++, (uint32_t[]){0, packed_col(c, fp4_padded)});
	for (int r = 1; r < 8; r *= 2)
		ll_set_basis(&l, 0, k++,
		             (uint32_t[]){(uint32_t)r,
		                          packed_col(vec * ((r / per_phase) % max_phase), fp4_padded)});
	return l;
}

static bool
build_nvmma_shared(const LLDesc *d, const int64_t *shape, int rank, LLayout *out, LLErr *err)
{
	int sw = d->swizzle_byte_width, bw = d->element_bitwidth;
	if (sw != 0 && sw != 32 && sw != 64 && sw != 128)
		return ll_fail(err, "NVMMASharedLayout: swizzle_byte_width = %d, expected 0, 32, 64 "
		                    "or 128", sw);
	if (bw != 8 && bw != 16 && bw != 32 && bw != 64)
		return ll_fail(err, "NVMMASharedLayout: element_bitwidth = %d, expected 8, 16, 32 "
		                    "or 64", bw);
	if (d->rank < 1 || d->rank > LL_MAX_RANK)
		return ll_fail(err, "NVMMASharedLayout: rank = %d, expected 1 to 5", d->rank);
	if (d->rank != rank)
		return ll_fail(err, "NVMMASharedLayout: rank = %d but the tensor has rank %d", d->rank,
		               rank);
	if (d->fp4_padded && bw != 8)
		return ll_fail(err, "NVMMASharedLayout: fp4_padded=True holds packed fp4 pairs, so "
		                    "element_bitwidth must be 8, not %d", bw);
	/* getTMABlockShape(packedSize=true): with fp4 padding the contiguous dim
	 * counts fp4 values (two an element) until the swizzle row is cut. */
	int64_t tma[LL_MAX_RANK];
	int contig = d->transposed ? 0 : rank - 1;
	int pack = d->fp4_padded ? 2 : 1;
	for (int i = 0; i < rank; i++) {
		int64_t n = i == contig ? shape[i] * pack : shape[i];
		tma[i] = n < 256 ? n : 256;
	}
	LLayout l;
	if (sw == 0) {
		tma[contig] /= pack;
		l = ll_empty();
		for (int i = rank - 1; i >= 0; i--) {
			LLayout one = ll_identity_1d(ll_log2((uint64_t)tma[i]), LL_OFFSET,
			                             (LLName)(LL_DIM0 + i));
			ll_product(&l, &one, &l, NULL);
		}
	} else {
		int64_t atom = 8 * sw / bw;
		if (tma[contig] < atom)
			return ll_fail(err, "NVMMASharedLayout: dim%d has %lld elements, fewer than one "
			                    "%d-byte swizzle row (%lld elements of %d bits)", contig,
			               (long long)shape[contig], sw, (long long)(atom / pack), bw);
		tma[contig] = atom / pack;
		int64_t coll[2] = {1, tma[rank - 1]};
		for (int i = 0; i + 1 < rank; i++)
			coll[0] *= tma[i];
		if (d->transposed) {
			int64_t t = coll[0];
			coll[0] = coll[1];
			coll[1] = t;
		}
		if (coll[0] < 8)
			return ll_fail(err, "NVMMASharedLayout: the tile has %lld rows outside the "
			                    "contiguous dim, a swizzle atom needs 8", (long long)coll[0]);
		l = core_matrix(sw, bw, d->fp4_padded);
		if (!ll_fit_shape(&l, coll, 2, err))
			return false;
		int bits[LL_MAX_RANK];
		for (int i = 0; i < rank; i++)
			bits[i] = ll_log2((uint64_t)tma[d->transposed ? (i + 1) % rank : i]);
		if (!ll_reshape_outs(&l, bits, rank, &l, err))
			return false;
		if (d->transposed) {
			int perm[LL_MAX_RANK];
			perm[0] = rank - 1;
			for (int i = 1; i < rank; i++)
				perm[i] = i - 1;
			ll_transpose_outs(&l, perm, &l, NULL);
			for (int j = 0; j < rank; j++)
				l.out_name[j] = (uint8_t)(LL_DIM0 + j);
		}
	}
	ll_add_in(&l, LL_BLOCK, 0);
	*out = l;
	return true;
}

static bool
build_swizzled(const LLDesc *d, const int64_t *shape, int rank, LLayout *out, LLErr *err)
{
	if (d->vec < 1 || !ll_is_pow2(d->vec) || d->per_phase < 1 || !ll_is_pow2(d->per_phase) ||
	    d->max_phase < 1 || !ll_is_pow2(d->max_phase))
		return ll_fail(err, "SwizzledSharedLayout: vec = %d, per_phase = %d and max_phase = "
		                    "%d must be powers of two", d->vec, d->per_phase, d->max_phase);
	if (d->order.n != rank)
		return ll_fail(err, "SwizzledSharedLayout: order has %d entries but the tensor has "
		                    "rank %d", d->order.n, rank);
	int order[LL_MAX_RANK];
	unsigned seen = 0;
	for (int i = 0; i < rank; i++) {
		int64_t o = d->order.v[i];
		if (o < 0 || o >= rank || (seen >> o & 1))
			return ll_fail(err, "SwizzledSharedLayout: order is not a permutation of 0..%d",
			               rank - 1);
		seen |= 1u << o;
		order[i] = (int)o;
	}
	LLayout l;
	if (rank == 1) {
		l = ll_identity_1d(ll_log2((uint64_t)shape[0]), LL_OFFSET, LL_DIM0);
	} else {
		int cdim = order[0], rdim = order[1];
		int64_t cols = shape[cdim], rows = shape[rdim];
		l = ll_empty();
		ll_add_in(&l, LL_OFFSET, ll_log2((uint64_t)cols) + ll_log2((uint64_t)rows));
		ll_add_out(&l, (LLName)(LL_DIM0 + rdim), ll_log2((uint64_t)rows));
		ll_add_out(&l, (LLName)(LL_DIM0 + cdim), ll_log2((uint64_t)cols));
		int k = 0;
		for (int64_t c = 1; c < cols; c *= 2)
			ll_set_basis(&l, 0, k++, (uint32_t[]){0, (uint32_t)c});
		for (int64_t r = 1; r < rows; r *= 2) {
			int64_t c = (d->vec * ((r / d->per_phase) % d->max_phase)) % cols;
			ll_set_basis(&l, 0, k++, (uint32_t[]){(uint32_t)r, (uint32_t)c});
		}
		for (int i = 2; i < rank; i++) {
			LLayout one = ll_identity_1d(ll_log2((uint64_t)shape[order[i]]), LL_OFFSET,
			                             (LLName)(LL_DIM0 + order[i]));
			ll_product(&l, &one, &l, NULL);
		}
	}
	ll_add_in(&l, LL_BLOCK, 0);
	*out = l;
	return true;
}

bool
ll_build_shared(const LLDesc *d, const int64_t *shape, int rank, LLayout *out, LLErr *err)
{
	if (d->kind == LL_NVMMA_SHARED)
		return build_nvmma_shared(d, shape, rank, out, err);
	return build_swizzled(d, shape, rank, out, err);
}
