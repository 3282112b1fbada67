/* The entry points: lex, then run the bison parser over the tokens. */
#include "parser/parser_internal.h"

#include "parser/grammar.h"

static bool
is_layout(TokKind k)
{
	return k == TOK_NEWLINE || k == TOK_INDENT || k == TOK_DEDENT;
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
	switch (t->kind) {
	case TOK_LPAREN: case TOK_LBRACKET: case TOK_LBRACE:
		vec_push(p->arena, &p->opens, i);
		break;
	case TOK_RPAREN: case TOK_RBRACKET: case TOK_RBRACE:
		if (p->opens.len)
			p->opens.len--;
		break;
	default:
		break;
	}
	p->last = i;
	*tok = t;
	*at = t->span;
}

static Node *
run(Arena *a, Interner *in, const Sources *src, uint32_t file, Diags *d, bool expr)
{
	TokenList toks = {0};
	lex_file(a, in, src, file, d, &toks);
	Parser p = {0};
	p.arena = a;
	p.in = in;
	p.src = src;
	p.d = d;
	p.toks = toks.data;
	p.ntoks = toks.len;
	p.expr_mode = expr;
	p.head = p.prev_head = (size_t)-1;
	int errors = d->errors;
	if (parse_yyparse(&p) != 0)
		return NULL;
	if (expr && d->errors != errors)
		return NULL;
	return p.result;
}

Node *
parse_module(Arena *a, Interner *in, const Sources *src, uint32_t file, Diags *d)
{
	return run(a, in, src, file, d, false);
}

Node *
parse_expression(Arena *a, Interner *in, const Sources *src, uint32_t file, Diags *d)
{
	return run(a, in, src, file, d, true);
}
