/*
 * The module and kernel handles, shared by module.c and launch.c.
 */
#ifndef GLRT_MODULE_H
#define GLRT_MODULE_H

#include <pthread.h>

#include "internal.h"

struct glrt_module {
	const GlrtRuntime *rt;
	CUmodule mod;
	pthread_mutex_t lock;   /* guards kernels and each smem_raised */
	glrt_kernel *kernels;   /* looked-up kernels, newest first */
};

struct glrt_kernel {
	glrt_kernel *next;
	glrt_module *module;
	CUfunction fn;
	unsigned smem_raised;   /* MAX_DYNAMIC_SHARED_SIZE_BYTES set so far
	                           (0: never); read atomically */
	char name[];            /* the kernel's name */
};

#endif
