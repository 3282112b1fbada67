/* Explains malformed number literals ("0x", "1__0", "0b2", "0123", "1e"). */
#include "lexer/lexer_internal.h"

static bool
is_digit_of(char c, int base)
{
	switch (base) {
	case 2: return c == '0' || c == '1';
	case 8: return c >= '0' && c <= '7';
	case 16: return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	                (c >= 'A' && c <= 'F');
	default: return c >= '0' && c <= '9';
	}
}

/* True when some '_' does not sit between two digits. */
static bool
misplaced_underscore(const char *s, size_t n, size_t from, int base)
{
	for (size_t i = from; i < n; i++) {
		if (s[i] != '_')
			continue;
		if (i == from || i + 1 >= n || !is_digit_of(s[i - 1], base) ||
		    !is_digit_of(s[i + 1], base))
			return true;
	}
	return false;
}

static const char *
prefixed_problem(Arena *a, const char *s, size_t n, int base, const char *what)
{
	const char *q = diag_quote(a, s, n);
	if (n == 2)
		return arena_printf(a, "%s literal '%s' has no digits", what, q);
	for (size_t i = 2; i < n; i++)
		if (s[i] != '_' && !is_digit_of(s[i], base))
			return arena_printf(a, "invalid digit '%c' in %s literal '%s'",
			                    s[i], what, q);
	if (misplaced_underscore(s, n, 2, base))
		return arena_printf(a, "misplaced '_' in number literal '%s'", q);
	return arena_printf(a, "malformed %s literal '%s'", what, q);
}

const char *
lex_number_problem(Arena *a, const char *s, size_t n)
{
	const char *q = diag_quote(a, s, n);
	if (n >= 2 && s[0] == '0') {
		switch (s[1]) {
		case 'x': case 'X': return prefixed_problem(a, s, n, 16, "hexadecimal");
		case 'o': case 'O': return prefixed_problem(a, s, n, 8, "octal");
		case 'b': case 'B': return prefixed_problem(a, s, n, 2, "binary");
		default: break;
		}
	}
	bool only_digits = true;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if ((c >= '0' && c <= '9') || c == '_')
			continue;
		only_digits = false;
		if (c == '.')
			continue;
		if ((c == 'e' || c == 'E') && (i + 1 >= n || s[i + 1] < '0' || s[i + 1] > '9'))
			return arena_printf(a, "exponent without digits in number literal '%s'", q);
		return arena_printf(a, "invalid character '%c' in number literal '%s'", c, q);
	}
	if (misplaced_underscore(s, n, 0, 10))
		return arena_printf(a, "misplaced '_' in number literal '%s'", q);
	if (only_digits && s[0] == '0')
		return arena_printf(a, "leading zeros are not allowed in decimal literal "
		                    "'%s' (use 0o for octal)", q);
	return arena_printf(a, "malformed number literal '%s'", q);
}
