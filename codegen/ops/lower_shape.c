/*
 * reshape, permute, join and split: the checker gives each result the
 * layout the linear-layout algebra derives from the operands', in which
 * every thread holds the elements it held, so these only rename
 * registers. Result register i holds the element at coordinate f(R(i)) of
 * one operand (f reorders, regroups or drops coordinates and is linear
 * over the coordinate bits), found in the operand register at that
 * coordinate; the lanes' and warps' coordinates must agree under f, which
 * is checked rather than assumed.
 */
#include "codegen/ops/ops.h"

#include <stdlib.h>
#include <string.h>

/* The coordinate c[0..rank-1] of ly at in-dim in_name = in_value, the
 * other in-dims 0. */
static void
coords(const LLayout *ly, LLName in_name, uint32_t in_value, uint32_t *c, int rank)
{
	uint32_t in[LL_MAX_DIMS] = {0}, out[LL_MAX_DIMS] = {0};
	int i = ll_in_index(ly, in_name);
	if (i >= 0)
		in[i] = in_value;
	ll_apply(ly, in, out);
	for (int d = 0; d < rank; d++) {
		int j = ll_out_index(ly, (LLName)(LL_DIM0 + d));
		c[d] = j >= 0 ? out[j] : 0;
	}
}

/* The row-major index of coordinate c of a tensor of type t. */
static uint64_t
flat(const TType *t, const uint32_t *c)
{
	uint64_t x = 0;
	for (int d = 0; d < t->rank; d++)
		x = x * (uint64_t)t->shape[d] + c[d];
	return x;
}

static void
unflat(const TType *t, uint64_t x, uint32_t *c)
{
	for (int d = t->rank - 1; d >= 0; d--) {
		c[d] = (uint32_t)(x % (uint64_t)t->shape[d]);
		x /= (uint64_t)t->shape[d];
	}
}

/* f: the operand (*k) and its coordinate (src) of result coordinate c. */
static void
source_of(const TInst *in, const uint32_t *c, int *k, uint32_t *src)
{
	const TType *res = in->res->type, *op = in->args[0]->type;
	*k = 0;
	switch (in->op) {
	case OP_RESHAPE:
		unflat(op, flat(res, c), src);
		return;
	case OP_PERMUTE:
		for (int d = 0; d < res->rank; d++)
			src[in->attr.order[d]] = c[d];
		return;
	case OP_JOIN:
		memcpy(src, c, (size_t)op->rank * sizeof *c);
		*k = (int)c[res->rank - 1];
		return;
	default:   /* OP_SPLIT */
		memcpy(src, c, (size_t)res->rank * sizeof *c);
		src[op->rank - 1] = (uint32_t)in->attr.index;
		return;
	}
}

/* Whether each lane and warp basis of the result maps by f to the
 * operands' (and stays in operand 0's part for join): f is linear but for
 * its value at 0 (split's index), which is taken off. */
static bool
threads_agree(const TInst *in)
{
	const TType *res = in->res->type, *op = in->args[0]->type;
	static const LLName hw[] = {LL_LANE, LL_WARP};
	uint32_t zero[LL_MAX_RANK] = {0}, origin[LL_MAX_RANK];
	int k0;
	source_of(in, zero, &k0, origin);
	for (int h = 0; h < 2; h++) {
		/* a scalar result (split of a [2]): every thread holds it */
		int bits = ll_in_bits(&op->layout.ll, hw[h]);
		if (res->kind == TY_TENSOR && ll_in_bits(&res->layout.ll, hw[h]) != bits)
			return false;
		for (int b = 0; b < bits; b++) {
			uint32_t c[LL_MAX_RANK] = {0}, want[LL_MAX_RANK], have[LL_MAX_RANK];
			int k;
			if (res->kind == TY_TENSOR)
				coords(&res->layout.ll, hw[h], 1u << b, c, res->rank);
			source_of(in, c, &k, want);
			coords(&op->layout.ll, hw[h], 1u << b, have, op->rank);
			for (int d = 0; d < op->rank; d++)
				want[d] ^= origin[d];
			if (k || memcmp(want, have, (size_t)op->rank * sizeof *have) != 0)
				return false;
		}
	}
	return true;
}

typedef struct RegAt {
	uint64_t at;    /* the register's row-major coordinate */
	int reg;
} RegAt;

static int
cmp_reg_at(const void *a, const void *b)
{
	uint64_t x = ((const RegAt *)a)->at, y = ((const RegAt *)b)->at;
	return x < y ? -1 : x > y;
}

bool
cg_lower_shape(Lower *l, const TInst *in)
{
	const TType *res = in->res->type, *op = in->args[0]->type;
	if (!threads_agree(in)) {
		cg_unsupported(l, in, "this change of shape between layouts that place threads "
		               "differently (convert_layout first)");
		return false;
	}
	int n_src = cg_type_regs(op), n = cg_type_regs(res);
	RegAt *table = arena_alloc(l->m->arena, (size_t)n_src * sizeof *table);
	for (int j = 0; j < n_src; j++) {
		uint32_t c[LL_MAX_RANK];
		coords(&op->layout.ll, LL_REGISTER, (uint32_t)j, c, op->rank);
		table[j] = (RegAt){flat(op, c), j};
	}
	qsort(table, (size_t)n_src, sizeof *table, cmp_reg_at);
	CgVal r = cg_val_new(l, n);
	for (int i = 0; i < n; i++) {
		uint32_t c[LL_MAX_RANK] = {0}, src[LL_MAX_RANK];
		int k;
		if (res->kind == TY_TENSOR)
			coords(&res->layout.ll, LL_REGISTER, (uint32_t)i, c, res->rank);
		source_of(in, c, &k, src);
		RegAt key = {flat(op, src), 0};
		const RegAt *hit = bsearch(&key, table, (size_t)n_src, sizeof *table, cmp_reg_at);
		if (!hit) {
			cg_unsupported(l, in, "this change of shape (an element is in no register)");
			return false;
		}
		r.r[i] = cg_val(l, in->args[k]).r[hit->reg];
	}
	l->vals[in->res->id] = r;
	return true;
}
