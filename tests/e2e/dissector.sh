#!/bin/sh
# tests/e2e/dissector.sh - wireshark/urbscope.lua, the driver events as
# Wireshark fields, checked by tshark 4.0 itself (-X lua_script:) on every
# built-in scenario: the rules tshark finds (urbscope.rule) are the ones
# urbscope finds (-Y 'event==rule'); every submit and giveback links to
# the usbmon S or C frame of its URB (urbscope.submit_in, complete_in: the
# frame's usb.urb_id is the event's urbscope.urb, one event per frame, no
# accepted submit and no giveback left without) and those frames link
# back; no Lua error, and no frame more malformed than without the
# script.  Then on buggy's capture: the fields against urbscope's own
# (-T fields), the rules in Wireshark's Expert Information as errors, the
# Protocol and Info columns; and the script installed in the personal
# plugin folder, loaded without -X.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

LUA=wireshark/urbscope.lua
scenarios=$("$US" sim --help 2>&1 | tr '\n' ' ' |
    sed 's/.*Built-in scenarios: \(.*\); or a scenario.*/\1/')
n=$(echo "$scenarios" | wc -w)
plan $((n * 3 + 7))
if ! command -v tshark >/dev/null 2>&1; then
	skip_rest "the dissector" "no tshark"
fi
TS="tshark -X lua_script:$LUA"

for s in $scenarios; do
	"$US" sim "$s" -w "$TMP/$s.pcapng" 2>/dev/null
	want=$("$US" read "$TMP/$s.pcapng" -Y 'event == rule' 2>/dev/null |
	    wc -l)
	check_eq "$s: tshark's urbscope.rule frames are urbscope's rules" \
	    "$want" "$($TS -r "$TMP/$s.pcapng" -Y urbscope.rule 2>/dev/null |
	    wc -l)"
	$TS -2 -r "$TMP/$s.pcapng" -T fields -E separator=/t \
	    -e frame.number -e urbscope.kind -e urbscope.urb \
	    -e urbscope.result -e urbscope.submit_in -e urbscope.complete_in \
	    -e urbscope.submit_event -e urbscope.giveback_event -e usb.urb_id \
	    -e usb.urb_type >"$TMP/links" 2>/dev/null
	# frame kind urb result submit_in complete_in submit_event
	# giveback_event urb_id urb_type
	bad=$(awk -F'\t' '
	function num(h) { sub(/^0x0*/, "", h); return h }
	{ k[$1] = $2; u[$1] = num($3); r[$1] = $4; si[$1] = $5
	  ci[$1] = $6; se[$1] = $7; ge[$1] = $8; id[$1] = num($9)
	  t[$1] = $10; n = $1 }
	END {
		for (i = 1; i <= n; i++) {
			if (k[i] == "submit" && r[i] == "0" && si[i] == "")
				print "submit " i " unlinked"
			if (k[i] == "giveback" && ci[i] == "")
				print "giveback " i " unlinked"
			l = k[i] == "submit" ? si[i] : k[i] == "giveback" ? \
			    ci[i] : ""
			if (l == "")
				continue
			if (id[l] != u[i])
				print i " links to " l ", another URB"
			if (++used[l] > 1)
				print l " linked twice"
			b = k[i] == "submit" ? se[l] : ge[l]
			if (b != i)
				print l " links back to " b ", not " i
		}
	}' "$TMP/links")
	check_eq "$s: submits and givebacks linked to their URB's S and C frames, and back" \
	    "" "$bad"
	m0=$(tshark -r "$TMP/$s.pcapng" -Y _ws.malformed 2>/dev/null | wc -l)
	m1=$($TS -r "$TMP/$s.pcapng" -Y _ws.malformed 2>/dev/null | wc -l)
	e=$($TS -r "$TMP/$s.pcapng" -V 2>&1 | grep -c 'Lua Error')
	check_eq "$s: no Lua error, no frame more malformed than without it" \
	    "0 $m0" "$e $m1"
done

# the fields, against urbscope's own reading of the same events
"$US" read "$TMP/buggy.pcapng" -Y event -T fields -e frame.number \
    -e driver -e function -e usb.urb_id -e usb.endpoint_address -e length \
    -e mem_flags -e context -e minor -e result -e rule 2>/dev/null |
    awk -F'\t' -v OFS='\t' '
    BEGIN { g["GFP_NOIO"] = 16; g["GFP_ATOMIC"] = 32; g["GFP_NOFS"] = 80
	g["GFP_KERNEL"] = 208; c["task"] = 0; c["irq"] = 1; c["timer"] = 2
	c["atomic"] = 3 }
    { sub(/^0x0*/, "", $4); if ($7 != "") $7 = g[$7]; if ($8 != "")
	$8 = c[$8]; print }' >"$TMP/want"
$TS -r "$TMP/buggy.pcapng" -Y urbscope \
    -T fields -e frame.number -e urbscope.driver -e urbscope.func \
    -e urbscope.urb -e urbscope.ep -e urbscope.len -e urbscope.mem_flags \
    -e urbscope.context -e urbscope.minor -e urbscope.result \
    -e urbscope.rule 2>/dev/null |
    awk -F'\t' -v OFS='\t' '
    function hex(h,   i, v) { v = 0; h = tolower(substr(h, 3))
	for (i = 1; i <= length(h); i++)
		v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
	return v }
    { sub(/^0x0*/, "", $4); if ($7 != "") $7 = hex($7); print }' \
    >"$TMP/got"
check_diff "buggy: driver, function, URB, endpoint, length, mem_flags, context, minor, result, rule as urbscope reads them" \
    "$TMP/want" "$TMP/got"

rules=$("$US" read "$TMP/buggy.pcapng" -Y 'event == rule' 2>/dev/null |
    wc -l)
check_eq "buggy: Wireshark's Expert Information lists each rule as an error" \
    "$rules" "$($TS -q -r "$TMP/buggy.pcapng" -z expert,error 2>/dev/null |
    sed -n 's/^Errors (\([0-9]*\))$/\1/p')"
$TS -r "$TMP/buggy.pcapng" -Y urbscope.rule -T fields -e _ws.col.Protocol \
    -e _ws.col.Info 2>/dev/null | head -n 1 >"$TMP/cols"
check_eq "buggy: the Protocol and Info columns" \
    "urbscope	buggy probe: RULE submit-active-urb: usb_submit_urb of URB 0x5e0000000100 while it is still in flight" \
    "$(cat "$TMP/cols")"
check_eq "buggy: a submit the URB was in flight for: refused, not linked" \
    "-16	" "$($TS -2 -r "$TMP/buggy.pcapng" \
    -Y 'urbscope.kind == "submit" && urbscope.result != 0' -T fields \
    -e urbscope.result -e urbscope.submit_in 2>/dev/null | head -n 1)"

# installed as a personal Lua plugin: tshark loads it alone
mkdir -p "$TMP/home/.local/lib/wireshark/plugins"
cp "$LUA" "$TMP/home/.local/lib/wireshark/plugins/"
check_eq "installed in the personal plugin folder: loaded without -X" \
    "$rules" "$(HOME=$TMP/home tshark -r "$TMP/buggy.pcapng" \
    -Y urbscope.rule 2>/dev/null | wc -l)"
check_eq "buggy: its minors' nodes (urbscope.node, from register_dev)" \
    "200 /dev/usb/buggy0,96 /dev/usb/kbd0" "$($TS -r "$TMP/buggy.pcapng" \
    -Y urbscope.node -T fields -E separator=' ' -e urbscope.minor \
    -e urbscope.node 2>/dev/null | paste -sd, -)"
check "tshark -G fields lists urbscope.urb, FT_UINT64 as usb.urb_id" sh -c \
    "HOME='$TMP/home' tshark -G fields 2>/dev/null |
    grep -q '	urbscope.urb	FT_UINT64	urbscope	BASE_HEX'"
