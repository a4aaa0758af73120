#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-dissector.sh - checks tools/wireshark/hyperframe.lua against frames
# built by hand from docs/wire-format.md.
#
# An embedded Python script (standard library only) writes a pcap of
# DATA and ACK frames covering every type, every flag, every reason of
# the validation table and every note of what a frame says of its flow's
# state (CHALLENGE, LOST, epoch 0, no rx_state), and the exact tshark
# output each frame must give. tshark decodes the pcap with the
# dissector; every field of every frame is compared, then each malformed
# reason and each note is looked up by display filter, then the EtherType
# preference is exercised. Output is KTAP; the exit
# status is non-zero on any failure.
#
# Usage: test-dissector.sh [-v]     (-v: show tshark's tree of failures)
# Environment: TSHARK (default tshark), PYTHON (default /usr/bin/python3),
# HF_DISSECTOR (default: hyperframe.lua next to this script), HF_KEEP=1
# keeps the work directory (pcaps, expected and actual fields) in /tmp.
# Without tshark it prints a KTAP skip plan and exits 4.
set -uo pipefail

here=$(cd "$(dirname "$(readlink -f "$0")")" && pwd -P)
lua=${HF_DISSECTOR:-$here/hyperframe.lua}
tshark=${TSHARK:-tshark}
python=${PYTHON:-/usr/bin/python3}
[[ -x $python ]] || python=python3
verbose=0
[[ ${1:-} == -v ]] && verbose=1

if ! command -v "$tshark" >/dev/null 2>&1; then
	echo "TAP version 13"
	echo "1..0 # SKIP tshark not found (DEBIAN_FRONTEND=noninteractive apt-get install -y tshark)"
	exit 4
fi

work=$(mktemp -d /tmp/hf-dissector.XXXXXX) || exit 1
trap '[[ ${HF_KEEP:-} ]] || rm -rf "$work"' EXIT
chmod 755 "$work"
mkdir -p "$work/home"
cp "$lua" "$work/hyperframe.lua"

# tshark runs with HOME pointing at an empty directory, so the personal
# preferences of whoever runs the test (a changed hyperframe.ethertype, a
# disabled protocol) and a copy of the dissector already installed in
# ~/.local/lib/wireshark/plugins (which would register "hyperframe" twice)
# do not change the result.
#
# Lua and root. Whether Lua runs at all is decided by the global init.lua
# (/usr/share/wireshark/init.lua), before any script: "enable_lua = false"
# (2.6 and earlier: "disable_lua = true") turns Lua off, and
# "run_user_scripts_when_superuser = false" makes a process running as root
# skip personal plugins and -X lua_script files (older releases instead
# failed with "dofile has been disabled due to running Wireshark as
# superuser"). Wireshark 4.0 as packaged in Debian 12 ships enable_lua =
# true and run_user_scripts_when_superuser = true, so "-X lua_script:" loads
# as root; the one line tshark prints, 'Running as user "root" and group
# "root". This could be dangerous.', is a warning on stderr, not an error.
# Nothing in the environment or on the command line can override init.lua
# for root: WIRESHARK_DATA_DIR, which would point at another init.lua, is
# ignored when started with special privileges, and uid 0 counts. So the
# test never assumes: it asks tshark whether the protocol registered, and
# if not while running as root, it runs tshark as the unprivileged user
# "nobody" (reading a capture file needs no privilege; Wireshark recommends
# dissecting unprivileged anyway). If that fails too, Lua is disabled
# outright and the test bails out.
run_as=()
ts()
{
	HOME=$work/home XDG_CONFIG_HOME=$work/home/.config \
		"${run_as[@]}" "$tshark" "$@" 2>>"$work/tshark.err"
}
registered()
{
	ts -G protocols -X "lua_script:$work/hyperframe.lua" |
		awk -F'\t' '$3 == "hyperframe" { found = 1 } END { exit !found }'
}

echo "TAP version 13"

# ---- the frames -------------------------------------------------------------
cat >"$work/gen.py" <<'PYEOF'
import struct, sys

out = sys.argv[1]
FIELDS = [
    "hyperframe.version", "hyperframe.type", "hyperframe.flags",
    "hyperframe.flags.frame_start", "hyperframe.flags.frame_end",
    "hyperframe.flags.retransmit", "hyperframe.flags.ack_now",
    "hyperframe.flags.packed",
    "hyperframe.flags.echo", "hyperframe.flags.window", "hyperframe.flags.dup",
    "hyperframe.flags.closed", "hyperframe.flags.challenge",
    "hyperframe.flags.lost", "hyperframe.flags.undefined",
    "hyperframe.sport", "hyperframe.dport", "hyperframe.port",
    "hyperframe.csum", "hyperframe.csum.status", "hyperframe.csum.calculated",
    "hyperframe.hlen",
    "hyperframe.seq", "hyperframe.msg_id", "hyperframe.msg_len",
    "hyperframe.offset", "hyperframe.seg_len", "hyperframe.frame_segs",
    "hyperframe.frame_seq", "hyperframe.seg_size", "hyperframe.frame_index",
    "hyperframe.seg_index", "hyperframe.pred", "hyperframe.status_ask",
    "hyperframe.reserved",
    "hyperframe.epoch", "hyperframe.echo", "hyperframe.train_segs",
    "hyperframe.train_seg.seq", "hyperframe.train_seg.offset",
    "hyperframe.train_seg.seg_len", "hyperframe.train_seg.flags",
    "hyperframe.train_seg.pred",
    "hyperframe.cum_seq", "hyperframe.credit", "hyperframe.rate_kbps",
    "hyperframe.msg_done", "hyperframe.msg_status",
    "hyperframe.outcome.msg_id", "hyperframe.outcome.status",
    "hyperframe.nsack", "hyperframe.nstatus_ext", "hyperframe.reserved3",
    "hyperframe.status_ext", "hyperframe.rx_state",
    "hyperframe.sack.start", "hyperframe.sack.end", "hyperframe.sack.len",
    "hyperframe.padding", "hyperframe.malformed", "_ws.expert.message",
    "_ws.col.Info",
    "data.len", "data.data",
]
VERSION = 5                 # HF_WIRE_VERSION; any other version is malformed
DATA_HLEN = 44              # HF_DATA_HLEN: pred 34, reserved 35, epoch 36, echo 40
ACK_HLEN = 44               # HF_ACK_HLEN: reserved 33..35, epoch 36, rx_state 40
EPOCH = 0x1234ABCD          # a sender's epoch (32 random bits, never 0)
STATE = 0x5A17C0DE          # its receiver's rx_state, which DATA echoes
REASONS = ["short", "version", "type", "flags", "length", "offset", "frame",
           "sack", "status", "csum"]
# What a well-formed frame says of the flow's state (design note 9 of the
# dissector): expert infos that are no malformation.
NOTES = ["challenge", "lost", "epoch_zero", "rx_state_zero"]
OUTCOME_NAMES = {1: "no_port", 2: "too_big", 3: "reserved"}

def rfc1071(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s

def put_csum(body, clen, bad=False, value=None):
    """Write the checksum over body[:clen] (field zeroed), or a wrong one."""
    b = bytearray(body)
    b[6:8] = b"\0\0"
    c = ~rfc1071(bytes(b[:clen])) & 0xFFFF
    if value is not None:
        c = value
    elif bad:
        c ^= 0x5A5A
    b[6:8] = struct.pack("!H", c)
    return bytes(b)

def payload(n, seed=0):
    return bytes((seed + 7 * i) & 0xFF for i in range(n))

def packed(seq=0, msg_id=0, msg_len=None, offset=0, seg_size=200, nbytes=600,
           frame_segs=3, frame_seq=None, flags=0x03, seg_len=None, csum=None,
           bad_csum=False, epoch=EPOCH, echo=0, pred=0, reserved=0):
    """A packed train: one header (PACKED set), then @nbytes of payload,
    the segments it stands for back to back; checksum over all of it."""
    if msg_len is None:
        msg_len = offset + nbytes
    if frame_seq is None:
        frame_seq = seq
    if seg_len is None:
        seg_len = seg_size
    h = struct.pack("!BBHHHIIIIHHIHBBII", VERSION << 4 | 1, flags | 0x10, 5001,
                    7000, 0, seq, msg_id, msg_len, offset, seg_len, frame_segs,
                    frame_seq, seg_size, pred, reserved, epoch, echo)
    body = h + payload(nbytes, seq)
    return put_csum(body, len(body), bad_csum, csum)

def data(seq=0, msg_id=0, msg_len=None, offset=0, seg_len=None, frame_segs=1,
         frame_seq=None, seg_size=1456, epoch=EPOCH, echo=0, flags=0, sport=5001,
         dport=7000, present=None, vt=VERSION << 4 | 1, bad_csum=False, csum=None,
         trunc=None, pred=0, reserved=0, layout=5, poke=None):
    """A DATA frame; present = payload bytes actually included. layout 5:
    the 44-byte header; 4: the 40-byte one of version 4 (16-bit epoch at
    34, pred at 36, three reserved bytes, no echo); 3: the 36-byte one of
    versions 1 to 3 (16-bit epoch at 34, no pred). poke = (offset, bytes)
    written after the checksum, so that it no longer covers them as sent."""
    if seg_len is None:
        seg_len = min(seg_size, (msg_len or 0) - offset)
    if msg_len is None:
        msg_len = offset + seg_len
    if frame_seq is None:
        frame_seq = seq
    if present is None:
        present = seg_len
    h = struct.pack("!BBHHHIIIIHHIH", vt, flags, sport, dport, 0,
                    seq & 0xFFFFFFFF, msg_id, msg_len, offset, seg_len,
                    frame_segs, frame_seq & 0xFFFFFFFF, seg_size)
    if layout == 5:
        h += struct.pack("!BBII", pred, reserved, epoch, echo)
    elif layout == 4:
        h += struct.pack("!HB3s", epoch & 0xFFFF, pred, b"\0\0\0")
    else:
        h += struct.pack("!H", epoch & 0xFFFF)
    hlen = len(h)
    assert hlen == {5: 44, 4: 40, 3: 36}[layout]
    body = h + payload(present, seq)
    body = put_csum(body, hlen + min(seg_len, present), bad_csum, csum)
    if poke is not None:
        off, b = poke
        body = body[:off] + b + body[off + len(b):]
    return body[:trunc] if trunc is not None else body

def old_data(vt=3 << 4 | 1, **kw):
    """A DATA frame in the 36-byte layout of versions 1 to 3 (no pred), as
    a peer running such a module sends it."""
    return data(vt=vt, layout=3, **kw)

def v4_data(vt=4 << 4 | 1, **kw):
    """A DATA frame in the 40-byte layout of version 4 (16-bit epoch, pred
    at 36, no echo), as a peer running such a module sends it."""
    return data(vt=vt, layout=4, **kw)

def ack(cum=0, credit=0, rate=0, done=0, status=0, blocks=(), nsack=None,
        reserved=b"\0\0\0", epoch=EPOCH, rx_state=STATE, flags=0,
        sport=0, dport=7000, vt=VERSION << 4 | 2, bad_csum=False, trunc=None,
        poke=None, layout=5, ext=(), next_=None):
    """An ACK (layout 5: the 44-byte header; 4: the 40-byte one of versions
    2 to 4, 16-bit epoch at 34 and rx_state at 36, two reserved bytes);
    poke = (offset, bytes) written after the checksum, so that the
    checksum no longer covers them as sent. ext: the outcome words after
    the blocks, their number in byte 33's low bits (next_ when given)
    beside reserved's."""
    if nsack is None:
        nsack = len(blocks)
    if next_ is None:
        next_ = len(ext)
    body = struct.pack("!BBHHHIIIIQB", vt, flags, sport, dport, 0,
                       cum & 0xFFFFFFFF, credit, rate, done, status, nsack)
    if layout == 5:
        reserved = bytes([reserved[0] | next_]) + reserved[1:]
        body += reserved + struct.pack("!II", epoch, rx_state)
    else:
        body += struct.pack("!BHHH", 0, epoch & 0xFFFF, rx_state & 0xFFFF, 0)
    for s, e in blocks:
        body += struct.pack("!II", s & 0xFFFFFFFF, e & 0xFFFFFFFF)
    for w in ext:
        body += struct.pack("!Q", w)
    body = put_csum(body, len(body), bad_csum)
    if poke is not None:
        off, b = poke
        body = body[:off] + b + body[off + len(b):]
    return body[:trunc] if trunc is not None else body

def old_ack(cum=0, credit=0, done=0, blocks=(), epoch=0x1234, version=1):
    """An ACK in the 36-byte layout of version 1, before rx_state (blocks
    at offset 36), with its checksum: as a peer running a version 1 module
    sends it, or (version=VERSION) a current ACK cut to that layout."""
    body = struct.pack("!BBHHHIIIIQBBH", version << 4 | 2, 0, 0, 7000, 0, cum,
                       credit, 0, done, 0, len(blocks), 0, epoch)
    for s, e in blocks:
        body += struct.pack("!II", s, e)
    return put_csum(body, len(body))

def raw(vt, flags=0, n=36, sport=1, dport=2):
    body = struct.pack("!BBHHH", vt, flags, sport, dport, 0) + payload(n - 8)
    return put_csum(body, len(body))

def status_bits(**outcomes):
    """status_bits(i0=1, i31=2): outcome of message msg_done - 1 - i."""
    v = 0
    for k, o in outcomes.items():
        v |= o << (2 * int(k[1:]))
    return v

W = 2 ** 32
FRAMES = [
    # ---- well-formed, every type and flag
    # echo: 0 in a sender's first window, sent before it learned the
    # receiver's state from an ACK; that state in everything after it,
    # repairs included.
    ("data_example", data(seq=12, msg_id=3, msg_len=100000, offset=17472,
                          frame_segs=4, frame_seq=10, pred=2, echo=STATE),
     None, b""),
    ("data_single_start_end", data(msg_len=100, flags=0x03), None, b""),
    ("data_frame_start", data(seq=100, msg_len=4000, seg_size=1000,
                              frame_segs=3, flags=0x01, msg_id=7), None, b""),
    ("data_end_rtx_acknow", data(seq=102, frame_seq=100, frame_segs=3,
                                 msg_len=3500, offset=3000, seg_size=1000,
                                 flags=0x0E, msg_id=7, echo=STATE), None, b""),
    ("data_empty_msg_nonzero_padding", data(msg_len=0, seg_len=0, seg_size=1,
                                            flags=0x03, msg_id=9, epoch=1),
     None, b"\xaa" * 10),
    ("data_seq_wrap_msg_max", data(seq=1, frame_seq=-2, frame_segs=4,
                                   msg_len=2 ** 30, offset=2 ** 30 - 1024,
                                   seg_size=1024, flags=0x02, msg_id=0xFFFFFFFF,
                                   epoch=0xFFFFFFFF, echo=0xFFFFFFFF,
                                   sport=65535, dport=1), None, b""),
    ("data_csum_stored_ffff", None, None, b""),          # filled in below
    # pred (byte 34): 0, none unresolved before it between its ports; any
    # other value names msg_id - pred, and none is malformed, not even one
    # a correct sender never writes (above 31, or reaching below msg_id 0).
    ("data_pred_0", data(seq=20, msg_id=8, msg_len=100, flags=0x03, pred=0),
     None, b""),
    ("data_pred_5", data(seq=21, msg_id=9, msg_len=100, flags=0x03, pred=5),
     None, b""),
    ("data_pred_255_before_msg_0", data(seq=22, msg_id=3, msg_len=100,
                                        flags=0x03, pred=255), None, b""),
    # Byte 35 is written as zero and ignored on receive.
    ("data_reserved_nonzero", data(seq=23, msg_id=10, msg_len=100, flags=0x03,
                                   pred=1, reserved=0xFF), None, b""),
    # Past the first window (seq 4096 and msg_id 32 on), with the echo; a
    # repair carries the echo its sender has when it resends. The decoder
    # checks neither: whether a segment may start a flow, or belongs to
    # the current one, is the receiver's state's to say (hf_epoch.c).
    ("data_echo_beyond_first_window", data(seq=70000, msg_id=40, msg_len=5000,
                                           offset=4368, frame_segs=4,
                                           frame_seq=69997, flags=0x02,
                                           echo=STATE), None, b""),
    ("data_echo_repair", data(seq=3, msg_id=0, msg_len=3000, offset=1456,
                              frame_segs=3, frame_seq=2, flags=0x04,
                              echo=STATE), None, b""),
    ("data_echo_top_bit", data(seq=9, msg_len=100, flags=0x03,
                               echo=0x80000000), None, b""),
    ("data_no_echo_beyond_first_window", data(seq=5000, msg_id=33, msg_len=100,
                                              flags=0x03), None, b""),
    # Epoch 0 is no sender's: well formed, dropped as forged by a receiver.
    ("data_epoch_0", data(seq=24, msg_id=11, msg_len=100, flags=0x03, epoch=0),
     None, b""),
    ("data_epoch_0_echo", data(seq=25, msg_id=12, msg_len=100, flags=0x03,
                               epoch=0, echo=STATE), None, b""),
    # credit is the low 32 bits of a byte limit, unrelated to cum_seq: the
    # initial window, a limit below cum_seq, one that wrapped, 0.
    ("ack_example", ack(cum=75, credit=65536, done=6,
                        blocks=[(80, 90), (100, 101)]), None, b""),
    ("ack_echo_outcomes", ack(cum=1000, credit=300, rate=1000000, done=100,
                              status=status_bits(i0=1, i2=2, i17=1, i31=2),
                              flags=0x01), None, b""),
    ("ack_16_sacks_wrap_reserved", ack(
        cum=W - 20, credit=0x0000A000, rate=1, done=3, reserved=b"\x58\x00\xa5",
        epoch=0xFFFFFFFF, rx_state=0xFFFFFFFF,
        blocks=[(W - 19 + 3 * i, W - 17 + 3 * i) for i in range(16)]),
     None, b""),
    ("ack_low_done_padded", ack(cum=0, done=2, status=status_bits(i1=2)),
     None, b"\0" * 10),
    # status_window 128: three words of 32 more outcomes after the blocks.
    ("ack_status_ext", ack(cum=500, credit=9000, done=1000,
                           status=status_bits(i31=1), blocks=[(502, 504)],
                           ext=(status_bits(i0=2), status_bits(i1=1),
                                status_bits(i31=2)), reserved=b"\x80\x00\x00"),
     None, b""),
    ("ack_status_ext_reserved", ack(cum=500, done=1000, ext=(0, status_bits(i5=3))),
     "status", b""),
    ("ack_status_ext_short", ack(cum=500, done=1000, ext=(0, 0), next_=3),
     "short", b""),
    ("ack_dup", ack(cum=300, credit=W - 1, done=9, rx_state=0x00000001, flags=0x04,
                    blocks=[(302, 303)]), None, b""),
    ("ack_echo_window_dup_reserved", ack(cum=7, credit=70000, rx_state=0x80000000,
                                         reserved=b"\0\0\x01", flags=0x07),
     None, b""),
    # CLOSED replaces version 2's zero window (credit == cum_seq): credit
    # keeps its limit, which never goes back.
    ("ack_closed", ack(cum=40, credit=131072, done=4, flags=0x08,
                       blocks=[(42, 45)]), None, b""),
    ("ack_closed_credit_eq_cum", ack(cum=40, credit=40, flags=0x08), None, b""),
    ("ack_old_flags", ack(cum=9, credit=0, rx_state=0x00000002, flags=0x0F),
     None, b""),
    # CHALLENGE: the receiver holds another flow from this sender, whose new
    # epoch must echo the cookie in rx_state; nothing else is set.
    ("ack_challenge", ack(epoch=0x0BADCAFE, rx_state=0x9E3779B9, flags=0x10),
     None, b""),
    # LOST: no state for this epoch; cum_seq names the segment that echoed
    # one, rx_state is 0. It wins over CHALLENGE, as in the sender.
    ("ack_lost", ack(cum=1234, rx_state=0, flags=0x20), None, b""),
    ("ack_challenge_and_lost", ack(cum=77, rx_state=0x9E3779B9, flags=0x30),
     None, b""),
    ("ack_all_flags", ack(cum=9, credit=0, rx_state=0x00000002, flags=0x3F),
     None, b""),
    # rx_state is chosen non-zero, but the decoder does not check it: 0 is
    # well-formed, and the sender drops such an ACK unless it says LOST.
    ("ack_rx_state_0", ack(cum=5, rx_state=0), None, b""),
    ("ack_challenge_rx_state_0", ack(rx_state=0, flags=0x10), None, b""),
    ("ack_epoch_0", ack(cum=5, epoch=0), None, b""),
    ("ack_lost_epoch_0", ack(cum=5, epoch=0, rx_state=0, flags=0x20), None, b""),
    # Current ACKs cut to the 36-byte layout of version 1 and the 40-byte
    # one of version 4, padded by Ethernet: the zero padding adds nothing
    # to the checksum, so they decode as well-formed ACKs, the first of
    # epoch 0 (the padding), the second without a state (its epoch is the
    # old rx_state and reserved bytes, its rx_state the padding).
    ("ack_v1_layout_padded", old_ack(cum=40, credit=90, done=4,
                                     version=VERSION), None, b"\0" * 10),
    ("ack_v4_layout_padded", ack(cum=40, credit=90, done=4, layout=4),
     None, b"\0" * 10),
    # ---- short
    ("short_common", raw(VERSION << 4 | 1, n=8)[:5], "short", b""),
    ("short_data", data(msg_len=100, flags=0x03)[:20], "short", b""),
    # An empty message's segment in the 36-byte layout of version 3 and in
    # the 40-byte one of version 4 but stamped version 5, and one cut
    # inside the echo.
    ("short_data_36_v3_layout", old_data(msg_len=0, seg_len=0, seg_size=1,
                                         flags=0x03, vt=VERSION << 4 | 1),
     "short", b""),
    ("short_data_40_v4_layout", v4_data(msg_len=0, seg_len=0, seg_size=1,
                                        flags=0x03, vt=VERSION << 4 | 1),
     "short", b""),
    ("short_data_43", data(msg_len=0, seg_len=0, seg_size=1, flags=0x03,
                           trunc=43), "short", b""),
    ("short_ack", ack(cum=5)[:30], "short", b""),
    ("short_ack_36_v1_layout", old_ack(cum=5, version=VERSION), "short", b""),
    ("short_ack_40_v4_layout", ack(cum=5, layout=4), "short", b""),
    ("short_ack_41", ack(cum=5, trunc=41), "short", b""),
    ("short_ack_43", ack(cum=5, trunc=43), "short", b""),
    ("short_ack_blocks", ack(cum=5, nsack=2, blocks=[(7, 9)]), "short", b""),
    ("short_ack_v1_layout_1_block", old_ack(cum=5, blocks=[(7, 9)],
                                            version=VERSION), "short", b""),
    ("short_ack_v4_layout_1_block", ack(cum=5, blocks=[(7, 9)], layout=4),
     "short", b""),
    # ---- version: version 1 frames, as a peer running the module before
    # rx_state sends them, are dropped before their layout is looked at,
    # whatever their length; so are version 2 frames (credit a sequence
    # number), version 3 frames (the 36-byte DATA header before pred; the
    # ACK of 40 bytes), version 4 frames (40-byte headers: 16-bit epochs,
    # no echo), and versions never defined.
    ("version_1_data", old_data(msg_len=100, flags=0x03, vt=0x11), "version", b""),
    ("version_1_data_example", old_data(seq=12, msg_id=3, msg_len=100000,
                                        offset=17568, seg_size=1464,
                                        frame_segs=4, frame_seq=10, vt=0x11),
     "version", b""),
    ("version_1_ack", old_ack(cum=40, credit=90, done=4, blocks=[(42, 45)]),
     "version", b""),
    ("version_1_ack_padded", old_ack(cum=40, credit=90, done=4), "version",
     b"\0" * 10),
    ("version_1_ack_in_v2_layout", ack(cum=75, credit=200, done=6,
                                       blocks=[(80, 90)], vt=0x12, layout=4),
     "version", b""),
    ("version_1_short", raw(0x12, n=8), "version", b""),
    ("version_2_data", old_data(msg_len=100, flags=0x03, vt=0x21), "version", b""),
    ("version_2_ack", ack(cum=75, credit=4171, done=6, blocks=[(80, 90)],
                          vt=0x22, layout=4), "version", b""),
    ("version_2_zero_window", ack(cum=40, credit=40, flags=0x02, vt=0x22,
                                  layout=4), "version", b""),
    ("version_2_short", raw(0x22, n=8), "version", b""),
    ("version_3_data", old_data(seq=12, msg_id=3, msg_len=100000,
                                offset=17568, seg_size=1464, frame_segs=4,
                                frame_seq=10), "version", b""),
    ("version_3_data_single", old_data(msg_len=100, flags=0x03), "version", b""),
    # A version 3 empty segment, padded by Ethernet past the 44 bytes of a
    # version 5 header: still its version, not its length, decides.
    ("version_3_data_padded", old_data(msg_len=0, seg_len=0, seg_size=1,
                                       flags=0x03), "version", b"\0" * 10),
    ("version_3_packed", old_data(seq=40, msg_len=600, seg_len=200,
                                  seg_size=200, frame_segs=3, flags=0x13,
                                  present=600), "version", b""),
    ("version_3_ack", ack(cum=75, credit=65536, done=6, blocks=[(80, 90)],
                          vt=0x32, layout=4), "version", b""),
    ("version_4_data", v4_data(seq=12, msg_id=3, msg_len=100000, offset=17520,
                               seg_size=1460, frame_segs=4, frame_seq=10,
                               pred=2), "version", b""),
    ("version_4_data_single", v4_data(msg_len=100, flags=0x03), "version", b""),
    ("version_4_data_padded", v4_data(msg_len=0, seg_len=0, seg_size=1,
                                      flags=0x03), "version", b"\0" * 10),
    ("version_4_packed", v4_data(seq=40, msg_len=600, seg_len=200,
                                 seg_size=200, frame_segs=3, flags=0x13,
                                 present=600), "version", b""),
    ("version_4_ack", ack(cum=75, credit=65536, done=6, blocks=[(80, 90)],
                          vt=0x42, layout=4), "version", b""),
    ("version_4_ack_closed_padded", ack(cum=40, credit=40, flags=0x08, vt=0x42,
                                        layout=4), "version", b"\0" * 10),
    ("version_4_short", raw(0x41, n=8), "version", b""),
    ("version_0", raw(0x02, n=40), "version", b""),
    ("version_6", data(msg_len=100, vt=0x61), "version", b""),
    ("version_15_ack", ack(cum=5, vt=0xF2), "version", b""),
    # ---- type
    ("type_0", raw(VERSION << 4 | 0), "type", b""),
    ("type_3", raw(VERSION << 4 | 3, flags=0x01), "type", b""),
    ("type_15", raw(VERSION << 4 | 15, n=8), "type", b""),
    # ---- flags
    ("flags_data_0x20", data(msg_len=100, flags=0x23), "flags", b""),
    ("flags_data_0x80", data(msg_len=100, flags=0x80), "flags", b""),
    ("flags_ack_0x40", ack(cum=5, flags=0x7F), "flags", b""),
    ("flags_ack_0x40_alone", ack(cum=5, flags=0x40), "flags", b""),
    ("flags_ack_0x40_closed", ack(cum=5, flags=0x48), "flags", b""),
    ("flags_ack_0x80_dup", ack(cum=5, flags=0x84), "flags", b""),
    ("flags_ack_0x80_lost", ack(cum=5, rx_state=0, flags=0xA0), "flags", b""),
    # ---- length
    ("length_beyond_frame", data(msg_len=100, present=50), "length", b""),
    ("length_seg_size_0", data(msg_len=100, seg_len=100, seg_size=0), "length", b""),
    ("length_above_seg_size", data(msg_len=2000, seg_len=1000, seg_size=512),
     "length", b""),
    ("length_empty_in_message", data(msg_len=100, seg_len=0), "length", b""),
    ("length_short_not_last", data(msg_len=3000, seg_len=1000, seg_size=1456),
     "length", b""),
    # ---- offset
    ("offset_msg_len_above_2^30", data(msg_len=2 ** 30 + 1, offset=0,
                                       seg_len=1456), "offset", b""),
    ("offset_beyond_message", data(msg_len=2000, offset=1456, seg_len=1000),
     "offset", b""),
    ("offset_not_stride_multiple", data(msg_len=5000, offset=1000, seg_len=1456),
     "offset", b""),
    ("offset_checked_before_last_length", data(msg_len=5000, offset=1000,
                                               seg_len=100), "offset", b""),
    # ---- frame
    ("frame_segs_0", data(msg_len=100, frame_segs=0), "frame", b""),
    ("frame_index_beyond", data(seq=15, frame_seq=10, frame_segs=5,
                                msg_len=100), "frame", b""),
    ("frame_index_negative", data(seq=9, frame_seq=10, frame_segs=5,
                                  msg_len=100), "frame", b""),
    ("frame_start_not_first", data(seq=11, frame_seq=10, frame_segs=3,
                                   msg_len=100, flags=0x01), "frame", b""),
    ("frame_end_not_last", data(seq=11, frame_seq=10, frame_segs=3,
                                msg_len=100, flags=0x02), "frame", b""),
    # ---- sack
    ("sack_17_blocks", ack(cum=0, blocks=[(1 + 2 * i, 2 + 2 * i) for i in range(17)]),
     "sack", b""),
    ("sack_start_at_cum", ack(cum=50, blocks=[(50, 60)]), "sack", b""),
    ("sack_start_below_cum", ack(cum=50, blocks=[(40, 60)]), "sack", b""),
    ("sack_empty", ack(cum=50, blocks=[(55, 55)]), "sack", b""),
    ("sack_inverted", ack(cum=50, blocks=[(60, 55)]), "sack", b""),
    ("sack_adjacent", ack(cum=50, blocks=[(52, 55), (55, 58)]), "sack", b""),
    ("sack_overlapping", ack(cum=50, blocks=[(52, 57), (55, 58)]), "sack", b""),
    ("sack_half_space", ack(cum=0, blocks=[(1, 2 ** 31 + 1)]), "sack", b""),
    # A malformed CHALLENGE is no challenge: no note.
    ("sack_in_a_challenge", ack(cum=50, blocks=[(50, 60)], flags=0x10), "sack", b""),
    # ---- status
    ("status_reserved_newest", ack(cum=5, done=10, status=status_bits(i0=3)),
     "status", b""),
    ("status_reserved_oldest", ack(cum=5, done=40, status=status_bits(i31=3, i1=1)),
     "status", b""),
    ("status_checked_before_sack", ack(cum=5, done=1, status=status_bits(i0=3),
                                       nsack=17), "status", b""),
    # ---- csum
    ("csum_data", data(msg_len=100, flags=0x03, bad_csum=True), "csum", b""),
    ("csum_ack", ack(cum=75, done=6, bad_csum=True, flags=0x01), "csum", b""),
    # Neither a LOST answer nor epoch 0 is noted when the checksum fails.
    ("csum_lost", ack(cum=75, rx_state=0, flags=0x20, bad_csum=True), "csum", b""),
    ("csum_data_epoch_0", data(msg_len=100, flags=0x03, epoch=0, bad_csum=True),
     "csum", b""),
    # The checksum covers all 44 bytes of both headers: epoch, rx_state,
    # echo, pred and the reserved bytes too, though nothing else checks them.
    ("csum_covers_rx_state", ack(cum=75, rx_state=0x11111111,
                                 poke=(40, b"\x11\x12")), "csum", b""),
    ("csum_covers_ack_epoch", ack(cum=75, poke=(39, b"\xce")), "csum", b""),
    ("csum_covers_ack_reserved", ack(cum=75, poke=(35, b"\x01")), "csum", b""),
    ("csum_covers_ack_blocks", ack(cum=75, blocks=[(80, 90)], poke=(51, b"\x5b")),
     "csum", b""),
    ("csum_and_flags", data(msg_len=100, flags=0x20, bad_csum=True), "flags", b""),
    ("csum_covers_pred", data(msg_len=100, flags=0x03, pred=3, poke=(34, b"\x04")),
     "csum", b""),
    ("csum_covers_data_reserved", data(msg_len=100, flags=0x03, poke=(35, b"\x01")),
     "csum", b""),
    ("csum_covers_data_epoch", data(msg_len=100, flags=0x03, poke=(36, b"\x13")),
     "csum", b""),
    ("csum_covers_echo", data(msg_len=100, flags=0x03, echo=STATE,
                              poke=(43, b"\xdf")), "csum", b""),
]

# Not trains (design note 5): what follows a DATA segment is padding unless
# the segment is well formed, its checksum verifies, and a DATA header of
# this version starts the rest.
FRAMES += [
    ("data_then_zeros_not_a_train", data(seq=4, msg_len=100), None, bytes(44)),
    # Left 0 for the device to fill (checksum offload): not malformed.
    ("data_csum_unfilled", data(seq=12, msg_len=300, csum=0), None, b""),
    ("data_bad_csum_then_data_not_a_train", data(seq=4, msg_len=100, bad_csum=True),
     "csum", data(seq=5, msg_len=100)),
    ("data_then_ack_not_a_train", data(seq=4, msg_len=100), None, ack(cum=3)),
    ("data_then_v4_data_not_a_train", data(seq=4, msg_len=100), None,
     v4_data(seq=5, msg_len=100)),
    # ---- packed trains (wire-format.md, "Packed trains")
    ("packed_whole_frame", packed(seq=40, msg_id=2), None, b""),
    # Every segment a packed train stands for has the train's pred (and
    # epoch and echo).
    ("packed_pred_7", packed(seq=45, msg_id=12, pred=7, flags=0x0B), None, b""),
    ("packed_pred_reserved_nonzero", packed(seq=48, msg_id=13, pred=31, nbytes=1000,
                                            seg_size=400, frame_segs=3, flags=0x01,
                                            reserved=0x5A),
     None, b""),
    ("packed_echo", packed(seq=7000, msg_id=50, nbytes=800, frame_segs=4,
                           flags=0x03, echo=STATE), None, b""),
    ("packed_epoch_0", packed(seq=70, epoch=0), None, b""),
    ("packed_middle_ack_now", packed(seq=41, offset=200, msg_len=2000, nbytes=400,
                                     frame_segs=5, frame_seq=40, flags=0x08), None, b""),
    ("packed_ragged_end_of_message", packed(seq=50, msg_len=550, nbytes=550), None, b""),
    ("packed_unfilled", packed(seq=60, csum=0), None, b""),
    ("packed_bad_csum", packed(seq=61, bad_csum=True), "csum", b""),
    ("packed_retransmit", packed(seq=62, flags=0x07), "flags", b""),
    ("packed_one_segment", packed(seq=63, nbytes=200, frame_segs=1), "length", b""),
    ("packed_tiny_stride", packed(seq=64, seg_size=32, nbytes=96), "length", b""),
    ("packed_short_first", packed(seq=65, seg_len=100, msg_len=2000), "length", b""),
    ("packed_ragged_middle", packed(seq=66, msg_len=2000, nbytes=550, flags=0x01),
     "length", b""),
    ("packed_past_message", packed(seq=67, msg_len=500, nbytes=600, flags=0x01,
                                   ), "offset", b""),
    ("packed_past_frame", packed(seq=68, frame_segs=2, flags=0x01), "frame", b""),
    ("packed_early_end", packed(seq=69, frame_segs=4), "frame", b""),
    # Two packed trains of one message back to back, the second of another
    # epoch: no carrier (its trains are one flow's), so one train, whose
    # second header runs its payload past the message.
    ("carrier_of_two_epochs_not_cut",
     packed(seq=40, msg_id=2, msg_len=1200, nbytes=600, frame_segs=6,
            flags=0x01, csum=0) +
     packed(seq=43, msg_id=2, msg_len=1200, offset=600, nbytes=600,
            frame_segs=6, frame_seq=40, flags=0x02, csum=0, epoch=EPOCH + 1),
     "offset", b""),
]

# Trains: segments back to back in one frame, as GRO or generic XDP put
# them together; each segment is dissected as if it had come alone.
TRAINS = [
    ("train_of_3", [data(seq=200 + o, msg_id=9, msg_len=3000, offset=o * 1000,
                         seg_size=1000, frame_segs=3, frame_seq=200, pred=4,
                         echo=STATE,
                         flags=(1 if o == 0 else 0) | (2 if o == 2 else 0))
                    for o in range(3)]),
    # A capture on veth: a whole train, no checksum filled in.
    ("train_unfilled", [data(seq=300 + o, msg_id=4, msg_len=2000, offset=o * 1000,
                             seg_size=1000, frame_segs=2, frame_seq=300,
                             flags=1 if o == 0 else 2, csum=0)
                        for o in range(2)]),
    # A carrier captured whole on a virtual link (design.md, "Carriers"):
    # packed trains of one hyperframe back to back, each its own header;
    # the last may be a lone segment.
    ("carrier_of_2", [packed(seq=40, msg_id=2, msg_len=1200, nbytes=600,
                             frame_segs=6, flags=0x01, csum=0),
                      packed(seq=43, msg_id=2, msg_len=1200, offset=600,
                             nbytes=600, frame_segs=6, frame_seq=40, flags=0x02,
                             csum=0)]),
    ("carrier_echo_lone_last", [packed(seq=50, msg_id=3, msg_len=500, nbytes=400,
                                       frame_segs=3, flags=0x01, csum=0,
                                       echo=STATE),
                                data(seq=52, msg_id=3, msg_len=500, offset=400,
                                     seg_size=200, frame_segs=3, frame_seq=50,
                                     flags=0x02, csum=0, echo=STATE)]),
    ("train_across_messages", [data(seq=7, msg_id=1, msg_len=50, frame_segs=2,
                                    frame_seq=7, flags=1),
                               data(seq=8, msg_id=2, msg_len=1456 * 2, frame_segs=2,
                                    frame_seq=7, flags=2, dport=7001, pred=1)]),
]

# A DATA whose correct checksum is 0, stored as 0xffff: one's complement has
# two zeros, and the receiver (csum_fold of the whole sum) accepts both.
for epoch in range(1, 0x10000):
    b = data(seq=3, msg_len=10, epoch=epoch)
    if struct.unpack("!H", b[6:8])[0] == 0:
        FRAMES[6] = ("data_csum_stored_ffff",
                     data(seq=3, msg_len=10, epoch=epoch, csum=0xFFFF), None, b"")
        break
else:
    sys.exit("no epoch gives a zero checksum")

def before(a, b):
    return (a - b) % W >= 2 ** 31

def train_segs(p, seg_size):
    return (p + seg_size - 1) // seg_size

def train_verdict(flags, p, msg_len, off, seg_len, seg_size, idx, fsegs):
    """hf_train_check() of a packed train with @p payload bytes."""
    if flags & 4:
        return "flags"
    if seg_size < 64 or seg_len != seg_size or p <= seg_size:
        return "length"
    if off + p > msg_len:
        return "offset"
    if p % seg_size and off + p != msg_len:
        return "length"
    n = train_segs(p, seg_size)
    if n > fsegs - idx:
        return "frame"
    if flags & 2 and idx + n != fsegs:
        return "frame"
    return None

def verdict(frame):
    """The drop reason of wire-format.md's validation table, checked in
    hf_hdr_decode()'s order; None for a well-formed header."""
    fl = len(frame)
    if fl < 8:
        return "short"
    v, t, flags = frame[0] >> 4, frame[0] & 15, frame[1]
    if v != VERSION:
        return "version"
    if t == 1:
        if fl < DATA_HLEN:
            return "short"
        if flags & ~0x1F:
            return "flags"
        # pred, the reserved byte, epoch and echo: anything is well formed.
        (seq, _, msg_len, off, seg_len, fsegs, fseq,
         seg_size) = struct.unpack("!IIIIHHIH", frame[8:34])
        is_packed = flags & 0x10
        if seg_len > fl - DATA_HLEN or not seg_size or seg_len > seg_size:
            return "length"
        if not seg_len and msg_len:
            return "length"
        if msg_len > 2 ** 30 or off + seg_len > msg_len or off % seg_size:
            return "offset"
        if seg_len < seg_size and off + seg_len != msg_len:
            return "length"
        idx = (seq - fseq) % W
        if not fsegs or idx >= fsegs:
            return "frame"
        if (flags & 1 and idx) or (flags & 2 and not is_packed and idx != fsegs - 1):
            return "frame"
        if is_packed:
            return train_verdict(flags, fl - DATA_HLEN, msg_len, off, seg_len,
                                 seg_size, idx, fsegs)
        return None
    if t == 2:
        if fl < ACK_HLEN:
            return "short"
        if flags & ~0x3F:
            return "flags"
        cum, status, nsack, next_ = struct.unpack("!I12xQBB", frame[8:34])
        next_ &= 3
        if any((status >> 2 * i) & 3 == 3 for i in range(32)):
            return "status"
        if nsack > 16:
            return "sack"
        if fl < ACK_HLEN + 8 * nsack + 8 * next_:
            return "short"
        for j in range(next_):
            at = ACK_HLEN + 8 * nsack + 8 * j
            (word,) = struct.unpack("!Q", frame[at:at + 8])
            if any((word >> 2 * i) & 3 == 3 for i in range(32)):
                return "status"
        floor = cum
        for i in range(nsack):
            at = ACK_HLEN + 8 * i
            s, e = struct.unpack("!II", frame[at:at + 8])
            if not before(floor, s) or not before(s, e) or before(e, floor):
                return "sack"
            floor = e
        return None
    return "type"

def state_note(frame):
    """For a well-formed frame, the note of what its receiver makes of its
    state fields, in the receiver's order (hf_epoch.c for DATA,
    hf_output_ack() for an ACK); None when there is nothing to say."""
    t, flags = frame[0] & 15, frame[1]
    epoch, state = struct.unpack("!II", frame[36:44])
    if not epoch:
        return "epoch_zero"
    if t == 1:
        return None
    if flags & 0x20:
        return "lost"
    if not state:
        return "rx_state_zero"
    if flags & 0x10:
        return "challenge"
    return None

def expect(body, pad):
    """The tshark fields this frame must decode to, and its expert reasons."""
    e = {}
    fl = len(body) + len(pad)
    frame = body + pad
    reason = None
    verify = None           # bytes the checksum covers, when known
    info = None
    data_from = None
    if fl < 8:
        return e, "%d bytes" % fl, "short", False
    v, t = body[0] >> 4, body[0] & 15
    flags, sport, dport, cs = struct.unpack("!BHHH", body[1:8])
    e.update({"hyperframe.version": v, "hyperframe.type": t,
              "hyperframe.flags": "0x%02x" % flags, "hyperframe.sport": sport,
              "hyperframe.dport": dport, "hyperframe.port": "%d;%d" % (sport, dport),
              "hyperframe.csum": "0x%04x" % cs})
    names = []
    if v != VERSION:
        reason, info, data_from = "version", "version %d type %d" % (v, t), 8
    elif t == 1:
        for bit, name, fld in ((1, "FRAME_START", "frame_start"), (2, "FRAME_END", "frame_end"),
                               (4, "RETRANSMIT", "retransmit"), (8, "ACK_NOW", "ack_now"),
                               (16, "PACKED", "packed")):
            e["hyperframe.flags." + fld] = int(bool(flags & bit))
            if flags & bit:
                names.append(name)
        if flags & 0xE0:
            e["hyperframe.flags.undefined"] = "0x%02x" % (flags & 0xE0)
            names.append("undefined 0x%02x" % (flags & 0xE0))
    elif t == 2:
        e["hyperframe.flags.echo"] = int(bool(flags & 1))
        e["hyperframe.flags.window"] = int(bool(flags & 2))
        e["hyperframe.flags.dup"] = int(bool(flags & 4))
        e["hyperframe.flags.closed"] = int(bool(flags & 8))
        e["hyperframe.flags.challenge"] = int(bool(flags & 0x10))
        e["hyperframe.flags.lost"] = int(bool(flags & 0x20))
        for bit, name in ((1, "ECHO"), (2, "WINDOW"), (4, "DUP"), (8, "CLOSED"),
                          (0x10, "CHALLENGE"), (0x20, "LOST")):
            if flags & bit:
                names.append(name)
        if flags & 0xC0:
            e["hyperframe.flags.undefined"] = "0x%02x" % (flags & 0xC0)
            names.append("undefined 0x%02x" % (flags & 0xC0))
    else:
        reason, info, data_from = "type", "version %d type %d" % (VERSION, t), 8

    if v == VERSION and t == 1 and fl < DATA_HLEN:
        reason, info, data_from = "short", "DATA", 8
    elif v == VERSION and t == 1:
        (seq, msg_id, msg_len, off, seg_len, fsegs, fseq, seg_size,
         pred, res, epoch, echo) = struct.unpack("!IIIIHHIHBBII", frame[8:DATA_HLEN])
        idx = (seq - fseq) % W
        e.update({"hyperframe.hlen": DATA_HLEN, "hyperframe.seq": seq,
                  "hyperframe.msg_id": msg_id, "hyperframe.msg_len": msg_len,
                  "hyperframe.offset": off, "hyperframe.seg_len": seg_len,
                  "hyperframe.frame_segs": fsegs, "hyperframe.frame_seq": fseq,
                  "hyperframe.seg_size": seg_size, "hyperframe.frame_index": idx,
                  "hyperframe.pred": pred, "hyperframe.status_ask": res & 3,
                  "hyperframe.reserved": "0x%02x" % (res & 0xFC),
                  "hyperframe.epoch": "0x%08x" % epoch,
                  "hyperframe.echo": "0x%08x" % echo})
        if seg_size and off % seg_size == 0:
            e["hyperframe.seg_index"] = off // seg_size
        present = fl - DATA_HLEN
        if seg_len <= present:
            verify = DATA_HLEN + seg_len
        n = min(seg_len, present)
        if flags & 0x10:
            # A packed train: all after the header is payload, one checksum.
            verify, n = fl, present
        if n:
            e["data.len"] = n
            e["data.data"] = frame[DATA_HLEN:DATA_HLEN + n].hex()
        info = "DATA %d→%d seq=%d msg=%d off=%d len=%d/%d" % (
            sport, dport, seq, msg_id, off, seg_len, msg_len)
        if flags & 0x10 and verdict(frame) is None:
            # The segments it stands for (hf_train_seg()): the train's
            # header but for seq, offset, seg_len and flags; pred (and
            # epoch and echo) is its.
            k = train_segs(present, seg_size)
            segs = [(i, min(seg_size, present - i * seg_size)) for i in range(k)]
            sflags = [(flags & 1 if i == 0 else 0) | (flags & 0x0A if i == k - 1 else 0)
                      for i in range(k)]
            e["hyperframe.train_segs"] = k
            e["hyperframe.train_seg.seq"] = ";".join(str((seq + i) % W) for i, _ in segs)
            e["hyperframe.train_seg.offset"] = ";".join(str(off + i * seg_size)
                                                        for i, _ in segs)
            e["hyperframe.train_seg.seg_len"] = ";".join(str(n) for _, n in segs)
            e["hyperframe.train_seg.flags"] = ";".join("0x%02x" % x for x in sflags)
            e["hyperframe.train_seg.pred"] = ";".join(str(pred) for _ in segs)
            info += " [packed train of %d segments]" % k
    elif v == VERSION and t == 2 and fl < ACK_HLEN:
        reason, info, data_from = "short", "ACK", 8
    elif v == VERSION and t == 2:
        (cum, credit, rate, done, status, nsack, res3, epoch,
         rx_state) = struct.unpack("!IIIIQB3sII", frame[8:ACK_HLEN])
        next_ = res3[0] & 3
        hlen = ACK_HLEN + 8 * nsack + 8 * next_
        e.update({"hyperframe.hlen": hlen, "hyperframe.cum_seq": cum,
                  "hyperframe.credit": credit, "hyperframe.rate_kbps": rate,
                  "hyperframe.msg_done": done,
                  "hyperframe.msg_status": "0x%016x" % status,
                  "hyperframe.nsack": nsack,
                  "hyperframe.nstatus_ext": next_,
                  "hyperframe.reserved3": "0x%06x" % (int.from_bytes(res3, "big") & 0xFCFFFF),
                  "hyperframe.epoch": "0x%08x" % epoch,
                  "hyperframe.rx_state": "0x%08x" % rx_state})
        outs = [((done - 1 - i) % W, (status >> 2 * i) & 3) for i in range(32)
                if (status >> 2 * i) & 3]
        # The outcome words present and captured after the blocks.
        words = []
        if nsack <= 16:
            for j in range(next_):
                at = ACK_HLEN + 8 * nsack + 8 * j
                if at + 8 > fl:
                    break
                (word,) = struct.unpack("!Q", frame[at:at + 8])
                words.append(word)
                outs += [((done - 33 - 32 * j - i) % W, (word >> 2 * i) & 3)
                         for i in range(32) if (word >> 2 * i) & 3]
        if words:
            e["hyperframe.status_ext"] = ";".join("0x%016x" % w for w in words)
        if outs:
            e["hyperframe.outcome.msg_id"] = ";".join(str(m) for m, o in outs)
            e["hyperframe.outcome.status"] = ";".join(str(o) for m, o in outs)
        shown = min(nsack, (fl - ACK_HLEN) // 8)
        blocks = [struct.unpack("!II", frame[ACK_HLEN + 8 * i:ACK_HLEN + 8 + 8 * i])
                  for i in range(shown)]
        if blocks:
            e["hyperframe.sack.start"] = ";".join(str(s) for s, _ in blocks)
            e["hyperframe.sack.end"] = ";".join(str(x) for _, x in blocks)
            e["hyperframe.sack.len"] = ";".join(str((x - s) % W) for s, x in blocks)
        if nsack <= 16 and fl >= hlen:
            verify = hlen
        refused = sum(1 for m, o in outs if o != 3)
        # A LOST or CHALLENGE answer names its epoch and the segment or
        # the cookie; it carries no acknowledgement.
        if flags & 0x20:
            info = "ACK epoch=0x%08x seq=%d" % (epoch, cum)
        elif flags & 0x10:
            info = "ACK epoch=0x%08x cookie=0x%08x" % (epoch, rx_state)
        else:
            info = "ACK cum=%d sack=%d done=%d" % (cum, nsack, done)
            if refused:
                info += " refused=%d" % refused
    if verify is not None and fl > verify:
        e["hyperframe.padding"] = frame[verify:].hex()
    if data_from is not None and fl > data_from:
        e["data.len"] = fl - data_from
        e["data.data"] = frame[data_from:].hex()
    if names:
        info += " [" + ",".join(names) + "]"
    csum_bad = False
    if verify is not None:
        calc = ~rfc1071(frame[:6] + b"\0\0" + frame[8:verify]) & 0xFFFF
        ok = rfc1071(frame[:verify]) == 0xFFFF
        # A DATA segment whose sender left the field to its device.
        unfilled = not ok and v == VERSION and t == 1 and cs == 0
        e["hyperframe.csum.calculated"] = "0x%04x" % calc
        e["hyperframe.csum.status"] = ("correct" if ok else "unfilled" if unfilled
                                       else "incorrect")
        csum_bad = not ok and not unfilled
    else:
        e["hyperframe.csum.status"] = "unverified"
    return e, info, reason, csum_bad

with open(out + "/fields", "w") as f:
    f.write("\n".join(FIELDS) + "\n")

eth = bytes.fromhex("020000000002" "020000000001")
rows, by_expert, by_field = [], {r: [] for r in REASONS}, {r: [] for r in REASONS}
by_note = {r: [] for r in NOTES}
with open(out + "/hf.pcap", "wb") as pcap, open(out + "/expect", "w") as ex:
    pcap.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for n, (name, body, want, pad) in enumerate(FRAMES, 1):
        fr = eth + b"\x88\xb5" + body + pad
        pcap.write(struct.pack("<IIII", 1700000000 + n, 0, len(fr), len(fr)) + fr)
        e, info, reason, csum_bad = expect(body, pad)
        reason = verdict(body + pad)
        if reason is None and csum_bad:
            reason = "csum"
        if reason != want:
            sys.exit("%s: the model says %s, the frame list %s" % (name, reason, want))
        experts = sorted(set(([reason] if reason and reason != "csum" else []) +
                             (["csum"] if csum_bad else [])))
        # Only a well-formed frame says anything of the flow's state.
        note = state_note(body + pad) if reason is None else None
        if note:
            by_note[note].append(n)
            experts = sorted(experts + [note])
        if reason:
            info += " [Malformed: %s]" % reason
            e["hyperframe.malformed"] = reason
            by_field[reason].append(n)
        for r in experts:
            if r in by_expert:
                by_expert[r].append(n)
        e["_ws.expert.message"] = ",".join(experts)
        e["_ws.col.Info"] = info
        ex.write("%d|%s|%s\n" % (n, name, "|".join(str(e.get(k, "")) for k in FIELDS)))
    for name, segs in TRAINS:
        n += 1
        fr = eth + b"\x88\xb5" + b"".join(segs)
        pcap.write(struct.pack("<IIII", 1700000000 + n, 0, len(fr), len(fr)) + fr)
        merged, infos = {}, []
        for seg in segs:
            e, info, reason, csum_bad = expect(seg, b"")
            if verdict(seg) or reason or csum_bad or state_note(seg):
                sys.exit("%s: a segment of the train is malformed or noted" % name)
            for k, val in e.items():
                merged.setdefault(k, []).append(str(val))
            infos.append(info)
        e = {k: ";".join(v) for k, v in merged.items()}
        e["_ws.expert.message"] = ""
        e["_ws.col.Info"] = "%s [train of %d segments]" % (infos[0], len(segs))
        ex.write("%d|%s|%s\n" % (n, name, "|".join(str(e.get(k, "")) for k in FIELDS)))
with open(out + "/reasons", "w") as f:
    for r in REASONS:
        f.write("%s %s %s\n" % (r, ",".join(map(str, by_expert[r])) or "-",
                                ",".join(map(str, by_field[r])) or "-"))
with open(out + "/notes", "w") as f:
    for r in NOTES:
        if not by_note[r]:
            sys.exit("no frame raises the note %s" % r)
        f.write("%s %s\n" % (r, ",".join(map(str, by_note[r]))))

# The well-formed frames again, cut by a snap length: truncated, not malformed.
with open(out + "/snaplen.pcap", "wb") as pcap:
    pcap.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    for name, body, want, pad in FRAMES:
        fr = eth + b"\x88\xb5" + body + pad
        for cut in (4, 20, 36, 40, 43, 44, 48):
            if want is None and cut < len(body) + len(pad):
                pcap.write(struct.pack("<IIII", 1700000000, 0, 14 + cut, len(fr)) + fr[:14 + cut])

# The first frame again under another EtherType, for the preference.
with open(out + "/other-ethertype.pcap", "wb") as pcap:
    pcap.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    fr = eth + b"\x88\xb6" + FRAMES[0][1]
    pcap.write(struct.pack("<IIII", 1700000000, 0, len(fr), len(fr)) + fr)
PYEOF

if ! "$python" "$work/gen.py" "$work" >"$work/gen.log" 2>&1; then
	echo "1..1"
	echo "not ok 1 generate frames # $(tail -n 1 "$work/gen.log")"
	exit 1
fi
mapfile -t fields <"$work/fields"
mapfile -t expected <"$work/expect"
mapfile -t reasons <"$work/reasons"
mapfile -t notes <"$work/notes"
# tests: lua loads, one per frame, one per reason, one per note, ethertype,
# snaplen, no Lua errors
echo "1..$((1 + ${#expected[@]} + ${#reasons[@]} + ${#notes[@]} + 3))"

t=0
fail=0
ok()
{
	t=$((t + 1))
	echo "ok $t $1"
}
not_ok()
{
	t=$((t + 1))
	fail=$((fail + 1))
	echo "not ok $t $1 # $2"
}

# ---- 1: the dissector loads ------------------------------------------------
if registered; then
	ok "lua dissector registers (uid $(id -u))"
elif [[ $(id -u) == 0 ]] && run_as=(setpriv --reuid=nobody --regid=nogroup --clear-groups) &&
	registered; then
	ok "lua dissector registers (as nobody: init.lua keeps -X lua_script from root)"
else
	not_ok "lua dissector registers" "Lua disabled? see $(grep -m1 -hE 'Lua|lua' "$work/tshark.err" || echo /usr/share/wireshark/init.lua)"
	echo "Bail out! the dissector cannot be loaded"
	exit 1
fi

tshark_hf()
{
	ts -X "lua_script:$work/hyperframe.lua" "$@"
}

# ---- one test per frame: every field, exactly -------------------------------
eargs=()
for f in "${fields[@]}"; do
	eargs+=(-e "$f")
done
tshark_hf -r "$work/hf.pcap" -T fields -E separator='|' -E occurrence=a \
	-E aggregator=';' -e frame.number "${eargs[@]}" >"$work/actual"
declare -A actual=()
while IFS= read -r line; do
	actual[${line%%|*}]=${line#*|}
done <"$work/actual"

# The expert column holds whole messages; keep the reason or note each
# starts with.
expert_col=-1
info_col=-1
for i in "${!fields[@]}"; do
	[[ ${fields[$i]} == _ws.expert.message ]] && expert_col=$i
	[[ ${fields[$i]} == _ws.col.Info ]] && info_col=$i
done

for line in "${expected[@]}"; do
	n=${line%%|*}
	rest=${line#*|}
	name=${rest%%|*}
	IFS='|' read -r -a want <<<"${rest#*|}"
	IFS='|' read -r -a got <<<"${actual[$n]-}"
	diffs=()
	for i in "${!fields[@]}"; do
		w=${want[$i]-}
		g=${got[$i]-}
		# Booleans print as 1/0 in Wireshark 4.0, True/False later.
		if [[ ${fields[$i]} == hyperframe.flags.* ]]; then
			g=${g//True/1}
			g=${g//False/0}
		fi
		if ((i == expert_col)); then
			g=$(tr ';' '\n' <<<"$g" | sed -n 's/^\([a-z_]*\): .*/\1/p' | sort -u | paste -sd, -)
		fi
		[[ $g == "$w" ]] || diffs+=("${fields[$i]}='$g' want '$w'")
	done
	if ((${#diffs[@]})); then
		not_ok "frame $n $name" "${diffs[*]:0:4}"
		if ((verbose)); then
			tshark_hf -r "$work/hf.pcap" -Y "frame.number == $n" -V -O hyperframe | sed 's/^/# /'
		fi
	else
		ok "frame $n $name"
	fi
done

# ---- one test per reason: expert filter and drop-reason field ---------------
for line in "${reasons[@]}"; do
	read -r r by_expert by_field <<<"$line"
	got_e=$(tshark_hf -r "$work/hf.pcap" -Y "hyperframe.malformed.$r" -T fields -e frame.number | paste -sd, -)
	got_f=$(tshark_hf -r "$work/hf.pcap" -Y "hyperframe.malformed == \"$r\"" -T fields -e frame.number | paste -sd, -)
	[[ $got_e ]] || got_e=-
	[[ $got_f ]] || got_f=-
	if [[ $got_e == "$by_expert" && $got_f == "$by_field" ]]; then
		ok "reason $r: frames $by_field"
	else
		not_ok "reason $r" "expert frames $got_e want $by_expert, field frames $got_f want $by_field"
	fi
done

# ---- one test per note: the expert filter of what a frame says of its flow ---
for line in "${notes[@]}"; do
	read -r r by_note <<<"$line"
	noted=$(tshark_hf -r "$work/hf.pcap" -Y "hyperframe.$r" -T fields -e frame.number | paste -sd, -)
	if [[ $noted == "$by_note" ]]; then
		ok "note $r: frames $by_note"
	else
		not_ok "note $r" "frames ${noted:--} want $by_note"
	fi
done

# ---- the EtherType preference ------------------------------------------------
IFS='|' read -r -a first <<<"${expected[0]#*|*|}"
want_info=${first[$info_col]}
off=$(tshark_hf -r "$work/other-ethertype.pcap" -T fields -e hyperframe.type)
on=$(tshark_hf -r "$work/other-ethertype.pcap" -o hyperframe.ethertype:34998 -T fields -e _ws.col.Info)
moved=$(tshark_hf -r "$work/hf.pcap" -o hyperframe.ethertype:34998 -Y hyperframe -T fields -e frame.number | wc -l)
if [[ -z $off && $on == "$want_info" && $moved == 0 ]]; then
	ok "ethertype preference moves the dissector (-o hyperframe.ethertype:34998)"
else
	not_ok "ethertype preference" "default decoded '$off', moved decoded '$on', old ethertype still decoded $moved"
fi

# ---- frames cut by the capture's snap length are not malformed ---------------
cut=$(tshark_hf -r "$work/snaplen.pcap" -T fields -e hyperframe.malformed -e _ws.col.Info)
total=$(wc -l <<<"$cut")
truncated=$(grep -c $'^\t.*\[truncated\]$' <<<"$cut")
if ((total >= 20 && truncated == total)); then
	ok "$total frames cut by the snap length: truncated, not malformed"
else
	not_ok "snap length" "$((total - truncated)) of $total frames not shown as truncated: $(grep -v -m1 $'^\t.*\[truncated\]$' <<<"$cut")"
fi

# ---- no Lua runtime error anywhere, in the tree or on stderr -----------------
tshark_hf -r "$work/hf.pcap" -V >"$work/tree"
tshark_hf -r "$work/snaplen.pcap" -V >>"$work/tree"
lua_tree=$(grep -c -i 'lua error' "$work/tree")
lua_err=$(grep -i -E 'lua|error' "$work/tshark.err" | grep -v -c 'Running as user')
if [[ $lua_tree == 0 && $lua_err == 0 && -s $work/tree ]]; then
	ok "no lua errors"
else
	not_ok "no lua errors" "$(grep -m1 -i 'lua error' "$work/tree" "$work/tshark.err" | head -n 1)"
fi

echo "# $((t - fail)) passed, $fail failed (tshark $("$tshark" --version 2>/dev/null | sed -n '1s/.*(Wireshark) \([^ ]*\).*/\1/p'))"
((fail == 0))
