/* Helpers shared by the layout unit tests: building descriptions and
 * reading bases back as text. */
#ifndef TEST_LAYOUT_UTIL_H
#define TEST_LAYOUT_UTIL_H

#include "layout/layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* d built for the 2-D shape [s0, s1] (its first `rank` dims); an empty
 * layout, with the reason on stderr, when that fails. */
static inline LLayout
build_in(Arena *a, const LLDesc *d, int64_t s0, int64_t s1, int rank)
{
	int64_t shape[2] = {s0, s1};
	LLErr e = {a, NULL};
	LLayout l = ll_empty();
	if (!ll_build(d, shape, rank, 0, &l, &e))
		fprintf(stderr, "build failed: %s\n", e.msg);
	return l;
}

/* d built for shape[0..rank-1] into *l; false, with the reason on stderr,
 * when that fails. */
static inline bool
build_shape(Arena *a, const LLDesc *d, const int64_t *shape, int rank, LLayout *l)
{
	LLErr e = {a, NULL};
	*l = ll_empty();
	if (ll_build(d, shape, rank, 0, l, &e))
		return true;
	fprintf(stderr, "build failed: %s\n", e.msg);
	return false;
}

static inline LLInts
ints2(int64_t a, int64_t b)
{
	LLInts v = {0};
	v.n = 2, v.v[0] = a, v.v[1] = b;
	return v;
}

static inline LLInts
ints_n(int n, const int64_t *x)
{
	LLInts v = {0};
	v.n = n;
	for (int i = 0; i < n; i++)
		v.v[i] = x[i];
	return v;
}

static inline LLDesc
blocked(LLInts spt, LLInts tpw, LLInts wpc, LLInts order)
{
	LLDesc d;
	memset(&d, 0, sizeof d);
	d.kind = LL_BLOCKED;
	d.size_per_thread = spt, d.threads_per_warp = tpw, d.warps_per_cta = wpc, d.order = order;
	return d;
}

static inline LLDesc
nvmma(LLInts wpc, int n)
{
	LLDesc d;
	memset(&d, 0, sizeof d);
	d.kind = LL_NVMMA_DISTRIBUTED;
	d.version = ints2(3, 0);
	d.warps_per_cta = wpc;
	d.instr_shape.n = 3, d.instr_shape.v[0] = 16, d.instr_shape.v[1] = n, d.instr_shape.v[2] = 16;
	return d;
}

static inline LLDesc
nvmma_shared(int sw, int bw)
{
	LLDesc d;
	memset(&d, 0, sizeof d);
	d.kind = LL_NVMMA_SHARED;
	d.swizzle_byte_width = sw, d.element_bitwidth = bw, d.rank = 2;
	return d;
}

/* The bases of in-dim `name` as "[[a,b],[c,d]]" (static storage). */
static inline const char *
bases_str(const LLayout *l, LLName name)
{
	static char buf[4096];
	size_t n = 0;
	int i = ll_in_index(l, name);
	n += (size_t)snprintf(buf + n, sizeof buf - n, "[");
	for (int b = 0; i >= 0 && b < l->in_bits[i]; b++) {
		uint32_t v[LL_MAX_DIMS];
		ll_get_basis(l, i, b, v);
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s[", b ? "," : "");
		for (int j = 0; j < l->n_out; j++)
			n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%u", j ? "," : "", v[j]);
		n += (size_t)snprintf(buf + n, sizeof buf - n, "]");
	}
	snprintf(buf + n, sizeof buf - n, "]");
	return buf;
}

/* A deterministic generator (xorshift). */
static inline uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#endif
