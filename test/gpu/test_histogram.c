/*
 * GPU test of examples/histogram.gl: counts of n int32 values in 256 bins
 * over grids of 1 to 264 programs (each walks its share of the tiles).
 *
 * Values are uniform in [-20, 280): those outside [0, 256) must not be
 * counted. The bins start at random counts, which the kernel's atomics add
 * to; a margin past the 256 bins stays poisoned. Counts are exact; every
 * case runs twice on fresh inputs.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_test.h"

#pragma weak histogram_i32
glrt_status histogram_i32(glrt_stream stream, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                          glrt_devptr x, glrt_devptr bins, int32_t n);

enum { BINS = 256, MARGIN = 16 };

static void
run_case(GtRun *r, size_t n, unsigned grid, int rep)
{
	int32_t *x = gt_alloc((n ? n : 1) * sizeof *x), bins[BINS + MARGIN];
	double ref[BINS + MARGIN];
	glrt_devptr dx, db;
	GtTol exact = {0, 0, NULL};
	void *got;
	size_t i;
	char what[96];

	for (i = 0; i < BINS + MARGIN; i++) {
		bins[i] = i < BINS ? (int32_t)gt_uniform(r, 0, 1000) : -1;
		ref[i] = i < BINS ? bins[i] : GT_UNWRITTEN;
	}
	for (i = 0; i < n; i++) {
		x[i] = (int32_t)floor(gt_uniform(r, -20, 280));
		if (x[i] >= 0 && x[i] < BINS)
			ref[x[i]]++;
	}
	dx = gt_upload(x, (n ? n : 1) * sizeof *x);
	db = gt_upload(bins, sizeof bins);
	gt_launched(histogram_i32(NULL, grid, 1, 1, dx, db, (int32_t)n), "histogram_i32");
	got = gt_download(db, sizeof bins);
	snprintf(what, sizeof what, "histogram_i32 n=%zu grid=%u run %d", n, grid, rep);
	gt_compare(r, what, GT_I32, got, ref, BINS + MARGIN, exact);
	free(got);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(db), "glrt_free");
	free(x);
}

int
main(void)
{
	static const struct { size_t n; unsigned grid; } cases[] = {
		{0, 1}, {1, 1}, {1000, 1}, {8192, 2}, {100003, 7}, {1 << 20, 264},
		{(16 << 20) + 5, 264},
	};
	GtRun r;
	size_t k;
	int rep;

	gt_start(&r, "histogram");
	if (!histogram_i32) {
		gt_skip(&r, "histogram_i32", "not compiled by glc (no launcher linked)");
		return gt_finish(&r);
	}
	for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
		for (rep = 1; rep <= 2; rep++)
			run_case(&r, cases[k].n, cases[k].grid, rep);
	return gt_finish(&r);
}
