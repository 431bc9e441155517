-- SPDX-License-Identifier: GPL-2.0
--
-- Wireshark dissector for Wind, the reliable-datagram transport of
-- wind.ko (include/uapi/linux/wind.h has the wire format; see
-- Documentation/networking/wind.rst, "Wire format").
--
--   tshark -X lua_script:userspace/wireshark/wind.lua -r capture.pcap
--
-- or installed by "make install" into Wireshark's global Lua plugin
-- directory, where Wireshark and tshark load it by themselves.
--
-- Registered on IP protocol 253.  Every packet type is decoded: DATA
-- (its fragment header, the DSM header of fragment 0 with WIND_F_DSM,
-- the diff runs of a Direct Diff / Header Diff message that fits one
-- packet), ACK (the SACK bitmap and the NAK entries), RESET and
-- CHALLENGE.  Malformed packets (short, a length field that disagrees
-- with the packet, a bad version, an unknown type, an ACK whose NAKs do
-- not fit) are flagged with expert info.

local wind = Proto("wind", "Wind reliable datagrams")

local WIND_HLEN = 32
local WIND_DATAHDR_LEN = 8
local WIND_DSMHDR_LEN = 32
local WIND_ACKHDR_LEN = 16
local WIND_NAK_LEN = 8
local WIND_VERSION = 1

local pkt_types = {
	[1] = "DATA",
	[2] = "ACK",
	[3] = "RESET",
	[4] = "CHALLENGE",
}

local dsm_modes = {
	[0] = "Message Through",
	[1] = "Direct Map",
	[2] = "Header Through",
	[3] = "Direct Diff",
	[4] = "Header Diff",
}

local errnos = {
	[1] = "EPERM", [5] = "EIO", [7] = "E2BIG", [12] = "ENOMEM",
	[13] = "EACCES", [14] = "EFAULT", [22] = "EINVAL", [34] = "ERANGE",
	[90] = "EMSGSIZE", [104] = "ECONNRESET", [105] = "ENOBUFS",
	[110] = "ETIMEDOUT", [111] = "ECONNREFUSED",
}

local f = wind.fields
f.source = ProtoField.uint16("wind.source", "Source port", base.DEC)
f.dest = ProtoField.uint16("wind.dest", "Destination port", base.DEC)
f.port = ProtoField.uint16("wind.port", "Port", base.DEC)
f.len = ProtoField.uint16("wind.len", "Length", base.DEC)
f.check = ProtoField.uint16("wind.checksum", "Checksum", base.HEX)
f.version = ProtoField.uint8("wind.version", "Version", base.DEC, nil, 0xf0)
f.type = ProtoField.uint8("wind.type", "Type", base.DEC, pkt_types, 0x0f)
f.flags = ProtoField.uint8("wind.flags", "Flags", base.HEX)
f.f_ackreq = ProtoField.bool("wind.flags.ackreq", "ACKREQ: acknowledge at once", 8, nil, 0x01)
f.f_ordered = ProtoField.bool("wind.flags.ordered", "ORDERED", 8, nil, 0x02)
f.f_sync = ProtoField.bool("wind.flags.sync", "SYNC: sender sleeps until acknowledged", 8, nil, 0x04)
f.f_dsm = ProtoField.bool("wind.flags.dsm", "DSM: a DSM header follows", 8, nil, 0x08)
f.f_syn = ProtoField.bool("wind.flags.syn", "SYN: new peer state", 8, nil, 0x10)
f.f_bundle = ProtoField.bool("wind.flags.bundle", "BUNDLE: several messages, a chunk each", 8, nil, 0x20)
f.f_unknown = ProtoField.uint8("wind.flags.unknown", "Unknown flags", base.HEX, nil, 0xc0)
f.window = ProtoField.uint16("wind.window", "Window", base.DEC)
f.src_tag = ProtoField.uint32("wind.src_tag", "Source incarnation", base.HEX)
f.dst_tag = ProtoField.uint32("wind.dst_tag", "Destination incarnation", base.HEX)
f.seq = ProtoField.uint32("wind.seq", "Sequence number", base.DEC)
f.ack = ProtoField.uint32("wind.ack", "Acknowledgment", base.DEC)
f.oldest = ProtoField.uint32("wind.oldest", "Oldest unacknowledged", base.DEC)
-- DATA
f.frag = ProtoField.uint16("wind.frag", "Fragment", base.DEC)
f.nfrags = ProtoField.uint16("wind.nfrags", "Fragments", base.DEC)
f.msg_len = ProtoField.uint32("wind.msg_len", "Message length", base.DEC)
f.payload = ProtoField.bytes("wind.payload", "Payload")
f.payload_len = ProtoField.uint32("wind.payload_len", "Payload length", base.DEC)
-- bundle chunks (WIND_F_BUNDLE)
f.chunk = ProtoField.none("wind.chunk", "Message")
f.chunk_seq = ProtoField.uint32("wind.chunk.seq", "Sequence number", base.DEC)
f.chunk_flags = ProtoField.uint8("wind.chunk.flags", "Flags", base.HEX)
f.chunk_reserved = ProtoField.uint8("wind.chunk.reserved", "Reserved", base.HEX)
f.chunk_len = ProtoField.uint16("wind.chunk.len", "Length", base.DEC)
f.chunk_data = ProtoField.bytes("wind.chunk.data", "Data")
-- DSM header
f.dsm_mode = ProtoField.uint8("wind.dsm.mode", "DSM mode", base.DEC, dsm_modes)
f.dsm_reserved = ProtoField.bytes("wind.dsm.reserved", "Reserved")
f.dsm_region = ProtoField.uint32("wind.dsm.region", "Region", base.DEC)
f.dsm_offset = ProtoField.uint64("wind.dsm.offset", "Offset", base.DEC)
f.dsm_key = ProtoField.uint64("wind.dsm.key", "Key", base.HEX)
f.dsm_hdr_len = ProtoField.uint32("wind.dsm.hdr_len", "DSM header length", base.DEC)
f.dsm_reserved2 = ProtoField.uint32("wind.dsm.reserved2", "Reserved", base.HEX)
f.dsm_header = ProtoField.bytes("wind.dsm.header", "DSM header (the application's)")
-- diff runs
f.diff_run = ProtoField.none("wind.diff.run", "Diff run")
f.diff_off = ProtoField.uint32("wind.diff.off", "Offset", base.DEC)
f.diff_len = ProtoField.uint32("wind.diff.len", "Length", base.DEC)
f.diff_data = ProtoField.bytes("wind.diff.data", "Data")
-- ACK
f.sack = ProtoField.uint64("wind.sack", "SACK bitmap", base.HEX)
f.sack_seq = ProtoField.uint32("wind.sack.seq", "Selectively acknowledged", base.DEC)
f.nnaks = ProtoField.uint16("wind.nnaks", "NAKs", base.DEC)
f.ack_flags = ProtoField.uint16("wind.ack.flags", "ACK flags", base.HEX)
f.ack_refused = ProtoField.bool("wind.ack.flags.refused",
	"REFUSED: the packet at ack was refused for want of room", 16, nil, 0x0001)
f.ack_reserved2 = ProtoField.uint32("wind.ack.reserved2", "Reserved", base.HEX)
f.nak = ProtoField.none("wind.nak", "NAK")
f.nak_seq = ProtoField.uint32("wind.nak.seq", "Refused message's first seq", base.DEC)
f.nak_error = ProtoField.uint32("wind.nak.error", "Error", base.DEC, errnos)

local e = {
	short = ProtoExpert.new("wind.short", "Shorter than its headers",
				expert.group.MALFORMED, expert.severity.ERROR),
	length = ProtoExpert.new("wind.bad_len", "Length field disagrees with the packet",
				 expert.group.MALFORMED, expert.severity.ERROR),
	version = ProtoExpert.new("wind.bad_version", "Unknown version",
				  expert.group.MALFORMED, expert.severity.ERROR),
	ptype = ProtoExpert.new("wind.bad_type", "Unknown packet type",
				expert.group.MALFORMED, expert.severity.ERROR),
	frag = ProtoExpert.new("wind.bad_frag", "Fragment fields inconsistent",
			       expert.group.MALFORMED, expert.severity.ERROR),
	diff = ProtoExpert.new("wind.bad_diff", "Diff run overruns the payload",
			       expert.group.MALFORMED, expert.severity.ERROR),
	nak = ProtoExpert.new("wind.bad_naks", "NAK entries do not fill the packet",
			      expert.group.MALFORMED, expert.severity.ERROR),
	bundle = ProtoExpert.new("wind.bad_bundle", "Bundle malformed (the receiver drops it)",
				 expert.group.MALFORMED, expert.severity.ERROR),
}
wind.experts = { e.short, e.length, e.version, e.ptype, e.frag, e.diff, e.nak,
		 e.bundle }

local prefs = wind.prefs
prefs.diff_le = Pref.bool("Diff runs little-endian", true,
	"Diff run headers are in the sender's byte order (the cluster's); " ..
	"little-endian on x86")
-- ---- hook for UDP-encapsulated Wind (not in the protocol yet) ----------
-- When Wind gains UDP encapsulation (net.wind.udp_port), set this to
-- that port (or register it below) and Wind inside UDP decodes the same.
prefs.udp_port = Pref.uint("UDP port (encapsulation)", 0,
	"UDP port of encapsulated Wind; 0: none")

local function diff_runs(tree, tvb, off, len, pinfo)
	local stop = off + len
	while off < stop do
		if stop - off < 8 then
			tree:add_proto_expert_info(e.diff, "Diff run header cut short")
			return
		end
		local roff, rlen
		if prefs.diff_le then
			roff = tvb(off, 4):le_uint()
			rlen = tvb(off + 4, 4):le_uint()
		else
			roff = tvb(off, 4):uint()
			rlen = tvb(off + 4, 4):uint()
		end
		local avail = math.min(rlen, stop - off - 8)
		local run = tree:add(f.diff_run, tvb(off, 8 + avail))
		run:set_text(string.format("Diff run: offset %u, %u bytes", roff, rlen))
		if prefs.diff_le then
			run:add_le(f.diff_off, tvb(off, 4))
			run:add_le(f.diff_len, tvb(off + 4, 4))
		else
			run:add(f.diff_off, tvb(off, 4))
			run:add(f.diff_len, tvb(off + 4, 4))
		end
		if rlen > stop - off - 8 then
			run:add_proto_expert_info(e.diff)
			return
		end
		if rlen > 0 then
			run:add(f.diff_data, tvb(off + 8, rlen))
		end
		off = off + 8 + rlen
	end
end

-- A bundle: nfrags chunks (flags, reserved, length, data padded to 4),
-- message i at seq + i, filling the packet exactly (wind.h).
local function dissect_bundle(tree, tvb, off, len, flags, seq, pinfo)
	local nfrags = tvb(off + 2, 2):uint()
	local msg_len = tvb(off + 4, 4):uint()
	local bad
	if bit.band(flags, 0xde) ~= 0 or tvb(off, 2):uint() ~= 0 or
	   nfrags < 2 or nfrags > 64 or msg_len ~= len - off - WIND_DATAHDR_LEN then
		bad = "bundle header fields"
	end
	pinfo.cols.info:append(string.format(" BUNDLE of %u", nfrags))
	off = off + WIND_DATAHDR_LEN
	for i = 0, nfrags - 1 do
		if len - off < 4 then
			bad = bad or string.format("chunk %u: past the packet", i)
			break
		end
		local cflags = tvb(off, 1):uint()
		local clen = tvb(off + 2, 2):uint()
		local padded = clen + (4 - clen % 4) % 4
		local c = tree:add(f.chunk, tvb(off, math.min(4 + padded, len - off)))
		c:set_text(string.format("Message seq %u, %u bytes%s", (seq + i) % 4294967296,
			clen, bit.band(cflags, 0x02) ~= 0 and ", ordered" or ""))
		c:add(f.chunk_seq, tvb(off, 4), (seq + i) % 4294967296):set_generated()
		c:add(f.chunk_flags, tvb(off, 1))
		c:add(f.chunk_reserved, tvb(off + 1, 1))
		c:add(f.chunk_len, tvb(off + 2, 2))
		if bit.band(cflags, 0xf8) ~= 0 or tvb(off + 1, 1):uint() ~= 0 or
		   (bit.band(cflags, 0x04) ~= 0 and bit.band(cflags, 0x02) == 0) then
			bad = bad or string.format("chunk %u: flags or reserved", i)
		end
		if 4 + padded > len - off then
			bad = bad or string.format("chunk %u: length past the packet", i)
			break
		end
		if clen > 0 then
			c:add(f.chunk_data, tvb(off + 4, clen))
		end
		off = off + 4 + padded
	end
	if not bad and off ~= len then
		bad = "bytes after the last chunk"
	end
	if bad then
		tree:add_proto_expert_info(e.bundle, "Bundle malformed: " .. bad)
		pinfo.cols.info:prepend("Malformed: ")
	end
end

local function dissect_data(tree, tvb, off, len, flags, pinfo, seq)
	if len - off >= WIND_DATAHDR_LEN and bit.band(flags, 0x20) ~= 0 then
		tree:add(f.frag, tvb(off, 2))
		tree:add(f.nfrags, tvb(off + 2, 2))
		tree:add(f.msg_len, tvb(off + 4, 4))
		return dissect_bundle(tree, tvb, off, len, flags, seq, pinfo)
	end
	if len - off < WIND_DATAHDR_LEN then
		tree:add_proto_expert_info(e.short, "DATA shorter than its fragment header")
		return
	end
	local frag = tvb(off, 2):uint()
	local nfrags = tvb(off + 2, 2):uint()
	local msg_len = tvb(off + 4, 4):uint()
	tree:add(f.frag, tvb(off, 2))
	local nf = tree:add(f.nfrags, tvb(off + 2, 2))
	tree:add(f.msg_len, tvb(off + 4, 4))
	if nfrags == 0 or frag >= nfrags then
		nf:add_proto_expert_info(e.frag)
	end
	pinfo.cols.info:append(string.format(" frag %u/%u msg_len %u",
					     frag, nfrags, msg_len))
	off = off + WIND_DATAHDR_LEN
	local mode
	if frag == 0 and bit.band(flags, 0x08) ~= 0 then
		if len - off < WIND_DSMHDR_LEN then
			tree:add_proto_expert_info(e.short, "DSM header cut short")
			return
		end
		local d = tree:add(wind, tvb(off, WIND_DSMHDR_LEN), "DSM header")
		mode = tvb(off, 1):uint()
		d:add(f.dsm_mode, tvb(off, 1))
		d:add(f.dsm_reserved, tvb(off + 1, 3))
		d:add(f.dsm_region, tvb(off + 4, 4))
		d:add(f.dsm_offset, tvb(off + 8, 8))
		d:add(f.dsm_key, tvb(off + 16, 8))
		d:add(f.dsm_hdr_len, tvb(off + 24, 4))
		d:add(f.dsm_reserved2, tvb(off + 28, 4))
		local hdr_len = tvb(off + 24, 4):uint()
		pinfo.cols.info:append(string.format(" DSM %s region %u offset %s",
			dsm_modes[mode] or "?", tvb(off + 4, 4):uint(),
			tostring(tvb(off + 8, 8):uint64())))
		off = off + WIND_DSMHDR_LEN
		if hdr_len > 0 then
			local n = math.min(hdr_len, len - off)
			d:add(f.dsm_header, tvb(off, n))
			if hdr_len > len - off then
				d:add_proto_expert_info(e.short, "DSM header length beyond the packet")
				return
			end
			off = off + hdr_len
		end
	end
	tree:add(f.payload_len, len - off):set_generated()
	if len - off <= 0 then
		return
	end
	-- the diff of a message that fits one packet
	if (mode == 3 or mode == 4) and nfrags == 1 then
		diff_runs(tree, tvb, off, len - off, pinfo)
	else
		tree:add(f.payload, tvb(off, len - off))
	end
end

local function dissect_ack(tree, tvb, off, len, ack, pinfo)
	if len - off < WIND_ACKHDR_LEN then
		tree:add_proto_expert_info(e.short, "ACK shorter than its header")
		return
	end
	local sack = tvb(off, 8):uint64()
	local st = tree:add(f.sack, tvb(off, 8))
	local bits = {}
	for i = 0, 63 do
		if (sack:rshift(i):band(UInt64(1))):tonumber() == 1 then
			st:add(f.sack_seq, tvb(off, 8), (ack + 1 + i) % 4294967296)
			  :set_generated()
			bits[#bits + 1] = tostring((ack + 1 + i) % 4294967296)
		end
	end
	local nnaks = tvb(off + 8, 2):uint()
	local nt = tree:add(f.nnaks, tvb(off + 8, 2))
	local aft = tree:add(f.ack_flags, tvb(off + 10, 2))
	aft:add(f.ack_refused, tvb(off + 10, 2))
	if bit.band(tvb(off + 10, 2):uint(), 0x0001) ~= 0 then
		pinfo.cols.info:append(" REFUSED")
	end
	tree:add(f.ack_reserved2, tvb(off + 12, 4))
	if #bits > 0 then
		pinfo.cols.info:append(" SACK " .. table.concat(bits, ","))
	end
	off = off + WIND_ACKHDR_LEN
	if len - off ~= nnaks * WIND_NAK_LEN then
		nt:add_proto_expert_info(e.nak)
	end
	for i = 1, nnaks do
		if len - off < WIND_NAK_LEN then
			return
		end
		local err = tvb(off + 4, 4):uint()
		local n = tree:add(f.nak, tvb(off, WIND_NAK_LEN))
		n:set_text(string.format("NAK: seq %u, error %u (%s)",
			tvb(off, 4):uint(), err, errnos[err] or "?"))
		n:add(f.nak_seq, tvb(off, 4))
		n:add(f.nak_error, tvb(off + 4, 4))
		pinfo.cols.info:append(string.format(" NAK %u %s", tvb(off, 4):uint(),
						     errnos[err] or tostring(err)))
		off = off + WIND_NAK_LEN
	end
end

function wind.dissector(tvb, pinfo, root)
	local len = tvb:reported_length_remaining()
	pinfo.cols.protocol = "Wind"
	local tree = root:add(wind, tvb())
	if len < WIND_HLEN then
		tree:add_proto_expert_info(e.short, string.format(
			"%u bytes, shorter than the %u-byte Wind header", len, WIND_HLEN))
		pinfo.cols.info = "Malformed Wind packet: too short"
		if len >= 4 then
			tree:add(f.source, tvb(0, 2))
			tree:add(f.dest, tvb(2, 2))
		end
		return len
	end
	local source = tvb(0, 2):uint()
	local dest = tvb(2, 2):uint()
	local wlen = tvb(4, 2):uint()
	local vt = tvb(8, 1):uint()
	local version = bit.rshift(vt, 4)
	local ptype = bit.band(vt, 0x0f)
	local flags = tvb(9, 1):uint()
	local seq = tvb(20, 4):uint()
	local ack = tvb(24, 4):uint()

	tree:add(f.source, tvb(0, 2))
	tree:add(f.dest, tvb(2, 2))
	tree:add(f.port, tvb(0, 2)):set_hidden()
	tree:add(f.port, tvb(2, 2)):set_hidden()
	local lt = tree:add(f.len, tvb(4, 2))
	if wlen ~= len then
		lt:add_proto_expert_info(e.length, string.format(
			"Length field %u, packet %u bytes", wlen, len))
	end
	tree:add(f.check, tvb(6, 2))
	local vi = tree:add(f.version, tvb(8, 1))
	if version ~= WIND_VERSION then
		vi:add_proto_expert_info(e.version, string.format(
			"Version %u, expected %u", version, WIND_VERSION))
	end
	local ti = tree:add(f.type, tvb(8, 1))
	local ft = tree:add(f.flags, tvb(9, 1))
	ft:add(f.f_ackreq, tvb(9, 1))
	ft:add(f.f_ordered, tvb(9, 1))
	ft:add(f.f_sync, tvb(9, 1))
	ft:add(f.f_dsm, tvb(9, 1))
	ft:add(f.f_syn, tvb(9, 1))
	ft:add(f.f_bundle, tvb(9, 1))
	ft:add(f.f_unknown, tvb(9, 1))
	tree:add(f.window, tvb(10, 2))
	tree:add(f.src_tag, tvb(12, 4))
	tree:add(f.dst_tag, tvb(16, 4))
	tree:add(f.seq, tvb(20, 4))
	tree:add(f.ack, tvb(24, 4))
	tree:add(f.oldest, tvb(28, 4))

	local tname = pkt_types[ptype]
	pinfo.cols.info = string.format("%s %u → %u seq=%u ack=%u win=%u",
		tname or string.format("type %u", ptype), source, dest, seq, ack,
		tvb(10, 2):uint())
	tree:append_text(string.format(", %s, %u → %u", tname or "?", source, dest))
	if not tname then
		ti:add_proto_expert_info(e.ptype, string.format("Type %u", ptype))
		pinfo.cols.info:prepend("Malformed: ")
		return len
	end
	if version ~= WIND_VERSION or wlen ~= len then
		pinfo.cols.info:prepend("Malformed: ")
	end
	-- the body ends where the length field says, if it says less
	local body_end = math.min(len, wlen)
	if ptype == 1 then
		dissect_data(tree, tvb, WIND_HLEN, body_end, flags, pinfo, seq)
	elseif ptype == 2 then
		dissect_ack(tree, tvb, WIND_HLEN, body_end, ack, pinfo)
	end
	return len
end

DissectorTable.get("ip.proto"):add(253, wind)

-- ---- UDP encapsulation hook -------------------------------------------
-- Wind inside UDP (the port of net.wind.udp_port) is the same packet
-- after the UDP header: registered on the port the preference names.
local udp_table = DissectorTable.get("udp.port")
local udp_registered = 0
function wind.prefs_changed()
	if udp_registered ~= 0 then
		udp_table:remove(udp_registered, wind)
		udp_registered = 0
	end
	if prefs.udp_port ~= 0 then
		udp_table:add(prefs.udp_port, wind)
		udp_registered = prefs.udp_port
	end
end
