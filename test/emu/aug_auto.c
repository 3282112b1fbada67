/*
 * emu.py driver for aug_auto of test/gpu/auto.gl: y[c] = sum over the
 * blocks b of x[b * 512 + c]^2, for x of small integers (exact in f32), so
 * a dropped update of the loop-carried accumulator shows as a wrong value.
 * Prints the first mismatches and exits 1 on any.
 */
#include <stdio.h>

enum { BLOCK = 512, BLOCKS = 5, N = BLOCK * BLOCKS };

static int tid;

int
emu_tid(void)
{
	return tid;
}

void KERNEL(float *x, float *y, int n);

static float x[N], y[BLOCK];

int
main(void)
{
	for (int i = 0; i < N; i++)
		x[i] = (float)(i % 7 - 3 + i / BLOCK);
	for (int i = 0; i < BLOCK; i++)
		y[i] = -1.0f;
	for (tid = 0; tid < NTHREADS; tid++)
		KERNEL(x, y, N);
	int bad = 0;
	for (int c = 0; c < BLOCK; c++) {
		float want = 0;
		for (int b = 0; b < BLOCKS; b++)
			want += x[b * BLOCK + c] * x[b * BLOCK + c];
		if (y[c] != want && bad++ < 5)
			printf("y[%d] = %g, want %g\n", c, y[c], want);
	}
	printf("%d of %d wrong\n", bad, BLOCK);
	return bad != 0;
}
