/*
 * GPU test of test/gpu/padded.gl: tiles through shared buffers in
 * PaddedSharedLayouts (several interval/padding pairs, identity and
 * permuted linear parts, f32 and f16, a run-time .index, .slice and
 * .permute views, cp.async into a padded buffer, allocation with a value).
 * The kernels write out the plain buffer the padded one was carved from:
 * every element must sit at pad(linear offset) = offset + sum (offset >>
 * log2 interval) << log2 padding, and every other word keep the -1 it was
 * filled with. Copies, so all results are exact; every case runs twice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"

typedef glrt_status (*Copy)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                            glrt_devptr);

#pragma weak pad_row
#pragma weak pad_two
#pragma weak pad_one
#pragma weak pad_three
#pragma weak pad_colmajor
#pragma weak pad_rows_permuted
#pragma weak pad_f16
#pragma weak pad_async
#pragma weak pad_index
#pragma weak pad_views
#pragma weak pad_alloc
glrt_status pad_row(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status pad_two(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status pad_one(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status pad_three(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status pad_colmajor(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status pad_rows_permuted(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                              glrt_devptr);
glrt_status pad_f16(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status pad_async(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status pad_index(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                      int32_t);
glrt_status pad_views(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status pad_alloc(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);

enum { MAX_PAIRS = 3 };

/* How a kernel lays out its M x N tile: the linear offset of (r, c). */
typedef enum Linear { ROW_MAJOR, COL_MAJOR, EVEN_ROWS_FIRST } Linear;

typedef struct Pairs {
	int n;
	size_t interval[MAX_PAIRS], padding[MAX_PAIRS];
} Pairs;

/* Where linear offset x sits once padded. */
static size_t
pad(const Pairs *p, size_t x)
{
	size_t r = x;
	int i;
	for (i = 0; i < p->n; i++)
		r += x / p->interval[i] * p->padding[i];
	return r;
}

static size_t
linear(Linear l, size_t r, size_t c, size_t m, size_t n)
{
	switch (l) {
	case COL_MAJOR: return c * m + r;
	case EVEN_ROWS_FIRST: return c + (r >> 1) * n + (r & 1) * (m / 2) * n;
	case ROW_MAJOR: break;
	}
	return r * n + c;
}

/* n random inputs of type t (exactly representable) in host memory. */
static void *
inputs(GtRun *r, GtType t, double *x, size_t n)
{
	void *h = gt_alloc(n * gt_size(t));
	gt_fill(r, t, h, x, n, -100, 100);
	return h;
}

static void
check(GtRun *r, const char *what, GtType t, glrt_devptr dev, const double *ref, size_t n)
{
	void *got = gt_download(dev, n * gt_size(t));
	gt_compare(r, what, t, got, ref, n, (GtTol){0, 0, NULL});
	free(got);
}

/* A roundtrip kernel of padded.gl: y[0:raw] the plain buffer (-1 but where
 * the tile went), y[raw:] the tile. */
typedef struct Roundtrip {
	const char *name;
	Copy fn;
	GtType type;
	size_t m, n, raw;
	Linear lin;
	Pairs pairs;
} Roundtrip;

static void
roundtrip_case(GtRun *r, const Roundtrip *k, int rep)
{
	size_t mn = k->m * k->n, total = k->raw + mn, i, j;
	double *x = gt_alloc(mn * sizeof *x), *ref = gt_alloc(total * sizeof *ref);
	void *h = inputs(r, k->type, x, mn);
	glrt_devptr dx = gt_upload(h, mn * gt_size(k->type));
	glrt_devptr dy = gt_poisoned(total * gt_size(k->type));
	char what[96];

	for (i = 0; i < k->raw; i++)
		ref[i] = -1;
	for (i = 0; i < k->m; i++)
		for (j = 0; j < k->n; j++) {
			ref[pad(&k->pairs, linear(k->lin, i, j, k->m, k->n))] = x[i * k->n + j];
			ref[k->raw + i * k->n + j] = x[i * k->n + j];
		}
	gt_launched(k->fn(NULL, 1, 1, 1, dx, dy), k->name);
	snprintf(what, sizeof what, "%s run %d", k->name, rep);
	check(r, what, k->type, dy, ref, total);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(h);
	free(x);
	free(ref);
}

/* pad_index: x into buffer `which` of two, 2x into the other. */
static void
index_case(GtRun *r, int which, int rep)
{
	static const Pairs pairs = {2, {32, 256}, {4, 16}};
	double x[1024], *ref = gt_alloc(6144 * sizeof *ref);
	void *h = inputs(r, GT_F32, x, 1024);
	glrt_devptr dx = gt_upload(h, 1024 * 4), dy = gt_poisoned(6144 * 4);
	size_t b, i;
	char what[96];

	for (i = 0; i < 4096; i++)
		ref[i] = -1;
	for (b = 0; b < 2; b++)
		for (i = 0; i < 1024; i++) {
			double v = (int)b == which ? x[i] : 2 * x[i];
			ref[pad(&pairs, b * 1024 + i)] = v;
			ref[4096 + b * 1024 + i] = v;
		}
	gt_launched(pad_index(NULL, 1, 1, 1, dx, dy, which), "pad_index");
	snprintf(what, sizeof what, "pad_index which=%d run %d", which, rep);
	check(r, what, GT_F32, dy, ref, 6144);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(h);
	free(ref);
}

/* pad_views: a [64, 32] tile stored by halves, read whole and transposed. */
static void
views_case(GtRun *r, int rep)
{
	static const Pairs pairs = {1, {32}, {4}};
	double x[2048], *ref = gt_alloc(7168 * sizeof *ref);
	void *h = inputs(r, GT_F32, x, 2048);
	glrt_devptr dx = gt_upload(h, 2048 * 4), dy = gt_poisoned(7168 * 4);
	size_t i, j;
	char what[96];

	for (i = 0; i < 4096; i++)
		ref[i] = -1;
	for (i = 0; i < 2048; i++) {
		ref[pad(&pairs, i)] = x[i];
		ref[4096 + i] = x[i];
	}
	for (i = 0; i < 32; i++)
		for (j = 0; j < 32; j++)
			ref[6144 + i * 32 + j] = x[j * 32 + i];
	gt_launched(pad_views(NULL, 1, 1, 1, dx, dy), "pad_views");
	snprintf(what, sizeof what, "pad_views run %d", rep);
	check(r, what, GT_F32, dy, ref, 7168);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(h);
	free(ref);
}

static void
alloc_case(GtRun *r, int rep)
{
	double x[1024];
	void *h = inputs(r, GT_F32, x, 1024);
	glrt_devptr dx = gt_upload(h, 1024 * 4), dy = gt_poisoned(1024 * 4);
	char what[96];

	gt_launched(pad_alloc(NULL, 1, 1, 1, dx, dy), "pad_alloc");
	snprintf(what, sizeof what, "pad_alloc run %d", rep);
	check(r, what, GT_F32, dy, x, 1024);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(h);
}

int
main(void)
{
	const Roundtrip trips[] = {
		{"pad_row", pad_row, GT_F32, 32, 32, 2048, ROW_MAJOR, {1, {32}, {4}}},
		{"pad_two", pad_two, GT_F32, 32, 32, 2048, ROW_MAJOR, {2, {32, 64}, {4, 8}}},
		{"pad_one", pad_one, GT_F32, 32, 32, 2048, ROW_MAJOR, {1, {8}, {1}}},
		{"pad_three", pad_three, GT_F32, 32, 32, 2048, ROW_MAJOR,
		 {3, {4, 16, 128}, {2, 1, 16}}},
		{"pad_colmajor", pad_colmajor, GT_F32, 32, 32, 2048, COL_MAJOR, {1, {16}, {2}}},
		{"pad_rows_permuted", pad_rows_permuted, GT_F32, 32, 32, 2048, EVEN_ROWS_FIRST,
		 {1, {64}, {4}}},
		{"pad_f16", pad_f16, GT_F16, 32, 64, 4096, ROW_MAJOR, {1, {64}, {8}}},
		{"pad_async", pad_async, GT_F32, 32, 32, 2048, ROW_MAJOR, {1, {32}, {4}}},
	};
	size_t i;
	GtRun r;
	int rep, missing = 0;

	gt_start(&r, "padded");
	for (rep = 1; rep <= 2; rep++) {
		for (i = 0; i < sizeof trips / sizeof *trips; i++)
			if (trips[i].fn)
				roundtrip_case(&r, &trips[i], rep);
			else
				missing = 1;
		if (pad_index) {
			index_case(&r, 0, rep);
			index_case(&r, 1, rep);
		}
		if (pad_views)
			views_case(&r, rep);
		if (pad_alloc)
			alloc_case(&r, rep);
	}
	if (missing || !pad_index || !pad_views || !pad_alloc)
		gt_skip(&r, "padded", "some kernels not compiled by glc (no launcher linked)");
	return gt_finish(&r);
}
