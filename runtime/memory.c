/*
 * Thin helpers for test programs and examples: device memory, copies,
 * synchronization, device attributes and event timing.
 */
#include "internal.h"

/*
 * glrt_malloc: cuMemAlloc.
 */
glrt_status
glrt_malloc(glrt_devptr *out, size_t bytes)
{
	const GlrtRuntime *rt;
	glrt_status st;
	CUdeviceptr p = 0;
	CUresult res;

	if (!out)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_malloc: out is NULL");
	*out = 0;
	if (bytes == 0)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_malloc: size is 0");
	st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	res = rt->drv.cuMemAlloc(&p, bytes);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuMemAlloc(%zu)", bytes);
	*out = p;
	return GLRT_SUCCESS;
}

/*
 * glrt_free: cuMemFree.
 */
glrt_status
glrt_free(glrt_devptr ptr)
{
	const GlrtRuntime *rt;
	glrt_status st;
	CUresult res;

	if (ptr == 0)
		return GLRT_SUCCESS;
	st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	res = rt->drv.cuMemFree(ptr);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuMemFree(0x%llx)",
		                        (unsigned long long)ptr);
	return GLRT_SUCCESS;
}

/* The checks shared by the copies: non-NULL ends unless bytes is 0. */
static glrt_status
check_copy(const char *fn, uint64_t dev, const void *host, size_t bytes)
{
	if (bytes && (!dev || !host))
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "%s: %s pointer is NULL for %zu bytes", fn,
		                 !dev ? "device" : "host", bytes);
	return GLRT_SUCCESS;
}

/*
 * glrt_memcpy_htod: cuMemcpyHtoD.
 */
glrt_status
glrt_memcpy_htod(glrt_devptr dst, const void *src, size_t bytes)
{
	const GlrtRuntime *rt;
	glrt_status st;
	CUresult res;

	st = check_copy("glrt_memcpy_htod", dst, src, bytes);
	if (st != GLRT_SUCCESS || bytes == 0)
		return st;
	st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	res = rt->drv.cuMemcpyHtoD(dst, src, bytes);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuMemcpyHtoD(%zu bytes)",
		                        bytes);
	return GLRT_SUCCESS;
}

/*
 * glrt_memcpy_dtoh: cuMemcpyDtoH.
 */
glrt_status
glrt_memcpy_dtoh(void *dst, glrt_devptr src, size_t bytes)
{
	const GlrtRuntime *rt;
	glrt_status st;
	CUresult res;

	st = check_copy("glrt_memcpy_dtoh", src, dst, bytes);
	if (st != GLRT_SUCCESS || bytes == 0)
		return st;
	st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	res = rt->drv.cuMemcpyDtoH(dst, src, bytes);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuMemcpyDtoH(%zu bytes)",
		                        bytes);
	return GLRT_SUCCESS;
}

/*
 * glrt_memset_d8: cuMemsetD8.
 */
glrt_status
glrt_memset_d8(glrt_devptr dst, unsigned char value, size_t bytes)
{
	const GlrtRuntime *rt;
	glrt_status st;
	CUresult res;

	if (bytes && !dst)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_memset_d8: device pointer is NULL for "
		                 "%zu bytes", bytes);
	if (bytes == 0)
		return GLRT_SUCCESS;
	st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	res = rt->drv.cuMemsetD8(dst, value, bytes);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuMemsetD8(%zu bytes)",
		                        bytes);
	return GLRT_SUCCESS;
}

/*
 * glrt_synchronize: cuCtxSynchronize.
 */
glrt_status
glrt_synchronize(void)
{
	const GlrtRuntime *rt;
	glrt_status st;
	CUresult res;

	st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	res = rt->drv.cuCtxSynchronize();
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuCtxSynchronize");
	return GLRT_SUCCESS;
}

/*
 * glrt_device_attribute: cuDeviceGetAttribute on the runtime's device.
 */
glrt_status
glrt_device_attribute(int attribute, int *value)
{
	const GlrtRuntime *rt;
	glrt_status st;
	CUresult res;

	if (!value || attribute <= 0)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_device_attribute: %s", !value ?
		                 "value is NULL" : "attribute is not positive");
	st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	res = rt->drv.cuDeviceGetAttribute(value, attribute, rt->device);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res,
		                        "cuDeviceGetAttribute(%d)", attribute);
	return GLRT_SUCCESS;
}

/*
 * glrt_event_create: cuEventCreate(CU_EVENT_DEFAULT).
 */
glrt_status
glrt_event_create(glrt_event *out)
{
	const GlrtRuntime *rt;
	glrt_status st;
	CUevent ev = NULL;
	CUresult res;

	if (!out)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_event_create: out is NULL");
	*out = NULL;
	st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	res = rt->drv.cuEventCreate(&ev, 0);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuEventCreate");
	*out = ev;
	return GLRT_SUCCESS;
}

/*
 * glrt_event_record: cuEventRecord.
 */
glrt_status
glrt_event_record(glrt_event event, glrt_stream stream)
{
	const GlrtRuntime *rt;
	glrt_status st;
	CUresult res;

	if (!event)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_event_record: event is NULL");
	st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	res = rt->drv.cuEventRecord((CUevent)event, (CUstream)stream);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuEventRecord");
	return GLRT_SUCCESS;
}

/*
 * glrt_event_elapsed_ms: cuEventSynchronize(end), cuEventElapsedTime.
 */
glrt_status
glrt_event_elapsed_ms(float *ms, glrt_event start, glrt_event end)
{
	const GlrtRuntime *rt;
	glrt_status st;
	CUresult res;

	if (!ms || !start || !end)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_event_elapsed_ms: %s is NULL", !ms ? "ms" :
		                 !start ? "start" : "end");
	st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	res = rt->drv.cuEventSynchronize((CUevent)end);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuEventSynchronize");
	res = rt->drv.cuEventElapsedTime(ms, (CUevent)start, (CUevent)end);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuEventElapsedTime");
	return GLRT_SUCCESS;
}

/*
 * glrt_event_destroy: cuEventDestroy.
 */
glrt_status
glrt_event_destroy(glrt_event event)
{
	const GlrtRuntime *rt;
	glrt_status st;
	CUresult res;

	if (!event)
		return GLRT_SUCCESS;
	st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	res = rt->drv.cuEventDestroy((CUevent)event);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuEventDestroy");
	return GLRT_SUCCESS;
}
