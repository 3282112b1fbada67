/*
 * Global memory: gl.load and gl.store (masks and `other` broadcast against
 * the pointers as Triton does, cache_modifier, eviction_policy, volatile),
 * the axis hints gl.multiple_of, gl.max_contiguous, gl.max_constancy and
 * gl.assume, and Ampere's cp.async (async_copy.async_copy_global_to_shared,
 * commit_group, wait_group, mbarrier_arrive).
 */
#include "sema/builtins/builtins.h"

#include <string.h>

static Value *
none(Check *ck, SrcSpan at)
{
	return sema_new_value(&ck->ev, VAL_NONE, at);
}

static bool
is_ptr_value(const Value *v)
{
	const TType *t = v->kind == VAL_RUNTIME ? v->u.rt->type : NULL;
	return t && (t->kind == TY_PTR || (t->kind == TY_TENSOR && t->elem_is_ptr));
}

bool
sema_want_ptr(Check *ck, const Value *v, const char *fname)
{
	if (is_ptr_value(v))
		return true;
	diag_error(ck->d, v->span, "%s needs a pointer or a tensor of pointers, not %s", fname,
	           v->kind == VAL_RUNTIME ? sema_type_str(ck, v->u.rt->type)
	                                  : sema_value_kind_phrase(v));
	return false;
}

/* A memory operand v (mask, other, value) of dtype dt, and the pointers,
 * broadcast to one shape (Triton's rule: either may grow); false after a
 * diagnostic naming role. */
static bool
with_ptr(Check *ck, TValue **ptr, Value *v, TDType dt, const char *role, TValue **out)
{
	TValue *t = sema_materialize(ck, v, dt);
	if (!t)
		return false;
	if (t->type->kind == TY_PTR || t->type->elem_is_ptr || t->type->kind > TY_TENSOR) {
		diag_error(ck->d, v->span, "%s must be a number or a tensor of numbers, not %s", role,
		           sema_type_str(ck, t->type));
		return false;
	}
	if ((*ptr)->type->kind != TY_TENSOR && t->type->kind == TY_TENSOR) {
		diag_error(ck->d, v->span, "%s is a tensor but the pointer is a scalar", role);
		return false;
	}
	t = sema_cast_to(ck, t, dt, v->span);
	if (!sema_unify_roles(ck, v->span, arena_printf(ck->a, "%s and pointer", role), ptr,
	                      "the pointer", &t, role))
		return false;
	*out = t;
	return true;
}

/* A compile-time string argument among choices[] (NULL-terminated; index
 * 0 is "", the default); *out is its index. */
static bool
choice_arg(Check *ck, const Value *v, const char *what, const char *const *choices, int *out)
{
	*out = 0;
	if (!v || v->kind == VAL_NONE)
		return true;
	if (v->kind == VAL_STR)
		for (int i = 0; choices[i]; i++)
			if (strlen(choices[i]) == v->u.str.len &&
			    memcmp(choices[i], v->u.str.s, v->u.str.len) == 0) {
				*out = i;
				return true;
			}
	StrBuf b = {0};
	for (int i = 1; choices[i]; i++)
		buf_printf(&b, "%s\"%s\"", i > 1 ? ", " : "", choices[i]);
	diag_error(ck->d, v->span, "%s must be one of %s (or \"\"), not %s", what, b.s,
	           v->kind == VAL_STR ? arena_printf(ck->a, "\"%.*s\"", (int)v->u.str.len,
	                                             v->u.str.s) : sema_value_kind_phrase(v));
	buf_free(&b);
	return false;
}

/* cache_modifier (load or store spellings), eviction_policy, volatile
 * into i's attributes. */
static bool
access_attrs(Check *ck, TInst *i, bool load, Value *cache, Value *evict, Value *vol)
{
	static const char *const load_mods[] = {"", ".ca", ".cg", ".cv", NULL};
	static const TCache load_map[] = {CACHE_NONE, CACHE_CA, CACHE_CG, CACHE_CV};
	static const char *const store_mods[] = {"", ".wb", ".cg", ".cs", ".wt", NULL};
	static const TCache store_map[] = {CACHE_NONE, CACHE_WB, CACHE_CG, CACHE_CS, CACHE_WT};
	static const char *const evicts[] = {"", "evict_first", "evict_last", "evict_normal",
	                                     NULL};
	static const TEvict evict_map[] = {EVICT_NORMAL, EVICT_FIRST, EVICT_LAST, EVICT_NORMAL};
	int c, e;
	bool v;
	if (!choice_arg(ck, cache, "cache_modifier", load ? load_mods : store_mods, &c) ||
	    !choice_arg(ck, evict, "eviction_policy", evicts, &e) ||
	    !sema_opt_bool(ck, vol, false, "volatile", &v))
		return false;
	if (v && (c || e)) {
		diag_error(ck->d, (c ? cache : evict)->span, "a volatile load takes no "
		           "cache_modifier or eviction_policy (PTX's ld.volatile has none)");
		return false;
	}
	i->attr.cache = load ? load_map[c] : store_map[c];
	i->attr.evict = evict_map[e];
	i->attr.is_volatile = v;
	return true;
}

/* boundary_check and padding_option belong to block pointers. */
static bool
no_block_ptr_args(Check *ck, const char *fname, Value *boundary, Value *padding)
{
	Value *v = boundary && !(boundary->kind == VAL_TUPLE && !boundary->u.list.n) &&
	           boundary->kind != VAL_NONE ? boundary
	         : padding && !(padding->kind == VAL_STR && !padding->u.str.len) &&
	           padding->kind != VAL_NONE ? padding : NULL;
	if (!v)
		return true;
	diag_error(ck->d, v->span, "%s: boundary_check and padding_option apply to block "
	           "pointers, which Gluon does not have; use a mask", fname);
	return false;
}

/* In a tl function, a global access has a layout of its own (which the
 * layout-infer pass may make Triton's coalesced one): the pointers are
 * softly converted to it first, the other operands once they have the
 * pointers' shape (soft_operand) and the loaded value from it
 * (soft_result). Elsewhere each is the value itself. */
static TValue *
soft_pointers(Check *ck, SrcSpan at, TValue *p)
{
	return sema_in_tl(ck) ? sema_soft_fresh(ck, at, p) : p;
}

static TValue *
soft_operand(Check *ck, SrcSpan at, TValue *p, TValue *v)
{
	return v && sema_in_tl(ck) && p->type->kind == TY_TENSOR
	       ? sema_soft_convert(ck, at, v, p->type->layout.desc) : v;
}

TValue *
sema_soft_result(Check *ck, SrcSpan at, TValue *r)
{
	return sema_in_tl(ck) ? sema_soft_fresh(ck, at, r) : r;
}

/* tl.load / tl.store through a block pointer: the prelude's
 * _load_block_ptr / _store_block_ptr (no mask or other: boundary_check and
 * padding_option say what is out of bounds). */
static Value *
block_ptr_access(Check *ck, const Node *call, bool load, Value **a)
{
	const char *fname = sema_fn_name(ck, load ? "load" : "store");
	Value *mask = load ? a[1] : a[2];
	if ((mask && mask->kind != VAL_NONE) || (load && a[2] && a[2]->kind != VAL_NONE)) {
		diag_error(ck->d, (mask && mask->kind != VAL_NONE ? mask : a[2])->span, "%s through "
		           "a block pointer takes no mask or other: boundary_check and "
		           "padding_option say what lies out of bounds", fname);
		return NULL;
	}
	Value *none = sema_new_value(&ck->ev, VAL_NONE, call->span);
	Value *empty = sema_new_value(&ck->ev, VAL_STR, call->span);
	empty->u.str.s = "";
	Value *no = sema_new_value(&ck->ev, VAL_BOOL, call->span);
	const Node *f = sema_prelude_func(ck, load ? "_load_block_ptr" : "_store_block_ptr");
	if (!f)
		return NULL;
	if (load) {
		Value *args[6] = {a[0], a[3] ? a[3] : none, a[4] ? a[4] : empty, a[5] ? a[5] : empty,
		                  a[6] ? a[6] : empty, a[7] ? a[7] : no};
		return sema_inline_call(ck, call->span, f, args, 6);
	}
	Value *args[5] = {a[0], a[1], a[3] ? a[3] : none, a[4] ? a[4] : empty,
	                  a[5] ? a[5] : empty};
	return sema_inline_call(ck, call->span, f, args, 5);
}

/* gl.load(pointer, mask, other, boundary_check, padding_option,
 * cache_modifier, eviction_policy, volatile) */
static Value *
call_load(Check *ck, const Node *call, Value **a)
{
	if (sema_is_block_ptr(ck, a[0]))
		return block_ptr_access(ck, call, true, a);
	const char *fname = sema_fn_name(ck, "load");
	if (!sema_want_ptr(ck, a[0], fname) || !no_block_ptr_args(ck, fname, a[3], a[4]))
		return NULL;
	if (a[2] && !a[1]) {
		diag_error(ck->d, a[2]->span, "%s: 'other' needs a mask (it is the value of the "
		           "masked-off elements)", fname);
		return NULL;
	}
	TValue *p = soft_pointers(ck, call->span, a[0]->u.rt), *m = NULL, *o = NULL;
	if ((a[1] && !with_ptr(ck, &p, a[1], DT_I1, "the mask", &m)) ||
	    (a[2] && !with_ptr(ck, &p, a[2], p->type->dtype, "'other'", &o)) ||
	    (m && o && !with_ptr(ck, &p, sema_rt_value(ck, m, a[1]->span), DT_I1, "the mask", &m)))
		return NULL;
	m = soft_operand(ck, call->span, p, m);
	o = soft_operand(ck, call->span, p, o);
	const TType *rt = sema_type_with_elem(ck, p->type, sema_type_scalar(ck, p->type->dtype));
	TInst *i = sema_emit(ck, OP_LOAD, call->span, rt, 1 + (m != NULL) + (o != NULL), p, m ? m : o, o);
	i->attr.has_mask = m != NULL;
	i->attr.has_other = o != NULL;
	i->res->layout_at = p->layout_at;
	if (!access_attrs(ck, i, true, a[5], a[6], a[7]))
		return NULL;
	return sema_rt_value(ck, sema_soft_result(ck, call->span, i->res), call->span);
}

/* gl.store(pointer, value, mask, boundary_check, cache_modifier,
 * eviction_policy) */
static Value *
call_store(Check *ck, const Node *call, Value **a)
{
	if (sema_is_block_ptr(ck, a[0]))
		return block_ptr_access(ck, call, false, a);
	const char *fname = sema_fn_name(ck, "store");
	if (!sema_want_ptr(ck, a[0], fname) || !no_block_ptr_args(ck, fname, a[3], NULL))
		return NULL;
	TValue *p = soft_pointers(ck, call->span, a[0]->u.rt), *v, *m = NULL;
	if (!with_ptr(ck, &p, a[1], p->type->dtype, "the value", &v) ||
	    (a[2] && !with_ptr(ck, &p, a[2], DT_I1, "the mask", &m)) ||
	    (m && !with_ptr(ck, &p, sema_rt_value(ck, v, a[1]->span), p->type->dtype, "the value",
	                    &v)))
		return NULL;
	v = soft_operand(ck, call->span, p, v);
	m = soft_operand(ck, call->span, p, m);
	TInst *i = sema_emit(ck, OP_STORE, call->span, NULL, 2 + (m != NULL), p, v, m);
	i->attr.has_mask = m != NULL;
	if (!access_attrs(ck, i, false, a[4], a[5], NULL))
		return NULL;
	return none(ck, call->span);
}

/* gl.multiple_of / max_contiguous / max_constancy(input, values): values
 * is one power of two per dim (an int for scalars and 1-D tensors). */
static Value *
call_hint(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	static const char *const names[] = {[BF_MULTIPLE_OF] = "gl.multiple_of",
	                                    [BF_MAX_CONTIGUOUS] = "gl.max_contiguous",
	                                    [BF_MAX_CONSTANCY] = "gl.max_constancy"};
	const char *name = names[fn];
	if (a[0]->kind != VAL_RUNTIME)   /* a compile-time value needs no hint */
		return a[0];
	TValue *x = a[0]->u.rt;
	const TType *t = x->type;
	if (t->kind > TY_TENSOR || (!t->elem_is_ptr && t->kind != TY_PTR &&
	                            (ir_dtype_is_float(t->dtype) || t->dtype == DT_I1))) {
		diag_error(ck->d, a[0]->span, "%s applies to integers and pointers, not %s", name,
		           sema_type_str(ck, t));
		return NULL;
	}
	int rank = t->kind == TY_TENSOR ? t->rank : 1;
	int64_t v[LL_MAX_RANK];
	int n = 1;
	if (a[1]->kind == VAL_INT) {
		v[0] = a[1]->u.i;
	} else if (!sema_value_shape(ck, a[1], arena_printf(ck->a, "%s's values", name), v, &n)) {
		return NULL;
	}
	if (n != rank) {
		diag_error(ck->d, a[1]->span, "%s needs %d value%s (one per dimension), not %d", name,
		           rank, rank == 1 ? "" : "s", n);
		return NULL;
	}
	for (int d = 0; d < n; d++)
		if (v[d] < 1 || (v[d] & (v[d] - 1))) {
			diag_error(ck->d, a[1]->span, "%s's values must be powers of two, not %lld", name,
			           (long long)v[d]);
			return NULL;
		}
	TOp op = fn == BF_MULTIPLE_OF ? OP_MULTIPLE_OF : fn == BF_MAX_CONTIGUOUS ? OP_MAX_CONTIGUOUS
	                                                                       : OP_MAX_CONSTANCY;
	TInst *i = sema_emit(ck, op, call->span, t, 1, x);
	memcpy(i->attr.hint, v, (size_t)n * sizeof *v);
	i->res->layout_at = x->layout_at;
	return sema_rt_value(ck, i->res, call->span);
}

static Value *
call_assume(Check *ck, const Node *call, Value *c)
{
	if (c->kind != VAL_RUNTIME) {
		bool t;
		if (!sema_value_truth(&ck->ev, c, &t))
			return NULL;
		if (!t) {
			diag_error(ck->d, c->span, "%s of a condition that is false at compile time",
			           sema_fn_name(ck, "assume"));
			return NULL;
		}
		return none(ck, call->span);
	}
	const TType *t = c->u.rt->type;
	if (t->dtype != DT_I1 || t->elem_is_ptr || t->kind > TY_TENSOR) {
		diag_error(ck->d, c->span, "%s needs a boolean condition, not %s",
		           sema_fn_name(ck, "assume"), sema_type_str(ck, t));
		return NULL;
	}
	sema_emit(ck, OP_ASSUME, call->span, NULL, 1, c->u.rt);
	return none(ck, call->span);
}

/* async_copy.async_copy_global_to_shared(smem, pointer, mask,
 * cache_modifier, eviction_policy, volatile) */
static Value *
async_copy(Check *ck, const Node *call, Value **a)
{
	if (!sema_want_rt(ck, a[0], TY_SMEM, "the destination") ||
	    !sema_want_ptr(ck, a[1], "async_copy_global_to_shared"))
		return NULL;
	TValue *s = a[0]->u.rt, *p = a[1]->u.rt, *m = NULL;
	if (p->type->kind != TY_TENSOR) {
		diag_error(ck->d, a[1]->span, "async_copy_global_to_shared needs a tensor of pointers, "
		           "not %s", sema_type_str(ck, p->type));
		return NULL;
	}
	if (a[2] && !with_ptr(ck, &p, a[2], DT_I1, "the mask", &m))
		return NULL;
	if (s->type->dtype == DT_I1) {
		diag_error(ck->d, a[0]->span, "cp.async copies bytes; copy i1 values as i8");
		return NULL;
	}
	if (!ir_same_shape(s->type, p->type) || s->type->dtype != p->type->dtype) {
		diag_error(ck->d, call->span, "async_copy_global_to_shared copies %s into %s: the "
		           "shapes and element types must match", sema_type_str(ck, p->type),
		           sema_type_str(ck, s->type));
		return NULL;
	}
	TInst *i = sema_emit(ck, OP_ASYNC_COPY, call->span, NULL, 2 + (m != NULL), s, p, m);
	i->attr.has_mask = m != NULL;
	if (!access_attrs(ck, i, true, a[3], a[4], a[5]))
		return NULL;
	if (i->attr.cache == CACHE_CV) {
		diag_error(ck->d, a[3]->span, "cp.async takes cache_modifier \".ca\" or \".cg\", "
		           "not \".cv\"");
		return NULL;
	}
	/* A generic-proxy write, as far as WGMMA and TMA stores are concerned. */
	ck->unfenced.data[s->type->alloc] = true;
	return none(ck, call->span);
}

Value *
sema_check_memory_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	int64_t n = 0;
	bool inc;
	switch (fn) {
	case BF_LOAD: return call_load(ck, call, a);
	case BF_STORE: return call_store(ck, call, a);
	case BF_MULTIPLE_OF: case BF_MAX_CONTIGUOUS: case BF_MAX_CONSTANCY:
		return call_hint(ck, call, fn, a);
	case BF_ASSUME: return call_assume(ck, call, a[0]);
	case BF_ASYNC_COPY: return async_copy(ck, call, a);
	case BF_ASYNC_COMMIT:
		sema_emit(ck, OP_ASYNC_COMMIT, call->span, NULL, 0);
		return none(ck, call->span);
	case BF_ASYNC_WAIT:
		if (a[0] && !sema_imm_operand(ck, a[0], IMM_GROUPS, &n))
			return NULL;
		sema_emit(ck, OP_ASYNC_WAIT, call->span, NULL, 0)->attr.count = n;
		return none(ck, call->span);
	default:   /* BF_ASYNC_MBAR_ARRIVE */
		if (!sema_want_rt(ck, a[0], TY_MBARRIER, "the barrier") ||
		    !sema_opt_bool(ck, a[1], false, "increment_count", &inc))
			return NULL;
		inc = inc || !a[1];
		sema_emit(ck, OP_ASYNC_MBAR_ARRIVE, call->span, NULL, 1, a[0]->u.rt)->attr.count = inc;
		return none(ck, call->span);
	}
}
