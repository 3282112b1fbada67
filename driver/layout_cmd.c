/*
 * `glc layout`: prints a layout fitted to a shape (owner table, JSON bases,
 * F2 matrix or SVG picture), or with --convert the conversion map between two
 * layouts and the plan that lowers it. Layout text is parsed by the real
 * parser and evaluated by sema, so mistakes get caret diagnostics pointing
 * into the text.
 */
#include "driver/driver.h"
#include "sema/sema.h"

#include <stdio.h>
#include <string.h>

/* Parses, evaluates and builds one layout given on the command line. */
static bool
layout_from_text(const Options *o, Arena *a, Interner *in, Sources *src, Diags *d,
                 const char *name, const char *text, const LLDesc **desc, LLayout *out)
{
	uint32_t file = src_add(src, name, text, strlen(text));
	Node *expr = parse_expression(a, in, src, file, d);
	if (!expr)
		return false;
	*desc = sema_eval_layout(a, d, expr);
	if (!*desc)
		return false;
	int64_t shape[5];
	for (int i = 0; i < o->rank; i++)
		shape[i] = o->shape[i];
	return sema_build_layout(d, expr->span, *desc, shape, o->rank, 0, a, out);
}

static int
dtype_bits(const Options *o, Diags *d, int fallback)
{
	if (!o->dtype)
		return fallback;
	int bits = sema_dtype_bits(o->dtype);
	if (bits < 8) {
		diag_error(d, (SrcSpan){0}, "--dtype '%s' is not a dtype of 8 to 64 bits "
		           "(e.g. f16, bf16, f32, i8, f8e4m3)", o->dtype);
		return 0;
	}
	return bits;
}

static int
convert(const Options *o, Arena *a, Interner *in, Sources *src, Diags *d, StrBuf *out)
{
	const LLDesc *sd, *dd;
	LLayout s, t;
	bool ok = layout_from_text(o, a, in, src, d, "<src>", o->layout_src, &sd, &s);
	ok &= layout_from_text(o, a, in, src, d, "<dst>", o->layout_dst, &dd, &t);
	int bits = dtype_bits(o, d, 16);
	if (!ok || !bits)
		return EXIT_INPUT;
	if (ll_desc_is_shared(sd) || ll_desc_is_shared(dd)) {
		diag_error(d, (SrcSpan){0}, "--convert takes two distributed layouts "
		           "(convert_layout moves register tensors); got a shared layout");
		return EXIT_INPUT;
	}
	LLCvtPlan plan;
	LLErr err = {a, NULL};
	if (!ll_plan_convert(&s, &t, bits, &plan, &err)) {
		diag_error(d, (SrcSpan){0}, "cannot convert: %s", err.msg ? err.msg : "no plan");
		return EXIT_INPUT;
	}
	if (o->layout_format == LFMT_JSON)
		ll_plan_report_json(&plan, out);
	else
		ll_plan_report_text(&plan, out);
	return drv_write_output(a, d, NULL, out, &o->limits) ? EXIT_OK : EXIT_INPUT;
}

/* The owner table and the picture have an entry per element (of the last
 * two dims, for the picture): refuse before printing them when even their
 * smallest size (2 bytes an entry in text, 150 in SVG) passes the output
 * limit, so that a huge shape neither runs long nor fills memory. */
static bool
fits_output(const Options *o, Diags *d)
{
	if (o->layout_format != LFMT_TEXT && o->layout_format != LFMT_SVG)
		return true;
	bool svg = o->layout_format == LFMT_SVG;
	int bits = 0;
	for (int i = svg && o->rank > 2 ? o->rank - 2 : 0; i < o->rank; i++)
		bits += __builtin_ctz(o->shape[i]);
	uint64_t max = o->limits.max[LIM_OUTPUT_BYTES];
	uint64_t per = svg ? 150 : 2;
	if (bits < 48 && (1ull << bits) <= max / per)
		return true;
	Diag *e = diag_error(d, (SrcSpan){0}, "the %s of a layout with 2^%d elements would be "
	                     "larger than %llu bytes", svg ? "picture" : "owner table", bits,
	                     (unsigned long long)max);
	diag_limit_note(d, e, &o->limits, LIM_OUTPUT_BYTES);
	diag_note(d, e, (SrcSpan){0}, "--format=json or --format=matrix print the bases, "
	          "whose size does not grow with the shape");
	return false;
}

int
drv_layout_command(const Options *o, Arena *a, Interner *in, Sources *src, Diags *d, StrBuf *out)
{
	out->limit = o->limits.max[LIM_OUTPUT_BYTES];
	if (o->layout_dst)
		return convert(o, a, in, src, d, out);
	const LLDesc *desc;
	LLayout l;
	if (!layout_from_text(o, a, in, src, d, "<layout>", o->layout_src, &desc, &l))
		return EXIT_INPUT;
	int fallback = desc->kind == LL_NVMMA_SHARED ? desc->element_bitwidth : 16;
	int bits = dtype_bits(o, d, fallback);
	if (!bits || !fits_output(o, d))
		return EXIT_INPUT;
	LLPadding pad = ll_desc_padding(desc);
	switch (o->layout_format) {
	case LFMT_JSON: ll_format_json(&l, &pad, out); break;
	case LFMT_MATRIX: ll_format_matrix(&l, &pad, out); break;
	case LFMT_SVG: ll_format_svg(&l, &pad, bits, out); break;
	case LFMT_TEXT:
	default:
		ll_format_text(&l, &pad, out);
		break;
	}
	return drv_write_output(a, d, NULL, out, &o->limits) ? EXIT_OK : EXIT_INPUT;
}
