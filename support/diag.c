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
	if (kind == DIAG_INTERNAL) {
		d->internal++;
		d->errors++;
	} else if (kind == DIAG_ERROR) {
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
diag_internal(Diags *d, SrcSpan at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	Diag *g = add_top(d, DIAG_INTERNAL, at, fmt, ap);
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

/* Quotes longer than QUOTE_MAX bytes keep QUOTE_HEAD and QUOTE_TAIL. */
enum { QUOTE_MAX = 48, QUOTE_HEAD = 24, QUOTE_TAIL = 12 };

const char *
diag_quote(Arena *a, const char *s, size_t n)
{
	if (n <= QUOTE_MAX)
		return arena_strndup(a, s, n);
	size_t head = QUOTE_HEAD, tail = n - QUOTE_TAIL;
	for (int k = 0; k < 3 && (s[head] & 0xc0) == 0x80; k++)
		head--;
	for (int k = 0; k < 3 && (s[tail] & 0xc0) == 0x80; k++)
		tail++;
	return arena_printf(a, "%.*s...%.*s", (int)head, s, (int)(n - tail), s + tail);
}

static const char *
kind_name(DiagKind k)
{
	switch (k) {
	case DIAG_ERROR: return "error";
	case DIAG_WARNING: return "warning";
	case DIAG_NOTE: return "note";
	case DIAG_INTERNAL: return "internal compiler error";
	}
	return "error";
}

/* A long source line is shown as a window of this many bytes around the
 * span (with "..." at a cut end), starting at most EXCERPT_BEFORE bytes
 * before it. */
enum { EXCERPT_MAX = 160, EXCERPT_BEFORE = 60 };

/* Bytes of the character at line[i] (a whole UTF-8 sequence, else 1). */
static size_t
char_len(const char *line, size_t i, size_t n)
{
	size_t k = buf_utf8_len(line + i, n - i);
	return k ? k : 1;
}

/* The source line under the message, with a gutter and an underline that
 * starts with a caret. Tabs in the source are kept in the underline so that
 * the caret lines up in any terminal; other control bytes (a NUL, an escape)
 * and bytes that are not UTF-8 are shown as '?' so that they neither cut the
 * line nor drive the terminal. Each character takes one column. */
static void
render_excerpt(const Diags *d, SrcSpan at, StrBuf *out)
{
	size_t n;
	const char *line = src_line(d->src, at.file, at.line, &n);
	if (!line)
		return;
	size_t col = at.col ? at.col - 1 : 0;
	if (col > n)
		col = n;
	size_t from = 0, to = n;
	if (n > EXCERPT_MAX) {
		/* Cut between characters: back over at most three continuation
		 * bytes (of a valid sequence; a run of stray ones is cut anywhere). */
		from = col > EXCERPT_BEFORE ? col - EXCERPT_BEFORE : 0;
		for (int k = 0; k < 3 && from > 0 && (line[from] & 0xc0) == 0x80; k++)
			from--;
		to = n - from > EXCERPT_MAX ? from + EXCERPT_MAX : n;
		for (int k = 0; k < 3 && to < n && to > from && (line[to] & 0xc0) == 0x80; k++)
			to--;
	}
	char gutter[16];
	int gw = snprintf(gutter, sizeof gutter, "%u", at.line);
	buf_printf(out, " %s | %s", gutter, from ? "..." : "");
	for (size_t i = from; i < to; i += char_len(line, i, to)) {
		unsigned char c = (unsigned char)line[i];
		if (c >= 0x80 && buf_utf8_len(line + i, to - i))
			buf_putn(out, line + i, char_len(line, i, to));
		else
			buf_putc(out, (c < 0x20 && c != '\t') || c >= 0x7f ? '?' : (char)c);
	}
	buf_puts(out, to < n ? "...\n" : "\n");
	buf_printf(out, " %*s | %s", gw, "", from ? "   " : "");
	for (size_t i = from; i < col; i += char_len(line, i, col))
		buf_putc(out, line[i] == '\t' ? '\t' : ' ');
	size_t end = col + (at.len ? at.len : 1);
	if (end > to)
		end = to;
	buf_putc(out, '^');
	for (size_t i = col + char_len(line, col, n); i < end; i += char_len(line, i, end))
		buf_putc(out, '~');
	buf_putc(out, '\n');
}

/* A message line longer than LINE_MAX bytes (one that quotes a huge
 * literal or name) keeps its first LINE_HEAD and last LINE_TAIL bytes. */
enum { LINE_MAX = 400, LINE_HEAD = 200, LINE_TAIL = 120 };

/* s[0..n) for a terminal: control bytes other than tabs, and bytes that
 * are not UTF-8, are written as \xNN. */
static void
put_clean_n(StrBuf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t k = buf_utf8_len(s + i, n - i);
		if (c >= 0x80 && k) {
			buf_putn(out, s + i, k);
			i += k;
			continue;
		}
		if ((c < 0x20 && c != '\t') || c >= 0x7f)
			buf_printf(out, "\\x%02x", c);
		else
			buf_putc(out, (char)c);
		i++;
	}
}

/* Text that came from outside (a path, a message quoting the input), line
 * by line, each cleaned and cut to LINE_MAX. */
static void
put_clean(StrBuf *out, const char *s)
{
	for (;;) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		if (n <= LINE_MAX) {
			put_clean_n(out, s, n);
		} else {
			size_t head = LINE_HEAD, tail = n - LINE_TAIL;
			for (int k = 0; k < 3 && (s[head] & 0xc0) == 0x80; k++)
				head--;
			for (int k = 0; k < 3 && (s[tail] & 0xc0) == 0x80; k++)
				tail++;
			put_clean_n(out, s, head);
			buf_printf(out, "[... %zu bytes ...]", tail - head);
			put_clean_n(out, s + tail, n - tail);
		}
		if (!nl)
			return;
		buf_putc(out, '\n');
		s = nl + 1;
	}
}

static void
render_one_text(const Diags *d, const Diag *g, const char *tool, StrBuf *out)
{
	if (g->at.file) {
		put_clean(out, src_path(d->src, g->at.file));
		buf_printf(out, ":%u:%u: ", g->at.line, g->at.col);
	} else if (g->kind != DIAG_NOTE) {
		buf_printf(out, "%s: ", tool);
	}
	buf_printf(out, "%s: ", kind_name(g->kind));
	put_clean(out, g->msg);
	buf_putc(out, '\n');
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
