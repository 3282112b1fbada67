/* The SVG picture of a layout tile; over several CTAs each CTA's part
 * gets its own hue and a thick border. */
#include "layout/ll_internal.h"

#include <stdio.h> /* snprintf only */

/* The CTA holding cell (r, c) first (smallest preimage), and its
 * register/lane/warp or offset in v[] (inv's out-dims). */
static int
cell_owner(const LLayout *l, const LLayout *inv, int cb, int r, int c, uint32_t *v)
{
	ll_unpack_out(l, (uint64_t)r << cb | (uint64_t)c, v);
	ll_unpack_out(inv, ll_apply_packed(inv, ll_pack_in(inv, v)), v);
	int bi = ll_out_index(inv, LL_BLOCK);
	return bi >= 0 ? (int)v[bi] : 0;
}

/* Thick lines where neighbouring cells belong to different CTAs. */
static void
cta_borders(const LLayout *l, const LLayout *inv, int cb, int rows, int cols, int x0, int y0,
            int cw, int ch, StrBuf *out)
{
	uint32_t v[LL_MAX_DIMS];
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++) {
			int me = cell_owner(l, inv, cb, r, c, v);
			int x = x0 + c * cw, y = y0 + r * ch;
			if (c + 1 < cols && cell_owner(l, inv, cb, r, c + 1, v) != me)
				buf_printf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
				                "stroke=\"black\" stroke-width=\"3\"/>\n", x + cw, y, x + cw, y + ch);
			if (r + 1 < rows && cell_owner(l, inv, cb, r + 1, c, v) != me)
				buf_printf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
				                "stroke=\"black\" stroke-width=\"3\"/>\n", x, y + ch, x + cw, y + ch);
		}
}

void
ll_format_svg(const LLayout *l, const LLPadding *pad, int bitwidth, StrBuf *out)
{
	LLayout inv;
	int cb = l->n_out ? l->out_bits[l->n_out - 1] : 0;
	int rb = l->n_out >= 2 ? l->out_bits[l->n_out - 2] : 0;
	int cols = 1 << cb, rows = 1 << rb;
	bool shared = ll_in_index(l, LL_OFFSET) >= 0;
	int cw = cols <= 16 ? 56 : cols <= 32 ? 48 : 40, ch = cols <= 32 ? 22 : 18;
	int font = cols <= 32 ? 10 : 8, mx = 44, my = 44;
	int w = mx + cols * cw + 10, h = my + rows * ch + 10;
	buf_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	                "font-family=\"monospace\" font-size=\"%d\">\n", w, h, font);
	buf_printf(out, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", w, h);
	if (!ll_pseudo_invert(l, &inv, NULL)) {
		buf_puts(out, "<text x=\"10\" y=\"20\">layout does not cover its shape</text>\n</svg>\n");
		return;
	}
	buf_printf(out, "<text x=\"%d\" y=\"14\">dim%d &#8594;</text>\n", mx, l->n_out - 1);
	if (l->n_out >= 2)
		buf_printf(out, "<text x=\"4\" y=\"%d\" transform=\"rotate(90 4 %d)\">dim%d &#8594;"
		                "</text>\n", my, my, l->n_out - 2);
	for (int c = 0; c < cols; c++)
		buf_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
		           mx + c * cw + cw / 2, my - 6, c);
	for (int r = 0; r < rows; r++)
		buf_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>\n", mx - 4,
		           my + r * ch + ch / 2 + font / 3, r);
	int nwarps = 1 << ll_in_bits(l, LL_WARP), nctas = 1 << ll_in_bits(l, LL_BLOCK);
	int ri = ll_out_index(&inv, LL_REGISTER), li = ll_out_index(&inv, LL_LANE);
	int wi = ll_out_index(&inv, LL_WARP), oi = ll_out_index(&inv, LL_OFFSET);
	if (nctas > 1)
		buf_printf(out, "<text x=\"%d\" y=\"14\" text-anchor=\"end\">%d CTAs: one hue "
		                "each</text>\n", w - 10, nctas);
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++) {
			uint32_t v[LL_MAX_DIMS];
			int cta = cell_owner(l, &inv, cb, r, c, v);
			char label[32];
			int hue, light;
			if (shared) {
				int bytes = bitwidth / 8 > 0 ? bitwidth / 8 : 1;
				int64_t off = oi >= 0 ? v[oi] : 0;
				off = pad ? ll_pad(pad, off) : off;
				int chunk = (int)((off * bytes / 16) % 8);
				hue = nctas > 1 ? cta * 360 / nctas + chunk * 5 : chunk * 45;
				light = 70 + (int)((off * bytes / 128) % 2) * 12;
				snprintf(label, sizeof label, "%lld", (long long)off);
			} else {
				uint32_t warp = wi >= 0 ? v[wi] : 0, lane = li >= 0 ? v[li] : 0;
				hue = nctas > 1 ? (cta * 360 / nctas + (int)warp * 40 / nwarps + 200) % 360
				                : (int)(warp * 360 / (uint32_t)nwarps + 200) % 360;
				light = 88 - (int)lane * 36 / 32;
				snprintf(label, sizeof label, "T%u:R%u", warp * 32 + lane, ri >= 0 ? v[ri] : 0);
			}
			int x = mx + c * cw, y = my + r * ch;
			buf_printf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
			                "fill=\"hsl(%d,70%%,%d%%)\" stroke=\"#555\" stroke-width=\"0.5\"/>\n",
			           x, y, cw, ch, hue, light);
			buf_printf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			           x + cw / 2, y + ch / 2 + font / 3, label);
		}
	if (nctas > 1)
		cta_borders(l, &inv, cb, rows, cols, mx, my, cw, ch, out);
	buf_puts(out, "</svg>\n");
}
