/*
 * `glc link MANIFEST... -o LIB.c [--header LIB.h] [--manifest LIB.json]`:
 * many objects' launchers (their manifests, from `glc -c --manifest`) into
 * one library: a dispatcher per kernel of several specializations, one
 * header for all (package/link.c). What it writes is C that the user's
 * build compiles with the objects; like every output it is checked before
 * anything is written (never an input, never another output).
 */
#include "driver/driver.h"
#include "package/package.h"

#include <string.h>

bool
drv_parse_link_options(int argc, char **argv, int first, Arena *a, Diags *d, Options *o)
{
	bool ok = true;
	for (int i = first; i < argc && ok; i++) {
		const char *arg = argv[i], *v;
		bool missing = false;
		if (arg[0] != '-' || arg[1] == 0) {
			vec_push(a, &o->link_inputs, arg);
			continue;
		}
		bool handled = false;
		if (strcmp(arg, "-o") == 0 || strncmp(arg, "--header", 8) == 0 ||
		    strncmp(arg, "--manifest", 10) == 0) {
			ok = drv_parse_file_option(argc, argv, &i, a, d, o, &handled);
			if (handled)
				continue;
		}
		if ((v = drv_option_value(argc, argv, &i, "--diag-format", d, &missing))) {
			o->diag_format = strcmp(v, "json") == 0 ? DIAG_JSON : DIAG_TEXT;
			ok = strcmp(v, "json") == 0 || strcmp(v, "text") == 0;
			if (!ok)
				diag_error(d, (SrcSpan){0}, "unknown --diag-format '%s' (expected text "
				           "or json)", v);
			continue;
		}
		if (!missing)
			diag_error(d, (SrcSpan){0}, "unknown option '%s' for 'glc link' (it takes "
			           "manifests, -o, --header and --manifest)", arg);
		ok = false;
	}
	if (ok && !o->link_inputs.len) {
		diag_error(d, (SrcSpan){0}, "'glc link' needs the manifests of the objects to link "
		           "(glc -c K.gl -o K.o --manifest K.json)");
		ok = false;
	}
	if (ok && (!o->output || strcmp(o->output, "-") == 0)) {
		diag_error(d, (SrcSpan){0}, "'glc link' writes the dispatchers' C to a file: give "
		           "it with -o LIB.c");
		ok = false;
	}
	return ok;
}

/* LIB.c -> LIB.h, the header's default name. */
static const char *
default_header(Arena *a, const char *c)
{
	const char *dot = strrchr(c, '.'), *slash = strrchr(c, '/');
	size_t n = dot && (!slash || dot > slash + 1) ? (size_t)(dot - c) : strlen(c);
	return arena_printf(a, "%.*s.h", (int)n, c);
}

int
drv_link_command(const Options *o, Arena *a, Sources *src, Diags *d)
{
	uint32_t *files = arena_alloc(a, o->link_inputs.len * sizeof *files);
	for (size_t i = 0; i < o->link_inputs.len; i++)
		if (!(files[i] = drv_read_source(src, d, o->link_inputs.data[i], &o->limits)))
			return EXIT_INPUT;
	const char *header = o->header_output ? o->header_output : default_header(a, o->output);
	PkgLinkOut out = {{0}, {0}, {0}};
	out.c.limit = out.header.limit = out.manifest.limit = o->limits.max[LIM_OUTPUT_BYTES];
	bool ok = pkg_link(src, files, o->link_inputs.len, header, a, d, &out);
	DrvOutput outs[3] = {{"output", o->output, "-o"}, {"header", header, "--header"},
	                     {"manifest", o->manifest_output, "--manifest"}};
	ok = ok && drv_check_outputs(outs, o->manifest_output ? 3 : 2, src, a, d) &&
	     drv_write_output(a, d, o->output, &out.c, &o->limits) &&
	     drv_write_output(a, d, header, &out.header, &o->limits) &&
	     (!o->manifest_output ||
	      drv_write_output(a, d, o->manifest_output, &out.manifest, &o->limits));
	buf_free(&out.c);
	buf_free(&out.header);
	buf_free(&out.manifest);
	return ok ? EXIT_OK : EXIT_INPUT;
}
