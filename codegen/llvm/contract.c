/*
 * Floating-point contraction as Triton does it (enable_fp_fusion=True, its
 * default): Triton hands NVPTX plain fmul/fadd/fsub and a target machine
 * with AllowFPOpFusion=Fast, so every multiply feeding an add or subtract
 * in one basic block becomes fma.rn, and the multiplies and adds left are
 * printed without .rn (mul.f32, add.f32), which lets ptxas contract them
 * further. LLVM's C API cannot set AllowFPOpFusion; the `contract' flag on
 * each instruction asks NVPTX for the same (LLVM 22: fusion where both
 * operations carry it, .rn only where one does not). The flags are set
 * after optimization, where Triton's target option acts, so the optimizer
 * sees the IR Triton's sees. A kernel without contraction
 * (-ffp-contract=off, @gl.kernel(enable_fp_fusion=False)) keeps mul.rn and
 * add.rn, as Triton's enable_fp_fusion=False.
 */
#include "codegen/llvm/llvm.h"

static bool
strict(const CgModule *m, LLVMValueRef fn)
{
	for (size_t i = 0; i < m->strict_fns.len; i++)
		if (m->strict_fns.data[i] == fn)
			return true;
	return false;
}

void
cg_module_contract(CgModule *m)
{
	for (LLVMValueRef fn = LLVMGetFirstFunction(m->mod); fn; fn = LLVMGetNextFunction(fn)) {
		if (LLVMIsDeclaration(fn) || strict(m, fn))
			continue;
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
		     bb = LLVMGetNextBasicBlock(bb))
			for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in;
			     in = LLVMGetNextInstruction(in)) {
				LLVMOpcode op = LLVMGetInstructionOpcode(in);
				if (op == LLVMFAdd || op == LLVMFSub || op == LLVMFMul)
					LLVMSetFastMathFlags(in, LLVMGetFastMathFlags(in) |
					                         LLVMFastMathAllowContract);
			}
	}
}
