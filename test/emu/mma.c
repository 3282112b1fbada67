/*
 * emu.py driver for mmav2 of test/gpu/mma.gl (f16 into f32, one 64 x 64
 * tile, K = 2 x BK): C = A @ B of small integers, exact in f32. emu_mma is
 * mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 as PTX defines its
 * fragments (lane 4g + t; A: a0 row g, columns 2t and 2t + 1, a1 row g + 8,
 * a2 and a3 those 8 columns on; B: b0 rows 2t, 2t + 1 of column g, b1 those
 * 8 rows on; C: c0, c1 row g, columns 2t, 2t + 1, c2, c3 row g + 8): the
 * first pass records each lane's fragments, the second computes from every
 * lane's. Exits 1 on any wrong element.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { M = 64, N = 64, K = 2 * BK, MAX_CALLS = 256 };

static int tid, pass, calls[NTHREADS];

int
emu_tid(void)
{
	return tid;
}

typedef struct Frag {
	uint32_t a[4], b[2];
} Frag;

static Frag frags[NTHREADS / 32][MAX_CALLS][32];

static float
f16_value(uint16_t h)
{
	int e = h >> 10 & 31, m = h & 1023;
	float v = e ? ldexpf((float)(m | 1024), e - 25) : ldexpf((float)m, -24);
	return h >> 15 ? -v : v;
}

/* An integer of magnitude below 2048 as f16. */
static uint16_t
f16_of(int v)
{
	if (!v)
		return 0;
	int s = v < 0, m = s ? -v : v, e = 0;
	while (m >> (e + 1))
		e++;
	return (uint16_t)(s << 15 | (e + 15) << 10 | ((m << (10 - e)) & 1023));
}

static float
half(uint32_t w, int k)
{
	return f16_value((uint16_t)(w >> (16 * (k & 1))));
}

void
emu_mma(float *c, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1)
{
	int warp = tid / 32, lane = tid % 32, n = calls[tid]++;
	if (n >= MAX_CALLS)
		return;
	Frag *mine = &frags[warp][n][lane];
	*mine = (Frag){{a0, a1, a2, a3}, {b0, b1}};
	if (!pass)
		return;
	int g = lane / 4, t = lane % 4;
	for (int i = 0; i < 4; i++) {
		int row = g + 8 * (i >> 1), col = 2 * t + (i & 1);
		for (int k = 0; k < 16; k++) {
			const Frag *fa = &frags[warp][n][row % 8 * 4 + k % 8 / 2];
			const Frag *fb = &frags[warp][n][col * 4 + k % 8 / 2];
			c[i] += half(fa->a[(row >= 8) + 2 * (k >= 8)], k) * half(fb->b[k >= 8], k);
		}
	}
}

void KERNEL(uint16_t *a, uint16_t *b, float *c, int m, int n, int k);

static uint16_t a[M * K], b[K * N];
static float c[M * N];

int
main(void)
{
	int av[M * K], bv[K * N];
	unsigned seed = 12345;
	for (int i = 0; i < M * K; i++) {
		seed = seed * 1103515245 + 12345;
		av[i] = (int)(seed >> 16) % 7 - 3;
		a[i] = f16_of(av[i]);
	}
	for (int i = 0; i < K * N; i++) {
		seed = seed * 1103515245 + 12345;
		bv[i] = (int)(seed >> 16) % 7 - 3;
		b[i] = f16_of(bv[i]);
	}
	for (pass = 0; pass < 2; pass++) {
		memset(calls, 0, sizeof calls);
		for (tid = 0; tid < NTHREADS; tid++)
			KERNEL(a, b, c, M, N, K);
	}
	int bad = 0;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int s = 0;
			for (int k = 0; k < K; k++)
				s += av[i * K + k] * bv[k * N + j];
			if (c[i * N + j] != (float)s && bad++ < 5)
				printf("c[%d][%d] = %g, want %d\n", i, j, c[i * N + j], s);
		}
	printf("%d of %d wrong\n", bad, M * N);
	return bad != 0;
}
