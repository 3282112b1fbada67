/*
 * emu.py driver for trans of test/emu/tl_kernels.py: y = x transposed for
 * a 32 x 32 f32 tile (the permuted registers reach the store's layout
 * through shared memory). Exits 1 on any wrong element.
 */
#include <stdio.h>

enum { B = 32 };

static int tid;

int
emu_tid(void)
{
	return tid;
}

void KERNEL(float *x, float *y);

static float x[B * B], y[B * B];

int
main(void)
{
	for (int i = 0; i < B * B; i++) {
		x[i] = (float)i;
		y[i] = -1;
	}
	for (int pass = 0; pass < 2; pass++)
		for (tid = 0; tid < NTHREADS; tid++)
			KERNEL(x, y);
	int bad = 0;
	for (int i = 0; i < B; i++)
		for (int j = 0; j < B; j++)
			if (y[i * B + j] != x[j * B + i] && bad++ < 5)
				printf("y[%d][%d] = %g, want %g\n", i, j, y[i * B + j], x[j * B + i]);
	printf("%d of %d wrong\n", bad, B * B);
	return bad != 0;
}
