/*
 * The IR reader's internal interface: a line-oriented tokenizer over the
 * .ir text and the state of reading one file (read_lex.c, read_type.c,
 * read_attr.c, read_inst.c, read.c). The first mistake is reported at its
 * line and column and stops the reading: every function returns false (or
 * NULL) from there on.
 */
#ifndef IR_TEXT_READ_H
#define IR_TEXT_READ_H

#include "ir/ir_internal.h"

typedef enum TokKind {
	TK_EOF,
	TK_NEWLINE,
	TK_WORD,      /* [A-Za-z_][A-Za-z0-9_.]* */
	TK_INT,       /* -?[0-9]+ (value in i) */
	TK_VALUE,     /* %N */
	TK_VAR,       /* $N */
	TK_ALIAS,     /* #name (text after the '#') */
	TK_STRING,    /* "..." (unescaped text in str) */
	TK_DOTS,      /* .. */
	TK_PUNCT,     /* one of ( ) [ ] { } < > , : = + * (in ch) */
} TokKind;

typedef struct Token {
	TokKind kind;
	const char *s;        /* the token's text in the input */
	size_t n;
	int64_t i;            /* TK_INT, TK_VALUE, TK_VAR */
	char ch;              /* TK_PUNCT */
	const char *str;      /* TK_STRING */
	uint32_t line, col;
} Token;

/* A layout alias of the kernel being read. */
typedef struct RAlias {
	const char *name;     /* without the '#' */
	TLayout layout;
	int rank;             /* the shape it is fitted to */
	int64_t shape[LL_MAX_RANK];
} RAlias;

typedef struct Reader {
	Arena *a;
	Interner *in;
	Sources *src;
	Diags *d;
	const IrLoader *load;
	uint32_t file;        /* the .ir text */
	const char *text, *end, *p;
	uint32_t line;        /* of p */
	const char *line_start;
	Token tok;            /* the current token */
	bool failed;
	int depth;            /* blocks open around the line being read */
	uint32_t origin;      /* the file `source` names; 0: none */
	VEC(const char *) paths;   /* files named by loc("path":...) */
	VEC(uint32_t) path_ids;
	/* the kernel being read */
	TKernel *k;
	bool in_partition;    /* reading a warp_specialize partition */
	VEC(RAlias) aliases;
	VEC(TValue *) values;      /* by id; NULL where none is defined yet */
	VEC(TVar *) vars;
	VEC(TSmemAlloc) smem;
	VEC(TParam) params;
	VEC(const char *) cx_names, cx_values;
	const char *variant;       /* the specialized variant's name, or NULL */
	VEC(TParam) assumed;       /* its parameters' names and divisibility */
	/* the statement being read: its start, for its default location */
	uint32_t stmt_line, stmt_col;
	const char *stmt_start, *last_end;
} Reader;

/* -- read_lex.c ------------------------------------------------------------ */

/* Starts reading at the beginning of r->text; the first token is current. */
void rd_start(Reader *r);
/* Moves to the next token (comments `// ...` are skipped). */
void rd_next(Reader *r);
/* Restarts the tokenizer at q, a point on the current line after the
 * current token's start (for text read by other scanners). */
void rd_seek(Reader *r, const char *q);
/* Reports msg at the current token and marks the reading failed; false. */
bool rd_error(Reader *r, const char *fmt, ...) GL_PRINTF(2, 3);
/* The same at a token of the current line. */
bool rd_error_at(Reader *r, const Token *t, const char *fmt, ...) GL_PRINTF(3, 4);
/* True (and consumed) when the current token is the punctuation ch, the
 * word w, or of kind k. */
bool rd_punct(Reader *r, char ch);
bool rd_word(Reader *r, const char *w);
bool rd_is_word(const Reader *r, const char *w);
/* The same, reporting "expected ..." when the token is something else. */
bool rd_expect_punct(Reader *r, char ch);
bool rd_expect_word(Reader *r, const char *w);
bool rd_expect_newline(Reader *r);
/* An integer (TK_INT) in [lo, hi] into *out; what names it in errors. */
bool rd_int(Reader *r, int64_t lo, int64_t hi, const char *what, int64_t *out);
/* A key=integer attribute: the word key, '=', an integer in [lo, hi]. */
bool rd_key_int(Reader *r, const char *key, int64_t lo, int64_t hi, int64_t *out);
/* Skips blank lines (and comment lines). */
void rd_skip_newlines(Reader *r);
/* True when the current token is a word followed (after blanks) by the
 * character c: '=' for a key=value attribute, '%' for a labelled operand. */
bool rd_word_then(const Reader *r, char c);
/* "'text'" for the current token, or what it is (end of line, of file). */
const char *rd_found(Reader *r);

/* -- read_type.c ----------------------------------------------------------- */

/* dtype -> i1 | i8 | ... | f8e5m2 */
bool rd_dtype(Reader *r, TDType *out);
/* shape -> '[' [INT (',' INT)*] ']' */
bool rd_shape(Reader *r, int64_t *shape, int *rank);
/* The same list of integers, each at least `least` (rd_shape: 1). */
bool rd_shape_from(Reader *r, int64_t least, int64_t *shape, int *rank);
/* A type (see ir/print.c); NULL after an error. */
const TType *rd_type(Reader *r);
/* An alias reference #name fitted to the type (or allocation) of
 * shape[0..rank-1], or with region to a region at least as large along
 * each trailing dim (a strided view's); false after an error. */
bool rd_alias_ref(Reader *r, const int64_t *shape, int rank, bool region, TLayout *out);
/* alias -> ALIAS '=' (desc | 'none') 'on' shape ['exact' '{' bases '}'] NL */
bool rd_alias_def(Reader *r);
/* The file id of a path the text names (registered through the loader on
 * first use). */
uint32_t rd_path_file(Reader *r, const char *path);
/* loc -> 'loc' '(' ('unknown' | [STRING ':'] INT ':' INT ['+' (INT | '*')]) ')'
 * with what ("loc", "layout_loc") as the keyword; *out is left alone when
 * the keyword is not next. */
bool rd_loc(Reader *r, const char *what, SrcSpan *out);

/* -- read_attr.c ----------------------------------------------------------- */

/* attrs -> (KEY '=' VALUE | FLAG)* for instruction i: the keys and flags
 * its operation has (ir_op_attrs), each once. */
bool rd_attrs(Reader *r, TInst *i);

/* -- read_inst.c ----------------------------------------------------------- */

/* The statements of a block up to (not including) its closing '}'; in a
 * while's condition block also the `condition %N` line (into *cond). */
bool rd_block(Reader *r, TBlock *b, TValue **cond);

#endif
