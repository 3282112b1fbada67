/*
 * Shared-memory stores of 16-bit register tensors through stmatrix (sm_90):
 * one stmatrix.sync.aligned.m8n8.x4.b16 writes four 8 x 8 matrices of
 * 16-byte rows for the warp, 8 elements per thread in 4 packed registers,
 * where a plain st.shared of the same map writes 2 (the WGMMA accumulator's
 * epilogue: 16 instructions per thread instead of 64 for a 128 x 256 tile).
 *
 * The store's hardware -> offset map hw (register, lane, warp -> element
 * offset) has the fragment shape of m8n8 when
 *   register bit 0 -> offset 1, lane bit 0 -> offset 2, lane bit 1 -> offset 4
 *   (thread 4r + c holds elements 2c, 2c + 1 of a row of 8), and
 *   every other basis has offset bits 0..2 clear
 * (each row then starts 16-byte aligned, so its 8 elements are consecutive
 * whatever the swizzle does above them). Lane bits 2..4 pick the row of a
 * matrix and register bits 1, 2 the matrix; registers 8q .. 8q + 7 go out
 * with the q-th instruction. Thread 8i + j supplies the address of row j of
 * matrix i: the offset of register 8q + 2i at lane 4j, which is an address
 * map of its own (lane bits 0..2 -> hw's lane bits 2..4, lane bits 3, 4 ->
 * hw's register bits 1, 2, register bit b -> hw's register bit b + 3).
 * Buffers in a PaddedSharedLayout are left to cg_lower_smem: its padding
 * may split the rows.
 */
#include "codegen/ops/ops.h"

enum { ROW_BITS = 3, MATRIX_REGS = 8 };

/* Offset image (packed out word) of basis `bit` of in-dim `name` of ly. */
static uint64_t
image(const LLayout *ly, LLName name, int bit)
{
	uint32_t v[LL_MAX_DIMS];
	ll_get_basis(ly, ll_in_index(ly, name), bit, v);
	return ll_pack_out(ly, v);
}

/* Whether hw has the m8n8 fragment shape (see the top of the file). */
static bool
fragment_shape(const LLayout *hw)
{
	int ri = ll_in_index(hw, LL_REGISTER), li = ll_in_index(hw, LL_LANE);
	if (ll_out_index(hw, LL_OFFSET) != 0 || ll_total_out_bits(hw) != hw->out_bits[0] || ri < 0 || li < 0 ||
	    hw->in_bits[ri] < ROW_BITS || hw->in_bits[li] != 5)
		return false;
	if (image(hw, LL_REGISTER, 0) != 1 || image(hw, LL_LANE, 0) != 2 ||
	    image(hw, LL_LANE, 1) != 4)
		return false;
	for (int i = 0; i < hw->n_in; i++)
		for (int b = 0; b < hw->in_bits[i]; b++) {
			bool fixed = (i == ri && b == 0) || (i == li && b < 2);
			if (!fixed && (image(hw, (LLName)hw->in_name[i], b) & 7) != 0)
				return false;
		}
	return true;
}

/* The per-thread row-address map of hw (see the top of the file): register
 * index q = r / 8, lane 8i + j, warp as in hw. */
static LLayout
row_addresses(const LLayout *hw)
{
	LLayout a = ll_empty();
	int rbits = ll_in_bits(hw, LL_REGISTER), wbits = ll_in_bits(hw, LL_WARP);
	int ri = ll_add_in(&a, LL_REGISTER, rbits - ROW_BITS);
	int li = ll_add_in(&a, LL_LANE, 5);
	int wi = wbits > 0 ? ll_add_in(&a, LL_WARP, wbits) : -1;
	ll_add_out(&a, LL_OFFSET, hw->out_bits[0]);
	uint32_t v[LL_MAX_DIMS];
	for (int b = 0; b < rbits - ROW_BITS; b++) {
		ll_get_basis(hw, ll_in_index(hw, LL_REGISTER), b + ROW_BITS, v);
		ll_set_basis(&a, ri, b, v);
	}
	for (int b = 0; b < 5; b++) {
		bool row = b < ROW_BITS;
		ll_get_basis(hw, ll_in_index(hw, row ? LL_LANE : LL_REGISTER), row ? b + 2 : b - 2, v);
		ll_set_basis(&a, li, b, v);
	}
	for (int b = 0; b < wbits; b++) {
		ll_get_basis(hw, ll_in_index(hw, LL_WARP), b, v);
		ll_set_basis(&a, wi, b, v);
	}
	return a;
}

/* The access map of OP_SMEM_STORE `in` when stmatrix can do the store. */
static bool
stmatrix_map(Lower *l, const TInst *in, CgSmemMap *map)
{
	const TType *s = in->args[0]->type, *t = in->args[1]->type;
	LLVMTypeRef st = cg_smem_elem_type(l->m, t);
	if (t->kind != TY_TENSOR || t->elem_is_ptr || s->layout.desc->kind == LL_PADDED_SHARED ||
	    LLVMABISizeOfType(l->m->target->data, st) != 2 ||
	    !cg_smem_access_map(l, in, in->args[0], t, st, map))
		return false;
	return fragment_shape(&map->hw) && cg_type_regs(t) == 1 << ll_in_bits(&map->hw, LL_REGISTER);
}

/* Registers a and b (16-bit values) as one b32, a in the low half. */
static LLVMValueRef
pack(CgModule *m, LLVMValueRef a, LLVMValueRef b)
{
	LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(a), 2);
	LLVMValueRef v = LLVMGetPoison(vt);
	v = LLVMBuildInsertElement(m->b, v, a, LLVMConstInt(m->i32, 0, 0), "");
	v = LLVMBuildInsertElement(m->b, v, b, LLVMConstInt(m->i32, 1, 0), "");
	return LLVMBuildBitCast(m->b, v, m->i32, "");
}

bool
cg_stmatrix_store(Lower *l, const TInst *in)
{
	CgSmemMap map;
	if (in->op != OP_SMEM_STORE || !stmatrix_map(l, in, &map))
		return false;
	CgModule *m = l->m;
	CgSmemMap rows = map;
	rows.hw = row_addresses(&map.hw);
	LLVMTypeRef st = cg_smem_elem_type(m, in->args[1]->type);
	CgVal v = cg_val(l, in->args[1]);
	for (int q = 0; q < v.n / MATRIX_REGS; q++) {
		LLVMValueRef args[5];
		args[0] = cg_smem_elem(l, &rows, st, q);
		for (int i = 0; i < 4; i++) {
			const LLVMValueRef *r = &v.r[q * MATRIX_REGS + 2 * i];
			args[1 + i] = pack(m, r[0], r[1]);
		}
		LLVMTypeRef over = LLVMTypeOf(args[0]);
		cg_intrinsic(m, "llvm.nvvm.stmatrix.sync.aligned.m8n8.x4.b16", m->void_t, &over, 1,
		             args, 5);
	}
	return true;
}
