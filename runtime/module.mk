# libglrt: the launch runtime. It links no compiler code and needs no CUDA
# headers; objects are position-independent so the archive can go into a
# shared library.
RUNTIME_SRCS := runtime/error.c runtime/driver.c runtime/module.c \
                runtime/launch.c runtime/tensor_map.c runtime/memory.c \
                runtime/image.c
RUNTIME_OBJS := $(patsubst %.c,$(B)/obj/%.o,$(RUNTIME_SRCS))

$(B)/obj/runtime/%.o: runtime/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fPIC -c -o $@ $<

$(B)/libglrt.a: $(RUNTIME_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $(RUNTIME_OBJS)

# The shared library (soname libglrt.so.0), for programs and Python
# packages that load glc-built kernels at run time.
$(B)/libglrt.so: $(RUNTIME_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -shared -Wl,-soname,libglrt.so.0 -o $@ $(RUNTIME_OBJS) -ldl -pthread
