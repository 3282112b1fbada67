/*
 * Reading the text of `glc --emit=ir` back into the program it was printed
 * from (ir/print.c shows the format):
 *
 *   file   -> ['source' STRING NL] (alias NL | kernel)*
 *   kernel -> 'kernel' NAME '(' [param (',' param)*] ')'
 *             'num_warps' '=' INT 'total_warps' '=' INT 'smem' '=' INT
 *             ['fp_fusion' '=' '0'] [loc] '{' NL
 *             decl* inst* '}' NL
 *   param  -> NAME ':' type [assume]
 *   assume -> ('align' | 'div') '=' INT
 *   decl   -> 'variant' NAME ':' [NAME assume (',' NAME assume)*] NL
 *           | 'constexpr' NAME '=' STRING NL
 *           | 'alloc' INT NAME DTYPE SHAPE #alias 'bytes' '=' INT 'offset' '=' INT
 *             'align' '=' INT 'live' '=' INT '..' INT ['mbarrier'] [loc] NL
 *           | 'var' $N NAME ':' type NL
 *
 * The aliases written before a kernel belong to it; a variant is made once
 * the kernel is read (ir_kernel_variant) with the assumptions listed. Locations without a
 * path are in the `source` file (the .ir text itself when there is none);
 * a line without loc(...) is located at itself in the .ir text.
 */
#include "ir/text/read.h"

#include <string.h>

static bool
name(Reader *r, const char *what, const char **out)
{
	if (r->tok.kind != TK_WORD)
		return rd_error(r, "expected %s, found %s", what, rd_found(r));
	*out = intern(r->in, r->tok.s, r->tok.n);
	rd_next(r);
	return true;
}

static bool
constexpr_decl(Reader *r)
{
	const char *n;
	if (!name(r, "the constexpr's name", &n) || !rd_expect_punct(r, '='))
		return false;
	if (r->tok.kind != TK_STRING)
		return rd_error(r, "expected the constexpr's value as a string, found %s",
		                rd_found(r));
	vec_push(r->a, &r->cx_names, n);
	vec_push(r->a, &r->cx_values, r->tok.str);
	rd_next(r);
	return rd_expect_newline(r);
}

/* The rest of an alloc line; kw is its keyword (the default location runs
 * from it to the end of the line). */
static bool
alloc_decl(Reader *r, const Token *kw)
{
	TSmemAlloc s = {0};
	int64_t index, bytes, offset, align, first, last;
	if (!rd_int(r, (int64_t)r->smem.len, (int64_t)r->smem.len, "the allocation's number",
	            &index) || !name(r, "the allocation's name", &s.name) ||
	    !rd_dtype(r, &s.dtype) || !rd_shape(r, s.shape, &s.rank) ||
	    !rd_alias_ref(r, s.shape, s.rank, false, &s.layout) ||
	    !rd_key_int(r, "bytes", 0, INT64_MAX, &bytes) ||
	    !rd_key_int(r, "offset", 0, INT64_MAX, &offset) ||
	    !rd_key_int(r, "align", 1, 1 << 20, &align) || !rd_expect_word(r, "live") ||
	    !rd_expect_punct(r, '=') || !rd_int(r, 0, INT32_MAX, "the first use", &first))
		return false;
	if (r->tok.kind != TK_DOTS)
		return rd_error(r, "expected '..' between the first and the last use");
	rd_next(r);
	if (!rd_int(r, 0, INT32_MAX, "the last use", &last))
		return false;
	s.is_mbarrier = rd_word(r, "mbarrier");
	s.at = (SrcSpan){r->file, kw->line, kw->col, (uint32_t)(r->last_end - kw->s)};
	s.bytes = bytes;
	s.offset = offset;
	s.align = (int)align;
	s.first_use = (int)first;
	s.last_use = (int)last;
	if (!rd_loc(r, "loc", &s.at))
		return false;
	vec_push(r->a, &r->smem, s);
	return rd_expect_newline(r);
}

static bool
var_decl(Reader *r)
{
	TVar *v = arena_alloc(r->a, sizeof *v);
	if (r->tok.kind != TK_VAR || r->tok.i != (int64_t)r->vars.len)
		return rd_error(r, "expected $%zu (variables are declared in order), found %s",
		                r->vars.len, rd_found(r));
	v->id = (int)r->tok.i;
	rd_next(r);
	if (!name(r, "the variable's name", &v->name) || !rd_expect_punct(r, ':') ||
	    !(v->type = rd_type(r)))
		return false;
	vec_push(r->a, &r->vars, v);
	return rd_expect_newline(r);
}

/* assume -> ('align' | 'div') '=' INT, the one a parameter of this kind
 * takes; nothing when neither is next. */
static bool
assumption(Reader *r, TParam *p)
{
	bool ptr = p->kind == TP_PTR;
	if (!rd_is_word(r, "align") && !rd_is_word(r, "div"))
		return true;
	if (!rd_is_word(r, ptr ? "align" : "div"))
		return rd_error(r, "a %s parameter's assumption is %s=N", ptr ? "pointer" : "scalar",
		                ptr ? "align" : "div");
	int64_t v;
	if (!rd_key_int(r, ptr ? "align" : "div", 0, 1 << 30, &v))
		return false;
	p->divisibility = (uint32_t)v;
	return true;
}

/* variant NAME ':' [NAME assume (',' NAME assume)*] */
static bool
variant_decl(Reader *r)
{
	if (r->variant)
		return rd_error(r, "a kernel has one variant");
	if (!name(r, "the variant's name", &r->variant) || !rd_expect_punct(r, ':'))
		return false;
	if (r->tok.kind == TK_NEWLINE)
		return rd_expect_newline(r);
	do {
		TParam p = {0};
		Token at = r->tok;
		if (!name(r, "a parameter's name", &p.name))
			return false;
		size_t k = 0;
		while (k < r->params.len && r->params.data[k].name != p.name)
			k++;
		if (k == r->params.len)
			return rd_error_at(r, &at, "the kernel has no parameter '%s'", p.name);
		p.kind = r->params.data[k].kind;
		if (!assumption(r, &p))
			return false;
		vec_push(r->a, &r->assumed, p);
	} while (rd_punct(r, ','));
	return rd_expect_newline(r);
}

/* The variant the text lists, with its assumptions. */
static void
make_variant(Reader *r, TKernel *k)
{
	if (!r->variant)
		return;
	TKernel *v = ir_kernel_variant(r->a, k, r->variant);
	for (size_t i = 0; i < r->assumed.len; i++)
		for (int j = 0; j < v->n_params; j++)
			if (v->params[j].name == r->assumed.data[i].name)
				v->params[j].divisibility = r->assumed.data[i].divisibility;
	k->fast = v;
}

static bool
params(Reader *r)
{
	if (!rd_expect_punct(r, '('))
		return false;
	if (rd_punct(r, ')'))
		return true;
	do {
		TParam p = {0};
		Token at = r->tok;
		if (!name(r, "a parameter's name", &p.name) || !rd_expect_punct(r, ':') ||
		    !(p.type = rd_type(r)))
			return false;
		for (size_t i = 0; i < r->params.len; i++)
			if (r->params.data[i].name == p.name)
				return rd_error_at(r, &at, "parameter '%s' is declared twice", p.name);
		switch (p.type->kind) {
		case TY_SCALAR: p.kind = TP_SCALAR; break;
		case TY_PTR: p.kind = TP_PTR; break;
		case TY_DESC: p.kind = TP_DESC; break;
		default:
			return rd_error_at(r, &at, "a kernel parameter is a scalar, a pointer or a "
			                   "tensor descriptor");
		}
		if (!assumption(r, &p))
			return false;
		vec_push(r->a, &r->params, p);
	} while (rd_punct(r, ','));
	return rd_expect_punct(r, ')');
}

/* The kernel's header and declarations, then its body. */
static TKernel *
kernel(Reader *r)
{
	TKernel *k = arena_alloc(r->a, sizeof *k);
	r->k = k;
	k->at = (SrcSpan){r->file, r->tok.line, r->tok.col, 6};
	rd_next(r);
	int64_t warps, total, smem, fusion = 1;
	if (!name(r, "the kernel's name", &k->name) || !params(r) ||
	    !rd_key_int(r, "num_warps", 1, 32, &warps) ||
	    !rd_key_int(r, "total_warps", 1, 32, &total) ||
	    !rd_key_int(r, "smem", 0, INT32_MAX, &smem) ||
	    (rd_is_word(r, "fp_fusion") && !rd_key_int(r, "fp_fusion", 0, 0, &fusion)) ||
	    !rd_loc(r, "loc", &k->at) ||
	    !rd_expect_punct(r, '{') || !rd_expect_newline(r))
		return NULL;
	k->num_warps = (int)warps;
	k->total_warps = (int)total;
	k->smem_bytes = smem;
	k->no_fp_fusion = fusion == 0;
	k->params = r->params.data;
	k->n_params = (int)r->params.len;
	for (;;) {
		rd_skip_newlines(r);
		Token kw = r->tok;
		bool ok;
		if (rd_word(r, "variant"))
			ok = variant_decl(r);
		else if (rd_word(r, "constexpr"))
			ok = constexpr_decl(r);
		else if (rd_word(r, "alloc"))
			ok = alloc_decl(r, &kw);
		else if (rd_word(r, "var"))
			ok = var_decl(r);
		else
			break;
		if (!ok)
			return NULL;
	}
	if (!rd_block(r, &k->body, NULL) || !rd_expect_punct(r, '}') || !rd_expect_newline(r))
		return NULL;
	ir_kernel_finish(k, &(IrKernelDecls){r->vars.data, r->vars.len, r->smem.data, r->smem.len,
	                                     r->cx_names.data, r->cx_values.data,
	                                     r->cx_names.len});
	k->n_values = (int)r->values.len;
	make_variant(r, k);
	return k;
}

/* Forgets the aliases and names of the kernel just read. */
static void
next_kernel(Reader *r)
{
	memset(&r->aliases, 0, sizeof r->aliases);
	memset(&r->values, 0, sizeof r->values);
	memset(&r->vars, 0, sizeof r->vars);
	memset(&r->smem, 0, sizeof r->smem);
	memset(&r->params, 0, sizeof r->params);
	memset(&r->cx_names, 0, sizeof r->cx_names);
	memset(&r->cx_values, 0, sizeof r->cx_values);
	memset(&r->assumed, 0, sizeof r->assumed);
	r->variant = NULL;
	r->k = NULL;
}

TProgram *
ir_read(Arena *a, Interner *in, Sources *src, uint32_t file, const IrLoader *load, Diags *d,
        uint32_t *origin)
{
	Reader r = {.a = a, .in = in, .src = src, .d = d, .load = load, .file = file};
	r.text = src_text(src, file);
	r.end = r.text + src_len(src, file);
	rd_start(&r);
	rd_skip_newlines(&r);
	if (rd_word(&r, "source")) {
		if (r.tok.kind != TK_STRING) {
			rd_error(&r, "expected the source file's path in quotes, found %s", rd_found(&r));
			return NULL;
		}
		r.origin = rd_path_file(&r, r.tok.str);
		rd_next(&r);
		rd_expect_newline(&r);
	}
	TProgram *p = arena_alloc(a, sizeof *p);
	VEC(TKernel *) kernels = {0};
	for (rd_skip_newlines(&r); r.tok.kind != TK_EOF; rd_skip_newlines(&r)) {
		if (r.tok.kind == TK_ALIAS) {
			rd_alias_def(&r);
		} else if (rd_is_word(&r, "kernel")) {
			TKernel *k = kernel(&r);
			if (k)
				vec_push(a, &kernels, k);
			next_kernel(&r);
		} else {
			rd_error(&r, "expected a layout alias (#name = ...) or a kernel, found %s",
			         rd_found(&r));
		}
	}
	if (r.failed)
		return NULL;
	if (r.aliases.len)
		diag_warning(d, (SrcSpan){file, r.tok.line, 1, 0}, "layout aliases after the last "
		             "kernel belong to no kernel");
	p->kernels = kernels.data;
	p->n_kernels = (int)kernels.len;
	if (origin)
		*origin = r.origin;
	return p;
}
