/* Loads each cubin named on the command line with glrt_module_load and
 * prints its status: a cubin that passes libglrt's checks reaches the
 * driver, which is missing here (GLRT_LIBCUDA names no library), so 2
 * (GLRT_ERROR_NO_DRIVER); one refused before the driver gives 1. */
#include <stdio.h>
#include <stdlib.h>

#include "glrt.h"

int
main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		static unsigned char image[1 << 24];
		size_t n = f ? fread(image, 1, sizeof image, f) : 0;
		if (f)
			fclose(f);
		glrt_module *m = NULL;
		glrt_status s = glrt_module_load(&m, image, n, GLRT_IMAGE_CUBIN);
		printf("%d %s\n", (int)s, s == GLRT_ERROR_INVALID_ARGUMENT ? glrt_last_error() : "");
	}
	return 0;
}
