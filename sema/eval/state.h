/*
 * The state of checking one module, which every room of sema above this
 * one shares: the modules read and their scopes, the frames of the
 * functions being inlined or run, the @aggregate classes, and the kernel
 * being built (its blocks, variables and shared-memory allocations); and
 * the hooks through which the evaluator reaches the checker.
 */
#ifndef SEMA_EVAL_STATE_H
#define SEMA_EVAL_STATE_H

#include "sema/value/value.h"

/* A name bound in a function (or module) scope: a value, possibly holding
 * variables (VAL_VAR leaves: names assigned in runtime control flow). */
typedef struct Binding Binding;
struct Binding {
	const char *name;     /* interned */
	Value *v;             /* compile-time or runtime value, or variables */
	bool is_constexpr;    /* declared `: gl.constexpr` */
	/* variables made by the name's first assignment inside runtime control
	 * flow: the block that assignment is in (else NULL) */
	const TBlock *born_in;
	SrcSpan at;
	Binding *next;
};

/* The bindings of one scope, newest first, with a hash index from name to
 * the newest binding of it once there are more than a few, so that looking
 * up a name costs the same however many there are. */
typedef struct Scope {
	Binding *first;
	Binding **index;      /* open addressing on the interned name; NULL: none */
	size_t cap, n;        /* slots of index (a power of two), bindings */
} Scope;

/* A source file whose top-level names are in scope: the file compiled, or
 * a Gluon file it imports. */
struct SemaModule {
	const char *name;     /* the import name; "" for the file compiled */
	const Node *ast;      /* N_MODULE */
	uint32_t file;
	bool python;          /* a .py file: lazy globals, decorators say what a def is */
	Scope globals;
	/* a def's scope (its local names, for the functions defined in it):
	 * names it lacks are looked up in this enclosing scope */
	SemaModule *enclosing;
	SemaModule *next;
};

/* An @aggregate class: its annotated fields, in order, and its body. */
struct SemaClass {
	const char *name;
	const Node *node;     /* N_CLASS */
	SemaModule *mod;
	const char **fields;
	bool *constexpr_fields;   /* annotated constexpr: never a variable */
	size_t n_fields;
};

/* What a def is, from its decorators. */
typedef enum FuncKind { FK_JIT, FK_CONSTEXPR, FK_HOST } FuncKind;

/* A return inside a runtime if (sema/check/returns.c): its value and the block it
 * ends. */
typedef struct ReturnSite {
	TBlock *blk;
	Value *v;
	SrcSpan at;
} ReturnSite;

/* One inlined function (or the kernel itself). */
typedef struct Frame Frame;
struct Frame {
	Scope locals;
	const Node *func;
	Value *ret;           /* the returned value once `return` ran */
	bool returned;
	int rt_depth;         /* runtime control flow nesting inside this frame */
	int capture;          /* runtime ifs that return around the code checked;
	                         -1 in a runtime loop, which return cannot leave */
	VEC(ReturnSite) sites;    /* the returns met in them */
	SrcSpan call_at;      /* an inlined function: the call that inlined it */
	bool tl;              /* a @triton.jit function: layouts are inferred as
	                         Triton's passes infer them (soft conversions) */
	Frame *up;
};

enum { MAX_INLINE_DEPTH = 32 };

/* What the evaluator hands to the checker: the one way from this room to
 * sema/check, whose hooks.c fills the table. lookup reads a name (a
 * variable of runtime control flow is read in the block being built);
 * unary, binary and compare are operators with a runtime operand, arith
 * the and/or of runtime truth values; attr, subscript and method_call act
 * on runtime values and types; builtin_call checks a call of a builtin
 * function; block checks the body of an inlined @gl.jit function. */
typedef struct EvalHooks {
	const Value *(*lookup)(Check *ck, const char *name);
	Value *(*unary)(Check *ck, const Node *n, UnOp op, Value *x);
	Value *(*binary)(Check *ck, const Node *n, BinOp op, Value *x, Value *y);
	Value *(*compare)(Check *ck, SrcSpan at, CmpOp op, Value *x, Value *y);
	TValue *(*arith)(Check *ck, SrcSpan at, TOp op, Value *x, Value *y);
	Value *(*attr)(Check *ck, const Node *n, Value *obj);
	Value *(*subscript)(Check *ck, const Node *n, Value *obj);
	Value *(*method_call)(Check *ck, const Node *call, Value *m);
	Value *(*builtin_call)(Check *ck, const Node *call, const Builtin *b);
	void (*block)(Check *ck, const NodeList *stmts);
} EvalHooks;

struct Check {
	Arena *a;
	Diags *d;
	Interner *in;
	Sources *src;
	Eval ev;
	const EvalHooks *hooks;   /* the checker's side of evaluation */
	SemaModule *mod;      /* the module whose globals are in scope */
	SemaModule *modules;  /* every module read, the compiled file first */
	VEC(const Node *) fn_nodes;   /* functions and classes of every module ... */
	VEC(SemaModule *) fn_mods;    /* ... and the module each belongs to */
	VEC(const SemaClass *) classes;   /* the @aggregate classes met */
	const SemaGluon *gluon;       /* a .py compilation: its options; else NULL */
	/* evaluating a -s entry, which is the host's launch argument: plain
	 * defs it calls run as compile-time Python */
	bool host;
	Frame *fr;
	TKernel *k;           /* NULL at module level */
	TBlock *blk;
	bool in_partition;    /* inlining a warp_specialize partition */
	int inline_depth;
	const Limits *lim;    /* --max-unroll, --max-inline, ... */
	uint64_t unrolled;    /* static_range bodies unrolled in this kernel pass */
	uint64_t inlined;     /* @gl.jit calls inlined in this kernel pass */
	VEC(TVar *) vars;
	VEC(TSmemAlloc) smem;
	VEC(const TInst *) defs;  /* by value id: the instruction that made it */
	VEC(TValue *) written;    /* by variable id: the value written to it last */
	VEC(bool) unfenced;   /* per allocation: generic write not yet fenced */
	VEC(const char *) cx_names;
	VEC(const char *) cx_values;
	/* layout inference: the probe pass records, the final pass applies */
	int auto_next;                /* AutoLayout ids given out in this kernel */
	/* the builtin being called (its row names it in diagnostics: gl. or tl.) */
	const Builtin *call;
	/* glc's tl prelude, read when first needed (sema/eval/prelude.c) */
	SemaModule **prelude;
	size_t n_prelude;
	bool prelude_read;
};

#endif
