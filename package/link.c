/*
 * glc link, the reading half: the manifests of many objects (`glc -c
 * --manifest`) into their launchers grouped by kernel, as Triton's link.py
 * groups compile.py's headers. Each group of several launchers gets a
 * dispatcher named after the kernel, which tests the arguments in order,
 * most specialized launcher first: the divisibility each launcher requires
 * (pointers 16-byte aligned, integers multiples of 16) and the constexpr
 * values that tell the launchers apart, which the dispatcher takes as
 * integer arguments after the kernel's own (a table of values). Everything
 * that would make a library that does not link or does not dispatch is an
 * error at its manifest entry: a malformed manifest, a symbol given twice,
 * a dispatcher named like a launcher, launchers of one kernel with other
 * parameters or grids, constexprs that differ but are not integers, two
 * launchers that the same arguments pick.
 */
#include "package/link.h"

#include <stdlib.h>
#include <string.h>

typedef struct Reader {
	Arena *a;
	Diags *d;
	uint32_t file;
	bool ok;
} Reader;

static SrcSpan
at(const Reader *r, const Json *j)
{
	return (SrcSpan){r->file, j ? j->line : 1, 1, 0};
}

/* The string (or, with want_int, integer) member key of obj; NULL (and an
 * error) when it is missing or of another type. */
static const Json *
member(Reader *r, const Json *obj, const char *key, JsonKind kind)
{
	const Json *v = json_get(obj, key);
	if (v && v->kind == kind && (kind != JSON_NUMBER || v->is_int))
		return v;
	if (r->ok)
		diag_error(r->d, at(r, v ? v : obj), "manifest: expected \"%s\" as %s", key,
		           kind == JSON_STRING ? "a string" : kind == JSON_NUMBER ? "an integer" :
		           "an array");
	r->ok = false;
	return NULL;
}

static const char *
str(Reader *r, const Json *obj, const char *key)
{
	const Json *v = member(r, obj, key, JSON_STRING);
	return v ? v->s : "";
}

static int64_t
num(Reader *r, const Json *obj, const char *key)
{
	const Json *v = member(r, obj, key, JSON_NUMBER);
	return v ? v->i : 0;
}

/* "1024" -> 1024, "True" -> 1; false for anything that is not an integer. */
static bool
integer_value(const char *s, int64_t *v)
{
	if (strcmp(s, "True") == 0 || strcmp(s, "False") == 0) {
		*v = s[0] == 'T';
		return true;
	}
	char *end;
	long long x = strtoll(s, &end, 10);
	*v = x;
	return *s && !*end && (*s == '-' || (*s >= '0' && *s <= '9'));
}

static void
read_params(Reader *r, const Json *arr, LinkSpec *s)
{
	s->n_params = arr ? (int)arr->n : 0;
	s->params = arena_alloc(r->a, (size_t)(s->n_params + 1) * sizeof *s->params);
	for (int i = 0; i < s->n_params; i++) {
		const Json *p = arr->items[i];
		LinkParam *q = &s->params[i];
		q->name = str(r, p, "name");
		q->c_name = str(r, p, "c_name");
		q->kind = str(r, p, "kind");
		q->dtype = str(r, p, "dtype");
		q->ctype = str(r, p, "ctype");
		q->divisibility = (uint32_t)num(r, p, "divisibility");
		const Json *rank = json_get(p, "rank");
		q->rank = rank && rank->is_int ? (int)rank->i : 0;
		if (strcmp(q->kind, "ptr") == 0 || strcmp(q->kind, "scalar") == 0)
			s->n_conditions += q->divisibility > 1;
	}
}

static void
read_spec(Reader *r, const Json *k, LinkSpec *s)
{
	s->at = at(r, k);
	s->kernel = str(r, k, "kernel");
	s->symbol = str(r, k, "symbol");
	s->computed_grid = strcmp(str(r, k, "grid"), "computed") == 0;
	s->threads = (int)num(r, k, "threads");
	s->smem_bytes = (uint32_t)num(r, k, "smem_bytes");
	s->scratch_bytes = (uint32_t)num(r, k, "scratch_bytes");
	read_params(r, member(r, k, "params", JSON_ARRAY), s);
	const Json *cx = member(r, k, "constexprs", JSON_ARRAY);
	s->n_cx = cx ? (int)cx->n : 0;
	s->cx = arena_alloc(r->a, (size_t)(s->n_cx + 1) * sizeof *s->cx);
	for (int i = 0; i < s->n_cx; i++) {
		LinkConstexpr *c = &s->cx[i];
		c->name = str(r, cx->items[i], "name");
		c->value = str(r, cx->items[i], "value");
		c->is_int = integer_value(c->value, &c->value_int);
	}
}

/* The launchers of one manifest appended to *specs; false after an error. */
static bool
read_manifest(Arena *a, Diags *d, const Sources *src, uint32_t file, void *specs_vec)
{
	VEC(LinkSpec *) *specs = specs_vec;
	Reader r = {a, d, file, true};
	const char *err;
	uint32_t line;
	Json *root = json_parse(a, src_text(src, file), src_len(src, file), &err, &line);
	if (!root) {
		diag_error(d, (SrcSpan){file, line, 1, 0}, "manifest: %s", err);
		return false;
	}
	const Json *version = json_get(root, "glc_manifest");
	if (!version || !version->is_int || version->i != 1) {
		diag_error(d, at(&r, version ? version : root), "not a glc manifest (version 1): "
		           "write one with glc -c --manifest FILE");
		return false;
	}
	const Json *kernels = member(&r, root, "kernels", JSON_ARRAY);
	for (size_t i = 0; kernels && i < kernels->n && r.ok; i++) {
		LinkSpec *s = arena_alloc(a, sizeof *s);
		memset(s, 0, sizeof *s);
		read_spec(&r, kernels->items[i], s);
		vec_push(a, specs, s);
	}
	return r.ok;
}

int
link_cx_index(const LinkSpec *s, const char *key)
{
	for (int i = 0; i < s->n_cx; i++)
		if (strcmp(s->cx[i].name, key) == 0)
			return i;
	return -1;
}

/* Whether launcher b has a's parameters (names, C types, dtypes: a
 * dispatcher cannot tell an f16 pointer from an f32 one) and grid. */
static bool
same_signature(const LinkSpec *a, const LinkSpec *b)
{
	if (a->computed_grid != b->computed_grid || a->n_params != b->n_params)
		return false;
	for (int i = 0; i < a->n_params; i++)
		if (strcmp(a->params[i].name, b->params[i].name) != 0 ||
		    strcmp(a->params[i].ctype, b->params[i].ctype) != 0 ||
		    strcmp(a->params[i].kind, b->params[i].kind) != 0 ||
		    strcmp(a->params[i].dtype, b->params[i].dtype) != 0)
			return false;
	return true;
}

/* The constexprs whose values differ between g's launchers: the keys. */
static bool
find_keys(Arena *a, Diags *d, LinkGroup *g)
{
	VEC(const char *) keys = {0};
	const LinkSpec *first = g->specs[0];
	bool ok = true;
	for (int s = 1; s < g->n_specs; s++) {
		const LinkSpec *x = g->specs[s];
		for (int i = 0; i < x->n_cx; i++) {
			int j = link_cx_index(first, x->cx[i].name);
			if (j >= 0 && strcmp(first->cx[j].value, x->cx[i].value) == 0)
				continue;
			bool known = false;
			for (size_t k = 0; k < keys.len; k++)
				known |= strcmp(keys.data[k], x->cx[i].name) == 0;
			if (!known)
				vec_push(a, &keys, x->cx[i].name);
		}
	}
	for (size_t k = 0; k < keys.len && ok; k++)
		for (int s = 0; s < g->n_specs && ok; s++) {
			const LinkSpec *x = g->specs[s];
			int j = link_cx_index(x, keys.data[k]);
			if (j >= 0 && x->cx[j].is_int)
				continue;
			Diag *e = diag_error(d, x->at, "the launchers of kernel %s differ in the "
			                     "constexpr %s, which %s %s: a dispatcher can only pick "
			                     "among integer values", g->name, keys.data[k], x->symbol,
			                     j < 0 ? "does not have" : "has as a non-integer");
			diag_note(d, e, (SrcSpan){0}, "give the launchers kernels of their own names "
			          "(-on of a .py kernel, another @gl.kernel of a .gl file)");
			ok = false;
		}
	g->keys = keys.data;
	g->n_keys = (int)keys.len;
	return ok;
}

/* Whether one set of arguments always picks a before b can be picked:
 * b's tests imply a's and their keys agree. */
static bool
shadows(const LinkGroup *g, const LinkSpec *a, const LinkSpec *b)
{
	for (int k = 0; k < g->n_keys; k++) {
		const LinkConstexpr *x = &a->cx[link_cx_index(a, g->keys[k])];
		const LinkConstexpr *y = &b->cx[link_cx_index(b, g->keys[k])];
		if (x->value_int != y->value_int)
			return false;
	}
	for (int i = 0; i < a->n_params; i++)
		if (a->params[i].divisibility > 1 &&
		    b->params[i].divisibility % a->params[i].divisibility != 0)
			return false;
	return true;
}

static int
by_conditions(const void *x, const void *y)
{
	const LinkSpec *a = *(LinkSpec *const *)x, *b = *(LinkSpec *const *)y;
	if (a->n_conditions != b->n_conditions)
		return b->n_conditions - a->n_conditions;
	return a->at.file != b->at.file ? (int)a->at.file - (int)b->at.file
	                                : (int)a->at.line - (int)b->at.line;
}

static bool
check_group(Arena *a, Diags *d, LinkGroup *g)
{
	bool ok = true;
	for (int s = 0; s < g->n_specs; s++) {
		LinkSpec *x = g->specs[s];
		g->dispatch |= strcmp(x->symbol, g->name) != 0;
		if (s && !same_signature(g->specs[0], x)) {
			Diag *e = diag_error(d, x->at, "the launcher %s of kernel %s has other "
			                     "parameters or another grid than %s", x->symbol, g->name,
			                     g->specs[0]->symbol);
			diag_note(d, e, g->specs[0]->at, "%s is here", g->specs[0]->symbol);
			ok = false;
		}
	}
	if (!ok || !g->dispatch)
		return ok;
	for (int s = 0; s < g->n_specs; s++)
		if (strcmp(g->specs[s]->symbol, g->name) == 0) {
			diag_error(d, g->specs[s]->at, "the launcher %s has the name of the "
			           "dispatcher of its kernel's %d launchers: rename it (-on)",
			           g->name, g->n_specs);
			return false;
		}
	if (!find_keys(a, d, g))
		return false;
	for (int s = 0; s < g->n_specs; s++)
		g->specs[s]->n_conditions += g->n_keys;
	qsort(g->specs, (size_t)g->n_specs, sizeof *g->specs, by_conditions);
	for (int s = 1; s < g->n_specs; s++)
		for (int t = 0; t < s && ok; t++)
			if (shadows(g, g->specs[t], g->specs[s])) {
				Diag *e = diag_error(d, g->specs[s]->at, "the launcher %s of kernel %s is "
				                     "never picked: every argument it takes, %s takes "
				                     "first", g->specs[s]->symbol, g->name,
				                     g->specs[t]->symbol);
				diag_note(d, e, g->specs[t]->at, "%s is here", g->specs[t]->symbol);
				ok = false;
			}
	return ok;
}

/* Groups the launchers by kernel (in the order first met); a symbol given
 * twice is an error. */
static bool
group(Arena *a, Diags *d, LinkSpec **specs, size_t n, LinkSet *set)
{
	VEC(LinkGroup) groups = {0};
	bool ok = true;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < i && ok; j++)
			if (strcmp(specs[i]->symbol, specs[j]->symbol) == 0) {
				Diag *e = diag_error(d, specs[i]->at, "the launcher %s is given twice: it "
				                     "would be defined twice in the library",
				                     specs[i]->symbol);
				diag_note(d, e, specs[j]->at, "first here; give specializations "
				          "distinct names with -on");
				ok = false;
			}
		size_t g = 0;
		while (g < groups.len && strcmp(groups.data[g].name, specs[i]->kernel) != 0)
			g++;
		if (g == groups.len)
			vec_push(a, &groups, ((LinkGroup){.name = specs[i]->kernel}));
		LinkGroup *gr = &groups.data[g];
		LinkSpec **grown = arena_alloc(a, (size_t)(gr->n_specs + 1) * sizeof *grown);
		if (gr->n_specs)
			memcpy(grown, gr->specs, (size_t)gr->n_specs * sizeof *grown);
		grown[gr->n_specs++] = specs[i];
		gr->specs = grown;
	}
	for (size_t g = 0; g < groups.len && ok; g++)
		ok = check_group(a, d, &groups.data[g]);
	for (size_t g = 0; g < groups.len && ok; g++)
		for (size_t i = 0; i < n && ok && groups.data[g].dispatch; i++)
			if (strcmp(specs[i]->kernel, groups.data[g].name) != 0 &&
			    strcmp(specs[i]->symbol, groups.data[g].name) == 0) {
				diag_error(d, specs[i]->at, "the launcher %s has the name of the "
				           "dispatcher of kernel %s: rename it (-on)", specs[i]->symbol,
				           groups.data[g].name);
				ok = false;
			}
	set->groups = groups.data;
	set->n_groups = (int)groups.len;
	return ok;
}

bool
pkg_link(const Sources *src, const uint32_t *files, size_t n, const char *header, Arena *a,
         Diags *d, PkgLinkOut *out)
{
	VEC(LinkSpec *) specs = {0};
	bool ok = true;
	for (size_t i = 0; i < n; i++)
		ok &= read_manifest(a, d, src, files[i], &specs);
	LinkSet set = {0};
	if (!ok || !group(a, d, specs.data, specs.len, &set))
		return false;
	link_emit_c(&set, header, a, &out->c);
	link_emit_header(&set, header, a, &out->header);
	link_emit_manifest(&set, a, &out->manifest);
	return true;
}
