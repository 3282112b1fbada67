/* Growable heap strings for rendered output. */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
reserve(StrBuf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	size_t ncap = b->cap ? b->cap * 2 : 256;
	while (ncap < b->len + extra + 1)
		ncap *= 2;
	char *ns = realloc(b->s, ncap);
	if (!ns) {
		fputs("glc: out of memory\n", stderr);
		abort();
	}
	b->s = ns;
	b->cap = ncap;
}

void
buf_putn(StrBuf *b, const char *s, size_t n)
{
	reserve(b, n);
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
	if (n <= 0) {
		reserve(b, 0);
		b->s[b->len] = 0;
		return;
	}
	reserve(b, (size_t)n);
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

void
buf_put_json_escaped(StrBuf *b, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
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
	if (b->s)
		b->s[0] = 0;
}

void
buf_free(StrBuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}
