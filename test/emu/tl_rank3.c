/*
 * emu.py driver for rank3_widths of test/emu/tl_kernels.py (FOUND 014): a
 * [64, 1, 16] tile, element (i, 0, j) at offset i + 64 j, loaded as u64
 * and as i16 under the mask offset < N; y1 = x1 + 1 where the mask holds
 * (untouched elsewhere), y5 = 2 * (x5, or -50 where it does not). Exits 1
 * on any wrong element.
 */
#include <stdint.h>
#include <stdio.h>

enum { E = 1024, N = 1000 };

static int tid;

int
emu_tid(void)
{
	return tid;
}

void KERNEL(uint64_t *x1, int32_t n2, int16_t *x5, uint64_t *y1, int16_t *y5);

static uint64_t x1[E], y1[E];
static int16_t x5[E], y5[E];

int
main(void)
{
	for (int i = 0; i < E; i++) {
		x1[i] = 0x100000000ull * (uint64_t)i + 7u * (uint64_t)i;
		x5[i] = (int16_t)(3 * i - 1500);
		y1[i] = 0xdead;
		y5[i] = 12345;
	}
	for (int pass = 0; pass < 2; pass++)
		for (tid = 0; tid < NTHREADS; tid++)
			KERNEL(x1, N, x5, y1, y5);
	int bad = 0;
	for (int i = 0; i < E; i++) {
		uint64_t w1 = i < N ? x1[i] + 1 : 0xdead;
		int16_t w5 = (int16_t)(2 * (i < N ? x5[i] : -50));
		if ((y1[i] != w1 || y5[i] != w5) && bad++ < 5)
			printf("at %d: y1 %llu y5 %d, want %llu %d\n", i, (unsigned long long)y1[i],
			       y5[i], (unsigned long long)w1, w5);
	}
	printf("%d of %d wrong\n", bad, E);
	return bad != 0;
}
