/*
 * CUDA's libdevice functions as Triton's extern_elementwise calls them
 * (libdevice.sin(x), libdevice.pow(x, y), ...): the arguments become
 * tensors (Python ints i32, floats f32) broadcast to one shape; when their
 * dtypes are no combination the function takes (libdevice_map.c), they
 * are first promoted to one dtype as an arithmetic operator promotes its
 * operands; the combination then names the symbol (__nv_sinf, __nv_sin,
 * ...) and the result's dtype. The IR op is `extern`, lowered to a call of
 * that symbol (libdevice.10.bc is linked into the module).
 */
#include "sema/builtins/builtins.h"

#include <string.h>

/* The variant of function name for arguments of dtypes dt[0..n-1], or
 * NULL; *first receives the function's first variant. */
static const LibdeviceVariant *
variant(const char *name, int n, const TDType *dt, const LibdeviceVariant **first)
{
	*first = NULL;
	for (size_t i = 0; i < sema_libdevice_n_map; i++) {
		const LibdeviceVariant *v = &sema_libdevice_map[i];
		if (strcmp(v->name, name) != 0)
			continue;
		if (!*first)
			*first = v;
		bool same = v->n == n;
		for (int k = 0; same && k < n; k++)
			same = v->args[k] == dt[k];
		if (same)
			return v;
	}
	return NULL;
}

static void
print_dtypes(const TDType *dt, int n, StrBuf *b)
{
	buf_puts(b, "(");
	for (int k = 0; k < n; k++)
		buf_printf(b, "%s%s", k ? ", " : "", ir_dtype_name(dt[k]));
	buf_puts(b, ")");
}

static void
no_variant(Check *ck, const Node *call, const char *fname, const TDType *dt, int n,
           const LibdeviceVariant *first)
{
	StrBuf b = {0};
	print_dtypes(dt, n, &b);
	buf_puts(&b, "; it takes ");
	for (const LibdeviceVariant *v = first; v < sema_libdevice_map + sema_libdevice_n_map &&
	     strcmp(v->name, first->name) == 0; v++) {
		if (v != first)
			buf_puts(&b, ", ");
		print_dtypes(v->args, v->n, &b);
	}
	diag_error(ck->d, call->span, "%s has no variant for arguments %s", fname, b.s);
	buf_free(&b);
}

Value *
sema_libdevice_call(Check *ck, const Node *call, Value **a)
{
	const char *name = sema_builtin_name(ck->call);
	const char *fname = arena_printf(ck->a, "libdevice.%s", name);
	const char *const *params;
	int n = sema_builtin_params(ck->call, &params);
	TValue *x[4] = {0};
	TDType dt[4] = {DT_VOID, DT_VOID, DT_VOID, DT_VOID};
	if (n < 1 || n > 4)
		return NULL;
	for (int k = 0; k < n; k++) {
		const TType *t = a[k]->kind == VAL_RUNTIME ? a[k]->u.rt->type : NULL;
		if (t ? t->kind == TY_PTR || (t->kind == TY_TENSOR && t->elem_is_ptr) ||
		        (t->kind != TY_SCALAR && t->kind != TY_TENSOR)
		      : a[k]->kind != VAL_INT && a[k]->kind != VAL_FLOAT && a[k]->kind != VAL_BOOL) {
			diag_error(ck->d, a[k]->span, "%s needs numbers, not %s", fname,
			           t ? sema_type_str(ck, t) : sema_value_kind_phrase(a[k]));
			return NULL;
		}
		if (!(x[k] = sema_materialize(ck, a[k], DT_VOID)))
			return NULL;
		dt[k] = x[k]->type->dtype;
	}
	const LibdeviceVariant *first, *v = variant(name, n, dt, &first);
	if (!v) {
		/* the arithmetic promotion of all the arguments */
		TDType common = dt[0];
		for (int k = 1; k < n; k++)
			common = sema_computation_type(common, false, dt[k], false, false);
		for (int k = 0; k < n; k++)
			dt[k] = common;
		v = variant(name, n, dt, &first);
	}
	if (!v) {
		for (int k = 0; k < n; k++)
			dt[k] = x[k]->type->dtype;
		no_variant(ck, call, fname, dt, n, first);
		return NULL;
	}
	for (int k = 0; k < n; k++)
		x[k] = sema_cast_to(ck, x[k], v->args[k], call->span);
	for (int k = 1; k < n; k++)
		for (int j = 0; j < k; j++)
			if (!sema_unify_shapes(ck, call->span, fname, &x[j], &x[k]))
				return NULL;
	const TType *shape = x[0]->type;
	for (int k = 1; k < n; k++)
		if (x[k]->type->kind == TY_TENSOR)
			shape = x[k]->type;
	const TType *res = shape->kind == TY_TENSOR
	                   ? sema_type_with_elem(ck, shape, sema_type_scalar(ck, v->ret))
	                   : sema_type_scalar(ck, v->ret);
	TInst *i = sema_emit(ck, OP_EXTERN, call->span, res, 0);
	i->args = arena_alloc(ck->a, (size_t)n * sizeof *i->args);
	for (int k = 0; k < n; k++)
		i->args[k] = x[k];
	i->n_args = n;
	i->attr.text = v->symbol;
	i->res->layout_at = x[0]->layout_at;
	return sema_rt_value(ck, i->res, call->span);
}
