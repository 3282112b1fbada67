DRIVER_SRCS += driver/glc.c driver/options.c driver/io.c driver/compile.c driver/layout_cmd.c driver/cases.c
