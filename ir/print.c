/*
 * `glc --emit=typed`: the typed program as text. Each kernel lists its
 * specialization, parameters, variables and shared-memory allocations, then
 * one line per instruction: `%id = op operands : type`; nested blocks are
 * indented. Layouts print in constructor form inside the types; every
 * distinct layout's bases are listed after the kernel.
 */
#include "ir/ir.h"

static const char *const op_names[OP_COUNT] = {
	[OP_CONST] = "const", [OP_PARAM] = "param", [OP_PROGRAM_ID] = "program_id",
	[OP_NUM_PROGRAMS] = "num_programs", [OP_ADD] = "add", [OP_SUB] = "sub",
	[OP_MUL] = "mul", [OP_DIV] = "div", [OP_FLOORDIV] = "floordiv", [OP_MOD] = "mod",
	[OP_AND] = "and", [OP_OR] = "or", [OP_XOR] = "xor", [OP_SHL] = "shl", [OP_SHR] = "shr",
	[OP_MIN] = "min", [OP_MAX] = "max", [OP_NEG] = "neg", [OP_NOT] = "not", [OP_LT] = "lt",
	[OP_LE] = "le", [OP_GT] = "gt", [OP_GE] = "ge", [OP_EQ] = "eq", [OP_NE] = "ne",
	[OP_PTR_ADD] = "ptr_add", [OP_SELECT] = "select", [OP_EXP] = "exp", [OP_EXP2] = "exp2",
	[OP_LOG] = "log", [OP_LOG2] = "log2", [OP_SQRT] = "sqrt", [OP_RSQRT] = "rsqrt",
	[OP_ABS] = "abs", [OP_SIN] = "sin", [OP_COS] = "cos", [OP_ERF] = "erf",
	[OP_FLOOR] = "floor", [OP_CEIL] = "ceil", [OP_SQRT_RN] = "sqrt_rn",
	[OP_DIV_RN] = "div_rn", [OP_FDIV] = "fdiv", [OP_FMA] = "fma", [OP_CLAMP] = "clamp",
	[OP_UMULHI] = "umulhi", [OP_CDIV] = "cdiv", [OP_CAST] = "cast",
	[OP_BITCAST] = "bitcast", [OP_MULTIPLE_OF] = "multiple_of",
	[OP_MAX_CONTIGUOUS] = "max_contiguous", [OP_MAX_CONSTANCY] = "max_constancy",
	[OP_ASSUME] = "assume", [OP_SPLAT] = "splat",
	[OP_BROADCAST] = "broadcast", [OP_EXPAND_DIMS] = "expand_dims",
	[OP_CONVERT_LAYOUT] = "convert_layout", [OP_REDUCE] = "reduce", [OP_ARANGE] = "arange",
	[OP_FULL] = "full", [OP_LOAD] = "load", [OP_STORE] = "store",
	[OP_SMEM_ALLOC] = "smem_alloc", [OP_SMEM_VIEW] = "smem_view",
	[OP_SMEM_LOAD] = "smem_load", [OP_SMEM_STORE] = "smem_store",
	[OP_ASYNC_COPY] = "async_copy", [OP_ASYNC_COMMIT] = "async_copy.commit_group",
	[OP_ASYNC_WAIT] = "async_copy.wait_group",
	[OP_ASYNC_MBAR_ARRIVE] = "async_copy.mbarrier_arrive",
	[OP_MBAR_INIT] = "mbarrier.init", [OP_MBAR_INVALIDATE] = "mbarrier.invalidate",
	[OP_MBAR_EXPECT] = "mbarrier.expect", [OP_MBAR_WAIT] = "mbarrier.wait",
	[OP_MBAR_ARRIVE] = "mbarrier.arrive", [OP_TMA_LOAD] = "tma.load",
	[OP_TMA_STORE] = "tma.store", [OP_TMA_STORE_WAIT] = "tma.store_wait",
	[OP_DESC_SHAPE] = "desc_shape", [OP_WGMMA] = "warpgroup_mma",
	[OP_WGMMA_WAIT] = "warpgroup_mma_wait", [OP_FENCE_ASYNC_SHARED] = "fence_async_shared",
	[OP_THREAD_BARRIER] = "thread_barrier", [OP_PRINT] = "device_print",
	[OP_ASSERT] = "device_assert", [OP_INLINE_ASM] = "inline_asm", [OP_MAP] = "map",
	[OP_MAP_ARG] = "map_arg", [OP_MAP_YIELD] = "map_yield", [OP_EXTRACT] = "extract",
	[OP_VAR_READ] = "read",
	[OP_VAR_WRITE] = "write", [OP_FOR] = "for", [OP_IF] = "if", [OP_WHILE] = "while",
	[OP_BREAK] = "break", [OP_CONTINUE] = "continue",
	[OP_WARP_SPECIALIZE] = "warp_specialize",
};

const char *
ir_op_name(TOp op)
{
	return op < OP_COUNT && op_names[op] ? op_names[op] : "?";
}

static void
indent(StrBuf *out, int depth)
{
	for (int i = 0; i < depth; i++)
		buf_puts(out, "  ");
}

static void print_block(const TKernel *k, const TBlock *b, int depth, bool verbose,
                        StrBuf *out);

/* s as a double-quoted string with C escapes. */
static void
print_quoted(const char *s, StrBuf *out)
{
	buf_putc(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			buf_printf(out, "\\%c", c);
		else if (c == '\n')
			buf_puts(out, "\\n");
		else if (c == '\t')
			buf_puts(out, "\\t");
		else if (c < 32 || c > 126)
			buf_printf(out, "\\x%02x", c);
		else
			buf_putc(out, (char)c);
	}
	buf_putc(out, '"');
}

/* The access qualifiers of a global load, store or cp.async. */
static void
print_access(const TInst *i, StrBuf *out)
{
	static const char *const cache[] = {
		[CACHE_NONE] = "", [CACHE_CA] = ".ca", [CACHE_CG] = ".cg", [CACHE_CS] = ".cs",
		[CACHE_CV] = ".cv", [CACHE_WB] = ".wb", [CACHE_WT] = ".wt",
	};
	static const char *const evict[] = {
		[EVICT_NORMAL] = "", [EVICT_FIRST] = "evict_first", [EVICT_LAST] = "evict_last",
	};
	if (i->attr.cache)
		buf_printf(out, " cache=%s", cache[i->attr.cache]);
	if (i->attr.evict)
		buf_printf(out, " evict=%s", evict[i->attr.evict]);
	if (i->attr.is_volatile)
		buf_puts(out, " volatile");
}

static void
print_attrs(const TKernel *k, const TInst *i, StrBuf *out)
{
	switch (i->op) {
	case OP_CONST:
		if (ir_dtype_is_float(i->res->type->dtype))
			buf_printf(out, " %.9g", i->c.f);
		else
			buf_printf(out, " %lld", (long long)i->c.i);
		break;
	case OP_PARAM: buf_printf(out, " %s", k->params[i->param].name); break;
	case OP_PROGRAM_ID: case OP_NUM_PROGRAMS: case OP_DESC_SHAPE: case OP_EXPAND_DIMS:
		buf_printf(out, " axis=%d", i->attr.axis);
		break;
	case OP_REDUCE:
		buf_printf(out, " axis=%d combine=%s", i->attr.axis, ir_op_name(i->attr.combine));
		break;
	case OP_ARANGE:
		buf_printf(out, " %lld, %lld", (long long)i->attr.lo, (long long)i->attr.hi);
		break;
	case OP_CONVERT_LAYOUT:
		if (!i->attr.plan)   /* before the cvt-plan pass */
			break;
		buf_printf(out, " plan=%s", ll_cvt_kind_str(i->attr.plan->kind));
		if (i->attr.plan->kind == LL_CVT_SHARED)
			buf_printf(out, " scratch=%lld", (long long)i->attr.plan->scratch_bytes);
		break;
	case OP_SMEM_ALLOC: buf_printf(out, " #%d", i->attr.alloc); break;
	case OP_SMEM_VIEW:
		buf_printf(out, " offset=%lld stride=%lld", (long long)i->attr.offset,
		           (long long)i->attr.stride);
		break;
	case OP_MBAR_INIT: case OP_MBAR_ARRIVE: case OP_TMA_STORE_WAIT: case OP_WGMMA_WAIT:
		buf_printf(out, " count=%lld", (long long)i->attr.count);
		break;
	case OP_WGMMA: if (i->attr.is_async) buf_puts(out, " async"); break;
	case OP_CAST:
		if (i->attr.round)
			buf_puts(out, i->attr.round == RND_RTZ ? " rounding=rtz" : " rounding=rtne");
		break;
	case OP_MIN: case OP_MAX: case OP_CLAMP:
		if (i->attr.propagate_nan)
			buf_puts(out, " propagate_nan");
		break;
	case OP_LOAD: case OP_STORE: case OP_ASYNC_COPY:
		print_access(i, out);
		break;
	case OP_MULTIPLE_OF: case OP_MAX_CONTIGUOUS: case OP_MAX_CONSTANCY: {
		int rank = i->res->type->kind == TY_TENSOR ? i->res->type->rank : 1;
		buf_puts(out, " values=[");
		for (int d = 0; d < rank; d++)
			buf_printf(out, "%s%lld", d ? "," : "", (long long)i->attr.hint[d]);
		buf_putc(out, ']');
		break;
	}
	case OP_ASYNC_WAIT: case OP_ASYNC_MBAR_ARRIVE:
		buf_printf(out, " count=%lld", (long long)i->attr.count);
		break;
	case OP_PRINT: case OP_ASSERT:
		buf_putc(out, ' ');
		print_quoted(i->attr.text, out);
		if (i->attr.hex)
			buf_puts(out, " hex");
		break;
	case OP_INLINE_ASM:
		buf_putc(out, ' ');
		print_quoted(i->attr.text, out);
		buf_putc(out, ' ');
		print_quoted(i->attr.text2, out);
		buf_printf(out, " pack=%d%s", i->attr.pack, i->attr.is_pure ? " pure" : "");
		break;
	case OP_MAP: buf_printf(out, " pack=%d", i->attr.pack); break;
	case OP_MAP_ARG: case OP_EXTRACT: buf_printf(out, " index=%d", i->attr.index); break;
	default: break;
	}
	if (i->var)
		buf_printf(out, " $%d", i->var->id);
}

/* The axis facts of a value, when they say more than "nothing known". */
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
	for (int f = 0; f < 3; f++) {
		buf_printf(out, " %s=[", what[f]);
		for (int d = 0; d < rank; d++)
			buf_printf(out, "%s%lld", d ? "," : "", (long long)v[f][d]);
		buf_putc(out, ']');
	}
}

static void
print_inst(const TKernel *k, const TInst *i, int depth, bool verbose, StrBuf *out)
{
	indent(out, depth);
	if (i->res)
		buf_printf(out, "%%%d = ", i->res->id);
	buf_puts(out, ir_op_name(i->op));
	print_attrs(k, i, out);
	for (int a = 0; a < i->n_args; a++)
		buf_printf(out, "%s%%%d", a ? ", " : " ", i->args[a]->id);
	if (i->res) {
		buf_puts(out, " : ");
		ir_type_print(i->res->type, out);
	}
	buf_printf(out, "  ; line %u", i->at.line);
	if (i->res && k->axis && verbose)
		print_axis(&k->axis[i->res->id], i->res->type, out);
	buf_putc(out, '\n');
	switch (i->op) {
	case OP_FOR: case OP_MAP:
		print_block(k, &i->body, depth + 1, verbose, out);
		break;
	case OP_IF:
		print_block(k, &i->body, depth + 1, verbose, out);
		if (i->else_body.n) {
			indent(out, depth);
			buf_puts(out, "else\n");
			print_block(k, &i->else_body, depth + 1, verbose, out);
		}
		break;
	case OP_WHILE:
		print_block(k, &i->cond_block, depth + 1, verbose, out);
		indent(out, depth + 1);
		if (i->cond_value)
			buf_printf(out, "cond %%%d\n", i->cond_value->id);
		indent(out, depth);
		buf_puts(out, "do\n");
		print_block(k, &i->body, depth + 1, verbose, out);
		break;
	case OP_WARP_SPECIALIZE:
		for (int p = 0; p < k->n_parts; p++) {
			const TPartition *pt = &k->parts[p];
			indent(out, depth + 1);
			buf_printf(out, "partition %d %s: warps=%d first_warp=%d regs=%d\n", p, pt->fn,
			           pt->num_warps, pt->first_warp, pt->num_regs);
			print_block(k, &pt->body, depth + 2, verbose, out);
		}
		break;
	default:
		break;
	}
}

static void
print_block(const TKernel *k, const TBlock *b, int depth, bool verbose, StrBuf *out)
{
	for (size_t i = 0; i < b->n; i++)
		print_inst(k, b->insts[i], depth, verbose, out);
}

/* `variant NAME: x align=16, n div=16`: the specialized variant and the
 * assumptions it makes. */
static void
print_variant(const TKernel *k, StrBuf *out)
{
	const TKernel *v = k->fast;
	if (!v)
		return;
	buf_printf(out, "  variant %s:", v->name);
	bool first = true;
	for (int i = 0; i < v->n_params; i++) {
		if (v->params[i].divisibility <= 1)
			continue;
		buf_printf(out, "%s %s %s=%u", first ? "" : ",", v->params[i].name,
		           v->params[i].kind == TP_PTR ? "align" : "div", v->params[i].divisibility);
		first = false;
	}
	buf_putc(out, '\n');
}

static void
print_kernel(const TKernel *k, bool verbose, StrBuf *out)
{
	buf_printf(out, "kernel %s(", k->name);
	for (int i = 0; i < k->n_params; i++) {
		buf_printf(out, "%s%s: ", i ? ", " : "", k->params[i].name);
		ir_type_print(k->params[i].type, out);
	}
	buf_printf(out, ") num_warps=%d total_warps=%d smem=%lld\n", k->num_warps, k->total_warps,
	           (long long)k->smem_bytes);
	print_variant(k, out);
	for (int i = 0; i < k->n_cx; i++)
		buf_printf(out, "  constexpr %s = %s\n", k->cx_names[i], k->cx_values[i]);
	for (int i = 0; i < k->n_smem; i++) {
		const TSmemAlloc *s = &k->smem[i];
		buf_printf(out, "  smem #%d %s %s ", i, s->name, ir_dtype_name(s->dtype));
		ir_shape_print(s->shape, s->rank, out);
		buf_puts(out, " ");
		ir_layout_print(&s->layout, out);
		buf_printf(out, " bytes=%lld offset=%lld live=%d..%d%s\n", (long long)s->bytes,
		           (long long)s->offset, s->first_use, s->last_use,
		           s->is_mbarrier ? " mbarrier" : "");
	}
	for (int i = 0; i < k->n_vars; i++) {
		buf_printf(out, "  var $%d %s : ", k->vars[i]->id, k->vars[i]->name);
		ir_type_print(k->vars[i]->type, out);
		buf_putc(out, '\n');
	}
	print_block(k, &k->body, 1, verbose, out);
}

typedef VEC(const TType *) TypeVec;

/* Every distinct fitted tensor layout of a block, with its bases. */
static void
collect_layouts(const TBlock *b, TypeVec *seen, Arena *a)
{
	for (size_t i = 0; i < b->n; i++) {
		const TInst *in = b->insts[i];
		if (in->res && in->res->type->kind == TY_TENSOR) {
			bool dup = false;
			for (size_t k = 0; k < seen->len && !dup; k++)
				dup = ll_equal(&seen->data[k]->layout.ll, &in->res->type->layout.ll);
			if (!dup)
				vec_push(a, seen, in->res->type);
		}
		collect_layouts(&in->body, seen, a);
		collect_layouts(&in->else_body, seen, a);
		collect_layouts(&in->cond_block, seen, a);
	}
}

void
ir_print(const TProgram *p, bool verbose, StrBuf *out)
{
	for (int i = 0; i < p->n_kernels; i++) {
		const TKernel *k = p->kernels[i];
		if (i)
			buf_putc(out, '\n');
		print_kernel(k, verbose, out);
		Arena *a = arena_new();
		TypeVec seen = {0};
		collect_layouts(&k->body, &seen, a);
		for (int q = 0; q < k->n_parts; q++)
			collect_layouts(&k->parts[q].body, &seen, a);
		if (seen.len)
			buf_puts(out, "  layouts:\n");
		for (size_t l = 0; l < seen.len; l++) {
			buf_puts(out, "    ");
			ir_layout_print(&seen.data[l]->layout, out);
			buf_puts(out, " on ");
			ir_shape_print(seen.data[l]->shape, seen.data[l]->rank, out);
			if (verbose) {
				buf_puts(out, "\n      ");
				ir_layout_print_bases(&seen.data[l]->layout.ll, out);
			}
			buf_putc(out, '\n');
		}
		arena_free(a);
	}
}
