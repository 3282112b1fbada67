/* The values of command-line options (`--name=value`, `--name value`,
 * `-I DIR`, glued `-IDIR`): the reader that glc's own options, their
 * output options (options_out.c) and `glc link`'s (link_cmd.c) share. */
#include "driver/driver.h"

#include <string.h>

const char *
drv_option_value(int argc, char **argv, int *i, const char *name, Diags *d, bool *missing)
{
	size_t n = strlen(name);
	const char *arg = argv[*i];
	if (strncmp(arg, name, n) != 0)
		return NULL;
	if (arg[n] == '=')
		return arg + n + 1;
	if (arg[n] != 0)
		return NULL;
	if (*i + 1 >= argc) {
		diag_error(d, (SrcSpan){0}, "option '%s' needs a value", name);
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

const char *
drv_short_value(int argc, char **argv, int *i, const char *opt, Diags *d, bool *missing)
{
	const char *arg = argv[*i];
	size_t n = strlen(opt);
	if (strncmp(arg, opt, n) != 0)
		return NULL;
	if (arg[n]) {
		bool glued = strcmp(opt, "-I") == 0 || strcmp(opt, "-MF") == 0 ||
		             strcmp(opt, "-MT") == 0 || strcmp(opt, "-MQ") == 0;
		return glued ? arg + n : NULL;
	}
	if (*i + 1 >= argc) {
		diag_error(d, (SrcSpan){0}, "option '%s' needs a value", opt);
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}
