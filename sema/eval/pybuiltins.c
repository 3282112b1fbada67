/*
 * Python's builtins at compile time (float, int, len, min, max, abs,
 * isinstance; the iteration ones are pymethods.c's), gl.static_assert, and
 * the names that only a Gluon .py file needs: gl.constexpr(v),
 * gl.num_warps(), gl.num_ctas(), the target (triton.runtime.driver.active.
 * get_current_target()), and the decorators (constexpr_function, aggregate,
 * staticmethod), which are not callable in a kernel. Also the attributes
 * Gluon code reads off compile-time objects.
 */
#include "sema/eval/eval.h"

#include <math.h>
#include <string.h>

/* isinstance(obj, classinfo): classinfo is a class, a builtin (int, float,
 * list, tuple, a layout class, gl.tensor, ...) or a tuple of them. */
static bool
is_instance(const Value *obj, const Value *cls, int depth)
{
	if (cls->kind == VAL_TUPLE || cls->kind == VAL_LIST) {
		for (size_t i = 0; depth < SEMA_MAX_VALUE_DEPTH && i < cls->u.list.n; i++)
			if (is_instance(obj, cls->u.list.items[i], depth + 1))
				return true;
		return false;
	}
	if (cls->kind == VAL_CLASS)
		return obj->kind == VAL_TUPLE && obj->u.list.cls == cls->u.cls;
	if (cls->kind == VAL_BUILTIN) {
		const char *n = sema_builtin_name(cls->u.builtin);
		if (sema_builtin_is_layout_ctor(cls->u.builtin)) {
			if (obj->kind != VAL_LAYOUT)
				return false;
			StrBuf b = {0};
			ll_desc_print(obj->u.layout, &b);
			size_t len = strlen(n);
			bool same = b.s && strncmp(b.s, n, len) == 0 && b.s[len] == '(';
			buf_free(&b);
			return same;
		}
		if (sema_builtin_fn(cls->u.builtin) == BF_INT)
			return obj->kind == VAL_INT;
		if (sema_builtin_fn(cls->u.builtin) == BF_FLOAT)
			return obj->kind == VAL_FLOAT;
		if (sema_builtin_fn(cls->u.builtin) == BF_LIST_PY)
			return obj->kind == VAL_LIST;
		if (sema_builtin_fn(cls->u.builtin) == BF_TUPLE_PY)
			return obj->kind == VAL_TUPLE && !obj->u.list.cls;
		return sema_is_class_instance(obj, sema_builtin_fn(cls->u.builtin));
	}
	return false;
}

/* A classinfo (or a member of a classinfo tuple) that is host Python, which
 * glc cannot test against (isinstance would be false whatever obj is). */
static const Value *
host_class(const Value *cls, int depth)
{
	if (cls->kind == VAL_HOST)
		return cls;
	if (cls->kind == VAL_TUPLE || cls->kind == VAL_LIST)
		for (size_t i = 0; depth < SEMA_MAX_VALUE_DEPTH && i < cls->u.list.n; i++) {
			const Value *h = host_class(cls->u.list.items[i], depth + 1);
			if (h)
				return h;
		}
	return NULL;
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
sema_check_py_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	Value *v;
	switch (fn) {
	case BF_FLOAT: case BF_INT: case BF_LEN: case BF_MIN_PY: case BF_MAX_PY:
		return call_compile_time(ck, call, fn, a);
	case BF_STATIC_ASSERT:
		return call_static_assert(ck, call, a);
	case BF_CONSTEXPR:
		/* gl.constexpr(v) is v: glc has no wrapper objects */
		return a[0] ? a[0] : sema_new_value(&ck->ev, VAL_NONE, call->span);
	case BF_NUM_WARPS:
		if (!ck->k) {
			diag_error(ck->d, call->span, "gl.num_warps() is only known inside a kernel");
			return NULL;
		}
		return sema_int_value(&ck->ev, ck->k->num_warps, call->span);
	case BF_NUM_CTAS:
		return sema_int_value(&ck->ev, 1, call->span);
	case BF_NVMMA_DEFAULT:
		return sema_nvmma_default(ck, call, a);
	case BF_PADDED_IDENTITY:
		return sema_padded_identity(&ck->ev, call, a);
	case BF_LIST_PY: case BF_TUPLE_PY: case BF_SUM_PY: case BF_ZIP: case BF_ENUMERATE:
	case BF_ANY: case BF_ALL: case BF_SORTED: case BF_REVERSED:
		return sema_py_iter_call(ck, call, fn, a);
	case BF_CURRENT_TARGET:
		v = sema_new_value(&ck->ev, VAL_BUILTIN, call->span);
		v->u.builtin = sema_builtin_namespace("target");
		return v;
	case BF_ISINSTANCE: {
		const Value *h = host_class(a[1], 0);
		if (h) {
			sema_host_error(ck, h->span, h);
			return NULL;
		}
		v = sema_new_value(&ck->ev, VAL_BOOL, call->span);
		v->u.b = is_instance(a[0], a[1], 0);
		return v;
	}
	case BF_ABS_PY:
		if (a[0]->kind == VAL_INT && a[0]->u.i != INT64_MIN)
			return sema_int_value(&ck->ev, a[0]->u.i < 0 ? -a[0]->u.i : a[0]->u.i,
			                      call->span);
		if (a[0]->kind == VAL_FLOAT) {
			v = sema_new_value(&ck->ev, VAL_FLOAT, call->span);
			v->u.f = a[0]->u.f < 0 ? -a[0]->u.f : a[0]->u.f;
			return v;
		}
		diag_error(ck->d, a[0]->span, "abs() needs a compile-time number, not %s",
		           sema_value_kind_phrase(a[0]));
		return NULL;
	default:
		if (fn >= BF_CLS_FIRST_)
			return sema_type_class_call(ck, call, fn, a);
		diag_error(ck->d, call->span, "a decorator cannot be called here");
		return NULL;
	}
}

/* The compilation target, as triton.runtime.driver.active.
 * get_current_target() describes it: backend "cuda", arch 90, warp_size 32. */
static Value *
target_attr(Check *ck, const Node *n)
{
	const char *name = n->u.attr.name;
	if (strcmp(name, "warp_size") == 0 || strcmp(name, "arch") == 0)
		return sema_int_value(&ck->ev, name[0] == 'w' ? 32 : 90, n->span);
	if (strcmp(name, "backend") == 0) {
		Value *v = sema_new_value(&ck->ev, VAL_STR, n->span);
		v->u.str.s = "cuda";
		v->u.str.len = 4;
		return v;
	}
	diag_error(ck->d, n->u.attr.name_span, "the target has no attribute '%s' (it has "
	           "backend, arch and warp_size)", name);
	return NULL;
}

/* An accumulator's one attribute, as Gluon's: .type (its tensor is reached
 * only through warpgroup_mma_wait). */
static Value *
wgmma_acc_attr(Check *ck, const Node *n, const Value *acc)
{
	if (strcmp(n->u.attr.name, "type") == 0)
		return sema_wgmma_acc_type(ck, acc->u.inner->u.rt->type, n->span);
	diag_error(ck->d, n->u.attr.name_span, "a warpgroup_mma_accumulator has no attribute '%s' "
	           "(an asynchronous warpgroup_mma result: call warpgroup_mma_wait(num_outstanding, "
	           "deps=[acc]) first; it returns the tensor)", n->u.attr.name);
	return NULL;
}

/* Attributes of compile-time objects that Gluon code reads: a module's
 * names, an aggregate's fields and methods, `x.value` of a constexpr,
 * a dtype's `primitive_bitwidth`, a pointer's `dtype.element_ty`. *handled
 * is false when obj is none of these (the caller goes on). */
Value *
sema_py_attr(Check *ck, const Node *n, Value *obj, bool *handled)
{
	const char *name = n->u.attr.name;
	Value *m;
	*handled = true;
	switch (obj->kind) {
	case VAL_HOST:
		sema_host_error(ck, n->span, obj);
		return NULL;
	case VAL_MODULE: {
		SemaModule *saved = ck->mod;
		Frame *saved_fr = ck->fr;
		ck->mod = obj->u.mod;
		ck->fr = NULL;
		Binding *b = sema_local_find(ck, name);
		Value *v = b ? (b->v && b->v->kind == VAL_LAZY ? sema_force_lazy(ck, b) : b->v) : NULL;
		ck->mod = saved;
		ck->fr = saved_fr;
		if (!b)
			diag_error(ck->d, n->u.attr.name_span, "module '%s' has no top-level name '%s'",
			           obj->u.mod->name, name);
		return v;
	}
	case VAL_CLASS:
		return sema_aggregate_attr(ck, n, obj);
	case VAL_TUPLE:
		if (obj->u.list.cls)
			return sema_aggregate_attr(ck, n, obj);
		if (strcmp(name, "type") == 0 && (m = sema_tuple_type_of(ck, obj, n->span)))
			return m;
		if ((m = sema_py_method(ck, n, obj)))
			return m;
		break;
	case VAL_BUILTIN:
		if (obj->u.builtin == sema_builtin_namespace("target"))
			return target_attr(ck, n);
		if (sema_builtin_is_layout_ctor(obj->u.builtin)) {
			const Builtin *b = sema_builtin_static(sema_builtin_name(obj->u.builtin), name);
			if (b) {
				Value *v = sema_new_value(&ck->ev, VAL_BUILTIN, n->span);
				v->u.builtin = b;
				return v;
			}
		}
		break;
	case VAL_DTYPE:
		if ((m = sema_dtype_attr(ck, n, obj)))
			return m;
		break;
	case VAL_TYPE:
		if (obj->u.type->kind == TY_PTR && strcmp(name, "element_ty") == 0) {
			Value *v = sema_new_value(&ck->ev, VAL_DTYPE, n->span);
			v->u.dtype = obj->u.type->dtype;
			return v;
		}
		break;
	case VAL_RUNTIME:
		if ((obj->u.rt->type->kind == TY_PTR || obj->u.rt->type->elem_is_ptr) &&
		    strcmp(name, "dtype") == 0) {   /* a pointer's dtype is its pointer type */
			Value *v = sema_new_value(&ck->ev, VAL_TYPE, n->span);
			v->u.type = sema_type_ptr(ck, obj->u.rt->type->dtype);
			return v;
		}
		if (strcmp(name, "type") == 0) {
			Value *v = sema_new_value(&ck->ev, VAL_TYPE, n->span);
			v->u.type = obj->u.rt->type;
			return v;
		}
		break;
	case VAL_WGMMA_ACC:
		*handled = true;
		return wgmma_acc_attr(ck, n, obj);
	case VAL_WGMMA_ACC_TYPE:
		if (strcmp(name, "tensor_type") == 0) {
			Value *v = sema_new_value(&ck->ev, VAL_TYPE, n->span);
			v->u.type = obj->u.type;
			return v;
		}
		break;
	case VAL_INT: case VAL_FLOAT: case VAL_BOOL: case VAL_LAYOUT: case VAL_STR:
	case VAL_NONE: case VAL_LIST: case VAL_DICT:
		if (strcmp(name, "value") == 0)
			return obj;
		if ((m = sema_py_method(ck, n, obj)))
			return m;
		break;
	default:
		break;
	}
	*handled = false;
	return NULL;
}

/* NVMMASharedLayout.get_default_for(block_shape, dtype, transposed=False):
 * the widest swizzle (128, 64 or 32 bytes) that the contiguous row of the
 * block fills, none for rows narrower than 32 bytes or fewer than 8 rows,
 * as Gluon picks it. */
Value *
sema_nvmma_default(Check *ck, const Node *call, Value **a)
{
	int64_t shape[LL_MAX_RANK];
	int rank;
	TDType dt;
	bool transposed = a[2] && a[2]->kind == VAL_BOOL && a[2]->u.b;
	if (!sema_value_shape(ck, a[0], "the block shape", shape, &rank) ||
	    !sema_value_dtype(ck, a[1], "the dtype", &dt))
		return NULL;
	if (transposed && rank > 1) {
		int64_t first = shape[0];
		for (int i = 0; i + 1 < rank; i++)
			shape[i] = shape[i + 1];
		shape[rank - 1] = first;
	}
	int bits = ir_dtype_bits(dt);
	int64_t row = shape[rank - 1] * bits / 8, outer = 1;
	for (int i = 0; i + 1 < rank; i++)
		outer *= shape[i];
	int swizzle = row >= 128 && row % 128 == 0 ? 128 : row >= 64 && row % 64 == 0 ? 64 :
	              row >= 32 && row % 32 == 0 ? 32 : 0;
	if (rank < 2 || outer < 8)
		swizzle = 0;
	LLDesc *d = arena_alloc(ck->a, sizeof *d);
	d->kind = LL_NVMMA_SHARED;
	d->swizzle_byte_width = swizzle;
	d->element_bitwidth = bits;
	d->rank = rank;
	d->transposed = transposed;
	Value *v = sema_new_value(&ck->ev, VAL_LAYOUT, call->span);
	v->u.layout = d;
	return v;
}
