/*
 * GPU test of examples/transpose.gl: transpose_f32 (a convert_layout through
 * shared memory) and relayout_copy_f32 (a shuffle conversion then a free
 * one). Both only move data, so the result must be bit-exact.
 *
 * Shapes include single elements, whole tiles, ragged edges on either side
 * and thin matrices. Both matrices have padded row strides (rows 16-byte
 * aligned) and the destination has a margin of extra rows; padding and
 * margin must stay poisoned. Every case runs twice on fresh inputs.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_test.h"

#pragma weak transpose_f32
#pragma weak relayout_copy_f32
glrt_status transpose_f32(glrt_stream stream, unsigned grid_x, unsigned grid_y,
                          unsigned grid_z, glrt_devptr src, glrt_devptr dst,
                          int32_t M, int32_t N, int32_t stride_src,
                          int32_t stride_dst);
glrt_status relayout_copy_f32(glrt_stream stream, unsigned grid_x, unsigned grid_y,
                              unsigned grid_z, glrt_devptr src, glrt_devptr dst,
                              int32_t M, int32_t N, int32_t stride_src,
                              int32_t stride_dst);

typedef glrt_status (*MoveLauncher)(glrt_stream, unsigned, unsigned, unsigned,
                                    glrt_devptr, glrt_devptr, int32_t, int32_t,
                                    int32_t, int32_t);

enum { TILE = 64 };  /* both kernels' tile edge */

/* One launch on a fresh [M, N] source; `transposed` says whether the
 * destination is [N, M] (transpose) or [M, N] (copy). */
static void
run_case(GtRun *r, const char *name, MoveLauncher launch, bool transposed,
         size_t M, size_t N, int rep)
{
	size_t dr = transposed ? N : M, dc = transposed ? M : N;
	size_t ss = (N + 3) / 4 * 4 + 4, ds = (dc + 3) / 4 * 4 + 8;
	size_t rows = dr + 3, i, j;
	float *hs = gt_alloc(M * ss * sizeof *hs), *hd;
	double *s = gt_alloc(M * ss * sizeof *s), *ref = gt_alloc(rows * ds * sizeof *ref);
	glrt_devptr dsrc, ddst;
	GtTol exact = {0, 0, NULL};
	char what[128];

	gt_fill(r, GT_F32, hs, s, M * ss, -1000, 1000);
	for (i = 0; i < rows * ds; i++)
		ref[i] = GT_UNWRITTEN;
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++)
			ref[transposed ? j * ds + i : i * ds + j] = s[i * ss + j];
	dsrc = gt_upload(hs, M * ss * sizeof *hs);
	ddst = gt_poisoned(rows * ds * sizeof *hd);
	gt_launched(launch(NULL, gt_cdiv(M, TILE), gt_cdiv(N, TILE), 1, dsrc, ddst,
	                   (int32_t)M, (int32_t)N, (int32_t)ss, (int32_t)ds), name);
	hd = gt_download(ddst, rows * ds * sizeof *hd);
	snprintf(what, sizeof what, "%s M=%zu N=%zu run %d", name, M, N, rep);
	gt_compare(r, what, GT_F32, hd, ref, rows * ds, exact);
	gt_check(glrt_free(dsrc), "glrt_free");
	gt_check(glrt_free(ddst), "glrt_free");
	free(hs);
	free(hd);
	free(s);
	free(ref);
}

static void
run_kernel(GtRun *r, const char *name, MoveLauncher launch, bool transposed)
{
	static const size_t shapes[][2] = {
		{1, 1}, {64, 64}, {65, 63}, {100, 300}, {1000, 1}, {3, 2000},
		{2048, 2051}, {4096, 4096},
	};
	size_t k;
	int rep;

	if (!launch) {
		gt_skip(r, name, "not compiled by glc (no launcher linked)");
		return;
	}
	for (k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
		for (rep = 1; rep <= 2; rep++)
			run_case(r, name, launch, transposed, shapes[k][0], shapes[k][1], rep);
}

int
main(void)
{
	GtRun r;

	gt_start(&r, "transpose");
	run_kernel(&r, "transpose_f32", transpose_f32, true);
	run_kernel(&r, "relayout_copy_f32", relayout_copy_f32, false);
	return gt_finish(&r);
}
