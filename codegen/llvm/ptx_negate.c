/*
 * 16- and 32-bit integer negations of the PTX, rewritten for ptxas.
 *
 * ptxas 13.0 (V13.0.88) at -O1 and above folds `neg.s32`/`neg.s16` into
 * the three-input min/max (VIMNMX3) it forms from chains of min.s/max.s
 * and min.u/max.u, and drops the negation of some operands: min(-a, -b, -c)
 * comes out as min(-a, b, -c) (test/diff/FOUND.md, 012). The same value
 * written as `not` then `add 1` is assembled right, and ptxas still fuses
 * it with a following min or max (one VIADDMNMX per element). Random PTX
 * min/max/neg chains (test/gpu/ptxas_minmax), 1200 of 32 bits and 1200 of
 * 16 bits, against their -O0 build on the H200: 11 wrong with `neg`, 0 with
 * the rewrite; 64-bit ones were right either way and keep `neg.s64`.
 *
 * A statement is found where PTX puts one: at the start of a line, after
 * `{`, `}` or `;`, behind an optional guard `@%p` / `@!%p`. Comments are
 * copied untouched; so is text inside inline asm that is not a negation.
 */
#include "codegen/llvm/llvm.h"

#include <ctype.h>
#include <string.h>

/* The length of the comment starting at s, or 0 when s starts none. */
static size_t
comment_len(const char *s)
{
	if (s[0] == '/' && s[1] == '/')
		return strcspn(s, "\n");
	if (s[0] == '/' && s[1] == '*') {
		const char *end = strstr(s + 2, "*/");
		return end ? (size_t)(end + 2 - s) : strlen(s);
	}
	return 0;
}

/* The length of an instruction guard ("@%p3 ", "@!%p1\t") at s, or 0. */
static size_t
guard_len(const char *s)
{
	if (s[0] != '@')
		return 0;
	size_t n = 1 + (s[1] == '!');
	size_t name = strspn(s + n, "%$_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
	if (name == 0 || (s[n + name] != ' ' && s[n + name] != '\t'))
		return 0;
	return n + name + strspn(s + n + name, " \t");
}

/* An operand of a negation: the text up to `stop`, without the blanks
 * around it; false when none is there. */
static bool
operand(const char **s, char stop, const char **text, size_t *len)
{
	const char *p = *s + strspn(*s, " \t");
	const char *end = p + strcspn(p, ",;{}\n");
	if (*end != stop)
		return false;
	const char *last = end;
	while (last > p && isspace((unsigned char)last[-1]))
		last--;
	if (last == p)
		return false;
	*text = p;
	*len = (size_t)(last - p);
	*s = end + 1;
	return true;
}

/* When s (after an optional guard of glen bytes) is `neg.s32 D, S;` or
 * `neg.s16 D, S;`, appends its rewrite to out and returns the bytes it
 * spans; else returns 0 and appends nothing. */
static size_t
rewrite_negation(const char *s, size_t glen, StrBuf *out)
{
	const char *p = s + glen;
	if (strncmp(p, "neg.s", 5) != 0)
		return 0;
	const char *bits = (p[5] == '3' && p[6] == '2') ? "32" : (p[5] == '1' && p[6] == '6') ? "16"
	                                                                                      : NULL;
	if (!bits || (p[7] != ' ' && p[7] != '\t'))
		return 0;
	p += 7;
	const char *dst, *src;
	size_t dlen, slen;
	if (!operand(&p, ',', &dst, &dlen) || !operand(&p, ';', &src, &slen))
		return 0;
	buf_printf(out, "%.*snot.b%s \t%.*s, %.*s;\n\t%.*sadd.s%s \t%.*s, %.*s, 1;", (int)glen, s,
	           bits, (int)dlen, dst, (int)slen, src, (int)glen, s, bits, (int)dlen, dst,
	           (int)dlen, dst);
	return (size_t)(p - s);
}

void
cg_ptx_rewrite_negations(Arena *a, CgBlob *ptx)
{
	const char *s = (const char *)ptx->data;
	if (!strstr(s, "neg.s32") && !strstr(s, "neg.s16"))
		return;
	StrBuf out = {0};
	bool at_statement = true;
	while (*s) {
		size_t n = comment_len(s);
		if (n) {
			buf_putn(&out, s, n);
			s += n;
			continue;
		}
		if (at_statement && !isspace((unsigned char)*s)) {
			n = rewrite_negation(s, guard_len(s), &out);
			if (n) {
				s += n;
				continue;
			}
			at_statement = false;
		}
		if (*s == '\n' || *s == ';' || *s == '{' || *s == '}')
			at_statement = true;
		buf_putc(&out, *s++);
	}
	ptx->data = (const unsigned char *)arena_strndup(a, out.s, out.len);
	ptx->len = out.len;
	buf_free(&out);
}
