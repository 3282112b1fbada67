# sema, room by room in the order they may include each other
# (docs/internals.md, the rooms table).
SEMA_SRCS += sema/value/value.c sema/value/budget.c sema/value/classes.c sema/value/builtin_table.c \
	sema/value/tl_table.c sema/value/libdevice_table.c sema/value/unsupported.c
SEMA_SRCS += sema/eval/expr.c sema/eval/subscript.c sema/eval/layout_api.c sema/eval/layout_ctor.c sema/eval/scope.c \
	sema/eval/values.c sema/eval/calls.c sema/eval/constexpr_fn.c sema/eval/pybuiltins.c \
	sema/eval/pymethods.c sema/eval/pymodule.c sema/eval/prelude.c sema/eval/aggregate.c \
	sema/eval/typeclass.c sema/eval/types.c sema/eval/dtype_attr.c
SEMA_SRCS += sema/emit/emit.c sema/emit/arith.c sema/emit/auto.c
SEMA_SRCS += sema/builtins/operands.c sema/builtins/tensor.c sema/builtins/math.c \
	sema/builtins/memory.c sema/builtins/shape.c sema/builtins/reduce.c sema/builtins/atomic.c \
	sema/builtins/hopper.c sema/builtins/mma.c sema/builtins/smem.c sema/builtins/desc.c \
	sema/builtins/debug.c sema/builtins/elementwise.c sema/builtins/bank_conflicts.c \
	sema/builtins/libdevice.c sema/builtins/libdevice_map.c sema/builtins/tl_ops.c \
	sema/builtins/tl_desc.c sema/builtins/tl_dot.c
SEMA_SRCS += sema/check/stmt.c sema/check/assign.c sema/check/returns.c sema/check/attrs.c \
	sema/check/dispatch.c sema/check/partition.c sema/check/hooks.c sema/check/signature.c \
	sema/check/ptr_use.c sema/check/kernel.c

# glc's tl prelude (triton.language's standard library written in tl),
# embedded as bytes into a generated source that sema/eval/prelude.c reads.
SEMA_PRELUDE = $(wildcard sema/prelude/*.py)
FRONT_GEN += $(B)/gen/sema/prelude_text.c

$(B)/gen/sema/prelude_text.c: $(SEMA_PRELUDE) sema/prelude/embed.sh
	@mkdir -p $(@D)
	sh sema/prelude/embed.sh $(SEMA_PRELUDE) > $@
