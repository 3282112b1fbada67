/*
 * membar: the CTA barriers that shared memory needs, placed as Triton's
 * Membar pass places them, so that a Gluon kernel written for Triton (which
 * relies on that pass) runs correctly as it is. Walking each kernel (and
 * each warp_specialize partition, whose barriers are its own) in program
 * order, the pass keeps the shared-memory accesses made since the last
 * barrier; an access that conflicts with one of them (the same bytes, one
 * of the two a write) gets a thread_barrier right before it, which clears
 * them. Loops are walked until what reaches their head stops growing (an
 * access late in the body meets one early in the next iteration); the two
 * arms of an if are walked from the same state and joined.
 *
 * Asynchronous accesses count from their completion, not their issue: a
 * barrier does not order them. A TMA store's read completes at
 * tma.store_wait (on the leader thread), a cp.async write at
 * async_copy.wait_group (or, with async_copy.mbarrier_arrive, on the
 * mbarrier, as a TMA load's write does), an asynchronous WGMMA's read at
 * warpgroup_mma_wait. So a buffer refilled after tma.store_wait gets its
 * barrier after the wait, where it orders something.
 *
 * Bytes are those a view holds, at the offsets smem-plan gave its
 * allocation (dead allocations' bytes are reused, so an access to one
 * allocation can conflict with an access to another). A view whose origin
 * is known (views with constant offsets of an allocation, without leading
 * buffer dims) holds an affine set of bytes over GF(2): its origin XOR the
 * span of its elements' offsets (ir_smem_place), so disjoint slices,
 * strided or not, and different buffers of one allocation do not conflict;
 * other views (a runtime .index, a view read from a variable) hold their
 * whole allocation. Some conflicting
 * pairs need no barrier:
 *   - both issued by the partition's leader thread (mbarrier init, expect,
 *     arrive, invalidate; TMA copies), which runs them in order;
 *   - a write that completes on an mbarrier (TMA loads, cp.async with
 *     mbarrier_arrive): a thread that waits on it sees the data whatever
 *     other threads do;
 *   - mbarrier waits, expects and TMA loads' arrivals among themselves, in
 *     any order on different threads, except a wait after a wait (a warp
 *     that ran ahead could miss a phase);
 *   - a WGMMA's read of its shared operands in a partition of at most one
 *     warpgroup: warpgroup_mma_wait retires it for the whole warpgroup.
 * And one barrier is needed whatever the bytes: before the leader's
 * mbarrier.arrive, which arrives for the whole partition, while another
 * thread's access (other than an mbarrier wait) is pending, as the newer
 * Triton's Membar treats an arrive as a publication.
 * Ops that use scratch memory of their own (convert_layout, reductions...)
 * synchronize it in code generation and are not accesses here.
 */
#include "passes/passes.h"

#include <string.h>

enum { MAX_SPAN = 32 };

typedef struct Access {
	int64_t lo, hi;    /* bytes [lo, hi) of shared memory */
	/* exact: the bytes are those of allocation `alloc` at offsets
	 * org ^ s, s in the span of span[0..n_span) (relative to its start) */
	bool exact;
	int alloc;
	uint32_t org;
	int n_span;
	uint32_t span[MAX_SPAN];
	TOp op;
	bool write;
	bool leader;       /* issued by the partition's leader thread only */
	bool on_barrier;   /* the mbarrier operand of a TMA load */
} Access;

typedef VEC(Access) Accesses;

typedef struct State {
	Accesses done;     /* completed since the last barrier */
	Accesses flight;   /* issued asynchronously, not yet completed */
} State;

typedef struct Loop {
	State escaped;     /* states at break and continue */
} Loop;

typedef struct Membar {
	Arena *a;
	TKernel *k;
	const TInst **def;  /* the instruction defining each value */
	IrWalker w;        /* the walk, at the access being looked at */
	State *s;          /* the state of the block being walked */
	Loop *loop;        /* innermost loop, or NULL */
	int inserted;
} Membar;

static bool
same_access(const Access *x, const Access *y)
{
	return x->lo == y->lo && x->hi == y->hi && x->op == y->op && x->write == y->write &&
	       x->leader == y->leader && x->on_barrier == y->on_barrier &&
	       x->exact == y->exact && (!x->exact || (x->alloc == y->alloc && x->org == y->org &&
	       x->n_span == y->n_span &&
	       memcmp(x->span, y->span, (size_t)x->n_span * sizeof *x->span) == 0));
}

/* Adds x to s unless s has it. */
static void
add(Membar *mb, Accesses *s, Access x)
{
	for (size_t i = 0; i < s->len; i++)
		if (same_access(&s->data[i], &x))
			return;
	vec_push(mb->a, s, x);
}

static void
join(Membar *mb, State *into, const State *from)
{
	for (size_t i = 0; i < from->done.len; i++)
		add(mb, &into->done, from->done.data[i]);
	for (size_t i = 0; i < from->flight.len; i++)
		add(mb, &into->flight, from->flight.data[i]);
}

static size_t
size(const State *s)
{
	return s->done.len + s->flight.len;
}

/* The accesses in flight that op completes move to done; with drop, they
 * complete on an mbarrier instead and are forgotten. */
static void
complete(Membar *mb, State *s, TOp op, bool drop)
{
	size_t kept = 0;
	for (size_t i = 0; i < s->flight.len; i++) {
		Access x = s->flight.data[i];
		if (x.op != op)
			s->flight.data[kept++] = x;
		else if (!drop)
			add(mb, &s->done, x);
	}
	s->flight.len = kept;
}

static State
copy(Membar *mb, const State *s)
{
	State c = {0};
	join(mb, &c, s);
	return c;
}

/* The bytes from its allocation's start to the pointer of view v, when
 * constant views lead to it from the allocation. */
static bool
view_start(const Membar *mb, const TValue *v, int64_t *rel)
{
	*rel = 0;
	for (;;) {
		const TInst *d = mb->def[v->id];
		if (d && d->op == OP_SMEM_ALLOC)
			return true;
		if (!d || d->op != OP_SMEM_VIEW || d->n_args != 1)
			return false;
		*rel += d->attr.offset * (ir_dtype_bits(d->res->type->dtype) / 8);
		v = d->args[0];
	}
}

/* The exact bytes of view v into x (see the top of the file), when its
 * start is known and its region aligned to its size (not for a padded
 * layout, whose offsets are not linear: such a view counts as its whole
 * allocation). */
static void
exact_bytes(const Membar *mb, const TValue *v, Access *x)
{
	const TType *t = v->type;
	int64_t rel, origin, eb = ir_dtype_bits(t->dtype) / 8;
	int64_t region = ir_smem_span(t) * eb;
	LLayout place;
	if (t->kind != TY_SMEM || t->layout.ll.n_out != t->rank || ir_dtype_bits(t->dtype) < 8 ||
	    (t->layout.desc && t->layout.desc->kind == LL_PADDED_SHARED) ||
	    !view_start(mb, v, &rel) || rel % region || !ir_smem_place(t, &place, &origin, NULL))
		return;
	int off = ll_out_index(&place, LL_OFFSET), n = 0;
	for (int b = 1; b < eb; b <<= 1)
		x->span[n++] = (uint32_t)b;
	for (int i = 0; i < place.n_in; i++)
		for (int b = 0; b < place.in_bits[i]; b++) {
			uint32_t o[LL_MAX_DIMS];
			ll_get_basis(&place, i, b, o);
			if (n == MAX_SPAN)
				return;
			x->span[n++] = o[off] * (uint32_t)eb;
		}
	x->exact = true;
	x->alloc = t->alloc;
	x->org = (uint32_t)(rel ^ origin * eb);
	x->n_span = n;
	x->lo += rel;
	x->hi = x->lo + region;
}

/* The access of operand v (a buffer or mbarrier view) by op. */
static Access
access_of(const Membar *mb, const TValue *v, TOp op, bool write, bool leader)
{
	const TSmemAlloc *s = &mb->k->smem[v->type->alloc];
	Access x = {.lo = s->offset, .hi = s->offset + s->bytes, .op = op, .write = write,
	            .leader = leader};
	exact_bytes(mb, v, &x);
	return x;
}

/* Whether y lies in the span of the vectors v[0..n) (over GF(2)). */
static bool
in_span(const uint32_t *v, int n, uint32_t y)
{
	uint32_t basis[2 * MAX_SPAN];
	int nb = 0;
	for (int i = 0; i < n; i++) {
		uint32_t x = v[i];
		for (int j = 0; j < nb; j++)
			if ((x ^ basis[j]) < x)
				x ^= basis[j];
		if (!x)
			continue;
		int k = nb++;
		while (k > 0 && basis[k - 1] < x) {
			basis[k] = basis[k - 1];
			k--;
		}
		basis[k] = x;
	}
	for (int j = 0; j < nb; j++)
		if ((y ^ basis[j]) < y)
			y ^= basis[j];
	return y == 0;
}

/* Whether accesses x and y may touch a common byte. */
static bool
overlap(const Access *x, const Access *y)
{
	if (x->hi <= y->lo || y->hi <= x->lo)
		return false;
	if (!x->exact || !y->exact || x->alloc != y->alloc)
		return true;
	uint32_t v[2 * MAX_SPAN];
	memcpy(v, x->span, (size_t)x->n_span * sizeof *v);
	memcpy(v + x->n_span, y->span, (size_t)y->n_span * sizeof *v);
	return in_span(v, x->n_span + y->n_span, x->org ^ y->org);
}

static bool
is_smem(const TValue *v)
{
	return v && (v->type->kind == TY_SMEM || v->type->kind == TY_MBARRIER);
}

/* The shared-memory accesses of in (at most 2) into out; their number.
 * *async: they complete later (OP_TMA_STORE, OP_ASYNC_COPY, an
 * asynchronous OP_WGMMA). */
static int
accesses(const Membar *mb, const TInst *in, Access *out, bool *async)
{
	*async = in->op == OP_TMA_STORE || in->op == OP_ASYNC_COPY ||
	         (in->op == OP_WGMMA && in->attr.is_async);
	switch (in->op) {
	case OP_SMEM_ALLOC:
		if (in->n_args == 0)
			return 0;
		out[0] = (Access){.op = in->op, .write = true};
		const TSmemAlloc *s = &mb->k->smem[in->attr.alloc];
		out[0].lo = s->offset;
		out[0].hi = s->offset + s->bytes;
		return 1;
	case OP_SMEM_LOAD:
	case OP_MBAR_WAIT:
		out[0] = access_of(mb, in->args[0], in->op, false, false);
		return 1;
	case OP_SMEM_STORE:
	case OP_ASYNC_COPY:
		out[0] = access_of(mb, in->args[0], in->op, true, false);
		return 1;
	case OP_ASYNC_MBAR_ARRIVE:
		out[0] = access_of(mb, in->args[0], OP_MBAR_ARRIVE, true, false);
		return 1;
	case OP_MBAR_INIT:
	case OP_MBAR_INVALIDATE:
	case OP_MBAR_EXPECT:
	case OP_MBAR_ARRIVE:
		out[0] = access_of(mb, in->args[0], in->op, true, true);
		return 1;
	case OP_TMA_LOAD:
		out[0] = access_of(mb, in->args[1], in->op, true, true);
		out[0].on_barrier = true;
		out[1] = access_of(mb, in->args[2], in->op, true, true);
		return 2;
	case OP_TMA_STORE:
		out[0] = access_of(mb, in->args[1], in->op, false, true);
		return 1;
	case OP_WGMMA: {
		int n = 0;
		for (int i = 0; i < 2; i++)
			if (is_smem(in->args[i]))
				out[n++] = access_of(mb, in->args[i], in->op, false, false);
		return n;
	}
	default:
		return 0;
	}
}

/* Mbarrier operations that may run in any order on different threads. */
static bool
commutes(const Access *x)
{
	return x->op == OP_MBAR_WAIT || x->op == OP_MBAR_EXPECT ||
	       (x->op == OP_TMA_LOAD && x->on_barrier);
}

/* Whether x is a WGMMA read that warpgroup_mma_wait retires for every
 * thread that could touch the bytes: the partition is one warpgroup. */
static bool
retired_by_wait(const Membar *mb, const Access *x)
{
	return x->op == OP_WGMMA && ir_walk_warps(&mb->w) <= 4;
}

/* Whether the leader's mbarrier.arrive at `after` would publish an access
 * of another thread that may not have happened yet: the arrival stands for
 * the whole partition (Triton: an arrive is a publication), so every
 * pending access of its threads but the waits must be done before it. */
static bool
unpublished(const Membar *mb, const Access *before, const Access *after)
{
	return after->op == OP_MBAR_ARRIVE && after->leader && !before->leader &&
	       before->op != OP_MBAR_WAIT && !retired_by_wait(mb, before);
}

/* Whether `after` needs a barrier between it and the earlier `before`. */
static bool
conflicts(const Membar *mb, const Access *before, const Access *after)
{
	if (unpublished(mb, before, after))
		return true;
	if (!overlap(before, after))
		return false;
	if (!before->write && !after->write)
		return false;
	if (before->leader && after->leader)
		return false;
	if (before->op == OP_TMA_LOAD && !before->on_barrier)
		return false;
	if (commutes(before) && commutes(after) &&
	    !(before->op == OP_MBAR_WAIT && after->op == OP_MBAR_WAIT))
		return false;
	return !retired_by_wait(mb, before);
}

/* Walks block n of the instruction being looked at from state s. */
static void
walk(Membar *mb, IrNest *n, State *s)
{
	State *outer = mb->s;
	mb->s = s;
	ir_walk_nest(&mb->w, n);
	mb->s = outer;
}

static void
walk_loop(Membar *mb, TInst *in, State *s)
{
	Loop loop = {0}, *outer = mb->loop;
	mb->loop = &loop;
	State head = copy(mb, s), exit = {0};
	for (;;) {
		size_t before = size(&head);
		State it = copy(mb, &head);
		IrNest n;
		for (int i = 0; ir_nest(mb->k, in, i, &n); i++) {
			walk(mb, &n, &it);
			if (n.role == IR_COND)   /* the loop leaves after its condition */
				join(mb, &exit, &it);
		}
		join(mb, &head, &it);
		join(mb, &head, &loop.escaped);
		if (size(&head) == before)
			break;
	}
	mb->loop = outer;
	join(mb, &head, &exit);
	*s = head;
}

/* One instruction from the state of its block: control flow walks its
 * blocks here (what else owns blocks computes on scalars), every access
 * gets the barrier it needs. */
static IrStep
visit(IrWalker *w, TInst *in)
{
	Membar *mb = w->ctx;
	State *s = mb->s;
	IrNest n;
	switch (in->op) {
	case OP_THREAD_BARRIER:
		s->done.len = 0;
		return IR_PASS;
	case OP_TMA_STORE_WAIT:
		complete(mb, s, OP_TMA_STORE, false);
		return IR_PASS;
	case OP_ASYNC_WAIT:
		complete(mb, s, OP_ASYNC_COPY, false);
		return IR_PASS;
	case OP_ASYNC_MBAR_ARRIVE:
		complete(mb, s, OP_ASYNC_COPY, true);
		break;
	case OP_WGMMA_WAIT:
		complete(mb, s, OP_WGMMA, false);
		return IR_PASS;
	case OP_FOR:
	case OP_WHILE:
		walk_loop(mb, in, s);
		return IR_PASS;
	case OP_IF: {
		State other = copy(mb, s);
		ir_nest(mb->k, in, 0, &n);
		walk(mb, &n, s);
		if (ir_nest(mb->k, in, 1, &n))
			walk(mb, &n, &other);
		join(mb, s, &other);
		return IR_PASS;
	}
	case OP_BREAK:
	case OP_CONTINUE:
		if (mb->loop)
			join(mb, &mb->loop->escaped, s);
		return IR_PASS;
	case OP_WARP_SPECIALIZE: {
		/* Code generation starts the partitions after a barrier of all
		 * warps and joins them with another; each partition starts
		 * afresh, outside any loop. */
		Loop *outer = mb->loop;
		mb->loop = NULL;
		for (int i = 0; ir_nest(mb->k, in, i, &n); i++) {
			State fresh = {0};
			walk(mb, &n, &fresh);
		}
		mb->loop = outer;
		s->done.len = s->flight.len = 0;
		return IR_PASS;
	}
	default:
		break;
	}
	Access acc[2];
	bool async;
	int na = accesses(mb, in, acc, &async);
	bool sync = false;
	for (int i = 0; i < na && !sync; i++)
		for (size_t j = 0; j < s->done.len && !sync; j++)
			sync = conflicts(mb, &s->done.data[j], &acc[i]);
	if (sync) {
		ir_walk_insert(w, mb->a, ir_inst_new(mb->a, OP_THREAD_BARRIER, in->at));
		mb->inserted++;
		s->done.len = 0;
	}
	for (int i = 0; i < na; i++)
		add(mb, async ? &s->flight : &s->done, acc[i]);
	return IR_PASS;
}

static IrStep
record_def(IrWalker *w, TInst *in)
{
	const TInst **def = w->ctx;
	if (in->res)
		def[in->res->id] = in;
	return IR_ON;
}

bool
pass_membar(TProgram *p, Arena *a, Diags *d)
{
	bool replan = false;
	for (int i = 0; i < p->n_kernels; i++) {
		TKernel *k = p->kernels[i];
		Membar mb = {.a = a, .k = k};
		mb.def = arena_alloc(a, (size_t)(k->n_values + 1) * sizeof *mb.def);
		ir_walk(&(IrWalker){.k = k, .ctx = mb.def, .pre = record_def});
		State s = {0};
		mb.s = &s;
		mb.w = (IrWalker){.k = k, .ctx = &mb, .pre = visit};
		ir_walk(&mb.w);
		replan = replan || mb.inserted > 0;
	}
	/* The barriers moved the instruction numbers that live ranges use;
	 * renumbering them keeps every overlap, hence every offset. */
	return !replan || pass_smem_plan(p, a, d);
}
