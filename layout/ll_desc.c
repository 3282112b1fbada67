/* Printing a layout description back as Gluon constructor text, and the
 * constructors' names. */
#include "layout/layout.h"

static const char *const kind_names[] = {
	[LL_BLOCKED] = "BlockedLayout", [LL_SLICE] = "SliceLayout",
	[LL_DOT_OPERAND] = "DotOperandLayout", [LL_NVMMA_DISTRIBUTED] = "NVMMADistributedLayout",
	[LL_DISTRIBUTED_LINEAR] = "DistributedLinearLayout",
	[LL_NVMMA_SHARED] = "NVMMASharedLayout", [LL_SWIZZLED_SHARED] = "SwizzledSharedLayout",
	[LL_SHARED_LINEAR] = "SharedLinearLayout", [LL_PADDED_SHARED] = "PaddedSharedLayout",
	[LL_AUTO] = "AutoLayout",
};

const char *
ll_kind_name(LLKind k)
{
	return (unsigned)k < sizeof kind_names / sizeof *kind_names ? kind_names[k] : "layout";
}

static void
ints(StrBuf *b, const LLInts *v)
{
	buf_putc(b, '[');
	for (int i = 0; i < v->n && i < LL_MAX_LIST; i++)
		buf_printf(b, "%s%lld", i ? "," : "", (long long)v->v[i]);
	buf_putc(b, ']');
}

static void
bases(StrBuf *b, const LLBases *v)
{
	buf_putc(b, '[');
	for (int i = 0; i < v->n && i < LL_MAX_LIST; i++) {
		if (i)
			buf_putc(b, ',');
		ints(b, &v->b[i]);
	}
	buf_putc(b, ']');
}

void
ll_desc_print(const LLDesc *d, StrBuf *out)
{
	buf_puts(out, ll_kind_name(d->kind));
	buf_putc(out, '(');
	switch (d->kind) {
	case LL_BLOCKED:
		ints(out, &d->size_per_thread);
		buf_putc(out, ',');
		ints(out, &d->threads_per_warp);
		buf_putc(out, ',');
		ints(out, &d->warps_per_cta);
		buf_putc(out, ',');
		ints(out, &d->order);
		break;
	case LL_SLICE:
		buf_printf(out, "%d, ", d->dim);
		if (d->parent)
			ll_desc_print(d->parent, out);
		break;
	case LL_DOT_OPERAND:
		buf_printf(out, "%d, ", d->operand_index);
		if (d->parent)
			ll_desc_print(d->parent, out);
		buf_printf(out, ", %d", d->k_width);
		break;
	case LL_NVMMA_DISTRIBUTED:
		ints(out, &d->version);
		buf_putc(out, ',');
		ints(out, &d->warps_per_cta);
		buf_putc(out, ',');
		ints(out, &d->instr_shape);
		break;
	case LL_DISTRIBUTED_LINEAR:
		bases(out, &d->reg_bases);
		buf_putc(out, ',');
		bases(out, &d->lane_bases);
		buf_putc(out, ',');
		bases(out, &d->warp_bases);
		buf_putc(out, ',');
		bases(out, &d->block_bases);
		buf_putc(out, ',');
		ints(out, &d->shape);
		break;
	case LL_NVMMA_SHARED:
		buf_printf(out, "%d, %d", d->swizzle_byte_width, d->element_bitwidth);
		if (d->rank != 2)
			buf_printf(out, ", rank=%d", d->rank);
		if (d->transposed)
			buf_puts(out, ", transposed=True");
		if (d->fp4_padded)
			buf_puts(out, ", fp4_padded=True");
		break;
	case LL_SWIZZLED_SHARED:
		buf_printf(out, "%d, %d, %d, ", d->vec, d->per_phase, d->max_phase);
		ints(out, &d->order);
		break;
	case LL_SHARED_LINEAR:
		bases(out, &d->offset_bases);
		if (d->block_bases.n) {
			buf_puts(out, ", ");
			bases(out, &d->block_bases);
		}
		break;
	case LL_PADDED_SHARED:
		bases(out, &d->interval_padding_pairs);
		buf_putc(out, ',');
		bases(out, &d->offset_bases);
		buf_putc(out, ',');
		bases(out, &d->block_bases);
		buf_putc(out, ',');
		ints(out, &d->shape);
		break;
	case LL_AUTO:
		buf_printf(out, "%d", d->auto_id);
		break;
	}
	if (d->cga_layout.n) {
		buf_puts(out, ", cga_layout=");
		bases(out, &d->cga_layout);
	}
	buf_putc(out, ')');
}

static bool
ints_equal(const LLInts *a, const LLInts *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n && i < LL_MAX_LIST; i++)
		if (a->v[i] != b->v[i])
			return false;
	return true;
}

static bool
bases_equal(const LLBases *a, const LLBases *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n && i < LL_MAX_LIST; i++)
		if (!ints_equal(&a->b[i], &b->b[i]))
			return false;
	return true;
}

bool
ll_desc_equal(const LLDesc *a, const LLDesc *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->kind != b->kind)
		return false;
	switch (a->kind) {
	case LL_BLOCKED:
		return bases_equal(&a->cga_layout, &b->cga_layout) &&
		       ints_equal(&a->size_per_thread, &b->size_per_thread) &&
		       ints_equal(&a->threads_per_warp, &b->threads_per_warp) &&
		       ints_equal(&a->warps_per_cta, &b->warps_per_cta) &&
		       ints_equal(&a->order, &b->order);
	case LL_SLICE:
		return a->dim == b->dim && ll_desc_equal(a->parent, b->parent);
	case LL_DOT_OPERAND:
		return a->operand_index == b->operand_index && a->k_width == b->k_width &&
		       ll_desc_equal(a->parent, b->parent);
	case LL_NVMMA_DISTRIBUTED:
		return bases_equal(&a->cga_layout, &b->cga_layout) &&
		       ints_equal(&a->version, &b->version) &&
		       ints_equal(&a->warps_per_cta, &b->warps_per_cta) &&
		       ints_equal(&a->instr_shape, &b->instr_shape);
	case LL_DISTRIBUTED_LINEAR:
		return bases_equal(&a->reg_bases, &b->reg_bases) &&
		       bases_equal(&a->lane_bases, &b->lane_bases) &&
		       bases_equal(&a->warp_bases, &b->warp_bases) &&
		       bases_equal(&a->block_bases, &b->block_bases) && ints_equal(&a->shape, &b->shape);
	case LL_NVMMA_SHARED:
		return bases_equal(&a->cga_layout, &b->cga_layout) &&
		       a->swizzle_byte_width == b->swizzle_byte_width &&
		       a->element_bitwidth == b->element_bitwidth && a->rank == b->rank &&
		       a->transposed == b->transposed && a->fp4_padded == b->fp4_padded;
	case LL_SWIZZLED_SHARED:
		return bases_equal(&a->cga_layout, &b->cga_layout) && a->vec == b->vec &&
		       a->per_phase == b->per_phase &&
		       a->max_phase == b->max_phase && ints_equal(&a->order, &b->order);
	case LL_SHARED_LINEAR:
		return bases_equal(&a->offset_bases, &b->offset_bases) &&
		       bases_equal(&a->block_bases, &b->block_bases);
	case LL_PADDED_SHARED:
		return bases_equal(&a->interval_padding_pairs, &b->interval_padding_pairs) &&
		       bases_equal(&a->offset_bases, &b->offset_bases) &&
		       bases_equal(&a->block_bases, &b->block_bases) && ints_equal(&a->shape, &b->shape);
	case LL_AUTO:
		return a->auto_id == b->auto_id;
	}
	return false;
}
