/*
 * interp_glrt: the part of libglrt that the GPU test drivers call, on host
 * memory, and the launchers of tl kernels run by Triton's interpreter
 * (test/tl/interp_gpu.sh). "Device" pointers are host addresses; a
 * launcher (written by interp_launchers.py from glc's header) calls
 * interp_launch, which hands the kernel and its arguments to
 * interp_launch.py's launch() in an embedded Python (Triton 3.6, numpy).
 * So a driver of test/gpu checks its references against what Triton's own
 * semantics compute, without a GPU.
 *
 * A test tool, not library code: it exits on Python errors.
 */
#include <Python.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glrt.h"
#include "interp_glrt.h"

static char last_error[256];

const char *
glrt_status_text(glrt_status status)
{
	return status == GLRT_SUCCESS ? "success" : "error";
}

const char *
glrt_last_error(void)
{
	return last_error;
}

glrt_status
glrt_init(void)
{
	return GLRT_SUCCESS;
}

glrt_status
glrt_malloc(glrt_devptr *out, size_t bytes)
{
	/* 128-byte aligned, as cuMemAlloc's are at least */
	void *p = aligned_alloc(128, (bytes + 127) / 128 * 128);
	*out = (glrt_devptr)(uintptr_t)p;
	return p ? GLRT_SUCCESS : GLRT_ERROR_OUT_OF_MEMORY;
}

glrt_status
glrt_free(glrt_devptr ptr)
{
	free((void *)(uintptr_t)ptr);
	return GLRT_SUCCESS;
}

glrt_status
glrt_memcpy_htod(glrt_devptr dst, const void *src, size_t bytes)
{
	memcpy((void *)(uintptr_t)dst, src, bytes);
	return GLRT_SUCCESS;
}

glrt_status
glrt_memcpy_dtoh(void *dst, glrt_devptr src, size_t bytes)
{
	memcpy(dst, (const void *)(uintptr_t)src, bytes);
	return GLRT_SUCCESS;
}

glrt_status
glrt_memset_d8(glrt_devptr dst, unsigned char value, size_t bytes)
{
	memset((void *)(uintptr_t)dst, value, bytes);
	return GLRT_SUCCESS;
}

glrt_status
glrt_synchronize(void)
{
	return GLRT_SUCCESS;
}

/* The encoders record what the interpreter's TensorDescriptor needs:
 * opaque[0] the base, [1..5] the shape, [6..10] the element strides,
 * [11..15] the block shape (tensor order); rank and shape as glrt's. */
glrt_status
glrt_tensor_map_encode_nvmma(glrt_tensor_map *map, glrt_tma_dtype dtype, unsigned rank,
                             glrt_devptr base, const uint64_t *shape, const uint64_t *strides,
                             const uint32_t *block_shape, const glrt_nvmma_layout *layout,
                             glrt_oob_fill oob_fill)
{
	(void)dtype, (void)layout, (void)oob_fill;
	memset(map, 0, sizeof *map);
	map->rank = rank;
	map->opaque[0] = base;
	for (unsigned i = 0; i < rank && i < 5; i++) {
		map->shape[i] = (uint32_t)shape[i];
		map->opaque[1 + i] = shape[i];
		map->opaque[6 + i] = strides[i];
		map->opaque[11 + i] = block_shape[i];
	}
	return GLRT_SUCCESS;
}

glrt_status
interp_launch(const char *file, const char *kernel, unsigned gx, unsigned gy, unsigned gz,
              const char *kinds, ...)
{
	static PyObject *launch;
	if (!launch) {
		Py_Initialize();
		PyObject *m = PyImport_ImportModule("interp_launch");
		launch = m ? PyObject_GetAttrString(m, "launch") : NULL;
		if (!launch) {
			PyErr_Print();
			exit(1);
		}
	}
	size_t n = strlen(kinds);
	PyObject *args = PyTuple_New((Py_ssize_t)n);
	va_list ap;
	va_start(ap, kinds);
	for (size_t i = 0; i < n; i++) {
		PyObject *v;
		switch (kinds[i]) {
		case 'p': v = PyLong_FromUnsignedLongLong(va_arg(ap, glrt_devptr)); break;
		case 'i': v = PyLong_FromLong(va_arg(ap, int32_t)); break;
		case 'u': v = PyLong_FromUnsignedLong(va_arg(ap, uint32_t)); break;
		case 'l': v = PyLong_FromLongLong(va_arg(ap, int64_t)); break;
		case 'L': v = PyLong_FromUnsignedLongLong(va_arg(ap, uint64_t)); break;
		case 'f': v = PyFloat_FromDouble(va_arg(ap, double)); break;
		case 't': {
			const glrt_tensor_map *m = va_arg(ap, const glrt_tensor_map *);
			v = PyTuple_New(16);
			for (int k = 0; k < 16; k++)
				PyTuple_SET_ITEM(v, k, PyLong_FromUnsignedLongLong(m->opaque[k]));
			v = Py_BuildValue("(IN)", m->rank, v);
			break;
		}
		default: fprintf(stderr, "interp_launch: bad kind %c\n", kinds[i]); exit(1);
		}
		PyTuple_SET_ITEM(args, (Py_ssize_t)i, v);
	}
	va_end(ap);
	PyObject *r = PyObject_CallFunction(launch, "ssIIIN", file, kernel, gx, gy, gz, args);
	if (!r) {
		PyErr_Print();
		snprintf(last_error, sizeof last_error, "%s: the interpreter failed", kernel);
		return GLRT_ERROR_DRIVER;
	}
	Py_DECREF(r);
	return GLRT_SUCCESS;
}
