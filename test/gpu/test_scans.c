/*
 * GPU test of test/gpu/scans.gl: gl.associative_scan forward and reverse
 * with the axis in registers, lanes, warps and their repetitions (and in a
 * DistributedLinearLayout), gl.reduce with combine functions over tuples,
 * and the builtin reductions (xor_sum, reduce_or, sum and min over every
 * element, keep_dims, max of f16 in f32).
 *
 * The scans and reductions of tuples compose affine maps x -> a*x + b,
 * which is associative but not commutative: any combine step taken in the
 * wrong order changes the result. argmax breaks ties to the left (inputs
 * are small integers, so ties are common).
 *
 * Each kernel runs one program on a tile at the origin of a row-major
 * [M, N] array; M x N is the tile, smaller, and larger (the kernels mask).
 * Elements outside the tile, and the unwritten margins of the outputs,
 * must stay poisoned. Integer results are exact (i32 wraps, as in the
 * reference); the f32 sum of at most 2048 f16 values is within
 * gamma(2048) * sum |x| of the exact sum (Higham 4.2). Every case runs
 * twice on fresh random inputs.
 *
 * reduce_negated reduces negated i32 and i16 values (FOUND.md 012: ptxas
 * 13.0 dropped negations inside the min/max chains it fuses), checked
 * exactly, with i32's and i16's wrap-around.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"

typedef glrt_status (*Scan2)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                             glrt_devptr, int32_t, int32_t);
typedef glrt_status (*Affine)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                              glrt_devptr, glrt_devptr, glrt_devptr, glrt_devptr, glrt_devptr,
                              int32_t, int32_t);

#pragma weak scan_rows
#pragma weak scan_rows_rev
#pragma weak scan_cols
#pragma weak scan_cols_rev
#pragma weak scan_flat
#pragma weak affine_rows
#pragma weak affine_cols_rev
#pragma weak affine_cols
#pragma weak argmax_rows
#pragma weak reduce_misc
#pragma weak reduce_negated
glrt_status scan_rows(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                      int32_t, int32_t);
glrt_status scan_rows_rev(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                          int32_t, int32_t);
glrt_status scan_cols(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                      int32_t, int32_t);
glrt_status scan_cols_rev(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                          int32_t, int32_t);
glrt_status scan_flat(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                      int32_t, int32_t);
glrt_status affine_rows(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                        glrt_devptr, glrt_devptr, glrt_devptr, glrt_devptr, int32_t, int32_t);
glrt_status affine_cols_rev(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                            glrt_devptr, glrt_devptr, glrt_devptr, glrt_devptr, glrt_devptr,
                            int32_t, int32_t);
glrt_status affine_cols(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                        glrt_devptr, glrt_devptr, glrt_devptr, glrt_devptr, int32_t, int32_t);
glrt_status argmax_rows(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                        glrt_devptr, int32_t, int32_t);
glrt_status reduce_misc(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                        glrt_devptr, glrt_devptr, int32_t, int32_t);
glrt_status reduce_negated(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                           glrt_devptr, glrt_devptr);

/* An integer uniform in [lo, hi]. */
static int32_t
rand_int(GtRun *r, int32_t lo, int32_t hi)
{
	int64_t x = lo + (int64_t)gt_uniform(r, 0, (double)hi - lo + 1);

	return (int32_t)(x > hi ? hi : x);
}

static int32_t *
rand_ints(GtRun *r, size_t n, int32_t lo, int32_t hi)
{
	int32_t *x = gt_alloc(n * sizeof *x);
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = rand_int(r, lo, hi);
	return x;
}

static double *
unwritten(size_t n)
{
	double *ref = gt_alloc(n * sizeof *ref);
	size_t i;

	for (i = 0; i < n; i++)
		ref[i] = GT_UNWRITTEN;
	return ref;
}

static size_t
min_sz(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* Downloads n i32 at d and compares them exactly with ref; frees d. */
static void
check_i32(GtRun *r, const char *what, glrt_devptr d, const double *ref, size_t n)
{
	GtTol exact = {0, 0, NULL};
	void *got = gt_download(d, n * 4);

	gt_compare(r, what, GT_I32, got, ref, n, exact);
	free(got);
	gt_check(glrt_free(d), "glrt_free");
}

/* y = the inclusive (rev: reverse) scan by + of x along axis, on the
 * [bm, bn] tile. */
static void
scan_case(GtRun *r, const char *name, Scan2 fn, int axis, bool rev, size_t bm, size_t bn,
          size_t M, size_t N, int rep)
{
	size_t R = min_sz(M, bm), C = min_sz(N, bn), i, j, q;
	int32_t *x = rand_ints(r, M * N, -1000, 1000);
	double *ref = unwritten(M * N);
	glrt_devptr dx = gt_upload(x, M * N * 4), dy = gt_poisoned(M * N * 4);
	char what[128];

	for (i = 0; i < R; i++)
		for (j = 0; j < C; j++) {
			uint32_t s = 0;
			size_t lo = axis ? (rev ? j : 0) : (rev ? i : 0);
			size_t hi = axis ? (rev ? C : j + 1) : (rev ? R : i + 1);

			for (q = lo; q < hi; q++)
				s += (uint32_t)x[axis ? i * N + q : q * N + j];
			ref[i * N + j] = (int32_t)s;
		}
	gt_launched(fn(NULL, 1, 1, 1, dx, dy, (int32_t)M, (int32_t)N), name);
	snprintf(what, sizeof what, "%s M=%zu N=%zu run %d", name, M, N, rep);
	check_i32(r, what, dy, ref, M * N);
	gt_check(glrt_free(dx), "glrt_free");
	free(x);
	free(ref);
}

/* y[0:min(N, 512)] = the inclusive scan of x (a 1-D scan in the layout
 * reshaping gives). */
static void
flat_case(GtRun *r, size_t N, int rep)
{
	size_t n = 600, q;
	int32_t *x = rand_ints(r, n, -1000, 1000);
	double *ref = unwritten(n);
	glrt_devptr dx = gt_upload(x, n * 4), dy = gt_poisoned(n * 4);
	uint32_t s = 0;
	char what[128];

	for (q = 0; q < min_sz(N, 512); q++) {
		s += (uint32_t)x[q];
		ref[q] = (int32_t)s;
	}
	gt_launched(scan_flat(NULL, 1, 1, 1, dx, dy, 1, (int32_t)N), "scan_flat");
	snprintf(what, sizeof what, "scan_flat N=%zu run %d", N, rep);
	check_i32(r, what, dy, ref, n);
	gt_check(glrt_free(dx), "glrt_free");
	free(x);
	free(ref);
}

/* The affine map (a, b) after (p, q): x -> (p x + q) a + b. */
static void
compose(uint32_t *p, uint32_t *q, int32_t a, int32_t b)
{
	*p = *p * (uint32_t)a;
	*q = *q * (uint32_t)a + (uint32_t)b;
}

/* ya, yb = the scan by composition along axis (rev: from the end); ra, rb =
 * the composition of each row (axis 1) or column (axis 0) in order. */
static void
affine_case(GtRun *r, const char *name, Affine fn, int axis, bool rev, size_t bm, size_t bn,
            size_t M, size_t N, int rep)
{
	size_t R = min_sz(M, bm), C = min_sz(N, bn), nr = axis ? M : N, len = axis ? C : R;
	size_t lines = axis ? R : C, o, t;
	int32_t *a = rand_ints(r, M * N, -3, 3), *b = rand_ints(r, M * N, -1000, 1000);
	double *ra = unwritten(M * N), *rb = unwritten(M * N), *qa = unwritten(nr);
	double *qb = unwritten(nr);
	glrt_devptr da = gt_upload(a, M * N * 4), db = gt_upload(b, M * N * 4);
	glrt_devptr dya = gt_poisoned(M * N * 4), dyb = gt_poisoned(M * N * 4);
	glrt_devptr dqa = gt_poisoned(nr * 4), dqb = gt_poisoned(nr * 4);
	char what[128];

	for (o = 0; o < lines; o++) {
		uint32_t p = 1, q = 0;

		for (t = 0; t < len; t++) {
			size_t s = rev ? len - 1 - t : t;
			size_t e = axis ? o * N + s : s * N + o;

			compose(&p, &q, a[e], b[e]);
			ra[e] = (int32_t)p;
			rb[e] = (int32_t)q;
		}
		p = 1;
		q = 0;
		for (t = 0; t < len; t++) {
			size_t e = axis ? o * N + t : t * N + o;

			compose(&p, &q, a[e], b[e]);
		}
		qa[o] = (int32_t)p;
		qb[o] = (int32_t)q;
	}
	gt_launched(fn(NULL, 1, 1, 1, da, db, dya, dyb, dqa, dqb, (int32_t)M, (int32_t)N), name);
	snprintf(what, sizeof what, "%s M=%zu N=%zu run %d: scan a", name, M, N, rep);
	check_i32(r, what, dya, ra, M * N);
	snprintf(what, sizeof what, "%s M=%zu N=%zu run %d: scan b", name, M, N, rep);
	check_i32(r, what, dyb, rb, M * N);
	snprintf(what, sizeof what, "%s M=%zu N=%zu run %d: reduce a", name, M, N, rep);
	check_i32(r, what, dqa, qa, nr);
	snprintf(what, sizeof what, "%s M=%zu N=%zu run %d: reduce b", name, M, N, rep);
	check_i32(r, what, dqb, qb, nr);
	gt_check(glrt_free(da), "glrt_free");
	gt_check(glrt_free(db), "glrt_free");
	free(a);
	free(b);
	free(ra);
	free(rb);
	free(qa);
	free(qb);
}

/* The maximum of each row of the [32, 64] tile and its first column. */
static void
argmax_case(GtRun *r, size_t M, size_t N, int rep)
{
	size_t R = min_sz(M, 32), C = min_sz(N, 64), i, j;
	float *x = gt_alloc(M * N * sizeof *x);
	double *rv = unwritten(M), *ri = unwritten(M);
	glrt_devptr dx, dv = gt_poisoned(M * 4), di = gt_poisoned(M * 4);
	GtTol exact = {0, 0, NULL};
	void *got;
	char what[128];

	for (i = 0; i < M * N; i++)
		x[i] = (float)rand_int(r, -20, 20);
	for (i = 0; i < R; i++) {
		size_t best = 0;

		for (j = 1; j < C; j++)
			if (x[i * N + j] > x[i * N + best])
				best = j;
		rv[i] = x[i * N + best];
		ri[i] = (double)best;
	}
	dx = gt_upload(x, M * N * 4);
	gt_launched(argmax_rows(NULL, 1, 1, 1, dx, dv, di, (int32_t)M, (int32_t)N), "argmax_rows");
	got = gt_download(dv, M * 4);
	snprintf(what, sizeof what, "argmax_rows M=%zu N=%zu run %d: max", M, N, rep);
	gt_compare(r, what, GT_F32, got, rv, M, exact);
	free(got);
	snprintf(what, sizeof what, "argmax_rows M=%zu N=%zu run %d: index", M, N, rep);
	check_i32(r, what, di, ri, M);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dv), "glrt_free");
	free(x);
	free(rv);
	free(ri);
}

/* reduce_misc's outputs (see scans.gl) on the [32, 64] tile. */
static void
misc_case(GtRun *r, size_t M, size_t N, int rep)
{
	size_t R = min_sz(M, 32), C = min_sz(N, 64), i, j;
	int32_t *x = rand_ints(r, M * N, -(1 << 30), 1 << 30);
	uint16_t *h = gt_alloc(M * N * sizeof *h);
	double *hx = gt_alloc(M * N * sizeof *hx), *ro = unwritten(165), *rf = unwritten(34);
	double abs_sum = 0, sum = 0, lo = INFINITY;
	uint32_t total = 0;
	glrt_devptr dx, dh, dout = gt_poisoned(165 * 4), df = gt_poisoned(34 * 4);
	GtTol exact = {0, 0, NULL}, tol = {0, 0, NULL};
	void *got;
	char what[128];

	gt_fill(r, GT_F16, h, hx, M * N, -100, 100);
	for (i = 0; i < R; i++) {
		int32_t xs = 0;
		double mx = -INFINITY;

		for (j = 0; j < C; j++) {
			xs ^= x[i * N + j];
			total += (uint32_t)x[i * N + j];
			mx = hx[i * N + j] > mx ? hx[i * N + j] : mx;
			lo = hx[i * N + j] < lo ? hx[i * N + j] : lo;
			sum += hx[i * N + j];
			abs_sum += fabs(hx[i * N + j]);
		}
		ro[i] = xs;
		rf[i] = mx;
	}
	for (j = 0; j < C; j++) {
		int32_t o = 0, xs = 0;

		for (i = 0; i < R; i++) {
			o |= x[i * N + j];
			xs ^= x[i * N + j];
		}
		ro[32 + j] = o;
		ro[100 + j] = xs;
	}
	ro[96] = ro[164] = (int32_t)total;   /* 164: the sum in WIDE, copies counted once */
	rf[32] = sum;
	rf[33] = lo;
	dx = gt_upload(x, M * N * 4);
	dh = gt_upload(h, M * N * 2);
	gt_launched(reduce_misc(NULL, 1, 1, 1, dx, dh, dout, df, (int32_t)M, (int32_t)N),
	            "reduce_misc");
	snprintf(what, sizeof what, "reduce_misc M=%zu N=%zu run %d: integers", M, N, rep);
	check_i32(r, what, dout, ro, 165);
	got = gt_download(df, 34 * 4);
	snprintf(what, sizeof what, "reduce_misc M=%zu N=%zu run %d: f16 row max", M, N, rep);
	gt_compare(r, what, GT_F32, got, rf, 32, exact);
	tol.atol = (double)(R * C) * 0x1p-24 / (1 - (double)(R * C) * 0x1p-24) * abs_sum;
	snprintf(what, sizeof what, "reduce_misc M=%zu N=%zu run %d: f32 sum", M, N, rep);
	gt_compare(r, what, GT_F32, (float *)got + 32, &rf[32], 1, tol);
	snprintf(what, sizeof what, "reduce_misc M=%zu N=%zu run %d: f16 min", M, N, rep);
	gt_compare(r, what, GT_F32, (float *)got + 33, &rf[33], 1, exact);
	free(got);
	gt_check(glrt_free(df), "glrt_free");
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dh), "glrt_free");
	free(x);
	free(h);
	free(hx);
	free(ro);
	free(rf);
}

/* -x with i32's wrap-around (-INT32_MIN is INT32_MIN). */
static int32_t
neg32(int32_t x)
{
	return (int32_t)(0u - (uint32_t)x);
}

/* reduce_negated over 64 programs of 16 elements: small values in run 1
 * (ties and the cases ptxas got wrong, FOUND.md 012), any i32 and i16 in
 * run 2 (INT_MIN negates to itself). */
static void
negated_case(GtRun *r, int rep)
{
	enum { P = 64, N = P * 16 };
	int32_t *x = rep == 1 ? rand_ints(r, N, -3, 3) : rand_ints(r, N, INT32_MIN, INT32_MAX);
	int16_t *h = gt_alloc(N * sizeof *h);
	double *ro = unwritten(4 * P), *rp = unwritten(P);
	glrt_devptr dx, dh, dout = gt_poisoned(4 * P * 4), dpair = gt_poisoned(P * 4);
	char what[96];
	size_t p, i;

	for (i = 0; i < N; i++)
		h[i] = (int16_t)(rep == 1 ? rand_int(r, -3, 3) : rand_int(r, INT16_MIN, INT16_MAX));
	for (p = 0; p < P; p++) {
		int32_t lo = INT32_MAX, hi = INT32_MIN, lo16 = INT16_MAX, hi16 = INT16_MIN;
		uint32_t sum = 0;

		for (i = p * 16; i < p * 16 + 16; i++) {
			int32_t v = neg32(x[i]), w = (int16_t)(uint16_t)(0u - (uint16_t)h[i]);
			int32_t m = neg32(x[i ^ 1]) < x[i] ? neg32(x[i ^ 1]) : x[i];

			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
			lo16 = w < lo16 ? w : lo16;
			hi16 = w > hi16 ? w : hi16;
			sum += (uint32_t)(v > m ? v : m);
		}
		ro[4 * p] = lo;
		ro[4 * p + 1] = hi;
		ro[4 * p + 2] = lo16;
		ro[4 * p + 3] = hi16;
		rp[p] = (int32_t)sum;
	}
	dx = gt_upload(x, N * 4);
	dh = gt_upload(h, N * 2);
	gt_launched(reduce_negated(NULL, P, 1, 1, dx, dh, dout, dpair), "reduce_negated");
	snprintf(what, sizeof what, "reduce_negated run %d: min and max of -x", rep);
	check_i32(r, what, dout, ro, 4 * P);
	snprintf(what, sizeof what, "reduce_negated run %d: max(-x, min(-y, x)) sums", rep);
	check_i32(r, what, dpair, rp, P);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dh), "glrt_free");
	free(x);
	free(h);
	free(ro);
	free(rp);
}

static bool
linked(GtRun *r, bool have, const char *name)
{
	if (!have)
		gt_skip(r, name, "not compiled by glc (no launcher linked)");
	return have;
}

int
main(void)
{
	static const size_t rows[][2] = {{4, 512}, {3, 300}, {5, 700}};
	static const size_t cols[][2] = {{64, 16}, {37, 11}, {70, 20}};
	static const size_t mix[][2] = {{32, 64}, {20, 50}, {40, 70}};
	GtRun r;
	size_t k;
	int rep;

	gt_start(&r, "scans");
	for (rep = 1; rep <= 2; rep++)
		for (k = 0; k < 3; k++) {
			if (linked(&r, scan_rows != NULL, "scan_rows"))
				scan_case(&r, "scan_rows", scan_rows, 1, false, 4, 512, rows[k][0],
				          rows[k][1], rep);
			if (linked(&r, scan_rows_rev != NULL, "scan_rows_rev"))
				scan_case(&r, "scan_rows_rev", scan_rows_rev, 1, true, 4, 512, rows[k][0],
				          rows[k][1], rep);
			if (linked(&r, scan_cols != NULL, "scan_cols"))
				scan_case(&r, "scan_cols", scan_cols, 0, false, 64, 16, cols[k][0],
				          cols[k][1], rep);
			if (linked(&r, scan_cols_rev != NULL, "scan_cols_rev"))
				scan_case(&r, "scan_cols_rev", scan_cols_rev, 0, true, 64, 16, cols[k][0],
				          cols[k][1], rep);
			if (linked(&r, scan_flat != NULL, "scan_flat"))
				flat_case(&r, k == 0 ? 512 : k == 1 ? 300 : 600, rep);
			if (linked(&r, affine_rows != NULL, "affine_rows"))
				affine_case(&r, "affine_rows", affine_rows, 1, false, 32, 64, mix[k][0],
				            mix[k][1], rep);
			if (linked(&r, affine_cols_rev != NULL, "affine_cols_rev"))
				affine_case(&r, "affine_cols_rev", affine_cols_rev, 0, true, 32, 64,
				            mix[k][0], mix[k][1], rep);
			if (linked(&r, affine_cols != NULL, "affine_cols"))
				affine_case(&r, "affine_cols", affine_cols, 0, false, 64, 16, cols[k][0],
				            cols[k][1], rep);
			if (linked(&r, argmax_rows != NULL, "argmax_rows"))
				argmax_case(&r, mix[k][0], mix[k][1], rep);
			if (linked(&r, reduce_misc != NULL, "reduce_misc"))
				misc_case(&r, mix[k][0], mix[k][1], rep);
		}
	for (rep = 1; rep <= 2; rep++)
		if (linked(&r, reduce_negated != NULL, "reduce_negated"))
			negated_case(&r, rep);
	return gt_finish(&r);
}
