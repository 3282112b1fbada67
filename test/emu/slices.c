/*
 * emu.py driver for the slices_* kernels of test/gpu/slices.gl: x is the
 * 64 x 64 tile 1, 2, ..., 4096 (f16 bit patterns: only moved, never
 * computed on); y must hold what test_slices.c expects of it. Prints the
 * first mismatches and exits 1 on any.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { T = 64, OUT = 7680 + T * T };

static int tid;

int
emu_tid(void)
{
	return tid;
}

void KERNEL(uint16_t *x, uint16_t *y);

static uint16_t x[T * T], y[OUT], ref[OUT];

/* ref[o..] = x[r0:r1, c0:c1] (row-major), or its transpose; the next o. */
static int
block(int o, int r0, int r1, int c0, int c1, int transpose)
{
	for (int i = transpose ? c0 : r0; i < (transpose ? c1 : r1); i++)
		for (int j = transpose ? r0 : c0; j < (transpose ? r1 : c1); j++)
			ref[o++] = transpose ? x[j * T + i] : x[i * T + j];
	return o;
}

int
main(void)
{
	for (int i = 0; i < T * T; i++)
		x[i] = (uint16_t)(i + 1);
	int o = block(0, 0, T, 32, 64, 0);
	o = block(o, 0, T, 16, 32, 0);
	o = block(o, 32, 64, 0, T, 0);
	o = block(o, 32, 64, 32, 48, 0);
	o = block(o, 0, T, 32, 64, 1);
	block(o, 0, T, 0, T, 0);
	for (int pass = 0; pass < 2; pass++)
		for (tid = 0; tid < NTHREADS; tid++)
			KERNEL(x, y);
	int bad = 0;
	for (int i = 0; i < OUT; i++)
		if (y[i] != ref[i] && bad++ < 5)
			printf("y[%d] = %d, want %d\n", i, y[i], ref[i]);
	printf("%d of %d wrong\n", bad, OUT);
	return bad != 0;
}
