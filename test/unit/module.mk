# Unit-test binaries: each is one .c file plus the objects of the modules it
# tests. A module adds itself with UNIT_TESTS += $(B)/unit/NAME and a link rule.
UNIT_TESTS += $(B)/unit/test_support

$(B)/unit/test_support: $(call obj,test/unit/test_support.c) $(SUPPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $^ -lm

.PHONY: unit
unit: $(UNIT_TESTS)

UNIT_TESTS += $(B)/unit/test_layout
$(B)/unit/test_layout: $(call obj,test/unit/test_layout.c) $(LAYOUT_OBJS) $(SUPPORT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -o $@ $^ -lm
