/* Growable heap strings for rendered output. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grows the storage for extra more bytes and the NUL. */
static void
reserve_raw(StrBuf *b, size_t extra)
{
	if (extra < b->cap && b->len + extra + 1 <= b->cap)
		return;
	if (extra > SIZE_MAX / 4 - b->len)
		fatal_error(FATAL_OUT_OF_MEMORY, "a text buffer would pass SIZE_MAX");
	size_t ncap = b->cap ? b->cap * 2 : 256;
	while (ncap < b->len + extra + 1)
		ncap *= 2;
	char *ns = realloc(b->s, ncap);
	if (!ns)
		fatal_error(FATAL_OUT_OF_MEMORY, "a text buffer could not grow");
	if (!b->s)
		ns[0] = 0;
	b->s = ns;
	b->cap = ncap;
}

/* Makes room for extra more bytes and the NUL; false (and b->over set)
 * when they would pass b->limit. */
static bool
reserve(StrBuf *b, size_t extra)
{
	if (b->over || (b->limit && (b->len > b->limit || extra > b->limit - b->len))) {
		b->over = true;
		if (!b->s)
			reserve_raw(b, 0);
		return false;
	}
	reserve_raw(b, extra);
	return true;
}

void
buf_putn(StrBuf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	if (n)
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

void
buf_putc(StrBuf *b, char c)
{
	buf_putn(b, &c, 1);
}

void
buf_puts(StrBuf *b, const char *s)
{
	buf_putn(b, s, strlen(s));
}

void
buf_vprintf(StrBuf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n <= 0 || !reserve(b, (size_t)n)) {
		reserve_raw(b, 0);
		b->s[b->len] = 0;
		return;
	}
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void
buf_printf(StrBuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

size_t
buf_utf8_len(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	if (n == 0)
		return 0;
	if (p[0] < 0x80)
		return 1;
	size_t k;
	uint32_t cp, min;
	if ((p[0] & 0xe0) == 0xc0)
		k = 2, cp = p[0] & 0x1f, min = 0x80;
	else if ((p[0] & 0xf0) == 0xe0)
		k = 3, cp = p[0] & 0x0f, min = 0x800;
	else if ((p[0] & 0xf8) == 0xf0)
		k = 4, cp = p[0] & 0x07, min = 0x10000;
	else
		return 0;
	if (n < k)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return k;
}

void
buf_put_json_escaped(StrBuf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p >= 0x80) {
			size_t k = buf_utf8_len((const char *)p, strnlen((const char *)p, 4));
			if (k)
				buf_putn(b, (const char *)p, k), p += k - 1;
			else
				buf_puts(b, "\\ufffd");
			continue;
		}
		switch (*p) {
		case '"': buf_puts(b, "\\\""); break;
		case '\\': buf_puts(b, "\\\\"); break;
		case '\n': buf_puts(b, "\\n"); break;
		case '\t': buf_puts(b, "\\t"); break;
		case '\r': buf_puts(b, "\\r"); break;
		default:
			if (*p < 0x20)
				buf_printf(b, "\\u%04x", *p);
			else
				buf_putc(b, (char)*p);
		}
	}
}

void
buf_clear(StrBuf *b)
{
	b->len = 0;
	b->over = false;
	if (b->s)
		b->s[0] = 0;
}

void
buf_free(StrBuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
	b->over = false;
}
