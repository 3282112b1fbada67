/*
 * driver: glc's command line. Internal header shared by the driver's files;
 * the driver is the only place that picks an exit status.
 */
#ifndef DRIVER_H
#define DRIVER_H

#include "codegen/codegen.h"
#include "ir/ir.h"
#include "package/package.h"
#include "parser/parser.h"
#include "support/support.h"

#include <time.h>

enum {
	EXIT_OK = 0,        /* success */
	EXIT_INPUT = 1,     /* errors in the input (source, layout text, files, a
	                       limit passed) */
	EXIT_USAGE = 2,     /* bad command line */
	EXIT_INTERNAL = 3,  /* internal compiler error: a bug in glc */
	EXIT_NO_MEMORY = 4, /* the host ran out of memory */
};

typedef enum Command { CMD_COMPILE, CMD_LAYOUT, CMD_LINK, CMD_HELP, CMD_VERSION } Command;

typedef enum Emit {
	EMIT_TOKENS, EMIT_AST, EMIT_IR, EMIT_LLVM, EMIT_PTX, EMIT_CUBIN,
	EMIT_C, EMIT_HEADER, EMIT_OBJ,
} Emit;

typedef struct Define {
	const char *name;    /* -D NAME=VALUE: NAME */
	const char *value;   /* VALUE, parsed later as a constexpr expression */
} Define;

/* A target of the depfile's rule: -MT as given, -MQ with make's special
 * characters quoted. */
typedef struct DrvDepTarget {
	const char *name;
	bool quote;
} DrvDepTarget;

typedef enum LayoutFormat { LFMT_TEXT, LFMT_JSON, LFMT_MATRIX, LFMT_SVG } LayoutFormat;

typedef struct Options {
	Command cmd;
	DiagFormat diag_format;
	int max_errors;            /* --max-errors=N (0: unlimited) */
	Limits limits;             /* --max-input-bytes=N and the other limits */
	/* glc FILE.gl ... */
	const char *input;         /* source path */
	const char *output;        /* -o; NULL: stdout or a derived name */
	const char *header_output; /* --header FILE, or for a .py file without -c
	                              or --emit the header written beside the C
	                              of `output`, as compile.py writes a .c/.h
	                              pair */
	bool header_given;         /* --header was given */
	const char *manifest_output; /* --manifest FILE: the launchers as JSON */
	bool no_cache;             /* --no-cache: neither look up nor store */
	int argc;                  /* the command line (the cache's key) */
	char **argv;
	Emit emit;
	bool emit_given;
	VEC(Define) defines;
	const char *kernel;        /* --kernel NAME, -n NAME */
	/* Gluon .py files (compile.py's options) */
	VEC(const char *) signatures;   /* -s SIGNATURE (repeatable) */
	int num_warps;             /* -w N (default 4) */
	const char *out_name;      /* -on NAME: the .py kernel's launchers' name */
	const char *grid;          /* -g/--grid "X,Y,Z": the launchers compute the grid */
	const char *grid_option;   /* how it was given ("-g" or "--grid"), for errors */
	VEC(const char *) includes;     /* -I DIR: where imported files are found */
	bool depfile;              /* -MD: write a make/ninja depfile */
	const char *depfile_path;  /* -MF FILE (default: the output with .d) */
	VEC(DrvDepTarget) dep_targets;  /* -MT/-MQ: the depfile's targets */
	bool dep_phony;            /* -MP: a phony rule for each file read but the input */
	const char *arch;          /* --arch, always "sm_90a" after validation */
	int opt_level;             /* -O0..-O3 */
	bool no_fp_contract;       /* -ffp-contract=off */
	bool fp_contract_given;    /* -ffp-contract=... was given */
	bool opt_given;            /* -O was given */
	bool stages_given;         /* -ns/--num-stages (compile.py's, accepted) */
	bool debug_info;           /* -g */
	bool debug;                /* --debug: device assertions kept (also -g) */
	bool verbose;              /* --verbose: layouts also as bases */
	bool time_passes;          /* --time-passes: stage and pass times on stderr */
	bool resource_usage;       /* -v: ptxas's per-kernel resource report on stderr */
	VEC(const char *) print_after;  /* --print-after=PASS (repeatable) */
	bool print_after_all;      /* --print-after-all */
	bool verify_each;          /* --verify-each: the verifier after every pass */
	bool split_input;          /* --split-input-file: cases split by `// -----` */
	bool verify_diags;         /* --verify-diagnostics: match expected-* comments */
	/* glc link ... */
	VEC(const char *) link_inputs;  /* the manifests to link */
	/* glc layout ... */
	const char *layout_src;    /* the layout expression text */
	const char *layout_dst;    /* --convert SRC DST: DST */
	uint32_t shape[5];
	int rank;                  /* 0: --shape not given */
	const char *dtype;         /* --dtype (f16 by default for conversions) */
	LayoutFormat layout_format;
} Options;

/* Parses argv into *o. Usage errors go to d (no location); returns false if
 * there were any. */
bool drv_parse_options(int argc, char **argv, Arena *a, Diags *d, Options *o);

/* The value of an option given as `--name=value` or `--name value` (*i is
 * advanced past a separate value); NULL when argv[*i] is not this option,
 * or, with *missing set after a diagnostic, when its value is missing. */
const char *drv_option_value(int argc, char **argv, int *i, const char *name, Diags *d,
                             bool *missing);
/* The value of a short option: `-I DIR` or glued `-IDIR` (for -I, -MF, -MT
 * and -MQ, which no other option has as a prefix); NULL as above. */
const char *drv_short_value(int argc, char **argv, int *i, const char *opt, Diags *d,
                            bool *missing);
/* The options naming output files (-o, --header, -MD -MMD -MF -MP -MT -MQ;
 * driver/options_out.c): *handled tells whether argv[*i] was one; false
 * after a usage error. */
bool drv_parse_file_option(int argc, char **argv, int *i, Arena *a, Diags *d, Options *o,
                           bool *handled);
/* Reports each option given that the input (.gl, .py, .ir) or the output
 * asked for would ignore; false if any. */
bool drv_check_option_use(const Options *o, Diags *d);

/* Prints glc's usage text into out. */
void drv_usage(StrBuf *out);

/* Runs `glc FILE.gl ...` up to the stage o->emit names; the output goes to
 * -o, stdout for text, or FILE.o/FILE.cubin for binaries. Returns the exit
 * status. */
int drv_compile(const Options *o, Arena *a, Interner *in, Sources *src, Diags *d, StrBuf *out);

/* Wall time of each stage and pass, for --time-passes. */
typedef struct DrvTimer {
	bool on;
	struct timespec last;
	StrBuf report;
} DrvTimer;
/* Ends the lap named stage (NULL: starts timing) and notes its time. */
void drv_timer_lap(DrvTimer *t, const char *stage);

/* Runs the pass pipeline (passes/pipeline.c) over p, printing the IR after
 * the passes o asks for (locations in `file` without their path); false
 * after an error. */
bool drv_run_passes(const Options *o, TProgram *p, const Sources *src, uint32_t file, Arena *a,
                    Diags *d, DrvTimer *tm);
/* Whether a pass is called name; the pass names, comma-separated. */
bool drv_pass_known(const char *name);
void drv_pass_names(StrBuf *out);

/* Checks the Gluon file m (file id `file`) as o asks (-n, -s, -w, -I);
 * NULL after a diagnostic. Every file read is recorded for -MD. */
TProgram *drv_check_gluon(const Options *o, Arena *a, Interner *in, Sources *src, Diags *d,
                          const Node *m, uint32_t file);
/* Parses o->grid ("X,Y,Z", see driver/grid.c) for each launcher of r, the
 * code of program p, into its CgKernelSig.grid; false after an error (the
 * first only). */
struct CgResult;
bool drv_apply_grid(const Options *o, const TProgram *p, struct CgResult *r, Arena *a,
                    Diags *d);
/* Where the depfile of -MD goes: -MF, else target with its extension
 * replaced by .d. */
const char *drv_depfile_path(const Options *o, Arena *a, const char *target);
/* Writes the depfile to path: `target: every file read` (the targets of
 * -MT/-MQ instead of target when given), and with -MP a rule without
 * prerequisites for each file read but the input, as gcc writes them. */
bool drv_write_depfile(const Options *o, Arena *a, const Sources *src, Diags *d,
                       const char *target, const char *path);

/* `glc link` (driver/link_cmd.c): parses argv[first..] into o (inputs, -o,
 * --header, --manifest), false after a usage error; runs it, returning the
 * exit status. */
bool drv_parse_link_options(int argc, char **argv, int first, Arena *a, Diags *d, Options *o);
int drv_link_command(const Options *o, Arena *a, Sources *src, Diags *d);

/* Runs `glc layout ...`; returns the exit status. */
int drv_layout_command(const Options *o, Arena *a, Interner *in, Sources *src, Diags *d, StrBuf *out);

/* Reads the file at path ("-": standard input) into the source table;
 * reports a diagnostic (no location) and returns 0 when it cannot be read,
 * is not a regular file (a named pipe, a directory, a device: refused
 * without blocking) or is larger than the input limit. */
uint32_t drv_read_source(Sources *src, Diags *d, const char *path, const Limits *lim);

/* An IrLoader's load (ctx: the Limits): registers the regular file at path
 * with its text; 0, without a diagnostic, when it cannot be read, is not a
 * regular file or is larger than the input limit. */
uint32_t drv_load_source(void *ctx, Sources *src, const char *path);

/* Writes out to path, or to stdout when path is NULL or "-". A regular file
 * is replaced whole (a temporary in its folder, renamed over it), so that a
 * failed write leaves the old file. An output that passed its limit
 * (out->over) is an error. Reports a diagnostic and returns false on
 * failure. Run drv_check_outputs first. */
bool drv_write_output(Arena *a, Diags *d, const char *path, const StrBuf *out,
                      const Limits *lim);

/* One file a compilation writes: what it is ("output", "depfile"), where,
 * and the option that names it (for the message). */
typedef struct DrvOutput {
	const char *role;
	const char *path;
	const char *option;
} DrvOutput;
/* Checks (driver/outputs.c) that the n outputs are distinct files and that
 * none is a file the compilation read (every path in src); reports each
 * clash, naming both files, and returns false if any. */
bool drv_check_outputs(const DrvOutput *outs, size_t n, const Sources *src, Arena *a,
                       Diags *d);

/* The images of one compilation: one cubin, or one per kernel with the
 * kernel's index into them (driver/assemble.c). */
typedef struct DrvImages {
	CgBlob *cubins;
	int n;
	int *image_of;     /* NULL with one image */
} DrvImages;

/* Assembles r's PTX as po says: one ptxas run for --emit=cubin or a file
 * of one kernel, else a run per kernel (its entries, ptxas -e) in parallel
 * threads, their -v reports appended to po->usage in kernel order. */
bool drv_assemble(const Options *o, const PkgPtxas *po, const struct CgResult *r,
                  const Sources *src, Arena *a, Diags *d, DrvImages *out);

/* -- The compile cache (driver/cache.c) ---------------------------------------- */

/* One compilation's cache state: on when its outputs may come from, or go
 * to, the cache folder dir under key. */
typedef struct DrvCache {
	bool on;
	const char *dir;
	PkgHash key;
} DrvCache;

/* The outputs a cache entry holds: the output's path (when glc derived
 * it), the output, the header, the manifest. */
typedef struct DrvCacheOut {
	const char **path;
	StrBuf *out, *header, *manifest;
} DrvCacheOut;

/* Computes c's key for the compilation o of the input file; false (c off)
 * when o is not cached. */
bool drv_cache_begin(const Options *o, Arena *a, const Sources *src, uint32_t file, DrvCache *c);
/* On a hit, fills w and registers the files the cached compilation read in
 * src; false on a miss. */
bool drv_cache_lookup(const Options *o, DrvCache *c, Arena *a, Sources *src, uint32_t file,
                      DrvCacheOut *w);
/* Stores the outputs w of a clean compilation, with every file in src. */
void drv_cache_store(DrvCache *c, Arena *a, const Sources *src, const DrvCacheOut *w);

/* -- MLIR-style test files (driver/cases.c) ------------------------------------ */

/* One case of a --split-input-file input: bytes [start, start+len) of the
 * text, starting on line `line`. */
typedef struct DrvCase {
	size_t start, len;
	uint32_t line;
} DrvCase;

/* Splits text at the lines that read `// -----`, `# -----` or `; -----`
 * (blanks around allowed) into *out (allocated in a); returns the count. */
size_t drv_split_cases(const char *text, size_t len, Arena *a, DrvCase **out);
/* Registers case c of file as a source of its own under file's path, its
 * lines numbered as in the whole file; returns its id. */
uint32_t drv_case_source(Sources *src, uint32_t file, const DrvCase *c);
/* --verify-diagnostics: compares the diagnostics in d with the comments of
 * file that expect them (`expected-error {{text}}`, -warning, -note, with
 * @+N, @-N, @N or @unknown for another line) and replaces d's content by
 * one error per diagnostic not expected (at the diagnostic) and per
 * expectation not met (at its comment). True when they match exactly. */
bool drv_verify_diagnostics(Diags *d, const Sources *src, uint32_t file);

#endif
