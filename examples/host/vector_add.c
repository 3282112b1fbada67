/*
 * A C program that launches examples/vector_add.gl through glc's packaging:
 *     glc ../vector_add.gl -c -o vector_add.o --header vector_add.h
 *     cc $(pkg-config --cflags glc) vector_add.c vector_add.o $(pkg-config --libs glc)
 * (the Makefile and CMakeLists.txt here do that with an installed glc).
 * Exits 0 when the GPU's sums are right, 77 without a GPU, 1 on any other
 * failure.
 */
#include <stdio.h>
#include <stdlib.h>

#include "glrt.h"
#include "vector_add.h"

#define TRY(call)                                                        \
	do {                                                             \
		glrt_status st_ = (call);                                \
		if (st_ != GLRT_SUCCESS) {                               \
			fprintf(stderr, "%s: %s: %s\n", #call,           \
			        glrt_status_text(st_), glrt_last_error()); \
			return st_ == GLRT_ERROR_NO_DRIVER ||            \
			       st_ == GLRT_ERROR_NO_DEVICE ? 77 : 1;     \
		}                                                        \
	} while (0)

int
main(void)
{
	enum { N = 1000003, BLOCK = 2048 };  /* BLOCK: vector_add_f32's default */
	size_t bytes = N * sizeof(float);
	float *x = malloc(bytes), *y = malloc(bytes), *z = malloc(bytes);
	glrt_devptr dx, dy, dz;
	int i;

	if (!x || !y || !z)
		return 1;
	for (i = 0; i < N; i++) {
		x[i] = (float)(i % 1000) * 0.5f;
		y[i] = (float)(i % 7) - 3.0f;
	}
	TRY(glrt_malloc(&dx, bytes));
	TRY(glrt_malloc(&dy, bytes));
	TRY(glrt_malloc(&dz, bytes));
	TRY(glrt_memcpy_htod(dx, x, bytes));
	TRY(glrt_memcpy_htod(dy, y, bytes));
	TRY(glrt_memset_d8(dz, 0xff, bytes));  /* NaN until written */
	TRY(vector_add_f32(NULL, (N + BLOCK - 1) / BLOCK, 1, 1, dx, dy, dz, N));
	TRY(glrt_memcpy_dtoh(z, dz, bytes));   /* same stream: waits for it */
	for (i = 0; i < N; i++)
		if (z[i] != x[i] + y[i]) {
			fprintf(stderr, "z[%d] = %g, want %g\n", i, z[i], x[i] + y[i]);
			return 1;
		}
	printf("vector_add (C): %d sums ok\n", N);
	TRY(glrt_free(dx));
	TRY(glrt_free(dy));
	TRY(glrt_free(dz));
	free(x);
	free(y);
	free(z);
	return 0;
}
