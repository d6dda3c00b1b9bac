-- SPDX-License-Identifier: GPL-2.0
--
-- election.lua: a Wireshark dissector for election.ko's frames (EtherType
-- 0x88B5; uapi/linux/election.h and Documentation/protocol.rst, "Wire
-- format"): the 24-byte header and every algorithm's payload.
--
--   tshark -X lua_script:election.lua -r capture.pcap
--   wireshark -X lua_script:election.lua    (or copy it to
--                                            ~/.local/lib/wireshark/plugins/)
--
-- A frame that breaks the format (a header field out of range, a payload
-- that does not fit its algorithm and type, non-zero reserved bytes, ids
-- out of order) gets an expert error, as the kernel counts it malformed.
-- Display filter fields: election.type, election.src, election.term, ...
-- (Analyze > Display Filter Expression lists them).

local p = Proto("election", "Coordinator election (election.ko)")

local ETHERTYPE = 0x88B5
local HDR_LEN = 24
local MAX_PAYLOAD = 1500 - HDR_LEN
-- with flag 0x02: counter (be64: the sender's clock, its low 20 bits the
-- frame number) and MAC (8 bytes) after the payload
local AUTH_LEN = 16

local msg_types = {
	[1] = "election", [2] = "answer", [3] = "coordinator",
	[4] = "heartbeat", [5] = "ack", [6] = "retry", [7] = "query",
	[8] = "cid", [9] = "ayc", [10] = "ayc_reply", [11] = "invite",
	[12] = "accept", [13] = "ready", [14] = "alive",
}
local algos = {
	[1] = "bully", [2] = "ring", [3] = "ring-all", [4] = "ring-list",
	[5] = "min-bully", [6] = "enh-bully", [7] = "invitation",
}

local f = {
	version = ProtoField.uint8("election.version", "Version", base.DEC),
	type = ProtoField.uint8("election.type", "Type", base.DEC, msg_types),
	algo = ProtoField.uint8("election.algo", "Algorithm", base.DEC, algos),
	flags = ProtoField.uint8("election.flags", "Flags", base.HEX),
	leaving = ProtoField.bool("election.flags.leaving", "Leaving", 8,
				  nil, 0x01),
	auth = ProtoField.bool("election.flags.auth", "Authenticated", 8,
			       nil, 0x02),
	auth_ctr = ProtoField.uint64("election.auth.counter", "Counter",
				     base.DEC),
	-- the counter's low 20 bits: the sender's frame number (mod 2^20)
	auth_frame = ProtoField.uint32("election.auth.frame", "Frame number",
				       base.DEC),
	auth_mac = ProtoField.bytes("election.auth.mac",
				    "MAC (SipHash-2-4, not checked)"),
	group = ProtoField.uint16("election.group", "Group", base.DEC),
	payload_len = ProtoField.uint16("election.payload_len", "Payload length",
					base.DEC),
	src = ProtoField.uint32("election.src", "Source id", base.DEC),
	dst = ProtoField.uint32("election.dst", "Destination id", base.DEC),
	term = ProtoField.uint64("election.term", "Term", base.DEC),
	payload = ProtoField.bytes("election.payload", "Payload"),
	hop = ProtoField.uint32("election.hop", "Ring hop", base.DEC),
	ring_id = ProtoField.uint32("election.ring.id", "Id", base.DEC),
	ring_leader = ProtoField.uint32("election.ring.leader", "Leader",
					base.DEC),
	ring_origin = ProtoField.uint32("election.ring.origin", "Origin",
					base.DEC),
	count = ProtoField.uint16("election.count", "Count", base.DEC),
	reserved = ProtoField.uint16("election.reserved", "Reserved", base.HEX),
	id = ProtoField.uint32("election.id", "Id", base.DEC),
	coordinator = ProtoField.uint32("election.coordinator", "Coordinator",
					base.DEC),
	suspect = ProtoField.uint32("election.suspect", "Failed coordinator",
				    base.DEC),
	named = ProtoField.uint32("election.alive.leader", "Named leader",
				  base.DEC),
	named_term = ProtoField.uint64("election.alive.term",
				       "Named leader's term", base.DEC),
	version_m = ProtoField.uint32("election.inv.version",
				      "Membership version", base.DEC),
	inv_shift = ProtoField.uint8("election.inv.accept_shift",
				     "Accept window shift (T << shift)",
				     base.DEC),
	reserved8 = ProtoField.uint8("election.reserved8", "Reserved",
				     base.HEX),
}
p.fields = f

local e_malformed = ProtoExpert.new("election.malformed", "Malformed frame",
				    expert.group.MALFORMED,
				    expert.severity.ERROR)
local e_padding = ProtoExpert.new("election.padding",
				  "Bytes after the payload (Ethernet padding)",
				  expert.group.PROTOCOL, expert.severity.CHAT)
p.experts = { e_malformed, e_padding }

local function bad(tree, item, why)
	(item or tree):add_proto_expert_info(e_malformed, why)
end

-- a list of @n ids (be32 each) at @off, strictly ascending and non-zero
local function add_ids(buf, tree, off, n, field, label)
	local prev = 0
	local sub = tree:add(p, buf(off, 4 * n), string.format("%s (%d)", label, n))
	for i = 0, n - 1 do
		local v = buf(off + 4 * i, 4):uint()
		local it = sub:add(field, buf(off + 4 * i, 4))
		if v == 0 or v <= prev then
			bad(tree, it, label .. ": ids must be non-zero and ascending")
		end
		prev = v
	end
end

-- count (be16), 2 reserved zero bytes at @off; returns the count
local function add_count(buf, tree, off)
	local n = buf(off, 2):uint()
	tree:add(f.count, buf(off, 2))
	local r = tree:add(f.reserved, buf(off + 2, 2))
	if buf(off + 2, 2):uint() ~= 0 then
		bad(tree, r, "reserved bytes are not zero")
	end
	return n
end

-- the ring algorithms: hop, then the body of ELECTION / COORDINATOR
local function ring_payload(buf, tree, algo, mtype, len)
	if mtype == 4 then
		return len == 0
	end
	if len < 4 then
		return false
	end
	tree:add(f.hop, buf(0, 4))
	if mtype == 5 then
		return len == 4
	end
	if mtype ~= 1 and mtype ~= 3 then
		return false
	end
	local blen = len - 4
	if algo == 2 or (algo == 3 and mtype == 1) then
		if blen ~= 4 or buf(4, 4):uint() == 0 then
			return false
		end
		tree:add(f.ring_id, buf(4, 4))
		return true
	end
	if algo == 3 then
		if blen ~= 8 or buf(4, 4):uint() == 0 or buf(8, 4):uint() == 0 then
			return false
		end
		tree:add(f.ring_leader, buf(4, 4))
		tree:add(f.ring_origin, buf(8, 4))
		return true
	end
	-- ring-list: count, reserved, ids
	if blen < 8 then
		return false
	end
	local n = add_count(buf, tree, 4)
	if n < 1 or blen ~= 4 + 4 * n then
		return false
	end
	for i = 0, n - 1 do
		tree:add(f.id, buf(8 + 4 * i, 4))
	end
	return true
end

local function alive_payload(buf, tree, len)
	if len ~= 12 then
		return false
	end
	tree:add(f.named, buf(0, 4))
	tree:add(f.named_term, buf(4, 8))
	-- both zero (nobody named) or both non-zero
	return (buf(0, 4):uint() == 0) == (buf(4, 8):uint64() == UInt64(0))
end

-- coordinator, count, reserved, candidates (enh-bully COORDINATOR, CID)
local function enh_set(buf, tree, len)
	if len < 12 then
		return false
	end
	tree:add(f.coordinator, buf(0, 4))
	local n = add_count(buf, tree, 4)
	if n < 1 or n > 128 or len ~= 8 + 4 * n then
		return false
	end
	add_ids(buf, tree, 8, n, f.id, "Candidates")
	return buf(0, 4):uint() ~= 0
end

local function bully_payload(buf, tree, algo, mtype, len)
	if mtype == 14 then
		return alive_payload(buf, tree, len)
	end
	if algo == 1 then
		return len == 0 and mtype >= 1 and mtype <= 4
	end
	if algo == 5 then
		if mtype == 3 then
			if len ~= 4 or buf(0, 4):uint() == 0 then
				return false
			end
			tree:add(f.coordinator, buf(0, 4))
			return true
		end
		return len == 0 and (mtype <= 4 or mtype == 7 or mtype == 8)
	end
	-- enh-bully
	if mtype == 1 then
		if len ~= 4 then
			return false
		end
		tree:add(f.suspect, buf(0, 4))
		return true
	end
	if mtype == 3 or mtype == 8 then
		return enh_set(buf, tree, len)
	end
	return len == 0 and (mtype == 2 or mtype == 4 or mtype == 7)
end

local function inv_payload(buf, tree, mtype, len)
	if mtype == 4 or mtype == 9 or mtype == 12 then
		return len == 0
	end
	if mtype == 10 then
		if len ~= 8 then
			return false
		end
		tree:add(f.coordinator, buf(0, 4))
		tree:add(f.version_m, buf(4, 4))
		return true
	end
	if mtype == 11 then
		if len < 12 then
			return false
		end
		tree:add(f.coordinator, buf(0, 4))
		-- count, the accept window's shift (0..5), a reserved zero byte
		local n = buf(4, 2):uint()
		tree:add(f.count, buf(4, 2))
		local sh = tree:add(f.inv_shift, buf(6, 1))
		local r = tree:add(f.reserved8, buf(7, 1))
		if buf(6, 1):uint() > 5 then
			bad(tree, sh, "accept window shift above 5")
		end
		if buf(7, 1):uint() ~= 0 then
			bad(tree, r, "reserved byte is not zero")
		end
		if n < 1 or n > 255 or len ~= 8 + 4 * n then
			return false
		end
		add_ids(buf, tree, 8, n, f.id, "Invited coordinators")
		return buf(0, 4):uint() ~= 0 and buf(6, 1):uint() <= 5 and
			buf(7, 1):uint() == 0
	end
	if mtype == 13 then
		if len < 8 then
			return false
		end
		local n = add_count(buf, tree, 0)
		tree:add(f.version_m, buf(4, 4))
		if n > 255 or len ~= 8 + 4 * n then
			return false
		end
		if n > 0 then
			add_ids(buf, tree, 8, n, f.id, "Members")
		end
		return true
	end
	return false
end

function p.dissector(buf, pinfo, tree)
	local len = buf:len()
	if len < HDR_LEN then
		local t = tree:add(p, buf(), "Coordinator election (truncated)")
		bad(t, nil, string.format("%d bytes, shorter than the %d-byte header",
					  len, HDR_LEN))
		return
	end
	pinfo.cols.protocol = "ELECTION"
	local mtype = buf(1, 1):uint()
	local algo = buf(2, 1):uint()
	local flags = buf(3, 1):uint()
	local plen = buf(6, 2):uint()
	local src = buf(8, 4):uint()
	local dst = buf(12, 4):uint()
	local tname = msg_types[mtype] or string.format("type %d", mtype)
	local t = tree:add(p, buf(0, math.min(len, HDR_LEN + plen +
				(bit.band(flags, 2) ~= 0 and AUTH_LEN or 0))))
	local it = t:add(f.version, buf(0, 1))
	if buf(0, 1):uint() ~= 1 then
		bad(t, it, "unknown version")
	end
	it = t:add(f.type, buf(1, 1))
	if not msg_types[mtype] or mtype == 6 then
		bad(t, it, "not a frame's type")
	end
	it = t:add(f.algo, buf(2, 1))
	if not algos[algo] then
		bad(t, it, "unknown algorithm")
	end
	local ft = t:add(f.flags, buf(3, 1))
	ft:add(f.leaving, buf(3, 1))
	ft:add(f.auth, buf(3, 1))
	local leaving = bit.band(flags, 1) ~= 0
	local auth = bit.band(flags, 2) ~= 0
	if bit.band(flags, 0xfc) ~= 0 or (leaving and mtype ~= 4) then
		bad(t, ft, "flags other than auth, and leaving on a heartbeat")
	end
	it = t:add(f.group, buf(4, 2))
	if buf(4, 2):uint() == 0 then
		bad(t, it, "group 0")
	end
	local pli = t:add(f.payload_len, buf(6, 2))
	it = t:add(f.src, buf(8, 4))
	if src == 0 then
		bad(t, it, "source id 0")
	end
	t:add(f.dst, buf(12, 4))
	t:add(f.term, buf(16, 8))
	pinfo.cols.info = string.format("%s %s group %d %d -> %s term %s%s",
		algos[algo] or "?", tname, buf(4, 2):uint(), src,
		dst == 0 and "all" or tostring(dst), tostring(buf(16, 8):uint64()),
		(leaving and " (leaving)" or "") .. (auth and " (auth)" or ""))
	if plen > MAX_PAYLOAD or HDR_LEN + plen > len then
		bad(t, pli, "payload length past the frame")
		return
	end
	local tail = HDR_LEN + plen
	if auth then
		if tail + AUTH_LEN > len then
			bad(t, ft, "authentication trailer cut short")
			return
		end
		t:add(f.auth_ctr, buf(tail, 8))
		t:add(f.auth_frame, buf(tail + 5, 3),
		      buf(tail + 5, 3):uint() % 1048576)
		t:add(f.auth_mac, buf(tail + 8, 8))
		tail = tail + AUTH_LEN
	end
	-- the payload checkers look at the bytes only once the length fits
	local pl = plen > 0 and buf(HDR_LEN, plen):tvb() or nil
	local pt = t
	if plen > 0 then
		pt = t:add(f.payload, buf(HDR_LEN, plen))
	end
	local ok
	if algo == 2 or algo == 3 or algo == 4 then
		ok = ring_payload(pl, pt, algo, mtype, plen)
	elseif algo == 7 then
		ok = inv_payload(pl, pt, mtype, plen)
	else
		ok = bully_payload(pl, pt, algo, mtype, plen)
	end
	if not ok then
		bad(t, pt, string.format("payload not valid for %s %s",
					 algos[algo] or "?", tname))
	end
	if len > tail then
		t:add_proto_expert_info(e_padding)
	end
end

DissectorTable.get("ethertype"):add(ETHERTYPE, p)
