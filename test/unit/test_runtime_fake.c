/*
 * libglrt tests without a GPU, part 2: the no-driver paths (in forked
 * children, each with its own GLRT_LIBCUDA), then everything else against
 * a fake driver (fake_libcuda.so, next to this binary) that records what
 * the runtime asks of it.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test/unit/runtime_test.h"
#include "test/unit/fake_libcuda.h"

static char fake_path[4096];
static FakeCuda *fake;

static const unsigned one[3] = { 1, 1, 1 };

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
	0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 'g', 'o', 'o', 'd', [18] = 190, [20] = 1,
	[52] = 64
};
static const unsigned char bad_cubin[64] = {
	0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 'B', 'A', 'D', [18] = 190, [20] = 1,
	[52] = 64
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
	/* A section without file data (SHT_NOBITS) may lie past the end (here
	 * section 0; section 1 is the name table, the one NUL at byte 9); a
	 * fatbin whose one entry fills it exactly loads. */
	{
		unsigned char elf[192] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0, [18] = 190,
		                           [20] = 1, [40] = 64, [52] = 64, [58] = 64, [60] = 2,
		                           [62] = 1, [64 + 4] = 8, [64 + 24] = 200,
		                           [64 + 32] = 100, [128 + 4] = 3, [128 + 24] = 9,
		                           [128 + 32] = 1 };
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

/* A launch with a global scratch buffer: allocated for grid x bytes per
 * program on the launch's stream, passed through the last argument, freed
 * on the stream after the launch, also when the launch fails. */
static void
test_fake_launch_scratch(void)
{
	glrt_module *m = NULL;
	glrt_kernel *k = NULL;
	unsigned grid[3] = { 8, 4, 2 }, block[3] = { 128, 1, 1 };
	glrt_devptr scratch = 0;
	int x = 7, launches = fake->launches, allocs = fake->allocs_async;
	void *args[2] = { &x, &scratch };

	CHECK_EQ(GLRT_SUCCESS, glrt_module_load(&m, good_cubin,
	                                        sizeof good_cubin,
	                                        GLRT_IMAGE_CUBIN));
	CHECK_EQ(GLRT_SUCCESS, glrt_kernel_get(&k, m, "k_gemm"));
	CHECK_EQ(GLRT_SUCCESS, glrt_launch_scratch(k, grid, block, NULL, 0,
	                                           (glrt_stream)0x42, args, 256,
	                                           &scratch));
	CHECK_EQ(launches + 1, fake->launches);
	CHECK_EQ(allocs + 1, fake->allocs_async);
	CHECK_EQ(64 * 256, fake->alloc_async_bytes);
	CHECK(fake->alloc_async_stream == (CUstream)0x42);
	CHECK(scratch != 0 && scratch == fake->alloc_async_ptr);
	CHECK(fake->launch_args == args);
	CHECK_EQ(fake->allocs_async, fake->frees_async);
	CHECK(fake->free_async_ptr == scratch);
	CHECK(fake->free_async_stream == (CUstream)0x42);

	/* Checked before the driver; a failed allocation launches nothing;
	 * a failed launch still frees. */
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch_scratch(k, grid, block, NULL, 0, NULL, args, 0, &scratch),
	           "glrt_launch_scratch: scratch_bytes is 0");
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch_scratch(k, grid, block, NULL, 0, NULL, args, 128, NULL),
	           "glrt_launch_scratch: scratch is NULL");
	grid[1] = 0;
	CHECK_FAIL(GLRT_ERROR_INVALID_ARGUMENT,
	           glrt_launch_scratch(k, grid, block, NULL, 0, NULL, args, 128, &scratch),
	           "grid y dimension 0 is outside 1..65535");
	grid[1] = 4;
	CHECK_EQ(allocs + 1, fake->allocs_async);
	launches = fake->launches;
	fake->alloc_async_result = 2;
	CHECK_FAIL(GLRT_ERROR_OUT_OF_MEMORY,
	           glrt_launch_scratch(k, grid, block, NULL, 0, NULL, args, 128, &scratch),
	           "cuMemAllocAsync(8192) for the global scratch of \"k_gemm\" failed");
	fake->alloc_async_result = 0;
	CHECK_EQ(launches, fake->launches);
	fake->launch_result = 700;
	CHECK_FAIL(GLRT_ERROR_DRIVER,
	           glrt_launch_scratch(k, grid, block, NULL, 0, NULL, args, 128, &scratch),
	           "cuLaunchKernelEx(\"k_gemm\"");
	fake->launch_result = 0;
	CHECK_EQ(fake->allocs_async - 1, fake->frees_async);   /* all but the failed one */
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

int
main(int argc, char **argv)
{
	const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
	int dir = slash ? (int)(slash - argv[0]) : 1;

	snprintf(fake_path, sizeof fake_path, "%.*s/fake_libcuda.so", dir,
	         slash ? argv[0] : ".");
	/* Nothing before test_no_driver may load a driver. */
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
	RUN_TEST(test_fake_launch_scratch);
	RUN_TEST(test_fake_tensor_maps);
	RUN_TEST(test_fake_memory);
	return check_summary();
}
