/*
 * libFuzzer target for the front end: the input bytes become a source file
 * that is lexed (and dumped), parsed as a module (and dumped) and as one
 * expression; every diagnostic is rendered. Any crash, hang, sanitizer report
 * or leak is a bug: the front end must take any input.
 */
#include "lexer/lexer.h"
#include "parser/parser.h"
#include "test/fuzz/fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FuzzInput f;
	fuzz_begin(&f, data, size);
	f.d.max_errors = 0;   /* the front end reports every error */

	TokenList toks = {0};
	lex_file(f.a, f.in, f.src, f.file, &f.d, &f.lim, &toks);
	lex_dump(&toks, f.src, &f.out);

	Node *m = parse_module(f.a, f.in, f.src, f.file, &f.d, &f.lim);
	if (m)
		parse_dump(m, f.src, &f.out);
	Node *e = parse_expression(f.a, f.in, f.src, f.file, &f.d);
	if (e)
		parse_dump(e, f.src, &f.out);

	fuzz_end(&f);
	return 0;
}
