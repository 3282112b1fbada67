/* Diagnostics as data, and their rendering (GCC text or JSON). */
#include "support.h"

#include <stdio.h>
#include <string.h>

void
diag_init(Diags *d, Arena *a, const Sources *src)
{
	memset(d, 0, sizeof *d);
	d->arena = a;
	d->src = src;
}

static Diag *
make(Diags *d, DiagKind kind, SrcSpan at, const char *fmt, va_list ap)
{
	Diag *g = arena_alloc(d->arena, sizeof *g);
	g->kind = kind;
	g->at = at;
	g->msg = arena_vprintf(d->arena, fmt, ap);
	return g;
}

static bool
same_diag(const Diag *a, DiagKind kind, SrcSpan at, const char *msg)
{
	return a->kind == kind && a->at.file == at.file && a->at.line == at.line &&
	       a->at.col == at.col && a->at.len == at.len && strcmp(a->msg, msg) == 0;
}

static size_t
diag_hash(SrcSpan at, const char *msg)
{
	size_t h = (size_t)at.file * 31u + at.line * 131u + at.col * 7u + at.len;
	for (const char *s = msg; *s; s++)
		h = h * 33u ^ (unsigned char)*s;
	return h;
}

/* The slot of (kind, at, msg) in d->seen: an equal diagnostic or NULL. */
static Diag **
seen_slot(Diags *d, DiagKind kind, SrcSpan at, const char *msg)
{
	size_t mask = d->seen_cap - 1, i = diag_hash(at, msg) & mask;
	while (d->seen[i] && !same_diag(d->seen[i], kind, at, msg))
		i = (i + 1) & mask;
	return &d->seen[i];
}

static void
remember(Diags *d, Diag *g)
{
	if (2 * (d->n_seen + 1) > d->seen_cap) {
		Diag **old = d->seen;
		size_t n = d->seen_cap;
		d->seen_cap = n ? 2 * n : 64;
		d->seen = arena_alloc(d->arena, d->seen_cap * sizeof *d->seen);
		for (size_t i = 0; i < n; i++)
			if (old[i])
				*seen_slot(d, old[i]->kind, old[i]->at, old[i]->msg) = old[i];
	}
	*seen_slot(d, g->kind, g->at, g->msg) = g;
	d->n_seen++;
}

static Diag *
add_top(Diags *d, DiagKind kind, SrcSpan at, const char *fmt, va_list ap)
{
	if (kind == DIAG_ERROR) {
		if (d->max_errors && d->errors >= d->max_errors) {
			d->truncated = true;
			return NULL;
		}
		d->errors++;
	} else if (kind == DIAG_WARNING) {
		d->warnings++;
	}
	Diag *g = make(d, kind, at, fmt, ap);
	Diag *first = d->seen_cap ? *seen_slot(d, kind, at, g->msg) : NULL;
	if (first) {
		g = first;
	} else {
		remember(d, g);
		if (d->last)
			d->last->next = g;
		else
			d->first = g;
		d->last = g;
	}
	if (d->context)
		d->context(d->context_ctx, d, g);
	return g;
}

Diag *
diag_verror(Diags *d, SrcSpan at, const char *fmt, va_list ap)
{
	return add_top(d, DIAG_ERROR, at, fmt, ap);
}

Diag *
diag_error(Diags *d, SrcSpan at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Diag *g = add_top(d, DIAG_ERROR, at, fmt, ap);
	va_end(ap);
	return g;
}

Diag *
diag_warning(Diags *d, SrcSpan at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Diag *g = add_top(d, DIAG_WARNING, at, fmt, ap);
	va_end(ap);
	return g;
}

Diag *
diag_remark(Diags *d, SrcSpan at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Diag *g = add_top(d, DIAG_NOTE, at, fmt, ap);
	va_end(ap);
	return g;
}

Diag *
diag_note(Diags *d, Diag *parent, SrcSpan at, const char *fmt, ...)
{
	if (!parent)
		return NULL;
	va_list ap;
	va_start(ap, fmt);
	Diag *n = make(d, DIAG_NOTE, at, fmt, ap);
	va_end(ap);
	Diag **p = &parent->notes;
	for (; *p; p = &(*p)->next)
		if (same_diag(*p, DIAG_NOTE, at, n->msg))
			return *p;
	*p = n;
	return n;
}

static const char *
kind_name(DiagKind k)
{
	switch (k) {
	case DIAG_ERROR: return "error";
	case DIAG_WARNING: return "warning";
	case DIAG_NOTE: return "note";
	}
	return "error";
}

/* The source line under the message, with a gutter and an underline that
 * starts with a caret. Tabs in the source are kept in the underline so that
 * the caret lines up in any terminal; other control bytes (a NUL, an escape)
 * are shown as '?' so that they neither cut the line nor drive the
 * terminal. */
static void
render_excerpt(const Diags *d, SrcSpan at, StrBuf *out)
{
	size_t n;
	const char *line = src_line(d->src, at.file, at.line, &n);
	if (!line)
		return;
	char gutter[16];
	int gw = snprintf(gutter, sizeof gutter, "%u", at.line);
	buf_printf(out, " %s | ", gutter);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)line[i];
		buf_putc(out, (c < 0x20 && c != '\t') || c == 0x7f ? '?' : (char)c);
	}
	buf_putc(out, '\n');
	buf_printf(out, " %*s | ", gw, "");
	size_t col = at.col ? at.col - 1 : 0;
	if (col > n)
		col = n;
	for (size_t i = 0; i < col; i++)
		buf_putc(out, line[i] == '\t' ? '\t' : ' ');
	size_t len = at.len ? at.len : 1;
	if (col + len > n)
		len = n > col ? n - col : 1;
	buf_putc(out, '^');
	for (size_t i = 1; i < len; i++)
		buf_putc(out, '~');
	buf_putc(out, '\n');
}

static void
render_one_text(const Diags *d, const Diag *g, const char *tool, StrBuf *out)
{
	if (g->at.file)
		buf_printf(out, "%s:%u:%u: ", src_path(d->src, g->at.file),
		           g->at.line, g->at.col);
	else if (g->kind != DIAG_NOTE)
		buf_printf(out, "%s: ", tool);
	buf_printf(out, "%s: %s\n", kind_name(g->kind), g->msg);
	if (g->at.file)
		render_excerpt(d, g->at, out);
}

static void
render_one_json(const Diags *d, const Diag *g, StrBuf *out)
{
	buf_printf(out, "{\"kind\":\"%s\"", kind_name(g->kind));
	if (g->at.file) {
		buf_puts(out, ",\"file\":\"");
		buf_put_json_escaped(out, src_path(d->src, g->at.file));
		buf_printf(out, "\",\"line\":%u,\"col\":%u,\"len\":%u",
		           g->at.line, g->at.col, g->at.len);
	}
	buf_puts(out, ",\"message\":\"");
	buf_put_json_escaped(out, g->msg);
	buf_puts(out, "\"");
	if (g->kind != DIAG_NOTE) {
		buf_puts(out, ",\"notes\":[");
		for (const Diag *n = g->notes; n; n = n->next) {
			render_one_json(d, n, out);
			if (n->next)
				buf_putc(out, ',');
		}
		buf_putc(out, ']');
	}
	buf_putc(out, '}');
}

void
diag_render(const Diags *d, DiagFormat fmt, const char *tool, StrBuf *out)
{
	if (fmt == DIAG_JSON) {
		buf_putc(out, '[');
		for (const Diag *g = d->first; g; g = g->next) {
			render_one_json(d, g, out);
			if (g->next)
				buf_putc(out, ',');
		}
		buf_puts(out, "]\n");
		return;
	}
	for (const Diag *g = d->first; g; g = g->next) {
		render_one_text(d, g, tool, out);
		for (const Diag *n = g->notes; n; n = n->next)
			render_one_text(d, n, tool, out);
	}
	if (d->truncated)
		buf_printf(out, "%s: note: too many errors; stopped after %d\n",
		           tool, d->max_errors);
}
