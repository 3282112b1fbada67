# parser: hand-written sources plus the bison parser generated into
# $(B)/gen/parser (grammar.c and its header grammar.h).
FRONT_SRCS += parser/build.c parser/literal.c parser/syntax_error.c parser/parse.c \
              parser/dump.c
FRONT_GEN  += $(B)/gen/parser/grammar.c

# One bison run writes both outputs (a grouped target).
$(B)/gen/parser/grammar.c $(B)/gen/parser/grammar.h &: parser/grammar.y
	@mkdir -p $(@D)
	$(BISON) -Wall -Werror --no-lines -o $(B)/gen/parser/grammar.c \
		--header=$(B)/gen/parser/grammar.h $<
