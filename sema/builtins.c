/*
 * The table of builtin names: namespaces (gl, mbarrier, ...) and what they
 * hold. Lookups go through this table, never through string compares spread
 * over the checker.
 */
#include "sema/value.h"

#include <string.h>

typedef enum BuiltinKind { BI_NAMESPACE, BI_LAYOUT_CTOR } BuiltinKind;

/* Scopes a builtin is visible in (bit set); a namespace opens one scope. */
enum { IN_GLOBAL = 1, IN_GL = 2, IN_TTGL = 4, IN_MBARRIER = 8 };

struct Builtin {
	const char *name;
	BuiltinKind kind;
	unsigned visible_in;   /* IN_* bits */
	unsigned opens;        /* namespaces: the scope of their members */
};

/* Layout constructors are reachable bare (as after `from ... import
 * BlockedLayout`) and through gl./ttgl.; MBarrierLayout through mbarrier. */
#define LAYOUT_SCOPES (IN_GLOBAL | IN_GL | IN_TTGL)
static const Builtin table[] = {
	{"gl", BI_NAMESPACE, IN_GLOBAL, IN_GL},
	{"ttgl", BI_NAMESPACE, IN_GLOBAL, IN_TTGL},
	{"mbarrier", BI_NAMESPACE, IN_GLOBAL, IN_MBARRIER},
	{"BlockedLayout", BI_LAYOUT_CTOR, LAYOUT_SCOPES, 0},
	{"SliceLayout", BI_LAYOUT_CTOR, LAYOUT_SCOPES, 0},
	{"DotOperandLayout", BI_LAYOUT_CTOR, LAYOUT_SCOPES, 0},
	{"NVMMADistributedLayout", BI_LAYOUT_CTOR, LAYOUT_SCOPES, 0},
	{"DistributedLinearLayout", BI_LAYOUT_CTOR, LAYOUT_SCOPES, 0},
	{"NVMMASharedLayout", BI_LAYOUT_CTOR, LAYOUT_SCOPES, 0},
	{"SwizzledSharedLayout", BI_LAYOUT_CTOR, LAYOUT_SCOPES, 0},
	{"SharedLinearLayout", BI_LAYOUT_CTOR, LAYOUT_SCOPES, 0},
	{"MBarrierLayout", BI_LAYOUT_CTOR, IN_GLOBAL | IN_MBARRIER, 0},
};
#undef LAYOUT_SCOPES

static unsigned
scope_of(const Builtin *ns)
{
	return ns ? ns->opens : IN_GLOBAL;
}

const Builtin *
builtin_lookup(const Builtin *ns, const char *name)
{
	unsigned scope = scope_of(ns);
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if ((table[i].visible_in & scope) && strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

size_t
builtin_names(const Builtin *ns, const char **names, size_t max)
{
	unsigned scope = scope_of(ns);
	size_t n = 0;
	for (size_t i = 0; i < sizeof table / sizeof *table && n < max; i++)
		if (table[i].visible_in & scope)
			names[n++] = table[i].name;
	return n;
}

bool
builtin_is_layout_ctor(const Builtin *b)
{
	return b->kind == BI_LAYOUT_CTOR;
}

bool
builtin_is_namespace(const Builtin *b)
{
	return b->kind == BI_NAMESPACE;
}

const char *
builtin_name(const Builtin *b)
{
	return b->name;
}
