/* Token kind names and spellings, and the token dump of --emit=tokens. */
#include "lexer/lexer.h"

static const char *const kind_names[] = {
#define X(k, s) #k,
	LEX_TOKENS(X)
#undef X
};

static const char *const kind_spellings[] = {
#define X(k, s) s,
	LEX_TOKENS(X)
#undef X
};

const char *
lex_kind_name(TokKind k)
{
	return (unsigned)k < TOK_COUNT_ ? kind_names[k] : "?";
}

const char *
lex_kind_spelling(TokKind k)
{
	return (unsigned)k < TOK_COUNT_ ? kind_spellings[k] : "";
}

/* Writes text quoted with '...', escaping quotes, backslashes and control
 * bytes so that every token stays on one line. */
static void
put_quoted(StrBuf *out, const char *s)
{
	buf_putc(out, '\'');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\n')
			buf_puts(out, "\\n");
		else if (c == '\t')
			buf_puts(out, "\\t");
		else if (c == '\r')
			buf_puts(out, "\\r");
		else if (c == '\\' || c == '\'')
			buf_printf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			buf_printf(out, "\\x%02x", c);
		else
			buf_putc(out, (char)c);
	}
	buf_putc(out, '\'');
}

void
lex_dump(const TokenList *toks, const Sources *src, StrBuf *out)
{
	(void)src;
	for (size_t i = 0; i < toks->len; i++) {
		const Token *t = &toks->data[i];
		buf_printf(out, "%u:%u %s", t->span.line, t->span.col,
		           lex_kind_name(t->kind));
		if (t->text && *t->text) {
			buf_putc(out, ' ');
			put_quoted(out, t->text);
		}
		buf_putc(out, '\n');
	}
}
