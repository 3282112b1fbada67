DRIVER_SRCS += driver/glc.c
