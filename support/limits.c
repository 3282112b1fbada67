/*
 * The limits on glc's work, in one table: the option that sets each, its
 * default and the largest value it takes. docs/limits.md describes them.
 */
#include "support.h"

static const struct {
	const char *name;      /* the option without "--" */
	const char *what;
	uint64_t def, ceiling;
} LIMITS[LIM_COUNT_] = {
	[LIM_INPUT_BYTES] = {"max-input-bytes", "bytes of one input file",
	                     16u << 20, 1ull << 32},
	[LIM_OUTPUT_BYTES] = {"max-output-bytes", "bytes of one output",
	                      256u << 20, 1ull << 36},
	[LIM_UNROLL] = {"max-unroll", "static_range bodies unrolled in one kernel",
	                1u << 14, 1u << 24},
	[LIM_INLINE] = {"max-inline", "@gl.jit calls inlined into one kernel",
	                1u << 14, 1u << 24},
	[LIM_ELEMS_PER_THREAD] = {"max-elems-per-thread",
	                          "elements of one tensor held by each thread", 256, 1u << 16},
	[LIM_EVAL_STEPS] = {"max-eval-steps", "steps of compile-time evaluation",
	                    1u << 22, 1ull << 40},
	[LIM_EVAL_BYTES] = {"max-eval-bytes", "bytes allocated by compile-time evaluation "
	                    "and the kernels it builds", 1u << 30, 1ull << 38},
	[LIM_TOKENS] = {"max-tokens", "tokens of one source file", 1u << 20, 1ull << 32},
	[LIM_KERNEL_OPS] = {"max-kernel-ops", "weighted operations of one kernel's thread "
	                    "after unrolling", 1u << 18, 1ull << 40},
};

Limits
limits_default(void)
{
	Limits l;
	for (int i = 0; i < LIM_COUNT_; i++)
		l.max[i] = LIMITS[i].def;
	return l;
}

const char *
limit_name(LimitId id)
{
	return LIMITS[id].name;
}

const char *
limit_what(LimitId id)
{
	return LIMITS[id].what;
}

uint64_t
limit_ceiling(LimitId id)
{
	return LIMITS[id].ceiling;
}

void
diag_limit_note(Diags *d, Diag *parent, const Limits *l, LimitId id)
{
	diag_note(d, parent, (SrcSpan){0}, "the limit on %s is %llu; --%s=N raises it",
	          LIMITS[id].what, (unsigned long long)l->max[id], LIMITS[id].name);
}
