/*
 * How the verifier reports: each violation an error at what it concerns,
 * its message starting with the rule's name, as a user error or (glc built
 * or transformed the program) an internal compiler error; types as text in
 * messages.
 */
#include "ir/verify/verify.h"

#include <stdarg.h>

bool
vf_fail(Verifier *v, SrcSpan at, const char *rule, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = arena_vprintf(v->a, fmt, ap);
	va_end(ap);
	if (v->internal)
		diag_internal(v->d, at, "invalid IR: %s: %s", rule, msg);
	else
		diag_error(v->d, at, "%s: %s", rule, msg);
	v->ok = false;
	return false;
}

const char *
vf_type_str(Verifier *v, const TType *t)
{
	StrBuf b = {0};
	ir_type_print(t, &b);
	char *s = arena_strndup(v->a, b.s ? b.s : "", b.len);
	buf_free(&b);
	return s;
}
