/*
 * GPU test of test/gpu/tma_desc.gl: TMA descriptors built in the kernel
 * (tma.make_tensor_descriptor), their global scratch allocated by libglrt
 * for each launch. Each program loads its tile through one descriptor and
 * stores it through another: the output must equal the input inside the
 * bounds and stay unwritten outside them (the row padding between N and
 * the row stride included), and the tile as loaded must hold the padding
 * past the bounds: zeros (2-D f32, swizzled, a row stride wider than the
 * rows) or NaNs (1-D f16, many programs). The 2-D kernel also writes back
 * the extents its descriptors hold. Every case runs twice on fresh inputs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"

#pragma weak desc_tile_2d
#pragma weak desc_tile_1d
glrt_status desc_tile_2d(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                         glrt_devptr, int32_t, int32_t, int32_t);
glrt_status desc_tile_1d(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                         glrt_devptr, int32_t);

enum { BM = 64, BN = 32, BLOCK = 256, MARGIN = 256 };

static const GtTol exact = {0, 0, NULL};

/* Downloads n values of type t at d, compares them with ref and frees d. */
static void
check(GtRun *r, const char *what, GtType t, glrt_devptr d, const double *ref, size_t n)
{
	void *got = gt_download(d, n * gt_size(t));

	gt_compare(r, what, t, got, ref, n, exact);
	free(got);
	gt_check(glrt_free(d), "glrt_free");
}

static void
case_2d(GtRun *r, int M, int N, int ld, int rep)
{
	unsigned gm = gt_cdiv((size_t)M, BM), gn = gt_cdiv((size_t)N, BN);
	size_t n_x = (size_t)M * ld, n_tiles = (size_t)gm * gn * BM * BN + 2 * (size_t)gm * gn;
	float *x = gt_alloc(n_x * sizeof *x);
	double *xv = gt_alloc(n_x * sizeof *xv), *ref_y = gt_alloc((n_x + MARGIN) * sizeof *ref_y);
	double *ref_t = gt_alloc(n_tiles * sizeof *ref_t);
	char what[96];

	gt_fill(r, GT_F32, x, xv, n_x, -100, 100);
	glrt_devptr dx = gt_upload(x, n_x * 4), dy = gt_poisoned((n_x + MARGIN) * 4);
	glrt_devptr dt = gt_poisoned(n_tiles * 4);
	/* TMA stores write whole 16-byte chunks (the hardware's limit, as
	 * Triton documents it): a row's last chunk past N carries the tile's zero
	 * padding. */
	int n16 = (N + 3) / 4 * 4;
	for (size_t i = 0; i < n_x + MARGIN; i++) {
		int col = (int)(i % (size_t)ld);
		ref_y[i] = i >= n_x ? GT_UNWRITTEN : col < N ? xv[i] : col < n16 ? 0 : GT_UNWRITTEN;
	}
	for (unsigned pm = 0; pm < gm; pm++)
		for (unsigned pn = 0; pn < gn; pn++) {
			size_t p = (size_t)pm * gn + pn;
			for (int a = 0; a < BM; a++)
				for (int b = 0; b < BN; b++) {
					int i = (int)pm * BM + a, j = (int)pn * BN + b;
					ref_t[p * BM * BN + (size_t)a * BN + b] =
					        i < M && j < N ? xv[(size_t)i * ld + j] : 0;
				}
			ref_t[(size_t)gm * gn * BM * BN + 2 * p] = M;
			ref_t[(size_t)gm * gn * BM * BN + 2 * p + 1] = N;
		}
	gt_launched(desc_tile_2d(NULL, gm, gn, 1, dx, dy, dt, M, N, ld), "desc_tile_2d");
	snprintf(what, sizeof what, "desc_tile_2d %dx%d ld %d: TMA store run %d", M, N, ld, rep);
	check(r, what, GT_F32, dy, ref_y, n_x + MARGIN);
	snprintf(what, sizeof what, "desc_tile_2d %dx%d ld %d: tiles, zero padding run %d", M, N,
	         ld, rep);
	check(r, what, GT_F32, dt, ref_t, n_tiles);
	gt_check(glrt_free(dx), "glrt_free");
	free(x);
	free(xv);
	free(ref_y);
	free(ref_t);
}

static void
case_1d(GtRun *r, int n, int rep)
{
	unsigned grid = gt_cdiv((size_t)n, BLOCK);
	size_t n_t = (size_t)grid * BLOCK, bad = 0, first = 0;
	uint16_t *x = gt_alloc((size_t)n * 2), *t;
	double *xv = gt_alloc((size_t)n * sizeof *xv), *ref_y = gt_alloc((n + MARGIN) *
	                                                                 sizeof *ref_y);
	uint16_t *zeros = calloc(n_t, 2);
	char what[96];

	gt_fill(r, GT_F16, x, xv, (size_t)n, -100, 100);
	glrt_devptr dx = gt_upload(x, (size_t)n * 2), dy = gt_poisoned((n + MARGIN) * 2);
	glrt_devptr dt = gt_upload(zeros, n_t * 2);   /* NaN padding must be written */
	for (int i = 0; i < n + MARGIN; i++)
		ref_y[i] = i < n ? xv[i] : GT_UNWRITTEN;
	gt_launched(desc_tile_1d(NULL, grid, 1, 1, dx, dy, dt, n), "desc_tile_1d");
	snprintf(what, sizeof what, "desc_tile_1d n=%d: TMA store run %d", n, rep);
	check(r, what, GT_F16, dy, ref_y, (size_t)n + MARGIN);
	t = gt_download(dt, n_t * 2);
	for (size_t i = 0; i < n_t; i++) {
		float v = gt_f16_to_float(t[i]);
		bool ok = i < (size_t)n ? v == (float)xv[i] : isnan(v);
		if (!ok && bad++ == 0)
			first = i;
	}
	snprintf(what, sizeof what, "desc_tile_1d n=%d: tiles, NaN padding run %d", n, rep);
	if (bad) {
		printf("FAIL %s: %zu of %zu wrong; first at %zu: 0x%04x\n", what, bad, n_t, first,
		       t[first]);
		r->failed++;
	} else {
		printf("PASS %s: %zu elements, %zu NaN past the end\n", what, n_t, n_t - (size_t)n);
		r->passed++;
	}
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dt), "glrt_free");
	free(x);
	free(xv);
	free(ref_y);
	free(zeros);
	free(t);
}

int
main(void)
{
	GtRun r;

	gt_start(&r, "tma_desc");
	for (int rep = 1; rep <= 2; rep++) {
		if (desc_tile_2d) {
			case_2d(&r, 100, 70, 72, rep);
			case_2d(&r, 64, 32, 32, rep);
			case_2d(&r, 300, 130, 132, rep);
		}
		if (desc_tile_1d) {
			/* Extents of whole 16-byte chunks: a store writes the chunk
			 * that holds n (case_2d checks that), here NaN padding. */
			case_1d(&r, 1000, rep);
			case_1d(&r, 100008, rep);
		}
	}
	if (!desc_tile_2d || !desc_tile_1d)
		gt_skip(&r, "tma_desc", "some kernels not compiled by glc (no launcher linked)");
	return gt_finish(&r);
}
