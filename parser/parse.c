/* The entry points: lex, then run the bison parser over the tokens. */
#include "parser/parser_internal.h"

#include "parser/grammar.h"

static bool
is_layout(TokKind k)
{
	return k == TOK_NEWLINE || k == TOK_INDENT || k == TOK_DEDENT;
}

/* Moves the lexer's diagnostics located before `upto` (all when NULL) into
 * the caller's sink, so that lexical and syntax errors come in source order. */
static void
flush_lex_diags(Parser *p, const SrcSpan *upto)
{
	for (; p->pending; p->pending = p->pending->next) {
		const Diag *g = p->pending;
		if (upto && (g->at.line > upto->line ||
		             (g->at.line == upto->line && g->at.col > upto->col)))
			return;
		Diag *c = diag_error(p->d, g->at, "%s", g->msg);
		for (const Diag *n = g->notes; n; n = n->next)
			diag_note(p->d, c, n->at, "%s", n->msg);
	}
}

void
parse_next_token(Parser *p, const Token **tok, SrcSpan *at)
{
	if (p->expr_mode)
		while (p->next + 1 < p->ntoks && is_layout(p->toks[p->next].kind))
			p->next++;
	size_t i = p->next;
	const Token *t = &p->toks[i];
	if (t->kind != TOK_EOF)
		p->next++;
	if (i == 0 || is_layout(p->toks[i - 1].kind)) {
		if (!is_layout(t->kind) && i != p->head) {
			p->prev_head = p->head;
			p->head = i;
		}
	}
	flush_lex_diags(p, &t->span);
	switch (t->kind) {
	case TOK_NEWLINE:
		p->opens.len = 0;
		break;
	case TOK_LPAREN: case TOK_LBRACKET: case TOK_LBRACE:
		vec_push(p->arena, &p->opens, i);
		break;
	case TOK_RPAREN: case TOK_RBRACKET: case TOK_RBRACE:
		p->closed = p->opens.len ? p->opens.data[--p->opens.len] : (size_t)-1;
		break;
	default:
		break;
	}
	p->last = i;
	*tok = t;
	*at = t->span;
}

static Node *
run(Arena *a, Interner *in, const Sources *src, uint32_t file, Diags *d, const Limits *lim,
    bool expr)
{
	TokenList toks = {0};
	Diags lexd;
	diag_init(&lexd, a, src);
	lex_file(a, in, src, file, &lexd, lim, &toks);
	Parser p = {0};
	p.pending = lexd.first;
	p.arena = a;
	p.in = in;
	p.src = src;
	p.d = d;
	p.toks = toks.data;
	p.ntoks = toks.len;
	p.expr_mode = expr;
	p.head = p.prev_head = p.closed = (size_t)-1;
	int errors = d->errors;
	int status = parse_yyparse(&p);
	flush_lex_diags(&p, NULL);
	if (status != 0 || (expr && d->errors != errors))
		return NULL;
	return p.result;
}

Node *
parse_module(Arena *a, Interner *in, const Sources *src, uint32_t file, Diags *d,
             const Limits *lim)
{
	return run(a, in, src, file, d, lim, false);
}

Node *
parse_expression(Arena *a, Interner *in, const Sources *src, uint32_t file, Diags *d)
{
	return run(a, in, src, file, d, NULL, true);
}
