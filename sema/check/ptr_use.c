/*
 * Where a kernel uses a parameter as a pointer, read from its syntax
 * before it is checked: so that a -s entry giving that parameter a
 * constexpr value (`16` where `*fp32` was meant) is reported at the
 * parameter, not at the load that cannot take an integer. A name is a
 * pointer when it is the pointer operand of gl.load, gl.store or an
 * atomic, or `x.dtype.element_ty`, directly or through names assigned
 * from expressions that mention it (`ptrs = x + offs`) where a pointer can
 * be: an operand of + or -, not of * or a comparison (`x + offs * stride`
 * uses stride as an integer).
 */
#include "sema/check/check.h"

#include <string.h>

typedef VEC(const char *) NameSet;

static bool
has(const NameSet *s, const char *name)
{
	for (size_t i = 0; i < s->len; i++)
		if (s->data[i] == name)
			return true;
	return false;
}

static bool mentions(const Node *e, const NameSet *s);

static bool
mentions_list(const NodeList *l, const NameSet *s)
{
	for (size_t i = 0; i < l->len; i++)
		if (l->data[i] && mentions(l->data[i], s))
			return true;
	return false;
}

/* Whether expression e reads one of the names of s. */
static bool
mentions(const Node *e, const NameSet *s)
{
	switch (e->kind) {
	case N_NAME: return has(s, e->u.name.id);
	case N_UNARY: return mentions(e->u.unary.operand, s);
	case N_BINARY: case N_LOGICAL:
		return mentions(e->u.binary.lhs, s) || mentions(e->u.binary.rhs, s);
	case N_COMPARE: return mentions_list(&e->u.compare.operands, s);
	case N_COND:
		return mentions(e->u.cond.cond, s) || mentions(e->u.cond.then, s) ||
		       mentions(e->u.cond.else_, s);
	case N_CALL:
		return mentions(e->u.call.callee, s) || mentions_list(&e->u.call.args, s) ||
		       mentions_list(&e->u.call.kwargs, s);
	case N_KEYWORD: return mentions(e->u.keyword.value, s);
	case N_ATTR: return mentions(e->u.attr.obj, s);
	case N_SUBSCRIPT: return mentions(e->u.subscript.obj, s);
	case N_TUPLE: case N_LIST: return mentions_list(&e->u.list.items, s);
	case N_STARRED: return mentions(e->u.starred.value, s);
	default: return false;
	}
}

/* Whether expression e (or, with e NULL, an item of l) reads one of the
 * names of s where the value may be a pointer: not under an operator that
 * pointers do not take. */
static bool
mentions_ptr(const Node *e, const NodeList *l, const NameSet *s)
{
	if (!e) {
		for (size_t i = 0; l && i < l->len; i++)
			if (l->data[i] && mentions_ptr(l->data[i], NULL, s))
				return true;
		return false;
	}
	switch (e->kind) {
	case N_BINARY:
		if (e->u.binary.op != BIN_ADD && e->u.binary.op != BIN_SUB)
			return false;
		return mentions_ptr(e->u.binary.lhs, NULL, s) || mentions_ptr(e->u.binary.rhs, NULL, s);
	case N_UNARY: case N_COMPARE: case N_LOGICAL:
		return false;
	case N_COND:
		return mentions_ptr(e->u.cond.then, NULL, s) || mentions_ptr(e->u.cond.else_, NULL, s);
	case N_TUPLE: case N_LIST:
		return mentions_ptr(NULL, &e->u.list.items, s);
	case N_SUBSCRIPT: return mentions_ptr(e->u.subscript.obj, NULL, s);
	default: return mentions(e, s);
	}
}

/* The pointer operand of call when it is gl.load, gl.store or an atomic
 * (a function of the gl namespace, whatever it is imported as). */
static const Node *
pointer_operand(Check *ck, const Node *call)
{
	const Node *c = call->u.call.callee;
	if (c->kind != N_ATTR || c->u.attr.obj->kind != N_NAME)
		return NULL;
	Binding *b = sema_scope_find(ck, c->u.attr.obj->u.name.id);
	const Value *ns = b ? b->v : NULL;
	if (!ns || ns->kind != VAL_BUILTIN || !sema_builtin_is_namespace(ns->u.builtin))
		return NULL;
	const Builtin *f = sema_builtin_lookup(ns->u.builtin, c->u.attr.name);
	BuiltinFn fn = f ? sema_builtin_fn(f) : BF_NONE;
	if (fn != BF_LOAD && fn != BF_STORE && strncmp(c->u.attr.name, "atomic_", 7) != 0)
		return NULL;
	for (size_t i = 0; i < call->u.call.kwargs.len; i++) {
		const Node *k = call->u.call.kwargs.data[i];
		if (strcmp(k->u.keyword.name, "pointer") == 0)
			return k->u.keyword.value;
	}
	return call->u.call.args.len ? call->u.call.args.data[0] : NULL;
}

/* The first pointer use of s's names inside expression e, or NULL. */
static const Node *
use_in(Check *ck, const Node *e, const NameSet *s)
{
	if (!e)
		return NULL;
	if (e->kind == N_CALL) {
		const Node *p = pointer_operand(ck, e);
		if (p && mentions_ptr(p, NULL, s))
			return p;
	}
	if (e->kind == N_ATTR && strcmp(e->u.attr.name, "element_ty") == 0 &&
	    e->u.attr.obj->kind == N_ATTR && strcmp(e->u.attr.obj->u.attr.name, "dtype") == 0 &&
	    mentions(e->u.attr.obj->u.attr.obj, s))
		return e;
	const Node *r = NULL;
	switch (e->kind) {
	case N_UNARY: return use_in(ck, e->u.unary.operand, s);
	case N_BINARY: case N_LOGICAL:
		return (r = use_in(ck, e->u.binary.lhs, s)) ? r : use_in(ck, e->u.binary.rhs, s);
	case N_COND:
		if ((r = use_in(ck, e->u.cond.cond, s)) || (r = use_in(ck, e->u.cond.then, s)))
			return r;
		return use_in(ck, e->u.cond.else_, s);
	case N_CALL:
		for (size_t i = 0; i < e->u.call.args.len && !r; i++)
			r = use_in(ck, e->u.call.args.data[i], s);
		for (size_t i = 0; i < e->u.call.kwargs.len && !r; i++)
			r = use_in(ck, e->u.call.kwargs.data[i]->u.keyword.value, s);
		return r ? r : use_in(ck, e->u.call.callee, s);
	case N_ATTR: return use_in(ck, e->u.attr.obj, s);
	case N_SUBSCRIPT: return use_in(ck, e->u.subscript.obj, s);
	case N_TUPLE: case N_LIST:
		for (size_t i = 0; i < e->u.list.items.len && !r; i++)
			r = use_in(ck, e->u.list.items.data[i], s);
		return r;
	default: return NULL;
	}
}

static void
add_target(Check *ck, const Node *t, NameSet *s, bool *grew)
{
	if (t->kind == N_NAME && !has(s, t->u.name.id)) {
		vec_push(ck->a, s, t->u.name.id);
		*grew = true;
	} else if (t->kind == N_TUPLE || t->kind == N_LIST) {
		for (size_t i = 0; i < t->u.list.items.len; i++)
			add_target(ck, t->u.list.items.data[i], s, grew);
	}
}

/* Walks the statements of body: with find false, adds the targets of
 * assignments from expressions that mention s (*grew when any was new);
 * with find true, returns the first pointer use of s. */
static const Node *
walk(Check *ck, const NodeList *body, NameSet *s, bool find, bool *grew)
{
	for (size_t i = 0; i < body->len; i++) {
		const Node *st = body->data[i], *e = NULL, *r = NULL;
		switch (st->kind) {
		case N_ASSIGN:
			e = st->u.assign.value;
			for (size_t t = 0; !find && t < st->u.assign.targets.len; t++)
				if (mentions_ptr(e, NULL, s))
					add_target(ck, st->u.assign.targets.data[t], s, grew);
			break;
		case N_AUG_ASSIGN: e = st->u.aug.value; break;
		case N_ANN_ASSIGN:
			e = st->u.ann.value;
			if (!find && e && mentions_ptr(e, NULL, s))
				add_target(ck, st->u.ann.target, s, grew);
			break;
		case N_EXPR_STMT: e = st->u.expr_stmt.expr; break;
		case N_RETURN: e = st->u.ret.value; break;
		case N_IF:
			e = st->u.if_.cond;
			if ((r = walk(ck, &st->u.if_.then, s, find, grew)) ||
			    (r = walk(ck, &st->u.if_.else_, s, find, grew)))
				return r;
			break;
		case N_FOR:
			e = st->u.for_.iter;
			if ((r = walk(ck, &st->u.for_.body, s, find, grew)))
				return r;
			break;
		case N_WHILE:
			e = st->u.while_.cond;
			if ((r = walk(ck, &st->u.while_.body, s, find, grew)))
				return r;
			break;
		default:
			break;
		}
		if (find && (r = use_in(ck, e, s)))
			return r;
	}
	return NULL;
}

const Node *
sema_pointer_use(Check *ck, const Node *f, const char *param)
{
	NameSet s = {0};
	vec_push(ck->a, &s, param);
	bool grew = true;
	for (int round = 0; grew && round < 64; round++) {
		grew = false;
		walk(ck, &f->u.func.body, &s, false, &grew);
	}
	return walk(ck, &f->u.func.body, &s, true, &grew);
}
