/*
 * Scopes (function locals, then module globals), the items of a range, and
 * the limits on unrolling and inlining.
 */
#include "sema/eval/eval.h"

#include <string.h>

/* -- scopes ------------------------------------------------------------------ */

/* Scopes up to this many bindings are searched in order; larger ones
 * through their index. */
enum { SCOPE_LINEAR = 8 };

static size_t
slot_of(const char *name, size_t cap)
{
	uintptr_t h = (uintptr_t)name;
	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15u;
	return (size_t)(h >> 7) & (cap - 1);
}

/* Records b as the newest binding of its name in the index. */
static void
index_put(Scope *s, Binding *b)
{
	size_t j = slot_of(b->name, s->cap);
	while (s->index[j] && s->index[j]->name != b->name)
		j = (j + 1) & (s->cap - 1);
	s->index[j] = b;
}

/* Rebuilds the index at twice the size, from the oldest binding to the
 * newest so that each name ends on its newest. */
static void
index_grow(Arena *a, Scope *s)
{
	s->cap = s->cap ? 2 * s->cap : 4 * SCOPE_LINEAR;
	s->index = arena_alloc(a, s->cap * sizeof *s->index);
	Binding **order = arena_alloc(a, s->n * sizeof *order);
	size_t k = s->n;
	for (Binding *b = s->first; b; b = b->next)
		order[--k] = b;
	for (size_t i = 0; i < s->n; i++)
		index_put(s, order[i]);
}

static Binding *
scope_get(const Scope *s, const char *name)
{
	if (!s->index) {
		for (Binding *b = s->first; b; b = b->next)
			if (b->name == name)
				return b;
		return NULL;
	}
	for (size_t j = slot_of(name, s->cap); s->index[j]; j = (j + 1) & (s->cap - 1))
		if (s->index[j]->name == name)
			return s->index[j];
	return NULL;
}

Binding *
sema_scope_find(Check *ck, const char *name)
{
	Binding *b = ck->fr ? scope_get(&ck->fr->locals, name) : NULL;
	for (SemaModule *m = ck->mod; m && !b; m = m->enclosing)
		b = scope_get(&m->globals, name);
	return b;
}

Scope
sema_scope_snapshot(const Scope *s)
{
	return (Scope){.first = s->first, .n = s->n};
}

Binding *
sema_local_find(Check *ck, const char *name)
{
	return scope_get(ck->fr ? &ck->fr->locals : &ck->mod->globals, name);
}

void
sema_scope_bind(Check *ck, const char *name, Value *v, bool is_constexpr, SrcSpan at)
{
	Binding *b = arena_alloc(ck->a, sizeof *b);
	b->name = name;
	b->v = v;
	b->is_constexpr = is_constexpr;
	b->at = at;
	Scope *s = ck->fr ? &ck->fr->locals : &ck->mod->globals;
	b->next = s->first;
	s->first = b;
	s->n++;
	if (s->n > SCOPE_LINEAR && 2 * s->n > s->cap)
		index_grow(ck->a, s);
	else if (s->index)
		index_put(s, b);
}

size_t
sema_check_visible_names(Check *ck, const char **out, size_t max)
{
	size_t n = 0;
	if (ck->fr)
		for (Binding *b = ck->fr->locals.first; b && n < max; b = b->next)
			out[n++] = b->name;
	for (SemaModule *m = ck->mod; m; m = m->enclosing)
		for (Binding *b = m->globals.first; b && n < max; b = b->next)
			out[n++] = b->name;
	return n;
}

/* -- ranges ------------------------------------------------------------------ */

/* In unsigned arithmetic, so that any int64 bounds and step (INT64_MIN and
 * -1 included) neither overflow nor trap. */
uint64_t
sema_range_len(int64_t lo, int64_t hi, int64_t step)
{
	if (step > 0 ? lo >= hi : lo <= hi)
		return 0;
	uint64_t span = step > 0 ? (uint64_t)hi - (uint64_t)lo : (uint64_t)lo - (uint64_t)hi;
	uint64_t ustep = step > 0 ? (uint64_t)step : -(uint64_t)step;
	return (span - 1) / ustep + 1;
}

int64_t
sema_range_at(int64_t lo, int64_t step, uint64_t k)
{
	return (int64_t)((uint64_t)lo + k * (uint64_t)step);
}

/* -- limits ------------------------------------------------------------------ */

bool
sema_spend(Check *ck, SrcSpan at, LimitId id, uint64_t *spent, uint64_t n, const char *fmt,
           ...)
{
	uint64_t max = ck->lim->max[id];
	if (*spent > max)
		return false;   /* reported already */
	if (n <= max - *spent) {
		*spent += n;
		return true;
	}
	va_list ap;
	va_start(ap, fmt);
	const char *what = arena_vprintf(ck->a, fmt, ap);
	va_end(ap);
	Diag *g = *spent ? diag_error(ck->d, at, "%s, which passes the limit on %s (%llu "
	                              "earlier in this kernel)", what, limit_what(id),
	                              (unsigned long long)*spent)
	                 : diag_error(ck->d, at, "%s, which passes the limit on %s", what,
	                              limit_what(id));
	diag_limit_note(ck->d, g, ck->lim, id);
	*spent = max + 1;
	return false;
}
