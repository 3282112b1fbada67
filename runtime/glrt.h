/*
 * libglrt: the launch runtime for kernels compiled by glc.
 *
 * It reaches the NVIDIA driver through dlopen("libcuda.so.1") (no CUDA
 * toolkit is needed to build or link it), loads modules from in-memory
 * images (cubin, or PTX for the driver to JIT), builds TMA tensor maps and
 * launches kernels, with clusters and large dynamic shared memory.
 *
 * Every function returns a glrt_status; on failure glrt_last_error() holds a
 * per-thread message naming the call that failed and, for driver failures,
 * the driver's error name and text. Nothing aborts or exits.
 *
 * Functions that take arguments validate them before touching the driver, so
 * a bad argument gives GLRT_ERROR_INVALID_ARGUMENT even with no driver.
 * Every other entry point initializes the runtime on first use (as
 * glrt_init() does) and makes the runtime's context current on the calling
 * thread when that thread has none. All functions are thread-safe.
 *
 * Environment: GLRT_LIBCUDA names the driver library to dlopen instead of
 * "libcuda.so.1"; GLRT_DEVICE picks the device ordinal glrt_init() uses
 * (default 0).
 *
 * C99, C11 and C++ compatible; it declares no CUDA driver type, so it can be
 * included next to cuda.h. Device pointers are glrt_devptr (CUdeviceptr),
 * streams glrt_stream (CUstream, NULL = the default stream).
 */
#ifndef GLRT_H
#define GLRT_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>   /* bool: the C type of a launcher's gl.i1 parameter */
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t glrt_devptr;  /* a CUdeviceptr */

/* -- Statuses -- */

typedef enum glrt_status {
	GLRT_SUCCESS = 0,
	GLRT_ERROR_INVALID_ARGUMENT,  /* rejected before any driver call */
	GLRT_ERROR_NO_DRIVER,         /* libcuda.so.1 missing or unusable */
	GLRT_ERROR_NO_DEVICE,         /* no CUDA device, or bad ordinal */
	GLRT_ERROR_OUT_OF_MEMORY,     /* host or device allocation failed */
	GLRT_ERROR_NOT_FOUND,         /* kernel name not in the module */
	GLRT_ERROR_MODULE_LOAD,       /* neither cubin nor PTX would load */
	GLRT_ERROR_DRIVER             /* any other driver error */
} glrt_status;

/* A static one-line description of a status ("invalid argument", ...);
 * "unknown status" for values outside the enum. */
const char *glrt_status_text(glrt_status status);

/* The calling thread's message for its most recent failed call ("" when
 * none failed yet); successful calls leave it alone. The pointer is to a
 * per-thread buffer that the thread's next failure overwrites. */
const char *glrt_last_error(void);

/* The CUresult of the calling thread's last failed driver call, 0 when the
 * last failure did not come from the driver. */
int glrt_last_driver_result(void);

/* -- Initialization -- */

/* Loads the driver (once per process), calls cuInit(0), retains the primary
 * context of device GLRT_DEVICE (default 0) and makes it current for the
 * calling thread. Safe to call many times and from many threads. */
glrt_status glrt_init(void);

/* As glrt_init() for device ordinal `device`. The runtime serves one device
 * per process: the first one initialized (explicitly, or implicitly by any
 * other call); another ordinal afterwards is an invalid argument. */
glrt_status glrt_init_device(int device);

/* -- Modules and kernels -- */

typedef struct glrt_module glrt_module;  /* a loaded module (heap-owned) */
typedef struct glrt_kernel glrt_kernel;  /* a kernel, owned by its module */

typedef enum glrt_image_kind {
	GLRT_IMAGE_CUBIN = 0,  /* ELF cubin (or fatbin) bytes */
	GLRT_IMAGE_PTX = 1     /* PTX text, JIT-compiled by the driver */
} glrt_image_kind;

/* Loads a module from `size` bytes at `image` into the runtime's context.
 * PTX must be NUL-terminated within `size` bytes (size counts the NUL, or
 * may be 0 for a NUL-terminated string). A PTX JIT failure copies the
 * driver's JIT error log into glrt_last_error(). *out is NULL on failure. */
glrt_status glrt_module_load(glrt_module **out, const void *image, size_t size,
                             glrt_image_kind kind);

/* Unloads a module and frees its kernels; NULL is a no-op. */
glrt_status glrt_module_unload(glrt_module *module);

/* Finds kernel `name` in `module`. Repeated lookups of one name return the
 * same handle, valid until the module is unloaded. */
glrt_status glrt_kernel_get(glrt_kernel **out, glrt_module *module,
                            const char *name);

/*
 * A module loaded on first use. Generated launchers define one per object
 * file as a static with the image fields set and the rest zero:
 *     static glrt_lazy_module mod = { cubin, sizeof cubin, ptx, sizeof ptx };
 * The first glrt_lazy_module_get() loads it under a lock (the cubin first;
 * the PTX when the cubin is absent or the driver rejects it); later calls
 * return the loaded module without locking. A failed load is retried on the
 * next call. Either image may be NULL/0 but not both.
 */
typedef struct glrt_lazy_module {
	const void *cubin;       /* cubin image or NULL */
	size_t cubin_size;
	const char *ptx;         /* NUL-terminated PTX or NULL */
	size_t ptx_size;
	glrt_module *module;     /* set once loaded; runtime-private */
} glrt_lazy_module;

/* A kernel of a lazy module, resolved on first use like the module:
 *     static glrt_lazy_kernel k = { &mod, "name" }; */
typedef struct glrt_lazy_kernel {
	glrt_lazy_module *module;
	const char *name;
	glrt_kernel *kernel;     /* set once resolved; runtime-private */
} glrt_lazy_kernel;

/* Loads `lazy` if not yet loaded and returns its module. */
glrt_status glrt_lazy_module_get(glrt_module **out, glrt_lazy_module *lazy);

/* Loads the module and resolves the kernel if not yet done. */
glrt_status glrt_lazy_kernel_get(glrt_kernel **out, glrt_lazy_kernel *lazy);

/* Records `message` as the calling thread's last error and returns
 * GLRT_ERROR_INVALID_ARGUMENT: what a generated launcher calls when an
 * argument breaks what its kernel requires ("k: x must be 16-byte
 * aligned"). */
glrt_status glrt_invalid_argument(const char *message);

/* -- Launch -- */

typedef void *glrt_stream;  /* a CUstream; NULL is the default stream */

/*
 * Launches `kernel` on `stream` with cuLaunchKernelEx. grid and block give
 * x, y, z (all non-zero; block x, y <= 1024, z <= 64, x*y*z <= 1024; grid
 * y, z <= 65535). cluster is NULL or {0,0,0} for no cluster, otherwise
 * non-zero dims dividing the grid's, at most 8 blocks in all. smem_bytes of
 * dynamic shared memory above 48 KiB first raises the kernel's
 * MAX_DYNAMIC_SHARED_SIZE_BYTES (once per kernel and size); above the
 * device's opt-in limit it is an invalid argument. args is the usual array
 * of pointers to each kernel argument (NULL for a kernel without any).
 */
glrt_status glrt_launch(glrt_kernel *kernel, const unsigned grid[3],
                        const unsigned block[3], const unsigned cluster[3],
                        unsigned smem_bytes, glrt_stream stream, void **args);

/*
 * glrt_launch for a kernel that takes a global scratch buffer as its last
 * argument (one that builds TMA descriptors: tma.make_tensor_descriptor),
 * scratch_bytes (non-zero) per program. The runtime allocates
 * grid[0] * grid[1] * grid[2] * scratch_bytes bytes on `stream`
 * (cuMemAllocAsync, so each launch has its own and launches on other
 * streams do not share it), stores the address in *scratch, which the last
 * entry of args points to, launches, and frees the buffer on `stream` after
 * the kernel (cuMemFreeAsync). Checked like glrt_launch; a failed launch
 * frees the buffer too.
 */
glrt_status glrt_launch_scratch(glrt_kernel *kernel, const unsigned grid[3],
                                const unsigned block[3], const unsigned cluster[3],
                                unsigned smem_bytes, glrt_stream stream, void **args,
                                size_t scratch_bytes, glrt_devptr *scratch);

/* -- TMA tensor maps -- */

/* A TMA descriptor: the driver's CUtensorMap (128 opaque bytes, 64-byte
 * aligned), which kernels receive by value (a __grid_constant__ parameter),
 * and the tensor's global shape, which the encoders below record and glc's
 * launchers pass to the kernel for its bounds. Build it only with
 * glrt_tensor_map_encode_tiled or glrt_tensor_map_encode_nvmma. */
#if defined(__cplusplus) && __cplusplus >= 201103L
#define GLRT_ALIGN64 alignas(64)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define GLRT_ALIGN64 _Alignas(64)
#else
#define GLRT_ALIGN64 __attribute__((aligned(64)))
#endif
typedef struct glrt_tensor_map {
	GLRT_ALIGN64 uint64_t opaque[16];  /* the CUtensorMap the kernel receives */
	uint32_t rank;       /* recorded by the encoders; 0: not encoded */
	uint32_t shape[5];   /* the global shape, tensor order (dim 0 outermost) */
} glrt_tensor_map;

/* Element types; the values are CUtensorMapDataType's. f8 types use U8. */
typedef enum glrt_tma_dtype {
	GLRT_TMA_U8 = 0,
	GLRT_TMA_U16 = 1,
	GLRT_TMA_U32 = 2,
	GLRT_TMA_I32 = 3,
	GLRT_TMA_U64 = 4,
	GLRT_TMA_I64 = 5,
	GLRT_TMA_F16 = 6,
	GLRT_TMA_F32 = 7,
	GLRT_TMA_F64 = 8,
	GLRT_TMA_BF16 = 9,
	GLRT_TMA_F32_FTZ = 10,
	GLRT_TMA_TF32 = 11,
	GLRT_TMA_TF32_FTZ = 12
} glrt_tma_dtype;

typedef enum glrt_oob_fill {
	GLRT_OOB_ZERO = 0,  /* out-of-bounds elements read as zero */
	GLRT_OOB_NAN = 1    /* ... as NaN (floating-point types only) */
} glrt_oob_fill;

/* Bytes per element of `dtype`, 0 for a value outside the enum. */
unsigned glrt_tma_dtype_size(glrt_tma_dtype dtype);

/*
 * cuTensorMapEncodeTiled with its rules checked first. Dimensions are in
 * TMA order: dim 0 is the contiguous one. rank is 1..5; global_address is
 * 16-byte aligned; global_dims[rank] are in 1..2^32; global_strides[rank-1]
 * are the byte strides of dims 1..rank-1, multiples of 16 below 2^40;
 * box_dims[rank] are in 1..256 with box_dims[0] * element size a multiple of
 * 16 bytes; element_strides[rank] (NULL = all 1) are in 1..8; swizzle_bytes
 * is 0, 32, 64 or 128 and, when not 0, box_dims[0] * element size is at most
 * swizzle_bytes; l2_promotion_bytes is 0, 64, 128 or 256. No interleave.
 */
glrt_status glrt_tensor_map_encode_tiled(
	glrt_tensor_map *map, glrt_tma_dtype dtype, unsigned rank,
	glrt_devptr global_address, const uint64_t *global_dims,
	const uint64_t *global_strides, const uint32_t *box_dims,
	const uint32_t *element_strides, unsigned swizzle_bytes,
	unsigned l2_promotion_bytes, glrt_oob_fill oob_fill);

/* Gluon's NVMMASharedLayout, as far as a TMA descriptor needs it. */
typedef struct glrt_nvmma_layout {
	unsigned swizzle_bytes;     /* 0, 32, 64 or 128 */
	unsigned element_bitwidth;  /* 8, 16, 32 or 64; must match dtype */
	int transposed;             /* non-zero: dim 0 is contiguous (rank 2) */
} glrt_nvmma_layout;

/*
 * Builds the tensor map that glc's generated launchers pass for a
 * gl.tensor_desc with an NVMMASharedLayout, as Gluon's host
 * TensorDescriptor does. shape, strides and block_shape list dims in tensor
 * order (dim 0 outermost); strides are in elements and the contiguous dim
 * (the last, or dim 0 when transposed) has stride 1. The box is the block
 * shape with each dim clamped to 256 and, when swizzled, the contiguous dim
 * set to one swizzle row (8 * swizzle_bytes / element_bitwidth elements,
 * which the block's contiguous dim must reach). L2 promotion is 128 bytes.
 */
glrt_status glrt_tensor_map_encode_nvmma(
	glrt_tensor_map *map, glrt_tma_dtype dtype, unsigned rank,
	glrt_devptr base, const uint64_t *shape, const uint64_t *strides,
	const uint32_t *block_shape, const glrt_nvmma_layout *layout,
	glrt_oob_fill oob_fill);

/* -- Memory, synchronization, device queries, events -- */

/* cuMemAlloc: *out is 0 on failure; bytes must be non-zero. */
glrt_status glrt_malloc(glrt_devptr *out, size_t bytes);

/* cuMemFree; 0 is a no-op. */
glrt_status glrt_free(glrt_devptr ptr);

/* Synchronous copies (cuMemcpyHtoD / cuMemcpyDtoH); bytes may be 0. */
glrt_status glrt_memcpy_htod(glrt_devptr dst, const void *src, size_t bytes);
glrt_status glrt_memcpy_dtoh(void *dst, glrt_devptr src, size_t bytes);

/* cuMemsetD8: sets `bytes` bytes at dst to `value` (handy for poisoning
 * outputs before a test). */
glrt_status glrt_memset_d8(glrt_devptr dst, unsigned char value, size_t bytes);

/* cuCtxSynchronize on the runtime's context. */
glrt_status glrt_synchronize(void);

/* Device attributes; the values are CUdevice_attribute's, and any other
 * CUdevice_attribute value may be passed as well. */
typedef enum glrt_attribute {
	GLRT_ATTR_MAX_THREADS_PER_BLOCK = 1,
	GLRT_ATTR_MAX_SMEM_PER_BLOCK = 8,
	GLRT_ATTR_SM_COUNT = 16,
	GLRT_ATTR_CC_MAJOR = 75,
	GLRT_ATTR_CC_MINOR = 76,
	GLRT_ATTR_MAX_SMEM_PER_BLOCK_OPTIN = 97
} glrt_attribute;

/* cuDeviceGetAttribute for the runtime's device. */
glrt_status glrt_device_attribute(int attribute, int *value);

typedef void *glrt_event;  /* a CUevent */

/* cuEventCreate with default flags (timing enabled). */
glrt_status glrt_event_create(glrt_event *out);

/* cuEventRecord on `stream`. */
glrt_status glrt_event_record(glrt_event event, glrt_stream stream);

/* Waits for `end`, then the milliseconds between two recorded events. */
glrt_status glrt_event_elapsed_ms(float *ms, glrt_event start, glrt_event end);

/* cuEventDestroy; NULL is a no-op. */
glrt_status glrt_event_destroy(glrt_event event);

#ifdef __cplusplus
}
#endif

#endif
