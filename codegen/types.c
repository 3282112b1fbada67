/*
 * Dtypes as LLVM types (device side) and as C types (launcher side).
 */
#include "codegen/cg_internal.h"

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

const char *
cg_param_ctype(const CgParam *p)
{
	if (p->kind == CG_PARAM_PTR)
		return "glrt_devptr";
	if (p->kind == CG_PARAM_TENSOR_MAP)
		return "const glrt_tensor_map *";
	switch (p->dtype) {
	case DT_I1: return "bool";   /* any nonzero value converts to true */
	case DT_U8: case DT_F8E4M3: case DT_F8E5M2: return "uint8_t";
	case DT_I8: return "int8_t";
	case DT_I16: return "int16_t";
	case DT_U16: case DT_F16: case DT_BF16: return "uint16_t";
	case DT_I32: return "int32_t";
	case DT_U32: return "uint32_t";
	case DT_I64: return "int64_t";
	case DT_U64: return "uint64_t";
	case DT_F32: return "float";
	case DT_F64: return "double";
	case DT_VOID: case DT_COUNT: break;
	}
	return "void";
}
