/*
 * The IR verifier: walks each kernel in program order (the order in which
 * sema numbers instructions for shared-memory lifetimes) and checks
 *
 *   kernel      warps, partitions (warps, register budgets, first warps, total),
 *               the specialized variant shares the kernel but its assumptions
 *   params      parameter kinds match their types; `param` names a parameter
 *   values      each value is defined once, with an id below n_values
 *   dominance   a value is used after its definition, in its block or one
 *               nested in it; partitions see kernel values defined before
 *               the warp_specialize and not each other's
 *   variables   declared once per id, holding scalars, pointers, tensors,
 *               shared-memory views or tensor descriptors; reads and writes
 *               have the var's type;
 *               a for loop's induction variable is i32 or i64
 *   loops       break and continue only inside for and while bodies
 *   structure   only for/if/while (and a reduce's or scan's combine region)
 *               own blocks; a yield ends a region; warp_specialize not
 *               inside a partition or a map
 *
 * and, through verify_ops.c and verify_smem.c, the types of every
 * operation and the shared-memory rules.
 */
#include "ir/verify/verify.h"


/* What a variable may hold: values of registers, shared-memory views (a
 * loop moving through the slots of a ring) and tensor descriptors (one
 * built or chosen in a loop or branch). */
static bool
is_variable_type(const TType *t)
{
	return t->kind == TY_SCALAR || t->kind == TY_PTR || t->kind == TY_TENSOR ||
	       t->kind == TY_SMEM || t->kind == TY_MBARRIER || t->kind == TY_DESC;
}

/* Whether instruction i defines value a (its result, or one of its
 * region's values). */
static bool
defines(const TInst *i, const TValue *a)
{
	for (int k = 0; k < i->n_region; k++)
		if (i->region[k] == a)
			return true;
	return i->res == a;
}

/* Every operand exists, is a value of this kernel, and is visible here. */
static bool
operands_visible(Verifier *v, const TInst *i)
{
	for (int k = 0; k < i->n_args; k++) {
		const TValue *a = i->args[k];
		if (!a)
			return vf_fail(v, i->at, "operands", "operand %d of '%s' is missing", k,
			               ir_op_name(i->op));
		if (a->id < 0 || a->id >= v->k->n_values || v->def[a->id] == NULL ||
		    !defines(v->def[a->id], a))
			return vf_fail(v, i->at, "dominance", "'%s' uses %%%d before its definition",
			               ir_op_name(i->op), a->id);
		if (!v->visible[a->id])
			return vf_fail(v, i->at, "dominance", "'%s' uses %%%d, which is defined in a "
			               "block that does not enclose this one", ir_op_name(i->op), a->id);
	}
	return true;
}

static bool
define(Verifier *v, const TInst *i)
{
	const TValue *r = i->res;
	if (!r)
		return true;
	if (!r->type)
		return vf_fail(v, i->at, "types", "%%%d has no type", r->id);
	if (r->id < 0 || r->id >= v->k->n_values)
		return vf_fail(v, i->at, "values", "%%%d is outside the kernel's %d values", r->id,
		               v->k->n_values);
	if (v->def[r->id])
		return vf_fail(v, i->at, "values", "%%%d is defined twice", r->id);
	v->def[r->id] = i;
	v->visible[r->id] = true;
	return true;
}

/* The values b defines stop being visible when its walk ends. */
static void
hide(Verifier *v, const TBlock *b)
{
	for (size_t n = 0; n < b->n; n++)
		if (b->insts[n]->res && b->insts[n]->res->id >= 0 &&
		    b->insts[n]->res->id < v->k->n_values && v->def[b->insts[n]->res->id] == b->insts[n])
			v->visible[b->insts[n]->res->id] = false;
}

static bool
check_var(Verifier *v, const TInst *i)
{
	bool uses = i->op == OP_VAR_READ || i->op == OP_VAR_WRITE || i->op == OP_FOR;
	const TVar *x = i->var;
	if (!uses)
		return !x || vf_fail(v, i->at, "variables", "'%s' takes no variable",
		                     ir_op_name(i->op));
	if (!x || x->id < 0 || x->id >= v->k->n_vars || v->k->vars[x->id] != x)
		return vf_fail(v, i->at, "variables", "'%s' needs a variable of the kernel",
		               ir_op_name(i->op));
	if (i->op == OP_FOR)
		return (x->type->kind == TY_SCALAR &&
		        (x->type->dtype == DT_I32 || x->type->dtype == DT_I64)) ||
		       vf_fail(v, i->at, "variables", "the induction variable $%d is %s; it must be "
		               "i32 or i64", x->id, vf_type_str(v, x->type));
	const TType *t = i->op == OP_VAR_READ ? (i->res ? i->res->type : NULL)
	                                      : (i->n_args == 1 ? i->args[0]->type : NULL);
	if (t && !ir_type_equal(t, x->type))
		return vf_fail(v, i->at, "variables", "'%s' of $%d (%s) with %s", ir_op_name(i->op),
		               x->id, vf_type_str(v, x->type), vf_type_str(v, t));
	return true;
}

/* The cond_value of a while is defined by its condition block itself. */
static bool
defined_in(const TBlock *b, const TValue *x)
{
	for (size_t n = 0; n < b->n; n++)
		if (b->insts[n]->res == x)
			return true;
	return false;
}

/* Warp_specialize i's partitions: the default one on the kernel's warps
 * from warp 0 with no register budget, workers after it on warps of their
 * own; false when they are not to be walked. */
static bool
check_partitions(Verifier *v, const TInst *i)
{
	int n, total = (v->k->num_warps + 3) / 4 * 4;
	const TPartition *parts = ir_ws_parts(v->k, i, &n);
	if (n < 2 || i->attr.index != v->ws_parts)
		return vf_fail(v, i->at, "partitions", "warp_specialize runs the next %d or more "
		               "partitions of the kernel, a default one and workers", 2);
	v->ws_parts += n;
	for (int p = 0; p < n; p++) {
		const TPartition *pt = &parts[p];
		int pw = pt->num_warps;
		if (p == 0 && (pw != v->k->num_warps || pt->first_warp != 0 || pt->num_regs != 0))
			vf_fail(v, i->at, "partitions", "partition %d runs on the kernel's %d warps from "
			        "warp 0 with no register budget", i->attr.index, v->k->num_warps);
		if (p == 0)
			continue;
		if (pw < 1 || pw > 32 || (pw & (pw - 1)) || pt->num_regs < 24 ||
		    pt->num_regs > 256 || pt->num_regs % 8)
			vf_fail(v, i->at, "partitions", "partition %d: warps a power of two up to 32 and "
			        "a register budget that is a multiple of 8 in [24, 256]",
			        i->attr.index + p);
		if (pt->first_warp != total)
			vf_fail(v, i->at, "partitions", "partition %d starts at warp %d, not %d",
			        i->attr.index + p, pt->first_warp, total);
		total += (pw + 3) / 4 * 4;
	}
	total = (total + 3) / 4 * 4;
	if (total > v->k->total_warps)
		vf_fail(v, i->at, "partitions", "the partitions take %d warps; total_warps is %d",
		        total, v->k->total_warps);
	return true;
}

/* The blocks i owns, and what its kind asks before they are walked; false
 * when they are not to be walked. */
static bool
check_nested(Verifier *v, const TInst *i)
{
	bool region = i->op == OP_REDUCE || i->op == OP_SCAN;
	if (i->n_region && !region)
		return vf_fail(v, i->at, "structure", "'%s' has no combine region", ir_op_name(i->op));
	bool blocks = i->op == OP_FOR || i->op == OP_IF || i->op == OP_WHILE || i->op == OP_MAP ||
	              (region && i->n_region);
	if (!blocks && (i->body.n || i->else_body.n || i->cond_block.n))
		return vf_fail(v, i->at, "structure", "'%s' owns no blocks", ir_op_name(i->op));
	if ((i->op != OP_IF && i->else_body.n) || (i->op != OP_WHILE && i->cond_block.n))
		return vf_fail(v, i->at, "structure", "'%s' has a block it cannot have",
		               ir_op_name(i->op));
	switch (i->op) {
	case OP_WARP_SPECIALIZE:
		if (v->in_part || v->map)
			return vf_fail(v, i->at, "structure", "warp_specialize is not called inside a "
			               "partition or a map");
		return check_partitions(v, i);
	case OP_BREAK:
	case OP_CONTINUE:
		if (!v->loops)
			vf_fail(v, i->at, "loops", "'%s' outside a loop", ir_op_name(i->op));
		return true;
	default:
		return true;
	}
}

/* Where the instruction about to be checked stands in the walk: the warps
 * running it, the loops around it (a partition and a map's body have their
 * own), the map and the combine region it is in. */
static void
locate(Verifier *v, const IrWalker *w)
{
	v->warps = ir_walk_warps(w);
	v->loops = 0;
	v->in_part = false;
	v->yield = v->map = NULL;
	bool own_loops = true;
	for (const IrNest *n = w->at; n; n = n->up) {
		const TInst *o = n->owner;
		if (own_loops && o && n->role == IR_BODY && (o->op == OP_FOR || o->op == OP_WHILE))
			v->loops++;
		if (n->role == IR_PARTITION || (o && o->op == OP_MAP))
			own_loops = false;
		v->in_part |= n->role == IR_PARTITION;
		if (o && o->op == OP_MAP && !v->map)
			v->map = o;
		if (n->role == IR_REGION && !v->yield)
			v->yield = n->block->insts[n->block->n - 1];
	}
}

/* In a map's body every value is one element: no tensor operands or
 * results. */
static bool
in_map(Verifier *v, const TInst *i)
{
	if (!v->map)
		return true;
	bool tensor = i->res && i->res->type->kind == TY_TENSOR;
	for (int k = 0; k < i->n_args; k++)
		tensor |= i->args[k]->type->kind == TY_TENSOR;
	return !tensor || vf_fail(v, i->at, "structure", "'%s' in a map's body uses or makes a "
	                          "tensor; the body computes single elements", ir_op_name(i->op));
}

/* Checks instruction i; after the first violation the rest of the kernel
 * is passed over. */
static IrStep
check_inst(IrWalker *w, TInst *i)
{
	Verifier *v = w->ctx;
	if (!v->ok)
		return IR_PASS;
	locate(v, w);
	int n = v->n_inst++;
	if (operands_visible(v, i) && check_var(v, i) && in_map(v, i) && vf_op(v, i))
		vf_smem_inst(v, i, n);
	if (i->res && i->res->type)
		vf_type(v, i->at, i->res->type, v->warps);
	if (check_nested(v, i))
		return IR_ON;
	define(v, i);
	return IR_PASS;
}

/* After i's blocks: a map's body ends in its yield; i's result is defined
 * from here on. */
static IrStep
end_inst(IrWalker *w, TInst *i)
{
	Verifier *v = w->ctx;
	if (i->op == OP_MAP && v->ok && (!i->body.n ||
	                                 i->body.insts[i->body.n - 1]->op != OP_MAP_YIELD))
		vf_fail(v, i->at, "structure", "a map's body ends in map_yield");
	define(v, i);
	return IR_ON;
}

/* A partition is walked while the kernel is valid; a combine region once
 * its values are defined. */
static IrStep
enter_block(IrWalker *w, const IrNest *n)
{
	Verifier *v = w->ctx;
	if (n->role == IR_PARTITION && !v->ok)
		return IR_PASS;
	if (n->role == IR_REGION && !vf_region_open(v, n->owner))
		return IR_PASS;
	return IR_ON;
}

/* The values a nested block defines stop being visible at its end; a
 * while's condition is a value of its condition block. */
static IrStep
leave_block(IrWalker *w, const IrNest *n)
{
	Verifier *v = w->ctx;
	const TInst *i = n->owner;
	if (!i)
		return IR_ON;
	if (n->role == IR_COND) {
		if (!i->cond_value || !defined_in(&i->cond_block, i->cond_value))
			vf_fail(v, i->at, "structure", "a while's condition is a value its condition "
			        "block defines");
		else if (i->cond_value->type->kind != TY_SCALAR || i->cond_value->type->dtype != DT_I1)
			vf_fail(v, i->at, "types", "a while's condition is i1, not %s",
			        vf_type_str(v, i->cond_value->type));
	}
	hide(v, n->block);
	if (n->role == IR_REGION)
		vf_region_close(v, i);
	return IR_ON;
}

/* Warps, partitions, parameters and variables of the kernel. */
static void
check_kernel(Verifier *v)
{
	const TKernel *k = v->k;
	int w = k->num_warps;
	if (w < 1 || w > 32 || (w & (w - 1)))
		vf_fail(v, k->at, "kernel", "num_warps is %d; it must be a power of two from 1 to 32",
		        w);
	if (k->total_warps < w || k->total_warps > 32 || (k->n_parts && k->total_warps % 4) ||
	    (!k->n_parts && k->total_warps != w))
		vf_fail(v, k->at, "partitions", "total_warps is %d; it counts the kernel's %d warps "
		        "and, when it warp-specializes, whole warpgroups up to 32 warps",
		        k->total_warps, w);
	for (int p = 0; p < k->n_params; p++) {
		const TParam *pm = &k->params[p];
		TTypeKind want = pm->kind == TP_PTR ? TY_PTR : pm->kind == TP_DESC ? TY_DESC : TY_SCALAR;
		if (!pm->type || pm->type->kind != want)
			vf_fail(v, k->at, "params", "parameter '%s' has a type of the wrong kind",
			        pm->name);
		else
			vf_type(v, k->at, pm->type, 0);
	}
	const TKernel *f = k->fast;
	bool same = !f || (f->generic == k && f->n_params == k->n_params && f->body.insts ==
	                   k->body.insts);
	for (int p = 0; same && f && p < k->n_params; p++)
		same = f->params[p].name == k->params[p].name && f->params[p].type == k->params[p].type;
	if (!same)
		vf_fail(v, k->at, "kernel", "the variant %s is not this kernel under other parameter "
		        "assumptions", f->name);
	for (int x = 0; x < k->n_vars; x++) {
		const TVar *var = k->vars[x];
		if (!var || var->id != x || !var->type || !is_variable_type(var->type))
			vf_fail(v, k->at, "variables", "variable %d: ids count from 0 and variables hold "
			        "scalars, pointers, register tensors, shared-memory views or tensor "
			        "descriptors", x);
		else
			vf_type(v, k->at, var->type, 0);
	}
}

static bool
verify_kernel(const TKernel *k, bool planned, bool internal, Diags *d)
{
	Verifier v = {.d = d, .a = arena_new(), .k = k, .ok = true, .planned = planned,
	              .internal = internal, .warps = k->num_warps};
	size_t n = k->n_values > 0 ? (size_t)k->n_values : 0;
	v.def = arena_alloc(v.a, (n + 1) * sizeof *v.def);
	v.visible = arena_alloc(v.a, n + 1);
	v.reach = arena_alloc(v.a, (n + 1) * sizeof *v.reach);
	v.created = arena_alloc(v.a, (size_t)(k->n_smem > 0 ? k->n_smem : 0) + 1);
	check_kernel(&v);
	if (v.ok)
		vf_allocs(&v);
	if (v.ok)
		ir_walk(&(IrWalker){.k = k, .ctx = &v, .pre = check_inst, .post = end_inst,
		                    .enter = enter_block, .leave = leave_block});
	if (v.ok && v.ws_parts != k->n_parts)
		vf_fail(&v, k->at, "partitions", "the kernel has %d partitions; its warp_specialize "
		        "calls run %d", k->n_parts, v.ws_parts);
	arena_free(v.a);
	return v.ok;
}

bool
ir_verify(const TProgram *p, bool planned, Diags *d)
{
	if (!ir_check_nesting(p, d))
		return false;
	bool ok = ir_names_distinct(p, p->built || planned, d);
	for (int i = 0; i < p->n_kernels; i++)
		ok &= verify_kernel(p->kernels[i], planned, p->built || planned, d);
	return ok;
}
