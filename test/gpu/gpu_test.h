/*
 * gpu_test: what the GPU test drivers (test/gpu/test_*.c) share.
 *
 * Each driver launches glc-compiled kernels through their generated
 * launchers on fresh random inputs, with every output byte poisoned (0xFF,
 * a NaN for f32 and f16) before the launch, and compares against a float64
 * reference computed on the CPU. Every glrt call is checked; a failure of
 * the runtime stops the driver with exit status 1, a missing driver or
 * device with 77 (skip).
 *
 * Output protocol (test/gpu/run.sh counts it): one line per check,
 * "PASS name: ...", "FAIL name: ..." or "SKIP name: ...". The driver's exit
 * status is 1 if any check failed, else 0.
 *
 * Test programs, not library code: they may exit.
 */
#ifndef GPU_TEST_H
#define GPU_TEST_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "glrt.h"

/* A reference value meaning "must not be written" (see gt_compare). */
#define GT_UNWRITTEN NAN

/* The poison byte: 0xFFFFFFFF is a NaN as f32, 0xFFFF as f16 and bf16. */
#define GT_POISON 0xFF

/* Pass/fail counts and the random stream of one driver. */
typedef struct GtRun {
	uint64_t rng;      /* xorshift64* state, never 0 */
	int passed;
	int failed;
	int skipped;
} GtRun;

typedef enum GtType {
	GT_F32,
	GT_F16,
	GT_BF16,
	GT_I32,   /* compared only: gt_fill does not make them */
	GT_E4M3,  /* made only: gt_compare does not read them */
	GT_E5M2,
	GT_U32,   /* compared only (exactly below 2^53 for the 64-bit ones) */
	GT_I64,
	GT_U64,
	GT_F64,
} GtType;

/* What an element must satisfy: |got - ref| <= atol + rtol * |ref|, with
 * atol_each[i] in place of atol when atol_each is not NULL. */
typedef struct GtTol {
	double rtol;
	double atol;
	const double *atol_each;
} GtTol;

/* Starts a driver: prints its name and the seed (GT_SEED from the
 * environment, else time and pid), initializes glrt; exits 77 when there is
 * no driver or device. */
void gt_start(GtRun *r, const char *name);

/* Prints the totals and returns the exit status for main (1 on failures). */
int gt_finish(const GtRun *r);

/* Stops the driver with status 1 when st is not GLRT_SUCCESS, naming what
 * failed and glrt's message. */
void gt_check(glrt_status st, const char *what);

/* A uniform double in [lo, hi). */
double gt_uniform(GtRun *r, double lo, double hi);

/* IEEE binary16 <-> float, round to nearest even; NaN and inf kept. */
uint16_t gt_f16_from_float(float f);
float gt_f16_to_float(uint16_t h);

/* bfloat16 <-> float, round to nearest even; NaN kept. */
uint16_t gt_bf16_from_float(float f);
float gt_bf16_to_float(uint16_t h);

/* The fp8 value (t: GT_E4M3 or GT_E5M2) nearest x, ties to even,
 * saturating at the largest finite one (448, 57344): its bit pattern in
 * *bits, its value returned. */
double gt_fp8_from_double(GtType t, double x, uint8_t *bits);

/* Bytes per element of t. */
size_t gt_size(GtType t);

/* Fills n elements of type t at host with uniform values in [lo, hi) and
 * writes them, as doubles exactly equal to the stored values, to exact. */
void gt_fill(GtRun *r, GtType t, void *host, double *exact, size_t n, double lo,
             double hi);

/* A device copy of `bytes` host bytes. */
glrt_devptr gt_upload(const void *host, size_t bytes);

/* A device buffer of `bytes` bytes filled with GT_POISON. */
glrt_devptr gt_poisoned(size_t bytes);

/* Waits for the device (reporting launch-time errors), then copies bytes
 * back into a fresh malloc'd buffer. */
void *gt_download(glrt_devptr dev, size_t bytes);

/* Synchronizes after the launch whose status is st (both checked). */
void gt_launched(glrt_status st, const char *kernel);

/* Checks n elements of type t at got against ref. A NaN in ref means the
 * element must not have been written: it must still hold the poison bytes.
 * Any other element must be finite-or-equal and within tol. Records PASS or
 * FAIL for `what` (printing the largest errors, or the first mismatches). */
bool gt_compare(GtRun *r, const char *what, GtType t, const void *got,
                const double *ref, size_t n, GtTol tol);

/* Records PASS for `what` ("bit-identical") when the bytes of two runs'
 * outputs a and b agree, else FAIL (a race shows up as a difference). */
bool gt_agree(GtRun *r, const char *what, const void *a, const void *b, size_t bytes);

/* The float64 product C = A @ B of row-major a (m x k) and b (k x n) for
 * the rows i with rows[i] set (all rows when rows is NULL), on 16 threads:
 * ref[i * n + j] = sum_k a_ik b_kj and abs_sum[i * n + j] = sum_k
 * |a_ik b_kj|; other rows are left alone. */
void gt_matmul_ref(const double *a, const double *b, size_t m, size_t n, size_t k,
                   const bool *rows, double *ref, double *abs_sum);

/* Records SKIP for `what` with a reason. */
void gt_skip(GtRun *r, const char *what, const char *why);

/* malloc that stops the driver when out of memory. */
void *gt_alloc(size_t bytes);

/* cdiv for launch grids. */
unsigned gt_cdiv(size_t n, size_t d);

#endif
