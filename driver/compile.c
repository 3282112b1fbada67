/*
 * `glc FILE.gl`: the compile pipeline as a list of passes over one arena —
 * lex, parse, check (sema), lower (codegen), assemble (ptxas), package —
 * stopping after the stage that --emit asks for. `glc FILE.ir` reads the
 * program back from its text instead of lex, parse and check; both meet at
 * one typed program. --split-input-file runs this on each case of the file.
 */
#include "driver/driver.h"
#include "lexer/lexer.h"
#include "package/package.h"
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

/* True when the input's name ends in ext (".py", ".ir"). */
static bool
input_is(const Options *o, const char *ext)
{
	size_t n = strlen(o->input), e = strlen(ext);
	return n > e && strcmp(o->input + n - e, ext) == 0;
}

/* A Gluon .py file, compiled as triton/tools/compile.py would. */
static bool
is_gluon(const Options *o)
{
	return input_is(o, ".py");
}

/* Where one compilation's outputs go: the output (*path; NULL or "-" is
 * standard output), the header (--header, or beside a .py file's C), the
 * manifest, and the name glc link dispatches the kernels under. */
typedef struct Outputs {
	StrBuf *out;
	const char **path;
	StrBuf header, manifest;
	const char *group;
} Outputs;

/* -on NAME for a .gl file: the one kernel compiled takes the name NAME (its
 * launcher's symbol and its entry in the image), so that specializations of
 * one kernel (-D) can share a library. */
static TProgram *
rename_kernel(const Options *o, TProgram *p, Diags *d, Outputs *w)
{
	if (p->n_kernels != 1) {
		diag_error(d, (SrcSpan){0}, "-on %s names one kernel's launcher, and %s has %d "
		           "kernels: pick one with --kernel", o->out_name, o->input, p->n_kernels);
		return NULL;
	}
	w->group = p->kernels[0]->name;
	p->kernels[0]->name = o->out_name;
	return p;
}

/* The name glc link dispatches a .py file's launchers under: -on, else
 * the kernel's (its dots as underscores). */
static const char *
gluon_group(const Options *o, Arena *a)
{
	if (o->out_name)
		return o->out_name;
	char *g = arena_printf(a, "%s", o->kernel ? o->kernel : "");
	for (char *c = g; *c; c++)
		*c = *c == '.' ? '_' : *c;
	return g;
}

static TProgram *
check(const Options *o, Arena *a, Interner *in, Sources *src, Diags *d, Node *m,
      uint32_t file, Outputs *w)
{
	if (is_gluon(o)) {
		w->group = gluon_group(o, a);
		return drv_check_gluon(o, a, in, src, d, m, file);
	}
	SemaDefine *defs = arena_alloc(a, (o->defines.len + 1) * sizeof *defs);
	for (size_t i = 0; i < o->defines.len; i++)
		defs[i] = (SemaDefine){o->defines.data[i].name, o->defines.data[i].value};
	TProgram *p = sema_check(a, in, src, d, m, defs, o->defines.len, o->kernel, &o->limits);
	return p && o->out_name ? rename_kernel(o, p, d, w) : p;
}


/* Code generation and packaging for --emit=llvm|ptx|cubin|c|header|obj. */
static bool
generate(const Options *o, Arena *a, Sources *src, uint32_t file, Diags *d,
         const TProgram *p, Outputs *w, DrvTimer *tm)
{
	StrBuf *out = w->out;
	const char **path = w->path;
	CgOptions co = {o->arch, o->opt_level, o->debug_info, o->debug_info || o->debug,
	                &o->limits, o->no_fp_contract};
	CgTarget *t = cg_target_new(&co, d);
	if (!t)
		return false;
	CgResult r;
	/* -on renamed the kernel that --kernel picked */
	bool ok = cg_compile(t, p, is_gluon(o) || o->out_name ? NULL : o->kernel, src, file, a,
	                     d, &r);
	if (ok && o->grid)
		ok = drv_apply_grid(o, p, &r, a, d);
	drv_timer_lap(tm, "codegen");
	DrvImages im = {0};
	if (ok && o->emit != EMIT_LLVM && o->emit != EMIT_PTX) {
		StrBuf usage = {0};
		PkgPtxas po = {cg_target_arch(t), r.no_fp_contract, o->resource_usage ? &usage : NULL,
		               NULL, 0};
		ok = drv_assemble(o, &po, &r, src, a, d, &im);
		drv_timer_lap(tm, "ptxas");
		if (usage.len)
			fputs(usage.s, stderr);
		buf_free(&usage);
	}
	PkgUnit pk = {pkg_unit_name(a, o->input), r.kernels, r.n_kernels, im.cubins, im.n,
	              im.image_of, r.ptx, o->emit == EMIT_HEADER ? *path : o->header_output,
	              w->group, p};
	if (ok && (o->emit == EMIT_C || o->emit == EMIT_HEADER || o->emit == EMIT_OBJ))
		ok = pkg_check_symbols(&pk, a, d);
	if (ok) {
		CgBlob obj;
		switch (o->emit) {
		case EMIT_LLVM: buf_putn(out, (const char *)r.llvm_ir.data, r.llvm_ir.len); break;
		case EMIT_PTX: buf_putn(out, (const char *)r.ptx.data, r.ptx.len); break;
		case EMIT_CUBIN:
			buf_putn(out, (const char *)im.cubins[0].data, im.cubins[0].len);
			if (!*path)
				*path = default_output(a, d, o->input, ".cubin");
			break;
		case EMIT_C: pkg_emit_launcher_c(&pk, out); break;
		case EMIT_HEADER: pkg_emit_header(&pk, out); break;
		case EMIT_OBJ:
		default:
			ok = pkg_emit_object(&pk, a, d, &obj);
			if (ok)
				buf_putn(out, (const char *)obj.data, obj.len);
			if (!*path)
				*path = default_output(a, d, o->input, ".o");
			break;
		}
		/* --header (or a .py file's pair): from the same compilation */
		if (o->header_output && (o->emit == EMIT_C || o->emit == EMIT_OBJ)) {
			w->header.limit = o->limits.max[LIM_OUTPUT_BYTES];
			pkg_emit_header(&pk, &w->header);
		}
		if (o->manifest_output) {
			w->manifest.limit = o->limits.max[LIM_OUTPUT_BYTES];
			pkg_emit_manifest(&pk, &w->manifest);
		}
	}
	cg_target_free(t);
	drv_timer_lap(tm, "output");
	return ok;
}

/* The program of a .gl source, lexed, parsed and checked; the tokens or the
 * AST instead when --emit asks for them. NULL when it stops there. */
static TProgram *
from_source(const Options *o, Arena *a, Interner *in, Sources *src, Diags *d, uint32_t file,
            Outputs *w, DrvTimer *tm)
{
	StrBuf *out = w->out;
	if (o->emit == EMIT_TOKENS) {
		TokenList toks = {0};
		lex_file(a, in, src, file, d, &o->limits, &toks);
		drv_timer_lap(tm, "read+lex");
		lex_dump(&toks, src, out);
		return NULL;
	}
	int errors = d->errors;
	Node *m = parse_module(a, in, src, file, d, &o->limits);
	drv_timer_lap(tm, "read+lex+parse");
	if (!m || d->errors != errors)
		return NULL;
	if (o->emit == EMIT_AST) {
		parse_dump(m, src, out);
		return NULL;
	}
	TProgram *p = check(o, a, in, src, d, m, file, w);
	drv_timer_lap(tm, "sema");
	return p;
}

/* The program of a .ir text, read back and verified; *origin receives the
 * file its locations point into. */
static TProgram *
from_ir(const Options *o, Arena *a, Interner *in, Sources *src, Diags *d, uint32_t file,
        uint32_t *origin, DrvTimer *tm)
{
	if (o->emit == EMIT_TOKENS || o->emit == EMIT_AST) {
		diag_error(d, (SrcSpan){0}, "--emit=%s needs a .gl source, not IR",
		           o->emit == EMIT_TOKENS ? "tokens" : "ast");
		return NULL;
	}
	if (o->defines.len) {
		diag_error(d, (SrcSpan){0}, "-D %s: IR has no constexpr parameters left to set",
		           o->defines.data[0].name);
		return NULL;
	}
	IrLoader load = {drv_load_source, (void *)&o->limits};
	TProgram *p = ir_read(a, in, src, file, &load, d, origin);
	if (!*origin)
		*origin = file;
	if (!p)
		return NULL;
	drv_timer_lap(tm, "read ir");
	if (!o->kernel)
		return p;
	for (int i = 0; i < p->n_kernels; i++)
		if (strcmp(p->kernels[i]->name, o->kernel) == 0) {
			p->kernels[0] = p->kernels[i];
			p->n_kernels = 1;
			return p;
		}
	diag_error(d, (SrcSpan){0}, "--kernel %s: the IR has no kernel of that name", o->kernel);
	return NULL;
}

/* One case: the whole input, or one part of --split-input-file. */
static void
compile_case(const Options *o, Arena *a, Interner *in, Sources *src, Diags *d, uint32_t file,
             Outputs *w, DrvTimer *tm)
{
	StrBuf *out = w->out;
	int errors = d->errors;
	uint32_t origin = file;
	TProgram *p = input_is(o, ".ir") ? from_ir(o, a, in, src, d, file, &origin, tm)
	                                 : from_source(o, a, in, src, d, file, w, tm);
	if (!p || d->errors != errors)
		return;
	if (p->n_kernels == 0)
		no_kernel(d, src_path(src, origin));
	/* The passes run on either; after them the program holds everything code
	 * generation reads (a failure is glc's bug). */
	if (!drv_run_passes(o, p, src, origin, a, d, tm) || !ir_verify(p, true, d))
		return;
	if (o->emit == EMIT_IR)
		ir_print(p, src, origin, o->verbose, out);
	else
		generate(o, a, src, origin, d, p, w, tm);
}

/* Writes every output once drv_check_outputs has found them distinct from
 * each other and from every file read; false after an error. */
static bool
write_outputs(const Options *o, Arena *a, const Sources *src, Diags *d, const char *path,
              const Outputs *w)
{
	bool to_file = path && strcmp(path, "-") != 0;
	const char *target = to_file ? path : pkg_unit_name(a, o->input);
	DrvOutput outs[4];
	size_t n = 0;
	if (to_file)
		outs[n++] = (DrvOutput){"output", path, "-o"};
	if (o->header_output)
		outs[n++] = (DrvOutput){"header", o->header_output,
		                        o->header_given ? "--header" : "-o"};
	if (o->manifest_output)
		outs[n++] = (DrvOutput){"manifest", o->manifest_output, "--manifest"};
	const char *dep = o->depfile ? drv_depfile_path(o, a, target) : NULL;
	if (dep)
		outs[n++] = (DrvOutput){"depfile", dep, "-MF"};
	if (!drv_check_outputs(outs, n, src, a, d) ||
	    !drv_write_output(a, d, path, w->out, &o->limits))
		return false;
	if (o->header_output && !drv_write_output(a, d, o->header_output, &w->header, &o->limits))
		return false;
	if (o->manifest_output &&
	    !drv_write_output(a, d, o->manifest_output, &w->manifest, &o->limits))
		return false;
	return !dep || drv_write_depfile(o, a, src, d, target, dep);
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
	Outputs w = {out, &path, {0}, {0}, NULL};
	if (o->verify_diags)
		d->max_errors = 0;
	DrvCache cache;
	DrvCacheOut cached = {&path, out, &w.header, &w.manifest};
	bool hit = drv_cache_begin(o, a, src, file, &cache) &&
	           drv_cache_lookup(o, &cache, a, src, file, &cached);
	if (hit) {
		/* the outputs of an earlier, identical compilation */
	} else if (o->split_input) {
		DrvCase *cases;
		size_t n = drv_split_cases(src_text(src, file), src_len(src, file), a, &cases);
		for (size_t i = 0; i < n; i++) {
			if (i)
				buf_puts(out, "// -----\n");
			compile_case(o, a, in, src, d, drv_case_source(src, file, &cases[i]), &w, &tm);
		}
	} else {
		compile_case(o, a, in, src, d, file, &w, &tm);
	}
	if (tm.on) {
		fprintf(stderr, "%s\n", tm.report.s ? tm.report.s : "glc: time: nothing timed");
		buf_free(&tm.report);
	}
	if (o->verify_diags)
		drv_verify_diagnostics(d, src, file);
	if (!hit && !d->first)
		drv_cache_store(&cache, a, src, &cached);
	bool ok = !d->errors && write_outputs(o, a, src, d, path, &w);
	buf_free(&w.header);
	buf_free(&w.manifest);
	return ok ? EXIT_OK : EXIT_INPUT;
}
