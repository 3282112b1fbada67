/*
 * Names of Triton 3.6's Gluon that glc knows of but does not support, each
 * with the reason (and what to write instead, where there is something).
 *
 * Contract: sema_unsupported_reason(ns, name) is the reason for the member
 * `name` of the builtin namespace `ns` (as sema_builtin_name spells it:
 * "gl", "tma", "mbarrier", "hopper", ...), or NULL when glc has nothing to
 * say about it. It is consulted only where a lookup has already failed (a
 * `gl.NAME` that is no member, a `from ... import NAME` of a Gluon module),
 * so that the user reads "gl.float8e4b15 is not supported by glc: <reason>"
 * instead of "'gl' has no member". It never makes a name work. Keep it in
 * step with docs/coverage.md, whose `no` rows these are.
 */
#include "sema/value/value.h"

#include <string.h>

static const struct {
	const char *ns, *name, *reason;
} table[] = {
	{"gl", "warps_per_cta", "a host-side helper of _layouts.py; Triton's Gluon cannot call "
	                   "it in a kernel either"},
	{"gl", "bases_per_dim", "a host-side helper of _layouts.py; Triton's Gluon cannot call "
	                   "it in a kernel either"},
	{"gl", "builtin", "Triton's decorator for its own builtins (they take _semantic); "
	                  "glc does not run them"},
	{"gl", "float8e4b15", "Triton's software fp8 format for GPUs before sm_89 is not implemented"},
	{"gl", "float8e4b8", "AMD's fnuz fp8 format (Triton allows it only on AMD GPUs)"},
	{"gl", "float8e5b16", "AMD's fnuz fp8 format (Triton allows it only on AMD GPUs)"},
	{"tl", "float8e4b15", "Triton's software fp8 format for GPUs before sm_89 is not implemented"},
	{"tl", "float8e4b8", "AMD's fnuz fp8 format (Triton allows it only on AMD GPUs)"},
	{"tl", "float8e5b16", "AMD's fnuz fp8 format (Triton allows it only on AMD GPUs)"},
	{"tl", "slice", "Python's slice object in a kernel; tensors are not sliced in Triton "
	                "either"},
	{"tl", "constexpr_type", "the type of a constexpr, an internal of Triton's front end"},
	{"tl", "dot_scaled", "Hopper has no scaled MMA (Triton decomposes it into an upcast and "
	                     "tl.dot, which glc does not do yet); upcast the operands and call "
	                     "tl.dot"},
};

const char *
sema_unsupported_reason(const char *ns, const char *name)
{
	if (!ns || !name)
		return NULL;
	if (strcmp(ns, "ttgl") == 0)
		ns = "gl";
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (strcmp(table[i].ns, ns) == 0 && strcmp(table[i].name, name) == 0)
			return table[i].reason;
	return NULL;
}
