/* The tree dump of --emit=ast: one node per line, `Kind line:col detail`,
 * children indented by two spaces; `label:` names a child's role where the
 * order alone would not. */
#include "parser/parser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *
parse_binop_spelling(BinOp op)
{
	static const char *const s[] = {
		[BIN_ADD] = "+", [BIN_SUB] = "-", [BIN_MUL] = "*", [BIN_DIV] = "/",
		[BIN_FLOORDIV] = "//", [BIN_MOD] = "%", [BIN_POW] = "**",
		[BIN_MATMUL] = "@", [BIN_SHL] = "<<", [BIN_SHR] = ">>",
		[BIN_BITAND] = "&", [BIN_BITOR] = "|", [BIN_BITXOR] = "^",
		[BIN_AND] = "and", [BIN_OR] = "or",
	};
	return (unsigned)op < sizeof s / sizeof *s ? s[op] : "?";
}

const char *
parse_unop_spelling(UnOp op)
{
	static const char *const s[] = {
		[UN_NEG] = "-", [UN_POS] = "+", [UN_INVERT] = "~", [UN_NOT] = "not",
	};
	return (unsigned)op < sizeof s / sizeof *s ? s[op] : "?";
}

const char *
parse_cmpop_spelling(CmpOp op)
{
	static const char *const s[] = {
		[CMP_LT] = "<", [CMP_GT] = ">", [CMP_LE] = "<=", [CMP_GE] = ">=",
		[CMP_EQ] = "==", [CMP_NE] = "!=", [CMP_IS] = "is",
		[CMP_IS_NOT] = "is not", [CMP_IN] = "in", [CMP_NOT_IN] = "not in",
	};
	return (unsigned)op < sizeof s / sizeof *s ? s[op] : "?";
}

static void node(StrBuf *out, int depth, const char *label, const Node *n);

static void
indent(StrBuf *out, int depth)
{
	for (int i = 0; i < depth; i++)
		buf_puts(out, "  ");
}

/* The items of l; under a `label:` line when label is not NULL. */
static void
list(StrBuf *out, int depth, const char *label, const NodeList *l)
{
	if (label) {
		if (l->len == 0)
			return;
		indent(out, depth);
		buf_printf(out, "%s:\n", label);
		depth++;
	}
	for (size_t i = 0; i < l->len; i++)
		node(out, depth, NULL, l->data[i]);
}

static void
put_string(StrBuf *out, const char *s, size_t n)
{
	buf_putc(out, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			buf_printf(out, "\\%c", c);
		else if (c == '\n')
			buf_puts(out, "\\n");
		else if (c == '\t')
			buf_puts(out, "\\t");
		else if (c < 0x20 || c >= 0x7f)
			buf_printf(out, "\\x%02x", c);
		else
			buf_putc(out, (char)c);
	}
	buf_putc(out, '"');
}

/* The shortest %g form that reads back as the same double, with ".0" when
 * it would read as an integer. */
static void
put_double(StrBuf *out, double v)
{
	char tmp[64];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof tmp, "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	buf_puts(out, tmp);
	if (!strpbrk(tmp, ".eni"))
		buf_puts(out, ".0");
}

/* The line `Kind line:col detail` of n. */
static void
header(StrBuf *out, const Node *n)
{
	static const char *const names[] = {
		[N_MODULE] = "Module", [N_IMPORT] = "Import", [N_ALIAS] = "Alias",
		[N_FUNC] = "Func", [N_PARAM] = "Param", [N_ASSIGN] = "Assign",
		[N_AUG_ASSIGN] = "AugAssign", [N_ANN_ASSIGN] = "AnnAssign",
		[N_IF] = "If", [N_FOR] = "For", [N_WHILE] = "While",
		[N_BREAK] = "Break", [N_CONTINUE] = "Continue", [N_PASS] = "Pass",
		[N_RETURN] = "Return", [N_ASSERT] = "Assert", [N_EXPR_STMT] = "ExprStmt", [N_NAME] = "Name",
		[N_INT] = "Int", [N_FLOAT] = "Float", [N_STRING] = "String",
		[N_BOOL] = "Bool", [N_NONE] = "None", [N_UNARY] = "Unary",
		[N_BINARY] = "Binary", [N_LOGICAL] = "Logical", [N_COMPARE] = "Compare",
		[N_COND] = "Cond", [N_CALL] = "Call", [N_KEYWORD] = "Keyword",
		[N_ATTR] = "Attr", [N_SUBSCRIPT] = "Subscript", [N_SLICE] = "Slice",
		[N_TUPLE] = "Tuple", [N_LIST] = "List", [N_SET] = "Set", [N_DICT] = "Dict",
		[N_COMP] = "Comp", [N_COMP_FOR] = "CompFor", [N_LAMBDA] = "Lambda",
		[N_STARRED] = "Starred", [N_ELLIPSIS] = "Ellipsis", [N_CLASS] = "Class",
		[N_HOST] = "Host",
	};
	buf_printf(out, "%s %u:%u", names[n->kind], n->span.line, n->span.col);
	switch (n->kind) {
	case N_IMPORT:
		if (n->u.import.from)
			buf_printf(out, " from '%s'", n->u.import.from);
		break;
	case N_ALIAS:
		buf_printf(out, " '%s'", n->u.alias.name);
		if (n->u.alias.as)
			buf_printf(out, " as '%s'", n->u.alias.as);
		break;
	case N_FUNC: buf_printf(out, " '%s'", n->u.func.name); break;
	case N_PARAM:
		buf_printf(out, " '%s%s'", n->u.param.star == 2 ? "**" : n->u.param.star &&
		           strcmp(n->u.param.name, "*") != 0 ? "*" : "", n->u.param.name);
		break;
	case N_CLASS: buf_printf(out, " '%s'", n->u.class_.name); break;
	case N_HOST: buf_printf(out, " '%s'", n->u.host.what); break;
	case N_STARRED: buf_puts(out, n->u.starred.dbl ? " '**'" : " '*'"); break;
	case N_COMP: {
		static const char *const k[] = {"list", "set", "dict", "generator"};
		buf_printf(out, " %s", k[n->u.comp.kind]);
		break;
	}
	case N_AUG_ASSIGN: buf_printf(out, " '%s='", parse_binop_spelling(n->u.aug.op)); break;
	case N_NAME: buf_printf(out, " '%s'", n->u.name.id); break;
	case N_INT: buf_printf(out, " %llu", (unsigned long long)n->u.int_.value); break;
	case N_FLOAT: buf_putc(out, ' '); put_double(out, n->u.float_.value); break;
	case N_STRING: buf_putc(out, ' '); put_string(out, n->u.str.value, n->u.str.len); break;
	case N_BOOL: buf_puts(out, n->u.boolean.value ? " True" : " False"); break;
	case N_UNARY: buf_printf(out, " '%s'", parse_unop_spelling(n->u.unary.op)); break;
	case N_BINARY: case N_LOGICAL:
		buf_printf(out, " '%s'", parse_binop_spelling(n->u.binary.op));
		break;
	case N_COMPARE:
		for (size_t i = 0; i < n->u.compare.ops.len; i++)
			buf_printf(out, " '%s'", parse_cmpop_spelling(n->u.compare.ops.data[i]));
		break;
	case N_KEYWORD: buf_printf(out, " '%s'", n->u.keyword.name); break;
	case N_ATTR: buf_printf(out, " '%s'", n->u.attr.name); break;
	default: break;
	}
	buf_putc(out, '\n');
}

static void
children(StrBuf *out, int d, const Node *n)
{
	switch (n->kind) {
	case N_MODULE: list(out, d, NULL, &n->u.module.body); break;
	case N_IMPORT: list(out, d, NULL, &n->u.import.names); break;
	case N_FUNC:
		list(out, d, "decorators", &n->u.func.decorators);
		list(out, d, "params", &n->u.func.params);
		node(out, d, "returns", n->u.func.returns);
		list(out, d, "body", &n->u.func.body);
		break;
	case N_PARAM:
		node(out, d, "annot", n->u.param.annot);
		node(out, d, "default", n->u.param.dflt);
		break;
	case N_ASSIGN:
		for (size_t i = 0; i < n->u.assign.targets.len; i++)
			node(out, d, "target", n->u.assign.targets.data[i]);
		node(out, d, "value", n->u.assign.value);
		break;
	case N_AUG_ASSIGN:
		node(out, d, "target", n->u.aug.target);
		node(out, d, "value", n->u.aug.value);
		break;
	case N_ANN_ASSIGN:
		node(out, d, "target", n->u.ann.target);
		node(out, d, "annot", n->u.ann.annot);
		node(out, d, "value", n->u.ann.value);
		break;
	case N_IF:
		node(out, d, "cond", n->u.if_.cond);
		list(out, d, "then", &n->u.if_.then);
		list(out, d, "else", &n->u.if_.else_);
		break;
	case N_FOR:
		node(out, d, "target", n->u.for_.target);
		node(out, d, "iter", n->u.for_.iter);
		list(out, d, "body", &n->u.for_.body);
		list(out, d, "else", &n->u.for_.else_);
		break;
	case N_WHILE:
		node(out, d, "cond", n->u.while_.cond);
		list(out, d, "body", &n->u.while_.body);
		list(out, d, "else", &n->u.while_.else_);
		break;
	case N_LAMBDA:
		list(out, d, "params", &n->u.func.params);
		list(out, d, "body", &n->u.func.body);
		break;
	case N_CLASS:
		list(out, d, "decorators", &n->u.class_.decorators);
		node(out, d, "bases", n->u.class_.bases);
		list(out, d, "body", &n->u.class_.body);
		break;
	case N_HOST: node(out, d, NULL, n->u.host.value); break;
	case N_STARRED: node(out, d, NULL, n->u.starred.value); break;
	case N_SET: list(out, d, NULL, &n->u.list.items); break;
	case N_DICT:
		for (size_t i = 0; i < n->u.dict.values.len; i++) {
			node(out, d, "key", n->u.dict.keys.data[i]);
			node(out, d, "value", n->u.dict.values.data[i]);
		}
		break;
	case N_COMP:
		node(out, d, "key", n->u.comp.key);
		node(out, d, "elt", n->u.comp.elt);
		list(out, d, NULL, &n->u.comp.fors);
		break;
	case N_COMP_FOR:
		node(out, d, "target", n->u.comp_for.target);
		node(out, d, "iter", n->u.comp_for.iter);
		list(out, d, "if", &n->u.comp_for.ifs);
		break;
	case N_RETURN: node(out, d, NULL, n->u.ret.value); break;
	case N_ASSERT:
		node(out, d, "cond", n->u.assert_.cond);
		node(out, d, "msg", n->u.assert_.msg);
		break;
	case N_EXPR_STMT: node(out, d, NULL, n->u.expr_stmt.expr); break;
	case N_UNARY: node(out, d, NULL, n->u.unary.operand); break;
	case N_BINARY: case N_LOGICAL:
		node(out, d, NULL, n->u.binary.lhs);
		node(out, d, NULL, n->u.binary.rhs);
		break;
	case N_COMPARE: list(out, d, NULL, &n->u.compare.operands); break;
	case N_COND:
		node(out, d, "cond", n->u.cond.cond);
		node(out, d, "then", n->u.cond.then);
		node(out, d, "else", n->u.cond.else_);
		break;
	case N_CALL:
		node(out, d, "callee", n->u.call.callee);
		list(out, d, NULL, &n->u.call.args);
		list(out, d, NULL, &n->u.call.kwargs);
		break;
	case N_KEYWORD: node(out, d, NULL, n->u.keyword.value); break;
	case N_ATTR: node(out, d, NULL, n->u.attr.obj); break;
	case N_SUBSCRIPT:
		node(out, d, NULL, n->u.subscript.obj);
		node(out, d, "index", n->u.subscript.index);
		break;
	case N_SLICE:
		node(out, d, "lo", n->u.slice.lo);
		node(out, d, "hi", n->u.slice.hi);
		node(out, d, "step", n->u.slice.step);
		break;
	case N_TUPLE: case N_LIST: list(out, d, NULL, &n->u.list.items); break;
	default: break;
	}
}

/* n (nothing when NULL) at depth, prefixed by `label: ` when given. */
static void
node(StrBuf *out, int depth, const char *label, const Node *n)
{
	if (!n)
		return;
	indent(out, depth);
	if (label)
		buf_printf(out, "%s: ", label);
	header(out, n);
	children(out, depth + 1, n);
}

void
parse_dump(const Node *n, const Sources *src, StrBuf *out)
{
	(void)src;
	node(out, 0, NULL, n);
}
