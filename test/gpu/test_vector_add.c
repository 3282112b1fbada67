/*
 * GPU test of examples/vector_add.gl: z = x + y for f32 and f16.
 *
 * Sizes cover a single element, partial and exact blocks, odd sizes and a
 * large vector; the output buffer extends past n to the end of the last
 * block plus a margin, and that tail must stay poisoned (the mask). Every
 * case runs twice on fresh inputs.
 *
 * Tolerance: an IEEE add is correctly rounded, so the f32 result is within
 * 2^-24 |x + y| of the exact sum. For f16 the sum is within 2^-11 |x + y|
 * (half an ulp) for normal results and 2^-25 absolute for subnormal ones;
 * 2^-24 relative more covers a sum taken in f32 and rounded again to f16.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_test.h"

/* The launchers (as in vector_add.h); weak so that the driver links and
 * reports SKIP when glc could not compile a kernel. */
#pragma weak vector_add_f32
#pragma weak vector_add_f16
glrt_status vector_add_f32(glrt_stream stream, unsigned grid_x, unsigned grid_y,
                           unsigned grid_z, glrt_devptr x, glrt_devptr y,
                           glrt_devptr z, int32_t n);
glrt_status vector_add_f16(glrt_stream stream, unsigned grid_x, unsigned grid_y,
                           unsigned grid_z, glrt_devptr x, glrt_devptr y,
                           glrt_devptr z, int32_t n);

typedef glrt_status (*AddLauncher)(glrt_stream, unsigned, unsigned, unsigned,
                                   glrt_devptr, glrt_devptr, glrt_devptr, int32_t);

/* One launch over n elements with fresh inputs; BLOCK is the kernel's
 * constexpr default (elements per program). */
static void
run_case(GtRun *r, const char *name, AddLauncher launch, GtType t, size_t block,
         size_t n, int rep)
{
	size_t cap = gt_cdiv(n, block) * block + 64, es = gt_size(t), i;
	void *hx = gt_alloc(n * es), *hy = gt_alloc(n * es), *hz;
	double *x = gt_alloc(n * sizeof *x), *y = gt_alloc(n * sizeof *y);
	double *ref = gt_alloc(cap * sizeof *ref);
	glrt_devptr dx, dy, dz;
	GtTol tol = {0x1p-24, 0, NULL};
	char what[128];

	if (t == GT_F16) {
		tol.rtol = 0x1p-11 + 0x1p-24;
		tol.atol = 0x1p-25;
	}
	gt_fill(r, t, hx, x, n, -1, 1);
	gt_fill(r, t, hy, y, n, -1, 1);
	for (i = 0; i < cap; i++)
		ref[i] = i < n ? x[i] + y[i] : GT_UNWRITTEN;
	dx = gt_upload(hx, n * es);
	dy = gt_upload(hy, n * es);
	dz = gt_poisoned(cap * es);
	gt_launched(launch(NULL, gt_cdiv(n, block), 1, 1, dx, dy, dz, (int32_t)n),
	            name);
	hz = gt_download(dz, cap * es);
	snprintf(what, sizeof what, "%s n=%zu run %d", name, n, rep);
	gt_compare(r, what, t, hz, ref, cap, tol);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	gt_check(glrt_free(dz), "glrt_free");
	free(hx);
	free(hy);
	free(hz);
	free(x);
	free(y);
	free(ref);
}

static void
run_kernel(GtRun *r, const char *name, AddLauncher launch, GtType t, size_t block)
{
	static const size_t sizes[] = {1, 7, 513, 2048, 4096, 4097, 1000003,
	                               (1u << 24) + 5};
	size_t k;
	int rep;

	if (!launch) {
		gt_skip(r, name, "not compiled by glc (no launcher linked)");
		return;
	}
	for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
		for (rep = 1; rep <= 2; rep++)
			run_case(r, name, launch, t, block, sizes[k], rep);
}

int
main(void)
{
	GtRun r;

	gt_start(&r, "vector_add");
	run_kernel(&r, "vector_add_f32", vector_add_f32, GT_F32, 2048);
	run_kernel(&r, "vector_add_f16", vector_add_f16, GT_F16, 4096);
	return gt_finish(&r);
}
