/*
 * glc: the command line. Runs the pipeline as a list of passes over one arena,
 * prints what was asked for and the diagnostics, and picks the exit status
 * (0 ok, 1 errors in the input, 2 bad usage).
 */
#include "driver/driver.h"
#include "lexer/lexer.h"
#include "parser/parser.h"
#include "sema/sema.h"

#include <stdio.h>
#include <string.h>

#ifndef GLC_VERSION
#define GLC_VERSION "0.1.0"
#endif
#ifndef GLC_LLVM_VERSION
#define GLC_LLVM_VERSION "unknown"
#endif

/* The stages that exist so far; asking for a later one is a usage error
 * with a message, never a silent empty output. */
static bool
emit_available(Emit e)
{
	return e == EMIT_TOKENS || e == EMIT_AST || e == EMIT_TYPED;
}

static const char *
emit_stage(Emit e)
{
	switch (e) {
	case EMIT_TOKENS: case EMIT_AST: return "the front end";
	case EMIT_TYPED: return "semantic analysis";
	default: return "code generation";
	}
}

static int
compile(const Options *o, Arena *a, Interner *in, Sources *src, Diags *d, StrBuf *out)
{
	if (o->emit_given && !emit_available(o->emit)) {
		static const char *const names[] = {"tokens", "ast", "typed", "llvm", "ptx",
		                                    "cubin", "c", "header", "obj"};
		diag_error(d, (SrcSpan){0}, "%s%s is not available yet: %s is not implemented "
		           "in this version of glc", o->emit == EMIT_OBJ ? "-c/--emit=" : "--emit=",
		           names[o->emit], emit_stage(o->emit));
		return EXIT_USAGE;
	}
	uint32_t file = drv_read_source(src, d, o->input);
	if (!file)
		return EXIT_INPUT;
	if (o->emit_given && o->emit == EMIT_TOKENS) {
		TokenList toks = {0};
		lex_file(a, in, src, file, d, &toks);
		lex_dump(&toks, src, out);
	} else {
		Node *m = parse_module(a, in, src, file, d);
		if (m && o->emit_given && o->emit == EMIT_AST && d->errors == 0)
			parse_dump(m, src, out);
		bool want_sema = !o->emit_given || o->emit != EMIT_AST;
		if (m && want_sema && d->errors == 0) {
			SemaDefine *defs = arena_alloc(a, (o->defines.len + 1) * sizeof *defs);
			for (size_t i = 0; i < o->defines.len; i++)
				defs[i] = (SemaDefine){o->defines.data[i].name, o->defines.data[i].value};
			TProgram *p = sema_check(a, in, src, d, m, defs, o->defines.len, o->kernel);
			if (p && o->emit_given && o->emit == EMIT_TYPED)
				sema_print(p, true, out);
		}
	}
	if (d->errors)
		return EXIT_INPUT;
	return drv_write_output(d, o->output, out->s ? out->s : "", out->len) ? EXIT_OK : EXIT_INPUT;
}

int
main(int argc, char **argv)
{
	Arena *a = arena_new();
	Interner *in = intern_new(a);
	Sources *src = src_new(a);
	Diags d;
	diag_init(&d, a, src);
	Options o;
	StrBuf out = {0};
	int rc;

	if (!drv_parse_options(argc, argv, a, &d, &o)) {
		rc = EXIT_USAGE;
	} else {
		d.max_errors = o.max_errors;
		switch (o.cmd) {
		case CMD_HELP:
			drv_usage(&out);
			fputs(out.s, stdout);
			rc = EXIT_OK;
			break;
		case CMD_VERSION:
			printf("glc %s (LLVM %s, target sm_90a)\n", GLC_VERSION, GLC_LLVM_VERSION);
			rc = EXIT_OK;
			break;
		case CMD_LAYOUT:
			rc = drv_layout_command(&o, a, in, src, &d, &out);
			break;
		case CMD_COMPILE:
		default:
			rc = compile(&o, a, in, src, &d, &out);
			break;
		}
	}
	if (d.first) {
		StrBuf msgs = {0};
		diag_render(&d, o.diag_format, "glc", &msgs);
		fputs(msgs.s, stderr);
		buf_free(&msgs);
		if (rc == EXIT_OK && d.errors)
			rc = EXIT_INPUT;
	}
	buf_free(&out);
	arena_free(a);
	return rc;
}
