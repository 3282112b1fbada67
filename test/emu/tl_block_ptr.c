/*
 * emu.py driver for bp_copy of test/emu/tl_kernels.py: y = 2 x through
 * block pointers of a 50 x 40 matrix (row stride 48) read and written as
 * one 64 x 64 block: the elements inside are doubled, the rest of y (the
 * padding columns and the rows past it) stays as it was. Exits 1 on any
 * wrong element.
 */
#include <stdio.h>

enum { M = 50, N = 40, STRIDE = 48, ROWS = 70 };

static int tid;

int
emu_tid(void)
{
	return tid;
}

void KERNEL(float *x, float *y, int m, int n, int stride);

static float x[ROWS * STRIDE], y[ROWS * STRIDE];

int
main(void)
{
	for (int i = 0; i < ROWS * STRIDE; i++) {
		x[i] = (float)(i % 97);
		y[i] = -1;
	}
	for (int pass = 0; pass < 2; pass++)
		for (tid = 0; tid < NTHREADS; tid++)
			KERNEL(x, y, M, N, STRIDE);
	int bad = 0;
	for (int i = 0; i < ROWS; i++)
		for (int j = 0; j < STRIDE; j++) {
			float want = i < M && j < N ? 2 * x[i * STRIDE + j] : -1;
			if (y[i * STRIDE + j] != want && bad++ < 5)
				printf("y[%d][%d] = %g, want %g\n", i, j, y[i * STRIDE + j], want);
		}
	printf("%d of %d wrong\n", bad, ROWS * STRIDE);
	return bad != 0;
}
