/*
 * support: the bottom module of glc. Arena allocation, growable vectors,
 * string buffers, identifier interning, source files and spans, and
 * diagnostics collected as data. Depends on nothing but libc; used by every
 * other module. Nothing here exits the process: running out of memory calls
 * the fatal hook that the program installed (the driver's reports it and
 * picks the exit status), and aborts only when there is none.
 */
#ifndef SUPPORT_H
#define SUPPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define GL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define GL_PRINTF(f, a)
#endif

/* -- Arena ---------------------------------------------------------------- */

typedef struct Arena Arena;

/* A new empty arena. One per compilation; arena_free releases everything. */
Arena *arena_new(void);
/* Releases every block of the arena and the arena itself. NULL is allowed. */
void arena_free(Arena *a);
/* size bytes, zeroed, aligned to 16. Never returns NULL (out of memory is
 * fatal_error(FATAL_OUT_OF_MEMORY, ...)). */
void *arena_alloc(Arena *a, size_t size);
/* A NUL-terminated copy of the n bytes at s. */
char *arena_strndup(Arena *a, const char *s, size_t n);
/* printf into arena memory. */
char *arena_printf(Arena *a, const char *fmt, ...) GL_PRINTF(2, 3);
char *arena_vprintf(Arena *a, const char *fmt, va_list ap);
/* Bytes handed out so far (for tests and statistics). */
size_t arena_used(const Arena *a);

/* -- Vectors (arena-backed; old storage stays in the arena) ---------------- */

#define VEC(T) struct { T *data; size_t len, cap; }

/* Makes room for `need` elements of `elem` bytes in *data (capacity *cap). */
void vec_reserve_(Arena *a, void **data, size_t *cap, size_t elem, size_t len, size_t need);

#define vec_push(a, v, x)                                                       \
	(vec_reserve_((a), (void **)&(v)->data, &(v)->cap, sizeof *(v)->data,   \
	              (v)->len, (v)->len + 1),                                  \
	 (v)->data[(v)->len++] = (x))

/* -- String buffers (heap-backed, for output text) ------------------------- */

typedef struct StrBuf {
	char *s;     /* always NUL-terminated once anything was written */
	size_t len;
	size_t cap;
	size_t limit;   /* 0: unbounded; else writes that would pass limit bytes
	                   are dropped and `over` is set */
	bool over;
} StrBuf;

void buf_putc(StrBuf *b, char c);
void buf_puts(StrBuf *b, const char *s);
void buf_putn(StrBuf *b, const char *s, size_t n);
void buf_printf(StrBuf *b, const char *fmt, ...) GL_PRINTF(2, 3);
void buf_vprintf(StrBuf *b, const char *fmt, va_list ap);
/* Bytes of the valid UTF-8 sequence at s (1 for ASCII, up to 4), or 0 when
 * the n bytes at s do not start with one. */
size_t buf_utf8_len(const char *s, size_t n);
/* Appends s as the body of a JSON string (quotes not included); bytes that
 * are not UTF-8 become U+FFFD. */
void buf_put_json_escaped(StrBuf *b, const char *s);
/* Empties the buffer, keeping its storage. */
void buf_clear(StrBuf *b);
/* Frees the storage; the buffer is empty and reusable afterwards. */
void buf_free(StrBuf *b);

/* -- Interning -------------------------------------------------------------- */

typedef struct Interner Interner;

/* A table of unique strings whose storage lives in `a`. */
Interner *intern_new(Arena *a);
/* The canonical copy of the n bytes at s: equal strings give equal pointers. */
const char *intern(Interner *in, const char *s, size_t n);
/* intern() of a NUL-terminated string. */
const char *intern_cstr(Interner *in, const char *s);
/* Number of distinct strings interned. */
size_t intern_count(const Interner *in);

/* -- Sources and spans ------------------------------------------------------ */

/* A range of source text. file 0 means "no file" (command line, builtins);
 * line and col count from 1; len is in bytes (0 is a point). */
typedef struct SrcSpan {
	uint32_t file, line, col, len;
} SrcSpan;

typedef struct Sources Sources;

/* An empty table of source files. File ids start at 1. */
Sources *src_new(Arena *a);
/* Registers text (copied, NUL-terminated) under the display name `path`;
 * returns its file id. */
uint32_t src_add(Sources *s, const char *path, const char *text, size_t len);
/* The same for a part of a larger file whose first line is line
 * `first_line` of that file (a case of --split-input-file): spans and
 * src_line count lines as the whole file does, and the part costs memory
 * in its own length only. */
uint32_t src_add_part(Sources *s, const char *path, const char *text, size_t len,
                      uint32_t first_line);
/* The number of the file's first line: 1, or src_add_part's first_line. */
uint32_t src_first_line(const Sources *s, uint32_t file);
const char *src_path(const Sources *s, uint32_t file);
const char *src_text(const Sources *s, uint32_t file);
size_t src_len(const Sources *s, uint32_t file);
/* The text of line `line` of `file` without its newline, or NULL when out of
 * range; *len receives its length. */
const char *src_line(const Sources *s, uint32_t file, uint32_t line, size_t *len);
/* The span from the start of a to the end of b (same file, a before b). */
SrcSpan span_join(SrcSpan a, SrcSpan b);

/* -- Diagnostics ------------------------------------------------------------ */

typedef enum DiagKind {
	DIAG_ERROR,     /* an error in the input */
	DIAG_WARNING,
	DIAG_NOTE,
	DIAG_INTERNAL,  /* glc failed on input it accepted: a bug in glc */
} DiagKind;

typedef struct Diag Diag;
struct Diag {
	DiagKind kind;
	SrcSpan at;         /* at.file == 0: no location */
	const char *msg;    /* may hold several lines (e.g. layout bases) */
	Diag *notes;        /* first note attached to this diagnostic */
	Diag *next;         /* next diagnostic, or next note of the parent */
};

typedef struct Diags Diags;
struct Diags {
	Arena *arena;
	const Sources *src;
	Diag *first, *last;
	int errors, warnings;   /* every report, repeats included */
	int internal;       /* DIAG_INTERNAL diagnostics (also counted in errors) */
	int max_errors;     /* 0: unlimited; past it further errors are dropped */
	bool truncated;     /* errors were dropped because of max_errors */
	/* Called on every error and warning reported (a repeat too), so that
	 * the client can attach notes about where it arose (a call chain). */
	void (*context)(void *ctx, Diags *d, Diag *g);
	void *context_ctx;
	/* Errors and warnings by location and text: a repeat of one (the same
	 * message at the same place, e.g. from a helper inlined twice) is not
	 * listed again; its notes are added to the first. */
	Diag **seen;
	size_t n_seen, seen_cap;
};

/* A sink writing into arena a, rendering lines from src (may be NULL). */
void diag_init(Diags *d, Arena *a, const Sources *src);
Diag *diag_error(Diags *d, SrcSpan at, const char *fmt, ...) GL_PRINTF(3, 4);
Diag *diag_warning(Diags *d, SrcSpan at, const char *fmt, ...) GL_PRINTF(3, 4);
Diag *diag_verror(Diags *d, SrcSpan at, const char *fmt, va_list ap);
/* An internal compiler error: glc built something invalid or cannot handle
 * a program that it accepted. Rendered as "internal compiler error: msg";
 * counts as an error and in d->internal, and is never dropped by
 * max_errors. */
Diag *diag_internal(Diags *d, SrcSpan at, const char *fmt, ...) GL_PRINTF(3, 4);
/* A note of its own, neither error nor warning (what gl.static_print
 * prints); a repeat at the same place is listed once. */
Diag *diag_remark(Diags *d, SrcSpan at, const char *fmt, ...) GL_PRINTF(3, 4);
/* Attaches a note to parent (which may be NULL when the parent was dropped:
 * the note is dropped too); a note equal to one parent has is not added
 * again. Returns the note or NULL. */
Diag *diag_note(Diags *d, Diag *parent, SrcSpan at, const char *fmt, ...) GL_PRINTF(4, 5);

/* The n bytes at s for quoting in a message: as they are when short, else
 * their start and end around "..." (a 100000-digit literal is not quoted
 * whole). */
const char *diag_quote(Arena *a, const char *s, size_t n);

typedef enum DiagFormat { DIAG_TEXT, DIAG_JSON } DiagFormat;

/* Renders every diagnostic. Text is GCC's form: `file:line:col: error: msg`,
 * the source line with a gutter and a caret/underline across the span, then
 * the notes. `tool` names the program for diagnostics without a file
 * ("glc: error: ..."). JSON is one array of objects. */
void diag_render(const Diags *d, DiagFormat fmt, const char *tool, StrBuf *out);

/* For "did you mean" notes: the candidate closest to name by edit distance,
 * or NULL when none is close enough (distance at most a third of the
 * length, and at most 3). */
const char *diag_suggest(const char *name, const char *const *candidates, size_t n);

/* -- Limits ------------------------------------------------------------------ */

/* Every bound glc puts on its work, so that no input makes it run or
 * allocate without end. Each has a default, a command-line option that
 * changes it (--max-NAME=N) and a line in docs/limits.md; going past one is
 * an error in the input that names the option. */
typedef enum LimitId {
	LIM_INPUT_BYTES,        /* bytes of one source file */
	LIM_OUTPUT_BYTES,       /* bytes of one output */
	LIM_UNROLL,             /* static_range bodies unrolled per kernel */
	LIM_INLINE,             /* @gl.jit calls inlined per kernel */
	LIM_ELEMS_PER_THREAD,   /* elements of one tensor per thread */
	LIM_EVAL_STEPS,         /* steps of compile-time evaluation (statements, items) */
	LIM_EVAL_BYTES,         /* bytes of compile-time values (lists, strings, ...) */
	LIM_TOKENS,             /* tokens of one source file */
	LIM_KERNEL_OPS,         /* operations of one kernel's thread, unrolled (ptxas's time) */
	LIM_COUNT_
} LimitId;

typedef struct Limits {
	uint64_t max[LIM_COUNT_];
} Limits;

/* The defaults. */
Limits limits_default(void);
/* "max-unroll": the option's name without its dashes. */
const char *limit_name(LimitId id);
/* One line saying what the limit bounds ("static_range bodies unrolled in
 * one kernel"). */
const char *limit_what(LimitId id);
/* The largest value the option accepts. */
uint64_t limit_ceiling(LimitId id);
/* Attaches the note that says which limit `parent` ran into and how to
 * raise it: "the limit is N (--max-unroll=N)". */
void diag_limit_note(Diags *d, Diag *parent, const Limits *l, LimitId id);

/* -- JSON (json.c) ----------------------------------------------------------- */

typedef enum JsonKind {
	JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT,
} JsonKind;

/* One JSON value, allocated in an arena. */
typedef struct Json {
	JsonKind kind;
	uint32_t line;          /* where the value starts (from 1) */
	bool b;                 /* JSON_BOOL */
	double num;             /* JSON_NUMBER */
	int64_t i;              /* JSON_NUMBER: its integer value when is_int */
	bool is_int;
	const char *s;          /* JSON_STRING: the text, NUL-terminated */
	size_t len;
	struct Json **items;    /* JSON_ARRAY items, JSON_OBJECT values */
	const char **keys;      /* JSON_OBJECT keys, one per item */
	size_t n;
} Json;

/* Arrays and objects nest at most this deep. */
#define JSON_MAX_DEPTH 64

/* Parses the len bytes of text as one JSON value; NULL with *err (a short
 * message) and *line set when the text is not JSON. */
Json *json_parse(Arena *a, const char *text, size_t len, const char **err, uint32_t *line);
/* The value of key in the object obj; NULL when obj is not an object or
 * has no such key. */
const Json *json_get(const Json *obj, const char *key);

/* -- Fatal host failures ---------------------------------------------------- */

typedef enum FatalKind {
	FATAL_OUT_OF_MEMORY,    /* an allocation failed */
	FATAL_INTERNAL,         /* a library glc uses gave up (LLVM's fatal errors) */
} FatalKind;

/* Reports a failure the process cannot go on from and ends it; must not
 * return. `what` is a short message; ctx is fatal_set_hook's. */
typedef void (*FatalHook)(void *ctx, FatalKind kind, const char *what);

/* Installs the hook that fatal_error() calls, with its context (the driver's;
 * NULL: none). */
void fatal_set_hook(FatalHook hook, void *ctx);
/* Calls the installed hook; without one, writes `what` to stderr and
 * aborts. */
_Noreturn void fatal_error(FatalKind kind, const char *what);

#endif
