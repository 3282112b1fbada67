// Calls the dispatchers glc link made for scale.py's and add.py's kernels.
// Without a GPU: a BLOCK that no specialization has is refused by the
// dispatcher itself; one that dispatches reaches the driver (no driver or
// no device here). n = 0 launches touch no memory, so this is safe on a GPU.
// Exits 0 when every call returned what it should.
#include <cstdio>

#include "add_add_kernel.h"     // each object's header: their guards differ
#include "kernels.h"            // the library: every launcher and dispatcher
#include "fill_1.h"
#include "fill_2.h"
#include "scale_scale_kernel.h"

static bool
reaches_driver(glrt_status st)
{
	return st == GLRT_SUCCESS || st == GLRT_ERROR_NO_DRIVER || st == GLRT_ERROR_NO_DEVICE;
}

int
main()
{
	if (scale_kernel(nullptr, 1, 1, 1, 0, 0, 0, 512) != GLRT_ERROR_INVALID_ARGUMENT ||
	    add_kernel(nullptr, 1, 1, 1, 0, 0, 0, 0, 64) != GLRT_ERROR_INVALID_ARGUMENT) {
		std::puts("a dispatcher took a BLOCK it has no specialization for");
		return 1;
	}
	std::printf("%s\n", glrt_last_error());
	if (fill(nullptr, 1, 1, 1, 0, 0, 7) != GLRT_ERROR_INVALID_ARGUMENT) {
		std::puts("fill took a VALUE it has no specialization for");
		return 1;
	}
	glrt_status a = scale_kernel(nullptr, 1, 1, 1, 0, 16, 0, 1024);
	glrt_status b = add_kernel(nullptr, 1, 1, 1, 16, 32, 48, 0, 256);
	glrt_status c = scale_kernel_3(nullptr, 1, 1, 1, 0, 0, 0);
	glrt_status f = fill(nullptr, 1, 1, 1, 0, 0, 2);
	std::printf("%s, %s, %s\n", glrt_status_text(a), glrt_status_text(b), glrt_status_text(c));
	return reaches_driver(a) && reaches_driver(b) && reaches_driver(c) && reaches_driver(f) ? 0
	                                                                                        : 1;
}
