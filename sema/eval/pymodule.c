/*
 * The top level of a Gluon .py file: imports resolve to glc's builtin
 * namespaces, to other Gluon files (read through the driver's import
 * callback) or to host Python; defs and @aggregate classes are bound;
 * other module-level assignments are evaluated only when a kernel reads
 * them. Host code (plain defs, classes, `if __name__ == ...`, statements)
 * is never checked.
 */
#include "sema/eval/eval.h"

#include <string.h>

/* Import paths of Triton and Gluon, and the builtin namespace each is. */
static const struct { const char *path, *ns; } known[] = {
	{"triton", "triton"},
	{"triton.language", "gl"},
	{"triton.language.core", "core"},
	{"triton.experimental", "experimental"},
	{"triton.experimental.gluon", "gluon"},
	{"triton.experimental.gluon.language", "gl"},
	{"triton.experimental.gluon.language._core", "gl"},
	{"triton.experimental.gluon.language._layouts", "gl"},
	{"triton.experimental.gluon.language._standard", "gl"},
	{"triton.experimental.gluon.language._math", "gl"},
	{"triton.experimental.gluon.language.nvidia.hopper", "hopper"},
	{"triton.experimental.gluon.language.nvidia.hopper.tma", "tma"},
	{"triton.experimental.gluon.language.nvidia.hopper.mbarrier", "mbarrier"},
	{"triton.experimental.gluon.language.nvidia.ampere", "ampere"},
	{"triton.experimental.gluon.language.nvidia.ampere.mbarrier", "mbarrier"},
	{"triton.experimental.gluon.language.nvidia.ampere.async_copy", "async_copy"},
	{"triton.experimental.gluon.language.nvidia.hopper.async_copy", "async_copy"},
	{"triton.experimental.gluon.language.extra.libdevice", "libdevice"},
	{"triton.language.extra.libdevice", "libdevice"},
};

static Value *
ns_value(Check *ck, const char *ns, SrcSpan at)
{
	Value *v = sema_new_value(&ck->ev, VAL_BUILTIN, at);
	v->u.builtin = sema_builtin_namespace(ns);
	return v;
}

static Value *
host_value(Check *ck, const char *what, SrcSpan at)
{
	Value *v = sema_new_value(&ck->ev, VAL_HOST, at);
	v->u.host.what = what;
	v->u.host.at = at;
	v->u.host.reason = NULL;
	return v;
}

void
sema_host_error(Check *ck, SrcSpan at, const Value *v)
{
	Diag *g = v->u.host.reason
	        ? diag_error(ck->d, at, "%s is not supported by glc: %s", v->u.host.what,
	                     v->u.host.reason)
	        : diag_error(ck->d, at, "%s is host Python; glc compiles only @gluon.jit "
	                     "and @constexpr_function code and what it reaches", v->u.host.what);
	diag_note(ck->d, g, v->u.host.at, "defined here");
}

/* A Gluon file imported by name: read once, bound, cached. */
static SemaModule *
load_module(Check *ck, const char *name)
{
	for (SemaModule *m = ck->modules; m; m = m->next)
		if (strcmp(m->name, name) == 0)
			return m;
	if (!ck->gluon || !ck->gluon->import)
		return NULL;
	uint32_t file = 0;
	const char *from = src_path(ck->src, ck->mod->file);
	const Node *ast = ck->gluon->import(ck->gluon->import_ctx, name, from, &file);
	if (!ast)
		return NULL;
	SemaModule *m = arena_alloc(ck->a, sizeof *m);
	*m = (SemaModule){.name = name, .ast = ast, .file = file, .python = true};
	SemaModule *last = ck->modules;
	while (last->next)
		last = last->next;
	last->next = m;
	SemaModule *saved = ck->mod;
	Frame *saved_fr = ck->fr;
	ck->mod = m;
	ck->fr = NULL;
	sema_module_bind(ck, m);
	ck->mod = saved;
	ck->fr = saved_fr;
	return m;
}

/* The value an import path names: a namespace, a Gluon file, or host. */
static Value *
resolve_path(Check *ck, const char *path, SrcSpan at)
{
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (strcmp(known[i].path, path) == 0)
			return ns_value(ck, known[i].ns, at);
	if (strncmp(path, "triton", 6) != 0) {
		SemaModule *m = load_module(ck, path);
		if (m) {
			Value *v = sema_new_value(&ck->ev, VAL_MODULE, at);
			v->u.mod = m;
			return v;
		}
	}
	return host_value(ck, arena_printf(ck->a, "module '%s'", path), at);
}

/* `from path import name`: a member of a namespace or module, or host. */
static Value *
resolve_member(Check *ck, const char *path, const char *name, SrcSpan at)
{
	const char *full = arena_printf(ck->a, "%s.%s", path, name);
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (strcmp(known[i].path, full) == 0)
			return ns_value(ck, known[i].ns, at);
	Value *mod = resolve_path(ck, path, at);
	if (mod->kind == VAL_BUILTIN) {
		const Builtin *b = sema_builtin_lookup(mod->u.builtin, name);
		if (b && sema_builtin_dtype(b) != DT_VOID) {
			Value *v = sema_new_value(&ck->ev, VAL_DTYPE, at);
			v->u.dtype = sema_builtin_dtype(b);
			return v;
		}
		if (b) {
			Value *v = sema_new_value(&ck->ev, VAL_BUILTIN, at);
			v->u.builtin = b;
			return v;
		}
	} else if (mod->kind == VAL_MODULE) {
		SemaModule *saved = ck->mod;
		ck->mod = mod->u.mod;
		Binding *b = sema_local_find(ck, intern(ck->in, name, strlen(name)));
		Value *v = b ? (b->v && b->v->kind == VAL_LAZY ? sema_force_lazy(ck, b) : b->v) : NULL;
		ck->mod = saved;
		if (v)
			return v;
	} else {
		full = arena_printf(ck->a, "module '%s'", full);
		return host_value(ck, full, at);
	}
	Value *h = host_value(ck, arena_printf(ck->a, "'%s' (from %s)", name, path), at);
	if (mod->kind == VAL_BUILTIN)
		h->u.host.reason = sema_unsupported_reason(sema_builtin_name(mod->u.builtin), name);
	return h;
}

static void
bind_import(Check *ck, const Node *s)
{
	for (size_t i = 0; i < s->u.import.names.len; i++) {
		const Node *al = s->u.import.names.data[i];
		const char *name = al->u.alias.name, *as = al->u.alias.as;
		Value *v;
		if (s->u.import.from) {
			v = resolve_member(ck, s->u.import.from, name, al->span);
		} else if (as) {
			v = resolve_path(ck, name, al->span);
		} else {
			/* `import a.b.c` binds a */
			size_t n = strcspn(name, ".");
			as = intern(ck->in, name, n);
			v = resolve_path(ck, as, al->span);
		}
		sema_scope_bind(ck, as ? as : name, v, false, al->span);
	}
}

/* `name = importlib.import_module("file")`: the Gluon file, when the
 * value is that call with a string. */
static Value *
import_module_call(Check *ck, const Node *v)
{
	if (v->kind != N_CALL || v->u.call.args.len != 1 || v->u.call.callee->kind != N_ATTR ||
	    strcmp(v->u.call.callee->u.attr.name, "import_module") != 0 ||
	    v->u.call.args.data[0]->kind != N_STRING)
		return NULL;
	return resolve_path(ck, v->u.call.args.data[0]->u.str.value, v->span);
}

void
sema_note_scope(Check *ck, const Node *n, SemaModule *m)
{
	vec_push(ck->a, &ck->fn_nodes, n);
	vec_push(ck->a, &ck->fn_mods, m);
	if (n->kind != N_CLASS)
		return;
	for (size_t i = 0; i < n->u.class_.body.len; i++)
		if (n->u.class_.body.data[i]->kind == N_FUNC)
			sema_note_scope(ck, n->u.class_.body.data[i], m);
}

static void
bind_lazy(Check *ck, SemaModule *m, const Node *target, const Node *s)
{
	if (target->kind != N_NAME)
		return;
	Value *v = sema_new_value(&ck->ev, VAL_LAZY, s->span);
	v->u.lazy.stmt = s;
	v->u.lazy.mod = m;
	sema_scope_bind(ck, target->u.name.id, v, false, target->span);
}

/* Binds the top-level names of body (a module's, or a def's for a
 * function scope) in scope m, which is ck->mod. */
static void
bind_body(Check *ck, SemaModule *m, const NodeList *body)
{
	for (size_t i = 0; i < body->len; i++) {
		const Node *s = body->data[i];
		Value *v;
		switch (s->kind) {
		case N_IMPORT:
			bind_import(ck, s);
			break;
		case N_FUNC:
			sema_note_scope(ck, s, m);
			v = sema_new_value(&ck->ev, VAL_FUNC, s->span);
			v->u.func = s;
			sema_scope_bind(ck, s->u.func.name, v, false, s->span);
			break;
		case N_CLASS:
			sema_note_scope(ck, s, m);
			v = sema_new_value(&ck->ev, VAL_CLASS, s->span);
			v->u.cls = sema_class_of(ck, s);
			if (!v->u.cls)
				v = host_value(ck, arena_printf(ck->a, "class '%s'", s->u.class_.name),
				               s->span);
			sema_scope_bind(ck, s->u.class_.name, v, false, s->span);
			break;
		case N_ASSIGN:
			if ((v = import_module_call(ck, s->u.assign.value))) {
				for (size_t t = 0; t < s->u.assign.targets.len; t++)
					if (s->u.assign.targets.data[t]->kind == N_NAME)
						sema_scope_bind(ck, s->u.assign.targets.data[t]->u.name.id,
						                v, false, s->span);
				break;
			}
			for (size_t t = 0; t < s->u.assign.targets.len; t++)
				bind_lazy(ck, m, s->u.assign.targets.data[t], s);
			break;
		case N_ANN_ASSIGN:
			if (s->u.ann.value)
				bind_lazy(ck, m, s->u.ann.target, s);
			break;
		default:
			break;   /* host statements */
		}
	}
}

void
sema_module_bind(Check *ck, SemaModule *m)
{
	bind_body(ck, m, &m->ast->u.module.body);
}

SemaModule *
sema_frame_scope(Check *ck, const Node *n)
{
	SemaModule *scope = arena_alloc(ck->a, sizeof *scope);
	*scope = (SemaModule){.name = ck->mod->name, .ast = ck->mod->ast, .file = ck->mod->file,
	                      .python = ck->mod->python,
	                      .globals = sema_scope_snapshot(&ck->fr->locals),
	                      .enclosing = ck->mod};
	sema_note_scope(ck, n, scope);
	return scope;
}

SemaModule *
sema_function_scope(Check *ck, SemaModule *m, const Node *f)
{
	SemaModule *fs = arena_alloc(ck->a, sizeof *fs);
	*fs = (SemaModule){.name = f->u.func.name, .ast = m->ast, .file = m->file,
	                   .python = true, .enclosing = m};
	SemaModule *saved = ck->mod;
	Frame *saved_fr = ck->fr;
	ck->mod = fs;
	ck->fr = NULL;
	bind_body(ck, fs, &f->u.func.body);
	ck->mod = saved;
	ck->fr = saved_fr;
	return fs;
}

SemaModule *
sema_module_of(Check *ck, const Node *n)
{
	for (size_t i = ck->fn_nodes.len; i-- > 0;)
		if (ck->fn_nodes.data[i] == n)
			return ck->fn_mods.data[i];
	return ck->mod;
}

Value *
sema_force_lazy(Check *ck, Binding *b)
{
	Value *lz = b->v;
	if (lz->u.lazy.busy) {
		diag_error(ck->d, lz->span, "'%s' is defined in terms of itself", b->name);
		return NULL;
	}
	const Node *s = lz->u.lazy.stmt;
	const Node *e = s->kind == N_ASSIGN ? s->u.assign.value : s->u.ann.value;
	SemaModule *saved = ck->mod;
	Frame *saved_fr = ck->fr;
	ck->mod = lz->u.lazy.mod;
	ck->fr = NULL;
	lz->u.lazy.busy = true;
	Value *v = sema_eval_expr(&ck->ev, e);
	lz->u.lazy.busy = false;
	ck->mod = saved;
	ck->fr = saved_fr;
	if (!v) {
		b->v = host_value(ck, arena_printf(ck->a, "'%s'", b->name), s->span);
		return NULL;
	}
	b->v = v;
	return v;
}

/* Evaluates decorators quietly in module m: whether one is the builtin
 * `want`; *unsupported (when given) gets the first that is a Gluon name glc
 * does not support. */
static bool
scan_decorators(Check *ck, SemaModule *m, const NodeList *decorators, BuiltinFn want,
                const Value **unsupported)
{
	SemaModule *saved = ck->mod;
	Frame *saved_fr = ck->fr;
	Diags quiet;
	diag_init(&quiet, ck->a, ck->src);
	Diags *real = ck->d;
	ck->d = ck->ev.diags = &quiet;
	ck->mod = m;
	ck->fr = NULL;
	bool found = false;
	for (size_t i = 0; i < decorators->len && !found; i++) {
		const Node *d = decorators->data[i];
		Value *v = sema_eval_expr(&ck->ev, d->kind == N_CALL ? d->u.call.callee : d);
		BuiltinFn fn = v && v->kind == VAL_BUILTIN ? sema_builtin_fn(v->u.builtin) : BF_NONE;
		found = fn == want || (want == BF_JIT && fn == BF_KERNEL);
		if (unsupported && !*unsupported && v && v->kind == VAL_HOST && v->u.host.reason)
			*unsupported = v;
	}
	ck->mod = saved;
	ck->fr = saved_fr;
	ck->d = ck->ev.diags = real;
	return found;
}

bool
sema_has_decorator(Check *ck, SemaModule *m, const NodeList *decorators, BuiltinFn want)
{
	return scan_decorators(ck, m, decorators, want, NULL);
}

const Value *
sema_unsupported_decorator(Check *ck, const Node *f)
{
	const Value *v = NULL;
	if (f->kind == N_FUNC)
		scan_decorators(ck, sema_module_of(ck, f), &f->u.func.decorators, BF_NONE, &v);
	return v;
}

FuncKind
sema_func_kind(Check *ck, const Node *f)
{
	SemaModule *m = sema_module_of(ck, f);
	if (!m->python)
		return FK_JIT;
	if (f->kind == N_LAMBDA)
		return FK_CONSTEXPR;
	bool top = false;
	for (size_t i = 0; i < ck->fn_nodes.len && !top; i++)
		top = ck->fn_nodes.data[i] == f;
	/* lambdas and defs nested in functions are compile-time Python */
	if (!top)
		return f->kind == N_LAMBDA || !f->u.func.decorators.len ? FK_CONSTEXPR : FK_JIT;
	if (sema_has_decorator(ck, m, &f->u.func.decorators, BF_JIT))
		return FK_JIT;
	if (sema_has_decorator(ck, m, &f->u.func.decorators, BF_CONSTEXPR_FUNCTION))
		return FK_CONSTEXPR;
	return FK_HOST;
}
