/* Helpers shared by the lexer's files. Not part of the public interface. */
#ifndef LEXER_INTERNAL_H
#define LEXER_INTERNAL_H

#include "lexer/lexer.h"

/* Why the n bytes at s, which the scanner took for a malformed number
 * literal, are not a valid one: a message allocated in a. */
const char *lex_number_problem(Arena *a, const char *s, size_t n);

#endif
