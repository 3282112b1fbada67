LAYOUT_SRCS += layout/ll_core.c layout/ll_solve.c layout/ll_fit.c layout/ll_build.c layout/ll_shared.c layout/ll_desc.c
