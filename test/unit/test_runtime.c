/*
 * libglrt tests. On the CPU: argument validation of every checking entry
 * point, the TMA rules, status texts, the no-driver paths (in forked
 * children, each with its own GLRT_LIBCUDA), and everything else against a
 * fake driver (fake_libcuda.so, next to this binary) that records what the
 * runtime asks of it. With --gpu CUBIN: the same runtime against the real
 * driver on a Hopper GPU (CUBIN assembled from --dump-ptx's output by
 * ptxas); it exits 77 when no driver is present.
 */
#include <stddef.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/glrt.h"
#include "test/unit/check.h"
#include "test/unit/fake_libcuda.h"

static char fake_path[4096];
static FakeCuda *fake;

static const unsigned one[3] = { 1, 1, 1 };

/* The kernels of the --gpu tests (the cubin is this, assembled). */
static const char gpu_ptx[] =
	".version 8.0\n"
	".target sm_90a\n"
	".address_size 64\n"
	"\n"
	".extern .shared .align 16 .b8 dsmem[];\n"
	"\n"
	".visible .entry k_add(.param .u64 px, .param .u64 py, .param .u64 pout, .param .u32 pn)\n"
	"{\n"
	"\t.reg .pred p;\n"
	"\t.reg .b32 r<6>;\n"
	"\t.reg .b64 rd<8>;\n"
	"\t.reg .f32 f<4>;\n"
	"\tld.param.u64 rd1, [px];\n"
	"\tld.param.u64 rd2, [py];\n"
	"\tld.param.u64 rd3, [pout];\n"
	"\tld.param.u32 r1, [pn];\n"
	"\tcvta.to.global.u64 rd1, rd1;\n"
	"\tcvta.to.global.u64 rd2, rd2;\n"
	"\tcvta.to.global.u64 rd3, rd3;\n"
	"\tmov.u32 r2, %ctaid.x;\n"
	"\tmov.u32 r3, %ntid.x;\n"
	"\tmov.u32 r4, %tid.x;\n"
	"\tmad.lo.s32 r5, r2, r3, r4;\n"
	"\tsetp.ge.u32 p, r5, r1;\n"
	"\t@p bra DONE;\n"
	"\tmul.wide.u32 rd4, r5, 4;\n"
	"\tadd.s64 rd5, rd1, rd4;\n"
	"\tadd.s64 rd6, rd2, rd4;\n"
	"\tadd.s64 rd7, rd3, rd4;\n"
	"\tld.global.f32 f1, [rd5];\n"
	"\tld.global.f32 f2, [rd6];\n"
	"\tadd.f32 f3, f1, f2;\n"
	"\tst.global.f32 [rd7], f3;\n"
	"DONE:\n"
	"\tret;\n"
	"}\n"
	"\n"
	".visible .entry k_smem(.param .u64 pout, .param .u32 pn)\n"
	"{\n"
	"\t.reg .pred p;\n"
	"\t.reg .b32 r<10>;\n"
	"\t.reg .b64 rd<4>;\n"
	"\tld.param.u64 rd1, [pout];\n"
	"\tcvta.to.global.u64 rd1, rd1;\n"
	"\tld.param.u32 r1, [pn];\n"
	"\tmov.u32 r2, %tid.x;\n"
	"\tmov.u32 r3, %ntid.x;\n"
	"\tmov.u32 r4, dsmem;\n"
	"\tmov.u32 r5, r2;\n"
	"L1:\n"
	"\tsetp.ge.u32 p, r5, r1;\n"
	"\t@p bra E1;\n"
	"\tmul.lo.u32 r6, r5, 3;\n"
	"\tshl.b32 r7, r5, 2;\n"
	"\tadd.u32 r8, r4, r7;\n"
	"\tst.shared.u32 [r8], r6;\n"
	"\tadd.u32 r5, r5, r3;\n"
	"\tbra L1;\n"
	"E1:\n"
	"\tbar.sync 0;\n"
	"\tmov.u32 r5, r2;\n"
	"L2:\n"
	"\tsetp.ge.u32 p, r5, r1;\n"
	"\t@p bra E2;\n"
	"\tsub.u32 r6, r1, r5;\n"
	"\tsub.u32 r6, r6, 1;\n"
	"\tshl.b32 r7, r6, 2;\n"
	"\tadd.u32 r8, r4, r7;\n"
	"\tld.shared.u32 r9, [r8];\n"
	"\tmul.wide.u32 rd2, r5, 4;\n"
	"\tadd.s64 rd3, rd1, rd2;\n"
	"\tst.global.u32 [rd3], r9;\n"
	"\tadd.u32 r5, r5, r3;\n"
	"\tbra L2;\n"
	"E2:\n"
	"\tret;\n"
	"}\n"
	"\n"
	".visible .entry k_cluster(.param .u64 pout)\n"
	"{\n"
	"\t.reg .b32 r<6>;\n"
	"\t.reg .b64 rd<4>;\n"
	"\tld.param.u64 rd1, [pout];\n"
	"\tcvta.to.global.u64 rd1, rd1;\n"
	"\tmov.u32 r1, %ctaid.x;\n"
	"\tmov.u32 r2, %cluster_ctarank;\n"
	"\tmov.u32 r3, %cluster_nctarank;\n"
	"\tmad.lo.s32 r4, r3, 100, r2;\n"
	"\tmul.wide.u32 rd2, r1, 4;\n"
	"\tadd.s64 rd3, rd1, rd2;\n"
	"\tst.global.u32 [rd3], r4;\n"
	"\tret;\n"
	"}\n"
	"\n"
	".visible .entry k_tma(.param .align 64 .b8 k_tma_param_0[128], .param .u64 pout, .param .u32 pc0, .param .u32 pc1, .param .u32 pbytes)\n"
	"{\n"
	"\t.reg .pred p, q;\n"
	"\t.reg .b32 r<14>;\n"
	"\t.reg .b64 rd<8>;\n"
	"\t.shared .align 1024 .b8 tile[8192];\n"
	"\t.shared .align 8 .b64 bar;\n"
	"\tmov.b64 rd1, k_tma_param_0;\n"
	"\tcvta.param.u64 rd2, rd1;\n"
	"\tld.param.u64 rd3, [pout];\n"
	"\tcvta.to.global.u64 rd3, rd3;\n"
	"\tld.param.u32 r1, [pc0];\n"
	"\tld.param.u32 r2, [pc1];\n"
	"\tld.param.u32 r3, [pbytes];\n"
	"\tmov.u32 r4, %tid.x;\n"
	"\tmov.u32 r5, tile;\n"
	"\tmov.u32 r6, bar;\n"
	"\tsetp.ne.u32 p, r4, 0;\n"
	"\t@p bra B1;\n"
	"\tmbarrier.init.shared::cta.b64 [r6], 1;\n"
	"\tfence.mbarrier_init.release.cluster;\n"
	"B1:\n"
	"\tbar.sync 0;\n"
	"\t@p bra WAIT;\n"
	"\tmbarrier.arrive.expect_tx.shared::cta.b64 rd4, [r6], r3;\n"
	"\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [r5], [rd2, {r1, r2}], [r6];\n"
	"WAIT:\n"
	"\tmbarrier.try_wait.parity.shared::cta.b64 q, [r6], 0;\n"
	"\t@!q bra WAIT;\n"
	"\tmov.u32 r7, r4;\n"
	"\tshr.u32 r8, r3, 2;\n"
	"\tmov.u32 r9, %ntid.x;\n"
	"COPY:\n"
	"\tsetp.ge.u32 p, r7, r8;\n"
	"\t@p bra DONE;\n"
	"\tshl.b32 r10, r7, 2;\n"
	"\tadd.u32 r11, r5, r10;\n"
	"\tld.shared.u32 r12, [r11];\n"
	"\tmul.wide.u32 rd5, r7, 4;\n"
	"\tadd.s64 rd6, rd3, rd5;\n"
	"\tst.global.u32 [rd6], r12;\n"
	"\tadd.u32 r7, r7, r9;\n"
	"\tbra COPY;\n"
	"DONE:\n"
	"\tret;\n"
	"}\n";

/* Whether `hay` contains `needle`, reporting the text when not. */
static int
has(const char *hay, const char *needle)
{
	if (hay && strstr(hay, needle))
		return 1;
	fprintf(stderr, "  text \"%s\"\n  lacks \"%s\"\n", hay ? hay : "(null)",
	        needle);
	return 0;
}

/* Checks that a call failed with `want` and an error text holding `text`. */
#define CHECK_FAIL(want, call, text)                                       \
	do {                                                               \
		CHECK_EQ(want, call);                                      \
		CHECK(has(glrt_last_error(), text));                       \
	} while (0)

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

/* A valid 2-D fp16 [rows=64, cols=128] description, in TMA order. */
typedef struct TmaArgs {
	glrt_tma_dtype dtype;
	unsigned rank;
	glrt_devptr addr;
	uint64_t dims[5], strides[4];
	uint32_t box[5], estrides[5];
	unsigned swizzle, l2;
	glrt_oob_fill fill;
} TmaArgs;

static TmaArgs
tma_ok(void)
{
	TmaArgs a = {
		GLRT_TMA_F16, 2, 0x10000, { 128, 64 }, { 256 }, { 64, 32 },
		{ 1, 1 }, 128, 128, GLRT_OOB_ZERO
	};

	return a;
}

static glrt_status
encode(glrt_tensor_map *m, const TmaArgs *a)
{
	return glrt_tensor_map_encode_tiled(m, a->dtype, a->rank, a->addr,
	                                    a->dims, a->strides, a->box,
	                                    a->estrides, a->swizzle, a->l2,
	                                    a->fill);
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

/* An image is checked against its size before the driver reads it (which
 * takes no size): headers, tables, sections and fatbin entries all inside.
 * (test_fake_modules loads images that pass.) */
static void
test_image_extents(void)
{
	static const unsigned char four[4] = { 0x7f, 'E', 'L', 'F' };
	unsigned char elf[256] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0, [18] = 190,
	                           [52] = 64 };
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

/* ---- Without a driver (forked children, each loading afresh) ---- */

/* Runs `fn` in a child with GLRT_LIBCUDA set to `lib`; the child's checks
 * count as this test's. */
static void
in_child(const char *lib, void (*fn)(void))
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		setenv("GLRT_LIBCUDA", lib, 1);
		check_failures_in_test = 0;
		fn();
		fflush(stderr);
		_exit(check_failures_in_test ? 1 : 0);
	}
	CHECK(pid > 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(0, WEXITSTATUS(status));
}

static void
missing_driver(void)
{
	glrt_devptr p;
	glrt_module *m;

	CHECK_FAIL(GLRT_ERROR_NO_DRIVER, glrt_init(),
	           "/nonexistent/libcuda.so.1 not found: ");
	CHECK_EQ(0, glrt_last_driver_result());
	CHECK_FAIL(GLRT_ERROR_NO_DRIVER, glrt_init(),
	           "/nonexistent/libcuda.so.1 not found: ");
	CHECK_FAIL(GLRT_ERROR_NO_DRIVER, glrt_malloc(&p, 16), "not found");
	CHECK_FAIL(GLRT_ERROR_NO_DRIVER,
	           glrt_module_load(&m, ".version 8.0", 0, GLRT_IMAGE_PTX),
	           "not found");
	CHECK_FAIL(GLRT_ERROR_NO_DRIVER, glrt_synchronize(), "not found");
	/* Bad arguments are still reported as such. */
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, glrt_malloc(&p, 0),
	           "size is 0");
}

static void
not_a_driver(void)
{
	CHECK_FAIL(GLRT_ERROR_NO_DRIVER, glrt_init(),
	           "libm.so.6 has no cuGetProcAddress_v2: not a CUDA driver");
}

/* The fake as seen from this process (the runtime's dlopen shares it). */
static FakeCuda *
open_fake(void)
{
	void *lib = dlopen(fake_path, RTLD_NOW);
	FakeCuda *(*get)(void);

	if (!lib) {
		fprintf(stderr, "cannot open %s: %s\n", fake_path, dlerror());
		return NULL;
	}
	get = (FakeCuda *(*)(void))dlsym(lib, "fake_cuda");
	return get ? get() : NULL;
}

static void
init_fails(void)
{
	FakeCuda *f = open_fake();

	CHECK(f != NULL);
	if (!f)
		return;
	f->init_result = 100;
	CHECK_FAIL(GLRT_ERROR_NO_DEVICE, glrt_init(),
	           "cuInit(0) failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable "
	           "device is detected)");
	CHECK_EQ(100, glrt_last_driver_result());
	CHECK_FAIL(GLRT_ERROR_NO_DEVICE, glrt_init(), "cuInit(0) failed");
	CHECK_EQ(12000, f->proc_version);
}

static void
no_such_device(void)
{
	CHECK_FAIL(GLRT_ERROR_NO_DEVICE, glrt_init_device(3),
	           "device 3 requested but 1 CUDA device found");
	setenv("GLRT_DEVICE", "x1", 1);
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, glrt_init(),
	           "GLRT_DEVICE=\"x1\" is not a device ordinal");
}

static void
test_no_driver(void)
{
	in_child("/nonexistent/libcuda.so.1", missing_driver);
	in_child("libm.so.6", not_a_driver);
	in_child(fake_path, init_fails);
	in_child(fake_path, no_such_device);
}

/* ---- Against the fake driver (this process) ---- */

static void
test_fake_init(void)
{
	int calls;

	CHECK_EQ(GLRT_SUCCESS, glrt_init());
	CHECK_EQ(12000, fake->proc_version);
	calls = fake->ctx_set_calls;
	CHECK(calls >= 1);
	CHECK_EQ(GLRT_SUCCESS, glrt_init());
	CHECK_EQ(GLRT_SUCCESS, glrt_init_device(0));
	CHECK_EQ(calls, fake->ctx_set_calls);
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT, glrt_init_device(1),
	           "glrt_init_device(1): the runtime is already bound to "
	           "device 0");
}

/* A new thread gets the context made current by its first call. */
static void *
sync_in_thread(void *arg)
{
	(void)arg;
	return (void *)(uintptr_t)(glrt_synchronize() == GLRT_SUCCESS);
}

static void
test_fake_thread_context(void)
{
	int before = fake->ctx_set_calls;
	void *ok = NULL;
	pthread_t t;

	CHECK(pthread_create(&t, NULL, sync_in_thread, NULL) == 0);
	CHECK(pthread_join(t, &ok) == 0);
	CHECK(ok != NULL);
	CHECK_EQ(before + 1, fake->ctx_set_calls);
}

/* The smallest cubins glrt_module_load accepts: an ELF64 header for
 * EM_CUDA (190) and nothing else. The fake driver rejects the one marked
 * "BAD" in its ELF padding. */
static const unsigned char good_cubin[64] = {
	0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 'g', 'o', 'o', 'd', [18] = 190, [52] = 64
};
static const unsigned char bad_cubin[64] = {
	0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 'B', 'A', 'D', [18] = 190, [52] = 64
};
static const char good_ptx[] = ".version 8.0\n.target sm_90a\n";
static const char bad_ptx[] = ".version 8.0\nsyntax error here\n";

static void
test_fake_modules(void)
{
	glrt_module *m = NULL;
	glrt_kernel *k1 = NULL, *k2 = NULL, *k3 = (glrt_kernel *)1;
	int live = fake->live_modules;

	CHECK_FAIL(GLRT_ERROR_MODULE_LOAD,
	           glrt_module_load(&m, bad_cubin, sizeof bad_cubin,
	                            GLRT_IMAGE_CUBIN),
	           "cuModuleLoadData (cubin) failed: CUDA_ERROR_INVALID_IMAGE "
	           "(device kernel image is invalid)");
	CHECK_EQ(200, glrt_last_driver_result());
	CHECK(m == NULL);
	CHECK_FAIL(GLRT_ERROR_MODULE_LOAD,
	           glrt_module_load(&m, bad_ptx, 0, GLRT_IMAGE_PTX),
	           "cuModuleLoadDataEx (PTX JIT) failed: "
	           "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed); "
	           "JIT log: ptxas: line 3; error: syntax error");
	/* A section without file data (SHT_NOBITS) may lie past the end; a
	 * fatbin whose one entry fills it exactly loads. */
	{
		unsigned char elf[128] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0, [18] = 190,
		                           [40] = 64, [52] = 64, [58] = 64, [60] = 1,
		                           [64 + 4] = 8, [64 + 24] = 200, [64 + 32] = 100 };
		unsigned char fat[64] = { 0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0, [8] = 48,
		                          [16 + 4] = 16, [16 + 8] = 32 };
		glrt_module *ok = NULL;

		CHECK_EQ(GLRT_SUCCESS, glrt_module_load(&ok, elf, sizeof elf,
		                                        GLRT_IMAGE_CUBIN));
		CHECK_EQ(GLRT_SUCCESS, glrt_module_unload(ok));
		CHECK_EQ(GLRT_SUCCESS, glrt_module_load(&ok, fat, sizeof fat,
		                                        GLRT_IMAGE_CUBIN));
		CHECK_EQ(GLRT_SUCCESS, glrt_module_unload(ok));
	}
	CHECK_EQ(GLRT_SUCCESS, glrt_module_load(&m, good_ptx, sizeof good_ptx,
	                                        GLRT_IMAGE_PTX));
	CHECK_EQ(live + 1, fake->live_modules);
	CHECK_EQ(GLRT_SUCCESS, glrt_kernel_get(&k1, m, "k_add"));
	CHECK_EQ(GLRT_SUCCESS, glrt_kernel_get(&k2, m, "k_add"));
	CHECK(k1 != NULL && k1 == k2);
	CHECK_EQ(GLRT_SUCCESS, glrt_kernel_get(&k2, m, "k_mul"));
	CHECK(k2 != NULL && k2 != k1);
	CHECK_FAIL(GLRT_ERROR_NOT_FOUND, glrt_kernel_get(&k3, m, "missing"),
	           "cuModuleGetFunction(\"missing\") failed: "
	           "CUDA_ERROR_NOT_FOUND (named symbol not found)");
	CHECK(k3 == NULL);
	CHECK_EQ(GLRT_SUCCESS, glrt_module_unload(m));
	CHECK_EQ(live, fake->live_modules);
}

static glrt_lazy_module racy = { bad_cubin, sizeof bad_cubin, good_ptx,
                                 sizeof good_ptx, NULL };
static glrt_lazy_kernel racy_kernel = { &racy, "k_lazy", NULL };

static void *
lazy_in_thread(void *arg)
{
	glrt_kernel *k = NULL;

	(void)arg;
	if (glrt_lazy_kernel_get(&k, &racy_kernel) != GLRT_SUCCESS)
		return NULL;
	return k;
}

static void
test_fake_lazy(void)
{
	enum { N = 8 };
	pthread_t t[N];
	void *got[N];
	glrt_module *m = NULL;
	glrt_kernel *k = NULL;
	glrt_lazy_module both_bad = { bad_cubin, sizeof bad_cubin, bad_ptx,
	                              sizeof bad_ptx, NULL };
	glrt_lazy_module cubin_only = { good_cubin, sizeof good_cubin, NULL, 0,
	                                NULL };
	int cubins = fake->loads_cubin, ptxs = fake->loads_ptx, i;

	for (i = 0; i < N; i++)
		CHECK(pthread_create(&t[i], NULL, lazy_in_thread, NULL) == 0);
	for (i = 0; i < N; i++) {
		got[i] = NULL;
		CHECK(pthread_join(t[i], &got[i]) == 0);
		CHECK(got[i] != NULL && got[i] == got[0]);
	}
	/* One load: the cubin was rejected, the PTX loaded, once. */
	CHECK_EQ(cubins + 1, fake->loads_cubin);
	CHECK_EQ(ptxs + 1, fake->loads_ptx);
	CHECK(racy.module != NULL && racy_kernel.kernel == got[0]);
	CHECK_EQ(GLRT_SUCCESS, glrt_lazy_kernel_get(&k, &racy_kernel));
	CHECK(k == got[0]);
	CHECK_EQ(ptxs + 1, fake->loads_ptx);

	CHECK_FAIL(GLRT_ERROR_MODULE_LOAD, glrt_lazy_module_get(&m, &both_bad),
	           "cubin: cuModuleLoadData (cubin) failed: "
	           "CUDA_ERROR_INVALID_IMAGE (device kernel image is invalid); "
	           "PTX fallback: cuModuleLoadDataEx (PTX JIT) failed: "
	           "CUDA_ERROR_INVALID_PTX");
	CHECK(has(glrt_last_error(), "JIT log: ptxas: line 3"));
	CHECK(m == NULL && both_bad.module == NULL);
	/* A failed load is retried. */
	ptxs = fake->loads_ptx;
	CHECK_EQ(GLRT_ERROR_MODULE_LOAD, glrt_lazy_module_get(&m, &both_bad));
	CHECK_EQ(ptxs + 1, fake->loads_ptx);

	ptxs = fake->loads_ptx;
	CHECK_EQ(GLRT_SUCCESS, glrt_lazy_module_get(&m, &cubin_only));
	CHECK(m != NULL && m == cubin_only.module);
	CHECK_EQ(ptxs, fake->loads_ptx);
	CHECK_EQ(GLRT_SUCCESS, glrt_module_unload(m));
}

static void
test_fake_launch(void)
{
	glrt_module *m = NULL;
	glrt_kernel *k = NULL;
	unsigned grid[3] = { 8, 4, 2 }, block[3] = { 128, 2, 1 };
	unsigned cluster[3] = { 2, 1, 1 }, none[3] = { 0, 0, 0 };
	int x = 7, launches;
	void *args[1] = { &x };

	CHECK_EQ(GLRT_SUCCESS, glrt_module_load(&m, good_cubin,
	                                        sizeof good_cubin,
	                                        GLRT_IMAGE_CUBIN));
	CHECK_EQ(GLRT_SUCCESS, glrt_kernel_get(&k, m, "k_gemm"));
	launches = fake->launches;

	CHECK_EQ(GLRT_SUCCESS, glrt_launch(k, grid, block, NULL, 1024,
	                                   (glrt_stream)0x42, args));
	CHECK_EQ(launches + 1, fake->launches);
	CHECK_EQ(8, fake->launch.gridDimX);
	CHECK_EQ(4, fake->launch.gridDimY);
	CHECK_EQ(2, fake->launch.gridDimZ);
	CHECK_EQ(128, fake->launch.blockDimX);
	CHECK_EQ(2, fake->launch.blockDimY);
	CHECK_EQ(1, fake->launch.blockDimZ);
	CHECK_EQ(1024, fake->launch.sharedMemBytes);
	CHECK(fake->launch.hStream == (CUstream)0x42);
	CHECK_EQ(0, fake->launch.numAttrs);
	CHECK(fake->launch_args == args);
	CHECK_EQ(0, fake->set_attr_calls);

	CHECK_EQ(GLRT_SUCCESS, glrt_launch(k, grid, block, none, 0, NULL,
	                                   args));
	CHECK_EQ(0, fake->launch.numAttrs);
	CHECK_EQ(GLRT_SUCCESS, glrt_launch(k, grid, block, cluster, 0, NULL,
	                                   args));
	CHECK_EQ(1, fake->launch.numAttrs);
	CHECK_EQ(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, fake->attr.id);
	CHECK_EQ(2, fake->attr.value.clusterDim.x);
	CHECK_EQ(1, fake->attr.value.clusterDim.y);
	CHECK_EQ(1, fake->attr.value.clusterDim.z);

	/* 48 KiB needs no opt-in; more raises it once per size. */
	CHECK_EQ(GLRT_SUCCESS, glrt_launch(k, grid, block, NULL, 48 * 1024,
	                                   NULL, args));
	CHECK_EQ(0, fake->set_attr_calls);
	CHECK_EQ(GLRT_SUCCESS, glrt_launch(k, grid, block, NULL, 100000,
	                                   NULL, args));
	CHECK_EQ(1, fake->set_attr_calls);
	CHECK_EQ(100000, fake->set_attr_value);
	CHECK_EQ(GLRT_SUCCESS, glrt_launch(k, grid, block, NULL, 100000,
	                                   NULL, args));
	CHECK_EQ(GLRT_SUCCESS, glrt_launch(k, grid, block, NULL, 60000,
	                                   NULL, args));
	CHECK_EQ(1, fake->set_attr_calls);
	CHECK_EQ(GLRT_SUCCESS, glrt_launch(k, grid, block, NULL, 232448,
	                                   NULL, args));
	CHECK_EQ(2, fake->set_attr_calls);
	CHECK_EQ(232448, fake->set_attr_value);

	/* Above the device limit: rejected before the driver. */
	launches = fake->launches;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(k, grid, block, NULL, 232449, NULL, args),
	           "232449 bytes of dynamic shared memory for \"k_gemm\" "
	           "exceed the device's limit of 232448");
	cluster[0] = 3;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(k, grid, one, cluster, 0, NULL, args),
	           "cluster x dimension 3 does not divide grid x dimension 8");
	CHECK_EQ(launches, fake->launches);
	CHECK_EQ(2, fake->set_attr_calls);

	/* Driver failures come back with the call and the driver's text. */
	fake->launch_result = 700;
	CHECK_FAIL(GLRT_ERROR_DRIVER,
	           glrt_launch(k, grid, block, NULL, 0, NULL, args),
	           "cuLaunchKernelEx(\"k_gemm\", grid 8x4x2, block 128x2x1, "
	           "smem 0) failed: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal "
	           "memory access was encountered)");
	CHECK_EQ(700, glrt_last_driver_result());
	fake->launch_result = 12345;
	CHECK_FAIL(GLRT_ERROR_DRIVER,
	           glrt_launch(k, grid, block, NULL, 0, NULL, args),
	           "failed: CUresult 12345");
	fake->launch_result = 0;
	CHECK_EQ(GLRT_SUCCESS, glrt_kernel_get(&k, m, "k_other"));
	fake->set_attr_result = 1;
	launches = fake->launches;
	CHECK_FAIL(GLRT_ERROR_DRIVER,
	           glrt_launch(k, grid, block, NULL, 50000, NULL, args),
	           "cuFuncSetAttribute(\"k_other\", MAX_DYNAMIC_SHARED_SIZE_"
	           "BYTES, 50000) failed: CUDA_ERROR_INVALID_VALUE");
	CHECK_EQ(launches, fake->launches);
	fake->set_attr_result = 0;
	CHECK_EQ(GLRT_SUCCESS, glrt_launch(k, grid, block, NULL, 50000, NULL,
	                                   args));
	CHECK_EQ(4, fake->set_attr_calls);
	CHECK_EQ(GLRT_SUCCESS, glrt_module_unload(m));
}

static void
test_fake_tensor_maps(void)
{
	glrt_tensor_map map;
	TmaArgs a = tma_ok();
	uint64_t shape[3] = { 64, 128 }, strides[3] = { 128, 1 };
	uint32_t block[3] = { 64, 64 };
	glrt_nvmma_layout l = { 128, 16, 0 };

	a.estrides[1] = 2;
	a.l2 = 256;
	a.fill = GLRT_OOB_NAN;
	CHECK_EQ(GLRT_SUCCESS, encode(&map, &a));
	CHECK_EQ(6, fake->enc.dtype);
	CHECK_EQ(2, fake->enc.rank);
	CHECK_EQ(0x10000, fake->enc.addr);
	CHECK_EQ(128, fake->enc.dims[0]);
	CHECK_EQ(64, fake->enc.dims[1]);
	CHECK_EQ(256, fake->enc.strides[0]);
	CHECK_EQ(64, fake->enc.box[0]);
	CHECK_EQ(32, fake->enc.box[1]);
	CHECK_EQ(2, fake->enc.estrides[1]);
	CHECK_EQ(0, fake->enc.interleave);
	CHECK_EQ(3, fake->enc.swizzle);
	CHECK_EQ(3, fake->enc.l2);
	CHECK_EQ(1, fake->enc.oob);
	CHECK_EQ(0xabababababababab, map.opaque[15]);

	/* fp16 [64, 128], block [64, 64], 128-byte swizzle. */
	CHECK_EQ(GLRT_SUCCESS, glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F16,
	        2, 0x2000, shape, strides, block, &l, GLRT_OOB_ZERO));
	CHECK_EQ(0x2000, fake->enc.addr);
	CHECK_EQ(128, fake->enc.dims[0]);
	CHECK_EQ(64, fake->enc.dims[1]);
	CHECK_EQ(256, fake->enc.strides[0]);
	CHECK_EQ(64, fake->enc.box[0]);
	CHECK_EQ(64, fake->enc.box[1]);
	CHECK_EQ(1, fake->enc.estrides[0]);
	CHECK_EQ(1, fake->enc.estrides[1]);
	CHECK_EQ(3, fake->enc.swizzle);
	CHECK_EQ(2, fake->enc.l2);
	CHECK_EQ(0, fake->enc.oob);
	/* The shape is recorded in tensor order for the launchers. */
	CHECK_EQ(2, map.rank);
	CHECK_EQ(64, map.shape[0]);
	CHECK_EQ(128, map.shape[1]);

	/* fp32, block [128, 64]: the box is one 128-byte row, 32 wide. */
	l.element_bitwidth = 32;
	block[0] = 128;
	CHECK_EQ(GLRT_SUCCESS, glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F32,
	        2, 0x2000, shape, strides, block, &l, GLRT_OOB_NAN));
	CHECK_EQ(512, fake->enc.strides[0]);
	CHECK_EQ(32, fake->enc.box[0]);
	CHECK_EQ(128, fake->enc.box[1]);
	CHECK_EQ(1, fake->enc.oob);

	/* fp16, 32-byte swizzle: 16 elements. */
	l.element_bitwidth = 16;
	l.swizzle_bytes = 32;
	block[0] = 64;
	CHECK_EQ(GLRT_SUCCESS, glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_BF16,
	        2, 0x2000, shape, strides, block, &l, GLRT_OOB_ZERO));
	CHECK_EQ(9, fake->enc.dtype);
	CHECK_EQ(16, fake->enc.box[0]);
	CHECK_EQ(1, fake->enc.swizzle);

	/* No swizzle: dims clamp to 256. */
	l.swizzle_bytes = 0;
	block[0] = 300;
	CHECK_EQ(GLRT_SUCCESS, glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F16,
	        2, 0x2000, shape, strides, block, &l, GLRT_OOB_ZERO));
	CHECK_EQ(64, fake->enc.box[0]);
	CHECK_EQ(256, fake->enc.box[1]);
	CHECK_EQ(0, fake->enc.swizzle);

	/* Transposed: dim 0 is contiguous and stays TMA dim 0. */
	l.swizzle_bytes = 128;
	l.transposed = 1;
	shape[0] = 256; shape[1] = 64;
	strides[0] = 1; strides[1] = 256;
	block[0] = 64; block[1] = 32;
	CHECK_EQ(GLRT_SUCCESS, glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F16,
	        2, 0x2000, shape, strides, block, &l, GLRT_OOB_ZERO));
	CHECK_EQ(256, fake->enc.dims[0]);
	CHECK_EQ(64, fake->enc.dims[1]);
	CHECK_EQ(256, map.shape[0]);
	CHECK_EQ(64, map.shape[1]);
	CHECK_EQ(512, fake->enc.strides[0]);
	CHECK_EQ(64, fake->enc.box[0]);
	CHECK_EQ(32, fake->enc.box[1]);

	/* Rank 3, batch outermost. */
	l.transposed = 0;
	shape[0] = 4; shape[1] = 64; shape[2] = 128;
	strides[0] = 8192; strides[1] = 128; strides[2] = 1;
	block[0] = 1; block[1] = 64; block[2] = 64;
	CHECK_EQ(GLRT_SUCCESS, glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F16,
	        3, 0x2000, shape, strides, block, &l, GLRT_OOB_ZERO));
	CHECK_EQ(3, fake->enc.rank);
	CHECK_EQ(128, fake->enc.dims[0]);
	CHECK_EQ(64, fake->enc.dims[1]);
	CHECK_EQ(4, fake->enc.dims[2]);
	CHECK_EQ(256, fake->enc.strides[0]);
	CHECK_EQ(16384, fake->enc.strides[1]);
	CHECK_EQ(64, fake->enc.box[0]);
	CHECK_EQ(64, fake->enc.box[1]);
	CHECK_EQ(1, fake->enc.box[2]);
	CHECK_EQ(3, map.rank);
	CHECK_EQ(4, map.shape[0]);
	CHECK_EQ(64, map.shape[1]);
	CHECK_EQ(128, map.shape[2]);

	fake->encode_result = 1;
	CHECK_FAIL(GLRT_ERROR_DRIVER, encode(&map, &a),
	           "cuTensorMapEncodeTiled(rank 2, type 6, swizzle 128) "
	           "failed: CUDA_ERROR_INVALID_VALUE (invalid argument)");
	CHECK_EQ(0, map.rank);   /* a failed encode leaves no usable map */
	fake->encode_result = 0;
}

static void
test_fake_memory(void)
{
	glrt_devptr p = 0;
	unsigned char in[300], out[300];
	glrt_event e0 = NULL, e1 = NULL;
	float ms = -1;
	int v = 0, i;

	for (i = 0; i < 300; i++)
		in[i] = (unsigned char)(i * 7 + 1);
	CHECK_EQ(GLRT_SUCCESS, glrt_malloc(&p, sizeof in));
	CHECK(p != 0 && p % 256 == 0);
	CHECK_EQ(GLRT_SUCCESS, glrt_memcpy_htod(p, in, sizeof in));
	memset(out, 0, sizeof out);
	CHECK_EQ(GLRT_SUCCESS, glrt_memcpy_dtoh(out, p, sizeof out));
	CHECK(memcmp(in, out, sizeof in) == 0);
	CHECK_EQ(GLRT_SUCCESS, glrt_memset_d8(p + 8, 0xee, 4));
	CHECK_EQ(GLRT_SUCCESS, glrt_memcpy_dtoh(out, p, 16));
	CHECK_EQ(in[7], out[7]);
	CHECK_EQ(0xee, out[8]);
	CHECK_EQ(0xee, out[11]);
	CHECK_EQ(in[12], out[12]);
	CHECK_EQ(GLRT_SUCCESS, glrt_free(p));
	CHECK_EQ(GLRT_SUCCESS, glrt_synchronize());
	CHECK_EQ(GLRT_SUCCESS,
	         glrt_device_attribute(GLRT_ATTR_MAX_SMEM_PER_BLOCK_OPTIN, &v));
	CHECK_EQ(232448, v);
	CHECK_EQ(GLRT_SUCCESS, glrt_device_attribute(GLRT_ATTR_SM_COUNT, &v));
	CHECK_EQ(132, v);
	CHECK_EQ(GLRT_SUCCESS, glrt_event_create(&e0));
	CHECK_EQ(GLRT_SUCCESS, glrt_event_create(&e1));
	CHECK_EQ(GLRT_SUCCESS, glrt_event_record(e0, NULL));
	fake->launches += 2;
	CHECK_EQ(GLRT_SUCCESS, glrt_event_record(e1, NULL));
	CHECK_EQ(GLRT_SUCCESS, glrt_event_elapsed_ms(&ms, e0, e1));
	CHECK(ms == 2.5f);
	CHECK_EQ(GLRT_SUCCESS, glrt_event_destroy(e0));
	CHECK_EQ(GLRT_SUCCESS, glrt_event_destroy(e1));
}

/* ---- On a GPU, with the real driver (--gpu CUBIN) ---- */

static void *gpu_cubin;
static size_t gpu_cubin_size;

/* Copies n floats or words back from the device. */
static int
fetch(void *host, glrt_devptr dev, size_t bytes)
{
	return glrt_synchronize() == GLRT_SUCCESS &&
	       glrt_memcpy_dtoh(host, dev, bytes) == GLRT_SUCCESS;
}

static void
gpu_device(void)
{
	int sms = 0, major = 0, optin = 0;

	CHECK_EQ(GLRT_SUCCESS, glrt_device_attribute(GLRT_ATTR_SM_COUNT, &sms));
	CHECK_EQ(GLRT_SUCCESS, glrt_device_attribute(GLRT_ATTR_CC_MAJOR, &major));
	CHECK_EQ(GLRT_SUCCESS,
	         glrt_device_attribute(GLRT_ATTR_MAX_SMEM_PER_BLOCK_OPTIN,
	                               &optin));
	CHECK(sms > 0);
	CHECK_EQ(9, major);
	CHECK(optin > 48 * 1024);
	printf("device: %d SMs, sm_%d0, %d bytes of opt-in smem per block\n",
	       sms, major, optin);
}

/* x + y through `k` into a poisoned output. */
static void
gpu_check_add(glrt_kernel *k)
{
	enum { N = 1000 };
	static float x[N], y[N], out[N];
	glrt_devptr dx = 0, dy = 0, dout = 0;
	unsigned n = N, grid[3] = { (N + 255) / 256, 1, 1 };
	unsigned block[3] = { 256, 1, 1 };
	void *args[4] = { &dx, &dy, &dout, &n };
	int i, bad = 0;

	for (i = 0; i < N; i++) {
		x[i] = (float)i;
		y[i] = 2.0f * (float)i + 0.5f;
	}
	CHECK_EQ(GLRT_SUCCESS, glrt_malloc(&dx, sizeof x));
	CHECK_EQ(GLRT_SUCCESS, glrt_malloc(&dy, sizeof y));
	CHECK_EQ(GLRT_SUCCESS, glrt_malloc(&dout, sizeof out));
	CHECK_EQ(GLRT_SUCCESS, glrt_memcpy_htod(dx, x, sizeof x));
	CHECK_EQ(GLRT_SUCCESS, glrt_memcpy_htod(dy, y, sizeof y));
	CHECK_EQ(GLRT_SUCCESS, glrt_memset_d8(dout, 0xff, sizeof out));
	CHECK_EQ(GLRT_SUCCESS, glrt_launch(k, grid, block, NULL, 0, NULL, args));
	CHECK(fetch(out, dout, sizeof out));
	for (i = 0; i < N; i++)
		bad += out[i] != 3.0f * (float)i + 0.5f;
	CHECK_EQ(0, bad);
	glrt_free(dx);
	glrt_free(dy);
	glrt_free(dout);
}

static void
gpu_modules(void)
{
	/* A well-formed ELF header for CUDA with no code: the checks pass it
	 * and the driver rejects it (CUDA_ERROR_UNKNOWN from a 13.0 driver on
	 * an H200); the ELF magic and nothing else the checks refuse. */
	static const unsigned char bad_image[64] = {
		0x7f, 'E', 'L', 'F', 2, 1, 1, 0, [18] = 190, [52] = 64
	};
	static const unsigned char magic_only[64] = { 0x7f, 'E', 'L', 'F' };
	glrt_lazy_module lazy = { gpu_cubin, gpu_cubin_size, gpu_ptx,
	                          sizeof gpu_ptx, NULL };
	glrt_lazy_module fallback = { bad_image, sizeof bad_image, gpu_ptx,
	                              sizeof gpu_ptx, NULL };
	glrt_lazy_kernel add = { &lazy, "k_add", NULL };
	glrt_lazy_kernel add_jit = { &fallback, "k_add", NULL };
	glrt_module *m = NULL;
	glrt_kernel *k = NULL;

	CHECK_EQ(GLRT_SUCCESS, glrt_lazy_kernel_get(&k, &add));
	if (k)
		gpu_check_add(k);
	k = NULL;
	CHECK_EQ(GLRT_SUCCESS, glrt_lazy_kernel_get(&k, &add_jit));
	if (k)
		gpu_check_add(k);
	CHECK_FAIL(GLRT_ERROR_NOT_FOUND,
	           glrt_kernel_get(&k, lazy.module, "k_missing"),
	           "cuModuleGetFunction(\"k_missing\") failed: "
	           "CUDA_ERROR_NOT_FOUND (named symbol not found)");
	CHECK_FAIL(GLRT_ERROR_MODULE_LOAD,
	           glrt_module_load(&m, ".version 8.0\n.target sm_90a\n"
	                            ".address_size 64\nbogus;\n", 0,
	                            GLRT_IMAGE_PTX),
	           "cuModuleLoadDataEx (PTX JIT) failed: CUDA_ERROR_INVALID_PTX");
	CHECK(has(glrt_last_error(), "JIT log: "));
	printf("bad PTX: %s\n", glrt_last_error());
	CHECK_FAIL(GLRT_ERROR_MODULE_LOAD,
	           glrt_module_load(&m, bad_image, sizeof bad_image,
	                            GLRT_IMAGE_CUBIN),
	           "cuModuleLoadData (cubin) failed: CUDA_ERROR_");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_module_load(&m, magic_only, sizeof magic_only,
	                            GLRT_IMAGE_CUBIN),
	           "not a 64-bit little-endian ELF file for CUDA");
	glrt_module_unload(lazy.module);
	glrt_module_unload(fallback.module);
}

/* k_smem reverses n words through dynamic shared memory. */
static void
gpu_smem(void)
{
	glrt_module *m = NULL;
	glrt_kernel *k = NULL;
	unsigned block[3] = { 256, 1, 1 }, n;
	unsigned sizes[3] = { 4096, 102400, 0 };
	glrt_devptr d = 0;
	void *args[2] = { &d, &n };
	unsigned *out;
	int optin = 0, s, i, bad;

	CHECK_EQ(GLRT_SUCCESS, glrt_device_attribute(
	        GLRT_ATTR_MAX_SMEM_PER_BLOCK_OPTIN, &optin));
	sizes[2] = (unsigned)optin;
	CHECK_EQ(GLRT_SUCCESS, glrt_module_load(&m, gpu_cubin, gpu_cubin_size,
	                                        GLRT_IMAGE_CUBIN));
	CHECK_EQ(GLRT_SUCCESS, glrt_kernel_get(&k, m, "k_smem"));
	out = malloc((size_t)optin);
	CHECK_EQ(GLRT_SUCCESS, glrt_malloc(&d, (size_t)optin));
	for (s = 0; s < 3 && k && out; s++) {
		n = sizes[s] / 4;
		CHECK_EQ(GLRT_SUCCESS, glrt_memset_d8(d, 0xff, sizes[s]));
		CHECK_EQ(GLRT_SUCCESS, glrt_launch(k, one, block, NULL,
		                                   sizes[s], NULL, args));
		CHECK(fetch(out, d, sizes[s]));
		for (bad = 0, i = 0; i < (int)n; i++)
			bad += out[i] != (n - 1 - (unsigned)i) * 3;
		CHECK_EQ(0, bad);
	}
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch(k, one, block, NULL, (unsigned)optin + 16,
	                       NULL, args), "exceed the device's limit");
	free(out);
	glrt_free(d);
	glrt_module_unload(m);
}

static void
gpu_cluster(void)
{
	glrt_module *m = NULL;
	glrt_kernel *k = NULL;
	unsigned grid[3] = { 8, 1, 1 }, block[3] = { 32, 1, 1 };
	unsigned cl[3][3] = { { 0, 0, 0 }, { 2, 1, 1 }, { 4, 1, 1 } };
	unsigned out[8];
	glrt_devptr d = 0;
	void *args[1] = { &d };
	int c, i, bad;

	CHECK_EQ(GLRT_SUCCESS, glrt_module_load(&m, gpu_cubin, gpu_cubin_size,
	                                        GLRT_IMAGE_CUBIN));
	CHECK_EQ(GLRT_SUCCESS, glrt_kernel_get(&k, m, "k_cluster"));
	CHECK_EQ(GLRT_SUCCESS, glrt_malloc(&d, sizeof out));
	for (c = 0; c < 3 && k; c++) {
		unsigned size = cl[c][0] ? cl[c][0] : 1;

		CHECK_EQ(GLRT_SUCCESS, glrt_memset_d8(d, 0xff, sizeof out));
		CHECK_EQ(GLRT_SUCCESS, glrt_launch(k, grid, block, cl[c], 0,
		                                   NULL, args));
		CHECK(fetch(out, d, sizeof out));
		for (bad = 0, i = 0; i < 8; i++)
			bad += out[i] != size * 100 + (unsigned)i % size;
		CHECK_EQ(0, bad);
	}
	glrt_free(d);
	glrt_module_unload(m);
}

/* Loads a [16, 32] fp32 box at (row r0, col c0) of a [64, 96] matrix with
 * `swizzle`, and checks each element lands where the NVMMA layout says. */
static void
gpu_tma_box(glrt_kernel *k, glrt_devptr mat, unsigned swizzle,
            unsigned r0, unsigned c0)
{
	static _Alignas(64) glrt_tensor_map map;
	uint64_t shape[2] = { 64, 96 }, strides[2] = { 96, 1 };
	uint32_t block[2] = { 16, 32 };
	glrt_nvmma_layout l = { swizzle, 32, 0 };
	unsigned bytes = 16 * 32 * 4, out[512], r, c, off, want, bad = 0;
	glrt_devptr d = 0;
	void *args[5] = { &map, &d, &c0, &r0, &bytes };
	unsigned block_dim[3] = { 128, 1, 1 };

	CHECK_EQ(GLRT_SUCCESS, glrt_tensor_map_encode_nvmma(&map, GLRT_TMA_F32,
	        2, mat, shape, strides, block, &l, GLRT_OOB_ZERO));
	CHECK_EQ(GLRT_SUCCESS, glrt_malloc(&d, sizeof out));
	CHECK_EQ(GLRT_SUCCESS, glrt_memset_d8(d, 0xff, sizeof out));
	CHECK_EQ(GLRT_SUCCESS, glrt_launch(k, one, block_dim, NULL, 0, NULL,
	                                   args));
	CHECK(fetch(out, d, sizeof out));
	for (r = 0; r < 16; r++) {
		for (c = 0; c < 32; c++) {
			off = swizzle ? r * 32 + ((c / 4) ^ (r % 8)) * 4 + c % 4 :
			      r * 32 + c;
			want = r0 + r < 64 && c0 + c < 96 ?
			       (r0 + r) * 1000 + c0 + c : 0;
			bad += out[off] != want;
		}
	}
	CHECK_EQ(0, bad);
	glrt_free(d);
}

static void
gpu_tma(void)
{
	static unsigned mat[64 * 96];
	glrt_module *m = NULL;
	glrt_kernel *k = NULL;
	glrt_devptr d = 0;
	unsigned r, c;

	for (r = 0; r < 64; r++)
		for (c = 0; c < 96; c++)
			mat[r * 96 + c] = r * 1000 + c;
	CHECK_EQ(GLRT_SUCCESS, glrt_module_load(&m, gpu_cubin, gpu_cubin_size,
	                                        GLRT_IMAGE_CUBIN));
	CHECK_EQ(GLRT_SUCCESS, glrt_kernel_get(&k, m, "k_tma"));
	CHECK_EQ(GLRT_SUCCESS, glrt_malloc(&d, sizeof mat));
	CHECK_EQ(GLRT_SUCCESS, glrt_memcpy_htod(d, mat, sizeof mat));
	if (k) {
		gpu_tma_box(k, d, 0, 16, 32);
		gpu_tma_box(k, d, 0, 56, 64);
		gpu_tma_box(k, d, 128, 8, 32);
		gpu_tma_box(k, d, 128, 48, 64);
	}
	glrt_free(d);
	glrt_module_unload(m);
}

static void
gpu_events(void)
{
	glrt_event e0 = NULL, e1 = NULL;
	float ms = -1;

	CHECK_EQ(GLRT_SUCCESS, glrt_event_create(&e0));
	CHECK_EQ(GLRT_SUCCESS, glrt_event_create(&e1));
	CHECK_EQ(GLRT_SUCCESS, glrt_event_record(e0, NULL));
	CHECK_EQ(GLRT_SUCCESS, glrt_event_record(e1, NULL));
	CHECK_EQ(GLRT_SUCCESS, glrt_event_elapsed_ms(&ms, e0, e1));
	CHECK(ms >= 0.0f && ms < 1000.0f);
	CHECK_EQ(GLRT_SUCCESS, glrt_event_destroy(e0));
	CHECK_EQ(GLRT_SUCCESS, glrt_event_destroy(e1));
}

static int
run_gpu(const char *cubin_path)
{
	FILE *f = fopen(cubin_path, "rb");
	glrt_status st = glrt_init();

	if (st == GLRT_ERROR_NO_DRIVER || st == GLRT_ERROR_NO_DEVICE) {
		printf("skipped: %s\n", glrt_last_error());
		return 77;
	}
	if (st != GLRT_SUCCESS || !f) {
		fprintf(stderr, "setup failed: %s\n", f ? glrt_last_error() :
		        cubin_path);
		return 1;
	}
	gpu_cubin = malloc(1 << 20);
	gpu_cubin_size = gpu_cubin ? fread(gpu_cubin, 1, 1 << 20, f) : 0;
	fclose(f);
	RUN_TEST(gpu_device);
	RUN_TEST(gpu_modules);
	RUN_TEST(gpu_smem);
	RUN_TEST(gpu_cluster);
	RUN_TEST(gpu_tma);
	RUN_TEST(gpu_events);
	free(gpu_cubin);
	return check_summary();
}

int
main(int argc, char **argv)
{
	const char *slash = strrchr(argv[0], '/');
	int dir = slash ? (int)(slash - argv[0]) : 1;

	snprintf(fake_path, sizeof fake_path, "%.*s/fake_libcuda.so", dir,
	         slash ? argv[0] : ".");
	if (argc > 1 && strcmp(argv[1], "--dump-ptx") == 0) {
		fputs(gpu_ptx, stdout);
		return 0;
	}
	if (argc > 2 && strcmp(argv[1], "--gpu") == 0)
		return run_gpu(argv[2]);

	/* Nothing before test_no_driver may load a driver. */
	RUN_TEST(test_status_texts);
	RUN_TEST(test_error_is_per_thread);
	RUN_TEST(test_launch_validation);
	RUN_TEST(test_tensor_map_validation);
	RUN_TEST(test_nvmma_validation);
	RUN_TEST(test_module_validation);
	RUN_TEST(test_memory_validation);
	RUN_TEST(test_no_driver);

	setenv("GLRT_LIBCUDA", fake_path, 1);
	fake = open_fake();
	if (!fake) {
		fprintf(stderr, "FAIL: no fake driver at %s\n", fake_path);
		return 1;
	}
	RUN_TEST(test_fake_init);
	RUN_TEST(test_fake_thread_context);
	RUN_TEST(test_fake_modules);
	RUN_TEST(test_fake_lazy);
	RUN_TEST(test_fake_launch);
	RUN_TEST(test_fake_tensor_maps);
	RUN_TEST(test_fake_memory);
	return check_summary();
}
