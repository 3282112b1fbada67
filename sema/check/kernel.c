/*
 * Kernels and the module: launch options, constexpr parameters from
 * defaults and -D, typed runtime parameters, one specialization per
 * @gl.kernel, and sema_check, the entry point.
 */
#include "sema/check/check.h"

#include <string.h>


/* -- kernels ------------------------------------------------------------------ */

/* A kernel's launch options: @gl.kernel(num_warps=4, enable_fp_fusion=True),
 * Triton's names and defaults. */
typedef struct KernelOpts {
	int warps;
	bool no_fp_fusion;
} KernelOpts;

/* One keyword of the kernel decorator into o. */
static bool
kernel_option(Check *ck, const Node *kw, KernelOpts *o)
{
	Value *x = sema_eval_expr(&ck->ev, kw->u.keyword.value);
	if (!x)
		return false;
	const char *name = kw->u.keyword.name;
	if (strcmp(name, "enable_fp_fusion") == 0) {
		bool on;
		if (!sema_value_truth(&ck->ev, x, &on))
			return false;
		o->no_fp_fusion = !on;
		return true;
	}
	if (strcmp(name, "num_warps") != 0) {
		diag_error(ck->d, kw->span, "@gl.kernel takes num_warps=... and "
		           "enable_fp_fusion=..., not '%s'", name);
		return false;
	}
	int64_t w;
	if (!sema_value_int(ck, x, "num_warps", &w))
		return false;
	if (w < 1 || w > 32 || (w & (w - 1))) {
		diag_error(ck->d, x->span, "num_warps is %lld; it must be a power of two "
		           "from 1 to 32", (long long)w);
		return false;
	}
	o->warps = (int)w;
	return true;
}

/* The kernel decorator's options into o (num_warps 4 and fusion on by
 * default): 1, or 0 when f is not a kernel, -1 after an error. */
static int
kernel_opts(Check *ck, const Node *f, KernelOpts *o)
{
	*o = (KernelOpts){.warps = 4};
	for (size_t i = 0; i < f->u.func.decorators.len; i++) {
		const Node *d = f->u.func.decorators.data[i];
		const Node *callee = d->kind == N_CALL ? d->u.call.callee : d;
		Value *v = sema_eval_expr(&ck->ev, callee);
		if (!v || v->kind != VAL_BUILTIN || sema_builtin_fn(v->u.builtin) != BF_KERNEL)
			continue;
		for (size_t k = 0; d->kind == N_CALL && k < d->u.call.kwargs.len; k++)
			if (!kernel_option(ck, d->u.call.kwargs.data[k], o))
				return -1;
		return 1;
	}
	return 0;
}

static Value *
define_value(Check *ck, const SemaDefine *def)
{
	const char *path = arena_printf(ck->a, "<-D %s>", def->name);
	uint32_t file = src_add(ck->src, path, def->value, strlen(def->value));
	Node *e = parse_expression(ck->a, ck->in, ck->src, file, ck->d);
	if (!e)
		return NULL;
	Frame *saved = ck->fr;
	ck->fr = NULL;
	Value *v = sema_eval_expr(&ck->ev, e);
	ck->fr = saved;
	return v;
}

static bool
param_type(Check *ck, const Node *p, const TType **out)
{
	if (!p->u.param.annot) {
		diag_error(ck->d, p->span, "kernel parameter '%s' needs a type (e.g. gl.ptr[gl.f32], "
		           "gl.i32 or gl.constexpr)", p->u.param.name);
		return false;
	}
	Value *t = sema_eval_expr(&ck->ev, p->u.param.annot);
	if (!t)
		return false;
	if (t->kind == VAL_DTYPE) {
		*out = sema_type_scalar(ck, t->u.dtype);
		return true;
	}
	if (t->kind == VAL_TYPE) {
		*out = t->u.type;
		return true;
	}
	diag_error(ck->d, t->span, "expected a parameter type, got %s", sema_value_kind_phrase(t));
	return false;
}

/* Binds the constexpr parameters of kernel f (from -D or defaults). */
static bool
bind_constexprs(Check *ck, const Node *f, const SemaDefine *defs, size_t n_defs, bool *used)
{
	const NodeList *ps = &f->u.func.params;
	for (size_t i = 0; i < ps->len; i++) {
		const Node *p = ps->data[i];
		if (!sema_is_constexpr_annot(ck, p->u.param.annot))
			continue;
		Value *v = NULL;
		for (size_t d = 0; d < n_defs; d++)
			if (strcmp(defs[d].name, p->u.param.name) == 0) {
				used[d] = true;
				v = define_value(ck, &defs[d]);
				if (!v)
					return false;
			}
		if (!v && !p->u.param.dflt) {
			diag_error(ck->d, p->span, "constexpr parameter '%s' has no default; give it "
			           "with -D %s=VALUE", p->u.param.name, p->u.param.name);
			return false;
		}
		if (!v && !(v = sema_eval_expr(&ck->ev, p->u.param.dflt)))
			return false;
		sema_scope_bind(ck, p->u.param.name, v, true, p->span);
		sema_record_constexpr(ck, p->u.param.name, v);
	}
	return true;
}

/* Binds the runtime parameters of kernel f to OP_PARAM values. */
static void
bind_params(Check *ck, const Node *f)
{
	const NodeList *ps = &f->u.func.params;
	VEC(TParam) params = {0};
	for (size_t i = 0; i < ps->len; i++) {
		const Node *p = ps->data[i];
		if (p->u.param.annot && sema_is_constexpr_annot(ck, p->u.param.annot))
			continue;
		const TType *t;
		if (!param_type(ck, p, &t))
			continue;
		TParam tp = {.name = p->u.param.name, .type = t,
		             .kind = t->kind == TY_PTR ? TP_PTR : t->kind == TY_DESC ? TP_DESC
		                                                                     : TP_SCALAR};
		TInst *in = sema_emit(ck, OP_PARAM, p->span, t, 0);
		in->param = (int)params.len;
		vec_push(ck->a, &params, tp);
		sema_scope_bind(ck, p->u.param.name, sema_rt_value(ck, in->res, p->span), false, p->span);
	}
	ck->k->params = params.data;
	ck->k->n_params = (int)params.len;
}

/* A kernel of a .py file: the signature it is specialized with, and the
 * launcher's name. */
typedef struct Spec {
	const char *sig;
	int index;
	const char *name;
} Spec;

/* One pass over kernel f: its TKernel (also after errors). */
static TKernel *
kernel_pass(Check *ck, const Node *f, KernelOpts o, const SemaDefine *defs, size_t n_defs,
            bool *used, const Spec *spec)
{
	TKernel *k = arena_alloc(ck->a, sizeof *k);
	k->name = spec ? spec->name : f->u.func.name;
	k->at = f->span;
	k->num_warps = k->total_warps = o.warps;
	k->no_fp_fusion = o.no_fp_fusion;
	ck->k = k;
	ck->unrolled = ck->inlined = 0;
	Frame fr = {.func = f, .tl = sema_func_is_tl(ck, f)};
	ck->fr = &fr;
	ck->blk = &k->body;
	int errors = ck->d->errors;
	/* constexpr parameters first: runtime parameter types may use them */
	if (spec)
		sema_bind_signature(ck, f, spec->sig, spec->index);
	else if (bind_constexprs(ck, f, defs, n_defs, used))
		bind_params(ck, f);
	if (ck->d->errors == errors)
		sema_check_block(ck, &f->u.func.body);
	ir_kernel_finish(k, &(IrKernelDecls){ck->vars.data, ck->vars.len, ck->smem.data,
	                                     ck->smem.len, ck->cx_names.data, ck->cx_values.data,
	                                     ck->cx_names.len});
	/* the kernel owns the arrays now; start the next one afresh */
	memset(&ck->vars, 0, sizeof ck->vars);
	memset(&ck->smem, 0, sizeof ck->smem);
	memset(&ck->unfenced, 0, sizeof ck->unfenced);
	memset(&ck->cx_names, 0, sizeof ck->cx_names);
	memset(&ck->cx_values, 0, sizeof ck->cx_values);
	ck->fr = NULL;
	ck->k = NULL;
	return k;
}

/* Diags' context hook: a problem found inside inlined device functions gets
 * a note for each call on the way (innermost first); the same problem met
 * through another call site is one error with notes for each. */
static void
call_chain(void *ctx, Diags *d, Diag *g)
{
	Check *ck = ctx;
	for (const Frame *f = ck->fr; f && f->up; f = f->up)
		diag_note(d, g, f->call_at, "'%s' is called here", f->func->u.func.name);
}

static void
set_diags(Check *ck, Diags *d)
{
	ck->d = d;
	ck->ev.diags = d;
	d->context = call_chain;
	d->context_ctx = ck;
}

typedef VEC(TKernel *) KernelList;

/* Checks kernel f and adds it to kernels. */
static void
check_kernel(Check *ck, KernelList *kernels, const Node *f, KernelOpts o,
             const SemaDefine *defs, size_t n_defs, bool *used, const Spec *spec)
{
	ck->auto_next = 0;
	ck->defs.len = 0;
	ck->written.len = 0;
	TKernel *k = kernel_pass(ck, f, o, defs, n_defs, used, spec);
	vec_push(ck->a, kernels, k);
}

/* A second definition of a kernel's name: a @gl.kernel whose module binding
 * is another function (a later def replaced it, as in Python) would leave
 * two entries of one name, or one that cannot be called. */
static bool
redefined(Check *ck, const Node *f)
{
	Binding *b = sema_scope_find(ck, f->u.func.name);
	if (!b || !b->v || (b->v->kind == VAL_FUNC && b->v->u.func == f))
		return false;
	Diag *g = diag_error(ck->d, b->at, "'%s' is defined again; it names a @gl.kernel, and "
	                     "kernel names must be unique", f->u.func.name);
	diag_note(ck->d, g, f->span, "the kernel is defined here");
	return true;
}

static void
check_module_stmt(Check *ck, const Node *s)
{
	if (s->kind == N_FUNC || s->kind == N_IMPORT || s->kind == N_ASSIGN ||
	    s->kind == N_ANN_ASSIGN || (s->kind == N_EXPR_STMT &&
	                                s->u.expr_stmt.expr->kind == N_STRING)) {
		sema_check_stmt(ck, s);
		return;
	}
	diag_error(ck->d, s->span, "only imports, constexpr definitions and functions may "
	           "appear at module level");
}

TProgram *
sema_check(Arena *a, Interner *in, Sources *src, Diags *d, const Node *module,
           const SemaDefine *defs, size_t n_defs, const char *kernel, const Limits *lim)
{
	Check ck = {.a = a, .in = in, .src = src, .lim = lim};
	SemaModule main_mod = {.name = "", .ast = module};
	ck.mod = ck.modules = &main_mod;
	ck.ev = (Eval){a, d, &ck, .lim = lim, .arena_base = arena_used(a)};
	ck.hooks = &sema_check_hooks;
	set_diags(&ck, d);
	int errors = d->errors;
	const NodeList *body = &module->u.module.body;
	for (size_t i = 0; i < body->len; i++)
		check_module_stmt(&ck, body->data[i]);
	TProgram *prog = arena_alloc(a, sizeof *prog);
	prog->built = true;
	KernelList kernels = {0};
	bool *used = arena_alloc(a, n_defs + 1);
	bool found = false;
	for (size_t i = 0; i < body->len && d->errors == errors; i++) {
		const Node *f = body->data[i];
		if (f->kind != N_FUNC)
			continue;
		KernelOpts o;
		int is = kernel_opts(&ck, f, &o);
		if (is < 0)
			break;
		if (is == 0 || redefined(&ck, f) || (kernel && strcmp(kernel, f->u.func.name) != 0))
			continue;
		found = true;
		check_kernel(&ck, &kernels, f, o, defs, n_defs, used, NULL);
	}
	prog->kernels = kernels.data;
	prog->n_kernels = (int)kernels.len;
	if (kernel && !found && d->errors == errors)
		diag_error(d, (SrcSpan){0}, "--kernel %s: no @gl.kernel of that name", kernel);
	for (size_t i = 0; i < n_defs && d->errors == errors; i++)
		if (!used[i])
			diag_error(d, (SrcSpan){0}, "-D %s: no kernel has a constexpr parameter of "
			           "that name", defs[i].name);
	d->context = NULL;   /* the hook reads ck, which ends here */
	return d->errors == errors ? prog : NULL;
}

/* A def called name directly inside one of the top-level defs of ck->mod,
 * or NULL: where a kernel is nested when -n misses the outer name. */
static const Node *
nested_def(Check *ck, const char *name, const Node **outer)
{
	const NodeList *body = &ck->mod->ast->u.module.body;
	for (size_t i = 0; i < body->len; i++) {
		const Node *o = body->data[i];
		if (o->kind != N_FUNC)
			continue;
		for (size_t j = 0; j < o->u.func.body.len; j++) {
			const Node *f = o->u.func.body.data[j];
			if (f->kind == N_FUNC && strcmp(f->u.func.name, name) == 0) {
				*outer = o;
				return f;
			}
		}
	}
	return NULL;
}

/* Reports that scope ck->mod has no @gluon.jit def `name` (a part of the
 * -n path `path`), with the names it has. */
static void
no_kernel(Check *ck, const char *path, const char *name, bool top)
{
	const char *names[256];
	size_t n = 0;
	for (Binding *x = ck->mod->globals.first; x && n < 256; x = x->next)
		if (x->v && x->v->kind == VAL_FUNC && sema_func_kind(ck, x->v->u.func) == FK_JIT)
			names[n++] = x->name;
	Diag *e = top ? diag_error(ck->d, (SrcSpan){0}, "-n %s: %s has no @gluon.jit function "
	                           "of that name", path, src_path(ck->src, ck->mod->file))
	              : diag_error(ck->d, (SrcSpan){0}, "-n %s: '%s' defines no @gluon.jit "
	                           "function '%s'", path, ck->mod->name, name);
	const Node *outer = NULL;
	const Node *inner = top ? nested_def(ck, name, &outer) : NULL;
	const char *s = diag_suggest(name, names, n);
	if (inner)
		diag_note(ck->d, e, inner->span, "'%s' is defined inside '%s': -n %s.%s", name,
		          outer->u.func.name, outer->u.func.name, name);
	else if (s)
		diag_note(ck->d, e, (SrcSpan){0}, "did you mean '%s'?", s);
}

/* The kernel -n names: a @gluon.jit def of the file, or `outer.name` for
 * one defined inside the def `outer` (as tests define them), whose names
 * it then sees (ck->mod becomes outer's scope). NULL after a diagnostic. */
static const Node *
find_kernel(Check *ck, const char *path)
{
	for (const char *rest = path;;) {
		const char *dot = strchr(rest, '.');
		size_t len = dot ? (size_t)(dot - rest) : strlen(rest);
		const char *name = intern(ck->in, rest, len);
		Binding *b = sema_local_find(ck, name);
		const Node *f = b && b->v && b->v->kind == VAL_FUNC ? b->v->u.func : NULL;
		if (!f) {
			no_kernel(ck, path, name, rest == path);
			return NULL;
		}
		if (!dot) {
			if (sema_func_kind(ck, f) == FK_JIT)
				return f;
			diag_error(ck->d, f->span, "-n %s: '%s' is not a @gluon.jit function", path,
			           name);
			return NULL;
		}
		ck->mod = sema_function_scope(ck, ck->mod, f);
		rest = dot + 1;
	}
}

TProgram *
sema_check_gluon(Arena *a, Interner *in, Sources *src, Diags *d, const Node *module,
                 uint32_t file, const SemaGluon *g, const Limits *lim)
{
	Check ck = {.a = a, .in = in, .src = src, .gluon = g, .lim = lim};
	SemaModule *m = arena_alloc(a, sizeof *m);
	*m = (SemaModule){.name = "", .ast = module, .file = file, .python = true};
	ck.mod = ck.modules = m;
	ck.ev = (Eval){a, d, &ck, .lim = lim, .arena_base = arena_used(a)};
	ck.hooks = &sema_check_hooks;
	set_diags(&ck, d);
	int errors = d->errors;
	sema_module_bind(&ck, m);
	TProgram *prog = arena_alloc(a, sizeof *prog);
	prog->built = true;
	KernelList kernels = {0};
	const Node *f = find_kernel(&ck, g->kernel);
	/* the launcher of `outer.kernel` is outer_kernel, unless -on names it */
	const char *name = g->out_name ? g->out_name : g->kernel;
	char *base = arena_strndup(a, name, strlen(name));
	for (char *p = base; *p; p++)
		if (*p == '.')
			*p = '_';
	for (size_t i = 0; f && i < g->n_signatures && !d->truncated; i++) {
		Spec spec = {g->signatures[i], (int)i, base};
		if (g->n_signatures > 1)
			spec.name = arena_printf(a, "%s_%zu", base, i);
		check_kernel(&ck, &kernels, f, (KernelOpts){.warps = g->num_warps}, NULL, 0, NULL,
		             &spec);
	}
	prog->kernels = kernels.data;
	prog->n_kernels = (int)kernels.len;
	d->context = NULL;
	return d->errors == errors ? prog : NULL;
}
