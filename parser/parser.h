/*
 * parser: a bison (LALR, pure) parser over the tokens of lex_file, building
 * the syntax tree of parser/ast.h in the caller's arena. Syntax errors go to
 * a Diags sink with plain-words messages; parsing resumes at the next
 * statement, so one run reports the errors of several statements.
 */
#ifndef PARSER_H
#define PARSER_H

#include "parser/ast.h"

/* Parses file `file` into a Module node; syntax errors go to d; returns NULL
 * only if nothing usable. lim (NULL: none) bounds its tokens (lex_file). */
Node *parse_module(Arena *a, Interner *in, const Sources *src, uint32_t file, Diags *d,
                   const Limits *lim);

/* Parses the whole of `file` as one expression (used for layout text on the
 * command line); NULL after a syntax error. */
Node *parse_expression(Arena *a, Interner *in, const Sources *src, uint32_t file,
                       Diags *d);

/* A stable, readable indented dump of the tree, with line:col of every node
 * (`glc --emit=ast`). */
void parse_dump(const Node *n, const Sources *src, StrBuf *out);

/* The source spelling of an operator ("+", "not in", "and"). */
const char *parse_binop_spelling(BinOp op);
const char *parse_unop_spelling(UnOp op);
const char *parse_cmpop_spelling(CmpOp op);

#endif
