/*
 * GPU test of test/gpu/math.gl: Gluon's math set, casts with rounding
 * modes, fp8 conversions, umulhi, bitcasts, inline asm and map_elementwise
 * against a float64 CPU reference. Each kernel writes result f of element
 * i at f * n + i; the buffer has a poisoned margin past the last row that
 * must stay unwritten. Lengths include tails (not multiples of the 512
 * elements of a program); every case runs twice on fresh inputs.
 *
 * Tolerances, per element, in units of the result's ulp (u) unless said:
 *   correctly rounded (sqrt_rn, div_rn, fdiv ieee, fma, the inline
 *   asm add/mul/sub, map sums, rtne casts): 0.5 u; exact: floor, ceil,
 *   clamp, maximum, minimum, rtz and fp8 casts (matched bit for bit through
 *   a CPU quantizer), integers;
 *   libdevice sin, cos, erf: 2 u (f32), 2 u of f64 (f64, plus rounding);
 *   ex2.approx: relative 2^-21; exp = ex2(x * log2 e): relative 2^-21 +
 *   |x| 2^-23 (the product's rounding, scaled by ln 2); lg2.approx (log2,
 *   log): 2^-21 absolute and relative; sqrt.approx (gl.sqrt, as Triton's):
 *   relative 2^-23 (PTX ISA); rsqrt.approx and div.full: 2 u;
 *   selu (exp inside): its exp's bound times 1.5 plus 2 u.
 * f16 rows compute in f32 and round once: 1 u of f16 for sin and erf.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"

#pragma weak math_f32
#pragma weak math_f64
#pragma weak math_f16
#pragma weak math_u32
#pragma weak math_i64
glrt_status math_f32(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                     glrt_devptr, int32_t);
glrt_status math_f64(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                     glrt_devptr, int32_t);
glrt_status math_f16(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                     glrt_devptr, int32_t);
glrt_status math_u32(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                     glrt_devptr, int32_t);
glrt_status math_i64(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                     glrt_devptr, int32_t);

typedef glrt_status (*Launcher)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                                glrt_devptr, glrt_devptr, int32_t);

enum { BLOCK = 512, MARGIN = 512, F32_ROWS = 32, F64_ROWS = 11, F16_ROWS = 6 };

static const size_t lengths[] = {1, 100, 512, 1000, 4099};

/* The spacing of floating-point numbers of `mant` fraction bits and least
 * normal exponent emin at |v|. */
static double
ulp_of(double v, int mant, int emin)
{
	int e;
	if (v == 0 || !isfinite(v))
		return ldexp(1, emin - mant);
	frexp(v, &e);
	e -= 1;
	return ldexp(1, (e < emin ? emin : e) - mant);
}

static double
ulpf(double v)
{
	return ulp_of(v, 23, -126);
}

/* v rounded to `mant` fraction bits with least normal exponent emin, to
 * nearest even (or toward zero), saturating at maxv (finite). */
static double
quantize(double v, int mant, int emin, double maxv, int rtz)
{
	if (v == 0 || isnan(v))
		return v;
	double q = ulp_of(v, mant, emin), r = v / q;
	r = rtz ? trunc(r) : nearbyint(r);
	r *= q;
	return r > maxv ? maxv : r < -maxv ? -maxv : r;
}

static double
f16q(double v, int rtz)
{
	return quantize(v, 10, -14, 65504, rtz);
}

/* The reference of f32 row f at element i, and its tolerance. */
static double
ref_f32(int f, double x, double p, double *tol)
{
	double r, e;
	*tol = 0;
	switch (f) {
	case 0: r = sin(x); *tol = 2 * ulpf(r); return r;
	case 1: r = cos(x); *tol = 2 * ulpf(r); return r;
	case 2: r = erf(x); *tol = 2 * ulpf(r); return r;
	case 3: return floor(x);
	case 4: return ceil(x);
	case 5: r = exp2(x); *tol = fabs(r) * 0x1p-21; return r;
	case 6: r = exp(x); *tol = fabs(r) * (0x1p-21 + fabs(x) * 0x1p-23); return r;
	case 7: r = log2(p); *tol = 0x1p-21 * (1 + fabs(r)); return r;
	case 8: r = log(p); *tol = 0x1p-21 * (1 + fabs(r)); return r;
	case 9: r = sqrt(p); *tol = fabs(r) * 0x1p-23; return r;
	case 10: r = sqrt(p); *tol = 0.5 * ulpf(r); return r;
	case 11: r = 1 / sqrt(p); *tol = 2 * ulpf(r); return r;
	case 12: r = x / p; *tol = 2 * ulpf(r); return r;
	case 13: case 29: r = x / p; *tol = 0.5 * ulpf(r); return r;
	case 14: r = x * p + x; *tol = 0.5 * ulpf(r); return r;
	case 15: return x < -3.5 ? -3.5 : x > 2.25 ? 2.25 : x;
	case 16: return x > p ? x : p;
	case 17: return x < p ? x : p;
	case 18: return f16q(x, 1);
	case 19: return quantize(x, 7, -126, 3.3895313892515355e38, 1);
	case 20: return quantize(x, 3, -6, 448, 0);
	case 21: return quantize(x, 2, -14, 57344, 0);
	case 22: return quantize(x, 2, -14, 57344, 1);
	case 23:
		if (x > 0)
			return x;
		e = exp(x);
		*tol = 1.5 * e * (0x1p-21 + fabs(x) * 0x1p-23) + 2 * ulpf(1.5 * (e - 1));
		return 1.5 * (e - 1);
	case 24: case 30: r = x + p; *tol = 0.5 * ulpf(r); return r;
	case 25: r = x * p; *tol = 0.5 * ulpf(r); return r;
	case 26: case 31: r = x - p; *tol = 0.5 * ulpf(r); return r;
	case 27: return f16q(x, 0);
	default: return quantize(x, 7, -126, 3.3895313892515355e38, 0);
	}
}

/* A positive value spread over [2^-10, 2^10). */
static double
positive(GtRun *r)
{
	return exp2(gt_uniform(r, -10, 10));
}

static void
run_f32(GtRun *r, size_t n, int rep)
{
	float *hx = gt_alloc(n * 4), *hp = gt_alloc(n * 4);
	size_t total = F32_ROWS * n + MARGIN;
	double *ref = gt_alloc(total * sizeof *ref), *tol = gt_alloc(total * sizeof *tol);
	for (size_t i = 0; i < n; i++) {
		hx[i] = (float)gt_uniform(r, -20, 20);
		hp[i] = (float)positive(r);
	}
	for (size_t k = 0; k < total; k++) {
		ref[k] = GT_UNWRITTEN;
		tol[k] = 0;
	}
	for (int f = 0; f < F32_ROWS; f++)
		for (size_t i = 0; i < n; i++)
			ref[f * n + i] = ref_f32(f, hx[i], hp[i], &tol[f * n + i]);
	glrt_devptr dx = gt_upload(hx, n * 4), dp = gt_upload(hp, n * 4);
	glrt_devptr dy = gt_poisoned(total * 4);
	gt_launched(math_f32(NULL, gt_cdiv(n, BLOCK), 1, 1, dx, dp, dy, (int32_t)n), "math_f32");
	float *got = gt_download(dy, total * 4);
	for (int f = 0; f < F32_ROWS; f++) {
		char what[96];
		snprintf(what, sizeof what, "math_f32 row %d n=%zu run %d", f, n, rep);
		GtTol t = {0, 0, tol + f * n};
		size_t len = f + 1 == F32_ROWS ? n + MARGIN : n;
		gt_compare(r, what, GT_F32, got + f * n, ref + f * n, len, t);
	}
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dp), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(hx);
	free(hp);
	free(ref);
	free(tol);
	free(got);
}

/* Records PASS or FAIL for `what`: bad elements of n (first at `first`). */
static void
verdict(GtRun *r, const char *what, size_t bad, size_t n, size_t first, double got, double want)
{
	if (!bad) {
		printf("PASS %s: %zu elements\n", what, n);
		r->passed++;
		return;
	}
	printf("FAIL %s: %zu of %zu elements wrong; first at %zu: got %.17g, want %.17g\n", what,
	       bad, n, first, got, want);
	r->failed++;
}

/* The reference of f64 row f, and its tolerance: 4 ulp for libdevice's
 * functions (2 of theirs, 1 of the C library's, rounding), half an ulp for
 * the correctly rounded operations, exact for the cast. */
static double
ref_f64(int f, double x, double p, double *tol)
{
	double w;
	switch (f) {
	case 0: w = sin(x); break;
	case 1: w = cos(x); break;
	case 2: w = erf(x); break;
	case 3: w = exp(x); break;
	case 4: w = exp2(x); break;
	case 5: w = log(p); break;
	case 6: w = log2(p); break;
	case 7: *tol = 0.5 * ulp_of(sqrt(p), 52, -1022); return sqrt(p);
	case 8: *tol = 0.5 * ulp_of(x / p, 52, -1022); return x / p;
	case 9: *tol = 0.5 * ulp_of(fma(x, p, x), 52, -1022); return fma(x, p, x);
	default: *tol = 0; return quantize(x, 23, -126, 3.4028234663852886e38, 1);
	}
	*tol = 4 * ulp_of(w, 52, -1022);
	return w;
}

static void
run_f64(GtRun *r, size_t n, int rep)
{
	double *hx = gt_alloc(n * 8), *hp = gt_alloc(n * 8);
	size_t total = F64_ROWS * n + MARGIN;
	for (size_t i = 0; i < n; i++) {
		hx[i] = gt_uniform(r, -20, 20);
		hp[i] = positive(r);
	}
	glrt_devptr dx = gt_upload(hx, n * 8), dp = gt_upload(hp, n * 8);
	glrt_devptr dy = gt_poisoned(total * 8);
	gt_launched(math_f64(NULL, gt_cdiv(n, BLOCK), 1, 1, dx, dp, dy, (int32_t)n), "math_f64");
	double *got = gt_download(dy, total * 8);
	for (int f = 0; f < F64_ROWS; f++) {
		size_t bad = 0, first = 0;
		double g0 = 0, w0 = 0;
		for (size_t i = 0; i < n; i++) {
			double g = got[f * n + i], tol, w = ref_f64(f, hx[i], hp[i], &tol);
			if (!(fabs(g - w) <= tol) && !bad++) {
				first = i;
				g0 = g;
				w0 = w;
			}
		}
		uint64_t poison;
		memset(&poison, GT_POISON, sizeof poison);
		for (size_t i = F64_ROWS * n; f + 1 == F64_ROWS && i < total; i++)
			if (memcmp(&got[i], &poison, 8) != 0 && !bad++)
				first = i;
		char what[96];
		snprintf(what, sizeof what, "math_f64 row %d n=%zu run %d", f, n, rep);
		verdict(r, what, bad, n, first, g0, w0);
	}
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dp), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(hx);
	free(hp);
	free(got);
}

static void
run_f16(GtRun *r, size_t n, int rep)
{
	uint16_t *hx = gt_alloc(n * 2), *hp = gt_alloc(n * 2);
	size_t total = F16_ROWS * n + MARGIN;
	double *ref = gt_alloc(total * sizeof *ref), *tol = gt_alloc(total * sizeof *tol);
	double *x = gt_alloc(n * sizeof *x), *p = gt_alloc(n * sizeof *p);
	for (size_t i = 0; i < n; i++) {
		hx[i] = gt_f16_from_float((float)gt_uniform(r, -8, 8));
		hp[i] = gt_f16_from_float((float)exp2(gt_uniform(r, -6, 6)));
		x[i] = gt_f16_to_float(hx[i]);
		p[i] = gt_f16_to_float(hp[i]);
	}
	for (size_t k = 0; k < total; k++) {
		ref[k] = GT_UNWRITTEN;
		tol[k] = 0;
	}
	for (size_t i = 0; i < n; i++) {
		double w[F16_ROWS] = {sin(x[i]), erf(x[i]), sqrt(p[i]), x[i] * p[i] + x[i],
		                      x[i] + p[i], quantize(x[i], 3, -6, 448, 0)};
		for (int f = 0; f < F16_ROWS; f++) {
			ref[f * n + i] = w[f];
			tol[f * n + i] = f < 2 ? ulp_of(w[f], 10, -14) + 2 * ulpf(w[f])
			               : f < 5 ? 0.5 * ulp_of(w[f], 10, -14) : 0;
		}
	}
	glrt_devptr dx = gt_upload(hx, n * 2), dp = gt_upload(hp, n * 2);
	glrt_devptr dy = gt_poisoned(total * 2);
	gt_launched(math_f16(NULL, gt_cdiv(n, BLOCK), 1, 1, dx, dp, dy, (int32_t)n), "math_f16");
	uint16_t *got = gt_download(dy, total * 2);
	for (int f = 0; f < F16_ROWS; f++) {
		char what[96];
		snprintf(what, sizeof what, "math_f16 row %d n=%zu run %d", f, n, rep);
		GtTol t = {0, 0, tol + f * n};
		size_t len = f + 1 == F16_ROWS ? n + MARGIN : n;
		gt_compare(r, what, GT_F16, got + f * n, ref + f * n, len, t);
	}
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dp), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(hx);
	free(hp);
	free(ref);
	free(tol);
	free(x);
	free(p);
	free(got);
}

static uint64_t
random_u64(GtRun *r)
{
	uint64_t hi = (uint64_t)gt_uniform(r, 0, 4294967296.0);
	return hi << 32 | (uint64_t)gt_uniform(r, 0, 4294967296.0);
}

/* umulhi, bitcasts and byte-packed inline asm on u32; umulhi on i64. */
static void
run_ints(GtRun *r, size_t n, int rep)
{
	uint32_t *a = gt_alloc(n * 4), *b = gt_alloc(n * 4);
	uint64_t *c = gt_alloc(n * 8), *d = gt_alloc(n * 8);
	for (size_t i = 0; i < n; i++) {
		a[i] = (uint32_t)random_u64(r);
		b[i] = (uint32_t)random_u64(r);
		c[i] = random_u64(r);
		d[i] = random_u64(r);
	}
	glrt_devptr da = gt_upload(a, n * 4), db = gt_upload(b, n * 4);
	glrt_devptr dc = gt_upload(c, n * 8), dd = gt_upload(d, n * 8);
	glrt_devptr dy = gt_poisoned(3 * n * 4 + MARGIN), dz = gt_poisoned(n * 8 + MARGIN);
	gt_launched(math_u32(NULL, gt_cdiv(n, BLOCK), 1, 1, da, db, dy, (int32_t)n), "math_u32");
	gt_launched(math_i64(NULL, gt_cdiv(n, BLOCK), 1, 1, dc, dd, dz, (int32_t)n), "math_i64");
	uint32_t *y = gt_download(dy, 3 * n * 4 + MARGIN);
	uint64_t *z = gt_download(dz, n * 8 + MARGIN);
	const char *names[] = {"umulhi u32", "bitcast u32 -> f32 -> u32", "inline asm u8 x4",
	                       "umulhi i64"};
	for (int f = 0; f < 4; f++) {
		size_t bad = 0, first = 0;
		double g0 = 0, w0 = 0;
		for (size_t i = 0; i < n; i++) {
			uint64_t want = f == 0 ? (uint64_t)a[i] * b[i] >> 32 : f == 1 ? a[i]
			              : f == 2 ? (uint8_t)(a[i] + 1)
			              : (uint64_t)((unsigned __int128)c[i] * d[i] >> 64);
			uint64_t got = f < 3 ? y[f * n + i] : z[i];
			if (got != want && !bad++) {
				first = i;
				g0 = (double)got;
				w0 = (double)want;
			}
		}
		char what[96];
		snprintf(what, sizeof what, "math ints: %s n=%zu run %d", names[f], n, rep);
		verdict(r, what, bad, n, first, g0, w0);
	}
	gt_check(glrt_free(da), "glrt_free");
	gt_check(glrt_free(db), "glrt_free");
	gt_check(glrt_free(dc), "glrt_free");
	gt_check(glrt_free(dd), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	gt_check(glrt_free(dz), "glrt_free");
	free(a);
	free(b);
	free(c);
	free(d);
	free(y);
	free(z);
}

int
main(void)
{
	GtRun r;
	struct { const char *name; Launcher fn; void (*run)(GtRun *, size_t, int); } cases[] = {
		{"math_f32", math_f32, run_f32}, {"math_f64", math_f64, run_f64},
		{"math_f16", math_f16, run_f16}, {"math_u32/i64", math_u32, run_ints},
	};

	gt_start(&r, "math");
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		if (!cases[c].fn || (cases[c].run == run_ints && !math_i64)) {
			gt_skip(&r, cases[c].name, "not compiled by glc (no launcher linked)");
			continue;
		}
		for (size_t k = 0; k < sizeof lengths / sizeof *lengths; k++)
			for (int rep = 1; rep <= 2; rep++)
				cases[c].run(&r, lengths[k], rep);
	}
	return gt_finish(&r);
}
