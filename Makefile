# urbscope - one plain Makefile.
#
#   make          build ./urbscope
#   make deps     install missing Debian packages (as root), else print how
#   make run      deps + build + open the main job
#   make test     everything CI runs (unit, golden, end-to-end, tshark)
#   make bench    speed and memory comparisons (not part of test)
#   make clean

CC	?= cc
PKG_CONFIG ?= pkg-config

WARN	= -Wall -Wextra -Wformat=2 -Wmissing-prototypes -Wstrict-prototypes \
	  -Wshadow -Wpointer-arith -Wwrite-strings -Wundef
ifeq ($(CI),true)
WARN	+= -Werror
endif

CPPFLAGS += -D_GNU_SOURCE -I.
CFLAGS	?= -O3 -g
CFLAGS	+= -std=c11 $(WARN)
SANFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	   -fno-sanitize-recover=undefined

# Libraries: every module links into the one binary.
LIBS	= $$($(PKG_CONFIG) --libs ncursesw libusb-1.0)
CPPFLAGS += $$($(PKG_CONFIG) --cflags ncursesw libusb-1.0)

MAIN_SRC = tui/urbscope.c
SRCS	= $(filter-out $(MAIN_SRC),$(sort $(wildcard capture/*.c decode/*.c \
	  core/*.c hcd/*.c tui/*.c samples/devices/*.c samples/drivers/*.c)))
HDRS	= $(wildcard */*.h samples/*/*.h)
OBJS	= $(SRCS:%.c=build/%.o)
AOBJS	= $(SRCS:%.c=build/asan/%.o)

UNIT_SRCS = $(sort $(wildcard tests/unit/test-*.c))
UNIT_BINS = $(UNIT_SRCS:tests/unit/%.c=build/asan/tests/%)
TOOL_SRCS = $(sort $(wildcard tests/tools/*.c))
TOOL_BINS = $(TOOL_SRCS:tests/tools/%.c=build/tools/%)

# Debian packages: to build, and to run the tests.
DEPS_BUILD = gcc make pkg-config libpcap-dev libncurses-dev libusb-1.0-0-dev
DEPS_TEST  = libcmocka-dev tshark tmux python3 time qemu-system-x86 busybox-static cpio usbutils

.PHONY: all deps deps-build run test bench clean unit tools

all: urbscope

urbscope: $(OBJS) build/$(MAIN_SRC:.c=.o)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

build/%.o: %.c $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

build/asan/%.o: %.c $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -std=c11 $(WARN) $(SANFLAGS) -c -o $@ $<

# The sanitized binary the golden and end-to-end tests run.
build/asan/urbscope: $(AOBJS) build/asan/$(MAIN_SRC:.c=.o)
	$(CC) $(SANFLAGS) -o $@ $^ $(LIBS)

build/asan/tests/%: tests/unit/%.c $(AOBJS) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -std=c11 $(WARN) -Wno-missing-prototypes $(SANFLAGS) \
	    -o $@ $< $(AOBJS) $(LIBS) \
	    $$($(PKG_CONFIG) --cflags --libs cmocka libpcap)

# Helper programs for tests and benchmarks (capture generator, libpcap
# baseline), built optimised.
build/tools/%: tests/tools/%.c $(OBJS) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(OBJS) $(LIBS) \
	    $$($(PKG_CONFIG) --cflags --libs libpcap)

unit: $(UNIT_BINS)
tools: $(TOOL_BINS)

# What building and running need; what the tests need besides (QEMU and
# friends are for make test-kernel only, not for make run).
deps-build:
	@sh tests/deps.sh $(DEPS_BUILD)

deps:
	@sh tests/deps.sh $(DEPS_BUILD) $(DEPS_TEST)

run: deps-build
	@$(MAKE) --no-print-directory all
	./urbscope

test: deps
	@$(MAKE) --no-print-directory urbscope build/asan/urbscope unit tools
	@sh tests/run.sh

bench: urbscope tools
	@sh tests/bench.sh

clean:
	rm -rf build urbscope

# Capture inside a real Linux kernel under QEMU and compare with the
# kernel's own records (tests/kernel/README.md); skips without QEMU.
# tests/run.sh runs it as part of `make test`.
.PHONY: test-kernel
test-kernel: urbscope
	@sh tests/kernel/run.sh
