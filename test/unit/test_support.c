/* Unit tests of support/: arena, vectors, buffers, interning, spans, diagnostics. */
#include "support/support.h"
#include "test/unit/check.h"

#include <stdlib.h>

static void
test_arena_zeroed_aligned(void)
{
	Arena *a = arena_new();
	for (int i = 1; i < 2000; i += 7) {
		unsigned char *p = arena_alloc(a, (size_t)i);
		CHECK(((uintptr_t)p & 15) == 0);
		int zero = 1;
		for (int j = 0; j < i; j++)
			zero &= p[j] == 0;
		CHECK(zero);
		memset(p, 0xAB, (size_t)i);
	}
	/* A request larger than a block gets its own block. */
	char *big = arena_alloc(a, 1u << 20);
	CHECK(big[0] == 0 && big[(1u << 20) - 1] == 0);
	CHECK(arena_used(a) >= (1u << 20));
	arena_free(a);
	arena_free(NULL);
}

static void
test_arena_strings(void)
{
	Arena *a = arena_new();
	CHECK_STR("abc", arena_strndup(a, "abcdef", 3));
	CHECK_STR("x=42 y", arena_printf(a, "x=%d %s", 42, "y"));
	CHECK_STR("", arena_strndup(a, "", 0));
	arena_free(a);
}

static void
test_vec_push(void)
{
	Arena *a = arena_new();
	VEC(int) v = {0};
	for (int i = 0; i < 1000; i++)
		vec_push(a, &v, i * 3);
	CHECK_EQ(1000, v.len);
	int ok = 1;
	for (int i = 0; i < 1000; i++)
		ok &= v.data[i] == i * 3;
	CHECK(ok);
	arena_free(a);
}

static void
test_strbuf(void)
{
	StrBuf b = {0};
	buf_puts(&b, "ab");
	buf_putc(&b, 'c');
	buf_printf(&b, "%d", 123);
	CHECK_STR("abc123", b.s);
	buf_clear(&b);
	buf_put_json_escaped(&b, "a\"b\\c\nd\x01");
	CHECK_STR("a\\\"b\\\\c\\nd\\u0001", b.s);
	for (int i = 0; i < 10000; i++)
		buf_putc(&b, 'x');
	CHECK_EQ(10000 + 16, b.len);
	buf_free(&b);
	CHECK(b.s == NULL && b.len == 0);
}

static void
test_intern(void)
{
	Arena *a = arena_new();
	Interner *in = intern_new(a);
	const char *x = intern_cstr(in, "hello");
	CHECK(x == intern(in, "hello world", 5));
	CHECK(x != intern_cstr(in, "hell"));
	char name[32];
	const char *first[3000];
	for (int i = 0; i < 3000; i++) {
		snprintf(name, sizeof name, "id%d", i);
		first[i] = intern_cstr(in, name);
	}
	int same = 1;
	for (int i = 0; i < 3000; i++) {
		snprintf(name, sizeof name, "id%d", i);
		same &= first[i] == intern_cstr(in, name) && strcmp(first[i], name) == 0;
	}
	CHECK(same);
	CHECK_EQ(3000 + 2, intern_count(in));
	arena_free(a);
}

static void
test_sources_lines(void)
{
	Arena *a = arena_new();
	Sources *s = src_new(a);
	uint32_t f = src_add(s, "k.gl", "ab\ncde\r\n\nlast", 13);
	CHECK_EQ(1, f);
	size_t n;
	const char *l = src_line(s, f, 2, &n);
	CHECK(l && n == 3 && strncmp(l, "cde", 3) == 0);
	l = src_line(s, f, 3, &n);
	CHECK(l && n == 0);
	l = src_line(s, f, 4, &n);
	CHECK(l && n == 4);
	CHECK(src_line(s, f, 5, &n) == NULL);
	CHECK(src_line(s, 9, 1, &n) == NULL);
	CHECK_STR("k.gl", src_path(s, f));
	SrcSpan j = span_join((SrcSpan){f, 2, 1, 1}, (SrcSpan){f, 2, 3, 1});
	CHECK_EQ(3, j.len);
	/* a part of a file (a --split-input-file case) keeps the file's line
	 * numbers: its first line is line 40, and lines before it are none */
	uint32_t p = src_add_part(s, "k.gl", "x\ny", 3, 40);
	CHECK_EQ(40, src_first_line(s, p));
	CHECK_EQ(1, src_first_line(s, f));
	l = src_line(s, p, 41, &n);
	CHECK(l && n == 1 && *l == 'y');
	CHECK(src_line(s, p, 39, &n) == NULL);
	CHECK(src_line(s, p, 42, &n) == NULL);
	arena_free(a);
}

static void
test_diag_text_and_json(void)
{
	Arena *a = arena_new();
	Sources *s = src_new(a);
	uint32_t f = src_add(s, "k.gl", "x = a +\tb\n", 10);
	Diags d;
	diag_init(&d, a, s);
	Diag *e = diag_error(&d, (SrcSpan){f, 1, 5, 5}, "layouts differ");
	diag_note(&d, e, (SrcSpan){f, 1, 1, 1}, "x defined here");
	diag_note(&d, e, (SrcSpan){0}, "bases: [[0,1]]");
	diag_warning(&d, (SrcSpan){0}, "no location");
	CHECK_EQ(1, d.errors);
	CHECK_EQ(1, d.warnings);
	StrBuf out = {0};
	diag_render(&d, DIAG_TEXT, "glc", &out);
	CHECK_STR("k.gl:1:5: error: layouts differ\n"
	          " 1 | x = a +\tb\n"
	          "   |     ^~~~~\n"
	          "k.gl:1:1: note: x defined here\n"
	          " 1 | x = a +\tb\n"
	          "   | ^\n"
	          "note: bases: [[0,1]]\n"
	          "glc: warning: no location\n", out.s);
	buf_clear(&out);
	diag_render(&d, DIAG_JSON, "glc", &out);
	CHECK(strstr(out.s, "\"kind\":\"error\",\"file\":\"k.gl\",\"line\":1,\"col\":5,\"len\":5") != NULL);
	CHECK(strstr(out.s, "\"notes\":[{\"kind\":\"note\"") != NULL);
	buf_free(&out);
	arena_free(a);
}

static void
count_context(void *ctx, Diags *d, Diag *g)
{
	(void)d;
	(void)g;
	++*(int *)ctx;
}

static void
test_diag_max_errors(void)
{
	Arena *a = arena_new();
	Diags d;
	diag_init(&d, a, NULL);
	d.max_errors = 2;
	for (int i = 0; i < 5; i++)
		diag_note(&d, diag_error(&d, (SrcSpan){0}, "e%d", i), (SrcSpan){0}, "n");
	CHECK_EQ(2, d.errors);
	CHECK(d.truncated);
	StrBuf out = {0};
	diag_render(&d, DIAG_TEXT, "glc", &out);
	CHECK(strstr(out.s, "too many errors") != NULL);
	buf_free(&out);
	arena_free(a);
}

/* A repeated error (same text, same place) is listed once and collects the
 * notes of every report; the context hook sees each report; many distinct
 * errors stay distinct (the table grows). */
static void
test_diag_repeats(void)
{
	Arena *a = arena_new();
	Diags d;
	diag_init(&d, a, NULL);
	int calls = 0;
	d.context = count_context;
	d.context_ctx = &calls;
	SrcSpan at = {1, 3, 4, 5};
	for (int i = 0; i < 3; i++) {
		Diag *g = diag_error(&d, at, "bad %s", "thing");
		diag_note(&d, g, (SrcSpan){1, 10 + i, 1, 1}, "called here");
		diag_note(&d, g, (SrcSpan){0}, "same note");
	}
	CHECK_EQ(3, d.errors);
	CHECK_EQ(3, calls);
	CHECK(d.first == d.last);
	int notes = 0;
	for (const Diag *n = d.first->notes; n; n = n->next)
		notes++;
	CHECK_EQ(4, notes);
	for (int i = 0; i < 1000; i++)
		diag_error(&d, (SrcSpan){1, (uint32_t)i + 100, 1, 1}, "e");
	int listed = 0;
	for (const Diag *g = d.first; g; g = g->next)
		listed++;
	CHECK_EQ(1001, listed);
	arena_free(a);
}

static void
test_diag_caret_tabs_and_clamp(void)
{
	Arena *a = arena_new();
	Sources *s = src_new(a);
	uint32_t f = src_add(s, "t.gl", "\tfoo(bar)", 9);
	Diags d;
	diag_init(&d, a, s);
	diag_error(&d, (SrcSpan){f, 1, 6, 100}, "long span");
	StrBuf out = {0};
	diag_render(&d, DIAG_TEXT, "glc", &out);
	CHECK_STR("t.gl:1:6: error: long span\n"
	          " 1 | \tfoo(bar)\n"
	          "   | \t    ^~~~\n", out.s);
	buf_free(&out);
	arena_free(a);
}

static void
test_diag_control_bytes(void)
{
	Arena *a = arena_new();
	Sources *s = src_new(a);
	uint32_t f = src_add(s, "c.gl", "a\0b\x1b[31mc", 9);
	Diags d;
	diag_init(&d, a, s);
	diag_error(&d, (SrcSpan){f, 1, 3, 1}, "odd byte");
	StrBuf out = {0};
	diag_render(&d, DIAG_TEXT, "glc", &out);
	CHECK_EQ(strlen(out.s), out.len);
	CHECK_STR("c.gl:1:3: error: odd byte\n"
	          " 1 | a?b?[31mc\n"
	          "   |   ^\n", out.s);
	buf_free(&out);
	arena_free(a);
}

static void
test_diag_suggest(void)
{
	const char *const names[] = {"order", "size_per_thread", "warps_per_cta", NULL, "dim"};
	CHECK_STR("order", diag_suggest("ordr", names, 5));
	CHECK_STR("warps_per_cta", diag_suggest("warp_per_cta", names, 5));
	CHECK_STR("dim", diag_suggest("dmi", names, 5));
	CHECK(diag_suggest("banana", names, 5) == NULL);
	CHECK(diag_suggest("order", names, 5) == NULL);
}

/* UTF-8 sequences: valid ones have their length, anything else 0. */
static void
test_utf8_len(void)
{
	CHECK_EQ(1, buf_utf8_len("a", 1));
	CHECK_EQ(2, buf_utf8_len("\xc3\xa9", 2));
	CHECK_EQ(3, buf_utf8_len("\xe2\x82\xac", 3));
	CHECK_EQ(4, buf_utf8_len("\xf0\x9f\x98\x80", 4));
	CHECK_EQ(0, buf_utf8_len("\xc3\xa9", 1));      /* cut short */
	CHECK_EQ(0, buf_utf8_len("\x80", 1));           /* a stray continuation */
	CHECK_EQ(0, buf_utf8_len("\xc0\xaf", 2));      /* overlong */
	CHECK_EQ(0, buf_utf8_len("\xed\xa0\x80", 3));  /* a surrogate */
	CHECK_EQ(0, buf_utf8_len("\xff", 1));
	CHECK_EQ(0, buf_utf8_len("", 0));
}

/* A buffer with a limit drops what would pass it and says so. */
static void
test_strbuf_limit(void)
{
	StrBuf b = {0};
	b.limit = 8;
	buf_puts(&b, "abcd");
	buf_printf(&b, "%d", 123);
	CHECK(!b.over);
	buf_puts(&b, "xy");
	CHECK(b.over);
	CHECK_STR("abcd123", b.s);
	buf_putc(&b, 'z');
	CHECK_STR("abcd123", b.s);
	buf_free(&b);
	CHECK(!b.over);
}

/* Internal errors count as errors and on their own, whatever
 * max_errors; quotes of long text keep their ends; limits name their
 * options. */
static void
test_diag_internal_quote_limits(void)
{
	Arena *a = arena_new();
	Diags d;
	diag_init(&d, a, NULL);
	d.max_errors = 1;
	diag_error(&d, (SrcSpan){0}, "first");
	diag_error(&d, (SrcSpan){0}, "dropped");
	CHECK(diag_internal(&d, (SrcSpan){0}, "glc built invalid IR") != NULL);
	CHECK_EQ(1, d.internal);
	StrBuf out = {0};
	diag_render(&d, DIAG_TEXT, "glc", &out);
	CHECK(strstr(out.s, "glc: internal compiler error: glc built invalid IR\n") != NULL);
	buf_free(&out);
	char digits[101];
	memset(digits, '7', 100);
	digits[100] = 0;
	CHECK_STR("777777777777777777777777...777777777777", diag_quote(a, digits, 100));
	CHECK_STR("short", diag_quote(a, "short", 5));
	Limits l = limits_default();
	CHECK_EQ(16384, (int)l.max[LIM_UNROLL]);
	CHECK_STR("max-unroll", limit_name(LIM_UNROLL));
	arena_free(a);
}

int
main(void)
{
	RUN_TEST(test_arena_zeroed_aligned);
	RUN_TEST(test_arena_strings);
	RUN_TEST(test_vec_push);
	RUN_TEST(test_strbuf);
	RUN_TEST(test_intern);
	RUN_TEST(test_sources_lines);
	RUN_TEST(test_diag_text_and_json);
	RUN_TEST(test_diag_max_errors);
	RUN_TEST(test_diag_caret_tabs_and_clamp);
	RUN_TEST(test_diag_repeats);
	RUN_TEST(test_diag_suggest);
	RUN_TEST(test_diag_control_bytes);
	RUN_TEST(test_utf8_len);
	RUN_TEST(test_strbuf_limit);
	RUN_TEST(test_diag_internal_quote_limits);
	return check_summary();
}
