# urbscope - one plain Makefile.
#
#   make          build ./urbscope
#   make deps     install missing Debian packages (as root), else print how
#   make run      deps + build + open the main job (the TUI's demo; without
#                 a terminal, the demo printed as text)
#   make test     everything CI runs (unit, golden, end-to-end, tshark)
#   make bench    speed and memory comparisons (not part of test)
#   make fuzz     each libFuzzer target for FUZZ_TIME seconds (not part
#                 of test, which replays their regression inputs)
#   make clean

VERSION	= 0.1.0
PREFIX	?= /usr/local
BINDIR	?= $(PREFIX)/bin
MANDIR	?= $(PREFIX)/share/man
# Wireshark's extcap folder (its doc/README.extcap): where Debian's
# Wireshark 4.0 and later look; the per-user one (install-user) is read
# by Wireshark 4.2 and later
WSLIBDIR ?= /usr/lib/$(shell $(CC) -print-multiarch 2>/dev/null)/wireshark
EXTCAPDIR ?= $(WSLIBDIR)/extcap
USER_EXTCAPDIR ?= $(HOME)/.local/lib/wireshark/extcap
# Its Lua plugin folders (tshark -G folders), for the driver events'
# dissector, wireshark/urbscope.lua; Wireshark 4.0 reads both
LUADIR ?= $(WSLIBDIR)/plugins
USER_LUADIR ?= $(HOME)/.local/lib/wireshark/plugins

CC	?= cc
PKG_CONFIG ?= pkg-config
INSTALL	?= install

WARN	= -Wall -Wextra -Wformat=2 -Wmissing-prototypes -Wstrict-prototypes \
	  -Wshadow -Wpointer-arith -Wwrite-strings -Wundef
ifeq ($(CI),true)
WARN	+= -Werror
endif

# The user's CFLAGS, CPPFLAGS and LDFLAGS (make CFLAGS=-O0) add to what
# the project needs; they replace only the default optimisation.
CFLAGS	?= -O3 -g
PKGS	= ncursesw libusb-1.0 zlib libzstd
# eBPF for `capture --drivers` (capture/cap-bpf.c): built when clang,
# bpftool and libbpf are there; without them --drivers says so.  Only
# what calls cap_bpf_open links libbpf (--as-needed, below).
BPF_CLANG ?= clang
BPFTOOL	?= $(shell command -v bpftool 2>/dev/null || \
	   ls /usr/sbin/bpftool 2>/dev/null)
HAVE_BPF := $(shell command -v $(BPF_CLANG) >/dev/null 2>&1 && \
	    [ -n "$(BPFTOOL)" ] && $(PKG_CONFIG) --exists libbpf && echo 1)
ifeq ($(HAVE_BPF),1)
PKGS	+= libbpf
endif
PKG_CPPFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
LIBS	:= $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
TEST_PKGS_FLAGS = $$($(PKG_CONFIG) --cflags --libs cmocka libpcap)
XCPPFLAGS = -D_GNU_SOURCE -I. $(PKG_CPPFLAGS) $(CPPFLAGS)
XCFLAGS	= -std=c11 $(WARN) $(CFLAGS)
SANFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	   -fno-sanitize-recover=undefined
XSANFLAGS = -std=c11 $(WARN) $(SANFLAGS)
# Each object's header dependencies, written as it compiles: touching a
# header rebuilds the objects that include it, and only those.
DEPFLAGS = -MMD -MP

MAIN_SRC = cmd/urbscope.c
SRCS	= $(filter-out $(MAIN_SRC),$(sort $(wildcard capture/*.c decode/*.c \
	  core/*.c hcd/*.c tui/*.c cmd/*.c samples/*.c samples/devices/*.c samples/drivers/*.c)))
OBJS	= $(SRCS:%.c=build/%.o)
AOBJS	= $(SRCS:%.c=build/asan/%.o)

# One static library a layer, linked top first: a program pulls in only
# the objects it needs, so a reader of files gets no simulator, and with
# --as-needed no ncurses or libusb either.  tests/e2e/layers.sh checks the
# include graph that makes this order work.
LAYERS	= cmd tui samples hcd core capture decode
LIBA	= $(LAYERS:%=build/lib%.a)
ALIBA	= $(LAYERS:%=build/asan/lib%.a)
FLIBA	= $(LAYERS:%=build/fuzz/lib%.a)
LINKLIBS = -Wl,--as-needed $(LIBS)

UNIT_SRCS = $(sort $(wildcard tests/unit/test-*.c))
UNIT_BINS = $(UNIT_SRCS:tests/unit/%.c=build/asan/tests/%)
TOOL_SRCS = $(sort $(wildcard tests/tools/*.c))
TOOL_BINS = $(TOOL_SRCS:tests/tools/%.c=build/tools/%)

# Fuzz targets (tests/fuzz/): replayed on their regression inputs by make
# test (built with gcc and the sanitizers, main() from replay.c), run by
# libFuzzer in make fuzz (built with clang).
FUZZ_SRCS = $(sort $(wildcard tests/fuzz/fuzz-*.c))
FUZZ_NAMES = $(FUZZ_SRCS:tests/fuzz/%.c=%)
FUZZ_REPLAY = $(FUZZ_NAMES:%=build/asan/fuzz/%)
FUZZ_BINS = $(FUZZ_NAMES:%=build/fuzz/%)
FUZZ_CC	= clang
FUZZ_FLAGS = -O1 -g -fno-omit-frame-pointer -fno-sanitize-recover=undefined
FOBJS	= $(SRCS:%.c=build/fuzz/obj/%.o)
# The objects stay beside their libraries (make would delete them as
# intermediate files): a rebuild recompiles only what changed.
.SECONDARY: $(OBJS) $(AOBJS) $(FOBJS)

# Debian packages: to build, and to run the tests.
DEPS_BUILD = gcc make pkg-config libpcap-dev libncurses-dev libusb-1.0-0-dev \
	     zlib1g-dev libzstd-dev clang libbpf-dev bpftool \
	     usb.ids
DEPS_TEST  = libcmocka-dev tshark tmux python3 time qemu-system-x86 busybox-static cpio usbutils xz-utils \
	     qemu-system-arm gcc-aarch64-linux-gnu \
	     linux-libc-dev-arm64-cross
DEPS_FUZZ  = clang libclang-rt-dev

.PHONY: all deps deps-build run test bench clean unit tools fuzz fuzz-replay \
	install install-user uninstall check-one check-clang

all: urbscope

urbscope: build/$(MAIN_SRC:.c=.o) $(LIBA)
	$(CC) $(XCFLAGS) $(LDFLAGS) -o $@ $^ $(LINKLIBS)

# build/libLAYER.a from the layer's objects (samples/ with its subfolders;
# PCT: a % that the pattern rule does not take for its stem)
PCT	:= %
.SECONDEXPANSION:
build/lib%.a: $$(filter build/$$*/$$(PCT),$$(OBJS))
	@rm -f $@
	$(AR) rcs $@ $^
build/asan/lib%.a: $$(filter build/asan/$$*/$$(PCT),$$(AOBJS))
	@rm -f $@
	$(AR) rcs $@ $^
build/fuzz/lib%.a: $$(filter build/fuzz/obj/$$*/$$(PCT),$$(FOBJS))
	@rm -f $@
	$(AR) rcs $@ $^

build/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(XCPPFLAGS) $(XCFLAGS) $(DEPFLAGS) -c -o $@ $<

build/asan/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(XCPPFLAGS) $(XSANFLAGS) $(DEPFLAGS) -c -o $@ $<

# The BPF object, compiled once (CO-RE: it runs on any kernel with BTF)
# and embedded in cap-bpf.o as a skeleton.
# bpf_tracing.h's __TARGET_ARCH_*: the machine as the kernel's ARCH names
# it (a 32-bit ARM userland, armv7l, is arm; aarch64 is arm64).
UNAME_M	?= $(shell uname -m)
BPF_ARCH := $(shell echo '$(UNAME_M)' | sed 's/x86_64/x86/;s/^i.86$$/x86/; \
	    s/^arm.*/arm/;s/aarch64/arm64/;s/^ppc64.*/powerpc/;s/s390x/s390/; \
	    s/riscv64/riscv/;s/loongarch64/loongarch/;s/^mips.*/mips/')
# A cross build (tests/kernel/cross.sh) names the target's root, whose
# usr/include/TRIPLET/asm the BPF object includes: BPF_SYSROOT=DIR.
BPF_INC	:= $(shell $(CC) -print-multiarch 2>/dev/null)
BPF_SYSROOT ?=
build/bpf/usbtrace.bpf.o: capture/bpf/usbtrace.bpf.c capture/bpf/usbtrace.h
	@mkdir -p $(@D)
	$(BPF_CLANG) -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -O2 -g -Wall \
	    $(BPF_INC:%=-I$(BPF_SYSROOT)/usr/include/%) -c -o $@ $<
build/bpf/usbtrace.skel.h: build/bpf/usbtrace.bpf.o
	$(BPFTOOL) gen skeleton $< name usbtrace >$@.tmp && mv $@.tmp $@
ifeq ($(HAVE_BPF),1)
BPF_OBJS = build/capture/cap-bpf.o build/asan/capture/cap-bpf.o \
	   build/fuzz/obj/capture/cap-bpf.o
$(BPF_OBJS): build/bpf/usbtrace.skel.h
$(BPF_OBJS): XCPPFLAGS += -DHAVE_BPF -Ibuild/bpf
endif

# The one version string: --version, and the man page is checked to say it.
build/cmd/urbscope.o build/asan/cmd/urbscope.o: Makefile
build/cmd/urbscope.o build/asan/cmd/urbscope.o: \
    XCPPFLAGS += -DURBSCOPE_VERSION='"$(VERSION)"'

# The sanitized binary the golden and end-to-end tests run.
build/asan/urbscope: build/asan/$(MAIN_SRC:.c=.o) $(ALIBA)
	$(CC) $(SANFLAGS) $(LDFLAGS) -o $@ $^ $(LINKLIBS)

build/asan/tests/%: tests/unit/%.c $(ALIBA)
	@mkdir -p $(@D)
	$(CC) $(XCPPFLAGS) $(XSANFLAGS) -Wno-missing-prototypes $(DEPFLAGS) \
	    $(LDFLAGS) -o $@ $< $(ALIBA) $(LINKLIBS) $(TEST_PKGS_FLAGS)

# Helper programs for tests and benchmarks (capture generator, libpcap
# baseline), built optimised.
build/tools/%: tests/tools/%.c $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(XCPPFLAGS) $(XCFLAGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $< \
	    $(LIBA) $(LINKLIBS) $$($(PKG_CONFIG) --cflags --libs libpcap)

build/asan/fuzz/%: tests/fuzz/%.c tests/fuzz/replay.c $(ALIBA)
	@mkdir -p $(@D)
	$(CC) $(XCPPFLAGS) $(XSANFLAGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $< \
	    tests/fuzz/replay.c $(ALIBA) $(LINKLIBS)

build/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(XCPPFLAGS) -std=c11 $(WARN) $(FUZZ_FLAGS) $(DEPFLAGS) \
	    -fsanitize=fuzzer-no-link,address,undefined -c -o $@ $<

build/fuzz/%: tests/fuzz/%.c $(FLIBA)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(XCPPFLAGS) -std=c11 $(WARN) $(FUZZ_FLAGS) $(DEPFLAGS) \
	    -fsanitize=fuzzer,address,undefined $(LDFLAGS) -o $@ $< \
	    $(FLIBA) $(LINKLIBS)

# Every source through clang's warnings too, without building (make fuzz
# compiles with clang, make with cc): tests/e2e/build.sh runs it.
BPF_FLAGS_cap-bpf = $(if $(filter 1,$(HAVE_BPF)),-DHAVE_BPF -Ibuild/bpf)
check-clang: $(if $(filter 1,$(HAVE_BPF)),build/bpf/usbtrace.skel.h)
	@for f in $(MAIN_SRC) $(SRCS) $(FUZZ_SRCS); do \
		case $$f in capture/cap-bpf.c) x="$(BPF_FLAGS_cap-bpf)" ;; \
		$(MAIN_SRC)) x=-DURBSCOPE_VERSION='"$(VERSION)"' ;; \
		*) x= ;; esac; \
		$(FUZZ_CC) $(XCPPFLAGS) $$x -std=c11 $(WARN) -Werror \
		    -fsyntax-only $$f || exit 1; \
	done

unit: $(UNIT_BINS)
tools: $(TOOL_BINS)
fuzz-replay: $(FUZZ_REPLAY)

# What building and running need; what the tests need besides (QEMU and
# friends are for make test-kernel only, not for make run).
deps-build:
	@sh tests/deps.sh $(DEPS_BUILD)

deps:
	@sh tests/deps.sh $(DEPS_BUILD) $(DEPS_TEST)

run: deps-build
	@$(MAKE) --no-print-directory all
	@if [ -t 0 ] && [ -t 1 ]; then \
		echo ./urbscope; ./urbscope; \
	else \
		echo "make run: the viewer needs a terminal; the demo as" \
		    "text instead (./urbscope sim demo):" >&2; \
		./urbscope sim demo; \
	fi

# As root, make test installs what it needs; as another user it says
# what is missing and runs what can run (the rest says "skip").
test:
	@sh tests/deps.sh --soft $(DEPS_BUILD) $(DEPS_TEST)
	@$(MAKE) --no-print-directory urbscope build/asan/urbscope unit tools \
	    fuzz-replay
	@sh tests/run.sh

# Each fuzz target for FUZZ_TIME seconds (or FUZZ_RUNS executions) from
# a seed corpus; what it finds is copied into tests/fuzz/regress/.
FUZZ_TIME ?= 60
FUZZ_RUNS ?= 0
fuzz: urbscope
	@sh tests/deps.sh $(DEPS_FUZZ)
	@$(MAKE) --no-print-directory $(FUZZ_BINS)
	@sh tests/fuzz/run.sh $(FUZZ_TIME) $(FUZZ_RUNS) $(FUZZ_NAMES)

bench: urbscope tools
	@sh tests/bench.sh

# One unit test, quickly: make check-one T=state (or T=test-state).
check-one:
	@test -n "$(T)" || { echo "usage: make check-one T=NAME" >&2; exit 2; }
	@$(MAKE) --no-print-directory build/asan/tests/test-$(T:test-%=%)
	build/asan/tests/test-$(T:test-%=%)

install: urbscope
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(EXTCAPDIR) $(DESTDIR)$(LUADIR)
	$(INSTALL) -m 755 urbscope $(DESTDIR)$(BINDIR)/urbscope
	$(INSTALL) -m 644 docs/urbscope.1 $(DESTDIR)$(MANDIR)/man1/urbscope.1
	ln -sf $(BINDIR)/urbscope $(DESTDIR)$(EXTCAPDIR)/urbscope
	$(INSTALL) -m 644 wireshark/urbscope.lua $(DESTDIR)$(LUADIR)/urbscope.lua

# For one user: the dissector (any Wireshark), the extcap (Wireshark 4.2
# and later read this folder)
install-user: urbscope
	$(INSTALL) -d $(USER_EXTCAPDIR) $(USER_LUADIR)
	ln -sf $(CURDIR)/urbscope $(USER_EXTCAPDIR)/urbscope
	$(INSTALL) -m 644 wireshark/urbscope.lua $(USER_LUADIR)/urbscope.lua

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/urbscope $(DESTDIR)$(MANDIR)/man1/urbscope.1 \
	    $(DESTDIR)$(EXTCAPDIR)/urbscope $(DESTDIR)$(LUADIR)/urbscope.lua

clean:
	rm -rf build urbscope

# Capture inside a real Linux kernel under QEMU and compare with the
# kernel's own records (tests/kernel/README.md); skips without QEMU.
# tests/run.sh runs it as part of `make test`.
.PHONY: test-kernel
test-kernel: urbscope
	@sh tests/kernel/run.sh

# The header dependencies the compiler wrote (none before the first build):
# files only, and not among the kernels tests/kernel unpacks (tens of
# thousands of files, and apt's sources.list.d there is a directory).
-include $(shell find build -path build/kernel -prune -o -type f \
	   -name '*.d' -print 2>/dev/null)
