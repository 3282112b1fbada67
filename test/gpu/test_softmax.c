/*
 * GPU test of examples/softmax.gl: row-wise softmax of an [M, N] matrix,
 * f32 and f16 storage, runtime row strides.
 *
 * Inputs are uniform in [-8, 8) plus a per-row offset in [-20, 20), so the
 * row maximum really has to be subtracted. Input and output have different
 * padded row strides (rows stay 16-byte aligned) and the output has extra
 * rows; padding columns and rows past M must stay poisoned. Every case runs
 * twice on fresh inputs.
 *
 * Tolerance (relative to the float64 reference): the kernel works in f32.
 * The sum of N <= 1024 positive terms is within N * 2^-24 (6.1e-5) of exact
 * in any order; ex2.approx is within 2^-22 relative, and its argument
 * (v - max) * log2(e), at most 23 in size, carries 23 * 2^-24 absolute error
 * (1.4e-6 relative after exponentiation); the reciprocal and the product
 * add two roundings. So rtol = 1e-4 for f32; f16 adds its final rounding,
 * 2^-11 relative, or 2^-25 absolute in the subnormal range.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_test.h"

#pragma weak softmax_f32
#pragma weak softmax_f16
glrt_status softmax_f32(glrt_stream stream, unsigned grid_x, unsigned grid_y,
                        unsigned grid_z, glrt_devptr x, glrt_devptr y, int32_t M,
                        int32_t N, int32_t stride_xm, int32_t stride_ym);
glrt_status softmax_f16(glrt_stream stream, unsigned grid_x, unsigned grid_y,
                        unsigned grid_z, glrt_devptr x, glrt_devptr y, int32_t M,
                        int32_t N, int32_t stride_xm, int32_t stride_ym);

typedef glrt_status (*SoftmaxLauncher)(glrt_stream, unsigned, unsigned, unsigned,
                                       glrt_devptr, glrt_devptr, int32_t, int32_t,
                                       int32_t, int32_t);

enum { ROWS = 4, BLOCK_N = 1024 };  /* the kernels' constexpr defaults */

static size_t
round_up(size_t n, size_t m)
{
	return (n + m - 1) / m * m;
}

static void
run_case(GtRun *r, const char *name, SoftmaxLauncher launch, GtType t, size_t M,
         size_t N, int rep)
{
	size_t es = gt_size(t), align = 16 / es;
	size_t sx = round_up(N, align) + align, sy = round_up(N, align) + 2 * align;
	size_t my = M + ROWS, i, j;
	void *hx = gt_alloc(M * sx * es), *hy;
	double *x = gt_alloc(M * sx * sizeof *x), *ref = gt_alloc(my * sy * sizeof *ref);
	glrt_devptr dx, dy;
	GtTol tol = {1e-4, 1e-12, NULL};
	char what[128];

	if (t == GT_F16) {
		tol.rtol = 1e-4 + 0x1p-11;
		tol.atol = 0x1p-25;
	}
	gt_fill(r, t, hx, x, M * sx, -8, 8);
	/* Shift each row, and store the shifted values exactly. */
	for (i = 0; i < M; i++) {
		double off = gt_uniform(r, -20, 20);

		for (j = 0; j < sx; j++) {
			float v = (float)(x[i * sx + j] + off);

			if (t == GT_F16) {
				uint16_t h = gt_f16_from_float(v);

				((uint16_t *)hx)[i * sx + j] = h;
				x[i * sx + j] = gt_f16_to_float(h);
			} else {
				((float *)hx)[i * sx + j] = v;
				x[i * sx + j] = v;
			}
		}
	}
	for (i = 0; i < my * sy; i++)
		ref[i] = GT_UNWRITTEN;
	for (i = 0; i < M; i++) {
		const double *row = x + i * sx;
		double m = row[0], s = 0;

		for (j = 1; j < N; j++)
			m = row[j] > m ? row[j] : m;
		for (j = 0; j < N; j++)
			s += exp(row[j] - m);
		for (j = 0; j < N; j++)
			ref[i * sy + j] = exp(row[j] - m) / s;
	}
	dx = gt_upload(hx, M * sx * es);
	dy = gt_poisoned(my * sy * es);
	gt_launched(launch(NULL, gt_cdiv(M, ROWS), 1, 1, dx, dy, (int32_t)M, (int32_t)N,
	                   (int32_t)sx, (int32_t)sy), name);
	hy = gt_download(dy, my * sy * es);
	snprintf(what, sizeof what, "%s M=%zu N=%zu run %d", name, M, N, rep);
	gt_compare(r, what, t, hy, ref, my * sy, tol);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(hx);
	free(hy);
	free(x);
	free(ref);
}

static void
run_kernel(GtRun *r, const char *name, SoftmaxLauncher launch, GtType t)
{
	static const size_t shapes[][2] = {
		{1, 1}, {3, 7}, {4, 128}, {5, 1024}, {37, 1000}, {130, 257},
		{1001, 513}, {4096, 1024},
	};
	size_t k;
	int rep;

	if (!launch) {
		gt_skip(r, name, "not compiled by glc (no launcher linked)");
		return;
	}
	for (k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
		for (rep = 1; rep <= 2; rep++)
			run_case(r, name, launch, t, shapes[k][0], shapes[k][1], rep);
}

int
main(void)
{
	GtRun r;

	gt_start(&r, "softmax");
	run_kernel(&r, "softmax_f32", softmax_f32, GT_F32);
	run_kernel(&r, "softmax_f16", softmax_f16, GT_F16);
	return gt_finish(&r);
}
