/*
 * GPU test of examples/gemm_fp8.gl: C = (A @ B) * scale_a * scale_b with A
 * [M, K] and Bt = B^T [N, K] row-major f8e4m3, through TMA descriptors built
 * as the launcher expects, and the scales as device scalars.
 *
 * test/gpu/bundle.sh compiles three variants with the launcher renamed:
 * gemm_fp8_bf16 (the default: bf16 output, all of K accumulated in the
 * tensor cores), gemm_fp8_f16 (f16 output) and gemm_fp8_precise (-D
 * IMPRECISE=128 -D BN=64: every K-tile's sum added in f32). Per shape: fresh
 * inputs uniform in [-4, 4) rounded to e4m3 (exact bit patterns), random
 * scales, a float64 reference, an output buffer with one margin row,
 * poisoned; each kernel runs twice and both runs must pass and agree bit for
 * bit. Shapes go from 128 to 8192 with M, N, K that are not multiples of the
 * tile (K a multiple of 16 and N of 8: TMA row strides). As in test_gemm.c,
 * problems above 2^30 multiply-adds compare two rows of every 128-row tile
 * row and the last row, and only check that the rest was written.
 * Tolerance: the output rounding (2^-8 of |ref| for bf16, 2^-11 for f16)
 * plus, of scale * sum_k |a_ik b_kj|, 2^-9 (tensor-core accumulation) or
 * 2^-12 (f32 additions per K-tile).
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_test.h"

typedef glrt_status (*Fp8Launcher)(glrt_stream, unsigned, unsigned, unsigned,
                                   const glrt_tensor_map *, const glrt_tensor_map *,
                                   const glrt_tensor_map *, glrt_devptr, glrt_devptr);

#define DECLARE(name) \
	glrt_status name(glrt_stream, unsigned, unsigned, unsigned, const glrt_tensor_map *, \
	                 const glrt_tensor_map *, const glrt_tensor_map *, glrt_devptr, \
	                 glrt_devptr) __attribute__((weak));
DECLARE(gemm_fp8_bf16)
DECLARE(gemm_fp8_f16)
DECLARE(gemm_fp8_precise)

enum { BM = 128, BK = 128, ROWS = 128 };

typedef struct Kernel {
	const char *name;
	Fp8Launcher launch;
	GtType out;
	uint32_t bn;
	double acc_tol;   /* of scale * sum |a b| */
} Kernel;

typedef struct Problem {
	size_t m, n, k;
	glrt_devptr a, bt, scales;
	double scale;     /* scale_a * scale_b */
	double *ref;      /* (m + 1) x n: NaN in the margin row */
	double *abs_sum;  /* scale * sum |a b|; INFINITY where only "written" is checked */
} Problem;

static void
encode(glrt_tensor_map *map, glrt_tma_dtype t, int bits, glrt_devptr base, size_t rows,
       size_t cols, uint32_t br, uint32_t bc)
{
	const uint64_t shape[2] = {rows, cols}, strides[2] = {cols, 1};
	const uint32_t block[2] = {br, bc};
	const glrt_nvmma_layout layout = {128, bits, 0};
	gt_check(glrt_tensor_map_encode_nvmma(map, t, 2, base, shape, strides, block, &layout,
	                                      GLRT_OOB_ZERO),
	         "glrt_tensor_map_encode_nvmma");
}

static bool
checked_row(const Problem *p, size_t i)
{
	size_t off = i % ROWS, tile = i / ROWS;
	if ((unsigned long long)p->m * p->n * p->k <= (1ull << 30) || i + 1 == p->m)
		return true;
	return off == (tile * 37) % ROWS || off == (tile * 37 + 77) % ROWS;
}

static void
make_problem(GtRun *r, Problem *p)
{
	size_t m = p->m, n = p->n, k = p->k, i, j;
	uint8_t *ha = gt_alloc(m * k), *hbt = gt_alloc(n * k);
	double *a = gt_alloc(m * k * sizeof *a), *b = gt_alloc(k * n * sizeof *b);
	double *bt = gt_alloc(n * k * sizeof *bt);
	bool *rows = gt_alloc(m * sizeof *rows);
	float scales[2] = {(float)gt_uniform(r, 0.25, 2), (float)gt_uniform(r, 0.25, 2)};

	gt_fill(r, GT_E4M3, ha, a, m * k, -4, 4);
	gt_fill(r, GT_E4M3, hbt, bt, n * k, -4, 4);
	for (j = 0; j < n; j++)
		for (i = 0; i < k; i++)
			b[i * n + j] = bt[j * k + i];
	p->a = gt_upload(ha, m * k);
	p->bt = gt_upload(hbt, n * k);
	p->scales = gt_upload(scales, sizeof scales);
	p->scale = (double)scales[0] * scales[1];
	p->ref = gt_alloc((m + 1) * n * sizeof *p->ref);
	p->abs_sum = gt_alloc((m + 1) * n * sizeof *p->abs_sum);
	for (i = 0; i < m; i++) {
		rows[i] = checked_row(p, i);
		for (j = 0; !rows[i] && j < n; j++) {
			p->ref[i * n + j] = 0;
			p->abs_sum[i * n + j] = INFINITY;
		}
	}
	gt_matmul_ref(a, b, m, n, k, rows, p->ref, p->abs_sum);
	for (i = 0; i < m; i++)
		for (j = 0; rows[i] && j < n; j++) {
			p->ref[i * n + j] *= p->scale;
			p->abs_sum[i * n + j] *= p->scale;
		}
	for (j = 0; j < n; j++) {
		p->ref[m * n + j] = GT_UNWRITTEN;
		p->abs_sum[m * n + j] = 0;
	}
	free(ha);
	free(hbt);
	free(a);
	free(b);
	free(bt);
	free(rows);
}

static void
free_problem(Problem *p)
{
	gt_check(glrt_free(p->a), "glrt_free");
	gt_check(glrt_free(p->bt), "glrt_free");
	gt_check(glrt_free(p->scales), "glrt_free");
	free(p->ref);
	free(p->abs_sum);
}

static void *
run_once(GtRun *r, const Kernel *kn, const Problem *p, int rep, int sms)
{
	size_t m = p->m, n = p->n, k = p->k, bytes = (m + 1) * n * gt_size(kn->out);
	size_t cells = (m + 1) * n;
	glrt_tensor_map maps[3];
	glrt_devptr c = gt_poisoned(bytes);
	double *atol = gt_alloc(cells * sizeof *atol);
	char what[128];
	void *got;

	for (size_t i = 0; i < cells; i++)
		atol[i] = kn->acc_tol * p->abs_sum[i];
	encode(&maps[0], GLRT_TMA_U8, 8, p->a, m, k, BM, BK);
	encode(&maps[1], GLRT_TMA_U8, 8, p->bt, n, k, kn->bn, BK);
	encode(&maps[2], kn->out == GT_F16 ? GLRT_TMA_F16 : GLRT_TMA_BF16, 16, c, m, n, BM, kn->bn);
	gt_launched(kn->launch(NULL, (unsigned)sms, 1, 1, &maps[0], &maps[1], &maps[2], p->scales,
	                       p->scales + sizeof(float)),
	            kn->name);
	got = gt_download(c, bytes);
	snprintf(what, sizeof what, "%s M=%zu N=%zu K=%zu run %d", kn->name, m, n, k, rep);
	gt_compare(r, what, kn->out, got, p->ref, cells,
	           (GtTol){kn->out == GT_F16 ? 0x1p-11 : 0x1p-8, 0, atol});
	gt_check(glrt_free(c), "glrt_free");
	free(atol);
	return got;
}

static void
run_kernel(GtRun *r, const Kernel *kn, const Problem *p, int sms)
{
	size_t bytes = (p->m + 1) * p->n * gt_size(kn->out);
	char what[128];
	void *first, *second;

	if (!kn->launch) {
		gt_skip(r, kn->name, "not compiled by glc (no launcher linked)");
		return;
	}
	first = run_once(r, kn, p, 1, sms);
	second = run_once(r, kn, p, 2, sms);
	snprintf(what, sizeof what, "%s M=%zu N=%zu K=%zu runs agree", kn->name, p->m, p->n,
	         p->k);
	gt_agree(r, what, first, second, bytes);
	free(first);
	free(second);
}

int
main(void)
{
	static const size_t shapes[][3] = {
		{128, 128, 128}, {129, 264, 144}, {1000, 1000, 1008}, {255, 776, 2064},
		{1536, 1280, 8192}, {4096, 4096, 4096}, {8192, 8192, 8192},
	};
	const Kernel kernels[] = {
		{"gemm_fp8_bf16", gemm_fp8_bf16, GT_BF16, 128, 0x1p-9},
		{"gemm_fp8_f16", gemm_fp8_f16, GT_F16, 128, 0x1p-9},
		{"gemm_fp8_precise", gemm_fp8_precise, GT_BF16, 64, 0x1p-12},
	};
	GtRun r;
	int sms;

	gt_start(&r, "gemm_fp8");
	gt_check(glrt_device_attribute(GLRT_ATTR_SM_COUNT, &sms), "glrt_device_attribute");
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		Problem p = {shapes[s][0], shapes[s][1], shapes[s][2], 0, 0, 0, 0, NULL, NULL};
		make_problem(&r, &p);
		for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
			run_kernel(&r, &kernels[i], &p, sms);
		free_problem(&p);
	}
	return gt_finish(&r);
}
