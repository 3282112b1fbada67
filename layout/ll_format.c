/* Text printers: JSON, the owner table (with each CTA's part), the F2
 * matrix and the conversion report. */
#include "layout/ll_internal.h"

#include <stdio.h> /* snprintf only */
#include <string.h>

/* The bases of in-dim i as [[a,b],[c,d]]. */
static void
put_bases(const LLayout *l, int i, StrBuf *out)
{
	buf_putc(out, '[');
	for (int b = 0; b < l->in_bits[i]; b++) {
		uint32_t v[LL_MAX_DIMS];
		ll_get_basis(l, i, b, v);
		buf_puts(out, b ? ",[" : "[");
		for (int j = 0; j < l->n_out; j++)
			buf_printf(out, "%s%u", j ? "," : "", v[j]);
		buf_putc(out, ']');
	}
	buf_putc(out, ']');
}

static bool
is_tensor_layout(const LLayout *l)
{
	for (int j = 0; j < l->n_out; j++)
		if (l->out_name[j] != LL_DIM0 + j)
			return false;
	return l->n_in > 0 && (l->in_name[0] == LL_REGISTER || l->in_name[0] == LL_OFFSET);
}

/* The JSON object of l, without the final newline (embedded in reports). */
static void
put_json(const LLayout *l, StrBuf *out)
{
	if (is_tensor_layout(l)) {
		buf_printf(out, "{\"kind\":\"%s\",\"shape\":[",
		           l->in_name[0] == LL_OFFSET ? "shared" : "distributed");
		for (int j = 0; j < l->n_out; j++)
			buf_printf(out, "%s%llu", j ? "," : "", 1ull << l->out_bits[j]);
		buf_putc(out, ']');
	} else {
		buf_puts(out, "{\"kind\":\"map\",\"outs\":{");
		for (int j = 0; j < l->n_out; j++)
			buf_printf(out, "%s\"%s\":%llu", j ? "," : "", ll_name_str(l->out_name[j]),
			           1ull << l->out_bits[j]);
		buf_putc(out, '}');
	}
	buf_puts(out, ",\"bases\":{");
	for (int i = 0; i < l->n_in; i++) {
		buf_printf(out, "%s\"%s\":", i ? "," : "", ll_name_str(l->in_name[i]));
		put_bases(l, i, out);
	}
	buf_puts(out, "}}");
}

/* [[interval,padding],...] of p. */
static void
put_padding(const LLPadding *p, StrBuf *out)
{
	buf_putc(out, '[');
	for (int i = 0; i < p->n; i++)
		buf_printf(out, "%s[%lld,%lld]", i ? "," : "", 1ll << p->interval_bits[i],
		           1ll << p->pad_bits[i]);
	buf_putc(out, ']');
}

void
ll_format_json(const LLayout *l, const LLPadding *pad, StrBuf *out)
{
	put_json(l, out);
	if (pad && pad->n) {
		out->len--;   /* the object's closing brace */
		buf_puts(out, ",\"padding\":");
		put_padding(pad, out);
		buf_putc(out, '}');
	}
	buf_putc(out, '\n');
}

/* The label of the first holder of element `elem` (packed as l's output):
 * t5:r3 or an offset (padded by pad when given). */
static void
holder_label(const LLayout *l, const LLayout *inv, const LLPadding *pad, uint64_t elem, char *s,
             size_t n)
{
	uint32_t v[LL_MAX_DIMS];
	ll_unpack_out(l, elem, v);
	ll_unpack_out(inv, ll_apply_packed(inv, ll_pack_in(inv, v)), v);
	int ri = ll_out_index(inv, LL_REGISTER), li = ll_out_index(inv, LL_LANE);
	int wi = ll_out_index(inv, LL_WARP), bi = ll_out_index(inv, LL_BLOCK);
	int oi = ll_out_index(inv, LL_OFFSET);
	char blk[16] = "";
	if (bi >= 0 && ll_in_bits(l, LL_BLOCK) > 0)
		snprintf(blk, sizeof blk, "b%u:", v[bi]);
	if (oi >= 0)
		snprintf(s, n, "%s%lld", blk, (long long)(pad ? ll_pad(pad, v[oi]) : v[oi]));
	else
		snprintf(s, n, "%st%u:r%u", blk,
		         (wi >= 0 ? v[wi] : 0) * 32 + (li >= 0 ? v[li] : 0), ri >= 0 ? v[ri] : 0);
}

/* Rows and columns of the 2-D view: the last two out-dims (rank 1: 1 x n). */
static void
view_dims(const LLayout *l, int *rows_bits, int *cols_bits)
{
	*cols_bits = l->n_out ? l->out_bits[l->n_out - 1] : 0;
	*rows_bits = l->n_out >= 2 ? l->out_bits[l->n_out - 2] : 0;
}

/* For a layout over several CTAs: what each CTA holds, as a box when the
 * parts are boxes (else where its part starts), and its multicast mask. */
static void
cta_parts(const LLayout *l, StrBuf *out)
{
	int bits = ll_in_bits(l, LL_BLOCK);
	for (int c = 0; c < 1 << bits && bits <= LL_MAX_CTA_BITS; c++) {
		int64_t origin[LL_MAX_DIMS], extent[LL_MAX_DIMS];
		buf_printf(out, "CTA %d: ", c);
		if (ll_cta_box(l, c, origin, extent, NULL)) {
			buf_putc(out, '[');
			for (int j = 0; j < l->n_out; j++)
				buf_printf(out, "%s%lld:%lld", j ? ", " : "", (long long)origin[j],
				           (long long)(origin[j] + extent[j]));
			buf_putc(out, ']');
		} else {
			uint32_t v[LL_MAX_DIMS];
			ll_unpack_out(l, ll_apply_packed(l, (uint64_t)c << ll_in_start(l, ll_in_index(l,
			              LL_BLOCK))), v);
			buf_puts(out, "CTA 0's part XOR (");
			for (int j = 0; j < l->n_out; j++)
				buf_printf(out, "%s%u", j ? ", " : "", v[j]);
			buf_puts(out, ") (the parts interleave)");
		}
		buf_printf(out, ", multicast mask 0x%x\n", ll_cta_multicast_mask(l, c));
	}
}

void
ll_format_text(const LLayout *l, const LLPadding *pad, StrBuf *out)
{
	LLayout inv;
	if (!ll_pseudo_invert(l, &inv, NULL)) {
		buf_puts(out, "(the layout does not cover its shape)\n");
		return;
	}
	int rb, cb;
	view_dims(l, &rb, &cb);
	int plane_bits = rb + cb, lead = ll_total_out_bits(l) - plane_bits;
	int width = 0;
	char s[48];
	for (uint64_t e = 0; e < 1ull << ll_total_out_bits(l); e++) {
		holder_label(l, &inv, pad, e, s, sizeof s);
		int n = (int)strlen(s);
		width = n > width ? n : width;
	}
	for (uint64_t p = 0; p < 1ull << lead; p++) {
		if (lead) {
			uint32_t v[LL_MAX_DIMS];
			ll_unpack_out(l, p << plane_bits, v);
			buf_putc(out, '[');
			for (int j = 0; j + 2 < l->n_out; j++)
				buf_printf(out, "%u, ", v[j]);
			buf_puts(out, ":, :]\n");
		}
		buf_printf(out, "%5s", "");
		for (uint64_t c = 0; c < 1ull << cb; c++)
			buf_printf(out, " %*llu", width, (unsigned long long)c);
		buf_putc(out, '\n');
		for (uint64_t r = 0; r < 1ull << rb; r++) {
			buf_printf(out, "%5llu", (unsigned long long)r);
			for (uint64_t c = 0; c < 1ull << cb; c++) {
				holder_label(l, &inv, pad, p << plane_bits | r << cb | c, s, sizeof s);
				buf_printf(out, " %*s", width, s);
			}
			buf_putc(out, '\n');
		}
	}
	if (ll_in_bits(l, LL_BLOCK) > 0)
		cta_parts(l, out);
}

static const char *
short_name(LLName n)
{
	switch (n) {
	case LL_REGISTER: return "reg";
	case LL_BLOCK: return "blk";
	case LL_OFFSET: return "off";
	default: return ll_name_str(n);
	}
}

void
ll_format_matrix(const LLayout *l, const LLPadding *pad, StrBuf *out)
{
	int n = ll_total_in_bits(l);
	char lab[LL_MAX_BITS][16];
	for (int i = 0, k = 0; i < l->n_in; i++)
		for (int b = 0; b < l->in_bits[i]; b++, k++)
			snprintf(lab[k], sizeof lab[k], "%s%d", short_name(l->in_name[i]), b);
	buf_printf(out, "%-9s", "");
	for (int k = 0; k < n; k++)
		buf_printf(out, " %s", lab[k]);
	buf_putc(out, '\n');
	for (int j = 0; j < l->n_out; j++)
		for (int b = 0; b < l->out_bits[j]; b++) {
			char row[24];
			snprintf(row, sizeof row, "%s[%d]", ll_name_str(l->out_name[j]), b);
			buf_printf(out, "%-9s", row);
			int bit = ll_out_shift(l, j) + b;
			for (int k = 0; k < n; k++)
				buf_printf(out, " %*d", (int)strlen(lab[k]), (int)(l->col[k] >> bit & 1));
			buf_putc(out, '\n');
		}
	if (pad && pad->n) {
		buf_puts(out, "padding [interval,padding]: ");
		put_padding(pad, out);
		buf_puts(out, " (not linear: offset x sits at x + sum (x >> log2 interval) << log2 "
		              "padding)\n");
	}
}

void
ll_plan_report_text(const LLCvtPlan *p, StrBuf *out)
{
	buf_printf(out, "conversion: %s (%d-bit elements)\n", ll_cvt_kind_str(p->kind), p->bitwidth);
	buf_puts(out, "map (destination hardware -> source hardware, after quotienting):\n");
	for (int i = 0; i < p->map.n_in; i++) {
		buf_printf(out, "  %s: ", ll_name_str(p->map.in_name[i]));
		put_bases(&p->map, i, out);
		buf_putc(out, '\n');
	}
	if (p->map.n_out) {
		buf_puts(out, "  (coordinates:");
		for (int j = 0; j < p->map.n_out; j++)
			buf_printf(out, " %s", ll_name_str(p->map.out_name[j]));
		buf_puts(out, ")\n");
	}
	switch (p->kind) {
	case LL_CVT_FREE:
		buf_puts(out, "cost: free (register renaming)\nregister permutation:");
		for (int r = 0; r < p->n_dst_regs; r++)
			buf_printf(out, " %d", p->reg_perm[r]);
		buf_putc(out, '\n');
		break;
	case LL_CVT_SHUFFLE:
		buf_printf(out, "cost: %d shuffle rounds (shfl.sync.idx of %d-bit values)\n", p->n_rounds,
		           p->bitwidth);
		for (int k = 0; k < p->n_rounds; k++) {
			const LLShuffleRound *s = &p->rounds[k];
			buf_printf(out, "  round %d (lane: dst <- src lane.reg):", k);
			for (int l = 0; l < 32; l++)
				if (s->recv_mask >> l & 1)
					buf_printf(out, " r%d<-%d.r%d", s->dst_reg[l], s->src_lane[l],
					           s->send_reg[s->src_lane[l]]);
				else
					buf_puts(out, " -");
			buf_putc(out, '\n');
		}
		break;
	case LL_CVT_SHARED:
		buf_printf(out, "cost: shared memory, %lld bytes of scratch, %d round(s), one barrier\n",
		           (long long)p->scratch_bytes, p->smem_rounds);
		buf_printf(out, "store: %d elements per st.shared, %d wavefronts (ideal %d)\n",
		           p->store_cost.vec, p->store_cost.wavefronts, p->store_cost.ideal);
		buf_printf(out, "load:  %d elements per ld.shared, %d wavefronts (ideal %d)\n",
		           p->load_cost.vec, p->load_cost.wavefronts, p->load_cost.ideal);
		buf_puts(out, "scratch layout offset bases: ");
		put_bases(&p->smem, 0, out);
		buf_putc(out, '\n');
		break;
	}
}

void
ll_plan_report_json(const LLCvtPlan *p, StrBuf *out)
{
	buf_printf(out, "{\"kind\":\"%s\",\"bitwidth\":%d,\"map\":", ll_cvt_kind_str(p->kind),
	           p->bitwidth);
	put_json(&p->map, out);
	switch (p->kind) {
	case LL_CVT_FREE:
		buf_puts(out, ",\"register_permutation\":[");
		for (int r = 0; r < p->n_dst_regs; r++)
			buf_printf(out, "%s%d", r ? "," : "", p->reg_perm[r]);
		buf_putc(out, ']');
		break;
	case LL_CVT_SHUFFLE:
		buf_printf(out, ",\"rounds\":%d", p->n_rounds);
		break;
	case LL_CVT_SHARED:
		buf_printf(out, ",\"scratch_bytes\":%lld,\"rounds\":%d,\"smem\":",
		           (long long)p->scratch_bytes, p->smem_rounds);
		put_json(&p->smem, out);
		buf_printf(out, ",\"store\":{\"vec\":%d,\"wavefronts\":%d,\"ideal\":%d}",
		           p->store_cost.vec, p->store_cost.wavefronts, p->store_cost.ideal);
		buf_printf(out, ",\"load\":{\"vec\":%d,\"wavefronts\":%d,\"ideal\":%d}",
		           p->load_cost.vec, p->load_cost.wavefronts, p->load_cost.ideal);
		break;
	}
	buf_puts(out, "}\n");
}
