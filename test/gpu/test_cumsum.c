/*
 * GPU test of examples/cumsum.gl: row-wise inclusive prefix sums of an
 * [M, N] f32 matrix with padded row strides (rows 16-byte aligned, the
 * output's stride different from the input's).
 *
 * Inputs are uniform in [-1, 1). The output has ROWS extra rows and a
 * padding column block; both must stay poisoned. Every case runs twice on
 * fresh inputs.
 *
 * Tolerance: however the additions of x[i, 0..j] are grouped, the f32
 * result is within gamma(j + 1) * sum_{k <= j} |x[i, k]| of the exact prefix
 * sum, gamma(n) = n u / (1 - n u), u = 2^-24 (Higham, Accuracy and
 * Stability, 3.1 and 4.2); each element gets that bound.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_test.h"

#pragma weak cumsum_rows_f32
glrt_status cumsum_rows_f32(glrt_stream stream, unsigned grid_x, unsigned grid_y,
                            unsigned grid_z, glrt_devptr x, glrt_devptr y, int32_t M,
                            int32_t N, int32_t stride_xm, int32_t stride_ym);

enum { ROWS = 4 };   /* the kernel's constexpr default */

static double
gamma_n(size_t n)
{
	double nu = (double)n * 0x1p-24;

	return nu / (1 - nu);
}

static void
run_case(GtRun *r, size_t M, size_t N, int rep)
{
	size_t sx = (N + 3) / 4 * 4 + 4, sy = (N + 3) / 4 * 4 + 8, my = M + ROWS, i, j;
	float *hx = gt_alloc(M * sx * sizeof *hx), *hy;
	double *x = gt_alloc(M * sx * sizeof *x), *ref = gt_alloc(my * sy * sizeof *ref);
	double *atol = gt_alloc(my * sy * sizeof *atol);
	glrt_devptr dx, dy;
	GtTol tol = {0, 0, atol};
	char what[96];

	gt_fill(r, GT_F32, hx, x, M * sx, -1, 1);
	for (i = 0; i < my * sy; i++) {
		ref[i] = GT_UNWRITTEN;
		atol[i] = 0;
	}
	for (i = 0; i < M; i++) {
		double s = 0, a = 0;

		for (j = 0; j < N; j++) {
			s += x[i * sx + j];
			a += fabs(x[i * sx + j]);
			ref[i * sy + j] = s;
			atol[i * sy + j] = gamma_n(j + 1) * a;
		}
	}
	dx = gt_upload(hx, M * sx * sizeof *hx);
	dy = gt_poisoned(my * sy * sizeof *hy);
	gt_launched(cumsum_rows_f32(NULL, gt_cdiv(M, ROWS), 1, 1, dx, dy, (int32_t)M, (int32_t)N,
	                            (int32_t)sx, (int32_t)sy), "cumsum_rows_f32");
	hy = gt_download(dy, my * sy * sizeof *hy);
	snprintf(what, sizeof what, "cumsum_rows_f32 M=%zu N=%zu run %d", M, N, rep);
	gt_compare(r, what, GT_F32, hy, ref, my * sy, tol);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(hx);
	free(hy);
	free(x);
	free(ref);
	free(atol);
}

int
main(void)
{
	static const size_t shapes[][2] = {
		{1, 1}, {3, 5}, {4, 512}, {5, 513}, {37, 1000}, {1000, 37}, {9, 4099},
		{64, 8192}, {4096, 8192},
	};
	GtRun r;
	size_t k;
	int rep;

	gt_start(&r, "cumsum");
	if (!cumsum_rows_f32) {
		gt_skip(&r, "cumsum_rows_f32", "not compiled by glc (no launcher linked)");
		return gt_finish(&r);
	}
	for (k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
		for (rep = 1; rep <= 2; rep++)
			run_case(&r, shapes[k][0], shapes[k][1], rep);
	return gt_finish(&r);
}
