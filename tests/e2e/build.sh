#!/bin/sh
# tests/e2e/build.sh - the build itself: the user's flags add to the
# project's, header dependencies are exact, one version string, install.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 30

version=$(sed -n 's/^VERSION[[:space:]]*=[[:space:]]*//p' Makefile)
check "the Makefile names a version" test -n "$version"
check_eq "--version says the Makefile's VERSION" "urbscope $version" \
    "$("$US" --version)"
check "the man page's title line says it too" \
    grep -q "^\.TH URBSCOPE 1 .* \"urbscope $version\"" docs/urbscope.1

# make CFLAGS=-O0: -O0 replaces -O3, the rest stays.
make -nB CFLAGS=-O0 CPPFLAGS=-DX_USER build/decode/dec-fmt.o \
    >"$TMP/n" 2>&1
line=$(grep ' -c ' "$TMP/n")
for w in -O0 -std=c11 -I. -Wall -D_GNU_SOURCE -DX_USER -MMD; do
	case " $line " in
	*" $w "*) ok "make CFLAGS=-O0 CPPFLAGS=...: compiles with $w" ;;
	*) notok "make CFLAGS=-O0 CPPFLAGS=...: compiles with $w"
	   echo "#   $line" ;;
	esac
done
case " $line " in
*" -O3 "*) notok "user CFLAGS replace -O3" ;;
*) ok "user CFLAGS replace -O3" ;;
esac

# The BPF object's target architecture from uname -m, as the kernel's
# ARCH names it (bpf_tracing.h's __TARGET_ARCH_*).
for m in x86_64:x86 aarch64:arm64 armv7l:arm ppc64le:powerpc; do
	a=$(make -nB UNAME_M="${m%%:*}" build/bpf/usbtrace.bpf.o 2>/dev/null |
	    grep -o -- '-D__TARGET_ARCH_[a-z0-9_]*' | head -n 1)
	check_eq "the BPF target of ${m%%:*} is ${m#*:}" \
	    "-D__TARGET_ARCH_${m#*:}" "$a"
done

# The BPF object builds for arm64 too (its caller from x30, its "irqs
# off" from PSTATE's I bit), with Debian's arm64 kernel headers.
ARMINC=/usr/aarch64-linux-gnu/include
if command -v clang >/dev/null 2>&1 && [ -f "$ARMINC/asm/ptrace.h" ]; then
	check "the BPF object compiles for arm64" clang -target bpf \
	    -D__TARGET_ARCH_arm64 -O2 -g -Wall -Werror -I"$ARMINC" \
	    -c -o "$TMP/usbtrace-arm64.o" capture/bpf/usbtrace.bpf.c
else
	why="no clang or no $ARMINC (apt-get install clang"
	skip "the BPF object for arm64" "$why linux-libc-dev-arm64-cross)"
fi

# Touching a header rebuilds its users only (make -W: as if touched).
make urbscope >/dev/null 2>&1
make -n -W decode/usbids.h urbscope >"$TMP/n" 2>&1
users=$(grep -c ' -c ' "$TMP/n")
expect=$(grep -l 'usbids\.h' $(git ls-files '*.c') | grep -v '^tests/' |
    wc -l)
check_eq "touching decode/usbids.h recompiles its $expect users" \
    "$expect" "$users"
make -n urbscope >"$TMP/n" 2>&1
check_eq "nothing is rebuilt when nothing changed" 0 \
    "$(grep -c ' -c ' "$TMP/n")"

# make fuzz compiles with clang: its warnings (as errors) hold too.
if command -v clang >/dev/null 2>&1; then
	make -s check-clang >"$TMP/n" 2>&1
	rc=$?
	check_eq "make check-clang: every source passes clang -Werror" 0 $rc
	[ $rc -eq 0 ] || head -n 10 "$TMP/n" | sed 's/^/#   /'
else
	skip "make check-clang" "clang is not installed"
fi

# make install with DESTDIR and PREFIX.
make install DESTDIR="$TMP/root" PREFIX=/usr >"$TMP/n" 2>&1
check "make install DESTDIR PREFIX=/usr: the binary" \
    test -x "$TMP/root/usr/bin/urbscope"
check "make install: the man page" \
    test -f "$TMP/root/usr/share/man/man1/urbscope.1"
check_eq "the installed binary runs" "urbscope $version" \
    "$("$TMP/root/usr/bin/urbscope" --version)"
ext=$(ls -d "$TMP"/root/usr/lib/*/wireshark/extcap 2>/dev/null | head -n 1)
check_eq "make install: the extcap in Wireshark's folder, linked to the binary" \
    /usr/bin/urbscope "$(readlink "$ext/urbscope" 2>/dev/null)"
check "make install: the driver events' dissector in Wireshark's Lua folder" \
    cmp -s wireshark/urbscope.lua "$ext/../plugins/urbscope.lua"

# make run without a terminal (make run | tee log): no usage and no make
# error, but the demo as text, saying why; `urbscope` alone in a pipe
# keeps its usage error and says what the demo would need.
make -s --no-print-directory run </dev/null >"$TMP/run.out" 2>"$TMP/run.err"
rc=$?
if grep -q "needs these Debian packages" "$TMP/run.err"; then
	skip "make run without a terminal" "build packages are missing" 4
else
	check_eq "make run without a terminal exits 0" 0 $rc
	check "make run without a terminal says the viewer needs one" \
	    grep -q "^make run: the viewer needs a terminal" "$TMP/run.err"
	./urbscope sim demo >"$TMP/demo.txt" 2>/dev/null
	check "make run without a terminal prints the demo as text" \
	    test -s "$TMP/run.out"
	check_diff "make run's text is urbscope sim demo's" "$TMP/demo.txt" \
	    "$TMP/run.out"
fi
"$US" </dev/null >/dev/null 2>"$TMP/err"
check_eq "urbscope alone in a pipe is a usage error" 2 $?
check "urbscope alone in a pipe says the viewer needs a terminal" \
    grep -q "^urbscope: the viewer .* needs a terminal" "$TMP/err"
