/*
 * Reading instructions and blocks:
 *
 *   inst  -> [%N '='] OP attrs operands [':' type] [loc] [layout_loc] [nested] NL
 *   attrs -> (KEY '=' VALUE | 'async')*        (the keys ir_op_attrs allows)
 *   operands -> [$var [',']] [operand (',' operand)*]
 *   operand  -> %N | LABEL %N | '[' %N (',' %N)* ']'   (TMA coordinates)
 *
 * with `const LITERAL`, `param NAME` and `for $v = %lo to %hi step %s` as
 * their own forms; nested blocks open with '{' at the end of the line:
 * `} else {`, `} do {` (a while's body after its condition block, which
 * ends in `condition %N`), `partition I FN warps=.. regs=.. first_warp=.. {` and
 * a reduce's or scan's `combine(%N: TYPE, ...) {` (its region's values).
 * A value is used after the line that defines it; operand labels and
 * attributes must be the ones the operation has.
 */
#include "ir/text/read.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OPERANDS = 16 };

static TValue *
use(Reader *r)
{
	if (r->tok.kind != TK_VALUE) {
		rd_error(r, "expected a value (%%N), found %s", rd_found(r));
		return NULL;
	}
	int64_t id = r->tok.i;
	if ((size_t)id >= r->values.len || !r->values.data[id]) {
		rd_error(r, "%%%lld is not defined above", (long long)id);
		return NULL;
	}
	rd_next(r);
	return r->values.data[id];
}

static TVar *
var(Reader *r)
{
	if (r->tok.kind != TK_VAR || (size_t)r->tok.i >= r->vars.len) {
		rd_error(r, "expected a variable declared in the kernel ($N), found %s", rd_found(r));
		return NULL;
	}
	TVar *v = r->vars.data[r->tok.i];
	rd_next(r);
	return v;
}

/* An operand's label: the flag of i it stands for. */
static bool
set_flag(Reader *r, TInst *i, const Token *label)
{
	static const char *const names[] = {"mask", "other", "pred", "use_acc"};
	bool *flags[] = {&i->attr.has_mask, &i->attr.has_other, &i->attr.has_pred,
	                 &i->attr.has_use_acc};
	for (int k = 0; k < 4; k++)
		if (label->n == strlen(names[k]) && memcmp(label->s, names[k], label->n) == 0) {
			*flags[k] = true;
			return true;
		}
	return rd_error_at(r, label, "unknown operand label '%.*s' (mask, other, pred, use_acc)",
	                   (int)label->n, label->s);
}

/* operands -> [operand (',' operand)*]; labels must be where the op has them. */
static bool
operands(Reader *r, TInst *i)
{
	TValue *args[MAX_OPERANDS];
	Token at[MAX_OPERANDS], label[MAX_OPERANDS];
	int n = 0;
	bool more = r->tok.kind == TK_VALUE || rd_word_then(r, '%') ||
	            (r->tok.kind == TK_PUNCT && r->tok.ch == '[');
	while (more) {
		if (n == MAX_OPERANDS)
			return rd_error(r, "more than %d operands", MAX_OPERANDS);
		if (rd_punct(r, '[')) {
			if (!ir_op_has_coords(i->op))
				return rd_error(r, "'%s' takes no coordinates", ir_op_name(i->op));
			int first = n;
			do {
				if (n == MAX_OPERANDS)
					return rd_error(r, "more than %d operands", MAX_OPERANDS);
				at[n] = r->tok;
				label[n].n = 0;
				if (!(args[n++] = use(r)))
					return false;
			} while (rd_punct(r, ','));
			i->attr.n_coords = n - first;
			if (!rd_expect_punct(r, ']'))
				return false;
			break;
		}
		label[n].n = 0;
		if (r->tok.kind == TK_WORD) {
			label[n] = r->tok;
			if (!set_flag(r, i, &label[n]))
				return false;
			rd_next(r);
		}
		at[n] = r->tok;
		if (!(args[n++] = use(r)))
			return false;
		more = rd_punct(r, ',');
	}
	memcpy(ir_inst_operands(r->a, i, n), args, (size_t)n * sizeof *args);
	for (int k = 0; k < n - i->attr.n_coords; k++) {
		const char *want = ir_arg_label(i, k);
		const Token *got = &label[k];
		bool same = want ? got->n == strlen(want) && memcmp(got->s, want, got->n) == 0
		                 : got->n == 0;
		if (same)
			continue;
		if (!want)
			return rd_error_at(r, got, "operand %d of '%s' takes no label", k,
			                   ir_op_name(i->op));
		return rd_error_at(r, got->n ? got : &at[k], "operand %d of '%s' is '%s %%N' here", k,
		                   ir_op_name(i->op), want);
	}
	return true;
}

/* The extent of a numeric literal at q: [-](inf | nan[(0xHEX)] | digits
 * [.digits][e[+-]digits]). */
static const char *
literal_end(const char *q, const char *end)
{
	if (q < end && *q == '-')
		q++;
	if (end - q >= 3 && memcmp(q, "inf", 3) == 0)
		return q + 3;
	if (end - q >= 3 && memcmp(q, "nan", 3) == 0) {
		q += 3;
		if (end - q >= 3 && memcmp(q, "(0x", 3) == 0) {
			const char *h = q + 3;
			while (h < end && ((*h >= '0' && *h <= '9') || (*h >= 'a' && *h <= 'f')))
				h++;
			if (h < end && *h == ')')
				return h + 1;
		}
		return q;
	}
	const char *s = q;
	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q == s)
		return s;
	if (end - q >= 2 && *q == '.' && q[1] >= '0' && q[1] <= '9')
		for (q++; q < end && *q >= '0' && *q <= '9'; q++)
			;
	if (q < end && (*q == 'e' || *q == 'E')) {
		const char *e = q + 1;
		if (e < end && (*e == '+' || *e == '-'))
			e++;
		if (e < end && *e >= '0' && *e <= '9') {
			while (e < end && *e >= '0' && *e <= '9')
				e++;
			q = e;
		}
	}
	return q;
}

/* The constant's value from its literal, now that its type is known. */
static bool
constant(Reader *r, TInst *i, const Token *lit)
{
	const TType *t = i->res->type;
	if (t->kind != TY_SCALAR)
		return rd_error_at(r, lit, "a constant is a scalar");
	if (!ir_dtype_is_float(t->dtype)) {
		if (lit->kind != TK_INT)
			return rd_error_at(r, lit, "an integer constant must be an integer");
		/* iN takes [-2^(N-1), 2^(N-1)), uN and i1 [0, 2^N); a u64 past
		 * INT64_MAX is printed as its bits, a negative int64 */
		int bits = ir_dtype_bits(t->dtype);
		bool sign = ir_dtype_is_signed(t->dtype);
		int64_t lo = bits == 64 ? INT64_MIN : sign ? -((int64_t)1 << (bits - 1)) : 0;
		int64_t hi = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - (sign ? 1 : 0))) - 1;
		if (lit->i < lo || lit->i > hi)
			return rd_error_at(r, lit, "%lld does not fit %s (it takes %lld to %lld)",
			                   (long long)lit->i, ir_dtype_name(t->dtype), (long long)lo,
			                   (long long)hi);
		i->c.i = lit->i;
		return true;
	}
	const char *s = arena_strndup(r->a, lit->s, lit->n);
	bool neg = *s == '-';
	const char *b = s + neg;
	if (strcmp(b, "inf") == 0) {
		i->c.f = neg ? -INFINITY : INFINITY;
	} else if (strncmp(b, "nan", 3) == 0) {
		uint64_t bits = b[3] ? strtoull(b + 6, NULL, 16) : 0x7ff8000000000000ull;
		memcpy(&i->c.f, &bits, sizeof bits);
		if (neg || !isnan(i->c.f))
			return rd_error_at(r, lit, "nan(0x...) takes the bits of a NaN");
	} else {
		i->c.f = strtod(s, NULL);
	}
	return true;
}

static bool
param(Reader *r, TInst *i)
{
	for (size_t k = 0; k < r->params.len; k++)
		if (rd_is_word(r, r->params.data[k].name)) {
			i->param = (int)k;
			rd_next(r);
			return true;
		}
	return rd_error(r, "the kernel has no parameter %s", rd_found(r));
}

/* What follows the operation's name, up to its type. */
static bool
operation(Reader *r, TInst *i, Token *lit)
{
	switch (i->op) {
	case OP_CONST: {
		*lit = r->tok;
		const char *e = literal_end(r->tok.s, r->end);
		if (e == r->tok.s)
			return rd_error(r, "expected a number, found %s", rd_found(r));
		lit->n = (size_t)(e - r->tok.s);
		if (lit->kind == TK_INT && lit->n != r->tok.n)
			lit->kind = TK_WORD;
		rd_seek(r, e);
		return true;
	}
	case OP_PARAM:
		return param(r, i);
	case OP_FOR: {
		TValue *a[3];
		if (!(i->var = var(r)) || !rd_expect_punct(r, '=') || !(a[0] = use(r)) ||
		    !rd_expect_word(r, "to") || !(a[1] = use(r)) || !rd_expect_word(r, "step") ||
		    !(a[2] = use(r)))
			return false;
		memcpy(ir_inst_operands(r->a, i, 3), a, sizeof a);
		return true;
	}
	default:
		if (!rd_attrs(r, i))
			return false;
		if (r->tok.kind == TK_VAR) {
			if (i->op != OP_VAR_READ && i->op != OP_VAR_WRITE)
				return rd_error(r, "'%s' takes no variable", ir_op_name(i->op));
			if (!(i->var = var(r)))
				return false;
			if (i->op == OP_VAR_WRITE && !rd_expect_punct(r, ','))
				return false;
		}
		return operands(r, i);
	}
}

/* Value x, numbered by the token at, of type t. */
static bool
define_value(Reader *r, const Token *at, TValue *x, const TType *t)
{
	int64_t id = at->i;
	if (id > r->end - r->text)
		return rd_error_at(r, at, "%%%lld: value numbers must stay below the length of the "
		                   "text", (long long)id);
	while (r->values.len <= (size_t)id)
		vec_push(r->a, &r->values, (TValue *)NULL);
	if (r->values.data[id])
		return rd_error_at(r, at, "%%%lld is defined twice", (long long)id);
	x->id = (int)id;
	x->type = t;
	r->values.data[id] = x;
	return true;
}

static bool
define(Reader *r, const Token *at, TInst *i, const TType *t)
{
	return define_value(r, at, ir_inst_result(r->a, i, (int)at->i, t), t);
}

/* '{' NL block '}', at most IR_MAX_NEST blocks deep */
static bool
braced(Reader *r, TBlock *b, TValue **cond)
{
	if (r->depth >= IR_MAX_NEST)
		return rd_error(r, "blocks nest more than %d deep", IR_MAX_NEST);
	if (!rd_expect_punct(r, '{') || !rd_expect_newline(r))
		return false;
	r->depth++;
	bool ok = rd_block(r, b, cond);
	r->depth--;
	return ok && rd_expect_punct(r, '}');
}

/* '{' NL ('partition' ...)* '}': warp_specialize i's partitions, numbered on
 * from the kernel's earlier calls'. */
static bool
partitions(Reader *r, TInst *i)
{
	TKernel *k = r->k;
	if (r->in_partition)
		return rd_error(r, "warp_specialize cannot be called inside a partition");
	VEC(TPartition) parts = {0};
	for (int p = 0; p < k->n_parts; p++)
		vec_push(r->a, &parts, k->parts[p]);
	i->attr.index = k->n_parts;
	if (!rd_expect_punct(r, '{') || !rd_expect_newline(r))
		return false;
	for (rd_skip_newlines(r); !rd_punct(r, '}'); rd_skip_newlines(r)) {
		TPartition pt = {0};
		int64_t index, w, regs, first;
		if (!rd_expect_word(r, "partition") ||
		    !rd_int(r, (int64_t)parts.len, (int64_t)parts.len, "the partition's number", &index))
			return false;
		if (r->tok.kind != TK_WORD)
			return rd_error(r, "expected the partition's function name");
		pt.fn = intern(r->in, r->tok.s, r->tok.n);
		rd_next(r);
		if (!rd_key_int(r, "warps", 1, 32, &w) || !rd_key_int(r, "regs", 0, 256, &regs) ||
		    !rd_key_int(r, "first_warp", 0, 32, &first))
			return false;
		r->in_partition = true;
		bool ok = braced(r, &pt.body, NULL);
		r->in_partition = false;
		if (!ok || !rd_expect_newline(r))
			return false;
		pt.num_warps = (int)w;
		pt.num_regs = (int)regs;
		pt.first_warp = (int)first;
		vec_push(r->a, &parts, pt);
		k->parts = parts.data;
		k->n_parts = (int)parts.len;
		i->attr.count = k->n_parts - i->attr.index;
	}
	return !r->failed;
}

/* combine '(' %N ':' type (',' %N ':' type)* ')' '{' NL block '}': a
 * combine region, its values defined for the block. */
static bool
region(Reader *r, TInst *i)
{
	VEC(TValue *) vals = {0};
	if (!rd_expect_punct(r, '('))
		return false;
	do {
		Token at = r->tok;
		if (r->tok.kind != TK_VALUE)
			return rd_error(r, "expected a region value (%%N), found %s", rd_found(r));
		rd_next(r);
		const TType *t;
		TValue *x = arena_alloc(r->a, sizeof *x);
		if (!rd_expect_punct(r, ':') || !(t = rd_type(r)) || !define_value(r, &at, x, t))
			return false;
		vec_push(r->a, &vals, x);
	} while (rd_punct(r, ','));
	i->region = vals.data;
	i->n_region = (int)vals.len;
	return rd_expect_punct(r, ')') && braced(r, &i->body, NULL);
}

static bool
nested(Reader *r, TInst *i)
{
	switch (i->op) {
	case OP_REDUCE:
	case OP_SCAN:
		return !rd_word(r, "combine") || region(r, i);
	case OP_FOR:
	case OP_IF:
	case OP_MAP:
		if (!braced(r, &i->body, NULL))
			return false;
		if (i->op == OP_IF && rd_word(r, "else"))
			return braced(r, &i->else_body, NULL);
		return true;
	case OP_WHILE:
		if (!braced(r, &i->cond_block, &i->cond_value))
			return false;
		return rd_expect_word(r, "do") && braced(r, &i->body, NULL);
	case OP_WARP_SPECIALIZE:
		return partitions(r, i);
	default:
		return true;
	}
}

static TInst *
inst(Reader *r)
{
	Token res = {0}, lit = {0};
	r->stmt_line = r->tok.line;
	r->stmt_col = r->tok.col;
	r->stmt_start = r->tok.s;
	if (r->tok.kind == TK_VALUE) {
		res = r->tok;
		rd_next(r);
		if (!rd_expect_punct(r, '='))
			return NULL;
	}
	if (r->tok.kind != TK_WORD) {
		rd_error(r, "expected an operation, found %s", rd_found(r));
		return NULL;
	}
	TOp code = ir_op_lookup(r->tok.s, r->tok.n);
	if (code == OP_COUNT) {
		rd_error(r, "unknown operation %s", rd_found(r));
		return NULL;
	}
	/* located once its whole line is read */
	TInst *i = ir_inst_new(r->a, code, (SrcSpan){0});
	Token op = r->tok;
	rd_next(r);
	if (!operation(r, i, &lit))
		return NULL;
	const TType *t = NULL;
	if (rd_punct(r, ':') && !(t = rd_type(r)))
		return NULL;
	if (t && res.kind != TK_VALUE) {
		rd_error_at(r, &op, "'%s' has a type but no result (%%N = ...)", ir_op_name(i->op));
		return NULL;
	}
	if (i->op == OP_CONST && !t) {
		rd_error_at(r, &op, "a constant defines a value: %%N = const ... : TYPE");
		return NULL;
	}
	if (res.kind == TK_VALUE && !t) {
		rd_error(r, "expected ':' and the type of the result, found %s", rd_found(r));
		return NULL;
	}
	i->at = (SrcSpan){r->file, r->stmt_line, r->stmt_col,
	                  (uint32_t)(r->last_end - r->stmt_start)};
	if (!rd_loc(r, "loc", &i->at) || (t && !define(r, &res, i, t)))
		return NULL;
	if (t) {
		i->res->layout_at = i->at;
		if (!rd_loc(r, "layout_loc", &i->res->layout_at))
			return NULL;
	}
	if ((i->op == OP_CONST && !constant(r, i, &lit)) || !nested(r, i) ||
	    !rd_expect_newline(r))
		return NULL;
	return i;
}

bool
rd_block(Reader *r, TBlock *b, TValue **cond)
{
	for (;;) {
		rd_skip_newlines(r);
		if (r->failed)
			return false;
		if (r->tok.kind == TK_PUNCT && r->tok.ch == '}')
			return true;
		if (r->tok.kind == TK_EOF)
			return rd_error(r, "expected '}' to close the block, found the end of the file");
		if (cond && rd_word(r, "condition")) {
			if (!(*cond = use(r)) || !rd_expect_newline(r))
				return false;
			rd_skip_newlines(r);
			return (r->tok.kind == TK_PUNCT && r->tok.ch == '}') ||
			       rd_error(r, "the condition ends its block");
		}
		TInst *i = inst(r);
		if (!i)
			return false;
		ir_block_push(r->a, b, i);
	}
}
