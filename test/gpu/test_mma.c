/*
 * GPU test of the tensor-core forms of test/gpu/mma.gl: warpgroup_mma on
 * f16, bf16, tf32, fp8 (e4m3, e5m2 in every mix) and 8-bit integers, with
 * f32, f16 and i32 accumulators, A from shared memory or registers, K- or
 * MN-major operands, two warpgroups stacked along M or side by side along
 * N, fp8 accumulation in chunks (max_num_imprecise_acc), Ampere's mma_v2
 * (mma.sync m16n8: f16, bf16, tf32, 8-bit integers, fp8) and gl.dot_fma.
 *
 * VARIANTS below is the one list of cases: test/gpu/bundle.sh reads it (the
 * name, kernel and glc flags of each V(...) line) and compiles every
 * variant of mma.gl with its launcher renamed mma_NAME, so this driver
 * links them all (weak: a variant glc could not compile is a SKIP).
 *
 * Per variant and shape (one exact tile; then M, N, K past whole tiles,
 * which the kernels mask): fresh random inputs that are exact in their
 * dtype (fp8 as e4m3/e5m2 bit patterns with their exact values, f32
 * operands with tf32 mantissas, integers over their whole range), a
 * float64 reference, an output buffer of M + 1 rows poisoned (the margin
 * row must stay poison); each kernel runs twice, both runs must pass and
 * agree bit for bit. Tolerance per element: rtol for the output
 * rounding plus atol_scale * sum_k |a_ik b_kj| for the accumulation (f32:
 * 2^-16, fp8 into f32: 2^-11, into f16: 2^-8); integers are exact.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"

typedef enum Ty { T_F16, T_BF16, T_F32, T_E4M3, T_E5M2, T_S8, T_U8, T_S32 } Ty;

enum {
	A_MMAJOR = 1,   /* A stored as [K, M] row-major */
	B_KMAJOR = 2,   /* B stored as [N, K] row-major */
};

typedef glrt_status (*MmaLauncher)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                                   glrt_devptr, glrt_devptr, int32_t, int32_t, int32_t);

/* V(NAME, KERNEL, "GLC FLAGS", A, B, C, BM, BN, BK, STORAGE FLAGS) */
#define VARIANTS(V) \
	V(f16_f32, mma4, "", \
	  T_F16, T_F16, T_F32, 64, 64, 64, 0) \
	V(f16_f32_kmajor_async, mma4, \
	  "-D B_KMAJOR=True -D ASYNC=True -D BN=128", \
	  T_F16, T_F16, T_F32, 64, 128, 64, B_KMAJOR) \
	V(f16_f32_amajor, mma4, \
	  "-D A_MMAJOR=True", \
	  T_F16, T_F16, T_F32, 64, 64, 64, A_MMAJOR) \
	V(f16_f16, mma4, \
	  "-D CT=gl.f16", \
	  T_F16, T_F16, T_F16, 64, 64, 64, 0) \
	V(f16_f16_areg, mma4, \
	  "-D CT=gl.f16 -D A_REGS=True", \
	  T_F16, T_F16, T_F16, 64, 64, 64, 0) \
	V(f16_f32_areg_n256, mma4, \
	  "-D A_REGS=True -D BN=256", \
	  T_F16, T_F16, T_F32, 64, 256, 64, 0) \
	V(f16_f32_n8, mma4, \
	  "-D BN=8 -D B_KMAJOR=True", \
	  T_F16, T_F16, T_F32, 64, 8, 64, B_KMAJOR) \
	V(f16_f32_sw64_32, mma4, \
	  "-D SWA=64 -D SWB=32", \
	  T_F16, T_F16, T_F32, 64, 64, 64, 0) \
	V(bf16_f32, mma4, \
	  "-D AT=gl.bf16 -D BT=gl.bf16 -D B_KMAJOR=True", \
	  T_BF16, T_BF16, T_F32, 64, 64, 64, B_KMAJOR) \
	V(bf16_f32_areg, mma4, \
	  "-D AT=gl.bf16 -D BT=gl.bf16 -D A_REGS=True", \
	  T_BF16, T_BF16, T_F32, 64, 64, 64, 0) \
	V(tf32, mma4, \
	  "-D AT=gl.f32 -D BT=gl.f32 -D BK=32 -D B_KMAJOR=True", \
	  T_F32, T_F32, T_F32, 64, 64, 32, B_KMAJOR) \
	V(tf32_areg, mma4, \
	  "-D AT=gl.f32 -D BT=gl.f32 -D BK=32 -D B_KMAJOR=True -D A_REGS=True", \
	  T_F32, T_F32, T_F32, 64, 64, 32, B_KMAJOR) \
	V(e4m3_f32, mma4, \
	  "-D AT=gl.f8e4m3 -D BT=gl.f8e4m3 -D BK=128 -D B_KMAJOR=True -D BN=128", \
	  T_E4M3, T_E4M3, T_F32, 64, 128, 128, B_KMAJOR) \
	V(e5m2_f32, mma4, \
	  "-D AT=gl.f8e5m2 -D BT=gl.f8e5m2 -D BK=128 -D B_KMAJOR=True", \
	  T_E5M2, T_E5M2, T_F32, 64, 64, 128, B_KMAJOR) \
	V(e4m3_e5m2_f32, mma4, \
	  "-D AT=gl.f8e4m3 -D BT=gl.f8e5m2 -D BK=128 -D B_KMAJOR=True", \
	  T_E4M3, T_E5M2, T_F32, 64, 64, 128, B_KMAJOR) \
	V(e5m2_e4m3_f16, mma4, \
	  "-D AT=gl.f8e5m2 -D BT=gl.f8e4m3 -D CT=gl.f16 -D BK=128 -D B_KMAJOR=True", \
	  T_E5M2, T_E4M3, T_F16, 64, 64, 128, B_KMAJOR) \
	V(e4m3_f16, mma4, \
	  "-D AT=gl.f8e4m3 -D BT=gl.f8e4m3 -D CT=gl.f16 -D BK=128 -D B_KMAJOR=True", \
	  T_E4M3, T_E4M3, T_F16, 64, 64, 128, B_KMAJOR) \
	V(e4m3_f32_areg, mma4, \
	  "-D AT=gl.f8e4m3 -D BT=gl.f8e4m3 -D BK=128 -D B_KMAJOR=True -D A_REGS=True", \
	  T_E4M3, T_E4M3, T_F32, 64, 64, 128, B_KMAJOR) \
	V(e4m3_f32_chunk64, mma4, \
	  "-D AT=gl.f8e4m3 -D BT=gl.f8e4m3 -D BK=128 -D B_KMAJOR=True -D IMPRECISE=64", \
	  T_E4M3, T_E4M3, T_F32, 64, 64, 128, B_KMAJOR) \
	V(s8_s32, mma4, \
	  "-D AT=gl.i8 -D BT=gl.i8 -D CT=gl.i32 -D BK=128 -D B_KMAJOR=True", \
	  T_S8, T_S8, T_S32, 64, 64, 128, B_KMAJOR) \
	V(u8_s8_s32, mma4, \
	  "-D AT=gl.u8 -D BT=gl.i8 -D CT=gl.i32 -D BK=128 -D B_KMAJOR=True", \
	  T_U8, T_S8, T_S32, 64, 64, 128, B_KMAJOR) \
	V(u8_u8_s32_areg, mma4, \
	  "-D AT=gl.u8 -D BT=gl.u8 -D CT=gl.i32 -D BK=128 -D B_KMAJOR=True -D A_REGS=True", \
	  T_U8, T_U8, T_S32, 64, 64, 128, B_KMAJOR) \
	V(s8_s32_n16, mma4, \
	  "-D AT=gl.i8 -D BT=gl.i8 -D CT=gl.i32 -D BK=128 -D B_KMAJOR=True -D BN=16", \
	  T_S8, T_S8, T_S32, 64, 16, 128, B_KMAJOR) \
	V(f16_f32_w8, mma8, "", \
	  T_F16, T_F16, T_F32, 128, 128, 64, 0) \
	V(f16_f32_w42, mma8, \
	  "-D WN=2", \
	  T_F16, T_F16, T_F32, 64, 128, 64, 0) \
	V(e4m3_f32_w42_areg, mma8, \
	  "-D AT=gl.f8e4m3 -D BT=gl.f8e4m3 -D BK=128 -D B_KMAJOR=True -D WN=2 -D A_REGS=True", \
	  T_E4M3, T_E4M3, T_F32, 64, 128, 128, B_KMAJOR) \
	V(v2_f16_f32, mmav2, "", \
	  T_F16, T_F16, T_F32, 64, 64, 32, 0) \
	V(v2_f16_f16, mmav2, \
	  "-D CT=gl.f16", \
	  T_F16, T_F16, T_F16, 64, 64, 32, 0) \
	V(v2_bf16_f32, mmav2, \
	  "-D AT=gl.bf16 -D BT=gl.bf16", \
	  T_BF16, T_BF16, T_F32, 64, 64, 32, 0) \
	V(v2_tf32, mmav2, \
	  "-D AT=gl.f32 -D BT=gl.f32 -D BK=16", \
	  T_F32, T_F32, T_F32, 64, 64, 16, 0) \
	V(v2_s8_u8_s32, mmav2, \
	  "-D AT=gl.i8 -D BT=gl.u8 -D CT=gl.i32 -D BK=64", \
	  T_S8, T_U8, T_S32, 64, 64, 64, 0) \
	V(v2_e4m3_e5m2_f32, mmav2, \
	  "-D AT=gl.f8e4m3 -D BT=gl.f8e5m2 -D BK=64", \
	  T_E4M3, T_E5M2, T_F32, 64, 64, 64, 0) \
	V(v2_f16_f32_kw8, mmav2, \
	  "-D KWX=4 -D BK=64", \
	  T_F16, T_F16, T_F32, 64, 64, 64, 0) \
	V(v2_bf16_f32_kw4, mmav2, \
	  "-D AT=gl.bf16 -D BT=gl.bf16 -D KWX=2", \
	  T_BF16, T_BF16, T_F32, 64, 64, 32, 0) \
	V(v2_f16_f32_kw16, mmav2, \
	  "-D KWX=8 -D BK=64", \
	  T_F16, T_F16, T_F32, 64, 64, 64, 0) \
	V(v2_tf32_kw2, mmav2, \
	  "-D AT=gl.f32 -D BT=gl.f32 -D BK=16 -D KWX=2", \
	  T_F32, T_F32, T_F32, 64, 64, 16, 0) \
	V(v2_e4m3_f32_kw8, mmav2, \
	  "-D AT=gl.f8e4m3 -D BT=gl.f8e4m3 -D BK=64 -D KWX=2", \
	  T_E4M3, T_E4M3, T_F32, 64, 64, 64, 0) \
	V(fma_f32, fma_tile, "", \
	  T_F32, T_F32, T_F32, 32, 32, 16, 0)

#define DECLARE(name, ...) \
	glrt_status mma_##name(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, \
	                       glrt_devptr, glrt_devptr, int32_t, int32_t, int32_t) \
		__attribute__((weak));
VARIANTS(DECLARE)

typedef struct Variant {
	const char *name;
	MmaLauncher launch;
	Ty a, b, c;
	unsigned bm, bn, bk, flags;
} Variant;

#define ENTRY(name, kernel, glc_flags, ta, tb, tc, bm, bn, bk, fl) \
	{#name, mma_##name, ta, tb, tc, bm, bn, bk, fl},
static const Variant variants[] = {VARIANTS(ENTRY)};

static size_t
ty_size(Ty t)
{
	switch (t) {
	case T_F16: case T_BF16: return 2;
	case T_F32: case T_S32: return 4;
	default: return 1;
	}
}

/* One random element of t at p; its exact value. Floats are uniform in
 * [-1, 1) rounded to t (fp8: [-4, 4), subnormals included); f32 values
 * have a tf32 mantissa (10 bits). */
static double
random_elem(GtRun *r, Ty t, void *p)
{
	double u = gt_uniform(r, -1, 1);
	switch (t) {
	case T_F16: {
		uint16_t h = gt_f16_from_float((float)u);
		memcpy(p, &h, 2);
		return gt_f16_to_float(h);
	}
	case T_BF16: {
		uint16_t h = gt_bf16_from_float((float)u);
		memcpy(p, &h, 2);
		return gt_bf16_to_float(h);
	}
	case T_F32: {
		float f = (float)u;
		uint32_t x;
		memcpy(&x, &f, 4);
		x &= ~0x1fffu;
		memcpy(p, &x, 4);
		memcpy(&f, &x, 4);
		return f;
	}
	case T_E4M3: case T_E5M2:
		return gt_fp8_from_double(t == T_E4M3 ? GT_E4M3 : GT_E5M2, 4 * u, p);
	case T_S8: {
		int8_t v = (int8_t)(int)gt_uniform(r, -128, 128);
		memcpy(p, &v, 1);
		return v;
	}
	default: {
		uint8_t v = (uint8_t)(int)gt_uniform(r, 0, 256);
		memcpy(p, &v, 1);
		return v;
	}
	}
}

static GtType
out_type(Ty t)
{
	return t == T_F16 ? GT_F16 : t == T_S32 ? GT_I32 : GT_F32;
}

/* The output rounding (rtol) and the accumulation error per unit of
 * sum |a b| (see the top). */
static double
rel_tol(const Variant *v)
{
	return v->c == T_F16 ? 0x1p-10 : 0;
}

static double
acc_tol(const Variant *v)
{
	bool fp8 = v->a == T_E4M3 || v->a == T_E5M2;
	return v->c == T_S32 ? 0 : v->c == T_F16 ? 0x1p-8 : fp8 ? 0x1p-11 : 0x1p-16;
}

typedef struct Problem {
	size_t m, n, k;
	glrt_devptr a, b;
	double *ref, *atol;   /* (m + 1) x n; the margin row NaN (must stay poison) */
} Problem;

/* Inputs stored as the variant reads them (A [M, K] or [K, M], B [K, N] or
 * [N, K], row-major) and the reference. */
static void
make_problem(GtRun *r, const Variant *v, Problem *p)
{
	size_t m = p->m, n = p->n, k = p->k, i, j, q;
	size_t sa = ty_size(v->a), sb = ty_size(v->b);
	unsigned char *ha = gt_alloc(m * k * sa), *hb = gt_alloc(k * n * sb);
	double *a = gt_alloc(m * k * sizeof *a), *b = gt_alloc(k * n * sizeof *b);

	for (i = 0; i < m; i++)
		for (q = 0; q < k; q++) {
			size_t at = v->flags & A_MMAJOR ? q * m + i : i * k + q;
			a[i * k + q] = random_elem(r, v->a, ha + at * sa);
		}
	for (q = 0; q < k; q++)
		for (j = 0; j < n; j++) {
			size_t at = v->flags & B_KMAJOR ? j * k + q : q * n + j;
			b[q * n + j] = random_elem(r, v->b, hb + at * sb);
		}
	p->a = gt_upload(ha, m * k * sa);
	p->b = gt_upload(hb, k * n * sb);
	p->ref = gt_alloc((m + 1) * n * sizeof *p->ref);
	p->atol = gt_alloc((m + 1) * n * sizeof *p->atol);
	gt_matmul_ref(a, b, m, n, k, NULL, p->ref, p->atol);
	for (i = 0; i < m * n; i++)
		p->atol[i] *= acc_tol(v);
	for (j = 0; j < n; j++) {
		p->ref[m * n + j] = GT_UNWRITTEN;
		p->atol[m * n + j] = 0;
	}
	free(ha);
	free(hb);
	free(a);
	free(b);
}

static void
free_problem(Problem *p)
{
	gt_check(glrt_free(p->a), "glrt_free");
	gt_check(glrt_free(p->b), "glrt_free");
	free(p->ref);
	free(p->atol);
}

/* One launch into a fresh poisoned C; the downloaded C after the check. */
static void *
run_once(GtRun *r, const Variant *v, const Problem *p, int rep)
{
	GtType ot = out_type(v->c);
	size_t bytes = (p->m + 1) * p->n * gt_size(ot);
	glrt_devptr c = gt_poisoned(bytes);
	char what[160];
	void *got;

	gt_launched(v->launch(NULL, gt_cdiv(p->m, v->bm), gt_cdiv(p->n, v->bn), 1, p->a, p->b, c,
	                      (int32_t)p->m, (int32_t)p->n, (int32_t)p->k),
	            v->name);
	got = gt_download(c, bytes);
	snprintf(what, sizeof what, "mma_%s M=%zu N=%zu K=%zu run %d", v->name, p->m, p->n, p->k,
	         rep);
	gt_compare(r, what, ot, got, p->ref, (p->m + 1) * p->n,
	           (GtTol){rel_tol(v), 0, p->atol});
	gt_check(glrt_free(c), "glrt_free");
	return got;
}

static void
run_variant(GtRun *r, const Variant *v)
{
	const size_t shapes[2][3] = {
		{v->bm, v->bn, v->bk},
		{2 * v->bm + 17, 2 * v->bn + 5, 2 * v->bk + v->bk / 2 + 3},
	};
	if (!v->launch) {
		gt_skip(r, v->name, "not compiled by glc (no launcher linked)");
		return;
	}
	for (int s = 0; s < 2; s++) {
		Problem p = {shapes[s][0], shapes[s][1], shapes[s][2], 0, 0, NULL, NULL};
		size_t bytes = (p.m + 1) * p.n * gt_size(out_type(v->c));
		char what[160];
		void *first, *second;

		make_problem(r, v, &p);
		first = run_once(r, v, &p, 1);
		second = run_once(r, v, &p, 2);
		snprintf(what, sizeof what, "mma_%s M=%zu N=%zu K=%zu runs agree", v->name, p.m, p.n,
		         p.k);
		gt_agree(r, what, first, second, bytes);
		free(first);
		free(second);
		free_problem(&p);
	}
}

int
main(void)
{
	GtRun r;

	gt_start(&r, "mma");
	for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
		run_variant(&r, &variants[i]);
	return gt_finish(&r);
}
