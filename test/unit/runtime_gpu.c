/*
 * libglrt tests on a Hopper GPU with the real driver, part 3:
 * `--dump-ptx` prints the kernels below; `--gpu CUBIN` (that PTX assembled
 * by ptxas) loads, JITs and launches them. Exits 77 when no driver or
 * device is present, and without arguments. Not a test_* binary: `make
 * check` has no GPU and does not run it.
 */
#include <stdlib.h>

#include "test/unit/runtime_test.h"

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
		0x7f, 'E', 'L', 'F', 2, 1, 1, 0, [18] = 190, [20] = 1, [52] = 64
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
	if (argc > 1 && strcmp(argv[1], "--dump-ptx") == 0) {
		fputs(gpu_ptx, stdout);
		return 0;
	}
	if (argc > 2 && strcmp(argv[1], "--gpu") == 0)
		return run_gpu(argv[2]);
	printf("skipped: usage: %s --dump-ptx | --gpu CUBIN\n", argc > 0 ? argv[0] : "runtime_gpu");
	return 77;
}
