/*
 * GPU test of test/gpu/names.gl and names.py: the Gluon names that no
 * other GPU test kernel uses, each in a computation checked here.
 *
 * Integers (int16, int32, uint16, uint32, uint64: wrapping multiply-add,
 * C division and remainder, shifts, comparisons, gl.abs with INT_MIN) and
 * float64 (+, *, / rounded once, gl.abs, a rounding to float32 through a
 * type from with_element_ty), gl.abs on float32 special values and
 * gl.zeros_like are compared bit for bit with a host reference; so are the
 * copies made through layouts that gl.to_linear_layout, gl.set_auto_layout,
 * gl.bank_conflicts and a verified PaddedSharedLayout give, the numbers
 * the kernels store (gl.bank_conflicts' counts, gl.to_tensor, gl.num_ctas,
 * a buffer's numel) and the bits of compile-time type and layout queries.
 * The TMA + WGMMA kernel of names.py (compiled as compile.py compiles it)
 * takes three NVMMA descriptors: its product is within 2^-16 of the sum of
 * |a_ik b_kj|, the tile it stores back through TMA is exact.
 *
 * Outputs are poisoned, with a margin that must stay unwritten; inputs are
 * fresh random values (with the special ones each check needs) and every
 * kernel runs twice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"

#pragma weak ints_i16
#pragma weak ints_i32
#pragma weak ints_u16
#pragma weak ints_u32
#pragma weak ints_u64
#pragma weak floats_f64
#pragma weak abs_f32
#pragma weak layouts_rt
#pragma weak names_queries
#pragma weak names_tma_wgmma
glrt_status ints_i16(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                     glrt_devptr);
glrt_status ints_i32(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                     glrt_devptr);
glrt_status ints_u16(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                     glrt_devptr);
glrt_status ints_u32(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                     glrt_devptr);
glrt_status ints_u64(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                     glrt_devptr);
glrt_status floats_f64(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                       glrt_devptr);
glrt_status abs_f32(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status layouts_rt(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                       glrt_devptr);
glrt_status names_queries(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                          glrt_devptr, int32_t);
glrt_status names_tma_wgmma(glrt_stream, unsigned, unsigned, unsigned, const glrt_tensor_map *,
                            const glrt_tensor_map *, const glrt_tensor_map *, glrt_devptr,
                            glrt_devptr);

typedef glrt_status (*IntKernel)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                                 glrt_devptr, glrt_devptr);

/* N: elements per block of names.gl; MARGIN: elements after each output
 * that must keep the poison. */
enum { N = 256, MARGIN = 64, T = 64 };

/* The poison as an element of `size` bytes. */
#define POISON_BITS(size) ((size) == 8 ? UINT64_MAX : (UINT64_C(1) << 8 * (size)) - 1)

/* Element i (size bytes, little-endian as on the GPU) of p. */
static uint64_t
get(const void *p, size_t i, size_t size)
{
	uint64_t v = 0;
	memcpy(&v, (const char *)p + i * size, size);
	return v;
}

/* Sets element i of p to the low `size` bytes of v. */
static void
put(void *p, size_t i, size_t size, uint64_t v)
{
	memcpy((char *)p + i * size, &v, size);
}

/* Records PASS or FAIL for `what`: the n elements of `size` bytes at got
 * must equal those at want bit for bit (the first mismatches printed). */
static void
expect_bits(GtRun *r, const char *what, const void *got, const void *want, size_t n,
            size_t size)
{
	size_t bad = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t g = get(got, i, size), w = get(want, i, size);
		if (g != w && bad++ < 4)
			printf("  %s[%zu]: got 0x%llx, want 0x%llx\n", what, i, (unsigned long long)g,
			       (unsigned long long)w);
	}
	if (bad) {
		printf("FAIL %s: %zu of %zu elements wrong (margin included)\n", what, bad, n);
		r->failed++;
	} else {
		printf("PASS %s: %zu elements bit-exact, margin untouched\n", what, n);
		r->passed++;
	}
}

/* A uniformly random 64-bit pattern. */
static uint64_t
random_bits(GtRun *r)
{
	return (uint64_t)gt_uniform(r, 0, 0x1p32) << 32 | (uint64_t)gt_uniform(r, 0, 0x1p32);
}

/* v's low `bits` bits as a two's complement number. */
static int64_t
signed_value(uint64_t v, int bits)
{
	return bits == 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* Launches k on x and y (n elements of `size` bytes each, on the host)
 * and returns the `out` elements it wrote to a poisoned buffer of `size`
 * bytes each (malloc'd). */
static void *
launch_2in(const char *name, IntKernel k, const void *x, const void *y, size_t n, size_t out,
           size_t size)
{
	glrt_devptr dx = gt_upload(x, n * size), dy = gt_upload(y, n * size);
	glrt_devptr dout = gt_poisoned(out * size);
	gt_launched(k(NULL, 1, 1, 1, dx, dy, dout), name);
	void *got = gt_download(dout, out * size);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	gt_check(glrt_free(dout), "glrt_free");
	return got;
}

/* What int_ops (names.gl) writes for elements a and b of `bits` bits, in
 * the six blocks of want: the arithmetic wraps modulo 2^bits; division,
 * remainder, >> and < follow the signedness; gl.abs(INT_MIN) is INT_MIN. */
static void
int_ops_ref(void *want, size_t i, uint64_t a, uint64_t b, int bits, bool is_signed)
{
	size_t size = bits / 8;
	uint64_t mask = POISON_BITS(size);
	int64_t sa = signed_value(a, bits), sb = signed_value(b, bits);
	bool less = is_signed ? sa < sb : a < b;
	put(want, i, size, (a * b + a) & mask);
	put(want, N + i, size, (is_signed ? (uint64_t)(sa / sb) : a / b) & mask);
	put(want, 2 * N + i, size, (is_signed ? (uint64_t)(sa % sb) : a % b) & mask);
	put(want, 3 * N + i, size, (is_signed ? (uint64_t)(sa >> 3) : a >> 3) & mask);
	put(want, 4 * N + i, size, (less ? b - a : a - b) & mask);
	put(want, 5 * N + i, size, (is_signed && sa < 0 ? 0 - a : a) & mask);
}

/* One integer kernel of names.gl: x random with the extremes (0 or
 * INT_MIN, the largest value, all ones), y random nonzero, half of it
 * small so that quotients are not all 0 or 1, never -1 next to INT_MIN. */
static void
run_ints(GtRun *r, const char *name, IntKernel k, int bits, bool is_signed, int rep)
{
	size_t size = bits / 8, out = 6 * N + MARGIN;
	uint64_t mask = POISON_BITS(size), min = is_signed ? UINT64_C(1) << (bits - 1) : 0;
	void *x = gt_alloc(N * size), *y = gt_alloc(N * size), *want = gt_alloc(out * size);
	for (size_t i = 0; i < N; i++) {
		uint64_t a = random_bits(r) & mask, b = random_bits(r) & mask;
		if (i % 2)
			b = (uint64_t)gt_uniform(r, 1, 100) * (is_signed && i % 4 == 1 ? mask : 1) & mask;
		a = i == 0 ? min : i == 1 ? mask >> is_signed : i == 2 ? mask : a;
		if (b == 0 || (a == min && b == mask))
			b = 7;
		put(x, i, size, a);
		put(y, i, size, b);
		int_ops_ref(want, i, a, b, bits, is_signed);
	}
	for (size_t i = 6 * N; i < out; i++)
		put(want, i, size, mask);
	void *got = launch_2in(name, k, x, y, N, out, size);
	char what[64];
	snprintf(what, sizeof what, "%s run %d", name, rep);
	expect_bits(r, what, got, want, out, size);
	free(x);
	free(y);
	free(want);
	free(got);
}

/* floats_f64: x and y random over 2^-60 .. 2^60 in magnitude, x with -0,
 * -inf and the smallest negative subnormal; checked against the host's
 * IEEE double arithmetic. */
static void
run_f64(GtRun *r, int rep)
{
	enum { OUT = 5 * N + MARGIN };
	double x[N], y[N], want[OUT];
	for (size_t i = 0; i < N; i++) {
		x[i] = ldexp(gt_uniform(r, -1, 1), (int)gt_uniform(r, -60, 60));
		y[i] = ldexp(gt_uniform(r, 0.5, 1), (int)gt_uniform(r, -60, 60)) * (i % 2 ? -1 : 1);
	}
	x[0] = -0.0;
	x[1] = -INFINITY;
	x[2] = -0x1p-1074;
	for (size_t i = 0; i < N; i++) {
		want[i] = x[i] + y[i];
		want[N + i] = x[i] * y[i];
		want[2 * N + i] = x[i] / y[i];
		want[3 * N + i] = fabs(x[i]);
		want[4 * N + i] = (double)(float)(x[i] * y[i]);
	}
	for (size_t i = 5 * N; i < OUT; i++)
		put(want, i, 8, UINT64_MAX);
	void *got = launch_2in("floats_f64", floats_f64, x, y, N, OUT, 8);
	char what[64];
	snprintf(what, sizeof what, "floats_f64 run %d", rep);
	expect_bits(r, what, got, want, OUT, 8);
	free(got);
}

/* abs_f32: gl.abs clears the sign of random values, -0, +-inf, a negative
 * subnormal and -FLT_MAX; then two blocks of zeros (gl.zeros_like). */
static void
run_abs_f32(GtRun *r, int rep)
{
	enum { OUT = 3 * N + MARGIN };
	float x[N];
	uint32_t want[OUT];
	for (size_t i = 0; i < N; i++)
		x[i] = (float)gt_uniform(r, -1000, 1000);
	const float special[] = {-0.0f, -INFINITY, INFINITY, -0x1p-140f, -0x1.fffffep127f};
	memcpy(x, special, sizeof special);
	for (size_t i = 0; i < N; i++) {
		uint32_t bits;
		memcpy(&bits, &x[i], 4);
		want[i] = bits & 0x7fffffff;
		want[N + i] = want[2 * N + i] = 0;
	}
	for (size_t i = 3 * N; i < OUT; i++)
		want[i] = UINT32_MAX;
	glrt_devptr dx = gt_upload(x, sizeof x), dout = gt_poisoned(sizeof want);
	gt_launched(abs_f32(NULL, 1, 1, 1, dx, dout), "abs_f32");
	void *got = gt_download(dout, sizeof want);
	char what[64];
	snprintf(what, sizeof what, "abs_f32 run %d", rep);
	expect_bits(r, what, got, want, OUT, 4);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dout), "glrt_free");
	free(got);
}

/* Uploads `elems` random f32 values (bits in *host, which the caller
 * frees) and returns the device copy. */
static glrt_devptr
random_f32(GtRun *r, float **host, size_t elems)
{
	double *exact = gt_alloc(elems * sizeof *exact);
	*host = gt_alloc(elems * 4);
	gt_fill(r, GT_F32, *host, exact, elems, -100, 100);
	free(exact);
	return gt_upload(*host, elems * 4);
}

/* Checks `copies` copies of the `elems` floats of x, then the margin, at
 * the device buffer dy (then freed). */
static void
expect_copies(GtRun *r, const char *what, glrt_devptr dy, const float *x, size_t elems,
              int copies)
{
	size_t out = elems * copies + MARGIN;
	uint32_t *want = gt_alloc(out * 4);
	for (int c = 0; c < copies; c++)
		memcpy(want + c * elems, x, elems * 4);
	for (size_t i = elems * copies; i < out; i++)
		want[i] = UINT32_MAX;
	void *got = gt_download(dy, out * 4);
	expect_bits(r, what, got, want, out, 4);
	gt_check(glrt_free(dy), "glrt_free");
	free(want);
	free(got);
}

/* layouts_rt: five copies of a 32 x 32 tile, then the bank conflicts of
 * its row-per-lane layout with a row-major buffer (8 lanes of a 128-bit
 * wavefront hit one bank group: 2^3 - 1 = 7 extra) and with the
 * swizzled one (none). */
static void
run_layouts(GtRun *r, int rep)
{
	float *x;
	glrt_devptr dx = random_f32(r, &x, 1024), dy = gt_poisoned((5 * 1024 + MARGIN) * 4);
	glrt_devptr dc = gt_poisoned((2 + MARGIN) * 4);
	gt_launched(layouts_rt(NULL, 1, 1, 1, dx, dy, dc), "layouts_rt");
	char what[64];
	snprintf(what, sizeof what, "layouts_rt copies run %d", rep);
	expect_copies(r, what, dy, x, 1024, 5);
	int32_t want[2 + MARGIN] = {7, 0};
	memset(want + 2, GT_POISON, MARGIN * 4);
	void *got = gt_download(dc, sizeof want);
	snprintf(what, sizeof what, "layouts_rt bank_conflicts run %d", rep);
	expect_bits(r, what, got, want, 2 + MARGIN, 4);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dc), "glrt_free");
	free(x);
	free(got);
}

/* The bits of the queries of names.py's `queries` (19, all true but the
 * 6th, 8th and 14th) and of tma_wgmma (8, all true but the 2nd and 6th). */
enum { QUERY_BITS = 0x7ffff & ~(1 << 5 | 1 << 7 | 1 << 13), TMA_BITS = 0xff & ~(1 << 1 | 1 << 5) };

/* names_queries with a random loop count n: 5 + (0 + ... + n - 1) + n, one
 * CTA, numel 512, the query bits; and the 32 x 16 tile back through the
 * padded buffer. */
static void
run_queries(GtRun *r, int rep)
{
	float *x;
	int32_t n = (int32_t)gt_uniform(r, 0, 1000);
	glrt_devptr dx = random_f32(r, &x, 512), dy = gt_poisoned((512 + MARGIN) * 4);
	glrt_devptr dout = gt_poisoned((4 + MARGIN) * 4);
	gt_launched(names_queries(NULL, 1, 1, 1, dx, dy, dout, n), "names_queries");
	char what[64];
	snprintf(what, sizeof what, "names_queries padded run %d", rep);
	expect_copies(r, what, dy, x, 512, 1);
	int32_t want[4 + MARGIN] = {5 + n * (n - 1) / 2 + n, 1, 512, QUERY_BITS};
	memset(want + 4, GT_POISON, MARGIN * 4);
	void *got = gt_download(dout, sizeof want);
	snprintf(what, sizeof what, "names_queries values (n = %d) run %d", (int)n, rep);
	expect_bits(r, what, got, want, 4 + MARGIN, 4);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dout), "glrt_free");
	free(x);
	free(got);
}

/* A 64 x 64 f16 tensor map of dev with the 128-byte swizzle. */
static glrt_tensor_map
f16_tile_map(glrt_devptr dev)
{
	const uint64_t shape[] = {T, T}, strides[] = {T, 1};
	const uint32_t box[] = {T, T};
	glrt_nvmma_layout layout = {128, 16, 0};
	glrt_tensor_map m;
	gt_check(glrt_tensor_map_encode_nvmma(&m, GLRT_TMA_F16, 2, dev, shape, strides, box, &layout,
	                                      GLRT_OOB_ZERO), "glrt_tensor_map_encode_nvmma");
	return m;
}

/* names_tma_wgmma: c = a @ b, the A tile stored back, the query bits. */
static void
run_tma_wgmma(GtRun *r, int rep)
{
	double a[T * T], b[T * T], ref[T * T + MARGIN], tol[T * T + MARGIN];
	uint16_t ha[T * T], hb[T * T], want_out[T * T + MARGIN];
	gt_fill(r, GT_F16, ha, a, T * T, -4, 4);
	gt_fill(r, GT_F16, hb, b, T * T, -4, 4);
	gt_matmul_ref(a, b, T, T, T, NULL, ref, tol);
	for (int i = 0; i < T * T; i++)
		tol[i] *= 0x1p-16;
	for (int i = T * T; i < T * T + MARGIN; i++) {
		ref[i] = GT_UNWRITTEN;
		tol[i] = 0;
	}
	memcpy(want_out, ha, sizeof ha);
	memset(want_out + T * T, GT_POISON, MARGIN * 2);
	glrt_devptr da = gt_upload(ha, sizeof ha), db = gt_upload(hb, sizeof hb);
	glrt_devptr dout = gt_poisoned(sizeof want_out), dc = gt_poisoned((T * T + MARGIN) * 4);
	glrt_devptr dflags = gt_poisoned((1 + MARGIN) * 4);
	glrt_tensor_map ma = f16_tile_map(da), mb = f16_tile_map(db), mout = f16_tile_map(dout);
	gt_launched(names_tma_wgmma(NULL, 1, 1, 1, &ma, &mb, &mout, dc, dflags), "names_tma_wgmma");
	char what[64];
	void *got = gt_download(dc, (T * T + MARGIN) * 4);
	snprintf(what, sizeof what, "names_tma_wgmma product run %d", rep);
	gt_compare(r, what, GT_F32, got, ref, T * T + MARGIN, (GtTol){0, 0, tol});
	free(got);
	got = gt_download(dout, sizeof want_out);
	snprintf(what, sizeof what, "names_tma_wgmma async_store run %d", rep);
	expect_bits(r, what, got, want_out, T * T + MARGIN, 2);
	free(got);
	int32_t want_flags[1 + MARGIN] = {TMA_BITS};
	memset(want_flags + 1, GT_POISON, MARGIN * 4);
	got = gt_download(dflags, sizeof want_flags);
	snprintf(what, sizeof what, "names_tma_wgmma queries run %d", rep);
	expect_bits(r, what, got, want_flags, 1 + MARGIN, 4);
	free(got);
	gt_check(glrt_free(da), "glrt_free");
	gt_check(glrt_free(db), "glrt_free");
	gt_check(glrt_free(dout), "glrt_free");
	gt_check(glrt_free(dc), "glrt_free");
	gt_check(glrt_free(dflags), "glrt_free");
}

int
main(void)
{
	static const struct {
		const char *name;
		IntKernel k;
		int bits;
		bool is_signed;
	} ints[] = {
		{"ints_i16", ints_i16, 16, true},   {"ints_i32", ints_i32, 32, true},
		{"ints_u16", ints_u16, 16, false},  {"ints_u32", ints_u32, 32, false},
		{"ints_u64", ints_u64, 64, false},
	};
	static const struct {
		const char *name;
		const void *k;
		void (*run)(GtRun *, int);
	} others[] = {
		{"floats_f64", (const void *)floats_f64, run_f64},
		{"abs_f32", (const void *)abs_f32, run_abs_f32},
		{"layouts_rt", (const void *)layouts_rt, run_layouts},
		{"names_queries", (const void *)names_queries, run_queries},
		{"names_tma_wgmma", (const void *)names_tma_wgmma, run_tma_wgmma},
	};
	GtRun r;
	gt_start(&r, "names");
	for (int rep = 1; rep <= 2; rep++) {
		for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
			if (ints[i].k)
				run_ints(&r, ints[i].name, ints[i].k, ints[i].bits, ints[i].is_signed, rep);
		for (size_t i = 0; i < sizeof others / sizeof *others; i++)
			if (others[i].k)
				others[i].run(&r, rep);
	}
	for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
		if (!ints[i].k)
			gt_skip(&r, ints[i].name, "not compiled by glc (no launcher linked)");
	for (size_t i = 0; i < sizeof others / sizeof *others; i++)
		if (!others[i].k)
			gt_skip(&r, others[i].name, "not compiled by glc (no launcher linked)");
	return gt_finish(&r);
}
