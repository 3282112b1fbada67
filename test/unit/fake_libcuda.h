/*
 * A fake CUDA driver for test_runtime_fake: a shared library exporting
 * cuGetProcAddress_v2 (handing out its own entry points) and fake_cuda(),
 * which gives the test the state its entry points record and obey.
 * "Device memory" is host memory; modules, kernels and events are tokens.
 */
#ifndef FAKE_LIBCUDA_H
#define FAKE_LIBCUDA_H

#include "runtime/cuda_abi.h"

typedef struct FakeCuda {
	/* Results to return (0 = succeed). */
	int init_result, launch_result, encode_result, set_attr_result;
	int alloc_async_result;
	int device_count, smem_optin;
	/* What the runtime did. */
	int proc_version;          /* cudaVersion of the last lookup */
	int ctx_set_calls, loads_cubin, loads_ptx, live_modules;
	int set_attr_calls, set_attr_value, launches, encodes;
	CUlaunchConfig launch;     /* the last launch's config ... */
	CUlaunchAttribute attr;    /* ... its first attribute */
	void **launch_args;
	/* the first capture_args arguments of each launch, 8 bytes each
	 * (the caller sets capture_args, at most 4) */
	int capture_args;
	uint64_t arg_words[4];
	/* stream-ordered allocations: count, the last one's size, stream and
	 * address; frees and the last one's address and stream */
	int allocs_async, frees_async;
	size_t alloc_async_bytes;
	CUstream alloc_async_stream, free_async_stream;
	CUdeviceptr alloc_async_ptr, free_async_ptr;
	struct {
		int dtype, interleave, swizzle, l2, oob;
		uint32_t rank, box[5], estrides[5];
		uint64_t addr, dims[5], strides[4];
	} enc;                     /* the last encode's parameters */
} FakeCuda;

FakeCuda *fake_cuda(void);
CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version,
                             uint64_t flags, int *status);

#endif
