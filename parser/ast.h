/*
 * The syntax tree. One node type: a kind, the span of the whole construct,
 * and a union whose live arm each NodeKind names. Lists are NodeList.
 */
#ifndef AST_H
#define AST_H

#include "support/support.h"

typedef struct Node Node;
typedef VEC(Node *) NodeList;

typedef enum NodeKind {
	/* module and statements */
	N_MODULE,      /* u.module: the top-level statements */
	N_IMPORT,      /* u.import: `import a.b as c, d` (from == NULL) or
	                  `from a.b import c as d, e`; names are N_ALIAS */
	N_ALIAS,       /* u.alias: dotted name and optional `as` name */
	N_FUNC,        /* u.func: decorated def with parameters and body */
	N_PARAM,       /* u.param: name, optional annotation and default */
	N_ASSIGN,      /* u.assign: targets (chained `a = b = v` has two), value */
	N_AUG_ASSIGN,  /* u.aug: target op= value */
	N_ANN_ASSIGN,  /* u.ann: target: annotation [= value] */
	N_IF,          /* u.if_: cond, then, else (an elif is an else holding one N_IF) */
	N_FOR,         /* u.for_: target in iter: body */
	N_WHILE,       /* u.while_: cond: body */
	N_BREAK,       /* no arm */
	N_CONTINUE,    /* no arm */
	N_PASS,        /* no arm */
	N_RETURN,      /* u.ret: value or NULL (a tuple for `return a, b`) */
	N_ASSERT,      /* u.assert_: cond [, msg] */
	N_EXPR_STMT,   /* u.expr_stmt: the expression */
	/* expressions */
	N_NAME,        /* u.name: interned identifier */
	N_INT,         /* u.int_: value */
	N_FLOAT,       /* u.float_: value */
	N_STRING,      /* u.str: decoded bytes (adjacent literals joined) */
	N_BOOL,        /* u.boolean: True or False */
	N_NONE,        /* no arm */
	N_UNARY,       /* u.unary: op operand */
	N_BINARY,      /* u.binary: lhs op rhs (arithmetic and bitwise) */
	N_LOGICAL,     /* u.binary: lhs and/or rhs (op is BIN_AND or BIN_OR) */
	N_COMPARE,     /* u.compare: operands[0] ops[0] operands[1] ops[1] ... */
	N_COND,        /* u.cond: then if cond else else_ */
	N_CALL,        /* u.call: callee(args..., kwargs...) */
	N_KEYWORD,     /* u.keyword: name=value inside a call */
	N_ATTR,        /* u.attr: obj.name */
	N_SUBSCRIPT,   /* u.subscript: obj[index]; several indices form an N_TUPLE */
	N_SLICE,       /* u.slice: lo:hi:step, each may be NULL */
	N_TUPLE,       /* u.list: items */
	N_LIST,        /* u.list: items */
	N_SET,         /* u.list: items of a set display {a, b} */
	N_DICT,        /* u.dict: keys[i]: values[i]; a NULL key is `**values[i]` */
	N_COMP,        /* u.comp: a comprehension [elt for ...], {elt for ...},
	                  {key: elt for ...} or a generator (elt for ...) */
	N_COMP_FOR,    /* u.comp_for: `for target in iter if ifs...` of an N_COMP */
	N_LAMBDA,      /* u.func: `lambda params: value` (name "<lambda>", the body
	                  one N_RETURN) */
	N_STARRED,     /* u.starred: `*value` (or `**value` when double) in a call,
	                  a display or a target */
	N_ELLIPSIS,    /* `...`; no arm */
	/* host Python: parsed, never compiled */
	N_CLASS,       /* u.class_: decorated `class name(bases): body` */
	N_HOST,        /* u.host: a statement only host code uses (with, try,
	                  raise, global, nonlocal, del, yield): `what` names it;
	                  `value` is the exception of a raise, else NULL */
} NodeKind;

typedef enum CompKind { COMP_LIST, COMP_SET, COMP_DICT, COMP_GEN } CompKind;

typedef enum UnOp { UN_NEG, UN_POS, UN_INVERT, UN_NOT } UnOp;

typedef enum BinOp {
	BIN_ADD, BIN_SUB, BIN_MUL, BIN_DIV, BIN_FLOORDIV, BIN_MOD, BIN_POW,
	BIN_MATMUL, BIN_SHL, BIN_SHR, BIN_BITAND, BIN_BITOR, BIN_BITXOR,
	BIN_AND, BIN_OR,
} BinOp;

typedef enum CmpOp {
	CMP_LT, CMP_GT, CMP_LE, CMP_GE, CMP_EQ, CMP_NE, CMP_IS, CMP_IS_NOT,
	CMP_IN, CMP_NOT_IN,
} CmpOp;

struct Node {
	NodeKind kind;
	SrcSpan span;       /* the whole construct */
	uint32_t nest;      /* expression depth below this node (bounded by the
	                       parser, so that tree walks may recurse) */
	union {
		struct { NodeList body; } module;
		struct { const char *from; NodeList names; } import;
		struct { const char *name, *as; SrcSpan as_span; } alias;
		struct {
			const char *name;
			NodeList decorators;   /* expressions, in source order */
			NodeList params;       /* N_PARAM */
			Node *returns;         /* `-> T` or NULL */
			NodeList body;
		} func;
		struct {
			const char *name;      /* "*" for a bare `*` */
			Node *annot, *dflt;
			int star;              /* 1: `*name`, 2: `**name` */
		} param;
		struct { NodeList targets; Node *value; } assign;
		struct { BinOp op; Node *target, *value; } aug;
		struct { Node *target, *annot, *value; } ann;
		struct { Node *cond; NodeList then, else_; } if_;
		struct { Node *target, *iter; NodeList body, else_; } for_;
		struct { Node *cond; NodeList body, else_; } while_;
		struct { Node *value; } ret;
		struct { Node *cond, *msg; } assert_;
		struct { Node *expr; } expr_stmt;
		struct { const char *id; } name;
		struct { uint64_t value; } int_;
		struct { double value; } float_;
		struct { const char *value; size_t len, cap; } str;  /* cap: bytes
		                                                        allocated (joining) */
		struct { bool value; } boolean;
		struct { UnOp op; Node *operand; } unary;
		struct { BinOp op; Node *lhs, *rhs; } binary;
		struct { NodeList operands; VEC(CmpOp) ops; } compare;
		struct { Node *cond, *then, *else_; } cond;
		struct { Node *callee; NodeList args, kwargs; } call;
		struct { const char *name; Node *value; } keyword;
		struct { Node *obj; const char *name; SrcSpan name_span; } attr;
		struct { Node *obj, *index; } subscript;
		struct { Node *lo, *hi, *step; } slice;
		struct { NodeList items; } list;
		struct { NodeList keys, values; } dict;
		struct { CompKind kind; Node *key, *elt; NodeList fors; } comp;
		struct { Node *target, *iter; NodeList ifs; } comp_for;
		struct { Node *value; bool dbl; } starred;
		struct {
			const char *name;
			NodeList decorators;
			Node *bases;           /* an N_CALL holding the bases and keywords, or NULL */
			NodeList body;
		} class_;
		struct { const char *what; Node *value; } host;
	} u;
};

#endif
