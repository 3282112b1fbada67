/*
 * Axis analysis (Triton's AxisInfo) on the IR, and what it proves about
 * global accesses; the `axis` pass stores it on every kernel for codegen.
 *
 * For every integer or pointer value and every dim d (scalars use dim 0):
 *   contig[d]  values are consecutive (+1 per index; pointers: +1 element)
 *              along d in aligned runs of contig[d] indices;
 *   div[d]     the first value of every such run is a multiple of div[d]
 *              (pointers: its byte address); with contig[d] = 1 this holds
 *              for every element;
 *   cnst[d]    values are equal along d in aligned runs of cnst[d] indices.
 * All three are powers of two. Parameters start from what the kernel may
 * assume (TParam.divisibility). A variable (loop-carried or assigned in a
 * branch) has what every value written to it has in common, and a loop's
 * induction variable what its start and step have in common; these are
 * found by walking the kernel again until they stop changing. Anything the
 * rules below do not cover (loads, division...) knows nothing (1, 1, 1).
 * A product with the constant 1 is its other operand; a remainder x % y
 * keeps x's runs where y is a multiple of their length (Triton's rules).
 *
 * The program may add facts: gl.multiple_of, gl.max_contiguous and
 * gl.max_constancy raise div, contig and cnst of their result to the
 * values given, and gl.assume(x % c == 0) (or x & (c - 1) == 0), c a power
 * of two, makes the scalar x a multiple of c wherever it is used.
 */
#include "passes/passes.h"

#include <string.h>

enum { DIV_CAP = 1 << 30, MAX_ROUNDS = 64 };

/* The analysis of one kernel: facts by value id and by variable id. */
typedef struct Axes {
	const TKernel *k;
	IrAxis *v;
	const TInst **def;    /* by value id: the instruction defining it */
	int64_t *assumed;     /* by value id: a divisor gl.assume promises, or 1 */
	IrAxis *var;
	bool *written;        /* var: some write has been seen */
	bool changed;         /* a variable's facts changed in this walk */
} Axes;

static int64_t
min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

static int64_t
max64(int64_t a, int64_t b)
{
	return a > b ? a : b;
}

/* The largest power of two dividing v (capped; 0 is divisible by all). */
static int64_t
pow2_div(int64_t v)
{
	if (v == 0)
		return DIV_CAP;
	uint64_t u = (uint64_t)v;
	int64_t p = (int64_t)(u & -u);
	return p > DIV_CAP || p <= 0 ? DIV_CAP : p;
}

static int
rank_of(const TType *t)
{
	return t->kind == TY_TENSOR && t->rank > 0 ? t->rank : 1;
}

static int64_t
dim_size(const TType *t, int d)
{
	return t->kind == TY_TENSOR && t->rank > 0 ? t->shape[d] : 1;
}

static IrAxis
unknown(void)
{
	IrAxis x;
	for (int d = 0; d < LL_MAX_RANK; d++)
		x.contig[d] = x.div[d] = x.cnst[d] = 1;
	return x;
}

/* Every element of the same value along each dim (splat, full, scalars). */
static IrAxis
uniform(const TType *t, int64_t div)
{
	IrAxis x = unknown();
	for (int d = 0; d < rank_of(t); d++) {
		x.div[d] = div;
		x.cnst[d] = dim_size(t, d);
	}
	return x;
}

/* A divisor of every element of a (contiguous runs have odd members). */
static int64_t
elem_div(const IrAxis *a, int rank)
{
	int64_t best = DIV_CAP;
	for (int d = 0; d < rank; d++)
		best = min64(best, a->contig[d] > 1 ? 1 : a->div[d]);
	return best;
}

/* div of a's runs cut into runs of c indices: the cuts start c apart,
 * unit apart in value per index (pointers: the element's bytes). */
static int64_t
div_at(const IrAxis *a, int d, int64_t c, int64_t unit)
{
	return c < a->contig[d] ? min64(a->div[d], c * unit) : a->div[d];
}

/* a + b (scale: bytes per element of b when a is a pointer, else 1). */
static IrAxis
add(const IrAxis *a, const IrAxis *b, int rank, int64_t scale)
{
	IrAxis x = unknown();
	for (int d = 0; d < rank; d++) {
		int64_t c = max64(min64(a->contig[d], b->cnst[d]), min64(a->cnst[d], b->contig[d]));
		x.contig[d] = c;
		x.div[d] = min64(div_at(a, d, c, scale), min64(div_at(b, d, c, 1) * scale, DIV_CAP));
		x.cnst[d] = min64(a->cnst[d], b->cnst[d]);
	}
	return x;
}

static IrAxis
mul(const IrAxis *a, const IrAxis *b, int rank)
{
	IrAxis x = unknown();
	int64_t da = elem_div(a, rank), db = elem_div(b, rank);
	for (int d = 0; d < rank; d++) {
		x.div[d] = min64(da * db, DIV_CAP);
		x.cnst[d] = min64(a->cnst[d], b->cnst[d]);
	}
	return x;
}

/* a % b of integers (Triton's RemOp rule): a run of a consecutive values
 * from a multiple of k stays one where b is a multiple of k constant over
 * it; every element a multiple of what divides both. */
static IrAxis
mod(const IrAxis *a, const IrAxis *b, int rank)
{
	IrAxis x = unknown();
	int64_t db = elem_div(b, rank);
	for (int d = 0; d < rank; d++) {
		int64_t k = min64(min64(a->contig[d], a->div[d]), min64(db, b->cnst[d]));
		x.contig[d] = k;
		x.div[d] = min64(div_at(a, d, k, 1), db);
		x.cnst[d] = min64(a->cnst[d], b->cnst[d]);
	}
	return x;
}

/* a < b and friends: constant over aligned runs where a is consecutive
 * from a multiple of k and b is a constant multiple of k (or the
 * reverse), and wherever both are constant. */
static IrAxis
compare(const IrAxis *a, const IrAxis *b, int rank, bool ordered)
{
	IrAxis x = unknown();
	for (int d = 0; d < rank; d++) {
		int64_t k = min64(a->cnst[d], b->cnst[d]);
		if (ordered) {
			int64_t ka = min64(min64(a->contig[d], a->div[d]),
			                   min64(b->cnst[d], elem_div(b, rank)));
			int64_t kb = min64(min64(b->contig[d], b->div[d]),
			                   min64(a->cnst[d], elem_div(a, rank)));
			k = max64(k, max64(ka, kb));
		}
		x.cnst[d] = k;
	}
	return x;
}

static IrAxis
logical(const IrAxis *a, const IrAxis *b, int rank)
{
	IrAxis x = unknown();
	for (int d = 0; d < rank; d++)
		x.cnst[d] = min64(a->cnst[d], b->cnst[d]);
	return x;
}

static int64_t
param_div(const TParam *p)
{
	return p->divisibility > 1 ? (int64_t)p->divisibility : 1;
}

static bool
is_int(const TType *t)
{
	return (t->kind == TY_SCALAR || t->kind == TY_TENSOR) && !t->elem_is_ptr &&
	       t->dtype != DT_I1 && !ir_dtype_is_float(t->dtype);
}

static int64_t
elem_bytes(TDType t)
{
	int b = ir_dtype_bits(t);
	return b < 8 ? 1 : b / 8;
}

/* Whether v is the integer 1 everywhere: a constant 1, or a splat, cast,
 * broadcast or conversion of one (Triton's AxisInfo knows such constants:
 * x * 1 keeps x's facts). */
static bool
is_one(const Axes *ax, const TValue *v)
{
	for (int depth = 0; v && depth < 8; depth++) {
		const TInst *d = ax->def[v->id];
		if (!d)
			return false;
		if (d->op == OP_CONST)
			return is_int(d->res->type) && d->c.i == 1;
		if (d->op != OP_SPLAT && d->op != OP_CAST && d->op != OP_BROADCAST &&
		    d->op != OP_CONVERT_LAYOUT)
			return false;
		v = d->args[0];
	}
	return false;
}

static IrAxis
infer(const TInst *in, Axes *ax)
{
	const IrAxis *v = ax->v;
	const TType *t = in->res->type;
	int rank = rank_of(t);
	const IrAxis *a = in->n_args > 0 ? &v[in->args[0]->id] : NULL;
	const IrAxis *b = in->n_args > 1 ? &v[in->args[1]->id] : NULL;
	switch (in->op) {
	case OP_CONST:
		return uniform(t, is_int(t) ? pow2_div(in->c.i) : 1);
	case OP_PARAM:
		return uniform(t, param_div(&ax->k->params[in->param]));
	case OP_SPLAT:
	case OP_FULL:
		return uniform(t, elem_div(a, 1));
	case OP_ARANGE: {
		IrAxis x = unknown();
		x.contig[0] = dim_size(t, 0);
		x.div[0] = pow2_div(in->attr.lo);
		return x;
	}
	case OP_CONVERT_LAYOUT:
		return *a;
	case OP_VAR_READ:
		return ax->written[in->var->id] ? ax->var[in->var->id] : unknown();
	case OP_CAST:
		if (!is_int(t) || !is_int(in->args[0]->type))
			return unknown();
		if (ir_dtype_bits(t->dtype) < ir_dtype_bits(in->args[0]->type->dtype)) {
			IrAxis x = *a;
			int64_t cap = (int64_t)1 << (ir_dtype_bits(t->dtype) - 1);
			for (int d = 0; d < rank; d++)
				x.div[d] = min64(x.div[d], cap);
			return x;
		}
		return *a;
	case OP_BROADCAST: {
		IrAxis x = *a;
		for (int d = 0; d < rank; d++)
			if (in->args[0]->type->shape[d] == 1 && t->shape[d] != 1) {
				x.contig[d] = 1;
				x.cnst[d] = t->shape[d];
			}
		return x;
	}
	case OP_EXPAND_DIMS: {
		IrAxis x = unknown();
		int axis = in->attr.axis, src_rank = rank_of(in->args[0]->type);
		for (int d = 0, s = 0; d < rank; d++) {
			if (d == axis) {
				x.div[d] = elem_div(a, src_rank);
				continue;
			}
			x.contig[d] = a->contig[s];
			x.div[d] = a->div[s];
			x.cnst[d] = a->cnst[s];
			s++;
		}
		return x;
	}
	case OP_ADD:
		return is_int(t) ? add(a, b, rank, 1) : unknown();
	case OP_SUB:
		if (!is_int(t))
			return unknown();
		{
			/* a - c: runs of a stay runs when c is constant over them. */
			IrAxis x = add(a, b, rank, 1);
			for (int d = 0; d < rank; d++)
				x.contig[d] = min64(a->contig[d], b->cnst[d]);
			return x;
		}
	case OP_PTR_ADD:
		return add(a, b, rank, elem_bytes(t->dtype));
	case OP_MOD:
		return is_int(t) ? mod(a, b, rank) : unknown();
	case OP_MUL:
		if (is_int(t) && (is_one(ax, in->args[0]) || is_one(ax, in->args[1])))
			return *(is_one(ax, in->args[0]) ? b : a);
		return is_int(t) ? mul(a, b, rank) : unknown();
	case OP_LT: case OP_LE: case OP_GT: case OP_GE:
		return compare(a, b, rank, true);
	case OP_EQ: case OP_NE:
		return compare(a, b, rank, false);
	case OP_AND: case OP_OR: case OP_XOR:
		if (t->dtype == DT_I1)
			return logical(a, b, rank);
		return unknown();
	case OP_MULTIPLE_OF: case OP_MAX_CONTIGUOUS: case OP_MAX_CONSTANCY: {
		IrAxis x = *a;
		for (int d = 0; d < rank; d++) {
			int64_t h = in->attr.hint[d];
			if (in->op == OP_MULTIPLE_OF)
				x.div[d] = max64(x.div[d], min64(h, DIV_CAP));
			else if (in->op == OP_MAX_CONTIGUOUS)
				x.contig[d] = max64(x.contig[d], min64(h, dim_size(t, d)));
			else
				x.cnst[d] = max64(x.cnst[d], min64(h, dim_size(t, d)));
		}
		return x;
	}
	default:
		return unknown();
	}
}

/* The value of v when it is an integer constant, else 0. */
static int64_t
const_int(const Axes *x, const TValue *v)
{
	const TInst *d = x->def[v->id];
	return d && d->op == OP_CONST && is_int(d->res->type) ? d->c.i : 0;
}

/* gl.assume(cond): when cond is x % c == 0 or x & (c - 1) == 0 for a
 * scalar integer x and a power of two c, x is a multiple of c. */
static void
note_assume(Axes *x, const TValue *cond)
{
	const TInst *eq = x->def[cond->id];
	if (!eq || eq->op != OP_EQ)
		return;
	for (int side = 0; side < 2; side++) {
		const TInst *r = x->def[eq->args[side]->id];
		const TInst *z = x->def[eq->args[1 - side]->id];
		if (!r || !z || z->op != OP_CONST || z->c.i != 0 || r->n_args != 2 ||
		    r->args[0]->type->kind != TY_SCALAR || !is_int(r->args[0]->type))
			continue;
		int64_t c = r->op == OP_MOD ? const_int(x, r->args[1])
		          : r->op == OP_AND ? const_int(x, r->args[1]) + 1 : 0;
		if (c > 1 && (c & (c - 1)) == 0) {
			int64_t *have = &x->assumed[r->args[0]->id];
			*have = max64(*have, min64(c, DIV_CAP));
		}
	}
}

/* Records the defining instruction of a value, and what an assumption
 * promises. */
static IrStep
note_def(IrWalker *w, TInst *in)
{
	Axes *x = w->ctx;
	if (in->res)
		x->def[in->res->id] = in;
	if (in->op == OP_ASSUME)
		note_assume(x, in->args[0]);
	return IR_ON;
}

/* The facts every value written to a variable shares. */
static void
write_var(Axes *x, const TVar *var, IrAxis f)
{
	IrAxis *have = &x->var[var->id];
	if (x->written[var->id]) {
		for (int d = 0; d < LL_MAX_RANK; d++) {
			f.contig[d] = min64(f.contig[d], have->contig[d]);
			f.div[d] = min64(f.div[d], have->div[d]);
			f.cnst[d] = min64(f.cnst[d], have->cnst[d]);
		}
		if (memcmp(&f, have, sizeof f) == 0)
			return;
	}
	*have = f;
	x->written[var->id] = true;
	x->changed = true;
}

/* The facts of in's result and of the variables it writes. */
static IrStep
visit(IrWalker *w, TInst *in)
{
	Axes *x = w->ctx;
	if (in->res) {
		IrAxis f = infer(in, x);
		f.div[0] = max64(f.div[0], x->assumed[in->res->id]);
		x->v[in->res->id] = f;
	}
	if (in->op == OP_VAR_WRITE)
		write_var(x, in->var, x->v[in->args[0]->id]);
	if (in->op == OP_FOR) {
		/* i = lo + k * step: a multiple of what both are multiples of */
		IrAxis f = unknown();
		f.div[0] = min64(elem_div(&x->v[in->args[0]->id], 1),
		                 elem_div(&x->v[in->args[2]->id], 1));
		write_var(x, in->var, f);
	}
	return IR_ON;
}

IrAxis *
pass_axis_analyze(Arena *a, const TKernel *k)
{
	Axes x = {.k = k};
	x.v = arena_alloc(a, (size_t)(k->n_values + 1) * sizeof *x.v);
	x.var = arena_alloc(a, (size_t)(k->n_vars + 1) * sizeof *x.var);
	x.written = arena_alloc(a, (size_t)(k->n_vars + 1) * sizeof *x.written);
	x.def = arena_alloc(a, (size_t)(k->n_values + 1) * sizeof *x.def);
	x.assumed = arena_alloc(a, (size_t)(k->n_values + 1) * sizeof *x.assumed);
	for (int i = 0; i < k->n_values; i++) {
		x.v[i] = unknown();
		x.assumed[i] = 1;
	}
	ir_walk(&(IrWalker){.k = k, .ctx = &x, .pre = note_def});
	/* Facts only shrink, so this ends; the cap bounds pathological cases,
	 * whose last walk is then still sound for what it read. */
	for (int round = 0; round < MAX_ROUNDS; round++) {
		x.changed = false;
		ir_walk(&(IrWalker){.k = k, .ctx = &x, .pre = visit});
		if (!x.changed)
			break;
	}
	return x.v;
}

PassAccess
pass_access_plan(const TInst *in, const IrAxis *axis)
{
	PassAccess acc = {0, 1, false};
	bool load = in->op == OP_LOAD, async = in->op == OP_ASYNC_COPY;
	const TValue *ptr = in->args[async];
	const TType *pt = ptr->type;
	const TType *vt = load ? in->res->type : in->args[!async]->type;
	int bits = vt->dtype == DT_I1 ? 8 : ir_dtype_bits(vt->dtype);
	if (pt->kind != TY_TENSOR || vt->elem_is_ptr || bits < 8)
		return acc;
	int n_regs = 1 << ll_in_bits(&pt->layout.ll, LL_REGISTER);
	const IrAxis *p = &axis[ptr->id];
	for (int d = 0; d < pt->rank; d++) {
		int64_t w = ll_num_consecutive(&pt->layout.ll, LL_REGISTER, (LLName)(LL_DIM0 + d));
		w = min64(min64(w, p->contig[d]), min64(128 / bits, n_regs));
		if (w * bits < 32 || w <= acc.width)
			continue;
		acc.dim = d;
		acc.width = (int)w;
	}
	if (acc.width == 1)
		return acc;
	int d = acc.dim;
	int64_t bytes = (int64_t)acc.width * bits / 8;
	acc.proven = div_at(p, d, acc.width, bits / 8) >= bytes;
	int mi = load ? 1 : 2;
	bool has_mask = load || async ? in->attr.has_mask : in->n_args > 2;
	if (has_mask && acc.proven) {
		const TValue *mv = in->args[mi];
		acc.proven = mv->type->kind != TY_TENSOR || axis[mv->id].cnst[d] >= acc.width;
	}
	return acc;
}

bool
pass_axis(TProgram *p, Arena *a, Diags *d)
{
	(void)d;
	for (int i = 0; i < p->n_kernels; i++)
		for (TKernel *k = p->kernels[i]; k; k = k->fast)
			k->axis = pass_axis_analyze(a, k);
	return true;
}
