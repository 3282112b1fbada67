LAYOUT_SRCS += layout/ll_core.c layout/ll_solve.c layout/ll_fit.c layout/ll_build.c layout/ll_shared.c layout/ll_desc.c layout/ll_banks.c layout/ll_convert.c layout/ll_format.c layout/ll_svg.c
