/*
 * Names of Triton 3.6's Gluon that glc knows of but does not support, each
 * with the reason (and what to write instead, where there is something).
 *
 * Contract: sema_unsupported_reason(ns, name) is the reason for the member
 * `name` of the builtin namespace `ns` (as sema_builtin_name spells it:
 * "gl", "tma", "mbarrier", "hopper", ...), or NULL when glc has nothing to
 * say about it. It is consulted only where a lookup has already failed (a
 * `gl.NAME` that is no member, a `from ... import NAME` of a Gluon module),
 * so that the user reads "gl.bank_conflicts is not supported by glc: <reason>"
 * instead of "'gl' has no member". It never makes a name work. Keep it in
 * step with docs/coverage.md, whose `no` rows these are.
 */
#include "sema/check.h"

#include <string.h>

/* What the type classes have in common. */
#define NO_TYPE_OBJECTS "glc's compile-time Python has no Gluon type objects to construct or test " \
	"with isinstance (compare x.dtype, x.type.shape, x.type.layout instead)"
#define ANNOTATION_ONLY "it is accepted only as an @aggregate field annotation (annotations are " \
	"not evaluated); glc has no class object for isinstance"

static const struct {
	const char *ns, *name, *reason;
} table[] = {
	{"gl", "DistributedLayout", "the layout base classes are not values in glc; test "
	                            "isinstance(layout, gl.BlockedLayout) and the like"},
	{"gl", "SharedLayout", "the layout base classes are not values in glc; test "
	                       "isinstance(layout, gl.NVMMASharedLayout) and the like"},
	{"gl", "warps_per_cta", "a host-side helper of _layouts.py; Triton's Gluon cannot call "
	                   "it in a kernel either"},
	{"gl", "bases_per_dim", "a host-side helper of _layouts.py; Triton's Gluon cannot call "
	                   "it in a kernel either"},
	{"gl", "builtin", "Triton's decorator for its own builtins (they take _semantic); "
	                  "glc does not run them"},
	{"gl", "float8e4b15", "Triton's software fp8 format for GPUs before sm_89 is not implemented"},
	{"gl", "float8e4b8", "AMD's fnuz fp8 format (Triton allows it only on AMD GPUs)"},
	{"gl", "float8e5b16", "AMD's fnuz fp8 format (Triton allows it only on AMD GPUs)"},
	{"gl", "tensor", ANNOTATION_ONLY},
	{"gl", "shared_memory_descriptor", ANNOTATION_ONLY},
	{"gl", "base_value", NO_TYPE_OBJECTS},
	{"gl", "base_type", NO_TYPE_OBJECTS},
	{"gl", "block_type", NO_TYPE_OBJECTS},
	{"gl", "dtype", NO_TYPE_OBJECTS},
	{"gl", "void", "glc has no void dtype value"},
	{"gl", "pointer_type", "glc has no pointer-type values: a pointer's type comes from the "
	                       "signature (*fp16), its element type from p.dtype.element_ty; pointers "
	                       "cannot be cast"},
	{"gl", "tuple", NO_TYPE_OBJECTS},
	{"gl", "tuple_type", NO_TYPE_OBJECTS},
	{"gl", "distributed_type", NO_TYPE_OBJECTS},
	{"gl", "shared_memory_descriptor_type", NO_TYPE_OBJECTS},
	{"tma", "tensor_descriptor", ANNOTATION_ONLY},
	{"tma", "tensor_descriptor_type", NO_TYPE_OBJECTS},
	{"hopper", "warpgroup_mma_accumulator", "glc's asynchronous WGMMA results are plain tensors; "
	                                        "there is no accumulator class (it is accepted only "
	                                        "as an @aggregate field annotation)"},
	{"hopper", "warpgroup_mma_accumulator_type", "glc's asynchronous WGMMA results are plain "
	                                             "tensors; there is no accumulator type"},
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
