/*
 * The options that name the files a compilation writes (-o, --header,
 * --manifest, the
 * depfile's -MD -MMD -MF -MP -MT -MQ, spelled as gcc spells them), and the
 * check that every option given means something for the input and output
 * at hand: an option that a .gl, .py or .ir input, or the output asked for,
 * would ignore is an error rather than silently dropped.
 */
#include "driver/driver.h"

#include <string.h>

static bool
dep_target(Arena *a, const char *v, bool quote, Options *o)
{
	DrvDepTarget t = {v, quote};
	vec_push(a, &o->dep_targets, t);
	return true;
}

bool
drv_parse_file_option(int argc, char **argv, int *i, Arena *a, Diags *d, Options *o,
                      bool *handled)
{
	const char *arg = argv[*i], *v;
	bool missing = false;
	*handled = true;
	if (strcmp(arg, "-o") == 0 || (arg[1] == 'o' && arg[2])) {
		if (arg[2]) {
			o->output = arg + 2;
		} else if (*i + 1 < argc) {
			o->output = argv[++*i];
		} else {
			diag_error(d, (SrcSpan){0}, "option '-o' needs a file name");
			return false;
		}
		return true;
	}
	if ((v = drv_option_value(argc, argv, i, "--header", d, &missing))) {
		if (o->header_output) {
			diag_error(d, (SrcSpan){0}, "--header '%s': the header was already named ('%s')",
			           v, o->header_output);
			return false;
		}
		o->header_output = v;
		o->header_given = true;
		return true;
	}
	if ((v = drv_option_value(argc, argv, i, "--manifest", d, &missing))) {
		if (o->manifest_output) {
			diag_error(d, (SrcSpan){0}, "--manifest '%s': the manifest was already named "
			           "('%s')", v, o->manifest_output);
			return false;
		}
		o->manifest_output = v;
		return true;
	}
	if (strcmp(arg, "-MD") == 0 || strcmp(arg, "-MMD") == 0) {
		/* glc reads no system headers: -MMD lists what -MD lists */
		o->depfile = true;
		return true;
	}
	if (strcmp(arg, "-MP") == 0) {
		o->dep_phony = true;
		return true;
	}
	if ((v = drv_short_value(argc, argv, i, "-MF", d, &missing))) {
		o->depfile = true;
		o->depfile_path = v;
		return true;
	}
	if ((v = drv_short_value(argc, argv, i, "-MT", d, &missing)))
		return dep_target(a, v, false, o);
	if ((v = drv_short_value(argc, argv, i, "-MQ", d, &missing)))
		return dep_target(a, v, true, o);
	*handled = missing;
	return !missing;
}

/* What kind of file the input is. */
typedef enum InputKind { IN_GL, IN_PY, IN_IR } InputKind;

static InputKind
input_kind(const char *path)
{
	size_t n = strlen(path);
	if (n > 3 && strcmp(path + n - 3, ".py") == 0)
		return IN_PY;
	if (n > 3 && strcmp(path + n - 3, ".ir") == 0)
		return IN_IR;
	return IN_GL;
}

static const char *const kind_names[] = {[IN_GL] = ".gl", [IN_PY] = ".py", [IN_IR] = ".ir"};

/* An option that applies only to .py inputs, given for another. */
static bool
py_only(Diags *d, const Options *o, InputKind k, bool given, const char *opt,
        const char *instead)
{
	if (!given || k == IN_PY)
		return true;
	diag_error(d, (SrcSpan){0}, "%s applies to .py files; for the %s input %s %s", opt,
	           kind_names[k], o->input, instead);
	return false;
}

/* Whether the output asked for goes through code generation (-O), or
 * through ptxas (-v). */
static bool
reaches_codegen(Emit e)
{
	return e != EMIT_TOKENS && e != EMIT_AST && e != EMIT_IR;
}

bool
drv_check_option_use(const Options *o, Diags *d)
{
	InputKind k = input_kind(o->input);
	bool ok = true;
	ok &= py_only(d, o, k, o->signatures.len > 0, "-s",
	              k == IN_GL ? "the kernels have typed parameters (override constexprs "
	                           "with -D)" : "the kernels' parameters are in the IR");
	ok &= py_only(d, o, k, o->num_warps != 0, "-w",
	              k == IN_GL ? "each kernel gives its warps in @gl.kernel(num_warps=N)"
	                         : "the IR records each kernel's warps");
	ok &= py_only(d, o, k, o->stages_given, "-ns", "there is nothing to pipeline (and "
	              "for .py files it is only accepted, as compile.py's)");
	ok &= py_only(d, o, k, o->includes.len > 0, "-I", "nothing is imported from other files");
	if (o->out_name && k == IN_IR) {
		diag_error(d, (SrcSpan){0}, "-on applies to .py and .gl files; the kernels of the IR "
		           "input %s keep the names the IR gives them", o->input);
		ok = false;
	}
	if (o->verbose && o->emit != EMIT_IR) {
		diag_error(d, (SrcSpan){0}, "--verbose prints the layouts' bases with --emit=ir; "
		           "it changes no other output");
		ok = false;
	}
	if (o->opt_given && !reaches_codegen(o->emit)) {
		diag_error(d, (SrcSpan){0}, "-O%d sets the optimization of code generation, which "
		           "this output (--emit=tokens, ast or ir) stops before", o->opt_level);
		ok = false;
	}
	if (o->fp_contract_given && !reaches_codegen(o->emit)) {
		diag_error(d, (SrcSpan){0}, "-ffp-contract sets the contraction of code generation, "
		           "which this output (--emit=tokens, ast or ir) stops before");
		ok = false;
	}
	if (o->resource_usage && (!reaches_codegen(o->emit) || o->emit == EMIT_LLVM ||
	                          o->emit == EMIT_PTX)) {
		diag_error(d, (SrcSpan){0}, "-v prints ptxas's report, and this output does not "
		           "run ptxas (use --emit=cubin, obj, c or header)");
		ok = false;
	}
	if (o->header_given && o->emit != EMIT_OBJ && o->emit != EMIT_C) {
		diag_error(d, (SrcSpan){0}, "--header writes the launchers' header beside an object "
		           "(-c) or their C (--emit=c); for the header alone use --emit=header");
		ok = false;
	}
	if (o->manifest_output && o->emit != EMIT_OBJ && o->emit != EMIT_C) {
		diag_error(d, (SrcSpan){0}, "--manifest describes the launchers of an object (-c) "
		           "or of their C (--emit=c)");
		ok = false;
	}
	if ((o->header_given || o->manifest_output) && o->split_input) {
		diag_error(d, (SrcSpan){0}, "--header and --manifest write one file; "
		           "--split-input-file compiles many cases into one text");
		ok = false;
	}
	if ((o->dep_phony || o->dep_targets.len) && !o->depfile) {
		diag_error(d, (SrcSpan){0}, "%s shapes the depfile, which only -MD, -MMD or -MF "
		           "asks for", o->dep_phony ? "-MP" : o->dep_targets.data[0].quote ? "-MQ"
		                                                                           : "-MT");
		ok = false;
	}
	return ok;
}
