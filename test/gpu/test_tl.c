/*
 * GPU test of test/gpu/tl.py: triton.language kernels, every layout
 * inferred as Triton infers it. Arithmetic, tl.math, casts (fp16 with
 * both roundings, bf16, the fp8 formats, the integer widths), reductions
 * (with indices and their tie-breaking, several operands at once, keep_dims),
 * scans, histograms, shape operations and the standard library functions
 * among them (softmax, sigmoid, argmax/argmin, flip, interleave, cdiv),
 * against float64 references or bit for bit (integers, conversions).
 * test_tl_std.c tests the kernels of tl_std.py.
 *
 * Every output is poisoned with a margin that must stay unwritten; inputs
 * are fresh random values and every kernel runs twice. test/tl/interp_gpu.sh
 * runs this driver against Triton's interpreter (no GPU), which is how its
 * references were checked against Triton's semantics.
 */
#include "tl_common.h"

#pragma weak tl_elementwise
#pragma weak tl_int_ops
#pragma weak tl_casts
#pragma weak tl_reductions
#pragma weak tl_int_reductions
#pragma weak tl_scans
#pragma weak tl_shapes
typedef glrt_devptr P;
glrt_status tl_elementwise(glrt_stream, unsigned, unsigned, unsigned, P, P, P, P, int32_t);
glrt_status tl_int_ops(glrt_stream, unsigned, unsigned, unsigned, P, P, P, int32_t);
glrt_status tl_casts(glrt_stream, unsigned, unsigned, unsigned, P, P, P, P, int32_t);
glrt_status tl_reductions(glrt_stream, unsigned, unsigned, unsigned, P, P, P, int32_t);
glrt_status tl_int_reductions(glrt_stream, unsigned, unsigned, unsigned, P, P);
glrt_status tl_scans(glrt_stream, unsigned, unsigned, unsigned, P, P);
glrt_status tl_shapes(glrt_stream, unsigned, unsigned, unsigned, P, P);

/* f32 tolerances: correctly rounded, within k units of 2^-24 relative,
 * plus an absolute part. */
static GtTol
tol(double rel_bits, double atol)
{
	GtTol t = {ldexp(1, (int)-rel_bits), atol, NULL};
	return t;
}

/* -- elementwise: tl.py's rows, in order, with their references -- */
static double
frac_rem(double y)
{
	return fmod(y, 2.0);
}

static void
run_elementwise(GtRun *r, int rep)
{
	enum { N = 1000, K = 27, BLOCK = 256 };
	double *x, *y, *z;
	P dx = tl_f32_input(r, N, -3, 3, &x), dy = tl_f32_input(r, N, -3, 3, &y),
	  dz = tl_f32_input(r, N, 0.5, 4, &z), dout = tl_output(GT_F32, (size_t)K * N);
	gt_launched(tl_elementwise(NULL, gt_cdiv(N, BLOCK), 1, 1, dx, dy, dz, dout, N),
	            "tl_elementwise");
	static const char *const names[K] = {
		"add", "sub", "mul", "fma", "fdiv", "div_rn", "maximum", "minimum", "clamp",
		"where", "abs", "floor", "ceil", "exp", "exp2", "log", "log2", "sqrt", "sqrt_rn",
		"rsqrt", "sin", "cos", "erf", "sigmoid", "math", "methods", "operators"};
	/* bits of relative precision and absolute tolerance per row */
	static const double bits[K] = {23, 23, 23, 23, 21, 23, 99, 99, 99, 99, 99, 99, 99,
	                               20, 21, 21, 21, 21, 23, 21, 21, 21, 21, 20, 20, 20, 21};
	static const double atol[K] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1e-6, 1e-6,
	                               0, 0, 0, 2e-6, 2e-6, 1e-7, 0, 1e-5, 1e-5, 1e-5};
	void *got = gt_download(dout, ((size_t)K * N + TL_MARGIN) * 4);
	for (int k = 0; k < K; k++) {
		double *ref = tl_ref(N);
		for (int i = 0; i < N; i++) {
			double a = x[i], b = y[i], c = z[i], v[K] = {
				a + b, a - b, a * b, fma(a, b, c), a / c, a / c, fmax(a, b), fmin(a, b),
				fmin(fmax(a, -1), 2), a > b ? a : b, fabs(a), floor(a), ceil(a), exp(a),
				exp2(a), log(c), log2(c), sqrt(c), sqrt(c), 1 / sqrt(c), sin(a), cos(a),
				erf(a), 1 / (1 + exp(-a)), exp(a) + a / c, 2 * exp(a) - fabs(a),
				a / c + a * b - frac_rem(b)};
			ref[i] = v[k];
		}
		/* the next row's first elements must hold its values, not ours:
		 * compare each row alone, with the rest of the buffer */
		char what[64];
		snprintf(what, sizeof what, "tl_elementwise %s run %d", names[k], rep);
		gt_compare(r, what, GT_F32, (char *)got + (size_t)k * N * 4, ref,
		           k == K - 1 ? N + TL_MARGIN : N,
		           bits[k] > 60 ? TL_EXACT : tol(bits[k], atol[k]));
		free(ref);
	}
	free(got), free(x), free(y), free(z);
	tl_free((P[]){dx, dy, dz, dout}, 4);
}

/* -- int_ops -- */
static void
run_int_ops(GtRun *r, int rep)
{
	enum { N = 777, K = 22, BLOCK = 128 };
	int32_t x[N], y[N];
	P dx = tl_i32_input(r, N, -(1 << 30), 1 << 30, x);
	for (int i = 0; i < N; i++) {
		y[i] = (int32_t)floor(gt_uniform(r, -32768, 32768));
		if (y[i] == 0)
			y[i] = 7;
	}
	x[0] = y[0] = 12345; /* a tie for where/maximum, x == y */
	x[1] = -7, y[1] = 2;  /* truncating division and remainder */
	gt_check(glrt_memcpy_htod(dx, x, sizeof x), "upload");
	P dy = gt_upload(y, sizeof y), dout = tl_output(GT_I32, (size_t)K * N);
	gt_launched(tl_int_ops(NULL, gt_cdiv(N, BLOCK), 1, 1, dx, dy, dout, N), "tl_int_ops");
	double *ref = tl_ref((size_t)K * N);
	for (int i = 0; i < N; i++) {
		int32_t a = x[i], b = y[i];
		uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
		int32_t abs_a = a < 0 ? -a : a;
		int64_t v[K] = {
			(int32_t)(ua + ub), (int32_t)(ua * ub), a / b, a % b, a >> 3, (int32_t)(ua << 5),
			(int32_t)(ua >> 7), a & b, a | b, a ^ b, ~a, (int32_t)(0u - ua),
			(int32_t)(uint32_t)(((uint64_t)ua * ub) >> 32), (abs_a + 6) / 7,
			a > b ? a : b, a < b ? a : b, abs_a, a < b ? a : b,
			(a < b) + (a == b) * 2 + (a >= 0) * 4, (int32_t)(ua / ub), (int32_t)(ua % ub),
			(a + 2) / 3};
		for (int k = 0; k < K; k++)
			ref[(size_t)k * N + i] = (double)v[k];
	}
	tl_check(r, "tl_int_ops", "rows", rep, GT_I32, dout, ref, (size_t)K * N, TL_EXACT);
	free(ref);
	tl_free((P[]){dx, dy, dout}, 3);
}

/* -- casts -- */

/* x to binary16 rounding toward zero, back as a double. */
static double
f16_rtz(double x)
{
	uint16_t h = gt_f16_from_float((float)x);
	if (fabs(gt_f16_to_float(h)) > fabs(x))
		h = (uint16_t)((h & 0x7fff) == 0 ? h : h - 1);
	return gt_f16_to_float(h);
}

static void
run_casts(GtRun *r, int rep)
{
	enum { N = 600, KF = 9, KI = 12, BLOCK = 256 };
	double *x;
	int32_t iv[N];
	P dx = tl_f32_input(r, N, -3, 3, &x);
	P di = tl_i32_input(r, N, -2147483648.0, 2147483647.0, iv);
	P dout = tl_output(GT_F32, (size_t)KF * N), diout = tl_output(GT_I32, (size_t)KI * N);
	gt_launched(tl_casts(NULL, gt_cdiv(N, BLOCK), 1, 1, dx, di, dout, diout, N), "tl_casts");
	double *ref = tl_ref((size_t)KF * N), *iref = tl_ref((size_t)KI * N);
	for (int j = 0; j < N; j++) {
		uint8_t b8;
		float xf = (float)x[j];
		int32_t i = iv[j];
		uint32_t xbits;
		memcpy(&xbits, &xf, 4);
		double f[KF] = {gt_f16_to_float(gt_f16_from_float(xf)), f16_rtz(x[j]),
		                gt_bf16_to_float(gt_bf16_from_float(xf)),
		                gt_fp8_from_double(GT_E4M3, x[j], &b8),
		                gt_fp8_from_double(GT_E5M2, x[j], &b8), x[j], (float)i,
		                (double)((uint32_t)i >> 8), gt_f16_to_float(gt_f16_from_float(xf))};
		int64_t g[KI] = {(int32_t)x[j], (int32_t)(float)(xf * 40.0f),
		                 (int32_t)(float)(xf * 100.0f), (int8_t)i, (uint8_t)i, (int16_t)i,
		                 (uint16_t)i, (int32_t)(((int64_t)i * 3) >> 2),
		                 (int32_t)((uint64_t)(int64_t)i >> 33), i > 0, (int32_t)xbits,
		                 (int32_t)(uint32_t)(fabsf(xf) * 1000.0f)};
		for (int k = 0; k < KF; k++)
			ref[(size_t)k * N + j] = f[k];
		for (int k = 0; k < KI; k++)
			iref[(size_t)k * N + j] = (double)g[k];
	}
	tl_check(r, "tl_casts", "floats", rep, GT_F32, dout, ref, (size_t)KF * N, TL_EXACT);
	tl_check(r, "tl_casts", "integers", rep, GT_I32, diout, iref, (size_t)KI * N, TL_EXACT);
	free(ref), free(iref), free(x);
	tl_free((P[]){dx, di, dout, diout}, 4);
}

/* -- reductions: the layout of tl.py's reductions kernel -- */

/* Whether index k of row/column v (n elements, stride s) is the first
 * (left) or any (!left) position of its extreme (max or min). */
static bool
extreme_at(const double *v, int n, int s, int k, bool max, bool left)
{
	if (k < 0 || k >= n)
		return false;
	for (int i = 0; i < n; i++) {
		double a = v[i * s], b = v[k * s];
		if (max ? a > b : a < b)
			return false;
		if (left && a == b && i < k)
			return false;
	}
	return true;
}

static void
check_indices(GtRun *r, const char *what, int rep, const int32_t *got, int count,
              const double *base, int n, int step, int s, bool max, bool left)
{
	int bad = 0;
	for (int i = 0; i < count; i++)
		if (!extreme_at(base + i * step, n, s, got[i], max, left) && bad++ < 5)
			printf("  %s[%d]: index %d is no %s%s\n", what, i, got[i],
			       left ? "first " : "", max ? "maximum" : "minimum");
	printf("%s tl_reductions %s run %d%s\n", bad ? "FAIL" : "PASS", what, rep,
	       bad ? ": wrong indices" : ": every index at its extreme");
	bad ? r->failed++ : r->passed++;
}

static void
run_reductions(GtRun *r, int rep)
{
	enum { BM = 16, BN = 64, M = 13, NO = 6 * BM + 4 * BN + 3 * BM * BN + 2, NI = 3 * BM + 2 * BN };
	double *x;
	P dx = tl_f32_input(r, BM * BN, -3, 3, &x);
	float *hx = gt_download(dx, BM * BN * 4);
	/* ties: row 2's maximum at columns 5 and 40, row 4's minimum at 1 and 9 */
	hx[2 * BN + 5] = hx[2 * BN + 40] = 3.5f, hx[4 * BN + 1] = hx[4 * BN + 9] = -3.5f;
	x[2 * BN + 5] = x[2 * BN + 40] = 3.5, x[4 * BN + 1] = x[4 * BN + 9] = -3.5;
	gt_check(glrt_memcpy_htod(dx, hx, BM * BN * 4), "upload");
	P dout = tl_output(GT_F32, NO), didx = tl_output(GT_I32, NI);
	gt_launched(tl_reductions(NULL, 1, 1, 1, dx, dout, didx, M), "tl_reductions");
	double *ref = tl_ref(NO), *atol = gt_alloc((NO + TL_MARGIN) * sizeof *atol);
	for (int i = 0; i < NO + TL_MARGIN; i++)
		atol[i] = 64 * 3 * 0x1p-23;
	double total = 0, gmax = -INFINITY;
	for (int i = 0; i < M; i++) {
		double s = 0, s2 = 0, mx = -INFINITY, mn = INFINITY, p = 1;
		for (int j = 0; j < BN; j++) {
			double v = x[i * BN + j];
			s += v, s2 += v * v, mx = fmax(mx, v), mn = fmin(mn, v), p *= v;
		}
		total += s, gmax = fmax(gmax, mx);
		ref[i] = s, ref[2 * BM + BN + i] = mn, ref[3 * BM + BN + i] = mx;
		ref[4 * BM + 2 * BN + i] = s2 - s, atol[4 * BM + 2 * BN + i] = 64 * 9 * 0x1p-22;
		ref[5 * BM + 3 * BN + 3 * BM * BN + 2 + i] = p;
		atol[5 * BM + 3 * BN + 3 * BM * BN + 2 + i] = 1e-30 + fabs(p) * 64 * 0x1p-23;
		double den = 0;
		for (int j = 0; j < BN; j++)
			den += exp(x[i * BN + j] - mx);
		for (int j = 0; j < BN; j++) {
			ref[5 * BM + 2 * BN + i * BN + j] = x[i * BN + j] - s / BN;
			ref[5 * BM + 2 * BN + BM * BN + 2 + i * BN + j] = exp(x[i * BN + j] - mx) / den;
			atol[5 * BM + 2 * BN + BM * BN + 2 + i * BN + j] = 1e-6;
		}
	}
	for (int j = 0; j < BN; j++) {
		double s = 0, mx = -INFINITY, mn = INFINITY, den = 0;
		for (int i = 0; i < M; i++)
			s += x[i * BN + j], mx = fmax(mx, x[i * BN + j]), mn = fmin(mn, x[i * BN + j]);
		for (int i = 0; i < M; i++)
			den += exp(x[i * BN + j] - mx);
		for (int i = 0; i < M; i++) {
			ref[5 * BM + 2 * BN + 2 * BM * BN + 2 + i * BN + j] = exp(x[i * BN + j] - mx) / den;
			atol[5 * BM + 2 * BN + 2 * BM * BN + 2 + i * BN + j] = 1e-6;
		}
		ref[6 * BM + 3 * BN + 3 * BM * BN + 2 + j] = s, ref[2 * BM + j] = mx;
		ref[4 * BM + BN + j] = mn;
		/* x.max(0) also sees the masked rows, loaded as 0 */
		ref[5 * BM + 2 * BN + 3 * BM * BN + 2 + j] = s + fmax(mx, 0);
	}
	ref[5 * BM + 2 * BN + BM * BN] = total, atol[5 * BM + 2 * BN + BM * BN] = 1e-3;
	ref[5 * BM + 2 * BN + BM * BN + 1] = gmax;
	GtTol t = {0x1p-21, 0, atol};
	tl_check(r, "tl_reductions", "values", rep, GT_F32, dout, ref, NO, t);
	int32_t *idx = gt_download(didx, NI * 4);
	check_indices(r, "max indices", rep, idx, M, x, BN, BN, 1, true, true);
	check_indices(r, "argmin", rep, idx + BM, M, x, BN, BN, 1, false, true);
	check_indices(r, "argmax axis 0", rep, idx + 2 * BM, BN, x, M, 1, BN, true, true);
	check_indices(r, "min indices axis 0", rep, idx + 2 * BM + BN, BN, x, M, 1, BN, false,
	              false);
	free(idx), free(ref), free(atol), free(x), free(hx);
	tl_free((P[]){dx, dout, didx}, 3);
}

/* -- int_reductions -- */
static void
run_int_reductions(GtRun *r, int rep)
{
	enum { BM = 8, BN = 32, NO = 5 * BM + 2 * BN + 25 };
	int32_t x[BM * BN];
	P dx = tl_i32_input(r, BM * BN, -100000, 100000, x), dout = tl_output(GT_I32, NO);
	gt_launched(tl_int_reductions(NULL, 1, 1, 1, dx, dout), "tl_int_reductions");
	double *ref = tl_ref(NO);
	int32_t all = 0, hist[16] = {0}, hm[8] = {0};
	for (int i = 0; i < BM; i++) {
		int32_t xs = 0, o = 0, s = 0, mx = INT32_MIN, mn = INT32_MAX;
		for (int j = 0; j < BN; j++) {
			int32_t v = x[i * BN + j];
			xs ^= v, o |= v, s += v, mx = v > mx ? v : mx, mn = v < mn ? v : mn;
			hist[v & 15]++;
			if (v > 0)
				hm[v & 7]++;
		}
		all ^= xs;
		ref[i] = xs, ref[BM + i] = o, ref[2 * BM + i] = s, ref[3 * BM + i] = mx,
		ref[4 * BM + i] = mn;
	}
	for (int j = 0; j < BN; j++) {
		int32_t xs = 0, s = 0;
		for (int i = 0; i < BM; i++)
			xs ^= x[i * BN + j], s += x[i * BN + j];
		ref[5 * BM + j] = xs, ref[5 * BM + BN + j] = s;
	}
	for (int b = 0; b < 16; b++)
		ref[5 * BM + 2 * BN + b] = hist[b];
	ref[5 * BM + 2 * BN + 16] = all;
	for (int b = 0; b < 8; b++)
		ref[5 * BM + 2 * BN + 17 + b] = hm[b];
	tl_check(r, "tl_int_reductions", "values", rep, GT_I32, dout, ref, NO, TL_EXACT);
	free(ref);
	tl_free((P[]){dx, dout}, 2);
}

/* -- scans -- */
static void
run_scans(GtRun *r, int rep)
{
	enum { BM = 8, BN = 64, N = BM * BN };
	double *x;
	P dx = tl_f32_input(r, N, 0.5, 1.5, &x), dout = tl_output(GT_F32, 6 * N);
	gt_launched(tl_scans(NULL, 1, 1, 1, dx, dout), "tl_scans");
	double *ref = tl_ref(6 * N);
	for (int i = 0; i < BM; i++) {
		double s = 0, p = 1, m = -INFINITY;
		for (int j = 0; j < BN; j++) {
			double v = x[i * BN + j];
			s += v, p *= v, m = fmax(m, v);
			ref[i * BN + j] = s, ref[2 * N + i * BN + j] = p, ref[3 * N + i * BN + j] = m;
			ref[5 * N + i * BN + j] = s - v;
		}
		m = -INFINITY;
		for (int j = BN - 1; j >= 0; j--)
			ref[4 * N + i * BN + j] = m = fmax(m, x[i * BN + j]);
	}
	for (int j = 0; j < BN; j++) {
		double s = 0;
		for (int i = BM - 1; i >= 0; i--)
			ref[N + i * BN + j] = s += x[i * BN + j];
	}
	GtTol t = {64 * 0x1p-23, 1e-5, NULL};
	tl_check(r, "tl_scans", "values", rep, GT_F32, dout, ref, 6 * N, t);
	free(ref), free(x);
	tl_free((P[]){dx, dout}, 2);
}

/* -- shapes: tl.py's shapes kernel, R x C = 8 x 16 -- */
static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void
run_shapes(GtRun *r, int rep)
{
	enum { R = 8, C = 16, N = R * C, NO = 17 * N };
	double *x;
	P dx = tl_f32_input(r, N, -3, 3, &x), dout = tl_output(GT_F32, NO);
	gt_launched(tl_shapes(NULL, 1, 1, 1, dx, dout), "tl_shapes");
	double *ref = tl_ref(NO);
#define X(i, j) x[(i) * C + (j)]
	for (int i = 0; i < R; i++)
		for (int j = 0; j < C; j++) {
			int k = i * C + j;
			ref[j * R + i] = X(i, j), ref[N + j * R + i] = X(i, j) + 1;
			ref[2 * N + k] = 2 * x[k], ref[3 * N + k] = 2 * x[k];
			ref[4 * N + 2 * k] = x[k], ref[4 * N + 2 * k + 1] = 3 * x[k];
			ref[6 * N + k] = 2 * x[k];
			ref[7 * N + i * 2 * C + 2 * j] = x[k], ref[7 * N + i * 2 * C + 2 * j + 1] = -x[k];
			ref[9 * N + k] = X(i, C - 1 - j), ref[10 * N + k] = X(R - 1 - i, j);
			ref[11 * N + k] = X(i, 0) + X(0, j), ref[12 * N + k] = X(0, j) + X(i, j);
			ref[13 * N + j * R + i] = X(i, j), ref[14 * N + k] = 2.5;
		}
#undef X
	GtTol t = {0x1p-23, 0, NULL};
	float *got = gt_download(dout, (NO + TL_MARGIN) * 4);
	char what[64];
	snprintf(what, sizeof what, "tl_shapes results run %d", rep);
	gt_compare(r, what, GT_F32, got, ref, 15 * N, t);
	/* cat (can_reorder): the 2N values of x and x + 10, in any order */
	double want[2 * N], have[2 * N];
	for (int k = 0; k < N; k++)
		want[k] = x[k], want[N + k] = (double)((float)x[k] + 10.0f);
	for (int k = 0; k < 2 * N; k++)
		have[k] = got[15 * N + k];
	qsort(want, 2 * N, sizeof *want, cmp_double);
	qsort(have, 2 * N, sizeof *have, cmp_double);
	double *cref = tl_ref(2 * N);
	memcpy(cref, want, sizeof want);
	float *sorted = gt_alloc((2 * N + TL_MARGIN) * 4);
	for (int k = 0; k < 2 * N; k++)
		sorted[k] = (float)have[k];
	memcpy(sorted + 2 * N, got + NO, TL_MARGIN * 4);
	snprintf(what, sizeof what, "tl_shapes cat (sorted) run %d", rep);
	gt_compare(r, what, GT_F32, sorted, cref, 2 * N + TL_MARGIN, TL_EXACT);
	free(cref), free(sorted), free(got), free(ref), free(x);
	tl_free((P[]){dx, dout}, 2);
}

int
main(void)
{
	GtRun r;
	gt_start(&r, "test_tl");
	for (int rep = 1; rep <= 2; rep++) {
		if (tl_have(&r, tl_elementwise, "tl_elementwise"))
			run_elementwise(&r, rep);
		if (tl_have(&r, tl_int_ops, "tl_int_ops"))
			run_int_ops(&r, rep);
		if (tl_have(&r, tl_casts, "tl_casts"))
			run_casts(&r, rep);
		if (tl_have(&r, tl_reductions, "tl_reductions"))
			run_reductions(&r, rep);
		if (tl_have(&r, tl_int_reductions, "tl_int_reductions"))
			run_int_reductions(&r, rep);
		if (tl_have(&r, tl_scans, "tl_scans"))
			run_scans(&r, rep);
		if (tl_have(&r, tl_shapes, "tl_shapes"))
			run_shapes(&r, rep);
	}
	return gt_finish(&r);
}
