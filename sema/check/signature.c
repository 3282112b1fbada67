/*
 * Kernels of a .py file specialized from the command line, in the format
 * of Triton's compile.py: `-s "*fp16:16, i32, 1024"`, one entry per
 * parameter: `*T` a pointer, a scalar type, a `:16` hint (16-byte aligned
 * pointer, integer divisible by 16) or `:1` (the value 1, made a
 * constant), or a constexpr value. glc also takes any constexpr expression
 * (a layout, a dtype, a class) and `tensordesc<fp16[128,64]>` (with the
 * layout NVMMASharedLayout.get_default_for(block, dtype)) or
 * `tensordesc<fp16[128,64],LAYOUT>`. A `num_warps` parameter left out of
 * the signature gets -w.
 */
#include "sema/check/check.h"

#include <ctype.h>
#include <string.h>

/* compile.py's type names and Gluon's. */
static const struct { const char *name, *gl; } types[] = {
	{"i1", "int1"}, {"i8", "int8"}, {"i16", "int16"}, {"i32", "int32"}, {"i64", "int64"},
	{"u1", "int1"}, {"u8", "uint8"}, {"u16", "uint16"}, {"u32", "uint32"}, {"u64", "uint64"},
	{"fp16", "float16"}, {"bf16", "bfloat16"}, {"fp32", "float32"}, {"f32", "float32"},
	{"fp64", "float64"}, {"fp8e4nv", "float8e4nv"}, {"fp8e5", "float8e5"},
	{"f16", "float16"}, {"f64", "float64"},
};

static const char *
gl_type(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof types / sizeof *types; i++)
		if (strlen(types[i].name) == n && strncmp(types[i].name, s, n) == 0)
			return types[i].gl;
	return NULL;
}

/* One entry: [s, s + n), blanks trimmed. */
typedef struct Entry {
	const char *s;
	size_t n;
	uint32_t col;    /* 1-based column in the signature */
} Entry;

/* Splits sig at the commas outside brackets; the count of entries. */
static size_t
split(Arena *a, const char *sig, Entry **out)
{
	VEC(Entry) es = {0};
	const char *start = sig;
	int depth = 0;
	for (const char *p = sig;; p++) {
		if (*p == '(' || *p == '[' || *p == '{' || *p == '<')
			depth++;
		else if ((*p == ')' || *p == ']' || *p == '}' || *p == '>') && depth > 0)
			depth--;
		if (*p && (*p != ',' || depth))
			continue;
		const char *b = start, *e = p;
		while (b < e && isspace((unsigned char)*b))
			b++;
		while (e > b && isspace((unsigned char)e[-1]))
			e--;
		Entry en = {b, (size_t)(e - b), (uint32_t)(b - sig) + 1};
		if (en.n || *p || es.len)
			vec_push(a, &es, en);
		if (!*p)
			break;
		start = p + 1;
	}
	*out = es.data;
	return es.len;
}

/* Evaluates text as a constexpr expression of the module, located in the
 * signature's pseudo-file at its column. */
static Value *
eval_text(Check *ck, const char *label, const char *text)
{
	uint32_t file = src_add(ck->src, label, text, strlen(text));
	Node *e = parse_expression(ck->a, ck->in, ck->src, file, ck->d);
	if (!e)
		return NULL;
	Frame *saved = ck->fr;
	ck->fr = NULL;
	ck->host = true;
	Value *v = sema_eval_expr(&ck->ev, e);
	ck->host = false;
	ck->fr = saved;
	return v;
}

/* The source text of the type an entry names, or NULL for a constexpr;
 * *hint receives the :N suffix (0 when none). */
static const char *
type_text(Check *ck, const Entry *e, int *hint, bool *bad)
{
	size_t n = e->n;
	const char *colon = memchr(e->s, ':', n);
	*hint = 0;
	*bad = false;
	if (n > 11 && strncmp(e->s, "tensordesc<", 11) == 0 && e->s[n - 1] == '>') {
		const char *b = e->s + 11, *br = memchr(b, '[', n - 11), *end = e->s + n - 1;
		const char *close = br ? memchr(br, ']', (size_t)(end - br)) : NULL;
		const char *t = br ? gl_type(b, (size_t)(br - b)) : NULL;
		if (!t || !close) {
			*bad = true;
			return NULL;
		}
		const char *block = arena_strndup(ck->a, br, (size_t)(close - br + 1));
		const char *rest = close + 1;
		while (rest < end && (isspace((unsigned char)*rest) || *rest == ','))
			rest++;
		const char *layout = rest < end ? arena_strndup(ck->a, rest, (size_t)(end - rest))
		                                : arena_printf(ck->a, "gl.NVMMASharedLayout."
		                                               "get_default_for(%s, gl.%s)", block, t);
		return arena_printf(ck->a, "gl.tensor_desc[gl.%s, %s, %s]", t, block, layout);
	}
	size_t tn = colon ? (size_t)(colon - e->s) : n;
	if (colon) {
		const char *h = colon + 1;
		if (strncmp(h, "16", 2) == 0 && colon + 3 == e->s + n)
			*hint = 16;
		else if (*h == '1' && colon + 2 == e->s + n)
			*hint = 1;
		else
			*bad = true;
	}
	bool ptr = tn && e->s[0] == '*';
	const char *t = gl_type(e->s + ptr, tn - ptr);
	if (!t) {
		*bad = ptr || colon;
		return NULL;
	}
	return ptr ? arena_printf(ck->a, "gl.ptr[gl.%s]", t) : arena_printf(ck->a, "gl.%s", t);
}

void
sema_record_constexpr(Check *ck, const char *name, const Value *v)
{
	StrBuf b = {0};
	sema_value_print(v, &b);
	/* a float keeps its point (2.0, not 2), so that the manifest (glc link's
	 * dispatch table) tells it from an integer */
	if (v->kind == VAL_FLOAT && b.s && !strpbrk(b.s, ".eEn"))
		buf_puts(&b, ".0");
	vec_push(ck->a, &ck->cx_names, name);
	vec_push(ck->a, &ck->cx_values, arena_strndup(ck->a, b.s ? b.s : "", b.len));
	buf_free(&b);
}

bool
sema_bind_signature(Check *ck, const Node *f, const char *sig, int index)
{
	const NodeList *ps = &f->u.func.params;
	Entry *es;
	size_t n = split(ck->a, sig, &es);
	const char *warps_name = intern(ck->in, "num_warps", 9);
	bool warps_param = false;
	for (size_t i = 0; i < ps->len; i++)
		warps_param |= ps->data[i]->u.param.name == warps_name;
	size_t want = ps->len - (warps_param && n + 1 == ps->len);
	if (n < want) {
		/* (num_warps may be left out only when every other one has an entry) */
		const Node *p = ps->data[n], *last = ps->data[ps->len - 1];
		diag_error(ck->d, p->span, "-s '%s' has %zu entr%s for the %zu parameters of '%s': "
		           "%s '%s'%s%s%s %s no entry", sig, n, n == 1 ? "y" : "ies", want,
		           f->u.func.name, p == last ? "parameter" : "parameters", p->u.param.name,
		           p == last ? "" : " to '", p == last ? "" : last->u.param.name,
		           p == last ? "" : "'", p == last ? "has" : "have");
		return false;
	}
	if (n > want) {
		Diag *g = diag_error(ck->d, (SrcSpan){0}, "-s '%s' has %zu entries for the %zu "
		                     "parameters of '%s': entry %zu '%.*s' is past the last "
		                     "parameter", sig, n, want, f->u.func.name, want + 1,
		                     (int)es[want].n, es[want].s);
		diag_note(ck->d, g, f->span, "'%s' is defined here", f->u.func.name);
		return false;
	}
	VEC(TParam) params = {0};
	size_t e = 0;
	bool ok = true;
	for (size_t i = 0; i < ps->len; i++) {
		const Node *p = ps->data[i];
		const char *name = p->u.param.name;
		if (p->u.param.star) {
			diag_error(ck->d, p->span, "kernel parameter '%s': star parameters cannot be "
			           "specialized", name);
			return false;
		}
		if (name == warps_name && want < ps->len) {
			Value *w = sema_new_value(&ck->ev, VAL_INT, p->span);
			w->u.i = ck->k->num_warps;
			sema_scope_bind(ck, name, w, true, p->span);
			sema_record_constexpr(ck, name, w);
			continue;
		}
		const Entry *en = &es[e++];
		const char *label = arena_printf(ck->a, "<-s %d: %s>", index, name);
		int hint;
		bool bad;
		const char *text = type_text(ck, en, &hint, &bad);
		if (bad || !en->n) {
			diag_error(ck->d, p->span, "-s entry %zu '%.*s' for parameter '%s' is not a "
			           "type (*fp16, i32, tensordesc<fp16[64,64]>), a type with a :16 or "
			           ":1 hint, or a constexpr value", e, (int)en->n, en->s, name);
			ok = false;
			continue;
		}
		bool cx = sema_is_constexpr_annot(ck, p->u.param.annot);
		Entry one;     /* outlives the `if`: en may point to it below */
		bool typed = text != NULL;   /* `i32:1` is a type too, made a constant */
		if (text && hint == 1 && text[3] != 'p') {
			text = NULL;   /* `i32:1`: the constant 1 */
			one = (Entry){"1", 1, en->col};
			en = &one;
		}
		if (text && cx) {
			Diag *g = diag_error(ck->d, p->span, "parameter '%s' is gl.constexpr, but its "
			                     "-s entry '%.*s' is a type; give a value", name,
			                     (int)en->n, en->s);
			diag_note(ck->d, g, p->u.param.annot->span, "declared gl.constexpr here");
			ok = false;
			continue;
		}
		Value *v = eval_text(ck, label, text ? text : arena_strndup(ck->a, en->s, en->n));
		if (!v) {
			ok = false;
			continue;
		}
		const Node *use = !typed && !cx && v->kind != VAL_TYPE && v->kind != VAL_LAYOUT &&
		                  v->kind != VAL_CLASS ? sema_pointer_use(ck, f, name) : NULL;
		if (use) {
			Diag *g = diag_error(ck->d, p->span, "parameter '%s' is used as a pointer, but "
			                     "its -s entry '%.*s' is a constexpr value; give its "
			                     "type, such as *fp32", name, (int)en->n, en->s);
			diag_note(ck->d, g, use->span, "'%s' is used as a pointer here", name);
			ok = false;
			continue;
		}
		if (!text) {
			sema_scope_bind(ck, name, v, true, p->span);
			sema_record_constexpr(ck, name, v);
			continue;
		}
		const TType *t = v->kind == VAL_DTYPE ? sema_type_scalar(ck, v->u.dtype) : v->u.type;
		TParam tp = {.name = name, .type = t, .divisibility = hint == 16 ? 16 : 0,
		             .kind = t->kind == TY_PTR ? TP_PTR : t->kind == TY_DESC ? TP_DESC
		                                                                     : TP_SCALAR};
		TInst *in = sema_emit(ck, OP_PARAM, p->span, t, 0);
		in->param = (int)params.len;
		vec_push(ck->a, &params, tp);
		sema_scope_bind(ck, name, sema_rt_value(ck, in->res, p->span), false, p->span);
	}
	ck->k->params = params.data;
	ck->k->n_params = (int)params.len;
	return ok;
}
