/*
 * GPU test of test/gpu/fp4.gl: gl.fp4_to_fp on every byte value 0..255
 * against a host table of the e2m1 values, bit for bit (the sign of zero
 * included: nibble 8 is -0.0), into bf16 and f16, along the fastest axis
 * and across it, with 8, 4, 2 and 1 bytes per thread. The 512 input bytes
 * are the 256 values in order, then in a fresh random order; outputs are
 * poisoned, with a margin past the end that must stay unwritten. Every
 * case runs twice.
 *
 * fp4_padded_*: an [R, C] byte buffer in NVMMASharedLayout(SW, 8,
 * fp4_padded=True) must read back as written, and hold it as Triton 3.6
 * does: the standard SW-byte swizzle of an [R, 2C] buffer whose columns
 * 8..15 of every 16 are padding (they read 0 here: the kernel zeroes the
 * buffer first), data column c at padded column c / 8 * 16 + c % 8.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_test.h"

#pragma weak fp4_rows
#pragma weak fp4_cols
#pragma weak fp4_flat1
#pragma weak fp4_flat2
#pragma weak fp4_padded_128
#pragma weak fp4_padded_64
#pragma weak fp4_padded_32
glrt_status fp4_rows(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status fp4_cols(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status fp4_flat1(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status fp4_flat2(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status fp4_padded_128(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                           glrt_devptr);
glrt_status fp4_padded_64(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                          glrt_devptr);
glrt_status fp4_padded_32(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                          glrt_devptr);
typedef glrt_status (*PaddedLauncher)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                                      glrt_devptr, glrt_devptr);

typedef glrt_status (*Launcher)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                                glrt_devptr);

enum { N = 512, HALVES = 2 * N, MARGIN = 64 };

/* Where the kernel puts the two values of byte i of x (x is [32, 16]):
 * along the rows ([32, 32]), down the columns ([64, 16]), or flat. */
typedef enum Shape { ROWS, COLS, FLAT } Shape;

/* e2m1 magnitudes: two exponent bits, one mantissa bit. */
static const float e2m1[8] = {0, 0.5f, 1, 1.5f, 2, 3, 4, 6};

/* The 16-bit pattern (t: GT_BF16 or GT_F16) of nibble v. */
static uint16_t
half_bits(GtType t, unsigned v)
{
	float f = e2m1[v & 7];
	uint16_t b = t == GT_BF16 ? gt_bf16_from_float(f) : gt_f16_from_float(f);
	return (uint16_t)(v & 8 ? b | 0x8000 : b);
}

static void
run_case(GtRun *r, const char *name, Launcher k, unsigned grid, Shape s, GtType t,
         const uint8_t *x, int rep)
{
	uint16_t want[HALVES + MARGIN], *got;
	glrt_devptr dx = gt_upload(x, N), dy = gt_poisoned(sizeof want);
	size_t bad = 0, first = 0, i;
	char what[96];

	for (i = 0; i < HALVES + MARGIN; i++)
		want[i] = 0xFFFF;
	for (i = 0; i < N; i++)
		for (unsigned b = 0; b < 2; b++) {
			size_t row = i / 16, col = i % 16;
			size_t at = s == ROWS ? row * 32 + 2 * col + b
			          : s == COLS ? (2 * row + b) * 16 + col : 2 * i + b;
			want[at] = half_bits(t, x[i] >> (4 * b) & 15);
		}
	gt_launched(k(NULL, grid, 1, 1, dx, dy), name);
	got = gt_download(dy, sizeof want);
	for (i = 0; i < HALVES + MARGIN; i++)
		if (got[i] != want[i] && bad++ == 0)
			first = i;
	snprintf(what, sizeof what, "%s (%s) run %d", name, t == GT_BF16 ? "bf16" : "f16", rep);
	if (bad) {
		printf("FAIL %s: %zu of %d halves wrong (margin included); first at %zu: 0x%04x, "
		       "not 0x%04x\n", what, bad, HALVES + MARGIN, first, got[first], want[first]);
		r->failed++;
	} else {
		printf("PASS %s: %d halves bit-exact, margin untouched\n", what, HALVES);
		r->passed++;
	}
	free(got);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
}

/* The byte of x (an [R, C] buffer) that offset o of its fp4-padded
 * SW-byte NVMMA buffer holds, or -1 for padding: offset o is row
 * (o / SW) % R, swizzle tile o / (SW * R), and the column o % SW XOR 16
 * times the row's phase ((row % 8) / (128 / SW) % (SW / 16) per row bit). */
static int
padded_source(size_t o, int sw, int R, int C)
{
	int row = (int)(o / (size_t)sw) % R, tile = (int)(o / ((size_t)sw * (size_t)R));
	int per_phase = 128 / sw, max_phase = sw / 16, flip = 0;
	for (int b = 0; b < 3; b++)
		if (row >> b & 1)
			flip ^= 16 * (((1 << b) / per_phase) % max_phase);
	int col = tile * sw + ((int)(o % (size_t)sw) ^ flip);
	if (col & 8)
		return -1;
	return row * C + col / 16 * 8 + col % 8;
}

/* One fp4_padded_* kernel on fresh random bytes: the round trip and the
 * whole buffer, exactly. */
static void
padded_case(GtRun *r, const char *name, PaddedLauncher fn, int sw, int R, int C, int rep)
{
	size_t n = (size_t)R * (size_t)C;
	uint8_t *x = gt_alloc(n);
	double *back = gt_alloc(n * sizeof *back), *buf = gt_alloc(2 * n * sizeof *buf);
	GtTol exact = {0, 0, NULL};
	char what[96];
	for (size_t i = 0; i < n; i++) {
		x[i] = (uint8_t)gt_uniform(r, 0, 256);
		back[i] = x[i];
	}
	for (size_t o = 0; o < 2 * n; o++) {
		int src = padded_source(o, sw, R, C);
		buf[o] = src < 0 ? 0 : x[src];
	}
	glrt_devptr dx = gt_upload(x, n), dy = gt_poisoned(n * 4), dz = gt_poisoned(2 * n * 4);
	gt_launched(fn(NULL, 1, 1, 1, dx, dy, dz), name);
	void *got = gt_download(dy, n * 4);
	snprintf(what, sizeof what, "%s run %d: read back", name, rep);
	gt_compare(r, what, GT_I32, got, back, n, exact);
	free(got);
	got = gt_download(dz, 2 * n * 4);
	snprintf(what, sizeof what, "%s run %d: the buffer, padding included", name, rep);
	gt_compare(r, what, GT_I32, got, buf, 2 * n, exact);
	free(got);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	gt_check(glrt_free(dz), "glrt_free");
	free(x);
	free(back);
	free(buf);
}

int
main(void)
{
	GtRun r;
	uint8_t x[N];
	struct {
		const char *name;
		Launcher fn;
		unsigned grid;
		Shape shape;
		GtType type;
	} cases[] = {
		{"fp4_rows", fp4_rows, 1, ROWS, GT_BF16},
		{"fp4_cols", fp4_cols, 1, COLS, GT_F16},
		{"fp4_flat1", fp4_flat1, 4, FLAT, GT_BF16},
		{"fp4_flat2", fp4_flat2, 2, FLAT, GT_F16},
	};

	gt_start(&r, "fp4");
	for (int rep = 1; rep <= 2; rep++) {
		for (int i = 0; i < 256; i++)
			x[i] = x[256 + i] = (uint8_t)i;
		for (int i = 255; i > 0; i--) {   /* Fisher-Yates on the second half */
			int j = (int)gt_uniform(&r, 0, i + 1);
			uint8_t tmp = x[256 + i];
			x[256 + i] = x[256 + j];
			x[256 + j] = tmp;
		}
		for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
			if (cases[c].fn)
				run_case(&r, cases[c].name, cases[c].fn, cases[c].grid, cases[c].shape,
				         cases[c].type, x, rep);
	}
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
		if (!cases[c].fn)
			gt_skip(&r, cases[c].name, "not compiled by glc (no launcher linked)");
	static const struct {
		const char *name;
		PaddedLauncher fn;
		int sw, rows, cols;
	} padded[] = {
		{"fp4_padded_128", fp4_padded_128, 128, 32, 64},
		{"fp4_padded_64", fp4_padded_64, 64, 16, 128},
		{"fp4_padded_32", fp4_padded_32, 32, 64, 16},
	};
	for (size_t c = 0; c < sizeof padded / sizeof *padded; c++)
		for (int rep = 1; rep <= 2 && padded[c].fn; rep++)
			padded_case(&r, padded[c].name, padded[c].fn, padded[c].sw, padded[c].rows,
			            padded[c].cols, rep);
	for (size_t c = 0; c < sizeof padded / sizeof *padded; c++)
		if (!padded[c].fn)
			gt_skip(&r, padded[c].name, "not compiled by glc (no launcher linked)");
	return gt_finish(&r);
}
