/*
 * `glc --emit=ir`: the typed program as text that reads back in (ir/read.c)
 * to the same program. A file names its source, then each kernel follows
 * its layout aliases:
 *
 *   source "examples/vector_add.gl"
 *
 *   #blocked = BlockedLayout([4],[32],[4],[0]) on [2048]
 *   kernel vector_add_f32(x: ptr<f32>, n: i32) num_warps=4 total_warps=4 smem=0 loc(35:1+*) {
 *     variant vector_add_f32__spec: x align=16, n div=16
 *     constexpr BLOCK = "2048"
 *     %0 = param x : ptr<f32> loc(10:20+16)
 *     %5 = arange start=0 end=2048 : tensor<i32, [2048], #blocked> loc(12:31+38)
 *     ...
 *   }
 *
 * An alias gives a layout's constructor and the shape it is fitted to; when
 * that does not rebuild the exact map (shared-memory views, or always with
 * --verbose) the bases follow: `exact {offset=[[0,1],...] block=[] outs=[dim1,dim0]}`.
 * Every line ends in its source location (`+*`: the span runs past its
 * line); a value whose layout was fixed elsewhere adds layout_loc(...).
 * After the passes a kernel lists its specialized variant's assumptions,
 * and --verbose adds each value's axis facts as a comment. Nested blocks are braced and indented.
 */
#include "ir/ir_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Alias {
	const char *name;     /* "blocked", "blocked1", ... (printed after '#') */
	const char *text;     /* constructor text; "none" without a description */
	int rank;
	int64_t shape[LL_MAX_RANK];
	LLayout ll;
	bool exact;           /* the bases are printed */
} Alias;

typedef struct Printer {
	const Sources *src;
	uint32_t file;        /* locations in this file print without a path */
	bool verbose;
	Arena *a;
	VEC(Alias) aliases;   /* of the kernel being printed */
	int per_kind[LL_AUTO + 2];
	const TKernel *k;
	StrBuf *out;
	int depth;            /* of the instruction printed (indentation) */
} Printer;

static const char *const alias_bases[] = {
	[LL_BLOCKED] = "blocked", [LL_SLICE] = "slice", [LL_DOT_OPERAND] = "dot_op",
	[LL_NVMMA_DISTRIBUTED] = "mma", [LL_DISTRIBUTED_LINEAR] = "linear",
	[LL_NVMMA_SHARED] = "nvmma", [LL_SWIZZLED_SHARED] = "swizzled",
	[LL_SHARED_LINEAR] = "shared_linear", [LL_PADDED_SHARED] = "padded",
	[LL_AUTO] = "auto", [LL_AUTO + 1] = "layout",
};

/* The alias of layout l in a type (or allocation) of shape[0..rank-1]. */
static const char *
alias_of(Printer *p, const TLayout *l, const int64_t *shape, int rank)
{
	Alias al = {0};
	al.rank = ir_layout_shape(shape, rank, &l->ll, al.shape);
	al.ll = l->ll;
	StrBuf b = {0};
	if (l->desc)
		ll_desc_print(l->desc, &b);
	else
		buf_puts(&b, "none");
	for (size_t i = 0; i < p->aliases.len; i++) {
		const Alias *o = &p->aliases.data[i];
		if (strcmp(o->text, b.s) == 0 && o->rank == al.rank &&
		    memcmp(o->shape, al.shape, (size_t)al.rank * sizeof *al.shape) == 0 &&
		    ll_equal(&o->ll, &al.ll)) {
			buf_free(&b);
			return o->name;
		}
	}
	al.text = arena_strndup(p->a, b.s, b.len);
	buf_free(&b);
	LLayout built;
	LLErr err = {p->a, NULL};
	al.exact = p->verbose || !l->desc || !ll_build(l->desc, al.shape, al.rank, 0, &built, &err) ||
	           !ll_equal(&built, &l->ll);
	int kind = l->desc ? (int)l->desc->kind : LL_AUTO + 1;
	int n = p->per_kind[kind]++;
	al.name = n ? arena_printf(p->a, "%s%d", alias_bases[kind], n) : alias_bases[kind];
	vec_push(p->a, &p->aliases, al);
	return al.name;
}

/* A strided view's layout is fitted to its region, not to its shape. */
static void
alias_ref(void *ctx, const TLayout *l, const TType *t, StrBuf *out)
{
	int64_t region[LL_MAX_RANK];
	int n = l->ll.n_out;
	for (int j = 0; j < n; j++)
		region[j] = (int64_t)1 << l->ll.out_bits[j];
	bool strided = ir_smem_strided(t);
	buf_printf(out, "#%s", alias_of(ctx, l, strided ? region : t->shape,
	                                strided ? n : t->rank));
}

static void
print_type(Printer *p, const TType *t)
{
	ir_type_print_with(t, alias_ref, p, p->out);
}

static void
print_alias(const Alias *al, StrBuf *out)
{
	buf_printf(out, "#%s = %s on ", al->name, al->text);
	ir_shape_print(al->shape, al->rank, out);
	if (al->exact) {
		buf_puts(out, " exact {");
		ir_layout_print_bases(&al->ll, out);
		buf_puts(out, " outs=[");
		for (int j = 0; j < al->ll.n_out; j++)
			buf_printf(out, "%s%s", j ? "," : "", ll_name_str((LLName)al->ll.out_name[j]));
		buf_puts(out, "]}");
	}
	buf_putc(out, '\n');
}

/* A string in double quotes with \\, \" and \xHH escapes. */
static void
print_string(const char *s, StrBuf *out)
{
	buf_putc(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			buf_printf(out, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			buf_printf(out, "\\x%02x", c);
		else
			buf_putc(out, (char)c);
	}
	buf_putc(out, '"');
}

static void
print_span(Printer *p, const char *what, SrcSpan s)
{
	buf_printf(p->out, " %s(", what);
	if (!s.file) {
		buf_puts(p->out, "unknown)");
		return;
	}
	if (s.file != p->file) {
		print_string(src_path(p->src, s.file), p->out);
		buf_putc(p->out, ':');
	}
	buf_printf(p->out, "%u:%u", s.line, s.col);
	if (s.len >= IR_SPAN_MULTILINE)
		buf_puts(p->out, "+*");
	else if (s.len)
		buf_printf(p->out, "+%u", s.len);
	buf_putc(p->out, ')');
}

/* The shortest %g text that strtod reads back to the same double (with
 * ".0" when it would read as an integer); inf and nan spelled out (a NaN
 * other than the default one with its bits). */
static void
print_float(double f, StrBuf *out)
{
	uint64_t bits;
	memcpy(&bits, &f, sizeof bits);
	if (isnan(f)) {
		if (bits == 0x7ff8000000000000ull)
			buf_puts(out, "nan");
		else
			buf_printf(out, "nan(0x%016llx)", (unsigned long long)bits);
		return;
	}
	if (isinf(f)) {
		buf_puts(out, f < 0 ? "-inf" : "inf");
		return;
	}
	char best[40] = "", b[40];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(b, sizeof b, "%.*g", prec, f);
		double back = strtod(b, NULL);
		if (memcmp(&back, &f, sizeof f) == 0 && (!*best || strlen(b) < strlen(best)))
			memcpy(best, b, sizeof b);
	}
	buf_puts(out, best);
	if (!strpbrk(best, ".e"))
		buf_puts(out, ".0");
}

static void
indent(Printer *p, int depth)
{
	for (int i = 0; i < depth; i++)
		buf_puts(p->out, "  ");
}

static void
print_attrs(Printer *p, const TInst *i)
{
	StrBuf *out = p->out;
	unsigned at = ir_op_attrs(i->op);
	if (at & IA_AXIS)
		buf_printf(out, " axis=%d", i->attr.axis);
	if ((at & IA_COMBINE) && !i->n_region)
		buf_printf(out, " combine=%s", ir_op_name(i->attr.combine));
	if ((at & IA_REVERSE) && i->attr.reverse)
		buf_puts(out, " reverse");
	if ((at & IA_ORDER) && i->res && i->res->type->kind == TY_TENSOR) {
		buf_puts(out, " order=");
		ir_shape_print(i->attr.order, i->res->type->rank, out);
	}
	if (at & IA_RMW)
		buf_printf(out, " rmw=%s", ir_atomic_name(i->attr.rmw));
	if (at & IA_SEM)
		buf_printf(out, " sem=%s scope=%s", ir_sem_name(i->attr.sem),
		           ir_scope_name(i->attr.scope));
	if (at & IA_RANGE)
		buf_printf(out, " start=%lld end=%lld", (long long)i->attr.lo, (long long)i->attr.hi);
	if (at & IA_COUNT)
		buf_printf(out, " count=%lld", (long long)i->attr.count);
	if (at & IA_ALLOC)
		buf_printf(out, " alloc=%d", i->attr.alloc);
	if (at & IA_VIEW)
		buf_printf(out, " offset=%lld stride=%lld", (long long)i->attr.offset,
		           (long long)i->attr.stride);
	if ((at & IA_ASYNC) && i->attr.is_async)
		buf_puts(out, " async");
	if ((at & IA_TRIVIAL) && i->attr.trivial)
		buf_puts(out, " trivial");
	if ((at & IA_TRIVIAL) && i->attr.soft)
		buf_puts(out, " soft");
	if ((at & IA_IMPRECISE) && i->attr.count)
		buf_printf(out, " max_num_imprecise_acc=%lld", (long long)i->attr.count);
	if ((at & IA_PLAN) && i->attr.plan) {
		buf_printf(out, " plan=%s", ll_cvt_kind_str(i->attr.plan->kind));
		if (i->attr.plan->kind == LL_CVT_SHARED)
			buf_printf(out, " scratch=%lld", (long long)i->attr.plan->scratch_bytes);
	}
	if ((at & IA_ROUND) && i->attr.round)
		buf_printf(out, " rounding=%s", ir_round_name(i->attr.round));
	if ((at & IA_NAN) && i->attr.propagate_nan)
		buf_puts(out, " propagate_nan");
	if ((at & IA_NANFILL) && i->attr.nan_fill)
		buf_puts(out, " nan_fill");
	if ((at & IA_ACCESS) && i->attr.cache)
		buf_printf(out, " cache=%s", ir_cache_name(i->attr.cache));
	if ((at & IA_ACCESS) && i->attr.evict)
		buf_printf(out, " evict=%s", i->attr.evict == EVICT_FIRST ? "first" : "last");
	if ((at & IA_ACCESS) && i->attr.is_volatile)
		buf_puts(out, " volatile");
	if (at & IA_HINT) {
		const TType *t = i->n_args ? i->args[0]->type : NULL;
		int rank = t && t->kind == TY_TENSOR ? t->rank : 1;
		buf_puts(out, " values=");
		ir_shape_print(i->attr.hint, rank, out);
	}
	if (at & IA_TEXT) {
		buf_printf(out, " %s=", ir_text_key(i->op));
		print_string(i->attr.text ? i->attr.text : "", out);
	}
	if (at & IA_ASM) {
		buf_puts(out, " constraints=");
		print_string(i->attr.text2 ? i->attr.text2 : "", out);
		if (i->attr.is_pure)
			buf_puts(out, " pure");
	}
	if (at & IA_PACK)
		buf_printf(out, " pack=%d", i->attr.pack);
	if (at & IA_INDEX)
		buf_printf(out, " index=%d", i->attr.index);
	if ((at & IA_HEX) && i->attr.hex)
		buf_puts(out, " hex");
}

/* `%a, mask %b` ...; coordinates of TMA ops as one list `[%c, %d]`. */
static void
print_operands(Printer *p, const TInst *i)
{
	int coords = ir_op_has_coords(i->op) ? i->attr.n_coords : 0;
	if (coords < 0 || coords > i->n_args)
		coords = 0;
	int plain = i->n_args - coords;
	for (int k = 0; k < plain; k++) {
		const char *label = ir_arg_label(i, k);
		buf_puts(p->out, k ? ", " : " ");
		if (label)
			buf_printf(p->out, "%s ", label);
		buf_printf(p->out, "%%%d", i->args[k]->id);
	}
	if (!coords)
		return;
	buf_puts(p->out, plain ? ", [" : " [");
	for (int k = plain; k < i->n_args; k++)
		buf_printf(p->out, "%s%%%d", k > plain ? ", " : "", i->args[k]->id);
	buf_putc(p->out, ']');
}

/* The text that opens a nested block: the end of its owner's line, or
 * (a partition) a line of its own. */
static IrStep
open_block(IrWalker *w, const IrNest *n)
{
	Printer *p = w->ctx;
	StrBuf *out = p->out;
	if (!n->owner)
		return IR_ON;
	switch (n->role) {
	case IR_PARTITION: {
		const TPartition *pt = n->part;
		indent(p, p->depth + 1);
		buf_printf(out, "partition %d %s warps=%d regs=%d first_warp=%d {\n", n->index,
		           pt->fn, pt->num_warps, pt->num_regs, pt->first_warp);
		p->depth += 2;
		return IR_ON;
	}
	case IR_REGION:
		buf_puts(out, " combine(");
		for (int k = 0; k < n->owner->n_region; k++) {
			buf_printf(out, "%s%%%d: ", k ? ", " : "", n->owner->region[k]->id);
			print_type(p, n->owner->region[k]->type);
		}
		buf_puts(out, ") {\n");
		break;
	case IR_ELSE:
		buf_puts(out, " else {\n");
		break;
	default:
		buf_puts(out, n->owner->op == OP_WHILE && n->role == IR_BODY ? " do {\n" : " {\n");
		break;
	}
	p->depth++;
	return IR_ON;
}

/* The text that closes a nested block (a while's condition first names the
 * value it computes). */
static IrStep
close_block(IrWalker *w, const IrNest *n)
{
	Printer *p = w->ctx;
	if (!n->owner)
		return IR_ON;
	if (n->role == IR_PARTITION) {
		p->depth -= 2;
		indent(p, p->depth + 1);
		buf_puts(p->out, "}\n");
		return IR_ON;
	}
	if (n->role == IR_COND && n->owner->cond_value) {
		indent(p, p->depth);
		buf_printf(p->out, "condition %%%d\n", n->owner->cond_value->id);
	}
	p->depth--;
	indent(p, p->depth);
	buf_putc(p->out, '}');
	return IR_ON;
}

/* The axis facts of a value as a comment, when they say more than
 * "nothing known" (the axis pass computes them again after reading). */
static void
print_axis(const IrAxis *x, const TType *t, StrBuf *out)
{
	int rank = t->kind == TY_TENSOR && t->rank > 0 ? t->rank : 1;
	bool known = false;
	for (int d = 0; d < rank; d++)
		known |= x->contig[d] > 1 || x->div[d] > 1 || x->cnst[d] > 1;
	if (!known)
		return;
	static const char *const what[] = {"contig", "div", "cnst"};
	const int64_t *v[] = {x->contig, x->div, x->cnst};
	buf_puts(out, " //");
	for (int f = 0; f < 3; f++) {
		buf_printf(out, " %s=[", what[f]);
		for (int d = 0; d < rank; d++)
			buf_printf(out, "%s%lld", d ? "," : "", (long long)v[f][d]);
		buf_putc(out, ']');
	}
}

/* Instruction i's line up to its blocks; a warp_specialize opens the
 * braces its partitions go in. */
static IrStep
print_inst(IrWalker *w, TInst *i)
{
	Printer *p = w->ctx;
	StrBuf *out = p->out;
	indent(p, p->depth);
	if (i->res)
		buf_printf(out, "%%%d = ", i->res->id);
	buf_puts(out, ir_op_name(i->op));
	print_attrs(p, i);
	switch (i->op) {
	case OP_CONST:
		buf_putc(out, ' ');
		if (i->res && ir_dtype_is_float(i->res->type->dtype))
			print_float(i->c.f, out);
		else
			buf_printf(out, "%lld", (long long)i->c.i);
		break;
	case OP_PARAM:
		if (i->param >= 0 && i->param < p->k->n_params)
			buf_printf(out, " %s", p->k->params[i->param].name);
		break;
	case OP_FOR:
		if (i->var && i->n_args == 3)
			buf_printf(out, " $%d = %%%d to %%%d step %%%d", i->var->id, i->args[0]->id,
			           i->args[1]->id, i->args[2]->id);
		break;
	default:
		if (i->var) {
			buf_printf(out, " $%d", i->var->id);
			if (i->n_args)
				buf_putc(out, ',');
		}
		print_operands(p, i);
		break;
	}
	if (i->res) {
		buf_puts(out, " : ");
		print_type(p, i->res->type);
	}
	print_span(p, "loc", i->at);
	if (i->res && ir_type_has_layout(i->res->type) &&
	    memcmp(&i->res->layout_at, &i->at, sizeof i->at) != 0)
		print_span(p, "layout_loc", i->res->layout_at);
	if (i->res && p->k->axis && p->verbose)
		print_axis(&p->k->axis[i->res->id], i->res->type, out);
	if (i->op == OP_WARP_SPECIALIZE)
		buf_puts(out, " {\n");
	return IR_ON;
}

/* The end of instruction i's text, after its blocks. */
static IrStep
end_inst(IrWalker *w, TInst *i)
{
	Printer *p = w->ctx;
	if (i->op == OP_WARP_SPECIALIZE) {
		indent(p, p->depth);
		buf_putc(p->out, '}');
	}
	buf_putc(p->out, '\n');
	return IR_ON;
}

/* A parameter's assumption, ` align=16` (pointers) or ` div=16`; nothing
 * when it has none. */
static void
print_divisibility(const TParam *pm, StrBuf *out)
{
	if (pm->divisibility)
		buf_printf(out, " %s=%u", pm->kind == TP_PTR ? "align" : "div", pm->divisibility);
}

static void
print_decls(Printer *p, const TKernel *k)
{
	StrBuf *out = p->out;
	if (k->fast) {
		const TKernel *v = k->fast;
		buf_printf(out, "  variant %s:", v->name);
		bool first = true;
		for (int i = 0; i < v->n_params; i++) {
			if (v->params[i].divisibility <= 1)
				continue;
			buf_printf(out, "%s %s", first ? "" : ",", v->params[i].name);
			print_divisibility(&v->params[i], out);
			first = false;
		}
		buf_putc(out, '\n');
	}
	for (int i = 0; i < k->n_cx; i++) {
		buf_printf(out, "  constexpr %s = ", k->cx_names[i]);
		print_string(k->cx_values[i], out);
		buf_putc(out, '\n');
	}
	for (int i = 0; i < k->n_smem; i++) {
		const TSmemAlloc *s = &k->smem[i];
		buf_printf(out, "  alloc %d %s %s ", i, s->name, ir_dtype_name(s->dtype));
		ir_shape_print(s->shape, s->rank, out);
		buf_printf(out, " #%s bytes=%lld offset=%lld align=%d live=%d..%d%s",
		           alias_of(p, &s->layout, s->shape, s->rank), (long long)s->bytes,
		           (long long)s->offset, s->align, s->first_use, s->last_use,
		           s->is_mbarrier ? " mbarrier" : "");
		print_span(p, "loc", s->at);
		buf_putc(out, '\n');
	}
	for (int i = 0; i < k->n_vars; i++) {
		buf_printf(out, "  var $%d %s : ", k->vars[i]->id, k->vars[i]->name);
		print_type(p, k->vars[i]->type);
		buf_putc(out, '\n');
	}
}

static void
print_kernel(Printer *p, const TKernel *k, StrBuf *out)
{
	StrBuf text = {0};
	p->k = k;
	p->out = &text;
	p->aliases.len = 0;
	memset(p->per_kind, 0, sizeof p->per_kind);
	buf_printf(&text, "kernel %s(", k->name);
	for (int i = 0; i < k->n_params; i++) {
		buf_printf(&text, "%s%s: ", i ? ", " : "", k->params[i].name);
		print_type(p, k->params[i].type);
		print_divisibility(&k->params[i], &text);
	}
	buf_printf(&text, ") num_warps=%d total_warps=%d smem=%lld", k->num_warps, k->total_warps,
	           (long long)k->smem_bytes);
	if (k->no_fp_fusion)
		buf_puts(&text, " fp_fusion=0");
	print_span(p, "loc", k->at);
	buf_puts(&text, " {\n");
	print_decls(p, k);
	p->depth = 1;
	ir_walk(&(IrWalker){.k = k, .ctx = p, .pre = print_inst, .post = end_inst,
	                    .enter = open_block, .leave = close_block});
	buf_puts(&text, "}\n");
	for (size_t i = 0; i < p->aliases.len; i++)
		print_alias(&p->aliases.data[i], out);
	buf_putn(out, text.s, text.len);
	buf_free(&text);
}

void
ir_print(const TProgram *prog, const Sources *src, uint32_t file, bool verbose, StrBuf *out)
{
	Printer p = {.src = src, .file = file, .verbose = verbose, .a = arena_new()};
	if (file) {
		buf_puts(out, "source ");
		print_string(src_path(src, file), out);
		buf_putc(out, '\n');
	}
	for (int i = 0; i < prog->n_kernels; i++) {
		if (i || file)
			buf_putc(out, '\n');
		print_kernel(&p, prog->kernels[i], out);
	}
	arena_free(p.a);
}
