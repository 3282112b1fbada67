/*
 * MLIR-style test files: --split-input-file compiles each case of a file
 * (split at `// -----` lines) on its own, numbering its lines as in the
 * whole file; --verify-diagnostics checks that the diagnostics are exactly
 * those the file's comments expect:
 *
 *   // expected-error@+1 {{is not defined above}}        (IR, next line)
 *   x = y  # expected-error {{unknown name 'y'}}          (.gl, this line)
 *
 * `@+N`/`@-N` count from the comment's line, `@N` is line N, `@unknown` a
 * diagnostic without a location; the text in {{...}} must occur in the
 * message. Notes are checked like errors when they have a location.
 */
#include "driver/driver.h"

#include <stdlib.h>
#include <string.h>

/* True when line [s, e) reads `// -----`, `# -----` or `; -----`. */
static bool
is_marker(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	if (e - s >= 2 && s[0] == '/' && s[1] == '/')
		s += 2;
	else if (s < e && (*s == '#' || *s == ';'))
		s++;
	else
		return false;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	return e - s == 5 && memcmp(s, "-----", 5) == 0;
}

size_t
drv_split_cases(const char *text, size_t len, Arena *a, DrvCase **out)
{
	VEC(DrvCase) cases = {0};
	DrvCase c = {0, 0, 1};
	uint32_t line = 1;
	for (size_t i = 0; i < len;) {
		size_t end = i;
		while (end < len && text[end] != '\n')
			end++;
		if (is_marker(text + i, text + end)) {
			c.len = i - c.start;
			vec_push(a, &cases, c);
			c = (DrvCase){end < len ? end + 1 : len, 0, line + 1};
		}
		i = end < len ? end + 1 : len;
		line++;
	}
	c.len = len - c.start;
	vec_push(a, &cases, c);
	*out = cases.data;
	return cases.len;
}

uint32_t
drv_case_source(Sources *src, uint32_t file, const DrvCase *c)
{
	return src_add_part(src, src_path(src, file), src_text(src, file) + c->start, c->len,
	                    c->line);
}

typedef struct Expect {
	DiagKind kind;
	uint32_t line;        /* 0: @unknown */
	const char *text;
	SrcSpan at;           /* the comment */
	bool met;
} Expect;

typedef VEC(Expect) ExpectVec;

static const char *const kind_names[] = {
	[DIAG_ERROR] = "error", [DIAG_WARNING] = "warning", [DIAG_NOTE] = "note",
};

/* The expectation at p (just after "expected-") on line `line`; false
 * with *why when it is malformed. */
static bool
parse_expect(Arena *a, const char *p, const char *e, uint32_t line, Expect *x,
             const char **why)
{
	int kind = -1;
	for (int k = 0; k < 3; k++) {
		size_t n = strlen(kind_names[k]);
		if ((size_t)(e - p) >= n && memcmp(p, kind_names[k], n) == 0) {
			kind = k;
			p += n;
		}
	}
	if (kind < 0) {
		*why = "expected-error, expected-warning or expected-note";
		return false;
	}
	x->kind = (DiagKind)kind;
	x->line = line;
	while (p < e && *p == ' ')
		p++;
	if (p < e && *p == '@') {
		p++;
		if ((size_t)(e - p) >= 7 && memcmp(p, "unknown", 7) == 0) {
			x->line = 0;
			p += 7;
		} else {
			char *end;
			long v = strtol(p, &end, 10);
			if (end == p || v < -(long)line || v > 100000000) {
				*why = "@+N, @-N, @N or @unknown";
				return false;
			}
			x->line = *p == '+' || *p == '-' ? (uint32_t)((long)line + v) : (uint32_t)v;
			p = end;
		}
	}
	while (p < e && *p == ' ')
		p++;
	const char *close = NULL;
	for (const char *q = p + 2; q + 1 < e && !close; q++)
		if (q[0] == '}' && q[1] == '}')
			close = q;
	if (e - p < 4 || p[0] != '{' || p[1] != '{' || !close) {
		*why = "the expected text in {{...}}";
		return false;
	}
	x->text = arena_strndup(a, p + 2, (size_t)(close - p - 2));
	return true;
}

/* Every expectation in the comments of file; malformed ones are reported. */
static void
collect(Diags *d, const Sources *src, uint32_t file, ExpectVec *out)
{
	const char *text = src_text(src, file);
	size_t len = src_len(src, file);
	static const char tag[] = "expected-";
	uint32_t line = 1;
	for (size_t i = 0; i < len; line++) {
		size_t end = i;
		while (end < len && text[end] != '\n')
			end++;
		for (const char *p = text + i; (p = memmem(p, (size_t)(text + end - p), tag,
		                                           sizeof tag - 1)); p++) {
			Expect x = {0};
			const char *why;
			x.at = (SrcSpan){file, line, (uint32_t)(p - (text + i)) + 1, sizeof tag - 1};
			if (parse_expect(d->arena, p + sizeof tag - 1, text + end, line, &x, &why))
				vec_push(d->arena, out, x);
			else
				diag_error(d, x.at, "malformed expectation: expected %s", why);
		}
		i = end < len ? end + 1 : len;
	}
}

/* Marks the first unmet expectation that g fulfils; false when none does. */
static bool
meet(const Sources *src, uint32_t file, const Diag *g, ExpectVec *xs)
{
	bool here = g->at.file && strcmp(src_path(src, g->at.file), src_path(src, file)) == 0;
	if (g->at.file && !here)
		return false;
	for (size_t i = 0; i < xs->len; i++) {
		Expect *x = &xs->data[i];
		if (!x->met && x->kind == g->kind && x->line == (here ? g->at.line : 0) &&
		    strstr(g->msg, x->text)) {
			x->met = true;
			return true;
		}
	}
	return false;
}

bool
drv_verify_diagnostics(Diags *d, const Sources *src, uint32_t file)
{
	Diags report;
	diag_init(&report, d->arena, src);
	ExpectVec xs = {0};
	collect(&report, src, file, &xs);
	for (const Diag *g = d->first; g; g = g->next) {
		if (!meet(src, file, g, &xs))
			diag_error(&report, g->at, "unexpected %s: %s", kind_names[g->kind], g->msg);
		for (const Diag *n = g->notes; n; n = n->next)
			if (n->at.file && !meet(src, file, n, &xs))
				diag_error(&report, n->at, "unexpected note: %s", n->msg);
	}
	for (size_t i = 0; i < xs.len; i++)
		if (!xs.data[i].met)
			diag_error(&report, xs.data[i].at, "expected %s \"%s\" was not produced",
			           kind_names[xs.data[i].kind], xs.data[i].text);
	*d = report;
	return d->errors == 0;
}
