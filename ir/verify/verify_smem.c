/*
 * The verifier's shared-memory rules:
 *
 *   smem       an allocation's bytes are its elements' (padded by a
 *              PaddedSharedLayout); one smem_alloc creates it, before any
 *              use; a view stays inside its allocation (every index of a
 *              runtime .index, padded as its base's layout pads); once
 *              planned, its offset is aligned and inside the kernel's
 *              smem_bytes
 *   lifetimes  once planned, an allocation is created at the first
 *              instruction of its live range and used only inside it, and
 *              allocations live at the same time share no byte
 *
 * Instructions are numbered in program order as sema numbers them (nested
 * blocks after their instruction; the partitions inside warp_specialize).
 */
#include "ir/verify/verify.h"

static int64_t
elem_bytes(TDType t)
{
	return ir_dtype_bits(t) < 8 ? 1 : ir_dtype_bits(t) / 8;
}

/* The bytes a view of type t spans (ir_smem_extent); -1 when that
 * overflows. */
static int64_t
extent_bytes(const TType *t)
{
	int64_t n = ir_smem_extent(t);
	return n == INT64_MAX || __builtin_mul_overflow(n, elem_bytes(t->dtype), &n) ? -1 : n;
}

static bool
check_alloc(Verifier *v, int n)
{
	const TKernel *k = v->k;
	const TSmemAlloc *s = &k->smem[n];
	TType t = {.kind = TY_SMEM, .dtype = s->dtype, .rank = s->rank, .layout = s->layout,
	           .alloc = n};
	for (int i = 0; i < s->rank && i < LL_MAX_RANK; i++)
		t.shape[i] = s->shape[i];
	if (s->rank < 1 || s->rank > LL_MAX_RANK || !vf_type(v, s->at, &t, 0))
		return vf_fail(v, s->at, "smem", "allocation %d has no valid shape and layout", n);
	if (s->bytes != extent_bytes(&t))
		return vf_fail(v, s->at, "smem", "allocation %d (%s) is %lld bytes, not %lld", n,
		               s->name, (long long)extent_bytes(&t), (long long)s->bytes);
	if (s->align < 1 || (s->align & (s->align - 1)))
		return vf_fail(v, s->at, "smem", "allocation %d (%s) is aligned to %d bytes, not a "
		               "power of two", n, s->name, s->align);
	if (s->is_mbarrier && s->dtype != DT_I64)
		return vf_fail(v, s->at, "smem", "mbarriers are i64 words");
	if (!v->planned)
		return true;
	if (s->offset < 0 || s->offset % s->align)
		return vf_fail(v, s->at, "smem", "allocation %d (%s) at offset %lld is not aligned "
		               "to %d bytes", n, s->name, (long long)s->offset, s->align);
	if (s->offset > k->smem_bytes - s->bytes)
		return vf_fail(v, s->at, "smem", "allocation %d (%s) ends at byte %lld, past the "
		               "kernel's %lld", n, s->name, (long long)(s->offset + s->bytes),
		               (long long)k->smem_bytes);
	return s->first_use <= s->last_use ||
	       vf_fail(v, s->at, "lifetimes", "allocation %d (%s) has the live range %d..%d", n,
	               s->name, s->first_use, s->last_use);
}

bool
vf_allocs(Verifier *v)
{
	const TKernel *k = v->k;
	if (k->n_smem && !k->smem)
		return vf_fail(v, k->at, "smem", "the kernel lists allocations it does not have");
	for (int n = 0; n < k->n_smem; n++)
		if (!check_alloc(v, n))
			return false;
	for (int n = 0; v->planned && n < k->n_smem; n++)
		for (int m = n + 1; m < k->n_smem; m++) {
			const TSmemAlloc *a = &k->smem[n], *b = &k->smem[m];
			bool live = a->first_use <= b->last_use && b->first_use <= a->last_use;
			if (live && a->offset < b->offset + b->bytes && b->offset < a->offset + a->bytes)
				return vf_fail(v, b->at, "lifetimes", "allocations %d (%s) and %d (%s) are "
				               "live together but share bytes", n, a->name, m, b->name);
		}
	return true;
}

bool
vf_smem_inst(Verifier *v, const TInst *i, int n)
{
	const TKernel *k = v->k;
	for (int a = 0; a < i->n_args; a++) {
		const TType *t = i->args[a]->type;
		if (t->kind != TY_SMEM && t->kind != TY_MBARRIER)
			continue;
		const TSmemAlloc *s = &k->smem[t->alloc];
		if (!v->created[t->alloc])
			return vf_fail(v, i->at, "smem", "'%s' uses allocation %d (%s) before its "
			               "smem_alloc", ir_op_name(i->op), t->alloc, s->name);
		if (v->planned && (n < s->first_use || n > s->last_use))
			return vf_fail(v, i->at, "lifetimes", "'%s' uses allocation %d (%s) at "
			               "instruction %d, outside its live range %d..%d", ir_op_name(i->op),
			               t->alloc, s->name, n, s->first_use, s->last_use);
	}
	if (i->op == OP_SMEM_ALLOC) {
		const TSmemAlloc *s = &k->smem[i->attr.alloc];
		if (v->created[i->attr.alloc])
			return vf_fail(v, i->at, "smem", "allocation %d (%s) is created twice",
			               i->attr.alloc, s->name);
		v->created[i->attr.alloc] = true;
		v->reach[i->res->id] = 0;
		return !v->planned || n == s->first_use ||
		       vf_fail(v, i->at, "lifetimes", "allocation %d (%s) is created at instruction "
		               "%d but its live range starts at %d", i->attr.alloc, s->name, n,
		               s->first_use);
	}
	if (i->op != OP_SMEM_VIEW)
		return true;
	/* reach: the furthest byte offset the view's origin may take (padded
	 * as the base's layout pads its offsets); the view spans its region
	 * from there (ir_smem_extent) */
	const TType *base = i->args[0]->type, *r = i->res->type;
	int64_t eb = elem_bytes(r->dtype), steps = i->n_args == 2 ? base->shape[0] - 1 : 0;
	int64_t elems, origin, end, bytes = extent_bytes(r);
	LLPadding pad = ll_desc_padding(base->layout.desc);
	bool ok = bytes >= 0 && i->attr.offset >= 0 && i->attr.stride >= 0 &&
	          !__builtin_mul_overflow(i->attr.stride, steps, &elems) &&
	          !__builtin_add_overflow(elems, i->attr.offset, &elems) &&
	          (elems = ll_pad(&pad, elems)) != INT64_MAX &&
	          !__builtin_mul_overflow(elems, eb, &origin) &&
	          !__builtin_add_overflow(origin, v->reach[i->args[0]->id], &origin) &&
	          !__builtin_add_overflow(origin, bytes, &end) && end <= k->smem[r->alloc].bytes;
	if (!ok)
		return vf_fail(v, i->at, "smem", "this view of allocation %d (%s, %lld bytes) reaches "
		               "past its end", r->alloc, k->smem[r->alloc].name,
		               (long long)k->smem[r->alloc].bytes);
	v->reach[i->res->id] = origin;
	return true;
}
