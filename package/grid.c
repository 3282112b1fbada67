/*
 * Launch grids computed from the launcher's arguments (CgKernelSig.grid,
 * compile.py's --grid): what both launcher forms share. launcher.c writes
 * the computation as C, object.c as host LLVM IR, with the same checks.
 */
#include "package/pkg_internal.h"

bool
pkg_grid_checked(const CgGridExpr *e)
{
	const CgGridExpr *d = e->rhs;
	return d->op != CG_GRID_CONST || d->value == 0 || d->value == -1;
}

void
pkg_grid_error(const CgKernelSig *k, StrBuf *out)
{
	buf_printf(out, "%s: the grid divides by zero (or INT64_MIN by -1)", k->name);
}

/* C precedence: 1 additive, 2 multiplicative, 3 unary, 4 a primary. */
static int
precedence(const CgGridExpr *e)
{
	switch (e->op) {
	case CG_GRID_ADD: case CG_GRID_SUB: return 1;
	case CG_GRID_MUL: case CG_GRID_DIV: case CG_GRID_REM: return 2;
	case CG_GRID_NEG: return 3;
	case CG_GRID_CONST: return e->value < 0 ? 3 : 4;
	case CG_GRID_PARAM: return 4;
	}
	return 4;
}

static void
print_at(const CgKernelSig *k, const CgGridExpr *e, int min, StrBuf *out)
{
	static const char ops[] = {[CG_GRID_ADD] = '+', [CG_GRID_SUB] = '-', [CG_GRID_MUL] = '*',
	                           [CG_GRID_DIV] = '/', [CG_GRID_REM] = '%'};
	int p = precedence(e);
	if (p < min)
		buf_putc(out, '(');
	switch (e->op) {
	case CG_GRID_CONST:
		buf_printf(out, "%lld", (long long)e->value);
		break;
	case CG_GRID_PARAM:
		buf_puts(out, k->params[e->param].name);
		break;
	case CG_GRID_NEG:
		buf_putc(out, '-');
		print_at(k, e->lhs, 4, out);
		break;
	default:
		print_at(k, e->lhs, p, out);
		buf_printf(out, " %c ", ops[e->op]);
		print_at(k, e->rhs, p + 1, out);
		break;
	}
	if (p < min)
		buf_putc(out, ')');
}

void
pkg_grid_print(const CgKernelSig *k, const CgGridExpr *e, StrBuf *out)
{
	print_at(k, e, 0, out);
}
