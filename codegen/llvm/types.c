/*
 * Dtypes as LLVM types.
 */
#include "codegen/llvm/llvm.h"

LLVMTypeRef
cg_dtype_type(CgModule *m, TDType t)
{
	switch (t) {
	case DT_I1: return m->i1;
	case DT_I8: case DT_U8: case DT_F8E4M3: case DT_F8E5M2: return m->i8;
	case DT_I16: case DT_U16: return m->i16;
	case DT_I32: case DT_U32: return m->i32;
	case DT_I64: case DT_U64: return m->i64;
	case DT_F16: return m->f16;
	case DT_BF16: return m->bf16;
	case DT_F32: return m->f32;
	case DT_F64: return m->f64;
	case DT_VOID: case DT_COUNT: break;
	}
	return m->void_t;
}

bool
cg_dtype_is_fp(TDType t)
{
	return t == DT_F16 || t == DT_BF16 || t == DT_F32 || t == DT_F64;
}
