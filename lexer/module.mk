# lexer: hand-written sources plus the re2c scanner generated into $(B)/gen.
FRONT_SRCS += lexer/tokens.c lexer/number.c
FRONT_GEN  += $(B)/gen/lexer/lexer.c

$(B)/gen/lexer/lexer.c: lexer/lexer.re
	@mkdir -p $(@D)
	$(RE2C) -W --no-generation-date -o $@ $<
