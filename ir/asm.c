/*
 * The constraint strings and the text of inline assembly
 * (gl.inline_asm_elementwise), as LLVM's NVPTX back end takes them. LLVM
 * does not check them when the asm is built (only its debug builds assert);
 * a malformed one crashes it later or ends it with a fatal error, so sema
 * checks what the user wrote, the verifier what a .ir file holds, and code
 * generation the operands' registers and the text before building the asm.
 */
#include "ir/ir.h"

#include <ctype.h>
#include <string.h>

/* Whether item (n characters) is one constraint: an output `=` or `=&` and
 * one register letter, an input letter, `n` (an immediate) or a tied
 * output's number, or a clobber `~{...}`. */
static bool
item_ok(const char *item, size_t n)
{
	static const char letters[] = "bchrlfdq";
	if (n >= 3 && item[0] == '~' && item[1] == '{' && item[n - 1] == '}')
		return true;
	size_t k = 0;
	bool out = k < n && item[k] == '=';
	k += out;
	k += out && k < n && item[k] == '&';
	if (k + 1 == n && strchr(letters, item[k]))
		return true;
	if (out || k == n)
		return false;
	if (n == 1 && item[0] == 'n')
		return true;
	for (; k < n; k++)
		if (!isdigit((unsigned char)item[k]))
			return false;
	return true;
}

/* The rule item (n characters, item_ok) breaks after `outs` outputs, `ins`
 * inputs and `clobbers` clobbers; tied[o] says output o has a tied input
 * already. NULL when it breaks none. */
static const char *
item_rule(const char *item, size_t n, int outs, int ins, int clobbers, bool *tied)
{
	if (item[0] == '=')
		return ins || clobbers ? "an output comes after an input or a clobber (outputs "
		                         "come first, then inputs, then clobbers)" : NULL;
	if (item[0] == '~')
		return NULL;
	if (clobbers)
		return "an input comes after a clobber (outputs come first, then inputs, then "
		       "clobbers)";
	if (!isdigit((unsigned char)item[0]))
		return NULL;
	int o = 0;
	for (size_t k = 0; k < n && o < 1000; k++)
		o = o * 10 + (item[k] - '0');
	if (o >= outs)
		return "a tied input names no output (it is an output's number: the outputs are "
		       "numbered from 0)";
	if (tied[o])
		return "two inputs are tied to one output";
	tied[o] = true;
	return NULL;
}

bool
ir_asm_check_constraints(const char *s, int *outs, int *ins, IrSpan *bad, const char **why)
{
	*outs = *ins = 0;
	int clobbers = 0;
	bool tied[IR_ASM_MAX_OPERANDS] = {false};
	for (const char *item = s;; item++) {
		const char *end = strchr(item, ',');
		size_t n = end ? (size_t)(end - item) : strlen(item);
		*bad = (IrSpan){item, n};
		if (!item_ok(item, n)) {
			*why = "an output is '=' (or '=&') and a register letter (r h l f d b c q), an "
			       "input a letter, 'n' or a tied output's number, a clobber '~{...}'";
			return false;
		}
		if (*outs + *ins >= IR_ASM_MAX_OPERANDS && item[0] != '~') {
			*why = "an inline asm takes at most 256 operands";
			return false;
		}
		if ((*why = item_rule(item, n, *outs, *ins, clobbers, tied)))
			return false;
		*outs += item[0] == '=';
		*ins += item[0] != '=' && item[0] != '~';
		clobbers += item[0] == '~';
		if (!end)
			return true;
		item = end;
	}
}

bool
ir_asm_constraints(const char *s, int *outs, int *ins, IrSpan *bad)
{
	const char *why;
	return ir_asm_check_constraints(s, outs, ins, bad, &why);
}

IrSpan
ir_asm_input(const char *s, int k)
{
	for (const char *item = s;; item++) {
		const char *end = strchr(item, ',');
		size_t n = end ? (size_t)(end - item) : strlen(item);
		if (item[0] != '=' && item[0] != '~' && k-- == 0)
			return (IrSpan){item, n};
		if (!end)
			return (IrSpan){"", 0};
		item = end;
	}
}

/* `${:NAME}`: the names LLVM's AsmPrinter::PrintSpecial knows. */
static bool
special_ok(const char *s, size_t n)
{
	return (n == 3 && memcmp(s, "uid", 3) == 0) || (n == 7 && memcmp(s, "comment", 7) == 0) ||
	       (n == 7 && memcmp(s, "private", 7) == 0);
}

/* The escape at p ('$' and what follows): its length, or 0 with *why. */
static size_t
escape(const char *p, int n_operands, bool *in_variant, const char **why)
{
	const char *q = p + 1;
	if (*q == '$' || *q == '|')
		return 2;
	if (*q == '(' || *q == ')') {
		if (*q == '(' && *in_variant) {
			*why = "'$(' inside '$( ... $)' (variants do not nest)";
			return 0;
		}
		*in_variant = *q == '(';
		return 2;
	}
	bool braces = *q == '{';
	q += braces;
	if (braces && *q == ':') {
		const char *close = strchr(q, '}');
		if (!close || !special_ok(q + 1, (size_t)(close - q - 1))) {
			*why = "'${:NAME}' takes uid, comment or private";
			return 0;
		}
		return (size_t)(close + 1 - p);
	}
	long v = 0;
	const char *digits = q;
	for (; isdigit((unsigned char)*q) && v <= IR_ASM_MAX_OPERANDS; q++)
		v = v * 10 + (*q - '0');
	while (isdigit((unsigned char)*q))
		q++;
	if (q == digits) {
		*why = "'$' is an operand ($0, ${0}), '$$' a dollar sign";
		return 0;
	}
	if (v >= n_operands) {
		*why = n_operands ? "the operand number is past the operands (outputs, then inputs, "
		                    "numbered from $0)" : "the asm has no operands";
		return 0;
	}
	if (braces && *q == ':' && q[1] == 'r')
		q += 2;   /* NVPTX's only operand modifier */
	if (braces && *q++ != '}') {
		*why = "'${N}' closes with '}' (the only modifier is ':r')";
		return 0;
	}
	return (size_t)(q - p);
}

bool
ir_asm_text(const char *text, int n_operands, IrSpan *bad, const char **why)
{
	bool in_variant = false;
	for (const char *p = text; (p = strchr(p, '$'));) {
		size_t n = escape(p, n_operands, &in_variant, why);
		if (!n) {
			const char *end = p + 1;
			while (*end && (isalnum((unsigned char)*end) || strchr("{}:$()|", *end)) &&
			       end < p + 12)
				end++;
			*bad = (IrSpan){p, (size_t)(end - p)};
			return false;
		}
		p += n;
	}
	return true;
}
