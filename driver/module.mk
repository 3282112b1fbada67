DRIVER_SRCS += driver/glc.c driver/options.c driver/io.c driver/layout_cmd.c
