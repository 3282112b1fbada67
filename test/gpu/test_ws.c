/*
 * GPU test of test/gpu/ws.gl: gl.warp_specialize's results and the code
 * after the call. The default partition returns tensors, a reduction, a
 * nested tuple with a Python number and its shared buffer; workers write
 * global memory and a shared buffer that the code after the call reads
 * once they are joined; code after a warp_specialize whose default
 * partition returns nothing reads what every partition stored. Kernels
 * with several calls (workers of other warps and budgets, arguments made
 * between the calls) and with a call in a loop over a runtime range (the
 * worker warps wait in the dispatch loop between calls; a zero-trip loop
 * must still let them exit), and with a call under a runtime condition.
 *
 * Inputs are small integers, so every sum and product is exact in f32.
 * Outputs are poisoned, with a margin that must stay unwritten; every case
 * runs twice on fresh random inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"

#pragma weak ws_results
#pragma weak ws_nested
#pragma weak ws_after
#pragma weak ws_two
#pragma weak ws_loop
#pragma weak ws_if
glrt_status ws_results(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                       glrt_devptr);
glrt_status ws_nested(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                      glrt_devptr);
glrt_status ws_after(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr);
glrt_status ws_two(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                   glrt_devptr);
glrt_status ws_loop(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, int32_t);
glrt_status ws_if(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, int32_t);

enum { N = 512, MARGIN = 32 };

static const GtTol exact = {0, 0, NULL};

/* n random integers in [-64, 64) as f32, and as doubles in x. */
static float *
integers(GtRun *r, double *x, size_t n)
{
	float *h = gt_alloc(n * sizeof *h);
	for (size_t i = 0; i < n; i++)
		x[i] = h[i] = (float)(int)gt_uniform(r, -64, 64);
	return h;
}

/* Compares n + MARGIN values of the poisoned f32 buffer d with ref[0..n)
 * (the margin must stay unwritten) and frees d. */
static void
check(GtRun *r, const char *what, glrt_devptr d, const double *ref, size_t n)
{
	double *want = gt_alloc((n + MARGIN) * sizeof *want);
	memcpy(want, ref, n * sizeof *want);
	for (size_t i = n; i < n + MARGIN; i++)
		want[i] = GT_UNWRITTEN;
	void *got = gt_download(d, (n + MARGIN) * 4);
	gt_compare(r, what, GT_F32, got, want, n + MARGIN, exact);
	free(got);
	free(want);
	gt_check(glrt_free(d), "glrt_free");
}

/* ws_results: y[i] = i; z[i] = 2 x[i] + sum(x) + 3 i. */
static void
run_results(GtRun *r, int rep)
{
	double x[N], y[N], z[N], sum = 0;
	float *hx = integers(r, x, N);
	for (int i = 0; i < N; i++)
		sum += x[i];
	for (int i = 0; i < N; i++) {
		y[i] = i;
		z[i] = 2 * x[i] + sum + 3 * i;
	}
	glrt_devptr dx = gt_upload(hx, N * 4), dy = gt_poisoned((N + MARGIN) * 4);
	glrt_devptr dz = gt_poisoned((N + MARGIN) * 4);
	gt_launched(ws_results(NULL, 1, 1, 1, dx, dy, dz), "ws_results");
	char what[96];
	snprintf(what, sizeof what, "ws_results (worker's stores) run %d", rep);
	check(r, what, dy, y, N);
	snprintf(what, sizeof what, "ws_results (after the call) run %d", rep);
	check(r, what, dz, z, N);
	gt_check(glrt_free(dx), "glrt_free");
	free(hx);
}

/* ws_nested: y = -x then 0.5 x; z[i] = x[i] + max(x) + 7 + x[i] + 1. */
static void
run_nested(GtRun *r, int rep)
{
	double x[N], y[2 * N], z[N], max = -1e9;
	float *hx = integers(r, x, N);
	for (int i = 0; i < N; i++)
		max = x[i] > max ? x[i] : max;
	for (int i = 0; i < N; i++) {
		y[i] = -x[i];
		y[N + i] = 0.5 * x[i];
		z[i] = x[i] + max + 7 + (x[i] + 1);
	}
	glrt_devptr dx = gt_upload(hx, N * 4), dy = gt_poisoned((2 * N + MARGIN) * 4);
	glrt_devptr dz = gt_poisoned((N + MARGIN) * 4);
	gt_launched(ws_nested(NULL, 1, 1, 1, dx, dy, dz), "ws_nested");
	char what[96];
	snprintf(what, sizeof what, "ws_nested (workers' stores) run %d", rep);
	check(r, what, dy, y, 2 * N);
	snprintf(what, sizeof what, "ws_nested (after the call) run %d", rep);
	check(r, what, dz, z, N);
	gt_check(glrt_free(dx), "glrt_free");
	free(hx);
}

/* ws_after: z = 1 (default), 2 (worker), then 3 (after the call). */
static void
run_after(GtRun *r, int rep)
{
	double z[3 * N];
	for (int i = 0; i < N; i++) {
		z[i] = 1;
		z[N + i] = 2;
		z[2 * N + i] = 3;
	}
	glrt_devptr dz = gt_poisoned((3 * N + MARGIN) * 4);
	gt_launched(ws_after(NULL, 1, 1, 1, dz), "ws_after");
	char what[96];
	snprintf(what, sizeof what, "ws_after run %d", rep);
	check(r, what, dz, z, 3 * N);
}

/* ws_two: z = 1, 2, 3 (first call, then the code after it), a gap, 3 (the
 * second call's default partition); y[i] = i + s, y[N + i] = 3 i s with
 * s = x[0]. */
static void
run_two(GtRun *r, int rep)
{
	double x[N], y[2 * N], z[5 * N];
	float *hx = integers(r, x, N);
	for (int i = 0; i < N; i++) {
		z[i] = 1;
		z[N + i] = 2;
		z[2 * N + i] = 3;
		z[3 * N + i] = GT_UNWRITTEN;
		z[4 * N + i] = 3;
		y[i] = i + x[0];
		y[N + i] = 3.0 * i * x[0];
	}
	glrt_devptr dx = gt_upload(hx, N * 4), dy = gt_poisoned((2 * N + MARGIN) * 4);
	glrt_devptr dz = gt_poisoned((5 * N + MARGIN) * 4);
	gt_launched(ws_two(NULL, 1, 1, 1, dx, dy, dz), "ws_two");
	char what[96];
	snprintf(what, sizeof what, "ws_two (second call's workers) run %d", rep);
	check(r, what, dy, y, 2 * N);
	snprintf(what, sizeof what, "ws_two (both calls, code between) run %d", rep);
	check(r, what, dz, z, 5 * N);
	gt_check(glrt_free(dx), "glrt_free");
	free(hx);
}

/* ws_loop over n iterations: per iteration `it`, a block of 4 N: i + it,
 * 3 i + it + 1, 2 (3 i + it) + 2 it, then N unwritten. */
static void
run_loop(GtRun *r, int n, int rep)
{
	size_t len = (size_t)(n > 0 ? n : 1) * 4 * N;
	double *z = gt_alloc(len * sizeof *z);
	for (size_t k = 0; k < len; k++)
		z[k] = GT_UNWRITTEN;
	for (int it = 0; it < n; it++)
		for (int i = 0; i < N; i++) {
			double *b = z + (size_t)it * 4 * N;
			b[i] = i + it;
			b[N + i] = 3 * i + it + 1;
			b[2 * N + i] = 2 * (3 * i + it) + 2 * it;
		}
	glrt_devptr dz = gt_poisoned((len + MARGIN) * 4);
	gt_launched(ws_loop(NULL, 1, 1, 1, dz, n), "ws_loop");
	char what[96];
	snprintf(what, sizeof what, "ws_loop n=%d run %d", n, rep);
	check(r, what, dz, z, len);
	free(z);
}

/* ws_if: z = 1, 2 when flag > 0, else left unwritten. */
static void
run_if(GtRun *r, int flag, int rep)
{
	double z[2 * N];
	for (int i = 0; i < N; i++) {
		z[i] = flag > 0 ? 1 : GT_UNWRITTEN;
		z[N + i] = flag > 0 ? 2 : GT_UNWRITTEN;
	}
	glrt_devptr dz = gt_poisoned((2 * N + MARGIN) * 4);
	gt_launched(ws_if(NULL, 1, 1, 1, dz, flag), "ws_if");
	char what[96];
	snprintf(what, sizeof what, "ws_if flag=%d run %d", flag, rep);
	check(r, what, dz, z, 2 * N);
}

int
main(void)
{
	GtRun r;
	gt_start(&r, "ws");
	for (int rep = 1; rep <= 2; rep++) {
		if (ws_results)
			run_results(&r, rep);
		if (ws_nested)
			run_nested(&r, rep);
		if (ws_after)
			run_after(&r, rep);
		if (ws_two)
			run_two(&r, rep);
		for (int n = 0; ws_loop && n <= 4; n += 2 + rep)
			run_loop(&r, n, rep);
		for (int flag = 0; ws_if && flag <= 1; flag++)
			run_if(&r, flag, rep);
	}
	const char *names[] = {"ws_results", "ws_nested", "ws_after", "ws_two", "ws_loop",
	                       "ws_if"};
	const void *fns[] = {(const void *)ws_results, (const void *)ws_nested,
	                     (const void *)ws_after, (const void *)ws_two,
	                     (const void *)ws_loop, (const void *)ws_if};
	for (size_t k = 0; k < sizeof fns / sizeof *fns; k++)
		if (!fns[k])
			gt_skip(&r, names[k], "not compiled by glc (no launcher linked)");
	return gt_finish(&r);
}
