/*
 * Syntax error messages in plain words: what was found, what was expected,
 * with the statement or bracket that gives the context ("expected ':' after
 * the condition of 'if'", "closing ']' does not match '(' opened at 3:10",
 * "unexpected indent"). Errors at a token the lexer already reported are not
 * repeated.
 */
#include "parser/parser_internal.h"

#include <string.h>

static bool
has(const TokKind *exp, int n, TokKind k)
{
	for (int i = 0; i < n; i++)
		if (exp[i] == k)
			return true;
	return false;
}

static bool
starts_expression(TokKind k)
{
	switch (k) {
	case TOK_NAME: case TOK_INT: case TOK_FLOAT: case TOK_STRING: case TOK_NONE:
	case TOK_TRUE: case TOK_FALSE: case TOK_LPAREN: case TOK_LBRACKET:
	case TOK_MINUS: case TOK_PLUS: case TOK_TILDE: case TOK_NOT: case TOK_LBRACE:
	case TOK_LAMBDA: case TOK_ELLIPSIS: case TOK_STAR: case TOK_STARSTAR:
		return true;
	default:
		return false;
	}
}

/* "end of line", "identifier 'x'", "'+'" */
static const char *
found(Parser *p, const Token *t)
{
	switch (t->kind) {
	case TOK_NEWLINE: return "end of line";
	case TOK_EOF: return "end of file";
	case TOK_DEDENT: return "end of block";
	case TOK_INDENT: return "an indented block";
	case TOK_NAME: return arena_printf(p->arena, "identifier '%s'",
	                                   diag_quote(p->arena, t->text, strlen(t->text)));
	case TOK_INT: case TOK_FLOAT:
		return arena_printf(p->arena, "number %s", diag_quote(p->arena, t->text,
		                                                       strlen(t->text)));
	case TOK_STRING: return "a string";
	default: return arena_printf(p->arena, "'%s'", lex_kind_spelling(t->kind));
	}
}

static const char *
expected_name(Parser *p, TokKind k)
{
	switch (k) {
	case TOK_NEWLINE: return "end of line";
	case TOK_EOF: return "end of file";
	case TOK_DEDENT: return "end of block";
	case TOK_INDENT: return "an indented block";
	case TOK_NAME: return "an identifier";
	case TOK_INT: case TOK_FLOAT: return "a number";
	case TOK_STRING: return "a string";
	default: return arena_printf(p->arena, "'%s'", lex_kind_spelling(k));
	}
}

static TokKind
closer_of(TokKind open)
{
	return open == TOK_LPAREN ? TOK_RPAREN : open == TOK_LBRACKET ? TOK_RBRACKET
	                                                               : TOK_RBRACE;
}

/* Errors about closing brackets: unmatched or mismatched. (Brackets left
 * open are the lexer's to report.) True when one was reported. */
static bool
bracket_error(Parser *p, const Token *t, const TokKind *exp, int n)
{
	if (t->kind != TOK_RPAREN && t->kind != TOK_RBRACKET && t->kind != TOK_RBRACE)
		return false;
	if (p->closed == (size_t)-1) {
		diag_error(p->d, t->span, "unmatched '%s'", lex_kind_spelling(t->kind));
		return true;
	}
	const Token *o = &p->toks[p->closed];
	if (t->kind == closer_of(o->kind) || has(exp, n, t->kind))
		return false;
	Diag *g = diag_error(p->d, t->span, "closing '%s' does not match '%s' opened at %u:%u",
	                     lex_kind_spelling(t->kind), lex_kind_spelling(o->kind),
	                     o->span.line, o->span.col);
	diag_note(p->d, g, o->span, "'%s' opened here", lex_kind_spelling(o->kind));
	return true;
}

/* The header keyword of the statement being parsed, or TOK_EOF. When the
 * lookahead starts a new line, the statement is the previous line's. */
static const Token *
header(const Parser *p)
{
	size_t h = p->head == p->last ? p->prev_head : p->head;
	return h < p->ntoks ? &p->toks[h] : NULL;
}

/* Errors about compound statements: a missing ':' or indented block. */
static bool
header_error(Parser *p, const Token *t, const TokKind *exp, int n)
{
	const Token *h = header(p);
	if (!h)
		return false;
	const char *kw = lex_kind_spelling(h->kind);
	if (n == 1 && exp[0] == TOK_INDENT) {
		if (h->kind == TOK_AT)
			kw = "def";
		diag_error(p->d, t->span, "expected an indented block after '%s' on line %u",
		           kw, h->span.line);
		return true;
	}
	if (h->kind == TOK_FOR && has(exp, n, TOK_IN) && !has(exp, n, TOK_COLON)) {
		diag_error(p->d, t->span, "expected 'in' after the target of 'for', found %s",
		           found(p, t));
		return true;
	}
	if (!has(exp, n, TOK_COLON) || p->opens.len)
		return false;
	switch (h->kind) {
	case TOK_IF: case TOK_ELIF: case TOK_WHILE:
		diag_error(p->d, t->span, "expected ':' after the condition of '%s'", kw);
		return true;
	case TOK_FOR:
		diag_error(p->d, t->span, "expected ':' after the iterable of 'for'");
		return true;
	case TOK_DEF: case TOK_AT:
		diag_error(p->d, t->span, "expected ':' after the signature of 'def'");
		return true;
	case TOK_ELSE:
		diag_error(p->d, t->span, "expected ':' after 'else'");
		return true;
	default:
		return false;
	}
}

/* "A", "A or B", "A, B or C" */
static const char *
join_or(Parser *p, const char **items, int n)
{
	StrBuf b = {0};
	for (int i = 0; i < n; i++) {
		if (i)
			buf_puts(&b, i == n - 1 ? " or " : ", ");
		buf_puts(&b, items[i]);
	}
	const char *s = arena_strndup(p->arena, b.s ? b.s : "", b.len);
	buf_free(&b);
	return s;
}

void
parse_syntax_error(Parser *p, const TokKind *exp, int n)
{
	const Token *t = &p->toks[p->last];
	if (t->flags & TOKF_BAD)
		return;
	if (t->kind == TOK_INDENT) {
		diag_error(p->d, t->span, "unexpected indent");
		return;
	}
	if (bracket_error(p, t, exp, n) || header_error(p, t, exp, n))
		return;
	if ((t->kind == TOK_ELSE || t->kind == TOK_ELIF) && p->head == p->last) {
		diag_error(p->d, t->span, "'%s' without a matching 'if'",
		           lex_kind_spelling(t->kind));
		return;
	}
	const char *items[8];
	int m = 0;
	bool expr = has(exp, n, TOK_NAME) && has(exp, n, TOK_INT);
	if (expr)
		items[m++] = "an expression";
	int rest = 0;
	for (int i = 0; i < n; i++)
		rest += !(expr && starts_expression(exp[i]));
	if (rest > 5) {
		/* A point where many operators could continue the expression: name
		 * only the tokens that would end or separate it. */
		if (has(exp, n, TOK_PLUS) && !expr)
			items[m++] = "an operator";
		static const TokKind ends[] = { TOK_COMMA, TOK_RPAREN, TOK_RBRACKET,
		                                TOK_COLON, TOK_ASSIGN, TOK_NEWLINE };
		for (size_t i = 0; i < sizeof ends / sizeof *ends && m < 8; i++)
			if (has(exp, n, ends[i]))
				items[m++] = expected_name(p, ends[i]);
	} else {
		for (int i = 0; i < n && m < 8; i++)
			if (!(expr && starts_expression(exp[i])))
				items[m++] = expected_name(p, exp[i]);
	}
	if (m == 0)
		diag_error(p->d, t->span, "unexpected %s", found(p, t));
	else
		diag_error(p->d, t->span, "expected %s, found %s", join_or(p, items, m),
		           found(p, t));
}
