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
} NodeKind;

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
		struct { const char *name; Node *annot, *dflt; } param;
		struct { NodeList targets; Node *value; } assign;
		struct { BinOp op; Node *target, *value; } aug;
		struct { Node *target, *annot, *value; } ann;
		struct { Node *cond; NodeList then, else_; } if_;
		struct { Node *target, *iter; NodeList body; } for_;
		struct { Node *cond; NodeList body; } while_;
		struct { Node *value; } ret;
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
	} u;
};

#endif
