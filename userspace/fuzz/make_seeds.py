#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# make_seeds.py - writes the whole seed corpus of hf_frame_fuzz
# (corpus/hf_frame/), DATA and ACK frames alike, from the layout of
# docs/wire-format.md: the version in the high nibble of byte 0, a 44-byte
# DATA header (pred at 34, reserved at 35, epoch at 36, echo at 40)
# followed by its payload, a 44-byte ACK header (nsack at 32, reserved at
# 33..35, epoch at 36, rx_state at 40) followed by its SACK blocks, and a
# valid checksum in every frame. Run it again when the wire version or a layout
# changes (and update VERSION, data() or ack() first).
#
# Input format of hf_frame_fuzz (hf_frame_fuzz.cc): a 4-byte big-endian
# initial sequence number, then records of a 2-byte big-endian word (low
# 14 bits: frame length; bit 15: fire the retransmission timer after the
# frame; bit 14: take the retransmissions due) and the frame.
#
# Usage: make_seeds.py [DIR]   (default: corpus/hf_frame next to it)
import os
import struct
import sys

VERSION = 5                 # HF_WIRE_VERSION in kernel/core/hf_wire.h
TYPE_DATA, TYPE_ACK = 1, 2
DATA_HLEN, ACK_HLEN = 44, 44
FRAME_START, FRAME_END, RETRANSMIT, ACK_NOW, PACKED = 0x01, 0x02, 0x04, 0x08, 0x10
RTO, DRAIN = 0x8000, 0x4000
W = 2 ** 32


def csum(b):
    """RFC 1071 checksum of @b (the checksum field already zero)."""
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def with_csum(body):
    return body[:6] + struct.pack("!H", csum(body)) + body[8:]


def data(seq, msg_id, msg_len, offset, seg_len, seg_size, frame_segs=1,
         frame_seq=None, flags=0, epoch=0x12345678, sport=7, dport=9, pred=0,
         rsvd=b"\0", echo=0x5A17C0DE):
    """A DATA frame; payload byte i is (offset + i) & 0xff. rsvd: byte 35,
    which a receiver ignores."""
    if frame_seq is None:
        frame_seq = seq
    body = struct.pack("!BBHHHIIIIHHIHB1sII", VERSION << 4 | TYPE_DATA, flags,
                       sport, dport, 0, seq % W, msg_id, msg_len, offset,
                       seg_len, frame_segs, frame_seq % W, seg_size, pred,
                       rsvd, epoch, echo)
    assert len(body) == DATA_HLEN
    body += bytes((offset + i) & 0xFF for i in range(seg_len))
    return with_csum(body)


def ack(cum, credit, blocks=(), done=0, status=0, rate=1000000,
        epoch=0x12345678, rx_state=0x5A17C0DE, flags=0, dport=9, ext=()):
    body = struct.pack("!BBHHHIIIIQBB2sII", VERSION << 4 | TYPE_ACK, flags, 0,
                       dport, 0, cum, credit, rate, done, status, len(blocks),
                       len(ext), b"\0\0", epoch, rx_state)
    assert len(body) == ACK_HLEN
    for s, e in blocks:
        body += struct.pack("!II", s, e)
    for w in ext:
        body += struct.pack("!Q", w)
    return with_csum(body)


def packed(seq, msg_id, msg_len, offset, nsegs, seg_size, frame_segs,
           frame_seq, flags=0):
    """A packed train: one header, then the payloads of @nsegs segments
    (the last short when it ends the message)."""
    body_len = min(nsegs * seg_size, msg_len - offset)
    head = data(seq, msg_id, msg_len, offset, seg_size, seg_size, frame_segs,
                frame_seq, flags | PACKED)[:DATA_HLEN]
    body = head[:6] + b"\0\0" + head[8:]
    body += bytes((offset + i) & 0xFF for i in range(body_len))
    return with_csum(body)


def single(seq, msg_id, ctl=0):
    """A one-byte message in a one-segment hyperframe, as a record."""
    return (ctl, data(seq, msg_id, 1, 0, 1, 1))


def seed(isn, records):
    out = struct.pack("!I", isn)
    for ctl, frame in records:
        assert len(frame) <= 0x3FFF
        out += struct.pack("!H", ctl | len(frame)) + frame
    return out


def top_range_merges():
    """Twenty ranges below, then a run and ranges above it arriving out of
    order and merging into the top range the window does not track."""
    msg = iter(range(64))
    recs = [single(seq, next(msg)) for seq in range(1, 40, 2)]
    recs += [single(seq, next(msg)) for seq in range(100, 110)]
    recs += [single(seq, next(msg)) for seq in range(111, 121, 2)]
    recs += [single(seq, next(msg)) for seq in range(118, 111, -2)]
    recs += [single(110, next(msg), DRAIN), single(130, next(msg)),
             single(133, next(msg)), single(132, next(msg), RTO | DRAIN)]
    return recs


SEEDS = {
    # One 300-byte message in order: three segments of one hyperframe.
    "data_in_order": seed(0, [
        (0, data(0, 0, 300, 0, 128, 128, 3, 0, FRAME_START)),
        (0, data(1, 0, 300, 128, 128, 128, 3, 0)),
        (0, data(2, 0, 300, 256, 44, 128, 3, 0, FRAME_END | ACK_NOW)),
    ]),
    # One hyperframe across the sequence wrap, out of order, its first
    # segment last and retransmitted.
    "data_wrap_reordered": seed(W - 2, [
        (0, data(W - 1, 1, 200, 40, 40, 40, 5, W - 2)),
        (0, data(1, 1, 200, 120, 40, 40, 5, W - 2)),
        (DRAIN, data(2, 1, 200, 160, 40, 40, 5, W - 2, FRAME_END)),
        (RTO | DRAIN, data(0, 1, 200, 80, 40, 40, 5, W - 2)),
        (0, data(W - 2, 1, 200, 0, 40, 40, 5, W - 2,
                 FRAME_START | RETRANSMIT)),
    ]),
    # An empty message (one segment, seg_len 0), then a short one.
    "data_empty_message": seed(100, [
        (0, data(100, 5, 0, 0, 0, 1024, flags=FRAME_START | FRAME_END)),
        (0, data(101, 6, 10, 0, 10, 1024, flags=FRAME_START | FRAME_END)),
    ]),
    # Forty ranges at a receiver (every fourth segment of one message),
    # then the segment at cum.
    "data_40_ranges": seed(50, [
        (0, data(51 + 4 * k, 7, 640, 16 * k, 16, 16)) for k in range(40)
    ] + [
        (DRAIN, data(50, 8, 16, 0, 16, 16)),
    ]),
    "data_top_range_merges": seed(0, top_range_merges()),
    # One 950-byte message at a stride of 100 in a ten-segment frame: a
    # lone first segment, a packed train of six, then one of three ending
    # the message, its last segment 50 bytes.
    "data_packed_trains": seed(20, [
        (0, data(20, 0, 950, 0, 100, 100, 10, 20, FRAME_START)),
        (0, packed(21, 0, 950, 100, 6, 100, 10, 20)),
        (DRAIN, packed(27, 0, 950, 700, 3, 100, 10, 20, FRAME_END | ACK_NOW)),
    ]),
    # A message whose segments carry any value in the byte after pred: its
    # low bits ask for outcome words (granted within the receiver's
    # status_window), its high bits are reserved and ignored.
    "data_reserved_bytes": seed(50, [
        (0, data(50, 0, 48, 0, 16, 16, 3, 50, FRAME_START, pred=0,
                 rsvd=b"\x01")),
        (0, data(51, 0, 48, 16, 16, 16, 3, 50, rsvd=b"\xff")),
        (DRAIN, data(52, 0, 48, 32, 16, 16, 3, 50, FRAME_END | ACK_NOW,
                     rsvd=b"\x80")),
    ]),
    # One ACK with the most blocks an ACK may carry, then the retransmissions
    # it leaves due (the sender starts with 64 segments in flight from 0).
    "ack_16_blocks": seed(0, [
        (DRAIN, ack(0, 4096, [(2 + 3 * i, 3 + 3 * i) for i in range(16)])),
    ]),
    # ACKs of one receiver state: blocks that grow and merge, the timer,
    # outcomes in msg_status, and a last cumulative ack beyond every block.
    "ack_sacks_and_timer": seed(1000, [
        (0, ack(1000, 5096, [(1002, 1005), (1010, 1011)], rx_state=0x2F1C0FFE)),
        (DRAIN, ack(1001, 5097, [(1002, 1008), (1010, 1020), (1030, 1040)],
                    rx_state=0x2F1C0FFE)),
        (RTO | DRAIN, ack(1001, 5097, [(1002, 1008), (1010, 1020), (1030, 1050)],
                          done=2, status=6, rx_state=0x2F1C0FFE)),
        (0, ack(1064, 5160, done=1, status=1, rx_state=0x2F1C0FFE)),
    ]),
    # ACKs carrying the three words of 96 more outcomes (status_window
    # 128) after their blocks, some refused.
    "ack_status_ext": seed(1000, [
        (0, ack(1002, 5098, [(1004, 1006)], rx_state=0x2F1C0FFE,
                ext=(0, 0, 0))),
        (DRAIN, ack(1064, 5160, done=3, status=0x24, rx_state=0x2F1C0FFE,
                    ext=(1, 2 << 10, 1 << 62))),
    ]),
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "corpus", "hf_frame")
    for name, blob in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(blob)
        print("%s: %d bytes" % (os.path.join(out, name), len(blob)))


if __name__ == "__main__":
    main()
