/*
 * GPU test of test/gpu/memory.gl (compiled with --debug): access qualifiers
 * and broadcast masks, the axis hints, cp.async (groups and mbarrier),
 * TMA copies of 1-D, 3-D and 5-D blocks, device_print and device_assert,
 * pointer casts (to other pointers, to and from integers) and full_like.
 * Inputs are random; outputs are poisoned, with margins that must stay
 * unwritten; shapes have tails (not multiples of the tiles); every case
 * runs twice. All results are exact (copies, and 2x + 1 or x + 1 of
 * values that make them exact).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"

#pragma weak mem_access
#pragma weak mem_hinted
#pragma weak async_f16
#pragma weak async_f32
#pragma weak tma_1d
#pragma weak tma_3d
#pragma weak tma_5d
#pragma weak mem_debug
#pragma weak mem_f8_other
#pragma weak mem_ptr_cast
#pragma weak mem_ptr_int
glrt_status mem_access(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr, int32_t,
                   int32_t, int32_t);
glrt_status mem_hinted(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr, int32_t,
                   int32_t);
glrt_status async_f16(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                      int32_t, int32_t, int32_t, int32_t);
glrt_status async_f32(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                      int32_t, int32_t, int32_t, int32_t);
glrt_status tma_1d(glrt_stream, unsigned, unsigned, unsigned, const glrt_tensor_map *,
                   const glrt_tensor_map *);
glrt_status tma_3d(glrt_stream, unsigned, unsigned, unsigned, const glrt_tensor_map *,
                   const glrt_tensor_map *);
glrt_status tma_5d(glrt_stream, unsigned, unsigned, unsigned, const glrt_tensor_map *,
                   const glrt_tensor_map *);
glrt_status mem_debug(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr, int32_t);
glrt_status mem_f8_other(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                         glrt_devptr, int32_t);
glrt_status mem_ptr_cast(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                         glrt_devptr);
glrt_status mem_ptr_int(glrt_stream, unsigned, unsigned, unsigned, glrt_devptr, glrt_devptr,
                        glrt_devptr);

/* `count` random f32 values; exact[] receives them. */
static float *
random_f32(GtRun *r, size_t count, double *exact)
{
	float *h = gt_alloc(count * 4);
	gt_fill(r, GT_F32, h, exact, count, -100, 100);
	return h;
}

static void
check_f32(GtRun *r, const char *what, glrt_devptr dev, const double *ref, size_t n)
{
	float *got = gt_download(dev, n * 4);
	gt_compare(r, what, GT_F32, got, ref, n, (GtTol){0, 0, NULL});
	free(got);
}

/* access: M x NS outputs of a rows x stride buffer. */
static void
run_access(GtRun *r, size_t m, size_t n, size_t ns, int rep)
{
	size_t stride = (ns + 63) / 64 * 64 + 4, total = m * stride;
	double *x = gt_alloc(total * sizeof *x), *ref = gt_alloc(total * sizeof *ref);
	float *hx = random_f32(r, total, x);
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < stride; j++)
			ref[i * stride + j] = j >= ns ? GT_UNWRITTEN
			                    : j < n ? (float)(2 * x[i * stride + j] + 1) : -1;
	glrt_devptr dx = gt_upload(hx, total * 4), dy = gt_poisoned(total * 4);
	gt_launched(mem_access(NULL, (unsigned)(m / 32), gt_cdiv(ns, 64), 1, dx, dy, (int32_t)n,
	                   (int32_t)ns, (int32_t)stride), "mem_access");
	char what[96];
	snprintf(what, sizeof what, "mem_access M=%zu N=%zu NS=%zu run %d", m, n, ns, rep);
	check_f32(r, what, dy, ref, total);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(x);
	free(ref);
	free(hx);
}

/* f8 `other` values and constants (FOUND 011), the first n of 256 read. */
static void
run_f8_other(GtRun *r, size_t n, int rep)
{
	double a[256], b[256], ref[768];
	unsigned char ha[256], hb[256];
	gt_fill(r, GT_E4M3, ha, a, 256, -8, 8);
	gt_fill(r, GT_E5M2, hb, b, 256, -8, 8);
	for (size_t i = 0; i < 256; i++) {
		ref[i] = i < n ? a[i] : 0.375;
		ref[256 + i] = i < n ? b[i] : -1.5;
		ref[512 + i] = 448;
	}
	glrt_devptr da = gt_upload(ha, 256), db = gt_upload(hb, 256), dy = gt_poisoned(768 * 4);
	gt_launched(mem_f8_other(NULL, 1, 1, 1, da, db, dy, (int32_t)n), "mem_f8_other");
	char what[96];
	snprintf(what, sizeof what, "mem_f8_other n=%zu run %d", n, rep);
	check_f32(r, what, dy, ref, 768);
	gt_check(glrt_free(da), "glrt_free");
	gt_check(glrt_free(db), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
}

/* Pointer casts: the bytes of 128 floats read as u8 (compared as the
 * floats' 32-bit patterns), 512 i32 written through f32 pointers. */
static void
run_ptr_cast(GtRun *r, int rep)
{
	double x[128], ref_bytes[128], ref_ints[512];
	float *hx = random_f32(r, 128, x);
	for (size_t i = 0; i < 128; i++) {
		int32_t w;
		memcpy(&w, &hx[i], 4);
		ref_bytes[i] = w;
	}
	for (size_t i = 0; i < 512; i++)
		ref_ints[i] = (double)i;
	glrt_devptr dx = gt_upload(hx, 512), dy = gt_poisoned(512), dz = gt_poisoned(512 * 4);
	gt_launched(mem_ptr_cast(NULL, 1, 1, 1, dx, dy, dz), "mem_ptr_cast");
	void *bytes = gt_download(dy, 512), *ints = gt_download(dz, 512 * 4);
	char what[96];
	snprintf(what, sizeof what, "mem_ptr_cast bytes run %d", rep);
	gt_compare(r, what, GT_I32, bytes, ref_bytes, 128, (GtTol){0, 0, NULL});
	snprintf(what, sizeof what, "mem_ptr_cast ints run %d", rep);
	gt_compare(r, what, GT_I32, ints, ref_ints, 512, (GtTol){0, 0, NULL});
	free(bytes);
	free(ints);
	free(hx);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	gt_check(glrt_free(dz), "glrt_free");
}

/* Pointer-integer casts and full_like: 512 byte offsets (4 i) and
 * x[4 + i] + 0.5 read through a pointer made from an integer. */
static void
run_ptr_int(GtRun *r, int rep)
{
	double x[516], ref_y[512], ref_d[512];
	float *hx = random_f32(r, 516, x);
	for (size_t i = 0; i < 512; i++) {
		ref_y[i] = (float)(x[4 + i] + 0.5);
		ref_d[i] = 4.0 * (double)i;
	}
	glrt_devptr dx = gt_upload(hx, 516 * 4), dy = gt_poisoned(512 * 4), dd = gt_poisoned(512 * 8);
	gt_launched(mem_ptr_int(NULL, 1, 1, 1, dx, dy, dd), "mem_ptr_int");
	char what[96];
	snprintf(what, sizeof what, "mem_ptr_int loads through an int64 made a pointer run %d", rep);
	check_f32(r, what, dy, ref_y, 512);
	void *offs = gt_download(dd, 512 * 8);
	snprintf(what, sizeof what, "mem_ptr_int pointers as int64 run %d", rep);
	gt_compare(r, what, GT_I64, offs, ref_d, 512, (GtTol){0, 0, NULL});
	free(offs);
	free(hx);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	gt_check(glrt_free(dd), "glrt_free");
}

static void
run_hinted(GtRun *r, size_t n, size_t s, int rep)
{
	size_t total = s + n + 512;
	double *x = gt_alloc(n * sizeof *x), *ref = gt_alloc(total * sizeof *ref);
	float *hx = random_f32(r, n, x);
	for (size_t i = 0; i < total; i++)
		ref[i] = i >= s && i < s + n ? (float)(x[i - s] + 1) : GT_UNWRITTEN;
	glrt_devptr dx = gt_upload(hx, n * 4), dy = gt_poisoned(total * 4);
	gt_launched(mem_hinted(NULL, gt_cdiv(n, 512), 1, 1, dx, dy, (int32_t)n, (int32_t)s), "mem_hinted");
	char what[96];
	snprintf(what, sizeof what, "mem_hinted n=%zu s=%zu run %d", n, s, rep);
	check_f32(r, what, dy, ref, total);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(x);
	free(ref);
	free(hx);
}

/* cp.async copies of an m x n matrix (row stride sx) into one of stride
 * sy; f16 (64 x 64 tiles, groups) or f32 (32 x 64 tiles, mbarrier). */
static void
run_async(GtRun *r, GtType t, size_t m, size_t n, size_t sx, size_t sy, int rep)
{
	size_t es = gt_size(t), tm = t == GT_F16 ? 64 : 32;
	double *x = gt_alloc(m * sx * sizeof *x), *ref = gt_alloc((m + 1) * sy * sizeof *ref);
	void *hx = gt_alloc(m * sx * es);
	gt_fill(r, t, hx, x, m * sx, -100, 100);
	for (size_t i = 0; i < (m + 1) * sy; i++)
		ref[i] = i / sy < m && i % sy < n ? x[i / sy * sx + i % sy] : GT_UNWRITTEN;
	glrt_devptr dx = gt_upload(hx, m * sx * es), dy = gt_poisoned((m + 1) * sy * es);
	const char *name = t == GT_F16 ? "async_f16" : "async_f32";
	gt_launched((t == GT_F16 ? async_f16 : async_f32)(NULL, gt_cdiv(m, tm), gt_cdiv(n, 64), 1, dx,
	                                                    dy, (int32_t)m, (int32_t)n,
	                                                    (int32_t)sx, (int32_t)sy), name);
	void *got = gt_download(dy, (m + 1) * sy * es);
	char what[96];
	snprintf(what, sizeof what, "%s %zux%zu strides %zu, %zu run %d", name, m, n, sx, sy, rep);
	gt_compare(r, what, t, got, ref, (m + 1) * sy, (GtTol){0, 0, NULL});
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(x);
	free(ref);
	free(hx);
	free(got);
}

/* b = a through TMA blocks of `block`, for a dense tensor of `shape`
 * (rank dims, tensor order), swizzled `sw` bytes; grid as the kernel
 * wants it. Elements of a poisoned copy past the tensor stay unwritten. */
static void
run_tma(GtRun *r, const char *name, GtType t, unsigned rank, const uint64_t *shape,
        const uint32_t *block, unsigned sw, const unsigned *grid, int rep)
{
	size_t count = 1, es = gt_size(t);
	uint64_t strides[5];
	for (unsigned d = rank; d-- > 0;) {
		strides[d] = count;
		count *= shape[d];
	}
	double *x = gt_alloc(count * sizeof *x), *ref = gt_alloc((count + 256) * sizeof *ref);
	void *hx = gt_alloc(count * es);
	gt_fill(r, t, hx, x, count, -100, 100);
	for (size_t i = 0; i < count + 256; i++)
		ref[i] = i < count ? x[i] : GT_UNWRITTEN;
	glrt_devptr da = gt_upload(hx, count * es), db = gt_poisoned((count + 256) * es);
	glrt_tensor_map ma, mb;
	glrt_nvmma_layout layout = {sw, (unsigned)es * 8, 0};
	glrt_tma_dtype dt = t == GT_F16 ? GLRT_TMA_F16 : GLRT_TMA_F32;
	gt_check(glrt_tensor_map_encode_nvmma(&ma, dt, rank, da, shape, strides, block, &layout,
	                                      GLRT_OOB_ZERO), "glrt_tensor_map_encode_nvmma");
	gt_check(glrt_tensor_map_encode_nvmma(&mb, dt, rank, db, shape, strides, block, &layout,
	                                      GLRT_OOB_ZERO), "glrt_tensor_map_encode_nvmma");
	glrt_status (*fn)(glrt_stream, unsigned, unsigned, unsigned, const glrt_tensor_map *,
	                  const glrt_tensor_map *) = rank == 1 ? tma_1d : rank == 3 ? tma_3d : tma_5d;
	gt_launched(fn(NULL, grid[0], grid[1], grid[2], &ma, &mb), name);
	void *got = gt_download(db, (count + 256) * es);
	char what[96];
	snprintf(what, sizeof what, "%s %zu elements run %d", name, count, rep);
	gt_compare(r, what, t, got, ref, count + 256, (GtTol){0, 0, NULL});
	gt_check(glrt_free(da), "glrt_free");
	gt_check(glrt_free(db), "glrt_free");
	free(x);
	free(ref);
	free(hx);
	free(got);
}

static void
run_tmas(GtRun *r, int rep)
{
	static const uint64_t s1[] = {1000}, s3[] = {3, 20, 200}, s5[] = {2, 3, 3, 12, 40};
	static const uint32_t b1[] = {256}, b3[] = {2, 8, 64}, b5[] = {1, 2, 2, 8, 32};
	const unsigned g1[] = {4, 1, 1}, g3[] = {4, 3, 2}, g5[] = {2, 4, 4};
	if (tma_1d)
		run_tma(r, "tma_1d", GT_F32, 1, s1, b1, 0, g1, rep);
	if (tma_3d)
		run_tma(r, "tma_3d", GT_F16, 3, s3, b3, 128, g3, rep);
	if (tma_5d)
		run_tma(r, "tma_5d", GT_F32, 5, s5, b5, 128, g5, rep);
}

/* device_print output goes to standard output; the assertions hold. */
static void
run_debug(GtRun *r, size_t n, int rep)
{
	double *x = gt_alloc(64 * sizeof *x), *ref = gt_alloc(64 * sizeof *ref);
	float *hx = random_f32(r, 64, x);
	for (size_t i = 0; i < 64; i++)
		ref[i] = i < n ? x[i] : GT_UNWRITTEN;
	glrt_devptr dx = gt_upload(hx, 64 * 4), dy = gt_poisoned(64 * 4);
	printf("-- device_print output (n=%zu):\n", n);
	fflush(stdout);
	gt_launched(mem_debug(NULL, 1, 1, 1, dx, dy, (int32_t)n), "mem_debug");
	char what[96];
	snprintf(what, sizeof what, "mem_debug (device_print, device_assert) n=%zu run %d", n, rep);
	check_f32(r, what, dy, ref, 64);
	gt_check(glrt_free(dx), "glrt_free");
	gt_check(glrt_free(dy), "glrt_free");
	free(x);
	free(ref);
	free(hx);
}

int
main(void)
{
	GtRun r;

	gt_start(&r, "memory");
	for (int rep = 1; rep <= 2; rep++) {
		if (mem_access) {
			run_access(&r, 64, 100, 130, rep);
			run_access(&r, 96, 64, 64, rep);
		}
		if (mem_hinted) {
			run_hinted(&r, 1024, 4, rep);
			run_hinted(&r, 2064, 36, rep);
		}
		if (async_f16) {
			run_async(&r, GT_F16, 100, 130, 136, 144, rep);
			run_async(&r, GT_F16, 64, 64, 64, 72, rep);
			run_async(&r, GT_F16, 70, 33, 35, 40, rep);
		}
		if (async_f32) {
			run_async(&r, GT_F32, 100, 130, 132, 136, rep);
			run_async(&r, GT_F32, 33, 17, 17, 19, rep);
		}
		if (mem_ptr_cast)
			run_ptr_cast(&r, rep);
		if (mem_ptr_int)
			run_ptr_int(&r, rep);
		if (mem_f8_other) {
			run_f8_other(&r, 100, rep);
			run_f8_other(&r, 0, rep);
		}
		run_tmas(&r, rep);
		if (mem_debug)
			run_debug(&r, rep == 1 ? 32 : 7, rep);
	}
	const char *names[] = {"mem_access", "mem_hinted", "async_f16", "async_f32", "tma_1d", "tma_3d",
	                       "tma_5d", "mem_debug", "mem_f8_other", "mem_ptr_cast",
	                       "mem_ptr_int"};
	const void *fns[] = {(const void *)mem_access, (const void *)mem_hinted, (const void *)async_f16,
	                     (const void *)async_f32, (const void *)tma_1d, (const void *)tma_3d,
	                     (const void *)tma_5d, (const void *)mem_debug, (const void *)mem_f8_other,
	                     (const void *)mem_ptr_cast, (const void *)mem_ptr_int};
	for (size_t k = 0; k < sizeof fns / sizeof *fns; k++)
		if (!fns[k])
			gt_skip(&r, names[k], "not compiled by glc (no launcher linked)");
	return gt_finish(&r);
}
