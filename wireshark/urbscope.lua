-- wireshark/urbscope.lua - urbscope's driver events as Wireshark fields.
--
-- urbscope writes its driver events (probe, submit, giveback, rule, ...)
-- into pcapng as exported PDUs (link type 252) beside the usbmon records:
-- one text line each, "urbscope-event KIND key=value ...", which Wireshark
-- shows as data-text-lines.  This post-dissector reads that line into
-- fields under the protocol "urbscope", so that they can be filtered
-- (urbscope.rule, urbscope.driver == "usb-storage"), graphed and put in
-- columns; links a submit and a giveback to the frames of their URB (the
-- usbmon S and C records with the same usb.urb_id, the nearest ones) and
-- those frames back to the events; puts a broken rule in Wireshark's
-- Expert Information as an error; and sets the Info column to the event.
-- Files written without this script keep showing the text line.  The
-- frames are read from their own bytes (a first pass builds no tree).
--
-- Load it with `tshark -X lua_script:urbscope.lua`, or put it in a Lua
-- plugin folder (`make install` does; tshark -G folders lists them).
-- The links to frames later in the file need two passes: Wireshark makes
-- them, tshark with -2.  Fields: tshark -G fields | grep urbscope.
-- Tested with Wireshark 4.0 (Debian 12) in tests/e2e/dissector.sh.

local urbscope = Proto("urbscope", "urbscope driver event")

local PREFIX = "urbscope-event "

local gfp_names = { [0x10] = "GFP_NOIO", [0x20] = "GFP_ATOMIC",
	[0x50] = "GFP_NOFS", [0xd0] = "GFP_KERNEL" }
local ctx_names = { [0] = "task", [1] = "irq", [2] = "timer",
	[3] = "atomic" }

local function inverse(t)
	local r = {}
	for k, v in pairs(t) do r[v] = k end
	return r
end
local gfp_values = inverse(gfp_names)
local ctx_values = inverse(ctx_names)

local f = {
	kind = ProtoField.string("urbscope.kind", "Event"),
	driver = ProtoField.string("urbscope.driver", "Driver"),
	-- a submit's caller, a giveback's completion handler
	func = ProtoField.string("urbscope.func", "Function"),
	bus = ProtoField.uint16("urbscope.bus", "Bus"),
	dev = ProtoField.uint8("urbscope.dev", "Device"),
	intf = ProtoField.int32("urbscope.intf", "Interface"),
	urb = ProtoField.uint64("urbscope.urb", "URB", base.HEX),
	ep = ProtoField.uint8("urbscope.ep", "Endpoint", base.HEX),
	len = ProtoField.uint32("urbscope.len", "Length"),
	entry = ProtoField.uint32("urbscope.entry", "id_table entry"),
	mem = ProtoField.uint32("urbscope.mem_flags", "mem_flags", base.HEX,
		gfp_names),
	ctx = ProtoField.uint8("urbscope.context", "Context", base.DEC,
		ctx_names),
	ptr = ProtoField.uint64("urbscope.ptr", "Pointer", base.HEX),
	minor = ProtoField.int32("urbscope.minor", "Minor"),
	result = ProtoField.int32("urbscope.result", "Result (status)"),
	rule = ProtoField.string("urbscope.rule", "Rule broken"),
	text = ProtoField.string("urbscope.text", "Text"),
	node = ProtoField.string("urbscope.node", "Device node"),
	submit_in = ProtoField.framenum("urbscope.submit_in",
		"URB submitted in (usbmon S)", base.NONE, frametype.REQUEST),
	complete_in = ProtoField.framenum("urbscope.complete_in",
		"URB completed in (usbmon C)", base.NONE, frametype.RESPONSE),
	submit_event = ProtoField.framenum("urbscope.submit_event",
		"Submitted by the driver event in", base.NONE,
		frametype.REQUEST),
	giveback_event = ProtoField.framenum("urbscope.giveback_event",
		"Given back by the driver event in", base.NONE,
		frametype.RESPONSE),
}
local fields = {}
for _, v in pairs(f) do fields[#fields + 1] = v end
urbscope.fields = fields

local ef_rule = ProtoExpert.new("urbscope.rule.broken",
	"A driver broke a rule of the USB core", expert.group.PROTOCOL,
	expert.severity.ERROR)
urbscope.experts = { ef_rule }

-- how each key of the line goes into the tree
local keyfield = { driver = f.driver, func = f.func, bus = f.bus,
	dev = f.dev, intf = f.intf, urb = f.urb, ep = f.ep, len = f.len,
	entry = f.entry, mem = f.mem, ctx = f.ctx, ptr = f.ptr,
	minor = f.minor, result = f.result, rule = f.rule, text = f.text }
local is64 = { urb = true, ptr = true }


-- What the first pass saw: the usbmon frames of each URB id (S and C/E
-- apart, in frame order) and the events that name a URB.
local seen_s, seen_c, ev_urb, ev_kind, links

-- Kept across Wireshark's init calls (tshark -2 makes one between its
-- passes): a new file, or a new first pass, starts at frame 1 unvisited.
local function reset()
	seen_s, seen_c, ev_urb, ev_kind, links = {}, {}, {}, {}, nil
end
reset()

-- The line after the prefix: its kind, then {key, value, offset, length}
-- for each key=value (a quoted value unescaped: \" \\ \n \t \xHH).
local function parse(s)
	local i = #PREFIX + 1
	local sp = s:find(" ", i, true) or #s + 1
	local kind = s:sub(i, sp - 1)
	local items = {}
	i = sp + 1
	while i <= #s do
		local eq = s:find("=", i, true)
		if not eq then break end
		local key = s:sub(i, eq - 1)
		local v, last
		if s:sub(eq + 1, eq + 1) == '"' then
			local k, buf = eq + 2, {}
			while k <= #s do
				local c = s:sub(k, k)
				if c == "\\" then
					local n = s:sub(k + 1, k + 1)
					if n == "n" then
						buf[#buf + 1] = "\n"; k = k + 2
					elseif n == "t" then
						buf[#buf + 1] = "\t"; k = k + 2
					elseif n == "x" then
						local h = tonumber(s:sub(k + 2, k + 3), 16)
						buf[#buf + 1] = h and string.char(h) or "?"
						k = k + 4
					else
						buf[#buf + 1] = n; k = k + 2
					end
				elseif c == '"' then
					break
				else
					buf[#buf + 1] = c; k = k + 1
				end
			end
			v, last = table.concat(buf), math.min(k, #s)
		else
			local e = s:find(" ", eq + 1, true) or #s + 1
			v, last = s:sub(eq + 1, e - 1), e - 1
		end
		items[#items + 1] = { key = key, value = v, off = i - 1,
			len = last - i + 1 }
		i = last + 2
	end
	return kind, items
end

-- A named number (GFP_KERNEL, irq) or a number (0x.., decimal).
local function number(key, v)
	if key == "mem" and gfp_values[v] then return gfp_values[v] end
	if key == "ctx" and ctx_values[v] then return ctx_values[v] end
	return tonumber(v)
end

-- The frame of list (frame numbers, ascending) nearest to n; nil if none.
-- A binary search (Lua 5.2: no integer division): one URB address can
-- come back thousands of times.
local function nearest(list, n)
	if not list or #list == 0 then return nil end
	local lo, hi = 1, #list
	while lo < hi do
		local mid = math.floor((lo + hi) / 2)
		if list[mid] < n then lo = mid + 1 else hi = mid end
	end
	-- list[lo] is the first >= n (or the last); the one before it is < n
	local best = list[lo]
	if lo > 1 and math.abs(list[lo - 1] - n) <= math.abs(best - n) then
		best = list[lo - 1]
	end
	return best
end

-- Every event's URB frames and every URB frame's event, once the first
-- pass has seen the whole file.  An URB address comes back (resubmitted
-- from its completion, or reused once freed): when an address has as many
-- submits as S records (givebacks as C and E records), the n-th goes with
-- the n-th; else (a capture started late, events lost) each with the
-- nearest.
local function link_all()
	links = { ev = {}, back = {} }
	local by = { submit = {}, giveback = {} }
	for n, id in pairs(ev_urb) do
		local t = by[ev_kind[n]]
		t[id] = t[id] or {}
		table.insert(t[id], n)
	end
	for kind, ids in pairs(by) do
		local seen = kind == "submit" and seen_s or seen_c
		for id, evs in pairs(ids) do
			table.sort(evs)
			local frames = seen[id] or {}
			for i, n in ipairs(evs) do
				local fr = #evs == #frames and frames[i] or
				    nearest(frames, n)
				if fr then
					links.ev[n] = fr
					links.back[fr] = links.back[fr] or n
				end
			end
		end
	end
end

local function summary(kind, vals)
	if kind == "log" then return vals.text or "log" end
	if kind == "rule" then
		return "RULE " .. (vals.rule or "?") .. ": " .. (vals.text or "")
	end
	local t = { kind }
	for _, k in ipairs({ "intf", "urb", "ep", "len", "minor", "ptr" }) do
		if vals[k] then t[#t + 1] = k .. " " .. vals[k] end
	end
	if vals.mem then t[#t + 1] = vals.mem end
	if vals.ctx then t[#t + 1] = vals.ctx end
	if vals.result then t[#t + 1] = "-> " .. vals.result end
	if vals.text and kind ~= "submit" and kind ~= "giveback" then
		t[#t + 1] = "(" .. vals.text .. ")"
	end
	return table.concat(t, " ")
end

local function dissect_event(r, s, pinfo, tree)
	local kind, items = parse(s)
	local vals = {}
	for _, it in ipairs(items) do vals[it.key] = it.value end
	local n = pinfo.number
	-- a submit refused has no S record
	if not pinfo.visited and vals.urb and vals.urb:match("^0x%x+$") and
	    (kind == "giveback" or kind == "submit" and
	    (vals.result or "0") == "0") then
		ev_urb[n] = tostring(UInt64.fromhex(vals.urb:sub(3)))
		ev_kind[n] = kind
		links = nil
	end
	if not tree then return end

	local t = tree:add(urbscope, r)
	t:add(f.kind, r:range(#PREFIX, #kind), kind)
	for _, it in ipairs(items) do
		local pf = keyfield[it.key]
		local sub = r:range(it.off, it.len)
		if pf and is64[it.key] then
			local h = it.value:gsub("^0x", "")
			if h:match("^%x+$") then
				t:add(pf, sub, UInt64.fromhex(h))
			end
		elseif pf == f.driver or pf == f.func or pf == f.rule or
		    pf == f.text then
			t:add(pf, sub, it.value)
		elseif pf then
			local v = number(it.key, it.value)
			if v then t:add(pf, sub, v) end
		end
	end
	-- a minor's node, from the text of register_dev ("node=/dev/...")
	local a, b = (vals.text or ""):find("node=%S+")
	if a and kind == "register_dev" then
		local tx = items[#items]
		if tx and tx.key == "text" then
			-- its place in the line: inside the quoted text
			local at = s:find("node=", tx.off + 1, true)
			t:add(f.node, r:range(at and at - 1 or tx.off,
			    at and (b - a + 1) or tx.len),
			    vals.text:sub(a + 5, b))
		end
	end
	if kind == "rule" then
		t:add_proto_expert_info(ef_rule, (vals.rule or "?") .. ": " ..
			(vals.text or ""))
	end
	local fr
	if pinfo.visited then
		if not links then link_all() end
		fr = links.ev[n]
	elseif ev_urb[n] then
		-- one pass: the URB's frames seen so far
		fr = nearest(kind == "submit" and seen_s[ev_urb[n]] or
			seen_c[ev_urb[n]], n)
	end
	if fr then
		t:add(kind == "submit" and f.submit_in or f.complete_in, fr)
			:set_generated()
	end
	pinfo.cols.protocol:set("urbscope")
	pinfo.cols.info:set((vals.driver or "-") ..
		(vals.func and " " .. vals.func or "") .. ": " ..
		summary(kind, vals))
end

-- The frame read from its bytes, not from other dissectors' fields (a
-- first pass builds no tree): an urbscope event is an exported PDU (link
-- type 252: tags, big-endian, then the payload) for data-text-lines whose
-- text starts with the prefix; its text's TvbRange, or nil.
local function event_range(tvb)
	local len, off, name = tvb:len(), 0, nil
	while off + 4 <= len do
		local tag, tl = tvb(off, 2):uint(), tvb(off + 2, 2):uint()
		off = off + 4
		if tag == 0 then break end
		if off + tl > len then return nil end
		if tag == 12 and tl > 0 then name = tvb(off, tl):stringz() end
		off = off + tl
	end
	if name ~= "data-text-lines" or off + #PREFIX > len or
	    tvb(off, #PREFIX):string() ~= PREFIX then
		return nil
	end
	return tvb(off, len - off)
end

-- A usbmon record (link type 220 or 189): its URB id, as a number in
-- either byte order (the capture's host's), and its type S, C or E.
local function urb_record(tvb)
	if tvb:len() < 48 then return nil end
	local t = tvb(8, 1):uint()
	if t ~= 0x53 and t ~= 0x43 and t ~= 0x45 then return nil end
	return tostring(tvb(0, 8):le_uint64()), tostring(tvb(0, 8):uint64()),
	    string.char(t)
end

local function urb_frame(tvb, pinfo, tree)
	local le, be, c = urb_record(tvb)
	if not le then return end
	local n = pinfo.number
	if not pinfo.visited then
		local t = c == "S" and seen_s or seen_c
		for _, key in ipairs(le == be and { le } or { le, be }) do
			t[key] = t[key] or {}
			table.insert(t[key], n)
		end
		links = nil
		return
	end
	if not links then link_all() end
	local ev = links.back[n]
	if ev then
		tree:add(urbscope):set_generated()
		    :add(c == "S" and f.submit_event or f.giveback_event, ev)
		    :set_generated()
	end
end

function urbscope.dissector(tvb, pinfo, tree)
	if pinfo.number == 1 and not pinfo.visited then reset() end
	local r = event_range(tvb)
	if r then
		dissect_event(r, r:string(), pinfo, tree)
		return
	end
	urb_frame(tvb, pinfo, tree)
end

register_postdissector(urbscope)
