/*
 * libFuzzer target for the front end: the input bytes become a source file
 * that is lexed (and dumped), parsed as a module (and dumped) and as one
 * expression; every diagnostic is rendered. Any crash, hang, sanitizer report
 * or leak is a bug: the front end must take any input.
 */
#include "lexer/lexer.h"
#include "parser/parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Arena *a = arena_new();
	Interner *in = intern_new(a);
	Sources *src = src_new(a);
	uint32_t file = src_add(src, "fuzz.gl", (const char *)data, size);
	Diags d;
	diag_init(&d, a, src);
	StrBuf out = {0};

	TokenList toks = {0};
	lex_file(a, in, src, file, &d, &toks);
	lex_dump(&toks, src, &out);

	Node *m = parse_module(a, in, src, file, &d);
	if (m)
		parse_dump(m, src, &out);
	Node *e = parse_expression(a, in, src, file, &d);
	if (e)
		parse_dump(e, src, &out);

	diag_render(&d, DIAG_TEXT, "glc", &out);
	diag_render(&d, DIAG_JSON, "glc", &out);
	buf_free(&out);
	arena_free(a);
	return 0;
}
