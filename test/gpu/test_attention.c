/*
 * GPU test of examples/attention_fwd.gl: O and LSE of the attention forward
 * against a float64 reference, for f16 and bf16, head dims 64, 128 and 256,
 * causal and not.
 *
 * test/gpu/bundle.sh compiles one object per variant and renames its
 * launcher attention_fwd_DTYPE_dD (with _causal appended for CAUSAL=True),
 * so one driver links all twelve. Per variant and case: fresh random Q, K,
 * V in [-1, 1) (Q and K scaled so that the scores spread as the case asks),
 * O and LSE buffers poisoned, with a margin past their ends (and, in the
 * padded layout, the padding of every row) that must stay poisoned; each
 * case runs twice and both runs must pass and agree bit for bit. The cases
 * cover whole tiles, tails of Sq and Skv, Sq < Skv and Sq > Skv (causal
 * rows that see no key: O = 0, LSE = -inf), grouped- and multi-query heads,
 * a single query and a single key, and the [B, H, S, D], [B, S, H, D] and
 * row-padded layouts.
 *
 * Tolerance per O element: 2^-10 (f16) or 2^-7 (bf16) of |ref| (the output
 * rounding), plus the same share of sum_j p_j |v_j| / l (P is rounded to the
 * input type before the PV product), plus 2^-18 of it for the f32 sums.
 * LSE: 1e-5 relative plus 5e-5.
 *
 * ATTN_QUICK=1 in the environment runs only the second case of the first
 * two variants (a short run for compute-sanitizer).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"

typedef glrt_status (*AttnLauncher)(glrt_stream, unsigned, unsigned, unsigned,
                                    const glrt_tensor_map *, const glrt_tensor_map *,
                                    const glrt_tensor_map *, const glrt_tensor_map *,
                                    glrt_devptr, float);

#define ATTN_VARIANTS(X)                                                      \
	X(f16, 64, ) X(f16, 64, _causal) X(f16, 128, ) X(f16, 128, _causal)   \
	X(f16, 256, ) X(f16, 256, _causal) X(bf16, 64, ) X(bf16, 64, _causal) \
	X(bf16, 128, ) X(bf16, 128, _causal) X(bf16, 256, ) X(bf16, 256, _causal)

#define DECLARE(dt, d, c)                                                               \
	glrt_status attention_fwd_##dt##_d##d##c(glrt_stream, unsigned, unsigned, unsigned, \
	                                         const glrt_tensor_map *,                   \
	                                         const glrt_tensor_map *,                   \
	                                         const glrt_tensor_map *,                   \
	                                         const glrt_tensor_map *, glrt_devptr, float) \
		__attribute__((weak));
ATTN_VARIANTS(DECLARE)

enum { BM = 64, TILE_ROWS = 128, THREADS = 16, MARGIN = 4096 };

typedef struct Variant {
	const char *name;
	AttnLauncher launch;
	GtType t;
	size_t d;
	bool causal;
	uint32_t bn;  /* the kernel's K/V block rows (its BN default) */
} Variant;

#define ENTRY(dt, d, c)                                                                \
	{"attention_fwd_" #dt "_d" #d #c, attention_fwd_##dt##_d##d##c,                  \
	 sizeof #dt == sizeof "f16" ? GT_F16 : GT_BF16, d, sizeof #c > 1, d <= 128 ? 128 : 64},
static const Variant variants[] = {ATTN_VARIANTS(ENTRY)};

typedef enum Layout { BHSD, BSHD, PADDED } Layout;

typedef struct Case {
	size_t b, hq, hkv, sq, skv;
	Layout layout;
	double spread;  /* sm_scale = spread / sqrt(D) */
} Case;

/* A [B, H, S, D] tensor in one of the layouts: strides in elements (the
 * last is 1) and the elements its allocation holds. */
typedef struct Tensor {
	size_t b, h, s, d;
	size_t sb, sh, ss;
	size_t n;
} Tensor;

static Tensor
tensor(size_t b, size_t h, size_t s, size_t d, Layout layout)
{
	Tensor t = {b, h, s, d, 0, 0, 0, 0};
	size_t row = layout == PADDED ? d + 8 : d;
	if (layout == BSHD) {
		t.sh = d;
		t.ss = h * d;
		t.sb = s * h * d;
	} else {
		t.ss = row;
		t.sh = s * row;
		t.sb = h * s * row;
	}
	t.n = b * t.sb;
	return t;
}

static size_t
at(const Tensor *t, size_t b, size_t h, size_t s)
{
	return b * t->sb + h * t->sh + s * t->ss;
}

/* The tensor map of t at base in blocks [1, 1, rows, D], 128-byte
 * swizzled (the kernel's parameter types). */
static void
encode(glrt_tensor_map *map, GtType ty, glrt_devptr base, const Tensor *t, uint32_t rows)
{
	const uint64_t shape[4] = {t->b, t->h, t->s, t->d}, strides[4] = {t->sb, t->sh, t->ss, 1};
	const uint32_t block[4] = {1, 1, rows, (uint32_t)t->d};
	const glrt_nvmma_layout layout = {128, 16, 0};
	gt_check(glrt_tensor_map_encode_nvmma(map, ty == GT_F16 ? GLRT_TMA_F16 : GLRT_TMA_BF16, 4,
	                                      base, shape, strides, block, &layout, GLRT_OOB_ZERO),
	         "glrt_tensor_map_encode_nvmma");
}

/* One problem: inputs on the device, the reference on the host. */
typedef struct Problem {
	const Variant *v;
	Case c;
	double scale;
	Tensor q, k, o;            /* v has k's layout */
	double *hq, *hk, *hv;      /* the inputs' exact values */
	glrt_devptr dq, dk, dv;
	double *ref_o, *atol_o;    /* o.n + MARGIN elements; NaN: unwritten */
	double *ref_lse;           /* b * hq * sq + MARGIN */
} Problem;

typedef struct RefJob {
	const Problem *p;
	size_t first, step;        /* rows (b, h, i) first, first + step, ... */
} RefJob;

/* Rows of the reference: each (b, h, i) with i < Sq. */
static void *
ref_rows(void *arg)
{
	const RefJob *job = arg;
	const Problem *p = job->p;
	size_t d = p->v->d, skv = p->c.skv, sq = p->c.sq, rows = p->c.b * p->c.hq * sq;
	double *s = gt_alloc(skv * sizeof *s);
	double eps = p->v->t == GT_F16 ? 0x1p-10 : 0x1p-7;

	for (size_t row = job->first; row < rows; row += job->step) {
		size_t b = row / (p->c.hq * sq), h = row / sq % p->c.hq, i = row % sq;
		size_t g = h / (p->c.hq / p->c.hkv);
		const double *qi = p->hq + at(&p->q, b, h, i);
		double m = -INFINITY, l = 0;
		size_t n = skv;
		/* Bottom-right causal alignment: keys j <= i + Skv - Sq. */
		if (p->v->causal)
			n = i + skv < sq ? 0 : i + skv - sq + 1 < skv ? i + skv - sq + 1 : skv;
		for (size_t j = 0; j < n; j++) {
			const double *kj = p->hk + at(&p->k, b, g, j);
			double dot = 0;
			for (size_t e = 0; e < d; e++)
				dot += qi[e] * kj[e];
			s[j] = dot * p->scale;
			if (s[j] > m)
				m = s[j];
		}
		for (size_t j = 0; j < n; j++) {
			s[j] = exp(s[j] - m);
			l += s[j];
		}
		size_t oi = at(&p->o, b, h, i);
		for (size_t e = 0; e < d; e++) {
			double acc = 0, mag = 0;
			for (size_t j = 0; j < n; j++) {
				double vj = p->hv[at(&p->k, b, g, j) + e];
				acc += s[j] * vj;
				mag += s[j] * fabs(vj);
			}
			p->ref_o[oi + e] = n ? acc / l : 0;
			p->atol_o[oi + e] = n ? (eps + 0x1p-18) * mag / l : 0;
		}
		p->ref_lse[row] = n ? m + log(l) : -INFINITY;
	}
	free(s);
	return NULL;
}

static void
make_problem(GtRun *r, Problem *p)
{
	const Case *c = &p->c;
	size_t d = p->v->d, es = gt_size(p->v->t);
	size_t n_lse = c->b * c->hq * c->sq + MARGIN;

	p->scale = c->spread / sqrt((double)d);
	p->q = tensor(c->b, c->hq, c->sq, d, c->layout);
	p->k = tensor(c->b, c->hkv, c->skv, d, c->layout);
	p->o = p->q;
	double **exact[3] = {&p->hq, &p->hk, &p->hv};
	glrt_devptr *dev[3] = {&p->dq, &p->dk, &p->dv};
	for (int x = 0; x < 3; x++) {
		size_t n = x ? p->k.n : p->q.n;
		void *host = gt_alloc(n * es);
		*exact[x] = gt_alloc(n * sizeof **exact[x]);
		gt_fill(r, p->v->t, host, *exact[x], n, -1, 1);
		*dev[x] = gt_upload(host, n * es);
		free(host);
	}
	p->ref_o = gt_alloc((p->o.n + MARGIN) * sizeof *p->ref_o);
	p->atol_o = gt_alloc((p->o.n + MARGIN) * sizeof *p->atol_o);
	p->ref_lse = gt_alloc(n_lse * sizeof *p->ref_lse);
	for (size_t i = 0; i < p->o.n + MARGIN; i++) {
		p->ref_o[i] = GT_UNWRITTEN;
		p->atol_o[i] = 0;
	}
	for (size_t i = 0; i < n_lse; i++)
		p->ref_lse[i] = GT_UNWRITTEN;

	pthread_t th[THREADS];
	RefJob jobs[THREADS];
	for (int t = 0; t < THREADS; t++) {
		jobs[t] = (RefJob){p, (size_t)t, THREADS};
		if (pthread_create(&th[t], NULL, ref_rows, &jobs[t]) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			exit(1);
		}
	}
	for (int t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);
}

static void
free_problem(Problem *p)
{
	gt_check(glrt_free(p->dq), "glrt_free");
	gt_check(glrt_free(p->dk), "glrt_free");
	gt_check(glrt_free(p->dv), "glrt_free");
	free(p->hq);
	free(p->hk);
	free(p->hv);
	free(p->ref_o);
	free(p->atol_o);
	free(p->ref_lse);
}

/* One launch into fresh poisoned outputs; checks them and returns them
 * downloaded (O, then LSE, in one buffer of *bytes). */
static void *
run_once(GtRun *r, const Problem *p, int rep, size_t *bytes)
{
	const Variant *v = p->v;
	const Case *c = &p->c;
	size_t o_bytes = (p->o.n + MARGIN) * gt_size(v->t);
	size_t n_lse = c->b * c->hq * c->sq + MARGIN;
	glrt_devptr o = gt_poisoned(o_bytes), lse = gt_poisoned(n_lse * sizeof(float));
	glrt_tensor_map maps[4];
	char what[160];

	encode(&maps[0], v->t, p->dq, &p->q, BM);
	encode(&maps[1], v->t, p->dk, &p->k, v->bn);
	encode(&maps[2], v->t, p->dv, &p->k, v->bn);
	encode(&maps[3], v->t, o, &p->o, BM);
	gt_launched(v->launch(NULL, gt_cdiv(c->sq, TILE_ROWS), (unsigned)c->hq, (unsigned)c->b,
	                      &maps[0], &maps[1], &maps[2], &maps[3], lse, (float)p->scale),
	            v->name);
	char *got = gt_alloc(o_bytes + n_lse * sizeof(float));
	void *got_o = gt_download(o, o_bytes), *got_lse = gt_download(lse, n_lse * sizeof(float));
	memcpy(got, got_o, o_bytes);
	memcpy(got + o_bytes, got_lse, n_lse * sizeof(float));
	free(got_o);
	free(got_lse);

	static const char *layouts[] = {"bhsd", "bshd", "padded"};
	int len = snprintf(what, sizeof what,
	                   "%s B=%zu Hq=%zu Hkv=%zu Sq=%zu Skv=%zu %s scale=%.3g run %d", v->name,
	                   c->b, c->hq, c->hkv, c->sq, c->skv, layouts[c->layout], p->scale, rep);
	GtTol tol_o = {v->t == GT_F16 ? 0x1p-10 : 0x1p-7, 0, p->atol_o};
	GtTol tol_lse = {1e-5, 5e-5, NULL};
	snprintf(what + len, sizeof what - (size_t)len, " O");
	gt_compare(r, what, v->t, got, p->ref_o, p->o.n + MARGIN, tol_o);
	snprintf(what + len, sizeof what - (size_t)len, " LSE");
	gt_compare(r, what, GT_F32, got + o_bytes, p->ref_lse, n_lse, tol_lse);
	gt_check(glrt_free(o), "glrt_free");
	gt_check(glrt_free(lse), "glrt_free");
	*bytes = o_bytes + n_lse * sizeof(float);
	return got;
}

static void
run_case(GtRun *r, const Variant *v, const Case *c)
{
	Problem p = {.v = v, .c = *c};
	size_t bytes;
	char what[160];

	make_problem(r, &p);
	void *first = run_once(r, &p, 1, &bytes);
	void *second = run_once(r, &p, 2, &bytes);
	snprintf(what, sizeof what, "%s B=%zu Hq=%zu Sq=%zu Skv=%zu runs agree", v->name, c->b,
	         c->hq, c->sq, c->skv);
	gt_agree(r, what, first, second, bytes);
	free(first);
	free(second);
	free_problem(&p);
}

int
main(void)
{
	static const Case cases[] = {
		{1, 2, 2, 128, 128, BHSD, 1.0},      /* whole tiles */
		{2, 4, 2, 300, 517, BHSD, 1.0},      /* tails, GQA 2:1, Sq < Skv */
		{1, 4, 1, 389, 211, BSHD, 2.0},      /* MQA, Sq > Skv */
		{1, 2, 1, 1, 1000, PADDED, 1.0},     /* one query */
		{1, 1, 1, 64, 1, BSHD, 1.0},         /* one key */
		{1, 2, 2, 1100, 1100, PADDED, 8.0},  /* many K/V blocks, peaked softmax */
	};
	bool quick = getenv("ATTN_QUICK") && *getenv("ATTN_QUICK") == '1';
	size_t n_variants = sizeof variants / sizeof variants[0];
	size_t n_cases = sizeof cases / sizeof cases[0];
	GtRun r;

	gt_start(&r, "attention");
	for (size_t i = 0; i < (quick ? 2 : n_variants); i++) {
		if (!variants[i].launch) {
			gt_skip(&r, variants[i].name, "not compiled by glc (no launcher linked)");
			continue;
		}
		for (size_t c = quick ? 1 : 0; c < (quick ? 2 : n_cases); c++)
			run_case(&r, &variants[i], &cases[c]);
	}
	return gt_finish(&r);
}
