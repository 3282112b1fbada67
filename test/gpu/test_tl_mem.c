/*
 * GPU test of test/gpu/tl_mem.py: triton.language's memory operations,
 * every layout inferred. Block pointers (boundary checks on both dims with
 * zero padding, tl.advance with NaN padding), tensor descriptors made in
 * the kernel and passed as arguments (TMA loads and stores clipped at the
 * tensor's edges), and the atomics: add, max, min, and, or, xor of i32
 * under contention (16 buckets), f32 add (within the sums' rounding in any
 * order), and the old values of add, xchg and cas on addresses of their
 * own. Integers bit for bit.
 *
 * Every output is poisoned with a margin that must stay unwritten; inputs
 * are fresh random values and every kernel runs twice.
 */
#include "tl_common.h"

#pragma weak tl_mem_bp_copy
#pragma weak tl_mem_bp_rows
#pragma weak tl_mem_desc_made
#pragma weak tl_mem_desc_args
#pragma weak tl_mem_atomics
typedef glrt_devptr P;
glrt_status tl_mem_bp_copy(glrt_stream, unsigned, unsigned, unsigned, P, P, int32_t, int32_t,
                           int32_t);
glrt_status tl_mem_bp_rows(glrt_stream, unsigned, unsigned, unsigned, P, P, int32_t, int32_t);
glrt_status tl_mem_desc_made(glrt_stream, unsigned, unsigned, unsigned, P, P, int32_t,
                             int32_t);
glrt_status tl_mem_desc_args(glrt_stream, unsigned, unsigned, unsigned, const glrt_tensor_map *,
                             const glrt_tensor_map *);
glrt_status tl_mem_atomics(glrt_stream, unsigned, unsigned, unsigned, P, P, P, P, P, P,
                           int32_t);

/* -- block pointers -- */
static void
run_bp_copy(GtRun *r, int rep)
{
	enum { M = 100, N = 50, STRIDE = 56, BM = 32 };
	double *x;
	P dx = tl_f32_input(r, M * STRIDE, -3, 3, &x), dy = tl_output(GT_F32, M * STRIDE);
	gt_launched(tl_mem_bp_copy(NULL, gt_cdiv(M, BM), 1, 1, dx, dy, M, N, STRIDE),
	            "tl_mem_bp_copy");
	double *ref = tl_ref(M * STRIDE);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < N; j++)
			ref[i * STRIDE + j] = 2 * x[i * STRIDE + j];
	tl_check(r, "tl_mem_bp_copy", "y", rep, GT_F32, dy, ref, M * STRIDE, TL_EXACT);
	free(ref), free(x);
	tl_free((P[]){dx, dy}, 2);
}

static void
run_bp_rows(GtRun *r, int rep)
{
	enum { M = 40, N = 80, BM = 16, BN = 32 };
	double *x;
	P dx = tl_f32_input(r, M * N, -3, 3, &x), dy = tl_output(GT_F32, M * BN);
	gt_launched(tl_mem_bp_rows(NULL, gt_cdiv(M, BM), 1, 1, dx, dy, M, N), "tl_mem_bp_rows");
	double *ref = tl_ref(M * BN);
	for (int i = 0; i < M; i++)
		for (int j = 0; j < BN; j++) {
			float s = 0;   /* f32 adds in block order, as the kernel adds */
			bool nan = false;
			for (int b = 0; b * BN < N; b++) {
				nan |= b * BN + j >= N;
				if (!nan)
					s += (float)x[i * N + b * BN + j];
			}
			ref[i * BN + j] = nan ? -1000 : s;
		}
	tl_check(r, "tl_mem_bp_rows", "y", rep, GT_F32, dy, ref, M * BN, TL_EXACT);
	free(ref), free(x);
	tl_free((P[]){dx, dy}, 2);
}

/* -- tensor descriptors -- */

/* n f16 values in [-8, 8) on the device, their doubles in *x. */
static P
f16_input(GtRun *r, size_t n, double **x)
{
	uint16_t *h = gt_alloc(n * 2);
	*x = gt_alloc(n * sizeof **x);
	gt_fill(r, GT_F16, h, *x, n, -8, 8);
	P d = gt_upload(h, n * 2);
	free(h);
	return d;
}

static double
f16_round(double v)
{
	return gt_f16_to_float(gt_f16_from_float((float)v));
}

static void
run_desc_made(GtRun *r, int rep)
{
	enum { M = 100, N = 192, BM = 64 };
	double *x;
	P dx = f16_input(r, M * N, &x), dy = tl_output(GT_F16, M * N);
	gt_launched(tl_mem_desc_made(NULL, gt_cdiv(M, BM), 1, 1, dx, dy, M, N), "tl_mem_desc_made");
	double *ref = tl_ref(M * N);
	for (int i = 0; i < M * N; i++)
		ref[i] = f16_round(x[i] + 1);
	tl_check(r, "tl_mem_desc_made", "y", rep, GT_F16, dy, ref, M * N, TL_EXACT);
	free(ref), free(x);
	tl_free((P[]){dx, dy}, 2);
}

/* A rows x 64 f16 tensor map of dev, 64 x 64 boxes, the 128-byte swizzle
 * (the block's default NVMMASharedLayout). */
static glrt_tensor_map
tile_map(glrt_devptr dev, uint64_t rows)
{
	const uint64_t shape[] = {rows, 64}, strides[] = {64, 1};
	const uint32_t box[] = {64, 64};
	glrt_nvmma_layout layout = {128, 16, 0};
	glrt_tensor_map m;
	gt_check(glrt_tensor_map_encode_nvmma(&m, GLRT_TMA_F16, 2, dev, shape, strides, box, &layout,
	                                      GLRT_OOB_ZERO), "glrt_tensor_map_encode_nvmma");
	return m;
}

static void
run_desc_args(GtRun *r, int rep)
{
	enum { M = 160, BM = 64 };
	double *x;
	P dx = f16_input(r, M * 64, &x), dy = tl_output(GT_F16, M * 64);
	glrt_tensor_map in = tile_map(dx, M), out = tile_map(dy, M);
	gt_launched(tl_mem_desc_args(NULL, gt_cdiv(M, BM), 1, 1, &in, &out), "tl_mem_desc_args");
	double *ref = tl_ref(M * 64);
	for (int i = 0; i < M * 64; i++)
		ref[i] = f16_round(2 * x[i]);
	tl_check(r, "tl_mem_desc_args", "y", rep, GT_F16, dy, ref, M * 64, TL_EXACT);
	free(ref), free(x);
	tl_free((P[]){dx, dy}, 2);
}

/* -- atomics -- */
static void
run_atomics(GtRun *r, int rep)
{
	enum { N = 1024, BLOCK = 256, NB = 16, ROWS = 6 };
	int32_t x[N], idx[N], bk[ROWS * NB], uniq[8 * N];
	double *f, fb[NB], fabs_sum[NB];
	P dx = tl_i32_input(r, N, -100000, 100000, x), didx = tl_i32_input(r, N, 0, NB - 1, idx);
	P df = tl_f32_input(r, N, -1, 1, &f);
	/* the buckets' initial values: 0 for add, extremes for max and min,
	 * all ones for and, random for or and xor */
	for (int b = 0; b < NB; b++) {
		bk[b] = 0, bk[NB + b] = INT32_MIN, bk[2 * NB + b] = INT32_MAX, bk[3 * NB + b] = -1;
		bk[4 * NB + b] = (int32_t)floor(gt_uniform(r, 0, 1 << 30));
		bk[5 * NB + b] = (int32_t)floor(gt_uniform(r, 0, 1 << 30));
		fb[b] = gt_uniform(r, -1, 1), fabs_sum[b] = fabs(fb[b]);
	}
	for (int i = 0; i < 8 * N; i++)
		uniq[i] = (int32_t)floor(gt_uniform(r, -(1 << 20), 1 << 20));
	memcpy(uniq + 5 * N, uniq + 4 * N, N * sizeof *uniq);   /* cas reads the initial value */
	float hfb[NB];
	for (int b = 0; b < NB; b++)
		hfb[b] = (float)fb[b], fb[b] = hfb[b];
	P dbk = gt_upload(bk, sizeof bk), dfb = gt_upload(hfb, sizeof hfb),
	  du = gt_upload(uniq, sizeof uniq);
	gt_launched(tl_mem_atomics(NULL, N / BLOCK, 1, 1, dx, didx, df, dbk, dfb, du, N),
	            "tl_mem_atomics");
	double ref[ROWS * NB], uref[8 * N], fref[NB];
	for (int i = 0; i < ROWS * NB; i++)
		ref[i] = bk[i];
	for (int b = 0; b < NB; b++)
		fref[b] = fb[b];
	for (int i = 0; i < N; i++) {
		int b = idx[i];
		int32_t v = x[i];
		const int32_t *u = uniq;
		ref[b] = (int32_t)((uint32_t)(int32_t)ref[b] + (uint32_t)v);
		ref[NB + b] = fmax(ref[NB + b], v), ref[2 * NB + b] = fmin(ref[2 * NB + b], v);
		ref[3 * NB + b] = (int32_t)ref[3 * NB + b] & v, ref[4 * NB + b] = (int32_t)ref[4 * NB + b] | v;
		ref[5 * NB + b] = (int32_t)ref[5 * NB + b] ^ v;
		fref[b] += (float)f[i], fabs_sum[b] += fabs(f[i]);
		uref[i] = (int32_t)((uint32_t)u[i] + (uint32_t)v), uref[N + i] = u[i];
		uref[2 * N + i] = v, uref[3 * N + i] = u[2 * N + i];
		uref[4 * N + i] = i % 2 == 0 ? v : u[4 * N + i], uref[5 * N + i] = u[4 * N + i];
		uref[6 * N + i] = (int32_t)((uint32_t)u[6 * N + i] + (uint32_t)v);
		uref[7 * N + i] = u[7 * N + i] > v ? u[7 * N + i] : v;
	}
	int32_t *got = gt_download(dbk, sizeof bk);
	char what[64];
	snprintf(what, sizeof what, "tl_mem_atomics buckets run %d", rep);
	gt_compare(r, what, GT_I32, got, ref, ROWS * NB, TL_EXACT);
	free(got);
	float *fgot = gt_download(dfb, sizeof hfb);
	double fatol[NB];
	for (int b = 0; b < NB; b++)
		fatol[b] = fabs_sum[b] * N * 0x1p-24;   /* any order of the f32 adds */
	snprintf(what, sizeof what, "tl_mem_atomics f32 buckets run %d", rep);
	gt_compare(r, what, GT_F32, fgot, fref, NB, (GtTol){0, 0, fatol});
	free(fgot);
	got = gt_download(du, sizeof uniq);
	snprintf(what, sizeof what, "tl_mem_atomics own addresses run %d", rep);
	gt_compare(r, what, GT_I32, got, uref, 8 * N, TL_EXACT);
	free(got), free(f);
	tl_free((P[]){dx, didx, df, dbk, dfb, du}, 6);
}

int
main(void)
{
	GtRun r;
	gt_start(&r, "test_tl_mem");
	for (int rep = 1; rep <= 2; rep++) {
		if (tl_have(&r, tl_mem_bp_copy, "tl_mem_bp_copy"))
			run_bp_copy(&r, rep);
		if (tl_have(&r, tl_mem_bp_rows, "tl_mem_bp_rows"))
			run_bp_rows(&r, rep);
		if (tl_have(&r, tl_mem_desc_made, "tl_mem_desc_made"))
			run_desc_made(&r, rep);
		if (tl_have(&r, tl_mem_desc_args, "tl_mem_desc_args"))
			run_desc_args(&r, rep);
		if (tl_have(&r, tl_mem_atomics, "tl_mem_atomics"))
			run_atomics(&r, rep);
	}
	return gt_finish(&r);
}
