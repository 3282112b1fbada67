DRIVER_SRCS += driver/glc.c driver/option_values.c driver/options.c driver/usage.c driver/io.c driver/compile.c driver/run_passes.c driver/timer.c \
               driver/layout_cmd.c driver/cases.c driver/gluon.c driver/grid.c \
               driver/outputs.c driver/options_out.c driver/link_cmd.c \
               driver/cache.c driver/assemble.c
