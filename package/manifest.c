/*
 * The manifest of an output (`--manifest FILE`): what `glc link` and the
 * Python package need to know of its launchers without parsing C. JSON:
 *
 *   {"glc_manifest": 1, "unit": "vector_add", "kernels": [
 *     {"kernel": "vector_add_f32",    the dispatch name (glc link groups by it)
 *      "symbol": "vector_add_f32",    the launcher's exported C name
 *      "grid": "caller" | "computed", who gives the launch grid
 *      "threads": 128, "smem_bytes": 0, "scratch_bytes": 0,
 *      "params": [{"name": "x", "c_name": "x", "kind": "ptr" | "scalar" |
 *                  "tensor_map", "dtype": "f32", "ctype": "glrt_devptr",
 *                  "divisibility": 16 (1: none), "rank": 2 (tensor maps)}],
 *      "constexprs": [{"name": "BLOCK", "value": "1024"}]}]}
 *
 * "params" are the launcher's parameters after stream (and the grid when
 * the caller gives it), in order; a descriptor's extents, which the
 * launcher reads from its tensor map, are not among them. "divisibility" is
 * what the launcher requires (a specialization's dispatch condition).
 */
#include "package/pkg_internal.h"

#include <string.h>

static void
json_str(StrBuf *out, const char *s)
{
	buf_putc(out, '"');
	buf_put_json_escaped(out, s);
	buf_putc(out, '"');
}

static const char *
kind_name(CgParamKind k)
{
	return k == CG_PARAM_PTR ? "ptr" : k == CG_PARAM_TENSOR_MAP ? "tensor_map" : "scalar";
}

/* The constexpr parameters of kernel name in the program, with their values. */
static void
constexprs(const PkgUnit *p, const char *name, StrBuf *out)
{
	buf_puts(out, "[");
	const TProgram *prog = p->prog;
	for (int i = 0; prog && i < prog->n_kernels; i++) {
		const TKernel *k = prog->kernels[i];
		if (strcmp(k->name, name) != 0)
			continue;
		for (int j = 0; j < k->n_cx; j++) {
			buf_puts(out, j ? ", " : "");
			buf_puts(out, "{\"name\": ");
			json_str(out, k->cx_names[j]);
			buf_puts(out, ", \"value\": ");
			json_str(out, k->cx_values[j]);
			buf_puts(out, "}");
		}
		break;
	}
	buf_puts(out, "]");
}

static void
params(const CgKernelSig *k, StrBuf *out)
{
	buf_puts(out, "[");
	const char *sep = "";
	for (int j = 0; j < k->n_params; j++) {
		const CgParam *q = &k->params[j];
		if (q->map_param)
			continue;
		buf_printf(out, "%s\n        {\"name\": ", sep);
		json_str(out, q->name);
		buf_printf(out, ", \"c_name\": \"%s%s\", \"kind\": \"%s\", \"dtype\": \"%s\", "
		           "\"ctype\": \"%s\", \"divisibility\": %u", pkg_c_arg_prefix(q), q->name,
		           kind_name(q->kind), ir_dtype_name(q->dtype), pkg_param_ctype(q),
		           pkg_param_checked(q) && q->kind != CG_PARAM_TENSOR_MAP ? q->divisibility : 1);
		if (q->kind == CG_PARAM_TENSOR_MAP)
			buf_printf(out, ", \"rank\": %d", pkg_map_rank(k, j + 1));
		buf_puts(out, "}");
		sep = ",";
	}
	buf_puts(out, "]");
}

void
pkg_emit_manifest(const PkgUnit *p, StrBuf *out)
{
	buf_puts(out, "{\"glc_manifest\": 1, \"unit\": ");
	json_str(out, p->unit);
	buf_puts(out, ", \"kernels\": [");
	for (int i = 0; i < p->n_kernels; i++) {
		const CgKernelSig *k = &p->kernels[i];
		buf_puts(out, i ? ",\n    {" : "\n    {");
		buf_puts(out, "\"kernel\": ");
		json_str(out, p->group ? p->group : k->name);
		buf_puts(out, ", \"symbol\": ");
		json_str(out, k->name);
		buf_printf(out, ", \"grid\": \"%s\", \"threads\": %d, \"smem_bytes\": %u, "
		           "\"scratch_bytes\": %u,\n      \"params\": ", k->grid[0] ? "computed" : "caller",
		           cg_block_threads(k), k->smem_bytes, k->scratch_bytes);
		params(k, out);
		buf_puts(out, ",\n      \"constexprs\": ");
		constexprs(p, k->name, out);
		buf_puts(out, "}");
	}
	buf_puts(out, "]}\n");
}
