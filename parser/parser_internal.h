/* The parser's shared state and the helpers the grammar actions call. Not
 * part of the public interface. */
#ifndef PARSER_INTERNAL_H
#define PARSER_INTERNAL_H

#include "lexer/lexer.h"
#include "parser/parser.h"

typedef struct Parser {
	Arena *arena;
	Interner *in;
	const Sources *src;
	Diags *d;
	const Token *toks;    /* from lex_file, ending with TOK_EOF */
	size_t ntoks;
	size_t next;          /* next token to hand to bison */
	size_t last;          /* the token handed out last (the lookahead at an error) */
	bool expr_mode;       /* parse_expression: one expression, no layout tokens */
	bool started;         /* the start token was handed out */
	size_t head, prev_head; /* first token of the current and previous logical line */
	VEC(size_t) opens;    /* indices of the brackets open at `next` */
	size_t closed;        /* the bracket that the last closing token closed,
	                         (size_t)-1 when it matched none */
	bool tail_error;      /* the statement list ends with a skipped bad statement */
	bool too_deep;         /* the nesting limit was reported */
	const Diag *pending;   /* lexer diagnostics not yet moved to d */
	Node *result;
} Parser;

/* -- build.c: nodes and checks -------------------------------------------- */

/* A zeroed node of kind k. */
Node *parse_node(Parser *p, NodeKind k, SrcSpan at);
/* A list holding n (0 or 1) first element. */
NodeList parse_list1(Parser *p, Node *first);
/* Appends every element of src to *dst. */
void parse_append(Parser *p, NodeList *dst, const NodeList *src);
/* Deepest expression nesting the parser accepts. */
#define PARSE_MAX_NEST 2000
/* Records that child hangs below n; reports (once) an expression nested
 * deeper than PARSE_MAX_NEST. */
void parse_nest(Parser *p, Node *n, const Node *child);
Node *parse_binary(Parser *p, NodeKind k, BinOp op, Node *l, Node *r, SrcSpan at);
Node *parse_unary(Parser *p, UnOp op, Node *x, SrcSpan at);
Node *parse_tuple(Parser *p, NodeKind k, NodeList items, SrcSpan at);
/* Adds a positional or keyword (N_KEYWORD) argument to call node c. */
void parse_add_arg(Parser *p, Node *c, Node *arg);
/* Adds parameter prm to function f, checking default order and duplicates. */
void parse_add_param(Parser *p, Node *f, Node *prm);
/* Reports an error unless t can be assigned to. */
void parse_check_target(Parser *p, const Node *t);
/* The same for statements that take one target (`x += 1`, `x: T = v`);
 * `what` names the statement. */
void parse_check_single_target(Parser *p, const Node *t, const char *what);
/* Host Python statement `what` (with, try, raise, ...), see N_HOST. */
Node *parse_host(Parser *p, const char *what, Node *value, SrcSpan at);
/* A parameter `name[: annot][= dflt]`. */
Node *parse_param(Parser *p, const Token *name, Node *annot, Node *dflt, SrcSpan at);
/* `*name`, `**name` (star 2) or a bare `*` (name NULL) parameter. */
Node *parse_star_param(Parser *p, const Token *name, int star, Node *annot, SrcSpan at);
/* `lambda params: value` as an N_LAMBDA whose body returns value. */
Node *parse_lambda(Parser *p, NodeList params, Node *value, SrcSpan at);
Node *parse_comp_for(Parser *p, Node *target, Node *iter, SrcSpan at);
Node *parse_comp(Parser *p, CompKind k, Node *key, Node *elt, NodeList fors, SrcSpan at);
Node *parse_starred(Parser *p, Node *value, bool dbl, SrcSpan at);
/* A dict display from dict_item nodes (pairs as 2-tuples, N_STARRED). */
Node *parse_dict(Parser *p, NodeList items, SrcSpan at);
/* The interned dotted name a.b followed by .c. */
const char *parse_dotted(Parser *p, const char *a, const char *b);

/* -- literal.c: literal values --------------------------------------------- */

Node *parse_int_literal(Parser *p, const Token *t);
Node *parse_float_literal(Parser *p, const Token *t);
/* The decoded string of t appended to node s (NULL: a new node). */
Node *parse_string_literal(Parser *p, Node *s, const Token *t, SrcSpan at);

/* -- syntax_error.c --------------------------------------------------------- */

/* Reports the syntax error at the lookahead token p->last, given the token
 * kinds the grammar expected there (n of them). */
void parse_syntax_error(Parser *p, const TokKind *expected, int n);

/* -- parse.c ---------------------------------------------------------------- */

/* Hands bison the next token (tokens are mapped to grammar symbols). */
void parse_next_token(Parser *p, const Token **tok, SrcSpan *at);

#endif
