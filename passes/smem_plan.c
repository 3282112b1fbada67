/*
 * Shared-memory planning: the live range of every allocation (lexical, as
 * Gluon: from the allocation to the last instruction using it or a view of
 * it, and to the end of any loop entered after the allocation that uses
 * it; warp_specialize partitions run together, so their bodies count as one
 * such loop), then first-fit offsets so that allocations whose ranges
 * overlap never share bytes while dead space is reused. The per-block limit
 * is checked on the result; the error lists the allocations live at the
 * fullest point.
 */
#include "passes/passes.h"

enum { MAX_OPEN = 64 };

/* A loop (or the warp_specialize region) being walked: allocations used in
 * it that it does not contain live to its end. */
typedef struct Region {
	int start;
	VEC(int) extend;
} Region;

typedef struct Walk {
	Arena *a;
	TSmemAlloc *s;
	int n;                 /* instructions numbered so far */
	Region open[MAX_OPEN];
	int depth;
	int deeper;            /* regions nested past the MAX_OPEN tracked */
} Walk;

static void
use(Walk *w, int alloc, int at)
{
	TSmemAlloc *s = &w->s[alloc];
	if (at > s->last_use)
		s->last_use = at;
	for (int d = 0; d < w->depth; d++)
		if (w->open[d].start > s->first_use) {
			vec_push(w->a, &w->open[d].extend, alloc);
			return;
		}
}

static bool
is_region(const TInst *i)
{
	return i->op == OP_FOR || i->op == OP_WHILE || i->op == OP_WARP_SPECIALIZE;
}

/* Numbers instruction i (in the walk's preorder, the verifier's) and notes
 * the allocations it creates and uses; a loop or warp_specialize opens a
 * region. */
static IrStep
number(IrWalker *iw, TInst *i)
{
	Walk *w = iw->ctx;
	int at = w->n++;
	if (i->op == OP_SMEM_ALLOC) {
		w->s[i->attr.alloc].first_use = at;
		w->s[i->attr.alloc].last_use = at;
	}
	for (int k = 0; k < i->n_args; k++) {
		const TType *t = i->args[k] ? i->args[k]->type : NULL;
		if (t && (t->kind == TY_SMEM || t->kind == TY_MBARRIER))
			use(w, t->alloc, at);
	}
	if (is_region(i) && w->depth < MAX_OPEN)
		w->open[w->depth++] = (Region){.start = w->n};
	else if (is_region(i))
		w->deeper++;
	return IR_ON;
}

/* The end of i's region: what it extends lives to its last instruction. */
static IrStep
close_region(IrWalker *iw, TInst *i)
{
	Walk *w = iw->ctx;
	if (!is_region(i))
		return IR_ON;
	if (w->deeper) {
		w->deeper--;
		return IR_ON;
	}
	Region *r = &w->open[--w->depth];
	for (size_t e = 0; e < r->extend.len; e++) {
		TSmemAlloc *s = &w->s[r->extend.data[e]];
		if (w->n - 1 > s->last_use)
			s->last_use = w->n - 1;
	}
	return IR_ON;
}

static bool
overlaps(const TSmemAlloc *a, const TSmemAlloc *b)
{
	return a->first_use <= b->last_use && b->first_use <= a->last_use;
}

/* First fit: the lowest aligned offset clear of every placed allocation
 * live at the same time. */
static void
place(TSmemAlloc *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int64_t off = 0;
		for (bool moved = true; moved;) {
			moved = false;
			off = (off + s[i].align - 1) / s[i].align * s[i].align;
			for (size_t j = 0; j < i; j++)
				if (overlaps(&s[i], &s[j]) && off < s[j].offset + s[j].bytes &&
				    s[j].offset < off + s[i].bytes) {
					off = s[j].offset + s[j].bytes;
					moved = true;
				}
		}
		s[i].offset = off;
	}
}

static void
report(const TKernel *k, Diags *d, int64_t total)
{
	const TSmemAlloc *s = k->smem;
	size_t n = (size_t)k->n_smem;
	int64_t best = -1;
	int when = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t live = 0;
		for (size_t j = 0; j < n; j++)
			if (s[j].first_use <= s[i].first_use && s[i].first_use <= s[j].last_use)
				live += s[j].bytes;
		if (live > best) {
			best = live;
			when = s[i].first_use;
		}
	}
	Diag *g = diag_error(d, k->at, "kernel '%s' needs %lld bytes of shared memory; "
	                     "an H100/H200 block has at most %d (227 KB)", k->name,
	                     (long long)total, IR_SMEM_LIMIT);
	for (size_t i = 0; i < n; i++) {
		if (s[i].first_use > when || when > s[i].last_use)
			continue;
		StrBuf b = {0};
		ir_shape_print(s[i].shape, s[i].rank, &b);
		diag_note(d, g, s[i].at, "%s: %lld bytes: %s %s at offset %lld, live with the "
		          "others listed", s[i].name, (long long)s[i].bytes,
		          ir_dtype_name(s[i].dtype), b.s,
		          (long long)s[i].offset);
		buf_free(&b);
	}
}

/* Plans one kernel; false when its allocations exceed the limit. */
static bool
plan_kernel(TKernel *k, Arena *a, Diags *d)
{
	for (int i = 0; i < k->n_smem; i++) {
		k->smem[i].first_use = k->smem[i].last_use = 0;
		k->smem[i].offset = 0;
	}
	Walk w = {.a = a, .s = k->smem};
	ir_walk(&(IrWalker){.k = k, .ctx = &w, .pre = number, .post = close_region});
	place(k->smem, (size_t)k->n_smem);
	int64_t total = 0;
	for (int i = 0; i < k->n_smem; i++) {
		TSmemAlloc *s = &k->smem[i];
		if (!s->name)
			s->name = "smem";
		if (s->offset + s->bytes > total)
			total = s->offset + s->bytes;
	}
	k->smem_bytes = total;
	if (total <= IR_SMEM_LIMIT)
		return true;
	report(k, d, total);
	return false;
}

bool
pass_smem_plan(TProgram *p, Arena *a, Diags *d)
{
	bool ok = true;
	for (int i = 0; i < p->n_kernels; i++)
		ok = plan_kernel(p->kernels[i], a, d) && ok;
	return ok;
}
