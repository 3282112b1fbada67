/*
 * compile.py's --grid for .py files: "X,Y,Z", three integer expressions
 * over each launcher's parameters, parsed and checked here into the
 * launcher's CgKernelSig.grid, from which codegen writes C or host IR (the
 * text itself never reaches the C). The grammar, with C's precedence and
 * left associativity:
 *
 *     grid    := expr ',' expr ',' expr
 *     expr    := term (('+' | '-') term)*
 *     term    := unary (('*' | '/' | '%') unary)*
 *     unary   := ('-' | '+') unary | primary
 *     primary := DECIMAL | NAME | '(' expr ')'
 *
 * A NAME is an integer runtime parameter of the launcher, or a constexpr
 * parameter with an integer value (substituted). Constant subexpressions
 * are folded with CgGridExpr's arithmetic; one that divides by zero is an
 * error here, not at run time.
 */
#include "codegen/codegen.h"
#include "driver/driver.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Parentheses and unary signs nest at most this deep; the three
 * expressions together have at most MAX_NODES operands and operations (a
 * long chain a+b+c+... is a tree as deep as it is long, which codegen
 * walks recursively). */
enum { MAX_DEPTH = 64, MAX_NODES = 256 };

typedef struct Grid {
	const Options *o;
	const char *p;            /* the next character of o->grid */
	const CgKernelSig *k;     /* the launcher the names are looked up in */
	const TKernel *tk;        /* its kernel (constexpr values) */
	Arena *a;
	Diags *d;
	int depth;
	int nodes;                /* made so far */
	bool failed;              /* an error was reported: parse no further */
} Grid;

/* What the parser returns after an error. */
static const CgGridExpr failed = {CG_GRID_CONST, 0, 0, NULL, NULL};

/* Reports "-g 'TEXT': problem", the first only. */
static const CgGridExpr *
fail(Grid *g, const char *fmt, ...) GL_PRINTF(2, 3);

static const CgGridExpr *
fail(Grid *g, const char *fmt, ...)
{
	if (!g->failed) {
		va_list ap;
		va_start(ap, fmt);
		char *why = arena_vprintf(g->a, fmt, ap);
		va_end(ap);
		diag_error(g->d, (SrcSpan){0}, "%s '%s': %s", g->o->grid_option, g->o->grid, why);
	}
	g->failed = true;
	return &failed;
}

static bool
eat(Grid *g, char c)
{
	while (isspace((unsigned char)*g->p))
		g->p++;
	if (*g->p != c)
		return false;
	g->p++;
	return true;
}

/* "at 'REST'" or "at the end", for messages. */
static const char *
where(const Grid *g)
{
	return *g->p ? arena_printf(g->a, "at '%s'", g->p) : "at the end";
}

/* op applied to two constants; false when it divides by zero (or INT64_MIN
 * by -1). */
static bool
fold(CgGridOp op, int64_t a, int64_t b, int64_t *r)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	if ((op == CG_GRID_DIV || op == CG_GRID_REM) && (b == 0 || (b == -1 && a == INT64_MIN)))
		return false;
	switch (op) {
	case CG_GRID_NEG: *r = (int64_t)(0 - ua); break;
	case CG_GRID_ADD: *r = (int64_t)(ua + ub); break;
	case CG_GRID_SUB: *r = (int64_t)(ua - ub); break;
	case CG_GRID_MUL: *r = (int64_t)(ua * ub); break;
	case CG_GRID_DIV: *r = a / b; break;
	case CG_GRID_REM: *r = a % b; break;
	default: *r = a; break;
	}
	return true;
}

static const CgGridExpr *
node(Grid *g, CgGridOp op, int64_t value, int param, const CgGridExpr *lhs,
     const CgGridExpr *rhs)
{
	if (++g->nodes > MAX_NODES)
		return fail(g, "more than %d operands and operations", MAX_NODES);
	if ((op == CG_GRID_DIV || op == CG_GRID_REM) && rhs->op == CG_GRID_CONST && !rhs->value)
		return fail(g, "the constant divisor is 0");
	if (lhs && lhs->op == CG_GRID_CONST && (!rhs || rhs->op == CG_GRID_CONST)) {
		if (!fold(op, lhs->value, rhs ? rhs->value : 0, &value))
			return fail(g, "the constants divide INT64_MIN by -1");
		op = CG_GRID_CONST;
		lhs = rhs = NULL;
	}
	CgGridExpr *e = arena_alloc(g->a, sizeof *e);
	*e = (CgGridExpr){op, value, param, lhs, rhs};
	return e;
}

/* A decimal integer; false when s is not one or it is past int64. */
static bool
integer(const char *s, size_t n, int64_t *v)
{
	char buf[32];
	if (n == 0 || n >= sizeof buf)
		return false;
	memcpy(buf, s, n);
	buf[n] = 0;
	char *end;
	errno = 0;
	long long x = strtoll(buf, &end, 10);
	if (*end || errno || !isdigit((unsigned char)buf[buf[0] == '-']))
		return false;
	*v = x;
	return true;
}

static const CgGridExpr *
literal(Grid *g)
{
	const char *s = g->p;
	while (isalnum((unsigned char)*g->p) || *g->p == '_')
		g->p++;
	int64_t v;
	if (s[0] == '0' && g->p - s > 1)
		return fail(g, "'%.*s': write integers in decimal without a leading 0 (C would "
		            "read 010 as octal)", (int)(g->p - s), s);
	if (!integer(s, (size_t)(g->p - s), &v))
		return fail(g, "'%.*s' is not a decimal integer from 0 to 9223372036854775807",
		            (int)(g->p - s), s);
	return node(g, CG_GRID_CONST, v, 0, NULL, NULL);
}

/* A constexpr parameter's integer value. */
static const CgGridExpr *
constexpr_value(Grid *g, int i)
{
	const char *v = g->tk->cx_values[i];
	int64_t x;
	if (!integer(v, strlen(v), &x))
		return fail(g, "'%s' is a constexpr of %s whose value %s is not an integer",
		            g->tk->cx_names[i], g->k->name, v);
	return node(g, CG_GRID_CONST, x, 0, NULL, NULL);
}

/* A parameter the caller passes; constexprs are substituted. */
static const CgGridExpr *
name(Grid *g)
{
	const char *s = g->p;
	while (isalnum((unsigned char)*g->p) || *g->p == '_')
		g->p++;
	const char *n = arena_strndup(g->a, s, (size_t)(g->p - s));
	for (int j = 0; j < g->k->n_params; j++) {
		const CgParam *q = &g->k->params[j];
		if (q->map_param || strcmp(q->name, n) != 0)
			continue;
		if (q->kind == CG_PARAM_PTR)
			return fail(g, "'%s' is a pointer parameter of %s, not an integer", n,
			            g->k->name);
		if (q->kind == CG_PARAM_TENSOR_MAP)
			return fail(g, "'%s' is a tensor descriptor parameter of %s, not an integer", n,
			            g->k->name);
		if (ir_dtype_is_float(q->dtype))
			return fail(g, "'%s' is a %s parameter of %s, not an integer", n,
			            ir_dtype_name(q->dtype), g->k->name);
		return node(g, CG_GRID_PARAM, 0, j, NULL, NULL);
	}
	for (int i = 0; g->tk && i < g->tk->n_cx; i++)
		if (strcmp(g->tk->cx_names[i], n) == 0)
			return constexpr_value(g, i);
	return fail(g, "unknown name '%s': %s has no parameter of that name", n, g->k->name);
}

static const CgGridExpr *expr(Grid *g);

static const CgGridExpr *
unary(Grid *g)
{
	if (g->failed)
		return &failed;
	if (++g->depth > MAX_DEPTH)
		return fail(g, "nested more than %d deep", MAX_DEPTH);
	const CgGridExpr *e;
	if (eat(g, '-'))
		e = node(g, CG_GRID_NEG, 0, 0, unary(g), NULL);
	else if (eat(g, '+'))
		e = unary(g);
	else if (eat(g, '(')) {
		e = expr(g);
		if (!eat(g, ')'))
			e = fail(g, "expected ')' %s", where(g));
	} else if (isdigit((unsigned char)*g->p))
		e = literal(g);
	else if (isalpha((unsigned char)*g->p) || *g->p == '_')
		e = name(g);
	else
		e = fail(g, "expected a number, a parameter or '(' %s", where(g));
	g->depth--;
	return e;
}

static const CgGridExpr *
term(Grid *g)
{
	const CgGridExpr *e = unary(g);
	for (;;) {
		CgGridOp op = eat(g, '*') ? CG_GRID_MUL : eat(g, '/') ? CG_GRID_DIV
		            : eat(g, '%') ? CG_GRID_REM : CG_GRID_CONST;
		if (op == CG_GRID_CONST || g->failed)
			return e;
		e = node(g, op, 0, 0, e, unary(g));
	}
}

static const CgGridExpr *
expr(Grid *g)
{
	const CgGridExpr *e = term(g);
	for (;;) {
		CgGridOp op = eat(g, '+') ? CG_GRID_ADD : eat(g, '-') ? CG_GRID_SUB : CG_GRID_CONST;
		if (op == CG_GRID_CONST || g->failed)
			return e;
		e = node(g, op, 0, 0, e, term(g));
	}
}

/* Parses o->grid for launcher g->k into k->grid. */
static bool
parse_grid(Grid *g, CgKernelSig *k)
{
	for (int d = 0; d < 3 && !g->failed; d++) {
		k->grid[d] = expr(g);
		if (g->failed)
			break;
		if (d < 2 && !*g->p)
			fail(g, "expected three expressions (x, y, z), not %d", d + 1);
		else if (d < 2 && !eat(g, ','))
			fail(g, "expected ',' %s", where(g));
		else if (d == 2 && eat(g, ','))
			fail(g, "expected three expressions (x, y, z), not more");
		else if (d == 2 && *g->p)
			fail(g, "unexpected '%s' after the third expression", g->p);
	}
	return !g->failed;
}

bool
drv_apply_grid(const Options *o, const TProgram *p, CgResult *r, Arena *a, Diags *d)
{
	bool ok = true;
	for (int i = 0; ok && i < r->n_kernels; i++) {
		CgKernelSig *k = &r->kernels[i];
		Grid g = {o, o->grid, k, NULL, a, d, 0, 0, false};
		for (int j = 0; j < p->n_kernels; j++)
			if (strcmp(p->kernels[j]->name, k->name) == 0)
				g.tk = p->kernels[j];
		ok = parse_grid(&g, k);
	}
	return ok;
}
