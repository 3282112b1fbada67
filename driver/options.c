/* The command line (docs/usage.md, `glc --help`), parsed into Options. */
#include "driver/driver.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const emit_names[] = {
	[EMIT_TOKENS] = "tokens", [EMIT_AST] = "ast", [EMIT_IR] = "ir",
	[EMIT_LLVM] = "llvm", [EMIT_PTX] = "ptx", [EMIT_CUBIN] = "cubin",
	[EMIT_C] = "c", [EMIT_HEADER] = "header", [EMIT_OBJ] = "obj",
};

static const char *const layout_format_names[] = {
	[LFMT_TEXT] = "text", [LFMT_JSON] = "json", [LFMT_MATRIX] = "matrix", [LFMT_SVG] = "svg",
};

static int
lookup(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (names[i] && strcmp(names[i], s) == 0)
			return i;
	return -1;
}

/* "32,16" -> shape; false with a diagnostic on anything else. */
static bool
parse_shape(Diags *d, const char *s, Options *o)
{
	const char *p = s;
	o->rank = 0;
	for (;;) {
		char *end;
		if (*p < '0' || *p > '9')
			break;
		unsigned long v = strtoul(p, &end, 10);
		if (o->rank == 5 || v == 0 || v > (1ul << 24) || (v & (v - 1))) {
			diag_error(d, (SrcSpan){0},
			           "--shape '%s': each dimension must be a power of two "
			           "from 1 to 16777216, at most 5 dimensions", s);
			return false;
		}
		o->shape[o->rank++] = (uint32_t)v;
		p = end;
		if (*p == 0)
			return true;
		if (*p != ',')
			break;
		p++;
	}
	diag_error(d, (SrcSpan){0}, "--shape '%s': expected dimensions like 32,16", s);
	o->rank = 0;
	return false;
}

/* -ffp-contract=fast (the default: contraction as Triton's
 * enable_fp_fusion=True) or off; GCC's `on' (only within one expression)
 * has no counterpart, as glc's IR keeps no expressions. */
static bool
set_fp_contract(Diags *d, const char *v, Options *o)
{
	if (strcmp(v, "fast") == 0 || strcmp(v, "off") == 0) {
		o->no_fp_contract = v[0] == 'o';
		o->fp_contract_given = true;
		return true;
	}
	Diag *g = diag_error(d, (SrcSpan){0}, "-ffp-contract=%s: expected fast or off", v);
	if (strcmp(v, "on") == 0)
		diag_note(d, g, (SrcSpan){0}, "glc contracts a multiply into any add it feeds, as "
		          "Triton does (fast), or nowhere (off); it has no per-expression mode");
	return false;
}

static bool
parse_define(Arena *a, Diags *d, const char *s, Options *o)
{
	const char *eq = strchr(s, '=');
	bool ok = eq && eq != s;
	for (const char *p = s; ok && p < eq; p++)
		ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
		     (p > s && *p >= '0' && *p <= '9');
	if (!ok) {
		diag_error(d, (SrcSpan){0}, "-D '%s': expected NAME=VALUE with NAME an identifier", s);
		return false;
	}
	if (eq[1] == 0) {
		diag_error(d, (SrcSpan){0}, "-D '%s': the value is empty (a constexpr expression "
		           "such as 64 or gl.f16)", s);
		return false;
	}
	Define def = {arena_strndup(a, s, (size_t)(eq - s)), eq + 1};
	for (size_t i = 0; i < o->defines.len; i++) {
		if (strcmp(o->defines.data[i].name, def.name) == 0) {
			diag_error(d, (SrcSpan){0}, "-D '%s' given twice", def.name);
			return false;
		}
	}
	vec_push(a, &o->defines, def);
	return true;
}

/* --max-NAME=N: a number from 1 to the limit's ceiling. */
static bool
parse_limit(Diags *d, const char *name, const char *v, LimitId id, Options *o)
{
	char *end;
	unsigned long long n = strtoull(v, &end, 10);
	uint64_t ceiling = limit_ceiling(id);
	if (*v < '0' || *v > '9' || *end || n == 0 || n > ceiling) {
		diag_error(d, (SrcSpan){0}, "%s '%s': expected a number from 1 to %llu", name, v,
		           (unsigned long long)ceiling);
		return false;
	}
	o->limits.max[id] = n;
	return true;
}

static bool
set_emit(Diags *d, const char *v, Options *o)
{
	if (strcmp(v, "typed") == 0)   /* the IR's older name */
		v = "ir";
	int k = lookup(emit_names, (int)(sizeof emit_names / sizeof *emit_names), v);
	if (k < 0) {
		diag_error(d, (SrcSpan){0},
		           "unknown --emit kind '%s' (expected tokens, ast, ir, llvm, "
		           "ptx, cubin, c, header or obj)", v);
		return false;
	}
	if (o->emit_given && o->emit != (Emit)k) {
		diag_error(d, (SrcSpan){0}, "conflicting outputs: --emit=%s and --emit=%s",
		           emit_names[o->emit], v);
		return false;
	}
	o->emit = (Emit)k;
	o->emit_given = true;
	return true;
}

/* Whether s is a C identifier (a launcher's name). */
static bool
c_identifier(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* Whether the argument after -g is compile.py's grid ("M/16,N/16,1"), not
 * the next option or an input file: it does not start with '-', does not
 * end in .py, .gl or .ir, and names no existing file. */
static bool
grid_value(const char *next)
{
	size_t n = strlen(next);
	if (next[0] == '-' || n == 0)
		return false;
	if (n > 3 && (strcmp(next + n - 3, ".py") == 0 || strcmp(next + n - 3, ".gl") == 0 ||
	              strcmp(next + n - 3, ".ir") == 0))
		return false;
	return access(next, F_OK) != 0;
}

static bool
set_grid(Diags *d, const char *option, const char *v, Options *o)
{
	if (o->grid) {
		diag_error(d, (SrcSpan){0}, "%s '%s': the grid was already given ('%s')", option, v,
		           o->grid);
		return false;
	}
	o->grid = v;
	o->grid_option = option;
	return true;
}

/* One option of the compile command or of `glc layout`; returns false on a
 * usage error (already reported). */
static bool
parse_one(int argc, char **argv, int *i, Arena *a, Diags *d, Options *o, int *positional)
{
	const char *arg = argv[*i], *v;
	bool missing = false;
	bool layout = o->cmd == CMD_LAYOUT;

	if (arg[0] != '-' || arg[1] == 0) {
		if (layout) {
			if (*positional == 0)
				o->layout_src = arg;
			else if (*positional == 1 && o->layout_dst)
				o->layout_dst = arg;
			else {
				diag_error(d, (SrcSpan){0}, "unexpected argument '%s'", arg);
				return false;
			}
		} else if (o->input) {
			diag_error(d, (SrcSpan){0}, "more than one input file ('%s' and '%s')",
			           o->input, arg);
			return false;
		} else {
			o->input = arg;
		}
		++*positional;
		return true;
	}
	/* Accepted by every command, so that tests can pass it to all of them. */
	if (strcmp(arg, "--verify-each") == 0) {
		o->verify_each = true;
		return true;
	}
	if ((v = drv_option_value(argc, argv, i, "--diag-format", d, &missing))) {
		if (strcmp(v, "text") == 0)
			o->diag_format = DIAG_TEXT;
		else if (strcmp(v, "json") == 0)
			o->diag_format = DIAG_JSON;
		else {
			diag_error(d, (SrcSpan){0}, "unknown --diag-format '%s' (expected text or json)", v);
			return false;
		}
		return true;
	}
	if ((v = drv_option_value(argc, argv, i, "--max-errors", d, &missing))) {
		char *end;
		long n = strtol(v, &end, 10);
		if (*v == 0 || *end || n < 0 || n > 100000) {
			diag_error(d, (SrcSpan){0}, "--max-errors '%s': expected a number from 0 to 100000", v);
			return false;
		}
		o->max_errors = (int)n;
		return true;
	}
	for (int k = 0; k < LIM_COUNT_; k++) {
		char name[40];
		snprintf(name, sizeof name, "--%s", limit_name((LimitId)k));
		if ((v = drv_option_value(argc, argv, i, name, d, &missing)))
			return parse_limit(d, name, v, (LimitId)k, o);
		if (missing)
			return false;
	}
	if (layout) {
		if (strcmp(arg, "--convert") == 0) {
			if (*positional > 0) {
				diag_error(d, (SrcSpan){0}, "--convert must come before the layouts");
				return false;
			}
			o->layout_dst = "";   /* filled by the second positional */
			return true;
		}
		if ((v = drv_option_value(argc, argv, i, "--shape", d, &missing)))
			return parse_shape(d, v, o);
		if ((v = drv_option_value(argc, argv, i, "--dtype", d, &missing))) {
			o->dtype = v;
			return true;
		}
		if ((v = drv_option_value(argc, argv, i, "--format", d, &missing))) {
			int k = lookup(layout_format_names, 4, v);
			if (k < 0) {
				diag_error(d, (SrcSpan){0},
				           "unknown --format '%s' (expected text, json, matrix or svg)", v);
				return false;
			}
			o->layout_format = (LayoutFormat)k;
			return true;
		}
		if (!missing)
			diag_error(d, (SrcSpan){0}, "unknown option '%s' for 'glc layout'", arg);
		return false;
	}
	if ((v = drv_option_value(argc, argv, i, "--out-name", d, &missing)) ||
	    (v = drv_short_value(argc, argv, i, "-on", d, &missing))) {
		/* compile.py's output name (before -o, which would take "-on" as -o n) */
		if (!c_identifier(v)) {
			diag_error(d, (SrcSpan){0}, "-on '%s': a launcher name must be a C identifier", v);
			return false;
		}
		o->out_name = v;
		return true;
	}
	bool handled = false;
	bool ok = drv_parse_file_option(argc, argv, i, a, d, o, &handled);
	if (handled)
		return ok;
	if (strcmp(arg, "-c") == 0)
		return set_emit(d, "obj", o);
	if ((v = drv_option_value(argc, argv, i, "--grid", d, &missing)))
		return set_grid(d, "--grid", v, o);
	if (strcmp(arg, "-g") == 0) {
		if (*i + 1 < argc && grid_value(argv[*i + 1]))
			return set_grid(d, "-g", argv[++*i], o);
		o->debug_info = true;
		return true;
	}
	if (strcmp(arg, "--debug") == 0) {
		o->debug = true;
		return true;
	}
	if (strcmp(arg, "--verbose") == 0) {
		o->verbose = true;
		return true;
	}
	if (strcmp(arg, "-v") == 0) {
		o->resource_usage = true;
		return true;
	}
	if (strcmp(arg, "--no-cache") == 0) {
		o->no_cache = true;
		return true;
	}
	if (strcmp(arg, "--time-passes") == 0) {
		o->time_passes = true;
		return true;
	}
	if (strcmp(arg, "--split-input-file") == 0) {
		o->split_input = true;
		return true;
	}
	if (strcmp(arg, "--verify-diagnostics") == 0) {
		o->verify_diags = true;
		return true;
	}
	if (strcmp(arg, "--print-after-all") == 0) {
		o->print_after_all = true;
		return true;
	}
	if ((v = drv_option_value(argc, argv, i, "--print-after", d, &missing))) {
		if (!drv_pass_known(v)) {
			StrBuf b = {0};
			drv_pass_names(&b);
			Diag *g = diag_error(d, (SrcSpan){0}, "--print-after: unknown pass '%s'", v);
			diag_note(d, g, (SrcSpan){0}, "the passes are %s", b.s);
			buf_free(&b);
			return false;
		}
		vec_push(a, &o->print_after, v);
		return true;
	}
	if (strncmp(arg, "-ffp-contract=", 14) == 0)
		return set_fp_contract(d, arg + 14, o);
	if (arg[1] == 'O') {
		if (arg[2] >= '0' && arg[2] <= '3' && arg[3] == 0) {
			o->opt_level = arg[2] - '0';
			o->opt_given = true;
			return true;
		}
		diag_error(d, (SrcSpan){0}, "unknown optimization level '%s' (expected -O0 to -O3)", arg);
		return false;
	}
	if (arg[1] == 'D') {
		if (arg[2])
			return parse_define(a, d, arg + 2, o);
		if (*i + 1 >= argc) {
			diag_error(d, (SrcSpan){0}, "option '-D' needs NAME=VALUE");
			return false;
		}
		return parse_define(a, d, argv[++*i], o);
	}
	if ((v = drv_option_value(argc, argv, i, "--emit", d, &missing)))
		return set_emit(d, v, o);
	if ((v = drv_option_value(argc, argv, i, "--kernel", d, &missing)) ||
	    (v = drv_option_value(argc, argv, i, "--kernel-name", d, &missing)) ||
	    (v = drv_short_value(argc, argv, i, "-n", d, &missing))) {
		if (o->kernel) {
			diag_error(d, (SrcSpan){0}, "--kernel '%s': the kernel was already named ('%s'); "
			           "give one --kernel (or -n)", v, o->kernel);
			return false;
		}
		o->kernel = v;
		return true;
	}
	if ((v = drv_option_value(argc, argv, i, "--signature", d, &missing)) ||
	    (v = drv_short_value(argc, argv, i, "-s", d, &missing))) {
		vec_push(a, &o->signatures, v);
		return true;
	}
	if ((v = drv_option_value(argc, argv, i, "--num-warps", d, &missing)) ||
	    (v = drv_short_value(argc, argv, i, "-w", d, &missing))) {
		char *end;
		long w = strtol(v, &end, 10);
		if (*end || w < 1 || w > 32 || (w & (w - 1))) {
			diag_error(d, (SrcSpan){0}, "-w '%s': the number of warps is a power of two "
			           "from 1 to 32", v);
			return false;
		}
		o->num_warps = (int)w;
		return true;
	}
	if ((v = drv_option_value(argc, argv, i, "--num-stages", d, &missing)) ||
	    (v = drv_short_value(argc, argv, i, "-ns", d, &missing))) {
		o->stages_given = true;   /* compile.py's; Gluon kernels pipeline by hand */
		return true;
	}
	if ((v = drv_short_value(argc, argv, i, "-I", d, &missing))) {
		vec_push(a, &o->includes, v);
		return true;
	}
	if ((v = drv_option_value(argc, argv, i, "--arch", d, &missing))) {
		if (strcmp(v, "sm_90a") != 0) {
			Diag *g = diag_error(d, (SrcSpan){0}, "unsupported target '%s'", v);
			diag_note(d, g, (SrcSpan){0},
			          "glc generates code for Hopper only: --arch sm_90a (H100, H200)");
			return false;
		}
		return true;
	}
	if (!missing)
		diag_error(d, (SrcSpan){0}, "unknown option '%s' (see 'glc --help')", arg);
	return false;
}

/* A .py file compiled without -c or --emit gets what compile.py writes: the
 * launchers' C and their header, BASE.c and BASE.h, where BASE is -o with
 * its extension replaced (compile.py's with_suffix) or, without -o, the
 * launchers' name (-on, else the kernel's with its dots as underscores). */
static bool
pair_outputs(Arena *a, Diags *d, Options *o)
{
	if (o->output && strcmp(o->output, "-") == 0) {
		diag_error(d, (SrcSpan){0}, "-o -: a .py file without -c or --emit is compiled to a "
		           ".c and a .h, as compile.py writes them; give --emit=c or --emit=header "
		           "for one on standard output");
		return false;
	}
	const char *base = o->output ? o->output : o->out_name ? o->out_name : o->kernel;
	if (!base)
		return true;   /* no -n: the .py front end says so */
	char *b = arena_printf(a, "%s", base);
	if (!o->output)
		for (char *c = b; *c; c++)
			*c = *c == '.' ? '_' : *c;
	const char *slash = strrchr(b, '/'), *dot = strrchr(b, '.');
	int len = dot && dot > (slash ? slash + 1 : b) ? (int)(dot - b) : (int)strlen(b);
	o->emit = EMIT_C;
	o->output = arena_printf(a, "%.*s.c", len, b);
	o->header_output = arena_printf(a, "%.*s.h", len, b);
	return true;
}

bool
drv_parse_options(int argc, char **argv, Arena *a, Diags *d, Options *o)
{
	memset(o, 0, sizeof *o);
	o->emit = EMIT_OBJ;
	o->arch = "sm_90a";
	o->opt_level = 3;
	o->max_errors = 50;
	o->limits = limits_default();
	o->argc = argc;
	o->argv = argv;
	int first = 1;
	/* `glc layout ...`; --verify-each, which every command takes, may come
	 * first (tests put it there) */
	while (first < argc && strcmp(argv[first], "--verify-each") == 0) {
		o->verify_each = true;
		first++;
	}
	bool help = false;
	for (int i = first; i < argc; i++)
		help |= strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0;
	if (first < argc && strcmp(argv[first], "link") == 0 && !help) {
		o->cmd = CMD_LINK;
		return drv_parse_link_options(argc, argv, first + 1, a, d, o);
	}
	if (first < argc && strcmp(argv[first], "layout") == 0) {
		o->cmd = CMD_LAYOUT;
		first++;
	}
	for (int i = first; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			o->cmd = CMD_HELP;
			return true;
		}
		if (o->cmd != CMD_LAYOUT && strcmp(argv[i], "--version") == 0) {
			o->cmd = CMD_VERSION;
			return true;
		}
	}
	int positional = 0;
	bool ok = true;
	for (int i = first; i < argc; i++)
		ok &= parse_one(argc, argv, &i, a, d, o, &positional);
	if (!ok)
		return false;
	if (o->cmd == CMD_LAYOUT) {
		if (!o->layout_src) {
			diag_error(d, (SrcSpan){0}, "'glc layout' needs a layout, e.g. "
			           "glc layout 'BlockedLayout([1,4],[8,4],[4,1],[1,0])' --shape 32,16");
			return false;
		}
		if (o->layout_dst && !*o->layout_dst) {
			diag_error(d, (SrcSpan){0}, "--convert needs two layouts: SRC and DST");
			return false;
		}
		if (o->layout_dst && o->layout_format != LFMT_TEXT && o->layout_format != LFMT_JSON) {
			diag_error(d, (SrcSpan){0}, "--convert prints its report as text or json, not "
			           "--format=%s (which draws one layout)",
			           layout_format_names[o->layout_format]);
			return false;
		}
		if (!o->rank) {
			diag_error(d, (SrcSpan){0}, "'glc layout' needs --shape, e.g. --shape 32,16");
			return false;
		}
		return true;
	}
	if (!o->input) {
		diag_error(d, (SrcSpan){0}, "no input file (see 'glc --help')");
		return false;
	}
	size_t n = strlen(o->input);
	if (o->grid && (n < 3 || strcmp(o->input + n - 3, ".py") != 0)) {
		diag_error(d, (SrcSpan){0}, "%s '%s': a grid applies to the launchers of a .py "
		           "file; those of %s take the grid when called", o->grid_option, o->grid,
		           o->input);
		return false;
	}
	if (o->split_input && (o->emit == EMIT_OBJ || o->emit == EMIT_CUBIN)) {
		diag_error(d, (SrcSpan){0}, "--split-input-file needs a text output (--emit=ir, "
		           "llvm, ptx, c or header), not --emit=%s", emit_names[o->emit]);
		return false;
	}
	if (!drv_check_option_use(o, d))
		return false;
	if (n > 3 && strcmp(o->input + n - 3, ".py") == 0 && !o->emit_given && !o->split_input &&
	    !o->header_given)
		return pair_outputs(a, d, o);
	return true;
}
