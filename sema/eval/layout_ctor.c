/*
 * Layout constructors: binds the arguments of a call such as
 * `BlockedLayout([1,4],[8,4],[4,1],[1,0])` to the parameters Gluon declares,
 * checks each argument's type, and fills an LLDesc. Parameter tables map
 * straight onto LLDesc fields.
 */
#include "sema/eval/eval.h"

#include <stddef.h>
#include <string.h>

typedef enum ParamType {
	P_INT,      /* an int field */
	P_INTS,     /* an LLInts field: a list of integers */
	P_BASES,    /* an LLBases field: a list of integer lists */
	P_LAYOUT,   /* the parent: a distributed layout */
	P_BOOL,     /* a bool field */
	P_EMPTY,    /* accepted only empty/default (cga_layout) */
	P_CGA,      /* an LLBases field of CTA bases: any for `glc layout` (no
	               program), only empty in a program (one CTA) */
	P_IGNORED,  /* accepted and checked to be an int, no effect (alignment) */
} ParamType;

typedef struct Param {
	const char *name;
	ParamType type;
	size_t off;          /* offset of the LLDesc field */
	bool required;
} Param;

enum { MAX_PARAMS = 8 };

typedef struct Ctor {
	const char *name;
	LLKind kind;
	Param params[MAX_PARAMS];
	int n_params;
} Ctor;

#define F(field) offsetof(LLDesc, field)

static const Ctor ctors[] = {
	{"BlockedLayout", LL_BLOCKED, {
		{"size_per_thread", P_INTS, F(size_per_thread), true},
		{"threads_per_warp", P_INTS, F(threads_per_warp), true},
		{"warps_per_cta", P_INTS, F(warps_per_cta), true},
		{"order", P_INTS, F(order), true},
		{"cga_layout", P_CGA, F(cga_layout), false}}, 5},
	{"SliceLayout", LL_SLICE, {
		{"dim", P_INT, F(dim), true},
		{"parent", P_LAYOUT, F(parent), true}}, 2},
	{"DotOperandLayout", LL_DOT_OPERAND, {
		{"operand_index", P_INT, F(operand_index), true},
		{"parent", P_LAYOUT, F(parent), true},
		{"k_width", P_INT, F(k_width), true}}, 3},
	{"NVMMADistributedLayout", LL_NVMMA_DISTRIBUTED, {
		{"version", P_INTS, F(version), true},
		{"warps_per_cta", P_INTS, F(warps_per_cta), true},
		{"instr_shape", P_INTS, F(instr_shape), true},
		{"cga_layout", P_CGA, F(cga_layout), false}}, 4},
	{"DistributedLinearLayout", LL_DISTRIBUTED_LINEAR, {
		{"reg_bases", P_BASES, F(reg_bases), true},
		{"lane_bases", P_BASES, F(lane_bases), true},
		{"warp_bases", P_BASES, F(warp_bases), true},
		{"block_bases", P_BASES, F(block_bases), true},
		{"shape", P_INTS, F(shape), true}}, 5},
	{"NVMMASharedLayout", LL_NVMMA_SHARED, {
		{"swizzle_byte_width", P_INT, F(swizzle_byte_width), true},
		{"element_bitwidth", P_INT, F(element_bitwidth), true},
		{"rank", P_INT, F(rank), false},
		{"transposed", P_BOOL, F(transposed), false},
		{"fp4_padded", P_BOOL, F(fp4_padded), false},
		{"cga_layout", P_CGA, F(cga_layout), false}}, 6},
	{"SwizzledSharedLayout", LL_SWIZZLED_SHARED, {
		{"vec", P_INT, F(vec), true},
		{"per_phase", P_INT, F(per_phase), true},
		{"max_phase", P_INT, F(max_phase), true},
		{"order", P_INTS, F(order), true},
		{"cga_layout", P_CGA, F(cga_layout), false}}, 5},
	{"SharedLinearLayout", LL_SHARED_LINEAR, {
		{"offset_bases", P_BASES, F(offset_bases), true},
		{"block_bases", P_BASES, F(block_bases), false},
		{"alignment", P_IGNORED, 0, false}}, 3},
	/* Triton 3.6 names the third field block_bases, later versions cga_layout */
	{"PaddedSharedLayout", LL_PADDED_SHARED, {
		{"interval_padding_pairs", P_BASES, F(interval_padding_pairs), true},
		{"offset_bases", P_BASES, F(offset_bases), true},
		{"block_bases", P_CGA, F(block_bases), false},
		{"shape", P_INTS, F(shape), true},
		{"cga_layout", P_EMPTY, 0, false}}, 5},
	/* mbarrier.MBarrierLayout() = SwizzledSharedLayout(1, 1, 1, [0]) */
	{"MBarrierLayout", LL_SWIZZLED_SHARED, {{0}}, 0},
};

#undef F

size_t
sema_layout_ctor_count(void)
{
	return sizeof ctors / sizeof *ctors;
}

static bool
int_in_range(Eval *e, const Value *v, const char *what, int64_t lo, int64_t hi, int64_t *out)
{
	if (v->kind == VAL_BOOL || v->kind != VAL_INT) {
		diag_error(e->diags, v->span, "%s must be an integer, not %s", what,
		           sema_value_kind_phrase(v));
		return false;
	}
	if (v->u.i < lo || v->u.i > hi) {
		diag_error(e->diags, v->span, "%s is %lld, outside [%lld, %lld]", what,
		           (long long)v->u.i, (long long)lo, (long long)hi);
		return false;
	}
	*out = v->u.i;
	return true;
}

static bool
is_sequence(const Value *v)
{
	return v->kind == VAL_LIST || v->kind == VAL_TUPLE;
}

static bool
fill_ints(Eval *e, const Value *v, const char *what, LLInts *out)
{
	if (!is_sequence(v)) {
		diag_error(e->diags, v->span, "%s must be a list of integers, not %s", what,
		           sema_value_kind_phrase(v));
		return false;
	}
	if (v->u.list.n > LL_MAX_LIST) {
		diag_error(e->diags, v->span, "%s has %zu entries; at most %d are supported",
		           what, v->u.list.n, LL_MAX_LIST);
		return false;
	}
	out->n = (int)v->u.list.n;
	for (size_t i = 0; i < v->u.list.n; i++)
		if (!int_in_range(e, v->u.list.items[i], what, -(1ll << 31), (1ll << 31) - 1,
		                  &out->v[i]))
			return false;
	return true;
}

static bool
fill_bases(Eval *e, const Value *v, const char *what, LLBases *out)
{
	if (!is_sequence(v)) {
		diag_error(e->diags, v->span, "%s must be a list of bases (lists of integers), "
		           "not %s", what, sema_value_kind_phrase(v));
		return false;
	}
	if (v->u.list.n > LL_MAX_LIST) {
		diag_error(e->diags, v->span, "%s has %zu bases; at most %d are supported",
		           what, v->u.list.n, LL_MAX_LIST);
		return false;
	}
	out->n = (int)v->u.list.n;
	for (size_t i = 0; i < v->u.list.n; i++)
		if (!fill_ints(e, v->u.list.items[i], what, &out->b[i]))
			return false;
	return true;
}

static bool
is_empty_default(const Value *v)
{
	return v->kind == VAL_NONE || (v->kind == VAL_BOOL && !v->u.b) ||
	       (is_sequence(v) && v->u.list.n == 0);
}

static bool
fill_param(Eval *e, const Ctor *c, const Param *p, const Value *v, LLDesc *desc)
{
	char *field = (char *)desc + p->off;
	const char *what = arena_printf(e->arena, "%s's '%s'", c->name, p->name);
	int64_t i;
	switch (p->type) {
	case P_INT:
		if (!int_in_range(e, v, what, -(1ll << 31), (1ll << 31) - 1, &i))
			return false;
		*(int *)field = (int)i;
		return true;
	case P_INTS:
		return fill_ints(e, v, what, (LLInts *)field);
	case P_BASES:
		return fill_bases(e, v, what, (LLBases *)field);
	case P_BOOL:
		if (v->kind != VAL_BOOL) {
			diag_error(e->diags, v->span, "%s must be True or False, not %s", what,
			           sema_value_kind_phrase(v));
			return false;
		}
		*(bool *)field = v->u.b;
		return true;
	case P_LAYOUT:
		if (v->kind != VAL_LAYOUT || ll_desc_is_shared(v->u.layout)) {
			diag_error(e->diags, v->span, "%s must be a distributed layout, not %s",
			           what, v->kind == VAL_LAYOUT ? "a shared layout" : sema_value_kind_phrase(v));
			return false;
		}
		*(const LLDesc **)field = v->u.layout;
		return true;
	case P_CGA:
		if (!e->ck)   /* `glc layout`: a layout of any cluster */
			return fill_bases(e, v, what, (LLBases *)field);
		/* fall through */   /* a program runs one CTA */
	case P_EMPTY:
		if (!is_empty_default(v)) {
			Diag *g = diag_error(e->diags, v->span, "%s is not supported", what);
			diag_note(e->diags, g, (SrcSpan){0}, "glc compiles for one CTA per "
			          "cluster slot; leave '%s' at its default", p->name);
			return false;
		}
		return true;
	case P_IGNORED:
		return int_in_range(e, v, what, 1, 1 << 20, &i);
	}
	return false;
}

static int
param_index(const Ctor *c, const char *name)
{
	for (int i = 0; i < c->n_params; i++)
		if (strcmp(c->params[i].name, name) == 0)
			return i;
	return -1;
}

Value *
sema_eval_layout_ctor(Eval *e, const Builtin *b, const Node *call)
{
	const char *name = sema_builtin_name(b);
	const Ctor *c = NULL;
	for (size_t i = 0; i < sema_layout_ctor_count(); i++)
		if (strcmp(ctors[i].name, name) == 0)
			c = &ctors[i];
	if (!c)
		return NULL;

	const Value *args[MAX_PARAMS] = {0};
	bool ok = true;
	const NodeList *pos = &call->u.call.args, *kw = &call->u.call.kwargs;
	for (size_t i = 0; i < pos->len; i++) {
		if ((int)i >= c->n_params) {
			diag_error(e->diags, pos->data[i]->span, "%s takes %d argument%s, but %zu "
			           "were given", c->name, c->n_params, c->n_params == 1 ? "" : "s",
			           pos->len);
			return NULL;
		}
		args[i] = sema_eval_expr(e, pos->data[i]);
		ok &= args[i] != NULL;
	}
	for (size_t i = 0; i < kw->len; i++) {
		const Node *k = kw->data[i];
		int p = param_index(c, k->u.keyword.name);
		if (p < 0) {
			const char *names[MAX_PARAMS];
			for (int j = 0; j < c->n_params; j++)
				names[j] = c->params[j].name;
			Diag *g = diag_error(e->diags, k->span, "%s has no parameter '%s'",
			                     c->name, k->u.keyword.name);
			const char *s = diag_suggest(k->u.keyword.name, names, (size_t)c->n_params);
			if (s)
				diag_note(e->diags, g, (SrcSpan){0}, "did you mean '%s'?", s);
			ok = false;
			continue;
		}
		if (args[p]) {
			diag_error(e->diags, k->span, "%s got two values for '%s'", c->name,
			           c->params[p].name);
			ok = false;
			continue;
		}
		args[p] = sema_eval_expr(e, k->u.keyword.value);
		ok &= args[p] != NULL;
	}
	if (!ok)
		return NULL;

	LLDesc *desc = arena_alloc(e->arena, sizeof *desc);
	desc->kind = c->kind;
	if (c->kind == LL_NVMMA_SHARED)
		desc->rank = 2;
	if (c->n_params == 0) {   /* MBarrierLayout */
		desc->vec = desc->per_phase = desc->max_phase = 1;
		desc->order.n = 1;
	}
	for (int i = 0; i < c->n_params; i++) {
		const Param *p = &c->params[i];
		if (!args[i]) {
			if (p->required) {
				diag_error(e->diags, call->span, "%s is missing its argument '%s'",
				           c->name, p->name);
				ok = false;
			}
			continue;
		}
		ok &= fill_param(e, c, p, args[i], desc);
	}
	LLErr err = {e->arena, NULL};
	if (ok && !ll_desc_verify(desc, &err)) {   /* Gluon verifies padded layouts at once */
		diag_error(e->diags, call->span, "%s", err.msg);
		ok = false;
	}
	if (!ok)
		return NULL;
	Value *v = arena_alloc(e->arena, sizeof *v);
	v->kind = VAL_LAYOUT;
	v->span = call->span;
	v->u.layout = desc;
	return v;
}

Value *
sema_padded_identity(Eval *e, const Node *call, Value **a)
{
	const char *fn = "PaddedSharedLayout.with_identity_for";
	LLBases pairs;
	LLInts shape, order;
	if (!fill_bases(e, a[0], arena_printf(e->arena, "%s's 'interval_padding_pairs'", fn),
	                &pairs) ||
	    !fill_ints(e, a[1], arena_printf(e->arena, "%s's 'shape'", fn), &shape) ||
	    !fill_ints(e, a[2], arena_printf(e->arena, "%s's 'order'", fn), &order))
		return NULL;
	if (a[3] && !is_empty_default(a[3])) {
		diag_error(e->diags, a[3]->span, "%s's 'cga_layout' must be empty (glc compiles one "
		           "CTA per program)", fn);
		return NULL;
	}
	if (shape.n != order.n || shape.n > LL_MAX_RANK) {
		diag_error(e->diags, call->span, "%s: shape has %d entries and order %d; they must "
		           "match (at most %d)", fn, shape.n, order.n, LL_MAX_RANK);
		return NULL;
	}
	LLErr err = {e->arena, NULL};
	const LLDesc *d = ll_desc_padded_identity(e->arena, &pairs, shape.v, order.v, shape.n,
	                                          &err);
	if (!d) {
		diag_error(e->diags, call->span, "%s", err.msg);
		return NULL;
	}
	Value *v = sema_new_value(e, VAL_LAYOUT, call->span);
	v->u.layout = d;
	return v;
}

static Value *
ints_value(Eval *e, const LLInts *x, SrcSpan at)
{
	Value *v = sema_new_value(e, VAL_LIST, at);
	v->u.list.n = (size_t)x->n;
	v->u.list.items = arena_alloc(e->arena, (size_t)(x->n ? x->n : 1) * sizeof *v->u.list.items);
	for (int i = 0; i < x->n; i++)
		v->u.list.items[i] = sema_int_value(e, x->v[i], at);
	return v;
}

/* Gluon's layout.rank. */
static int
layout_rank(const LLDesc *d)
{
	switch (d->kind) {
	case LL_BLOCKED: return d->size_per_thread.n;
	case LL_SLICE: return layout_rank(d->parent) - 1;
	case LL_DOT_OPERAND: return layout_rank(d->parent);
	case LL_NVMMA_DISTRIBUTED: return d->warps_per_cta.n;
	case LL_DISTRIBUTED_LINEAR: return d->shape.n;
	case LL_NVMMA_SHARED: return d->rank;
	case LL_SWIZZLED_SHARED: return d->order.n;
	case LL_SHARED_LINEAR: return d->offset_bases.n ? d->offset_bases.b[0].n : 0;
	case LL_PADDED_SHARED: return d->shape.n;
	case LL_AUTO: return 0;
	}
	return 0;
}

Value *
sema_layout_attr(Eval *e, const LLDesc *d, const char *name, SrcSpan at)
{
	if (d->kind != LL_AUTO && strcmp(name, "rank") == 0)
		return sema_int_value(e, layout_rank(d), at);
	if (d->kind != LL_AUTO && strcmp(name, "cga_layout") == 0)   /* one CTA: no bases */
		return ints_value(e, &(LLInts){0}, at);
	const Ctor *c = NULL;
	for (size_t i = 0; i < sema_layout_ctor_count() && !c; i++)
		if (ctors[i].kind == d->kind)
			c = &ctors[i];
	int p = c ? param_index(c, name) : -1;
	if (p < 0)
		return NULL;
	const char *field = (const char *)d + c->params[p].off;
	Value *v;
	switch (c->params[p].type) {
	case P_INT:
		return sema_int_value(e, *(const int *)field, at);
	case P_INTS:
		return ints_value(e, (const LLInts *)field, at);
	case P_BASES: {
		const LLBases *b = (const LLBases *)field;
		v = sema_new_value(e, VAL_LIST, at);
		v->u.list.n = (size_t)b->n;
		v->u.list.items = arena_alloc(e->arena, (size_t)(b->n ? b->n : 1) *
		                              sizeof *v->u.list.items);
		for (int i = 0; i < b->n; i++)
			v->u.list.items[i] = ints_value(e, &b->b[i], at);
		return v;
	}
	case P_BOOL:
		v = sema_new_value(e, VAL_BOOL, at);
		v->u.b = *(const bool *)field;
		return v;
	case P_LAYOUT:
		v = sema_new_value(e, VAL_LAYOUT, at);
		v->u.layout = *(const LLDesc *const *)field;
		return v;
	case P_CGA:
	case P_EMPTY:   /* cga_layout: [] */
		return ints_value(e, &(LLInts){0}, at);
	case P_IGNORED:
		return NULL;
	}
	return NULL;
}
