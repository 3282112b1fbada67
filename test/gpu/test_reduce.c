/*
 * GPU test of examples/reduce.gl: row sums and column sums of an [M, N] f32
 * matrix with a padded row stride (rows 16-byte aligned).
 *
 * Inputs are uniform in [-1, 1). The outputs extend past M (row sums) or N
 * (column sums) to a whole number of programs plus a margin; that tail must
 * stay poisoned. Every case runs twice on fresh inputs.
 *
 * Tolerance: a sum of n f32 terms taken in any order in f32 is within
 * gamma(n) * sum |x_k| of the exact sum, gamma(n) = n u / (1 - n u) with
 * u = 2^-24 (Higham, Accuracy and Stability, 4.2). Each output gets that
 * bound as its absolute tolerance.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_test.h"

#pragma weak row_sum_f32
#pragma weak col_sum_f32
glrt_status row_sum_f32(glrt_stream stream, unsigned grid_x, unsigned grid_y,
                        unsigned grid_z, glrt_devptr x, glrt_devptr out, int32_t M,
                        int32_t N, int32_t stride_xm);
glrt_status col_sum_f32(glrt_stream stream, unsigned grid_x, unsigned grid_y,
                        unsigned grid_z, glrt_devptr x, glrt_devptr out, int32_t M,
                        int32_t N, int32_t stride_xm);

/* The kernels' constexpr defaults: rows per row_sum program, columns per
 * col_sum program. */
enum { ROW_PROGRAM = 8, COL_PROGRAM = 128 };

static double
gamma_n(size_t n)
{
	double nu = (double)n * 0x1p-24;

	return nu / (1 - nu);
}

/* One launch of row_sum (by_rows) or col_sum on fresh inputs. */
static void
run_case(GtRun *r, bool by_rows, size_t M, size_t N, int rep)
{
	const char *name = by_rows ? "row_sum_f32" : "col_sum_f32";
	size_t sx = (N + 3) / 4 * 4 + 4, i, j;
	size_t outs = by_rows ? M : N, per = by_rows ? ROW_PROGRAM : COL_PROGRAM;
	size_t cap = gt_cdiv(outs, per) * per + 16;
	float *hx = gt_alloc(M * sx * sizeof *hx), *hout;
	double *x = gt_alloc(M * sx * sizeof *x), *ref = gt_alloc(cap * sizeof *ref);
	double *abs_sum = gt_alloc(cap * sizeof *abs_sum), *atol = gt_alloc(cap * sizeof *atol);
	glrt_devptr dx, dout;
	GtTol tol = {0, 0, atol};
	glrt_status st;
	char what[128];

	gt_fill(r, GT_F32, hx, x, M * sx, -1, 1);
	for (i = 0; i < cap; i++) {
		ref[i] = i < outs ? 0 : GT_UNWRITTEN;
		abs_sum[i] = 0;
	}
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			size_t o = by_rows ? i : j;

			ref[o] += x[i * sx + j];
			abs_sum[o] += fabs(x[i * sx + j]);
		}
	for (i = 0; i < cap; i++)
		atol[i] = gamma_n(by_rows ? N : M) * abs_sum[i];
	dx = gt_upload(hx, M * sx * sizeof *hx);
	dout = gt_poisoned(cap * sizeof *hout);
	if (by_rows)
		st = row_sum_f32(NULL, gt_cdiv(M, ROW_PROGRAM), 1, 1, dx, dout, (int32_t)M,
		                 (int32_t)N, (int32_t)sx);
	else
		st = col_sum_f32(NULL, gt_cdiv(N, COL_PROGRAM), 1, 1, dx, dout, (int32_t)M,
		                 (int32_t)N, (int32_t)sx);
	gt_launched(st, name);
	hout = gt_download(dout, cap * sizeof *hout);
	snprintf(what, sizeof what, "%s M=%zu N=%zu run %d", name, M, N, rep);
	gt_compare(r, what, GT_F32, hout, ref, cap, tol);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dout), "glrt_free");
	free(hx);
	free(hout);
	free(x);
	free(ref);
	free(abs_sum);
	free(atol);
}

static void
run_kernel(GtRun *r, bool by_rows, bool linked)
{
	static const size_t shapes[][2] = {
		{1, 1}, {5, 3}, {8, 256}, {37, 1000}, {1000, 37}, {257, 4099},
		{4096, 4096}, {3, 100003},
	};
	size_t k;
	int rep;

	if (!linked) {
		gt_skip(r, by_rows ? "row_sum_f32" : "col_sum_f32",
		        "not compiled by glc (no launcher linked)");
		return;
	}
	for (k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
		for (rep = 1; rep <= 2; rep++)
			run_case(r, by_rows, shapes[k][0], shapes[k][1], rep);
}

int
main(void)
{
	GtRun r;

	gt_start(&r, "reduce");
	run_kernel(&r, true, row_sum_f32 != NULL);
	run_kernel(&r, false, col_sum_f32 != NULL);
	return gt_finish(&r);
}
