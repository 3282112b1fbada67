/*
 * GPU test of test/gpu/atomics.gl: gl.atomic_add/and/or/xor/max/min/xchg/
 * cas on i32, u32, i64, u64, f32, f64, f16 and bf16 elements, with masks,
 * every sem and scope, layouts holding 4 consecutive elements per thread
 * (f16 and bf16 adds go in packed pairs), one per thread, or each element in
 * 32 threads (REP: still updated once), the old values unused (red), and a
 * scalar counter (one atomic per program).
 *
 * Distinct addresses (every element its own): each updated element must be
 * exactly op(initial, value) and its old value exactly the initial one;
 * elements past n keep their initial value and their old value stays
 * poisoned. Colliding addresses (i % HOT): integer results are exact in any
 * order; an f32 sum of k values is within gamma(k) * sum |x| of the float64
 * one (Higham 4.2), and the old values only have to be written. f16 and
 * bf16 adds round once (values are multiples of 1/8 below 64, whose sums
 * f32 holds exactly). The packed f16 adds also run on a base that is not
 * 4-byte aligned, which takes the per-element path. Every case runs twice
 * on fresh random inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"

typedef glrt_status (*Rmw)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                           glrt_devptr, int32_t);
typedef glrt_status (*Cas)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                           glrt_devptr, glrt_devptr, int32_t);

#define RMW_KERNELS(X) \
	X(add_i32) X(add_i32_hot) X(add_i32_red) X(add_u32_rep) X(add_u64) X(add_i64_hot) \
	X(add_f32) X(add_f32_hot) X(add_f64) X(add_f16) X(add_bf16) X(and_i32) X(and_f32) \
	X(and_f64_rep) X(or_u32) \
	X(xor_i64) X(max_i32) X(min_u32_hot) X(max_u64) X(min_i64_rep) X(max_f32) \
	X(min_f32_hot) X(max_f64_rep) X(xchg_i32) X(xchg_f32_rep) X(xchg_u64)
#define CAS_KERNELS(X) X(cas_i32) X(cas_u64_rep) X(cas_f16) X(cas_u32_i32)

#define PRAGMA(x) _Pragma(#x)
#define DECLARE_RMW(k) \
	PRAGMA(weak k) \
	glrt_status k(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr, \
	              glrt_devptr, int32_t);
#define DECLARE_CAS(k) \
	PRAGMA(weak k) \
	glrt_status k(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr, \
	              glrt_devptr, glrt_devptr, int32_t);
RMW_KERNELS(DECLARE_RMW)
CAS_KERNELS(DECLARE_CAS)
#pragma weak counter
glrt_status counter(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);

typedef enum Ty { I32, U32, I64, U64, F32, F64, F16, BF16 } Ty;
typedef enum Op { ADD, AND, OR, XOR, MAX, MIN, XCHG } Op;

static const GtType gt_of[] = {GT_I32, GT_U32, GT_I64, GT_U64, GT_F32, GT_F64, GT_F16, GT_BF16};
static const size_t size_of[] = {4, 4, 8, 8, 4, 8, 2, 2};

/* An element's bits as the number it is. */
static double
value(Ty t, uint64_t b)
{
	float f;
	double d;

	switch (t) {
	case I32: return (int32_t)b;
	case U32: return (uint32_t)b;
	case I64: return (double)(int64_t)b;
	case U64: return (double)b;
	case F32: memcpy(&f, &b, 4); return f;
	case F64: memcpy(&d, &b, 8); return d;
	case F16: return gt_f16_to_float((uint16_t)b);
	default: return gt_bf16_to_float((uint16_t)b);
	}
}

/* The bits of x in t (rounded to nearest for the floats). */
static uint64_t
bits_of(Ty t, double x)
{
	float f = (float)x;
	uint64_t b = 0;

	switch (t) {
	case F32: memcpy(&b, &f, 4); return b;
	case F64: memcpy(&b, &x, 8); return b;
	case F16: return gt_f16_from_float(f);
	case BF16: return gt_bf16_from_float(f);
	case I32: return (uint32_t)(int32_t)x;
	case U32: return (uint32_t)x;
	default: return (uint64_t)(int64_t)x;
	}
}

static uint64_t
random_bits(GtRun *r, Ty t)
{
	switch (t) {
	case I32: return bits_of(t, floor(gt_uniform(r, -(1 << 20), 1 << 20)));
	case U32: return (uint32_t)gt_uniform(r, 0, 4294967296.0);
	case I64: return bits_of(t, floor(gt_uniform(r, -0x1p40, 0x1p40)));
	case U64: return (uint64_t)gt_uniform(r, 0, 0x1p50);
	case F32: case F64: return bits_of(t, floor(gt_uniform(r, -4000, 4000)) / 8);
	default: return bits_of(t, floor(gt_uniform(r, -400, 400)) / 8);
	}
}

/* op(a, b) on elements of t, as the hardware computes it. */
static uint64_t
apply(Op op, Ty t, uint64_t a, uint64_t b)
{
	uint64_t mask = size_of[t] == 8 ? ~(uint64_t)0 : 0xffffffffu;
	double x = value(t, a), y = value(t, b);
	bool flt = t >= F32;

	switch (op) {
	case ADD:
		if (t == F32)
			return bits_of(t, (float)x + (float)y);
		return flt ? bits_of(t, x + y) : (a + b) & mask;
	case AND: return a & b;
	case OR: return a | b;
	case XOR: return a ^ b;
	case MAX: return x >= y ? a : b;
	case MIN: return x <= y ? a : b;
	default: return b;
	}
}

static void *
pack(Ty t, const uint64_t *v, size_t n)
{
	char *p = gt_alloc(n * size_of[t]);
	size_t i;

	for (i = 0; i < n; i++)
		memcpy(p + i * size_of[t], &v[i], size_of[t]);
	return p;
}

static double *
as_ref(Ty t, const uint64_t *v, size_t n)
{
	double *d = gt_alloc(n * sizeof *d);
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = value(t, v[i]);
	return d;
}

typedef struct Case {
	const char *name;
	Rmw rmw;
	Cas cas;
	Ty t;
	Op op;
	int hot;          /* 0: every element its own address */
	size_t block;     /* elements per program */
	bool keeps;       /* the old values are stored */
	size_t skew;      /* elements the base is moved by */
} Case;

/* One launch of case c on n elements (grid to cover them). */
static void
run_case(GtRun *r, const Case *c, size_t n, int rep)
{
	Ty t = c->t;
	size_t es = size_of[t], grid = gt_cdiv(n, c->block), total = grid * c->block;
	size_t slots = (c->hot ? (size_t)c->hot : total) + c->skew, i;
	uint64_t *p0 = gt_alloc(slots * sizeof *p0), *v = gt_alloc(total * sizeof *v);
	uint64_t *cmp = gt_alloc(total * sizeof *cmp), *pend = gt_alloc(slots * sizeof *pend);
	double *rold = gt_alloc(total * sizeof *rold), *atol = gt_alloc(slots * sizeof *atol);
	double *abs_sum = gt_alloc(slots * sizeof *abs_sum), *want;
	void *hp, *hv, *got;
	glrt_devptr dp, dv, dc = 0, dold = gt_poisoned(total * es);
	GtTol exact = {0, 0, NULL}, tol = {0, 0, atol};
	char what[160];

	for (i = 0; i < slots; i++) {
		pend[i] = p0[i] = random_bits(r, t);
		abs_sum[i] = fabs(value(t, p0[i]));
		atol[i] = 0;
	}
	for (i = 0; i < total; i++) {
		v[i] = random_bits(r, t);
		cmp[i] = gt_uniform(r, 0, 1) < 0.5 ? p0[c->skew + i] : v[i];
		rold[i] = GT_UNWRITTEN;
	}
	for (i = 0; i < n; i++) {
		size_t a = c->skew + (c->hot ? i % (size_t)c->hot : i);

		if (c->cas)
			pend[a] = p0[a] == cmp[i] ? v[i] : p0[a];
		else
			pend[a] = apply(c->op, t, pend[a], v[i]);
		abs_sum[a] += fabs(value(t, v[i]));
		if (c->keeps)
			rold[i] = c->hot ? 0 : value(t, p0[a]);
	}
	want = as_ref(t, pend, slots);
	bool summed = c->hot && t == F32 && c->op == ADD && !c->cas;

	for (i = 0; summed && i < slots; i++) {
		double k = (double)n / c->hot + 1, exact_sum = value(t, p0[i]);
		size_t j;

		for (j = i; j < n; j += (size_t)c->hot)
			exact_sum += value(t, v[j]);
		want[i] = exact_sum;
		atol[i] = k * 0x1p-24 / (1 - k * 0x1p-24) * abs_sum[i];
	}
	hp = pack(t, p0, slots);
	hv = pack(t, v, total);
	dp = gt_upload(hp, slots * es);
	dv = gt_upload(hv, total * es);
	if (c->cas) {
		void *hc = pack(t, cmp, total);

		dc = gt_upload(hc, total * es);
		free(hc);
		gt_launched(c->cas(NULL, (unsigned)grid, 1, 1, dp, dc, dv, dold, (int32_t)n), c->name);
	} else {
		gt_launched(c->rmw(NULL, (unsigned)grid, 1, 1, dp + c->skew * es, dv, dold, (int32_t)n),
		            c->name);
	}
	got = gt_download(dp, slots * es);
	snprintf(what, sizeof what, "%s n=%zu%s run %d: memory", c->name, n,
	         c->skew ? " misaligned" : "", rep);
	gt_compare(r, what, gt_of[t], got, want, slots, summed ? tol : exact);
	free(got);
	got = gt_download(dold, total * es);
	snprintf(what, sizeof what, "%s n=%zu%s run %d: old values", c->name, n,
	         c->skew ? " misaligned" : "", rep);
	tol.atol_each = NULL;
	tol.atol = c->hot ? INFINITY : 0;
	gt_compare(r, what, gt_of[t], got, rold, total, tol);
	free(got);
	gt_check(glrt_free(dp), "glrt_free");
	gt_check(glrt_free(dv), "glrt_free");
	gt_check(glrt_free(dold), "glrt_free");
	if (dc)
		gt_check(glrt_free(dc), "glrt_free");
	free(p0);
	free(v);
	free(cmp);
	free(pend);
	free(rold);
	free(atol);
	free(abs_sum);
	free(want);
	free(hp);
	free(hv);
}

/* counter: G programs add 1 each; the old values are 0..G-1 in any order. */
static void
counter_case(GtRun *r, unsigned grid, int rep)
{
	int32_t zero = 0, *got;
	unsigned i;
	glrt_devptr dp = gt_upload(&zero, 4), dold = gt_poisoned(grid * 4u);
	double total;
	bool *seen = calloc(grid, 1);
	bool ok = seen != NULL;
	char what[96];

	gt_launched(counter(NULL, grid, 1, 1, dp, dold), "counter");
	got = gt_download(dp, 4);
	total = got[0];
	free(got);
	got = gt_download(dold, grid * 4u);
	for (i = 0; ok && i < grid; i++) {
		ok = got[i] >= 0 && (unsigned)got[i] < grid && !seen[got[i]];
		if (ok)
			seen[got[i]] = true;
	}
	ok = ok && total == grid;
	snprintf(what, sizeof what, "counter grid=%u run %d", grid, rep);
	printf("%s %s: final %g, old values %s\n", ok ? "PASS" : "FAIL", what, total,
	       ok ? "each of 0..grid-1 once" : "wrong");
	*(ok ? &r->passed : &r->failed) += 1;
	free(got);
	free(seen);
	gt_check(glrt_free(dp), "glrt_free");
	gt_check(glrt_free(dold), "glrt_free");
}

int
main(void)
{
	const Case cases[] = {
		{"add_i32", add_i32, NULL, I32, ADD, 0, 512, true, 0},
		{"add_i32_hot", add_i32_hot, NULL, I32, ADD, 16, 512, true, 0},
		{"add_i32_red", add_i32_red, NULL, I32, ADD, 16, 512, false, 0},
		{"add_u32_rep", add_u32_rep, NULL, U32, ADD, 0, 8, true, 0},
		{"add_u64", add_u64, NULL, U64, ADD, 0, 128, true, 0},
		{"add_i64_hot", add_i64_hot, NULL, I64, ADD, 8, 128, true, 0},
		{"add_f32", add_f32, NULL, F32, ADD, 0, 512, true, 0},
		{"add_f32_hot", add_f32_hot, NULL, F32, ADD, 64, 512, true, 0},
		{"add_f64", add_f64, NULL, F64, ADD, 0, 128, true, 0},
		{"add_f16", add_f16, NULL, F16, ADD, 0, 512, true, 0},
		{"add_f16", add_f16, NULL, F16, ADD, 0, 512, true, 1},
		{"add_bf16", add_bf16, NULL, BF16, ADD, 0, 512, true, 0},
		{"and_i32", and_i32, NULL, I32, AND, 0, 512, true, 0},
		{"and_f32", and_f32, NULL, F32, AND, 0, 128, true, 0},
		{"and_f64_rep", and_f64_rep, NULL, F64, AND, 0, 8, true, 0},
		{"or_u32", or_u32, NULL, U32, OR, 0, 128, true, 0},
		{"xor_i64", xor_i64, NULL, I64, XOR, 0, 128, true, 0},
		{"max_i32", max_i32, NULL, I32, MAX, 0, 512, true, 0},
		{"min_u32_hot", min_u32_hot, NULL, U32, MIN, 32, 512, true, 0},
		{"max_u64", max_u64, NULL, U64, MAX, 0, 128, true, 0},
		{"min_i64_rep", min_i64_rep, NULL, I64, MIN, 0, 8, true, 0},
		{"max_f32", max_f32, NULL, F32, MAX, 0, 512, true, 0},
		{"min_f32_hot", min_f32_hot, NULL, F32, MIN, 16, 512, true, 0},
		{"max_f64_rep", max_f64_rep, NULL, F64, MAX, 0, 8, true, 0},
		{"xchg_i32", xchg_i32, NULL, I32, XCHG, 0, 512, true, 0},
		{"xchg_f32_rep", xchg_f32_rep, NULL, F32, XCHG, 0, 8, true, 0},
		{"xchg_u64", xchg_u64, NULL, U64, XCHG, 0, 128, true, 0},
		{"cas_i32", NULL, cas_i32, I32, XCHG, 0, 512, true, 0},
		{"cas_u64_rep", NULL, cas_u64_rep, U64, XCHG, 0, 8, true, 0},
		{"cas_f16", NULL, cas_f16, F16, XCHG, 0, 128, true, 0},
		{"cas_u32_i32", NULL, cas_u32_i32, U32, XCHG, 0, 512, true, 0},
	};
	GtRun r;
	size_t k;
	int rep;

	gt_start(&r, "atomics");
	for (rep = 1; rep <= 2; rep++) {
		for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
			const Case *c = &cases[k];

			if (!c->rmw && !c->cas) {
				gt_skip(&r, c->name, "not compiled by glc (no launcher linked)");
				continue;
			}
			run_case(&r, c, 3 * c->block, rep);
			run_case(&r, c, 2 * c->block + c->block / 2 + 3, rep);
		}
		if (counter)
			counter_case(&r, 77, rep);
		else
			gt_skip(&r, "counter", "not compiled by glc (no launcher linked)");
	}
	return gt_finish(&r);
}
