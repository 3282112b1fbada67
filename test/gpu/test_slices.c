/*
 * GPU test of test/gpu/slices.gl: shared-memory slices that are strided
 * views of their buffer (column ranges of row-major and swizzled buffers,
 * rows of NVMMA buffers whose column tiles are outermost, slices of slices,
 * a permuted slice) read and written through nine shared layouts; a TMA
 * load into and store from rows of an NVMMA buffer (Triton's
 * test_tma_slice); WGMMA on K-slices of A and of B or of B's permuted view.
 *
 * Data movement is exact; the WGMMA products are within 2^-16 of the sum of
 * |a_ik b_kj| (f32 accumulation of f16 products). Outputs are poisoned, with
 * a margin that must stay unwritten; every case runs twice on fresh random
 * inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"

typedef glrt_status (*SliceKernel)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                                   glrt_devptr);

#pragma weak slices_rm
#pragma weak slices_cm
#pragma weak slices_sw
#pragma weak slices_nv0
#pragma weak slices_nv32
#pragma weak slices_nv64
#pragma weak slices_nv128
#pragma weak slices_nvt
#pragma weak slices_lin
#pragma weak tma_slice
#pragma weak wgmma_kslices
#pragma weak wgmma_kslices_nk
glrt_status slices_rm(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status slices_cm(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status slices_sw(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status slices_nv0(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status slices_nv32(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status slices_nv64(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status slices_nv128(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status slices_nvt(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status slices_lin(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status tma_slice(glrt_stream, unsigned, unsigned, unsigned, const glrt_tensor_map *,
                      const glrt_tensor_map *);
glrt_status wgmma_kslices(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                          glrt_devptr);
glrt_status wgmma_kslices_nk(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                             glrt_devptr, glrt_devptr);

enum { T = 64, OUT = 7680 + T * T, MARGIN = 64 };

static const GtTol exact = {0, 0, NULL};

/* ref[o..] = x[r0:r1, c0:c1] (row-major), or its transpose; the next o. */
static size_t
block(double *ref, size_t o, const double *x, int r0, int r1, int c0, int c1, bool transpose)
{
	if (transpose) {
		for (int c = c0; c < c1; c++)
			for (int r = r0; r < r1; r++)
				ref[o++] = x[r * T + c];
		return o;
	}
	for (int r = r0; r < r1; r++)
		for (int c = c0; c < c1; c++)
			ref[o++] = x[r * T + c];
	return o;
}

/* What slices_body (slices.gl) writes for tile x, then the margin. */
static void
slices_ref(const double *x, double *ref)
{
	size_t o = block(ref, 0, x, 0, T, 32, 64, false);
	o = block(ref, o, x, 0, T, 16, 32, false);
	o = block(ref, o, x, 32, 64, 0, T, false);
	o = block(ref, o, x, 32, 64, 32, 48, false);
	o = block(ref, o, x, 0, T, 32, 64, true);
	o = block(ref, o, x, 0, T, 0, T, false);
	while (o < OUT + MARGIN)
		ref[o++] = GT_UNWRITTEN;
}

static void
run_slices(GtRun *r, const char *name, SliceKernel k, int rep)
{
	double x[T * T], *ref = gt_alloc((OUT + MARGIN) * sizeof *ref);
	uint16_t hx[T * T];
	gt_fill(r, GT_F16, hx, x, T * T, -100, 100);
	slices_ref(x, ref);
	glrt_devptr dx = gt_upload(hx, sizeof hx), dy = gt_poisoned((OUT + MARGIN) * 2);
	gt_launched(k(NULL, 1, 1, 1, dx, dy), name);
	void *got = gt_download(dy, (OUT + MARGIN) * 2);
	char what[96];
	snprintf(what, sizeof what, "%s run %d", name, rep);
	gt_compare(r, what, GT_F16, got, ref, OUT + MARGIN, exact);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(got);
	free(ref);
}

/* tma_slice copies the 128 x 128 block at (0, 0) of a 200 x 160 f32
 * matrix to a poisoned one; the rest stays unwritten. */
static void
run_tma_slice(GtRun *r, int rep)
{
	enum { M = 200, N = 160 };
	double *x = gt_alloc(M * N * sizeof *x), *ref = gt_alloc(M * N * sizeof *ref);
	float *hx = gt_alloc(M * N * 4);
	gt_fill(r, GT_F32, hx, x, M * N, -100, 100);
	for (size_t i = 0; i < M * N; i++)
		ref[i] = i / N < 128 && i % N < 128 ? x[i] : GT_UNWRITTEN;
	glrt_devptr dx = gt_upload(hx, M * N * 4), dy = gt_poisoned(M * N * 4);
	const uint64_t shape[] = {M, N}, strides[] = {N, 1};
	const uint32_t box[] = {128, 128};
	glrt_nvmma_layout layout = {128, 32, 0};
	glrt_tensor_map mx, my;
	gt_check(glrt_tensor_map_encode_nvmma(&mx, GLRT_TMA_F32, 2, dx, shape, strides, box, &layout,
	                                      GLRT_OOB_ZERO), "glrt_tensor_map_encode_nvmma");
	gt_check(glrt_tensor_map_encode_nvmma(&my, GLRT_TMA_F32, 2, dy, shape, strides, box, &layout,
	                                      GLRT_OOB_ZERO), "glrt_tensor_map_encode_nvmma");
	gt_launched(tma_slice(NULL, 1, 1, 1, &mx, &my), "tma_slice");
	void *got = gt_download(dy, M * N * 4);
	char what[96];
	snprintf(what, sizeof what, "tma_slice run %d", rep);
	gt_compare(r, what, GT_F32, got, ref, M * N, exact);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(x);
	free(ref);
	free(hx);
	free(got);
}

/* c = a @ b for 64 x 64 f16 a and b; nk: b is passed as b^T ([N, K]). */
static void
run_wgmma(GtRun *r, bool nk, int rep)
{
	double a[T * T], b[T * T], ref[T * T + T], tol[T * T + T];
	uint16_t ha[T * T], hb[T * T], hbt[T * T];
	gt_fill(r, GT_F16, ha, a, T * T, -4, 4);
	gt_fill(r, GT_F16, hb, b, T * T, -4, 4);
	for (int i = 0; i < T; i++)
		for (int j = 0; j < T; j++)
			hbt[j * T + i] = hb[i * T + j];
	gt_matmul_ref(a, b, T, T, T, NULL, ref, tol);
	for (int i = 0; i < T * T; i++)
		tol[i] *= 0x1p-16;
	for (int i = T * T; i < T * T + T; i++) {
		ref[i] = GT_UNWRITTEN;
		tol[i] = 0;
	}
	glrt_devptr da = gt_upload(ha, sizeof ha), db = gt_upload(nk ? hbt : hb, sizeof hb);
	glrt_devptr dc = gt_poisoned((T * T + T) * 4);
	const char *name = nk ? "wgmma_kslices_nk" : "wgmma_kslices";
	gt_launched((nk ? wgmma_kslices_nk : wgmma_kslices)(NULL, 1, 1, 1, da, db, dc), name);
	void *got = gt_download(dc, (T * T + T) * 4);
	char what[96];
	snprintf(what, sizeof what, "%s run %d", name, rep);
	gt_compare(r, what, GT_F32, got, ref, T * T + T, (GtTol){0, 0, tol});
	gt_check(glrt_free(da), "glrt_free");
	gt_check(glrt_free(db), "glrt_free");
	gt_check(glrt_free(dc), "glrt_free");
	free(got);
}

int
main(void)
{
	static const struct {
		const char *name;
		SliceKernel k;
	} layouts[] = {
		{"slices_rm", slices_rm},     {"slices_cm", slices_cm},
		{"slices_sw", slices_sw},     {"slices_nv0", slices_nv0},
		{"slices_nv32", slices_nv32}, {"slices_nv64", slices_nv64},
		{"slices_nv128", slices_nv128}, {"slices_nvt", slices_nvt},
		{"slices_lin", slices_lin},
	};
	GtRun r;
	gt_start(&r, "slices");
	for (int rep = 1; rep <= 2; rep++) {
		for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++)
			if (layouts[i].k)
				run_slices(&r, layouts[i].name, layouts[i].k, rep);
		if (tma_slice)
			run_tma_slice(&r, rep);
		if (wgmma_kslices)
			run_wgmma(&r, false, rep);
		if (wgmma_kslices_nk)
			run_wgmma(&r, true, rep);
	}
	for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++)
		if (!layouts[i].k)
			gt_skip(&r, layouts[i].name, "not compiled by glc (no launcher linked)");
	const char *names[] = {"tma_slice", "wgmma_kslices", "wgmma_kslices_nk"};
	const void *fns[] = {(const void *)tma_slice, (const void *)wgmma_kslices,
	                     (const void *)wgmma_kslices_nk};
	for (size_t k = 0; k < sizeof fns / sizeof *fns; k++)
		if (!fns[k])
			gt_skip(&r, names[k], "not compiled by glc (no launcher linked)");
	return gt_finish(&r);
}
