# Unit-test binaries: each is one .c file plus the objects of the modules it
# tests. A module adds itself with UNIT_TESTS += $(B)/unit/NAME and a link rule.
UNIT_TESTS += $(B)/unit/test_support

$(B)/unit/test_support: $(call obj,test/unit/test_support.c) $(SUPPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $^ -lm

UNIT_TESTS += $(B)/unit/test_json
$(B)/unit/test_json: $(call obj,test/unit/test_json.c) $(SUPPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $^ -lm

# The compile cache's store: package/cache.c alone, with Nettle.
UNIT_TESTS += $(B)/unit/test_cache
$(call obj,test/unit/test_cache.c): ALL_CFLAGS += $(LLVM_CFLAGS)
$(B)/unit/test_cache: $(call obj,test/unit/test_cache.c) $(B)/obj/package/cache.o $(SUPPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $^ $(HOST_LIBS) -lm

UNIT_TESTS += $(B)/unit/test_layout
$(B)/unit/test_layout: $(call obj,test/unit/test_layout.c) $(LAYOUT_OBJS) $(SUPPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $^ -lm

# libglrt: argument checks (test_runtime); the no-driver paths and a fake
# driver built next to the test (test_runtime_fake); and runtime_gpu, which
# needs a GPU, so that check.sh (running test_* only) leaves it out.
UNIT_TESTS += $(B)/unit/test_runtime $(B)/unit/test_runtime_fake $(B)/unit/runtime_gpu
$(B)/unit/test_runtime_fake: $(B)/unit/fake_libcuda.so
$(B)/unit/test_runtime $(B)/unit/test_runtime_fake $(B)/unit/runtime_gpu: \
		$(B)/unit/%: $(B)/obj/test/unit/%.o $(B)/libglrt.a
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $< $(B)/libglrt.a -ldl -pthread

$(B)/unit/fake_libcuda.so: test/unit/fake_libcuda.c test/unit/fake_libcuda.h runtime/cuda_abi.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fPIC -shared -o $@ $<

UNIT_TESTS += $(B)/unit/test_layout_plan
$(B)/unit/test_layout_plan: $(call obj,test/unit/test_layout_plan.c) $(LAYOUT_OBJS) $(SUPPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $^ -lm

# codegen and package: builds kernels with the LLVM helpers, runs ptxas,
# and links the launcher object it emits against libglrt.
UNIT_TESTS += $(B)/unit/test_codegen
$(call obj,test/unit/test_codegen.c): ALL_CFLAGS += $(LLVM_CFLAGS) -DCG_TEST_BUILD='"$(B)"' \
	-DCG_TEST_LDFLAGS='"$(LDSAN)"'
$(call obj,test/unit/test_codegen_lower.c): ALL_CFLAGS += $(LLVM_CFLAGS)
# package and codegen depend on passes/, ir/, layout/ and support/ only.
CG_TEST_OBJS = $(PACKAGE_OBJS) $(CODEGEN_OBJS) $(PASSES_OBJS) $(IR_OBJS) $(LAYOUT_OBJS) \
               $(SUPPORT_OBJS)
$(B)/unit/test_codegen: $(B)/unit/fake_libcuda.so
$(B)/unit/test_codegen: $(call obj,test/unit/test_codegen.c) $(CG_TEST_OBJS) $(B)/libglrt.a
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $(call obj,test/unit/test_codegen.c) $(CG_TEST_OBJS) \
		$(B)/libglrt.a $(LLVM_LIBS) $(HOST_LIBS) -ldl -pthread -lm

# codegen's lowering of hand-built typed programs (no front end involved).
UNIT_TESTS += $(B)/unit/test_codegen_lower
$(B)/unit/test_codegen_lower: $(call obj,test/unit/test_codegen_lower.c) $(CG_TEST_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $^ $(LLVM_LIBS) $(HOST_LIBS) -lm

UNIT_TESTS += $(B)/unit/test_layout_fit
$(B)/unit/test_layout_fit: $(call obj,test/unit/test_layout_fit.c) $(LAYOUT_OBJS) $(SUPPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $^ -lm

UNIT_TESTS += $(B)/unit/test_layout_parse
$(B)/unit/test_layout_parse: $(call obj,test/unit/test_layout_parse.c) $(LAYOUT_OBJS) $(SUPPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $^ -lm

# ir: the verifier on IR read from text.
UNIT_TESTS += $(B)/unit/test_ir
$(B)/unit/test_ir: $(call obj,test/unit/test_ir.c) $(IR_OBJS) $(LAYOUT_OBJS) $(SUPPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $^ -lm

UNIT_TESTS += $(B)/unit/test_layout_padded
$(B)/unit/test_layout_padded: $(call obj,test/unit/test_layout_padded.c) $(LAYOUT_OBJS) $(SUPPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $^ -lm

UNIT_TESTS += $(B)/unit/test_layout_cga
$(B)/unit/test_layout_cga: $(call obj,test/unit/test_layout_cga.c) $(LAYOUT_OBJS) $(SUPPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $^ -lm
