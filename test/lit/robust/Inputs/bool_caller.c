/* Calls the launcher kb(stream, grid..., x, f) of bool_param.gl with f = 2,
 * 256 and 0 against stubs of libglrt that print the byte the kernel would
 * receive for f: 1, 1, 0 (C's bool conversion; a uint8_t took 256 as 0). */
#include <stdio.h>
#include "glrt.h"
#include "k.h"

glrt_status glrt_lazy_kernel_get(glrt_kernel **out, glrt_lazy_kernel *lazy)
{
	(void)lazy;
	*out = (glrt_kernel *)1;
	return GLRT_SUCCESS;
}

glrt_status glrt_invalid_argument(const char *message)
{
	(void)message;
	return GLRT_ERROR_INVALID_ARGUMENT;
}

glrt_status glrt_launch(glrt_kernel *kernel, const unsigned grid[3], const unsigned block[3],
                        const unsigned cluster[3], unsigned smem_bytes, glrt_stream stream,
                        void **args)
{
	(void)kernel, (void)grid, (void)block, (void)cluster, (void)smem_bytes, (void)stream;
	printf("f byte %u\n", *(const unsigned char *)args[1]);
	return GLRT_SUCCESS;
}

int main(void)
{
	kb(0, 1, 1, 1, 0x1000, 2);
	kb(0, 1, 1, 1, 0x1000, 256);
	kb(0, 1, 1, 1, 0x1000, 0);
	return 0;
}
