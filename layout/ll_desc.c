/* Printing a layout description back as Gluon constructor text. */
#include "layout/layout.h"

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
	switch (d->kind) {
	case LL_BLOCKED:
		buf_puts(out, "BlockedLayout(");
		ints(out, &d->size_per_thread);
		buf_putc(out, ',');
		ints(out, &d->threads_per_warp);
		buf_putc(out, ',');
		ints(out, &d->warps_per_cta);
		buf_putc(out, ',');
		ints(out, &d->order);
		break;
	case LL_SLICE:
		buf_printf(out, "SliceLayout(%d, ", d->dim);
		if (d->parent)
			ll_desc_print(d->parent, out);
		break;
	case LL_DOT_OPERAND:
		buf_printf(out, "DotOperandLayout(%d, ", d->operand_index);
		if (d->parent)
			ll_desc_print(d->parent, out);
		buf_printf(out, ", %d", d->k_width);
		break;
	case LL_NVMMA_DISTRIBUTED:
		buf_puts(out, "NVMMADistributedLayout(");
		ints(out, &d->version);
		buf_putc(out, ',');
		ints(out, &d->warps_per_cta);
		buf_putc(out, ',');
		ints(out, &d->instr_shape);
		break;
	case LL_DISTRIBUTED_LINEAR:
		buf_puts(out, "DistributedLinearLayout(");
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
		buf_printf(out, "NVMMASharedLayout(%d, %d", d->swizzle_byte_width, d->element_bitwidth);
		if (d->rank != 2)
			buf_printf(out, ", rank=%d", d->rank);
		if (d->transposed)
			buf_puts(out, ", transposed=True");
		break;
	case LL_SWIZZLED_SHARED:
		buf_printf(out, "SwizzledSharedLayout(%d, %d, %d, ", d->vec, d->per_phase, d->max_phase);
		ints(out, &d->order);
		break;
	case LL_SHARED_LINEAR:
		buf_puts(out, "SharedLinearLayout(");
		bases(out, &d->offset_bases);
		if (d->block_bases.n) {
			buf_puts(out, ", ");
			bases(out, &d->block_bases);
		}
		break;
	}
	buf_putc(out, ')');
}
