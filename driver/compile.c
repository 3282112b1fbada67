/*
 * `glc FILE.gl`: the compile pipeline as a list of passes over one arena —
 * lex, parse, check (sema), lower (codegen), assemble (ptxas), package —
 * stopping after the stage that --emit asks for.
 */
#include "codegen/codegen.h"
#include "driver/driver.h"
#include "lexer/lexer.h"
#include "parser/parser.h"
#include "sema/sema.h"

#include <stdio.h>
#include <string.h>

/* Where a binary output goes without -o: the input's base name with ext,
 * in the current folder (like cc -c). Standard input has no name to derive
 * one from: NULL, after a diagnostic. */
static const char *
default_output(Arena *a, Diags *d, const char *input, const char *ext)
{
	if (strcmp(input, "-") == 0) {
		diag_error(d, (SrcSpan){0}, "reading from standard input: give the %s output "
		           "file a name with -o", ext);
		return NULL;
	}
	const char *base = strrchr(input, '/');
	base = base ? base + 1 : input;
	const char *dot = strrchr(base, '.');
	size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	return arena_printf(a, "%.*s%s", (int)n, base, ext);
}

/* A file without a @gl.kernel compiles to nothing, which is rarely what was
 * meant. */
static void
no_kernel(Diags *d, const char *path)
{
	Diag *w = diag_warning(d, (SrcSpan){0}, "'%s' has no @gl.kernel: the output holds no "
	                       "kernel", path);
	diag_note(d, w, (SrcSpan){0}, "@gl.jit functions are compiled only when a kernel "
	          "calls them");
}

/* A Gluon .py file, compiled as triton/tools/compile.py would. */
static bool
is_gluon(const Options *o)
{
	size_t n = strlen(o->input);
	return n > 3 && strcmp(o->input + n - 3, ".py") == 0;
}

static TProgram *
check(const Options *o, Arena *a, Interner *in, Sources *src, Diags *d, Node *m,
      uint32_t file)
{
	if (is_gluon(o))
		return drv_check_gluon(o, a, in, src, d, m, file);
	if (o->signatures.len) {
		diag_error(d, (SrcSpan){0}, "-s applies to .py files; kernels of %s have typed "
		           "parameters", o->input);
		return NULL;
	}
	SemaDefine *defs = arena_alloc(a, (o->defines.len + 1) * sizeof *defs);
	for (size_t i = 0; i < o->defines.len; i++)
		defs[i] = (SemaDefine){o->defines.data[i].name, o->defines.data[i].value};
	return sema_check(a, in, src, d, m, defs, o->defines.len, o->kernel, &o->limits);
}

/* Code generation and packaging for --emit=llvm|ptx|cubin|c|header|obj. */
static bool
generate(const Options *o, Arena *a, Sources *src, uint32_t file, Diags *d,
         const TProgram *p, StrBuf *out, const char **path, DrvTimer *tm)
{
	CgOptions co = {o->arch, o->opt_level, o->debug_info, &o->limits};
	CgTarget *t = cg_target_new(&co, d);
	if (!t)
		return false;
	CgResult r;
	bool ok = cg_compile(t, p, is_gluon(o) ? NULL : o->kernel, src, file, a, d, &r);
	drv_timer_lap(tm, "codegen");
	CgBlob cubin = {0};
	if (ok && o->emit != EMIT_LLVM && o->emit != EMIT_PTX) {
		ok = cg_ptxas(cg_target_arch(t), r.ptx, a, d, &cubin);
		drv_timer_lap(tm, "ptxas");
	}
	CgPackage pk = {cg_unit_name(a, o->input), r.kernels, r.n_kernels, cubin, r.ptx};
	if (ok && (o->emit == EMIT_C || o->emit == EMIT_HEADER || o->emit == EMIT_OBJ))
		ok = cg_check_symbols(&pk, a, d);
	if (ok) {
		CgBlob obj;
		switch (o->emit) {
		case EMIT_LLVM: buf_putn(out, (const char *)r.llvm_ir.data, r.llvm_ir.len); break;
		case EMIT_PTX: buf_putn(out, (const char *)r.ptx.data, r.ptx.len); break;
		case EMIT_CUBIN:
			buf_putn(out, (const char *)cubin.data, cubin.len);
			if (!*path)
				*path = default_output(a, d, o->input, ".cubin");
			break;
		case EMIT_C: cg_emit_launcher_c(&pk, out); break;
		case EMIT_HEADER: cg_emit_header(&pk, out); break;
		case EMIT_OBJ:
		default:
			ok = cg_emit_object(&pk, a, d, &obj);
			if (ok)
				buf_putn(out, (const char *)obj.data, obj.len);
			if (!*path)
				*path = default_output(a, d, o->input, ".o");
			break;
		}
	}
	cg_target_free(t);
	drv_timer_lap(tm, "output");
	return ok;
}

int
drv_compile(const Options *o, Arena *a, Interner *in, Sources *src, Diags *d, StrBuf *out)
{
	DrvTimer tm = {o->time_passes, {0}, {0}};
	drv_timer_lap(&tm, NULL);
	uint32_t file = drv_read_source(src, d, o->input, &o->limits);
	if (!file)
		return EXIT_INPUT;
	out->limit = o->limits.max[LIM_OUTPUT_BYTES];
	const char *path = o->output;
	if (o->emit == EMIT_TOKENS) {
		TokenList toks = {0};
		lex_file(a, in, src, file, d, &toks);
		drv_timer_lap(&tm, "read+lex");
		lex_dump(&toks, src, out);
	} else {
		Node *m = parse_module(a, in, src, file, d);
		drv_timer_lap(&tm, "read+lex+parse");
		if (m && d->errors == 0) {
			if (o->emit == EMIT_AST) {
				parse_dump(m, src, out);
			} else {
				TProgram *p = check(o, a, in, src, d, m, file);
				drv_timer_lap(&tm, "sema");
				if (p && p->n_kernels == 0)
					no_kernel(d, src_path(src, file));
				if (p && drv_run_passes(o, p, a, d, &tm)) {
					if (o->emit == EMIT_TYPED)
						ir_print(p, o->verbose, out);
					else
						generate(o, a, src, file, d, p, out, &path, &tm);
				}
			}
		}
	}
	if (tm.on) {
		fprintf(stderr, "%s\n", tm.report.s ? tm.report.s : "glc: time: nothing timed");
		buf_free(&tm.report);
	}
	if (d->errors)
		return EXIT_INPUT;
	if (!drv_write_output(a, d, path, o->input, out, &o->limits))
		return EXIT_INPUT;
	if (o->depfile && !drv_write_depfile(o, a, src, d, path && strcmp(path, "-") != 0
	                                                  ? path : cg_unit_name(a, o->input)))
		return EXIT_INPUT;
	return EXIT_OK;
}
