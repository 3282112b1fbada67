/* Values of literals: integers (uint64, with an overflow error), floats and
 * strings (escapes decoded unless raw, adjacent literals joined; prefixes
 * r, b, u, f and their pairs accepted). A token the lexer
 * already reported as malformed gets value 0 and no second error. */
#include "parser/parser_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int
digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

Node *
parse_int_literal(Parser *p, const Token *t)
{
	Node *n = parse_node(p, N_INT, t->span);
	if (t->flags & TOKF_BAD)
		return n;
	const char *s = t->text;
	unsigned base = 10;
	if (s[0] == '0' && s[1] && strchr("xXoObB", s[1])) {
		base = (s[1] == 'x' || s[1] == 'X') ? 16 : (s[1] == 'o' || s[1] == 'O') ? 8 : 2;
		s += 2;
	}
	uint64_t v = 0;
	for (; *s; s++) {
		if (*s == '_')
			continue;
		unsigned dv = (unsigned)digit_value(*s);
		if (v > (UINT64_MAX - dv) / base) {
			diag_error(p->d, t->span, "integer literal '%s' does not fit in 64 bits",
			           diag_quote(p->arena, t->text, strlen(t->text)));
			return n;
		}
		v = v * base + dv;
	}
	n->u.int_.value = v;
	return n;
}

Node *
parse_float_literal(Parser *p, const Token *t)
{
	Node *n = parse_node(p, N_FLOAT, t->span);
	size_t len = strlen(t->text);
	char *buf = arena_alloc(p->arena, len + 1), *o = buf;
	for (const char *s = t->text; *s; s++)
		if (*s != '_')
			*o++ = *s;
	errno = 0;
	double v = strtod(buf, NULL);
	if (errno == ERANGE && isinf(v))
		diag_error(p->d, t->span, "float literal '%s' is out of range",
		           diag_quote(p->arena, t->text, len));
	n->u.float_.value = v;
	return n;
}

/* The span of the n bytes at s inside token t (a string literal that may
 * run over several lines). */
static SrcSpan
span_in_token(const Token *t, const char *s, size_t n)
{
	SrcSpan at = t->span;
	const char *line = t->text;
	for (const char *p = t->text; p < s; p++)
		if (*p == '\n') {
			at.line++;
			line = p + 1;
			at.col = 1;
		}
	at.col += (uint32_t)(s - line);
	at.len = (uint32_t)n;
	return at;
}

/* Decodes the escapes of body[0..n) into out (which has room for n bytes);
 * returns the decoded length. An octal escape above \377 is an error (a
 * string holds bytes; Python's str would make it a character). */
static size_t
decode(Parser *p, const Token *t, const char *body, size_t n, char *out)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		char c = body[i];
		if (c != '\\' || i + 1 >= n) {
			out[o++] = c;
			continue;
		}
		c = body[++i];
		switch (c) {
		case 'n': out[o++] = '\n'; break;
		case 't': out[o++] = '\t'; break;
		case 'r': out[o++] = '\r'; break;
		case 'a': out[o++] = '\a'; break;
		case 'b': out[o++] = '\b'; break;
		case 'f': out[o++] = '\f'; break;
		case 'v': out[o++] = '\v'; break;
		case '\\': case '\'': case '"': out[o++] = c; break;
		case '\n': break;
		case '\r':
			if (i + 1 < n && body[i + 1] == '\n')
				i++;
			break;
		case 'x':
			if (i + 2 < n && digit_value(body[i + 1]) < 16 &&
			    digit_value(body[i + 2]) < 16) {
				out[o++] = (char)(digit_value(body[i + 1]) * 16 +
				                  digit_value(body[i + 2]));
				i += 2;
			} else {
				diag_error(p->d, t->span, "invalid '\\x' escape in string literal "
				           "(it needs two hexadecimal digits)");
			}
			break;
		default:
			if (c >= '0' && c <= '7') {
				unsigned v = 0;
				size_t k = 0;
				for (; k < 3 && i + k < n && body[i + k] >= '0' && body[i + k] <= '7'; k++)
					v = v * 8 + (unsigned)(body[i + k] - '0');
				if (v > 0377)
					diag_error(p->d, span_in_token(t, body + i - 1, k + 1), "octal escape "
					           "'\\%.*s' is above \\377, the largest byte", (int)k, body + i);
				out[o++] = (char)(v & 0xff);
				i += k - 1;
			} else {
				/* Unknown escapes stay as written (Python's rule). */
				out[o++] = '\\';
				out[o++] = c;
			}
		}
	}
	return o;
}

Node *
parse_string_literal(Parser *p, Node *s, const Token *t, SrcSpan at)
{
	const char *text = t->text;
	bool raw = false;
	for (; *text != '\'' && *text != '"'; text++) {
		raw |= *text == 'r' || *text == 'R';
		/* An f-string keeps its text: the replacement fields are not
		 * evaluated (glc uses strings only in messages). */
	}
	size_t n = strlen(text);
	size_t q = (n >= 3 && text[1] == text[0] && text[2] == text[0]) ? 3 : 1;
	if (n == 2)
		q = 1;
	/* A literal the lexer found unterminated has no closing quotes. */
	size_t body_len = (t->flags & TOKF_BAD) ? n - q : n - 2 * q;
	if (n < 2 * q)
		body_len = n > q ? n - q : 0;
	/* Adjacent literals append to one buffer that doubles when full, so
	 * joining n of them takes time and memory linear in their length. */
	size_t old = s ? s->u.str.len : 0;
	char *buf = s ? (char *)s->u.str.value : NULL;
	if (!s || old + body_len + 1 > s->u.str.cap) {
		size_t cap = s ? 2 * s->u.str.cap : 0;
		if (cap < old + body_len + 1)
			cap = old + body_len + 1;
		buf = arena_alloc(p->arena, cap);
		if (s)
			memcpy(buf, s->u.str.value, old);
		if (!s)
			s = parse_node(p, N_STRING, at);
		s->u.str.cap = cap;
	}
	size_t len = old + body_len;
	if (raw)
		memcpy(buf + old, text + q, body_len);
	else
		len = old + decode(p, t, text + q, body_len, buf + old);
	buf[len] = '\0';
	s->span = at;
	s->u.str.value = buf;
	s->u.str.len = len;
	return s;
}
