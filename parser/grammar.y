/*
 * The grammar of the kernel language: Python's statement and expression
 * syntax, cut to what kernels use. Actions only build nodes (build.c);
 * precedence is encoded in the levels of the expression rules. Error
 * recovery: a bad statement is skipped up to its NEWLINE.
 */
%define api.pure full
%define api.prefix {parse_yy}
%define api.token.prefix {T_}
%define api.location.type {SrcSpan}
%define parse.error custom
%define parse.lac full
%locations
%param {Parser *p}

%code requires {
#include "parser/parser_internal.h"
}

%code provides {
int parse_yylex(PARSE_YYSTYPE *lval, SrcSpan *lloc, Parser *p);
void parse_yyerror(SrcSpan *loc, Parser *p, const char *msg);
}

%code {
/* The span of a rule: from its first to its last symbol; an empty rule is a
 * point just after the previous symbol. */
#define YYLLOC_DEFAULT(cur, rhs, n)                                             \
	do {                                                                    \
		if (n) {                                                        \
			(cur) = span_join(YYRHSLOC(rhs, 1), YYRHSLOC(rhs, n));  \
		} else {                                                        \
			(cur) = YYRHSLOC(rhs, 0);                               \
			(cur).col += (cur).len;                                 \
			(cur).len = 0;                                          \
		}                                                               \
	} while (0)
}

%union {
	const Token *tok;
	Node *node;
	NodeList list;
	int op;
	const char *str;
	bool flag;
}

%token EOF 0 "end of file"
%token <tok> NEWLINE "end of line" INDENT "indent" DEDENT "end of block"
%token <tok> NAME "identifier" INT "integer" FLOAT "number" STRING "string"
%token <tok> DEF "'def'" IF "'if'" ELIF "'elif'" ELSE "'else'" FOR "'for'"
%token <tok> IN "'in'" WHILE "'while'" BREAK "'break'" CONTINUE "'continue'"
%token <tok> RETURN "'return'" PASS "'pass'" AND "'and'" OR "'or'" NOT "'not'"
%token <tok> IS "'is'" NONE "'None'" TRUE "'True'" FALSE "'False'"
%token <tok> IMPORT "'import'" FROM "'from'" AS "'as'" LAMBDA "'lambda'"
%token <tok> ASSERT "'assert'" CLASS "'class'" WITH "'with'" TRY "'try'"
%token <tok> EXCEPT "'except'" FINALLY "'finally'" RAISE "'raise'" GLOBAL "'global'"
%token <tok> NONLOCAL "'nonlocal'" DEL "'del'" YIELD "'yield'"
%token <tok> PLUS "'+'" MINUS "'-'" STAR "'*'" SLASH "'/'" SLASHSLASH "'//'"
%token <tok> PERCENT "'%'" STARSTAR "'**'" AT "'@'" SHL "'<<'" SHR "'>>'"
%token <tok> AMP "'&'" PIPE "'|'" CARET "'^'" TILDE "'~'" LT "'<'" GT "'>'"
%token <tok> LE "'<='" GE "'>='" EQEQ "'=='" NE "'!='" ASSIGN "'='"
%token <tok> PLUSEQ "'+='" MINUSEQ "'-='" STAREQ "'*='" SLASHEQ "'/='"
%token <tok> SLASHSLASHEQ "'//='" PERCENTEQ "'%='" AMPEQ "'&='" PIPEEQ "'|='"
%token <tok> CARETEQ "'^='" SHLEQ "'<<='" SHREQ "'>>='" STARSTAREQ "'**='"
%token <tok> ATEQ "'@='" ARROW "'->'" COLON "':'" SEMI "';'" COMMA "','"
%token <tok> DOT "'.'" LPAREN "'('" RPAREN "')'" LBRACKET "'['"
%token <tok> RBRACKET "']'" LBRACE "'{'" RBRACE "'}'" ELLIPSIS "'...'" COLONEQ "':='"
%token START_MODULE START_EXPR

%type <list> stmts stmt_line simple_stmts block elif_tail decorators
%type <list> seq eseq sub_seq import_names dotted_as_list comp_for else_opt
%type <list> dict_items set_items lparams except_clauses
%type <node> small compound expr_stmt assign_chain import_stmt dotted_as
%type <node> import_name funcdef param_list params param if_stmt for_stmt while_stmt
%type <node> testlist test or_test and_test not_test comparison comp_chain
%type <node> expr xor_expr and_expr shift_expr arith term factor power
%type <node> primary atom strings tuple_items for_target subscripts
%type <node> subscript slice test_opt arg args ret_opt lambdef lparam dict_item
%type <node> star_expr test_or_star classdef class_args with_stmt try_stmt host_small
%type <op> comp_op aug_op
%type <str> dotted

%start start

%%

start
	: START_MODULE file
	| START_EXPR test            { p->result = $2; }
	;

file
	: %empty                     { p->result = parse_node(p, N_MODULE, @$); }
	| stmts                      {
		p->result = parse_node(p, N_MODULE, @$);
		p->result->u.module.body = $1;
	}
	;

/* Statements; a bad one is skipped to its NEWLINE, and a stray indented
 * block is reported (unless it follows a skipped statement) and kept. */
stmts
	: stmt_line                  { $$ = $1; p->tail_error = false; }
	| stmts stmt_line            { $$ = $1; parse_append(p, &$$, &$2); p->tail_error = false; }
	| error NEWLINE              { $$ = parse_list1(p, NULL); p->tail_error = true; yyerrok; }
	| stmts error NEWLINE        { $$ = $1; p->tail_error = true; yyerrok; }
	| INDENT stmts DEDENT        {
		$$ = $2;
		diag_error(p->d, @1, "unexpected indent");
	}
	| stmts INDENT { $<flag>$ = p->tail_error; } stmts DEDENT {
		$$ = $1;
		parse_append(p, &$$, &$4);
		if (!$<flag>3)
			diag_error(p->d, @2, "unexpected indent");
		p->tail_error = false;
	}
	;

stmt_line
	: simple_stmts NEWLINE       { $$ = $1; }
	| simple_stmts SEMI NEWLINE  { $$ = $1; }
	| compound                   { $$ = parse_list1(p, $1); }
	;

simple_stmts
	: small                      { $$ = parse_list1(p, $1); }
	| simple_stmts SEMI small    { $$ = $1; vec_push(p->arena, &$$, $3); }
	;

small
	: expr_stmt
	| PASS                       { $$ = parse_node(p, N_PASS, @$); }
	| BREAK                      { $$ = parse_node(p, N_BREAK, @$); }
	| CONTINUE                   { $$ = parse_node(p, N_CONTINUE, @$); }
	| RETURN                     { $$ = parse_node(p, N_RETURN, @$); }
	| RETURN testlist            { $$ = parse_node(p, N_RETURN, @$); $$->u.ret.value = $2; }
	| ASSERT test                { $$ = parse_node(p, N_ASSERT, @$); $$->u.assert_.cond = $2; }
	| ASSERT test COMMA test     {
		$$ = parse_node(p, N_ASSERT, @$);
		$$->u.assert_.cond = $2;
		$$->u.assert_.msg = $4;
	}
	| import_stmt
	| host_small
	;

/* Host statements: parsed so that host code reads, never compiled. */
host_small
	: RAISE                      { $$ = parse_host(p, "raise", NULL, @$); }
	| RAISE test                 { $$ = parse_host(p, "raise", $2, @$); }
	| RAISE test FROM test       { $$ = parse_host(p, "raise", $2, @$); }
	| GLOBAL name_list           { $$ = parse_host(p, "global", NULL, @$); }
	| NONLOCAL name_list         { $$ = parse_host(p, "nonlocal", NULL, @$); }
	| DEL testlist               { $$ = parse_host(p, "del", NULL, @$); }
	| YIELD                      { $$ = parse_host(p, "yield", NULL, @$); }
	| YIELD testlist             { $$ = parse_host(p, "yield", NULL, @$); }
	| YIELD FROM test            { $$ = parse_host(p, "yield", NULL, @$); }
	;

name_list: NAME | name_list COMMA NAME ;

expr_stmt
	: testlist                   { $$ = parse_node(p, N_EXPR_STMT, @$); $$->u.expr_stmt.expr = $1; }
	| assign_chain
	| testlist aug_op testlist   {
		parse_check_single_target(p, $1, "augmented assignment");
		$$ = parse_node(p, N_AUG_ASSIGN, @$);
		$$->u.aug.op = (BinOp)$2;
		$$->u.aug.target = $1;
		$$->u.aug.value = $3;
	}
	| test COLON test            {
		parse_check_single_target(p, $1, "annotated assignment");
		$$ = parse_node(p, N_ANN_ASSIGN, @$);
		$$->u.ann.target = $1;
		$$->u.ann.annot = $3;
	}
	| test COLON test ASSIGN testlist {
		parse_check_single_target(p, $1, "annotated assignment");
		$$ = parse_node(p, N_ANN_ASSIGN, @$);
		$$->u.ann.target = $1;
		$$->u.ann.annot = $3;
		$$->u.ann.value = $5;
	}
	;

assign_chain
	: testlist ASSIGN testlist   {
		parse_check_target(p, $1);
		$$ = parse_node(p, N_ASSIGN, @$);
		vec_push(p->arena, &$$->u.assign.targets, $1);
		$$->u.assign.value = $3;
	}
	| assign_chain ASSIGN testlist {
		$$ = $1;
		parse_check_target(p, $$->u.assign.value);
		vec_push(p->arena, &$$->u.assign.targets, $$->u.assign.value);
		$$->u.assign.value = $3;
		$$->span = @$;
	}
	;

aug_op
	: PLUSEQ { $$ = BIN_ADD; }        | MINUSEQ { $$ = BIN_SUB; }
	| STAREQ { $$ = BIN_MUL; }        | SLASHEQ { $$ = BIN_DIV; }
	| SLASHSLASHEQ { $$ = BIN_FLOORDIV; } | PERCENTEQ { $$ = BIN_MOD; }
	| AMPEQ { $$ = BIN_BITAND; }      | PIPEEQ { $$ = BIN_BITOR; }
	| CARETEQ { $$ = BIN_BITXOR; }    | SHLEQ { $$ = BIN_SHL; }
	| SHREQ { $$ = BIN_SHR; }         | STARSTAREQ { $$ = BIN_POW; }
	| ATEQ { $$ = BIN_MATMUL; }
	;

import_stmt
	: IMPORT dotted_as_list      {
		$$ = parse_node(p, N_IMPORT, @$);
		$$->u.import.names = $2;
	}
	| FROM dotted IMPORT import_names {
		$$ = parse_node(p, N_IMPORT, @$);
		$$->u.import.from = $2;
		$$->u.import.names = $4;
	}
	| FROM dotted IMPORT LPAREN import_names RPAREN {
		$$ = parse_node(p, N_IMPORT, @$);
		$$->u.import.from = $2;
		$$->u.import.names = $5;
	}
	| FROM dotted IMPORT LPAREN import_names COMMA RPAREN {
		$$ = parse_node(p, N_IMPORT, @$);
		$$->u.import.from = $2;
		$$->u.import.names = $5;
	}
	;

dotted
	: NAME                       { $$ = $1->text; }
	| dotted DOT NAME            { $$ = parse_dotted(p, $1, $3->text); }
	;

dotted_as_list
	: dotted_as                  { $$ = parse_list1(p, $1); }
	| dotted_as_list COMMA dotted_as { $$ = $1; vec_push(p->arena, &$$, $3); }
	;

dotted_as
	: dotted                     { $$ = parse_node(p, N_ALIAS, @$); $$->u.alias.name = $1; }
	| dotted AS NAME             {
		$$ = parse_node(p, N_ALIAS, @$);
		$$->u.alias.name = $1;
		$$->u.alias.as = $3->text;
		$$->u.alias.as_span = @3;
	}
	;

import_names
	: import_name                { $$ = parse_list1(p, $1); }
	| import_names COMMA import_name { $$ = $1; vec_push(p->arena, &$$, $3); }
	;

import_name
	: NAME                       { $$ = parse_node(p, N_ALIAS, @$); $$->u.alias.name = $1->text; }
	| NAME AS NAME               {
		$$ = parse_node(p, N_ALIAS, @$);
		$$->u.alias.name = $1->text;
		$$->u.alias.as = $3->text;
		$$->u.alias.as_span = @3;
	}
	;

compound
	: if_stmt | for_stmt | while_stmt | funcdef | classdef | with_stmt | try_stmt
	| decorators funcdef         {
		$$ = $2;
		$$->u.func.decorators = $1;
		$$->span = @$;
	}
	| decorators classdef        {
		$$ = $2;
		$$->u.class_.decorators = $1;
		$$->span = @$;
	}
	;

classdef
	: CLASS NAME class_args COLON block {
		$$ = parse_node(p, N_CLASS, @$);
		$$->u.class_.name = $2->text;
		$$->u.class_.bases = $3;
		$$->u.class_.body = $5;
	}
	;

class_args
	: %empty { $$ = NULL; } | LPAREN RPAREN { $$ = parse_node(p, N_CALL, @$); }
	| LPAREN args RPAREN { $$ = $2; } | LPAREN args COMMA RPAREN { $$ = $2; }
	;

with_stmt
	: WITH with_items COLON block { $$ = parse_host(p, "with", NULL, @$); }
	;

with_items: with_item | with_items COMMA with_item ;
with_item: test | test AS expr ;

try_stmt
	: TRY COLON block except_clauses else_opt { $$ = parse_host(p, "try", NULL, @$); }
	| TRY COLON block except_clauses else_opt FINALLY COLON block { $$ = parse_host(p, "try", NULL, @$); }
	| TRY COLON block FINALLY COLON block { $$ = parse_host(p, "try", NULL, @$); }
	;

except_clauses
	: except_clause block        { $$ = $2; }
	| except_clauses except_clause block { $$ = $1; }
	;

except_clause: EXCEPT COLON | EXCEPT test COLON | EXCEPT test AS NAME COLON ;

else_opt
	: %empty                     { $$ = parse_list1(p, NULL); }
	| ELSE COLON block           { $$ = $3; }
	;

decorators
	: AT test NEWLINE            { $$ = parse_list1(p, $2); }
	| decorators AT test NEWLINE { $$ = $1; vec_push(p->arena, &$$, $3); }
	;

funcdef
	: DEF NAME LPAREN param_list RPAREN ret_opt COLON block {
		$$ = $4;
		$$->span = @$;
		$$->u.func.name = $2->text;
		$$->u.func.returns = $6;
		$$->u.func.body = $8;
	}
	;

/* The parameters, gathered in an N_FUNC that funcdef completes. */
param_list
	: %empty                     { $$ = parse_node(p, N_FUNC, @$); }
	| params
	| params COMMA
	;

params
	: param                      { $$ = parse_node(p, N_FUNC, @$); parse_add_param(p, $$, $1); }
	| params COMMA param         { $$ = $1; parse_add_param(p, $$, $3); }
	;

param
	: NAME                       { $$ = parse_param(p, $1, NULL, NULL, @$); }
	| NAME COLON test            { $$ = parse_param(p, $1, $3, NULL, @$); }
	| NAME ASSIGN test           { $$ = parse_param(p, $1, NULL, $3, @$); }
	| NAME COLON test ASSIGN test { $$ = parse_param(p, $1, $3, $5, @$); }
	| STAR                       { $$ = parse_star_param(p, NULL, 1, NULL, @$); }
	| STAR NAME                  { $$ = parse_star_param(p, $2, 1, NULL, @$); }
	| STAR NAME COLON test       { $$ = parse_star_param(p, $2, 1, $4, @$); }
	| STARSTAR NAME              { $$ = parse_star_param(p, $2, 2, NULL, @$); }
	| STARSTAR NAME COLON test   { $$ = parse_star_param(p, $2, 2, $4, @$); }
	| SLASH                      { $$ = NULL; }
	;

ret_opt
	: %empty                     { $$ = NULL; }
	| ARROW test                 { $$ = $2; }
	;

block
	: simple_stmts NEWLINE       { $$ = $1; }
	| simple_stmts SEMI NEWLINE  { $$ = $1; }
	| NEWLINE INDENT stmts DEDENT { $$ = $3; }
	;

if_stmt
	: IF test COLON block elif_tail {
		$$ = parse_node(p, N_IF, @$);
		$$->u.if_.cond = $2;
		$$->u.if_.then = $4;
		$$->u.if_.else_ = $5;
	}
	;

elif_tail
	: %empty                     { $$ = parse_list1(p, NULL); }
	| ELSE COLON block           { $$ = $3; }
	| ELIF test COLON block elif_tail {
		Node *n = parse_node(p, N_IF, @$);
		n->u.if_.cond = $2;
		n->u.if_.then = $4;
		n->u.if_.else_ = $5;
		$$ = parse_list1(p, n);
	}
	;

for_stmt
	: FOR for_target IN testlist COLON block else_opt {
		parse_check_target(p, $2);
		$$ = parse_node(p, N_FOR, @$);
		$$->u.for_.target = $2;
		$$->u.for_.iter = $4;
		$$->u.for_.body = $6;
		$$->u.for_.else_ = $7;
	}
	;

for_target
	: expr
	| eseq                       { $$ = parse_tuple(p, N_TUPLE, $1, @$); }
	| eseq expr                  {
		vec_push(p->arena, &$1, $2);
		$$ = parse_tuple(p, N_TUPLE, $1, @$);
	}
	;

eseq
	: expr COMMA                 { $$ = parse_list1(p, $1); }
	| eseq expr COMMA            { $$ = $1; vec_push(p->arena, &$$, $2); }
	;

while_stmt
	: WHILE test COLON block else_opt {
		$$ = parse_node(p, N_WHILE, @$);
		$$->u.while_.cond = $2;
		$$->u.while_.body = $4;
		$$->u.while_.else_ = $5;
	}
	;

/* -- Expressions, lowest precedence first --------------------------------- */

testlist
	: test
	| tuple_items
	;

/* Two or more items, or one with a trailing comma: a tuple. */
tuple_items
	: seq                        { $$ = parse_tuple(p, N_TUPLE, $1, @$); }
	| seq test_or_star           {
		vec_push(p->arena, &$1, $2);
		$$ = parse_tuple(p, N_TUPLE, $1, @$);
	}
	;

seq
	: test_or_star COMMA         { $$ = parse_list1(p, $1); }
	| seq test_or_star COMMA     { $$ = $1; vec_push(p->arena, &$$, $2); }
	;

test_or_star
	: test
	| star_expr
	;

star_expr
	: STAR expr                  { $$ = parse_starred(p, $2, false, @$); }
	;

test
	: lambdef
	| or_test
	| or_test IF or_test ELSE test {
		$$ = parse_node(p, N_COND, @$);
		$$->u.cond.then = $1;
		$$->u.cond.cond = $3;
		$$->u.cond.else_ = $5;
	}
	;

lambdef
	: LAMBDA COLON test          { $$ = parse_lambda(p, parse_list1(p, NULL), $3, @$); }
	| LAMBDA lparams COLON test  { $$ = parse_lambda(p, $2, $4, @$); }
	;

lparams
	: lparam                     { $$ = parse_list1(p, $1); }
	| lparams COMMA lparam       { $$ = $1; vec_push(p->arena, &$$, $3); }
	;

lparam
	: NAME                       { $$ = parse_param(p, $1, NULL, NULL, @$); }
	| NAME ASSIGN test           { $$ = parse_param(p, $1, NULL, $3, @$); }
	| STAR                       { $$ = parse_star_param(p, NULL, 1, NULL, @$); }
	| STAR NAME                  { $$ = parse_star_param(p, $2, 1, NULL, @$); }
	| STARSTAR NAME              { $$ = parse_star_param(p, $2, 2, NULL, @$); }
	;

/* The clauses of a comprehension: N_COMP_FOR nodes, `if`s on the last. */
comp_for
	: FOR for_target IN or_test  { $$ = parse_list1(p, parse_comp_for(p, $2, $4, @$)); }
	| comp_for FOR for_target IN or_test {
		$$ = $1;
		vec_push(p->arena, &$$, parse_comp_for(p, $3, $5, span_join(@2, @5)));
	}
	| comp_for IF or_test        {
		$$ = $1;
		vec_push(p->arena, &$$.data[$$.len - 1]->u.comp_for.ifs, $3);
	}
	;

or_test
	: and_test
	| or_test OR and_test        { $$ = parse_binary(p, N_LOGICAL, BIN_OR, $1, $3, @$); }
	;

and_test
	: not_test
	| and_test AND not_test      { $$ = parse_binary(p, N_LOGICAL, BIN_AND, $1, $3, @$); }
	;

not_test
	: comparison
	| NOT not_test               { $$ = parse_unary(p, UN_NOT, $2, @$); }
	;

comparison
	: expr
	| comp_chain
	;

comp_chain
	: expr comp_op expr          {
		$$ = parse_node(p, N_COMPARE, @$);
		vec_push(p->arena, &$$->u.compare.operands, $1);
		vec_push(p->arena, &$$->u.compare.ops, (CmpOp)$2);
		vec_push(p->arena, &$$->u.compare.operands, $3);
	}
	| comp_chain comp_op expr    {
		$$ = $1;
		$$->span = @$;
		vec_push(p->arena, &$$->u.compare.ops, (CmpOp)$2);
		vec_push(p->arena, &$$->u.compare.operands, $3);
	}
	;

comp_op
	: LT { $$ = CMP_LT; }   | GT { $$ = CMP_GT; }   | LE { $$ = CMP_LE; }
	| GE { $$ = CMP_GE; }   | EQEQ { $$ = CMP_EQ; } | NE { $$ = CMP_NE; }
	| IN { $$ = CMP_IN; }   | NOT IN { $$ = CMP_NOT_IN; }
	| IS { $$ = CMP_IS; }   | IS NOT { $$ = CMP_IS_NOT; }
	;

expr
	: xor_expr
	| expr PIPE xor_expr         { $$ = parse_binary(p, N_BINARY, BIN_BITOR, $1, $3, @$); }
	;

xor_expr
	: and_expr
	| xor_expr CARET and_expr    { $$ = parse_binary(p, N_BINARY, BIN_BITXOR, $1, $3, @$); }
	;

and_expr
	: shift_expr
	| and_expr AMP shift_expr    { $$ = parse_binary(p, N_BINARY, BIN_BITAND, $1, $3, @$); }
	;

shift_expr
	: arith
	| shift_expr SHL arith       { $$ = parse_binary(p, N_BINARY, BIN_SHL, $1, $3, @$); }
	| shift_expr SHR arith       { $$ = parse_binary(p, N_BINARY, BIN_SHR, $1, $3, @$); }
	;

arith
	: term
	| arith PLUS term            { $$ = parse_binary(p, N_BINARY, BIN_ADD, $1, $3, @$); }
	| arith MINUS term           { $$ = parse_binary(p, N_BINARY, BIN_SUB, $1, $3, @$); }
	;

term
	: factor
	| term STAR factor           { $$ = parse_binary(p, N_BINARY, BIN_MUL, $1, $3, @$); }
	| term SLASH factor          { $$ = parse_binary(p, N_BINARY, BIN_DIV, $1, $3, @$); }
	| term SLASHSLASH factor     { $$ = parse_binary(p, N_BINARY, BIN_FLOORDIV, $1, $3, @$); }
	| term PERCENT factor        { $$ = parse_binary(p, N_BINARY, BIN_MOD, $1, $3, @$); }
	| term AT factor             { $$ = parse_binary(p, N_BINARY, BIN_MATMUL, $1, $3, @$); }
	;

factor
	: power
	| MINUS factor               { $$ = parse_unary(p, UN_NEG, $2, @$); }
	| PLUS factor                { $$ = parse_unary(p, UN_POS, $2, @$); }
	| TILDE factor               { $$ = parse_unary(p, UN_INVERT, $2, @$); }
	;

/* `-a ** b` is `-(a ** b)`; `a ** -b` is allowed; `**` is right-associative. */
power
	: primary
	| primary STARSTAR factor    { $$ = parse_binary(p, N_BINARY, BIN_POW, $1, $3, @$); }
	;

primary
	: atom
	| primary DOT NAME           {
		$$ = parse_node(p, N_ATTR, @$);
		$$->u.attr.obj = $1;
		$$->u.attr.name = $3->text;
		$$->u.attr.name_span = @3;
		parse_nest(p, $$, $1);
	}
	| primary LPAREN RPAREN      {
		$$ = parse_node(p, N_CALL, @$);
		$$->u.call.callee = $1;
		parse_nest(p, $$, $1);
	}
	| primary LPAREN args RPAREN {
		$$ = $3;
		$$->u.call.callee = $1;
		$$->span = @$;
		parse_nest(p, $$, $1);
	}
	| primary LPAREN args COMMA RPAREN {
		$$ = $3;
		$$->u.call.callee = $1;
		$$->span = @$;
		parse_nest(p, $$, $1);
	}
	| primary LBRACKET subscripts RBRACKET {
		$$ = parse_node(p, N_SUBSCRIPT, @$);
		$$->u.subscript.obj = $1;
		$$->u.subscript.index = $3;
		parse_nest(p, $$, $1);
		parse_nest(p, $$, $3);
	}
	;

/* The arguments of a call, gathered in an N_CALL whose callee is set later. */
args
	: arg                        { $$ = parse_node(p, N_CALL, @$); parse_add_arg(p, $$, $1); }
	| args COMMA arg             { $$ = $1; parse_add_arg(p, $$, $3); }
	;

arg
	: test
	| test comp_for              { $$ = parse_comp(p, COMP_GEN, NULL, $1, $2, @$); }
	| STAR test                  { $$ = parse_starred(p, $2, false, @$); }
	| STARSTAR test              { $$ = parse_starred(p, $2, true, @$); }
	| NAME ASSIGN test           {
		$$ = parse_node(p, N_KEYWORD, @$);
		$$->u.keyword.name = $1->text;
		$$->u.keyword.value = $3;
		parse_nest(p, $$, $3);
	}
	;

subscripts
	: subscript
	| sub_seq                    { $$ = parse_tuple(p, N_TUPLE, $1, @$); }
	| sub_seq subscript          {
		vec_push(p->arena, &$1, $2);
		$$ = parse_tuple(p, N_TUPLE, $1, @$);
	}
	;

sub_seq
	: subscript COMMA            { $$ = parse_list1(p, $1); }
	| sub_seq subscript COMMA    { $$ = $1; vec_push(p->arena, &$$, $2); }
	;

subscript
	: test
	| slice
	;

slice
	: test_opt COLON test_opt    {
		$$ = parse_node(p, N_SLICE, @$);
		$$->u.slice.lo = $1;
		$$->u.slice.hi = $3;
	}
	| test_opt COLON test_opt COLON test_opt {
		$$ = parse_node(p, N_SLICE, @$);
		$$->u.slice.lo = $1;
		$$->u.slice.hi = $3;
		$$->u.slice.step = $5;
	}
	;

test_opt
	: %empty                     { $$ = NULL; }
	| test
	;

atom
	: NAME                       { $$ = parse_node(p, N_NAME, @$); $$->u.name.id = $1->text; }
	| INT                        { $$ = parse_int_literal(p, $1); }
	| FLOAT                      { $$ = parse_float_literal(p, $1); }
	| strings
	| NONE                       { $$ = parse_node(p, N_NONE, @$); }
	| TRUE                       { $$ = parse_node(p, N_BOOL, @$); $$->u.boolean.value = true; }
	| FALSE                      { $$ = parse_node(p, N_BOOL, @$); }
	| LPAREN RPAREN              { $$ = parse_tuple(p, N_TUPLE, parse_list1(p, NULL), @$); }
	| LPAREN test RPAREN         { $$ = $2; }
	| LPAREN tuple_items RPAREN  { $$ = $2; $$->span = @$; }
	| LBRACKET RBRACKET          { $$ = parse_tuple(p, N_LIST, parse_list1(p, NULL), @$); }
	| LBRACKET test RBRACKET     { $$ = parse_tuple(p, N_LIST, parse_list1(p, $2), @$); }
	| LBRACKET star_expr RBRACKET { $$ = parse_tuple(p, N_LIST, parse_list1(p, $2), @$); }
	| LBRACKET tuple_items RBRACKET { $$ = $2; $$->kind = N_LIST; $$->span = @$; }
	| LPAREN test comp_for RPAREN { $$ = parse_comp(p, COMP_GEN, NULL, $2, $3, @$); }
	| LBRACKET test comp_for RBRACKET { $$ = parse_comp(p, COMP_LIST, NULL, $2, $3, @$); }
	| LBRACE test comp_for RBRACE { $$ = parse_comp(p, COMP_SET, NULL, $2, $3, @$); }
	| LBRACE test COLON test comp_for RBRACE { $$ = parse_comp(p, COMP_DICT, $2, $4, $5, @$); }
	| LBRACE RBRACE              { $$ = parse_node(p, N_DICT, @$); }
	| LBRACE dict_items RBRACE   { $$ = parse_dict(p, $2, @$); }
	| LBRACE dict_items COMMA RBRACE { $$ = parse_dict(p, $2, @$); }
	| LBRACE set_items RBRACE    { $$ = parse_tuple(p, N_SET, $2, @$); }
	| LBRACE set_items COMMA RBRACE { $$ = parse_tuple(p, N_SET, $2, @$); }
	| ELLIPSIS                   { $$ = parse_node(p, N_ELLIPSIS, @$); }
	;

/* Key-value pairs, each an N_KEYWORD-free pair node: an N_TUPLE of two, or
 * an N_STARRED for `**mapping`. */
dict_items
	: dict_item                  { $$ = parse_list1(p, $1); }
	| dict_items COMMA dict_item { $$ = $1; vec_push(p->arena, &$$, $3); }
	;

dict_item
	: test COLON test            {
		NodeList kv = parse_list1(p, $1);
		vec_push(p->arena, &kv, $3);
		$$ = parse_tuple(p, N_TUPLE, kv, @$);
	}
	| STARSTAR expr              { $$ = parse_starred(p, $2, true, @$); }
	;

set_items
	: test_or_star               { $$ = parse_list1(p, $1); }
	| set_items COMMA test_or_star { $$ = $1; vec_push(p->arena, &$$, $3); }
	;

strings
	: STRING                     { $$ = parse_string_literal(p, NULL, $1, @$); }
	| strings STRING             { $$ = parse_string_literal(p, $1, $2, @$); }
	;

%%

/* Grammar symbol -> token kind + 1 (0: not a token of the lexer), for the
 * expected-token lists of errors. */
#define YYSYMBOL_EOF YYSYMBOL_YYEOF
static const int sym_to_tok[] = {
#define X(k, s) [YYSYMBOL_##k] = TOK_##k + 1,
	LEX_TOKENS(X)
#undef X
};

/* Token kind -> grammar token. */
static const int tok_to_sym[] = {
#define X(k, s) [TOK_##k] = T_##k,
	LEX_TOKENS(X)
#undef X
};

int
parse_yylex(PARSE_YYSTYPE *lval, SrcSpan *lloc, Parser *p)
{
	if (!p->started) {
		p->started = true;
		*lloc = (SrcSpan){ 0, 0, 0, 0 };
		return p->expr_mode ? T_START_EXPR : T_START_MODULE;
	}
	const Token *t;
	parse_next_token(p, &t, lloc);
	lval->tok = t;
	return tok_to_sym[t->kind];
}

void
parse_yyerror(SrcSpan *loc, Parser *p, const char *msg)
{
	(void)msg;
	diag_error(p->d, *loc, "input is nested too deeply for the parser");
}

static int
yyreport_syntax_error(const yypcontext_t *ctx, Parser *p)
{
	yysymbol_kind_t syms[YYNTOKENS];
	TokKind kinds[YYNTOKENS];
	int n = yypcontext_expected_tokens(ctx, syms, YYNTOKENS), m = 0;
	for (int i = 0; i < n; i++) {
		int s = (int)syms[i];
		if (s >= 0 && (size_t)s < sizeof sym_to_tok / sizeof *sym_to_tok &&
		    sym_to_tok[s])
			kinds[m++] = (TokKind)(sym_to_tok[s] - 1);
	}
	parse_syntax_error(p, kinds, m);
	return 0;
}
