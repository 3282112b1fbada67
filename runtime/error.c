/*
 * Statuses and the per-thread last-error message.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Each thread's last failure: its message and driver result. */
static _Thread_local char last_message[4096];
static _Thread_local int last_result;

/*
 * glrt_status_text: a fixed description per status.
 */
const char *
glrt_status_text(glrt_status status)
{
	switch (status) {
	case GLRT_SUCCESS: return "success";
	case GLRT_ERROR_INVALID_ARGUMENT: return "invalid argument";
	case GLRT_ERROR_NO_DRIVER: return "CUDA driver not available";
	case GLRT_ERROR_NO_DEVICE: return "no such CUDA device";
	case GLRT_ERROR_OUT_OF_MEMORY: return "out of memory";
	case GLRT_ERROR_NOT_FOUND: return "kernel not found";
	case GLRT_ERROR_MODULE_LOAD: return "module image failed to load";
	case GLRT_ERROR_DRIVER: return "CUDA driver error";
	}
	return "unknown status";
}

/*
 * glrt_last_error: the thread's buffer.
 */
const char *
glrt_last_error(void)
{
	return last_message;
}

/*
 * glrt_last_driver_result: the thread's last driver result.
 */
int
glrt_last_driver_result(void)
{
	return last_result;
}

/* The status a driver result maps to. */
static glrt_status
status_of(CUresult res)
{
	switch (res) {
	case CUDA_ERROR_OUT_OF_MEMORY: return GLRT_ERROR_OUT_OF_MEMORY;
	case CUDA_ERROR_NO_DEVICE:
	case CUDA_ERROR_INVALID_DEVICE: return GLRT_ERROR_NO_DEVICE;
	case CUDA_ERROR_NOT_FOUND: return GLRT_ERROR_NOT_FOUND;
	default: return GLRT_ERROR_DRIVER;
	}
}

/*
 * glrt_fail: format into the thread's buffer.
 */
glrt_status
glrt_fail(glrt_status status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_message, sizeof last_message, fmt, ap);
	va_end(ap);
	last_result = 0;
	return status;
}

/*
 * glrt_invalid_argument: a generated launcher's rejection.
 */
glrt_status
glrt_invalid_argument(const char *message)
{
	return glrt_fail(GLRT_ERROR_INVALID_ARGUMENT, "%s",
	                 message ? message : "invalid argument");
}

/*
 * glrt_fail_driver: "<what> failed: NAME (text)".
 */
glrt_status
glrt_fail_driver(const GlrtDriver *drv, CUresult res, const char *fmt, ...)
{
	const char *name = NULL, *text = NULL;
	char what[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (drv && drv->cuGetErrorName(res, &name) != CUDA_SUCCESS)
		name = NULL;
	if (drv && drv->cuGetErrorString(res, &text) != CUDA_SUCCESS)
		text = NULL;
	if (name && text)
		snprintf(last_message, sizeof last_message,
		         "%s failed: %s (%s)", what, name, text);
	else
		snprintf(last_message, sizeof last_message,
		         "%s failed: CUresult %d", what, res);
	last_result = res;
	return status_of(res);
}

/*
 * glrt_error_append: vsnprintf after the current text.
 */
void
glrt_error_append(const char *fmt, ...)
{
	size_t len = strlen(last_message);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_message + len, sizeof last_message - len, fmt, ap);
	va_end(ap);
}
