/*
 * Attributes, subscripts and method calls: parameter types (gl.ptr[T],
 * gl.tensor_desc[T, shape, layout]), `x[:, None]`, tensor.to/shape/dtype,
 * descriptor queries, and method calls: shared buffers' (in
 * sema/builtins/smem.c), tensors' (the gl builtins of the same name, the
 * receiver first).
 */
#include "sema/check/check.h"

#include <string.h>

static Value *
shape_value(Check *ck, const TType *t, SrcSpan at)
{
	Value *v = sema_new_value(&ck->ev, VAL_LIST, at);
	v->u.list.n = (size_t)t->rank;
	v->u.list.items = arena_alloc(ck->a, (size_t)(t->rank + 1) * sizeof(Value *));
	for (int i = 0; i < t->rank; i++)
		v->u.list.items[i] = sema_int_value(&ck->ev, t->shape[i], at);
	return v;
}

static Value *
method(Check *ck, Value *self, const Node *n)
{
	Value *m = sema_new_value(&ck->ev, VAL_METHOD, n->span);
	m->u.method.self = self;
	m->u.method.name = n->u.attr.name;
	m->u.method.name_span = n->u.attr.name_span;
	return m;
}

static Value *
no_attr(Check *ck, const Node *n, Value *obj, const char *const *names, size_t k)
{
	Diag *g = diag_error(ck->d, n->u.attr.name_span, "%s has no attribute '%s'",
	                     obj->kind == VAL_RUNTIME ? sema_type_str(ck, obj->u.rt->type)
	                                              : sema_value_kind_phrase(obj), n->u.attr.name);
	const char *s = diag_suggest(n->u.attr.name, names, k);
	if (s)
		diag_note(ck->d, g, (SrcSpan){0}, "did you mean '%s'?", s);
	return NULL;
}

#define NAMES(...) ((const char *const[]){__VA_ARGS__}), \
	sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *)

static bool
is(const Node *n, const char *name)
{
	return strcmp(n->u.attr.name, name) == 0;
}

static Value *
layout_value(Check *ck, const TType *t, SrcSpan at)
{
	Value *v = sema_new_value(&ck->ev, VAL_LAYOUT, at);
	v->u.layout = t->layout.desc;
	return v;
}

/* A descriptor's block_type: Gluon's block_type (no layout) of its dtype
 * and block shape. */
static Value *
block_type_value(Check *ck, const TType *desc, SrcSpan at)
{
	Value *v = sema_new_value(&ck->ev, VAL_TYPE, at);
	v->u.type = sema_block_type(ck, sema_type_scalar(ck, desc->dtype), desc->shape, desc->rank);
	return v;
}

/* Attributes of a type (`x.type`, `desc.type`, `desc.block_type`): shape,
 * layout (not of a block_type), the element dtype (dtype, element_ty),
 * nbytes, a descriptor's block_type, shape_type and strides_type, and
 * with_element_ty of a block or distributed type. */
static Value *
type_attr(Check *ck, const Node *n, Value *obj)
{
	const TType *t = obj->u.type;
	bool shaped = t->kind == TY_DESC || t->kind == TY_TENSOR || t->kind == TY_SMEM ||
	              t->kind == TY_MBARRIER;
	if (shaped && is(n, "nbytes")) {
		int64_t e = 1;
		for (int i = 0; i < t->rank; i++)
			e *= t->shape[i];
		return sema_int_value(&ck->ev, e * ir_dtype_bits(t->dtype) / 8, n->span);
	}
	if (shaped && is(n, "shape"))
		return shape_value(ck, t, n->span);
	if (shaped && is(n, "layout") && t->layout.desc)
		return layout_value(ck, t, n->span);
	if (t->kind == TY_DESC && is(n, "block_type"))
		return block_type_value(ck, t, n->span);
	if (t->kind == TY_DESC && (is(n, "shape_type") || is(n, "strides_type")))
		return sema_scalar_tuple_type(ck, t->rank, is(n, "shape_type") ? DT_I32 : DT_I64,
		                              n->span);
	if (t->kind == TY_TENSOR && is(n, "with_element_ty"))
		return method(ck, obj, n);
	if ((is(n, "dtype") || is(n, "element_ty")) && t->elem_is_ptr) {
		Value *v = sema_new_value(&ck->ev, VAL_TYPE, n->span);
		v->u.type = sema_type_ptr(ck, t->dtype);
		return v;
	}
	if (is(n, "dtype") || is(n, "element_ty")) {
		Value *v = sema_new_value(&ck->ev, VAL_DTYPE, n->span);
		v->u.dtype = t->dtype;
		return v;
	}
	return no_attr(ck, n, obj, NAMES("nbytes", "shape", "layout", "dtype", "element_ty",
	                                  "block_type", "shape_type", "strides_type"));
}

Value *
sema_check_attr(Check *ck, const Node *n, Value *obj)
{
	if (obj->kind == VAL_TYPE)
		return type_attr(ck, n, obj);
	if (obj->kind == VAL_LAYOUT) {
		Value *v = sema_layout_attr(&ck->ev, obj->u.layout, n->u.attr.name, n->span);
		if (v)
			return v;
	}
	if (obj->kind != VAL_RUNTIME) {
		diag_error(ck->d, n->u.attr.name_span, "%s has no attribute '%s'",
		           sema_value_kind_phrase(obj), n->u.attr.name);
		return NULL;
	}
	const TType *t = obj->u.rt->type;
	if (is(n, "dtype") && t->kind != TY_PTR) {
		Value *v = sema_new_value(&ck->ev, VAL_DTYPE, n->span);
		v->u.dtype = t->dtype;
		return v;
	}
	switch (t->kind) {
	case TY_TENSOR:
		if (is(n, "shape"))
			return shape_value(ck, t, n->span);
		if (is(n, "T"))   /* Triton's code generator: permute(x, (1, 0)) */
			return sema_permute(ck, n->span, n->u.attr.name_span, obj->u.rt,
			                    (const int64_t[]){1, 0}, 2, "T");
		if (sema_builtin_method(METHODS_VALUE, n->u.attr.name) ||
		    sema_prelude_method(ck, n->u.attr.name, n->span))
			return method(ck, obj, n);
		return no_attr(ck, n, obj, NAMES("shape", "dtype", "T", "to", "reshape", "permute",
		                                 "split", "ravel", "sum", "max", "min", "reduce",
		                                 "associative_scan", "histogram", "gather"));
	case TY_SCALAR:
	case TY_PTR:
		if (is(n, "to"))
			return method(ck, obj, n);
		return no_attr(ck, n, obj, NAMES("dtype", "to"));
	case TY_DESC:
		if (is(n, "shape")) {
			Value *v = sema_new_value(&ck->ev, VAL_TUPLE, n->span);
			v->u.list.n = (size_t)t->rank;
			v->u.list.items = arena_alloc(ck->a, (size_t)(t->rank + 1) * sizeof(Value *));
			for (int i = 0; i < t->rank; i++) {
				TInst *in = sema_emit(ck, OP_DESC_SHAPE, n->span, sema_type_scalar(ck, DT_I32), 1,
				                 obj->u.rt);
				in->attr.axis = i;
				v->u.list.items[i] = sema_rt_value(ck, in->res, n->span);
			}
			return v;
		}
		if (is(n, "block_type"))
			return block_type_value(ck, t, n->span);
		if (is(n, "block_shape"))
			return shape_value(ck, t, n->span);
		if (is(n, "layout"))
			return layout_value(ck, t, n->span);
		if (sema_builtin_method(METHODS_DESC, n->u.attr.name))
			return method(ck, obj, n);
		return no_attr(ck, n, obj, NAMES("shape", "dtype", "block_type", "block_shape",
		                                  "layout", "load", "store"));
	case TY_SMEM:
	case TY_MBARRIER:
		if (is(n, "shape"))
			return shape_value(ck, t, n->span);
		if (is(n, "layout"))
			return layout_value(ck, t, n->span);
		if (is(n, "rank") || is(n, "numel")) {
			int64_t numel = 1;
			for (int d = 0; d < t->rank; d++)
				numel *= t->shape[d];
			Value *v = sema_new_value(&ck->ev, VAL_INT, n->span);
			v->u.i = is(n, "rank") ? t->rank : numel;
			return v;
		}
		if (is(n, "index") || is(n, "slice") || is(n, "permute") || is(n, "reshape") ||
		    is(n, "load") || is(n, "store") || is(n, "_reinterpret") || is(n, "_keep_alive"))
			return method(ck, obj, n);
		return no_attr(ck, n, obj, NAMES("shape", "dtype", "layout", "rank", "numel", "index",
		                                  "slice", "permute", "reshape", "load", "store",
		                                  "_reinterpret", "_keep_alive"));
	default:
		return no_attr(ck, n, obj, NULL, 0);
	}
}

static Value *
type_subscript(Check *ck, const Node *n, BuiltinFn fn)
{
	const Node *ix = n->u.subscript.index;
	Value *v = sema_eval_expr(&ck->ev, ix);
	if (!v)
		return NULL;
	Value *r = sema_new_value(&ck->ev, VAL_TYPE, n->span);
	TDType dt;
	if (fn == BF_PTR) {
		if (!sema_value_dtype(ck, v, "gl.ptr's element type", &dt))
			return NULL;
		r->u.type = sema_type_ptr(ck, dt);
		return r;
	}
	if (v->kind != VAL_TUPLE || v->u.list.n != 3) {
		diag_error(ck->d, ix->span, "gl.tensor_desc takes [dtype, block_shape, layout]");
		return NULL;
	}
	const LLDesc *l;
	int64_t block[LL_MAX_RANK + 1];
	int rank;
	if (!sema_value_dtype(ck, v->u.list.items[0], "the descriptor's dtype", &dt) ||
	    !sema_value_shape(ck, v->u.list.items[1], "the descriptor's block shape", block,
	                      &rank) ||
	    !(l = sema_value_layout(ck, v->u.list.items[2], "the descriptor's layout", true)))
		return NULL;
	TType *t = sema_desc_type(ck, dt, block, rank, l, v->u.list.items[2]->span);
	if (!t)
		return NULL;
	r->u.type = t;
	return r;
}

Value *
sema_check_subscript(Check *ck, const Node *n, Value *obj)
{
	if (obj->kind == VAL_BUILTIN && (sema_builtin_fn(obj->u.builtin) == BF_PTR ||
	                                 sema_builtin_fn(obj->u.builtin) == BF_TENSOR_DESC))
		return type_subscript(ck, n, sema_builtin_fn(obj->u.builtin));
	if (obj->kind != VAL_RUNTIME || obj->u.rt->type->kind != TY_TENSOR) {
		diag_error(ck->d, n->span, "%s cannot be indexed", obj->kind == VAL_RUNTIME ?
		           sema_type_str(ck, obj->u.rt->type) : sema_value_kind_phrase(obj));
		return NULL;
	}
	const Node *ix = n->u.subscript.index;
	const Node *const *items = &ix;
	size_t k = 1;
	if (ix->kind == N_TUPLE) {
		items = (const Node *const *)ix->u.list.items.data;
		k = ix->u.list.items.len;
	}
	TValue *x = obj->u.rt;
	int axis = 0, slices = 0;
	for (size_t i = 0; i < k; i++) {
		const Node *it = items[i];
		if (it->kind == N_SLICE && !it->u.slice.lo && !it->u.slice.hi && !it->u.slice.step) {
			axis++;
			slices++;
		} else if (it->kind != N_NONE) {
			diag_error(ck->d, it->span, "register tensors can only be indexed with ':' "
			           "and None (to add an axis): a part of a tensor (x[0:64], tl.slice) "
			           "cannot be taken, as in Triton");
			return NULL;
		} else {
			axis++;
		}
	}
	if (slices != x->type->rank) {
		diag_error(ck->d, ix->span, "this index has %d ':' but the tensor has rank %d",
		           slices, x->type->rank);
		return NULL;
	}
	Value *v = obj;
	axis = 0;
	for (size_t i = 0; i < k; i++, axis++) {
		if (items[i]->kind != N_NONE)
			continue;
		v = sema_expand_dims(ck, n->span, v->u.rt, axis);
		if (!v)
			return NULL;
	}
	return v;
}

Value *
sema_check_method_call(Check *ck, const Node *call, Value *m)
{
	Value *self = m->u.method.self;
	if (self->kind == VAL_TUPLE && self->u.list.cls)
		return sema_aggregate_method_call(ck, call, m);
	if (self->kind == VAL_TYPE)
		return sema_type_method_call(ck, call, m);
	if (self->kind != VAL_RUNTIME)
		return sema_py_method_call(ck, call, m);
	const TType *t = self->u.rt->type;
	bool of_smem = t->kind == TY_SMEM || t->kind == TY_MBARRIER;
	MethodsOf of = of_smem ? METHODS_SMEM : t->kind == TY_DESC ? METHODS_DESC : METHODS_VALUE;
	const Builtin *b = sema_builtin_method(of, m->u.method.name);
	Value *a[SEMA_MAX_BUILTIN_PARAMS] = {0};
	if (of_smem)
		return b && sema_bind_builtin(ck, call, b, a)
		       ? sema_check_smem_method(ck, call, sema_builtin_fn(b), self, a) : NULL;
	if (!b && of == METHODS_VALUE) {
		Value *f = sema_prelude_method(ck, m->u.method.name, call->span);
		return f ? sema_check_func_call(ck, call, f->u.func, self) : NULL;
	}
	/* the receiver is the first parameter of a tensor's methods */
	if (!b || !sema_bind_method(ck, call, b, self, a))
		return NULL;
	if (sema_builtin_fn(b) == BF_TO)
		return sema_cast_call(ck, call, self, a[1], a[2], a[3]);
	const Builtin *outer = ck->call;
	ck->call = b;
	Value *r = sema_dispatch_builtin(ck, call, sema_builtin_fn(b), a);
	ck->call = outer;
	return r;
}
