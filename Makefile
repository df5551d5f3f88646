# npydt — build, test, install. Out-of-tree: everything goes under $(O).
#   make                      libnpydt.a, libnpydt.so.$(VERSION), npydt
#   make check                build and run every test
#   make SANITIZE=address,undefined check
#   make EXEC="qemu-s390x -L ..." CC=... check   target programs run through EXEC
#                             (tests/cross/run.sh ARCH sets this up); check-cross
#                             runs the C tests, the fuzz replay and command checks;
#   make check-cross-full     the whole suite for s390x and i386 (tens of minutes)
#   make install PREFIX=/usr/local DESTDIR=...
#   make fuzz / fuzz-run SECONDS=N / coverage / bench
#   make COMPOSITE=0          the header lexer without composite tokens (np.save's
#                             usual runs read whole; grammar/parser.y says why):
#                             same results, slower; tests/check_composite.sh
#                             compares the two on every corpus
O ?= build
CC ?= cc
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/npydt
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
PYTHON ?= /usr/bin/python3
RE2C ?= re2c
BISON ?= bison
EXEC ?=

# the version is written once, in the public header
version_part = $(shell sed -n 's/^\#define NPYDT_VERSION_$(1) \([0-9][0-9]*\)$$/\1/p' include/npydt.h)
VERSION_MAJOR := $(call version_part,MAJOR)
VERSION := $(VERSION_MAJOR).$(call version_part,MINOR).$(call version_part,PATCH)
SONAME := libnpydt.so.$(VERSION_MAJOR)

# Warnings (the compiler's, bison's and re2c's) fail `make check`,
# `make check-cross`, `make check-valgrind`, `make check-dist` and `make
# coverage` (and any build with WERROR=1), never a plain `make`: a newer
# compiler's new warning must not stop a user's build.
ifneq ($(filter check check-cross check-valgrind check-dist coverage,$(MAKECMDGOALS)),)
WERROR ?= 1
endif
WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	$(if $(filter 1,$(WERROR)),-Werror)
GEN_WERROR := $(if $(filter 1,$(WERROR)),-Werror)
BASE_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64 -O2 -g $(WARN)
ifneq ($(SANITIZE),)
BASE_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
BASE_LDFLAGS += -fsanitize=$(SANITIZE)
endif
ifeq ($(COMPOSITE),0)
BASE_CFLAGS += -DNPYDT_COMPOSITE=0
endif
ifneq ($(COVERAGE),)
BASE_CFLAGS += --coverage -O0
BASE_LDFLAGS += --coverage
endif
# the libFuzzer variant (make fuzz builds it in $(O)/fuzz through $(MAKE))
ifneq ($(FUZZER),)
BASE_CFLAGS += -fsanitize=fuzzer-no-link
endif
ALL_CFLAGS = $(BASE_CFLAGS) -Iinclude -Isrc -I$(O)/gen $(CFLAGS)
ALL_LDFLAGS = $(BASE_LDFLAGS) $(LDFLAGS)
LDLIBS_ALL = -lz -lm $(LDLIBS)
# libraries the command alone links: threads for -j (src/cli/common/jobs.c)
CLI_LDLIBS = -pthread

ifeq ($(V),1)
Q :=
else
Q := @
endif

# The library's stages, in the order they may use each other
# (doc/architecture.md; tests/check_layers.sh holds the includes to it). Each
# stage's sources are src/STAGE/*.c; the grammar's generated parser and
# lexer belong to the literal stage.
LIB_STAGES := text base dtype literal header records schema npz access values write arrow cstruct
LIB_SRCS := $(foreach s,$(LIB_STAGES),$(wildcard src/$(s)/*.c))
GEN_SRCS := $(O)/gen/parser.c $(O)/gen/lexer.c
LIB_OBJS := $(patsubst src/%.c,$(O)/lib/%.o,$(LIB_SRCS)) $(O)/lib/literal/parser.o $(O)/lib/literal/lexer.o
CLI_SRCS := $(wildcard src/cli/*.c src/cli/*/*.c)
CLI_OBJS := $(patsubst src/cli/%.c,$(O)/cli/%.o,$(CLI_SRCS))
# the text stage's objects, which the command links besides the library
# (whose copy of them is internal)
TEXT_OBJS := $(filter $(O)/lib/text/%,$(LIB_OBJS))
TEST_SRCS := $(filter-out tests/test_main.c,$(wildcard tests/test_*.c))
TEST_BINS := $(patsubst tests/%.c,$(O)/tests/%,$(TEST_SRCS))

LIB_A := $(O)/libnpydt.a
LIB_SO := $(O)/libnpydt.so.$(VERSION)
CLI := $(O)/npydt

.PHONY: check-valgrind all check check-cross check-all install uninstall clean fuzz fuzz-run coverage bench \
	dist check-dist fuzz-bins bench-run check-floats
all: $(LIB_A) $(LIB_SO) $(CLI)

# A release tarball (make dist) ships the generated parser and lexer in
# gen/: they are used when the grammar is not newer than them, so that a
# release builds with a C compiler and zlib alone (RE2C and BISON are then
# never run). A checkout has no gen/ and always generates.
use_shipped = [ -f gen/$(1) ] && [ ! $(2) -nt gen/$(1) ]

# one bison run writes both files: a grouped target (GNU make 4.3), so that
# make -j never runs it twice at once
$(O)/gen/parser.c $(O)/gen/parser.h &: grammar/parser.y
	@mkdir -p $(O)/gen
	$(Q)if $(call use_shipped,parser.c,$<) && $(call use_shipped,parser.h,$<); then \
	    cp gen/parser.c gen/parser.h $(O)/gen/; \
	else \
	    $(BISON) -Wall $(GEN_WERROR) -o $(O)/gen/parser.c --header=$(O)/gen/parser.h $<; \
	fi

$(O)/gen/lexer.c: grammar/lexer.re $(O)/gen/parser.h
	@mkdir -p $(O)/gen
	$(Q)if $(call use_shipped,lexer.c,$<); then \
	    cp gen/lexer.c $@; \
	else \
	    $(RE2C) -W $(GEN_WERROR) -o $@ $<; \
	fi

# Every object depends on $(FLAGS): it holds the compiler and its flags,
# and is rewritten only when they change (a new CFLAGS, WERROR, SANITIZE or
# COVERAGE), so that such a change rebuilds the objects and `make check`
# after a plain `make` compiles again with -Werror.
FLAGS := $(O)/compile-flags
# Each library function and object in a section of its own, kept apart
# through the static library's one relocatable object: a program linked
# with -Wl,--gc-sections keeps only what it reaches (a header walker
# neither links the archive code nor needs -lz).
LIB_SECTIONS := -ffunction-sections -fdata-sections
FLAGS_NOW := $(subst ','\'',$(CC) $(ALL_CFLAGS) $(LIB_SECTIONS))
.PHONY: FORCE
$(FLAGS): FORCE
	@mkdir -p $(@D)
	$(Q)printf '%s\n' '$(FLAGS_NOW)' | cmp -s - $@ || printf '%s\n' '$(FLAGS_NOW)' > $@

# library objects are position independent: one set serves .a and .so.
# One rule for all: the object of STAGE/NAME comes from src/STAGE/NAME.c,
# or for the generated parser and lexer from $(O)/gen/NAME.c.
# parser.h is order-only: it must exist before the first compile; the
# compiler's dependency files (-MMD) then say which objects include it
GEN_STEMS := literal/parser literal/lexer
lib_src = $(if $(filter $(1),$(GEN_STEMS)),$(O)/gen/$(notdir $(1)).c,src/$(1).c)
.SECONDEXPANSION:
$(LIB_OBJS): $(O)/lib/%.o: $$(call lib_src,$$*) $(FLAGS) | $(O)/gen/parser.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) $(LIB_SECTIONS) -fPIC -fvisibility=hidden -DNPYDT_BUILDING -MMD -MP -c -o $@ $<

# The static library is one relocatable object in which every global name
# the public header does not declare is local, so that a program linking
# it cannot clash with the library's internal names. Only the library's
# own names (C identifiers) are localized: symbols the compiler makes
# (i386's __x86.get_pc_thunk.*, sanitizer and coverage symbols) may sign
# COMDAT groups that the final link merges with a program's, and must stay
# global; but AddressSanitizer's ODR indicator of an internal variable
# (__odr_asan.NAME, clang's __odr_asan_gen_NAME) is localized with it, or
# the command, which links the text stage's objects besides the library,
# would define it twice. The white-box unit tests link the objects as
# they are, from LIB_INTERNAL_A.
NM ?= $(shell $(CC) -print-prog-name=nm)
OBJCOPY ?= $(shell $(CC) -print-prog-name=objcopy)
LIB_INTERNAL_A := $(O)/lib/libnpydt-internal.a
$(O)/lib/npydt.o: $(LIB_OBJS)
	$(Q)$(CC) -r -nostdlib -o $@.tmp $^
	$(Q)$(NM) -g --defined-only $@.tmp | \
	    awk 'NF == 3 { n = $$3; sub(/^__odr_asan([.]|_gen_)/, "", n) } \
	         NF == 3 && n ~ /^[A-Za-z][A-Za-z_0-9]*$$/ && n !~ /^npydt_/ {print $$3}' > $(O)/lib/internal-names
	$(Q)$(OBJCOPY) --localize-symbols=$(O)/lib/internal-names $@.tmp $@
	$(Q)rm -f $@.tmp

$(LIB_A): $(O)/lib/npydt.o
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

$(LIB_INTERNAL_A): $(LIB_OBJS)
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

# npydt.map lists the exported symbols (the public header's functions)
$(LIB_SO): $(LIB_OBJS) npydt.map
	$(Q)$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=npydt.map -o $@ $(LIB_OBJS) \
	    $(ALL_LDFLAGS) $(LDLIBS_ALL)
	$(Q)ln -sf libnpydt.so.$(VERSION) $(O)/$(SONAME)
	$(Q)ln -sf $(SONAME) $(O)/libnpydt.so

# the command links like any user: the public header and the static
# library, plus the text stage (src/text/text.h) for spelling values
$(O)/cli/%.o: src/cli/%.c include/npydt.h $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(CLI): $(CLI_OBJS) $(TEXT_OBJS) $(LIB_A)
	$(Q)$(CC) -o $@ $(CLI_OBJS) $(TEXT_OBJS) $(LIB_A) $(ALL_LDFLAGS) $(CLI_LDLIBS) $(LDLIBS_ALL)

$(O)/tests/%.o: tests/%.c $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/tests/test_%: $(O)/tests/test_%.o $(O)/tests/test_main.o $(LIB_INTERNAL_A)
	$(Q)$(CC) -o $@ $< $(O)/tests/test_main.o $(LIB_INTERNAL_A) $(ALL_LDFLAGS) -lcmocka $(LDLIBS_ALL)

# helper objects of the test suite that are not test binaries
$(O)/tests/test_main.o: tests/test_main.c tests/test_util.h

# The small programs the check scripts drive: tests/tools/NAME.c, linked
# with the static library, is $(O)/tests/tools/NAME (float_check and
# failinject.so, below, are built their own way).
TEST_TOOLS := descr_probe write_probe parse_once writer_drive writer_kill writer_fault arrow_duckdb \
	arrow_import_duckdb
$(O)/tests/tools/%: tests/tools/%.c $(LIB_A) $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_A) $(ALL_LDFLAGS) $(LDLIBS_ALL)


# npydt.pc, the pkg-config file, one quoted line each, for the install's
# prefix and directories
PC_LINES := 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
	'Name: npydt' 'Description: NumPy .npy headers and record dtypes, parsed exactly' \
	'Version: $(VERSION)' 'License: MIT' 'Libs: -L$${libdir} -lnpydt' 'Libs.private: -lz -lm' \
	'Cflags: -I$${includedir}'

install: all
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 include/npydt.h $(DESTDIR)$(INCLUDEDIR)/npydt.h
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/libnpydt.a
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/libnpydt.so.$(VERSION)
	ln -sf libnpydt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libnpydt.so
	install -m 755 $(CLI) $(DESTDIR)$(BINDIR)/npydt
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(DOCDIR)
	install -m 644 doc/npydt.1 $(DESTDIR)$(MANDIR)/man1/npydt.1
	install -m 644 doc/cli-json.md $(DESTDIR)$(DOCDIR)/cli-json.md
	install -m 644 doc/npydt.bash-completion $(DESTDIR)$(BASHCOMPDIR)/npydt
	printf '%s\n' $(PC_LINES) > $(DESTDIR)$(PKGCONFIGDIR)/npydt.pc

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/npydt.h $(DESTDIR)$(LIBDIR)/libnpydt.a \
	      $(DESTDIR)$(LIBDIR)/libnpydt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	      $(DESTDIR)$(LIBDIR)/libnpydt.so $(DESTDIR)$(BINDIR)/npydt \
	      $(DESTDIR)$(PKGCONFIGDIR)/npydt.pc $(DESTDIR)$(MANDIR)/man1/npydt.1 \
	      $(DESTDIR)$(BASHCOMPDIR)/npydt $(DESTDIR)$(DOCDIR)/cli-json.md

clean:
	rm -rf $(O)

# make dist: $(O)/npydt-VERSION.tar.gz holds every file git tracks (sources,
# docs, tests and their fixtures) and the generated parser and lexer in gen/,
# written after the grammar so that the release uses them (see use_shipped).
DIST := npydt-$(VERSION)
dist: $(O)/gen/parser.c $(O)/gen/parser.h $(O)/gen/lexer.c
	$(Q)git rev-parse --is-inside-work-tree >/dev/null 2>&1 || \
	    { echo "make dist: run it in a git checkout (the tarball holds what git tracks)"; exit 2; }
	$(Q)rm -rf $(O)/dist && mkdir -p $(O)/dist/$(DIST)/gen
	$(Q)git ls-files -z | tar --null -T - -cf - | tar -xf - -C $(O)/dist/$(DIST)
	$(Q)cp $^ $(O)/dist/$(DIST)/gen/ && touch $(O)/dist/$(DIST)/gen/*
	$(Q)tar -C $(O)/dist --sort=name --owner=0 --group=0 --numeric-owner -czf $(O)/$(DIST).tar.gz $(DIST)
	$(Q)rm -rf $(O)/dist
	@echo $(O)/$(DIST).tar.gz

# the release built whole from its tarball with RE2C=false BISON=false
# (make check runs the quick part of tests/check_dist.sh)
check-dist: $(CLI)
	$(Q)DIST_FULL=1 NPYDT=$(CLI) sh tests/check_dist.sh

# Fuzzing (fuzz/): one libFuzzer harness fuzz/fuzz_NAME.c per layer, with
# fuzz/NAME.dict, a seed corpus fuzz/corpus/NAME/ and fuzz/regressions/NAME/.
#   make fuzz                  clang -fsanitize=fuzzer,address,undefined into $(O)/fuzz/
#   make fuzz-run SECONDS=N    each harness N seconds; new inputs go to $(FUZZ_SCRATCH)
#   make check                 also replays every corpus through every harness,
#                              built with $(CC) and fuzz/replay_main.c (no libFuzzer)
#   make coverage              gcc --coverage build in $(COV_O): tests + replays, then
#                              line and branch coverage of the hand-written sources
# Every fuzz/fuzz_NAME.c is a harness: the header layer's three first, then
# the others (records, schema, npz, ...) as their files appear.
FUZZERS := header descr alloc $(sort $(filter-out header descr alloc,\
	$(patsubst fuzz/fuzz_%.c,%,$(wildcard fuzz/fuzz_*.c))))
FUZZ_CC ?= clang
SECONDS ?= 60
FUZZ_SCRATCH ?= $(O)/fuzz-scratch
FUZZ_MAX_LEN_header ?= 4096
FUZZ_MAX_LEN_descr ?= 2048
FUZZ_MAX_LEN_alloc ?= 4096
FUZZ_RUN_FLAGS ?= -rss_limit_mb=2048 -timeout=20 -print_final_stats=1
REPLAY_BINS = $(patsubst %,$(O)/fuzz-replay/fuzz_%,$(FUZZERS))
COV_O ?= $(O)/coverage

# The harnesses' objects, for the replay binaries here and for the
# libFuzzer binaries in the fuzz variant: one rule, the build's flags.
$(O)/fuzz-obj/%.o: fuzz/%.c $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# The libFuzzer variant is this Makefile again with O=$(O)/fuzz, clang and
# the sanitizers: its library objects come from the library's own rule.
fuzz:
	$(Q)$(MAKE) --no-print-directory O=$(O)/fuzz CC=$(FUZZ_CC) SANITIZE=address,undefined \
	    FUZZER=1 COVERAGE= fuzz-bins
fuzz-bins: $(patsubst %,$(O)/fuzz_%,$(FUZZERS))

$(O)/fuzz_%: $(O)/fuzz-obj/fuzz_%.o $(LIB_A)
	$(Q)$(CC) -fsanitize=fuzzer -o $@ $^ $(ALL_LDFLAGS) $(LDLIBS_ALL)

# fuzz_load reads through the command's readers: it links the command's
# objects but its main (as the replay binary below does)
FUZZ_CLI_OBJS = $(filter-out $(O)/cli/main.o,$(CLI_OBJS)) $(TEXT_OBJS)
$(O)/fuzz_load: $(O)/fuzz-obj/fuzz_load.o $(FUZZ_CLI_OBJS) $(LIB_A)
	$(Q)$(CC) -fsanitize=fuzzer -o $@ $(filter %.o,$^) $(LIB_A) $(ALL_LDFLAGS) $(CLI_LDLIBS) $(LDLIBS_ALL)

# Every harness on its seed and regression corpora with its dictionary, JOBS
# at a time (default: the number of processors); libFuzzer writes new inputs
# into the first (scratch) directory.
fuzz_max_len = $(or $(FUZZ_MAX_LEN_$(1)),4096)
fuzz-run: fuzz
	$(Q)$(foreach f,$(FUZZERS),FUZZ_MAX_LEN_$(f)=$(call fuzz_max_len,$(f))) \
	    fuzz/run.sh $(O)/fuzz $(FUZZ_SCRATCH) $(SECONDS) "$(FUZZ_RUN_FLAGS)" $(FUZZERS)

# The same harness code without libFuzzer, built like the tests (so a
# SANITIZE= build replays under the sanitizers); `make check` runs them.
$(O)/fuzz-replay/fuzz_%: $(O)/fuzz-obj/fuzz_%.o $(O)/fuzz-obj/replay_main.o $(LIB_A)
	@mkdir -p $(@D)
	$(Q)$(CC) -o $@ $< $(O)/fuzz-obj/replay_main.o $(LIB_A) $(ALL_LDFLAGS) $(LDLIBS_ALL)
$(O)/fuzz-replay/fuzz_load: $(O)/fuzz-obj/fuzz_load.o $(O)/fuzz-obj/replay_main.o \
    $(FUZZ_CLI_OBJS) $(LIB_A)
	@mkdir -p $(@D)
	$(Q)$(CC) -o $@ $(filter %.o,$^) $(LIB_A) $(ALL_LDFLAGS) $(CLI_LDLIBS) $(LDLIBS_ALL)

# make regen: the tables committed in src/ that a program writes, rebuilt
# from their generators in tools/; each file's first line names its
# generator. The Unicode tables follow $(PYTHON)'s unicodedata: with the
# Python their second line names, every file comes out byte for byte as
# committed (tests/check_regen.sh writes them under REGEN_DIR to compare).
REGEN_DIR ?= .
POW10_C := $(wildcard src/*/float_pow10.c)
regen_to = mkdir -p $(dir $(REGEN_DIR)/$(2)) && $(PYTHON) $(1) > $(REGEN_DIR)/$(2).tmp && \
	mv $(REGEN_DIR)/$(2).tmp $(REGEN_DIR)/$(2)
.PHONY: regen
regen:
	$(Q)$(call regen_to,tools/gen_printable.py,src/base/unicode_printable.c)
	$(Q)$(call regen_to,tools/gen_printable.py width,src/base/unicode_width.c)
	$(Q)$(call regen_to,tools/gen_float_pow10.py,$(POW10_C))

# the text stage's shortest float text against strtof/strtod, NumPy and
# Python (tests/check_float_format.sh; `make check-floats` runs it over all
# 2^32 float32 patterns and 10^7 doubles)
$(O)/tests/tools/float_check: tests/tools/float_check.c $(TEXT_OBJS) $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(TEXT_OBJS) $(ALL_LDFLAGS) -lm

# the JSON Lines plans (load's, dump's) against the general walks, the tokenizer against
# jsmn's, and the command's thread pool, linked with the command's objects
# but its main
$(O)/tests/test_jsonl_plan $(O)/tests/test_jsonl_tokens $(O)/tests/test_cli_jobs $(O)/tests/test_dump_plan: $(O)/tests/%: $(O)/tests/%.o $(O)/tests/test_main.o \
    $(filter-out $(O)/cli/main.o,$(CLI_OBJS)) $(TEXT_OBJS) $(LIB_A)
	$(Q)$(CC) -o $@ $(filter %.o,$^) $(LIB_A) $(ALL_LDFLAGS) $(CLI_LDLIBS) -lcmocka $(LDLIBS_ALL)

check-floats: $(O)/tests/tools/float_check
	$(EXEC) $(O)/tests/tools/float_check f32 1
	$(EXEC) $(O)/tests/tools/float_check f64 10000000 1

# the header literal's parse printed whole, with composite tokens and
# without (the same generated lexer compiled with NPYDT_COMPOSITE=0), for
# tests/check_composite.sh
$(O)/lib-plain/literal/lexer.o: $(O)/gen/lexer.c $(FLAGS) | $(O)/gen/parser.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -DNPYDT_BUILDING -DNPYDT_COMPOSITE=0 -MMD -MP -c -o $@ $<
$(O)/tests/tools/literal_replay: tests/tools/literal_replay.c $(LIB_OBJS) $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_OBJS) $(ALL_LDFLAGS) $(LDLIBS_ALL)
$(O)/tests/tools/literal_replay_plain: tests/tools/literal_replay.c $(O)/lib-plain/literal/lexer.o \
    $(filter-out $(O)/lib/literal/lexer.o,$(LIB_OBJS)) $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(filter %.o,$^) $(ALL_LDFLAGS) $(LDLIBS_ALL)
-include $(wildcard $(O)/lib-plain/*/*.d)

# Every test binary, every corpus replay and the command on every fixture
# (tests/valgrind_cli.sh) under valgrind's memcheck, which must report no
# error and no definite or indirect leak (SANITIZE= builds are refused: the
# sanitizers and valgrind exclude each other).
VALGRIND_CLI_EVERY ?= 1
VALGRIND = valgrind -q --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect
check-valgrind: all $(TEST_BINS) $(REPLAY_BINS)
	$(Q)if [ -n "$(SANITIZE)" ]; then echo "check-valgrind: build without SANITIZE"; exit 2; fi
	$(Q)VALGRIND_CLI_EVERY=$(VALGRIND_CLI_EVERY) tests/valgrind_all.sh $(CLI) \
	    "$(TEST_BINS)" "$(REPLAY_BINS)" $(VALGRIND)

# objects made by the pattern chains above are kept, not rebuilt every time
.SECONDARY: $(patsubst %,$(O)/fuzz-obj/fuzz_%.o,$(FUZZERS)) $(O)/fuzz-obj/replay_main.o

# the report is written even when a test fails; the exit status still says so
coverage:
	$(Q)find $(COV_O) -name '*.gcda' -delete 2>/dev/null || true
	$(Q)$(MAKE) --no-print-directory O=$(COV_O) COVERAGE=1 SANITIZE= check; rc=$$?; \
	    $(PYTHON) tests/tools/coverage_report.py $(COV_O) && exit $$rc

-include $(wildcard $(O)/fuzz-obj/*.d)

# Benchmarks (tests/bench/): `make bench` builds the library, the command and
# tests/bench/bench.c with -O2 and no sanitizer into $(O)/bench/ (whatever
# SANITIZE or COVERAGE say), then runs npydt next to NumPy (the worker
# tests/bench/numpy_worker.py under $(PYTHON)) and prints one table of ratios;
# per-round times go to $(O)/bench/results.tsv. Its files (a 1 GB sparse one
# among them) live in $(O)/bench/tmp.XXXXXX, removed at the end, on failure
# and on interrupt. BENCH_ARGS=--quick: a small trial run; --rounds N.
# First, tests/bench/instructions.sh prints callgrind's instruction counts
# of one parse per header family (load does not move them), the memory a
# parse keeps per leaf and the page faults of a steady loop of parses.
BENCH_ARGS ?=

# The bench variant is this Makefile again with O=$(O)/bench, without
# sanitizers or coverage: the library and the command come from their own
# rules, bench-run uses them.
bench:
	$(Q)$(MAKE) --no-print-directory O=$(O)/bench SANITIZE= COVERAGE= FUZZER= bench-run

$(O)/npydt_bench: tests/bench/bench.c include/npydt.h $(LIB_A) $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_A) $(ALL_LDFLAGS) $(LDLIBS_ALL)

# the writer dump --csv is measured against (tests/bench/dump_csv.sh)
$(O)/tests/bench/csv_anchor: tests/bench/csv_anchor.c tests/bench/anchor.h $(TEXT_OBJS) $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(TEXT_OBJS) $(ALL_LDFLAGS) -lm

# the writer dump --jsonl is measured against (tests/bench/dump_jsonl.sh)
$(O)/tests/bench/jsonl_anchor: tests/bench/jsonl_anchor.c tests/bench/anchor.h $(TEXT_OBJS) $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(TEXT_OBJS) $(ALL_LDFLAGS) -lm

# the read-only pass npydt stats is measured against (tests/bench/stats.sh)
$(O)/tests/bench/read_floor: tests/bench/read_floor.c $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)

# the Arrow export against a read-only pass (tests/bench/arrow_export.sh)
$(O)/tests/bench/arrow_export: tests/bench/arrow_export.c include/npydt.h $(LIB_A) $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_A) $(ALL_LDFLAGS) $(LDLIBS_ALL)

# check over many small files against open/read/fstat/close of each
# (tests/bench/check_files.sh)
$(O)/tests/bench/open_loop: tests/bench/open_loop.c $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)

# check --rules against a read-only pass in one process (tests/bench/rules.sh)
$(O)/tests/bench/rules_bench: tests/bench/rules_bench.c include/npydt.h $(LIB_A) $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_A) $(ALL_LDFLAGS) $(LDLIBS_ALL)

# the readers load --csv / --jsonl are measured against
# (tests/bench/load_text.sh); simdjson's only where libsimdjson-dev is
# installed (C++, for the bench alone)
$(O)/tests/bench/load_anchor: tests/bench/load_anchor.c tests/bench/anchor.h $(TEXT_OBJS) $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(TEXT_OBJS) $(ALL_LDFLAGS) -lm
$(O)/tests/bench/load_anchor_simdjson: tests/bench/load_anchor_simdjson.cpp $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CXX) -std=c++17 -O2 -o $@ $< -lsimdjson
SIMDJSON_ANCHOR = $(if $(wildcard /usr/include/simdjson.h),$(O)/tests/bench/load_anchor_simdjson)
LOAD_ANCHORS = $(O)/tests/bench/load_anchor $(SIMDJSON_ANCHOR)

bench-run: $(O)/npydt_bench $(CLI) $(O)/tests/bench/csv_anchor $(O)/tests/bench/jsonl_anchor \
           $(O)/tests/bench/read_floor \
           $(O)/tests/bench/rules_bench $(O)/tests/bench/arrow_export $(O)/tests/bench/open_loop \
           $(LOAD_ANCHORS)
	$(Q)tests/bench/instructions.sh $(O)/npydt_bench
	$(Q)tests/bench/dump_csv.sh -n 200000 $(O)/tests/bench/csv_anchor $(CLI)
	$(Q)tests/bench/dump_jsonl.sh -n 200000 $(O)/tests/bench/jsonl_anchor $(CLI)
	$(Q)tests/bench/load_text.sh -n 200000 $(O)/tests/bench/load_anchor $(or $(SIMDJSON_ANCHOR),-) $(CLI)
	$(Q)PYTHON=$(PYTHON) tests/bench/stats_cost.sh -n 200000 $(O)/tests/bench/read_floor $(CLI)
	$(Q)PYTHON=$(PYTHON) tests/bench/stats.sh $(O)/tests/bench/read_floor $(CLI)
	$(Q)PYTHON=$(PYTHON) tests/bench/rules.sh $(O)/tests/bench/rules_bench $(CLI)
	$(Q)PYTHON=$(PYTHON) tests/bench/arrow_export.sh $(O)/tests/bench/arrow_export
	$(Q)tests/bench/dump_arrow.sh $(CLI)
	$(Q)PYTHON=$(PYTHON) tests/bench/load_arrow.sh $(CLI)
	$(Q)PYTHON=$(PYTHON) tests/bench/swap_io.sh $(CLI)
	$(Q)PYTHON=$(PYTHON) tests/bench/dump_jobs.sh $(CLI)
	$(Q)tests/bench/check_files.sh -n 10000 $(O)/tests/bench/open_loop $(CLI)
	$(Q)d=$$(mktemp -d "$(O)/tmp.XXXXXX") || exit 1; \
	trap 'rm -rf "$$d"' EXIT; trap 'exit 130' INT TERM HUP; \
	$(O)/npydt_bench --python $(PYTHON) --worker tests/bench/numpy_worker.py \
	    --npydt $(CLI) --tmp "$$d" --out $(O)/results.tsv $(BENCH_ARGS)

-include $(wildcard $(O)/lib/*/*.d $(O)/cli/*.d $(O)/cli/*/*.d $(O)/tests/*.d)

# tests/check_cli_faults.sh preloads this into the command to make chosen
# libc calls fail (tests/tools/failinject.c); built without coverage or
# sanitizers (the script skips sanitizer builds).
$(O)/tests/tools/failinject.so: tests/tools/failinject.c $(FLAGS)
	@mkdir -p $(@D)
	$(Q)$(CC) -std=c11 -D_FILE_OFFSET_BITS=64 -O2 -g $(WARN) -fPIC -shared -o $@ $< -ldl

# `make check`, in one place: everything the check scripts drive (defined
# above) is built first; the runner then runs the test binaries and every
# tests/check_*.sh. EXEC= runs the target programs through an emulator
# (tests/cross/run.sh sets it).
CHECK_DEPS = all $(TEST_BINS) $(REPLAY_BINS) $(patsubst %,$(O)/tests/tools/%,$(TEST_TOOLS)) \
	$(O)/tests/tools/failinject.so $(O)/tests/tools/float_check
CHECK_DEPS += $(O)/tests/tools/literal_replay $(O)/tests/tools/literal_replay_plain
CHECK_DEPS += $(O)/tests/bench/csv_anchor $(O)/tests/bench/jsonl_anchor $(O)/tests/bench/read_floor \
              $(O)/tests/bench/rules_bench \
              $(LOAD_ANCHORS)
RUN_TESTS = O=$(O) SANITIZE=$(SANITIZE) COVERAGE=$(COVERAGE) WERROR=$(WERROR) FIXTURES=tests/fixtures \
	NPYDT=$(CLI) PYTHON=$(PYTHON) EXEC='$(EXEC)' tests/run_tests.sh $(TEST_BINS)
check: $(CHECK_DEPS)
	$(Q)$(RUN_TESTS)

# the part of the suite that CI runs for other architectures under an
# emulator: every C test, the corpus replay and the command's error checks
# (the rest, run by tests/cross/run.sh ARCH check, takes far longer there:
# each of its thousands of command runs starts an emulator)
CROSS_CHECKS := check_fuzz_replay check_cli_errors check_header_errors
check-cross: $(CHECK_DEPS)
	$(Q)CHECKS='$(CROSS_CHECKS)' $(RUN_TESTS)

# The whole suite for s390x and i386 under qemu, every check script
# included: what must pass before npydt is said to work on another
# architecture. Not part of CI or check-all: each takes tens of minutes.
.PHONY: check-cross-full
check-cross-full:
	tests/cross/run.sh s390x check
	tests/cross/run.sh i386 check

# The command's threads under ThreadSanitizer (clang): every -j command
# runs with 2 and 3 threads and must report no data race
# (tests/threads_tsan.sh). Part of check-all.
.PHONY: check-tsan
check-tsan:
	$(Q)$(MAKE) --no-print-directory O=$(O)-tsan CC=clang SANITIZE=thread COVERAGE= $(O)-tsan/npydt
	$(Q)NPYDT=$(O)-tsan/npydt PYTHON=$(PYTHON) FIXTURES=tests/fixtures tests/threads_tsan.sh

# The whole test suite, as CI runs it (README's test command): the suite,
# its C tests and command error checks for s390x and i386 under qemu, the
# suite again under ASan + UBSan, the threads under TSan, valgrind, and a
# 60-second libFuzzer run of every harness.
check-all:
	$(MAKE) -j2 check
	$(MAKE) check-dist
	tests/cross/run.sh s390x check-cross
	tests/cross/run.sh i386 check-cross
	$(MAKE) -j2 O=$(O)-asan SANITIZE=address,undefined check
	$(MAKE) -j2 check-tsan
	$(MAKE) check-valgrind VALGRIND_CLI_EVERY=16
	$(MAKE) -j2 WERROR=1 fuzz
	$(MAKE) fuzz-run SECONDS=60
