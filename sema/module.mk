SEMA_SRCS += sema/value/value.c sema/value/classes.c sema/value/builtin_table.c \
	sema/value/unsupported.c
SEMA_SRCS += sema/eval/expr.c sema/eval/layout_api.c sema/eval/layout_ctor.c sema/eval/scope.c \
	sema/eval/values.c sema/eval/calls.c sema/eval/constexpr_fn.c sema/eval/pybuiltins.c \
	sema/eval/pymethods.c sema/eval/pymodule.c sema/eval/aggregate.c sema/eval/typeclass.c \
	sema/eval/types.c
SEMA_SRCS += sema/emit/emit.c sema/emit/arith.c sema/emit/auto.c
SEMA_SRCS += sema/builtins/tensor.c sema/math.c sema/memory.c sema/shape.c sema/reduce.c \
	sema/atomic.c sema/hopper.c sema/mma.c sema/smem.c sema/desc.c sema/debug.c \
	sema/elementwise.c sema/bank_conflicts.c
SEMA_SRCS += sema/attrs.c sema/assign.c sema/stmt.c sema/returns.c sema/kernel.c \
	sema/signature.c sema/ptr_use.c sema/check/dispatch.c sema/check/hooks.c
