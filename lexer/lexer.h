/*
 * lexer: turns a source file into tokens with Python-style layout (NEWLINE,
 * INDENT, DEDENT; implicit line joining inside brackets; backslash
 * continuation). Identifiers and literal texts are interned. Errors go to a
 * Diags sink; lexing goes on after each one.
 */
#ifndef LEXER_H
#define LEXER_H

#include "support/support.h"

/* Every token kind: X(NAME, spelling). The spelling is the token's fixed text
 * ("" for tokens whose text varies or that have none). */
#define LEX_TOKENS(X)                                                           \
	X(EOF, "") X(NEWLINE, "") X(INDENT, "") X(DEDENT, "")                   \
	X(NAME, "") X(INT, "") X(FLOAT, "") X(STRING, "")                       \
	X(DEF, "def") X(IF, "if") X(ELIF, "elif") X(ELSE, "else")               \
	X(FOR, "for") X(IN, "in") X(WHILE, "while") X(BREAK, "break")           \
	X(CONTINUE, "continue") X(RETURN, "return") X(PASS, "pass")             \
	X(AND, "and") X(OR, "or") X(NOT, "not") X(IS, "is") X(NONE, "None")     \
	X(TRUE, "True") X(FALSE, "False") X(IMPORT, "import")                   \
	X(FROM, "from") X(AS, "as") X(LAMBDA, "lambda") X(ASSERT, "assert")     \
	X(CLASS, "class") X(WITH, "with") X(TRY, "try") X(EXCEPT, "except")     \
	X(FINALLY, "finally") X(RAISE, "raise") X(GLOBAL, "global")             \
	X(NONLOCAL, "nonlocal") X(DEL, "del") X(YIELD, "yield")                 \
	X(PLUS, "+") X(MINUS, "-") X(STAR, "*") X(SLASH, "/")                   \
	X(SLASHSLASH, "//") X(PERCENT, "%") X(STARSTAR, "**") X(AT, "@")        \
	X(SHL, "<<") X(SHR, ">>") X(AMP, "&") X(PIPE, "|") X(CARET, "^")        \
	X(TILDE, "~") X(LT, "<") X(GT, ">") X(LE, "<=") X(GE, ">=")             \
	X(EQEQ, "==") X(NE, "!=") X(ASSIGN, "=") X(PLUSEQ, "+=")                \
	X(MINUSEQ, "-=") X(STAREQ, "*=") X(SLASHEQ, "/=")                       \
	X(SLASHSLASHEQ, "//=") X(PERCENTEQ, "%=") X(AMPEQ, "&=")                \
	X(PIPEEQ, "|=") X(CARETEQ, "^=") X(SHLEQ, "<<=") X(SHREQ, ">>=")        \
	X(STARSTAREQ, "**=") X(ATEQ, "@=") X(ARROW, "->") X(COLON, ":")         \
	X(SEMI, ";") X(COMMA, ",") X(DOT, ".") X(LPAREN, "(")                   \
	X(RPAREN, ")") X(LBRACKET, "[") X(RBRACKET, "]") X(LBRACE, "{")         \
	X(RBRACE, "}") X(ELLIPSIS, "...") X(COLONEQ, ":=")

typedef enum TokKind {
#define LEX_ENUM_(k, s) TOK_##k,
	LEX_TOKENS(LEX_ENUM_)
#undef LEX_ENUM_
	TOK_COUNT_
} TokKind;

/* Token flags. */
enum {
	TOKF_BAD = 1,   /* the lexer reported an error at or just before this token */
};

typedef struct Token {
	TokKind kind;
	SrcSpan span;
	const char *text;   /* interned identifier or literal source text; the
	                       spelling for fixed tokens; "" for layout tokens */
	uint32_t flags;     /* TOKF_* */
} Token;

typedef VEC(Token) TokenList;

/* Lexes file `file`; appends tokens ending with TOK_EOF; reports errors to d;
 * false if any error. A file whose path ends in ".py" follows Python's rule
 * for lines inside brackets (they continue the logical line wherever they
 * start); other files want continuation lines indented deeper (language.md). Every NEWLINE-terminated logical line is complete: the
 * last tokens are always NEWLINE (when the file has any token), the DEDENTs
 * closing every open block, then EOF. With lim (may be NULL: no bound), a
 * file of more than lim's max-tokens tokens is an error at the first token
 * past it, and the tokens are only EOF (so that nothing is parsed). */
bool lex_file(Arena *a, Interner *in, const Sources *src, uint32_t file, Diags *d,
              const Limits *lim, TokenList *out);

/* One token per line: `line:col KIND 'text'`, stable and readable (used by
 * `glc --emit=tokens`). */
void lex_dump(const TokenList *toks, const Sources *src, StrBuf *out);

/* The upper-case name of a kind ("NAME", "PLUSEQ"). */
const char *lex_kind_name(TokKind k);
/* The fixed spelling of a kind ("+=", "def"), or "" for variable tokens. */
const char *lex_kind_spelling(TokKind k);

#endif
