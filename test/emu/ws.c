/*
 * emu.py driver for ws_after of test/gpu/ws.gl (4 default warps, a worker of
 * 1 warp in a warpgroup of its own: 256 threads): the default partition
 * stores 1, the worker 2, and the code after warp_specialize, on the
 * default partition's threads only, their sums. Exits 1 on any wrong
 * element or any write past them.
 */
#include <stdio.h>

enum { N = 512 };

static int tid;

int
emu_tid(void)
{
	return tid;
}

void KERNEL(float *z);

static float z[3 * N + 64];

int
main(void)
{
	for (int pass = 0; pass < 2; pass++)
		for (tid = 0; tid < NTHREADS; tid++)
			KERNEL(z);
	int bad = 0;
	for (int i = 0; i < 3 * N + 64; i++) {
		float want = i < N ? 1 : i < 2 * N ? 2 : i < 3 * N ? 3 : 0;
		if (z[i] != want && bad++ < 5)
			printf("z[%d] = %g, want %g\n", i, z[i], want);
	}
	printf("%d of %d wrong\n", bad, 3 * N + 64);
	return bad != 0;
}
