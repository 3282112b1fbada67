/*
 * Dtypes and types of the IR: names and widths, equality (layouts compared
 * as maps, and shared ones by their padding too), and where a type's
 * layout is fitted.
 */
#include "ir/ir_internal.h"

#include <string.h>

static const struct { const char *name; int bits; } dtypes[DT_COUNT] = {
	[DT_VOID] = {"void", 0}, [DT_I1] = {"i1", 1}, [DT_I8] = {"i8", 8},
	[DT_I16] = {"i16", 16}, [DT_I32] = {"i32", 32}, [DT_I64] = {"i64", 64},
	[DT_U8] = {"u8", 8}, [DT_U16] = {"u16", 16}, [DT_U32] = {"u32", 32},
	[DT_U64] = {"u64", 64}, [DT_F16] = {"f16", 16}, [DT_BF16] = {"bf16", 16},
	[DT_F32] = {"f32", 32}, [DT_F64] = {"f64", 64}, [DT_F8E4M3] = {"f8e4m3", 8},
	[DT_F8E5M2] = {"f8e5m2", 8},
};

const char *
ir_dtype_name(TDType t)
{
	return dtypes[t].name;
}

int
ir_dtype_bits(TDType t)
{
	return dtypes[t].bits;
}

bool
ir_dtype_is_float(TDType t)
{
	return t >= DT_F16 && t <= DT_F8E5M2;
}

bool
ir_dtype_is_signed(TDType t)
{
	return t >= DT_I8 && t <= DT_I64;
}

bool
ir_dtype_is_unsigned(TDType t)
{
	return t >= DT_U8 && t <= DT_U64;
}

bool
ir_dtype_is_f8(TDType t)
{
	return t == DT_F8E4M3 || t == DT_F8E5M2;
}

bool
ir_type_equal(const TType *a, const TType *b)
{
	if (a == b)
		return true;
	if (a->kind != b->kind || a->dtype != b->dtype || a->elem_is_ptr != b->elem_is_ptr ||
	    a->rank != b->rank)
		return false;
	for (int i = 0; i < a->rank; i++)
		if (a->shape[i] != b->shape[i])
			return false;
	if (a->kind == TY_TUPLE) {
		if (a->n_elems != b->n_elems)
			return false;
		for (int i = 0; i < a->n_elems; i++)
			if (!ir_type_equal(a->elems[i], b->elems[i]))
				return false;
		return true;
	}
	if (a->kind == TY_SMEM || a->kind == TY_DESC) {
		LLPadding pa = ll_desc_padding(a->layout.desc), pb = ll_desc_padding(b->layout.desc);
		if (!ll_padding_equal(&pa, &pb))
			return false;
	}
	if (a->kind == TY_SMEM &&
	    memcmp(a->view_at, b->view_at, (size_t)a->rank * sizeof *a->view_at) != 0)
		return false;
	if (a->kind == TY_TENSOR || a->kind == TY_SMEM || a->kind == TY_DESC)
		return ll_equal(&a->layout.ll, &b->layout.ll);
	return true;
}

bool
ir_same_shape(const TType *a, const TType *b)
{
	return a->rank == b->rank &&
	       memcmp(a->shape, b->shape, (size_t)a->rank * sizeof *a->shape) == 0;
}

bool
ir_type_has_layout(const TType *t)
{
	return t->kind == TY_TENSOR || t->kind == TY_SMEM || t->kind == TY_MBARRIER ||
	       t->kind == TY_DESC;
}

int
ir_layout_shape(const int64_t *shape, int rank, const LLayout *ll, int64_t *out)
{
	int n = ll->n_out < rank ? ll->n_out : rank;
	memcpy(out, shape + (rank - n), (size_t)n * sizeof *shape);
	return n;
}
