/*
 * Calls: argument binding, inlining of @gl.jit functions, compile-time
 * helpers (float, len, min, max, static_assert, cdiv on constants) and the
 * register-tensor builtins of gl (program_id, arange, full, zeros, load,
 * store, math, where, convert_layout, expand_dims); the dispatch of the
 * others to their families' files.
 */
#include "sema/check.h"

#include <math.h>
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
	Frame fr = {.func = func, .call_at = at, .up = ck->fr};
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
	sema_check_block(ck, &func->u.func.body);
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

/* -- helpers --------------------------------------------------------------- */

TValue *
sema_tensor_arg(Check *ck, Value *v, const char *what)
{
	if (v->kind == VAL_RUNTIME && v->u.rt->type->kind == TY_TENSOR)
		return v->u.rt;
	diag_error(ck->d, v->span, "%s must be a register tensor, not %s", what,
	           v->kind == VAL_RUNTIME ? sema_type_str(ck, v->u.rt->type) : sema_value_kind_phrase(v));
	return NULL;
}

bool
sema_opt_bool(Check *ck, const Value *v, bool dflt, const char *what, bool *out)
{
	if (!v) {
		*out = dflt;
		return true;
	}
	if (v->kind == VAL_BOOL) {
		*out = v->u.b;
		return true;
	}
	diag_error(ck->d, v->span, "%s must be True or False at compile time, not %s", what,
	           sema_value_kind_phrase(v));
	return false;
}

static Value *
result(Check *ck, TInst *i, SrcSpan at)
{
	return sema_rt_value(ck, i->res, at);
}

static Value *
call_arange(Check *ck, const Node *call, Value **a)
{
	int64_t lo, hi;
	if (!sema_value_int(ck, a[0], "gl.arange's start", &lo) ||
	    !sema_value_int(ck, a[1], "gl.arange's end", &hi))
		return NULL;
	if (lo < INT32_MIN || hi > INT32_MAX) {
		diag_error(ck->d, call->span, "gl.arange(%lld, %lld): its values must fit in i32",
		           (long long)lo, (long long)hi);
		return NULL;
	}
	int64_t n = hi - lo;
	if (n <= 0 || (n & (n - 1))) {
		diag_error(ck->d, call->span, "gl.arange(%lld, %lld) has %lld elements; the count "
		           "must be a positive power of two", (long long)lo, (long long)hi,
		           (long long)n);
		return NULL;
	}
	SrcSpan lat;
	const LLDesc *l = sema_auto_layout_arg(ck, a[2], call->span, &n, 1, "gl.arange's layout", &lat);
	TType *t = l ? sema_tensor_type(ck, lat, sema_type_scalar(ck, DT_I32), &n, 1, l) : NULL;
	if (!t)
		return NULL;
	TInst *i = sema_emit(ck, OP_ARANGE, call->span, t, 0);
	i->attr.lo = lo;
	i->attr.hi = hi;
	i->res->layout_at = lat;
	return result(ck, i, call->span);
}

/* OP_FULL of val (converted to dt) over shape sh in layout l, fixed at lat. */
static Value *
emit_full(Check *ck, const Node *call, const char *fname, Value *val, TDType dt,
          const int64_t *sh, int rank, const LLDesc *l, SrcSpan lat)
{
	TType *t = l ? sema_tensor_type(ck, lat, sema_type_scalar(ck, dt), sh, rank, l) : NULL;
	if (!t)
		return NULL;
	TValue *s = sema_materialize(ck, val, dt);
	if (!s)
		return NULL;
	if (s->type->kind != TY_SCALAR) {
		diag_error(ck->d, val->span, "%s's value must be a scalar", fname);
		return NULL;
	}
	s = sema_cast_to(ck, s, dt, call->span);
	TInst *i = sema_emit(ck, OP_FULL, call->span, t, 1, s);
	i->res->layout_at = lat;
	return result(ck, i, call->span);
}

static Value *
call_full(Check *ck, const Node *call, bool zeros, Value **a)
{
	const char *fname = zeros ? "gl.zeros" : "gl.full";
	Value *shape = a[0], *dtype = zeros ? a[1] : a[2], *layout = zeros ? a[2] : a[3];
	Value zero = {.kind = VAL_INT, .span = call->span};
	int64_t sh[LL_MAX_RANK];
	int rank;
	TDType dt;
	if (!sema_value_shape(ck, shape, arena_printf(ck->a, "%s's shape", fname), sh, &rank) ||
	    !sema_value_dtype(ck, dtype, arena_printf(ck->a, "%s's dtype", fname), &dt))
		return NULL;
	SrcSpan lat;
	const LLDesc *l = sema_auto_layout_arg(ck, layout, call->span, sh, rank,
	                                       arena_printf(ck->a, "%s's layout", fname), &lat);
	return emit_full(ck, call, fname, zeros ? &zero : a[1], dt, sh, rank, l, lat);
}

/* gl.full_like / gl.zeros_like: shape, dtype and layout default to the
 * input tensor's (Gluon's _standard.py). */
static Value *
call_full_like(Check *ck, const Node *call, bool zeros, Value **a)
{
	const char *fname = zeros ? "gl.zeros_like" : "gl.full_like";
	Value *shape = a[zeros ? 1 : 2], *dtype = a[zeros ? 2 : 3], *layout = a[zeros ? 3 : 4];
	Value zero = {.kind = VAL_INT, .span = call->span};
	TValue *x = sema_tensor_arg(ck, a[0], arena_printf(ck->a, "%s's input", fname));
	if (!x)
		return NULL;
	const TType *xt = x->type;
	int64_t sh[LL_MAX_RANK];
	int rank = xt->rank;
	memcpy(sh, xt->shape, sizeof sh);
	TDType dt = xt->dtype;
	if ((shape && !sema_value_shape(ck, shape, arena_printf(ck->a, "%s's shape", fname), sh,
	                                &rank)) ||
	    (dtype && !sema_value_dtype(ck, dtype, arena_printf(ck->a, "%s's dtype", fname), &dt)))
		return NULL;
	SrcSpan lat = x->layout_at;
	const LLDesc *l = layout ? sema_auto_layout_arg(ck, layout, call->span, sh, rank,
	                                                arena_printf(ck->a, "%s's layout", fname),
	                                                &lat)
	                         : xt->layout.desc;
	return emit_full(ck, call, fname, zeros ? &zero : a[1], dt, sh, rank, l, lat);
}

/* gl.to_linear_layout(layout, shape): the layout fitted to shape, as a
 * DistributedLinearLayout or a SharedLinearLayout (Gluon's semantic: a
 * DistributedLinearLayout or AutoLayout is returned as it is). */
static Value *
call_to_linear_layout(Check *ck, const Node *call, Value **a)
{
	if (a[0]->kind != VAL_LAYOUT) {
		diag_error(ck->d, a[0]->span, "gl.to_linear_layout's layout must be a layout, not %s",
		           sema_value_kind_phrase(a[0]));
		return NULL;
	}
	const LLDesc *d = a[0]->u.layout;
	int64_t sh[LL_MAX_RANK];
	int rank;
	if (!sema_value_shape(ck, a[1], "gl.to_linear_layout's shape", sh, &rank))
		return NULL;
	if (d->kind == LL_AUTO || d->kind == LL_DISTRIBUTED_LINEAR)
		return a[0];
	if (d->kind == LL_PADDED_SHARED) {
		Diag *g = diag_error(ck->d, a[0]->span, "gl.to_linear_layout: a PaddedSharedLayout is "
		                     "not a linear layout (its padding is not linear)");
		diag_note(ck->d, g, (SrcSpan){0}, "its linear part is "
		          "gl.SharedLinearLayout(layout.offset_bases); Triton 3.6 aborts here");
		return NULL;
	}
	LLayout ll;
	LLErr err = {ck->a, NULL};
	if (!ll_build(d, sh, rank, 0, &ll, &err)) {
		diag_error(ck->d, a[1]->span, "gl.to_linear_layout: %s", err.msg ? err.msg :
		           "the layout does not fit this shape");
		return NULL;
	}
	Value *v = sema_new_value(&ck->ev, VAL_LAYOUT, call->span);
	v->u.layout = ll_desc_is_shared(d) ? ll_desc_shared_linear(ck->a, &ll)
	                                   : ll_desc_distributed_linear(ck->a, &ll, sh, rank);
	return v;
}

/* gl.expand_dims(x, axis) with one axis or a sequence of them, as Triton:
 * each counted in the result's rank, no two alike, inserted lowest first. */
static Value *
call_expand_dims(Check *ck, const Node *call, Value **a)
{
	TValue *x = sema_tensor_arg(ck, a[0], "gl.expand_dims's input");
	if (!x)
		return NULL;
	bool many = a[1]->kind == VAL_TUPLE || a[1]->kind == VAL_LIST;
	size_t n = many ? a[1]->u.list.n : 1;
	int rank = x->type->rank + (int)n;
	if (rank > LL_MAX_RANK) {
		diag_error(ck->d, a[1]->span, "gl.expand_dims would make a rank-%d tensor; at most %d",
		           rank, LL_MAX_RANK);
		return NULL;
	}
	int axes[LL_MAX_RANK];
	for (size_t i = 0; i < n; i++) {
		int64_t ax;
		if (!sema_value_int(ck, many ? a[1]->u.list.items[i] : a[1], "gl.expand_dims's axis",
		                    &ax))
			return NULL;
		if (ax < -rank || ax >= rank) {
			diag_error(ck->d, a[1]->span, "expand_dims axis %lld is out of range for a "
			           "rank-%d result", (long long)ax, rank);
			return NULL;
		}
		int v = (int)(ax < 0 ? ax + rank : ax), j = (int)i;
		for (int k = 0; k < (int)i; k++)
			if (axes[k] == v) {
				diag_error(ck->d, a[1]->span, "expand_dims axis %d is given twice", v);
				return NULL;
			}
		while (j > 0 && axes[j - 1] > v) {
			axes[j] = axes[j - 1];
			j--;
		}
		axes[j] = v;
	}
	Value *r = sema_rt_value(ck, x, call->span);
	for (size_t i = 0; i < n; i++) {
		if (!(r = sema_expand_dims(ck, call->span, x, axes[i])))
			return NULL;
		x = r->u.rt;
	}
	return r;
}

Value *
sema_expand_dims(Check *ck, SrcSpan at, TValue *x, int axis)
{
	const TType *xt = x->type;
	const LLDesc *d = xt->layout.desc;
	if (axis < 0 || axis > xt->rank || xt->rank >= LL_MAX_RANK) {
		diag_error(ck->d, at, "expand_dims axis %d is out of range for a rank-%d tensor",
		           axis, xt->rank);
		return NULL;
	}
	int64_t sh[LL_MAX_RANK];
	for (int i = 0, r = 0; i <= xt->rank; i++)
		sh[i] = i == axis ? 1 : xt->shape[r++];
	const LLDesc *inferred = sema_auto_expand(ck, at, x, axis, sh, xt->rank + 1);
	if (inferred)
		d = ll_desc_slice(ck->a, inferred, axis);
	if (d->kind != LL_SLICE || d->dim != axis) {
		StrBuf b = {0};
		ll_desc_print(d, &b);
		Diag *g = diag_error(ck->d, at, "expand_dims at axis %d needs a tensor in "
		                     "SliceLayout(%d, P), which becomes P; this tensor's layout is %s",
		                     axis, axis, b.s);
		diag_note(ck->d, g, x->layout_at, "its layout was fixed here");
		if (d->kind == LL_SLICE)
			diag_note(ck->d, g, (SrcSpan){0}, "it is a slice along dimension %d: insert "
			          "the new axis at %d instead", d->dim, d->dim);
		buf_free(&b);
		return NULL;
	}
	TType *t = sema_tensor_type(ck, at, sema_type_elem(ck, xt), sh, xt->rank + 1, d->parent);
	if (!t)
		return NULL;
	TInst *i = sema_emit(ck, OP_EXPAND_DIMS, at, t, 1, x);
	i->attr.axis = axis;
	i->res->layout_at = x->layout_at;
	return result(ck, i, at);
}

static Value *
call_convert(Check *ck, const Node *call, Value **a)
{
	TValue *x = sema_tensor_arg(ck, a[0], "gl.convert_layout's value");
	const LLDesc *l = sema_value_layout(ck, a[1], "gl.convert_layout's layout", false);
	bool trivial;
	if (!x || !l || !sema_opt_bool(ck, a[2], false, "assert_trivial", &trivial))
		return NULL;
	TType *t = sema_tensor_type(ck, a[1]->span, sema_type_elem(ck, x->type), x->type->shape,
	                       x->type->rank, l);
	if (!t)
		return NULL;
	/* The cvt-plan pass plans it, and reports a trivial one that is not. */
	TInst *i = sema_emit(ck, OP_CONVERT_LAYOUT, call->span, t, 1, x);
	i->res->layout_at = a[1]->span;
	i->attr.trivial = trivial;
	return result(ck, i, call->span);
}

static Value *
call_set_auto_layout(Check *ck, const Node *call, Value **a)
{
	TValue *x = sema_tensor_arg(ck, a[0], "gl.set_auto_layout's value");
	const LLDesc *l = sema_value_layout(ck, a[1], "gl.set_auto_layout's layout", false);
	if (!x || !l)
		return NULL;
	TType *t = sema_tensor_type(ck, a[1]->span, sema_type_elem(ck, x->type), x->type->shape,
	                       x->type->rank, l);
	if (!t)
		return NULL;
	if (sema_auto_involved(ck, x->type->layout.desc)) {
		/* x's unknown becomes l (the layout-infer pass unifies the two
		 * sides of a trivial conversion, which then moves nothing) */
		TInst *i = sema_emit(ck, OP_CONVERT_LAYOUT, call->span, t, 1, x);
		i->res->layout_at = a[1]->span;
		i->attr.trivial = true;
		return result(ck, i, call->span);
	}
	if (!ll_equal(&t->layout.ll, &x->type->layout.ll)) {
		TValue want = {.type = t, .layout_at = a[1]->span};
		sema_layout_clash(ck, call->span, "gl.set_auto_layout on a tensor whose layout is "
		             "already fixed", x, "the tensor", &want, "the requested layout");
		return NULL;
	}
	return a[0];
}

static Value *
call_where(Check *ck, const Node *call, Value **a)
{
	TValue *c = sema_materialize(ck, a[0], DT_I1);
	if (!c)
		return NULL;
	if (c->type->dtype != DT_I1 || c->type->kind > TY_TENSOR || c->type->elem_is_ptr) {
		diag_error(ck->d, a[0]->span, "gl.where's condition must be i1, not %s",
		           sema_type_str(ck, c->type));
		return NULL;
	}
	/* the dtype of x op y decides; a select on it keeps the shapes */
	const TType *tx = a[1]->kind == VAL_RUNTIME ? a[1]->u.rt->type : NULL;
	const TType *ty = a[2]->kind == VAL_RUNTIME ? a[2]->u.rt->type : NULL;
	TDType dx = tx ? tx->dtype : sema_literal_dtype(a[1]);
	TDType dy = ty ? ty->dtype : sema_literal_dtype(a[2]);
	TDType dt = sema_computation_type(dx, !tx, dy, !ty, false);
	if (dt == DT_VOID) {
		diag_error(ck->d, call->span, "gl.where has no common type for %s and %s",
		           ir_dtype_name(dx), ir_dtype_name(dy));
		return NULL;
	}
	TValue *x = sema_materialize(ck, a[1], dt), *y = sema_materialize(ck, a[2], dt);
	if (!x || !y)
		return NULL;
	x = sema_cast_to(ck, x, dt, call->span);
	y = sema_cast_to(ck, y, dt, call->span);
	if (!sema_unify_shapes(ck, call->span, "gl.where", &x, &y) ||
	    !sema_unify_shapes(ck, call->span, "gl.where", &c, &x) ||
	    !sema_unify_shapes(ck, call->span, "gl.where", &x, &y))
		return NULL;
	TInst *i = sema_emit(ck, OP_SELECT, call->span, x->type, 3, c, x, y);
	i->res->layout_at = x->layout_at;
	return result(ck, i, call->span);
}

static Value *
call_axis_query(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	const char *name = fn == BF_PROGRAM_ID ? "gl.program_id" : "gl.num_programs";
	int64_t axis;
	if (!sema_value_int(ck, a[0], "the axis", &axis))
		return NULL;
	if (axis < 0 || axis > 2) {
		diag_error(ck->d, a[0]->span, "%s axis is %lld; it must be 0, 1 or 2", name,
		           (long long)axis);
		return NULL;
	}
	TInst *i = sema_emit(ck, fn == BF_PROGRAM_ID ? OP_PROGRAM_ID : OP_NUM_PROGRAMS, call->span,
	                sema_type_scalar(ck, DT_I32), 0);
	i->attr.axis = (int)axis;
	return result(ck, i, call->span);
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

static Value *
call_static_assert(Check *ck, const Node *call, Value **a)
{
	if (a[0]->kind == VAL_RUNTIME) {
		diag_error(ck->d, a[0]->span, "gl.static_assert needs a compile-time condition");
		return NULL;
	}
	if (!sema_assert_now(ck, call->span, a[0], a[1], "static assertion"))
		return NULL;
	return sema_new_value(&ck->ev, VAL_NONE, call->span);
}

static Value *
call_compile_time(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	Value *v;
	switch (fn) {
	case BF_FLOAT:
		v = sema_new_value(&ck->ev, VAL_FLOAT, call->span);
		if (a[0]->kind == VAL_STR) {
			const char *s = arena_strndup(ck->a, a[0]->u.str.s, a[0]->u.str.len);
			bool neg = *s == '-';
			const char *b = neg || *s == '+' ? s + 1 : s;
			if (strcmp(b, "inf") == 0 || strcmp(b, "infinity") == 0)
				v->u.f = neg ? -INFINITY : INFINITY;
			else if (strcmp(b, "nan") == 0)
				v->u.f = NAN;
			else {
				diag_error(ck->d, a[0]->span, "float() of a string takes \"inf\", "
				           "\"-inf\" or \"nan\"");
				return NULL;
			}
			return v;
		}
		if (a[0]->kind == VAL_INT || a[0]->kind == VAL_FLOAT) {
			v->u.f = a[0]->kind == VAL_INT ? (double)a[0]->u.i : a[0]->u.f;
			return v;
		}
		break;
	case BF_INT:
		v = sema_new_value(&ck->ev, VAL_INT, call->span);
		if (a[0]->kind == VAL_INT || a[0]->kind == VAL_BOOL) {
			v->u.i = a[0]->kind == VAL_INT ? a[0]->u.i : a[0]->u.b;
			return v;
		}
		if (a[0]->kind == VAL_FLOAT && fabs(a[0]->u.f) < 9e18) {
			v->u.i = (int64_t)a[0]->u.f;
			return v;
		}
		break;
	case BF_LEN:
		if (a[0]->kind == VAL_LIST || a[0]->kind == VAL_TUPLE) {
			v = sema_new_value(&ck->ev, VAL_INT, call->span);
			v->u.i = (int64_t)a[0]->u.list.n;
			return v;
		}
		break;
	default:
		if (a[0]->kind == VAL_INT && a[1]->kind == VAL_INT) {
			bool first = fn == BF_MIN_PY ? a[0]->u.i <= a[1]->u.i : a[0]->u.i >= a[1]->u.i;
			return first ? a[0] : a[1];
		}
		break;
	}
	diag_error(ck->d, call->span, "this call needs compile-time arguments of the right kind");
	return NULL;
}

Value *
sema_check_builtin_call(Check *ck, const Node *call, const Builtin *b)
{
	BuiltinFn fn = sema_builtin_fn(b);
	switch (fn) {
	case BF_RANGE:
		if (!ck->k || !ck->fr || !ck->fr->func || ck->host || ck->fr->func->kind == N_LAMBDA ||
		    sema_func_kind(ck, ck->fr->func) == FK_CONSTEXPR)
			return sema_py_range(ck, call, b);   /* compile-time Python: a list */
		/* fall through */
	case BF_STATIC_RANGE:
		diag_error(ck->d, call->span, "%s can only be the iterable of a for loop",
		           sema_builtin_qualname(ck->a, b));
		return NULL;
	case BF_PTR: case BF_TENSOR_DESC: case BF_JIT: case BF_KERNEL:
		diag_error(ck->d, call->span, "gl.%s is not callable here", sema_builtin_name(b));
		return NULL;
	default:
		break;
	}
	bool compile_time = fn == BF_FLOAT || fn == BF_INT || fn == BF_LEN || fn == BF_MIN_PY ||
	                    fn == BF_MAX_PY || fn == BF_STATIC_ASSERT || fn == BF_CONSTEXPR ||
	                    (fn >= BF_PY_FIRST_ && fn != BF_TO_TENSOR);
	if (!compile_time && !ck->k) {
		diag_error(ck->d, call->span, "%s can only be called inside a kernel",
		           sema_builtin_name(b));
		return NULL;
	}
	Value *a[SEMA_MAX_BUILTIN_PARAMS];
	if (!sema_bind_builtin(ck, call, b, a))
		return NULL;
	return sema_dispatch_builtin(ck, call, fn, a);
}

Value *
sema_dispatch_builtin(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	switch (fn) {
	case BF_FLOAT: case BF_INT: case BF_LEN:
		return call_compile_time(ck, call, fn, a);
	case BF_MIN_PY: case BF_MAX_PY:
		if (a[0]->kind == VAL_RUNTIME || a[1]->kind == VAL_RUNTIME) {
			TValue *r = sema_arith(ck, call->span, fn == BF_MIN_PY ? OP_MIN : OP_MAX, a[0],
			                       a[1]);
			return r ? sema_rt_value(ck, r, call->span) : NULL;
		}
		return call_compile_time(ck, call, fn, a);
	case BF_STATIC_ASSERT: return call_static_assert(ck, call, a);
	case BF_CONSTEXPR: return sema_check_py_call(ck, call, fn, a);
	case BF_PROGRAM_ID: case BF_NUM_PROGRAMS: return call_axis_query(ck, call, fn, a);
	case BF_ARANGE: return call_arange(ck, call, a);
	case BF_FULL: return call_full(ck, call, false, a);
	case BF_ZEROS: return call_full(ck, call, true, a);
	case BF_TO_LINEAR_LAYOUT: return call_to_linear_layout(ck, call, a);
	case BF_BANK_CONFLICTS: return sema_bank_conflicts(ck, call, a);
	case BF_FULL_LIKE: return call_full_like(ck, call, false, a);
	case BF_ZEROS_LIKE: return call_full_like(ck, call, true, a);
	case BF_ADD: case BF_SUB: case BF_MUL: {
		/* sanitize_overflow only adds checks in Triton's debug mode; the
		 * values are those of the operators. */
		bool sanitize;
		if (!sema_opt_bool(ck, a[2], true, "sanitize_overflow", &sanitize))
			return NULL;
		TValue *r = sema_arith(ck, call->span, fn == BF_ADD ? OP_ADD : fn == BF_SUB ? OP_SUB
		                                                     : OP_MUL, a[0], a[1]);
		return r ? sema_rt_value(ck, r, call->span) : NULL;
	}
	case BF_LOAD: case BF_STORE: case BF_MULTIPLE_OF: case BF_MAX_CONTIGUOUS:
	case BF_MAX_CONSTANCY: case BF_ASSUME: case BF_ASYNC_COPY: case BF_ASYNC_COMMIT:
	case BF_ASYNC_WAIT: case BF_ASYNC_MBAR_ARRIVE:
		return sema_check_memory_call(ck, call, fn, a);
	case BF_SUM: case BF_MAX: case BF_MIN: case BF_XOR_SUM: case BF_REDUCE_OR: case BF_REDUCE:
	case BF_SCAN: case BF_CUMSUM: case BF_CUMPROD:
		return sema_check_reduce_call(ck, call, fn, a);
	case BF_ATOMIC_ADD: case BF_ATOMIC_AND: case BF_ATOMIC_OR: case BF_ATOMIC_XOR:
	case BF_ATOMIC_MAX: case BF_ATOMIC_MIN: case BF_ATOMIC_XCHG: case BF_ATOMIC_CAS:
		return sema_check_atomic_call(ck, call, fn, a);
	case BF_RESHAPE: case BF_PERMUTE: case BF_JOIN: case BF_SPLIT: case BF_BROADCAST:
	case BF_RAVEL: case BF_GATHER: case BF_HISTOGRAM: case BF_FP4_TO_FP:
		return sema_check_shape_call(ck, call, fn, a);
	case BF_WHERE: return call_where(ck, call, a);
	case BF_EXP: case BF_EXP2: case BF_LOG: case BF_LOG2: case BF_SQRT: case BF_RSQRT:
	case BF_ABS: case BF_SIN: case BF_COS: case BF_ERF: case BF_FLOOR: case BF_CEIL:
	case BF_SQRT_RN: case BF_FDIV: case BF_DIV_RN: case BF_FMA: case BF_UMULHI: case BF_CLAMP:
	case BF_MAXIMUM: case BF_MINIMUM: case BF_CDIV:
		return sema_check_math_call(ck, call, fn, a);
	case BF_CAST:
		return sema_cast_call(ck, call, a[0], a[1], a[2], a[3]);
	case BF_STATIC_PRINT: case BF_DEVICE_PRINT: case BF_DEVICE_ASSERT:
		return sema_check_debug_call(ck, call, fn, a);
	case BF_INLINE_ASM: case BF_MAP_ELEMENTWISE:
		return sema_check_elementwise_call(ck, call, fn, a);
	case BF_CONVERT_LAYOUT: return call_convert(ck, call, a);
	case BF_SET_AUTO_LAYOUT: return call_set_auto_layout(ck, call, a);
	case BF_EXPAND_DIMS: return call_expand_dims(ck, call, a);
	default:
		if (fn >= BF_PY_FIRST_)
			return sema_check_py_call(ck, call, fn, a);
		return sema_check_hopper_call(ck, call, fn, a);
	}
}
