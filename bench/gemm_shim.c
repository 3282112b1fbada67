/*
 * gemm_shim: the two things bench/gemm.py and bench/gemm_fp8.py need from C
 * to launch glc's GEMM kernels through ctypes: a 64-byte aligned tensor map
 * and its encoding for a row-major matrix with a 128-byte-swizzled
 * NVMMASharedLayout (what examples/gemm*.gl declare): 16-bit elements, or
 * 8-bit ones for the fp8 operands of gemm_fp8.gl.
 */
#include <stdlib.h>

#include "glrt.h"

glrt_tensor_map *gemm_shim_map_new(void);
int gemm_shim_encode(glrt_tensor_map *map, int dtype, glrt_devptr base, uint64_t rows,
                     uint64_t cols, uint64_t ld, uint32_t block_rows, uint32_t block_cols);
int gemm_shim_encode_bits(glrt_tensor_map *map, int dtype, int bits, glrt_devptr base,
                          uint64_t rows, uint64_t cols, uint64_t ld, uint32_t block_rows,
                          uint32_t block_cols);

/* A zeroed, 64-byte aligned map (freed with free()). */
glrt_tensor_map *
gemm_shim_map_new(void)
{
	glrt_tensor_map *m = aligned_alloc(64, sizeof *m);
	if (m)
		*m = (glrt_tensor_map){{0}};
	return m;
}

/* Encodes rows x cols (row stride ld elements) of `bits`-bit elements at
 * base in blocks of block_rows x block_cols; dtype is a glrt_tma_dtype (F16,
 * BF16, or U8 for fp8). Returns the glrt_status. */
int
gemm_shim_encode_bits(glrt_tensor_map *map, int dtype, int bits, glrt_devptr base,
                      uint64_t rows, uint64_t cols, uint64_t ld, uint32_t block_rows,
                      uint32_t block_cols)
{
	const uint64_t shape[2] = {rows, cols}, strides[2] = {ld, 1};
	const uint32_t block[2] = {block_rows, block_cols};
	const glrt_nvmma_layout layout = {128, (unsigned)bits, 0};
	return glrt_tensor_map_encode_nvmma(map, (glrt_tma_dtype)dtype, 2, base, shape, strides,
	                                    block, &layout, GLRT_OOB_ZERO);
}

/* gemm_shim_encode_bits for 16-bit elements. */
int
gemm_shim_encode(glrt_tensor_map *map, int dtype, glrt_devptr base, uint64_t rows,
                 uint64_t cols, uint64_t ld, uint32_t block_rows, uint32_t block_cols)
{
	return gemm_shim_encode_bits(map, dtype, 16, base, rows, cols, ld, block_rows, block_cols);
}
