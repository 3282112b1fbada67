/*
 * What the libglrt tests share: a check that a call failed with a given
 * status and error text, and a valid tensor-map description.
 */
#ifndef RUNTIME_TEST_H
#define RUNTIME_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "runtime/glrt.h"
#include "test/unit/check.h"

/* Whether `hay` contains `needle`, reporting the text when not. */
static inline int
has(const char *hay, const char *needle)
{
	if (hay && strstr(hay, needle))
		return 1;
	fprintf(stderr, "  text \"%s\"\n  lacks \"%s\"\n", hay ? hay : "(null)",
	        needle);
	return 0;
}

/* Checks that a call failed with `want` and an error text holding `text`. */
#define CHECK_FAIL(want, call, text)                                       \
	do {                                                               \
		CHECK_EQ(want, call);                                      \
		CHECK(has(glrt_last_error(), text));                       \
	} while (0)

/* A valid 2-D fp16 [rows=64, cols=128] description, in TMA order. */
typedef struct TmaArgs {
	glrt_tma_dtype dtype;
	unsigned rank;
	glrt_devptr addr;
	uint64_t dims[5], strides[4];
	uint32_t box[5], estrides[5];
	unsigned swizzle, l2;
	glrt_oob_fill fill;
} TmaArgs;

static inline TmaArgs
tma_ok(void)
{
	TmaArgs a = {
		GLRT_TMA_F16, 2, 0x10000, { 128, 64 }, { 256 }, { 64, 32 },
		{ 1, 1 }, 128, 128, GLRT_OOB_ZERO
	};

	return a;
}

static inline glrt_status
encode(glrt_tensor_map *m, const TmaArgs *a)
{
	return glrt_tensor_map_encode_tiled(m, a->dtype, a->rank, a->addr,
	                                    a->dims, a->strides, a->box,
	                                    a->estrides, a->swizzle, a->l2,
	                                    a->fill);
}

#endif
