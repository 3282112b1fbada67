/*
 * GPU test of test/gpu/shapes.gl: gl.reshape, gl.ravel, gl.permute (and the
 * method), gl.join and x.split(), gl.broadcast, gl.gather along both axes
 * with index tensors in other layouts, and gl.histogram with a mask, values
 * outside the bins and a layout that holds each element in 32 threads.
 *
 * Each kernel converts the result of the operation to a layout written out
 * in shapes.gl before storing it, so an element placed wrong by the
 * operation shows as a wrong value. Data movement is exact; the row sums of
 * the reshape test are within gamma(32) * sum |x|. Outputs are poisoned;
 * every case runs twice on fresh random inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"

#pragma weak reshape_k
#pragma weak permute_k
#pragma weak join_split_k
#pragma weak broadcast_k
#pragma weak gather_k
#pragma weak histogram_k
#pragma weak histogram_rep
glrt_status reshape_k(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status permute_k(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status join_split_k(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                         glrt_devptr);
glrt_status broadcast_k(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status gather_k(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                     glrt_devptr, glrt_devptr, glrt_devptr);
glrt_status histogram_k(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                        int32_t);
glrt_status histogram_rep(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                          int32_t);

static const GtTol exact = {0, 0, NULL};

/* n f32 inputs (exact in a double reference too). */
static float *
inputs(GtRun *r, double *x, size_t n)
{
	float *h = gt_alloc(n * sizeof *h);

	gt_fill(r, GT_F32, h, x, n, -1000, 1000);
	return h;
}

/* Downloads n values of type t at d, compares them with ref and frees d. */
static void
check(GtRun *r, const char *what, GtType t, glrt_devptr d, const double *ref, size_t n,
      GtTol tol)
{
	void *got = gt_download(d, n * gt_size(t));

	gt_compare(r, what, t, got, ref, n, tol);
	free(got);
	gt_check(glrt_free(d), "glrt_free");
}

static void
reshape_case(GtRun *r, int rep)
{
	double x[512], ref[1040], atol[1040];
	float *h = inputs(r, x, 512);
	glrt_devptr dx = gt_upload(h, 512 * 4), dy = gt_poisoned(1040 * 4);
	GtTol tol = {0, 0, atol};
	size_t i, j;
	char what[64];

	for (i = 0; i < 1040; i++)
		atol[i] = 0;
	for (i = 0; i < 512; i++)
		ref[i] = ref[528 + i] = x[i];
	for (i = 0; i < 16; i++) {
		double s = 0, a = 0;

		for (j = 0; j < 32; j++) {
			s += x[i * 32 + j];
			a += fabs(x[i * 32 + j]);
		}
		ref[512 + i] = s;
		atol[512 + i] = 32 * 0x1p-24 / (1 - 32 * 0x1p-24) * a;
	}
	gt_launched(reshape_k(NULL, 1, 1, 1, dx, dy), "reshape_k");
	snprintf(what, sizeof what, "reshape_k run %d", rep);
	check(r, what, GT_F32, dy, ref, 1040, tol);
	gt_check(glrt_free(dx), "glrt_free");
	free(h);
}

static void
permute_case(GtRun *r, int rep)
{
	double *x = gt_alloc(2048 * sizeof *x), *ref = gt_alloc(4096 * sizeof *ref);
	float *h = inputs(r, x, 2048);
	glrt_devptr dx = gt_upload(h, 2048 * 4), dy = gt_poisoned(4096 * 4);
	size_t i, j;
	char what[64];

	for (i = 0; i < 32; i++)
		for (j = 0; j < 64; j++)
			ref[j * 32 + i] = ref[2048 + j * 32 + i] = x[i * 64 + j];
	gt_launched(permute_k(NULL, 1, 1, 1, dx, dy), "permute_k");
	snprintf(what, sizeof what, "permute_k run %d", rep);
	check(r, what, GT_F32, dy, ref, 4096, exact);
	gt_check(glrt_free(dx), "glrt_free");
	free(h);
	free(x);
	free(ref);
}

static void
join_split_case(GtRun *r, int rep)
{
	double x[512], ry[1024], rz[1024];
	float *h = inputs(r, x, 512);
	glrt_devptr dx = gt_upload(h, 512 * 4), dy = gt_poisoned(1024 * 4), dz = gt_poisoned(1024 * 4);
	size_t i;
	char what[64];

	for (i = 0; i < 512; i++) {
		ry[2 * i] = rz[i] = x[i];
		ry[2 * i + 1] = rz[512 + i] = (float)((float)x[i] * 2.0f + 1.0f);
	}
	gt_launched(join_split_k(NULL, 1, 1, 1, dx, dy, dz), "join_split_k");
	snprintf(what, sizeof what, "join_split_k run %d: joined", rep);
	check(r, what, GT_F32, dy, ry, 1024, exact);
	snprintf(what, sizeof what, "join_split_k run %d: split", rep);
	check(r, what, GT_F32, dz, rz, 1024, exact);
	gt_check(glrt_free(dx), "glrt_free");
	free(h);
}

static void
broadcast_case(GtRun *r, int rep)
{
	double x[48], ref[512];
	float *h = inputs(r, x, 48);
	glrt_devptr dx = gt_upload(h, 48 * 4), dy = gt_poisoned(512 * 4);
	size_t i, j;
	char what[64];

	for (i = 0; i < 32; i++)
		for (j = 0; j < 16; j++)
			ref[i * 16 + j] = (float)((float)x[i] * 100.0f + (float)x[32 + j]);
	gt_launched(broadcast_k(NULL, 1, 1, 1, dx, dy), "broadcast_k");
	snprintf(what, sizeof what, "broadcast_k run %d", rep);
	check(r, what, GT_F32, dy, ref, 512, exact);
	gt_check(glrt_free(dx), "glrt_free");
	free(h);
}

static void
gather_case(GtRun *r, int rep)
{
	double x[512], ry[256], rz[1024];
	float *h = inputs(r, x, 512);
	int32_t i1[256], i2[1024];
	glrt_devptr dx = gt_upload(h, 512 * 4), dy = gt_poisoned(256 * 4), dz = gt_poisoned(1024 * 4);
	glrt_devptr d1, d2;
	size_t i, j;
	char what[64];

	for (i = 0; i < 256; i++)
		i1[i] = (int32_t)gt_uniform(r, 0, 16);
	for (i = 0; i < 1024; i++)
		i2[i] = (int32_t)gt_uniform(r, 0, 32);
	for (i = 0; i < 32; i++)
		for (j = 0; j < 8; j++)
			ry[i * 8 + j] = x[i * 16 + i1[i * 8 + j]];
	for (i = 0; i < 64; i++)
		for (j = 0; j < 16; j++)
			rz[i * 16 + j] = x[i2[i * 16 + j] * 16 + j];
	d1 = gt_upload(i1, sizeof i1);
	d2 = gt_upload(i2, sizeof i2);
	gt_launched(gather_k(NULL, 1, 1, 1, dx, d1, d2, dy, dz), "gather_k");
	snprintf(what, sizeof what, "gather_k run %d: axis 1", rep);
	check(r, what, GT_F32, dy, ry, 256, exact);
	snprintf(what, sizeof what, "gather_k run %d: axis 0", rep);
	check(r, what, GT_F32, dz, rz, 1024, exact);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(d1), "glrt_free");
	gt_check(glrt_free(d2), "glrt_free");
	free(h);
}

typedef glrt_status (*Hist)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                            int32_t);

/* Counts of n values in [-10, 270] (those outside [0, 256) not counted). */
static void
histogram_case(GtRun *r, const char *name, Hist fn, size_t block, size_t n, int rep)
{
	size_t grid = gt_cdiv(n, block), total = grid * block, i;
	int32_t *x = gt_alloc(total * sizeof *x), zero[256] = {0};
	double ref[256] = {0};
	glrt_devptr dx, db = gt_upload(zero, sizeof zero);
	char what[96];

	for (i = 0; i < total; i++) {
		x[i] = (int32_t)floor(gt_uniform(r, -10, 271));
		if (i < n && x[i] >= 0 && x[i] < 256)
			ref[x[i]]++;
	}
	dx = gt_upload(x, total * 4);
	gt_launched(fn(NULL, (unsigned)grid, 1, 1, dx, db, (int32_t)n), name);
	snprintf(what, sizeof what, "%s n=%zu run %d", name, n, rep);
	check(r, what, GT_I32, db, ref, 256, exact);
	gt_check(glrt_free(dx), "glrt_free");
	free(x);
}

int
main(void)
{
	GtRun r;
	int rep;

	gt_start(&r, "shapes");
	for (rep = 1; rep <= 2; rep++) {
		if (reshape_k)
			reshape_case(&r, rep);
		if (permute_k)
			permute_case(&r, rep);
		if (join_split_k)
			join_split_case(&r, rep);
		if (broadcast_k)
			broadcast_case(&r, rep);
		if (gather_k)
			gather_case(&r, rep);
		if (histogram_k) {
			histogram_case(&r, "histogram_k", histogram_k, 1024, 1024, rep);
			histogram_case(&r, "histogram_k", histogram_k, 1024, 5000, rep);
		}
		if (histogram_rep)
			histogram_case(&r, "histogram_rep", histogram_rep, 8, 37, rep);
	}
	if (!reshape_k || !permute_k || !join_split_k || !broadcast_k || !gather_k ||
	    !histogram_k || !histogram_rep)
		gt_skip(&r, "shapes", "some kernels not compiled by glc (no launcher linked)");
	return gt_finish(&r);
}
