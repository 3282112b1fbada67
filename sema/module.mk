SEMA_SRCS += sema/value/value.c sema/value/classes.c sema/value/builtin_table.c \
	sema/value/unsupported.c
SEMA_SRCS += sema/consteval.c sema/layout_ctor.c sema/types.c sema/emit.c \
	sema/arith.c sema/attrs.c sema/calls.c sema/scope.c sema/assign.c sema/stmt.c sema/kernel.c sema/hopper.c \
	sema/mma.c sema/auto.c sema/smem.c sema/pymodule.c sema/pybuiltins.c sema/constexpr_fn.c \
	sema/aggregate.c sema/signature.c sema/math.c sema/memory.c sema/debug.c \
	sema/returns.c sema/elementwise.c sema/ptr_use.c sema/pymethods.c
SEMA_SRCS += sema/reduce.c sema/shape.c sema/atomic.c sema/desc.c \
	sema/bank_conflicts.c sema/typeclass.c
