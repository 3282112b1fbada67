/*
 * The elementwise escapes: gl.inline_asm_elementwise (PTX applied to pack
 * elements of each argument at a time, one or several results) and
 * gl.map_elementwise (a @gl.jit function of scalars mapped over tensors,
 * with its own control flow). Arguments broadcast to one shape and layout
 * as the operators do; results take that shape and layout.
 *
 * Registers of inline asm follow Triton: elements narrower than 32 bits
 * pack into 32-bit registers, min(32 / bits, pack) of them per register;
 * the outputs (pack / per-register registers for each result, in order)
 * come first, then the inputs likewise, argument by argument.
 */
#include "sema/builtins/builtins.h"

#include <ctype.h>
#include <string.h>

static Value *
rt(Check *ck, TValue *v, SrcSpan at)
{
	return sema_rt_value(ck, v, at);
}

/* Elements of `bits` per register of a pack of `pack`. */
static int
per_reg(int bits, int64_t pack)
{
	int n = bits < 32 ? 32 / bits : 1;
	return n < pack ? n : (int)pack;
}

/* The arguments as runtime values broadcast to one shape (out[0..n-1]);
 * *like receives the type of the broadcast tensor, or of the first
 * argument when none is a tensor. */
static bool
elementwise_args(Check *ck, SrcSpan at, const char *fname, Value *const *v, size_t n,
                 TValue **out, const TType **like)
{
	int first = -1;
	for (size_t i = 0; i < n; i++) {
		if (!(out[i] = sema_materialize(ck, v[i], DT_VOID)))
			return false;
		const TType *t = out[i]->type;
		if (t->kind == TY_PTR || t->elem_is_ptr || t->kind > TY_TENSOR || t->dtype == DT_I1) {
			diag_error(ck->d, v[i]->span, "%s takes numbers of 8 bits or more, not %s", fname,
			           sema_type_str(ck, t));
			return false;
		}
		if (first < 0 && t->kind == TY_TENSOR)
			first = (int)i;
	}
	for (int pass = 0; first >= 0 && pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			if (out[i]->type->kind == TY_TENSOR &&
			    !sema_unify_shapes(ck, at, fname, &out[first], &out[i]))
				return false;
	*like = n ? out[first >= 0 ? first : 0]->type : NULL;
	return true;
}

/* The result of an OP_INLINE_ASM or OP_MAP i with dtypes dt[0..n-1] in the
 * shape of like: one value, or a tuple of extracts. */
static Value *
results(Check *ck, TInst *i, const TType *like, const TDType *dt, int n, SrcSpan at)
{
	const TType **elems = arena_alloc(ck->a, (size_t)n * sizeof *elems);
	for (int k = 0; k < n; k++)
		elems[k] = like ? sema_type_with_elem(ck, like, sema_type_scalar(ck, dt[k]))
		                : sema_type_scalar(ck, dt[k]);
	if (n == 1) {
		i->res = arena_alloc(ck->a, sizeof *i->res);
		*i->res = (TValue){ck->k->n_values++, elems[0], at};
		return rt(ck, i->res, at);
	}
	TType *tt = arena_alloc(ck->a, sizeof *tt);
	tt->kind = TY_TUPLE;
	tt->elems = elems;
	tt->n_elems = n;
	i->res = arena_alloc(ck->a, sizeof *i->res);
	*i->res = (TValue){ck->k->n_values++, tt, at};
	Value *t = sema_new_value(&ck->ev, VAL_TUPLE, at);
	t->u.list.n = (size_t)n;
	t->u.list.items = arena_alloc(ck->a, (size_t)(n + 1) * sizeof(Value *));
	for (int k = 0; k < n; k++) {
		TInst *e = sema_emit(ck, OP_EXTRACT, at, elems[k], 1, i->res);
		e->attr.index = k;
		t->u.list.items[k] = rt(ck, e->res, at);
	}
	return t;
}

/* One dtype, or a tuple or list of them, into dt[0..*n-1]. */
static bool
dtypes_arg(Check *ck, const Value *v, TDType *dt, int *n, int max)
{
	bool many = v->kind == VAL_TUPLE || v->kind == VAL_LIST;
	*n = many ? (int)v->u.list.n : 1;
	if (*n < 1 || *n > max) {
		diag_error(ck->d, v->span, "dtype gives %d results; %d to %d are supported", *n, 1, max);
		return false;
	}
	for (int k = 0; k < *n; k++)
		if (!sema_value_dtype(ck, many ? v->u.list.items[k] : v, "dtype", &dt[k]))
			return false;
	for (int k = 0; k < *n; k++)
		if (dt[k] == DT_I1) {
			diag_error(ck->d, v->span, "inline asm results of 8 bits or more are supported, "
			           "not i1");
			return false;
		}
	return true;
}

/* The positive compile-time pack, dividing the elements of a thread. */
static bool
pack_arg(Check *ck, const Value *v, const TType *like, int64_t *pack)
{
	*pack = 1;
	if (v && !sema_value_int(ck, v, "pack", pack))
		return false;
	int64_t regs = like && like->kind == TY_TENSOR
	               ? (int64_t)1 << ll_in_bits(&like->layout.ll, LL_REGISTER) : 1;
	if (*pack < 1 || regs % *pack) {
		diag_error(ck->d, v ? v->span : (SrcSpan){0}, "pack is %lld, which does not divide "
		           "the %lld elements each thread holds", (long long)*pack, (long long)regs);
		return false;
	}
	return true;
}

/* The constraints without blanks, checked item by item (NULL after a
 * diagnostic at v); *outs and *ins count their output and input entries
 * (clobbers ~{...} are neither). */
static const char *
constraints(Check *ck, const Value *v, int *outs, int *ins)
{
	StrBuf b = {0};
	for (size_t i = 0; i < v->u.str.len; i++)
		if (!isspace((unsigned char)v->u.str.s[i]))
			buf_putc(&b, v->u.str.s[i]);
	const char *r = arena_strndup(ck->a, b.s ? b.s : "", b.len);
	buf_free(&b);
	IrSpan bad;
	if (ir_asm_constraints(r, outs, ins, &bad))
		return r;
	diag_error(ck->d, v->span, "constraint '%.*s' is not one glc can pass to LLVM: an output "
	           "is '=' (or '=&') and a register letter (r h l f d b c q), an input a letter, "
	           "'n' or a tied output's number, a clobber '~{...}'", (int)bad.n, bad.s);
	return NULL;
}

/* gl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack) */
static Value *
inline_asm(Check *ck, const Node *call, Value **a)
{
	const char *name = "gl.inline_asm_elementwise";
	for (int k = 0; k < 2; k++)
		if (a[k]->kind != VAL_STR) {
			diag_error(ck->d, a[k]->span, "%s's %s must be a string", name,
			           k ? "constraints" : "asm");
			return NULL;
		}
	if (a[4]->kind != VAL_BOOL) {
		diag_error(ck->d, a[4]->span, "is_pure must be True or False");
		return NULL;
	}
	Value *const *args = &a[2];
	size_t n = 1;
	if (a[2]->kind == VAL_LIST || a[2]->kind == VAL_TUPLE) {
		args = a[2]->u.list.items;
		n = a[2]->u.list.n;
	}
	TValue **v = arena_alloc(ck->a, (n + 1) * sizeof *v);
	const TType *like;
	TDType dt[16];
	int n_res, outs, ins;
	int64_t pack;
	if (!elementwise_args(ck, call->span, name, args, n, v, &like) ||
	    !dtypes_arg(ck, a[3], dt, &n_res, 16) || !pack_arg(ck, a[5], like, &pack))
		return NULL;
	const char *cons = constraints(ck, a[1], &outs, &ins);
	if (!cons)
		return NULL;
	int want_outs = 0, want_ins = 0;
	for (int k = 0; k < n_res; k++)
		want_outs += (int)(pack / per_reg(ir_dtype_bits(dt[k]), pack));
	for (size_t k = 0; k < n; k++)
		want_ins += (int)(pack / per_reg(ir_dtype_bits(v[k]->type->dtype), pack));
	if (outs != want_outs || ins != want_ins) {
		diag_error(ck->d, a[1]->span, "the constraints give %d outputs and %d inputs; with "
		           "pack=%lld these results and arguments take %d and %d registers", outs, ins,
		           (long long)pack, want_outs, want_ins);
		return NULL;
	}
	TInst *i = sema_emit(ck, OP_INLINE_ASM, call->span, NULL, 0);
	i->args = v;
	i->n_args = (int)n;
	i->attr.text = arena_strndup(ck->a, a[0]->u.str.s, a[0]->u.str.len);
	i->attr.text2 = cons;
	i->attr.is_pure = a[4]->u.b;
	i->attr.pack = (int)pack;
	return results(ck, i, like && like->kind == TY_TENSOR ? like : NULL, dt, n_res, call->span);
}

/* The scalar results of a mapped function: its value flattened (a tuple
 * of pack * results scalars, or one) into r[]; false after a diagnostic. */
static bool
map_results(Check *ck, SrcSpan at, Value *ret, int64_t pack, TValue **r, int *n)
{
	bool many = ret->kind == VAL_TUPLE;
	*n = many ? (int)ret->u.list.n : 1;
	if (*n < 1 || *n > 64 || *n % pack) {
		diag_error(ck->d, at, "the mapped function returns %d values; with pack=%lld it must "
		           "return pack values per result", *n, (long long)pack);
		return false;
	}
	for (int k = 0; k < *n; k++) {
		Value *v = many ? ret->u.list.items[k] : ret;
		if (!(r[k] = sema_materialize(ck, v, DT_VOID)))
			return false;
		if (r[k]->type->kind != TY_SCALAR || r[k]->type->dtype == DT_I1) {
			diag_error(ck->d, at, "the mapped function returns %s; it must return scalars of "
			           "8 bits or more", sema_type_str(ck, r[k]->type));
			return false;
		}
		if (r[k]->type->dtype != r[k - k % pack]->type->dtype) {
			diag_error(ck->d, at, "the %lld values of result %lld have different dtypes",
			           (long long)pack, (long long)(k / pack));
			return false;
		}
	}
	return true;
}

/* gl.map_elementwise(scalar_fn, *args, pack=1) */
static Value *
map_elementwise(Check *ck, const Node *call, Value **a)
{
	const char *name = "gl.map_elementwise";
	if (a[0]->kind != VAL_FUNC) {
		diag_error(ck->d, a[0]->span, "%s maps a @gl.jit function, not %s", name,
		           sema_value_kind_phrase(a[0]));
		return NULL;
	}
	size_t n = a[1]->u.list.n;
	TValue **v = arena_alloc(ck->a, (n + 1) * sizeof *v);
	const TType *like;
	int64_t pack;
	if (!elementwise_args(ck, call->span, name, a[1]->u.list.items, n, v, &like) ||
	    !pack_arg(ck, a[2], like, &pack))
		return NULL;
	const Node *f = a[0]->u.func;
	if (f->u.func.params.len != n * (size_t)pack || n * (size_t)pack > SEMA_MAX_CALL_ARGS) {
		diag_error(ck->d, call->span, "'%s' takes %zu parameters; mapped over %zu arguments "
		           "with pack=%lld it gets %zu", f->u.func.name, f->u.func.params.len, n,
		           (long long)pack, n * (size_t)pack);
		return NULL;
	}
	TInst *i = sema_emit(ck, OP_MAP, call->span, NULL, 0);
	i->args = v;
	i->n_args = (int)n;
	i->attr.pack = (int)pack;
	TBlock *saved = ck->blk;
	ck->blk = &i->body;
	Value *sc[SEMA_MAX_CALL_ARGS];
	for (size_t k = 0; k < n * (size_t)pack; k++) {
		TInst *e = sema_emit(ck, OP_MAP_ARG, call->span,
		                     sema_type_scalar(ck, v[k / pack]->type->dtype), 0);
		e->attr.index = (int)k;
		sc[k] = rt(ck, e->res, call->span);
	}
	Value *ret = sema_inline_call(ck, call->span, f, sc, (int)(n * pack));
	TValue *r[64];
	int nr;
	bool ok = ret && map_results(ck, call->span, ret, pack, r, &nr);
	if (ok) {
		TInst *y = sema_emit(ck, OP_MAP_YIELD, call->span, NULL, 0);
		y->args = arena_alloc(ck->a, (size_t)(nr + 1) * sizeof *y->args);
		memcpy(y->args, r, (size_t)nr * sizeof *r);
		y->n_args = nr;
	}
	ck->blk = saved;
	if (!ok)
		return NULL;
	TDType dt[64];
	for (int k = 0; k < nr / pack; k++)
		dt[k] = r[k * pack]->type->dtype;
	return results(ck, i, like && like->kind == TY_TENSOR ? like : NULL, dt, nr / (int)pack,
	               call->span);
}

Value *
sema_check_elementwise_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	return fn == BF_INLINE_ASM ? inline_asm(ck, call, a) : map_elementwise(ck, call, a);
}
