/*
 * The constraint strings of inline assembly (gl.inline_asm_elementwise), as
 * LLVM's NVPTX back end takes them. LLVM does not check them when the asm is
 * built (only its debug builds assert); a malformed one crashes it later, so
 * sema checks what the user wrote and the verifier what a .ir file holds.
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

bool
ir_asm_constraints(const char *s, int *outs, int *ins, IrSpan *bad)
{
	*outs = *ins = 0;
	for (const char *item = s;; item++) {
		const char *end = strchr(item, ',');
		size_t n = end ? (size_t)(end - item) : strlen(item);
		if (!item_ok(item, n)) {
			*bad = (IrSpan){item, n};
			return false;
		}
		*outs += item[0] == '=';
		*ins += item[0] != '=' && item[0] != '~';
		if (!end)
			return true;
		item = end;
	}
}
