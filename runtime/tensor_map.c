/*
 * TMA tensor maps: cuTensorMapEncodeTiled with the TMA rules checked first,
 * and the NVMMASharedLayout convenience that generated launchers call.
 */
#include <stddef.h>
#include <string.h>

#include "internal.h"

/* glc's host objects read the recorded shape at these offsets
 * (package/object.c). */
_Static_assert(offsetof(glrt_tensor_map, rank) == 128, "glrt_tensor_map.rank moved");
_Static_assert(offsetof(glrt_tensor_map, shape) == 132, "glrt_tensor_map.shape moved");

enum { TMA_MAX_RANK = 5, TMA_MAX_BOX = 256, TMA_MAX_ELEMENT_STRIDE = 8 };

#define TMA_MAX_DIM (1ull << 32)
#define TMA_MAX_STRIDE (1ull << 40)

/*
 * glrt_tma_dtype_size: bytes per element.
 */
unsigned
glrt_tma_dtype_size(glrt_tma_dtype dtype)
{
	switch (dtype) {
	case GLRT_TMA_U8: return 1;
	case GLRT_TMA_U16: case GLRT_TMA_F16: case GLRT_TMA_BF16: return 2;
	case GLRT_TMA_U32: case GLRT_TMA_I32: case GLRT_TMA_F32:
	case GLRT_TMA_F32_FTZ: case GLRT_TMA_TF32: case GLRT_TMA_TF32_FTZ:
		return 4;
	case GLRT_TMA_U64: case GLRT_TMA_I64: case GLRT_TMA_F64: return 8;
	}
	return 0;
}

/* Whether NaN fill is allowed: the floating-point types. */
static int
is_float(glrt_tma_dtype dtype)
{
	return dtype >= GLRT_TMA_F16 && dtype <= GLRT_TMA_TF32_FTZ;
}

/* CUtensorMapSwizzle for a byte width, -1 if none. */
static int
swizzle_enum(unsigned bytes)
{
	switch (bytes) {
	case 0: return CU_TENSOR_MAP_SWIZZLE_NONE;
	case 32: return CU_TENSOR_MAP_SWIZZLE_32B;
	case 64: return CU_TENSOR_MAP_SWIZZLE_64B;
	case 128: return CU_TENSOR_MAP_SWIZZLE_128B;
	}
	return -1;
}

/* CUtensorMapL2promotion for a byte size, -1 if none. */
static int
l2_enum(unsigned bytes)
{
	switch (bytes) {
	case 0: return CU_TENSOR_MAP_L2_PROMOTION_NONE;
	case 64: return CU_TENSOR_MAP_L2_PROMOTION_L2_64B;
	case 128: return CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
	case 256: return CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
	}
	return -1;
}

/* A rule violation: "tensor map: ..." as an invalid argument. */
#define BAD(...) glrt_fail(GLRT_ERROR_INVALID_ARGUMENT, "tensor map: " \
                           __VA_ARGS__)

/* The rules on the map, type, rank, address, dims and strides. */
static glrt_status
check_global(const glrt_tensor_map *map, glrt_tma_dtype dtype, unsigned rank,
             glrt_devptr addr, const uint64_t *dims, const uint64_t *strides)
{
	unsigned i;

	if (!map)
		return BAD("map is NULL");
	if ((uintptr_t)map % 64 != 0)
		return BAD("map at %p is not 64-byte aligned", (void *)map);
	if (glrt_tma_dtype_size(dtype) == 0)
		return BAD("unknown element type %d", (int)dtype);
	if (rank < 1 || rank > TMA_MAX_RANK)
		return BAD("rank %u is outside 1..%d", rank, TMA_MAX_RANK);
	if (addr == 0)
		return BAD("global address is 0");
	if (addr % 16 != 0)
		return BAD("global address 0x%llx is not 16-byte aligned",
		           (unsigned long long)addr);
	if (!dims || (rank > 1 && !strides))
		return BAD("%s is NULL", !dims ? "global_dims" :
		           "global_strides");
	for (i = 0; i < rank; i++)
		if (dims[i] == 0 || dims[i] > TMA_MAX_DIM)
			return BAD("global_dims[%u] = %llu is outside 1..2^32",
			           i, (unsigned long long)dims[i]);
	for (i = 0; i + 1 < rank; i++) {
		if (strides[i] % 16 != 0)
			return BAD("global_strides[%u] = %llu bytes is not a "
			           "multiple of 16", i,
			           (unsigned long long)strides[i]);
		if (strides[i] == 0 || strides[i] >= TMA_MAX_STRIDE)
			return BAD("global_strides[%u] = %llu bytes is outside "
			           "16..2^40-16", i,
			           (unsigned long long)strides[i]);
	}
	return GLRT_SUCCESS;
}

/* The rules on the box, element strides, swizzle, L2 and fill. */
static glrt_status
check_box(glrt_tma_dtype dtype, unsigned rank, const uint32_t *box,
          const uint32_t *estrides, unsigned swizzle, unsigned l2,
          glrt_oob_fill fill)
{
	unsigned esize = glrt_tma_dtype_size(dtype), i;

	if (!box)
		return BAD("box_dims is NULL");
	for (i = 0; i < rank; i++) {
		if (box[i] == 0 || box[i] > TMA_MAX_BOX)
			return BAD("box_dims[%u] = %u is outside 1..%d", i,
			           box[i], TMA_MAX_BOX);
		if (estrides && (estrides[i] == 0 ||
		                 estrides[i] > TMA_MAX_ELEMENT_STRIDE))
			return BAD("element_strides[%u] = %u is outside 1..%d",
			           i, estrides[i], TMA_MAX_ELEMENT_STRIDE);
	}
	if (box[0] * esize % 16 != 0)
		return BAD("inner box of %u elements x %u bytes = %u bytes is "
		           "not a multiple of 16", box[0], esize,
		           box[0] * esize);
	if (swizzle_enum(swizzle) < 0)
		return BAD("swizzle of %u bytes is not 0, 32, 64 or 128",
		           swizzle);
	if (swizzle && box[0] * esize > swizzle)
		return BAD("inner box of %u bytes exceeds the %u-byte swizzle",
		           box[0] * esize, swizzle);
	if (l2_enum(l2) < 0)
		return BAD("L2 promotion of %u bytes is not 0, 64, 128 or 256",
		           l2);
	if (fill != GLRT_OOB_ZERO && fill != GLRT_OOB_NAN)
		return BAD("unknown out-of-bounds fill %d", (int)fill);
	if (fill == GLRT_OOB_NAN && !is_float(dtype))
		return BAD("NaN out-of-bounds fill needs a floating-point "
		           "element type, not type %d", (int)dtype);
	return GLRT_SUCCESS;
}

/* Marks map as not encoded (rank 0) before an encoding that may fail, so
 * that a launcher never takes the map of an earlier success for this one.
 * A misaligned map is not touched: check_global refuses it. */
static void
forget(glrt_tensor_map *map)
{
	if (map && ((uintptr_t)map & 63) == 0)
		map->rank = 0;
}

/*
 * glrt_tensor_map_encode_tiled: check, then encode.
 */
glrt_status
glrt_tensor_map_encode_tiled(
	glrt_tensor_map *map, glrt_tma_dtype dtype, unsigned rank,
	glrt_devptr global_address, const uint64_t *global_dims,
	const uint64_t *global_strides, const uint32_t *box_dims,
	const uint32_t *element_strides, unsigned swizzle_bytes,
	unsigned l2_promotion_bytes, glrt_oob_fill oob_fill)
{
	static const uint32_t ones[TMA_MAX_RANK] = { 1, 1, 1, 1, 1 };
	const GlrtRuntime *rt;
	glrt_status st;
	CUresult res;

	forget(map);
	st = check_global(map, dtype, rank, global_address, global_dims,
	                  global_strides);
	if (st == GLRT_SUCCESS)
		st = check_box(dtype, rank, box_dims, element_strides,
		               swizzle_bytes, l2_promotion_bytes, oob_fill);
	if (st == GLRT_SUCCESS)
		st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	res = rt->drv.cuTensorMapEncodeTiled(map, (int)dtype, rank,
	        (void *)(uintptr_t)global_address, global_dims, global_strides,
	        box_dims, element_strides ? element_strides : ones,
	        CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle_enum(swizzle_bytes),
	        l2_enum(l2_promotion_bytes),
	        oob_fill == GLRT_OOB_NAN ?
	        CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA :
	        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuTensorMapEncodeTiled("
		                        "rank %u, type %d, swizzle %u)", rank,
		                        (int)dtype, swizzle_bytes);
	/* TMA order (contiguous dim first) reversed is tensor order for a
	 * row-major tensor; encode_nvmma records its own order. */
	for (unsigned i = 0; i < rank; i++)
		map->shape[i] = (uint32_t)(global_dims[rank - 1 - i] <= UINT32_MAX ?
		                           global_dims[rank - 1 - i] : UINT32_MAX);
	map->rank = rank;
	return GLRT_SUCCESS;
}

/* The NVMMA convenience's own rules: pointers, rank, layout, stride 1. */
static glrt_status
check_nvmma(glrt_tma_dtype dtype, unsigned rank, const uint64_t *shape,
            const uint64_t *strides, const uint32_t *block,
            const glrt_nvmma_layout *layout)
{
	unsigned esize = glrt_tma_dtype_size(dtype), contig;

	if (!shape || !strides || !block || !layout)
		return BAD("%s is NULL", !shape ? "shape" : !strides ?
		           "strides" : !block ? "block_shape" : "layout");
	if (esize == 0)
		return BAD("unknown element type %d", (int)dtype);
	if (rank < 1 || rank > TMA_MAX_RANK)
		return BAD("rank %u is outside 1..%d", rank, TMA_MAX_RANK);
	if (layout->transposed && rank != 2)
		return BAD("a transposed NVMMA layout needs rank 2, not %u",
		           rank);
	if (layout->element_bitwidth != esize * 8)
		return BAD("layout element_bitwidth %u does not match the "
		           "%u-byte element type", layout->element_bitwidth,
		           esize);
	if (swizzle_enum(layout->swizzle_bytes) < 0)
		return BAD("swizzle of %u bytes is not 0, 32, 64 or 128",
		           layout->swizzle_bytes);
	contig = layout->transposed ? 0 : rank - 1;
	if (strides[contig] != 1)
		return BAD("the contiguous dim %u has stride %llu, not 1",
		           contig, (unsigned long long)strides[contig]);
	return GLRT_SUCCESS;
}

/*
 * glrt_tensor_map_encode_nvmma: reorder to TMA order (contiguous dim first),
 * scale strides to bytes, clamp the box and fit it to the swizzle row.
 */
glrt_status
glrt_tensor_map_encode_nvmma(
	glrt_tensor_map *map, glrt_tma_dtype dtype, unsigned rank,
	glrt_devptr base, const uint64_t *shape, const uint64_t *strides,
	const uint32_t *block_shape, const glrt_nvmma_layout *layout,
	glrt_oob_fill oob_fill)
{
	uint64_t dims[TMA_MAX_RANK], bstrides[TMA_MAX_RANK];
	uint32_t box[TMA_MAX_RANK];
	unsigned esize, i, d, row;
	glrt_status st;

	forget(map);
	st = check_nvmma(dtype, rank, shape, strides, block_shape, layout);
	if (st != GLRT_SUCCESS)
		return st;
	esize = glrt_tma_dtype_size(dtype);
	for (i = 0; i < rank; i++) {
		d = layout->transposed ? i : rank - 1 - i;
		dims[i] = shape[d];
		box[i] = block_shape[d] < TMA_MAX_BOX ? block_shape[d] :
		         TMA_MAX_BOX;
		if (i > 0) {
			if (strides[d] >= TMA_MAX_STRIDE)
				return BAD("stride %llu of dim %u is too "
				           "large", (unsigned long long)
				           strides[d], d);
			bstrides[i - 1] = strides[d] * esize;
		}
	}
	if (layout->swizzle_bytes) {
		row = 8 * layout->swizzle_bytes / layout->element_bitwidth;
		d = layout->transposed ? 0 : rank - 1;
		if (block_shape[d] < row)
			return BAD("block dim %u of %u elements is narrower "
			           "than one %u-byte swizzle row (%u elements)",
			           d, block_shape[d], layout->swizzle_bytes,
			           row);
		box[0] = row;
	}
	st = glrt_tensor_map_encode_tiled(map, dtype, rank, base, dims,
	                                  bstrides, box, NULL,
	                                  layout->swizzle_bytes, 128, oob_fill);
	if (st == GLRT_SUCCESS)
		for (i = 0; i < rank; i++)
			map->shape[i] = (uint32_t)(shape[i] <= UINT32_MAX ?
			                           shape[i] : UINT32_MAX);
	return st;
}
