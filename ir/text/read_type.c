/*
 * Reading types, layout aliases and locations:
 *
 *   type  -> void | DTYPE | ptr<DTYPE> | tensor<ELEM, SHAPE, #alias>
 *          | smem<DTYPE, SHAPE, #alias, alloc N> | mbarrier<...same...>
 *          | tensor_desc<DTYPE, SHAPE, #alias> | (type, ...)
 *   alias -> #name = CONSTRUCTOR on SHAPE [exact {IN=[[..],..] ... outs=[dim0,..]}]
 *   loc   -> loc(LINE:COL[+LEN]) | loc("path":LINE:COL[+LEN]) | loc(unknown)
 *
 * An alias without `exact` is rebuilt from its constructor for its shape
 * (ll_build); with it, the bases given are the map.
 */
#include "ir/text/read.h"

#include <string.h>

enum { MAX_TUPLE_DEPTH = 8 };

bool
rd_dtype(Reader *r, TDType *out)
{
	for (int t = DT_I1; t < DT_COUNT; t++)
		if (rd_word(r, ir_dtype_name((TDType)t))) {
			*out = (TDType)t;
			return true;
		}
	return rd_error(r, "expected an element type (i1, i8, ..., f32, bf16, f8e5m2), found %s",
	                rd_found(r));
}

bool
rd_shape_from(Reader *r, int64_t least, int64_t *shape, int *rank)
{
	*rank = 0;
	if (!rd_expect_punct(r, '['))
		return false;
	if (rd_punct(r, ']'))
		return true;
	do {
		if (*rank == LL_MAX_RANK)
			return rd_error(r, "a shape has at most %d dimensions", LL_MAX_RANK);
		if (!rd_int(r, least, INT32_MAX, "a dimension", &shape[*rank]))
			return false;
		++*rank;
	} while (rd_punct(r, ','));
	return rd_expect_punct(r, ']');
}

bool
rd_shape(Reader *r, int64_t *shape, int *rank)
{
	return rd_shape_from(r, 1, shape, rank);
}

bool
rd_alias_ref(Reader *r, const int64_t *shape, int rank, bool region, TLayout *out)
{
	if (r->tok.kind != TK_ALIAS)
		return rd_error(r, "expected a layout alias (#name), found %s", rd_found(r));
	const RAlias *al = NULL;
	for (size_t i = 0; i < r->aliases.len && !al; i++)
		if (strlen(r->aliases.data[i].name) == r->tok.n - 1 &&
		    memcmp(r->aliases.data[i].name, r->tok.s + 1, r->tok.n - 1) == 0)
			al = &r->aliases.data[i];
	if (!al)
		return rd_error(r, "no layout alias %.*s is defined before this kernel",
		                (int)r->tok.n, r->tok.s);
	bool fits = al->rank <= rank;
	for (int j = 0; fits && j < al->rank; j++) {
		int64_t want = shape[rank - al->rank + j];
		fits = al->shape[j] == want || (region && al->shape[j] > want);
	}
	if (!fits) {
		StrBuf a = {0}, b = {0};
		ir_shape_print(al->shape, al->rank, &a);
		ir_shape_print(shape, rank, &b);
		rd_error(r, "#%s is fitted to %s, which is not the shape %s ends in", al->name, a.s,
		         b.s);
		buf_free(&a);
		buf_free(&b);
		return false;
	}
	*out = al->layout;
	rd_next(r);
	return true;
}

/* '<' DTYPE ',' SHAPE ',' #alias ; the type's kind, dtype, shape and layout.
 * whole: the layout covers every dim (tensors and descriptors). */
static bool
shaped(Reader *r, TType *t, bool elem_may_be_ptr, bool whole)
{
	if (!rd_expect_punct(r, '<'))
		return false;
	if (elem_may_be_ptr && rd_word(r, "ptr")) {
		t->elem_is_ptr = true;
		if (!rd_expect_punct(r, '<') || !rd_dtype(r, &t->dtype) || !rd_expect_punct(r, '>'))
			return false;
	} else if (!rd_dtype(r, &t->dtype)) {
		return false;
	}
	if (!rd_expect_punct(r, ',') || !rd_shape(r, t->shape, &t->rank) ||
	    !rd_expect_punct(r, ','))
		return false;
	Token at = r->tok;
	if (!rd_alias_ref(r, t->shape, t->rank, !whole, &t->layout))
		return false;
	if (whole && t->layout.ll.n_out != t->rank)
		return rd_error_at(r, &at, "this layout covers %d of the %d dimensions",
		                   t->layout.ll.n_out, t->rank);
	return true;
}

/* [',' 'at' shape]: a strided view's first element in its layout's
 * region, which it needs exactly when the region is larger than the view. */
static bool
view_at(Reader *r, TType *t)
{
	Token kw = r->tok;
	if (rd_punct(r, ',')) {
		int rank;
		if (!rd_expect_word(r, "at") || !rd_shape_from(r, 0, t->view_at, &rank))
			return false;
		if (rank != t->rank)
			return rd_error_at(r, &kw, "'at' lists %d coordinates for a rank-%d view", rank,
			                   t->rank);
		if (!ir_smem_strided(t))
			return rd_error_at(r, &kw, "a view whose layout is fitted to its own shape has "
			                   "no 'at'");
		return true;
	}
	return !ir_smem_strided(t) ||
	       rd_error(r, "this view is narrower than its layout's region, so it needs ', at "
	                "[...]' (its first element in the region)");
}

static const TType *
type_at(Reader *r, int depth)
{
	TType *t = arena_alloc(r->a, sizeof *t);
	if (rd_word(r, "void")) {
		t->kind = TY_VOID;
	} else if (rd_word(r, "ptr")) {
		t->kind = TY_PTR;
		if (!rd_expect_punct(r, '<') || !rd_dtype(r, &t->dtype) || !rd_expect_punct(r, '>'))
			return NULL;
	} else if (rd_word(r, "tensor")) {
		t->kind = TY_TENSOR;
		if (!shaped(r, t, true, true) || !rd_expect_punct(r, '>'))
			return NULL;
	} else if (rd_is_word(r, "smem") || rd_is_word(r, "mbarrier")) {
		t->kind = rd_is_word(r, "smem") ? TY_SMEM : TY_MBARRIER;
		rd_next(r);
		int64_t alloc;
		if (!shaped(r, t, false, false) || !rd_expect_punct(r, ',') ||
		    !rd_expect_word(r, "alloc") || !rd_int(r, 0, INT32_MAX, "the allocation", &alloc) ||
		    !view_at(r, t) || !rd_expect_punct(r, '>'))
			return NULL;
		t->alloc = (int)alloc;
	} else if (rd_word(r, "tensor_desc")) {
		t->kind = TY_DESC;
		if (!shaped(r, t, false, true) || !rd_expect_punct(r, '>'))
			return NULL;
	} else if (r->tok.kind == TK_PUNCT && r->tok.ch == '(') {
		if (depth >= MAX_TUPLE_DEPTH) {
			rd_error(r, "tuples nest more than %d deep", MAX_TUPLE_DEPTH);
			return NULL;
		}
		rd_next(r);
		t->kind = TY_TUPLE;
		VEC(const TType *) elems = {0};
		do {
			const TType *e = type_at(r, depth + 1);
			if (!e)
				return NULL;
			vec_push(r->a, &elems, e);
		} while (rd_punct(r, ','));
		if (!rd_expect_punct(r, ')'))
			return NULL;
		t->elems = elems.data;
		t->n_elems = (int)elems.len;
	} else {
		t->kind = TY_SCALAR;
		if (!rd_dtype(r, &t->dtype))
			return NULL;
	}
	return t;
}

const TType *
rd_type(Reader *r)
{
	return type_at(r, 0);
}

/* An exact alias's input dimensions as written. */
typedef struct Bases {
	int n_ins;
	LLName ins[LL_MAX_DIMS];
	int n_bases[LL_MAX_DIMS];
	int64_t v[LL_MAX_DIMS][LL_MAX_BITS][LL_MAX_DIMS];
	int n_coords[LL_MAX_DIMS][LL_MAX_BITS];
} Bases;

/* IN=[[c,..],..] for the next input dimension. */
static bool
in_dim(Reader *r, Bases *b)
{
	LLName nm = LL_NAME_COUNT;
	for (int k = 0; k < LL_NAME_COUNT; k++)
		if (rd_is_word(r, ll_name_str((LLName)k)))
			nm = (LLName)k;
	if (nm == LL_NAME_COUNT)
		return rd_error(r, "expected an input dimension (register, lane, warp, block, "
		                "offset) or outs=, found %s", rd_found(r));
	if (b->n_ins == LL_MAX_DIMS)
		return rd_error(r, "a layout has at most %d input dimensions", LL_MAX_DIMS);
	int d = b->n_ins++, nb = 0;
	b->ins[d] = nm;
	rd_next(r);
	if (!rd_expect_punct(r, '=') || !rd_expect_punct(r, '['))
		return false;
	while (!rd_punct(r, ']')) {
		if ((nb && !rd_expect_punct(r, ',')) || !rd_expect_punct(r, '['))
			return false;
		if (nb == LL_MAX_BITS)
			return rd_error(r, "a layout has at most %d bases", LL_MAX_BITS);
		int j = 0;
		do {
			if (j == LL_MAX_DIMS)
				return rd_error(r, "a basis has at most %d coordinates", LL_MAX_DIMS);
			if (!rd_int(r, 0, UINT32_MAX, "a coordinate", &b->v[d][nb][j]))
				return false;
			j++;
		} while (rd_punct(r, ','));
		if (!rd_expect_punct(r, ']'))
			return false;
		b->n_coords[d][nb++] = j;
	}
	b->n_bases[d] = nb;
	return true;
}

/* outs=[dimK,..]: the output dimensions in order, sized by the shape. */
static bool
out_dims(Reader *r, const int64_t *shape, int rank, LLayout *l)
{
	rd_next(r);
	if (!rd_expect_punct(r, '=') || !rd_expect_punct(r, '['))
		return false;
	int n = 0;
	do {
		LLName o = LL_NAME_COUNT;
		for (int k = LL_DIM0; k <= LL_DIM4; k++)
			if (rd_is_word(r, ll_name_str((LLName)k)))
				o = (LLName)k;
		if (o == LL_NAME_COUNT)
			return rd_error(r, "expected an output dimension dim0..dim4, found %s",
			                rd_found(r));
		if (n == rank)
			return rd_error(r, "outs= names more dimensions than the shape has");
		if (shape[n] & (shape[n] - 1))
			return rd_error(r, "an exact layout needs power-of-two dimensions");
		int bits = 0;
		while ((1ll << bits) < shape[n])
			bits++;
		if (ll_add_out(l, o, bits) < 0)
			return rd_error(r, "%s repeats, or the outputs exceed %d bits", ll_name_str(o),
			                LL_MAX_BITS);
		n++;
		rd_next(r);
	} while (rd_punct(r, ','));
	if (n != rank)
		return rd_error(r, "outs= names %d dimensions but the shape has %d", n, rank);
	return rd_expect_punct(r, ']');
}

/* The map of an exact alias: {IN=[[..],..] ... outs=[dimK,..]}. */
static bool
exact_bases(Reader *r, const int64_t *shape, int rank, LLayout *out)
{
	Bases *b = arena_alloc(r->a, sizeof *b);
	LLayout l = ll_empty();
	if (!rd_expect_punct(r, '{'))
		return false;
	while (!rd_is_word(r, "outs"))
		if (!in_dim(r, b))
			return false;
	if (!out_dims(r, shape, rank, &l) || !rd_expect_punct(r, '}'))
		return false;
	for (int i = 0; i < b->n_ins; i++)
		if (ll_add_in(&l, b->ins[i], b->n_bases[i]) < 0)
			return rd_error(r, "%s repeats, or the inputs exceed %d bits",
			                ll_name_str(b->ins[i]), LL_MAX_BITS);
	for (int i = 0; i < b->n_ins; i++)
		for (int k = 0; k < b->n_bases[i]; k++) {
			uint32_t v[LL_MAX_DIMS];
			bool ok = b->n_coords[i][k] == rank;
			for (int j = 0; j < rank && ok; j++) {
				ok = b->v[i][k][j] < shape[j];
				v[j] = (uint32_t)b->v[i][k][j];
			}
			if (!ok)
				return rd_error(r, "basis %d of %s does not have %d coordinates inside the "
				                "shape", k, ll_name_str(b->ins[i]), rank);
			ll_set_basis(&l, i, k, v);
		}
	*out = l;
	return true;
}

bool
rd_alias_def(Reader *r)
{
	Token name = r->tok;
	RAlias al = {.name = intern(r->in, name.s + 1, name.n - 1)};
	for (size_t i = 0; i < r->aliases.len; i++)
		if (r->aliases.data[i].name == al.name)
			return rd_error(r, "#%s is defined twice", al.name);
	rd_next(r);
	if (!rd_expect_punct(r, '='))
		return false;
	Token ctor = r->tok;
	if (!rd_word(r, "none")) {
		size_t used;
		LLErr err = {r->a, NULL};
		if (!ll_desc_parse(r->tok.s, (size_t)(r->end - r->tok.s), r->a, &al.layout.desc,
		                   &used, &err)) {
			Token at = r->tok;
			at.col += (uint32_t)used;
			at.n = 1;
			return rd_error_at(r, &at, "%s", err.msg);
		}
		rd_seek(r, r->tok.s + used);
	}
	if (!rd_expect_word(r, "on") || !rd_shape(r, al.shape, &al.rank))
		return false;
	if (rd_word(r, "exact")) {
		if (!exact_bases(r, al.shape, al.rank, &al.layout.ll))
			return false;
	} else if (!al.layout.desc) {
		return rd_error_at(r, &ctor, "a layout without a constructor needs its exact bases");
	} else {
		LLErr err = {r->a, NULL};
		if (!ll_build(al.layout.desc, al.shape, al.rank, 0, &al.layout.ll, &err))
			return rd_error_at(r, &ctor, "%s", err.msg);
	}
	vec_push(r->a, &r->aliases, al);
	return rd_expect_newline(r);
}

uint32_t
rd_path_file(Reader *r, const char *path)
{
	if (strcmp(path, src_path(r->src, r->file)) == 0)
		return r->file;
	for (size_t i = 0; i < r->paths.len; i++)
		if (strcmp(r->paths.data[i], path) == 0)
			return r->path_ids.data[i];
	uint32_t id = r->load && r->load->load ? r->load->load(r->load->ctx, r->src, path) : 0;
	if (!id)
		id = src_add(r->src, path, "", 0);
	vec_push(r->a, &r->paths, path);
	vec_push(r->a, &r->path_ids, id);
	return id;
}

bool
rd_loc(Reader *r, const char *what, SrcSpan *out)
{
	if (!rd_word(r, what))
		return true;
	if (!rd_expect_punct(r, '('))
		return false;
	if (rd_word(r, "unknown")) {
		*out = (SrcSpan){0};
		return rd_expect_punct(r, ')');
	}
	SrcSpan s = {r->origin ? r->origin : r->file, 0, 0, 0};
	if (r->tok.kind == TK_STRING) {
		s.file = rd_path_file(r, r->tok.str);
		rd_next(r);
		if (!rd_expect_punct(r, ':'))
			return false;
	}
	int64_t line, col, len = 0;
	if (!rd_int(r, 1, UINT32_MAX, "the line", &line) || !rd_expect_punct(r, ':') ||
	    !rd_int(r, 1, UINT32_MAX, "the column", &col))
		return false;
	if (rd_punct(r, '+')) {
		if (rd_punct(r, '*'))
			len = IR_SPAN_MULTILINE;
		else if (!rd_int(r, 0, UINT32_MAX, "the length", &len))
			return false;
	}
	s.line = (uint32_t)line;
	s.col = (uint32_t)col;
	s.len = (uint32_t)len;
	*out = s;
	return rd_expect_punct(r, ')');
}
