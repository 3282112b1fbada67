/*
 * GPU test of test/gpu/grid.py, a Gluon file compiled as compile.py
 * compiles it, with -g "(n + BLOCK - 1) / BLOCK, m, 1": the launchers
 * compute their grid and take none. scale_rows is the launcher of the
 * object (-c); scale_rows_c that of the C of the .c/.h pair, built here
 * with gcc. dst = alpha src over an m x n block of rows of `stride`
 * elements; the rest of each row, and an extra row, must stay unwritten.
 * A product by alpha is exact in f32 when alpha is a power of two.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_test.h"

#pragma weak scale_rows
#pragma weak scale_rows_c
glrt_status scale_rows(glrt_stream stream, glrt_devptr src, glrt_devptr dst, int32_t m,
                       int32_t n, int32_t stride, float alpha);
glrt_status scale_rows_c(glrt_stream stream, glrt_devptr src, glrt_devptr dst, int32_t m,
                         int32_t n, int32_t stride, float alpha);

typedef glrt_status (*ScaleRows)(glrt_stream, glrt_devptr, glrt_devptr, int32_t, int32_t,
                                 int32_t, float);

static void
run_case(GtRun *r, const char *name, ScaleRows launch, size_t m, size_t n, int rep)
{
	size_t stride = n + 13, total = (m + 1) * stride;
	double *x = gt_alloc(total * sizeof *x), *ref = gt_alloc(total * sizeof *ref);
	float *hx = gt_alloc(total * 4);
	gt_fill(r, GT_F32, hx, x, total, -50, 50);
	for (size_t i = 0; i < total; i++)
		ref[i] = i / stride < m && i % stride < n ? x[i] * 0.25 : GT_UNWRITTEN;
	glrt_devptr dx = gt_upload(hx, total * 4), dy = gt_poisoned(total * 4);
	gt_launched(launch(NULL, dx, dy, (int32_t)m, (int32_t)n, (int32_t)stride, 0.25f), name);
	float *got = gt_download(dy, total * 4);
	char what[96];
	snprintf(what, sizeof what, "%s m=%zu n=%zu run %d", name, m, n, rep);
	gt_compare(r, what, GT_F32, got, ref, total, (GtTol){0, 0, NULL});
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(x);
	free(ref);
	free(hx);
	free(got);
}

int
main(void)
{
	GtRun r;
	static const size_t shapes[][2] = {{1, 1}, {3, 511}, {2, 512}, {7, 513}, {40, 3000}, {0, 100},
	                                   {5, 0}};
	static const struct {
		const char *name;
		ScaleRows fn;
	} launchers[] = {{"scale_rows (object)", scale_rows}, {"scale_rows_c (C source)", scale_rows_c}};

	gt_start(&r, "grid");
	for (size_t l = 0; l < sizeof launchers / sizeof *launchers; l++) {
		if (!launchers[l].fn) {
			gt_skip(&r, launchers[l].name, "not compiled by glc (no launcher linked)");
			continue;
		}
		for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
			for (int rep = 1; rep <= 2; rep++)
				run_case(&r, launchers[l].name, launchers[l].fn, shapes[s][0], shapes[s][1],
				         rep);
	}
	return gt_finish(&r);
}
