/*
 * Packaging as C text: the header with one launcher prototype per kernel,
 * and the launcher source (images as byte arrays, a lazily loaded libglrt
 * module, launchers that check the assumed alignments, then launch). The
 * object that `-c` writes (object.c) implements the same launchers.
 *
 * A launcher is
 *     glrt_status NAME(glrt_stream stream, unsigned grid_x, unsigned grid_y,
 *                      unsigned grid_z, <kernel parameters>);
 * or, when the grid is computed from the arguments (CgKernelSig.grid, see
 * grid.c), NAME(glrt_stream stream, <kernel parameters>), which returns
 * GLRT_SUCCESS without launching when a dimension is 0;
 * with pointers as glrt_devptr, f16/bf16 scalars as their uint16_t bits, i1
 * as bool (so that any nonzero value is true; the kernel takes the byte
 * and tests it against 0) and tensor maps as const glrt_tensor_map *.
 * Alignment comes first in a declaration (GLRT_ALIGN64 static const ...),
 * where C and C++ both take it. A descriptor's global extents,
 * which the kernel takes as trailing i32 parameters, come from the
 * glrt_tensor_map (the shape its encoder recorded), not from the caller. A
 * parameter that breaks what the kernel requires gives
 * GLRT_ERROR_INVALID_ARGUMENT without launching.
 *
 * A kernel with a specialized variant (CgKernelSig.fast, see passes/specialize.c) has two
 * entries in the kernel table, generic then specialized; its launcher tests
 * the specialized assumptions on the actual arguments (pointer % 16,
 * integer % 16) and launches the specialized entry when all hold, the
 * generic one otherwise. Both entries take the same arguments.
 *
 * A kernel that builds tensor maps (CgKernelSig.scratch_bytes) takes its
 * global scratch buffer as a last argument that the caller never sees: the
 * launcher calls glrt_launch_scratch, which allocates the buffer for the
 * launch on its stream and frees it after the kernel.
 */
#include "package/pkg_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

bool
pkg_param_checked(const CgParam *p)
{
	if (p->kind == CG_PARAM_TENSOR_MAP)
		return true;
	if (p->divisibility <= 1)
		return false;
	if (p->kind == CG_PARAM_PTR)
		return true;
	switch (p->dtype) {
	case DT_I8: case DT_I16: case DT_I32: case DT_I64:
	case DT_U8: case DT_U16: case DT_U32: case DT_U64:
		return true;
	default:
		return false;
	}
}

int
pkg_entry_index(const PkgUnit *p, int i, bool fast)
{
	int e = 0;
	for (int k = 0; k < i; k++)
		e += p->kernels[k].fast ? 2 : 1;
	return e + (fast ? 1 : 0);
}

bool
pkg_param_specialized(const CgKernelSig *k, int j)
{
	return k->fast && pkg_param_checked(&k->fast->params[j]) &&
	       k->fast->params[j].divisibility > k->params[j].divisibility;
}

static int
n_entries(const PkgUnit *p)
{
	return pkg_entry_index(p, p->n_kernels, false);
}

const char *
pkg_unit_name(Arena *a, const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	char *s = arena_alloc(a, n + 2);
	size_t j = 0;
	if (n == 0 || isdigit((unsigned char)base[0]))
		s[j++] = '_';
	for (size_t i = 0; i < n; i++)
		s[j++] = isalnum((unsigned char)base[i]) ? base[i] : '_';
	return s;
}

int
pkg_map_rank(const CgKernelSig *k, int map_param)
{
	int rank = 0;
	for (int j = 0; j < k->n_params; j++)
		rank += k->params[j].map_param == map_param;
	return rank;
}

/* A parameter's name in the generated C (pkg_c_arg_prefix). */
#define C_ARG(q) pkg_c_arg_prefix(q), (q)->name

static void
prototype(const CgKernelSig *k, StrBuf *out)
{
	buf_printf(out, "glrt_status\n%s(glrt_stream stream", k->name);
	if (!k->grid[0])
		buf_puts(out, ", unsigned grid_x, unsigned grid_y, unsigned grid_z");
	for (int i = 0; i < k->n_params; i++) {
		if (k->params[i].map_param)
			continue;
		const char *ct = pkg_param_ctype(&k->params[i]);
		size_t n = strlen(ct);
		buf_printf(out, ",\n\t%s%s%s%s", ct, ct[n - 1] == '*' ? "" : " ",
		           C_ARG(&k->params[i]));
	}
	buf_puts(out, ")");
}

/* The tensor-map parameter a descriptor extent is read from. */
static const CgParam *
map_of(const CgKernelSig *k, const CgParam *extent)
{
	return &k->params[extent->map_param - 1];
}

/* The sentence saying what a checked parameter must satisfy. */
static void
requirement(const CgKernelSig *k, const CgParam *p, StrBuf *out)
{
	if (p->kind == CG_PARAM_TENSOR_MAP)
		buf_printf(out, "%s%s: a tensor map (not NULL)", C_ARG(p));
	else if (p->kind == CG_PARAM_PTR)
		buf_printf(out, "%s%s: %u-byte aligned", C_ARG(p), p->divisibility);
	else if (p->map_param)
		buf_printf(out, "dim %d of the shape of %s%s: a multiple of %u", p->map_dim,
		           C_ARG(map_of(k, p)), p->divisibility);
	else
		buf_printf(out, "%s%s: a multiple of %u", C_ARG(p), p->divisibility);
}

void
pkg_arg_error(const CgKernelSig *k, const CgParam *q, PkgArgCheck check, StrBuf *out)
{
	buf_printf(out, "%s: ", k->name);
	if (check == PKG_CHECK_RANK)
		buf_printf(out, "%s%s must be a tensor map of rank %d from "
		           "glrt_tensor_map_encode_nvmma (a failed encoding leaves rank 0)",
		           C_ARG(map_of(k, q)), pkg_map_rank(k, q->map_param));
	else if (check == PKG_CHECK_I32)
		buf_printf(out, "dim %d of the shape of %s%s must fit in an i32", q->map_dim,
		           C_ARG(map_of(k, q)));
	else if (q->kind == CG_PARAM_TENSOR_MAP)
		buf_printf(out, "%s%s must not be NULL", C_ARG(q));
	else if (q->kind == CG_PARAM_PTR)
		buf_printf(out, "%s%s must be %u-byte aligned", C_ARG(q), q->divisibility);
	else if (q->map_param)
		buf_printf(out, "dim %d of the shape of %s%s must be a multiple of %u", q->map_dim,
		           C_ARG(map_of(k, q)), q->divisibility);
	else
		buf_printf(out, "%s%s must be a multiple of %u", C_ARG(q), q->divisibility);
}

/* Appends s to b in upper case, bytes C cannot take in a macro name as '_'. */
static void
put_macro_part(StrBuf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf_putc(b, isalnum((unsigned char)s[i]) ? (char)toupper((unsigned char)s[i]) : '_');
}

/* GLC_<NAME>_H: NAME the header file's base name without its extension,
 * or, for a header on standard output, the unit and every launcher. */
static void
header_guard(const PkgUnit *p, StrBuf *guard)
{
	buf_puts(guard, "GLC_");
	if (p->header && strcmp(p->header, "-") != 0) {
		const char *base = strrchr(p->header, '/');
		base = base ? base + 1 : p->header;
		const char *dot = strrchr(base, '.');
		put_macro_part(guard, base, dot && dot != base ? (size_t)(dot - base) : strlen(base));
	} else {
		put_macro_part(guard, p->unit, strlen(p->unit));
		for (int i = 0; i < p->n_kernels; i++) {
			buf_putc(guard, '_');
			put_macro_part(guard, p->kernels[i].name, strlen(p->kernels[i].name));
		}
	}
	buf_puts(guard, "_H");
}

void
pkg_emit_header(const PkgUnit *p, StrBuf *out)
{
	StrBuf guard = {0};
	header_guard(p, &guard);
	buf_printf(out, "/* Generated by glc: launchers for the kernels of %s. Link the object\n"
	           " * from `glc -c` and libglrt. Each returns a glrt_status; grid_* count\n"
	           " * programs (blocks). */\n", p->unit);
	buf_printf(out, "#ifndef %s\n#define %s\n\n#include \"glrt.h\"\n\n", guard.s, guard.s);
	buf_puts(out, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
	for (int i = 0; i < p->n_kernels; i++) {
		const CgKernelSig *k = &p->kernels[i];
		buf_printf(out, "\n/* %s: %d threads per block", k->name, cg_block_threads(k));
		if (k->cluster[0] > 0)
			buf_printf(out, ", clusters of %dx%dx%d", k->cluster[0], k->cluster[1],
			           k->cluster[2]);
		if (k->smem_bytes)
			buf_printf(out, ", %u bytes of dynamic shared memory", k->smem_bytes);
		if (k->scratch_bytes)
			buf_printf(out, ", %u bytes of global scratch per program (allocated by "
			           "libglrt for each launch)", k->scratch_bytes);
		buf_puts(out, ".");
		if (k->grid[0]) {
			buf_puts(out, "\n * Grid: ");
			for (int d = 0; d < 3; d++) {
				buf_puts(out, d ? ", " : "");
				pkg_grid_print(k, k->grid[d], out);
			}
			buf_puts(out, " (nothing is launched when one is 0).");
		}
		for (int j = 0; j < k->n_params; j++) {
			if (!pkg_param_checked(&k->params[j]))
				continue;
			buf_puts(out, "\n * ");
			requirement(k, &k->params[j], out);
		}
		if (k->fast) {
			buf_puts(out, "\n * Runs a faster variant when");
			const char *sep = "";
			for (int j = 0; j < k->n_params; j++) {
				if (!pkg_param_specialized(k, j))
					continue;
				buf_printf(out, "%s\n *   ", sep);
				requirement(k->fast, &k->fast->params[j], out);
				sep = ",";
			}
			buf_puts(out, ".");
		}
		buf_puts(out, " */\n");
		prototype(k, out);
		buf_puts(out, ";\n");
	}
	buf_printf(out, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s */\n", guard.s);
	buf_free(&guard);
}

static void
byte_array(const char *decl, CgBlob blob, bool nul, StrBuf *out)
{
	buf_printf(out, "%s[%zu] = {", decl, blob.len + (nul ? 1 : 0));
	for (size_t i = 0; i < blob.len; i++)
		buf_printf(out, "%s%u,", i % 20 == 0 ? "\n\t" : "", blob.data[i]);
	buf_puts(out, nul ? "\n\t0\n};\n" : "\n};\n");
}

/* if (cond) return glrt_invalid_argument("message"): pkg_arg_error's for
 * parameter q, pkg_grid_error's when q is NULL. */
static void
reject_if(const CgKernelSig *k, const CgParam *q, PkgArgCheck check, StrBuf *cond, StrBuf *out)
{
	buf_printf(out, "\tif (%s)\n\t\treturn glrt_invalid_argument(\"", cond->s);
	if (q)
		pkg_arg_error(k, q, check, out);
	else
		pkg_grid_error(k, out);
	buf_puts(out, "\");\n");
	buf_clear(cond);
}

/* Reads each descriptor's extents out of its tensor map, after checking
 * that the map was encoded with the rank the kernel expects and that the
 * extents fit the kernel's i32. Extent j is the local glc_extent<j>. */
static void
extents(const CgKernelSig *k, StrBuf *cond, StrBuf *out)
{
	for (int j = 0; j < k->n_params; j++) {
		const CgParam *q = &k->params[j];
		if (!q->map_param)
			continue;
		const CgParam *map = map_of(k, q);
		if (q->map_dim == 0) {
			buf_printf(cond, "%s%s->rank != %d", C_ARG(map),
			           pkg_map_rank(k, q->map_param));
			reject_if(k, q, PKG_CHECK_RANK, cond, out);
		}
		buf_printf(cond, "%s%s->shape[%d] > 2147483647u", C_ARG(map), q->map_dim);
		reject_if(k, q, PKG_CHECK_I32, cond, out);
		buf_printf(out, "\tint32_t glc_extent%d = (int32_t)%s%s->shape[%d];\n", j,
		           C_ARG(map), q->map_dim);
		if (pkg_param_checked(q)) {
			buf_printf(cond, "glc_extent%d %% %u != 0", j, q->divisibility);
			reject_if(k, q, PKG_CHECK_RULE, cond, out);
		}
	}
}

/* The C expression of parameter j's value in the launcher. */
static void
arg_value(const CgKernelSig *k, int j, StrBuf *out)
{
	if (k->params[j].map_param)
		buf_printf(out, "glc_extent%d", j);
	else
		buf_printf(out, "%s%s", C_ARG(&k->params[j]));
}

/* Moves a parameter operand's value (text val of node e) into a local. */
static void
in_local(const CgGridExpr *e, int *n, StrBuf *out, StrBuf *val)
{
	if (e->op != CG_GRID_PARAM)
		return;
	buf_printf(out, "\tint64_t glc_g%d = %s;\n", *n, val->s);
	buf_clear(val);
	buf_printf(val, "glc_g%d", (*n)++);
}

/* Appends grid node e's value as an int64_t C operand to val, after
 * writing the locals glc_g<N> (*n counts them) its operands need to out.
 * Unsigned arithmetic wraps as CgGridExpr says; the conversion of a
 * uint64_t past INT64_MAX to int64_t is two's complement in every C
 * compiler glrt supports. */
static void
grid_operand(const CgKernelSig *k, const CgGridExpr *e, int *n, StrBuf *out, StrBuf *val)
{
	static const char *const ops[] = {[CG_GRID_ADD] = "+", [CG_GRID_SUB] = "-",
	                                  [CG_GRID_MUL] = "*", [CG_GRID_DIV] = "/",
	                                  [CG_GRID_REM] = "%"};
	if (e->op == CG_GRID_CONST) {
		if (e->value == INT64_MIN)
			buf_puts(val, "INT64_MIN");
		else
			buf_printf(val, "INT64_C(%lld)", (long long)e->value);
		return;
	}
	if (e->op == CG_GRID_PARAM) {
		buf_puts(val, "(int64_t)");
		arg_value(k, e->param, val);
		return;
	}
	StrBuf a = {0}, b = {0};
	grid_operand(k, e->lhs, n, out, &a);
	if (e->rhs)
		grid_operand(k, e->rhs, n, out, &b);
	if (e->op == CG_GRID_DIV || e->op == CG_GRID_REM) {
		if (pkg_grid_checked(e)) {
			/* locals: comparing a narrower parameter's widened value
			 * with INT64_MIN or -1 warns (-Wtype-limits) */
			in_local(e->lhs, n, out, &a);
			in_local(e->rhs, n, out, &b);
			StrBuf cond = {0};
			buf_printf(&cond, "%s == 0 || (%s == -1 && %s == INT64_MIN)", b.s, b.s, a.s);
			reject_if(k, NULL, PKG_CHECK_RULE, &cond, out);
			buf_free(&cond);
		}
		buf_printf(out, "\tint64_t glc_g%d = %s %s %s;\n", *n, a.s, ops[e->op], b.s);
	} else if (e->op == CG_GRID_NEG) {
		buf_printf(out, "\tint64_t glc_g%d = (int64_t)-(uint64_t)%s;\n", *n, a.s);
	} else {
		buf_printf(out, "\tint64_t glc_g%d = (int64_t)((uint64_t)%s %s (uint64_t)%s);\n", *n,
		           a.s, ops[e->op], b.s);
	}
	buf_printf(val, "glc_g%d", (*n)++);
	buf_free(&a);
	buf_free(&b);
}

/* glc_grid[d] = (unsigned)<dimension d>; and no launch when one is 0. */
static void
grid_c(const CgKernelSig *k, StrBuf *out)
{
	int n = 0;
	for (int d = 0; d < 3; d++) {
		StrBuf v = {0};
		grid_operand(k, k->grid[d], &n, out, &v);
		buf_printf(out, "\tglc_grid[%d] = (unsigned)%s;\n", d, v.s);
		buf_free(&v);
	}
	buf_puts(out, "\tif (glc_grid[0] == 0 || glc_grid[1] == 0 || glc_grid[2] == 0)\n"
	         "\t\treturn GLRT_SUCCESS;\n");
}

/* The launcher's locals are glc_*, which no parameter's C name can be. */
static void
launcher(const PkgUnit *p, int index, StrBuf *out)
{
	const CgKernelSig *k = &p->kernels[index];
	StrBuf cond = {0};
	buf_putc(out, '\n');
	prototype(k, out);
	buf_printf(out, "\n{\n\tunsigned glc_grid[3]%s;\n"
	           "\tstatic const unsigned glc_block[3] = {%d, 1, 1};\n",
	           k->grid[0] ? "" : " = {grid_x, grid_y, grid_z}", cg_block_threads(k));
	bool cluster = k->cluster[0] > 0;
	if (cluster)
		buf_printf(out, "\tstatic const unsigned glc_cluster[3] = {%d, %d, %d};\n",
		           k->cluster[0], k->cluster[1], k->cluster[2]);
	int n_args = k->n_params + (k->scratch_bytes ? 1 : 0);
	if (n_args)
		buf_printf(out, "\tvoid *glc_args[%d];\n", n_args);
	if (k->scratch_bytes)
		buf_puts(out, "\tglrt_devptr glc_scratch = 0;\n");
	buf_puts(out, "\tglrt_kernel *glc_kernel;\n\tglrt_status glc_status;\n");
	if (k->fast)
		buf_puts(out, "\tint glc_fast;\n");
	buf_putc(out, '\n');
	for (int j = 0; j < k->n_params; j++) {
		const CgParam *q = &k->params[j];
		if (!pkg_param_checked(q) || q->map_param)
			continue;
		if (q->kind == CG_PARAM_TENSOR_MAP)
			buf_printf(&cond, "!%s%s", C_ARG(q));
		else
			buf_printf(&cond, "%s%s %% %u != 0", C_ARG(q), q->divisibility);
		reject_if(k, q, PKG_CHECK_RULE, &cond, out);
	}
	extents(k, &cond, out);
	buf_free(&cond);
	if (k->grid[0])
		grid_c(k, out);
	int entry = pkg_entry_index(p, index, false);
	if (k->fast) {
		const char *sep = "\tglc_fast = ";
		for (int j = 0; j < k->n_params; j++)
			if (pkg_param_specialized(k, j)) {
				buf_puts(out, sep);
				arg_value(k, j, out);
				buf_printf(out, " %% %u == 0", k->fast->params[j].divisibility);
				sep = " &&\n\t           ";
			}
		buf_printf(out, ";\n\tglc_status = glrt_lazy_kernel_get(&glc_kernel, "
		           "&glc_%s_kernels[glc_fast ? %d : %d]);\n", p->unit, entry + 1, entry);
	} else {
		buf_printf(out, "\tglc_status = glrt_lazy_kernel_get(&glc_kernel, "
		           "&glc_%s_kernels[%d]);\n", p->unit, entry);
	}
	buf_puts(out, "\tif (glc_status != GLRT_SUCCESS)\n\t\treturn glc_status;\n");
	for (int j = 0; j < k->n_params; j++) {
		buf_printf(out, "\tglc_args[%d] = %s", j,
		           k->params[j].kind == CG_PARAM_TENSOR_MAP ? "(void *)" : "&");
		arg_value(k, j, out);
		buf_puts(out, ";\n");
	}
	if (k->scratch_bytes) {
		buf_printf(out, "\tglc_args[%d] = &glc_scratch;\n", k->n_params);
		buf_printf(out, "\treturn glrt_launch_scratch(glc_kernel, glc_grid, glc_block, %s, "
		           "%uu, stream, glc_args, %uu, &glc_scratch);\n}\n",
		           cluster ? "glc_cluster" : "NULL", k->smem_bytes, k->scratch_bytes);
		return;
	}
	buf_printf(out, "\treturn glrt_launch(glc_kernel, glc_grid, glc_block, %s, %uu, stream, "
	           "%s);\n}\n", cluster ? "glc_cluster" : "NULL", k->smem_bytes,
	           k->n_params ? "glc_args" : "NULL");
}

/* The C names of image i's array and lazy module: glc_UNIT_cubin and
 * glc_UNIT_module for a unit of one image, with the image's number after
 * them for several. */
static const char *
image_suffix(const PkgUnit *p, int i, char buf[16])
{
	if (p->n_cubins <= 1)
		return "";
	snprintf(buf, 16, "%d", i);
	return buf;
}

static int
image_of(const PkgUnit *p, int kernel)
{
	return p->n_cubins > 1 ? p->image_of[kernel] : 0;
}

void
pkg_emit_launcher_c(const PkgUnit *p, StrBuf *out)
{
	buf_printf(out, "/* Generated by glc: the images and launchers of %s. */\n"
	           "#include <stddef.h>\n#include <stdint.h>\n\n#include \"glrt.h\"\n\n",
	           p->unit);
	char sfx[16];
	for (int i = 0; i < p->n_cubins; i++) {
		StrBuf decl = {0};
		buf_printf(&decl, "GLRT_ALIGN64 static const unsigned char glc_%s_cubin%s", p->unit,
		           image_suffix(p, i, sfx));
		byte_array(decl.s, p->cubins[i], false, out);
		buf_free(&decl);
	}
	StrBuf decl = {0};
	buf_printf(&decl, "GLRT_ALIGN64 static const char glc_%s_ptx", p->unit);
	byte_array(decl.s, p->ptx, true, out);
	buf_free(&decl);
	for (int i = 0; i < p->n_cubins; i++) {
		const char *x = image_suffix(p, i, sfx);
		buf_printf(out, "\nstatic glrt_lazy_module glc_%s_module%s = {\n\tglc_%s_cubin%s, "
		           "sizeof glc_%s_cubin%s, glc_%s_ptx, sizeof glc_%s_ptx, NULL\n};\n",
		           p->unit, x, p->unit, x, p->unit, x, p->unit, p->unit);
	}
	if (!p->n_cubins)
		buf_printf(out, "\nstatic glrt_lazy_module glc_%s_module = {\n\tNULL, 0, "
		           "glc_%s_ptx, sizeof glc_%s_ptx, NULL\n};\n", p->unit, p->unit, p->unit);
	buf_printf(out, "\nstatic glrt_lazy_kernel glc_%s_kernels[%d] = {\n", p->unit,
	           p->n_kernels > 0 ? n_entries(p) : 1);
	for (int i = 0; i < p->n_kernels; i++) {
		const char *x = image_suffix(p, image_of(p, i), sfx);
		buf_printf(out, "\t{&glc_%s_module%s, \"%s\", NULL},\n", p->unit, x,
		           p->kernels[i].name);
		if (p->kernels[i].fast)
			buf_printf(out, "\t{&glc_%s_module%s, \"%s\", NULL},\n", p->unit, x,
			           p->kernels[i].fast->name);
	}
	if (p->n_kernels == 0)
		buf_printf(out, "\t{&glc_%s_module, \"\", NULL},\n", p->unit);
	buf_puts(out, "};\n");
	for (int i = 0; i < p->n_kernels; i++)
		launcher(p, i, out);
}
