/*
 * What a compile-time value is: its phrase in messages, a new one, its
 * Python truth, Python's == on two of them (types compared as Gluon
 * compares them), and its source-like spelling.
 */
#include "sema/value/value.h"

#include <string.h>

const char *
sema_value_kind_phrase(const Value *v)
{
	switch (v->kind) {
	case VAL_NONE: return "None";
	case VAL_INT: return "an integer";
	case VAL_FLOAT: return "a float";
	case VAL_BOOL: return "a bool";
	case VAL_STR: return "a string";
	case VAL_LIST: return "a list";
	case VAL_TUPLE: return "a tuple";
	case VAL_LAYOUT: return "a layout";
	case VAL_BUILTIN:
		if (sema_builtin_dtype(v->u.builtin) != DT_VOID)
			return "a dtype";
		return sema_builtin_is_namespace(v->u.builtin) ? "a namespace" : "a function";
	case VAL_DTYPE: return "a dtype";
	case VAL_RUNTIME:
		switch (v->u.rt->type->kind) {
		case TY_TENSOR: return "a register tensor";
		case TY_SMEM: return "a shared-memory buffer";
		case TY_MBARRIER: return "an mbarrier";
		case TY_DESC: return "a tensor descriptor";
		case TY_PTR: return "a pointer";
		case TY_TUPLE: return "a tuple";
		default: return "a runtime scalar";
		}
	case VAL_FUNC: return "a function";
	case VAL_METHOD: return "a method";
	case VAL_TYPE: return "a type";
	case VAL_AUTO_LAYOUT: return "gl.AutoLayout()";
	case VAL_POISON: return "an invalid value";
	case VAL_VAR: return "a variable";
	case VAL_DICT: return "a dict";
	case VAL_MODULE: return "a module";
	case VAL_CLASS: return "a class";
	case VAL_HOST: return "a host Python value";
	case VAL_LAZY: return "a module-level value";
	case VAL_WGMMA_ACC:
		return "a warpgroup_mma_accumulator (an asynchronous warpgroup_mma result: "
		       "warpgroup_mma_wait(num_outstanding, deps=[acc]) returns its tensor)";
	case VAL_WGMMA_ACC_TYPE: return "a warpgroup_mma_accumulator_type";
	}
	return "a value";
}

Value *
sema_new_value(Eval *e, ValueKind k, SrcSpan at)
{
	Value *v = arena_alloc(e->arena, sizeof *v);
	v->kind = k;
	v->span = v->origin = at;
	return v;
}

Value *
sema_int_value(Eval *e, int64_t i, SrcSpan at)
{
	Value *v = sema_new_value(e, VAL_INT, at);
	v->u.i = i;
	return v;
}

Value *
sema_list_value(Eval *e, ValueKind k, Value **items, size_t n, SrcSpan at)
{
	/* copying n items that exist costs n steps; past the budget the copy
	 * is still made (its callers cannot fail) and the next charge fails */
	(void)sema_charge(e, at, n, (n + 1) * sizeof(Value *));
	Value *v = sema_new_value(e, k, at);
	v->u.list.n = n;
	v->u.list.items = arena_alloc(e->arena, (n + 1) * sizeof(Value *));
	if (n)
		memcpy(v->u.list.items, items, n * sizeof(Value *));
	return v;
}

bool
sema_value_truth(Eval *e, const Value *v, bool *out)
{
	switch (v->kind) {
	case VAL_BOOL: *out = v->u.b; return true;
	case VAL_INT: *out = v->u.i != 0; return true;
	case VAL_FLOAT: *out = v->u.f != 0; return true;
	case VAL_NONE: *out = false; return true;
	case VAL_STR: *out = v->u.str.len != 0; return true;
	case VAL_LIST: case VAL_TUPLE: *out = v->u.list.n != 0; return true;
	default:
		diag_error(e->diags, v->span, "expected a compile-time condition, got %s",
		           sema_value_kind_phrase(v));
		return false;
	}
}

static bool
is_num(const Value *v)
{
	return v->kind == VAL_INT || v->kind == VAL_FLOAT || v->kind == VAL_BOOL;
}

static double
num_of(const Value *v)
{
	return v->kind == VAL_INT ? (double)v->u.i : v->kind == VAL_BOOL ? v->u.b : v->u.f;
}

/* The dtype a value names (gl.float16, gl.f16, x.dtype), else DT_VOID. */
static TDType
dtype_of(const Value *v)
{
	if (v->kind == VAL_DTYPE)
		return v->u.dtype;
	if (v->kind == VAL_TYPE && v->u.type->kind == TY_SCALAR)   /* a scalar's x.type */
		return v->u.type->dtype;
	return v->kind == VAL_BUILTIN ? sema_builtin_dtype(v->u.builtin) : DT_VOID;
}

/* Element i's field name in tuple type t ("" without fields, as Gluon). */
static const char *
field_name(const TType *t, int i)
{
	return t->fields ? t->fields[i] : "";
}

/* Types compare as Gluon's: kind, dtype, shape and layout parameters; a
 * block_type (no layout) equals only a block_type; shared-memory types by
 * shape, layout and alloc_shape (Gluon 3.6 does not compare their element
 * types); tuple types item by item. */
static bool
same_type(const TType *a, const TType *b)
{
	if (a->kind == TY_TENSOR && b->kind == TY_TENSOR && (!a->layout.desc || !b->layout.desc))
		return !a->layout.desc && !b->layout.desc && a->dtype == b->dtype &&
		       a->elem_is_ptr == b->elem_is_ptr && ir_same_shape(a, b);
	if (a->kind == TY_TUPLE && b->kind == TY_TUPLE) {
		bool same = a->n_elems == b->n_elems;
		for (int i = 0; same && i < a->n_elems; i++)
			same = same_type(a->elems[i], b->elems[i]) &&
			       strcmp(field_name(a, i), field_name(b, i)) == 0;
		return same;
	}
	if ((a->kind == TY_SMEM || a->kind == TY_MBARRIER) && a->kind == b->kind) {
		if (!ir_same_shape(a, b) || a->alloc_rank != b->alloc_rank ||
		    !ll_desc_equal(a->layout.desc, b->layout.desc))
			return false;
		for (int i = 0; i < a->alloc_rank; i++)
			if (a->alloc_shape[i] != b->alloc_shape[i])
				return false;
		return true;
	}
	return ir_type_equal(a, b) && (a->kind == TY_SCALAR || a->kind == TY_PTR ||
	                               ll_desc_equal(a->layout.desc, b->layout.desc));
}

/* x == y, depth levels inside the values compared first: 1 or 0, or -1
 * when they nest deeper than SEMA_MAX_VALUE_DEPTH; *work counts the
 * values compared. */
static int
equal(const Value *x, const Value *y, int depth, uint64_t *work)
{
	++*work;
	if (is_num(x) && is_num(y))
		return num_of(x) == num_of(y);
	if (dtype_of(x) != DT_VOID || dtype_of(y) != DT_VOID)
		return dtype_of(x) == dtype_of(y);
	if (x->kind != y->kind)
		return 0;
	switch (x->kind) {
	case VAL_NONE: return 1;
	case VAL_STR: return x->u.str.len == y->u.str.len &&
	                     memcmp(x->u.str.s, y->u.str.s, x->u.str.len) == 0;
	case VAL_LAYOUT: return ll_desc_equal(x->u.layout, y->u.layout);
	case VAL_TYPE: return same_type(x->u.type, y->u.type);
	case VAL_LIST: case VAL_TUPLE:
		if (x->u.list.n != y->u.list.n)
			return 0;
		if (x->u.list.items == y->u.list.items)
			return 1;   /* one object (Python compares a list to itself so) */
		if (depth >= SEMA_MAX_VALUE_DEPTH)
			return -1;
		for (size_t i = 0; i < x->u.list.n; i++) {
			int r = equal(x->u.list.items[i], y->u.list.items[i], depth + 1, work);
			if (r != 1)
				return r;
		}
		return 1;
	case VAL_BUILTIN: return x->u.builtin == y->u.builtin;
	case VAL_RUNTIME: return x->u.rt == y->u.rt;
	case VAL_FUNC: return x->u.func == y->u.func;
	case VAL_VAR: return x->u.var == y->u.var;
	case VAL_WGMMA_ACC: return equal(x->u.inner, y->u.inner, depth, work);
	case VAL_WGMMA_ACC_TYPE: return same_type(x->u.type, y->u.type);
	case VAL_AUTO_LAYOUT: return 1;
	default: return x == y;
	}
}

int
sema_equal(Eval *e, SrcSpan at, const Value *x, const Value *y)
{
	uint64_t work = 0;
	int r = equal(x, y, 0, &work);
	if (r < 0)
		diag_error(e->diags, at, "cannot compare values nested more than %d deep (does a "
		           "list contain itself?)", SEMA_MAX_VALUE_DEPTH);
	return r < 0 || !sema_charge(e, at, work, 0) ? -1 : r;
}

bool
sema_same_value(const Value *x, const Value *y)
{
	uint64_t work = 0;
	return equal(x, y, 0, &work) == 1;
}

/* The spelling of v, inside the lists and tuples outer[0..depth-1]. */
static void
print_value(const Value *v, StrBuf *out, const Value **outer, int depth)
{
	switch (v->kind) {
	case VAL_INT: buf_printf(out, "%lld", (long long)v->u.i); return;
	case VAL_FLOAT: buf_printf(out, "%.17g", v->u.f); return;
	case VAL_BOOL: buf_puts(out, v->u.b ? "True" : "False"); return;
	case VAL_NONE: buf_puts(out, "None"); return;
	case VAL_STR:
		buf_putc(out, '"');
		buf_putn(out, v->u.str.s, v->u.str.len);
		buf_putc(out, '"');
		return;
	case VAL_LIST:
	case VAL_TUPLE: {
		const char *open = v->kind == VAL_LIST ? "[" : "(", *close = v->kind == VAL_LIST ? "]" : ")";
		for (int i = 0; i < depth; i++)
			if (outer[i]->u.list.items == v->u.list.items) {
				buf_printf(out, "%s...%s", open, close);   /* inside itself */
				return;
			}
		if (depth >= SEMA_MAX_VALUE_DEPTH) {
			buf_puts(out, "...");
			return;
		}
		outer[depth] = v;
		buf_puts(out, open);
		for (size_t i = 0; i < v->u.list.n; i++) {
			if (i)
				buf_puts(out, ", ");
			print_value(v->u.list.items[i], out, outer, depth + 1);
		}
		buf_puts(out, close);
		return;
	}
	case VAL_LAYOUT: ll_desc_print(v->u.layout, out); return;
	case VAL_DTYPE: buf_printf(out, "gl.%s", ir_dtype_name(v->u.dtype)); return;
	default: buf_puts(out, sema_value_kind_phrase(v)); return;
	}
}

void
sema_value_print(const Value *v, StrBuf *out)
{
	const Value *outer[SEMA_MAX_VALUE_DEPTH];
	print_value(v, out, outer, 0);
}

/* Python's `is`: every list, dict and tuple is an object of its own (two
 * displays are two objects, a name bound to one is that one); None, bools,
 * numbers of one type, strings and Gluon's names (dtypes, layouts,
 * functions) compare by what they are, as CPython's cached and interned
 * objects do. */
static bool
is_same_object(const Value *x, const Value *y)
{
	switch (x->kind) {
	case VAL_LIST: case VAL_TUPLE: case VAL_DICT:
		return x->kind == y->kind && x->u.list.items == y->u.list.items &&
		       x->u.list.n == y->u.list.n;
	case VAL_INT: case VAL_FLOAT: case VAL_BOOL:
		return x->kind == y->kind && sema_same_value(x, y);
	default:
		return sema_same_value(x, y);
	}
}

int
sema_compare_values(Eval *e, SrcSpan at, CmpOp op, const Value *x, const Value *y)
{
	if (op == CMP_IS || op == CMP_IS_NOT)
		return (op == CMP_IS) == is_same_object(x, y);
	if (op == CMP_EQ || op == CMP_NE) {
		int r = sema_equal(e, at, x, y);
		return r < 0 ? -1 : (op == CMP_EQ) == r;
	}
	if (op == CMP_IN || op == CMP_NOT_IN) {
		if (y->kind != VAL_LIST && y->kind != VAL_TUPLE) {
			diag_error(e->diags, at, "'in' needs a list or tuple on the right, not %s",
			           sema_value_kind_phrase(y));
			return -1;
		}
		bool found = false;
		for (size_t i = 0; i < y->u.list.n && !found; i++) {
			int r = sema_equal(e, at, x, y->u.list.items[i]);
			if (r < 0)
				return -1;
			found = r;
		}
		return op == CMP_IN ? found : !found;
	}
	if (!is_num(x) || !is_num(y)) {
		diag_error(e->diags, at, "cannot order %s and %s", sema_value_kind_phrase(x),
		           sema_value_kind_phrase(y));
		return -1;
	}
	if (x->kind == VAL_INT && y->kind == VAL_INT) {
		int64_t a = x->u.i, b = y->u.i;
		return op == CMP_LT ? a < b : op == CMP_GT ? a > b : op == CMP_LE ? a <= b : a >= b;
	}
	double a = num_of(x), b = num_of(y);
	return op == CMP_LT ? a < b : op == CMP_GT ? a > b : op == CMP_LE ? a <= b : a >= b;
}
