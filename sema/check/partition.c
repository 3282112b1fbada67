/*
 * gl.warp_specialize: the default partition and the workers inlined into
 * partitions of the kernel, checked statically (workers take no register
 * tensors; warps round to warpgroups; register budgets multiples of 8 in
 * [24, 256] and within the register file); the default partition's results
 * carried past the call in variables.
 */
#include "sema/check/check.h"

#include <string.h>

static bool
int_list(Check *ck, Value *v, const char *what, int64_t *out, size_t want_n)
{
	if (!v || (v->kind != VAL_LIST && v->kind != VAL_TUPLE) || v->u.list.n != want_n) {
		diag_error(ck->d, v ? v->span : (SrcSpan){0}, "%s must list one integer per worker "
		           "partition (%zu)", what, want_n);
		return false;
	}
	for (size_t i = 0; i < want_n; i++)
		if (!sema_value_int(ck, v->u.list.items[i], what, &out[i]))
			return false;
	return true;
}

/* Inlines partition entry (a (function, arguments) pair) into p. The
 * default partition's results (a tuple, or None) go to *out: variables
 * written at the end of its body, read after warp_specialize (NULL: no
 * runtime result). */
static bool
run_partition(Check *ck, TPartition *p, Value *entry, int warps, bool worker, Value **out)
{
	if (entry->kind != VAL_TUPLE || entry->u.list.n != 2 ||
	    entry->u.list.items[0]->kind != VAL_FUNC ||
	    (entry->u.list.items[1]->kind != VAL_TUPLE && entry->u.list.items[1]->kind != VAL_LIST)) {
		diag_error(ck->d, entry->span, "each partition is a (function, (arguments...)) pair "
		           "naming a @gl.jit function");
		return false;
	}
	const Node *f = entry->u.list.items[0]->u.func;
	Value *args = entry->u.list.items[1];
	if (args->u.list.n != f->u.func.params.len) {
		diag_error(ck->d, args->span, "'%s' takes %zu arguments, but %zu were given",
		           f->u.func.name, f->u.func.params.len, args->u.list.n);
		return false;
	}
	for (size_t i = 0; worker && i < args->u.list.n; i++) {
		Value *v = args->u.list.items[i];
		if (v->kind == VAL_RUNTIME && v->u.rt->type->kind == TY_TENSOR) {
			Diag *g = diag_error(ck->d, v->span, "worker partition '%s' receives a register "
			                     "tensor (%s); workers may take shared memory, descriptors, "
			                     "scalars and constexprs only", f->u.func.name,
			                     sema_type_str(ck, v->u.rt->type));
			diag_note(ck->d, g, v->origin, "the tensor was made here");
			return false;
		}
	}
	p->fn = f->u.func.name;
	p->num_warps = warps;
	TBlock *saved = ck->blk;
	int saved_warps = ck->k->num_warps;
	ck->blk = &p->body;
	ck->k->num_warps = warps;
	ck->in_partition = true;
	int errors = ck->d->errors;
	Value *ret = sema_inline_call(ck, entry->span, f, args->u.list.items, (int)args->u.list.n);
	bool ok = ret && ck->d->errors == errors;
	if (ok && out && ret->kind != VAL_NONE) {
		if (ret->kind != VAL_TUPLE) {
			diag_error(ck->d, ret->span, "the default partition '%s' returns %s, not a tuple: "
			           "warp_specialize gives the default partition's tuple of results "
			           "(return (x,) for one)", f->u.func.name, sema_value_kind_phrase(ret));
			ok = false;
		} else {
			Value *vars = sema_write_vars(ck, f->u.func.name, ret, entry->span);
			*out = vars ? vars : ret;
			ok = ck->d->errors == errors;
		}
	}
	ck->in_partition = false;
	ck->k->num_warps = saved_warps;
	ck->blk = saved;
	return ok;
}

/* n more partitions at the end of k->parts (a fresh array: earlier calls'
 * keep their contents), zeroed; the kernel's warps are the most any call
 * takes. */
static TPartition *
add_partitions(Arena *a, TKernel *k, int n, int total_warps)
{
	TPartition *all = arena_alloc(a, (size_t)(k->n_parts + n) * sizeof *all);
	if (k->n_parts)
		memcpy(all, k->parts, (size_t)k->n_parts * sizeof *all);
	memset(all + k->n_parts, 0, (size_t)n * sizeof *all);
	k->parts = all;
	k->n_parts += n;
	if (total_warps > k->total_warps)
		k->total_warps = total_warps;
	return all + k->n_parts - n;
}

Value *
sema_warp_specialize(Check *ck, const Node *call, Value **a)
{
	if (ck->in_partition) {
		diag_error(ck->d, call->span, "gl.warp_specialize cannot be called inside a "
		           "partition of another warp_specialize");
		return NULL;
	}
	if ((ck->k->parts || ck->fr->rt_depth > 0) && ck->k->num_warps % 4) {
		/* codegen's dispatch loop: the default partition's warpgroup
		 * would hold warps of neither the default code nor the loop */
		diag_error(ck->d, call->span, "a second gl.warp_specialize, or one inside runtime "
		           "control flow, needs the kernel's num_warps to be a multiple of 4 (it is "
		           "%d)", ck->k->num_warps);
		return NULL;
	}
	Value *parts = a[0];
	if ((parts->kind != VAL_LIST && parts->kind != VAL_TUPLE) || parts->u.list.n < 2 ||
	    parts->u.list.n > 9) {
		diag_error(ck->d, parts->span, "partitions must list the default partition and 1 "
		           "to 8 workers");
		return NULL;
	}
	size_t nw = parts->u.list.n - 1;
	int64_t warps[8], regs[8];
	if (!int_list(ck, a[1], "worker_num_warps", warps, nw) ||
	    !int_list(ck, a[2], "worker_num_regs", regs, nw))
		return NULL;
	int total = ck->k->num_warps;
	int64_t reg_use = (int64_t)ck->k->num_warps * 32 * 24;
	for (size_t i = 0; i < nw; i++) {
		SrcSpan wa = a[1]->u.list.items[i]->span, ra = a[2]->u.list.items[i]->span;
		if (warps[i] < 1 || warps[i] > 32 || (warps[i] & (warps[i] - 1))) {
			diag_error(ck->d, wa, "worker %zu has %lld warps; use a power of two from 1 to 32",
			           i + 1, (long long)warps[i]);
			return NULL;
		}
		if (regs[i] < 24 || regs[i] > 256 || regs[i] % 8) {
			diag_error(ck->d, ra, "worker %zu's register budget is %lld; setmaxnreg takes a "
			           "multiple of 8 in [24, 256]", i + 1, (long long)regs[i]);
			return NULL;
		}
		int64_t rounded = (warps[i] + 3) / 4 * 4;
		total += (int)rounded;
		reg_use += rounded * 32 * regs[i];
	}
	total = (total + 3) / 4 * 4;
	if (total > 32) {
		diag_error(ck->d, call->span, "the partitions need %d warps in all; a block has at "
		           "most 32", total);
		return NULL;
	}
	if (reg_use > 65536) {
		diag_error(ck->d, a[2]->span, "the worker budgets need %lld registers with at least "
		           "24 per thread of the default partition; the register file holds 65536",
		           (long long)reg_use);
		return NULL;
	}
	TInst *in = sema_emit(ck, OP_WARP_SPECIALIZE, call->span, NULL, 0);
	TPartition *p = add_partitions(ck->a, ck->k, (int)nw + 1, total);
	in->attr.index = (int)(p - ck->k->parts);
	in->attr.count = (int64_t)nw + 1;
	int first = (ck->k->num_warps + 3) / 4 * 4;   /* workers own whole warpgroups */
	Value *results = NULL;
	for (size_t i = 0; i <= nw; i++) {
		if (i) {
			p[i].num_regs = (int)regs[i - 1];
			p[i].first_warp = first;
			first += (int)((warps[i - 1] + 3) / 4 * 4);
		}
		if (!run_partition(ck, &p[i], parts->u.list.items[i],
		                   i ? (int)warps[i - 1] : ck->k->num_warps, i > 0, i ? NULL : &results))
			return NULL;
	}
	/* the code after the call runs on the default partition's warps once
	 * the workers are done (codegen joins them) */
	return results ? sema_read_vars(ck, results, call->span) : sema_new_value(&ck->ev, VAL_NONE, call->span);
}
