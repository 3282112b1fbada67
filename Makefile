# glc build. `make` builds build/glc; `make demo` and `make check` first install
# missing Debian build dependencies (.ci/deps), see README.md.
#
# Each module lists its sources in its own module.mk; this file holds the rules.
# B selects the build folder (helpers and the sanitizer build use their own).

B           ?= build
CC          ?= cc
LLVM_CONFIG ?= llvm-config-22
RE2C        ?= re2c
BISON       ?= bison
LLVM_BIN    ?= /usr/lib/llvm-22/bin
LIT         ?= $(LLVM_BIN)/lit
FUZZ_CC     ?= clang
SAN         ?=

WARN     = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
CFLAGS  ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -I. -I$(B)/gen -MMD -MP
ifeq ($(SAN),1)
ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDSAN       = -fsanitize=address,undefined
endif

.DEFAULT_GOAL := all

# Filled in by the module fragments.
SUPPORT_SRCS :=
LAYOUT_SRCS  :=
FRONT_SRCS   :=
FRONT_GEN    :=
SEMA_SRCS    :=
IR_SRCS      :=
PASSES_SRCS  :=
CODEGEN_SRCS :=
PACKAGE_SRCS :=
DRIVER_SRCS  :=
UNIT_TESTS   :=

include support/module.mk
include layout/module.mk
include lexer/module.mk
include parser/module.mk
include sema/module.mk
include ir/module.mk
include passes/module.mk
include codegen/module.mk
include package/module.mk
include driver/module.mk
include runtime/module.mk
include dist/install.mk
obj = $(patsubst %.c,$(B)/obj/%.o,$(1))
GEN_OBJS     = $(patsubst $(B)/gen/%.c,$(B)/obj/gen/%.o,$(FRONT_GEN))
SUPPORT_OBJS = $(call obj,$(SUPPORT_SRCS))
LAYOUT_OBJS  = $(call obj,$(LAYOUT_SRCS))
FRONT_OBJS   = $(call obj,$(FRONT_SRCS)) $(GEN_OBJS)
SEMA_OBJS    = $(call obj,$(SEMA_SRCS))
IR_OBJS      = $(call obj,$(IR_SRCS))
PASSES_OBJS  = $(call obj,$(PASSES_SRCS))
CODEGEN_OBJS = $(call obj,$(CODEGEN_SRCS))
PACKAGE_OBJS = $(call obj,$(PACKAGE_SRCS))
DRIVER_OBJS  = $(call obj,$(DRIVER_SRCS))
GLC_OBJS     = $(DRIVER_OBJS) $(PACKAGE_OBJS) $(CODEGEN_OBJS) $(PASSES_OBJS) $(SEMA_OBJS) $(FRONT_OBJS) \
               $(IR_OBJS) $(LAYOUT_OBJS) $(SUPPORT_OBJS)

include test/unit/module.mk

# Every unit-test binary (the list is complete only after the include).
unit: $(UNIT_TESTS)

.PHONY: all deps demo check fuzz fuzz-build clean unit layering install
all: $(B)/glc $(B)/libglrt.a $(B)/libglrt.so

# Only codegen and package compile against LLVM's headers; glc links LLVM.
# llvm-config runs once, when a rule first needs its answer (not at all for
# rules that do not, and after `make deps` has installed it).
LLVM_CFLAGS = $(eval LLVM_CFLAGS := $$(shell $$(LLVM_CONFIG) --cflags))$(LLVM_CFLAGS)
LLVM_LIBS   = $(eval LLVM_LIBS := $$(shell $$(LLVM_CONFIG) --ldflags --libs) \
              -Wl,-rpath,$$(shell $$(LLVM_CONFIG) --libdir))$(LLVM_LIBS)
$(CODEGEN_OBJS) $(PACKAGE_OBJS): ALL_CFLAGS += $(LLVM_CFLAGS)
# The compile cache's SHA-256 (package/cache.c) is Nettle's (Debian's nettle-dev);
# ptxas runs in threads (driver/assemble.c).
HOST_LIBS = -lnettle -pthread

# glc itself links the LLVM components it uses statically (LLVM_LINK=static,
# the default): a run then starts in a few milliseconds, where relocating and
# initializing all of libLLVM.so takes about 15 ms of CPU, which a compile
# cache hit would otherwise spend mostly on starting (bench/RESULTS.md).
# LLVM_LINK=shared links libLLVM.so as the unit tests do. (-lzstd names the
# library as zstd's runtime package installs it, without its -dev symlink.)
LLVM_LINK ?= static
LLVM_COMPONENTS = core analysis passes bitreader bitwriter linker ipo irreader transformutils \
                  target mc support nvptx x86
GLC_LLVM_LIBS_shared = $(LLVM_LIBS)
GLC_LLVM_LIBS_static = $(eval GLC_LLVM_LIBS_static := $$(shell $$(LLVM_CONFIG) --link-static \
                       --ldflags --libs $$(LLVM_COMPONENTS)) $$(patsubst -lzstd,-l:libzstd.so.1,\
                       $$(shell $$(LLVM_CONFIG) --link-static --system-libs)) -lstdc++ \
                       -Wl,--gc-sections)$(GLC_LLVM_LIBS_static)

$(B)/glc: $(GLC_OBJS)
	$(CC) $(LDSAN) -o $@ $(GLC_OBJS) $(GLC_LLVM_LIBS_$(LLVM_LINK)) $(HOST_LIBS) -lm

$(B)/obj/gen/%.o: $(B)/gen/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Wno-unused-function -c -o $@ $<

$(B)/obj/%.o: %.c | $(FRONT_GEN)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

deps:
	@sh .ci/deps

demo: deps
	@sh test/demo.sh

# The whole suite: unit tests and lit goldens on the normal build, again on
# the ASan+UBSan build, then a bounded fuzz run. The last line is the total.
check: deps
	@sh test/check.sh

# Every #include against the module graph of docs/internals.md.
layering:
	@python3 test/layering.py --sizes

# Fuzzing (libFuzzer; clang with compiler-rt). Each fuzz target adds itself
# to FUZZ_TARGETS. Every target starts from its corpus in build/fuzz/, the
# checked-in corpus test/fuzz/corpus (reproducers of what fuzzing found, so
# that every run replays them), the examples and every .gl input of the
# tests (build/fuzz/seeds), and its own seeds when it has some
# (build/fuzz/seeds-NAME). `make check` runs each for a share of
# FUZZ_SECONDS (60 in all); `make fuzz` runs each for FUZZ_SECONDS_EACH
# seconds (default 3600; FUZZ_SECONDS is the older name), or only those
# named in FUZZ_ONLY ("fuzz_ir fuzz_gluon"), and prints libFuzzer's final
# stats (execs, coverage), as recorded in bench/RESULTS.md.
FUZZ_FLAGS = -std=c11 -D_GNU_SOURCE -g -O1 -I. -I$(B)/gen \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_TARGETS = $(B)/fuzz/fuzz_front
FUZZ_FRONT_SRCS = test/fuzz/fuzz_front.c $(SUPPORT_SRCS) $(FRONT_SRCS) $(FRONT_GEN)

$(B)/fuzz/fuzz_front: $(FUZZ_FRONT_SRCS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(FUZZ_FRONT_SRCS)

FUZZ_TARGETS += $(B)/fuzz/fuzz_sema
FUZZ_SEMA_SRCS = test/fuzz/fuzz_sema.c $(SUPPORT_SRCS) $(LAYOUT_SRCS) $(FRONT_SRCS) \
	$(FRONT_GEN) $(SEMA_SRCS) $(IR_SRCS)

$(B)/fuzz/fuzz_sema: $(FUZZ_SEMA_SRCS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(FUZZ_SEMA_SRCS) -lm

# Gluon .py files: parsed with their host code and specialized as -n/-s ask
# (test/fuzz/fuzz_gluon.c); seeded with the Gluon tests, each headed by the
# kernel and signatures of its RUN lines.
FUZZ_TARGETS += $(B)/fuzz/fuzz_gluon
FUZZ_GLUON_SRCS = test/fuzz/fuzz_gluon.c $(SUPPORT_SRCS) $(LAYOUT_SRCS) $(FRONT_SRCS) \
	$(FRONT_GEN) $(SEMA_SRCS) $(IR_SRCS)

$(B)/fuzz/fuzz_gluon: $(FUZZ_GLUON_SRCS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(FUZZ_GLUON_SRCS) -lm

$(B)/fuzz/seeds-fuzz_gluon: test/fuzz/gluon_seeds.py $(wildcard test/lit/gluon/*.py test/lit/gluon/Inputs/*.py)
	@rm -rf $@
	@python3 test/fuzz/gluon_seeds.py $@ $(wildcard test/lit/gluon/*.py test/lit/gluon/Inputs/*.py)

# Code generation links LLVM; its sources see LLVM's headers.
FUZZ_TARGETS += $(B)/fuzz/fuzz_codegen
FUZZ_CODEGEN_SRCS = test/fuzz/fuzz_codegen.c $(SUPPORT_SRCS) $(LAYOUT_SRCS) $(FRONT_SRCS) \
	$(FRONT_GEN) $(SEMA_SRCS) $(IR_SRCS) $(PASSES_SRCS) $(CODEGEN_SRCS)

$(B)/fuzz/fuzz_codegen: $(FUZZ_CODEGEN_SRCS)
	@mkdir -p $(@D)/corpus-fuzz_codegen
	$(FUZZ_CC) $(FUZZ_FLAGS) $(LLVM_CFLAGS) -o $@ $(FUZZ_CODEGEN_SRCS) $(LLVM_LIBS) -lm

# The IR reader, the verifier and the passes; the corpus is seeded with the
# IR lit tests and the examples' IR.
FUZZ_TARGETS += $(B)/fuzz/fuzz_ir
FUZZ_IR_SRCS = test/fuzz/fuzz_ir.c $(SUPPORT_SRCS) $(LAYOUT_SRCS) $(IR_SRCS) $(PASSES_SRCS)

$(B)/fuzz/fuzz_ir: $(FUZZ_IR_SRCS) $(B)/glc
	@mkdir -p $(@D)/corpus-fuzz_ir
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(FUZZ_IR_SRCS) -lm
	@cp test/lit/ir/*.ir test/lit/ir/Inputs/*.ir $(@D)/corpus-fuzz_ir/
	@for f in examples/*.gl; do $(B)/glc $$f --emit=ir \
		-o $(@D)/corpus-fuzz_ir/$$(basename $$f .gl).ir || exit 1; done

# Each target compiles its sources in one command, so it depends on every
# compiler header (and the shared frame) rather than on per-object lists.
COMPILER_HEADERS = $(wildcard support/*.h layout/*.h lexer/*.h parser/*.h sema/*.h sema/*/*.h \
                              ir/*.h ir/*/*.h passes/*.h codegen/*.h codegen/*/*.h package/*.h) \
                   $(B)/gen/parser/grammar.h
$(FUZZ_TARGETS): test/fuzz/fuzz_input.h $(COMPILER_HEADERS)

# The seeds every target starts from besides its own corpus: each .gl file
# of the examples and of the tests, copied flat into one folder.
$(B)/fuzz/seeds: $(wildcard examples/*.gl test/lit/*/*.gl test/lit/*/Inputs/*.gl)
	@rm -rf $@ && mkdir -p $@
	@for f in $^; do cp "$$f" "$@/$$(echo "$$f" | tr / _)"; done

fuzz-build: $(FUZZ_TARGETS) $(B)/fuzz/seeds $(B)/fuzz/seeds-fuzz_gluon

fuzz: deps
	@$(MAKE) -s B=$(B) fuzz-build
	@for t in $(FUZZ_TARGETS); do \
		n=$${t##*/}; \
		case " $${FUZZ_ONLY:-$$n} " in *" $$n "*) ;; *) continue ;; esac; \
		mkdir -p $(B)/fuzz/corpus-$$n; \
		own=; [ -d $(B)/fuzz/seeds-$$n ] && own=$(B)/fuzz/seeds-$$n; \
		echo "== $$n: $${FUZZ_SECONDS_EACH:-$${FUZZ_SECONDS:-3600}} s"; \
		$$t -max_total_time=$${FUZZ_SECONDS_EACH:-$${FUZZ_SECONDS:-3600}} -timeout=10 \
			-rss_limit_mb=2048 -print_final_stats=1 $(B)/fuzz/corpus-$$n \
			test/fuzz/corpus $(B)/fuzz/seeds $$own || exit 1; \
	done
	@$(MAKE) -s $(B)/glc
	@python3 test/diff/cpu_check.py --glc $(B)/glc --seed random --seconds $${DIFF_SECONDS:-600} \
		--mode mix

clean:
	rm -rf $(B)

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)

# The differential tester's GPU bundle (test/diff/README.md): DIFF_COUNT
# generated kernels of seed DIFF_SEED (layouts as DIFF_MODE says: gl, erased,
# auto or mix; glcdiff/gen/erase.py) compiled by glc and translated to Gluon,
# in gpu-run/diff; on a GPU machine run gpu-run/diff/run_gpu.sh.
# The differential tester's own unit tests (test/diff/tests; standard library only,
# the ones that need Triton skip without it). make check runs them too.
.PHONY: diff-tests
diff-tests:
	@python3 test/diff/tests/run.py

.PHONY: diff-bundle
diff-bundle: $(B)/glc
	@python3 test/diff/bundle.py --glc $(B)/glc --seed $${DIFF_SEED:-1} \
		--count $${DIFF_COUNT:-2500} --mode $${DIFF_MODE:-gl} --out gpu-run/diff

# The GPU bundle (no GPU here): the examples compiled by glc, libglrt's
# sources, the GPU test drivers, benchmarks and host examples, to copy to a
# GPU machine and run there with gpu-bundle/run.sh (see test/gpu/bundle.sh).
.PHONY: gpu-bundle
gpu-bundle: $(B)/glc
	@sh test/gpu/bundle.sh $(B)/glc gpu-bundle

# The code-parity table against Triton 3.6 (bench/parity/parity.py, issue 23): every
# shared kernel through both compilers and the same ptxas, SASS counted by class, written
# into bench/RESULTS.md, and the GPU timing run's folder gpu-run/parity (run there:
# sh gpu-run/parity/run.sh). TRITON_PY is a Python with triton 3.6 (no GPU needed).
TRITON_PY ?= /opt/tv/bin/python
.PHONY: parity
parity: $(B)/glc
	@$(TRITON_PY) bench/parity/parity.py --glc $(B)/glc --results bench/RESULTS.md \
		--bundle gpu-run/parity
