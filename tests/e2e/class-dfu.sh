#!/bin/sh
# tests/e2e/class-dfu.sh - the DFU class decoder (decode/dec-dfu.c)
# against tshark on capgen's dfu scenario (tests/tools/capgen.c): the
# functional descriptor as Wireshark's usbdfu.descriptor node, the
# requests' usbdfu.command and setup words, the answers' generated
# usbdfu.response, interface and command frame and what GETSTATUS,
# GETSTATE and UPLOAD return; every usbdfu.* field tshark 4.0 prints,
# record by record.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
plan 14

CAPGEN=${CAPGEN:-build/tools/capgen}
if [ ! -x "$CAPGEN" ]; then
	skip_rest "DFU capture" "$CAPGEN is not built (make tools)"
fi
D=$TMP/dfu.pcap
"$CAPGEN" dfu -F pcap -w "$D"
check "capgen dfu writes a capture" test -s "$D"

sum() { "$US" read "$D" 2>/dev/null | awk -v n="$1" '$1 == n' |
    sed 's/.*  //'; }
"$US" read "$D" >"$TMP/text" 2>"$TMP/err"
check "read: no sanitizer report" no_sanitizer_report "$TMP/err"
check "GETSTATUS answer: status, state, poll timeout" grep -q \
    'DFU_GETSTATUS: errVerify, dfuError, poll 0 ms' "$TMP/text"
check "DNLOAD: its block and length" grep -q \
    'DFU_DNLOAD block 1, 64 bytes' "$TMP/text"
"$US" read -V "$D" -Y usbdfu.descriptor >"$TMP/v" 2>&1
check "-V: the functional descriptor's node, as tshark names it" grep -q \
    'DFU Descriptor: DFU FUNCTIONAL' "$TMP/v"

if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "DFU fields against tshark" "tshark is not installed"
fi

tshark_fields '^usbdfu\\.'
n=$(wc -l <"$TMP/both")
check "urbscope prints every usbdfu field of tshark ($n of $(wc -l \
    <"$TMP/all"))" cmp -s "$TMP/all" "$TMP/both"
# tshark 4.0 throws at the empty DNLOAD's Data (the one that ends a
# download) and so keeps the previous command for the next answer: the
# answers whose usbdfu.command_frame is not their usb.request_in are left
# out (urbscope's is the request's own)
tshark -r "$D" -T fields -e frame.number -e usbdfu.command_frame \
    -e usb.request_in 2>/dev/null | awk -F'\t' '$2 != "" && $2 != $3 {
    print $1 }' >"$TMP/quirk"
check_eq "tshark pairs one answer with an earlier command" 1 \
    "$(wc -l <"$TMP/quirk")"
args=$(sed 's/^/-e /' "$TMP/both" | tr '\n' ' ')
# only_dfu FILE: the records with a usbdfu field, the quirk's left out
only_dfu() {
	awk -F'\t' 'NR == FNR { skip[$1] = 1; next } !($1 in skip) {
	    l = $0; sub(/^[0-9]+/, "", l); gsub(/\t/, "", l)
	    if (l != "") print }' "$TMP/quirk" "$1"
}
# shellcheck disable=SC2086
tshark -r "$D" -T fields -e frame.number $args 2>/dev/null >"$TMP/ts.f"
# shellcheck disable=SC2086
"$US" read "$D" -T fields -e frame.number $args >"$TMP/us.f" 2>"$TMP/err"
check "-T fields: no sanitizer report" no_sanitizer_report "$TMP/err"
only_dfu "$TMP/ts.f" >"$TMP/ts.cmp"
only_dfu "$TMP/us.f" >"$TMP/us.cmp"
check "tshark prints usbdfu fields on $(wc -l <"$TMP/ts.cmp") records" \
    test "$(wc -l <"$TMP/ts.cmp")" -ge 30
check_diff "every usbdfu.* field as tshark's, record by record" \
    "$TMP/ts.cmp" "$TMP/us.cmp"
# the run-time device (1d50:6018) is not one tshark decodes as DFU: its
# GETSTATUS answer stays usb.control.Response; a DNLOAD's data is also
# usb.data_fragment
for f in usb.control.Response usb.data_fragment; do
	tshark -r "$D" -Y "$f" -T fields -e frame.number -e "$f" \
	    >"$TMP/ts.d" 2>/dev/null
	"$US" read "$D" -Y "$f" -T fields -e frame.number -e "$f" \
	    >"$TMP/us.d" 2>/dev/null
	check "$f as tshark's ($(wc -l <"$TMP/ts.d") records)" sh -c \
	    "test -s '$TMP/ts.d' && cmp -s '$TMP/ts.d' '$TMP/us.d'"
done
for y in usbdfu usbdfu.descriptor; do
	check_eq "-Y $y: the records tshark's filter matches" \
	    "$(tshark -r "$D" -Y "$y" -T fields -e frame.number 2>/dev/null |
	    tr '\n' ' ')" \
	    "$("$US" read "$D" -Y "$y" -T fields -e frame.number 2>/dev/null |
	    tr '\n' ' ')"
done
