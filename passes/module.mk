# passes: the named passes over the typed IR and their order. Depends on
# ir/, layout/ and support/ only.
PASSES_SRCS += passes/pipeline.c passes/layout_infer.c passes/smem_plan.c passes/membar.c \
               passes/cvt_plan.c passes/axis.c passes/specialize.c \
               passes/coalesce.c passes/layout_soft.c passes/soft_clean.c
