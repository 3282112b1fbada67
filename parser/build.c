/* Node construction and the checks that grammar actions make. */
#include "parser/parser_internal.h"

#include <string.h>

Node *
parse_node(Parser *p, NodeKind k, SrcSpan at)
{
	Node *n = arena_alloc(p->arena, sizeof *n);
	n->kind = k;
	n->span = at;
	return n;
}

NodeList
parse_list1(Parser *p, Node *first)
{
	NodeList l = {0};
	if (first)
		vec_push(p->arena, &l, first);
	return l;
}

void
parse_append(Parser *p, NodeList *dst, const NodeList *src)
{
	for (size_t i = 0; i < src->len; i++)
		vec_push(p->arena, dst, src->data[i]);
}

void
parse_nest(Parser *p, Node *n, const Node *child)
{
	if (!child || child->nest + 1 <= n->nest)
		return;
	n->nest = child->nest + 1;
	if (n->nest > PARSE_MAX_NEST && !p->too_deep) {
		p->too_deep = true;
		diag_error(p->d, n->span, "expression is nested too deeply (more than %d levels)",
		           PARSE_MAX_NEST);
	}
}

Node *
parse_binary(Parser *p, NodeKind k, BinOp op, Node *l, Node *r, SrcSpan at)
{
	Node *n = parse_node(p, k, at);
	n->u.binary.op = op;
	n->u.binary.lhs = l;
	n->u.binary.rhs = r;
	parse_nest(p, n, l);
	parse_nest(p, n, r);
	return n;
}

Node *
parse_unary(Parser *p, UnOp op, Node *x, SrcSpan at)
{
	Node *n = parse_node(p, N_UNARY, at);
	n->u.unary.op = op;
	n->u.unary.operand = x;
	parse_nest(p, n, x);
	return n;
}

Node *
parse_tuple(Parser *p, NodeKind k, NodeList items, SrcSpan at)
{
	Node *n = parse_node(p, k, at);
	n->u.list.items = items;
	for (size_t i = 0; i < items.len; i++)
		parse_nest(p, n, items.data[i]);
	return n;
}

void
parse_add_arg(Parser *p, Node *c, Node *arg)
{
	parse_nest(p, c, arg);
	if (arg->kind != N_KEYWORD) {
		if (c->u.call.kwargs.len && arg->kind != N_STARRED)
			diag_error(p->d, arg->span, "positional argument follows keyword argument");
		vec_push(p->arena, &c->u.call.args, arg);
		return;
	}
	for (size_t i = 0; i < c->u.call.kwargs.len; i++) {
		const Node *k = c->u.call.kwargs.data[i];
		if (k->u.keyword.name == arg->u.keyword.name) {
			Diag *g = diag_error(p->d, arg->span, "keyword argument '%s' repeated",
			                     arg->u.keyword.name);
			diag_note(p->d, g, k->span, "first given here");
			break;
		}
	}
	vec_push(p->arena, &c->u.call.kwargs, arg);
}

void
parse_add_param(Parser *p, Node *f, Node *prm)
{
	NodeList *ps = &f->u.func.params;
	if (!prm)
		return;   /* `/`: positional-only parameters end here */
	bool after_star = false;
	for (size_t i = 0; i < ps->len; i++)
		after_star |= ps->data[i]->u.param.star != 0;
	for (size_t i = 0; i < ps->len && !prm->u.param.star; i++) {
		if (ps->data[i]->u.param.name == prm->u.param.name) {
			Diag *g = diag_error(p->d, prm->span, "duplicate parameter '%s'",
			                     prm->u.param.name);
			diag_note(p->d, g, ps->data[i]->span, "'%s' first declared here",
			          prm->u.param.name);
			break;
		}
	}
	if (!prm->u.param.dflt && !prm->u.param.star && !after_star && ps->len &&
	    ps->data[ps->len - 1]->u.param.dflt)
		diag_error(p->d, prm->span, "parameter '%s' without a default follows a "
		           "parameter with a default", prm->u.param.name);
	vec_push(p->arena, ps, prm);
}

/* What kind of expression t is, for "cannot assign to ...". */
static const char *
describe(const Node *t)
{
	switch (t->kind) {
	case N_CALL: return "a function call";
	case N_INT: case N_FLOAT: case N_STRING: case N_BOOL: case N_NONE:
		return "a literal";
	case N_COMPARE: return "a comparison";
	case N_COND: return "a conditional expression";
	case N_SLICE: return "a slice";
	default: return "an expression";
	}
}

void
parse_check_target(Parser *p, const Node *t)
{
	switch (t->kind) {
	case N_NAME: case N_ATTR: case N_SUBSCRIPT:
		return;
	case N_STARRED:
		parse_check_target(p, t->u.starred.value);
		return;
	case N_TUPLE: case N_LIST:
		for (size_t i = 0; i < t->u.list.items.len; i++)
			parse_check_target(p, t->u.list.items.data[i]);
		if (t->u.list.items.len == 0)
			diag_error(p->d, t->span, "cannot assign to an empty %s",
			           t->kind == N_TUPLE ? "tuple" : "list");
		return;
	default:
		diag_error(p->d, t->span, "cannot assign to %s", describe(t));
	}
}

void
parse_check_single_target(Parser *p, const Node *t, const char *what)
{
	if (t->kind == N_TUPLE || t->kind == N_LIST)
		diag_error(p->d, t->span, "%s needs a single target, not a %s", what,
		           t->kind == N_TUPLE ? "tuple" : "list");
	else
		parse_check_target(p, t);
}

const char *
parse_dotted(Parser *p, const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	char *s = arena_alloc(p->arena, na + nb + 2);
	memcpy(s, a, na);
	s[na] = '.';
	memcpy(s + na + 1, b, nb);
	return intern(p->in, s, na + nb + 1);
}

Node *
parse_host(Parser *p, const char *what, Node *value, SrcSpan at)
{
	Node *n = parse_node(p, N_HOST, at);
	n->u.host.what = what;
	n->u.host.value = value;
	return n;
}

Node *
parse_param(Parser *p, const Token *name, Node *annot, Node *dflt, SrcSpan at)
{
	Node *n = parse_node(p, N_PARAM, at);
	n->u.param.name = name->text;
	n->u.param.annot = annot;
	n->u.param.dflt = dflt;
	return n;
}

Node *
parse_star_param(Parser *p, const Token *name, int star, Node *annot, SrcSpan at)
{
	Node *n = parse_node(p, N_PARAM, at);
	n->u.param.name = name ? name->text : intern(p->in, "*", 1);
	n->u.param.star = star;
	n->u.param.annot = annot;
	return n;
}

Node *
parse_lambda(Parser *p, NodeList params, Node *value, SrcSpan at)
{
	Node *f = parse_node(p, N_LAMBDA, at);
	f->u.func.name = intern(p->in, "<lambda>", 8);
	for (size_t i = 0; i < params.len; i++)
		parse_add_param(p, f, params.data[i]);
	Node *r = parse_node(p, N_RETURN, value->span);
	r->u.ret.value = value;
	vec_push(p->arena, &f->u.func.body, r);
	parse_nest(p, f, value);
	return f;
}

Node *
parse_comp_for(Parser *p, Node *target, Node *iter, SrcSpan at)
{
	parse_check_target(p, target);
	Node *n = parse_node(p, N_COMP_FOR, at);
	n->u.comp_for.target = target;
	n->u.comp_for.iter = iter;
	return n;
}

Node *
parse_comp(Parser *p, CompKind k, Node *key, Node *elt, NodeList fors, SrcSpan at)
{
	Node *n = parse_node(p, N_COMP, at);
	n->u.comp.kind = k;
	n->u.comp.key = key;
	n->u.comp.elt = elt;
	n->u.comp.fors = fors;
	parse_nest(p, n, elt);
	parse_nest(p, n, key);
	return n;
}

Node *
parse_starred(Parser *p, Node *value, bool dbl, SrcSpan at)
{
	Node *n = parse_node(p, N_STARRED, at);
	n->u.starred.value = value;
	n->u.starred.dbl = dbl;
	parse_nest(p, n, value);
	return n;
}

Node *
parse_dict(Parser *p, NodeList items, SrcSpan at)
{
	Node *n = parse_node(p, N_DICT, at);
	for (size_t i = 0; i < items.len; i++) {
		Node *it = items.data[i];
		bool pair = it->kind == N_TUPLE;
		vec_push(p->arena, &n->u.dict.keys, pair ? it->u.list.items.data[0] : NULL);
		vec_push(p->arena, &n->u.dict.values, pair ? it->u.list.items.data[1]
		                                           : it->u.starred.value);
		parse_nest(p, n, pair ? it->u.list.items.data[1] : it);
	}
	return n;
}
