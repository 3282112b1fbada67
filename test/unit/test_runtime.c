/*
 * libglrt tests, part 1 (test_runtime_fake and runtime_gpu are the
 * others): argument validation of every checking entry point, the TMA
 * rules and status texts. Nothing here loads a driver.
 */
#include <pthread.h>
#include <stdlib.h>

#include "test/unit/runtime_test.h"

/* ---- Statuses ---- */

static void
test_status_texts(void)
{
	CHECK_STR("success", glrt_status_text(GLRT_SUCCESS));
	CHECK_STR("invalid argument",
	          glrt_status_text(GLRT_ERROR_INVALID_ARGUMENT));
	CHECK_STR("CUDA driver not available",
	          glrt_status_text(GLRT_ERROR_NO_DRIVER));
	CHECK_STR("no such CUDA device", glrt_status_text(GLRT_ERROR_NO_DEVICE));
	CHECK_STR("out of memory", glrt_status_text(GLRT_ERROR_OUT_OF_MEMORY));
	CHECK_STR("kernel not found", glrt_status_text(GLRT_ERROR_NOT_FOUND));
	CHECK_STR("module image failed to load",
	          glrt_status_text(GLRT_ERROR_MODULE_LOAD));
	CHECK_STR("CUDA driver error", glrt_status_text(GLRT_ERROR_DRIVER));
	CHECK_STR("unknown status", glrt_status_text((glrt_status)99));
	CHECK_EQ(2, glrt_tma_dtype_size(GLRT_TMA_BF16));
	CHECK_EQ(4, glrt_tma_dtype_size(GLRT_TMA_TF32));
	CHECK_EQ(8, glrt_tma_dtype_size(GLRT_TMA_I64));
	CHECK_EQ(1, glrt_tma_dtype_size(GLRT_TMA_U8));
	CHECK_EQ(0, glrt_tma_dtype_size((glrt_tma_dtype)13));
}

/* The message is per thread: another thread sees its own. */
static void *
fail_in_thread(void *arg)
{
	(void)arg;
	glrt_malloc(NULL, 4);
	return (void *)(uintptr_t)(strstr(glrt_last_error(), "out is NULL") != NULL);
}

static void
test_error_is_per_thread(void)
{
	pthread_t t;
	void *ok = NULL;

	glrt_malloc(NULL, 0);
	CHECK(has(glrt_last_error(), "glrt_malloc: out is NULL"));
	glrt_free(0);
	CHECK(has(glrt_last_error(), "out is NULL"));
	glrt_memcpy_htod(0, NULL, 0);
	CHECK(has(glrt_last_error(), "out is NULL"));
	glrt_memset_d8(0, 0, 16);
	CHECK(pthread_create(&t, NULL, fail_in_thread, NULL) == 0);
	CHECK(pthread_join(t, &ok) == 0);
	CHECK(ok != NULL);
	CHECK(has(glrt_last_error(), "glrt_memset_d8: device pointer is NULL "
	          "for 16 bytes"));
	CHECK_EQ(0, glrt_last_driver_result());
}

/* ---- Validation: no driver is touched ---- */

static void
test_launch_validation(void)
{
	unsigned g[3] = { 1, 1, 1 }, b[3] = { 128, 1, 1 }, c[3];

	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(NULL, NULL, b, NULL, 0, NULL, NULL),
	           "glrt_launch: grid is NULL");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(NULL, g, NULL, NULL, 0, NULL, NULL),
	           "glrt_launch: block is NULL");
	g[1] = 0;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(NULL, g, b, NULL, 0, NULL, NULL),
	           "grid y dimension 0 is outside 1..65535");
	g[1] = 65536;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(NULL, g, b, NULL, 0, NULL, NULL),
	           "grid y dimension 65536 is outside 1..65535");
	g[1] = 1;
	g[0] = 0x80000000u;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(NULL, g, b, NULL, 0, NULL, NULL),
	           "grid x dimension 2147483648 is outside 1..2147483647");
	g[0] = 8;
	b[0] = 1025;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(NULL, g, b, NULL, 0, NULL, NULL),
	           "block x dimension 1025 is outside 1..1024");
	b[0] = 32;
	b[2] = 65;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(NULL, g, b, NULL, 0, NULL, NULL),
	           "block z dimension 65 is outside 1..64");
	b[2] = 0;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(NULL, g, b, NULL, 0, NULL, NULL),
	           "block z dimension 0 is outside 1..64");
	b[1] = 33;
	b[2] = 1;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(NULL, g, b, NULL, 0, NULL, NULL),
	           "block 32x33x1 has 1056 threads, more than 1024");
	b[1] = 32;
	c[0] = 3; c[1] = 1; c[2] = 1;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(NULL, g, b, c, 0, NULL, NULL),
	           "cluster x dimension 3 does not divide grid x dimension 8");
	c[0] = 2; c[1] = 0;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(NULL, g, b, c, 0, NULL, NULL),
	           "cluster y dimension 0 does not divide");
	g[0] = 16; c[0] = 16; c[1] = 1;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(NULL, g, b, c, 0, NULL, NULL),
	           "cluster 16x1x1 has 16 blocks, more than the portable "
	           "maximum of 8");
	c[0] = 0; c[1] = 0; c[2] = 0;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(NULL, g, b, c, 0, NULL, NULL),
	           "glrt_launch: kernel is NULL");
	c[0] = 8; c[1] = 1; c[2] = 1;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(NULL, g, b, c, 0, NULL, NULL),
	           "glrt_launch: kernel is NULL");
}

static void
test_launch_scratch_validation(void)
{
	unsigned g[3] = { 0x7fffffffu, 65535, 65535 }, b[3] = { 128, 1, 1 };
	glrt_devptr scratch = 0;
	void *args[1] = { &scratch };

	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch_scratch(NULL, g, b, NULL, 0, NULL, NULL, 128, &scratch),
	           "glrt_launch_scratch: args is NULL");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch_scratch(NULL, g, b, NULL, 0, NULL, args, 128, &scratch),
	           "glrt_launch_scratch: kernel is NULL");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch_scratch(NULL, g, NULL, NULL, 0, NULL, args, 128, &scratch),
	           "glrt_launch: block is NULL");
}

/* Each broken rule gives its own message; NULL-driver runs only get
 * here, so reaching the driver would be GLRT_ERROR_NO_DRIVER. */
static void
test_tensor_map_validation(void)
{
	static _Alignas(64) unsigned char raw[256];
	glrt_tensor_map map;
	TmaArgs a;

	/* The CUtensorMap, then the recorded rank and shape that glc's host
	 * objects read at fixed offsets. */
	CHECK_EQ(192, sizeof(glrt_tensor_map));
	CHECK_EQ(128, offsetof(glrt_tensor_map, rank));
	CHECK_EQ(132, offsetof(glrt_tensor_map, shape));
	CHECK_EQ(64, _Alignof(glrt_tensor_map));
	a = tma_ok();
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(NULL, &a),
	           "tensor map: map is NULL");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           encode((glrt_tensor_map *)(void *)(raw + 32), &a),
	           "is not 64-byte aligned");
	a.dtype = (glrt_tma_dtype)13;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "unknown element type 13");
	a = tma_ok(); a.rank = 0;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "rank 0 is outside 1..5");
	a.rank = 6;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "rank 6 is outside 1..5");
	a = tma_ok(); a.addr = 0;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "global address is 0");
	a.addr = 0x10008;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "global address 0x10008 is not 16-byte aligned");
	a = tma_ok(); a.dims[1] = 0;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "global_dims[1] = 0 is outside 1..2^32");
	a.dims[1] = (1ull << 32) + 1;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "global_dims[1] = 4294967297 is outside 1..2^32");
	a = tma_ok(); a.strides[0] = 200;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "global_strides[0] = 200 bytes is not a multiple of 16");
	a.strides[0] = 1ull << 40;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "global_strides[0] = 1099511627776 bytes is outside");
	a.strides[0] = 0;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "global_strides[0] = 0 bytes is outside");
	a = tma_ok(); a.box[1] = 257;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "box_dims[1] = 257 is outside 1..256");
	a.box[1] = 0;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "box_dims[1] = 0 is outside 1..256");
	a = tma_ok(); a.box[0] = 12; a.swizzle = 0;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "inner box of 12 elements x 2 bytes = 24 bytes is not a "
	           "multiple of 16");
	a = tma_ok(); a.estrides[1] = 9;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "element_strides[1] = 9 is outside 1..8");
	a.estrides[1] = 0;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "element_strides[1] = 0 is outside 1..8");
	a = tma_ok(); a.swizzle = 16;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "swizzle of 16 bytes is not 0, 32, 64 or 128");
	a.swizzle = 64;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "inner box of 128 bytes exceeds the 64-byte swizzle");
	a = tma_ok(); a.box[0] = 128;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "inner box of 256 bytes exceeds the 128-byte swizzle");
	a = tma_ok(); a.l2 = 32;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "L2 promotion of 32 bytes is not 0, 64, 128 or 256");
	a = tma_ok(); a.fill = (glrt_oob_fill)2;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "unknown out-of-bounds fill 2");
	a = tma_ok(); a.dtype = GLRT_TMA_U16; a.fill = GLRT_OOB_NAN;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, encode(&map, &a),
	           "NaN out-of-bounds fill needs a floating-point element "
	           "type, not type 1");
	a = tma_ok();
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_tensor_map_encode_tiled(&map, a.dtype, 2, a.addr,
	                   NULL, a.strides, a.box, NULL, 128, 0,
	                   GLRT_OOB_ZERO), "global_dims is NULL");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_tensor_map_encode_tiled(&map, a.dtype, 2, a.addr,
	                   a.dims, NULL, a.box, NULL, 128, 0,
	                   GLRT_OOB_ZERO), "global_strides is NULL");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_tensor_map_encode_tiled(&map, a.dtype, 2, a.addr,
	                   a.dims, a.strides, NULL, NULL, 128, 0,
	                   GLRT_OOB_ZERO), "box_dims is NULL");
}

static void
test_nvmma_validation(void)
{
	glrt_tensor_map map;
	uint64_t shape[2] = { 64, 128 }, strides[2] = { 128, 1 };
	uint32_t block[2] = { 64, 64 };
	glrt_nvmma_layout l = { 128, 16, 0 }, bad;

	/* A failed encoding leaves rank 0 even when it fails before the
	 * driver, so that a launcher refuses a map encoded earlier. */
	map.rank = 2;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F16, 2, 0x1000,
	                   shape, strides, block, NULL, GLRT_OOB_ZERO),
	           "tensor map: layout is NULL");
	CHECK_EQ(0, map.rank);
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F16, 2, 0x1000,
	                   NULL, strides, block, &l, GLRT_OOB_ZERO),
	           "tensor map: shape is NULL");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F16, 6, 0x1000,
	                   shape, strides, block, &l, GLRT_OOB_ZERO),
	           "rank 6 is outside 1..5");
	bad = l; bad.element_bitwidth = 32;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F16, 2, 0x1000,
	                   shape, strides, block, &bad, GLRT_OOB_ZERO),
	           "layout element_bitwidth 32 does not match the 2-byte "
	           "element type");
	bad = l; bad.swizzle_bytes = 96;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F16, 2, 0x1000,
	                   shape, strides, block, &bad, GLRT_OOB_ZERO),
	           "swizzle of 96 bytes is not 0, 32, 64 or 128");
	bad = l; bad.transposed = 1;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F16, 2, 0x1000,
	                   shape, strides, block, &bad, GLRT_OOB_ZERO),
	           "the contiguous dim 0 has stride 128, not 1");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F16, 1, 0x1000,
	                   shape, strides, block, &bad, GLRT_OOB_ZERO),
	           "a transposed NVMMA layout needs rank 2, not 1");
	block[1] = 32;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F16, 2, 0x1000,
	                   shape, strides, block, &l, GLRT_OOB_ZERO),
	           "block dim 1 of 32 elements is narrower than one 128-byte "
	           "swizzle row (64 elements)");
	block[1] = 64;
	strides[0] = 100;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F16, 2, 0x1000,
	                   shape, strides, block, &l, GLRT_OOB_ZERO),
	           "global_strides[0] = 200 bytes is not a multiple of 16");
}

/* A cubin of 448 bytes with a program header table (one segment) at 64, a
 * section header table (a name table, a string table, a symbol table) at
 * 128, and their data: names at 320, strings at 336, one symbol at 352. */
static void
make_cubin(unsigned char *p)
{
	static const unsigned char header[64] = {
		0x7f, 'E', 'L', 'F', 2, 1, 1, [18] = 190, [20] = 1, [32] = 64, [40] = 128,
		[52] = 64, [54] = 56, [56] = 1, [58] = 64, [60] = 3, [62] = 0 };
	memset(p, 0, 448);
	memcpy(p, header, sizeof header);
	p[64 + 8] = 0x40;              /* segment: offset 64, 56 bytes */
	p[64 + 32] = 56;
	p[128 + 4] = 3;                /* section 0: the names, "\0.s\0" */
	p[128 + 24] = 0x40, p[128 + 25] = 1, p[128 + 32] = 4;
	memcpy(p + 320, "\0.s", 4);
	p[192] = 1, p[192 + 4] = 3;    /* section 1 (.s): strings, "\0k\0" */
	p[192 + 24] = 0x50, p[192 + 25] = 1, p[192 + 32] = 3;
	memcpy(p + 336, "\0k", 3);
	p[256 + 4] = 2;                /* section 2: symbols, linked to 1 */
	p[256 + 24] = 0x60, p[256 + 25] = 1, p[256 + 32] = 24, p[256 + 40] = 1,
	p[256 + 56] = 24;
	p[352] = 1;                    /* the symbol: "k" */
}

/* The tables of a cubin lie inside it: segments, the names of sections and
 * symbols, string tables ending in a NUL; the ELF header is version 1.
 * Each broken image gives GLRT_ERROR_INVALID_ARGUMENT before the driver
 * (there is none here: an image that passes gives GLRT_ERROR_NO_DRIVER). */
static void
test_image_tables(void)
{
	/* one byte changed per case: where, to what, and the check it breaks */
	static const struct {
		int at;
		unsigned char value;
		const char *why;
	} broken[] = {
		{20, 0, "the cubin's ELF header is not version 1 of 64 bytes (ident version 1, "
		        "version 0, size 64)"},
		{64 + 33, 2, "segment 0 of the cubin lies outside its 448 bytes"},  /* 568 bytes */
		{323, '!', "section name table (section 0) is not a string table ending in a NUL"},
		{192, 9, "section 1's name lies outside the section name table"},   /* 9 of 4 */
		{338, 'x', "string table section 1 does not end in a NUL"},
		{352, 3, "symbol 0 of section 2 names no string of its string table"},  /* 3 of 3 */
		{256 + 40, 2, "symbol table section 2 links no string table"},      /* itself */
	};
	unsigned char p[448];
	glrt_module *m = NULL;
	make_cubin(p);
	CHECK_EQ(GLRT_ERROR_NO_DRIVER, glrt_module_load(&m, p, sizeof p, GLRT_IMAGE_CUBIN));
	for (size_t i = 0; i < sizeof broken / sizeof *broken; i++) {
		make_cubin(p);
		p[broken[i].at] = broken[i].value;
		CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
		           glrt_module_load(&m, p, sizeof p, GLRT_IMAGE_CUBIN), broken[i].why);
	}
	CHECK(m == NULL);
}

/* An image is checked against its size before the driver reads it (which
 * takes no size): headers, tables, sections and fatbin entries all inside.
 * (test_fake_modules loads images that pass.) */
static void
test_image_extents(void)
{
	static const unsigned char four[4] = { 0x7f, 'E', 'L', 'F' };
	unsigned char elf[256] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0, [18] = 190,
	                           [20] = 1, [52] = 64 };
	unsigned char fat[64] = { 0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0 };
	glrt_module *m = (glrt_module *)1;

	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_module_load(&m, four, sizeof four, GLRT_IMAGE_CUBIN),
	           "the 4-byte cubin is shorter than an ELF header");
	CHECK(m == NULL);
	elf[18] = 62;   /* EM_X86_64 */
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_module_load(&m, elf, sizeof elf, GLRT_IMAGE_CUBIN),
	           "not a 64-bit little-endian ELF file for CUDA (class 2, "
	           "data 1, machine 62)");
	elf[18] = 190;
	/* Four section headers from byte 64: the last ends past 256. */
	elf[40] = 64;   /* e_shoff */
	elf[58] = 64;   /* e_shentsize */
	elf[60] = 4;    /* e_shnum */
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_module_load(&m, elf, sizeof elf, GLRT_IMAGE_CUBIN),
	           "section header table lies outside its 256 bytes");
	/* One section header whose data runs past the end. */
	elf[60] = 1;
	elf[64 + 24] = 200;   /* sh_offset */
	elf[64 + 32] = 100;   /* sh_size */
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_module_load(&m, elf, sizeof elf, GLRT_IMAGE_CUBIN),
	           "section 0 of the cubin lies outside its 256 bytes");
	fat[8] = 100;         /* 100 bytes of entries in a 64-byte image */
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_module_load(&m, fat, sizeof fat, GLRT_IMAGE_CUBIN),
	           "the fatbin's 100 bytes of entries lie outside its 64 bytes");
	test_image_tables();
	fat[8] = 48;          /* one entry of a 16-byte header + 40 bytes */
	fat[16 + 4] = 16;
	fat[16 + 8] = 40;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_module_load(&m, fat, sizeof fat, GLRT_IMAGE_CUBIN),
	           "the fatbin entry at byte 16 lies outside the fatbin");
}

static void
test_module_validation(void)
{
	static const char ptx_unterminated[4] = { '.', 'v', 'e', 'r' };
	static const unsigned char not_elf[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	glrt_module *m = (glrt_module *)1;
	glrt_kernel *k = (glrt_kernel *)1;
	glrt_lazy_module lazy = { NULL, 0, NULL, 0, NULL };
	glrt_lazy_kernel lk = { NULL, "k", NULL };

	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_module_load(NULL, "x", 2, GLRT_IMAGE_PTX),
	           "glrt_module_load: out is NULL");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_module_load(&m, NULL, 0, GLRT_IMAGE_PTX),
	           "glrt_module_load: image is NULL");
	CHECK(m == NULL);
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_module_load(&m, not_elf, sizeof not_elf,
	                            GLRT_IMAGE_CUBIN),
	           "the 8-byte image is not an ELF cubin or a fatbin");
	test_image_extents();
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_module_load(&m, ptx_unterminated,
	                            sizeof ptx_unterminated, GLRT_IMAGE_PTX),
	           "the PTX is not NUL-terminated within its 4 bytes");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_module_load(&m, "x", 2, (glrt_image_kind)7),
	           "unknown image kind 7");
	CHECK_EQ(GLRT_SUCCESS, glrt_module_unload(NULL));
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_kernel_get(&k, NULL, "k"), "module is NULL");
	CHECK(k == NULL);
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_kernel_get(NULL, NULL, "k"), "out is NULL");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_lazy_module_get(&m, &lazy),
	           "lazy module has neither a cubin nor PTX");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_lazy_module_get(&m, NULL), "lazy module is NULL");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_lazy_kernel_get(&k, &lk), "lazy kernel has no module");
	lk.module = &lazy;
	lk.name = NULL;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_lazy_kernel_get(&k, &lk), "lazy kernel has no name");
}

static void
test_memory_validation(void)
{
	glrt_devptr p = 1;
	glrt_event ev = (glrt_event)1;
	float ms;
	int v;

	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, glrt_malloc(&p, 0),
	           "glrt_malloc: size is 0");
	CHECK_EQ(0, p);
	CHECK_EQ(GLRT_SUCCESS, glrt_free(0));
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, glrt_memcpy_htod(0, &v, 4),
	           "glrt_memcpy_htod: device pointer is NULL for 4 bytes");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, glrt_memcpy_dtoh(NULL, 64, 4),
	           "glrt_memcpy_dtoh: host pointer is NULL for 4 bytes");
	CHECK_EQ(GLRT_SUCCESS, glrt_memcpy_htod(0, NULL, 0));
	CHECK_EQ(GLRT_SUCCESS, glrt_memset_d8(0, 0, 0));
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_device_attribute(GLRT_ATTR_SM_COUNT, NULL),
	           "value is NULL");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, glrt_device_attribute(0, &v),
	           "attribute is not positive");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, glrt_event_create(NULL),
	           "out is NULL");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, glrt_event_record(NULL, NULL),
	           "event is NULL");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_event_elapsed_ms(&ms, NULL, ev), "start is NULL");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_event_elapsed_ms(NULL, ev, ev), "ms is NULL");
	CHECK_EQ(GLRT_SUCCESS, glrt_event_destroy(NULL));
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, glrt_init_device(-1),
	           "negative device ordinal");
}

int
main(void)
{
	RUN_TEST(test_status_texts);
	RUN_TEST(test_error_is_per_thread);
	RUN_TEST(test_launch_validation);
	RUN_TEST(test_launch_scratch_validation);
	RUN_TEST(test_tensor_map_validation);
	RUN_TEST(test_nvmma_validation);
	RUN_TEST(test_module_validation);
	RUN_TEST(test_memory_validation);
	return check_summary();
}
