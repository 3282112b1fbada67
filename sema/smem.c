/*
 * Shared memory: allocations and their views. A view (.index, .slice,
 * .permute, .reshape, ._reinterpret) folds into an element offset from its
 * operand's origin plus a shared layout for the view's own shape, derived
 * from the operand's layout on the algebra: the view's layout is the
 * constructor it keeps when that constructor still describes the same map,
 * otherwise the exact SharedLinearLayout (the exact PaddedSharedLayout
 * for a view of a padded buffer: offsets stay linear, codegen pads them).
 */
#include "sema/check.h"

#include <string.h>

static int
layout_rank(const LLDesc *l)
{
	switch (l->kind) {
	case LL_NVMMA_SHARED: return l->rank;
	case LL_SHARED_LINEAR: return l->offset_bases.n ? l->offset_bases.b[0].n : 1;
	case LL_PADDED_SHARED: return l->shape.n;
	default: return l->order.n;
	}
}

static bool
is_mbarrier_layout(const LLDesc *l, TDType dt)
{
	return l->kind == LL_SWIZZLED_SHARED && l->vec == 1 && l->per_phase == 1 &&
	       l->max_phase == 1 && l->order.n == 1 && dt == DT_I64;
}

static int
elem_bytes(TDType dt)
{
	return ir_dtype_bits(dt) < 8 ? 1 : ir_dtype_bits(dt) / 8;
}

TType *
sema_smem_type(Check *ck, SrcSpan at, TDType dt, const int64_t *shape, int rank,
               const LLDesc *l, int alloc)
{
	TType *t = arena_alloc(ck->a, sizeof *t);
	int lr = layout_rank(l);
	t->kind = is_mbarrier_layout(l, dt) && rank == 1 && shape[0] == 1 ? TY_MBARRIER : TY_SMEM;
	t->dtype = dt;
	t->rank = rank;
	memcpy(t->shape, shape, (size_t)rank * sizeof *shape);
	memcpy(t->alloc_shape, shape, (size_t)rank * sizeof *shape);
	t->alloc_rank = rank;
	t->layout.desc = l;
	t->alloc = alloc;
	if (rank < lr) {
		diag_error(ck->d, at, "this view has rank %d but its layout needs rank %d", rank, lr);
		return NULL;
	}
	if (l->kind == LL_PADDED_SHARED && rank > lr + 1) {
		diag_error(ck->d, at, "a PaddedSharedLayout of rank %d lays out buffers of rank %d or "
		           "%d (one leading dim of buffers at most, as in Triton); this one has rank %d",
		           lr, lr, lr + 1, rank);
		return NULL;
	}
	if (!sema_build_layout(ck->d, at, l, shape + (rank - lr), lr, 0, ck->a, &t->layout.ll))
		return NULL;
	return t;
}

/* A view type whose layout is the map `ll` over the trailing dims: desc
 * when it builds to the same map, else the PaddedSharedLayout of ll with
 * desc's padding (a view of a padded buffer) or the SharedLinearLayout of
 * ll. */
static TType *
view_type(Check *ck, const TType *base, TDType dt, const int64_t *shape, int rank,
          const LLDesc *desc, const LLayout *ll)
{
	TType *t = arena_alloc(ck->a, sizeof *t);
	*t = *base;
	t->dtype = dt;
	t->rank = rank;
	memcpy(t->shape, shape, (size_t)rank * sizeof *shape);
	t->layout.ll = *ll;
	int lr = ll->n_out;
	LLayout built;
	LLErr err = {ck->a, NULL};
	if (desc && layout_rank(desc) == lr &&
	    ll_build(desc, shape + (rank - lr), lr, 0, &built, &err) && ll_equal(&built, ll)) {
		t->layout.desc = desc;
		return t;
	}
	t->layout.desc = desc && desc->kind == LL_PADDED_SHARED
	                 ? ll_desc_padded(ck->a, desc, ll, shape + (rank - lr), lr)
	                 : ll_desc_shared_linear(ck->a, ll);
	return t;
}

/* The bytes a view of type t spans (padding included), saturating. */
static int64_t
extent_bytes(const TType *t)
{
	int64_t b;
	return __builtin_mul_overflow(ir_smem_extent(t), elem_bytes(t->dtype), &b) ? INT64_MAX : b;
}

Value *
sema_smem_alloc(Check *ck, const Node *call, Value **a)
{
	TDType dt;
	if (!sema_value_dtype(ck, a[0], "the element type", &dt))
		return NULL;
	Value *sv = a[1];
	int64_t shape[LL_MAX_RANK];
	int rank = 0;
	if ((sv->kind != VAL_LIST && sv->kind != VAL_TUPLE) || sv->u.list.n == 0 ||
	    sv->u.list.n > LL_MAX_RANK) {
		diag_error(ck->d, sv->span, "the shape must be a list of 1 to %d integers",
		           LL_MAX_RANK);
		return NULL;
	}
	for (size_t i = 0; i < sv->u.list.n; i++) {
		if (!sema_value_int(ck, sv->u.list.items[i], "a shape entry", &shape[rank]))
			return NULL;
		if (shape[rank] <= 0) {
			diag_error(ck->d, sv->u.list.items[i]->span, "shape entries must be positive");
			return NULL;
		}
		rank++;
	}
	const LLDesc *l = sema_value_layout(ck, a[2], "the shared layout", true);
	if (!l)
		return NULL;
	int idx = (int)ck->smem.len;
	TType *t = sema_smem_type(ck, a[2]->span, dt, shape, rank, l, idx);
	if (!t)
		return NULL;
	TSmemAlloc s = {.name = NULL, .at = call->span, .dtype = dt, .rank = rank,
	                .layout = t->layout, .is_mbarrier = is_mbarrier_layout(l, dt)};
	memcpy(s.shape, shape, sizeof shape);
	s.bytes = extent_bytes(t);
	s.align = l->kind == LL_NVMMA_SHARED && l->swizzle_byte_width ? 1024 : 16;
	vec_push(ck->a, &ck->smem, s);
	vec_push(ck->a, &ck->unfenced, false);
	TInst *i = sema_emit(ck, OP_SMEM_ALLOC, call->span, t, 0);
	i->attr.alloc = idx;
	i->res->layout_at = a[2]->span;
	if (a[3]) {
		if (!sema_want_rt(ck, a[3], TY_TENSOR, "the initial value"))
			return NULL;
		sema_emit(ck, OP_SMEM_STORE, call->span, NULL, 2, i->res, a[3]->u.rt);
		ck->unfenced.data[idx] = true;
	}
	return sema_rt_value(ck, i->res, call->span);
}

static Value *
view(Check *ck, const Node *call, Value *self, const TType *t, int64_t offset)
{
	TInst *i = sema_emit(ck, OP_SMEM_VIEW, call->span, t, 1, self->u.rt);
	i->attr.offset = offset;
	i->res->layout_at = self->u.rt->layout_at;
	return sema_rt_value(ck, i->res, call->span);
}

static Value *
smem_index(Check *ck, const Node *call, Value *self, Value **a)
{
	const TType *t = self->u.rt->type;
	if (t->rank < 2) {
		diag_error(ck->d, call->span, ".index needs a buffer of rank 2 or more; this one "
		           "is %s", sema_type_str(ck, t));
		return NULL;
	}
	int64_t stride = 1;
	for (int i = 1; i < t->rank; i++)
		stride *= t->shape[i];
	TType *rt = sema_smem_type(ck, call->span, t->dtype, t->shape + 1, t->rank - 1,
	                      t->layout.desc, t->alloc);
	if (!rt)
		return NULL;
	if (a[0]->kind == VAL_INT) {
		if (a[0]->u.i < 0 || a[0]->u.i >= t->shape[0]) {
			diag_error(ck->d, a[0]->span, "index %lld is out of range for %lld buffers",
			           (long long)a[0]->u.i, (long long)t->shape[0]);
			return NULL;
		}
		return view(ck, call, self, rt, a[0]->u.i * stride);
	}
	TValue *ix = sema_materialize(ck, a[0], DT_I32);
	if (!ix || ix->type->kind != TY_SCALAR || ir_dtype_is_float(ix->type->dtype)) {
		if (ix)
			diag_error(ck->d, a[0]->span, "an index must be an integer scalar");
		return NULL;
	}
	TInst *i = sema_emit(ck, OP_SMEM_VIEW, call->span, rt, 2, self->u.rt, ix);
	i->attr.stride = stride;
	i->res->layout_at = self->u.rt->layout_at;
	return sema_rt_value(ck, i->res, call->span);
}

/* The view of [start, start+len) along covered dim d of t (layout ll):
 * the operand offsets it spans must be one aligned block. */
static bool
slice_layout(Check *ck, SrcSpan at, const TType *t, int d, int64_t start, int64_t len,
             LLayout *out, int64_t *offset)
{
	const LLayout *p = &t->layout.ll;
	int lr = p->n_out, base = t->rank - lr, dim = d - base;
	LLayout inv;
	LLErr err = {ck->a, NULL};
	int off = ll_in_index(p, LL_OFFSET);
	if (off < 0 || !ll_invert(p, &inv, &err)) {
		diag_error(ck->d, at, "this buffer's layout is not one-to-one, so it cannot be sliced");
		return false;
	}
	int off_out = ll_out_index(&inv, LL_OFFSET);
	uint32_t in[LL_MAX_DIMS] = {0}, o[LL_MAX_DIMS];
	in[ll_in_index(&inv, (LLName)(LL_DIM0 + dim))] = (uint32_t)start;
	ll_apply(&inv, in, o);
	int64_t origin = o[off_out];
	/* coordinates -> operand offsets, restricted to the view */
	LLayout c = ll_empty();
	int total = 0;
	for (int j = 0; j < lr; j++) {
		int64_t n = j == dim ? len : t->shape[base + j];
		int bits = 0;
		while ((1ll << bits) < n)
			bits++;
		ll_add_in(&c, (LLName)(LL_DIM0 + j), bits);
		total += bits;
	}
	ll_add_out(&c, LL_OFFSET, total);
	bool ok = (origin & ((1ll << total) - 1)) == 0;
	for (int j = 0; j < lr && ok; j++)
		for (int b = 0; b < c.in_bits[j]; b++) {
			uint32_t e[LL_MAX_DIMS] = {0}, r[LL_MAX_DIMS];
			e[ll_in_index(&inv, (LLName)(LL_DIM0 + j))] = 1u << b;
			ll_apply(&inv, e, r);
			for (int k = 0; k < inv.n_out; k++)
				ok &= k == off_out || r[k] == 0;
			ok &= r[off_out] < (1u << total);
			uint32_t v[1] = {r[off_out]};
			ll_set_basis(&c, j, b, v);
		}
	if (!ok || !ll_invert(&c, out, &err)) {
		diag_error(ck->d, at, "this slice is not one contiguous block of the buffer's "
		           "layout (slice at multiples of its length, along whole swizzle tiles)");
		return false;
	}
	if (ll_in_index(p, LL_BLOCK) >= 0)
		ll_add_in(out, LL_BLOCK, ll_in_bits(p, LL_BLOCK));
	*offset = origin;
	return true;
}

static Value *
smem_slice(Check *ck, const Node *call, Value *self, Value **a)
{
	const TType *t = self->u.rt->type;
	int64_t start, len, dim = 0;
	if (!sema_value_int(ck, a[0], "the start", &start) ||
	    !sema_value_int(ck, a[1], "the length", &len) ||
	    (a[2] && !sema_value_int(ck, a[2], "the dim", &dim)))
		return NULL;
	if (dim < 0 || dim >= t->rank) {
		diag_error(ck->d, call->span, ".slice dim %lld is out of range for %s",
		           (long long)dim, sema_type_str(ck, t));
		return NULL;
	}
	if (len <= 0 || (len & (len - 1)) || start < 0 || start % len ||
	    start + len > t->shape[dim]) {
		diag_error(ck->d, call->span, ".slice(%lld, %lld) of dim %lld (size %lld): the "
		           "length must be a power of two and the start a multiple of it inside "
		           "the dim", (long long)start, (long long)len, (long long)dim,
		           (long long)t->shape[dim]);
		return NULL;
	}
	int64_t shape[LL_MAX_RANK];
	memcpy(shape, t->shape, sizeof shape);
	shape[dim] = len;
	int base = t->rank - t->layout.ll.n_out;
	if (dim < base) {
		int64_t stride = 1;
		for (int i = (int)dim + 1; i < t->rank; i++)
			stride *= t->shape[i];
		TType *vt = view_type(ck, t, t->dtype, shape, t->rank, t->layout.desc, &t->layout.ll);
		return view(ck, call, self, vt, start * stride);
	}
	LLayout ll;
	int64_t offset;
	if (!slice_layout(ck, call->span, t, (int)dim, start, len, &ll, &offset))
		return NULL;
	return view(ck, call, self, view_type(ck, t, t->dtype, shape, t->rank, t->layout.desc, &ll),
	            offset);
}

/* Views that relabel the whole buffer need the layout to cover every dim. */
static bool
covers_all(Check *ck, SrcSpan at, const TType *t, const char *what)
{
	if (t->layout.ll.n_out == t->rank)
		return true;
	diag_error(ck->d, at, "%s needs a view without leading buffer dims; take .index(i) first",
	           what);
	return false;
}

static Value *
smem_permute(Check *ck, const Node *call, Value *self, Value **a)
{
	const TType *t = self->u.rt->type;
	int64_t order[LL_MAX_RANK];
	int n;
	if (!covers_all(ck, call->span, t, ".permute"))
		return NULL;
	bool ok = (a[0]->kind == VAL_LIST || a[0]->kind == VAL_TUPLE) &&
	          (int)a[0]->u.list.n == t->rank;
	unsigned seen = 0;
	for (n = 0; ok && n < t->rank; n++) {
		const Value *x = a[0]->u.list.items[n];
		ok = x->kind == VAL_INT && x->u.i >= 0 && x->u.i < t->rank && !(seen >> x->u.i & 1);
		if (ok) {
			order[n] = x->u.i;
			seen |= 1u << x->u.i;
		}
	}
	if (!ok) {
		diag_error(ck->d, a[0]->span, ".permute needs a permutation of 0..%d", t->rank - 1);
		return NULL;
	}
	int perm[LL_MAX_RANK];
	int64_t shape[LL_MAX_RANK];
	for (int i = 0; i < t->rank; i++) {
		perm[i] = (int)order[i];
		shape[i] = t->shape[order[i]];
	}
	LLayout ll;
	LLErr err = {ck->a, NULL};
	if (!ll_permute_outs(&t->layout.ll, perm, &ll, &err)) {
		diag_error(ck->d, call->span, ".permute: %s", err.msg ? err.msg : "failed");
		return NULL;
	}
	const LLDesc *desc = t->layout.desc;
	if (desc->kind == LL_NVMMA_SHARED && t->rank == 2 && perm[0] == 1)
		desc = ll_desc_transposed(ck->a, desc);
	TType *vt = view_type(ck, t, t->dtype, shape, t->rank, desc, &ll);
	int prefix = t->alloc_rank - t->rank;   /* Gluon permutes alloc_shape's trailing dims */
	for (int i = 0; prefix >= 0 && i < t->rank; i++)
		vt->alloc_shape[prefix + i] = t->alloc_shape[prefix + perm[i]];
	return view(ck, call, self, vt, 0);
}

static Value *
smem_reshape(Check *ck, const Node *call, Value *self, Value **a)
{
	const TType *t = self->u.rt->type;
	int64_t shape[LL_MAX_RANK], have = 1, now = 1;
	int rank, bits[LL_MAX_RANK];
	if (!covers_all(ck, call->span, t, ".reshape") ||
	    !sema_value_shape(ck, a[0], "the new shape", shape, &rank))
		return NULL;
	for (int i = 0; i < t->rank; i++)
		have *= t->shape[i];
	for (int i = 0; i < rank; i++) {
		now *= shape[i];
		bits[i] = __builtin_ctzll((unsigned long long)shape[i]);
	}
	LLayout ll;
	LLErr err = {ck->a, NULL};
	if (have != now || !ll_reshape_outs(&t->layout.ll, bits, rank, &ll, &err)) {
		diag_error(ck->d, a[0]->span, ".reshape from %s to %lld elements: the element "
		           "count must stay the same", sema_type_str(ck, t), (long long)now);
		return NULL;
	}
	TType *vt = view_type(ck, t, t->dtype, shape, rank, t->layout.desc, &ll);
	/* Gluon's alloc_shape: its leading (buffer) dims, then the new shape */
	int prefix = t->alloc_rank - t->rank;
	if (prefix < 0 || prefix + rank > LL_MAX_RANK)
		prefix = 0;
	memcpy(vt->alloc_shape + prefix, shape, (size_t)rank * sizeof *shape);
	vt->alloc_rank = prefix + rank;
	return view(ck, call, self, vt, 0);
}

static Value *
smem_reinterpret(Check *ck, const Node *call, Value *self, Value **a)
{
	const TType *t = self->u.rt->type;
	TDType dt;
	int64_t shape[LL_MAX_RANK];
	int rank;
	const LLDesc *l;
	if (!sema_value_dtype(ck, a[0], "the dtype", &dt) ||
	    !sema_value_shape(ck, a[1], "the shape", shape, &rank) ||
	    !(l = sema_value_layout(ck, a[2], "the shared layout", true)))
		return NULL;
	TType *rt = sema_smem_type(ck, a[2]->span, dt, shape, rank, l, t->alloc);
	if (!rt)
		return NULL;
	int64_t have = extent_bytes(t), now = extent_bytes(rt);
	if (now > have) {
		diag_error(ck->d, call->span, "._reinterpret as %lld bytes, but the view has only "
		           "%lld%s", (long long)now, (long long)have,
		           l->kind == LL_PADDED_SHARED || t->layout.desc->kind == LL_PADDED_SHARED
		           ? " (padding included)" : "");
		return NULL;
	}
	Value *r = view(ck, call, self, rt, 0);
	r->u.rt->layout_at = a[2]->span;
	return r;
}

Value *
sema_check_smem_method(Check *ck, const Node *call, BuiltinFn fn, Value *self, Value **a)
{
	const TType *t = self->u.rt->type;
	switch (fn) {
	case BF_SMEM_INDEX: return smem_index(ck, call, self, a);
	case BF_SMEM_SLICE: return smem_slice(ck, call, self, a);
	case BF_SMEM_PERMUTE: return smem_permute(ck, call, self, a);
	case BF_SMEM_RESHAPE: return smem_reshape(ck, call, self, a);
	case BF_SMEM_REINTERPRET: return smem_reinterpret(ck, call, self, a);
	case BF_SMEM_KEEP_ALIVE:
		/* a view of the whole buffer: a use, so its live range reaches here */
		return view(ck, call, self, t, 0) ? sema_new_value(&ck->ev, VAL_NONE, call->span)
		                                  : NULL;
	case BF_SMEM_LOAD: {
		SrcSpan lat;
		const LLDesc *l = sema_auto_layout_arg(ck, a[0], call->span, t->shape, t->rank,
		                                       "the register layout", &lat);
		TType *rt = l ? sema_tensor_type(ck, lat, sema_type_scalar(ck, t->dtype), t->shape,
		                                 t->rank, l) : NULL;
		if (!rt)
			return NULL;
		TInst *i = sema_emit(ck, OP_SMEM_LOAD, call->span, rt, 1, self->u.rt);
		i->res->layout_at = lat;
		return sema_rt_value(ck, i->res, call->span);
	}
	default: {
		if (!sema_want_rt(ck, a[0], TY_TENSOR, "the stored value"))
			return NULL;
		const TType *vt = a[0]->u.rt->type;
		if (!ir_same_shape(vt, t) || vt->dtype != t->dtype || vt->elem_is_ptr) {
			diag_error(ck->d, a[0]->span, "cannot store %s into %s: dtype and shape must "
			           "match", sema_type_str(ck, vt), sema_type_str(ck, t));
			return NULL;
		}
		sema_emit(ck, OP_SMEM_STORE, call->span, NULL, 2, self->u.rt, a[0]->u.rt);
		ck->unfenced.data[t->alloc] = true;
		return sema_new_value(&ck->ev, VAL_NONE, call->span);
	}
	}
}
