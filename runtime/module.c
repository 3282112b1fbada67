/*
 * Modules and kernels: loading images, looking up kernels, and the lazily
 * loaded modules and kernels that generated launchers use.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module.h"

/* Size of the buffer for the driver's PTX JIT error log. */
enum { JIT_LOG_BYTES = 8192 };

/* Serializes first loads of lazy modules. */
static pthread_mutex_t lazy_lock = PTHREAD_MUTEX_INITIALIZER;

/* The driver status of a failed load, as GLRT_ERROR_MODULE_LOAD unless it
 * is a more specific one (out of memory, no device). */
static glrt_status
load_failure(glrt_status st)
{
	return st == GLRT_ERROR_DRIVER || st == GLRT_ERROR_NOT_FOUND ?
	       GLRT_ERROR_MODULE_LOAD : st;
}

/* cuModuleLoadDataEx on PTX with the JIT error log copied into the error. */
static glrt_status
load_ptx(const GlrtDriver *d, CUmodule *mod, const void *ptx)
{
	char *log = calloc(1, JIT_LOG_BYTES);
	CUjit_option opts[2] = { CU_JIT_ERROR_LOG_BUFFER,
	                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *vals[2] = { log, (void *)(uintptr_t)JIT_LOG_BYTES };
	glrt_status st = GLRT_SUCCESS;
	CUresult res;

	res = d->cuModuleLoadDataEx(mod, ptx, log ? 2 : 0, opts, vals);
	if (res != CUDA_SUCCESS) {
		st = load_failure(glrt_fail_driver(d, res,
		        "cuModuleLoadDataEx (PTX JIT)"));
		if (log && log[0]) {
			log[JIT_LOG_BYTES - 1] = 0;
			glrt_error_append("; JIT log: %s", log);
		}
	}
	free(log);
	return st;
}

/*
 * glrt_module_load: check, load into the runtime's context, wrap.
 */
glrt_status
glrt_module_load(glrt_module **out, const void *image, size_t size,
                 glrt_image_kind kind)
{
	const GlrtRuntime *rt;
	glrt_module *m;
	glrt_status st;
	CUmodule mod;
	CUresult res;

	if (!out)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_module_load: out is NULL");
	*out = NULL;
	st = glrt_check_image(image, size, kind);
	if (st != GLRT_SUCCESS)
		return st;
	st = glrt_ready(&rt);
	if (st != GLRT_SUCCESS)
		return st;
	if (kind == GLRT_IMAGE_PTX) {
		st = load_ptx(&rt->drv, &mod, image);
	} else {
		res = rt->drv.cuModuleLoadData(&mod, image);
		if (res != CUDA_SUCCESS)
			st = load_failure(glrt_fail_driver(&rt->drv, res,
			        "cuModuleLoadData (cubin)"));
	}
	if (st != GLRT_SUCCESS)
		return st;
	m = calloc(1, sizeof *m);
	if (!m) {
		rt->drv.cuModuleUnload(mod);
		return glrt_fail(GLRT_ERROR_OUT_OF_MEMORY,
		                 "glrt_module_load: out of host memory");
	}
	m->rt = rt;
	m->mod = mod;
	pthread_mutex_init(&m->lock, NULL);
	*out = m;
	return GLRT_SUCCESS;
}

/*
 * glrt_module_unload: frees the kernels, then unloads.
 */
glrt_status
glrt_module_unload(glrt_module *module)
{
	const GlrtDriver *d;
	glrt_kernel *k, *next;
	CUresult res;

	if (!module)
		return GLRT_SUCCESS;
	d = &module->rt->drv;
	for (k = module->kernels; k; k = next) {
		next = k->next;
		free(k);
	}
	res = d->cuModuleUnload(module->mod);
	pthread_mutex_destroy(&module->lock);
	free(module);
	if (res != CUDA_SUCCESS)
		return glrt_fail_driver(d, res, "cuModuleUnload");
	return GLRT_SUCCESS;
}

/*
 * glrt_kernel_get: a lookup in the module's list, else cuModuleGetFunction.
 */
glrt_status
glrt_kernel_get(glrt_kernel **out, glrt_module *module, const char *name)
{
	const GlrtDriver *d;
	glrt_status st = GLRT_SUCCESS;
	glrt_kernel *k;
	size_t len;
	CUresult res;

	if (!out)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_kernel_get: out is NULL");
	*out = NULL;
	if (!module || !name || !*name)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_kernel_get: %s",
		                 !module ? "module is NULL" : "empty kernel name");
	d = &module->rt->drv;
	pthread_mutex_lock(&module->lock);
	for (k = module->kernels; k; k = k->next)
		if (strcmp(k->name, name) == 0)
			break;
	if (!k) {
		len = strlen(name);
		k = calloc(1, sizeof *k + len + 1);
		if (!k) {
			st = glrt_fail(GLRT_ERROR_OUT_OF_MEMORY,
			               "glrt_kernel_get: out of host memory");
		} else {
			memcpy(k->name, name, len + 1);
			res = d->cuModuleGetFunction(&k->fn, module->mod, name);
			if (res != CUDA_SUCCESS) {
				st = glrt_fail_driver(d, res,
				        "cuModuleGetFunction(\"%s\")", name);
				free(k);
				k = NULL;
			} else {
				k->module = module;
				k->next = module->kernels;
				module->kernels = k;
			}
		}
	}
	pthread_mutex_unlock(&module->lock);
	*out = k;
	return st;
}

/* Loads a lazy module's images: the cubin, then the PTX if the cubin is
 * absent or rejected; the error names both failures. */
static glrt_status
load_lazy(glrt_module **out, const glrt_lazy_module *lazy)
{
	char cubin_error[1024] = "";
	glrt_status st = GLRT_ERROR_MODULE_LOAD;

	if (lazy->cubin) {
		st = glrt_module_load(out, lazy->cubin, lazy->cubin_size,
		                      GLRT_IMAGE_CUBIN);
		if (st == GLRT_SUCCESS || !lazy->ptx ||
		    (st != GLRT_ERROR_MODULE_LOAD &&
		     st != GLRT_ERROR_INVALID_ARGUMENT))
			return st;
		snprintf(cubin_error, sizeof cubin_error, "%s",
		         glrt_last_error());
	}
	st = glrt_module_load(out, lazy->ptx, lazy->ptx_size, GLRT_IMAGE_PTX);
	if (st != GLRT_SUCCESS && cubin_error[0]) {
		char ptx_error[2048];

		snprintf(ptx_error, sizeof ptx_error, "%s", glrt_last_error());
		glrt_fail(st, "cubin: %s; PTX fallback: %s", cubin_error,
		          ptx_error);
	}
	return st;
}

/*
 * glrt_lazy_module_get: double-checked load under lazy_lock.
 */
glrt_status
glrt_lazy_module_get(glrt_module **out, glrt_lazy_module *lazy)
{
	glrt_module *m;
	glrt_status st = GLRT_SUCCESS;

	if (!out)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_lazy_module_get: out is NULL");
	*out = NULL;
	if (!lazy || (!lazy->cubin && !lazy->ptx))
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_lazy_module_get: %s", !lazy ?
		                 "lazy module is NULL" :
		                 "lazy module has neither a cubin nor PTX");
	m = __atomic_load_n(&lazy->module, __ATOMIC_ACQUIRE);
	if (!m) {
		pthread_mutex_lock(&lazy_lock);
		m = __atomic_load_n(&lazy->module, __ATOMIC_ACQUIRE);
		if (!m) {
			st = load_lazy(&m, lazy);
			if (st == GLRT_SUCCESS)
				__atomic_store_n(&lazy->module, m,
				                 __ATOMIC_RELEASE);
		}
		pthread_mutex_unlock(&lazy_lock);
	}
	*out = m;
	return st;
}

/*
 * glrt_lazy_kernel_get: module first, then a (cached) kernel lookup; racing
 * threads find the same handle, so a plain atomic store suffices.
 */
glrt_status
glrt_lazy_kernel_get(glrt_kernel **out, glrt_lazy_kernel *lazy)
{
	glrt_module *m;
	glrt_kernel *k;
	glrt_status st;

	if (!out)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_lazy_kernel_get: out is NULL");
	*out = NULL;
	if (!lazy || !lazy->module || !lazy->name)
		return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT,
		                 "glrt_lazy_kernel_get: %s", !lazy ?
		                 "lazy kernel is NULL" : !lazy->module ?
		                 "lazy kernel has no module" :
		                 "lazy kernel has no name");
	k = __atomic_load_n(&lazy->kernel, __ATOMIC_ACQUIRE);
	if (!k) {
		st = glrt_lazy_module_get(&m, lazy->module);
		if (st != GLRT_SUCCESS)
			return st;
		st = glrt_kernel_get(&k, m, lazy->name);
		if (st != GLRT_SUCCESS)
			return st;
		__atomic_store_n(&lazy->kernel, k, __ATOMIC_RELEASE);
	}
	*out = k;
	return GLRT_SUCCESS;
}
