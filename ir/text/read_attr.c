/*
 * Reading an instruction's attributes: `KEY=VALUE` for the keys the
 * operation has (ir_op_attrs) and its flags (`async`, `trivial`, ...), each
 * at most once; an attribute the operation does not have is an error at
 * its key.
 */
#include "ir/text/read.h"

/* The attribute keys of the text and the IrAttr that allows each. */
static const struct { const char *key; unsigned attr; } keys[] = {
	{"axis", IA_AXIS}, {"combine", IA_COMBINE}, {"start", IA_RANGE}, {"end", IA_RANGE},
	{"count", IA_COUNT}, {"alloc", IA_ALLOC}, {"offset", IA_VIEW}, {"stride", IA_VIEW},
	{"plan", IA_PLAN}, {"scratch", IA_PLAN}, {"max_num_imprecise_acc", IA_IMPRECISE},
	/* from here on: read by more_attr_value */
	{"rounding", IA_ROUND}, {"cache", IA_ACCESS}, {"evict", IA_ACCESS}, {"values", IA_HINT},
	{NULL, IA_TEXT}, {"constraints", IA_ASM}, {"pack", IA_PACK}, {"index", IA_INDEX},
	{"order", IA_ORDER}, {"rmw", IA_RMW}, {"sem", IA_SEM}, {"scope", IA_SEM},
};
enum { FIRST_MORE_KEY = 11 };

/* The flags of the text and the IrAttr that allows each. */
static const struct { const char *name; unsigned attr; } flag_words[] = {
	{"async", IA_ASYNC}, {"trivial", IA_TRIVIAL}, {"propagate_nan", IA_NAN},
	{"volatile", IA_ACCESS}, {"pure", IA_ASM}, {"hex", IA_HEX}, {"reverse", IA_REVERSE},
	{"nan_fill", IA_NANFILL}, {"soft", IA_TRIVIAL},
};

static void
set_flag_attr(TInst *i, int k)
{
	bool *fields[] = {&i->attr.is_async, &i->attr.trivial, &i->attr.propagate_nan,
	                  &i->attr.is_volatile, &i->attr.is_pure, &i->attr.hex, &i->attr.reverse,
	                  &i->attr.nan_fill, &i->attr.soft};
	*fields[k] = true;
}

/* The key spelled by the current word for op (IA_TEXT's depends on op). */
static bool
is_key(const Reader *r, TOp op, int k)
{
	return rd_is_word(r, keys[k].key ? keys[k].key : ir_text_key(op));
}

/* One of the n names name(0..n-1) as a word into *out. */
static bool
named(Reader *r, const char *key, const char *(*name)(int), int n, int *out)
{
	for (int k = 0; k < n; k++)
		if (rd_word(r, name(k))) {
			*out = k;
			return true;
		}
	return rd_error(r, "%s= takes %s ... %s, not %s", key, name(0), name(n - 1), rd_found(r));
}

static const char *
rmw_name(int k)
{
	return ir_atomic_name((TAtomicOp)k);
}

static const char *
sem_name(int k)
{
	return ir_sem_name((TMemSem)k);
}

static const char *
scope_name(int k)
{
	return ir_scope_name((TMemScope)k);
}

/* order=[N, ...] (a permutation: the verifier checks it). */
static bool
order(Reader *r, TInst *i)
{
	int n = 0;
	if (!rd_expect_punct(r, '['))
		return false;
	do {
		if (n == LL_MAX_RANK)
			return rd_error(r, "order= lists at most %d dimensions", LL_MAX_RANK);
		if (!rd_int(r, 0, LL_MAX_RANK - 1, "a dimension", &i->attr.order[n++]))
			return false;
	} while (rd_punct(r, ','));
	return rd_expect_punct(r, ']');
}

/* The values of the keys past the original ones. */
static bool
more_attr_value(Reader *r, TInst *i, int key)
{
	int64_t v;
	int rank;
	switch (key - FIRST_MORE_KEY) {
	case 0:
		for (TRound k = RND_RTNE; k <= RND_RTZ; k++)
			if (rd_word(r, ir_round_name(k))) {
				i->attr.round = k;
				return true;
			}
		return rd_error(r, "rounding= takes rtne or rtz");
	case 1:
		for (TCache k = CACHE_CA; k <= CACHE_WT; k++)
			if (rd_word(r, ir_cache_name(k))) {
				i->attr.cache = k;
				return true;
			}
		return rd_error(r, "cache= takes ca, cg, cs, cv, wb or wt");
	case 2:
		i->attr.evict = rd_word(r, "first") ? EVICT_FIRST : rd_word(r, "last") ? EVICT_LAST
		                                                                        : EVICT_NORMAL;
		return i->attr.evict || rd_error(r, "evict= takes first or last");
	case 3:
		return rd_shape(r, i->attr.hint, &rank);
	case 4: case 5:
		if (r->tok.kind != TK_STRING)
			return rd_error(r, "expected a string, found %s", rd_found(r));
		*(key - FIRST_MORE_KEY == 4 ? &i->attr.text : &i->attr.text2) = r->tok.str;
		rd_next(r);
		return true;
	case 6:
		if (!rd_int(r, 1, 64, "pack", &v))
			return false;
		i->attr.pack = (int)v;
		return true;
	case 7:
		if (!rd_int(r, 0, 1 << 20, "index", &v))
			return false;
		i->attr.index = (int)v;
		return true;
	case 8: return order(r, i);
	case 9: return named(r, "rmw", rmw_name, AT_COUNT, (int *)&i->attr.rmw);
	case 10: return named(r, "sem", sem_name, SEM_COUNT, (int *)&i->attr.sem);
	default: return named(r, "scope", scope_name, SCOPE_COUNT, (int *)&i->attr.scope);
	}
}

/* The value of attribute keys[key]; plan= and scratch= are read and dropped
 * (the cvt-plan pass computes the plan again). */
static bool
attr_value(Reader *r, TInst *i, int key)
{
	int64_t v;
	if (key >= FIRST_MORE_KEY)
		return more_attr_value(r, i, key);
	switch (key) {
	case 0:
		if (!rd_int(r, 0, LL_MAX_RANK, "axis", &v))
			return false;
		i->attr.axis = (int)v;
		return true;
	case 1:
		for (TOp op = OP_ADD; op < OP_COUNT; op++)
			if (ir_combine_op(op) && rd_word(r, ir_op_name(op))) {
				i->attr.combine = op;
				return true;
			}
		return rd_error(r, "combine= takes add, max, min, and, or or xor");
	case 2: return rd_int(r, INT64_MIN, INT64_MAX, "start", &i->attr.lo);
	case 3: return rd_int(r, INT64_MIN, INT64_MAX, "end", &i->attr.hi);
	case 4: return rd_int(r, INT64_MIN, INT64_MAX, "count", &i->attr.count);
	case 5:
		if (!rd_int(r, 0, INT32_MAX, "alloc", &v))
			return false;
		i->attr.alloc = (int)v;
		return true;
	case 6: return rd_int(r, INT64_MIN, INT64_MAX, "offset", &i->attr.offset);
	case 7: return rd_int(r, INT64_MIN, INT64_MAX, "stride", &i->attr.stride);
	case 8:
		for (int k = LL_CVT_FREE; k <= LL_CVT_SHARED; k++)
			if (rd_word(r, ll_cvt_kind_str((LLCvtKind)k)))
				return true;
		return rd_error(r, "plan= takes free, shuffle or shared");
	case 9: return rd_int(r, 0, INT64_MAX, "scratch", &v);
	default: return rd_int(r, 0, INT32_MAX, "max_num_imprecise_acc", &i->attr.count);
	}
}

bool
rd_attrs(Reader *r, TInst *i)
{
	unsigned allowed = ir_op_attrs(i->op), seen = 0;
	for (;;) {
		Token at = r->tok;
		int flag = -1;
		for (int k = 0; k < (int)(sizeof flag_words / sizeof *flag_words); k++)
			if (rd_is_word(r, flag_words[k].name))
				flag = k;
		if (flag >= 0) {
			if (!(allowed & flag_words[flag].attr))
				return rd_error(r, "'%s' has no flag '%s'", ir_op_name(i->op),
				                flag_words[flag].name);
			set_flag_attr(i, flag);
			rd_next(r);
			continue;
		}
		if (!rd_word_then(r, '='))
			return true;
		int key = -1;
		for (int k = 0; k < (int)(sizeof keys / sizeof *keys); k++)
			if (is_key(r, i->op, k))
				key = k;
		if (key < 0 || !(allowed & keys[key].attr))
			return rd_error(r, "'%s' has no attribute '%.*s'", ir_op_name(i->op),
			                (int)at.n, at.s);
		if (seen & (1u << key))
			return rd_error(r, "'%.*s' is given twice", (int)at.n, at.s);
		seen |= 1u << key;
		rd_next(r);
		if (!rd_expect_punct(r, '=') || !attr_value(r, i, key))
			return false;
	}
}
