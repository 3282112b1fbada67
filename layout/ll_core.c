/* The LLayout value: dims, bases, apply, product, compose and reshaping. */
#include "layout/ll_internal.h"

#include <string.h>

static const char *const names[LL_NAME_COUNT] = {
	"register", "lane", "warp", "block", "offset",
	"dim0", "dim1", "dim2", "dim3", "dim4",
};

const char *
ll_name_str(LLName n)
{
	return (unsigned)n < LL_NAME_COUNT ? names[n] : "?";
}

bool
ll_fail(LLErr *err, const char *fmt, ...)
{
	if (err && err->arena) {
		va_list ap;
		va_start(ap, fmt);
		err->msg = arena_vprintf(err->arena, fmt, ap);
		va_end(ap);
	}
	return false;
}

LLayout
ll_empty(void)
{
	LLayout l;
	memset(&l, 0, sizeof l);
	return l;
}

int
ll_in_index(const LLayout *l, LLName name)
{
	for (int i = 0; i < l->n_in; i++)
		if (l->in_name[i] == name)
			return i;
	return -1;
}

int
ll_out_index(const LLayout *l, LLName name)
{
	for (int j = 0; j < l->n_out; j++)
		if (l->out_name[j] == name)
			return j;
	return -1;
}

int
ll_in_bits(const LLayout *l, LLName name)
{
	int i = ll_in_index(l, name);
	return i < 0 ? 0 : l->in_bits[i];
}

int
ll_out_bits(const LLayout *l, LLName name)
{
	int j = ll_out_index(l, name);
	return j < 0 ? 0 : l->out_bits[j];
}

int
ll_in_start(const LLayout *l, int i)
{
	int s = 0;
	for (int k = 0; k < i; k++)
		s += l->in_bits[k];
	return s;
}

int
ll_out_shift(const LLayout *l, int j)
{
	int s = 0;
	for (int k = j + 1; k < l->n_out; k++)
		s += l->out_bits[k];
	return s;
}

int
ll_total_in_bits(const LLayout *l)
{
	return ll_in_start(l, l->n_in);
}

int
ll_total_out_bits(const LLayout *l)
{
	int s = 0;
	for (int j = 0; j < l->n_out; j++)
		s += l->out_bits[j];
	return s;
}

uint64_t
ll_out_mask(const LLayout *l, int j)
{
	int b = l->out_bits[j];
	uint64_t m = b >= 64 ? ~0ull : (1ull << b) - 1;
	return m << ll_out_shift(l, j);
}

int
ll_add_in(LLayout *l, LLName name, int bits)
{
	if (ll_in_index(l, name) >= 0 || l->n_in >= LL_MAX_DIMS || bits < 0 ||
	    ll_total_in_bits(l) + bits > LL_MAX_BITS)
		return -1;
	l->in_name[l->n_in] = (uint8_t)name;
	l->in_bits[l->n_in] = (uint8_t)bits;
	return l->n_in++;
}

int
ll_add_out(LLayout *l, LLName name, int bits)
{
	if (ll_out_index(l, name) >= 0 || l->n_out >= LL_MAX_DIMS || bits < 0 || bits > 31 ||
	    ll_total_out_bits(l) + bits > LL_MAX_BITS)
		return -1;
	/* The new dim takes the lowest packed bits. */
	for (int k = 0; k < LL_MAX_BITS; k++)
		l->col[k] = bits >= 64 ? 0 : l->col[k] << bits;
	l->out_name[l->n_out] = (uint8_t)name;
	l->out_bits[l->n_out] = (uint8_t)bits;
	return l->n_out++;
}

uint64_t
ll_pack_out(const LLayout *l, const uint32_t *v)
{
	uint64_t x = 0;
	for (int j = 0; j < l->n_out; j++)
		x |= ((uint64_t)v[j] << ll_out_shift(l, j)) & ll_out_mask(l, j);
	return x;
}

void
ll_unpack_out(const LLayout *l, uint64_t packed, uint32_t *v)
{
	for (int j = 0; j < l->n_out; j++)
		v[j] = (uint32_t)((packed & ll_out_mask(l, j)) >> ll_out_shift(l, j));
}

uint64_t
ll_pack_in(const LLayout *l, const uint32_t *v)
{
	uint64_t x = 0;
	for (int i = 0, s = 0; i < l->n_in; s += l->in_bits[i], i++)
		x |= (uint64_t)(v[i] & ((1ull << l->in_bits[i]) - 1)) << s;
	return x;
}

void
ll_unpack_in(const LLayout *l, uint64_t x, uint32_t *v)
{
	for (int i = 0, s = 0; i < l->n_in; s += l->in_bits[i], i++)
		v[i] = (uint32_t)((x >> s) & ((1ull << l->in_bits[i]) - 1));
}

void
ll_set_basis(LLayout *l, int i, int bit, const uint32_t *v)
{
	l->col[ll_in_start(l, i) + bit] = ll_pack_out(l, v);
}

void
ll_get_basis(const LLayout *l, int i, int bit, uint32_t *v)
{
	ll_unpack_out(l, l->col[ll_in_start(l, i) + bit], v);
}

LLayout
ll_identity_1d(int bits, LLName in, LLName out)
{
	LLayout l = ll_empty();
	ll_add_in(&l, in, bits);
	ll_add_out(&l, out, bits);
	for (int k = 0; k < bits; k++)
		l.col[k] = 1ull << k;
	return l;
}

LLayout
ll_zeros_1d(int bits, LLName in, LLName out)
{
	LLayout l = ll_empty();
	ll_add_in(&l, in, bits);
	ll_add_out(&l, out, 0);
	return l;
}

uint64_t
ll_apply_packed(const LLayout *l, uint64_t x)
{
	uint64_t y = 0;
	while (x) {
		int k = __builtin_ctzll(x);
		y ^= l->col[k];
		x &= x - 1;
	}
	return y;
}

void
ll_apply(const LLayout *l, const uint32_t *in, uint32_t *out)
{
	ll_unpack_out(l, ll_apply_packed(l, ll_pack_in(l, in)), out);
}

bool
ll_equal(const LLayout *a, const LLayout *b)
{
	if (a->n_in != b->n_in || a->n_out != b->n_out)
		return false;
	for (int i = 0; i < a->n_in; i++)
		if (a->in_name[i] != b->in_name[i] || a->in_bits[i] != b->in_bits[i])
			return false;
	for (int j = 0; j < a->n_out; j++)
		if (a->out_name[j] != b->out_name[j] || a->out_bits[j] != b->out_bits[j])
			return false;
	int n = ll_total_in_bits(a);
	return memcmp(a->col, b->col, (size_t)n * sizeof a->col[0]) == 0;
}

/* The packed output of `to` holding the values of src's packed output
 * `packed`, out-dims matched by name (missing ones read as 0), each value
 * shifted left by shift[j] of `to`'s dim j (NULL: no shift). */
static uint64_t
repack_out(const LLayout *src, uint64_t packed, const LLayout *to, const int *shift)
{
	uint32_t v[LL_MAX_DIMS], w[LL_MAX_DIMS];
	ll_unpack_out(src, packed, v);
	for (int j = 0; j < to->n_out; j++) {
		int k = ll_out_index(src, to->out_name[j]);
		w[j] = k < 0 ? 0 : v[k] << (shift ? shift[j] : 0);
	}
	return ll_pack_out(to, w);
}

bool
ll_product(const LLayout *a, const LLayout *b, LLayout *out, LLErr *err)
{
	LLayout r = ll_empty();
	for (int i = 0; i < a->n_in; i++)
		ll_add_in(&r, a->in_name[i], a->in_bits[i] + ll_in_bits(b, a->in_name[i]));
	for (int i = 0; i < b->n_in; i++)
		if (ll_in_index(a, b->in_name[i]) < 0 && ll_add_in(&r, b->in_name[i], b->in_bits[i]) < 0)
			return ll_fail(err, "layout product has too many input dims or bits");
	for (int j = 0; j < a->n_out; j++)
		ll_add_out(&r, a->out_name[j], a->out_bits[j] + ll_out_bits(b, a->out_name[j]));
	for (int j = 0; j < b->n_out; j++)
		if (ll_out_index(a, b->out_name[j]) < 0 && ll_add_out(&r, b->out_name[j], b->out_bits[j]) < 0)
			return ll_fail(err, "layout product has too many output dims or bits");
	if (ll_total_in_bits(&r) != ll_total_in_bits(a) + ll_total_in_bits(b) ||
	    ll_total_out_bits(&r) != ll_total_out_bits(a) + ll_total_out_bits(b))
		return ll_fail(err, "layout product exceeds %d bits", LL_MAX_BITS);
	int shift[LL_MAX_DIMS];
	for (int j = 0; j < r.n_out; j++)
		shift[j] = ll_out_bits(a, r.out_name[j]);
	for (int i = 0; i < r.n_in; i++) {
		int ia = ll_in_index(a, r.in_name[i]), ib = ll_in_index(b, r.in_name[i]);
		int base = ll_in_start(&r, i), na = 0;
		if (ia >= 0) {
			na = a->in_bits[ia];
			for (int k = 0; k < na; k++)
				r.col[base + k] = repack_out(a, a->col[ll_in_start(a, ia) + k], &r, NULL);
		}
		if (ib >= 0)
			for (int k = 0; k < b->in_bits[ib]; k++)
				r.col[base + na + k] =
					repack_out(b, b->col[ll_in_start(b, ib) + k], &r, shift);
	}
	*out = r;
	return true;
}

/* The packed input of `to` whose in-dims hold the values of src's out-dims
 * of the same names (src's packed output `packed`). */
static uint64_t
out_to_in(const LLayout *src, uint64_t packed, const LLayout *to)
{
	uint32_t v[LL_MAX_DIMS], w[LL_MAX_DIMS];
	ll_unpack_out(src, packed, v);
	for (int i = 0; i < to->n_in; i++) {
		int k = ll_out_index(src, to->in_name[i]);
		w[i] = k < 0 ? 0 : v[k];
	}
	return ll_pack_in(to, w);
}

/* True when l's out-dims are exactly `to`'s in-dims (names and sizes). */
static bool
outs_match_ins(const LLayout *l, const LLayout *to)
{
	if (l->n_out != to->n_in)
		return false;
	for (int j = 0; j < l->n_out; j++)
		if (ll_in_bits(to, l->out_name[j]) != l->out_bits[j] ||
		    ll_in_index(to, l->out_name[j]) < 0)
			return false;
	return true;
}

bool
ll_compose(const LLayout *l, const LLayout *outer, LLayout *out, LLErr *err)
{
	if (!outs_match_ins(l, outer))
		return ll_fail(err, "compose: the output dims of the inner layout do not match "
		                    "the input dims of the outer layout");
	LLayout r = ll_empty();
	for (int i = 0; i < l->n_in; i++)
		ll_add_in(&r, l->in_name[i], l->in_bits[i]);
	for (int j = 0; j < outer->n_out; j++)
		ll_add_out(&r, outer->out_name[j], outer->out_bits[j]);
	int n = ll_total_in_bits(l);
	for (int k = 0; k < n; k++)
		r.col[k] = ll_apply_packed(outer, out_to_in(l, l->col[k], outer));
	*out = r;
	return true;
}

bool
ll_sublayout(const LLayout *l, const LLName *ins, int n_ins, const LLName *outs, int n_outs,
             LLayout *out, LLErr *err)
{
	LLayout r = ll_empty();
	for (int j = 0; j < n_outs; j++) {
		int k = ll_out_index(l, outs[j]);
		if (k < 0 || ll_add_out(&r, outs[j], l->out_bits[k]) < 0)
			return ll_fail(err, "sublayout: no output dim %s", ll_name_str(outs[j]));
	}
	for (int i = 0; i < n_ins; i++) {
		int k = ll_in_index(l, ins[i]);
		if (k < 0 || ll_add_in(&r, ins[i], l->in_bits[k]) < 0)
			return ll_fail(err, "sublayout: no input dim %s", ll_name_str(ins[i]));
		int s = ll_in_start(l, k), d = ll_in_start(&r, i);
		for (int b = 0; b < l->in_bits[k]; b++)
			r.col[d + b] = repack_out(l, l->col[s + b], &r, NULL);
	}
	*out = r;
	return true;
}

bool
ll_transpose_outs(const LLayout *l, const int *perm, LLayout *out, LLErr *err)
{
	LLayout r = ll_empty();
	for (int i = 0; i < l->n_in; i++)
		ll_add_in(&r, l->in_name[i], l->in_bits[i]);
	for (int j = 0; j < l->n_out; j++) {
		int p = perm[j];
		if (p < 0 || p >= l->n_out || ll_add_out(&r, l->out_name[p], l->out_bits[p]) < 0)
			return ll_fail(err, "transpose: not a permutation of the output dims");
	}
	int n = ll_total_in_bits(l);
	for (int k = 0; k < n; k++)
		r.col[k] = repack_out(l, l->col[k], &r, NULL);
	*out = r;
	return true;
}

bool
ll_permute_outs(const LLayout *l, const int *perm, LLayout *out, LLErr *err)
{
	LLayout t;
	if (!ll_transpose_outs(l, perm, &t, err))
		return false;
	int bits[LL_MAX_DIMS];
	for (int j = 0; j < t.n_out; j++)
		bits[j] = t.out_bits[j];
	return ll_reshape_outs(&t, bits, t.n_out, out, err);
}

bool
ll_reshape_outs(const LLayout *l, const int *bits, int n, LLayout *out, LLErr *err)
{
	LLayout r = ll_empty();
	int total = 0;
	for (int i = 0; i < l->n_in; i++)
		ll_add_in(&r, l->in_name[i], l->in_bits[i]);
	if (n > LL_MAX_RANK)
		return ll_fail(err, "reshape: rank %d is above %d", n, LL_MAX_RANK);
	for (int j = 0; j < n; j++) {
		if (ll_add_out(&r, (LLName)(LL_DIM0 + j), bits[j]) < 0)
			return ll_fail(err, "reshape: bad size for dim%d", j);
		total += bits[j];
	}
	if (total != ll_total_out_bits(l))
		return ll_fail(err, "reshape: %d elements cannot become %d", 1 << ll_total_out_bits(l),
		               1 << total);
	memcpy(r.col, l->col, sizeof r.col);
	*out = r;
	return true;
}

LLayout
ll_remove_zero_bases(const LLayout *l, LLName name)
{
	int i = ll_in_index(l, name);
	if (i < 0)
		return *l;
	LLayout r = *l;
	int s = ll_in_start(l, i), n = ll_total_in_bits(l), w = s, kept = 0;
	for (int k = s; k < s + l->in_bits[i]; k++)
		if (l->col[k])
			r.col[w++] = l->col[k], kept++;
	for (int k = s + l->in_bits[i]; k < n; k++)
		r.col[w++] = l->col[k];
	while (w < LL_MAX_BITS)
		r.col[w++] = 0;
	r.in_bits[i] = (uint8_t)kept;
	return r;
}

bool
ll_quotient(const LLayout *l, LLName name, LLayout *out)
{
	int i = ll_in_index(l, name), j = ll_out_index(l, name);
	if (i < 0 && j < 0) {
		*out = *l;
		return true;
	}
	if (i < 0 || j < 0 || l->in_bits[i] != l->out_bits[j])
		return false;
	uint64_t m = ll_out_mask(l, j);
	int s = ll_in_start(l, i), sh = ll_out_shift(l, j), n = ll_total_in_bits(l);
	for (int k = 0; k < n; k++) {
		bool mine = k >= s && k < s + l->in_bits[i];
		uint64_t want = mine ? 1ull << (sh + k - s) : 0;
		if ((l->col[k] & m) != want || (mine && (l->col[k] & ~m)))
			return false;
	}
	LLName ins[LL_MAX_DIMS], outs[LL_MAX_DIMS];
	int ni = 0, no = 0;
	for (int k = 0; k < l->n_in; k++)
		if (k != i)
			ins[ni++] = (LLName)l->in_name[k];
	for (int k = 0; k < l->n_out; k++)
		if (k != j)
			outs[no++] = (LLName)l->out_name[k];
	return ll_sublayout(l, ins, ni, outs, no, out, NULL);
}

void
ll_shape_text(const int64_t *shape, int rank, const char *sep, StrBuf *b)
{
	buf_putc(b, '[');
	for (int i = 0; i < rank; i++)
		buf_printf(b, "%s%lld", i ? sep : "", (long long)shape[i]);
	buf_putc(b, ']');
}
