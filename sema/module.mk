# sema, room by room in the order they may include each other
# (docs/internals.md, the rooms table).
SEMA_SRCS += sema/value/value.c sema/value/classes.c sema/value/builtin_table.c \
	sema/value/unsupported.c
SEMA_SRCS += sema/eval/expr.c sema/eval/layout_api.c sema/eval/layout_ctor.c sema/eval/scope.c \
	sema/eval/values.c sema/eval/calls.c sema/eval/constexpr_fn.c sema/eval/pybuiltins.c \
	sema/eval/pymethods.c sema/eval/pymodule.c sema/eval/aggregate.c sema/eval/typeclass.c \
	sema/eval/types.c
SEMA_SRCS += sema/emit/emit.c sema/emit/arith.c sema/emit/auto.c
SEMA_SRCS += sema/builtins/operands.c sema/builtins/tensor.c sema/builtins/math.c \
	sema/builtins/memory.c sema/builtins/shape.c sema/builtins/reduce.c sema/builtins/atomic.c \
	sema/builtins/hopper.c sema/builtins/mma.c sema/builtins/smem.c sema/builtins/desc.c \
	sema/builtins/debug.c sema/builtins/elementwise.c sema/builtins/bank_conflicts.c
SEMA_SRCS += sema/check/stmt.c sema/check/assign.c sema/check/returns.c sema/check/attrs.c \
	sema/check/dispatch.c sema/check/partition.c sema/check/hooks.c sema/check/signature.c \
	sema/check/ptr_use.c sema/check/kernel.c
