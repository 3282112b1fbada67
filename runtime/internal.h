/*
 * Shared between libglrt's files: the resolved driver entry points, the
 * runtime's device binding, and the per-thread error reporting. Not
 * installed; glrt.h is the public interface.
 */
#ifndef GLRT_INTERNAL_H
#define GLRT_INTERNAL_H

#include "cuda_abi.h"
#include "glrt.h"

/* The driver entry points, resolved once per process. */
typedef struct GlrtDriver {
	PFN_cuGetErrorName cuGetErrorName;
	PFN_cuGetErrorString cuGetErrorString;
	PFN_cuInit cuInit;
	PFN_cuDeviceGetCount cuDeviceGetCount;
	PFN_cuDeviceGet cuDeviceGet;
	PFN_cuDeviceGetAttribute cuDeviceGetAttribute;
	PFN_cuDevicePrimaryCtxRetain cuDevicePrimaryCtxRetain;
	PFN_cuCtxSetCurrent cuCtxSetCurrent;
	PFN_cuCtxGetCurrent cuCtxGetCurrent;
	PFN_cuCtxSynchronize cuCtxSynchronize;
	PFN_cuModuleLoadData cuModuleLoadData;
	PFN_cuModuleLoadDataEx cuModuleLoadDataEx;
	PFN_cuModuleUnload cuModuleUnload;
	PFN_cuModuleGetFunction cuModuleGetFunction;
	PFN_cuFuncSetAttribute cuFuncSetAttribute;
	PFN_cuLaunchKernelEx cuLaunchKernelEx;
	PFN_cuTensorMapEncodeTiled cuTensorMapEncodeTiled;
	PFN_cuMemAlloc cuMemAlloc;
	PFN_cuMemFree cuMemFree;
	PFN_cuMemAllocAsync cuMemAllocAsync;
	PFN_cuMemFreeAsync cuMemFreeAsync;
	PFN_cuMemcpyHtoD cuMemcpyHtoD;
	PFN_cuMemcpyDtoH cuMemcpyDtoH;
	PFN_cuMemsetD8 cuMemsetD8;
	PFN_cuEventCreate cuEventCreate;
	PFN_cuEventRecord cuEventRecord;
	PFN_cuEventSynchronize cuEventSynchronize;
	PFN_cuEventElapsedTime cuEventElapsedTime;
	PFN_cuEventDestroy cuEventDestroy;
} GlrtDriver;

/* The runtime once bound to its device; immutable afterwards. */
typedef struct GlrtRuntime {
	GlrtDriver drv;
	int ordinal;          /* device ordinal, -1 until bound */
	CUdevice device;
	CUcontext context;    /* the device's retained primary context */
	int smem_optin;       /* MAX_SHARED_MEMORY_PER_BLOCK_OPTIN in bytes */
} GlrtRuntime;

/* Loads the driver and binds the device if not yet done (the device from
 * GLRT_DEVICE, default 0), and makes the runtime's context current on the
 * calling thread if this thread has not had it made current yet. On
 * success *out is the runtime; on failure the error is set. */
glrt_status glrt_ready(const GlrtRuntime **out);

/* Records `fmt` as the thread's last error (no driver result) and returns
 * `status`. */
glrt_status glrt_fail(glrt_status status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Records "<what> failed: NAME (text)" for driver result `res`, with the
 * driver's cuGetErrorName/cuGetErrorString text (drv may be NULL), where
 * <what> is `fmt` formatted; returns the status `res` maps to. */
glrt_status glrt_fail_driver(const GlrtDriver *drv, CUresult res,
                             const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Checks an image against its size and kind before any driver call (see
 * image.c); on failure the error is set. */
glrt_status glrt_check_image(const void *image, size_t size, glrt_image_kind kind);

/* Appends formatted text to the thread's last error (truncating). */
void glrt_error_append(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif
