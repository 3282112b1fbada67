/*
 * Gluon's classes called in a kernel: the type constructors make type
 * values (VAL_TYPE; a block_type is a tensor type without a layout), gl.tuple
 * a tuple, and the others are refused; gl.void is a dtype of no value. Also
 * the type values Gluon reads off a value (`t.type` of a tuple, an
 * accumulator's type) and with_element_ty. The class hierarchy (isinstance)
 * is sema/value/classes.c's.
 */
#include "sema/eval/eval.h"

#include <string.h>

static Value *
type_value(Check *ck, const TType *t, SrcSpan at)
{
	Value *v = sema_new_value(&ck->ev, VAL_TYPE, at);
	v->u.type = t;
	return v;
}

/* gl.dtype(name) with Triton's dtype names. */
static Value *
dtype_by_name(Check *ck, const Node *call, const Value *name)
{
	static const struct { const char *name; TDType dt; } names[] = {
		{"int1", DT_I1}, {"int8", DT_I8}, {"int16", DT_I16}, {"int32", DT_I32},
		{"int64", DT_I64}, {"uint8", DT_U8}, {"uint16", DT_U16}, {"uint32", DT_U32},
		{"uint64", DT_U64}, {"fp8e4nv", DT_F8E4M3}, {"fp8e5", DT_F8E5M2}, {"fp16", DT_F16},
		{"bf16", DT_BF16}, {"fp32", DT_F32}, {"fp64", DT_F64}, {"void", DT_VOID},
	};
	if (name->kind != VAL_STR) {
		diag_error(ck->d, name->span, "gl.dtype takes a dtype name such as 'fp16', not %s",
		           sema_value_kind_phrase(name));
		return NULL;
	}
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		if (strlen(names[i].name) != name->u.str.len ||
		    memcmp(names[i].name, name->u.str.s, name->u.str.len) != 0)
			continue;
		if (names[i].dt == DT_VOID) {
			Value *v = sema_new_value(&ck->ev, VAL_BUILTIN, call->span);
			v->u.builtin = sema_builtin_lookup(sema_builtin_namespace("gl"), "void");
			return v;
		}
		Value *v = sema_new_value(&ck->ev, VAL_DTYPE, call->span);
		v->u.dtype = names[i].dt;
		return v;
	}
	diag_error(ck->d, name->span, "gl.dtype: '%.*s' is not a dtype name glc supports (Triton's "
	           "names: int1, int8, ..., uint64, fp8e4nv, fp8e5, fp16, bf16, fp32, fp64, void)",
	           (int)name->u.str.len, name->u.str.s);
	return NULL;
}

/* An element type: a dtype, or a pointer type (tensors of pointers). */
static const TType *
element_type(Check *ck, const Value *v, const char *what)
{
	if (v->kind == VAL_TYPE && v->u.type->kind == TY_PTR)
		return v->u.type;
	TDType dt;
	return sema_value_dtype(ck, v, what, &dt) ? sema_type_scalar(ck, dt) : NULL;
}

/* gl.block_type(element_ty, shape) */
static Value *
block_type(Check *ck, const Node *call, Value **a)
{
	const TType *elem = element_type(ck, a[0], "gl.block_type's element type");
	int64_t shape[LL_MAX_RANK];
	int rank;
	if (!elem || !sema_value_shape(ck, a[1], "gl.block_type's shape", shape, &rank))
		return NULL;
	return type_value(ck, sema_block_type(ck, elem, shape, rank), call->span);
}

static Value *
distributed_type(Check *ck, const Node *call, Value **a)
{
	const TType *elem = element_type(ck, a[0], "gl.distributed_type's element type");
	int64_t shape[LL_MAX_RANK];
	int rank;
	const LLDesc *l;
	if (!elem || !sema_value_shape(ck, a[1], "gl.distributed_type's shape", shape, &rank) ||
	    !(l = sema_value_layout(ck, a[2], "gl.distributed_type's layout", false)))
		return NULL;
	TType *t = sema_tensor_type(ck, a[2]->span, elem, shape, rank, l);
	return t ? type_value(ck, t, call->span) : NULL;
}

static Value *
smem_type(Check *ck, const Node *call, Value **a)
{
	TDType dt;
	int64_t shape[LL_MAX_RANK], alloc[LL_MAX_RANK];
	int rank, alloc_rank;
	const LLDesc *l;
	if (!sema_value_dtype(ck, a[0], "the element type", &dt) ||
	    !sema_value_shape(ck, a[1], "the shape", shape, &rank) ||
	    !(l = sema_value_layout(ck, a[2], "the layout", true)) ||
	    !sema_value_shape(ck, a[3], "the alloc_shape", alloc, &alloc_rank))
		return NULL;
	TType *t = sema_smem_type(ck, a[2]->span, dt, shape, rank, l, -1);
	if (!t)
		return NULL;
	memcpy(t->alloc_shape, alloc, sizeof alloc);
	t->alloc_rank = alloc_rank;
	return type_value(ck, t, call->span);
}

static Value *
pointer_type(Check *ck, const Node *call, Value **a)
{
	TDType dt;
	if (!sema_value_dtype(ck, a[0], "gl.pointer_type's element type", &dt))
		return NULL;
	if ((a[1] && !(a[1]->kind == VAL_INT && a[1]->u.i == 1)) ||
	    (a[2] && !(a[2]->kind == VAL_BOOL && !a[2]->u.b))) {
		diag_error(ck->d, call->span, "gl.pointer_type: glc's pointers are global "
		           "(address_space=1) and not const");
		return NULL;
	}
	return type_value(ck, sema_type_ptr(ck, dt), call->span);
}

/* warpgroup_mma_accumulator_type(tensor_type): the type of an accumulator
 * around a register tensor of that type (Gluon's accumulators hold one). */
static Value *
wgmma_acc_type(Check *ck, const Node *call, Value **a)
{
	if (a[0]->kind != VAL_TYPE || a[0]->u.type->kind != TY_TENSOR) {
		diag_error(ck->d, a[0]->span, "warpgroup_mma_accumulator_type takes the type of the "
		           "accumulator's tensor (a gl.distributed_type, such as acc.type of a "
		           "tensor), not %s", sema_value_kind_phrase(a[0]));
		return NULL;
	}
	return sema_wgmma_acc_type(ck, a[0]->u.type, call->span);
}

Value *
sema_wgmma_acc_type(Check *ck, const TType *tensor, SrcSpan at)
{
	Value *v = sema_new_value(&ck->ev, VAL_WGMMA_ACC_TYPE, at);
	v->u.type = tensor;
	return v;
}

/* A tuple type of n elements, to be filled. */
static TType *
new_tuple_type(Check *ck, size_t n)
{
	TType *t = arena_alloc(ck->a, sizeof *t);
	t->kind = TY_TUPLE;
	t->n_elems = (int)n;
	t->elems = arena_alloc(ck->a, (n + 1) * sizeof *t->elems);
	return t;
}

Value *
sema_scalar_tuple_type(Check *ck, int rank, TDType dt, SrcSpan at)
{
	TType *t = new_tuple_type(ck, (size_t)rank);
	for (int i = 0; i < rank; i++)
		t->elems[i] = sema_type_scalar(ck, dt);
	return type_value(ck, t, at);
}

/* Whether v is the tuple type of rank scalars of dtype dt. */
static bool
is_scalar_tuple_type(const Value *v, int rank, TDType dt)
{
	if (v->kind != VAL_TYPE || v->u.type->kind != TY_TUPLE || v->u.type->n_elems != rank)
		return false;
	for (int i = 0; i < rank; i++)
		if (v->u.type->elems[i]->kind != TY_SCALAR || v->u.type->elems[i]->dtype != dt)
			return false;
	return true;
}

/* tma.tensor_descriptor_type(block_type, shape_type, strides_type, layout):
 * glc's descriptors have an i32 extent and an i64 stride per block dim (as
 * tma.make_tensor_descriptor and the host's TensorDescriptor make them). */
static Value *
desc_type(Check *ck, const Node *call, Value **a)
{
	const TType *b = a[0]->kind == VAL_TYPE ? a[0]->u.type : NULL;
	if (!b || b->kind != TY_TENSOR || b->layout.desc || b->elem_is_ptr) {
		diag_error(ck->d, a[0]->span, "tma.tensor_descriptor_type's block_type must be a "
		           "gl.block_type of numbers (desc.block_type), not %s",
		           sema_value_kind_phrase(a[0]));
		return NULL;
	}
	if (!is_scalar_tuple_type(a[1], b->rank, DT_I32) ||
	    !is_scalar_tuple_type(a[2], b->rank, DT_I64)) {
		diag_error(ck->d, call->span, "tma.tensor_descriptor_type: glc's descriptors of rank %d "
		           "have shape_type gl.tuple_type([gl.int32] * %d) and strides_type "
		           "gl.tuple_type([gl.int64] * %d)", b->rank, b->rank, b->rank);
		return NULL;
	}
	const LLDesc *l = sema_value_layout(ck, a[3], "the descriptor's layout", true);
	TType *t = l ? sema_desc_type(ck, b->dtype, b->shape, b->rank, l, a[3]->span) : NULL;
	return t ? type_value(ck, t, call->span) : NULL;
}

/* gl.tuple_type's fields: None, or one name (a string) per element. */
static bool
tuple_fields(Check *ck, const Value *f, TType *t)
{
	if (!f || f->kind == VAL_NONE)
		return true;
	if ((f->kind != VAL_LIST && f->kind != VAL_TUPLE) || f->u.list.cls ||
	    f->u.list.n != (size_t)t->n_elems) {
		diag_error(ck->d, f->span, "gl.tuple_type's fields must be a list of %d names, one per "
		           "type", t->n_elems);
		return false;
	}
	t->fields = arena_alloc(ck->a, ((size_t)t->n_elems + 1) * sizeof *t->fields);
	for (int i = 0; i < t->n_elems; i++) {
		const Value *e = f->u.list.items[i];
		if (e->kind != VAL_STR) {
			diag_error(ck->d, e->span, "gl.tuple_type: a field name must be a string, not %s",
			           sema_value_kind_phrase(e));
			return false;
		}
		t->fields[i] = arena_strndup(ck->a, e->u.str.s, e->u.str.len);
	}
	return true;
}

/* gl.tuple_type(types, fields=None) */
static Value *
tuple_type(Check *ck, const Node *call, Value **a)
{
	const Value *ts = a[0];
	if ((ts->kind != VAL_LIST && ts->kind != VAL_TUPLE) || ts->u.list.cls) {
		diag_error(ck->d, call->span, "gl.tuple_type takes a list of types");
		return NULL;
	}
	TType *t = new_tuple_type(ck, ts->u.list.n);
	for (size_t i = 0; i < ts->u.list.n; i++) {
		const Value *e = ts->u.list.items[i];
		if (e->kind == VAL_DTYPE)
			t->elems[i] = sema_type_scalar(ck, e->u.dtype);
		else if (e->kind == VAL_TYPE)
			t->elems[i] = e->u.type;
		else {
			diag_error(ck->d, e->span, "gl.tuple_type: an element must be a type, not %s",
			           sema_value_kind_phrase(e));
			return NULL;
		}
	}
	return tuple_fields(ck, a[1], t) ? type_value(ck, t, call->span) : NULL;
}

Value *
sema_type_class_call(Check *ck, const Node *call, BuiltinFn fn, Value **a)
{
	switch (fn) {
	case BF_CLS_DTYPE: return dtype_by_name(ck, call, a[0]);
	case BF_CLS_BLOCK_TYPE: return block_type(ck, call, a);
	case BF_CLS_DISTRIBUTED_TYPE: return distributed_type(ck, call, a);
	case BF_CLS_SMEM_TYPE: return smem_type(ck, call, a);
	case BF_CLS_POINTER_TYPE: return pointer_type(ck, call, a);
	case BF_CLS_TUPLE_TYPE: return tuple_type(ck, call, a);
	case BF_CLS_WGMMA_ACC_TYPE: return wgmma_acc_type(ck, call, a);
	case BF_CLS_DESC_TYPE: return desc_type(ck, call, a);
	case BF_CLS_TUPLE: {   /* gl.tuple(iterable): a[0] holds the arguments */
		const Value *it = a[0]->u.list.n == 1 ? a[0]->u.list.items[0] : NULL;
		if (!it || (it->kind != VAL_LIST && it->kind != VAL_TUPLE) || it->u.list.cls) {
			diag_error(ck->d, call->span, "gl.tuple takes one list or tuple of values");
			return NULL;
		}
		return sema_list_value(&ck->ev, VAL_TUPLE, it->u.list.items, it->u.list.n, call->span);
	}
	default: {
		static const char *const names[] = {
			[BF_CLS_BASE_VALUE - BF_CLS_FIRST_] = "gl.base_value",
			[BF_CLS_TENSOR - BF_CLS_FIRST_] = "gl.tensor",
			[BF_CLS_SMEM - BF_CLS_FIRST_] = "gl.shared_memory_descriptor",
			[BF_CLS_DESC - BF_CLS_FIRST_] = "tma.tensor_descriptor",
			[BF_CLS_WGMMA_ACC - BF_CLS_FIRST_] = "warpgroup_mma_accumulator",
			[BF_CLS_BASE_TYPE - BF_CLS_FIRST_] = "gl.base_type",
			[BF_CLS_DISTRIBUTED_LAYOUT - BF_CLS_FIRST_] = "DistributedLayout",
			[BF_CLS_SHARED_LAYOUT - BF_CLS_FIRST_] = "SharedLayout",
			[BF_VOID - BF_CLS_FIRST_] = "gl.void",
		};
		diag_error(ck->d, call->span, "%s cannot be called in a kernel: its values come only "
		           "from the operations that return them", names[fn - BF_CLS_FIRST_]);
		return NULL;
	}
	}
}

Value *
sema_type_method_call(Check *ck, const Node *call, Value *m)
{
	const TType *t = m->u.method.self->u.type;
	Value *a[1];
	static const char *const params[] = {"scalar_ty"};
	if (!sema_bind_args(ck, call, ".with_element_ty", params, 1, a))
		return NULL;
	const TType *elem = element_type(ck, a[0], "with_element_ty's element type");
	return elem ? type_value(ck, sema_type_with_elem(ck, t, elem), call->span) : NULL;
}

/* sema_tuple_type_of for tv, depth tuples deep; NULL past
 * SEMA_MAX_VALUE_DEPTH (no type is nested that deep). */
static Value *
tuple_type_of(Check *ck, const Value *tv, SrcSpan at, int depth)
{
	if (depth > SEMA_MAX_VALUE_DEPTH)
		return NULL;
	TType *t = new_tuple_type(ck, tv->u.list.n);
	for (size_t i = 0; i < tv->u.list.n; i++) {
		const Value *e = tv->u.list.items[i];
		if (e->kind == VAL_RUNTIME)
			t->elems[i] = e->u.rt->type;
		else if (e->kind == VAL_TUPLE && !e->u.list.cls) {
			const Value *sub = tuple_type_of(ck, e, at, depth + 1);
			if (!sub)
				return NULL;
			t->elems[i] = sub->u.type;
		} else
			return NULL;
	}
	return type_value(ck, t, at);
}

Value *
sema_tuple_type_of(Check *ck, const Value *tv, SrcSpan at)
{
	return tuple_type_of(ck, tv, at, 0);
}
