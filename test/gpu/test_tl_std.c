/*
 * GPU test of test/gpu/tl_std.py: more of triton.language, every layout
 * inferred. The standard library's sort (both orders), topk and
 * bitonic_merge against sorted rows, swizzle2d's indices, tl.random bit
 * for bit (randint, randint4x, philox and philox_impl against Philox 4x32 written out
 * below; rand, rand4x and uint_to_uniform_float exactly as f32 computes
 * them; randn, randn4x and pair_uniform_to_normal within the error of the
 * approximate log, sqrt, sin and cos), a grid-stride tl.range loop, a
 * tl.condition while loop, compile-time queries and map_elementwise
 * through the values stored, tl.gather along both dims, and
 * inline_asm_elementwise with one and with two outputs, and libdevice's exp2.
 *
 * Every output is poisoned with a margin that must stay unwritten; inputs
 * are fresh random values and every kernel runs twice. test/tl/interp_gpu.sh
 * runs this driver against Triton's interpreter (no GPU; it cannot run
 * inline asm or libdevice, so tl_std_asm_ops is a SKIP there).
 */
#include "tl_common.h"

#pragma weak tl_std_sorts
#pragma weak tl_std_swizzle
#pragma weak tl_std_random
#pragma weak tl_std_control
#pragma weak tl_std_gathers
#pragma weak tl_std_asm_ops
typedef glrt_devptr P;
glrt_status tl_std_sorts(glrt_stream, unsigned, unsigned, unsigned, P, P, P);
glrt_status tl_std_swizzle(glrt_stream, unsigned, unsigned, unsigned, P);
glrt_status tl_std_random(glrt_stream, unsigned, unsigned, unsigned, P, P, int64_t, int32_t);
glrt_status tl_std_control(glrt_stream, unsigned, unsigned, unsigned, P, P, P, int32_t,
                           int32_t);
glrt_status tl_std_gathers(glrt_stream, unsigned, unsigned, unsigned, P, P, P);
glrt_status tl_std_asm_ops(glrt_stream, unsigned, unsigned, unsigned, P, P);

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* -- sorts -- */
static int
cmp_desc(const void *a, const void *b)
{
	return cmp_double(b, a);
}

static void
run_sorts(GtRun *r, int rep)
{
	enum { M = 4, N = 64, K = 8, NO = 5 * M * N + M * K };
	double *x, *bit;
	P dx = tl_f32_input(r, M * N, -3, 3, &x), dbit = tl_f32_input(r, M * N, -3, 3, &bit);
	/* bitonic rows: the first half ascending, the second descending */
	float hb[M * N];
	for (int i = 0; i < M; i++) {
		qsort(bit + i * N, N / 2, sizeof *bit, cmp_double);
		qsort(bit + i * N + N / 2, N / 2, sizeof *bit, cmp_desc);
		for (int j = 0; j < N; j++)
			hb[i * N + j] = (float)bit[i * N + j];
	}
	gt_check(glrt_memcpy_htod(dbit, hb, sizeof hb), "upload");
	P dout = tl_output(GT_F32, NO);
	gt_launched(tl_std_sorts(NULL, 1, 1, 1, dx, dout, dbit), "tl_std_sorts");
	double *ref = tl_ref(NO);
	for (int i = 0; i < M; i++) {
		double up[N], down[N], neg[N], b[N];
		for (int j = 0; j < N; j++)
			up[j] = down[j] = x[i * N + j], neg[j] = -x[i * N + j], b[j] = bit[i * N + j];
		qsort(up, N, sizeof *up, cmp_double);
		qsort(down, N, sizeof *down, cmp_desc);
		qsort(neg, N, sizeof *neg, cmp_double);
		qsort(b, N, sizeof *b, cmp_double);
		for (int j = 0; j < N; j++) {
			ref[i * N + j] = up[j], ref[M * N + i * N + j] = down[j];
			ref[2 * M * N + i * N + j] = neg[j];
			ref[3 * M * N + M * K + i * N + j] = b[j];
			ref[4 * M * N + M * K + i * N + j] = down[j] + x[i * N + N - 1 - j];
		}
		for (int j = 0; j < K; j++)
			ref[3 * M * N + i * K + j] = down[j];
	}
	GtTol t = {0x1p-23, 0, NULL};
	tl_check(r, "tl_std_sorts", "values", rep, GT_F32, dout, ref, NO, t);
	free(ref), free(x), free(bit);
	tl_free((P[]){dx, dbit, dout}, 3);
}

/* -- swizzle -- */
static void
run_swizzle(GtRun *r, int rep)
{
	enum { SI = 8, SJ = 16, G = 3, NO = 2 * SI * SJ };
	P dout = tl_output(GT_I32, NO);
	gt_launched(tl_std_swizzle(NULL, 1, 1, 1, dout), "tl_std_swizzle");
	double *ref = tl_ref(NO);
	for (int i = 0; i < SI; i++)
		for (int j = 0; j < SJ; j++) {
			int ij = i * SJ + j, group = ij / (G * SJ), off = group * G;
			int g = SI - off < G ? SI - off : G;
			ij %= G * SJ;
			ref[(i * SJ + j) * 2] = off + ij % g, ref[(i * SJ + j) * 2 + 1] = ij / g;
		}
	tl_check(r, "tl_std_swizzle", "indices", rep, GT_I32, dout, ref, NO, TL_EXACT);
	free(ref);
	tl_free(&dout, 1);
}

/* -- random: Philox 4x32 as triton.language.random computes it -- */
static uint32_t
mulhi(uint32_t a, uint32_t b)
{
	return (uint32_t)(((uint64_t)a * b) >> 32);
}

/* philox(seed, c[0..3]) in place, n rounds */
static void
philox(int64_t seed, uint32_t c[4], int rounds)
{
	uint32_t k0 = (uint32_t)(uint64_t)seed, k1 = (uint32_t)((uint64_t)seed >> 32);
	for (int i = 0; i < rounds; i++) {
		uint32_t c0 = c[0], c2 = c[2];
		c[0] = mulhi(0xCD9E8D57u, c2) ^ c[1] ^ k0;
		c[2] = mulhi(0xD2511F53u, c0) ^ c[3] ^ k1;
		c[1] = 0xCD9E8D57u * c2;
		c[3] = 0xD2511F53u * c0;
		k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
	}
}

/* uint_to_uniform_float: in f32, as the kernel computes it */
static double
uniform(uint32_t u)
{
	int32_t x = (int32_t)u;
	x = x < 0 ? ~x : x;
	return (float)x * 4.6566127342e-10f;
}

/* pair_uniform_to_normal, in float64 from the f32 uniforms */
static void
normal(double u1, double u2, double *z1, double *z2)
{
	u1 = fmax((float)1.0e-7, u1);
	double th = (float)(6.283185307179586 * u2), rad = sqrt(-2.0 * log(u1));
	*z1 = rad * cos(th), *z2 = rad * sin(th);
}

static void
run_random(GtRun *r, int rep)
{
	enum { N = 1000, BLOCK = 256, NI = 13 * N, NF = 13 * N };
	/* a seed over 32 bits the first run (both key words), a small one the second */
	int64_t seed = rep == 1 ? INT64_C(0x1234567890) : 42;
	P di = tl_output(GT_U32, NI), df = tl_output(GT_F32, NF);
	gt_launched(tl_std_random(NULL, gt_cdiv(N, BLOCK), 1, 1, di, df, seed, N), "tl_std_random");
	double *iref = tl_ref(NI), *fref = tl_ref(NF), *atol = gt_alloc((NF + TL_MARGIN) * 8);
	for (int i = 0; i < NF + TL_MARGIN; i++)
		atol[i] = 0;
	for (int i = 0; i < N; i++) {
		uint32_t c[4] = {(uint32_t)i, 0, 0, 0}, p[4] = {(uint32_t)i, 1, 2, 3};
		philox(seed, c, 10);
		philox(seed, p, 7);
		iref[i] = c[0];
		for (int k = 0; k < 4; k++)
			iref[(1 + k) * N + i] = c[k], iref[(5 + k) * N + i] = iref[(9 + k) * N + i] = p[k];
		double u[4], z[4];
		for (int k = 0; k < 4; k++)
			u[k] = uniform(c[k]);
		normal(u[0], u[1], &z[0], &z[1]);
		normal(u[2], u[3], &z[2], &z[3]);
		fref[i] = u[0], fref[N + i] = z[0];
		for (int k = 0; k < 4; k++)
			fref[(2 + k) * N + i] = u[k], fref[(6 + k) * N + i] = z[k];
		fref[10 * N + i] = u[0], fref[11 * N + i] = z[0], fref[12 * N + i] = z[1];
		for (int k = 0; k < 4; k++)
			atol[(6 + k) * N + i] = 1e-4;
		atol[N + i] = atol[11 * N + i] = atol[12 * N + i] = 1e-4;
	}
	tl_check(r, "tl_std_random", "integers", rep, GT_U32, di, iref, NI, TL_EXACT);
	GtTol t = {0, 0, atol};
	tl_check(r, "tl_std_random", "floats", rep, GT_F32, df, fref, NF, t);
	free(iref), free(fref), free(atol);
	tl_free((P[]){di, df}, 2);
}

/* -- control -- */
static void
run_control(GtRun *r, int rep)
{
	enum { N = 3000, BLOCK = 128, GRID = 5, NI = BLOCK + GRID + 3 };
	double *x;
	P dx = tl_f32_input(r, N, -3, 3, &x), dy = tl_output(GT_F32, N), di = tl_output(GT_I32, NI);
	gt_launched(tl_std_control(NULL, GRID, 1, 1, dx, dy, di, N, 0), "tl_std_control");
	double *ref = tl_ref(N), *iref = tl_ref(NI);
	for (int i = 0; i < N; i++) {
		float v = (float)x[i]; /* rounded to f32 after each addition, as the kernel adds */
		v = v + 0.5f, v = v + 1.0f, v = v + 1.5f;
		ref[i] = 2.0 * v;
	}
	for (int i = 0; i < BLOCK; i++)
		iref[i] = i > 40 ? i : 40;
	int trips = 0;
	for (int t = 1; t < N; t *= 2)
		trips++;
	for (int p = 0; p < GRID; p++)
		iref[BLOCK + p] = trips * 1000000 + p * 1000 + GRID;
	iref[BLOCK + GRID] = 4095;
	iref[BLOCK + GRID + 1] = BLOCK * (BLOCK - 1) + BLOCK;
	float x0 = (float)x[0];
	int32_t bits;
	memcpy(&bits, &x0, 4);
	iref[BLOCK + GRID + 2] = bits;
	tl_check(r, "tl_std_control", "y", rep, GT_F32, dy, ref, N, TL_EXACT);
	tl_check(r, "tl_std_control", "info", rep, GT_I32, di, iref, NI, TL_EXACT);
	free(ref), free(iref), free(x);
	tl_free((P[]){dx, dy, di}, 3);
}

/* -- gathers -- */
static void
run_gathers(GtRun *r, int rep)
{
	enum { M = 16, N = 32 };
	double *x;
	int32_t idx[M * N];
	P dx = tl_f32_input(r, M * N, -3, 3, &x), di = tl_i32_input(r, M * N, 0, N - 1, idx);
	P dout = tl_output(GT_F32, 2 * M * N);
	gt_launched(tl_std_gathers(NULL, 1, 1, 1, dx, di, dout), "tl_std_gathers");
	double *ref = tl_ref(2 * M * N);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++) {
			int k = idx[i * N + j];
			ref[i * N + j] = x[i * N + k], ref[M * N + i * N + j] = x[(k % M) * N + j];
		}
	tl_check(r, "tl_std_gathers", "values", rep, GT_F32, dout, ref, 2 * M * N, TL_EXACT);
	free(ref), free(x);
	tl_free((P[]){dx, di, dout}, 3);
}

/* -- asm_ops -- */
static void
run_asm_ops(GtRun *r, int rep)
{
	enum { BLOCK = 128 };
	P di = tl_output(GT_I32, BLOCK), df = tl_output(GT_F32, 3 * BLOCK);
	gt_launched(tl_std_asm_ops(NULL, 1, 1, 1, di, df), "tl_std_asm_ops");
	double *iref = tl_ref(BLOCK), *fref = tl_ref(3 * BLOCK), atol[3 * BLOCK + TL_MARGIN] = {0};
	for (int i = 0; i < BLOCK; i++) {
		iref[i] = i << 8, fref[i] = i + (i + 0.5), fref[BLOCK + i] = i * (i + 0.5);
		fref[2 * BLOCK + i] = exp2(i / 32.0);   /* exp2f: within 2 ulp */
		atol[2 * BLOCK + i] = fref[2 * BLOCK + i] * 0x1p-22;
	}
	tl_check(r, "tl_std_asm_ops", "rotate", rep, GT_I32, di, iref, BLOCK, TL_EXACT);
	tl_check(r, "tl_std_asm_ops", "add and mul (exact), libdevice exp2", rep, GT_F32, df, fref,
	         3 * BLOCK, (GtTol){0, 0, atol});
	free(iref), free(fref);
	tl_free((P[]){di, df}, 2);
}

int
main(void)
{
	GtRun r;
	gt_start(&r, "test_tl_std");
	for (int rep = 1; rep <= 2; rep++) {
		if (tl_have(&r, tl_std_sorts, "tl_std_sorts"))
			run_sorts(&r, rep);
		if (tl_have(&r, tl_std_swizzle, "tl_std_swizzle"))
			run_swizzle(&r, rep);
		if (tl_have(&r, tl_std_random, "tl_std_random"))
			run_random(&r, rep);
		if (tl_have(&r, tl_std_control, "tl_std_control"))
			run_control(&r, rep);
		if (tl_have(&r, tl_std_gathers, "tl_std_gathers"))
			run_gathers(&r, rep);
		if (tl_have(&r, tl_std_asm_ops, "tl_std_asm_ops"))
			run_asm_ops(&r, rep);
	}
	return gt_finish(&r);
}
