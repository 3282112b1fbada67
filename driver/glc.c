/*
 * glc: the entry point. Parses the command line, runs the command (compile,
 * layout, help, version), prints the diagnostics, and picks the exit status
 * (0 ok, 1 errors in the input, 2 bad usage, 3 internal compiler error, 4
 * out of memory).
 */
#include "driver/driver.h"
#include "codegen/codegen.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef GLC_VERSION
#define GLC_VERSION "0.1.0"
#endif

static void
put_stderr(const char *s)
{
	size_t n = strlen(s);
	while (n > 0) {
		ssize_t k = write(2, s, n);
		if (k <= 0)
			return;
		s += k;
		n -= (size_t)k;
	}
}

/* The fatal hook (support's fatal_error()): the process cannot go on, and may not
 * be able to allocate, so the message goes straight to standard error. */
static void
on_fatal(void *ctx, FatalKind kind, const char *what)
{
	const Options *o = ctx;
	if (kind == FATAL_OUT_OF_MEMORY) {
		put_stderr("glc: error: out of memory (");
		put_stderr(what);
		put_stderr(")\nglc: note: the --max-* limits (glc --help) bound the work that "
		           "one input asks for; lower them, or give glc more memory\n");
		_exit(EXIT_NO_MEMORY);
	}
	put_stderr("glc: internal compiler error: ");
	put_stderr(what);
	put_stderr("\nglc: note: this is a bug in glc; please report it with the input file");
	if (o->input) {
		put_stderr(" '");
		put_stderr(o->input);
		put_stderr("'");
	}
	put_stderr(" and the command line\n");
	_exit(EXIT_INTERNAL);
}

/* The note under the first internal compiler error: what to report. */
static void
ask_for_report(Diags *d, const Options *o)
{
	for (Diag *g = d->first; g; g = g->next)
		if (g->kind == DIAG_INTERNAL) {
			diag_note(d, g, (SrcSpan){0}, "this is a bug in glc %s; please report "
			          "it with the input file '%s' and the command line",
			          GLC_VERSION, o->input ? o->input : "");
			return;
		}
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
	memset(&o, 0, sizeof o);
	fatal_set_hook(on_fatal, &o);
	/* Past a file-size limit, a write fails (EFBIG, reported) instead of
	 * killing glc with a half-written temporary left behind. */
	signal(SIGXFSZ, SIG_IGN);

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
			printf("glc %s (LLVM %s, target sm_90a)\n", GLC_VERSION, cg_llvm_version());
			rc = EXIT_OK;
			break;
		case CMD_LINK:
			rc = drv_link_command(&o, a, src, &d);
			break;
		case CMD_LAYOUT:
			rc = drv_layout_command(&o, a, in, src, &d, &out);
			break;
		case CMD_COMPILE:
		default:
			rc = drv_compile(&o, a, in, src, &d, &out);
			break;
		}
	}
	if (d.internal) {
		ask_for_report(&d, &o);
		rc = EXIT_INTERNAL;
	}
	if (d.first) {
		StrBuf msgs = {0};
		diag_render(&d, o.diag_format, "glc", &msgs);
		fwrite(msgs.s, 1, msgs.len, stderr);   /* the source may hold NULs */
		buf_free(&msgs);
		if (rc == EXIT_OK && d.errors)
			rc = EXIT_INPUT;
	}
	buf_free(&out);
	arena_free(a);
	return rc;
}
