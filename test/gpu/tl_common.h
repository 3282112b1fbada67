/*
 * tl_common: what the drivers of the tl kernels (test_tl*.c, kernels of
 * test/gpu/tl*.py) share on top of gpu_test.h: inputs made and uploaded
 * in one call, an output downloaded, compared and freed in one call, and
 * the launcher check that turns a kernel glc did not compile (a weak
 * launcher left NULL) into SKIP lines.
 *
 * Header-only (static inline functions): each driver is one translation
 * unit and uses some of them.
 */
#ifndef TL_COMMON_H
#define TL_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"

/* Elements after each output that must keep the poison. */
enum { TL_MARGIN = 64 };

/* n f32 values uniform in [lo, hi) on the device; *exact gets them as
 * doubles (malloc'd; the caller frees it). */
static inline glrt_devptr
tl_f32_input(GtRun *r, size_t n, double lo, double hi, double **exact)
{
	float *h = gt_alloc(n * 4);
	*exact = gt_alloc(n * sizeof **exact);
	gt_fill(r, GT_F32, h, *exact, n, lo, hi);
	glrt_devptr d = gt_upload(h, n * 4);
	free(h);
	return d;
}

/* n int32 values uniform in [lo, hi] into v (the caller's), on the device. */
static inline glrt_devptr
tl_i32_input(GtRun *r, size_t n, double lo, double hi, int32_t *v)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (int32_t)floor(gt_uniform(r, lo, hi + 1));
	return gt_upload(v, n * 4);
}

/* A poisoned output of n elements of t plus TL_MARGIN. */
static inline glrt_devptr
tl_output(GtType t, size_t n)
{
	return gt_poisoned((n + TL_MARGIN) * gt_size(t));
}

/* ref[0 .. n + TL_MARGIN) with the margin set to "unwritten" (malloc'd). */
static inline double *
tl_ref(size_t n)
{
	double *ref = gt_alloc((n + TL_MARGIN) * sizeof *ref);
	for (size_t i = 0; i < n + TL_MARGIN; i++)
		ref[i] = GT_UNWRITTEN;
	return ref;
}

/* Compares output dev (n elements of t and the margin) with ref: a check
 * named "KERNEL WHAT run REP". */
static inline bool
tl_check(GtRun *r, const char *kernel, const char *what, int rep, GtType t, glrt_devptr dev,
         const double *ref, size_t n, GtTol tol)
{
	void *got = gt_download(dev, (n + TL_MARGIN) * gt_size(t));
	char name[128];
	snprintf(name, sizeof name, "%s %s run %d", kernel, what, rep);
	bool ok = gt_compare(r, name, t, got, ref, n + TL_MARGIN, tol);
	free(got);
	return ok;
}

/* Whether launcher fn exists; a SKIP line for kernel otherwise (glc did
 * not compile it, or the interpreter cannot run it). */
static inline bool
tl_have(GtRun *r, const void *fn, const char *kernel)
{
	if (!fn)
		gt_skip(r, kernel, "no launcher (the kernel did not compile)");
	return fn != NULL;
}

static inline void
tl_free(glrt_devptr *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		gt_check(glrt_free(d[i]), "glrt_free");
}

static const GtTol TL_EXACT = {0, 0, NULL};

#endif
