/* Distributed layout constructors (Blocked, Slice, DotOperand,
 * NVMMADistributed, DistributedLinear), bit-exact with Triton's
 * toLinearLayout, and the entry point ll_build. */
#include "layout/ll_internal.h"

bool
ll_desc_is_shared(const LLDesc *d)
{
	return d->kind == LL_NVMMA_SHARED || d->kind == LL_SWIZZLED_SHARED ||
	       d->kind == LL_SHARED_LINEAR || d->kind == LL_PADDED_SHARED;
}

/* A list of `rank` powers of two; bits[] receives their log2. */
static bool
pow2_list(const LLDesc *d, const char *what, const LLInts *v, int rank, int *bits, LLErr *err)
{
	if (v->n != rank)
		return ll_fail(err, "%s: %s has %d entries but the tensor has rank %d",
		               ll_kind_name(d->kind), what, v->n, rank);
	for (int i = 0; i < rank; i++) {
		if (!ll_is_pow2(v->v[i]))
			return ll_fail(err, "%s: %s[%d] = %lld is not a power of two",
			               ll_kind_name(d->kind), what, i, (long long)v->v[i]);
		if (v->v[i] > (1 << 30))
			return ll_fail(err, "%s: %s[%d] = %lld is larger than 2^30",
			               ll_kind_name(d->kind), what, i, (long long)v->v[i]);
		bits[i] = ll_log2((uint64_t)v->v[i]);
	}
	return true;
}

static bool
order_list(const LLDesc *d, const LLInts *v, int rank, int *order, LLErr *err)
{
	if (v->n != rank)
		return ll_fail(err, "%s: order has %d entries but the tensor has rank %d",
		               ll_kind_name(d->kind), v->n, rank);
	unsigned seen = 0;
	for (int i = 0; i < rank; i++) {
		if (v->v[i] < 0 || v->v[i] >= rank || (seen >> v->v[i] & 1))
			return ll_fail(err, "%s: order is not a permutation of 0..%d",
			               ll_kind_name(d->kind), rank - 1);
		seen |= 1u << v->v[i];
		order[i] = (int)v->v[i];
	}
	return true;
}

static bool
check_warps(const LLDesc *d, const int *wbits, int rank, int num_warps, LLErr *err)
{
	int total = 0;
	for (int i = 0; i < rank; i++)
		total += wbits[i];
	if (num_warps > 0 && (1 << total) != num_warps)
		return ll_fail(err, "%s: warps_per_cta multiplies to %d but the kernel has %d warps",
		               ll_kind_name(d->kind), 1 << total, num_warps);
	return true;
}

static void
append(LLayout *l, const LLayout *r)
{
	ll_product(l, r, l, NULL);
}

/* One CTA's layout as built: the block in-dim (no bits) appended; fitting
 * to the tile and the CGA part are ll_cga_combine's. */
static bool
finish(LLayout *l, LLayout *out)
{
	if (ll_in_index(l, LL_BLOCK) < 0)
		ll_add_in(l, LL_BLOCK, 0);
	*out = *l;
	return true;
}

static bool
build_blocked(const LLDesc *d, int rank, int num_warps, LLayout *out, LLErr *err)
{
	int spt[LL_MAX_RANK], tpw[LL_MAX_RANK], wpc[LL_MAX_RANK], order[LL_MAX_RANK];
	if (!pow2_list(d, "size_per_thread", &d->size_per_thread, rank, spt, err) ||
	    !pow2_list(d, "threads_per_warp", &d->threads_per_warp, rank, tpw, err) ||
	    !pow2_list(d, "warps_per_cta", &d->warps_per_cta, rank, wpc, err) ||
	    !order_list(d, &d->order, rank, order, err) ||
	    !check_warps(d, wpc, rank, num_warps, err))
		return false;
	int lanes = 0;
	for (int i = 0; i < rank; i++)
		lanes += tpw[i];
	if (lanes != 5)
		return ll_fail(err, "BlockedLayout: threads_per_warp multiplies to %d, expected 32 "
		                    "(the threads of one warp)", 1 << lanes);
	LLayout l = ll_identity_nd(LL_REGISTER, spt, order, rank);
	LLayout lane = ll_identity_nd(LL_LANE, tpw, order, rank);
	LLayout warp = ll_identity_nd(LL_WARP, wpc, order, rank);
	append(&l, &lane);
	append(&l, &warp);
	return finish(&l, out);
}

static bool
build_slice(const LLDesc *d, const int64_t *shape, int rank, int num_warps, LLayout *out,
            LLErr *err)
{
	if (!d->parent)
		return ll_fail(err, "SliceLayout: missing parent layout");
	if (ll_desc_is_shared(d->parent))
		return ll_fail(err, "SliceLayout: the parent must be a distributed layout");
	if (d->dim < 0 || d->dim > rank || rank + 1 > LL_MAX_RANK)
		return ll_fail(err, "SliceLayout: dim %d is out of range for a parent of rank %d",
		               d->dim, rank + 1);
	int64_t pshape[LL_MAX_RANK] = {0};
	for (int i = 0, k = 0; i <= rank; i++)
		pshape[i] = i == d->dim ? 1 : shape[k++];
	LLayout p;
	if (!ll_build(d->parent, pshape, rank + 1, num_warps, &p, err))
		return false;
	LLName outs[LL_MAX_RANK];
	for (int i = 0, k = 0; i <= rank; i++)
		if (i != d->dim)
			outs[k++] = (LLName)(LL_DIM0 + i);
	LLName ins[4] = {LL_REGISTER, LL_LANE, LL_WARP, LL_BLOCK};
	LLayout s;
	if (!ll_sublayout(&p, ins, 4, outs, rank, &s, err))
		return false;
	for (int j = 0; j < rank; j++)
		s.out_name[j] = (uint8_t)(LL_DIM0 + j);
	*out = ll_remove_zero_bases(&s, LL_REGISTER);
	return true;
}

/* Triton's nvidiaMmaTile: out-dims in repOrder (rank-1 .. 0), then kWidth
 * registers and 4 lanes along `inner`, 8 lanes and m/8 registers along
 * `outer`, n/(4 kWidth) registers along `inner`. */
static LLayout
mma_tile(int rank, int m, int n, int kw, int inner, int outer)
{
	int zero[LL_MAX_RANK] = {0}, rep[LL_MAX_RANK];
	for (int i = 0; i < rank; i++)
		rep[i] = rank - 1 - i;
	/* repetitions walk the K dim first: the inner one of an operand */
	rep[0] = inner;
	rep[1] = outer;
	LLayout l = ll_identity_nd(LL_REGISTER, zero, rep, rank);
	LLayout p[5] = {
		ll_identity_1d(ll_log2((uint64_t)kw), LL_REGISTER, (LLName)(LL_DIM0 + inner)),
		ll_identity_1d(2, LL_LANE, (LLName)(LL_DIM0 + inner)),
		ll_identity_1d(3, LL_LANE, (LLName)(LL_DIM0 + outer)),
		ll_identity_1d(ll_log2((uint64_t)(m / 8)), LL_REGISTER, (LLName)(LL_DIM0 + outer)),
		ll_identity_1d(ll_log2((uint64_t)(n / (kw * 4))), LL_REGISTER, (LLName)(LL_DIM0 + inner)),
	};
	for (int i = 0; i < 5; i++)
		append(&l, &p[i]);
	return l;
}

/* broadcastedDotOperandLayout: identity along `order` except zeros on kdim. */
static LLayout
broadcast_k(LLName in, const int *bits, const int *order, int rank, int kdim)
{
	LLayout l = ll_empty();
	for (int i = 0; i < rank; i++) {
		int dd = order[i];
		LLayout one = dd == kdim ? ll_zeros_1d(bits[dd], in, (LLName)(LL_DIM0 + dd))
		                         : ll_identity_1d(bits[dd], in, (LLName)(LL_DIM0 + dd));
		append(&l, &one);
	}
	return l;
}

/* The warp order of an NVMMA layout: column-major over the matrix dims on
 * Hopper (version 3), row-major on Ampere (version 2). */
static void
mma_warp_order(const LLDesc *d, int rank, int *order)
{
	for (int i = 0; i < rank; i++)
		order[i] = rank - 1 - i;
	if (d->version.v[0] == 3) {
		order[0] = rank - 2;
		order[1] = rank - 1;
	}
}

/* Ampere's mma.sync layout (version [2, 0], instr_shape [16, 8]): the
 * m16n8 tile; *n is its width. */
static bool
check_nvmma_v2(const LLDesc *d, int rank, int num_warps, int *wpc, int *n, LLErr *err)
{
	if (d->instr_shape.n != 2 || d->instr_shape.v[0] != 16 || d->instr_shape.v[1] != 8)
		return ll_fail(err, "NVMMADistributedLayout: version [2, 0] (Ampere mma) has "
		                    "instr_shape [16, 8]");
	*n = 8;
	return pow2_list(d, "warps_per_cta", &d->warps_per_cta, rank, wpc, err) &&
	       check_warps(d, wpc, rank, num_warps, err);
}

static bool
check_nvmma(const LLDesc *d, int rank, int num_warps, int *wpc, int *n, LLErr *err)
{
	if (rank < 2)
		return ll_fail(err, "NVMMADistributedLayout: needs a tensor of rank 2 or more, not %d",
		               rank);
	if (d->version.n < 1 || (d->version.v[0] != 3 && d->version.v[0] != 2) ||
	    (d->version.n > 1 && d->version.v[1] != 0))
		return ll_fail(err, "NVMMADistributedLayout: version must be [3, 0] (Hopper WGMMA) "
		                    "or [2, 0] (Ampere mma)");
	if (d->version.v[0] == 2)
		return check_nvmma_v2(d, rank, num_warps, wpc, n, err);
	if (d->instr_shape.n != 3)
		return ll_fail(err, "NVMMADistributedLayout: instr_shape has %d entries, expected "
		                    "3 ([16, n, k])", d->instr_shape.n);
	const int64_t *is = d->instr_shape.v;
	if (is[0] != 16)
		return ll_fail(err, "NVMMADistributedLayout: instr_shape[0] = %lld, WGMMA has m = 16 "
		                    "per warp", (long long)is[0]);
	if (is[1] < 8 || is[1] > 256 || is[1] % 8 || !ll_is_pow2(is[1]))
		return ll_fail(err, "NVMMADistributedLayout: instr_shape[1] = %lld, n must be a "
		                    "power of two multiple of 8 up to 256", (long long)is[1]);
	if (is[2] != 8 && is[2] != 16 && is[2] != 32)
		return ll_fail(err, "NVMMADistributedLayout: instr_shape[2] = %lld, k must be 8, 16 "
		                    "or 32 (256 / element bits)", (long long)is[2]);
	*n = (int)is[1];
	return pow2_list(d, "warps_per_cta", &d->warps_per_cta, rank, wpc, err) &&
	       check_warps(d, wpc, rank, num_warps, err);
}

static bool
build_nvmma(const LLDesc *d, int rank, int num_warps, LLayout *out, LLErr *err)
{
	int wpc[LL_MAX_RANK], n, worder[LL_MAX_RANK];
	if (!check_nvmma(d, rank, num_warps, wpc, &n, err))
		return false;
	LLayout l = mma_tile(rank, 16, n, 2, rank - 1, rank - 2);
	mma_warp_order(d, rank, worder);
	LLayout w = ll_identity_nd(LL_WARP, wpc, worder, rank);
	append(&l, &w);
	return finish(&l, out);
}

static bool
build_dot(const LLDesc *d, const int64_t *shape, int rank, int num_warps, LLayout *out,
          LLErr *err)
{
	const LLDesc *p = d->parent;
	if (!p)
		return ll_fail(err, "DotOperandLayout: missing parent layout");
	if (d->operand_index != 0 && d->operand_index != 1)
		return ll_fail(err, "DotOperandLayout: operand_index must be 0 (A) or 1 (B), not %d",
		               d->operand_index);
	if (rank < 2)
		return ll_fail(err, "DotOperandLayout: needs a tensor of rank 2 or more, not %d", rank);
	if (p->kind == LL_NVMMA_DISTRIBUTED) {
		int wpc[LL_MAX_RANK], n, worder[LL_MAX_RANK];
		if (!check_nvmma(p, rank, num_warps, wpc, &n, err))
			return false;
		if (d->operand_index != 0 && p->version.v[0] == 3)
			return ll_fail(err, "DotOperandLayout: on Hopper only operand 0 (A) can live in "
			                    "registers; B must come from shared memory");
		if (!ll_is_pow2(d->k_width) || d->k_width > 16)
			return ll_fail(err, "DotOperandLayout: k_width = %d must be a power of two up "
			                    "to 16 (32 / element bits)", d->k_width);
		/* A: a [16, 8 kw] tile, K inner; B (Ampere): [8 kw, 8], K inner */
		int kdim = d->operand_index == 0 ? rank - 1 : rank - 2;
		LLayout l = d->operand_index == 0
		            ? mma_tile(rank, 16, 8 * d->k_width, d->k_width, rank - 1, rank - 2)
		            : mma_tile(rank, 8, 8 * d->k_width, d->k_width, rank - 2, rank - 1);
		mma_warp_order(p, rank, worder);
		LLayout w = broadcast_k(LL_WARP, wpc, worder, rank, kdim);
		append(&l, &w);
		return finish(&l, out);
	}
	if (p->kind == LL_BLOCKED) {
		int spt[LL_MAX_RANK], tpw[LL_MAX_RANK], wpc[LL_MAX_RANK], order[LL_MAX_RANK];
		if (!pow2_list(p, "size_per_thread", &p->size_per_thread, rank, spt, err) ||
		    !pow2_list(p, "threads_per_warp", &p->threads_per_warp, rank, tpw, err) ||
		    !pow2_list(p, "warps_per_cta", &p->warps_per_cta, rank, wpc, err) ||
		    !order_list(p, &p->order, rank, order, err) ||
		    !check_warps(p, wpc, rank, num_warps, err))
			return false;
		int kdim = d->operand_index == 0 ? rank - 1 : rank - 2;
		spt[kdim] = ll_log2((uint64_t)shape[kdim]);
		LLayout l = ll_identity_nd(LL_REGISTER, spt, order, rank);
		LLayout lane = broadcast_k(LL_LANE, tpw, order, rank, kdim);
		LLayout warp = broadcast_k(LL_WARP, wpc, order, rank, kdim);
		append(&l, &lane);
		append(&l, &warp);
		return finish(&l, out);
	}
	return ll_fail(err, "DotOperandLayout: the parent must be an NVMMADistributedLayout or a "
	                    "BlockedLayout");
}

/* Checks a list of bases against the shape and stores it as in-dim `name`. */
static bool
put_bases(const LLDesc *d, const char *what, const LLBases *b, LLName name, const int64_t *shape,
          int rank, LLayout *l, LLErr *err)
{
	if (b->n > LL_MAX_LIST)
		return ll_fail(err, "%s: %s has %d bases, at most %d are allowed", ll_kind_name(d->kind),
		               what, b->n, LL_MAX_LIST);
	int i = ll_add_in(l, name, b->n);
	if (i < 0)
		return ll_fail(err, "%s: too many bases in total", ll_kind_name(d->kind));
	for (int k = 0; k < b->n; k++) {
		uint32_t v[LL_MAX_RANK];
		if (b->b[k].n != rank)
			return ll_fail(err, "%s: %s[%d] has %d coordinates but the tensor has rank %d",
			               ll_kind_name(d->kind), what, k, b->b[k].n, rank);
		for (int j = 0; j < rank; j++) {
			int64_t c = b->b[k].v[j];
			if (c < 0 || c >= shape[j])
				return ll_fail(err, "%s: %s[%d] has coordinate %lld outside dim%d of size %lld",
				               ll_kind_name(d->kind), what, k, (long long)c, j,
				               (long long)shape[j]);
			v[j] = (uint32_t)c;
		}
		ll_set_basis(l, i, k, v);
	}
	return true;
}

/* Shared by the two explicit linear layouts: the bases must cover the shape. */
static bool
check_covers(const LLDesc *d, const LLayout *l, const int64_t *shape, int rank, LLErr *err)
{
	if (ll_is_surjective(l))
		return true;
	StrBuf b = {0};
	ll_shape_text(shape, rank, ",", &b);
	bool r = ll_fail(err, "%s: the bases do not cover the shape %s (they reach %lld of %lld "
	                      "elements)", ll_kind_name(d->kind), b.s, 1ll << ll_rank(l),
	                 1ll << ll_total_out_bits(l));
	buf_free(&b);
	return r;
}

/* The layout of a DistributedLinearLayout on its own declared shape. */
static bool
linear_declared(const LLDesc *d, int num_warps, LLayout *out, LLErr *err)
{
	int rank = d->shape.n, total = 0;
	if (rank < 1 || rank > LL_MAX_RANK)
		return ll_fail(err, "DistributedLinearLayout: shape has %d entries, expected 1 to %d",
		               rank, LL_MAX_RANK);
	const int64_t *shape = d->shape.v;
	for (int i = 0; i < rank; i++) {
		if (!ll_is_pow2(shape[i]) || shape[i] > (1ll << 30))
			return ll_fail(err, "DistributedLinearLayout: shape[%d] = %lld is not a power of "
			                    "two", i, (long long)shape[i]);
		total += ll_log2((uint64_t)shape[i]);
	}
	if (total > 40)
		return ll_fail(err, "DistributedLinearLayout: the shape has 2^%d elements, too many "
		                    "for one CTA", total);
	if (d->lane_bases.n != 5)
		return ll_fail(err, "DistributedLinearLayout: lane_bases has %d bases, a warp of 32 "
		                    "lanes needs 5", d->lane_bases.n);
	if (num_warps > 0 && (1 << d->warp_bases.n) != num_warps)
		return ll_fail(err, "DistributedLinearLayout: warp_bases has %d bases (%d warps) but "
		                    "the kernel has %d warps", d->warp_bases.n, 1 << d->warp_bases.n,
		               num_warps);
	LLayout l = ll_empty();
	for (int j = 0; j < rank; j++)
		ll_add_out(&l, (LLName)(LL_DIM0 + j), ll_log2((uint64_t)shape[j]));
	if (!put_bases(d, "reg_bases", &d->reg_bases, LL_REGISTER, shape, rank, &l, err) ||
	    !put_bases(d, "lane_bases", &d->lane_bases, LL_LANE, shape, rank, &l, err) ||
	    !put_bases(d, "warp_bases", &d->warp_bases, LL_WARP, shape, rank, &l, err) ||
	    !put_bases(d, "block_bases", &d->block_bases, LL_BLOCK, shape, rank, &l, err) ||
	    !check_covers(d, &l, shape, rank, err))
		return false;
	*out = l;
	return true;
}

/* Built on its declared shape, then fitted to the tensor's like Triton's
 * LinearEncodingAttr::toLinearLayout (expand_dims gives a [64,1] tensor the
 * layout declared for [64,64]; a SliceLayout builds its parent at the shape
 * with 1 inserted). */
static bool
build_linear(const LLDesc *d, const int64_t *shape, int rank, int num_warps, LLayout *out,
             LLErr *err)
{
	if (!linear_declared(d, num_warps, out, err))
		return false;
	if (d->shape.n != rank)
		return ll_fail(err, "DistributedLinearLayout: shape has %d entries but the tensor has "
		                    "rank %d", d->shape.n, rank);
	return ll_fit_linear(out, shape, rank, err);
}

static bool
build_shared_linear(const LLDesc *d, const int64_t *shape, int rank, LLayout *out, LLErr *err)
{
	LLayout l = ll_empty();
	for (int j = 0; j < rank; j++)
		ll_add_out(&l, (LLName)(LL_DIM0 + j), ll_log2((uint64_t)shape[j]));
	if (!put_bases(d, "offset_bases", &d->offset_bases, LL_OFFSET, shape, rank, &l, err) ||
	    !put_bases(d, "block_bases", &d->block_bases, LL_BLOCK, shape, rank, &l, err) ||
	    !check_covers(d, &l, shape, rank, err))
		return false;
	*out = l;
	return true;
}

/* The layout of one CTA of the constructors with a CGA part, on its tile. */
static bool
build_cta(const LLDesc *d, const int64_t *tile, int rank, int num_warps, LLayout *out,
          LLErr *err)
{
	switch (d->kind) {
	case LL_BLOCKED: return build_blocked(d, rank, num_warps, out, err);
	case LL_DOT_OPERAND: return build_dot(d, tile, rank, num_warps, out, err);
	case LL_NVMMA_DISTRIBUTED: return build_nvmma(d, rank, num_warps, out, err);
	case LL_NVMMA_SHARED:
	case LL_SWIZZLED_SHARED: return ll_build_shared(d, tile, rank, out, err);
	default: return ll_fail(err, "unknown layout kind");
	}
}

/* Triton's combineCtaCgaWithShape: the CGA map of the cga_layout (none on
 * one CTA) cut to the shape, one CTA's layout built and fitted on the tile
 * that leaves, and the two multiplied. */
static bool
build_with_cga(const LLDesc *d, const int64_t *shape, int rank, int num_warps, LLayout *out,
               LLErr *err)
{
	LLBases cga = {0};
	ll_cga_of(d, &cga);
	LLayout g, l;
	int64_t tile[LL_MAX_RANK];
	return ll_cga_map(d, &cga, shape, rank, &g, tile, err) &&
	       build_cta(d, tile, rank, num_warps, &l, err) &&
	       ll_cga_combine(&l, &g, tile, rank, out, err);
}

static bool
build_kind(const LLDesc *d, const int64_t *shape, int rank, int num_warps, LLayout *out,
           LLErr *err)
{
	switch (d->kind) {
	case LL_SLICE: return build_slice(d, shape, rank, num_warps, out, err);
	case LL_DISTRIBUTED_LINEAR: return build_linear(d, shape, rank, num_warps, out, err);
	case LL_SHARED_LINEAR: return build_shared_linear(d, shape, rank, out, err);
	case LL_PADDED_SHARED: return ll_build_padded(d, shape, rank, out, err);
	case LL_AUTO: {
		/* Until inference decides: the default a tensor of this shape gets. */
		LLDesc def;
		ll_coalesced_fill(&def, shape, rank, 32, num_warps);
		return build_with_cga(&def, shape, rank, num_warps, out, err);
	}
	default: return build_with_cga(d, shape, rank, num_warps, out, err);
	}
}

bool
ll_build(const LLDesc *d, const int64_t *shape, int rank, int num_warps, LLayout *out,
         LLErr *err)
{
	if (rank < 1 || rank > LL_MAX_RANK)
		return ll_fail(err, "%s: tensors of rank %d are not supported (1 to %d)",
		               ll_kind_name(d->kind), rank, LL_MAX_RANK);
	int total = 0;
	for (int i = 0; i < rank; i++) {
		if (!ll_is_pow2(shape[i]))
			return ll_fail(err, "%s: tensor dim%d = %lld is not a power of two",
			               ll_kind_name(d->kind), i, (long long)shape[i]);
		if (shape[i] > (1ll << 30))
			return ll_fail(err, "%s: tensor dim%d = %lld is larger than 2^30",
			               ll_kind_name(d->kind), i, (long long)shape[i]);
		total += ll_log2((uint64_t)shape[i]);
	}
	if (total > 40)
		return ll_fail(err, "%s: the tensor has 2^%d elements, too many for one CTA",
		               ll_kind_name(d->kind), total);
	return build_kind(d, shape, rank, num_warps, out, err) && ll_check_cta_bases(d, out, err);
}
