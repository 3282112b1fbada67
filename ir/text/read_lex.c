/*
 * The IR reader's tokenizer: words, integers, %values, $vars, #aliases,
 * strings and punctuation, one line at a time (newlines are tokens;
 * `// ...` comments are skipped), with the helpers the grammar uses to
 * accept and expect tokens and to report the first mistake.
 */
#include "ir/text/read.h"

#include <stdarg.h>
#include <string.h>

static bool
is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
hex_digit(char c)
{
	return is_digit(c) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static bool
verror_at(Reader *r, const Token *t, const char *fmt, va_list ap)
{
	if (!r->failed) {
		SrcSpan at = {r->file, t->line, t->col, (uint32_t)(t->n ? t->n : 1)};
		diag_verror(r->d, at, fmt, ap);
		r->failed = true;
	}
	r->tok.kind = TK_EOF;
	return false;
}

bool
rd_error_at(Reader *r, const Token *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Token copy = *t;
	verror_at(r, &copy, fmt, ap);
	va_end(ap);
	return false;
}

bool
rd_error(Reader *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Token copy = r->tok;
	verror_at(r, &copy, fmt, ap);
	va_end(ap);
	return false;
}

/* Digits after an optional '-' into t->i; false when they overflow. */
static bool
lex_int(Reader *r, Token *t)
{
	const char *q = t->s;
	bool neg = *q == '-';
	q += neg;
	uint64_t v = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; q < r->end && is_digit(*q); q++) {
		uint64_t d = (uint64_t)(*q - '0');
		if (v > (limit - d) / 10) {
			t->n = (size_t)(q - t->s) + 1;
			return false;
		}
		v = v * 10 + d;
	}
	t->n = (size_t)(q - t->s);
	t->i = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

/* "..." with \\ \" \n \t \xHH escapes; false (t->n at the fault) when
 * it is not closed on its line or holds a bad escape. */
static bool
lex_string(Reader *r, Token *t)
{
	StrBuf b = {0};
	const char *q = t->s + 1;
	bool ok = false;
	while (q < r->end && *q != '\n') {
		char c = *q++;
		if (c == '"') {
			ok = true;
			break;
		}
		if (c != '\\') {
			buf_putc(&b, c);
			continue;
		}
		char e = q < r->end ? *q++ : 0;
		if (e == '\\' || e == '"')
			buf_putc(&b, e);
		else if (e == 'n')
			buf_putc(&b, '\n');
		else if (e == 't')
			buf_putc(&b, '\t');
		else if (e == 'x' && r->end - q >= 2 && hex_digit(q[0]) >= 0 && hex_digit(q[1]) >= 0) {
			buf_putc(&b, (char)(hex_digit(q[0]) * 16 + hex_digit(q[1])));
			q += 2;
		} else {
			break;
		}
	}
	t->n = (size_t)(q - t->s);
	t->str = ok ? arena_strndup(r->a, b.s ? b.s : "", b.len) : NULL;
	buf_free(&b);
	return ok;
}

/* The token at r->p (which moves past it). */
static void
lex(Reader *r)
{
	Token *t = &r->tok;
	for (;;) {
		while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\r'))
			r->p++;
		if (r->end - r->p >= 2 && r->p[0] == '/' && r->p[1] == '/') {
			while (r->p < r->end && *r->p != '\n')
				r->p++;
			continue;
		}
		break;
	}
	memset(t, 0, sizeof *t);
	t->s = r->p;
	t->line = r->line;
	t->col = (uint32_t)(r->p - r->line_start) + 1;
	if (r->p >= r->end) {
		t->kind = TK_EOF;
		return;
	}
	const char *q = r->p;
	char c = *q;
	if (c == '\n') {
		t->kind = TK_NEWLINE;
		t->n = 1;
		r->p++;
		r->line++;
		r->line_start = r->p;
		return;
	}
	if (is_alpha(c)) {
		while (q < r->end && (is_alpha(*q) || is_digit(*q) || *q == '.'))
			q++;
		t->kind = TK_WORD;
		t->n = (size_t)(q - t->s);
	} else if (is_digit(c) || (c == '-' && q + 1 < r->end && is_digit(q[1]))) {
		t->kind = TK_INT;
		if (!lex_int(r, t)) {
			rd_error(r, "this integer does not fit in 64 bits");
			return;
		}
	} else if ((c == '%' || c == '$') && q + 1 < r->end && is_digit(q[1])) {
		Token num = {.s = q + 1};
		if (!lex_int(r, &num) || num.i > INT32_MAX) {
			t->n = num.n + 1;
			rd_error(r, "this number is too large");
			return;
		}
		t->kind = c == '%' ? TK_VALUE : TK_VAR;
		t->i = num.i;
		t->n = num.n + 1;
	} else if (c == '#' && q + 1 < r->end && (is_alpha(q[1]) || is_digit(q[1]))) {
		for (q++; q < r->end && (is_alpha(*q) || is_digit(*q)); q++)
			;
		t->kind = TK_ALIAS;
		t->n = (size_t)(q - t->s);
	} else if (c == '"') {
		if (!lex_string(r, t)) {
			rd_error(r, "this string is not closed on its line (or has an escape other "
			         "than \\\\ \\\" \\n \\t \\xHH)");
			return;
		}
		t->kind = TK_STRING;
	} else if (c == '.' && q + 1 < r->end && q[1] == '.') {
		t->kind = TK_DOTS;
		t->n = 2;
	} else if (strchr("()[]{}<>,:=+*-", c)) {
		t->kind = TK_PUNCT;
		t->ch = c;
		t->n = 1;
	} else {
		t->n = 1;
		if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
			rd_error(r, "unexpected character '%c'", c);
		else
			rd_error(r, "unexpected byte 0x%02x", (unsigned char)c);
		return;
	}
	r->p = t->s + t->n;
}

void
rd_start(Reader *r)
{
	r->p = r->text;
	r->line = src_first_line(r->src, r->file);
	r->line_start = r->text;
	lex(r);
}

void
rd_next(Reader *r)
{
	if (r->failed) {
		r->tok.kind = TK_EOF;
		return;
	}
	r->last_end = r->tok.s + r->tok.n;
	lex(r);
}

void
rd_seek(Reader *r, const char *q)
{
	if (r->failed)
		return;
	r->last_end = q;
	r->p = q;
	lex(r);
}

bool
rd_punct(Reader *r, char ch)
{
	if (r->tok.kind != TK_PUNCT || r->tok.ch != ch)
		return false;
	rd_next(r);
	return true;
}

bool
rd_is_word(const Reader *r, const char *w)
{
	return r->tok.kind == TK_WORD && r->tok.n == strlen(w) && memcmp(r->tok.s, w, r->tok.n) == 0;
}

bool
rd_word(Reader *r, const char *w)
{
	if (!rd_is_word(r, w))
		return false;
	rd_next(r);
	return true;
}

const char *
rd_found(Reader *r)
{
	switch (r->tok.kind) {
	case TK_EOF: return "the end of the file";
	case TK_NEWLINE: return "the end of the line";
	default: return arena_printf(r->a, "'%.*s'", (int)r->tok.n, r->tok.s);
	}
}

bool
rd_expect_punct(Reader *r, char ch)
{
	return rd_punct(r, ch) || rd_error(r, "expected '%c', found %s", ch, rd_found(r));
}

bool
rd_expect_word(Reader *r, const char *w)
{
	return rd_word(r, w) || rd_error(r, "expected '%s', found %s", w, rd_found(r));
}

bool
rd_expect_newline(Reader *r)
{
	if (r->tok.kind == TK_NEWLINE || r->tok.kind == TK_EOF) {
		rd_next(r);
		return !r->failed;
	}
	return rd_error(r, "expected the end of the line, found %s", rd_found(r));
}

bool
rd_int(Reader *r, int64_t lo, int64_t hi, const char *what, int64_t *out)
{
	if (r->tok.kind != TK_INT)
		return rd_error(r, "expected %s (an integer), found %s", what, rd_found(r));
	if (r->tok.i < lo || r->tok.i > hi)
		return rd_error(r, "%s must be in [%lld, %lld]", what, (long long)lo, (long long)hi);
	*out = r->tok.i;
	rd_next(r);
	return true;
}

bool
rd_key_int(Reader *r, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
	return rd_expect_word(r, key) && rd_expect_punct(r, '=') && rd_int(r, lo, hi, key, out);
}

void
rd_skip_newlines(Reader *r)
{
	while (r->tok.kind == TK_NEWLINE)
		rd_next(r);
}

bool
rd_word_then(const Reader *r, char c)
{
	if (r->tok.kind != TK_WORD)
		return false;
	const char *q = r->tok.s + r->tok.n;
	while (q < r->end && (*q == ' ' || *q == '\t'))
		q++;
	return q < r->end && *q == c;
}
