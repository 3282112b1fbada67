/*
 * Facts of the tensor-core instructions that sema (which checks what a
 * program asks of them), the passes and code generation (which builds
 * them) share: the operand families, the accumulators each family has, the
 * families WGMMA reads MN-major, and the accumulator layout glc gives an
 * inferred WGMMA accumulator.
 */
#include "ir/ir.h"

IrMmaFamily
ir_mma_family(TDType t)
{
	switch (t) {
	case DT_F16: return IR_MMA_F16;
	case DT_BF16: return IR_MMA_BF16;
	case DT_F32: return IR_MMA_TF32;
	case DT_F8E4M3: case DT_F8E5M2: return IR_MMA_F8;
	case DT_I8: case DT_U8: return IR_MMA_I8;
	default: return IR_MMA_NONE;
	}
}

bool
ir_mma_acc_ok(IrMmaFamily f, TDType acc, bool wgmma)
{
	switch (f) {
	case IR_MMA_NONE: return false;
	case IR_MMA_I8: return acc == DT_I32;
	case IR_MMA_F16: return acc == DT_F32 || acc == DT_F16;
	case IR_MMA_F8: return acc == DT_F32 || (wgmma && acc == DT_F16);
	default: return acc == DT_F32;
	}
}

bool
ir_mma_mn_major_ok(IrMmaFamily f)
{
	return f == IR_MMA_F16 || f == IR_MMA_BF16;
}

const LLDesc *
ir_wgmma_layout(Arena *a, const TType *acc, int bits, int num_warps)
{
	int64_t n = acc->rank == 2 ? acc->shape[1] : 8;
	int64_t in = 8;
	for (int64_t c = 256; c >= 8; c -= 8)
		if (n % c == 0) {
			in = c;
			break;
		}
	return ll_desc_wgmma(a, num_warps, (int)in, 256 / bits);
}
