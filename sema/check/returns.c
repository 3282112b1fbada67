/*
 * `return` inside a runtime `if`: the early return of a kernel
 * (`if pid >= n: return`) and the branches of a device function that each
 * return (`if x > 0: return x` / `else: return alpha * ...`).
 *
 * A runtime `if` with a return in it must return on every path of a
 * branch that returns; the statements after the `if` become the other
 * branch (its else, or its then when only the else returns), so that
 * every path through the `if` ends in a return. Each return met (nested
 * runtime ifs included) is recorded with the block it ends; when the
 * outermost such `if` is checked, one variable per returned leaf is
 * written at the end of each of those blocks and read after the `if`:
 * that read is the function's result. Returns inside runtime loops stay
 * unsupported (the loop would need to stop).
 */
#include "sema/check/check.h"

#include <string.h>

enum { MAX_RETURN_SITES = 64, MAX_RETURN_DEPTH = 8 };

/* Whether every path through stmts ends in a return (a return last, or
 * an if whose branches both do). */
static bool
all_paths_return(const NodeList *stmts)
{
	if (!stmts->len)
		return false;
	const Node *last = stmts->data[stmts->len - 1];
	if (last->kind == N_RETURN)
		return true;
	return last->kind == N_IF && all_paths_return(&last->u.if_.then) &&
	       all_paths_return(&last->u.if_.else_);
}

/* Whether a return appears in stmts outside nested functions and loops. */
static bool
has_return(const NodeList *stmts)
{
	for (size_t i = 0; i < stmts->len; i++) {
		const Node *s = stmts->data[i];
		if (s->kind == N_RETURN ||
		    (s->kind == N_IF && (has_return(&s->u.if_.then) || has_return(&s->u.if_.else_))))
			return true;
	}
	return false;
}

bool
sema_if_returns(const Node *s)
{
	return has_return(&s->u.if_.then) || has_return(&s->u.if_.else_);
}

/* a followed by b (either may be empty), in the arena. */
static const NodeList *
concat(Check *ck, const NodeList *a, const NodeList *b)
{
	if (!b->len)
		return a;
	NodeList *r = arena_alloc(ck->a, sizeof *r);
	for (size_t i = 0; i < a->len; i++)
		vec_push(ck->a, r, a->data[i]);
	for (size_t i = 0; i < b->len; i++)
		vec_push(ck->a, r, b->data[i]);
	return r;
}

void
sema_return_site(Check *ck, SrcSpan at, Value *v)
{
	ReturnSite site = {ck->blk, v, at};
	vec_push(ck->a, &ck->fr->sites, site);
	ck->fr->returned = true;
}

static bool
is_number(const Value *v)
{
	return v->kind == VAL_INT || v->kind == VAL_FLOAT || v->kind == VAL_BOOL;
}

/* The value returned on every path: leaf k of each site's value (path
 * picks it out of nested tuples), through one variable. */
static Value *
merge_leaf(Check *ck, const ReturnSite *sites, size_t n, const size_t *path, int depth,
           SrcSpan at)
{
	const Value *leaf[MAX_RETURN_SITES];
	const TType *like = NULL;
	TDType dt = DT_VOID;
	for (size_t s = 0; s < n; s++) {
		const Value *v = sites[s].v;
		for (int d = 0; d < depth; d++)
			v = v->u.list.items[path[d]];
		leaf[s] = v;
		if (v->kind == VAL_RUNTIME) {
			TDType t = v->u.rt->type->dtype;
			like = like ? like : v->u.rt->type;
			TDType u = dt == DT_VOID ? t : sema_computation_type(dt, false, t, false, false);
			if (u == DT_VOID) {
				diag_error(ck->d, sites[s].at, "this return gives %s where another "
				           "gives %s, and they have no common type", ir_dtype_name(t),
				           ir_dtype_name(dt));
				return NULL;
			}
			dt = u;
		} else if (!is_number(v)) {
			diag_error(ck->d, sites[s].at, "a return inside a runtime if must give a number "
			           "or tensor (or a tuple of them) on every path, not %s",
			           sema_value_kind_phrase(v));
			return NULL;
		}
	}
	TBlock *here = ck->blk;
	TVar *var = NULL;
	for (size_t s = 0; s < n; s++) {
		ck->blk = sites[s].blk;
		TValue *t = sema_materialize(ck, (Value *)leaf[s], dt);
		if (t && dt == DT_VOID)
			dt = t->type->dtype;
		if (t)
			t = sema_cast_to(ck, t, dt, sites[s].at);
		if (t && like && like->kind == TY_TENSOR && t->type->kind != TY_TENSOR)
			t = sema_splat_to(ck, t, sema_type_with_elem(ck, like, sema_type_scalar(ck, dt)),
			                  sites[s].at);
		if (t && var && !ir_type_equal(t->type, var->type)) {
			diag_error(ck->d, sites[s].at, "this return gives %s, another path %s",
			           sema_type_str(ck, t->type), sema_type_str(ck, var->type));
			t = NULL;
		}
		if (!t) {
			ck->blk = here;
			return NULL;
		}
		var = var ? var : sema_new_var(ck, "return", t->type);
		sema_emit(ck, OP_VAR_WRITE, sites[s].at, NULL, 1, t)->var = var;
	}
	ck->blk = here;
	TInst *r = sema_emit(ck, OP_VAR_READ, at, var->type, 0);
	r->var = var;
	return sema_rt_value(ck, r->res, at);
}

static Value *
merge(Check *ck, const ReturnSite *sites, size_t n, size_t *path, int depth, SrcSpan at)
{
	const Value *first = sites[0].v;
	for (int d = 0; d < depth; d++)
		first = first->u.list.items[path[d]];
	bool tuple = first->kind == VAL_TUPLE || first->kind == VAL_NONE;
	for (size_t s = 1; s < n && tuple; s++) {
		const Value *v = sites[s].v;
		for (int d = 0; d < depth; d++)
			v = v->u.list.items[path[d]];
		if (v->kind != first->kind || (v->kind == VAL_TUPLE && (v->u.list.n != first->u.list.n ||
		    v->u.list.cls != first->u.list.cls))) {
			diag_error(ck->d, sites[s].at, "the returns of a runtime if give values of "
			           "different shapes (%s and %s)", sema_value_kind_phrase(first),
			           sema_value_kind_phrase(v));
			return NULL;
		}
	}
	if (first->kind == VAL_NONE)
		return sema_new_value(&ck->ev, VAL_NONE, at);
	if (depth >= MAX_RETURN_DEPTH || n > MAX_RETURN_SITES) {
		diag_error(ck->d, at, "this runtime if returns on more than %d paths or tuples nested "
		           "more than %d deep", MAX_RETURN_SITES, MAX_RETURN_DEPTH);
		return NULL;
	}
	if (!tuple)
		return merge_leaf(ck, sites, n, path, depth, at);
	Value *t = sema_new_value(&ck->ev, VAL_TUPLE, at);
	t->u.list.n = first->u.list.n;
	t->u.list.cls = first->u.list.cls;
	t->u.list.items = arena_alloc(ck->a, (first->u.list.n + 1) * sizeof(Value *));
	for (size_t k = 0; k < first->u.list.n; k++) {
		path[depth] = k;
		if (!(t->u.list.items[k] = merge(ck, sites, n, path, depth + 1, at)))
			return NULL;
	}
	return t;
}

void
sema_check_returning_if(Check *ck, const Node *s, TValue *cond, const NodeList *rest)
{
	const NodeList *then = &s->u.if_.then, *els = &s->u.if_.else_;
	bool then_ret = all_paths_return(then), else_ret = all_paths_return(els);
	Frame *fr = ck->fr;
	if (!then_ret && !else_ret) {
		diag_error(ck->d, s->span, "a 'return' inside this runtime if must end every path of "
		           "its branch (the statements after the if run on the other branch)");
		fr->returned = true;   /* the result is NULL: reported */
		fr->ret = NULL;
		return;
	}
	if (!then_ret)
		then = concat(ck, then, rest);
	if (!else_ret)
		els = concat(ck, els, rest);
	size_t start = fr->sites.len;
	sema_prepare_vars(ck, then, els, s->span);
	TInst *i = sema_emit(ck, OP_IF, s->span, NULL, 1, cond);
	TBlock *saved = ck->blk;
	fr->rt_depth++;
	fr->capture++;
	ck->blk = &i->body;
	sema_check_block(ck, then);
	fr->returned = false;
	ck->blk = &i->else_body;
	sema_check_block(ck, els);
	fr->returned = true;
	fr->capture--;
	fr->rt_depth--;
	ck->blk = saved;
	if (fr->capture)   /* an enclosing returning if merges every site */
		return;
	size_t path[MAX_RETURN_DEPTH];
	fr->ret = fr->sites.len > start ? merge(ck, fr->sites.data + start, fr->sites.len - start,
	                                        path, 0, s->span) : NULL;
	fr->sites.len = start;
}
