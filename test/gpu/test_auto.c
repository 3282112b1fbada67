/*
 * GPU test of test/gpu/auto.gl: Triton-style kernels with every layout
 * inferred, whose tensors are updated inside runtime `for` and `while`
 * loops, `if`/`else` branches and as loop-carried tuples (the regression of
 * issue 21: such updates were dropped and the kernels stored zeros).
 *
 * Each kernel runs twice on fresh random inputs with poisoned outputs,
 * against a float64 reference; sizes are not multiples of the block, so
 * every loop has a masked tail, and the loops run several trips.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu_test.h"
/* The launchers come from auto.h, which run.sh passes with -include. */

enum { BLOCK = 512 };

/* Every f32 element within 1e-5 relative of a sum of `terms` values of
 * magnitude <= `scale` (f32 accumulation, any order). */
static GtTol
sum_tol(double terms, double scale)
{
	GtTol t = {1e-5, terms * scale * 0x1p-22, NULL};
	return t;
}

static void
run_aug(GtRun *r, int rep)
{
	const int N = 5 * BLOCK;
	double x[5 * BLOCK], ref[BLOCK];
	float hx[5 * BLOCK];
	gt_fill(r, GT_F32, hx, x, N, -3, 3);
	for (int c = 0; c < BLOCK; c++) {
		ref[c] = 0;
		for (int b = 0; b < N / BLOCK; b++)
			ref[c] += x[b * BLOCK + c] * x[b * BLOCK + c];
	}
	glrt_devptr dx = gt_upload(hx, sizeof hx), dy = gt_poisoned(BLOCK * 4);
	gt_launched(aug_auto(NULL, 1, 1, 1, dx, dy, N), "aug_auto");
	void *got = gt_download(dy, BLOCK * 4);
	char what[64];
	snprintf(what, sizeof what, "aug_auto run %d", rep);
	gt_compare(r, what, GT_F32, got, ref, BLOCK, sum_tol(5, 9));
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(got);
}

static void
run_l2norm(GtRun *r, int rep)
{
	const int M = 7, N = 1500;
	size_t n = (size_t)M * N;
	double *x = gt_alloc(n * sizeof *x), *ref = gt_alloc(n * sizeof *ref);
	float *hx = gt_alloc(n * 4);
	gt_fill(r, GT_F32, hx, x, n, -2, 2);
	for (int i = 0; i < M; i++) {
		double s = 0;
		for (int j = 0; j < N; j++)
			s += x[i * N + j] * x[i * N + j];
		for (int j = 0; j < N; j++)
			ref[i * N + j] = x[i * N + j] / sqrt(s);
	}
	glrt_devptr dx = gt_upload(hx, n * 4), dy = gt_poisoned(n * 4);
	gt_launched(l2norm_rows(NULL, M, 1, 1, dx, dy, N), "l2norm_rows");
	void *got = gt_download(dy, n * 4);
	char what[64];
	snprintf(what, sizeof what, "l2norm_rows run %d", rep);
	GtTol tol = {1e-5, 1e-7, NULL};
	gt_compare(r, what, GT_F32, got, ref, n, tol);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(x), free(ref), free(hx), free(got);
}

static void
run_layernorm(GtRun *r, int rep)
{
	const int M = 5, N = 2100;
	const float eps = 1e-5f;
	size_t n = (size_t)M * N;
	double *x = gt_alloc(n * sizeof *x), *ref = gt_alloc(n * sizeof *ref);
	double w[2100], b[2100], mref[5], rref[5];
	float *hx = gt_alloc(n * 4), hw[2100], hb[2100];
	gt_fill(r, GT_F32, hx, x, n, -3, 5);
	gt_fill(r, GT_F32, hw, w, N, 0.5, 1.5);
	gt_fill(r, GT_F32, hb, b, N, -1, 1);
	for (int i = 0; i < M; i++) {
		double mean = 0, var = 0;
		for (int j = 0; j < N; j++)
			mean += x[i * N + j];
		mean /= N;
		for (int j = 0; j < N; j++)
			var += (x[i * N + j] - mean) * (x[i * N + j] - mean);
		var /= N;
		double rstd = 1 / sqrt(var + eps);
		mref[i] = mean, rref[i] = rstd;
		for (int j = 0; j < N; j++)
			ref[i * N + j] = (x[i * N + j] - mean) * rstd * w[j] + b[j];
	}
	glrt_devptr dx = gt_upload(hx, n * 4), dw = gt_upload(hw, N * 4), db = gt_upload(hb, N * 4);
	glrt_devptr dy = gt_poisoned(n * 4), dm = gt_poisoned(M * 4), dr = gt_poisoned(M * 4);
	gt_launched(layernorm_auto(NULL, M, 1, 1, dx, dy, dw, db, dm, dr, N, eps),
	            "layernorm_auto");
	void *got = gt_download(dy, n * 4), *gm = gt_download(dm, M * 4),
	     *gr = gt_download(dr, M * 4);
	char what[64];
	GtTol tol = {1e-5, 1e-5, NULL};
	snprintf(what, sizeof what, "layernorm_auto y run %d", rep);
	gt_compare(r, what, GT_F32, got, ref, n, tol);
	snprintf(what, sizeof what, "layernorm_auto mean run %d", rep);
	gt_compare(r, what, GT_F32, gm, mref, M, tol);
	snprintf(what, sizeof what, "layernorm_auto rstd run %d", rep);
	gt_compare(r, what, GT_F32, gr, rref, M, tol);
	glrt_devptr all[] = {dx, dw, db, dy, dm, dr};
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		gt_check(glrt_free(all[i]), "glrt_free");
	free(x), free(ref), free(hx), free(got), free(gm), free(gr);
}

/* R rows of C columns: shared by while_branches and tuple_carried. */
static void
run_rows(GtRun *r, int rep)
{
	const int R = 11, C = 1300;
	size_t n = (size_t)R * C;
	double *x = gt_alloc(n * sizeof *x), *wb = gt_alloc(C * sizeof *wb),
	       *mx = gt_alloc(C * sizeof *mx), *sm = gt_alloc(C * sizeof *sm);
	float *hx = gt_alloc(n * 4);
	gt_fill(r, GT_F32, hx, x, n, -4, 4);
	for (int c = 0; c < C; c++) {
		double acc = 0, m = -INFINITY, s = 0;
		for (int i = 0; i < R; i++) {
			acc += (i % 2 ? 2 : 1) * x[i * C + c];
			m = fmax(m, x[i * C + c]);
			s += x[i * C + c];
		}
		wb[c] = acc - R, mx[c] = m, sm[c] = s;
	}
	glrt_devptr dx = gt_upload(hx, n * 4), dy = gt_poisoned(C * 4), dmx = gt_poisoned(C * 4),
	            dsm = gt_poisoned(C * 4);
	unsigned grid = gt_cdiv(C, BLOCK);
	gt_launched(while_branches(NULL, grid, 1, 1, dx, dy, R, C), "while_branches");
	gt_launched(tuple_carried(NULL, grid, 1, 1, dx, dmx, dsm, R, C), "tuple_carried");
	void *gy = gt_download(dy, C * 4), *gmx = gt_download(dmx, C * 4),
	     *gsm = gt_download(dsm, C * 4);
	char what[64];
	snprintf(what, sizeof what, "while_branches run %d", rep);
	gt_compare(r, what, GT_F32, gy, wb, C, sum_tol(2 * R, 8));
	snprintf(what, sizeof what, "tuple_carried max run %d", rep);
	GtTol exact = {0, 0, NULL};
	gt_compare(r, what, GT_F32, gmx, mx, C, exact);
	snprintf(what, sizeof what, "tuple_carried sum run %d", rep);
	gt_compare(r, what, GT_F32, gsm, sm, C, sum_tol(R, 4));
	glrt_devptr all[] = {dx, dy, dmx, dsm};
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		gt_check(glrt_free(all[i]), "glrt_free");
	free(x), free(wb), free(mx), free(sm), free(hx), free(gy), free(gmx), free(gsm);
}

static void
run_tile_sum(GtRun *r, int rep)
{
	const int K = 9, M = 70, N = 150;
	size_t n = (size_t)K * M * N;
	double *x = gt_alloc(n * sizeof *x), *ref = gt_alloc((size_t)M * N * sizeof *ref);
	uint16_t *hx = gt_alloc(n * 2);
	gt_fill(r, GT_F16, hx, x, n, -8, 8);
	for (int i = 0; i < M * N; i++) {
		double s = 0;
		for (int k = 0; k < K; k++)
			s += x[(size_t)k * M * N + i];
		ref[i] = s;
	}
	glrt_devptr dx = gt_upload(hx, n * 2), dy = gt_poisoned((size_t)M * N * 4);
	gt_launched(tile_sum_2d(NULL, gt_cdiv(M, 32), gt_cdiv(N, 64), 1, dx, dy, K, M, N),
	            "tile_sum_2d");
	void *got = gt_download(dy, (size_t)M * N * 4);
	char what[64];
	snprintf(what, sizeof what, "tile_sum_2d run %d", rep);
	gt_compare(r, what, GT_F32, got, ref, (size_t)M * N, sum_tol(K, 8));
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(x), free(ref), free(hx), free(got);
}

int
main(void)
{
	GtRun r;
	gt_start(&r, "test_auto");
	for (int rep = 1; rep <= 2; rep++) {
		run_aug(&r, rep);
		run_l2norm(&r, rep);
		run_layernorm(&r, rep);
		run_rows(&r, rep);
		run_tile_sum(&r, rep);
	}
	return gt_finish(&r);
}
