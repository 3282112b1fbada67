/*
 * The slice of the CUDA driver ABI that libglrt uses, declared here so the
 * runtime builds without cuda.h. Values and layouts are those of CUDA 13.0's
 * cuda.h; the function types are the driver's CUDA 12.0 entry points, which
 * driver.c asks cuGetProcAddress for by that version.
 */
#ifndef GLRT_CUDA_ABI_H
#define GLRT_CUDA_ABI_H

#include <stddef.h>
#include <stdint.h>

typedef int CUresult;
typedef int CUdevice;
typedef uint64_t CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;

enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_INVALID_DEVICE = 101,
	CUDA_ERROR_INVALID_IMAGE = 200,
	CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
	CUDA_ERROR_INVALID_PTX = 218,
	CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
	CUDA_ERROR_NOT_FOUND = 500
};

/* CUdevice_attribute */
enum {
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97
};

/* CUfunction_attribute */
enum {
	CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
};

/* CUjit_option */
typedef int CUjit_option;
enum {
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
};

/* CUlaunchAttributeID */
enum {
	CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4
};

/* CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion and
 * CUtensorMapFloatOOBfill (CUtensorMapDataType is glrt_tma_dtype). */
enum {
	CU_TENSOR_MAP_INTERLEAVE_NONE = 0
};
enum {
	CU_TENSOR_MAP_SWIZZLE_NONE = 0,
	CU_TENSOR_MAP_SWIZZLE_32B = 1,
	CU_TENSOR_MAP_SWIZZLE_64B = 2,
	CU_TENSOR_MAP_SWIZZLE_128B = 3
};
enum {
	CU_TENSOR_MAP_L2_PROMOTION_NONE = 0,
	CU_TENSOR_MAP_L2_PROMOTION_L2_64B = 1,
	CU_TENSOR_MAP_L2_PROMOTION_L2_128B = 2,
	CU_TENSOR_MAP_L2_PROMOTION_L2_256B = 3
};
enum {
	CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0,
	CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA = 1
};

/* CUlaunchAttributeValue: a 64-byte union; only clusterDim is used. */
typedef union CUlaunchAttributeValue {
	char pad[64];
	struct {
		unsigned int x, y, z;
	} clusterDim;
} CUlaunchAttributeValue;

/* CUlaunchAttribute: a 4-byte id padded to 8, then the value. */
typedef struct CUlaunchAttribute {
	int id;
	char pad[8 - sizeof(int)];
	CUlaunchAttributeValue value;
} CUlaunchAttribute;

typedef struct CUlaunchConfig {
	unsigned int gridDimX, gridDimY, gridDimZ;
	unsigned int blockDimX, blockDimY, blockDimZ;
	unsigned int sharedMemBytes;
	CUstream hStream;
	CUlaunchAttribute *attrs;
	unsigned int numAttrs;
} CUlaunchConfig;

/* cuGetProcAddress_v2 (CUDA 12.0+): flags 0 = CU_GET_PROC_ADDRESS_DEFAULT;
 * *symbolStatus 0 = found. */
typedef CUresult (*PFN_cuGetProcAddress)(const char *symbol, void **pfn,
                                         int cudaVersion, uint64_t flags,
                                         int *symbolStatus);

/* The entry points, by their unversioned names. */
typedef CUresult (*PFN_cuGetErrorName)(CUresult, const char **);
typedef CUresult (*PFN_cuGetErrorString)(CUresult, const char **);
typedef CUresult (*PFN_cuInit)(unsigned int);
typedef CUresult (*PFN_cuDeviceGetCount)(int *);
typedef CUresult (*PFN_cuDeviceGet)(CUdevice *, int);
typedef CUresult (*PFN_cuDeviceGetAttribute)(int *, int, CUdevice);
typedef CUresult (*PFN_cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
typedef CUresult (*PFN_cuCtxSetCurrent)(CUcontext);
typedef CUresult (*PFN_cuCtxGetCurrent)(CUcontext *);
typedef CUresult (*PFN_cuCtxSynchronize)(void);
typedef CUresult (*PFN_cuModuleLoadData)(CUmodule *, const void *);
typedef CUresult (*PFN_cuModuleLoadDataEx)(CUmodule *, const void *,
                                           unsigned int, CUjit_option *,
                                           void **);
typedef CUresult (*PFN_cuModuleUnload)(CUmodule);
typedef CUresult (*PFN_cuModuleGetFunction)(CUfunction *, CUmodule,
                                            const char *);
typedef CUresult (*PFN_cuFuncSetAttribute)(CUfunction, int, int);
typedef CUresult (*PFN_cuLaunchKernelEx)(const CUlaunchConfig *, CUfunction,
                                         void **, void **);
typedef CUresult (*PFN_cuTensorMapEncodeTiled)(
	void *tensorMap, int dataType, uint32_t rank, void *globalAddress,
	const uint64_t *globalDim, const uint64_t *globalStrides,
	const uint32_t *boxDim, const uint32_t *elementStrides, int interleave,
	int swizzle, int l2Promotion, int oobFill);
typedef CUresult (*PFN_cuMemAlloc)(CUdeviceptr *, size_t);
typedef CUresult (*PFN_cuMemFree)(CUdeviceptr);
typedef CUresult (*PFN_cuMemAllocAsync)(CUdeviceptr *, size_t, CUstream);
typedef CUresult (*PFN_cuMemFreeAsync)(CUdeviceptr, CUstream);
typedef CUresult (*PFN_cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
typedef CUresult (*PFN_cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
typedef CUresult (*PFN_cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
typedef CUresult (*PFN_cuEventCreate)(CUevent *, unsigned int);
typedef CUresult (*PFN_cuEventRecord)(CUevent, CUstream);
typedef CUresult (*PFN_cuEventSynchronize)(CUevent);
typedef CUresult (*PFN_cuEventElapsedTime)(float *, CUevent, CUevent);
typedef CUresult (*PFN_cuEventDestroy)(CUevent);

#endif
