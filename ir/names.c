/*
 * The names of a program's entry points: every kernel and every
 * specialized variant is a PTX entry (and a launcher or a table entry of
 * the packaged C) named after it, so no two may share a name. The
 * specialize pass names a variant `K__spec`, or `K__spec2`, `K__spec3`,
 * ... when a kernel of the program is already called so; the verifier
 * refuses a program (a .ir file) whose names clash.
 */
#include "ir/ir.h"

#include <stdlib.h>
#include <string.h>

/* One entry point: a kernel, or the variant of `of`. */
typedef struct Entry {
	const char *name;
	const TKernel *k;
	const TKernel *of;
} Entry;

struct IrNames {
	const char **names;   /* the kernels', sorted */
	size_t n;
};

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

IrNames *
ir_names_new(const TProgram *p, Arena *a)
{
	IrNames *s = arena_alloc(a, sizeof *s);
	s->names = arena_alloc(a, ((size_t)p->n_kernels + 1) * sizeof *s->names);
	for (int i = 0; i < p->n_kernels; i++)
		s->names[s->n++] = p->kernels[i]->name;
	qsort(s->names, s->n, sizeof *s->names, cmp_str);
	return s;
}

const char *
ir_variant_name(const IrNames *s, const TKernel *k, Arena *a)
{
	const char *name = arena_printf(a, "%s__spec", k->name);
	for (int n = 2; bsearch(&name, s->names, s->n, sizeof *s->names, cmp_str); n++)
		name = arena_printf(a, "%s__spec%d", k->name, n);
	return name;
}

static int
cmp_entry(const void *x, const void *y)
{
	const Entry *a = x, *b = y;
	int c = strcmp(a->name, b->name);
	/* a kernel before the variant that clashes with it; else in program order */
	if (!c)
		c = (a->of != NULL) - (b->of != NULL);
	return c ? c : (a->k->at.line > b->k->at.line) - (a->k->at.line < b->k->at.line);
}

/* "kernel 'k'" or "the variant of kernel 'k'". */
static const char *
describe(Diags *d, const Entry *e)
{
	return e->of ? arena_printf(d->arena, "the variant of kernel '%s'", e->of->name)
	             : arena_printf(d->arena, "kernel '%s'", e->name);
}

bool
ir_names_distinct(const TProgram *p, bool internal, Diags *d)
{
	Entry *e = arena_alloc(d->arena, (2 * (size_t)p->n_kernels + 1) * sizeof *e);
	size_t n = 0;
	for (int i = 0; i < p->n_kernels; i++) {
		const TKernel *k = p->kernels[i];
		e[n++] = (Entry){k->name, k, NULL};
		if (k->fast)
			e[n++] = (Entry){k->fast->name, k->fast, k};
	}
	qsort(e, n, sizeof *e, cmp_entry);
	bool ok = true;
	for (size_t i = 1; i < n; i++) {
		if (strcmp(e[i - 1].name, e[i].name) != 0)
			continue;
		const Entry *x = &e[i - 1], *y = &e[i];
		const char *what = !x->of && !y->of
		                   ? arena_printf(d->arena, "two kernels are named '%s'", y->name)
		                   : arena_printf(d->arena, "%s and %s are both named '%s'",
		                                  describe(d, x), describe(d, y), y->name);
		const char *fmt = "names: %s; each entry point (a PTX entry, a launcher) needs a "
		                  "name of its own";
		Diag *g = internal ? diag_internal(d, y->k->at, fmt, what)
		                   : diag_error(d, y->k->at, fmt, what);
		diag_note(d, g, x->k->at, "%s is here", x->of || y->of ? describe(d, x) : "the first");
		ok = false;
	}
	return ok;
}
