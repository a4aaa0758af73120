// Unit tests for kernel/core/hf_wire.c: the wire header codec and its
// validation, and the reference checksum. Tests follow the order of the
// functions in the source and are named function__case.
#include <array>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

extern "C" {
#include "hf_wire.h"
}

namespace {

hf_hdr data_hdr() {
  hf_hdr h{};
  h.type = HF_TYPE_DATA;
  h.flags = HF_DF_FRAME_START;
  h.sport = 4000;
  h.dport = 5001;
  h.data.seq = 1000;
  h.data.msg_id = 7;
  h.data.msg_len = 10000;
  h.data.offset = 1468;
  h.data.seg_len = 1468;
  h.data.frame_segs = 4;
  h.data.frame_seq = 1000;
  h.data.seg_size = 1468;
  h.data.epoch = 0x12345678;
  h.data.echo = 0x9abcdef0;
  h.data.pred = 3;
  return h;
}

hf_hdr ack_hdr(unsigned int nsack) {
  hf_hdr h{};
  h.type = HF_TYPE_ACK;
  h.ack.cum_seq = 0xfffffff0U;  // blocks below wrap through zero
  h.ack.credit = 0x12345678;
  h.ack.rate_kbps = 10000000;
  h.ack.epoch = 0xbeef1234;
  h.ack.rx_state = 0x5eed5678;
  h.ack.nsack = static_cast<u8>(nsack);
  u32 s = h.ack.cum_seq + 2;
  for (unsigned int i = 0; i < nsack && i < HF_SACK_MAX; i++) {
    h.ack.sack[i].start = s;
    h.ack.sack[i].end = s + 3;
    s += 5;
  }
  return h;
}

// A DATA frame: encoded header followed by seg_len payload bytes.
std::vector<u8> frame(const hf_hdr& h, size_t payload) {
  std::vector<u8> buf(HF_HLEN_MAX + payload, 0xab);
  int n = hf_hdr_encode(&h, buf.data(), buf.size());
  EXPECT_GT(n, 0);
  buf.resize(static_cast<size_t>(n) + payload);
  return buf;
}

hf_wire_err decode(const std::vector<u8>& buf, hf_hdr* out) {
  return hf_hdr_decode(buf.data(), buf.size(), out);
}

}  // namespace

TEST(hf_seq, before_and_after_wrap) {
  EXPECT_TRUE(hf_seq_before(1, 2));
  EXPECT_TRUE(hf_seq_before(0xffffffffU, 0));
  EXPECT_TRUE(hf_seq_after(5, 0xfffffff0U));
  EXPECT_FALSE(hf_seq_before(3, 3));
  EXPECT_FALSE(hf_seq_after(3, 3));
}

TEST(hf_hdr_len, by_type) {
  hf_hdr h{};
  h.type = HF_TYPE_DATA;
  EXPECT_EQ(HF_DATA_HLEN, hf_hdr_len(&h));
  h = ack_hdr(3);
  EXPECT_EQ(HF_ACK_HLEN + 3 * HF_SACK_BLOCK_LEN, hf_hdr_len(&h));
  h.ack.nsack = HF_SACK_MAX + 1;
  EXPECT_EQ(0, hf_hdr_len(&h));
  h.type = 9;
  EXPECT_EQ(0, hf_hdr_len(&h));
}

TEST(hf_hdr_encode, data_layout_is_big_endian) {
  hf_hdr h = data_hdr();
  h.csum = 0xbeef;
  std::array<u8, HF_DATA_HLEN> buf{};
  buf.fill(0xee);  // the encoder writes every byte, reserved ones as zero
  ASSERT_EQ(HF_DATA_HLEN, hf_hdr_encode(&h, buf.data(), buf.size()));
  const std::array<u8, HF_DATA_HLEN> want = {
      0x51, 0x01, 0x0f, 0xa0, 0x13, 0x89, 0xbe, 0xef,  // vt flags sport dport csum
      0x00, 0x00, 0x03, 0xe8, 0x00, 0x00, 0x00, 0x07,  // seq msg_id
      0x00, 0x00, 0x27, 0x10, 0x00, 0x00, 0x05, 0xbc,  // msg_len offset
      0x05, 0xbc, 0x00, 0x04, 0x00, 0x00, 0x03, 0xe8,  // seg_len frame_segs frame_seq
      0x05, 0xbc, 0x03, 0x00, 0x12, 0x34, 0x56, 0x78,  // seg_size pred ask epoch
      0x9a, 0xbc, 0xde, 0xf0,                          // echo
  };
  EXPECT_EQ(want, buf);
  EXPECT_EQ(44, HF_DATA_HLEN);
}

TEST(hf_hdr_encode, ack_layout_is_big_endian) {
  hf_hdr h = ack_hdr(1);
  h.flags = HF_AF_ECHO | HF_AF_DUP | HF_AF_CLOSED;
  h.dport = 5001;
  h.csum = 0xbeef;
  h.ack.msg_done = 0x01020304;
  h.ack.msg_status = 0x0102030405060708ULL;
  constexpr size_t kLen = HF_ACK_HLEN + HF_SACK_BLOCK_LEN;
  std::array<u8, kLen> buf{};
  buf.fill(0xee);  // the encoder writes every byte, reserved ones as zero
  ASSERT_EQ(kLen, hf_hdr_encode(&h, buf.data(), buf.size()));
  const std::array<u8, kLen> want = {
      0x52, 0x0d, 0x00, 0x00, 0x13, 0x89, 0xbe, 0xef,  // vt flags sport dport csum
      0xff, 0xff, 0xff, 0xf0, 0x12, 0x34, 0x56, 0x78,  // cum_seq credit
      0x00, 0x98, 0x96, 0x80, 0x01, 0x02, 0x03, 0x04,  // rate_kbps msg_done
      0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,  // msg_status
      0x01, 0x00, 0x00, 0x00, 0xbe, 0xef, 0x12, 0x34,  // nsack nstatus_ext rsvd epoch
      0x5e, 0xed, 0x56, 0x78,                          // rx_state
      0xff, 0xff, 0xff, 0xf2, 0xff, 0xff, 0xff, 0xf5,  // sack[0] start end
  };
  EXPECT_EQ(want, buf);
  EXPECT_EQ(44, HF_ACK_HLEN);
}

TEST(hf_hdr_encode, refuses_small_buffer_and_bad_header) {
  hf_hdr h = data_hdr();
  std::array<u8, HF_HLEN_MAX> buf{};
  EXPECT_EQ(-ENOSPC, hf_hdr_encode(&h, buf.data(), HF_DATA_HLEN - 1));
  h.type = 0;
  EXPECT_EQ(-EINVAL, hf_hdr_encode(&h, buf.data(), buf.size()));
  h = ack_hdr(0);
  EXPECT_EQ(-ENOSPC, hf_hdr_encode(&h, buf.data(), HF_ACK_HLEN - 1));
  EXPECT_EQ(HF_ACK_HLEN, hf_hdr_encode(&h, buf.data(), HF_ACK_HLEN));
  h = ack_hdr(2);
  EXPECT_EQ(-ENOSPC, hf_hdr_encode(&h, buf.data(), HF_ACK_HLEN + 2 * HF_SACK_BLOCK_LEN - 1));
  h.ack.nsack = HF_SACK_MAX + 1;
  EXPECT_EQ(-EINVAL, hf_hdr_encode(&h, buf.data(), buf.size()));
}

TEST(hf_hdr_decode, data_round_trip) {
  hf_hdr in = data_hdr();
  hf_hdr out{};
  ASSERT_EQ(HF_WERR_OK, decode(frame(in, in.data.seg_len), &out));
  EXPECT_EQ(HF_WIRE_VERSION, out.version);
  EXPECT_EQ(HF_TYPE_DATA, out.type);
  EXPECT_EQ(in.flags, out.flags);
  EXPECT_EQ(in.sport, out.sport);
  EXPECT_EQ(in.dport, out.dport);
  EXPECT_EQ(HF_DATA_HLEN, out.hlen);
  EXPECT_EQ(in.data.seq, out.data.seq);
  EXPECT_EQ(in.data.msg_id, out.data.msg_id);
  EXPECT_EQ(in.data.msg_len, out.data.msg_len);
  EXPECT_EQ(in.data.offset, out.data.offset);
  EXPECT_EQ(in.data.seg_len, out.data.seg_len);
  EXPECT_EQ(in.data.frame_segs, out.data.frame_segs);
  EXPECT_EQ(in.data.frame_seq, out.data.frame_seq);
  EXPECT_EQ(in.data.seg_size, out.data.seg_size);
  EXPECT_EQ(in.data.epoch, out.data.epoch);
  EXPECT_EQ(in.data.echo, out.data.echo);
  EXPECT_EQ(in.data.pred, out.data.pred);
}

// pred is a distance back in msg_id: every value names a message (one
// below the receiver's msg_done a resolved one), so none is malformed.
// The byte after it: its low 2 bits are status_ask, the rest is reserved
// and ignored.
TEST(hf_hdr_decode, data_pred_any_value_reserved_ignored) {
  hf_hdr out{};
  for (u8 pred : {0, 1, 31, 32, 255}) {
    hf_hdr h = data_hdr();
    h.data.pred = pred;
    std::vector<u8> f = frame(h, h.data.seg_len);
    EXPECT_EQ(pred, f[34]);
    EXPECT_EQ(0, f[35]);
    f[35] = 0x5a;
    ASSERT_EQ(HF_WERR_OK, decode(f, &out)) << "pred " << int(pred);
    EXPECT_EQ(pred, out.data.pred);
    EXPECT_EQ(2, out.data.status_ask);
  }
}

// status_ask: the outcome words the sender asks for, encoded in byte 35's
// low bits, and how many words a status window needs.
TEST(hf_hdr_decode, data_status_ask) {
  hf_hdr h = data_hdr();
  for (u8 ask = 0; ask <= HF_STATUS_EXT_MAX; ask++) {
    h.data.status_ask = ask;
    std::vector<u8> f = frame(h, h.data.seg_len);
    EXPECT_EQ(ask, f[35]);
    hf_hdr out{};
    ASSERT_EQ(HF_WERR_OK, decode(f, &out));
    EXPECT_EQ(ask, out.data.status_ask);
  }
  EXPECT_EQ(0, hf_status_ext_of(HF_STATUS_WINDOW));
  EXPECT_EQ(1, hf_status_ext_of(HF_STATUS_WINDOW + 1));
  EXPECT_EQ(1, hf_status_ext_of(64));
  EXPECT_EQ(2, hf_status_ext_of(65));
  EXPECT_EQ(HF_STATUS_EXT_MAX, hf_status_ext_of(HF_STATUS_WINDOW_MAX));
  EXPECT_EQ(HF_STATUS_EXT_MAX, hf_status_ext_of(1000));
}

TEST(hf_hdr_decode, data_accepts_ethernet_padding) {
  hf_hdr h = data_hdr();
  h.data.msg_len = 1;
  h.data.offset = 0;
  h.data.seg_len = 1;
  hf_hdr out{};
  EXPECT_EQ(HF_WERR_OK, decode(frame(h, 46 - HF_DATA_HLEN), &out));
  EXPECT_EQ(1, out.data.seg_len);
}

TEST(hf_hdr_decode, data_empty_message) {
  hf_hdr h = data_hdr();
  h.flags = HF_DF_FRAME_START | HF_DF_FRAME_END;
  h.data.msg_len = 0;
  h.data.offset = 0;
  h.data.seg_len = 0;
  h.data.frame_segs = 1;
  hf_hdr out{};
  EXPECT_EQ(HF_WERR_OK, decode(frame(h, 0), &out));
}

TEST(hf_hdr_decode, short_frames) {
  hf_hdr out{};
  for (size_t len = 0; len < HF_DATA_HLEN; len++) {
    std::vector<u8> f = frame(data_hdr(), 0);
    f.resize(len);
    EXPECT_EQ(HF_WERR_SHORT, decode(f, &out)) << "len " << len;
  }
  // An ACK shorter than its 44-byte header, the 36 and 40 bytes of the
  // version 1 and version 4 layouts included.
  for (size_t len = 0; len < HF_ACK_HLEN; len++) {
    std::vector<u8> a = frame(ack_hdr(0), 0);
    a.resize(len);
    EXPECT_EQ(HF_WERR_SHORT, decode(a, &out)) << "len " << len;
  }
  std::vector<u8> a = frame(ack_hdr(4), 0);
  a.resize(a.size() - 1);
  EXPECT_EQ(HF_WERR_SHORT, decode(a, &out));
  // One block in the version 4 layout is 48 bytes: short of 44 + 8.
  a = frame(ack_hdr(1), 0);
  a.resize(40 + HF_SACK_BLOCK_LEN);
  EXPECT_EQ(HF_WERR_SHORT, decode(a, &out));
}

TEST(hf_hdr_decode, bad_version_and_type) {
  hf_hdr out{};
  std::vector<u8> f = frame(data_hdr(), 1468);
  ASSERT_EQ(0x51, f[0]);  // version 5, DATA
  for (u8 v : {0, 1, 2, 3, 4, 6, 15}) {
    f[0] = static_cast<u8>(v << 4 | HF_TYPE_DATA);
    EXPECT_EQ(HF_WERR_VERSION, decode(f, &out)) << "version " << int(v);
    EXPECT_EQ(v, out.version);
  }
  for (u8 t : {0, 3, 4, 15}) {
    f[0] = static_cast<u8>(HF_WIRE_VERSION << 4 | t);
    EXPECT_EQ(HF_WERR_TYPE, decode(f, &out)) << "type " << int(t);
  }
}

// Versions 1 (the layout before rx_state), 2 (segment credit), 3 (the
// 36-byte DATA header, before pred) and 4 (16-bit epochs, no echo): a peer
// running an older module sends these, and they are refused on the
// version before anything else.
TEST(hf_hdr_decode, older_versions_refused) {
  hf_hdr out{};
  std::vector<u8> f = frame(data_hdr(), 1468);
  f[0] = 0x11;  // a version 1 DATA: same layout, still refused
  EXPECT_EQ(HF_WERR_VERSION, decode(f, &out));
  EXPECT_EQ(1, out.version);
  EXPECT_EQ(HF_TYPE_DATA, out.type);
  // A version 1 ACK: 36 bytes, blocks at 36. Ethernet padding to 46 bytes
  // would make it long enough for a version 2 header; it is still refused.
  std::vector<u8> a = frame(ack_hdr(0), 0);
  a.resize(36);
  a[0] = 0x12;
  EXPECT_EQ(HF_WERR_VERSION, decode(a, &out));
  EXPECT_EQ(HF_TYPE_ACK, out.type);
  a.resize(46, 0);
  EXPECT_EQ(HF_WERR_VERSION, decode(a, &out));
  // A version 1 ACK with one block is 44 bytes: version, not short.
  a = frame(ack_hdr(1), 0);
  a[0] = 0x12;
  a.resize(36 + HF_SACK_BLOCK_LEN);
  EXPECT_EQ(HF_WERR_VERSION, decode(a, &out));
  // Version 2: the layout of today, but its credit counted segments, not
  // bytes (docs/wire-format.md). Refused, however well-formed.
  a = frame(ack_hdr(1), 0);
  a[0] = 0x22;
  EXPECT_EQ(HF_WERR_VERSION, decode(a, &out));
  EXPECT_EQ(2, out.version);
  f[0] = 0x21;
  EXPECT_EQ(HF_WERR_VERSION, decode(f, &out));
  // Version 3: DATA of 36 bytes, without pred; refused, though as long as a
  // version 4 header.
  f[0] = 0x31;
  EXPECT_EQ(HF_WERR_VERSION, decode(f, &out));
  EXPECT_EQ(3, out.version);
  a = frame(ack_hdr(1), 0);
  a[0] = 0x32;
  EXPECT_EQ(HF_WERR_VERSION, decode(a, &out));
  // Version 4: 40-byte headers, 16-bit epochs; refused, though a version 4
  // header padded by Ethernet is as long as a version 5 one.
  f[0] = 0x41;
  EXPECT_EQ(HF_WERR_VERSION, decode(f, &out));
  EXPECT_EQ(4, out.version);
  a = frame(ack_hdr(1), 0);
  a[0] = 0x42;
  EXPECT_EQ(HF_WERR_VERSION, decode(a, &out));
  // The version is checked first: even a frame too short for its type.
  a.resize(HF_COMMON_LEN);
  EXPECT_EQ(HF_WERR_VERSION, decode(a, &out));
  // Too short for the common header is short, whatever the version.
  a.resize(HF_COMMON_LEN - 1);
  EXPECT_EQ(HF_WERR_SHORT, decode(a, &out));
}

TEST(hf_hdr_decode, undefined_flags) {
  hf_hdr out{};
  hf_hdr h = data_hdr();
  h.flags = 0x40;
  EXPECT_EQ(HF_WERR_FLAGS, decode(frame(h, 1468), &out));
  h = ack_hdr(0);
  for (unsigned int bit = 0x40; bit <= 0x80; bit <<= 1) {
    h.flags = static_cast<u8>(bit);
    EXPECT_EQ(HF_WERR_FLAGS, decode(frame(h, 0), &out)) << "flag " << bit;
    h.flags = static_cast<u8>(bit | HF_AF_ALL);
    EXPECT_EQ(HF_WERR_FLAGS, decode(frame(h, 0), &out)) << "flag " << bit;
  }
}

TEST(hf_hdr_decode, ack_defined_flags) {
  EXPECT_EQ(HF_AF_ECHO | HF_AF_WINDOW | HF_AF_DUP | HF_AF_CLOSED | HF_AF_CHALLENGE | HF_AF_LOST,
            HF_AF_ALL);
  EXPECT_EQ(0x04, HF_AF_DUP);
  EXPECT_EQ(0x08, HF_AF_CLOSED);
  EXPECT_EQ(0x10, HF_AF_CHALLENGE);
  EXPECT_EQ(0x20, HF_AF_LOST);
  hf_hdr h = ack_hdr(1);
  for (unsigned int flags = 0; flags <= HF_AF_ALL; flags++) {
    h.flags = static_cast<u8>(flags);
    hf_hdr out{};
    ASSERT_EQ(HF_WERR_OK, decode(frame(h, 0), &out)) << "flags " << flags;
    EXPECT_EQ(flags, out.flags);
  }
}

TEST(hf_hdr_decode, data_length_disagrees) {
  hf_hdr out{};
  hf_hdr h = data_hdr();
  EXPECT_EQ(HF_WERR_LENGTH, decode(frame(h, h.data.seg_len - 1), &out));
  h.data.seg_len = 0;  // empty segment of a non-empty message
  EXPECT_EQ(HF_WERR_LENGTH, decode(frame(h, 0), &out));
}

TEST(hf_hdr_decode, data_cut_at_seg_size) {
  hf_hdr out{};
  hf_hdr h = data_hdr();
  h.data.seg_size = 0;
  EXPECT_EQ(HF_WERR_LENGTH, decode(frame(h, 1468), &out));
  h = data_hdr();
  h.data.seg_size = 1000;  // segment longer than the stride
  EXPECT_EQ(HF_WERR_LENGTH, decode(frame(h, 1468), &out));
  h = data_hdr();
  h.data.offset = 1400;  // not a multiple of the stride
  EXPECT_EQ(HF_WERR_OFFSET, decode(frame(h, 1468), &out));
  h = data_hdr();
  h.data.seg_len = 1000;  // short, but not the message's last segment
  EXPECT_EQ(HF_WERR_LENGTH, decode(frame(h, 1000), &out));
  h = data_hdr();
  h.data.offset = 6 * 1468;  // the last segment: 10000 - 8808 = 1192 bytes
  h.data.seg_len = 1192;
  h.data.seq = h.data.frame_seq;
  EXPECT_EQ(HF_WERR_OK, decode(frame(h, 1192), &out));
}

TEST(hf_hdr_decode, data_outside_message) {
  hf_hdr out{};
  hf_hdr h = data_hdr();
  h.data.offset = h.data.msg_len - h.data.seg_len + 1;
  EXPECT_EQ(HF_WERR_OFFSET, decode(frame(h, h.data.seg_len), &out));
  h.data.offset = 0xffffffffU;  // offset + len overflows 32 bits
  EXPECT_EQ(HF_WERR_OFFSET, decode(frame(h, h.data.seg_len), &out));
  h = data_hdr();
  h.data.msg_len = HF_WIRE_MSG_MAX + 1;
  EXPECT_EQ(HF_WERR_OFFSET, decode(frame(h, h.data.seg_len), &out));
}

TEST(hf_hdr_decode, data_outside_frame) {
  hf_hdr out{};
  hf_hdr h = data_hdr();
  h.data.frame_segs = 0;
  EXPECT_EQ(HF_WERR_FRAME, decode(frame(h, 1468), &out));
  h = data_hdr();
  h.flags = 0;
  h.data.seq = h.data.frame_seq + h.data.frame_segs;  // one past the end
  EXPECT_EQ(HF_WERR_FRAME, decode(frame(h, 1468), &out));
  h.data.seq = h.data.frame_seq - 1;  // before the start
  EXPECT_EQ(HF_WERR_FRAME, decode(frame(h, 1468), &out));
  h = data_hdr();
  h.data.seq += 1;  // FRAME_START but not the first segment
  EXPECT_EQ(HF_WERR_FRAME, decode(frame(h, 1468), &out));
  h = data_hdr();
  h.flags = HF_DF_FRAME_END;  // FRAME_END on the first of four
  EXPECT_EQ(HF_WERR_FRAME, decode(frame(h, 1468), &out));
  h.data.seq = h.data.frame_seq + 3;  // and on the last: fine
  EXPECT_EQ(HF_WERR_OK, decode(frame(h, 1468), &out));
}

TEST(hf_hdr_decode, ack_round_trip_with_wrapping_sack) {
  hf_hdr in = ack_hdr(HF_SACK_MAX);
  in.flags = HF_AF_ECHO;
  hf_hdr out{};
  ASSERT_EQ(HF_WERR_OK, decode(frame(in, 0), &out));
  EXPECT_EQ(in.ack.cum_seq, out.ack.cum_seq);
  EXPECT_EQ(in.ack.credit, out.ack.credit);
  EXPECT_EQ(in.ack.rate_kbps, out.ack.rate_kbps);
  EXPECT_EQ(in.ack.epoch, out.ack.epoch);
  EXPECT_EQ(in.ack.rx_state, out.ack.rx_state);
  EXPECT_EQ(in.flags, out.flags);
  ASSERT_EQ(HF_SACK_MAX, out.ack.nsack);
  for (unsigned int i = 0; i < HF_SACK_MAX; i++) {
    EXPECT_EQ(in.ack.sack[i].start, out.ack.sack[i].start);
    EXPECT_EQ(in.ack.sack[i].end, out.ack.sack[i].end);
  }
  EXPECT_EQ(HF_ACK_HLEN + HF_SACK_MAX * HF_SACK_BLOCK_LEN, out.hlen);
}

TEST(hf_hdr_decode, ack_rx_state_round_trip) {
  // The sender picks it non-zero; the decoder carries any value, 0 too.
  for (u32 rx_state : {0x00000001U, 0x80000000U, 0xffffffffU, 0x00000000U, 0x01020304U}) {
    hf_hdr in = ack_hdr(2);
    in.ack.rx_state = rx_state;
    std::vector<u8> f = frame(in, 0);
    EXPECT_EQ(rx_state >> 24, f[40]);
    EXPECT_EQ((rx_state >> 16) & 0xff, f[41]);
    EXPECT_EQ((rx_state >> 8) & 0xff, f[42]);
    EXPECT_EQ(rx_state & 0xff, f[43]);
    hf_hdr out{};
    ASSERT_EQ(HF_WERR_OK, decode(f, &out)) << rx_state;
    EXPECT_EQ(rx_state, out.ack.rx_state);
    EXPECT_EQ(in.ack.epoch, out.ack.epoch);
    EXPECT_EQ(in.ack.sack[0].start, out.ack.sack[0].start);
    EXPECT_EQ(in.ack.sack[1].end, out.ack.sack[1].end);
  }
}

TEST(hf_hdr_decode, ack_reserved_bytes_ignored) {
  hf_hdr in = ack_hdr(3);
  std::vector<u8> f = frame(in, 0);
  EXPECT_EQ(0, f[33]);
  EXPECT_EQ(0, f[34]);
  EXPECT_EQ(0, f[35]);
  f[33] = 0xa4;  // the low 2 bits are nstatus_ext, the rest reserved
  f[34] = 0x5a;
  f[35] = 0xff;
  hf_hdr out{};
  ASSERT_EQ(HF_WERR_OK, decode(f, &out));
  EXPECT_EQ(in.ack.epoch, out.ack.epoch);
  EXPECT_EQ(in.ack.rx_state, out.ack.rx_state);
  ASSERT_EQ(3, out.ack.nsack);
  EXPECT_EQ(in.ack.sack[0].start, out.ack.sack[0].start);
  EXPECT_EQ(in.ack.sack[2].end, out.ack.sack[2].end);
  // Re-encoding writes them as zero again.
  std::array<u8, HF_HLEN_MAX> buf{};
  ASSERT_EQ(static_cast<int>(f.size()), hf_hdr_encode(&out, buf.data(), buf.size()));
  EXPECT_EQ(0, buf[33]);
  EXPECT_EQ(0, buf[34]);
  EXPECT_EQ(0, buf[35]);
}

TEST(hf_hdr_decode, ack_bad_sack_blocks) {
  hf_hdr out{};
  std::vector<u8> f = frame(ack_hdr(0), 0);
  f[32] = HF_SACK_MAX + 1;
  f.resize(HF_HLEN_MAX + HF_SACK_BLOCK_LEN);
  EXPECT_EQ(HF_WERR_SACK, decode(f, &out));

  hf_hdr h = ack_hdr(2);
  h.ack.sack[0].start = h.ack.cum_seq;  // at the cumulative ack
  EXPECT_EQ(HF_WERR_SACK, decode(frame(h, 0), &out));
  h = ack_hdr(2);
  h.ack.sack[1].end = h.ack.sack[1].start;  // empty
  EXPECT_EQ(HF_WERR_SACK, decode(frame(h, 0), &out));
  h = ack_hdr(2);
  h.ack.sack[1].start = h.ack.sack[0].start;  // overlaps its predecessor
  EXPECT_EQ(HF_WERR_SACK, decode(frame(h, 0), &out));
  h = ack_hdr(1);
  h.ack.sack[0].end = h.ack.sack[0].start + 0x80000000U;  // half the space
  EXPECT_EQ(HF_WERR_SACK, decode(frame(h, 0), &out));
}

TEST(hf_hdr_decode, ack_message_outcomes) {
  hf_hdr in = ack_hdr(0);
  in.ack.msg_done = 100;
  // 99 delivered, 98 no port, 97 too big, 96 delivered, ... 68 no port.
  in.ack.msg_status = static_cast<u64>(HF_STATUS_NO_PORT) << 2 |
                      static_cast<u64>(HF_STATUS_TOO_BIG) << 4 |
                      static_cast<u64>(HF_STATUS_NO_PORT) << 62;
  hf_hdr out{};
  ASSERT_EQ(HF_WERR_OK, decode(frame(in, 0), &out));
  EXPECT_EQ(100U, out.ack.msg_done);
  EXPECT_EQ(in.ack.msg_status, out.ack.msg_status);
  EXPECT_EQ(HF_STATUS_DELIVERED, hf_ack_status(&out.ack, 99));
  EXPECT_EQ(HF_STATUS_NO_PORT, hf_ack_status(&out.ack, 98));
  EXPECT_EQ(HF_STATUS_TOO_BIG, hf_ack_status(&out.ack, 97));
  EXPECT_EQ(HF_STATUS_DELIVERED, hf_ack_status(&out.ack, 96));
  EXPECT_EQ(HF_STATUS_NO_PORT, hf_ack_status(&out.ack, 100 - HF_STATUS_WINDOW));
}

TEST(hf_hdr_decode, ack_reserved_outcome) {
  hf_hdr h = ack_hdr(0);
  hf_hdr out{};
  for (unsigned int i = 0; i < HF_STATUS_WINDOW; i++) {
    h.ack.msg_status = static_cast<u64>(HF_STATUS_RESERVED) << (2 * i);
    EXPECT_EQ(HF_WERR_STATUS, decode(frame(h, 0), &out)) << i;
  }
}

// Byte 33's low 2 bits: that many words of 32 more outcomes each follow
// the SACK blocks (the status window of 128).
TEST(hf_hdr_decode, ack_status_ext_words) {
  hf_hdr in = ack_hdr(2);
  in.ack.msg_done = 1000;
  in.ack.msg_status = static_cast<u64>(HF_STATUS_NO_PORT) << 62;  // 968
  in.ack.nstatus_ext = HF_STATUS_EXT_MAX;
  in.ack.status_ext[0] = static_cast<u64>(HF_STATUS_TOO_BIG);        // 967
  in.ack.status_ext[1] = static_cast<u64>(HF_STATUS_NO_PORT) << 2;   // 934
  in.ack.status_ext[2] = static_cast<u64>(HF_STATUS_TOO_BIG) << 62;  // 872
  EXPECT_EQ(HF_ACK_HLEN + 2 * HF_SACK_BLOCK_LEN + 3 * HF_STATUS_EXT_LEN, hf_hdr_len(&in));
  std::vector<u8> f = frame(in, 0);
  EXPECT_EQ(3, f[33]);
  hf_hdr out{};
  ASSERT_EQ(HF_WERR_OK, decode(f, &out));
  ASSERT_EQ(3, out.ack.nstatus_ext);
  EXPECT_EQ(f.size(), out.hlen);
  EXPECT_EQ(2, out.ack.nsack);
  EXPECT_EQ(in.ack.sack[1].end, out.ack.sack[1].end);
  EXPECT_EQ(HF_STATUS_WINDOW_MAX, hf_ack_status_span(&out.ack));
  EXPECT_EQ(HF_STATUS_NO_PORT, hf_ack_status(&out.ack, 968));
  EXPECT_EQ(HF_STATUS_TOO_BIG, hf_ack_status(&out.ack, 967));
  EXPECT_EQ(HF_STATUS_DELIVERED, hf_ack_status(&out.ack, 966));
  EXPECT_EQ(HF_STATUS_NO_PORT, hf_ack_status(&out.ack, 934));
  EXPECT_EQ(HF_STATUS_TOO_BIG, hf_ack_status(&out.ack, 1000 - HF_STATUS_WINDOW_MAX));
  // Below what the ACK reports: no outcome.
  EXPECT_EQ(HF_STATUS_RESERVED, hf_ack_status(&out.ack, 1000 - HF_STATUS_WINDOW_MAX - 1));
  // Re-encoded alike.
  std::array<u8, HF_HLEN_MAX> buf{};
  ASSERT_EQ(static_cast<int>(f.size()), hf_hdr_encode(&out, buf.data(), buf.size()));
  EXPECT_TRUE(std::equal(f.begin(), f.end(), buf.begin()));

  // Without the words, only msg_status: 32 outcomes.
  in.ack.nstatus_ext = 0;
  ASSERT_EQ(HF_WERR_OK, decode(frame(in, 0), &out));
  EXPECT_EQ(HF_STATUS_WINDOW, hf_ack_status_span(&out.ack));
  EXPECT_EQ(HF_STATUS_RESERVED, hf_ack_status(&out.ack, 967));
}

TEST(hf_hdr_decode, ack_status_ext_bad) {
  hf_hdr h = ack_hdr(1);
  h.ack.nstatus_ext = HF_STATUS_EXT_MAX + 1;
  EXPECT_EQ(0, hf_hdr_len(&h));
  // Words announced, not there.
  h.ack.nstatus_ext = 2;
  std::vector<u8> f = frame(h, 0);
  f.resize(f.size() - 1);
  hf_hdr out{};
  EXPECT_EQ(HF_WERR_SHORT, decode(f, &out));
  // A reserved outcome in any word.
  for (unsigned int w = 0; w < 2; w++) {
    h.ack.status_ext[0] = 0;
    h.ack.status_ext[1] = 0;
    h.ack.status_ext[w] = static_cast<u64>(HF_STATUS_RESERVED) << 20;
    EXPECT_EQ(HF_WERR_STATUS, decode(frame(h, 0), &out)) << w;
  }
}

TEST(hf_wire_err_name, every_value_named) {
  for (int e = HF_WERR_OK; e < HF_WERR_MAX; e++) {
    EXPECT_STRNE("unknown", hf_wire_err_name(static_cast<hf_wire_err>(e))) << e;
  }
  EXPECT_STREQ("unknown", hf_wire_err_name(HF_WERR_MAX));
  EXPECT_STREQ("sack", hf_wire_err_name(HF_WERR_SACK));
  EXPECT_STREQ("status", hf_wire_err_name(HF_WERR_STATUS));
}

TEST(hf_csum, rfc1071_example) {
  // RFC 1071 section 3: the words 0001 f203 f4f5 f6f7 sum to ddf2.
  const std::array<u8, 8> b = {0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
  EXPECT_EQ(0x220d, hf_csum_fold(hf_csum_add(0, b.data(), b.size())));
}

TEST(hf_csum, odd_length_pads_with_zero_and_verifies_to_zero) {
  hf_hdr h = data_hdr();
  h.data.msg_len = 3;
  h.data.offset = 0;
  h.data.seg_len = 3;
  std::vector<u8> f = frame(h, 3);
  u16 c = hf_csum_fold(hf_csum_add(0, f.data(), f.size()));
  f[HF_CSUM_OFFSET] = static_cast<u8>(c >> 8);
  f[HF_CSUM_OFFSET + 1] = static_cast<u8>(c & 0xff);
  // A frame carrying its checksum sums to all ones: folds to zero.
  EXPECT_EQ(0, hf_csum_fold(hf_csum_add(0, f.data(), f.size())));
  f.back() ^= 0x01;
  EXPECT_NE(0, hf_csum_fold(hf_csum_add(0, f.data(), f.size())));
}
