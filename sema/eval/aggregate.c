/*
 * @aggregate classes (Triton's `_aggregate`): annotated fields, an
 * __init__ (a @constexpr_function, or plain fields in order), @gluon.jit
 * methods and static methods. An instance is a tuple of its fields that
 * knows its class, so it is passed to and returned from functions and
 * carried through loops as tuples are: aggregates lower to their fields.
 */
#include "sema/eval/eval.h"

#include <string.h>

/* A new class for c whose names are those of scope m. */
static const SemaClass *
new_class(Check *ck, const Node *c, SemaModule *m)
{
	if (!sema_has_decorator(ck, m, &c->u.class_.decorators, BF_AGGREGATE))
		return NULL;
	SemaClass *cls = arena_alloc(ck->a, sizeof *cls);
	cls->name = c->u.class_.name;
	cls->node = c;
	cls->mod = m;
	VEC(const char *) fields = {0};
	for (size_t i = 0; i < c->u.class_.body.len; i++) {
		const Node *s = c->u.class_.body.data[i];
		if (s->kind == N_ANN_ASSIGN && !s->u.ann.value && s->u.ann.target->kind == N_NAME)
			vec_push(ck->a, &fields, s->u.ann.target->u.name.id);
	}
	cls->fields = fields.data;
	cls->n_fields = fields.len;
	vec_push(ck->a, &ck->classes, cls);
	return cls;
}

const SemaClass *
sema_class_of(Check *ck, const Node *c)
{
	for (size_t i = 0; i < ck->classes.len; i++)
		if (ck->classes.data[i]->node == c)
			return ck->classes.data[i];
	return new_class(ck, c, sema_module_of(ck, c));
}

const SemaClass *
sema_class_in_frame(Check *ck, const Node *c)
{
	return new_class(ck, c, sema_frame_scope(ck, c));
}

/* The def called name in the body of cls, or NULL. */
static const Node *
member_def(const SemaClass *cls, const char *name)
{
	const NodeList *body = &cls->node->u.class_.body;
	for (size_t i = 0; i < body->len; i++) {
		const Node *s = body->data[i];
		if (s->kind == N_FUNC && strcmp(s->u.func.name, name) == 0)
			return s;
	}
	return NULL;
}

Value *
sema_construct(Check *ck, const Node *call, const SemaClass *cls)
{
	Value *obj = sema_new_value(&ck->ev, VAL_TUPLE, call->span);
	obj->u.list.cls = cls;
	obj->u.list.n = cls->n_fields;
	obj->u.list.items = arena_alloc(ck->a, (cls->n_fields + 1) * sizeof(Value *));
	const Node *init = member_def(cls, "__init__");
	if (init) {
		if (!sema_check_func_call(ck, call, init, obj))
			return NULL;
	} else {
		const char *names[SEMA_MAX_CALL_ARGS];
		int n = (int)cls->n_fields;
		if (n > SEMA_MAX_CALL_ARGS)
			n = SEMA_MAX_CALL_ARGS;
		for (int i = 0; i < n; i++)
			names[i] = cls->fields[i];
		if (!sema_bind_args(ck, call, cls->name, names, n, obj->u.list.items))
			return NULL;
	}
	for (size_t i = 0; i < cls->n_fields; i++)
		if (!obj->u.list.items[i]) {
			Diag *g = diag_error(ck->d, call->span, "%s's __init__ leaves field '%s' unset",
			                     cls->name, cls->fields[i]);
			diag_note(ck->d, g, cls->node->span, "'%s' is declared here", cls->name);
			return NULL;
		}
	return obj;
}

Value *
sema_aggregate_attr(Check *ck, const Node *n, Value *obj)
{
	const char *name = n->u.attr.name;
	const SemaClass *cls = obj->kind == VAL_CLASS ? obj->u.cls : obj->u.list.cls;
	if (obj->kind == VAL_TUPLE)
		for (size_t i = 0; i < cls->n_fields; i++)
			if (cls->fields[i] == name)
				return obj->u.list.items[i];
	const Node *def = member_def(cls, name);
	if (def && obj->kind == VAL_TUPLE) {
		Value *m = sema_new_value(&ck->ev, VAL_METHOD, n->span);
		m->u.method.self = obj;
		m->u.method.name = name;
		m->u.method.name_span = n->u.attr.name_span;
		return m;
	}
	if (def) {
		Value *f = sema_new_value(&ck->ev, VAL_FUNC, n->span);
		f->u.func = def;
		return f;
	}
	const char *names[64];
	size_t k = 0;
	for (size_t i = 0; i < cls->n_fields && k < 64; i++)
		names[k++] = cls->fields[i];
	Diag *g = diag_error(ck->d, n->u.attr.name_span, "%s has no field or method '%s'",
	                     cls->name, name);
	const char *s = diag_suggest(name, names, k);
	if (s)
		diag_note(ck->d, g, (SrcSpan){0}, "did you mean '%s'?", s);
	return NULL;
}

Value *
sema_aggregate_method_call(Check *ck, const Node *call, Value *m)
{
	Value *self = m->u.method.self;
	const Node *def = member_def(self->u.list.cls, m->u.method.name);
	const NodeList *ps = &def->u.func.params;
	bool takes_self = ps->len && strcmp(ps->data[0]->u.param.name, "self") == 0;
	return sema_check_func_call(ck, call, def, takes_self ? self : NULL);
}
