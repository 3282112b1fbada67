/*
 * Python's methods and iteration builtins at compile time, for
 * @constexpr_function code: lists (append, extend, insert, pop, index,
 * count, copy, reverse), dicts (items, keys, values, get, copy, update,
 * pop, setdefault), tuples (index, count), str.join, int.bit_length,
 * PaddedSharedLayout.verify, and
 * list(), tuple(), sum(), zip(), enumerate(), any(), all(), sorted(),
 * reversed(). Lists and dicts are mutated in place, so every name bound to
 * one sees the change, as in Python.
 */
#include "sema/eval/eval.h"

#include <stdlib.h>
#include <string.h>

typedef VEC(Value *) ValueVec;

/* The items v yields when iterated (a dict: its keys); false after a
 * diagnostic. */
static bool
items_of(Check *ck, Value *v, ValueVec *out)
{
	if ((v->kind == VAL_LIST || v->kind == VAL_TUPLE || v->kind == VAL_DICT) &&
	    !sema_charge(&ck->ev, v->span, v->u.list.n, 0))
		return false;
	if (v->kind == VAL_LIST || v->kind == VAL_TUPLE) {
		for (size_t i = 0; i < v->u.list.n; i++)
			vec_push(ck->a, out, v->u.list.items[i]);
		return true;
	}
	if (v->kind == VAL_DICT) {
		for (size_t i = 0; i < v->u.list.n; i += 2)
			vec_push(ck->a, out, v->u.list.items[i]);
		return true;
	}
	diag_error(ck->d, v->span, "cannot iterate over %s at compile time", sema_value_kind_phrase(v));
	return false;
}

/* Replaces the items of list or dict v (in place: its aliases see it);
 * false when the budget does not allow it. */
static bool
set_items(Check *ck, SrcSpan at, Value *v, Value **items, size_t n)
{
	Value **copy = sema_items_alloc(&ck->ev, at, n);
	if (!copy)
		return false;
	if (n)
		memcpy(copy, items, n * sizeof(Value *));
	v->u.list.items = copy;
	v->u.list.n = n;
	v->u.list.cap = n + 1;
	return true;
}

static const struct { ValueKind kind; const char *name; const char *params[3]; } methods[] = {
	{VAL_LIST, "append", {"x"}}, {VAL_LIST, "extend", {"iterable"}},
	{VAL_LIST, "insert", {"index", "x"}}, {VAL_LIST, "pop", {"index?"}},
	{VAL_LIST, "index", {"x"}}, {VAL_LIST, "count", {"x"}}, {VAL_LIST, "copy", {0}},
	{VAL_LIST, "reverse", {0}},
	{VAL_TUPLE, "index", {"x"}}, {VAL_TUPLE, "count", {"x"}},
	{VAL_DICT, "items", {0}}, {VAL_DICT, "keys", {0}}, {VAL_DICT, "values", {0}},
	{VAL_DICT, "get", {"key", "default?"}}, {VAL_DICT, "copy", {0}},
	{VAL_DICT, "update", {"other"}}, {VAL_DICT, "pop", {"key", "default?"}},
	{VAL_DICT, "setdefault", {"key", "default?"}},
	{VAL_STR, "join", {"iterable"}}, {VAL_INT, "bit_length", {0}},
	{VAL_LAYOUT, "verify", {0}},   /* PaddedSharedLayout's */
};

static int
method_index(const Value *obj, const char *name)
{
	ValueKind k = obj->kind;
	if (k == VAL_TUPLE && obj->u.list.cls)
		return -1;   /* an aggregate: its fields and methods */
	if (k == VAL_LAYOUT && obj->u.layout->kind != LL_PADDED_SHARED)
		return -1;
	for (size_t i = 0; i < sizeof methods / sizeof *methods; i++)
		if (methods[i].kind == k && strcmp(methods[i].name, name) == 0)
			return (int)i;
	return -1;
}

Value *
sema_py_method(Check *ck, const Node *n, Value *obj)
{
	if (method_index(obj, n->u.attr.name) < 0)
		return NULL;
	Value *m = sema_new_value(&ck->ev, VAL_METHOD, n->span);
	m->u.method.self = obj;
	m->u.method.name = n->u.attr.name;
	m->u.method.name_span = n->u.attr.name_span;
	return m;
}

/* The position of x among items[0..n-1] (step apart, from 0), or -1. */
static int64_t
find(const Value *x, Value **items, size_t n, size_t step)
{
	for (size_t i = 0; i < n; i += step)
		if (sema_same_value(items[i], x))
			return (int64_t)(i / step);
	return -1;
}

static Value *
dict_method(Check *ck, const Node *call, Value *d, const char *name, Value **a)
{
	Value **kv = d->u.list.items;
	size_t n = d->u.list.n;
	if (strcmp(name, "items") == 0 || strcmp(name, "keys") == 0 || strcmp(name, "values") == 0) {
		ValueVec out = {0};
		for (size_t i = 0; i < n; i += 2) {
			Value *pair[2] = {kv[i], kv[i + 1]};
			vec_push(ck->a, &out, name[0] == 'i'
			                      ? sema_list_value(&ck->ev, VAL_TUPLE, pair, 2, call->span)
			                      : kv[i + (name[0] == 'v')]);
		}
		return sema_list_value(&ck->ev, VAL_LIST, out.data, out.len, call->span);
	}
	if (strcmp(name, "copy") == 0)
		return sema_list_value(&ck->ev, VAL_DICT, kv, n, call->span);
	if (strcmp(name, "update") == 0) {
		if (a[0]->kind != VAL_DICT) {
			diag_error(ck->d, a[0]->span, "dict.update needs a dict, not %s",
			           sema_value_kind_phrase(a[0]));
			return NULL;
		}
		if (!sema_charge(&ck->ev, call->span, n / 2 * (a[0]->u.list.n / 2), 0))
			return NULL;
		ValueVec out = {0};
		for (size_t i = 0; i < n; i++)
			vec_push(ck->a, &out, kv[i]);
		for (size_t j = 0; j < a[0]->u.list.n; j += 2) {
			int64_t at = find(a[0]->u.list.items[j], out.data, out.len, 2);
			if (at >= 0) {
				out.data[2 * at + 1] = a[0]->u.list.items[j + 1];
				continue;
			}
			vec_push(ck->a, &out, a[0]->u.list.items[j]);
			vec_push(ck->a, &out, a[0]->u.list.items[j + 1]);
		}
		return set_items(ck, call->span, d, out.data, out.len)
		     ? sema_new_value(&ck->ev, VAL_NONE, call->span) : NULL;
	}
	if (!sema_charge(&ck->ev, call->span, n / 2, 0))
		return NULL;
	int64_t at = find(a[0], kv, n, 2);
	Value *dflt = a[1] ? a[1] : sema_new_value(&ck->ev, VAL_NONE, call->span);
	if (strcmp(name, "get") == 0)
		return at >= 0 ? kv[2 * at + 1] : dflt;
	if (strcmp(name, "setdefault") == 0) {
		if (at >= 0)
			return kv[2 * at + 1];
		return sema_list_push(&ck->ev, call->span, d, a[0]) &&
		       sema_list_push(&ck->ev, call->span, d, dflt) ? dflt : NULL;
	}
	/* pop */
	if (at < 0) {
		if (a[1])
			return a[1];
		diag_error(ck->d, a[0]->span, "dict.pop: the key is not in the dict");
		return NULL;
	}
	Value *v = kv[2 * at + 1];
	memmove(kv + 2 * at, kv + 2 * at + 2, (n - 2 * (size_t)at - 2) * sizeof(Value *));
	d->u.list.n -= 2;
	return v;
}

static Value *
list_method(Check *ck, const Node *call, Value *l, const char *name, Value **a)
{
	Value **it = l->u.list.items;
	size_t n = l->u.list.n;
	Value *none = sema_new_value(&ck->ev, VAL_NONE, call->span);
	if (strcmp(name, "append") == 0)
		return sema_list_push(&ck->ev, call->span, l, a[0]) ? none : NULL;
	if (strcmp(name, "copy") == 0)
		return sema_list_value(&ck->ev, VAL_LIST, it, n, call->span);
	if (strcmp(name, "extend") == 0) {
		ValueVec xs = {0};
		if (!items_of(ck, a[0], &xs))
			return NULL;
		for (size_t i = 0; i < xs.len; i++)
			if (!sema_list_push(&ck->ev, call->span, l, xs.data[i]))
				return NULL;
		return none;
	}
	/* the others walk the items once */
	if (!sema_charge(&ck->ev, call->span, n, 0))
		return NULL;
	if (strcmp(name, "index") == 0 || strcmp(name, "count") == 0) {
		int64_t c = 0, at = find(a[0], it, n, 1);
		for (size_t i = 0; i < n; i++)
			c += sema_same_value(it[i], a[0]);
		if (name[0] == 'i' && at < 0) {
			diag_error(ck->d, a[0]->span, "index(): the value is not in the %s",
			           l->kind == VAL_LIST ? "list" : "tuple");
			return NULL;
		}
		return sema_int_value(&ck->ev, name[0] == 'i' ? at : c, call->span);
	}
	if (strcmp(name, "reverse") == 0) {
		for (size_t i = 0; i < n / 2; i++) {
			Value *t = it[i];
			it[i] = it[n - 1 - i];
			it[n - 1 - i] = t;
		}
		return none;
	}
	int64_t ix = (int64_t)n - 1;
	if ((strcmp(name, "pop") == 0 && a[0]) || strcmp(name, "insert") == 0) {
		if (!sema_value_int(ck, a[0], "the index", &ix))
			return NULL;
		ix = ix < 0 ? ix + (int64_t)n : ix;
	}
	if (strcmp(name, "insert") == 0) {
		ix = ix < 0 ? 0 : ix > (int64_t)n ? (int64_t)n : ix;
		if (!sema_list_push(&ck->ev, call->span, l, a[1]))
			return NULL;
		it = l->u.list.items;
		memmove(it + ix + 1, it + ix, (n - (size_t)ix) * sizeof(Value *));
		it[ix] = a[1];
		return none;
	}
	/* pop */
	if (ix < 0 || ix >= (int64_t)n) {
		diag_error(ck->d, call->span, "pop(): index out of range of a list of %zu", n);
		return NULL;
	}
	Value *x = it[ix];
	memmove(it + ix, it + ix + 1, (n - (size_t)ix - 1) * sizeof(Value *));
	l->u.list.n--;
	return x;
}

Value *
sema_py_method_call(Check *ck, const Node *call, Value *m)
{
	Value *self = m->u.method.self;
	const char *name = m->u.method.name;
	if (self->kind == VAL_DTYPE)
		return sema_dtype_method_call(ck, call, m);
	int k = method_index(self, name);
	if (k < 0) {
		diag_error(ck->d, m->u.method.name_span, "%s has no method '%s' at compile time",
		           sema_value_kind_phrase(self), name);
		return NULL;
	}
	int np = 0;
	while (np < 3 && methods[k].params[np])
		np++;
	Value *a[3];
	if (!sema_bind_args(ck, call, arena_printf(ck->a, ".%s", name), methods[k].params, np, a))
		return NULL;
	switch (self->kind) {
	case VAL_DICT:
		return dict_method(ck, call, self, name, a);
	case VAL_LIST: case VAL_TUPLE:
		return list_method(ck, call, self, name, a);
	case VAL_LAYOUT: {   /* PaddedSharedLayout.verify(): its checks, then None */
		LLErr err = {ck->a, NULL};
		if (!ll_desc_verify(self->u.layout, &err)) {
			diag_error(ck->d, call->span, "%s", err.msg);
			return NULL;
		}
		return sema_new_value(&ck->ev, VAL_NONE, call->span);
	}
	case VAL_INT: {
		int64_t bits = 0;
		for (uint64_t x = self->u.i < 0 ? -(uint64_t)self->u.i : (uint64_t)self->u.i; x; x >>= 1)
			bits++;
		return sema_int_value(&ck->ev, bits, call->span);
	}
	default: {   /* str.join */
		ValueVec parts = {0};
		if (!items_of(ck, a[0], &parts))
			return NULL;
		StrBuf b = {0};
		for (size_t i = 0; i < parts.len; i++) {
			if (parts.data[i]->kind != VAL_STR) {
				diag_error(ck->d, a[0]->span, "join: item %zu is %s, not a string", i,
				           sema_value_kind_phrase(parts.data[i]));
				buf_free(&b);
				return NULL;
			}
			if (i)
				buf_printf(&b, "%.*s", (int)self->u.str.len, self->u.str.s);
			buf_printf(&b, "%.*s", (int)parts.data[i]->u.str.len, parts.data[i]->u.str.s);
		}
		Value *v = sema_new_value(&ck->ev, VAL_STR, call->span);
		v->u.str.s = arena_strndup(ck->a, b.s ? b.s : "", b.len);
		v->u.str.len = b.len;
		buf_free(&b);
		return v;
	}
	}
}

static int
compare_numbers(const void *x, const void *y)
{
	const Value *a = *(Value *const *)x, *b = *(Value *const *)y;
	double p = a->kind == VAL_INT ? (double)a->u.i : a->kind == VAL_BOOL ? a->u.b : a->u.f;
	double q = b->kind == VAL_INT ? (double)b->u.i : b->kind == VAL_BOOL ? b->u.b : b->u.f;
	return (p > q) - (p < q);
}

Value *
sema_py_iter_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	ValueVec xs = {0}, out = {0};
	if (!items_of(ck, a[0], &xs))
		return NULL;
	switch (fn) {
	case BF_LIST_PY: return sema_list_value(&ck->ev, VAL_LIST, xs.data, xs.len, call->span);
	case BF_TUPLE_PY: return sema_list_value(&ck->ev, VAL_TUPLE, xs.data, xs.len, call->span);
	case BF_REVERSED:
		for (size_t i = xs.len; i-- > 0;)
			vec_push(ck->a, &out, xs.data[i]);
		return sema_list_value(&ck->ev, VAL_LIST, out.data, out.len, call->span);
	case BF_ENUMERATE: {
		int64_t start = 0;
		if (a[1] && !sema_value_int(ck, a[1], "enumerate's start", &start))
			return NULL;
		for (size_t i = 0; i < xs.len; i++) {
			Value *pair[2] = {sema_int_value(&ck->ev, start + (int64_t)i, call->span),
			                  xs.data[i]};
			vec_push(ck->a, &out,
			         sema_list_value(&ck->ev, VAL_TUPLE, pair, 2, call->span));
		}
		return sema_list_value(&ck->ev, VAL_LIST, out.data, out.len, call->span);
	}
	case BF_ZIP: {
		ValueVec cols[3] = {{0}};
		size_t n = xs.len, k = 1;
		cols[0] = xs;
		for (; k < 3 && a[k]; k++) {
			if (!items_of(ck, a[k], &cols[k]))
				return NULL;
			n = cols[k].len < n ? cols[k].len : n;
		}
		for (size_t i = 0; i < n; i++) {
			Value *row[3];
			for (size_t j = 0; j < k; j++)
				row[j] = cols[j].data[i];
			vec_push(ck->a, &out,
			         sema_list_value(&ck->ev, VAL_TUPLE, row, k, call->span));
		}
		return sema_list_value(&ck->ev, VAL_LIST, out.data, out.len, call->span);
	}
	case BF_ANY: case BF_ALL:
		for (size_t i = 0; i < xs.len; i++) {
			bool t;
			if (!sema_value_truth(&ck->ev, xs.data[i], &t))
				return NULL;
			if (t == (fn == BF_ANY)) {
				Value *v = sema_new_value(&ck->ev, VAL_BOOL, call->span);
				v->u.b = t;
				return v;
			}
		}
		Value *v = sema_new_value(&ck->ev, VAL_BOOL, call->span);
		v->u.b = fn == BF_ALL;
		return v;
	default:   /* sum, sorted: numbers */
		break;
	}
	for (size_t i = 0; i < xs.len; i++)
		if (xs.data[i]->kind != VAL_INT && xs.data[i]->kind != VAL_FLOAT &&
		    xs.data[i]->kind != VAL_BOOL) {
			diag_error(ck->d, a[0]->span, "%s needs numbers; item %zu is %s",
			           fn == BF_SORTED ? "sorted()" : "sum()", i,
			           sema_value_kind_phrase(xs.data[i]));
			return NULL;
		}
	if (fn == BF_SORTED) {
		if (xs.len)   /* an empty vector has no array to sort */
			qsort(xs.data, xs.len, sizeof *xs.data, compare_numbers);
		return sema_list_value(&ck->ev, VAL_LIST, xs.data, xs.len, call->span);
	}
	bool is_float = a[1] && a[1]->kind == VAL_FLOAT;
	int64_t si = 0;
	double sf = 0;
	if (a[1] && !is_float && !sema_value_int(ck, a[1], "sum's start", &si))
		return NULL;
	sf = is_float ? a[1]->u.f : (double)si;
	for (size_t i = 0; i < xs.len; i++) {
		const Value *x = xs.data[i];
		is_float |= x->kind == VAL_FLOAT;
		int64_t xi = x->kind == VAL_INT ? x->u.i : x->kind == VAL_BOOL ? x->u.b : 0;
		if (__builtin_add_overflow(si, xi, &si)) {
			diag_error(ck->d, call->span, "integer overflow in sum()");
			return NULL;
		}
		sf += x->kind == VAL_FLOAT ? x->u.f : (double)xi;
	}
	if (!is_float)
		return sema_int_value(&ck->ev, si, call->span);
	Value *v = sema_new_value(&ck->ev, VAL_FLOAT, call->span);
	v->u.f = sf;
	return v;
}
