/*
 * Compile-time values and their evaluation (internal to sema). A Value is
 * what a constexpr expression evaluates to; it remembers where it was
 * written so that later checks can point at it.
 */
#ifndef SEMA_VALUE_H
#define SEMA_VALUE_H

#include "sema/sema.h"

typedef enum ValueKind {
	VAL_NONE,      /* None */
	VAL_INT,       /* u.i */
	VAL_FLOAT,     /* u.f */
	VAL_BOOL,      /* u.b */
	VAL_STR,       /* u.str */
	VAL_LIST,      /* u.list */
	VAL_TUPLE,     /* u.list */
	VAL_LAYOUT,    /* u.layout */
	VAL_BUILTIN,   /* u.builtin: a named builtin (namespace or constructor) */
} ValueKind;

typedef struct Builtin Builtin;
typedef struct Value Value;

struct Value {
	ValueKind kind;
	SrcSpan span;
	union {
		int64_t i;
		double f;
		bool b;
		struct { const char *s; size_t len; } str;
		struct { Value **items; size_t n; } list;
		const LLDesc *layout;
		const Builtin *builtin;
	} u;
};

/* The evaluation context. Names are looked up through `lookup` (NULL: only
 * builtins); the callback returns NULL for an unknown name. */
typedef struct Eval {
	Arena *arena;
	Diags *diags;
	const Value *(*lookup)(void *ctx, const char *name);
	void *ctx;
} Eval;

/* The value of a constexpr expression, or NULL after reporting why not. */
Value *eval_expr(Eval *e, const Node *n);
/* "an integer", "a list", ... for messages. */
const char *value_kind_phrase(const Value *v);

/* Calls a layout constructor builtin with evaluated arguments. */
Value *eval_layout_ctor(Eval *e, const Builtin *ctor, const Node *call);
/* The layout constructors known to eval_layout_ctor, by index. */
size_t layout_ctor_count(void);
const char *layout_ctor_name(size_t i);

/* The builtin called `name` inside namespace ns (NULL: the global scope). */
const Builtin *builtin_lookup(const Builtin *ns, const char *name);
/* Names available inside ns, for "did you mean". */
size_t builtin_names(const Builtin *ns, const char **names, size_t max);
bool builtin_is_layout_ctor(const Builtin *b);
bool builtin_is_namespace(const Builtin *b);
const char *builtin_name(const Builtin *b);

#endif
