/*
 * Calls: the arguments of a call bound to parameters (a user function's,
 * or a builtin's from the builtin table), defaults evaluated in the callee's
 * module, @constexpr_function calls run, @gl.jit calls inlined (the checker
 * checks the body through its hook), and compile-time assertions.
 */
#include "sema/eval/eval.h"

#include <string.h>

/* The positional arguments of call from index `from` on, evaluated into a
 * tuple (the value of a '*' parameter); NULL after a diagnostic. */
static Value *
star_tuple(Check *ck, const Node *call, size_t from)
{
	const NodeList *pos = &call->u.call.args;
	Value *t = sema_new_value(&ck->ev, VAL_TUPLE, call->span);
	size_t n = pos->len > from ? pos->len - from : 0;
	t->u.list.items = arena_alloc(ck->a, (n + 1) * sizeof(Value *));
	for (size_t i = 0; i < n; i++)
		if (!(t->u.list.items[t->u.list.n++] = sema_eval_expr(&ck->ev, pos->data[from + i])))
			return NULL;
	return t;
}

bool
sema_bind_args(Check *ck, const Node *call, const char *fname, const char *const *params, int n,
               Value **out)
{
	const NodeList *pos = &call->u.call.args, *kw = &call->u.call.kwargs;
	const Node *nodes[SEMA_MAX_CALL_ARGS] = {0};
	const char *names[SEMA_MAX_CALL_ARGS] = {0};
	bool ok = true;
	int star = -1;
	for (int i = 0; i < n; i++) {
		out[i] = NULL;
		if (params[i][0] == '*')
			star = i;
		const char *p = params[i] + (params[i][0] == '*');
		names[i] = arena_strndup(ck->a, p, strcspn(p, "?"));
	}
	int n_pos = star >= 0 ? star : n;
	if (star < 0 && (int)pos->len > n) {
		if (n == 0)
			diag_error(ck->d, pos->data[0]->span, "%s takes no arguments", fname);
		else
			diag_error(ck->d, pos->data[n]->span, "%s takes at most %d argument%s, but "
			           "%zu were given", fname, n, n == 1 ? "" : "s", pos->len);
		return false;
	}
	for (size_t i = 0; i < pos->len && (int)i < n_pos; i++)
		nodes[i] = pos->data[i];
	for (size_t i = 0; i < kw->len; i++) {
		const Node *k = kw->data[i];
		int p = -1;
		for (int j = 0; j < n; j++)
			if (j != star && strcmp(names[j], k->u.keyword.name) == 0)
				p = j;
		if (p < 0) {
			Diag *g = diag_error(ck->d, k->span, "%s has no parameter '%s'", fname,
			                     k->u.keyword.name);
			const char *s = diag_suggest(k->u.keyword.name, names, (size_t)n);
			if (s)
				diag_note(ck->d, g, (SrcSpan){0}, "did you mean '%s'?", s);
			ok = false;
			continue;
		}
		if (nodes[p]) {
			diag_error(ck->d, k->span, "%s got two values for '%s'", fname, names[p]);
			ok = false;
			continue;
		}
		nodes[p] = k->u.keyword.value;
	}
	for (int i = 0; i < n && ok; i++) {
		if (i == star) {
			ok = (out[i] = star_tuple(ck, call, (size_t)star)) != NULL;
			continue;
		}
		if (!nodes[i]) {
			if (!strchr(params[i], '?')) {
				diag_error(ck->d, call->span, "%s is missing its argument '%s'", fname,
				           params[i]);
				ok = false;
			}
			continue;
		}
		out[i] = sema_eval_expr(&ck->ev, nodes[i]);
		ok &= out[i] != NULL;
	}
	return ok;
}

bool
sema_bind_builtin(Check *ck, const Node *call, const Builtin *b, Value **out)
{
	const char *const *params;
	int n = sema_builtin_params(b, &params);
	return sema_bind_args(ck, call, sema_builtin_qualname(ck->a, b), params, n, out);
}

bool
sema_bind_method(Check *ck, const Node *call, const Builtin *b, Value *self, Value **out)
{
	const char *const *params;
	int n = sema_builtin_params(b, &params);
	out[0] = self;
	return sema_bind_args(ck, call, arena_printf(ck->a, ".%s", sema_builtin_name(b)),
	                      params + 1, n - 1, out + 1);
}

Value *
sema_inline_call(Check *ck, SrcSpan at, const Node *func, Value **args, int n)
{
	if (ck->inline_depth >= MAX_INLINE_DEPTH) {
		diag_error(ck->d, at, "calls nest more than %d deep (is '%s' recursive?)",
		           MAX_INLINE_DEPTH, func->u.func.name);
		return NULL;
	}
	if (!sema_spend(ck, at, LIM_INLINE, &ck->inlined, 1, "this call of '%s' is inlined",
	                func->u.func.name))
		return NULL;
	Frame fr = {.func = func, .call_at = at, .tl = sema_func_is_tl(ck, func), .up = ck->fr};
	Frame *saved = ck->fr;
	SemaModule *saved_mod = ck->mod;
	ck->fr = &fr;
	for (int i = 0; i < n; i++) {
		const Node *p = func->u.func.params.data[i];
		const Node *an = p->u.param.annot;
		bool cx = false;
		if (an) {
			ck->fr = saved;
			Value *t = sema_eval_expr(&ck->ev, an);
			ck->fr = &fr;
			cx = t && t->kind == VAL_BUILTIN && sema_builtin_fn(t->u.builtin) == BF_CONSTEXPR;
		}
		/* Triton's code generator takes a @triton.jit helper's constexprs
		 * from its arguments and ignores the annotation (tutorial 06
		 * passes tensors to `offs_m: tl.constexpr`); Gluon code is held
		 * to it. */
		if (cx && args[i]->kind == VAL_RUNTIME && fr.tl)
			cx = false;
		if (cx && args[i]->kind == VAL_RUNTIME) {
			Diag *g = diag_error(ck->d, args[i]->span, "argument '%s' of %s must be known "
			                     "at compile time, but this is %s", p->u.param.name,
			                     func->u.func.name, sema_type_str(ck, args[i]->u.rt->type));
			diag_note(ck->d, g, p->span, "declared gl.constexpr here");
			ck->fr = saved;
			return NULL;
		}
		sema_scope_bind(ck, p->u.param.name, args[i], cx,
		           args[i]->kind == VAL_RUNTIME ? args[i]->u.rt->layout_at : p->span);
	}
	ck->inline_depth++;
	ck->mod = sema_module_of(ck, func);
	ck->hooks->block(ck, &func->u.func.body);
	ck->mod = saved_mod;
	ck->inline_depth--;
	ck->fr = saved;
	/* A returned expression that failed is NULL (reported already); falling
	 * off the end returns None. */
	return fr.returned ? fr.ret : sema_new_value(&ck->ev, VAL_NONE, at);
}

Value *
sema_check_func_call(Check *ck, const Node *call, const Node *func, Value *self)
{
	FuncKind kind = sema_func_kind(ck, func);
	if (kind == FK_HOST && ck->host)
		kind = FK_CONSTEXPR;   /* a -s entry calls it: host code, run at compile time */
	const Value *deco = kind == FK_HOST ? sema_unsupported_decorator(ck, func) : NULL;
	if (deco) {
		Diag *g = diag_error(ck->d, call->span, "'%s' is decorated with %s, which is not "
		                     "supported by glc: %s", func->u.func.name, deco->u.host.what,
		                     deco->u.host.reason);
		diag_note(ck->d, g, func->span, "'%s' is defined here", func->u.func.name);
		return NULL;
	}
	if (kind == FK_HOST) {
		Diag *g = diag_error(ck->d, call->span, "'%s' is host Python (it is not "
		                     "@gluon.jit or @constexpr_function); glc does not run it",
		                     func->u.func.name);
		diag_note(ck->d, g, func->span, "'%s' is defined here", func->u.func.name);
		return NULL;
	}
	if (kind == FK_JIT && !ck->k) {
		diag_error(ck->d, call->span, "'%s' can only be called inside a kernel",
		           func->u.func.name);
		return NULL;
	}
	const NodeList *ps = &func->u.func.params;
	int n = (int)ps->len, skip = self != NULL;
	if (n > SEMA_MAX_CALL_ARGS || n < skip) {
		diag_error(ck->d, call->span, "'%s' has %s parameters", func->u.func.name,
		           n < skip ? "no 'self' among its" : "too many");
		return NULL;
	}
	const char *names[SEMA_MAX_CALL_ARGS] = {0};
	for (int i = skip; i < n; i++) {
		const Node *p = ps->data[i];
		if (p->u.param.star) {
			diag_error(ck->d, p->span, "'%s': star parameters are not supported in "
			           "kernels and compile-time functions", func->u.func.name);
			return NULL;
		}
		names[i - skip] = p->u.param.dflt ? arena_printf(ck->a, "%s?", p->u.param.name)
		                                  : p->u.param.name;
	}
	Value *args[SEMA_MAX_CALL_ARGS];
	if (!sema_bind_args(ck, call, func->u.func.name, names, n - skip, args + skip))
		return NULL;
	if (self)
		args[0] = self;
	SemaModule *saved = ck->mod;
	Frame *saved_fr = ck->fr;
	for (int i = skip; i < n; i++) {
		if (args[i])
			continue;
		/* defaults are evaluated in the function's module */
		ck->mod = sema_module_of(ck, func);
		ck->fr = NULL;
		args[i] = sema_eval_expr(&ck->ev, ps->data[i]->u.param.dflt);
		ck->mod = saved;
		ck->fr = saved_fr;
		if (!args[i])
			return NULL;
	}
	if (kind == FK_CONSTEXPR)
		return sema_run_constexpr_fn(ck, call->span, func, args, n);
	return sema_inline_call(ck, call->span, func, args, n);
}

bool
sema_assert_now(Check *ck, SrcSpan at, const Value *cond, const Value *msg, const char *what)
{
	bool t;
	if (!sema_value_truth(&ck->ev, cond, &t))
		return false;
	if (t)
		return true;
	if (msg && msg->kind == VAL_STR)
		diag_error(ck->d, at, "%s failed: %.*s", what, (int)msg->u.str.len, msg->u.str.s);
	else
		diag_error(ck->d, at, "%s failed", what);
	return false;
}
