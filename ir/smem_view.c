/*
 * Shared-memory views: where a view's elements lie, and whether TMA boxes
 * can move them.
 *
 * A dense view's layout maps offsets from its pointer to its coordinates
 * one to one. A strided view (Gluon's memdesc_subslice when the slice is
 * not one block of the layout) keeps the layout L of the region it was cut
 * from, fitted to that region, and its first element `at` in it; its
 * element x is at L^-1(at + x) = L^-1(at) ^ L^-1(x) past the region's
 * start, since at and x share no coordinate bit (slices start at multiples
 * of their power-of-two length). Triton's lowering computes the same XOR
 * (MemDescSubsliceOp offsets through the inverse of the alloc-shape
 * layout).
 */
#include "ir/ir.h"

bool
ir_smem_strided(const TType *t)
{
	const LLayout *l = &t->layout.ll;
	int base = t->rank - l->n_out;
	if (t->kind != TY_SMEM || base < 0)
		return false;
	for (int j = 0; j < l->n_out; j++)
		if ((int64_t)1 << l->out_bits[j] != t->shape[base + j] || t->view_at[base + j])
			return true;
	return false;
}

bool
ir_smem_place(const TType *t, LLayout *map, int64_t *origin, LLErr *err)
{
	const LLayout *l = &t->layout.ll;
	LLayout inv;
	if (!ll_pseudo_invert(l, &inv, err))
		return false;
	int base = t->rank - l->n_out;
	*map = ll_empty();
	uint32_t at[LL_MAX_DIMS] = {0}, o[LL_MAX_DIMS];
	for (int i = 0; i < inv.n_in; i++) {
		int bits = inv.in_bits[i];
		LLName n = (LLName)inv.in_name[i];
		if (n >= LL_DIM0 && base + (int)(n - LL_DIM0) < t->rank) {
			int d = base + (int)(n - LL_DIM0);
			bits = 0;
			while (((int64_t)1 << bits) < t->shape[d])
				bits++;
			at[i] = (uint32_t)t->view_at[d];
		}
		ll_add_in(map, n, bits);
	}
	for (int j = 0; j < inv.n_out; j++)
		ll_add_out(map, (LLName)inv.out_name[j], inv.out_bits[j]);
	for (int i = 0; i < inv.n_in; i++)
		for (int b = 0; b < map->in_bits[i]; b++) {
			uint32_t v[LL_MAX_DIMS];
			ll_get_basis(&inv, i, b, v);
			ll_set_basis(map, i, b, v);
		}
	ll_apply(&inv, at, o);
	int oj = ll_out_index(&inv, LL_OFFSET);
	*origin = oj < 0 ? 0 : o[oj];
	return true;
}

bool
ir_smem_view_ok(const TType *t)
{
	const LLayout *l = &t->layout.ll;
	LLayout inv;
	if (!ll_invert(l, &inv, NULL))
		return false;
	int base = t->rank - l->n_out, off = ll_out_index(&inv, LL_OFFSET);
	for (int i = 0; i < inv.n_in; i++) {
		int d = base + (int)(inv.in_name[i] - LL_DIM0);
		for (int b = 0; inv.in_name[i] >= LL_DIM0 && b < inv.in_bits[i]; b++) {
			uint32_t v[LL_MAX_DIMS];
			ll_get_basis(&inv, i, b, v);
			bool one = off >= 0 && v[off] && !(v[off] & (v[off] - 1));
			for (int j = 0; j < inv.n_out; j++)
				one &= j == off || v[j] == 0;
			if ((int64_t)1 << b >= t->shape[d] && !one)
				return false;
		}
	}
	return true;
}

int64_t
ir_smem_span(const TType *t)
{
	const LLayout *l = &t->layout.ll;
	int64_t n = 1;
	for (int d = 0; d < t->rank - l->n_out; d++)
		if (t->shape[d] < 0 || __builtin_mul_overflow(n, t->shape[d], &n))
			return INT64_MAX;
	int bits = 0;
	for (int j = 0; j < l->n_out; j++)
		bits += l->out_bits[j];
	/* An offset bit that moves no coordinate (fp4 padding) is memory too;
	 * Triton gives an fp4-padded buffer twice its bytes even unswizzled. */
	int offset_bits = ll_in_bits(l, LL_OFFSET);
	const LLDesc *ld = t->layout.desc;
	if (ld && ld->kind == LL_NVMMA_SHARED && ld->fp4_padded && offset_bits <= bits)
		offset_bits = bits + 1;
	if (offset_bits > bits)
		bits = offset_bits;
	if (bits >= 62 || __builtin_mul_overflow(n, (int64_t)1 << bits, &n))
		return INT64_MAX;
	return n;
}

void
ir_tma_box(const TType *d, int64_t *box)
{
	const LLDesc *ld = d->layout.desc;
	for (int i = 0; i < d->rank; i++)
		box[i] = d->shape[i] < 256 ? d->shape[i] : 256;
	if (ld && ld->kind == LL_NVMMA_SHARED && ld->swizzle_byte_width > 0) {
		int inner = ld->transposed ? 0 : d->rank - 1;
		int64_t row = 8 * ld->swizzle_byte_width / ir_dtype_bits(d->dtype);
		if (box[inner] > row)
			box[inner] = row;
	}
}

/* Every coordinate bit of a box (below box[j] along dim j) goes where d's
 * layout puts it; every other bit, and the origin, moves whole boxes. */
bool
ir_tma_fits(const TType *d, const TType *s)
{
	if (d->dtype != s->dtype || !ir_same_shape(d, s))
		return false;
	if (!ir_smem_strided(s))
		return ll_equal(&d->layout.ll, &s->layout.ll);
	LLayout dm, sm;
	int64_t dz, origin, box[LL_MAX_RANK], box_elems = 1;
	if (s->layout.ll.n_out != s->rank || !ir_smem_place(d, &dm, &dz, NULL) ||
	    !ir_smem_place(s, &sm, &origin, NULL))
		return false;
	ir_tma_box(d, box);
	for (int j = 0; j < d->rank; j++)
		box_elems *= box[j];
	bool ok = (origin & (box_elems - 1)) == 0;
	int off = ll_out_index(&sm, LL_OFFSET);
	for (int i = 0; ok && i < sm.n_in; i++) {
		int j = sm.in_name[i] - LL_DIM0;
		for (int b = 0; b < sm.in_bits[i]; b++) {
			uint32_t sv[LL_MAX_DIMS], dv[LL_MAX_DIMS];
			ll_get_basis(&sm, i, b, sv);
			ll_get_basis(&dm, ll_in_index(&dm, (LLName)sm.in_name[i]), b, dv);
			if ((int64_t)1 << b < box[j])
				ok &= sv[off] == dv[ll_out_index(&dm, LL_OFFSET)];
			else
				ok &= (sv[off] & (box_elems - 1)) == 0;
		}
	}
	return ok;
}

int64_t
ir_smem_extent(const TType *t)
{
	LLPadding pad = ll_desc_padding(t->layout.desc);
	int64_t n = ir_smem_span(t);
	return n == INT64_MAX ? INT64_MAX : ll_padded_size(&pad, n);
}
