/*
 * A JSON reader for the files glc writes and reads back (the manifests of
 * `glc -c --manifest`, which `glc link` reads): RFC 8259 values into an
 * arena, with the line of each value for messages. Nesting is bounded
 * (JSON_MAX_DEPTH) so that no input can exhaust the stack; strings take
 * the escapes of the RFC, \u escapes written out as UTF-8 (a surrogate
 * pair as one code point).
 */
#include "support/support.h"

#include <stdlib.h>
#include <string.h>

typedef struct Reader {
	Arena *a;
	const char *p, *end;
	uint32_t line;
	const char *err;
} Reader;

static void
skip_space(Reader *r)
{
	for (; r->p < r->end; r->p++) {
		if (*r->p == '\n')
			r->line++;
		else if (*r->p != ' ' && *r->p != '\t' && *r->p != '\r')
			return;
	}
}

static Json *
fail(Reader *r, const char *msg)
{
	if (!r->err)
		r->err = msg;
	return NULL;
}

static Json *
new_value(Reader *r, JsonKind k)
{
	Json *j = arena_alloc(r->a, sizeof *j);
	memset(j, 0, sizeof *j);
	j->kind = k;
	j->line = r->line;
	return j;
}

static bool
literal(Reader *r, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
		return false;
	r->p += n;
	return true;
}

static int
hex4(const char *p)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
		        c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static void
put_utf8(StrBuf *b, uint32_t c)
{
	if (c < 0x80) {
		buf_putc(b, (char)c);
	} else if (c < 0x800) {
		buf_putc(b, (char)(0xC0 | (c >> 6)));
		buf_putc(b, (char)(0x80 | (c & 0x3F)));
	} else if (c < 0x10000) {
		buf_putc(b, (char)(0xE0 | (c >> 12)));
		buf_putc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
		buf_putc(b, (char)(0x80 | (c & 0x3F)));
	} else {
		buf_putc(b, (char)(0xF0 | (c >> 18)));
		buf_putc(b, (char)(0x80 | ((c >> 12) & 0x3F)));
		buf_putc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
		buf_putc(b, (char)(0x80 | (c & 0x3F)));
	}
}

/* A \u escape at r->p (after the backslash and 'u'), a surrogate pair
 * included; false when malformed. */
static bool
unicode_escape(Reader *r, StrBuf *b)
{
	int c = r->end - r->p >= 4 ? hex4(r->p) : -1;
	if (c < 0)
		return false;
	r->p += 4;
	if (c >= 0xD800 && c < 0xDC00) {
		int lo = r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u' ? hex4(r->p + 2) : -1;
		if (lo < 0xDC00 || lo >= 0xE000)
			return false;
		r->p += 6;
		c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
	} else if (c >= 0xDC00 && c < 0xE000) {
		return false;
	}
	put_utf8(b, (uint32_t)c);
	return true;
}

static Json *
string(Reader *r)
{
	Json *j = new_value(r, JSON_STRING);
	StrBuf b = {0};
	r->p++;   /* the opening quote */
	while (r->p < r->end && *r->p != '"') {
		unsigned char c = (unsigned char)*r->p++;
		if (c < 0x20) {
			buf_free(&b);
			return fail(r, "a control character in a string");
		}
		if (c != '\\') {
			buf_putc(&b, (char)c);
			continue;
		}
		if (r->p == r->end)
			break;
		char e = *r->p++;
		const char *plain = strchr("\"\\/bfnrt", e);
		if (e && plain) {
			static const char out[] = "\"\\/\b\f\n\r\t";
			buf_putc(&b, out[plain - "\"\\/bfnrt"]);
		} else if (e != 'u' || !unicode_escape(r, &b)) {
			buf_free(&b);
			return fail(r, "a bad escape in a string");
		}
	}
	if (r->p == r->end) {
		buf_free(&b);
		return fail(r, "a string without its closing quote");
	}
	r->p++;
	j->len = b.len;
	j->s = arena_strndup(r->a, b.s ? b.s : "", b.len);
	buf_free(&b);
	return j;
}

static Json *
number(Reader *r)
{
	Json *j = new_value(r, JSON_NUMBER);
	const char *start = r->p;
	if (r->p < r->end && *r->p == '-')
		r->p++;
	bool digits = false, integer = true;
	while (r->p < r->end && ((*r->p >= '0' && *r->p <= '9') || strchr(".eE+-", *r->p))) {
		digits |= *r->p >= '0' && *r->p <= '9';
		integer &= *r->p >= '0' && *r->p <= '9';
		r->p++;
	}
	if (!digits)
		return fail(r, "expected a value");
	char buf[64];
	size_t n = (size_t)(r->p - start);
	if (n >= sizeof buf)
		return fail(r, "a number too long");
	memcpy(buf, start, n);
	buf[n] = 0;
	char *end;
	j->num = strtod(buf, &end);
	if (*end)
		return fail(r, "a malformed number");
	j->is_int = integer;
	j->i = integer ? strtoll(buf, NULL, 10) : (int64_t)j->num;
	return j;
}

static Json *value(Reader *r, int depth);

/* An array or an object (open is '[' or '{'), its items in *items (and
 * the keys of an object in *keys). */
static Json *
container(Reader *r, int depth, bool object)
{
	Json *j = new_value(r, object ? JSON_OBJECT : JSON_ARRAY);
	VEC(Json *) items = {0};
	VEC(const char *) keys = {0};
	r->p++;
	skip_space(r);
	char close = object ? '}' : ']';
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return j;
	}
	for (;;) {
		skip_space(r);
		if (object) {
			if (r->p == r->end || *r->p != '"')
				return fail(r, "expected a key in quotes");
			Json *k = string(r);
			if (!k)
				return NULL;
			skip_space(r);
			if (r->p == r->end || *r->p++ != ':')
				return fail(r, "expected ':' after a key");
			vec_push(r->a, &keys, k->s);
		}
		Json *v = value(r, depth + 1);
		if (!v)
			return NULL;
		vec_push(r->a, &items, v);
		skip_space(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			break;
		}
		return fail(r, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
	j->items = items.data;
	j->keys = keys.data;
	j->n = items.len;
	return j;
}

static Json *
value(Reader *r, int depth)
{
	if (depth > JSON_MAX_DEPTH)
		return fail(r, "nested too deeply");
	skip_space(r);
	if (r->p == r->end)
		return fail(r, "unexpected end of the text");
	char c = *r->p;
	if (c == '{' || c == '[')
		return container(r, depth, c == '{');
	if (c == '"')
		return string(r);
	Json *j;
	if (literal(r, "true") || literal(r, "false")) {
		j = new_value(r, JSON_BOOL);
		j->b = r->p[-1] == 'e' && r->p[-2] == 'u';
		return j;
	}
	if (literal(r, "null"))
		return new_value(r, JSON_NULL);
	return number(r);
}

Json *
json_parse(Arena *a, const char *text, size_t len, const char **err, uint32_t *line)
{
	Reader r = {a, text, text + len, 1, NULL};
	Json *j = value(&r, 0);
	if (j) {
		skip_space(&r);
		if (r.p != r.end)
			j = fail(&r, "text after the value");
	}
	if (!j) {
		*err = r.err;
		*line = r.line;
	}
	return j;
}

const Json *
json_get(const Json *obj, const char *key)
{
	if (!obj || obj->kind != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (strcmp(obj->keys[i], key) == 0)
			return obj->items[i];
	return NULL;
}
