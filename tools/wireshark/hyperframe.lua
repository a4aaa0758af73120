-- SPDX-License-Identifier: GPL-2.0
--
-- hyperframe.lua - Wireshark/tshark dissector for the hyperframe wire
-- format, version 5 (docs/wire-format.md; reference code
-- kernel/core/hf_wire.c). Frames of any other version, versions 1 (the
-- 36-byte ACK before rx_state), 2 (credit as a sequence number, the
-- layout unchanged), 3 (the 36-byte DATA header before pred) and 4 (the
-- 40-byte headers: 16-bit epoch and rx_state, no echo) included, are
-- shown as malformed ("version") with only their common header decoded,
-- as the kernel drops them. The ACK's credit is shown as it travels, the
-- low 32 bits of a byte limit: its 64-bit value depends on the sender's
-- count of bytes sent, which no frame carries.
--
-- Usage:
--   tshark -X lua_script:tools/wireshark/hyperframe.lua -r capture.pcap
--   or copy the file to ~/.local/lib/wireshark/plugins/
--
-- Design notes:
-- 1. Validation mirrors hf_hdr_decode() check by check and in the same
--    order, so "hyperframe.malformed" names the one reason the kernel
--    would count the drop under (drop_malformed_<reason> in
--    /proc/net/hyperframe, or drop_csum). Each reason has an expert info
--    "hyperframe.malformed.<reason>", named as in the validation table of
--    wire-format.md.
-- 2. The checksum covers header + payload (DATA: 44 + seg_len bytes;
--    ACK: 44 + 8 * nsack + 8 * nstatus_ext) from offset 0 of the hyperframe header, never
--    the Ethernet padding, exactly the bytes the kernel sums in
--    hf_input_rcv(). It is verified whenever those bytes are known and
--    captured, even on a frame that is malformed for another reason (the
--    kernel stops earlier; the dissector still tells).
--    A DATA segment whose field is 0 and does not verify is "unfilled",
--    not bad: its sender left the checksum to the device (checksum
--    offload), and a capture before the device, or on a virtual link
--    (veth, the bridge), which never fills it, shows it so. A receiver
--    takes such a frame unverified, as one that crossed no wire
--    (rx_csum_local).
-- 3. Pure arithmetic instead of bit operations: no dependency on the
--    bit/bit32 libraries, which differ between Lua 5.2 (Wireshark <= 4.2)
--    and 5.4 (Wireshark >= 4.4). Every value fits a double exactly.
-- 4. Bytes after header + payload (Ethernet padding of a short frame) are
--    shown as hyperframe.padding and covered by nothing else, unless they
--    start another DATA segment (note 5).
-- 5. A capture on a receiver may hold a train in one frame: segments back
--    to back after one Ethernet header, as GRO or generic XDP put them
--    together (docs/design.md, "GRO"). After a well-formed DATA segment
--    whose checksum verifies, bytes that start with a version-5 DATA
--    header are dissected as the next segment, each its own tree; the
--    Info column shows the first and "[train of N segments]".
-- 6. A packed train (flag PACKED, docs/wire-format.md "Packed trains")
--    is one header for several segments whose payloads follow it: it is
--    validated as hf_train_check() does, its checksum covers the whole
--    frame, hyperframe.train_segs counts its segments, and nothing after
--    it is padding or another segment. A valid one also lists the
--    segments it stands for (hyperframe.train_seg), each with the seq,
--    offset, seg_len, flags and pred that hf_train_seg() gives its header:
--    pred is the train's for every one of them, as are status_ask, epoch
--    and echo.
-- 7. DATA byte 34, pred, names the message this one follows between the
--    same two ports (msg_id - pred; 0: none was unresolved). Any value is
--    valid (one reaching below the receiver's msg_done names a resolved
--    message), so nothing about it is malformed; byte 35's low 2 bits
--    are status_ask (the outcome words the sender asks its receiver's
--    ACKs to carry), the rest reserved, shown as hyperframe.reserved
--    (the byte without status_ask) and never checked, as are the ACK's
--    bytes 34..35 and byte 33 but for its low 2 bits, nstatus_ext
--    (hyperframe.reserved3, the three bytes without them). The outcome
--    words nstatus_ext announces follow the SACK blocks
--    (hyperframe.status_ext); their outcomes are listed with
--    msg_status's. The Info column leaves pred
--    out, as it leaves out epoch, echo and the other fields that do not
--    place the segment.
-- 8. A capture on a virtual link may hold a carrier in one frame: the
--    packed trains of one hyperframe back to back (docs/design.md,
--    "Carriers"), whose bounds no header records. A packed train that is
--    malformed as the whole frame, but well-formed up to a stride
--    boundary where a DATA header of its epoch and message with the
--    sequence number and offset of that boundary starts, ends there, and
--    the next train is dissected as note 5 dissects a train's next
--    segment. Read as one train, a carrier is malformed: its later
--    headers, 44 bytes each, make the payload longer than whole segments,
--    or run it past its message or hyperframe. (Only where those bytes
--    happen to make up whole strides, or exactly the message's short
--    last segment in a hyperframe that goes on, is it not, and it is then
--    shown as one train.)
-- 9. Epochs (DATA byte 36, ACK byte 36), the DATA header's echo (byte 40)
--    and the ACK's rx_state (byte 40) are 32 random bits that no check of
--    the decoder looks at; what a receiver or sender does with them
--    depends on the state it holds (core/hf_epoch.h), which a capture
--    does not show. What can be told from the frame alone, and only of a
--    well-formed one, is raised as expert infos that are not malformations:
--    a CHALLENGE ACK (hyperframe.challenge, a note: its rx_state is the
--    cookie the new epoch must echo), a LOST ACK (hyperframe.lost, a
--    warning: cum_seq names the segment that echoed a state the receiver
--    does not hold; LOST wins when both flags are set, as in the sender),
--    epoch 0 (hyperframe.epoch_zero: no sender uses it, so the receiver
--    drops such DATA as forged and the sender such an ACK), and rx_state
--    0 in an ACK that is not LOST (hyperframe.rx_state_zero: the sender
--    drops it). The Info column of a CHALLENGE or LOST ACK shows the epoch
--    and the cookie or the segment instead of the acknowledgement fields,
--    which such an answer leaves 0.

local hf = Proto("hyperframe", "Hyperframe Transport")

-- Wire constants (hf_wire.h).
local VERSION = 5
local TYPE_DATA, TYPE_ACK = 1, 2
local COMMON_LEN, DATA_HLEN, ACK_HLEN = 8, 44, 44
local SACK_BLOCK_LEN, SACK_MAX = 8, 16
local STATUS_WINDOW, STATUS_EXT_LEN = 32, 8
local WIRE_MSG_MAX = 2 ^ 30
local DF_FRAME_START, DF_FRAME_END, DF_RETRANSMIT, DF_ACK_NOW, DF_PACKED = 1, 2, 4, 8, 16
local DF_ALL, AF_ALL = 0x1f, 0x3f
local TRAIN_MIN_SEG_SIZE = 64
local AF_ECHO = 1
local AF_WINDOW = 2
local AF_DUP = 4
local AF_CLOSED = 8
local AF_CHALLENGE = 0x10
local AF_LOST = 0x20
local DEFAULT_ETHERTYPE = 0x88B5
local TWO32, TWO31 = 2 ^ 32, 2 ^ 31

local type_names = { [TYPE_DATA] = "DATA", [TYPE_ACK] = "ACK" }
local outcome_names = {
	[0] = "delivered", [1] = "no_port", [2] = "too_big", [3] = "reserved",
}
local csum_status_names = { [0] = "incorrect", [1] = "correct", [2] = "unverified", [3] = "unfilled" }

-- The validation reasons of wire-format.md, in hf_wire_err order, plus csum.
local reasons = {
	short   = "shorter than the header its type, nsack and nstatus_ext call for",
	version = "version is not " .. VERSION,
	type    = "type is not 1 (DATA) or 2 (ACK)",
	flags   = "a flag bit undefined for the type is set",
	length  = "segment length disagrees with the frame or the stride",
	offset  = "segment outside its message",
	frame   = "segment outside its hyperframe",
	sack    = "too many, misplaced or inverted SACK blocks",
	status  = "a reserved message outcome (3) in msg_status or status_ext",
	csum    = "the checksum does not verify",
}
local reason_order = {
	"short", "version", "type", "flags", "length", "offset", "frame",
	"sack", "status", "csum",
}

local f = {
	version    = ProtoField.uint8("hyperframe.version", "Version", base.DEC, nil, 0xF0),
	type       = ProtoField.uint8("hyperframe.type", "Type", base.DEC, type_names, 0x0F),
	flags      = ProtoField.uint8("hyperframe.flags", "Flags", base.HEX),
	fl_start   = ProtoField.bool("hyperframe.flags.frame_start", "FRAME_START (first segment of its hyperframe)", 8, nil, DF_FRAME_START),
	fl_end     = ProtoField.bool("hyperframe.flags.frame_end", "FRAME_END (last segment of its hyperframe)", 8, nil, DF_FRAME_END),
	fl_rtx     = ProtoField.bool("hyperframe.flags.retransmit", "RETRANSMIT", 8, nil, DF_RETRANSMIT),
	fl_acknow  = ProtoField.bool("hyperframe.flags.ack_now", "ACK_NOW (asks for an immediate ack)", 8, nil, DF_ACK_NOW),
	fl_packed  = ProtoField.bool("hyperframe.flags.packed", "PACKED (a packed train: the payloads of several segments)", 8, nil, DF_PACKED),
	fl_echo    = ProtoField.bool("hyperframe.flags.echo", "ECHO (answers an ACK_NOW)", 8, nil, AF_ECHO),
	fl_window  = ProtoField.bool("hyperframe.flags.window", "WINDOW (room again: resend what was refused)", 8, nil, AF_WINDOW),
	fl_dup     = ProtoField.bool("hyperframe.flags.dup", "DUP (answers a segment that had already arrived: spurious retransmission)", 8, nil, AF_DUP),
	fl_closed  = ProtoField.bool("hyperframe.flags.closed", "CLOSED (window closed: send nothing new)", 8, nil, AF_CLOSED),
	fl_chall   = ProtoField.bool("hyperframe.flags.challenge", "CHALLENGE (prove this new epoch: echo rx_state, the cookie)", 8, nil, AF_CHALLENGE),
	fl_lost    = ProtoField.bool("hyperframe.flags.lost", "LOST (no state for this epoch: cum_seq names the segment that echoed one)", 8, nil, AF_LOST),
	fl_undef   = ProtoField.uint8("hyperframe.flags.undefined", "Undefined flag bits", base.HEX),
	sport      = ProtoField.uint16("hyperframe.sport", "Source port", base.DEC),
	dport      = ProtoField.uint16("hyperframe.dport", "Destination port", base.DEC),
	port       = ProtoField.uint16("hyperframe.port", "Source or destination port", base.DEC),
	csum       = ProtoField.uint16("hyperframe.csum", "Checksum", base.HEX),
	csum_stat  = ProtoField.string("hyperframe.csum.status", "Checksum status"),
	csum_calc  = ProtoField.uint16("hyperframe.csum.calculated", "Calculated checksum", base.HEX),
	hlen       = ProtoField.uint16("hyperframe.hlen", "Header length", base.DEC),
	-- DATA
	seq        = ProtoField.uint32("hyperframe.seq", "Sequence number", base.DEC),
	msg_id     = ProtoField.uint32("hyperframe.msg_id", "Message id", base.DEC),
	msg_len    = ProtoField.uint32("hyperframe.msg_len", "Message length", base.DEC),
	offset     = ProtoField.uint32("hyperframe.offset", "Offset in message", base.DEC),
	seg_len    = ProtoField.uint16("hyperframe.seg_len", "Segment length", base.DEC),
	frame_segs = ProtoField.uint16("hyperframe.frame_segs", "Segments in hyperframe", base.DEC),
	frame_seq  = ProtoField.uint32("hyperframe.frame_seq", "Hyperframe first sequence number", base.DEC),
	seg_size   = ProtoField.uint16("hyperframe.seg_size", "Segment size (stride)", base.DEC),
	seg_index  = ProtoField.uint32("hyperframe.seg_index", "Segment index in message", base.DEC),
	frame_idx  = ProtoField.uint32("hyperframe.frame_index", "Segment index in hyperframe", base.DEC),
	train_segs = ProtoField.uint32("hyperframe.train_segs", "Segments in packed train", base.DEC),
	train_seg  = ProtoField.none("hyperframe.train_seg", "Segment of the packed train"),
	ts_seq     = ProtoField.uint32("hyperframe.train_seg.seq", "Sequence number", base.DEC),
	ts_offset  = ProtoField.uint32("hyperframe.train_seg.offset", "Offset in message", base.DEC),
	ts_seg_len = ProtoField.uint16("hyperframe.train_seg.seg_len", "Segment length", base.DEC),
	ts_flags   = ProtoField.uint8("hyperframe.train_seg.flags", "Flags", base.HEX),
	ts_pred    = ProtoField.uint8("hyperframe.train_seg.pred", "Predecessor (messages back)", base.DEC),
	epoch      = ProtoField.uint32("hyperframe.epoch", "Epoch", base.HEX),
	echo       = ProtoField.uint32("hyperframe.echo", "Echoed receiver state", base.HEX),
	pred       = ProtoField.uint8("hyperframe.pred", "Predecessor (messages back)", base.DEC),
	status_ask = ProtoField.uint8("hyperframe.status_ask", "Outcome words asked", base.DEC, nil, 0x03),
	reserved   = ProtoField.uint8("hyperframe.reserved", "Reserved", base.HEX),
	-- ACK
	cum_seq    = ProtoField.uint32("hyperframe.cum_seq", "Cumulative ack", base.DEC),
	credit     = ProtoField.uint32("hyperframe.credit", "Credit limit (bytes of the epoch, low 32 bits)", base.DEC),
	rate_kbps  = ProtoField.uint32("hyperframe.rate_kbps", "Rate hint", base.UNIT_STRING, { " kbit/s" }),
	msg_done   = ProtoField.uint32("hyperframe.msg_done", "Messages done", base.DEC),
	msg_status = ProtoField.uint64("hyperframe.msg_status", "Message outcomes", base.HEX),
	outcome    = ProtoField.none("hyperframe.outcome", "Message outcome"),
	out_msg    = ProtoField.uint32("hyperframe.outcome.msg_id", "Message id", base.DEC),
	out_status = ProtoField.uint8("hyperframe.outcome.status", "Outcome", base.DEC, outcome_names),
	nsack      = ProtoField.uint8("hyperframe.nsack", "SACK blocks", base.DEC),
	nstatus_ext = ProtoField.uint8("hyperframe.nstatus_ext", "Outcome words", base.DEC, nil, 0x03),
	reserved3  = ProtoField.uint24("hyperframe.reserved3", "Reserved", base.HEX),
	status_ext = ProtoField.uint64("hyperframe.status_ext", "More message outcomes", base.HEX),
	rx_state   = ProtoField.uint32("hyperframe.rx_state", "Receiver state", base.HEX),
	sack       = ProtoField.none("hyperframe.sack", "SACK block"),
	sack_start = ProtoField.uint32("hyperframe.sack.start", "Start", base.DEC),
	sack_end   = ProtoField.uint32("hyperframe.sack.end", "End", base.DEC),
	sack_len   = ProtoField.uint32("hyperframe.sack.len", "Length", base.DEC),
	-- verdict
	padding    = ProtoField.bytes("hyperframe.padding", "Padding (after header and payload, ignored)"),
	malformed  = ProtoField.string("hyperframe.malformed", "Malformed (drop reason)"),
}
local field_list = {}
for _, v in pairs(f) do field_list[#field_list + 1] = v end
hf.fields = field_list

local ex = {}
local expert_list = {}
for _, r in ipairs(reason_order) do
	local group = r == "csum" and expert.group.CHECKSUM or expert.group.MALFORMED
	ex[r] = ProtoExpert.new("hyperframe.malformed." .. r,
				"Malformed (" .. r .. "): " .. reasons[r],
				group, expert.severity.ERROR)
	expert_list[#expert_list + 1] = ex[r]
end
-- What a well-formed frame says of the flow's state, no malformation
-- (design note 9); the message of each starts with its name.
local notes = {
	{ "challenge", expert.group.SEQUENCE, expert.severity.NOTE,
	  "CHALLENGE ACK: the receiver holds another flow from this sender: the new epoch must echo the cookie (rx_state)" },
	{ "lost", expert.group.SEQUENCE, expert.severity.WARN,
	  "LOST ACK: the receiver holds no state for this epoch: the sender restarts if the segment named is in flight" },
	{ "epoch_zero", expert.group.PROTOCOL, expert.severity.WARN,
	  "epoch 0, which no sender uses: the frame is dropped" },
	{ "rx_state_zero", expert.group.PROTOCOL, expert.severity.WARN,
	  "an ACK that is not LOST without a receiver state: the sender drops it" },
}
for _, n in ipairs(notes) do
	ex[n[1]] = ProtoExpert.new("hyperframe." .. n[1], n[4], n[2], n[3])
	expert_list[#expert_list + 1] = ex[n[1]]
end
hf.experts = expert_list

hf.prefs.ethertype = Pref.uint("EtherType", DEFAULT_ETHERTYPE,
	"EtherType to decode as hyperframe, in decimal (default 34997 = 0x88B5; " ..
	"the module parameter ethertype of hyperframe.ko)")

-- Arithmetic helpers (see design note 3).
local function has_flag(flags, bit_value)
	return math.floor(flags / bit_value) % 2 == 1
end

local function seq_before(a, b)
	return (a - b) % TWO32 >= TWO31	-- (s32)(a - b) < 0
end

local function seq_after(a, b)
	return seq_before(b, a)
end

local function fold(sum)
	while sum > 0xffff do
		sum = sum % 0x10000 + math.floor(sum / 0x10000)
	end
	return sum
end

-- RFC 1071 sum of @len bytes from the start of @tvb, checksum field included.
local function rfc1071_sum(tvb, len)
	local s = tvb:raw(0, len)
	local sum = 0
	local i = 1
	while i < len do
		local hi, lo = string.byte(s, i, i + 1)
		sum = sum + hi * 256 + lo
		i = i + 2
	end
	if len % 2 == 1 then
		sum = sum + string.byte(s, len) * 256
	end
	return sum
end

-- Outcome of the message msg_done - 1 - i, from the two halves of msg_status.
local function outcome_at(hi, lo, i)
	if i < 16 then
		return math.floor(lo / 4 ^ i) % 4
	end
	return math.floor(hi / 4 ^ (i - 16)) % 4
end

-- Flag bits the type leaves undefined (the defined ones are the low bits).
local function undefined_bits(ftype, flags)
	local all = ftype == TYPE_DATA and DF_ALL or AF_ALL
	return flags - flags % (all + 1)
end

local function flag_names(ftype, flags)
	local names = {}
	if ftype == TYPE_DATA then
		if has_flag(flags, DF_FRAME_START) then names[#names + 1] = "FRAME_START" end
		if has_flag(flags, DF_FRAME_END) then names[#names + 1] = "FRAME_END" end
		if has_flag(flags, DF_RETRANSMIT) then names[#names + 1] = "RETRANSMIT" end
		if has_flag(flags, DF_ACK_NOW) then names[#names + 1] = "ACK_NOW" end
		if has_flag(flags, DF_PACKED) then names[#names + 1] = "PACKED" end
	elseif ftype == TYPE_ACK then
		if has_flag(flags, AF_ECHO) then names[#names + 1] = "ECHO" end
		if has_flag(flags, AF_WINDOW) then names[#names + 1] = "WINDOW" end
		if has_flag(flags, AF_DUP) then names[#names + 1] = "DUP" end
		if has_flag(flags, AF_CLOSED) then names[#names + 1] = "CLOSED" end
		if has_flag(flags, AF_CHALLENGE) then names[#names + 1] = "CHALLENGE" end
		if has_flag(flags, AF_LOST) then names[#names + 1] = "LOST" end
	end
	if type_names[ftype] and undefined_bits(ftype, flags) ~= 0 then
		names[#names + 1] = string.format("undefined 0x%02x", undefined_bits(ftype, flags))
	end
	return names
end

-- The segments a valid packed train stands for, with the header fields
-- hf_train_seg() gives each (design note 6); the rest is the train's.
local function train_expand(tvb, root, flags, v, present, nsegs, cap)
	for i = 0, nsegs - 1 do
		local at = i * v.seg_size
		local len = math.min(v.seg_size, present - at)
		local sflags = 0
		if i == 0 and has_flag(flags, DF_FRAME_START) then
			sflags = sflags + DF_FRAME_START
		end
		if i == nsegs - 1 then
			if has_flag(flags, DF_FRAME_END) then sflags = sflags + DF_FRAME_END end
			if has_flag(flags, DF_ACK_NOW) then sflags = sflags + DF_ACK_NOW end
		end
		local seq, off = (v.seq + i) % TWO32, v.offset + at
		-- Its payload, as far as captured; else the header it comes from.
		local from = DATA_HLEN + at
		local r = from < cap and tvb(from, math.min(len, cap - from)) or tvb(8, 4)
		local st = root:add(f.train_seg, r)
		local names = flag_names(TYPE_DATA, sflags)
		st:set_text(string.format("Segment %d of the packed train: seq=%d off=%d len=%d pred=%d%s",
			i + 1, seq, off, len, v.pred,
			#names > 0 and " [" .. table.concat(names, ",") .. "]" or ""))
		st:add(f.ts_seq, r, seq):set_generated()
		st:add(f.ts_offset, r, off):set_generated()
		st:add(f.ts_seg_len, r, len):set_generated()
		st:add(f.ts_flags, r, sflags):set_generated()
		st:add(f.ts_pred, r, v.pred):set_generated()
	end
end

-- Where the next train of a carrier starts (design note 8): the first
-- stride boundary past two segments where a DATA header of the same
-- epoch and message carries the sequence number and offset that boundary
-- stands for; nil when there is none.
local function carrier_cut(tvb, v, flen, cap)
	local avail = math.min(flen, cap)
	if v.seg_size < TRAIN_MIN_SEG_SIZE then
		return nil
	end
	local k = 2
	while DATA_HLEN + k * v.seg_size + DATA_HLEN <= avail do
		local at = DATA_HLEN + k * v.seg_size
		if tvb(at, 1):uint() == VERSION * 16 + TYPE_DATA and
		   tvb(at + 8, 4):uint() == (v.seq + k) % TWO32 and
		   tvb(at + 12, 4):uint() == v.msg_id and
		   tvb(at + 20, 4):uint() == v.offset + k * v.seg_size and
		   tvb(at + 36, 4):uint() == v.epoch then
			return at
		end
		k = k + 1
	end
	return nil
end

-- DATA: add the fields, then validate as decode_data() does.
-- Returns the covered length (header + payload) or nil, and the verdict.
local function dissect_data(tvb, root, flags, flen, cap, items)
	if flen < DATA_HLEN then
		return nil, "short", string.format("DATA header is %d bytes, frame has %d", DATA_HLEN, flen)
	end
	if cap < DATA_HLEN then
		root:append_text(" [header cut by the capture's snap length]")
		return nil
	end
	local v = {
		seq = tvb(8, 4):uint(), msg_id = tvb(12, 4):uint(),
		msg_len = tvb(16, 4):uint(), offset = tvb(20, 4):uint(),
		seg_len = tvb(24, 2):uint(), frame_segs = tvb(26, 2):uint(),
		frame_seq = tvb(28, 4):uint(), seg_size = tvb(32, 2):uint(),
		pred = tvb(34, 1):uint(), epoch = tvb(36, 4):uint(),
		echo = tvb(40, 4):uint(),
	}
	items.seq = root:add(f.seq, tvb(8, 4))
	items.msg_id = root:add(f.msg_id, tvb(12, 4))
	items.msg_len = root:add(f.msg_len, tvb(16, 4))
	items.offset = root:add(f.offset, tvb(20, 4))
	items.seg_len = root:add(f.seg_len, tvb(24, 2))
	items.frame_segs = root:add(f.frame_segs, tvb(26, 2))
	items.frame_seq = root:add(f.frame_seq, tvb(28, 4))
	items.seg_size = root:add(f.seg_size, tvb(32, 2))
	-- Never malformed, reserved bytes never checked (design note 7).
	local pi = root:add(f.pred, tvb(34, 1))
	if v.pred == 0 then
		pi:append_text(" (none unresolved: deliverable once complete)")
	else
		pi:append_text(string.format(" (follows message %d)", (v.msg_id - v.pred) % TWO32))
	end
	items.pred = pi
	items.status_ask = root:add(f.status_ask, tvb(35, 1))
	items.reserved = root:add(f.reserved, tvb(35, 1), tvb(35, 1):uint() - tvb(35, 1):uint() % 4)
	items.epoch = root:add(f.epoch, tvb(36, 4))
	local ei = root:add(f.echo, tvb(40, 4))
	if v.echo == 0 then
		ei:append_text(" (none: sent before its sender learned the receiver's state)")
	else
		ei:append_text(" (the receiver's state, as its sender learned it from an ACK)")
	end
	items.echo = ei
	local index = (v.seq - v.frame_seq) % TWO32
	root:add(f.frame_idx, tvb(28, 4), index):set_generated()
	if v.seg_size > 0 and v.offset % v.seg_size == 0 then
		root:add(f.seg_index, tvb(20, 4), v.offset / v.seg_size):set_generated()
	end
	items.v = v
	root:add(f.hlen, tvb(0, DATA_HLEN), DATA_HLEN):set_generated()

	local present = flen - DATA_HLEN
	local cover = DATA_HLEN + math.min(v.seg_len, present)
	local packed = has_flag(flags, DF_PACKED)
	local nsegs
	local train_verdict
	local function verdict()
		if undefined_bits(TYPE_DATA, flags) ~= 0 then
			return "flags", string.format("flags 0x%02x: bits 0x%02x are undefined for DATA", flags, undefined_bits(TYPE_DATA, flags)), "flags"
		end
		if v.seg_len > present then
			return "length", string.format("seg_len %d exceeds the %d payload bytes present", v.seg_len, present), "seg_len"
		end
		if v.seg_size == 0 then
			return "length", "seg_size is 0", "seg_size"
		end
		if v.seg_len > v.seg_size then
			return "length", string.format("seg_len %d above seg_size %d", v.seg_len, v.seg_size), "seg_len"
		end
		if v.seg_len == 0 and v.msg_len ~= 0 then
			return "length", string.format("empty segment in a message of %d bytes", v.msg_len), "seg_len"
		end
		if v.msg_len > WIRE_MSG_MAX then
			return "offset", string.format("msg_len %d above 2^30", v.msg_len), "msg_len"
		end
		if v.offset + v.seg_len > v.msg_len then
			return "offset", string.format("offset %d + seg_len %d beyond msg_len %d", v.offset, v.seg_len, v.msg_len), "offset"
		end
		if v.offset % v.seg_size ~= 0 then
			return "offset", string.format("offset %d not a multiple of seg_size %d", v.offset, v.seg_size), "offset"
		end
		if v.seg_len < v.seg_size and v.offset + v.seg_len ~= v.msg_len then
			return "length", string.format("seg_len %d short of seg_size %d in a segment that is not the message's last", v.seg_len, v.seg_size), "seg_len"
		end
		if v.frame_segs == 0 then
			return "frame", "frame_segs is 0", "frame_segs"
		end
		if index >= v.frame_segs then
			return "frame", string.format("seq - frame_seq = %d, not below frame_segs %d", index, v.frame_segs), "frame_seq"
		end
		if has_flag(flags, DF_FRAME_START) and index ~= 0 then
			return "frame", string.format("FRAME_START on segment %d of its hyperframe", index), "flags"
		end
		-- A packed train's FRAME_END is about its last segment.
		if has_flag(flags, DF_FRAME_END) and not packed and index ~= v.frame_segs - 1 then
			return "frame", string.format("FRAME_END on segment %d of %d", index, v.frame_segs), "flags"
		end
		if packed then
			return train_verdict()
		end
		return nil
	end
	-- As hf_train_check(): the payload is every byte after the header.
	function train_verdict()
		if has_flag(flags, DF_RETRANSMIT) then
			return "flags", "RETRANSMIT on a packed train", "flags"
		end
		if v.seg_size < TRAIN_MIN_SEG_SIZE then
			return "length", string.format("seg_size %d below %d in a packed train", v.seg_size, TRAIN_MIN_SEG_SIZE), "seg_size"
		end
		if v.seg_len ~= v.seg_size then
			return "length", string.format("seg_len %d is not seg_size %d in a packed train", v.seg_len, v.seg_size), "seg_len"
		end
		if present <= v.seg_size then
			return "length", string.format("packed train of %d payload bytes holds one segment of %d at most", present, v.seg_size), "seg_len"
		end
		if v.offset + present > v.msg_len then
			return "offset", string.format("packed train of %d bytes at offset %d runs past msg_len %d", present, v.offset, v.msg_len), "offset"
		end
		if present % v.seg_size ~= 0 and v.offset + present ~= v.msg_len then
			return "length", string.format("packed train ends %d bytes into a segment that is not the message's last", present % v.seg_size), "seg_len"
		end
		nsegs = math.ceil(present / v.seg_size)
		if nsegs > v.frame_segs - index then
			return "frame", string.format("packed train of %d segments from index %d runs past frame_segs %d", nsegs, index, v.frame_segs), "frame_segs"
		end
		if has_flag(flags, DF_FRAME_END) and index + nsegs ~= v.frame_segs then
			return "frame", string.format("FRAME_END on a packed train ending at segment %d of %d", index + nsegs, v.frame_segs), "flags"
		end
		return nil
	end
	local reason, detail, key = verdict()
	local tlen = flen
	if packed and reason then
		-- A carrier, its trains back to back (design note 8).
		local at = carrier_cut(tvb, v, flen, cap)
		if at then
			local was = present
			present = at - DATA_HLEN
			local r, d, k = verdict()
			if r then
				present = was
			else
				reason, detail, key, tlen = nil, nil, nil, at
			end
		end
	end
	if packed then
		-- One checksum over all of it (kernel: hf_rx_train()).
		if not reason then
			root:add(f.train_segs, tvb(24, 2), nsegs):set_generated()
			items.train_segs = nsegs
			train_expand(tvb, root, flags, v, present, nsegs, cap)
		end
		return tlen, reason, detail, key, tlen
	end
	-- Only a DATA whose payload is all there has a checksum to verify.
	local csum_len = v.seg_len <= present and DATA_HLEN + v.seg_len or nil
	return csum_len, reason, detail, key, cover
end

-- ACK: add the fields, then validate as decode_ack() does.
local function dissect_ack(tvb, root, flags, flen, cap, items)
	if flen < ACK_HLEN then
		return nil, "short", string.format("ACK header is %d bytes, frame has %d", ACK_HLEN, flen)
	end
	if cap < ACK_HLEN then
		root:append_text(" [header cut by the capture's snap length]")
		return nil
	end
	local v = {
		cum_seq = tvb(8, 4):uint(), credit = tvb(12, 4):uint(),
		rate_kbps = tvb(16, 4):uint(), msg_done = tvb(20, 4):uint(),
		status_hi = tvb(24, 4):uint(), status_lo = tvb(28, 4):uint(),
		nsack = tvb(32, 1):uint(), epoch = tvb(36, 4):uint(),
		rx_state = tvb(40, 4):uint(),
	}
	items.cum_seq = root:add(f.cum_seq, tvb(8, 4))
	if has_flag(flags, AF_LOST) then
		items.cum_seq:append_text(" (LOST: the segment that echoed a state the receiver does not hold)")
	end
	items.credit = root:add(f.credit, tvb(12, 4))
	items.rate_kbps = root:add(f.rate_kbps, tvb(16, 4))
	items.msg_done = root:add(f.msg_done, tvb(20, 4))
	local st = root:add(f.msg_status, tvb(24, 8))
	items.msg_status = st
	v.nstatus_ext = tvb(33, 1):uint() % 4
	local hlen = ACK_HLEN + v.nsack * SACK_BLOCK_LEN + v.nstatus_ext * STATUS_EXT_LEN

	-- Outcomes that are not "delivered", newest message first: msg_status's
	-- 32, then 32 per outcome word that is present and captured.
	local refused, reserved_seen, reserved_ext = 0, false, false
	local function list_outcomes(tree, hi, lo, first, byte31)
		local outs = {}
		for i = 0, STATUS_WINDOW - 1 do
			local o = outcome_at(hi, lo, i)
			if o ~= 0 then
				outs[#outs + 1] = { i = i, o = o }
			end
		end
		tree:append_text(string.format(" (%d not delivered)", #outs))
		for _, e in ipairs(outs) do
			local id = (v.msg_done - 1 - first - e.i) % TWO32
			-- bits 2i, 2i+1 of the big-endian u64 live in byte 7 - floor(i / 4)
			local r = tvb(byte31 - math.floor(e.i / 4), 1)
			local ot = tree:add(f.outcome, r)
			ot:set_text(string.format("Message %d: %s (%d) [bits %d-%d]", id,
				outcome_names[e.o], e.o, 2 * e.i, 2 * e.i + 1))
			ot:add(f.out_msg, r, id):set_generated()
			ot:add(f.out_status, r, e.o):set_generated()
			if e.o ~= 3 then refused = refused + 1 end
		end
		for _, e in ipairs(outs) do
			if e.o == 3 then return true end
		end
		return false
	end
	reserved_seen = list_outcomes(st, v.status_hi, v.status_lo, 0, 31)
	if v.nsack <= SACK_MAX then
		for j = 0, v.nstatus_ext - 1 do
			local off = ACK_HLEN + v.nsack * SACK_BLOCK_LEN + j * STATUS_EXT_LEN
			if off + STATUS_EXT_LEN > math.min(flen, cap) then break end
			local wt = root:add(f.status_ext, tvb(off, STATUS_EXT_LEN))
			if list_outcomes(wt, tvb(off, 4):uint(), tvb(off + 4, 4):uint(),
					 STATUS_WINDOW * (j + 1), off + 7) then
				reserved_ext = true
			end
		end
	end
	items.nsack = root:add(f.nsack, tvb(32, 1))
	items.nstatus_ext = root:add(f.nstatus_ext, tvb(33, 1))
	items.reserved3 = root:add(f.reserved3, tvb(33, 3), tvb(33, 3):uint() - v.nstatus_ext * 65536)
	items.epoch = root:add(f.epoch, tvb(36, 4))
	items.rx_state = root:add(f.rx_state, tvb(40, 4))
	if has_flag(flags, AF_LOST) then
		items.rx_state:append_text(" (ignored in a LOST answer)")
	elseif has_flag(flags, AF_CHALLENGE) then
		items.rx_state:append_text(" (the challenge cookie: the new epoch's DATA must echo it)")
	end
	items.v = v
	v.refused = refused

	root:add(f.hlen, tvb(32, 1), hlen):set_generated()
	-- The blocks that are present, whole, and captured.
	local nshow = math.min(v.nsack, math.floor((math.min(flen, cap) - ACK_HLEN) / SACK_BLOCK_LEN))
	local blocks = {}
	for i = 0, nshow - 1 do
		local off = ACK_HLEN + i * SACK_BLOCK_LEN
		local s, e = tvb(off, 4):uint(), tvb(off + 4, 4):uint()
		local len = (e - s) % TWO32
		local bt = root:add(f.sack, tvb(off, SACK_BLOCK_LEN))
		bt:set_text(string.format("SACK block %d: [%d, %d) %d segment%s", i + 1, s, e, len, len == 1 and "" or "s"))
		bt:add(f.sack_start, tvb(off, 4))
		bt:add(f.sack_end, tvb(off + 4, 4))
		bt:add(f.sack_len, tvb(off, SACK_BLOCK_LEN), len):set_generated()
		blocks[#blocks + 1] = { s = s, e = e, item = bt }
	end

	local function verdict()
		if undefined_bits(TYPE_ACK, flags) ~= 0 then
			return "flags", string.format("flags 0x%02x: bits 0x%02x are undefined for ACK", flags, undefined_bits(TYPE_ACK, flags)), "flags"
		end
		if reserved_seen then
			return "status", "outcome 3 (reserved) in msg_status", "msg_status"
		end
		if v.nsack > SACK_MAX then
			return "sack", string.format("nsack %d above %d", v.nsack, SACK_MAX), "nsack"
		end
		if flen < hlen then
			return "short", string.format("ACK with %d SACK blocks and %d outcome words is %d bytes, frame has %d",
				v.nsack, v.nstatus_ext, hlen, flen), "nsack"
		end
		if reserved_ext then
			return "status", "outcome 3 (reserved) in status_ext", "nstatus_ext"
		end
		local floor = v.cum_seq
		for i, b in ipairs(blocks) do
			if not seq_after(b.s, floor) then
				if i == 1 then
					return "sack", string.format("block %d start %d not above cum_seq %d", i, b.s, floor), b.item
				end
				return "sack", string.format("block %d start %d not above the previous block's end %d", i, b.s, floor), b.item
			end
			if not seq_before(b.s, b.e) then
				return "sack", string.format("block %d [%d, %d) is empty or inverted", i, b.s, b.e), b.item
			end
			if seq_before(b.e, floor) then
				return "sack", string.format("block %d [%d, %d) spans half the sequence space", i, b.s, b.e), b.item
			end
			floor = b.e
		end
		return nil
	end
	local reason, detail, key = verdict()
	local csum_len = (v.nsack <= SACK_MAX and flen >= hlen) and hlen or nil
	return csum_len, reason, detail, key, math.min(hlen, flen)
end

-- One segment at the start of @tvb. Returns the bytes it covers, and
-- whether the next bytes are the next DATA segment of a train (note 5).
local function dissect_one(tvb, pinfo, tree)
	local flen = tvb:reported_len()
	local cap = tvb:captured_len()
	pinfo.cols.protocol = "hyperframe"

	local root = tree:add(hf, tvb(0, math.min(cap, flen)))
	local items = {}
	local reason, detail, key, csum_len, cover, ftype, flags

	-- At most one expert info of what the frame's receiver makes of its
	-- state fields, checked in the receiver's order (design note 9).
	local function state_note()
		local v = items.v
		if not v then
			return
		end
		if v.epoch == 0 then
			items.epoch:add_proto_expert_info(ex.epoch_zero, ftype == TYPE_DATA and
				"epoch_zero: no sender uses epoch 0, so the receiver drops this DATA as forged (drop_forged)" or
				"epoch_zero: no sender uses epoch 0, so the sender drops this ACK (drop_epoch)")
		elseif ftype ~= TYPE_ACK then
			return
		elseif has_flag(flags, AF_LOST) then
			items.cum_seq:add_proto_expert_info(ex.lost, string.format(
				"lost: the receiver holds no state for epoch 0x%08x, so its sender restarts if seq %d is in flight",
				v.epoch, v.cum_seq))
		elseif v.rx_state == 0 then
			items.rx_state:add_proto_expert_info(ex.rx_state_zero,
				"rx_state_zero: an ACK without the receiver's state, which the sender drops (drop_ack_invalid)")
		elseif has_flag(flags, AF_CHALLENGE) then
			items.rx_state:add_proto_expert_info(ex.challenge, string.format(
				"challenge: the receiver holds another flow from this sender, so epoch 0x%08x must echo cookie 0x%08x",
				v.epoch, v.rx_state))
		end
	end

	local function finish()
		local info
		local v = items.v
		if ftype == TYPE_DATA and v then
			info = string.format("DATA %d→%d seq=%d msg=%d off=%d len=%d/%d",
				items.sport_v, items.dport_v, v.seq, v.msg_id, v.offset, v.seg_len, v.msg_len)
			if items.train_segs then
				info = info .. string.format(" [packed train of %d segments]", items.train_segs)
			end
		elseif ftype == TYPE_ACK and v and has_flag(flags, AF_LOST) then
			info = string.format("ACK epoch=0x%08x seq=%d", v.epoch, v.cum_seq)
		elseif ftype == TYPE_ACK and v and has_flag(flags, AF_CHALLENGE) then
			info = string.format("ACK epoch=0x%08x cookie=0x%08x", v.epoch, v.rx_state)
		elseif ftype == TYPE_ACK and v then
			info = string.format("ACK cum=%d sack=%d done=%d", v.cum_seq, v.nsack, v.msg_done)
			if v.refused > 0 then info = info .. string.format(" refused=%d", v.refused) end
		elseif ftype and type_names[ftype] and items.version_v == VERSION then
			info = type_names[ftype]
		elseif ftype then
			info = string.format("version %d type %d", items.version_v, ftype)
		else
			info = string.format("%d bytes", flen)
		end
		if flags then
			local names = flag_names(ftype, flags)
			if #names > 0 then info = info .. " [" .. table.concat(names, ",") .. "]" end
		end
		if cap < flen and not reason then
			info = info .. " [truncated]"
		end

		-- Checksum (design note 2).
		local csum_bad = false
		if items.csum then
			local status = 2
			if csum_len and csum_len <= cap then
				local stored = tvb(6, 2):uint()
				local sum = rfc1071_sum(tvb, csum_len)
				local calc = 0xffff - fold(sum - stored)
				status = fold(sum) == 0xffff and 1 or 0
				-- A DATA segment's field left 0 for the device to fill.
				if status == 0 and stored == 0 and items.v ~= nil and ftype == TYPE_DATA then
					status = 3
				end
				items.csum:add(f.csum_calc, tvb(6, 2), calc):set_generated()
				items.csum:append_text(status == 1 and " [correct]" or status == 3 and
					string.format(" [unfilled: left to the device (checksum offload), would be 0x%04x]", calc) or
					string.format(" [incorrect, should be 0x%04x]", calc))
			else
				items.csum:append_text(" [unverified]")
			end
			items.csum:add(f.csum_stat, tvb(6, 2), csum_status_names[status]):set_generated()
			if status == 0 then
				csum_bad = true
				items.csum:add_proto_expert_info(ex.csum,
					string.format("csum: checksum 0x%04x does not verify over %d bytes", tvb(6, 2):uint(), csum_len))
				if not reason then reason, detail = "csum", nil end
			end
		end

		if reason then
			root:add(f.malformed, tvb(0, math.min(cap, flen)), reason):set_generated()
			if reason ~= "csum" then
				local target = type(key) == "userdata" and key or items[key] or root
				target:add_proto_expert_info(ex[reason], reason .. ": " .. detail)
			end
			info = info .. " [Malformed: " .. reason .. "]"
			root:append_text(" [Malformed: " .. reason .. "]")
		elseif csum_bad then
			info = info .. " [Malformed: csum]"
		else
			state_note()
		end
		pinfo.cols.info:set(info)

		-- Payload, then hand back what we consumed (design note 4). A frame
		-- whose layout is unknown (short, version, type) is all ours.
		cover = cover or flen
		local shown = math.min(cover, cap)
		local body = items.v and (ftype == TYPE_DATA and DATA_HLEN or shown) or
			(items.csum and COMMON_LEN or shown)
		if shown > body then
			Dissector.get("data"):call(tvb(body, shown - body):tvb(), pinfo, tree)
		end
		if shown > 0 then root:set_len(shown) end
		-- Ethernet pads frames below 60 bytes; the receiver ignores it. (A
		-- Lua dissector cannot shrink its tvb for Ethernet to show it.)
		-- Unless a train goes on (note 5).
		local avail = math.min(flen, cap)
		local chain = items.v ~= nil and ftype == TYPE_DATA and not reason and
			not csum_bad and avail - cover >= DATA_HLEN and
			tvb(cover, 1):uint() == VERSION * 16 + TYPE_DATA
		if items.v and cover < avail and not chain then
			root:add(f.padding, tvb(cover, avail - cover))
		end
		return cover, chain
	end

	if flen < COMMON_LEN then
		reason, detail = "short", string.format("common header is %d bytes, frame has %d", COMMON_LEN, flen)
		return finish()
	end
	if cap < COMMON_LEN then
		root:append_text(" [header cut by the capture's snap length]")
		return finish()
	end

	local b0 = tvb(0, 1):uint()
	items.version_v = math.floor(b0 / 16)
	ftype = b0 % 16
	flags = tvb(1, 1):uint()
	items.sport_v = tvb(2, 2):uint()
	items.dport_v = tvb(4, 2):uint()

	items.version = root:add(f.version, tvb(0, 1))
	items.type = root:add(f.type, tvb(0, 1))
	local fi = root:add(f.flags, tvb(1, 1))
	items.flags = fi
	items.sport = root:add(f.sport, tvb(2, 2))
	items.dport = root:add(f.dport, tvb(4, 2))
	root:add(f.port, tvb(2, 2)):set_hidden()
	root:add(f.port, tvb(4, 2)):set_hidden()
	items.csum = root:add(f.csum, tvb(6, 2))

	if items.version_v ~= VERSION then
		-- Another version's layout is unknown: nothing after the common
		-- header is interpreted, flags included.
		reason, detail, key = "version", string.format("version %d, this dissector knows %d", items.version_v, VERSION), "version"
		flags = nil
		return finish()
	end

	local names = flag_names(ftype, flags)
	if #names > 0 then fi:append_text(" (" .. table.concat(names, ", ") .. ")") end
	if ftype == TYPE_DATA then
		fi:add(f.fl_start, tvb(1, 1))
		fi:add(f.fl_end, tvb(1, 1))
		fi:add(f.fl_rtx, tvb(1, 1))
		fi:add(f.fl_acknow, tvb(1, 1))
		fi:add(f.fl_packed, tvb(1, 1))
	elseif ftype == TYPE_ACK then
		fi:add(f.fl_echo, tvb(1, 1))
		fi:add(f.fl_window, tvb(1, 1))
		fi:add(f.fl_dup, tvb(1, 1))
		fi:add(f.fl_closed, tvb(1, 1))
		fi:add(f.fl_chall, tvb(1, 1))
		fi:add(f.fl_lost, tvb(1, 1))
	end
	if type_names[ftype] and undefined_bits(ftype, flags) ~= 0 then
		fi:add(f.fl_undef, tvb(1, 1), undefined_bits(ftype, flags))
	end

	if ftype == TYPE_DATA then
		csum_len, reason, detail, key, cover = dissect_data(tvb, root, flags, flen, cap, items)
	elseif ftype == TYPE_ACK then
		csum_len, reason, detail, key, cover = dissect_ack(tvb, root, flags, flen, cap, items)
	else
		reason, detail, key = "type", string.format("type %d is neither 1 (DATA) nor 2 (ACK)", ftype), "type"
	end
	if items.v then
		root:append_text(string.format(", %s", type_names[ftype]))
	end
	return finish()
end

function hf.dissector(tvb, pinfo, tree)
	local used, chain = dissect_one(tvb, pinfo, tree)
	if not chain then
		return used
	end
	local first = tostring(pinfo.cols.info)
	local n = 1
	while chain do
		local more
		more, chain = dissect_one(tvb(used):tvb(), pinfo, tree)
		used = used + more
		n = n + 1
	end
	pinfo.cols.info:set(string.format("%s [train of %d segments]", first, n))
	return used
end

-- Registration, and moving it when the EtherType preference changes.
local ethertype_table = DissectorTable.get("ethertype")
local registered = DEFAULT_ETHERTYPE
ethertype_table:add(registered, hf)

function hf.prefs_changed()
	local want = hf.prefs.ethertype
	if want ~= registered then
		ethertype_table:remove(registered, hf)
		ethertype_table:add(want, hf)
		registered = want
	end
end
