/* Unit tests of support/json.c: values, escapes, lines, errors, nesting. */
#include "support/support.h"
#include "test/unit/check.h"

static const Json *
parse(Arena *a, const char *text, const char **err, uint32_t *line)
{
	*err = NULL;
	*line = 0;
	return json_parse(a, text, strlen(text), err, line);
}

static void
test_json_values(void)
{
	Arena *a = arena_new();
	const char *err;
	uint32_t line;
	const Json *j = parse(a, "{\"a\": [1, -20, 2.5, true, false, null],\n \"s\": \"x\\n\\u00e9\\ud83d\\ude00\"}",
	                      &err, &line);
	CHECK(j && j->kind == JSON_OBJECT && j->n == 2);
	const Json *arr = json_get(j, "a");
	CHECK(arr && arr->kind == JSON_ARRAY && arr->n == 6);
	CHECK(arr->items[0]->is_int && arr->items[0]->i == 1);
	CHECK(arr->items[1]->i == -20);
	CHECK(!arr->items[2]->is_int && arr->items[2]->num == 2.5);
	CHECK(arr->items[3]->kind == JSON_BOOL && arr->items[3]->b);
	CHECK(arr->items[4]->kind == JSON_BOOL && !arr->items[4]->b);
	CHECK(arr->items[5]->kind == JSON_NULL);
	const Json *s = json_get(j, "s");
	CHECK(s && s->kind == JSON_STRING && s->line == 2);
	CHECK(strcmp(s->s, "x\n\xc3\xa9\xf0\x9f\x98\x80") == 0);
	CHECK(json_get(j, "missing") == NULL);
	CHECK(json_get(arr, "a") == NULL);
	CHECK(parse(a, " [ ] ", &err, &line) && parse(a, "{}", &err, &line));
	arena_free(a);
}

static void
test_json_errors(void)
{
	Arena *a = arena_new();
	const char *err;
	uint32_t line;
	const char *bad[] = {"", "{", "[1,]", "{\"a\" 1}", "{a: 1}", "\"abc", "\"\\x\"", "\"\\ud800\"",
	                     "tru", "1 2", "[1}", "\"a\tb\"", "-", "{\"a\":1,}"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		CHECK(parse(a, bad[i], &err, &line) == NULL);
		CHECK(err != NULL);
	}
	CHECK(parse(a, "[1,\n\n x]", &err, &line) == NULL && line == 3);
	/* nesting past the bound is an error, not a deep recursion */
	StrBuf deep = {0};
	for (int i = 0; i < 100000; i++)
		buf_putc(&deep, '[');
	CHECK(json_parse(a, deep.s, deep.len, &err, &line) == NULL);
	CHECK(strcmp(err, "nested too deeply") == 0);
	buf_clear(&deep);
	for (int i = 0; i < JSON_MAX_DEPTH; i++)
		buf_putc(&deep, '[');
	for (int i = 0; i < JSON_MAX_DEPTH; i++)
		buf_putc(&deep, ']');
	CHECK(json_parse(a, deep.s, deep.len, &err, &line) != NULL);
	buf_free(&deep);
	arena_free(a);
}

int
main(void)
{
	RUN_TEST(test_json_values);
	RUN_TEST(test_json_errors);
	return check_summary();
}
