/*
 * Loading the driver and binding the runtime's device.
 *
 * The process-wide state is the resolved driver (loaded once under
 * pthread_once) and the device binding (made once under a mutex); each
 * thread remembers whether it has made the runtime's context current.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"

/* The CUDA version whose entry points cuda_abi.h declares. */
enum { ABI_VERSION = 12000 };

/* Entry points by unversioned name and slot in GlrtDriver. */
#define ENTRY(name) { #name, offsetof(GlrtDriver, name) }
static const struct {
	const char *name;
	size_t offset;
} entries[] = {
	ENTRY(cuGetErrorName), ENTRY(cuGetErrorString), ENTRY(cuInit),
	ENTRY(cuDeviceGetCount), ENTRY(cuDeviceGet),
	ENTRY(cuDeviceGetAttribute), ENTRY(cuDevicePrimaryCtxRetain),
	ENTRY(cuCtxSetCurrent), ENTRY(cuCtxGetCurrent),
	ENTRY(cuCtxSynchronize), ENTRY(cuModuleLoadData),
	ENTRY(cuModuleLoadDataEx), ENTRY(cuModuleUnload),
	ENTRY(cuModuleGetFunction), ENTRY(cuFuncSetAttribute),
	ENTRY(cuLaunchKernelEx), ENTRY(cuTensorMapEncodeTiled),
	ENTRY(cuMemAlloc), ENTRY(cuMemFree), ENTRY(cuMemAllocAsync),
	ENTRY(cuMemFreeAsync), ENTRY(cuMemcpyHtoD),
	ENTRY(cuMemcpyDtoH), ENTRY(cuMemsetD8), ENTRY(cuEventCreate),
	ENTRY(cuEventRecord), ENTRY(cuEventSynchronize),
	ENTRY(cuEventElapsedTime), ENTRY(cuEventDestroy),
};
#undef ENTRY

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t bind_lock = PTHREAD_MUTEX_INITIALIZER;
static GlrtRuntime rt = { .ordinal = -1 };
static glrt_status load_status;         /* outcome of the one load */
static char load_message[1024];         /* its error text */
static int load_result;                 /* its driver result */
static _Thread_local CUcontext thread_context;

/* Resolves every entry point through cuGetProcAddress_v2. */
static glrt_status
resolve(void *lib, const char *libname)
{
	PFN_cuGetProcAddress get;
	size_t i;

	get = (PFN_cuGetProcAddress)dlsym(lib, "cuGetProcAddress_v2");
	if (!get)
		return glrt_fail(GLRT_ERROR_NO_DRIVER,
		                 "%s has no cuGetProcAddress_v2: not a CUDA "
		                 "driver, or one older than CUDA 12.0", libname);
	for (i = 0; i < sizeof entries / sizeof entries[0]; i++) {
		void *fn = NULL;
		int found = -1;
		CUresult res = get(entries[i].name, &fn, ABI_VERSION, 0, &found);

		if (res != CUDA_SUCCESS || found != 0 || !fn)
			return glrt_fail(GLRT_ERROR_NO_DRIVER,
			                 "%s: cuGetProcAddress(\"%s\", %d) failed "
			                 "(CUresult %d, symbol status %d): the "
			                 "driver is too old", libname,
			                 entries[i].name, ABI_VERSION, res, found);
		*(void **)((char *)&rt.drv + entries[i].offset) = fn;
	}
	return GLRT_SUCCESS;
}

/* Opens the library, resolves it and calls cuInit(0). */
static glrt_status
load_driver(void)
{
	const char *libname = getenv("GLRT_LIBCUDA");
	glrt_status st;
	void *lib;
	CUresult res;

	if (!libname || !*libname)
		libname = "libcuda.so.1";
	lib = dlopen(libname, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *why = dlerror();

		return glrt_fail(GLRT_ERROR_NO_DRIVER, "%s not found: %s",
		                 libname, why ? why : "dlopen failed");
	}
	st = resolve(lib, libname);
	if (st != GLRT_SUCCESS) {
		dlclose(lib);
		return st;
	}
	res = rt.drv.cuInit(0);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt.drv, res, "cuInit(0)");
	return GLRT_SUCCESS;
}

/* pthread_once routine: load and keep the outcome for every caller. */
static void
load_once_fn(void)
{
	load_status = load_driver();
	if (load_status != GLRT_SUCCESS) {
		snprintf(load_message, sizeof load_message, "%s",
		         glrt_last_error());
		load_result = glrt_last_driver_result();
	}
}

/* Loads the driver once; repeats a failed load's error on this thread. */
static glrt_status
ensure_loaded(void)
{
	pthread_once(&load_once, load_once_fn);
	if (load_status == GLRT_SUCCESS)
		return GLRT_SUCCESS;
	if (load_result != 0)
		return glrt_fail_driver(&rt.drv, load_result, "%s",
		                        "cuInit(0)");
	return glrt_fail(load_status, "%s", load_message);
}

/* Binds the runtime to `ordinal` (called with bind_lock held). */
static glrt_status
bind_device(int ordinal)
{
	const GlrtDriver *d = &rt.drv;
	CUresult res;
	int count = 0;

	if (rt.ordinal >= 0) {
		if (rt.ordinal == ordinal)
			return GLRT_SUCCESS;
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_init_device(%d): the runtime is already "
		                 "bound to device %d", ordinal, rt.ordinal);
	}
	res = d->cuDeviceGetCount(&count);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(d, res, "cuDeviceGetCount");
	if (ordinal >= count)
		return glrt_fail(GLRT_ERROR_NO_DEVICE,
		                 "device %d requested but %d CUDA device%s "
		                 "found", ordinal, count, count == 1 ? "" : "s");
	res = d->cuDeviceGet(&rt.device, ordinal);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(d, res, "cuDeviceGet(%d)", ordinal);
	res = d->cuDeviceGetAttribute(&rt.smem_optin,
	        CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
	        rt.device);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(d, res, "cuDeviceGetAttribute(MAX_"
		                        "SHARED_MEMORY_PER_BLOCK_OPTIN)");
	res = d->cuDevicePrimaryCtxRetain(&rt.context, rt.device);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(d, res, "cuDevicePrimaryCtxRetain(%d)",
		                        ordinal);
	rt.ordinal = ordinal;
	return GLRT_SUCCESS;
}

/* Loads, binds `ordinal` and makes the context current on this thread. */
static glrt_status
init_device(int ordinal)
{
	glrt_status st;
	CUresult res;

	st = ensure_loaded();
	if (st != GLRT_SUCCESS)
		return st;
	pthread_mutex_lock(&bind_lock);
	st = bind_device(ordinal);
	pthread_mutex_unlock(&bind_lock);
	if (st != GLRT_SUCCESS)
		return st;
	if (thread_context != rt.context) {
		res = rt.drv.cuCtxSetCurrent(rt.context);
		if (res != CUDA_SUCCESS)
			return glrt_fail_driver(&rt.drv, res,
			                        "cuCtxSetCurrent");
		thread_context = rt.context;
	}
	return GLRT_SUCCESS;
}

/* The ordinal GLRT_DEVICE names, 0 when unset. */
static glrt_status
env_device(int *ordinal)
{
	const char *s = getenv("GLRT_DEVICE");
	char *end;
	long v;

	*ordinal = 0;
	if (!s || !*s)
		return GLRT_SUCCESS;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 0 || v > 4096)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "GLRT_DEVICE=\"%s\" is not a device ordinal", s);
	*ordinal = (int)v;
	return GLRT_SUCCESS;
}

/*
 * glrt_init: glrt_init_device with GLRT_DEVICE's ordinal.
 */
glrt_status
glrt_init(void)
{
	int ordinal;
	glrt_status st = env_device(&ordinal);

	if (st != GLRT_SUCCESS)
		return st;
	return init_device(ordinal);
}

/*
 * glrt_init_device: checks the ordinal, then loads, binds and makes current.
 */
glrt_status
glrt_init_device(int device)
{
	if (device < 0)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_init_device(%d): negative device ordinal",
		                 device);
	return init_device(device);
}

/*
 * glrt_ready: the fast path is one thread-local compare.
 */
glrt_status
glrt_ready(const GlrtRuntime **out)
{
	glrt_status st;

	if (!thread_context) {
		int ordinal;

		pthread_mutex_lock(&bind_lock);
		ordinal = rt.ordinal;
		pthread_mutex_unlock(&bind_lock);
		st = ordinal >= 0 ? init_device(ordinal) : glrt_init();
		if (st != GLRT_SUCCESS)
			return st;
	}
	*out = &rt;
	return GLRT_SUCCESS;
}
