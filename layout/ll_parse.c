/*
 * Reading a layout description back from its constructor text: the exact
 * inverse of ll_desc_print (every field that printer writes comes back,
 * the rest stays zero). Blanks between tokens are allowed, so hand-written
 * text such as `BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0])` reads too.
 */
#include "layout/ll_internal.h"

#include <limits.h>
#include <string.h>

enum { MAX_NESTING = 16 };   /* SliceLayout / DotOperandLayout parents */

typedef struct Cursor {
	const char *start, *p, *end;
	Arena *arena;
	LLErr *err;
	int depth;
} Cursor;

static void
blanks(Cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

static bool
is_word_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_';
}

/* The length of the identifier at the cursor (after blanks); 0 when none
 * starts there (identifiers do not start with a digit). */
static size_t
word_len(Cursor *c)
{
	blanks(c);
	if (c->p < c->end && *c->p >= '0' && *c->p <= '9')
		return 0;
	size_t n = 0;
	while (c->p + n < c->end && is_word_char(c->p[n]))
		n++;
	return n;
}

/* Consumes the word w when it is next. */
static bool
accept_word(Cursor *c, const char *w)
{
	size_t n = word_len(c);
	if (n != strlen(w) || memcmp(c->p, w, n) != 0)
		return false;
	c->p += n;
	return true;
}

static bool
accept(Cursor *c, char ch)
{
	blanks(c);
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return true;
	}
	return false;
}

static bool
expect(Cursor *c, char ch, const char *where)
{
	if (accept(c, ch))
		return true;
	return ll_fail(c->err, "expected '%c' %s", ch, where);
}

static bool
integer(Cursor *c, int64_t *out)
{
	blanks(c);
	const char *q = c->p;
	bool neg = q < c->end && *q == '-';
	if (neg)
		q++;
	if (q >= c->end || *q < '0' || *q > '9')
		return ll_fail(c->err, "expected an integer");
	uint64_t v = 0;
	for (; q < c->end && *q >= '0' && *q <= '9'; q++) {
		if (v > ((uint64_t)INT64_MAX - (uint64_t)(*q - '0')) / 10)
			return ll_fail(c->err, "this integer does not fit in 64 bits");
		v = v * 10 + (uint64_t)(*q - '0');
	}
	c->p = q;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

static bool
small_integer(Cursor *c, int *out)
{
	int64_t v;
	if (!integer(c, &v))
		return false;
	if (v < INT_MIN || v > INT_MAX)
		return ll_fail(c->err, "%lld is out of range here", (long long)v);
	*out = (int)v;
	return true;
}

/* ints -> '[' [integer (',' integer)*] ']' */
static bool
int_list(Cursor *c, LLInts *out)
{
	if (!expect(c, '[', "to open a list of integers"))
		return false;
	out->n = 0;
	if (accept(c, ']'))
		return true;
	do {
		if (out->n == LL_MAX_LIST)
			return ll_fail(c->err, "a list holds at most %d entries", LL_MAX_LIST);
		if (!integer(c, &out->v[out->n]))
			return false;
		out->n++;
	} while (accept(c, ','));
	return expect(c, ']', "to close the list");
}

/* bases -> '[' [ints (',' ints)*] ']' */
static bool
basis_list(Cursor *c, LLBases *out)
{
	if (!expect(c, '[', "to open a list of bases"))
		return false;
	out->n = 0;
	if (accept(c, ']'))
		return true;
	do {
		if (out->n == LL_MAX_LIST)
			return ll_fail(c->err, "a list holds at most %d bases", LL_MAX_LIST);
		if (!int_list(c, &out->b[out->n]))
			return false;
		out->n++;
	} while (accept(c, ','));
	return expect(c, ']', "to close the list of bases");
}

static bool
comma(Cursor *c)
{
	return expect(c, ',', "between arguments");
}

static bool desc(Cursor *c, const LLDesc **out);

/* `NAME=True` or `NAME=False` into *flag (NAME already read). */
static bool
bool_arg(Cursor *c, const char *name, bool *flag)
{
	if (!accept(c, '='))
		return ll_fail(c->err, "expected '=' after %s", name);
	if (accept_word(c, "True"))
		*flag = true;
	else if (!accept_word(c, "False"))
		return ll_fail(c->err, "%s= takes True or False", name);
	return true;
}

/* `cga_layout=BASES` (the word already read). */
static bool
cga_value(Cursor *c, LLDesc *d)
{
	return expect(c, '=', "after cga_layout") && basis_list(c, &d->cga_layout);
}

/* [, cga_layout=BASES] after the other arguments of the kinds with one. */
static bool
cga_arg(Cursor *c, LLDesc *d)
{
	if (!accept(c, ','))
		return true;
	if (!accept_word(c, "cga_layout"))
		return ll_fail(c->err, "expected cga_layout= after the arguments");
	return cga_value(c, d);
}

/* NVMMASharedLayout(swizzle, bitwidth [, rank=N] [, transposed=True|False]
 * [, fp4_padded=True|False] [, cga_layout=BASES]), the keywords in that
 * order. */
static bool
nvmma_shared_args(Cursor *c, LLDesc *d)
{
	d->rank = 2;
	if (!small_integer(c, &d->swizzle_byte_width) || !comma(c) ||
	    !small_integer(c, &d->element_bitwidth))
		return false;
	int next = 0;  /* 0: rank= may come, 1: transposed=, 2: fp4_padded=, 3: cga_layout=,
	                  4: none */
	while (accept(c, ',')) {
		if (next == 0 && accept_word(c, "rank")) {
			if (!expect(c, '=', "after rank") || !small_integer(c, &d->rank))
				return false;
			next = 1;
		} else if (next <= 1 && accept_word(c, "transposed")) {
			if (!bool_arg(c, "transposed", &d->transposed))
				return false;
			next = 2;
		} else if (next <= 2 && accept_word(c, "fp4_padded")) {
			if (!bool_arg(c, "fp4_padded", &d->fp4_padded))
				return false;
			next = 3;
		} else if (next <= 3 && accept_word(c, "cga_layout")) {
			if (!cga_value(c, d))
				return false;
			next = 4;
		} else {
			return ll_fail(c->err, "expected rank=, transposed=, fp4_padded= or cga_layout=, "
			                       "in that order");
		}
	}
	return true;
}

static bool
args(Cursor *c, LLDesc *d)
{
	switch (d->kind) {
	case LL_BLOCKED:
		return int_list(c, &d->size_per_thread) && comma(c) &&
		       int_list(c, &d->threads_per_warp) && comma(c) &&
		       int_list(c, &d->warps_per_cta) && comma(c) && int_list(c, &d->order) &&
		       cga_arg(c, d);
	case LL_SLICE:
		return small_integer(c, &d->dim) && comma(c) && desc(c, &d->parent);
	case LL_DOT_OPERAND:
		return small_integer(c, &d->operand_index) && comma(c) && desc(c, &d->parent) &&
		       comma(c) && small_integer(c, &d->k_width);
	case LL_NVMMA_DISTRIBUTED:
		return int_list(c, &d->version) && comma(c) && int_list(c, &d->warps_per_cta) &&
		       comma(c) && int_list(c, &d->instr_shape) && cga_arg(c, d);
	case LL_DISTRIBUTED_LINEAR:
		return basis_list(c, &d->reg_bases) && comma(c) && basis_list(c, &d->lane_bases) &&
		       comma(c) && basis_list(c, &d->warp_bases) && comma(c) &&
		       basis_list(c, &d->block_bases) && comma(c) && int_list(c, &d->shape);
	case LL_NVMMA_SHARED:
		return nvmma_shared_args(c, d);
	case LL_SWIZZLED_SHARED:
		return small_integer(c, &d->vec) && comma(c) && small_integer(c, &d->per_phase) &&
		       comma(c) && small_integer(c, &d->max_phase) && comma(c) &&
		       int_list(c, &d->order) && cga_arg(c, d);
	case LL_SHARED_LINEAR:
		return basis_list(c, &d->offset_bases) &&
		       (!accept(c, ',') || basis_list(c, &d->block_bases));
	case LL_PADDED_SHARED:
		return basis_list(c, &d->interval_padding_pairs) && comma(c) &&
		       basis_list(c, &d->offset_bases) && comma(c) && basis_list(c, &d->block_bases) &&
		       comma(c) && int_list(c, &d->shape);
	case LL_AUTO:
		return small_integer(c, &d->auto_id);
	}
	return false;
}

/* desc -> KindName '(' args ')' */
static bool
desc(Cursor *c, const LLDesc **out)
{
	if (c->depth >= MAX_NESTING)
		return ll_fail(c->err, "layouts nest more than %d deep", MAX_NESTING);
	size_t n = word_len(c);
	int kind = -1;
	for (int k = 0; k <= LL_AUTO; k++)
		if (strlen(ll_kind_name((LLKind)k)) == n && memcmp(c->p, ll_kind_name((LLKind)k), n) == 0)
			kind = k;
	if (kind < 0 && n)
		return ll_fail(c->err, "unknown layout '%.*s'", (int)n, c->p);
	if (kind < 0)
		return ll_fail(c->err, "expected a layout such as BlockedLayout(...)");
	c->p += n;
	LLDesc *d = arena_alloc(c->arena, sizeof *d);
	d->kind = (LLKind)kind;
	c->depth++;
	bool ok = expect(c, '(', "after the layout's name") && args(c, d) &&
	          expect(c, ')', "to close the layout");
	c->depth--;
	*out = d;
	return ok;
}

bool
ll_desc_parse(const char *s, size_t len, Arena *a, const LLDesc **out, size_t *consumed,
              LLErr *err)
{
	Cursor c = {s, s, s + len, a, err, 0};
	bool ok = desc(&c, out);
	if (!ok)
		*out = NULL;
	*consumed = (size_t)(c.p - c.start);
	return ok;
}
