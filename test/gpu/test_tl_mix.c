/*
 * GPU test of test/gpu/tl_mix.py: one file, both languages. The Triton
 * GEMM (matmul_tl) and its port with the main loop in Gluon and Triton's
 * epilogue (matmul_gl) against a float64 reference on shapes that are no
 * multiple of the tile (the epilogue's mask, the loop's K mask); the two
 * must also agree bit for bit, since they add the same products in the
 * same WGMMA order. scale_tl: a Triton kernel with a Gluon helper.
 *
 * Outputs are poisoned with a margin that must stay unwritten; inputs are
 * fresh random values and every kernel runs twice. test/tl/interp_gpu.sh
 * runs the Triton kernels against Triton's interpreter (matmul_gl SKIPs).
 */
#include "tl_common.h"

#pragma weak tl_mix_matmul_tl
#pragma weak tl_mix_matmul_gl
#pragma weak tl_mix_scale_tl
typedef glrt_devptr P;
glrt_status tl_mix_matmul_tl(glrt_stream, unsigned, unsigned, unsigned, P, P, P, int32_t, int32_t,
                             int32_t, int32_t, int32_t, int32_t);
glrt_status tl_mix_matmul_gl(glrt_stream, unsigned, unsigned, unsigned, P, P, P, int32_t, int32_t,
                             int32_t, int32_t, int32_t, int32_t);
glrt_status tl_mix_scale_tl(glrt_stream, unsigned, unsigned, unsigned, P, P, int32_t);

enum { M = 300, N = 208, K = 200, BM = 128, BN = 128 };

typedef glrt_status (*MatmulFn)(glrt_stream, unsigned, unsigned, unsigned, P, P, P, int32_t,
                                int32_t, int32_t, int32_t, int32_t, int32_t);

/* C = A B through fn; the reference check; C's bytes returned (malloc'd). */
static uint16_t *
run_matmul(GtRun *r, int rep, MatmulFn fn, const char *kernel, P da, P db, const double *ref,
           const double *abs_sum)
{
	P dc = tl_output(GT_F16, (size_t)M * N);
	unsigned grid = gt_cdiv(M, BM) * gt_cdiv(N, BN);
	gt_launched(fn(NULL, grid, 1, 1, da, db, dc, M, N, K, K, N, N), kernel);
	double *atol = gt_alloc((M * N + TL_MARGIN) * sizeof *atol);
	for (int i = 0; i < M * N + TL_MARGIN; i++)   /* f32 sums rounded once to f16 */
		atol[i] = i < M * N ? abs_sum[i] * K * 0x1p-24 + fabs(ref[i]) * 0x1p-11 : 0;
	tl_check(r, kernel, "C", rep, GT_F16, dc, ref, (size_t)M * N, (GtTol){0, 0, atol});
	uint16_t *got = gt_download(dc, (size_t)M * N * 2);
	free(atol);
	tl_free(&dc, 1);
	return got;
}

static void
run_matmuls(GtRun *r, int rep)
{
	uint16_t *ha = gt_alloc((size_t)M * K * 2), *hb = gt_alloc((size_t)K * N * 2);
	double *a = gt_alloc((size_t)M * K * sizeof *a), *b = gt_alloc((size_t)K * N * sizeof *b);
	gt_fill(r, GT_F16, ha, a, (size_t)M * K, -1, 1);
	gt_fill(r, GT_F16, hb, b, (size_t)K * N, -1, 1);
	P da = gt_upload(ha, (size_t)M * K * 2), db = gt_upload(hb, (size_t)K * N * 2);
	double *ref = tl_ref((size_t)M * N), *abs_sum = gt_alloc((size_t)M * N * sizeof *abs_sum);
	gt_matmul_ref(a, b, M, N, K, NULL, ref, abs_sum);
	uint16_t *c_tl = NULL, *c_gl = NULL;
	if (tl_have(r, tl_mix_matmul_tl, "tl_mix_matmul_tl"))
		c_tl = run_matmul(r, rep, tl_mix_matmul_tl, "tl_mix_matmul_tl", da, db, ref, abs_sum);
	if (tl_have(r, tl_mix_matmul_gl, "tl_mix_matmul_gl"))
		c_gl = run_matmul(r, rep, tl_mix_matmul_gl, "tl_mix_matmul_gl", da, db, ref, abs_sum);
	if (c_tl && c_gl) {
		char what[64];
		snprintf(what, sizeof what, "matmul_tl and matmul_gl run %d", rep);
		gt_agree(r, what, c_tl, c_gl, (size_t)M * N * 2);
	}
	free(c_tl), free(c_gl), free(ha), free(hb), free(a), free(b), free(ref), free(abs_sum);
	tl_free((P[]){da, db}, 2);
}

static void
run_scale(GtRun *r, int rep)
{
	enum { NX = 3000, BLOCK = 1024 };
	double *x;
	P dx = tl_f32_input(r, NX, -4, 4, &x), dy = tl_output(GT_F32, NX);
	gt_launched(tl_mix_scale_tl(NULL, gt_cdiv(NX, BLOCK), 1, 1, dx, dy, NX), "tl_mix_scale_tl");
	double *ref = tl_ref(NX);
	for (int i = 0; i < NX; i++)
		ref[i] = 3.0 * x[i] + 1.0;   /* one rounding or two: fused or not */
	tl_check(r, "tl_mix_scale_tl", "y", rep, GT_F32, dy, ref, NX, (GtTol){0x1p-23, 0x1p-19, NULL});
	free(x), free(ref);
	tl_free((P[]){dx, dy}, 2);
}

int
main(void)
{
	GtRun r;
	gt_start(&r, "test_tl_mix");
	for (int rep = 1; rep <= 2; rep++) {
		run_matmuls(&r, rep);
		if (tl_have(&r, tl_mix_scale_tl, "tl_mix_scale_tl"))
			run_scale(&r, rep);
	}
	return gt_finish(&r);
}
