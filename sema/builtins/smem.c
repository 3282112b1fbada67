/*
 * Shared memory: allocations and their views. A view (.index, .slice,
 * .permute, .reshape, ._reinterpret) folds into an element offset from its
 * operand's origin plus a shared layout for the view's own shape, derived
 * from the operand's layout on the algebra: the view's layout is the
 * constructor Triton infers for it (the operand's, or the permuted or
 * reshaped one of ll_desc_permuted / ll_desc_smem_reshaped) when that
 * constructor still describes the same map, otherwise the exact
 * SharedLinearLayout (the exact PaddedSharedLayout
 * for a view of a padded buffer: offsets stay linear, codegen pads them).
 * A slice that is not one block of its operand's layout (a column range of
 * a row-major buffer) is a strided view: it keeps the layout of its region
 * and its position in it (ir_smem_strided), as Gluon's memdesc_subslice
 * keeps the alloc shape.
 */
#include "sema/builtins/builtins.h"

#include <string.h>

static int
elem_bytes(TDType dt)
{
	return ir_dtype_bits(dt) < 8 ? 1 : ir_dtype_bits(dt) / 8;
}

/* A view type whose layout is the map `ll` over the trailing dims (for a
 * strided view, at: its first element, over the region ll is fitted to;
 * NULL: a dense view): desc when it builds to the same map, else the
 * PaddedSharedLayout of ll with desc's padding (a view of a padded buffer)
 * or the SharedLinearLayout of ll. */
static TType *
view_type(Check *ck, const TType *base, TDType dt, const int64_t *shape, int rank,
          const int64_t *at, const LLDesc *desc, const LLayout *ll)
{
	TType *t = arena_alloc(ck->a, sizeof *t);
	*t = *base;
	t->dtype = dt;
	t->rank = rank;
	memcpy(t->shape, shape, (size_t)rank * sizeof *shape);
	memset(t->view_at, 0, sizeof t->view_at);
	if (at)
		memcpy(t->view_at, at, (size_t)rank * sizeof *at);
	t->layout.ll = *ll;
	int lr = ll->n_out;
	int64_t region[LL_MAX_RANK];
	for (int j = 0; j < lr; j++)
		region[j] = (int64_t)1 << ll->out_bits[j];
	LLayout built;
	LLErr err = {ck->a, NULL};
	if (desc && sema_smem_layout_rank(desc) == lr &&
	    ll_build(desc, at ? region : shape + (rank - lr), lr, 0, &built, &err) &&
	    ll_equal(&built, ll)) {
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

/* Elements between consecutive indices of leading dim d of view t (dims
 * its layout does not cover): the later leading dims times the layout's
 * region. */
static int64_t
lead_stride(const TType *t, int d)
{
	int64_t n = ir_smem_span(t);
	for (int i = 0; i <= d; i++)
		n /= t->shape[i];
	return n;
}

/* Whether v (`what`: the initial or stored value) is a register tensor
 * that can be stored into buffer type t: its shape and dtype; a
 * diagnostic at v otherwise. */
static bool
stored_value(Check *ck, Value *v, const TType *t, const char *what)
{
	if (!sema_want_rt(ck, v, TY_TENSOR, what))
		return false;
	const TType *vt = v->u.rt->type;
	if (ir_same_shape(vt, t) && vt->dtype == t->dtype && !vt->elem_is_ptr)
		return true;
	diag_error(ck->d, v->span, "cannot store %s into %s: dtype and shape must match",
	           sema_type_str(ck, vt), sema_type_str(ck, t));
	return false;
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
	                .layout = t->layout, .is_mbarrier = sema_is_mbarrier_layout(l, dt)};
	memcpy(s.shape, shape, sizeof shape);
	s.bytes = extent_bytes(t);
	s.align = l->kind == LL_NVMMA_SHARED && l->swizzle_byte_width ? 1024 : 16;
	vec_push(ck->a, &ck->smem, s);
	vec_push(ck->a, &ck->unfenced, false);
	TInst *i = sema_emit(ck, OP_SMEM_ALLOC, call->span, t, 0);
	i->attr.alloc = idx;
	i->res->layout_at = a[2]->span;
	if (a[3]) {
		if (!stored_value(ck, a[3], t, "the initial value"))
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
	int64_t stride = lead_stride(t, 0);
	TType *rt = ir_smem_strided(t) && t->layout.ll.n_out < t->rank
	            ? view_type(ck, t, t->dtype, t->shape + 1, t->rank - 1, t->view_at + 1,
	                        t->layout.desc, &t->layout.ll)
	            : sema_smem_type(ck, call->span, t->dtype, t->shape + 1, t->rank - 1,
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

/* Gluon's rule for slicing dim d of t (covered by its layout) to len
 * elements: every coordinate bit of d from len up to the view's size is
 * one offset bit of the layout (the slice does not cut through its swizzle
 * pattern). */
static bool
slice_rule(Check *ck, SrcSpan at, const TType *t, int d, int64_t len)
{
	LLayout inv;
	LLErr err = {ck->a, NULL};
	if (!ll_invert(&t->layout.ll, &inv, &err)) {
		diag_error(ck->d, at, "this buffer's layout is not one-to-one, so it cannot be sliced");
		return false;
	}
	int i = ll_in_index(&inv, (LLName)(LL_DIM0 + d - (t->rank - t->layout.ll.n_out)));
	int off = ll_out_index(&inv, LL_OFFSET);
	for (int b = 0; (int64_t)1 << b < t->shape[d]; b++) {
		if ((int64_t)1 << b < len)
			continue;
		uint32_t v[LL_MAX_DIMS];
		ll_get_basis(&inv, i, b, v);
		if (!v[off] || (v[off] & (v[off] - 1))) {
			diag_error(ck->d, at, "this slice cuts through the layout's swizzle pattern: "
			           "element %lld along dim %d is at offset %u, not a power of two "
			           "(Gluon: \"We don't support splitting along the swizzling pattern\")",
			           (long long)1 << b, d, (unsigned)v[off]);
			return false;
		}
	}
	return true;
}

/* The dense form of view t when its elements are one aligned block of
 * offsets: its layout over its own shape, and the offset of the block. */
static bool
as_dense(const TType *t, LLayout *out, int64_t *offset)
{
	LLayout m, c = ll_empty();
	if (!ir_smem_place(t, &m, offset, NULL))
		return false;
	int n = ll_total_in_bits(&m), off = ll_out_index(&m, LL_OFFSET);
	if (*offset & ((1ll << n) - 1))
		return false;
	for (int i = 0; i < m.n_in; i++)
		ll_add_in(&c, (LLName)m.in_name[i], m.in_bits[i]);
	for (int j = 0; j < m.n_out; j++)
		ll_add_out(&c, (LLName)m.out_name[j], j == off ? n : m.out_bits[j]);
	for (int i = 0; i < m.n_in; i++)
		for (int b = 0; b < m.in_bits[i]; b++) {
			uint32_t v[LL_MAX_DIMS];
			ll_get_basis(&m, i, b, v);
			if (v[off] >> n)
				return false;
			ll_set_basis(&c, i, b, v);
		}
	return ll_invert(&c, out, NULL);
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
	int64_t shape[LL_MAX_RANK], at[LL_MAX_RANK];
	memcpy(shape, t->shape, sizeof shape);
	memcpy(at, t->view_at, sizeof at);
	shape[dim] = len;
	bool strided = ir_smem_strided(t);
	if (dim < t->rank - t->layout.ll.n_out) {
		TType *vt = view_type(ck, t, t->dtype, shape, t->rank, strided ? at : NULL,
		                      t->layout.desc, &t->layout.ll);
		return view(ck, call, self, vt, start * lead_stride(t, (int)dim));
	}
	if (!slice_rule(ck, call->span, t, (int)dim, len))
		return NULL;
	/* a strided view of t's region, made dense when it is one block */
	at[dim] += start;
	TType *rt = view_type(ck, t, t->dtype, shape, t->rank, at, t->layout.desc, &t->layout.ll);
	LLayout ll;
	int64_t offset;
	if (!as_dense(rt, &ll, &offset)) {
		if (t->layout.desc->kind == LL_PADDED_SHARED) {
			diag_error(ck->d, call->span, "this .slice of a PaddedSharedLayout buffer is not "
			           "one block of its layout; glc slices padded buffers only into blocks "
			           "(a strided view of padded offsets is not implemented)");
			return NULL;
		}
		return view(ck, call, self, rt, 0);
	}
	TType *vt = view_type(ck, t, t->dtype, shape, t->rank, NULL, t->layout.desc, &ll);
	return view(ck, call, self, vt, offset);
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
	const LLDesc *desc = t->layout.desc->kind == LL_PADDED_SHARED
	                     ? t->layout.desc : ll_desc_permuted(ck->a, t->layout.desc, perm, t->rank);
	int64_t at[LL_MAX_RANK];
	for (int i = 0; i < t->rank; i++)
		at[i] = t->view_at[perm[i]];
	TType *vt = view_type(ck, t, t->dtype, shape, t->rank, ir_smem_strided(t) ? at : NULL,
	                      desc, &ll);
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
	if (ir_smem_strided(t)) {
		diag_error(ck->d, call->span, ".reshape of a strided slice (%s): its elements are not "
		           "one block (Gluon: \"NYI: memdesc_reshape of memdesc_subslice\"); reshape "
		           "the buffer before slicing it", sema_type_str(ck, t));
		return NULL;
	}
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
	const LLDesc *desc = t->layout.desc->kind == LL_PADDED_SHARED
	                     ? t->layout.desc : ll_desc_smem_reshaped(ck->a, t->layout.desc, rank);
	TType *vt = view_type(ck, t, t->dtype, shape, rank, NULL, desc, &ll);
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
	/* a strided view's first element starts the new buffer (Triton's
	 * affine base of the subslice) */
	LLayout m;
	int64_t origin = 0;
	if (ir_smem_strided(t) && ir_smem_place(t, &m, &origin, NULL) &&
	    origin * elem_bytes(t->dtype) % elem_bytes(dt)) {
		diag_error(ck->d, call->span, "._reinterpret as %s of a view that starts %lld bytes "
		           "into its region, which is not a whole number of its elements",
		           ir_dtype_name(dt), (long long)(origin * elem_bytes(t->dtype)));
		return NULL;
	}
	Value *r = view(ck, call, self, rt, origin * elem_bytes(t->dtype) / elem_bytes(dt));
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
		if (!stored_value(ck, a[0], t, "the stored value"))
			return NULL;
		sema_emit(ck, OP_SMEM_STORE, call->span, NULL, 2, self->u.rt, a[0]->u.rt);
		ck->unfenced.data[t->alloc] = true;
		return sema_new_value(&ck->ev, VAL_NONE, call->span);
	}
	}
}
