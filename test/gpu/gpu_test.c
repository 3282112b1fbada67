/*
 * gpu_test: seeds, checked glrt calls, poisoned buffers, f16 conversion and
 * the tolerance comparison that every GPU test driver uses.
 */
#include "gpu_test.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void
gt_start(GtRun *r, const char *name)
{
	const char *env = getenv("GT_SEED");
	uint64_t seed;
	glrt_status st;

	memset(r, 0, sizeof *r);
	if (env && *env)
		seed = strtoull(env, NULL, 0);
	else
		seed = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
	r->rng = seed ? seed : 1;
	printf("== %s: seed %llu (rerun with GT_SEED=%llu)\n", name,
	       (unsigned long long)seed, (unsigned long long)seed);
	st = glrt_init();
	if (st == GLRT_ERROR_NO_DRIVER || st == GLRT_ERROR_NO_DEVICE) {
		printf("SKIP %s: %s\n", name, glrt_last_error());
		exit(77);
	}
	gt_check(st, "glrt_init");
	fflush(stdout);
}

int
gt_finish(const GtRun *r)
{
	printf("== %d passed, %d failed, %d skipped\n", r->passed, r->failed,
	       r->skipped);
	return r->failed ? 1 : 0;
}

void
gt_check(glrt_status st, const char *what)
{
	if (st == GLRT_SUCCESS)
		return;
	printf("FAIL %s: %s: %s\n", what, glrt_status_text(st), glrt_last_error());
	exit(1);
}

/* xorshift64*: small, fast and good enough for test data. */
static uint64_t
next_u64(GtRun *r)
{
	r->rng ^= r->rng >> 12;
	r->rng ^= r->rng << 25;
	r->rng ^= r->rng >> 27;
	return r->rng * 2685821657736338717ull;
}

double
gt_uniform(GtRun *r, double lo, double hi)
{
	double u = (double)(next_u64(r) >> 11) * 0x1p-53;

	return lo + (hi - lo) * u;
}

uint16_t
gt_f16_from_float(float f)
{
	uint32_t x, sign, mant;
	int exp;

	memcpy(&x, &f, sizeof x);
	sign = (x >> 16) & 0x8000u;
	exp = (int)((x >> 23) & 0xff);
	mant = x & 0x7fffffu;
	if (exp == 0xff)  /* inf or NaN (keep it a NaN) */
		return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
	exp = exp - 127 + 15;
	if (exp >= 0x1f)
		return (uint16_t)(sign | 0x7c00u);
	if (exp <= 0) {
		/* Subnormal (or zero): shift the full significand right. */
		uint32_t full = mant | 0x800000u, shift = (uint32_t)(14 - exp);
		uint32_t half, rest, halfway;

		if (shift > 24)
			return (uint16_t)sign;
		half = full >> shift;
		rest = full & ((1u << shift) - 1);
		halfway = 1u << (shift - 1);
		if (rest > halfway || (rest == halfway && (half & 1)))
			half++;
		return (uint16_t)(sign | half);
	}
	{
		uint32_t half = ((uint32_t)exp << 10) | (mant >> 13);
		uint32_t rest = mant & 0x1fffu;

		/* A carry out of the mantissa correctly bumps the exponent
		 * (up to inf). */
		if (rest > 0x1000u || (rest == 0x1000u && (half & 1)))
			half++;
		return (uint16_t)(sign | half);
	}
}

float
gt_f16_to_float(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ffu, x;
	float f;

	if (exp == 0x1f)
		x = sign | 0x7f800000u | (mant << 13);
	else if (exp == 0) {
		f = ldexpf((float)mant, -24);
		return sign ? -f : f;
	} else
		x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
	memcpy(&f, &x, sizeof f);
	return f;
}

uint16_t
gt_bf16_from_float(float f)
{
	uint32_t x;
	memcpy(&x, &f, sizeof x);
	if ((x & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((x >> 16) | 0x40u);
	x += 0x7fffu + ((x >> 16) & 1);
	return (uint16_t)(x >> 16);
}

float
gt_bf16_to_float(uint16_t h)
{
	uint32_t x = (uint32_t)h << 16;
	float f;
	memcpy(&f, &x, sizeof f);
	return f;
}

double
gt_fp8_from_double(GtType t, double x, uint8_t *bits)
{
	int mbits = t == GT_E4M3 ? 3 : 2, bias = t == GT_E4M3 ? 7 : 15, e;
	double max = t == GT_E4M3 ? 448 : 57344, a = fabs(x < -max ? -max : x > max ? max : x);

	frexp(a, &e);
	e = e - 1 < 1 - bias ? 1 - bias : e - 1;   /* subnormals share the lowest quantum */
	a = nearbyint(ldexp(a, mbits - e));        /* in quanta of 2^(e - mbits) */
	if (ldexp(a, e - mbits) > max)
		a = ldexp(max, mbits - e);
	/* a quanta: a value of 2^(mbits+1) quanta moved up one binade */
	if (a >= (double)(2 << mbits)) {
		e++;
		a /= 2;
	}
	if (a < (double)(1 << mbits))   /* subnormal or zero: exponent field 0 */
		*bits = (uint8_t)((x < 0 ? 0x80 : 0) | (int)a);
	else
		*bits = (uint8_t)((x < 0 ? 0x80 : 0) | (e + bias) << mbits | ((int)a - (1 << mbits)));
	return (x < 0 ? -1 : 1) * ldexp(a, e - mbits);
}

size_t
gt_size(GtType t)
{
	switch (t) {
	case GT_F32: case GT_I32: case GT_U32: return 4;
	case GT_I64: case GT_U64: case GT_F64: return 8;
	case GT_E4M3: case GT_E5M2: return 1;
	default: return 2;
	}
}

void
gt_fill(GtRun *r, GtType t, void *host, double *exact, size_t n, double lo,
        double hi)
{
	size_t i;

	for (i = 0; i < n; i++) {
		float f = (float)gt_uniform(r, lo, hi);

		if (t == GT_F16) {
			uint16_t h = gt_f16_from_float(f);

			((uint16_t *)host)[i] = h;
			exact[i] = gt_f16_to_float(h);
		} else if (t == GT_BF16) {
			uint16_t h = gt_bf16_from_float(f);

			((uint16_t *)host)[i] = h;
			exact[i] = gt_bf16_to_float(h);
		} else if (t == GT_E4M3 || t == GT_E5M2) {
			exact[i] = gt_fp8_from_double(t, f, &((uint8_t *)host)[i]);
		} else {
			((float *)host)[i] = f;
			exact[i] = f;
		}
	}
}

void *
gt_alloc(size_t bytes)
{
	void *p = malloc(bytes ? bytes : 1);

	if (!p) {
		printf("FAIL malloc(%zu): out of host memory\n", bytes);
		exit(1);
	}
	return p;
}

glrt_devptr
gt_upload(const void *host, size_t bytes)
{
	glrt_devptr d;

	gt_check(glrt_malloc(&d, bytes), "glrt_malloc");
	gt_check(glrt_memcpy_htod(d, host, bytes), "glrt_memcpy_htod");
	return d;
}

glrt_devptr
gt_poisoned(size_t bytes)
{
	glrt_devptr d;

	gt_check(glrt_malloc(&d, bytes), "glrt_malloc");
	gt_check(glrt_memset_d8(d, GT_POISON, bytes), "glrt_memset_d8");
	return d;
}

void *
gt_download(glrt_devptr dev, size_t bytes)
{
	void *host = gt_alloc(bytes);

	gt_check(glrt_synchronize(), "glrt_synchronize");
	gt_check(glrt_memcpy_dtoh(host, dev, bytes), "glrt_memcpy_dtoh");
	return host;
}

void
gt_launched(glrt_status st, const char *kernel)
{
	gt_check(st, kernel);
	gt_check(glrt_synchronize(), kernel);
}

/* Element i of a raw buffer as a double, and whether it is all poison. */
static double
element(GtType t, const void *buf, size_t i, bool *poison)
{
	if (t == GT_I32 || t == GT_U32) {
		uint32_t x = ((const uint32_t *)buf)[i];

		*poison = x == 0xffffffffu;
		return t == GT_I32 ? (double)(int32_t)x : (double)x;
	}
	if (t == GT_I64 || t == GT_U64 || t == GT_F64) {
		uint64_t x = ((const uint64_t *)buf)[i];
		double f;

		*poison = x == ~(uint64_t)0;
		memcpy(&f, &x, sizeof f);
		return t == GT_I64 ? (double)(int64_t)x : t == GT_U64 ? (double)x : f;
	}
	if (t != GT_F32) {
		uint16_t h = ((const uint16_t *)buf)[i];

		*poison = h == 0xffffu;
		return t == GT_F16 ? gt_f16_to_float(h) : gt_bf16_to_float(h);
	}
	{
		uint32_t x = ((const uint32_t *)buf)[i];
		float f;

		*poison = x == 0xffffffffu;
		memcpy(&f, &x, sizeof f);
		return f;
	}
}

bool
gt_compare(GtRun *r, const char *what, GtType t, const void *got,
           const double *ref, size_t n, GtTol tol)
{
	double max_abs = 0, max_rel = 0;
	size_t i, bad = 0, written = 0;

	for (i = 0; i < n; i++) {
		bool poison, ok;
		double g = element(t, got, i, &poison);
		double lim, err;

		if (isnan(ref[i])) {
			ok = poison;
			err = 0;
		} else {
			written++;
			lim = (tol.atol_each ? tol.atol_each[i] : tol.atol) +
			      tol.rtol * fabs(ref[i]);
			err = fabs(g - ref[i]);
			/* NaN never passes; an infinite ref must be met exactly. */
			ok = !isnan(g) && (g == ref[i] || err <= lim);
			/* Elements with an infinite limit (only "written"
			 * is checked) stay out of the error statistics. */
			if (ok && !isinf(ref[i]) && !isinf(lim)) {
				if (err > max_abs)
					max_abs = err;
				if (ref[i] != 0 && err / fabs(ref[i]) > max_rel)
					max_rel = err / fabs(ref[i]);
			}
		}
		if (!ok && bad++ < 5)
			printf("  %s[%zu]: got %.9g%s, want %s%.9g\n", what, i, g,
			       poison ? " (poison: never written)" : "",
			       isnan(ref[i]) ? "poison (must not be written), not " : "",
			       isnan(ref[i]) ? g : ref[i]);
	}
	if (bad) {
		printf("FAIL %s: %zu of %zu elements wrong\n", what, bad, n);
		r->failed++;
	} else {
		printf("PASS %s: %zu written, %zu untouched; max abs err %.3g, "
		       "max rel err %.3g\n", what, written, n - written, max_abs,
		       max_rel);
		r->passed++;
	}
	fflush(stdout);
	return bad == 0;
}

bool
gt_agree(GtRun *r, const char *what, const void *a, const void *b, size_t bytes)
{
	bool same = memcmp(a, b, bytes) == 0;

	if (same) {
		printf("PASS %s: bit-identical\n", what);
		r->passed++;
	} else {
		printf("FAIL %s: the two runs differ (a race?)\n", what);
		r->failed++;
	}
	fflush(stdout);
	return same;
}

/* The reference's work on columns [j0, j1): one thread's share. */
typedef struct RefJob {
	const double *a, *b;
	double *ref, *abs_sum;
	const size_t *rows;
	size_t n_rows, n, k, j0, j1;
	pthread_t thread;
} RefJob;

enum { REF_THREADS = 16, REF_COLS = 256 };

/* Sums over k for the rows in blocks of REF_COLS columns, so a block's
 * partial sums stay in cache while B streams through once. */
static void *
ref_job(void *arg)
{
	RefJob *jb = arg;
	size_t n = jb->n;
	double *sum = gt_alloc(jb->n_rows * REF_COLS * sizeof *sum);
	double *abs_sum = gt_alloc(jb->n_rows * REF_COLS * sizeof *abs_sum);
	for (size_t j0 = jb->j0; j0 < jb->j1; j0 += REF_COLS) {
		size_t w = jb->j1 - j0 < REF_COLS ? jb->j1 - j0 : REF_COLS;
		memset(sum, 0, jb->n_rows * REF_COLS * sizeof *sum);
		memset(abs_sum, 0, jb->n_rows * REF_COLS * sizeof *abs_sum);
		for (size_t kk = 0; kk < jb->k; kk++) {
			const double *brow = &jb->b[kk * n + j0];
			for (size_t q = 0; q < jb->n_rows; q++) {
				double x = jb->a[jb->rows[q] * jb->k + kk];
				double *s = &sum[q * REF_COLS], *t = &abs_sum[q * REF_COLS];
				for (size_t j = 0; j < w; j++) {
					s[j] += x * brow[j];
					t[j] += fabs(x * brow[j]);
				}
			}
		}
		for (size_t q = 0; q < jb->n_rows; q++)
			for (size_t j = 0; j < w; j++) {
				jb->ref[jb->rows[q] * n + j0 + j] = sum[q * REF_COLS + j];
				jb->abs_sum[jb->rows[q] * n + j0 + j] = abs_sum[q * REF_COLS + j];
			}
	}
	free(sum);
	free(abs_sum);
	return NULL;
}

void
gt_matmul_ref(const double *a, const double *b, size_t m, size_t n, size_t k,
              const bool *rows, double *ref, double *abs_sum)
{
	size_t *list = gt_alloc(m * sizeof *list), n_rows = 0;
	size_t per = (gt_cdiv(n, REF_THREADS) + REF_COLS - 1) / REF_COLS * REF_COLS;
	RefJob jobs[REF_THREADS];

	for (size_t i = 0; i < m; i++)
		if (!rows || rows[i])
			list[n_rows++] = i;
	for (int t = 0; t < REF_THREADS; t++) {
		size_t j0 = (size_t)t * per < n ? (size_t)t * per : n;
		jobs[t] = (RefJob){a, b, ref, abs_sum, list, n_rows, n, k, j0,
		                   j0 + per < n ? j0 + per : n, 0};
		if (pthread_create(&jobs[t].thread, NULL, ref_job, &jobs[t]) != 0) {
			printf("FAIL pthread_create\n");
			exit(1);
		}
	}
	for (int t = 0; t < REF_THREADS; t++)
		pthread_join(jobs[t].thread, NULL);
	free(list);
}

void
gt_skip(GtRun *r, const char *what, const char *why)
{
	printf("SKIP %s: %s\n", what, why);
	r->skipped++;
}

unsigned
gt_cdiv(size_t n, size_t d)
{
	return (unsigned)((n + d - 1) / d);
}
