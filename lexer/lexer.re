/*
 * The scanner (re2c) and the layout logic: indentation levels become INDENT
 * and DEDENT, logical lines end in NEWLINE, brackets join lines. The text is
 * NUL-terminated; no character class below includes NUL, so the scanner never
 * reads past the end, and a NUL before the end is reported as an error.
 */
#include "lexer/lexer_internal.h"

#include <string.h>

/* One indentation level: its width with tabs to multiples of 8, and with tabs
 * as one column. The two must order lines alike (Python's rule). */
typedef struct Level {
	uint32_t col8, col1;
} Level;

/* An open bracket, and the column of the first token on its line: a later
 * line that starts at or left of that column (with anything but a closing
 * bracket) means the bracket was never closed. */
typedef struct Open {
	SrcSpan at;
	TokKind kind;
	uint32_t line_col;
} Open;

typedef struct Lexer {
	Arena *arena;
	Interner *in;
	Diags *d;
	uint32_t file;
	const char *end;         /* the terminating NUL */
	const char *cur;
	const char *line_start;  /* first byte of the current physical line */
	uint32_t line;
	VEC(Level) levels;       /* levels[0] is column 0 */
	VEC(Open) opens;         /* open brackets, innermost last */
	uint32_t first_col;      /* column of the first token on this physical
	                            line, 0 before it */
	TokenList *out;
	bool line_has_tokens;    /* the current logical line has a token */
	bool python_rules;       /* a .py file: bracket lines join wherever they start */
	uint32_t poison;         /* flags for the next token emitted */
	const Limits *lim;       /* max-tokens; NULL: no bound */
	bool stop;               /* a limit was passed: the file is not parsed */
	bool ok;
} Lexer;

/* Python's limit on indentation levels (CPython's MAXINDENT): it bounds how
 * deep statements nest, so that walks of the syntax tree stay shallow. */
enum { MAX_INDENT = 100 };

/* What scan() found besides a token. */
enum { RAW_NL = -1 };

static SrcSpan
span_at(const Lexer *L, const char *p, size_t len)
{
	SrcSpan s = { L->file, L->line, (uint32_t)(p - L->line_start) + 1,
	              (uint32_t)len };
	return s;
}

static void
error_at(Lexer *L, SrcSpan at, const char *msg)
{
	diag_error(L->d, at, "%s", msg);
	L->ok = false;
}

static void
emit(Lexer *L, TokKind k, SrcSpan at, const char *text)
{
	Token t = { k, at, text, L->poison };
	L->poison = 0;
	if (!L->first_col)
		L->first_col = at.col;
	vec_push(L->arena, L->out, t);
}

/* Moves the line counter over the newlines inside [p, q). */
static void
count_lines(Lexer *L, const char *p, const char *q)
{
	for (; p < q; p++) {
		if (*p == '\n' || (*p == '\r' && (p + 1 == q || p[1] != '\n'))) {
			L->line++;
			L->line_start = p + 1;
		}
	}
}

/* Scans the body of a triple-quoted string whose quotes end at p; returns the
 * end of the literal (after the closing quotes, or at the end of the text). */
static const char *
triple_end(Lexer *L, const char *p, char q, const char *start)
{
	bool nul = false;
	while (p < L->end) {
		if (*p == 0 && !nul) {
			error_at(L, span_at(L, p, 1),
			         "NUL byte in a string literal (write it as \\0)");
			L->poison |= TOKF_BAD;
			nul = true;
		}
		if (*p == '\\' && p + 1 < L->end) {
			p += 2;
		} else if (p[0] == q && p[1] == q && p[2] == q) {
			return p + 3;
		} else {
			p++;
		}
	}
	error_at(L, span_at(L, start, 3), "unterminated triple-quoted string literal");
	L->poison |= TOKF_BAD;
	return p;
}

/* A NUL byte at p inside the string literal that starts at tok: reported,
 * then the rest of the literal is scanned (NULs included) to its closing
 * quote, or to the end of the line when there is none (unterminated).
 * Returns the end of the literal. */
static const char *
string_past_nul(Lexer *L, const char *tok, const char *p)
{
	error_at(L, span_at(L, p, 1), "NUL byte in a string literal (write it as \\0)");
	L->poison |= TOKF_BAD;
	const char *q = tok;   /* the opening quote, after any prefix (r, b, f) */
	while (*q != '\'' && *q != '"')
		q++;
	while (p < L->end && *p != *q && *p != '\n' && *p != '\r') {
		if (*p == '\\' && p + 1 < L->end && p[1] != '\n' && p[1] != '\r')
			p++;
		p++;
	}
	if (p < L->end && *p == *q)
		return p + 1;
	error_at(L, span_at(L, tok, 1), "unterminated string literal");
	return p;
}

static void
unexpected_char(Lexer *L, const char *tok, const char *cur)
{
	unsigned char c = (unsigned char)*tok;
	SrcSpan at = span_at(L, tok, (size_t)(cur - tok));
	if (c >= 0x80)
		error_at(L, at, "non-ASCII character in source (only ASCII is allowed "
		         "outside strings and comments)");
	else if (c == 0)
		error_at(L, at, "unexpected NUL byte in source");
	else if (c < 0x20 || c == 0x7f)
		diag_error(L->d, at, "unexpected control character 0x%02x", c), L->ok = false;
	else
		diag_error(L->d, at, "unexpected character '%c'", c), L->ok = false;
	L->poison |= TOKF_BAD;
}

/*
 * Scans one token from L->cur, skipping blanks, comments and continuations.
 * Returns its kind (with *start at its first byte and L->cur after it), or
 * RAW_NL for a line break outside any token (*start at the break).
 */
static int
scan(Lexer *L, const char **start)
{
	const char *cur = L->cur, *mar, *tok;
	int k;
	for (;;) {
		tok = cur;
/*!re2c
	re2c:yyfill:enable = 0;
	re2c:define:YYCTYPE = "unsigned char";
	re2c:define:YYCURSOR = cur;
	re2c:define:YYMARKER = mar;

	nl      = "\r\n" | "\n" | "\r";
	ws      = [ \t\f];
	dig     = [0-9];
	digits  = dig ("_"? dig)*;
	hexd    = [0-9a-fA-F];
	int     = [1-9] ("_"? dig)* | "0" ("_"? "0")*
	        | "0" [xX] ("_"? hexd)+ | "0" [oO] ("_"? [0-7])+ | "0" [bB] ("_"? [01])+;
	exp     = [eE] [+-]? digits;
	float   = (digits? "." digits | digits ".") exp? | digits exp;
	badnum  = dig [0-9a-zA-Z_]* ("." [0-9a-zA-Z_]*)?;
	sqitem  = [^'\\\r\n\x00] | "\\" ([^\x00\r\n] | nl);
	dqitem  = [^"\\\r\n\x00] | "\\" ([^\x00\r\n] | nl);
	prefix  = [rRbBuUfF] | [rR][bBfF] | [bBfF][rR];

	ws+                      { continue; }
	"#" [^\r\n\x00]*         { continue; }
	"\\" ws* nl              { count_lines(L, tok, cur); continue; }
	"\\"                     {
		error_at(L, span_at(L, tok, 1), cur == L->end
		         ? "unexpected end of file after '\\' (line continuation)"
		         : "'\\' (line continuation) must be the last character on its line");
		L->poison |= TOKF_BAD;
		continue;
	}
	nl                       { *start = tok; L->cur = cur; return RAW_NL; }
	"\x00"                   {
		if (tok == L->end) {
			*start = tok;
			L->cur = tok;
			return TOK_EOF;
		}
		unexpected_char(L, tok, cur);
		continue;
	}

	int                      { k = TOK_INT; break; }
	float                    { k = TOK_FLOAT; break; }
	badnum                   {
		error_at(L, span_at(L, tok, (size_t)(cur - tok)),
		         lex_number_problem(L->arena, tok, (size_t)(cur - tok)));
		L->poison |= TOKF_BAD;
		k = TOK_INT;
		break;
	}

	prefix? ("'" sqitem* "'" | "\"" dqitem* "\"") { k = TOK_STRING; break; }
	prefix? ("'" sqitem* | "\"" dqitem*) {
		if (cur < L->end && *cur == 0) {
			cur = string_past_nul(L, tok, cur);
			k = TOK_STRING;
			break;
		}
		error_at(L, span_at(L, tok, 1), "unterminated string literal");
		L->poison |= TOKF_BAD;
		k = TOK_STRING;
		break;
	}
	prefix? ("'''" | "\"\"\"") {
		cur = triple_end(L, cur, cur[-1], cur - 3);
		k = TOK_STRING;
		break;
	}

	"def"      { k = TOK_DEF; break; }
	"if"       { k = TOK_IF; break; }
	"elif"     { k = TOK_ELIF; break; }
	"else"     { k = TOK_ELSE; break; }
	"for"      { k = TOK_FOR; break; }
	"in"       { k = TOK_IN; break; }
	"while"    { k = TOK_WHILE; break; }
	"break"    { k = TOK_BREAK; break; }
	"continue" { k = TOK_CONTINUE; break; }
	"return"   { k = TOK_RETURN; break; }
	"pass"     { k = TOK_PASS; break; }
	"and"      { k = TOK_AND; break; }
	"or"       { k = TOK_OR; break; }
	"not"      { k = TOK_NOT; break; }
	"is"       { k = TOK_IS; break; }
	"None"     { k = TOK_NONE; break; }
	"True"     { k = TOK_TRUE; break; }
	"False"    { k = TOK_FALSE; break; }
	"import"   { k = TOK_IMPORT; break; }
	"from"     { k = TOK_FROM; break; }
	"as"       { k = TOK_AS; break; }
	"lambda"   { k = TOK_LAMBDA; break; }
	"assert"   { k = TOK_ASSERT; break; }
	"class"    { k = TOK_CLASS; break; }
	"with"     { k = TOK_WITH; break; }
	"try"      { k = TOK_TRY; break; }
	"except"   { k = TOK_EXCEPT; break; }
	"finally"  { k = TOK_FINALLY; break; }
	"raise"    { k = TOK_RAISE; break; }
	"global"   { k = TOK_GLOBAL; break; }
	"nonlocal" { k = TOK_NONLOCAL; break; }
	"del"      { k = TOK_DEL; break; }
	"yield"    { k = TOK_YIELD; break; }
	[a-zA-Z_][a-zA-Z0-9_]* { k = TOK_NAME; break; }

	"+"   { k = TOK_PLUS; break; }
	"-"   { k = TOK_MINUS; break; }
	"*"   { k = TOK_STAR; break; }
	"/"   { k = TOK_SLASH; break; }
	"//"  { k = TOK_SLASHSLASH; break; }
	"%"   { k = TOK_PERCENT; break; }
	"**"  { k = TOK_STARSTAR; break; }
	"@"   { k = TOK_AT; break; }
	"<<"  { k = TOK_SHL; break; }
	">>"  { k = TOK_SHR; break; }
	"&"   { k = TOK_AMP; break; }
	"|"   { k = TOK_PIPE; break; }
	"^"   { k = TOK_CARET; break; }
	"~"   { k = TOK_TILDE; break; }
	"<"   { k = TOK_LT; break; }
	">"   { k = TOK_GT; break; }
	"<="  { k = TOK_LE; break; }
	">="  { k = TOK_GE; break; }
	"=="  { k = TOK_EQEQ; break; }
	"!="  { k = TOK_NE; break; }
	"="   { k = TOK_ASSIGN; break; }
	"+="  { k = TOK_PLUSEQ; break; }
	"-="  { k = TOK_MINUSEQ; break; }
	"*="  { k = TOK_STAREQ; break; }
	"/="  { k = TOK_SLASHEQ; break; }
	"//=" { k = TOK_SLASHSLASHEQ; break; }
	"%="  { k = TOK_PERCENTEQ; break; }
	"&="  { k = TOK_AMPEQ; break; }
	"|="  { k = TOK_PIPEEQ; break; }
	"^="  { k = TOK_CARETEQ; break; }
	"<<=" { k = TOK_SHLEQ; break; }
	">>=" { k = TOK_SHREQ; break; }
	"**=" { k = TOK_STARSTAREQ; break; }
	"@="  { k = TOK_ATEQ; break; }
	"->"  { k = TOK_ARROW; break; }
	":"   { k = TOK_COLON; break; }
	";"   { k = TOK_SEMI; break; }
	","   { k = TOK_COMMA; break; }
	"."   { k = TOK_DOT; break; }
	"("   { k = TOK_LPAREN; break; }
	")"   { k = TOK_RPAREN; break; }
	"["   { k = TOK_LBRACKET; break; }
	"]"   { k = TOK_RBRACKET; break; }
	"{"   { k = TOK_LBRACE; break; }
	"}"   { k = TOK_RBRACE; break; }
	"..." { k = TOK_ELLIPSIS; break; }
	":="  { k = TOK_COLONEQ; break; }

	[\x80-\xff]+            { unexpected_char(L, tok, cur); continue; }
	*                        { unexpected_char(L, tok, cur); continue; }
*/
	}
	*start = tok;
	L->cur = cur;
	return k;
}

static void
inconsistent(Lexer *L, SrcSpan at)
{
	error_at(L, at, "inconsistent use of tabs and spaces in indentation");
	L->poison |= TOKF_BAD;
}

/* Compares the indentation of a new logical line, whose first token is at
 * `first`, with the open levels; emits INDENT or DEDENTs. */
static void
indent(Lexer *L, uint32_t col8, uint32_t col1, const char *first)
{
	SrcSpan at = span_at(L, first, 0);
	Level top = L->levels.data[L->levels.len - 1];
	if (col8 > top.col8) {
		if (col1 <= top.col1)
			inconsistent(L, at);
		if (L->levels.len > MAX_INDENT) {
			diag_error(L->d, at, "too many levels of indentation (more than %d)",
			           MAX_INDENT);
			L->ok = false;
			L->stop = true;
			return;
		}
		Level lv = { col8, col1 };
		vec_push(L->arena, &L->levels, lv);
		emit(L, TOK_INDENT, at, "");
		return;
	}
	while (L->levels.len > 1 && col8 < top.col8) {
		L->levels.len--;
		top = L->levels.data[L->levels.len - 1];
		emit(L, TOK_DEDENT, at, "");
	}
	if (col8 != top.col8) {
		diag_error(L->d, at, "dedent to column %u does not match any enclosing "
		           "indentation level", col8 + 1);
		L->ok = false;
		L->poison |= TOKF_BAD;
	} else if (col1 != top.col1) {
		inconsistent(L, at);
	}
}

/* Reports the innermost open bracket as never closed, at `at`, and closes
 * them all; the NEWLINE that ends the line is flagged as reported. */
static void
unclosed(Lexer *L, SrcSpan at)
{
	const Open *o = &L->opens.data[L->opens.len - 1];
	const char *sp = lex_kind_spelling(o->kind);
	Diag *g = diag_error(L->d, at, "unclosed '%s' opened at %u:%u", sp, o->at.line,
	                     o->at.col);
	diag_note(L->d, g, o->at, "'%s' opened here", sp);
	L->ok = false;
	L->opens.len = 0;
	L->poison |= TOKF_BAD;
	emit(L, TOK_NEWLINE, at, "");
	L->line_has_tokens = false;
}

/* At the start of a physical line: measures indentation and, unless the line
 * is blank or a comment, applies it. Inside brackets the line continues the
 * logical line, unless it starts at or left of the opening line. */
static void
line_start(Lexer *L)
{
	const char *p = L->cur;
	uint32_t col8 = 0, col1 = 0;
	for (;; p++) {
		if (*p == ' ')
			col8++, col1++;
		else if (*p == '\t')
			col8 = (col8 / 8 + 1) * 8, col1++;
		else if (*p == '\f')
			col8 = col1 = 0;
		else
			break;
	}
	if (*p == '#' || *p == '\n' || *p == '\r' || p == L->end)
		return;
	if (L->opens.len) {
		uint32_t col = (uint32_t)(p - L->line_start) + 1;
		if (L->python_rules || col > L->opens.data[0].line_col || *p == ')' ||
		    *p == ']' || *p == '}')
			return;
		unclosed(L, span_at(L, p, 0));
	}
	L->cur = p;
	indent(L, col8, col1, p);
}

static const char *
token_text(Lexer *L, TokKind k, const char *start)
{
	switch (k) {
	case TOK_NAME: case TOK_INT: case TOK_FLOAT: case TOK_STRING:
		return intern(L->in, start, (size_t)(L->cur - start));
	default:
		return lex_kind_spelling(k);
	}
}

/* After a limit was passed (too deep an indentation, or more tokens than
 * the limit: the last one emitted is the first too many, reported there),
 * leaves only EOF, so that the parser builds nothing from the file. True
 * then. */
static bool
stopped(Lexer *L)
{
	if (!L->stop && (!L->lim || L->out->len <= L->lim->max[LIM_TOKENS]))
		return false;
	SrcSpan at = L->out->len ? L->out->data[L->out->len - 1].span : span_at(L, L->cur, 0);
	if (!L->stop) {
		Diag *e = diag_error(L->d, at, "the file has more than %llu tokens",
		                     (unsigned long long)L->lim->max[LIM_TOKENS]);
		diag_limit_note(L->d, e, L->lim, LIM_TOKENS);
		L->ok = false;
	}
	L->out->len = 0;
	emit(L, TOK_EOF, at, "");
	return true;
}

static void
lex_all(Lexer *L)
{
	bool at_line_start = true;
	for (;;) {
		if (stopped(L))
			return;
		if (at_line_start) {
			L->first_col = 0;
			line_start(L);
		}
		at_line_start = false;
		const char *start;
		int k = scan(L, &start);
		if (k == RAW_NL) {
			if (L->opens.len == 0 && L->line_has_tokens) {
				emit(L, TOK_NEWLINE, span_at(L, start, 1), "");
				L->line_has_tokens = false;
			}
			count_lines(L, start, L->cur);
			at_line_start = true;
			continue;
		}
		if (k == TOK_EOF) {
			SrcSpan at = span_at(L, start, 0);
			if (L->opens.len) {
				/* Just after the last token, not on a trailing empty line. */
				SrcSpan last = L->out->data[L->out->len - 1].span;
				last.col += last.len;
				last.len = 0;
				unclosed(L, last);
			}
			else if (L->line_has_tokens)
				emit(L, TOK_NEWLINE, at, "");
			for (; L->levels.len > 1; L->levels.len--)
				emit(L, TOK_DEDENT, at, "");
			emit(L, TOK_EOF, at, "");
			return;
		}
		SrcSpan at = span_at(L, start, (size_t)(L->cur - start));
		emit(L, (TokKind)k, at, token_text(L, (TokKind)k, start));
		L->line_has_tokens = true;
		if (k == TOK_LPAREN || k == TOK_LBRACKET || k == TOK_LBRACE) {
			Open o = { at, (TokKind)k, L->first_col };
			vec_push(L->arena, &L->opens, o);
		} else if ((k == TOK_RPAREN || k == TOK_RBRACKET || k == TOK_RBRACE) &&
		           L->opens.len) {
			L->opens.len--;
		}
		if (k == TOK_STRING)
			count_lines(L, start, L->cur);
	}
}

bool
lex_file(Arena *a, Interner *in, const Sources *src, uint32_t file, Diags *d,
         const Limits *lim, TokenList *out)
{
	Lexer L = {0};
	L.lim = lim;
	L.arena = a;
	L.in = in;
	L.d = d;
	L.file = file;
	L.cur = L.line_start = src_text(src, file);
	L.end = L.cur + src_len(src, file);
	L.line = src_first_line(src, file);
	L.out = out;
	L.ok = true;
	const char *path = src_path(src, file);
	size_t plen = path ? strlen(path) : 0;
	L.python_rules = plen > 3 && strcmp(path + plen - 3, ".py") == 0;
	Level base = { 0, 0 };
	vec_push(a, &L.levels, base);
	lex_all(&L);
	return L.ok;
}
