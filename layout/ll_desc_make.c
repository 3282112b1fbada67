/*
 * Layout descriptions made by the compiler rather than written by the user:
 * slices, dot operands, WGMMA accumulators, transposed NVMMA views, the
 * SharedLinearLayout of an arbitrary shared map, the PaddedSharedLayout of
 * a view of a padded buffer, the DistributedLinearLayout
 * of an arbitrary distributed one, and Triton's default
 * coalesced BlockedLayout. Everything is allocated in the given arena.
 */
#include "layout/ll_internal.h"

#include <string.h>

static LLDesc *
new_desc(Arena *a, LLKind kind)
{
	LLDesc *d = arena_alloc(a, sizeof *d);
	d->kind = kind;
	return d;
}

static void
set_ints(LLInts *l, const int64_t *v, int n)
{
	l->n = n;
	for (int i = 0; i < n; i++)
		l->v[i] = v[i];
}

/* The bases of in-dim `name` of ll into list l (none when ll lacks it). */
static void
copy_bases(const LLayout *ll, LLName name, LLBases *l)
{
	int i = ll_in_index(ll, name);
	l->n = i < 0 ? 0 : ll->in_bits[i];
	for (int b = 0; b < l->n && b < LL_MAX_LIST; b++) {
		uint32_t v[LL_MAX_DIMS];
		ll_get_basis(ll, i, b, v);
		l->b[b].n = ll->n_out;
		for (int j = 0; j < ll->n_out; j++)
			l->b[b].v[j] = v[j];
	}
}

const LLDesc *
ll_desc_slice(Arena *a, const LLDesc *parent, int dim)
{
	LLDesc *d = new_desc(a, LL_SLICE);
	d->dim = dim;
	d->parent = parent;
	return d;
}

const LLDesc *
ll_desc_dot_operand(Arena *a, const LLDesc *parent, int operand_index, int k_width)
{
	LLDesc *d = new_desc(a, LL_DOT_OPERAND);
	d->parent = parent;
	d->operand_index = operand_index;
	d->k_width = k_width;
	return d;
}

const LLDesc *
ll_desc_wgmma(Arena *a, int num_warps, int instr_n, int instr_k)
{
	LLDesc *d = new_desc(a, LL_NVMMA_DISTRIBUTED);
	d->version = (LLInts){.n = 2, .v = {3, 0}};
	d->warps_per_cta = (LLInts){.n = 2, .v = {num_warps, 1}};
	d->instr_shape = (LLInts){.n = 3, .v = {16, instr_n, instr_k}};
	return d;
}

const LLDesc *
ll_desc_shared_linear(Arena *a, const LLayout *ll)
{
	LLDesc *d = new_desc(a, LL_SHARED_LINEAR);
	copy_bases(ll, LL_OFFSET, &d->offset_bases);
	copy_bases(ll, LL_BLOCK, &d->block_bases);
	return d;
}

const LLDesc *
ll_desc_padded(Arena *a, const LLDesc *padded, const LLayout *ll, const int64_t *shape, int rank)
{
	LLDesc *d = new_desc(a, LL_PADDED_SHARED);
	d->interval_padding_pairs = padded->interval_padding_pairs;
	copy_bases(ll, LL_OFFSET, &d->offset_bases);
	copy_bases(ll, LL_BLOCK, &d->block_bases);
	set_ints(&d->shape, shape, rank);
	return d;
}

const LLDesc *
ll_desc_distributed_linear(Arena *a, const LLayout *ll, const int64_t *shape, int rank)
{
	LLDesc *d = new_desc(a, LL_DISTRIBUTED_LINEAR);
	copy_bases(ll, LL_REGISTER, &d->reg_bases);
	copy_bases(ll, LL_LANE, &d->lane_bases);
	copy_bases(ll, LL_WARP, &d->warp_bases);
	copy_bases(ll, LL_BLOCK, &d->block_bases);
	set_ints(&d->shape, shape, rank);
	return d;
}

const LLDesc *
ll_desc_auto(Arena *a, int id)
{
	LLDesc *d = new_desc(a, LL_AUTO);
	d->auto_id = id;
	return d;
}

bool
ll_desc_has_auto(const LLDesc *d)
{
	for (; d; d = d->kind == LL_SLICE || d->kind == LL_DOT_OPERAND ? d->parent : NULL)
		if (d->kind == LL_AUTO)
			return true;
	return false;
}

void
ll_coalesced_fill(LLDesc *d, const int64_t *shape, int rank, int bits, int num_warps)
{
	int64_t spt[LL_MAX_RANK], tpw[LL_MAX_RANK], wpc[LL_MAX_RANK], order[LL_MAX_RANK];
	int64_t numel = 1;
	for (int i = 0; i < rank; i++) {
		numel *= shape[i];
		spt[i] = 1;
		order[i] = rank - 1 - i;
	}
	int64_t per = numel / (32 * (int64_t)(num_warps > 0 ? num_warps : 1));
	int64_t vec = 128 / (bits < 8 ? 8 : bits);
	int64_t last = shape[rank - 1];
	spt[rank - 1] = vec < last ? vec : last;
	if (per >= 1 && per < spt[rank - 1])
		spt[rank - 1] = per;
	int64_t lanes = 32, warps = num_warps > 0 ? num_warps : 1;
	for (int i = 0; i < rank; i++) {
		int dim = (int)order[i];
		int64_t t = shape[dim] / spt[dim];
		t = i == rank - 1 ? lanes : t < 1 ? 1 : t > lanes ? lanes : t;
		tpw[dim] = t;
		lanes /= t;
	}
	for (int i = 0; i < rank; i++) {
		int dim = (int)order[i];
		int64_t w = shape[dim] / (spt[dim] * tpw[dim]);
		w = i == rank - 1 ? warps : w < 1 ? 1 : w > warps ? warps : w;
		wpc[dim] = w;
		warps /= w;
	}
	ll_blocked_fill(d, rank, spt, tpw, wpc, order);
}

void
ll_blocked_fill(LLDesc *d, int rank, const int64_t *spt, const int64_t *tpw, const int64_t *wpc,
                const int64_t *order)
{
	memset(d, 0, sizeof *d);
	d->kind = LL_BLOCKED;
	set_ints(&d->size_per_thread, spt, rank);
	set_ints(&d->threads_per_warp, tpw, rank);
	set_ints(&d->warps_per_cta, wpc, rank);
	set_ints(&d->order, order, rank);
}

const LLDesc *
ll_desc_coalesced(Arena *a, const int64_t *shape, int rank, int bits, int num_warps)
{
	LLDesc *d = arena_alloc(a, sizeof *d);
	ll_coalesced_fill(d, shape, rank, bits, num_warps);
	return d;
}
