/*
 * Kernel launch through cuLaunchKernelEx, with its arguments checked first,
 * and for kernels that take a global scratch buffer, the buffer allocated
 * and freed in stream order around the launch.
 */
#include <stdint.h>
#include <string.h>

#include "module.h"

/* Dynamic shared memory above this needs the kernel's opt-in attribute. */
enum { SMEM_DEFAULT_LIMIT = 48 * 1024 };

/* The portable maximum of blocks per cluster. */
enum { CLUSTER_MAX_BLOCKS = 8 };

static const char axis[3] = { 'x', 'y', 'z' };

/* Checks grid, block and cluster; *clustered says whether a cluster is
 * requested. */
static glrt_status
check_shape(const unsigned grid[3], const unsigned block[3],
            const unsigned cluster[3], int *clustered)
{
	static const unsigned grid_max[3] = { 0x7fffffffu, 65535, 65535 };
	static const unsigned block_max[3] = { 1024, 1024, 64 };
	unsigned long long threads = 1, blocks = 1;
	int i;

	if (!grid || !block)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_launch: %s is NULL", !grid ? "grid" :
		                 "block");
	for (i = 0; i < 3; i++) {
		if (grid[i] == 0 || grid[i] > grid_max[i])
			return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
			                 "glrt_launch: grid %c dimension %u is "
			                 "outside 1..%u", axis[i], grid[i],
			                 grid_max[i]);
		if (block[i] == 0 || block[i] > block_max[i])
			return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
			                 "glrt_launch: block %c dimension %u is "
			                 "outside 1..%u", axis[i], block[i],
			                 block_max[i]);
		threads *= block[i];
	}
	if (threads > 1024)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_launch: block %ux%ux%u has %llu threads, "
		                 "more than 1024", block[0], block[1], block[2],
		                 threads);
	*clustered = cluster && (cluster[0] | cluster[1] | cluster[2]);
	if (!*clustered)
		return GLRT_SUCCESS;
	for (i = 0; i < 3; i++) {
		if (cluster[i] == 0 || grid[i] % cluster[i] != 0)
			return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
			                 "glrt_launch: cluster %c dimension %u "
			                 "does not divide grid %c dimension %u",
			                 axis[i], cluster[i], axis[i], grid[i]);
		blocks *= cluster[i];
	}
	if (blocks > CLUSTER_MAX_BLOCKS)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_launch: cluster %ux%ux%u has %llu blocks, "
		                 "more than the portable maximum of %d",
		                 cluster[0], cluster[1], cluster[2], blocks,
		                 CLUSTER_MAX_BLOCKS);
	return GLRT_SUCCESS;
}

/* Raises the kernel's dynamic shared memory limit to `bytes` unless a
 * launch already raised it at least that far. */
static glrt_status
raise_smem(const GlrtDriver *d, glrt_kernel *k, unsigned bytes)
{
	glrt_status st = GLRT_SUCCESS;
	CUresult res;

	if (__atomic_load_n(&k->smem_raised, __ATOMIC_ACQUIRE) >= bytes)
		return GLRT_SUCCESS;
	pthread_mutex_lock(&k->module->lock);
	if (k->smem_raised < bytes) {
		res = d->cuFuncSetAttribute(k->fn,
		        CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
		        (int)bytes);
		if (res == CUDA_SUCCESS)
			__atomic_store_n(&k->smem_raised, bytes,
			                 __ATOMIC_RELEASE);
		else
			st = glrt_fail_driver(d, res, "cuFuncSetAttribute(\"%s\", "
			                      "MAX_DYNAMIC_SHARED_SIZE_BYTES, %u)",
			                      k->name, bytes);
	}
	pthread_mutex_unlock(&k->module->lock);
	return st;
}

/*
 * glrt_launch: check everything, raise the smem limit, launch.
 */
glrt_status
glrt_launch(glrt_kernel *kernel, const unsigned grid[3],
            const unsigned block[3], const unsigned cluster[3],
            unsigned smem_bytes, glrt_stream stream, void **args)
{
	const GlrtRuntime *rt;
	CUlaunchAttribute attr;
	CUlaunchConfig cfg;
	glrt_status st;
	int clustered;
	CUresult res;

	st = check_shape(grid, block, cluster, &clustered);
	if (st != GLRT_SUCCESS)
		return st;
	if (!kernel)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_launch: kernel is NULL");
	rt = kernel->module->rt;
	if (smem_bytes > (unsigned)rt->smem_optin)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_launch: %u bytes of dynamic shared memory "
		                 "for \"%s\" exceed the device's limit of %d",
		                 smem_bytes, kernel->name, rt->smem_optin);
	st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	if (smem_bytes > SMEM_DEFAULT_LIMIT) {
		st = raise_smem(&rt->drv, kernel, smem_bytes);
		if (st != GLRT_SUCCESS)
			return st;
	}
	memset(&cfg, 0, sizeof cfg);
	cfg.gridDimX = grid[0];
	cfg.gridDimY = grid[1];
	cfg.gridDimZ = grid[2];
	cfg.blockDimX = block[0];
	cfg.blockDimY = block[1];
	cfg.blockDimZ = block[2];
	cfg.sharedMemBytes = smem_bytes;
	cfg.hStream = (CUstream)stream;
	if (clustered) {
		memset(&attr, 0, sizeof attr);
		attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
		attr.value.clusterDim.x = cluster[0];
		attr.value.clusterDim.y = cluster[1];
		attr.value.clusterDim.z = cluster[2];
		cfg.attrs = &attr;
		cfg.numAttrs = 1;
	}
	res = rt->drv.cuLaunchKernelEx(&cfg, kernel->fn, args, NULL);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuLaunchKernelEx(\"%s\", "
		                        "grid %ux%ux%u, block %ux%ux%u, smem %u)",
		                        kernel->name, grid[0], grid[1], grid[2],
		                        block[0], block[1], block[2], smem_bytes);
	return GLRT_SUCCESS;
}

/*
 * glrt_launch_scratch: the buffer lives from before the launch to after the
 * kernel, in stream order.
 */
glrt_status
glrt_launch_scratch(glrt_kernel *kernel, const unsigned grid[3],
                    const unsigned block[3], const unsigned cluster[3],
                    unsigned smem_bytes, glrt_stream stream, void **args,
                    size_t scratch_bytes, glrt_devptr *scratch)
{
	const GlrtRuntime *rt;
	CUdeviceptr p = 0;
	glrt_status st;
	CUresult res;
	size_t bytes;
	int clustered;

	if (!scratch || !args || scratch_bytes == 0)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_launch_scratch: %s", !scratch ? "scratch is NULL" :
		                 !args ? "args is NULL" : "scratch_bytes is 0");
	st = check_shape(grid, block, cluster, &clustered);
	if (st != GLRT_SUCCESS)
		return st;
	if (!kernel)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_launch_scratch: kernel is NULL");
	bytes = (size_t)grid[0] * grid[1] * grid[2];
	if (bytes > SIZE_MAX / scratch_bytes)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_launch_scratch: %zu bytes per program for "
		                 "%ux%ux%u programs overflow", scratch_bytes,
		                 grid[0], grid[1], grid[2]);
	bytes *= scratch_bytes;
	st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	res = rt->drv.cuMemAllocAsync(&p, bytes, (CUstream)stream);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuMemAllocAsync(%zu) for the "
		                        "global scratch of \"%s\"", bytes,
		                        kernel->name);
	*scratch = p;
	st = glrt_launch(kernel, grid, block, cluster, smem_bytes, stream, args);
	res = rt->drv.cuMemFreeAsync(p, (CUstream)stream);
	if (res != CUDA_SUCCESS && st == GLRT_SUCCESS)
		return glrt_fail_driver(&rt->drv, res, "cuMemFreeAsync(0x%llx)",
		                        (unsigned long long)p);
	return st;
}
