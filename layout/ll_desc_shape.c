/*
 * The descriptions Triton 3.6 gives the results of the register shape
 * operations (tt.reshape, tt.trans, tt.join, tt.split as Gluon builds
 * them, and ttg.fp4_to_fp): a BlockedLayout derived from a blocked operand, the operand's
 * SliceLayout or parent, or NULL where Triton describes the result by its
 * linear map (a DistributedLinearLayout the caller makes), as for every
 * operand with a cga_layout (its bases are not carried over). The caller
 * checks that a description given here builds the operation's map.
 */
#include "layout/layout.h"

#include <string.h>

static LLDesc *
blocked(Arena *a, int rank)
{
	LLDesc *d = arena_alloc(a, sizeof *d);
	memset(d, 0, sizeof *d);
	d->kind = LL_BLOCKED;
	d->size_per_thread.n = d->threads_per_warp.n = d->warps_per_cta.n = d->order.n = rank;
	return d;
}

/* Whether d spreads over several CTAs (results are then described by map). */
static bool
has_cga(const LLDesc *d)
{
	return ll_desc_cta_bits(d) > 0;
}

static bool
plain_blocked(const LLDesc *d, int rank)
{
	return d->kind == LL_BLOCKED && !has_cga(d) && d->order.n == rank &&
	       d->size_per_thread.n == rank &&
	       d->threads_per_warp.n == rank && d->warps_per_cta.n == rank && rank <= LL_MAX_LIST;
}

static int64_t
clamp(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Triton's getDefaultBlockedEncoding: one element per thread, row-major,
 * lanes then warps handed out from the fastest dimension, the slowest
 * taking what is left. */
static LLDesc *
default_blocked(Arena *a, const int64_t *shape, int rank, int num_warps)
{
	LLDesc *d = blocked(a, rank);
	int64_t lanes = 32, threads = 32 * (int64_t)num_warps, warps = num_warps;
	int64_t used_lanes = 1, used_warps = 1;
	for (int i = 0; i < rank; i++) {
		d->order.v[i] = rank - 1 - i;
		d->size_per_thread.v[i] = 1;
	}
	for (int i = 0; i < rank - 1; i++) {
		int dim = (int)d->order.v[i];
		int64_t per_cta = clamp(threads, 1, shape[dim] > 1 ? shape[dim] : 1);
		int64_t t = clamp(per_cta, 1, lanes);
		int64_t w = clamp(per_cta / t, 1, warps);
		d->threads_per_warp.v[dim] = t;
		d->warps_per_cta.v[dim] = w;
		lanes /= t;
		warps /= w;
		threads /= per_cta;
		used_lanes *= t;
		used_warps *= w;
	}
	int slow = (int)d->order.v[rank - 1];
	d->threads_per_warp.v[slow] = 32 / used_lanes;
	d->warps_per_cta.v[slow] = num_warps / used_warps;
	return d;
}

/* A reshape as groups: input dims from[g] (consecutive) merge and split
 * into output dims to[g]; size-1 dims join the group at hand. */
typedef struct Groups {
	int n;
	int from_first[LL_MAX_RANK + 1], from_n[LL_MAX_RANK + 1];
	int to_first[LL_MAX_RANK + 1], to_n[LL_MAX_RANK + 1];
} Groups;

static void
group(const int64_t *from, int fr, const int64_t *to, int tr, Groups *g)
{
	memset(g, 0, sizeof *g);
	g->n = 1;
	int i = 0, j = 0;
	int64_t in = 1, out = 1;
	while ((i < fr || j < tr) && g->n <= LL_MAX_RANK) {
		if (in < out || (i < fr && (in == 1 || from[i] == 1))) {
			if (!g->from_n[g->n - 1])
				g->from_first[g->n - 1] = i;
			g->from_n[g->n - 1]++;
			in *= from[i++];
		} else if (out < in || (j < tr && to[j] == 1)) {
			if (!g->to_n[g->n - 1])
				g->to_first[g->n - 1] = j;
			g->to_n[g->n - 1]++;
			out *= to[j++];
		} else {
			g->n++;
			in = out = 1;
		}
	}
}

/* Whether `sub` (a per-dimension block: elements per thread, lanes or
 * warps) fills the group's input dims from the most minor one outwards,
 * overhanging the shape only in its most major dim; left[] is what each
 * dim has left after the blocks before. */
static bool
fills_minor_first(const LLInts *sub, int first, int n, int64_t *left)
{
	for (int i = n - 1; i >= 0; i--) {
		int64_t s = sub->v[first + i];
		if (s == 1)
			continue;
		for (int k = i + 1; k < n; k++)
			if (left[k] != 1)
				return false;
		left[i] = left[i] >= s ? left[i] / s : 0;
		if (left[i] == 0 && i != 0)
			return false;
	}
	return true;
}

/* The output block of each dim from input block `sub`: each group's
 * product handed to its output dims from the most minor, the excess to the
 * most major; left[] is what each output dim has left. */
static void
hand_out(const LLInts *sub, const Groups *g, int64_t *left, LLInts *out)
{
	for (int k = 0; k < g->n; k++) {
		int64_t rest = 1;
		for (int i = 0; i < g->from_n[k]; i++)
			rest *= sub->v[g->from_first[k] + i];
		for (int i = g->to_n[k] - 1; i >= 0; i--) {
			int dim = g->to_first[k] + i;
			int64_t v = rest < left[dim] ? rest : left[dim];
			out->v[dim] = v;
			rest /= v;
			left[dim] /= v;
		}
		out->v[g->to_first[k]] *= rest;
	}
}

/* Triton's inferReshapeOpLegacyEncoding: the BlockedLayout over `to` that
 * keeps every thread's elements, when the blocked d over `from` has one. */
static const LLDesc *
reshaped_blocked(Arena *a, const LLDesc *d, const int64_t *from, int fr, const int64_t *to,
                 int tr, int num_warps)
{
	if (fr == tr && memcmp(from, to, (size_t)fr * sizeof *from) == 0)
		return d;
	if (ll_desc_equal(d, default_blocked(a, from, fr, num_warps)))
		return default_blocked(a, to, tr, num_warps);
	Groups g;
	group(from, fr, to, tr, &g);
	int inv[LL_MAX_RANK];
	for (int i = 0; i < fr; i++)
		inv[d->order.v[i]] = i;
	const LLInts *subs[3] = {&d->size_per_thread, &d->threads_per_warp, &d->warps_per_cta};
	for (int k = 0; k < g.n; k++) {
		if (!g.from_n[k] || !g.to_n[k])
			return NULL;
		/* merged dims are consecutive in the order, the first most major */
		for (int i = 1; i < g.from_n[k]; i++)
			if (inv[g.from_first[k] + i - 1] != inv[g.from_first[k] + i] + 1)
				return NULL;
		int64_t left[LL_MAX_RANK];
		for (int i = 0; i < g.from_n[k]; i++)
			left[i] = from[g.from_first[k] + i];
		for (int s = 0; s < 3; s++)
			if (!fills_minor_first(subs[s], g.from_first[k], g.from_n[k], left))
				return NULL;
	}
	LLDesc *r = blocked(a, tr);
	int64_t left[LL_MAX_RANK];
	memcpy(left, to, (size_t)tr * sizeof *to);
	hand_out(&d->size_per_thread, &g, left, &r->size_per_thread);
	hand_out(&d->threads_per_warp, &g, left, &r->threads_per_warp);
	hand_out(&d->warps_per_cta, &g, left, &r->warps_per_cta);
	/* the output dims in the order of their groups' input dims, minor first */
	bool done[LL_MAX_RANK + 1] = {false};
	int pos = 0;
	for (int round = 0; round < g.n; round++) {
		int best = -1;
		for (int k = 0; k < g.n; k++)
			if (!done[k] && (best < 0 || inv[g.from_first[k]] < inv[g.from_first[best]]))
				best = k;
		done[best] = true;
		for (int i = g.to_n[best] - 1; i >= 0; i--)
			r->order.v[pos++] = g.to_first[best] + i;
	}
	return r;
}

const LLDesc *
ll_desc_reshaped(Arena *a, const LLDesc *d, const int64_t *from, int from_rank,
                 const int64_t *to, int to_rank, int num_warps)
{
	if (!plain_blocked(d, from_rank) || to_rank > LL_MAX_LIST)
		return NULL;
	return reshaped_blocked(a, d, from, from_rank, to, to_rank, num_warps);
}

static const LLDesc *
permuted_shared(Arena *a, const LLDesc *d, const int *perm, const int *inv, int rank)
{
	if (has_cga(d) || (d->kind == LL_NVMMA_SHARED && (rank != 2 || perm[0] != 1)))
		return NULL;
	if (d->kind == LL_SWIZZLED_SHARED && d->order.n != rank)
		return NULL;
	LLDesc *r = arena_alloc(a, sizeof *r);
	*r = *d;
	r->transposed = d->kind == LL_NVMMA_SHARED ? !d->transposed : d->transposed;
	for (int i = 0; d->kind == LL_SWIZZLED_SHARED && i < rank; i++)
		r->order.v[i] = inv[d->order.v[i]];
	return r;
}

const LLDesc *
ll_desc_permuted(Arena *a, const LLDesc *d, const int *perm, int rank)
{
	bool identity = true;
	for (int i = 0; i < rank; i++)
		identity = identity && perm[i] == i;
	if (identity)
		return d;
	int inv[LL_MAX_RANK];
	for (int i = 0; i < rank; i++)
		inv[perm[i]] = i;
	if (d->kind == LL_NVMMA_SHARED || d->kind == LL_SWIZZLED_SHARED)
		return permuted_shared(a, d, perm, inv, rank);
	if (!plain_blocked(d, rank))
		return NULL;
	LLDesc *r = blocked(a, rank);
	for (int i = 0; i < rank; i++) {
		r->size_per_thread.v[i] = d->size_per_thread.v[perm[i]];
		r->threads_per_warp.v[i] = d->threads_per_warp.v[perm[i]];
		r->warps_per_cta.v[i] = d->warps_per_cta.v[perm[i]];
		r->order.v[i] = inv[d->order.v[i]];
	}
	return r;
}

const LLDesc *
ll_desc_joined(Arena *a, const LLDesc *d, int rank)
{
	if (d->kind == LL_SLICE && d->dim == rank)
		return d->parent;
	if (!plain_blocked(d, rank) || rank + 1 > LL_MAX_LIST)
		return NULL;
	LLDesc *r = blocked(a, rank + 1);
	for (int i = 0; i < rank; i++) {
		r->size_per_thread.v[i] = d->size_per_thread.v[i];
		r->threads_per_warp.v[i] = d->threads_per_warp.v[i];
		r->warps_per_cta.v[i] = d->warps_per_cta.v[i];
		r->order.v[i + 1] = d->order.v[i];
	}
	r->size_per_thread.v[rank] = 2;
	r->threads_per_warp.v[rank] = 1;
	r->warps_per_cta.v[rank] = 1;
	r->order.v[0] = rank;
	return r;
}

const LLDesc *
ll_desc_split(Arena *a, const LLDesc *d, int rank)
{
	return ll_desc_slice(a, d, rank - 1);
}

const LLDesc *
ll_desc_fp4_unpacked(Arena *a, const LLDesc *d, int axis, int rank)
{
	/* Triton reads the order off the linear map; a dot operand's
	 * contiguous dim is K (the last of A, the first of B) */
	bool dot = d->kind == LL_DOT_OPERAND &&
	           axis == (d->operand_index == 0 ? rank - 1 : rank - 2);
	if ((dot && has_cga(d)) || (!dot && !(plain_blocked(d, rank) && d->order.v[0] == axis)))
		return NULL;
	LLDesc *r = arena_alloc(a, sizeof *r);
	*r = *d;
	if (dot)
		r->k_width = 2 * d->k_width;
	else
		r->size_per_thread.v[axis] *= 2;
	return r;
}

const LLDesc *
ll_desc_smem_reshaped(Arena *a, const LLDesc *d, int to_rank)
{
	if (d->kind != LL_NVMMA_SHARED || has_cga(d))
		return NULL;
	LLDesc *r = arena_alloc(a, sizeof *r);
	*r = *d;
	r->rank = to_rank;
	return r;
}
