# npydt — build, test, install. Out-of-tree: everything goes under $(O).
#   make                      libnpydt.a, libnpydt.so.$(VERSION), npydt
#   make check                build and run every test
#   make SANITIZE=address,undefined check
#   make install PREFIX=/usr/local DESTDIR=...
#   make fuzz / fuzz-run SECONDS=N / coverage / bench
O ?= build
CC ?= cc
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
PYTHON ?= /usr/bin/python3
RE2C ?= re2c
BISON ?= bison

VERSION_MAJOR := 0
VERSION := 0.1.0
SONAME := libnpydt.so.$(VERSION_MAJOR)

WARN := -Wall -Wextra -Wpedantic -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
BASE_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -g $(WARN)
ifneq ($(SANITIZE),)
BASE_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
BASE_LDFLAGS += -fsanitize=$(SANITIZE)
endif
ifneq ($(COVERAGE),)
BASE_CFLAGS += --coverage -O0
BASE_LDFLAGS += --coverage
endif
ALL_CFLAGS = $(BASE_CFLAGS) -Iinclude -Isrc -I$(O)/gen $(CFLAGS)
ALL_LDFLAGS = $(BASE_LDFLAGS) $(LDFLAGS)
LDLIBS_ALL = -lz $(LDLIBS)

ifeq ($(V),1)
Q :=
else
Q := @
endif

LIB_SRCS := $(wildcard src/*.c)
GEN_SRCS := $(O)/gen/parser.c $(O)/gen/lexer.c
LIB_OBJS := $(patsubst src/%.c,$(O)/lib/%.o,$(LIB_SRCS)) $(O)/lib/parser.o $(O)/lib/lexer.o
CLI_SRCS := $(wildcard src/cli/*.c)
CLI_OBJS := $(patsubst src/cli/%.c,$(O)/cli/%.o,$(CLI_SRCS))
TEST_SRCS := $(filter-out tests/test_main.c,$(wildcard tests/test_*.c))
TEST_BINS := $(patsubst tests/%.c,$(O)/tests/%,$(TEST_SRCS))

LIB_A := $(O)/libnpydt.a
LIB_SO := $(O)/libnpydt.so.$(VERSION)
CLI := $(O)/npydt

.PHONY: all check install uninstall clean fuzz fuzz-run coverage bench
all: $(LIB_A) $(LIB_SO) $(CLI)

$(O)/gen/parser.c $(O)/gen/parser.h: grammar/parser.y
	@mkdir -p $(O)/gen
	$(Q)$(BISON) -Wall -Werror -o $(O)/gen/parser.c --header=$(O)/gen/parser.h $<

$(O)/gen/lexer.c: grammar/lexer.re $(O)/gen/parser.h
	@mkdir -p $(O)/gen
	$(Q)$(RE2C) -W -Werror -o $@ $<

# library objects are position independent: one set serves .a and .so
$(O)/lib/%.o: src/%.c $(O)/gen/parser.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -DNPYDT_BUILDING -MMD -MP -c -o $@ $<

$(O)/lib/%.o: $(O)/gen/%.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -DNPYDT_BUILDING -MMD -MP -c -o $@ $<

$(LIB_A): $(LIB_OBJS)
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

$(LIB_SO): $(LIB_OBJS)
	$(Q)$(CC) -shared -Wl,-soname,$(SONAME) -o $@ $^ $(ALL_LDFLAGS) $(LDLIBS_ALL)
	$(Q)ln -sf libnpydt.so.$(VERSION) $(O)/$(SONAME)
	$(Q)ln -sf $(SONAME) $(O)/libnpydt.so

# the command links like any user: only the public header, the static library
$(O)/cli/%.o: src/cli/%.c include/npydt.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(CLI): $(CLI_OBJS) $(LIB_A)
	$(Q)$(CC) -o $@ $(CLI_OBJS) $(LIB_A) $(ALL_LDFLAGS) $(LDLIBS_ALL)

$(O)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/tests/test_%: $(O)/tests/test_%.o $(O)/tests/test_main.o $(LIB_A)
	$(Q)$(CC) -o $@ $< $(O)/tests/test_main.o $(LIB_A) $(ALL_LDFLAGS) -lcmocka $(LDLIBS_ALL)

# helper objects of the test suite that are not test binaries
$(O)/tests/test_main.o: tests/test_main.c tests/test_util.h

# small programs the check scripts drive
$(O)/tests/descr_probe: tests/tools/descr_probe.c $(LIB_A)
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_A) $(ALL_LDFLAGS) $(LDLIBS_ALL)

check: all $(TEST_BINS) $(O)/tests/descr_probe
	$(Q)O=$(O) FIXTURES=tests/fixtures NPYDT=$(CLI) PYTHON=$(PYTHON) tests/run_tests.sh $(TEST_BINS)

install: all
	install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 include/npydt.h $(DESTDIR)$(INCLUDEDIR)/npydt.h
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/libnpydt.a
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/libnpydt.so.$(VERSION)
	ln -sf libnpydt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libnpydt.so
	install -m 755 $(CLI) $(DESTDIR)$(BINDIR)/npydt
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    npydt.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/npydt.pc

uninstall:
	rm -f $(DESTDIR)$(INCLUDEDIR)/npydt.h $(DESTDIR)$(LIBDIR)/libnpydt.a \
	      $(DESTDIR)$(LIBDIR)/libnpydt.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	      $(DESTDIR)$(LIBDIR)/libnpydt.so $(DESTDIR)$(BINDIR)/npydt \
	      $(DESTDIR)$(PKGCONFIGDIR)/npydt.pc

clean:
	rm -rf $(O)

# @fuzz-targets@

# @bench-targets@

-include $(wildcard $(O)/lib/*.d $(O)/cli/*.d $(O)/tests/*.d)
