/*
 * GPU test of test/gpu/fp4.gl: gl.fp4_to_fp on every byte value 0..255
 * against a host table of the e2m1 values, bit for bit (the sign of zero
 * included: nibble 8 is -0.0), into bf16 and f16, along the fastest axis
 * and across it, with 8, 4, 2 and 1 bytes per thread. The 512 input bytes
 * are the 256 values in order, then in a fresh random order; outputs are
 * poisoned, with a margin past the end that must stay unwritten. Every
 * case runs twice.
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_test.h"

#pragma weak fp4_rows
#pragma weak fp4_cols
#pragma weak fp4_flat1
#pragma weak fp4_flat2
glrt_status fp4_rows(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status fp4_cols(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status fp4_flat1(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);
glrt_status fp4_flat2(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr);

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
	return gt_finish(&r);
}
