/*
 * The fake CUDA driver (see fake_libcuda.h). Cubin images whose bytes 4..6
 * are "BAD" are rejected with CUDA_ERROR_INVALID_IMAGE; PTX containing
 * "syntax error" fails to JIT with a log; kernels whose names start with
 * 'k' exist. Loads take a few milliseconds so that races show.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test/unit/fake_libcuda.h"

static FakeCuda fake = { .device_count = 1, .smem_optin = 232448 };
static _Thread_local CUcontext current;
static char context_token, kernel_token;

FakeCuda *
fake_cuda(void)
{
	return &fake;
}

static const struct {
	int code;
	const char *name, *text;
} errors[] = {
	{ 0, "CUDA_SUCCESS", "no error" },
	{ 1, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
	{ 2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory" },
	{ 100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected" },
	{ 200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid" },
	{ 218, "CUDA_ERROR_INVALID_PTX",
	  "a PTX JIT compilation failed" },
	{ 500, "CUDA_ERROR_NOT_FOUND", "named symbol not found" },
	{ 700, "CUDA_ERROR_ILLEGAL_ADDRESS",
	  "an illegal memory access was encountered" },
};

static int
find_error(int code)
{
	size_t i;

	for (i = 0; i < sizeof errors / sizeof errors[0]; i++)
		if (errors[i].code == code)
			return (int)i;
	return -1;
}

static CUresult
getErrorName(CUresult res, const char **out)
{
	int i = find_error(res);

	if (i < 0)
		return 1;
	*out = errors[i].name;
	return 0;
}

static CUresult
getErrorString(CUresult res, const char **out)
{
	int i = find_error(res);

	if (i < 0)
		return 1;
	*out = errors[i].text;
	return 0;
}

static CUresult
init(unsigned flags)
{
	return flags ? 1 : fake.init_result;
}

static CUresult
deviceGetCount(int *n)
{
	*n = fake.device_count;
	return 0;
}

static CUresult
deviceGet(CUdevice *d, int ordinal)
{
	if (ordinal < 0 || ordinal >= fake.device_count)
		return 101;
	*d = ordinal;
	return 0;
}

static CUresult
deviceGetAttribute(int *v, int attr, CUdevice d)
{
	(void)d;
	*v = attr == 97 ? fake.smem_optin : attr == 16 ? 132 : 0;
	return 0;
}

static CUresult
primaryCtxRetain(CUcontext *ctx, CUdevice d)
{
	(void)d;
	*ctx = (CUcontext)&context_token;
	return 0;
}

static CUresult
ctxSetCurrent(CUcontext ctx)
{
	__atomic_add_fetch(&fake.ctx_set_calls, 1, __ATOMIC_SEQ_CST);
	current = ctx;
	return 0;
}

static CUresult
ctxGetCurrent(CUcontext *ctx)
{
	*ctx = current;
	return 0;
}

static CUresult
ctxSynchronize(void)
{
	return current ? 0 : 201;
}

static void
slow_down(void)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

static CUresult
new_module(CUmodule *mod)
{
	slow_down();
	*mod = malloc(1);
	__atomic_add_fetch(&fake.live_modules, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static CUresult
moduleLoadData(CUmodule *mod, const void *image)
{
	__atomic_add_fetch(&fake.loads_cubin, 1, __ATOMIC_SEQ_CST);
	/* The tests mark a cubin to reject in its ELF padding (EI_PAD). */
	if (memcmp((const char *)image + 9, "BAD", 3) == 0)
		return 200;
	return new_module(mod);
}

static CUresult
moduleLoadDataEx(CUmodule *mod, const void *image, unsigned n,
                 CUjit_option *opts, void **vals)
{
	char *log = NULL;
	size_t size = 0;
	unsigned i;

	__atomic_add_fetch(&fake.loads_ptx, 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < n; i++) {
		if (opts[i] == CU_JIT_ERROR_LOG_BUFFER)
			log = vals[i];
		if (opts[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
			size = (size_t)(uintptr_t)vals[i];
	}
	if (strstr(image, "syntax error")) {
		if (log && size > 0) {
			strncpy(log, "ptxas: line 3; error: syntax error",
			        size - 1);
			log[size - 1] = 0;
		}
		return 218;
	}
	return new_module(mod);
}

static CUresult
moduleUnload(CUmodule mod)
{
	free(mod);
	__atomic_sub_fetch(&fake.live_modules, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static CUresult
moduleGetFunction(CUfunction *fn, CUmodule mod, const char *name)
{
	(void)mod;
	if (name[0] != 'k')
		return 500;
	*fn = (CUfunction)&kernel_token;
	return 0;
}

static CUresult
funcSetAttribute(CUfunction fn, int attr, int value)
{
	(void)fn;
	if (attr != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
		return 1;
	fake.set_attr_calls++;
	fake.set_attr_value = value;
	return fake.set_attr_result;
}

static CUresult
launchKernelEx(const CUlaunchConfig *cfg, CUfunction fn, void **args,
               void **extra)
{
	(void)fn;
	(void)extra;
	fake.launches++;
	fake.launch = *cfg;
	memset(&fake.attr, 0, sizeof fake.attr);
	if (cfg->numAttrs)
		fake.attr = cfg->attrs[0];
	fake.launch_args = args;
	for (int i = 0; i < fake.capture_args && i < 4; i++)
		memcpy(&fake.arg_words[i], args[i], sizeof fake.arg_words[i]);
	return fake.launch_result;
}

static CUresult
tensorMapEncodeTiled(void *map, int dtype, uint32_t rank, void *addr,
                     const uint64_t *dims, const uint64_t *strides,
                     const uint32_t *box, const uint32_t *estrides,
                     int interleave, int swizzle, int l2, int oob)
{
	uint32_t i;

	fake.encodes++;
	memset(&fake.enc, 0, sizeof fake.enc);
	fake.enc.dtype = dtype;
	fake.enc.rank = rank;
	fake.enc.addr = (uint64_t)(uintptr_t)addr;
	fake.enc.interleave = interleave;
	fake.enc.swizzle = swizzle;
	fake.enc.l2 = l2;
	fake.enc.oob = oob;
	for (i = 0; i < rank && i < 5; i++) {
		fake.enc.dims[i] = dims[i];
		fake.enc.box[i] = box[i];
		fake.enc.estrides[i] = estrides[i];
		if (i + 1 < rank)
			fake.enc.strides[i] = strides[i];
	}
	memset(map, 0xab, 128);
	return fake.encode_result;
}

static CUresult
memAlloc(CUdeviceptr *p, size_t bytes)
{
	void *m = aligned_alloc(256, (bytes + 255) / 256 * 256);

	if (!m)
		return 2;
	*p = (CUdeviceptr)(uintptr_t)m;
	return 0;
}

static CUresult
memFree(CUdeviceptr p)
{
	free((void *)(uintptr_t)p);
	return 0;
}

static CUresult
memAllocAsync(CUdeviceptr *p, size_t bytes, CUstream s)
{
	fake.allocs_async++;
	fake.alloc_async_bytes = bytes;
	fake.alloc_async_stream = s;
	if (fake.alloc_async_result)
		return fake.alloc_async_result;
	if (memAlloc(p, bytes))
		return 2;
	fake.alloc_async_ptr = *p;
	return 0;
}

static CUresult
memFreeAsync(CUdeviceptr p, CUstream s)
{
	fake.frees_async++;
	fake.free_async_ptr = p;
	fake.free_async_stream = s;
	return memFree(p);
}

static CUresult
memcpyHtoD(CUdeviceptr dst, const void *src, size_t n)
{
	memcpy((void *)(uintptr_t)dst, src, n);
	return 0;
}

static CUresult
memcpyDtoH(void *dst, CUdeviceptr src, size_t n)
{
	memcpy(dst, (const void *)(uintptr_t)src, n);
	return 0;
}

static CUresult
memsetD8(CUdeviceptr dst, unsigned char v, size_t n)
{
	memset((void *)(uintptr_t)dst, v, n);
	return 0;
}

static CUresult
eventCreate(CUevent *ev, unsigned flags)
{
	*ev = malloc(sizeof(float));
	return flags ? 1 : 0;
}

static CUresult
eventRecord(CUevent ev, CUstream s)
{
	(void)s;
	*(float *)ev = (float)fake.launches;
	return 0;
}

static CUresult
eventSynchronize(CUevent ev)
{
	(void)ev;
	return 0;
}

static CUresult
eventElapsedTime(float *ms, CUevent a, CUevent b)
{
	*ms = *(float *)b - *(float *)a + 0.5f;
	return 0;
}

static CUresult
eventDestroy(CUevent ev)
{
	free(ev);
	return 0;
}

#define FN(name, impl) { #name, (void *)impl }
static const struct {
	const char *name;
	void *fn;
} table[] = {
	FN(cuGetErrorName, getErrorName), FN(cuGetErrorString, getErrorString),
	FN(cuInit, init), FN(cuDeviceGetCount, deviceGetCount),
	FN(cuDeviceGet, deviceGet), FN(cuDeviceGetAttribute, deviceGetAttribute),
	FN(cuDevicePrimaryCtxRetain, primaryCtxRetain),
	FN(cuCtxSetCurrent, ctxSetCurrent), FN(cuCtxGetCurrent, ctxGetCurrent),
	FN(cuCtxSynchronize, ctxSynchronize),
	FN(cuModuleLoadData, moduleLoadData),
	FN(cuModuleLoadDataEx, moduleLoadDataEx),
	FN(cuModuleUnload, moduleUnload),
	FN(cuModuleGetFunction, moduleGetFunction),
	FN(cuFuncSetAttribute, funcSetAttribute),
	FN(cuLaunchKernelEx, launchKernelEx),
	FN(cuTensorMapEncodeTiled, tensorMapEncodeTiled),
	FN(cuMemAlloc, memAlloc), FN(cuMemFree, memFree),
	FN(cuMemAllocAsync, memAllocAsync), FN(cuMemFreeAsync, memFreeAsync),
	FN(cuMemcpyHtoD, memcpyHtoD), FN(cuMemcpyDtoH, memcpyDtoH),
	FN(cuMemsetD8, memsetD8), FN(cuEventCreate, eventCreate),
	FN(cuEventRecord, eventRecord), FN(cuEventSynchronize, eventSynchronize),
	FN(cuEventElapsedTime, eventElapsedTime),
	FN(cuEventDestroy, eventDestroy),
};
#undef FN

CUresult
cuGetProcAddress_v2(const char *symbol, void **pfn, int version,
                    uint64_t flags, int *status)
{
	size_t i;

	fake.proc_version = version;
	for (i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (strcmp(table[i].name, symbol) == 0 && flags == 0) {
			*pfn = table[i].fn;
			*status = 0;
			return 0;
		}
	}
	*pfn = NULL;
	*status = 1;
	return 500;
}
