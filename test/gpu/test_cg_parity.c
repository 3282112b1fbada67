/*
 * GPU test of test/gpu/cg_parity.gl: the arithmetic glc generates as
 * Triton 3.6 does (issue 23), against references computed on the CPU the
 * way the PTX defines each instruction, bit for bit where it is exact:
 *   contraction on (Triton's default): x*y+z, x*y-z and z-x*y rounded once
 *     (fma.rn), in f32 (C's fmaf), f16 and bf16 (the exact double result
 *     rounded once to the type); with enable_fp_fusion=False each multiply
 *     and add rounded (mul.rn, add.rn);
 *   x / y: div.full.f32, within 2 ulp of the quotient (PTX ISA);
 *   x % y: C's fmod as LLVM expands Triton's arith.remf: q = x / y
 *     correctly rounded, r = fma(-trunc(q), y, x), x where y is infinite;
 *   gl.div_rn: the correctly rounded quotient;
 *   reductions (gl.reduce by a function, of a pair, gl.max, gl.sum) in
 *   Triton's order, emulated here in f32: each thread folds its registers
 *   of a row from the left in register order, lanes combine by butterfly
 *   (xor 16, 8, 4, 2, 1), warps as a butterfly over their slots.
 * Lengths include tails (not multiples of a program's 512 elements); the
 * poisoned margin past the last row must stay unwritten; every case runs
 * twice on fresh inputs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"

#pragma weak contract_f32
#pragma weak strict_f32
#pragma weak contract_f16
#pragma weak contract_bf16
#pragma weak reduce_rows
#pragma weak reduce_warps
glrt_status reduce_rows(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                        glrt_devptr);
glrt_status reduce_warps(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                         glrt_devptr);
typedef glrt_status (*Reducer)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                               glrt_devptr, glrt_devptr);
typedef glrt_status (*Launcher)(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr,
                                glrt_devptr, glrt_devptr, glrt_devptr, int32_t);
glrt_status contract_f32(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                         glrt_devptr, glrt_devptr, int32_t);
glrt_status strict_f32(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                       glrt_devptr, glrt_devptr, int32_t);
glrt_status contract_f16(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                         glrt_devptr, glrt_devptr, int32_t);
glrt_status contract_bf16(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                          glrt_devptr, glrt_devptr, int32_t);

enum { BLOCK = 512, MARGIN = 512, F32_ROWS = 6, HALF_ROWS = 3 };

static const size_t lengths[] = {1, 100, 512, 1000, 4099};

/* v rounded to nearest even with `mant` fraction bits and least normal
 * exponent emin (no overflow at the inputs' magnitudes). */
static double
round_to(double v, int mant, int emin)
{
	if (v == 0)
		return v;
	int e;
	frexp(v, &e);
	double q = ldexp(1, (e - 1 < emin ? emin : e - 1) - mant);
	return nearbyint(v / q) * q;
}

/* One f32 operation, rounded (the ISO C mode of the drivers' build does not
 * contract across statements). */
static float
mulf(float a, float b)
{
	volatile float p = a * b;
	return p;
}

/* Row f of an f32 kernel at x, y, z: its value, and its tolerance. */
static double
ref_f32(int f, bool fused, float x, float y, float z, double *tol)
{
	float q, t;
	*tol = 0;
	switch (f) {
	case 0: return fused ? fmaf(x, y, z) : mulf(x, y) + z;
	case 1: return fused ? fmaf(x, y, -z) : mulf(x, y) - z;
	case 2: return fused ? fmaf(-x, y, z) : z - mulf(x, y);
	case 3: {
		double r = (double)x / y;
		int e;
		frexp(r, &e);
		*tol = 2 * ldexp(1, e - 1 - 23);
		return r;
	}
	case 4:
		q = x / y;
		t = truncf(q);
		return isinf(y) ? x : fmaf(-t, y, x);
	default:
		return x / y;
	}
}

/* A value with |v| in [1/4, 4) and either sign. */
static float
operand(GtRun *r)
{
	float m = (float)exp2(gt_uniform(r, -2, 2));
	return gt_uniform(r, 0, 1) < 0.5 ? -m : m;
}

static void
run_f32(GtRun *r, Launcher k, const char *name, bool fused, size_t n, int rep)
{
	float *h[3];
	for (int a = 0; a < 3; a++) {
		h[a] = gt_alloc(n * 4);
		for (size_t i = 0; i < n; i++)
			h[a][i] = operand(r);
	}
	size_t total = F32_ROWS * n + MARGIN;
	double *ref = gt_alloc(total * sizeof *ref), *tol = gt_alloc(total * sizeof *tol);
	for (size_t i = 0; i < total; i++) {
		ref[i] = GT_UNWRITTEN;
		tol[i] = 0;
	}
	for (int f = 0; f < F32_ROWS; f++)
		for (size_t i = 0; i < n; i++)
			ref[f * n + i] = ref_f32(f, fused, h[0][i], h[1][i], h[2][i], &tol[f * n + i]);
	glrt_devptr d[3];
	for (int a = 0; a < 3; a++)
		d[a] = gt_upload(h[a], n * 4);
	glrt_devptr out = gt_poisoned(total * 4);
	gt_launched(k(NULL, gt_cdiv(n, BLOCK), 1, 1, d[0], d[1], d[2], out, (int32_t)n), name);
	float *got = gt_download(out, total * 4);
	for (int f = 0; f < F32_ROWS; f++) {
		char what[96];
		snprintf(what, sizeof what, "%s row %d n=%zu run %d", name, f, n, rep);
		size_t len = f + 1 == F32_ROWS ? n + MARGIN : n;
		gt_compare(r, what, GT_F32, got + f * n, ref + f * n, len, (GtTol){0, 0, tol + f * n});
	}
	for (int a = 0; a < 3; a++) {
		gt_check(glrt_free(d[a]), "glrt_free");
		free(h[a]);
	}
	gt_check(glrt_free(out), "glrt_free");
	free(ref);
	free(tol);
	free(got);
}

/* f16 (bf16 when bf) rows 0..2, fused: the exact result (the product of two
 * 11- or 8-bit significands and the sum are exact in double) rounded once. */
static void
run_half(GtRun *r, Launcher k, const char *name, bool bf, size_t n, int rep)
{
	GtType t = bf ? GT_BF16 : GT_F16;
	uint16_t *h[3];
	double *v[3];
	for (int a = 0; a < 3; a++) {
		h[a] = gt_alloc(n * 2);
		v[a] = gt_alloc(n * sizeof *v[a]);
		gt_fill(r, t, h[a], v[a], n, -4, 4);
	}
	size_t total = HALF_ROWS * n + MARGIN;
	double *ref = gt_alloc(total * sizeof *ref);
	for (size_t i = 0; i < total; i++)
		ref[i] = GT_UNWRITTEN;
	int mant = bf ? 7 : 10, emin = bf ? -126 : -14;
	for (size_t i = 0; i < n; i++) {
		double p = v[0][i] * v[1][i], c = v[2][i];
		ref[i] = round_to(p + c, mant, emin);
		ref[n + i] = round_to(p - c, mant, emin);
		ref[2 * n + i] = round_to(c - p, mant, emin);
	}
	glrt_devptr d[3];
	for (int a = 0; a < 3; a++)
		d[a] = gt_upload(h[a], n * 2);
	glrt_devptr out = gt_poisoned(total * 2);
	gt_launched(k(NULL, gt_cdiv(n, BLOCK), 1, 1, d[0], d[1], d[2], out, (int32_t)n), name);
	uint16_t *got = gt_download(out, total * 2);
	for (int f = 0; f < HALF_ROWS; f++) {
		char what[96];
		snprintf(what, sizeof what, "%s row %d n=%zu run %d", name, f, n, rep);
		size_t len = f + 1 == HALF_ROWS ? n + MARGIN : n;
		gt_compare(r, what, t, got + f * n, ref + f * n, len, (GtTol){0, 0, NULL});
	}
	for (int a = 0; a < 3; a++) {
		gt_check(glrt_free(d[a]), "glrt_free");
		free(h[a]);
		free(v[a]);
	}
	gt_check(glrt_free(out), "glrt_free");
	free(ref);
	free(got);
}

/* One row's reduction (op 0: add, 1: max) as Triton's order leaves it:
 * per lane the fold of its registers (col(r, lane, warp) for r < regs), then
 * the butterfly over lanes, then over the warps' slots. */
static float
triton_order(const float *row, int op, int regs, int warps, int (*col)(int, int, int))
{
	float slot[32];
	for (int wp = 0; wp < warps; wp++) {
		float acc[32];
		for (int l = 0; l < 32; l++) {
			acc[l] = row[col(0, l, wp)];
			for (int r = 1; r < regs; r++) {
				float x = row[col(r, l, wp)];
				acc[l] = op ? fmaxf(acc[l], x) : acc[l] + x;
			}
		}
		for (int stride = 16; stride > 0; stride /= 2) {
			float next[32];
			for (int l = 0; l < 32; l++)
				next[l] = op ? fmaxf(acc[l], acc[l ^ stride]) : acc[l] + acc[l ^ stride];
			memcpy(acc, next, sizeof acc);
		}
		slot[wp] = acc[0];
	}
	for (int half = warps / 2; half > 0; half /= 2)
		for (int s = 0; s < half; s++)
			slot[s] = op ? fmaxf(slot[s], slot[s + half]) : slot[s] + slot[s + half];
	return slot[0];
}

/* reduce_rows: [4, 4096], register r of lane l at column (r / 4) * 128 +
 * l * 4 + r % 4 (a warp per row); reduce_warps: [64, 512], 4 registers, warp
 * w's lane l at column w * 128 + l * 4 + r. */
static int
rows_col(int r, int l, int w)
{
	(void)w;
	return r / 4 * 128 + l * 4 + r % 4;
}

static int
warps_col(int r, int l, int w)
{
	return w * 128 + l * 4 + r;
}

static void
run_reduce(GtRun *r, Reducer k, const char *name, bool by_warps, int rep)
{
	int R = by_warps ? 64 : 4, C = by_warps ? 512 : 4096;
	size_t n = (size_t)R * C, outs = 5 * (size_t)R;
	float *hx = gt_alloc(n * 4), *hw = gt_alloc(n * 4);
	for (size_t i = 0; i < n; i++) {
		hx[i] = (float)gt_uniform(r, -1, 1);
		hw[i] = (float)gt_uniform(r, -1, 1);
	}
	double *ref = gt_alloc((outs + MARGIN) * sizeof *ref);
	for (size_t i = 0; i < outs + MARGIN; i++)
		ref[i] = GT_UNWRITTEN;
	int regs = by_warps ? 4 : 128, warps = by_warps ? 4 : 1;
	int (*col)(int, int, int) = by_warps ? warps_col : rows_col;
	for (int i = 0; i < R; i++) {
		const float *x = hx + (size_t)i * C, *w = hw + (size_t)i * C;
		ref[i] = ref[4 * R + i] = triton_order(x, 0, regs, warps, col);
		ref[R + i] = ref[i];
		ref[2 * R + i] = triton_order(w, 0, regs, warps, col);
		ref[3 * R + i] = triton_order(x, 1, regs, warps, col);
	}
	glrt_devptr dx = gt_upload(hx, n * 4), dw = gt_upload(hw, n * 4);
	glrt_devptr out = gt_poisoned((outs + MARGIN) * 4);
	gt_launched(k(NULL, 1, 1, 1, dx, dw, out), name);
	float *got = gt_download(out, (outs + MARGIN) * 4);
	char what[96];
	snprintf(what, sizeof what, "%s bit for bit in Triton's order, run %d", name, rep);
	gt_compare(r, what, GT_F32, got, ref, outs + MARGIN, (GtTol){0, 0, NULL});
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dw), "glrt_free");
	gt_check(glrt_free(out), "glrt_free");
	free(hx);
	free(hw);
	free(ref);
	free(got);
}

int
main(void)
{
	GtRun r;
	gt_start(&r, "cg_parity");
	static const struct {
		Launcher k;
		const char *name;
		int kind;   /* 0 f32 fused, 1 f32 strict, 2 f16, 3 bf16 */
	} ks[] = {
		{contract_f32, "contract_f32", 0}, {strict_f32, "strict_f32", 1},
		{contract_f16, "contract_f16", 2}, {contract_bf16, "contract_bf16", 3},
	};
	for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
		if (!ks[j].k) {
			gt_skip(&r, ks[j].name, "not compiled");
			continue;
		}
		for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++)
			for (int rep = 0; rep < 2; rep++) {
				if (ks[j].kind < 2)
					run_f32(&r, ks[j].k, ks[j].name, ks[j].kind == 0, lengths[l], rep);
				else
					run_half(&r, ks[j].k, ks[j].name, ks[j].kind == 3, lengths[l], rep);
			}
	}
	static const struct {
		Reducer k;
		const char *name;
	} rs[] = {{reduce_rows, "reduce_rows"}, {reduce_warps, "reduce_warps"}};
	for (int j = 0; j < 2; j++) {
		if (!rs[j].k) {
			gt_skip(&r, rs[j].name, "not compiled");
			continue;
		}
		for (int rep = 0; rep < 2; rep++)
			run_reduce(&r, rs[j].k, rs[j].name, j == 1, rep);
	}
	return gt_finish(&r);
}
