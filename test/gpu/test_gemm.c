/*
 * GPU test of examples/gemm.gl (grouped grid of tiles), gemm_ws.gl
 * (persistent, warp-specialized, cooperative) and gemm_pp.gl (persistent,
 * ping-pong consumers) for f16 and bf16: C = A @ B, row-major, f32
 * accumulation, through TMA descriptors built as the launchers expect.
 *
 * test/gpu/bundle.sh compiles each kernel per dtype and renames its
 * launcher to KERNEL_DTYPE (gemm_f16, gemm_ws_bf16, ...), so one driver
 * links all six. Per dtype and shape: fresh random inputs in [-1, 1), a
 * float64 reference, an output buffer with one margin row, poisoned; each
 * kernel runs twice on the same inputs and both runs must pass and agree
 * bit for bit (a race shows up as a difference). Shapes go from 128 to
 * 8192 with M, N, K that are not multiples of the tile (TMA zero-fills the
 * reads past M, N, K and clips the store); N and K are multiples of 8 (TMA
 * needs 16-byte row strides).
 *
 * The reference covers every element when M*N*K <= 2^30; above that, two
 * rows of every 128-row tile row (all columns) are compared and every other
 * element must merely be written (not poison, not NaN): a float64 product
 * of 8192^3 on the CPU would take minutes. Tolerance per element:
 * 2^-10 (f16) or 2^-7 (bf16) of |ref| (the output rounding) plus 2^-17 of
 * sum_k |a_ik b_kj| (f32 accumulation, with margin).
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_test.h"

typedef glrt_status (*GemmLauncher)(glrt_stream, unsigned, unsigned, unsigned,
                                    const glrt_tensor_map *, const glrt_tensor_map *,
                                    const glrt_tensor_map *);

#pragma weak gemm_f16
#pragma weak gemm_bf16
#pragma weak gemm_ws_f16
#pragma weak gemm_ws_bf16
#pragma weak gemm_pp_f16
#pragma weak gemm_pp_bf16
glrt_status gemm_f16(glrt_stream, unsigned, unsigned, unsigned, const glrt_tensor_map *,
                     const glrt_tensor_map *, const glrt_tensor_map *);
glrt_status gemm_bf16(glrt_stream, unsigned, unsigned, unsigned, const glrt_tensor_map *,
                      const glrt_tensor_map *, const glrt_tensor_map *);
glrt_status gemm_ws_f16(glrt_stream, unsigned, unsigned, unsigned, const glrt_tensor_map *,
                        const glrt_tensor_map *, const glrt_tensor_map *);
glrt_status gemm_ws_bf16(glrt_stream, unsigned, unsigned, unsigned, const glrt_tensor_map *,
                         const glrt_tensor_map *, const glrt_tensor_map *);
glrt_status gemm_pp_f16(glrt_stream, unsigned, unsigned, unsigned, const glrt_tensor_map *,
                        const glrt_tensor_map *, const glrt_tensor_map *);
glrt_status gemm_pp_bf16(glrt_stream, unsigned, unsigned, unsigned, const glrt_tensor_map *,
                         const glrt_tensor_map *, const glrt_tensor_map *);

enum { BK = 64, ROWS = 128 };  /* every kernel's K-tile and tile rows */

typedef struct Kernel {
	const char *name;
	GemmLauncher launch;
	bool persistent;  /* grid = SM count, else one program per tile */
	uint32_t bm, bn;  /* the kernel's default output tile */
} Kernel;

typedef struct Problem {
	size_t m, n, k;
	GtType t;
	glrt_devptr a, b;
	double *ref;     /* (m + 1) x n: NaN in the margin row */
	double *atol;    /* per element; INFINITY where only "written" is checked */
} Problem;

/* The tensor map of a rows x cols row-major matrix at base in blocks of
 * br x bc, 128-byte swizzled (what the kernels' parameter types say). */
static void
encode(glrt_tensor_map *map, GtType t, glrt_devptr base, size_t rows, size_t cols,
       uint32_t br, uint32_t bc)
{
	const uint64_t shape[2] = {rows, cols}, strides[2] = {cols, 1};
	const uint32_t block[2] = {br, bc};
	const glrt_nvmma_layout layout = {128, 16, 0};
	gt_check(glrt_tensor_map_encode_nvmma(map, t == GT_F16 ? GLRT_TMA_F16 : GLRT_TMA_BF16,
	                                      2, base, shape, strides, block, &layout,
	                                      GLRT_OOB_ZERO),
	         "glrt_tensor_map_encode_nvmma");
}

/* Whether row i gets a full reference: all rows of small problems, else
 * two rows per 128-row tile row (at offsets that move from tile to tile)
 * and the last row. */
static bool
checked_row(const Problem *p, size_t i)
{
	size_t off = i % ROWS, tile = i / ROWS;
	if ((unsigned long long)p->m * p->n * p->k <= (1ull << 30) || i + 1 == p->m)
		return true;
	return off == (tile * 37) % ROWS || off == (tile * 37 + 77) % ROWS;
}

/* Fresh inputs on the device and the reference (see the top of the file). */
static void
make_problem(GtRun *r, Problem *p)
{
	size_t m = p->m, n = p->n, k = p->k, es = gt_size(p->t), i, j;
	void *ha = gt_alloc(m * k * es), *hb = gt_alloc(k * n * es);
	double *a = gt_alloc(m * k * sizeof *a), *b = gt_alloc(k * n * sizeof *b);
	bool *rows = gt_alloc(m * sizeof *rows);

	gt_fill(r, p->t, ha, a, m * k, -1, 1);
	gt_fill(r, p->t, hb, b, k * n, -1, 1);
	p->a = gt_upload(ha, m * k * es);
	p->b = gt_upload(hb, k * n * es);
	p->ref = gt_alloc((m + 1) * n * sizeof *p->ref);
	p->atol = gt_alloc((m + 1) * n * sizeof *p->atol);
	for (i = 0; i < m; i++) {
		rows[i] = checked_row(p, i);
		for (j = 0; !rows[i] && j < n; j++) {
			p->ref[i * n + j] = 0;
			p->atol[i * n + j] = INFINITY;
		}
	}
	gt_matmul_ref(a, b, m, n, k, rows, p->ref, p->atol);
	for (i = 0; i < m; i++)
		for (j = 0; rows[i] && j < n; j++)
			p->atol[i * n + j] *= 0x1p-17;
	for (j = 0; j < n; j++) {
		p->ref[m * n + j] = GT_UNWRITTEN;
		p->atol[m * n + j] = 0;
	}
	free(ha);
	free(hb);
	free(a);
	free(b);
	free(rows);
}

static void
free_problem(Problem *p)
{
	gt_check(glrt_free(p->a), "glrt_free");
	gt_check(glrt_free(p->b), "glrt_free");
	free(p->ref);
	free(p->atol);
}

/* One launch of kn on p into a fresh poisoned C; returns the downloaded C
 * ((m + 1) x n elements) after recording the comparison. */
static void *
run_once(GtRun *r, const Kernel *kn, const Problem *p, int rep, int sms)
{
	size_t m = p->m, n = p->n, k = p->k, bytes = (m + 1) * n * gt_size(p->t);
	glrt_tensor_map maps[3];
	glrt_devptr c = gt_poisoned(bytes);
	uint32_t bm = kn->bm, bn = kn->bn;
	unsigned grid = kn->persistent ? (unsigned)sms : gt_cdiv(m, bm) * gt_cdiv(n, bn);
	GtTol tol = {p->t == GT_F16 ? 0x1p-10 : 0x1p-7, 0, p->atol};
	char what[128];
	void *got;

	encode(&maps[0], p->t, p->a, m, k, bm, BK);
	encode(&maps[1], p->t, p->b, k, n, BK, bn);
	encode(&maps[2], p->t, c, m, n, bm, bn);
	gt_launched(kn->launch(NULL, grid, 1, 1, &maps[0], &maps[1], &maps[2]), kn->name);
	got = gt_download(c, bytes);
	snprintf(what, sizeof what, "%s M=%zu N=%zu K=%zu run %d", kn->name, m, n, k, rep);
	gt_compare(r, what, p->t, got, p->ref, (m + 1) * n, tol);
	gt_check(glrt_free(c), "glrt_free");
	return got;
}

static void
run_kernel(GtRun *r, const Kernel *kn, const Problem *p, int sms)
{
	size_t bytes = (p->m + 1) * p->n * gt_size(p->t);
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
		{128, 128, 128}, {129, 264, 72}, {1000, 1000, 1000}, {255, 776, 2056},
		{1536, 1280, 8192}, {8192, 8192, 512}, {4096, 4096, 4096}, {8192, 8192, 8192},
	};
	const Kernel f16[] = {{"gemm_f16", gemm_f16, false, 128, 256},
	                      {"gemm_ws_f16", gemm_ws_f16, true, 128, 256},
	                      {"gemm_pp_f16", gemm_pp_f16, true, 128, 128}};
	const Kernel bf16[] = {{"gemm_bf16", gemm_bf16, false, 128, 256},
	                       {"gemm_ws_bf16", gemm_ws_bf16, true, 128, 256},
	                       {"gemm_pp_bf16", gemm_pp_bf16, true, 128, 128}};
	GtRun r;
	int sms;

	gt_start(&r, "gemm");
	gt_check(glrt_device_attribute(GLRT_ATTR_SM_COUNT, &sms), "glrt_device_attribute");
	for (int d = 0; d < 2; d++)
		for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
			Problem p = {shapes[s][0], shapes[s][1], shapes[s][2], d ? GT_BF16 : GT_F16,
			             0, 0, NULL, NULL};
			const Kernel *ks = d ? bf16 : f16;
			make_problem(&r, &p);
			for (int i = 0; i < 3; i++)
				run_kernel(&r, &ks[i], &p, sms);
			free_problem(&p);
		}
	return gt_finish(&r);
}
