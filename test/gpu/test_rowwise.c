/*
 * GPU test of the row-wise examples: examples/gemv.gl (f16, bf16),
 * online_softmax.gl (f32, rows up to 32768), layernorm.gl and rmsnorm.gl
 * (f16, bf16; each BLOCK_N of 1024, 2048, 4096, 8192 compiled as its own
 * kernel, layernorm_f16_1024 ...), against float64 references on fresh
 * random inputs. Outputs are poisoned and have margins (padding columns,
 * an extra row) that must stay unwritten; shapes include tails and rows
 * that are not 16-byte aligned (the launchers' checked variants). Every
 * case runs twice.
 *
 * Tolerances: the kernels work in f32 and round the result once to the
 * output type, so each allows one ulp of the output type plus the f32
 * error: gemv 2^-20 * sum |a_k x_k| (sums of up to 8192 products, in-thread
 * chains then trees); softmax relative 2e-5 (ex2.approx and the
 * exponent's rounding, see softmax.gl's test) plus 1e-12; the norms 1e-4
 * of (1 + |y|) (mean and variance sums, rsqrt.approx).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpu_test.h"

typedef glrt_status (*GemvFn)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                              glrt_devptr, glrt_devptr, int32_t, int32_t, int32_t);
typedef glrt_status (*SoftmaxFn)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                                 glrt_devptr, int32_t, int32_t, int32_t, int32_t);
typedef glrt_status (*LayerNormFn)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                                   glrt_devptr, glrt_devptr, glrt_devptr, int32_t, int32_t,
                                   int32_t, int32_t, float);
typedef glrt_status (*RmsNormFn)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                                 glrt_devptr, glrt_devptr, int32_t, int32_t, int32_t, int32_t,
                                 float);

#define GEMV(name) \
	glrt_status name(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr, \
	                 glrt_devptr, int32_t, int32_t, int32_t)
#define LN(name) \
	glrt_status name(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr, \
	                 glrt_devptr, glrt_devptr, int32_t, int32_t, int32_t, int32_t, float)
#define RMS(name) \
	glrt_status name(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr, \
	                 glrt_devptr, int32_t, int32_t, int32_t, int32_t, float)

#pragma weak gemv
#pragma weak gemv_bf16
#pragma weak online_softmax
#pragma weak online_softmax_w32
#pragma weak softmax_direct_w32
GEMV(gemv);
GEMV(gemv_bf16);
typedef glrt_status Softmax(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                            int32_t, int32_t, int32_t, int32_t);
Softmax online_softmax, online_softmax_w32, softmax_direct_w32;

#pragma weak layernorm_f16_1024
#pragma weak layernorm_f16_2048
#pragma weak layernorm_f16_4096
#pragma weak layernorm_f16_8192
#pragma weak layernorm_bf16_1024
#pragma weak layernorm_bf16_2048
#pragma weak layernorm_bf16_4096
#pragma weak layernorm_bf16_8192
LN(layernorm_f16_1024); LN(layernorm_f16_2048); LN(layernorm_f16_4096); LN(layernorm_f16_8192);
LN(layernorm_bf16_1024); LN(layernorm_bf16_2048); LN(layernorm_bf16_4096);
LN(layernorm_bf16_8192);
#pragma weak rmsnorm_f16_1024
#pragma weak rmsnorm_f16_2048
#pragma weak rmsnorm_f16_4096
#pragma weak rmsnorm_f16_8192
#pragma weak rmsnorm_bf16_1024
#pragma weak rmsnorm_bf16_2048
#pragma weak rmsnorm_bf16_4096
#pragma weak rmsnorm_bf16_8192
RMS(rmsnorm_f16_1024); RMS(rmsnorm_f16_2048); RMS(rmsnorm_f16_4096); RMS(rmsnorm_f16_8192);
RMS(rmsnorm_bf16_1024); RMS(rmsnorm_bf16_2048); RMS(rmsnorm_bf16_4096);
RMS(rmsnorm_bf16_8192);

enum { GEMV_ROWS = 16 };

static double
ulp_out(GtType t, double v)
{
	int e, mant = t == GT_F16 ? 10 : t == GT_BF16 ? 7 : 23;
	int emin = t == GT_F16 ? -14 : -126;
	if (v == 0)
		return ldexp(1, emin - mant);
	frexp(v, &e);
	return ldexp(1, (e - 1 < emin ? emin : e - 1) - mant);
}

static size_t
aligned(size_t n, size_t es)
{
	size_t a = 16 / es;
	return (n + a - 1) / a * a;
}

static void
run_gemv(GtRun *r, const char *name, GemvFn fn, GtType t, size_t m, size_t k, size_t lda,
         int rep)
{
	size_t es = gt_size(t);
	double *a = gt_alloc(m * lda * sizeof *a), *x = gt_alloc(k * sizeof *x);
	double *ref = gt_alloc((m + 8) * sizeof *ref), *atol = gt_alloc((m + 8) * sizeof *atol);
	void *ha = gt_alloc(m * lda * es), *hx = gt_alloc(k * es);
	gt_fill(r, t, ha, a, m * lda, -1, 1);
	gt_fill(r, t, hx, x, k, -1, 1);
	for (size_t i = 0; i < m + 8; i++) {
		double s = 0, mag = 0;
		for (size_t j = 0; i < m && j < k; j++) {
			s += a[i * lda + j] * x[j];
			mag += fabs(a[i * lda + j] * x[j]);
		}
		ref[i] = i < m ? s : GT_UNWRITTEN;
		atol[i] = ulp_out(t, s) + 0x1p-20 * mag;
	}
	glrt_devptr da = gt_upload(ha, m * lda * es), dx = gt_upload(hx, k * es);
	glrt_devptr dy = gt_poisoned((m + 8) * es);
	gt_launched(fn(NULL, gt_cdiv(m, GEMV_ROWS), 1, 1, da, dx, dy, (int32_t)m, (int32_t)k,
	               (int32_t)lda), name);
	void *got = gt_download(dy, (m + 8) * es);
	char what[128];
	snprintf(what, sizeof what, "%s M=%zu K=%zu lda=%zu run %d", name, m, k, lda, rep);
	gt_compare(r, what, t, got, ref, m + 8, (GtTol){0, 0, atol});
	gt_check(glrt_free(da), "glrt_free");
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(a);
	free(x);
	free(ref);
	free(atol);
	free(ha);
	free(hx);
	free(got);
}

/* Softmax of m rows of n; `odd` gives both matrices odd row strides, so
 * that rows start at every 4-byte phase (the checked variant's per-chunk
 * scalar fallback), else strides that keep rows 16-byte aligned. */
static void
run_softmax(GtRun *r, const char *name, Softmax *fn, size_t m, size_t n, bool odd, int rep)
{
	size_t sx = odd ? n + 1 + n % 2 : aligned(n, 4) + 4;
	size_t sy = odd ? n + 3 + n % 2 : aligned(n, 4) + 8;
	double *x = gt_alloc(m * sx * sizeof *x), *ref = gt_alloc((m + 1) * sy * sizeof *ref);
	float *hx = gt_alloc(m * sx * 4);
	gt_fill(r, GT_F32, hx, x, m * sx, -8, 8);
	for (size_t i = 0; i < (m + 1) * sy; i++)
		ref[i] = GT_UNWRITTEN;
	for (size_t i = 0; i < m; i++) {
		double mx = -INFINITY, s = 0;
		for (size_t j = 0; j < n; j++)
			mx = fmax(mx, x[i * sx + j]);
		for (size_t j = 0; j < n; j++)
			s += exp(x[i * sx + j] - mx);
		for (size_t j = 0; j < n; j++)
			ref[i * sy + j] = exp(x[i * sx + j] - mx) / s;
	}
	glrt_devptr dx = gt_upload(hx, m * sx * 4), dy = gt_poisoned((m + 1) * sy * 4);
	gt_launched(fn(NULL, (unsigned)m, 1, 1, dx, dy, (int32_t)m, (int32_t)n, (int32_t)sx,
	               (int32_t)sy), name);
	float *got = gt_download(dy, (m + 1) * sy * 4);
	char what[128];
	snprintf(what, sizeof what, "%s M=%zu N=%zu%s run %d", name, m, n,
	         odd ? " odd strides" : "", rep);
	gt_compare(r, what, GT_F32, got, ref, (m + 1) * sy, (GtTol){2e-5, 1e-12, NULL});
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(x);
	free(ref);
	free(hx);
	free(got);
}

/* One norm kernel: layernorm when bias is set (fn_ln), rmsnorm otherwise. */
typedef struct Norm {
	const char *name;
	LayerNormFn ln;
	RmsNormFn rms;
	GtType t;
	size_t block_n;
} Norm;

static void
run_norm(GtRun *r, const Norm *k, size_t m, size_t n, size_t stride, int rep)
{
	size_t es = gt_size(k->t), rows = 8 * 1024 / k->block_n;
	const float eps = 1e-5f;
	double *x = gt_alloc(m * stride * sizeof *x), *w = gt_alloc(n * sizeof *w);
	double *b = gt_alloc(n * sizeof *b), *ref = gt_alloc((m + 1) * stride * sizeof *ref);
	double *atol = gt_alloc((m + 1) * stride * sizeof *atol);
	void *hx = gt_alloc(m * stride * es), *hw = gt_alloc(n * es), *hb = gt_alloc(n * es);
	gt_fill(r, k->t, hx, x, m * stride, -4, 4);
	gt_fill(r, k->t, hw, w, n, 0.5, 1.5);
	gt_fill(r, k->t, hb, b, n, -1, 1);
	for (size_t i = 0; i < (m + 1) * stride; i++) {
		ref[i] = GT_UNWRITTEN;
		atol[i] = 0;
	}
	for (size_t i = 0; i < m; i++) {
		const double *row = x + i * stride;
		double mean = 0, var = 0;
		for (size_t j = 0; k->ln && j < n; j++)
			mean += row[j] / (double)n;
		for (size_t j = 0; j < n; j++)
			var += (row[j] - mean) * (row[j] - mean) / (double)n;
		double rstd = 1 / sqrt(var + eps);
		for (size_t j = 0; j < n; j++) {
			double v = (row[j] - mean) * rstd * w[j] + (k->ln ? b[j] : 0);
			ref[i * stride + j] = v;
			atol[i * stride + j] = ulp_out(k->t, v) + 1e-4 * (1 + fabs(v));
		}
	}
	glrt_devptr dx = gt_upload(hx, m * stride * es), dw = gt_upload(hw, n * es);
	glrt_devptr db = gt_upload(hb, n * es), dy = gt_poisoned((m + 1) * stride * es);
	unsigned grid = gt_cdiv(m, rows);
	if (k->ln)
		gt_launched(k->ln(NULL, grid, 1, 1, dx, dw, db, dy, (int32_t)m, (int32_t)n,
		                  (int32_t)stride, (int32_t)stride, eps), k->name);
	else
		gt_launched(k->rms(NULL, grid, 1, 1, dx, dw, dy, (int32_t)m, (int32_t)n,
		                   (int32_t)stride, (int32_t)stride, eps), k->name);
	void *got = gt_download(dy, (m + 1) * stride * es);
	char what[128];
	snprintf(what, sizeof what, "%s M=%zu N=%zu stride=%zu run %d", k->name, m, n, stride, rep);
	gt_compare(r, what, k->t, got, ref, (m + 1) * stride, (GtTol){0, 0, atol});
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dw), "glrt_free");
	gt_check(glrt_free(db), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(x);
	free(w);
	free(b);
	free(ref);
	free(atol);
	free(hx);
	free(hw);
	free(hb);
	free(got);
}

static void
norms(GtRun *r, int rep)
{
	const Norm ks[] = {
		{"layernorm_f16_1024", layernorm_f16_1024, NULL, GT_F16, 1024},
		{"layernorm_f16_2048", layernorm_f16_2048, NULL, GT_F16, 2048},
		{"layernorm_f16_4096", layernorm_f16_4096, NULL, GT_F16, 4096},
		{"layernorm_f16_8192", layernorm_f16_8192, NULL, GT_F16, 8192},
		{"layernorm_bf16_1024", layernorm_bf16_1024, NULL, GT_BF16, 1024},
		{"layernorm_bf16_2048", layernorm_bf16_2048, NULL, GT_BF16, 2048},
		{"layernorm_bf16_4096", layernorm_bf16_4096, NULL, GT_BF16, 4096},
		{"layernorm_bf16_8192", layernorm_bf16_8192, NULL, GT_BF16, 8192},
		{"rmsnorm_f16_1024", NULL, rmsnorm_f16_1024, GT_F16, 1024},
		{"rmsnorm_f16_2048", NULL, rmsnorm_f16_2048, GT_F16, 2048},
		{"rmsnorm_f16_4096", NULL, rmsnorm_f16_4096, GT_F16, 4096},
		{"rmsnorm_f16_8192", NULL, rmsnorm_f16_8192, GT_F16, 8192},
		{"rmsnorm_bf16_1024", NULL, rmsnorm_bf16_1024, GT_BF16, 1024},
		{"rmsnorm_bf16_2048", NULL, rmsnorm_bf16_2048, GT_BF16, 2048},
		{"rmsnorm_bf16_4096", NULL, rmsnorm_bf16_4096, GT_BF16, 4096},
		{"rmsnorm_bf16_8192", NULL, rmsnorm_bf16_8192, GT_BF16, 8192},
	};
	for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
		const Norm *k = &ks[i];
		if (!k->ln && !k->rms) {
			if (rep == 1)
				gt_skip(r, k->name, "not compiled by glc (no launcher linked)");
			continue;
		}
		size_t bn = k->block_n, es = gt_size(k->t);
		run_norm(r, k, 1, bn, bn, rep);
		run_norm(r, k, 37, bn, aligned(bn, es) + 8, rep);
		run_norm(r, k, 512, bn / 2 + 7, aligned(bn / 2 + 7, es), rep);
		run_norm(r, k, 9, bn - 3, bn - 3, rep);
	}
}

int
main(void)
{
	GtRun r;

	gt_start(&r, "rowwise");
	for (int rep = 1; rep <= 2; rep++) {
		const struct { const char *name; GemvFn fn; GtType t; } gv[] = {
			{"gemv", gemv, GT_F16}, {"gemv_bf16", gemv_bf16, GT_BF16},
		};
		for (size_t i = 0; i < 2; i++) {
			if (!gv[i].fn) {
				if (rep == 1)
					gt_skip(&r, gv[i].name, "not compiled by glc (no launcher linked)");
				continue;
			}
			static const size_t shapes[][3] = {
				{1, 1, 8}, {17, 100, 104}, {64, 512, 512}, {130, 1000, 1001},
				{300, 4099, 4104}, {8192, 8192, 8192},
			};
			for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
				run_gemv(&r, gv[i].name, gv[i].fn, gv[i].t, shapes[s][0], shapes[s][1],
				         shapes[s][2], rep);
		}
		static const struct {
			const char *name;
			Softmax *fn;
		} sm[] = {{"online_softmax", online_softmax},
		          {"online_softmax_w32", online_softmax_w32},
		          {"softmax_direct_w32", softmax_direct_w32}};
		for (size_t i = 0; i < sizeof sm / sizeof *sm; i++) {
			if (!sm[i].fn) {
				if (rep == 1)
					gt_skip(&r, sm[i].name, "not compiled by glc (no launcher linked)");
				continue;
			}
			static const size_t shapes[][2] = {
				{1, 1}, {3, 100}, {5, 4096}, {7, 32768}, {130, 30001}, {64, 32768},
			};
			for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
				run_softmax(&r, sm[i].name, sm[i].fn, shapes[s][0], shapes[s][1], false,
				            rep);
			run_softmax(&r, sm[i].name, sm[i].fn, 9, 32768, true, rep);
			run_softmax(&r, sm[i].name, sm[i].fn, 6, 20001, true, rep);
		}
		norms(&r, rep);
	}
	return gt_finish(&r);
}
