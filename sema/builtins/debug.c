/*
 * Debugging: gl.static_print (a note at compile time), gl.device_print
 * (printf on the device, Triton's format) and gl.device_assert, which the
 * assert statement becomes for runtime conditions. Assertions are always
 * in the IR; code generation keeps them only with -g or --debug, as
 * Triton compiles them out unless debugging.
 */
#include "sema/builtins/builtins.h"

#include <string.h>

static Value *
none(Check *ck, SrcSpan at)
{
	return sema_new_value(&ck->ev, VAL_NONE, at);
}

/* A compile-time string argument as a C string; NULL after a diagnostic. */
static const char *
str_arg(Check *ck, const Value *v, const char *what)
{
	if (v->kind != VAL_STR) {
		diag_error(ck->d, v->span, "%s must be a string known at compile time, not %s", what,
		           sema_value_kind_phrase(v));
		return NULL;
	}
	for (size_t i = 0; i < v->u.str.len; i++) {
		unsigned char c = (unsigned char)v->u.str.s[i];
		if (c < 32 || c > 126) {
			diag_error(ck->d, v->span, "%s must be printable ASCII (character %zu is 0x%02x)",
			           what, i, c);
			return NULL;
		}
	}
	return arena_strndup(ck->a, v->u.str.s, v->u.str.len);
}

/* gl.static_print(*values, sep=' ', end='\n'): the values as Python prints
 * them (runtime values by their type), as a note at the call. */
static Value *
static_print(Check *ck, const Node *call, Value **a)
{
	const char *sep = " ";
	if (a[1] && !(sep = str_arg(ck, a[1], "sep")))
		return NULL;
	StrBuf b = {0};
	for (size_t i = 0; i < a[0]->u.list.n; i++) {
		const Value *v = a[0]->u.list.items[i];
		if (i)
			buf_puts(&b, sep);
		if (v->kind == VAL_STR)
			buf_putn(&b, v->u.str.s, v->u.str.len);
		else if (v->kind == VAL_RUNTIME)
			buf_puts(&b, sema_type_str(ck, v->u.rt->type));
		else
			sema_value_print(v, &b);
	}
	diag_remark(ck->d, call->span, "static_print: %s", b.s ? b.s : "");
	buf_free(&b);
	return none(ck, call->span);
}

/* Triton's prefix: with values it ends in ": ", and one longer than two
 * characters starts with a space. */
static const char *
print_prefix(Check *ck, const char *p, bool values)
{
	size_t n = strlen(p);
	StrBuf b = {0};
	buf_puts(&b, p);
	if (values && (n == 0 || p[n - 1] != ' '))
		buf_putc(&b, ' ');
	if (values && !(b.len >= 2 && b.s[b.len - 2] == ':')) {
		b.s[b.len - 1] = ':';
		buf_putc(&b, ' ');
	}
	const char *r = b.len > 2 && b.s[0] != ' ' ? arena_printf(ck->a, " %s", b.s)
	                                            : arena_strndup(ck->a, b.s, b.len);
	buf_free(&b);
	return r;
}

/* gl.device_print(prefix, *args, hex=False) */
static Value *
device_print(Check *ck, const Node *call, Value **a)
{
	const char *prefix = str_arg(ck, a[0], "device_print's prefix");
	if (!prefix)
		return NULL;
	if (a[2] && a[2]->kind != VAL_BOOL) {
		diag_error(ck->d, a[2]->span, "hex must be True or False at compile time, not %s",
		           sema_value_kind_phrase(a[2]));
		return NULL;
	}
	size_t n = a[1]->u.list.n;
	TValue **args = arena_alloc(ck->a, (n + 1) * sizeof *args);
	for (size_t i = 0; i < n; i++) {
		Value *v = a[1]->u.list.items[i];
		TValue *t = sema_materialize(ck, v, DT_VOID);
		if (!t)
			return NULL;
		if (t->type->kind > TY_TENSOR) {
			diag_error(ck->d, v->span, "device_print prints numbers, pointers and tensors of "
			           "them, not %s", sema_type_str(ck, t->type));
			return NULL;
		}
		args[i] = t;
	}
	TInst *i = sema_emit(ck, OP_PRINT, call->span, NULL, 0);
	i->args = args;
	i->n_args = (int)n;
	i->attr.text = print_prefix(ck, prefix, n > 0);
	i->attr.hex = a[2] && a[2]->u.b;
	return none(ck, call->span);
}

bool
sema_device_assert(Check *ck, SrcSpan at, Value *cond, const char *msg, Value *mask)
{
	TValue *c = sema_materialize(ck, cond, DT_I1), *m = NULL;
	if (!c)
		return false;
	const TType *t = c->type;
	if (t->dtype != DT_I1 || t->elem_is_ptr || t->kind > TY_TENSOR) {
		diag_error(ck->d, cond->span, "an assertion's condition must be a boolean, not %s",
		           sema_type_str(ck, t));
		return false;
	}
	if (mask) {
		if (!(m = sema_materialize(ck, mask, DT_I1)))
			return false;
		if (m->type->dtype != DT_I1 || m->type->elem_is_ptr || m->type->kind > TY_TENSOR) {
			diag_error(ck->d, mask->span, "device_assert's mask must be a boolean, not %s",
			           sema_type_str(ck, m->type));
			return false;
		}
		if (!sema_unify_roles(ck, mask->span, "the mask and condition", &c, "the condition",
		                      &m, "the mask"))
			return false;
	}
	TInst *i = sema_emit(ck, OP_ASSERT, at, NULL, 1 + (m != NULL), c, m);
	i->attr.text = msg;
	return true;
}

Value *
sema_check_debug_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	switch (fn) {
	case BF_STATIC_PRINT:
		return static_print(ck, call, a);
	case BF_DEVICE_PRINT:
		return device_print(ck, call, a);
	default: {   /* BF_DEVICE_ASSERT */
		const char *msg = a[1] ? str_arg(ck, a[1], "device_assert's message") : "";
		if (!msg || !sema_device_assert(ck, call->span, a[0], msg, a[2]))
			return NULL;
		return none(ck, call->span);
	}
	}
}
