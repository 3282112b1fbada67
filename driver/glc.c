/*
 * glc: the entry point. Parses the command line, runs the command (compile,
 * layout, help, version), prints the diagnostics, and picks the exit status
 * (0 ok, 1 errors in the input, 2 bad usage).
 */
#include "driver/driver.h"
#include "codegen/codegen.h"

#include <stdio.h>
#include <string.h>

#ifndef GLC_VERSION
#define GLC_VERSION "0.1.0"
#endif

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
			printf("glc %s (LLVM %s, target sm_90a)\n", GLC_VERSION, cg_llvm_version());
			rc = EXIT_OK;
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
