/*
 * The evaluation context of compile-time values (sema/value): where they
 * are allocated and diagnostics go, and the one budget of compile-time
 * evaluation (steps and bytes, sema/value/budget.c) with the depths that
 * evaluation and the walks of values never pass.
 */
#ifndef SEMA_VALUE_BUDGET_H
#define SEMA_VALUE_BUDGET_H

#include "sema/sema.h"

typedef struct Check Check;
typedef struct Value Value;

/* The evaluation context: where values are allocated and diagnostics go,
 * and the checker (NULL: compile-time values only, as for `glc layout`),
 * whose scopes names are looked up in and which runtime values reach. */
typedef struct Eval {
	Arena *arena;
	Diags *diags;
	Check *ck;      /* non-NULL while checking kernels: runtime values allowed */
	/* The one budget of compile-time evaluation in this compilation:
	 * steps (statements run, calls, items made, copied or compared) against
	 * --max-eval-steps, and the bytes allocated in the arena since
	 * arena_base (values, scopes, the kernels built) against
	 * --max-eval-bytes (lim; NULL: the defaults); over: reported, the
	 * evaluation unwinds. */
	const Limits *lim;
	uint64_t steps;
	size_t arena_base;
	bool over;
	int depth;      /* expressions being evaluated inside each other */
} Eval;

/* How deep evaluations may nest (sema_eval_expr inside itself): an error
 * past it, not a stack overflow. */
enum { SEMA_MAX_EVAL_DEPTH = 5000 };

/* How deep values may nest in each other where they are walked (printed,
 * compared): a list that holds itself, or one nested a million deep by a
 * loop, is an error there rather than a stack overflow. */
enum { SEMA_MAX_VALUE_DEPTH = 1000 };

/* Charges steps to e's budget and checks that `bytes` more may be
 * allocated (sema/value/budget.c): false, after one error at `at` naming
 * the limit and its option, once either is passed; every later charge
 * fails without a report. */
bool sema_charge(Eval *e, SrcSpan at, uint64_t steps, uint64_t bytes);
/* Room for n item pointers, charged (n steps and their bytes) before it is
 * allocated; NULL after the report when the budget does not allow it. */
Value **sema_items_alloc(Eval *e, SrcSpan at, size_t n);
/* Appends x to list l in place, its items growing geometrically (so that
 * n appends cost O(n)); false when the budget does not allow it. */
bool sema_list_push(Eval *e, SrcSpan at, Value *l, Value *x);

#endif
