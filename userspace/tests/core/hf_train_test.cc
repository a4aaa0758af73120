// Unit tests for kernel/core/hf_train.c: which packed trains are valid,
// and the header each segment of one stands for. The message here is
// 10,000 bytes cut at 1,000 (ten segments, all full); the hyperframe holds
// segments 4 to 9, sequence numbers 104 to 109.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

extern "C" {
#include "hf_train.h"
#include "hf_wire.h"
}

namespace {

constexpr u32 kSegSize = 1000;
constexpr u32 kFrameSeq = 104;
constexpr u16 kFrameSegs = 6;

// The header of a packed train whose first segment is the message's
// segment @index, as a sender would write it.
hf_hdr train(u32 index, u8 flags, u32 msg_len = 10000) {
  hf_hdr h{};
  h.version = HF_WIRE_VERSION;
  h.type = HF_TYPE_DATA;
  h.flags = static_cast<u8>(HF_DF_PACKED | flags);
  h.sport = 4000;
  h.dport = 5001;
  h.data.seq = 100 + index;
  h.data.msg_id = 3;
  h.data.msg_len = msg_len;
  h.data.offset = index * kSegSize;
  h.data.seg_len = kSegSize;
  h.data.frame_segs = kFrameSegs;
  h.data.frame_seq = kFrameSeq;
  h.data.seg_size = kSegSize;
  h.data.epoch = 0x1234;
  h.hlen = HF_DATA_HLEN;
  return h;
}

hf_wire_err check(const hf_hdr& h, u32 payload, u32* n) {
  return hf_train_check(&h, payload, n);
}

}  // namespace

TEST(hf_train_check, counts_whole_segments_of_the_frame) {
  u32 n = 0;
  EXPECT_EQ(HF_WERR_OK, check(train(4, HF_DF_FRAME_START), 2 * kSegSize, &n));
  EXPECT_EQ(2U, n);
  EXPECT_EQ(HF_WERR_OK, check(train(4, HF_DF_FRAME_START | HF_DF_FRAME_END), 6 * kSegSize, &n));
  EXPECT_EQ(6U, n);
  EXPECT_EQ(HF_WERR_OK, check(train(7, HF_DF_FRAME_END | HF_DF_ACK_NOW), 3 * kSegSize, &n));
  EXPECT_EQ(3U, n);
}

TEST(hf_train_check, a_short_last_segment_only_at_the_end_of_the_message) {
  u32 n = 0;
  // 9,500 bytes: the tenth segment holds 500.
  EXPECT_EQ(HF_WERR_OK, check(train(8, 0, 9500), 1500, &n));
  EXPECT_EQ(2U, n);
  EXPECT_EQ(HF_WERR_LENGTH, check(train(7, 0), 2500, &n));
  EXPECT_EQ(HF_WERR_OFFSET, check(train(8, 0, 9500), 2000, &n));
}

TEST(hf_train_check, holds_more_than_one_segment) {
  u32 n = 0;
  EXPECT_EQ(HF_WERR_LENGTH, check(train(4, 0), kSegSize, &n));
  EXPECT_EQ(HF_WERR_LENGTH, check(train(4, 0), 0, &n));
  // One full segment and a byte: the byte is no last segment of the message.
  EXPECT_EQ(HF_WERR_LENGTH, check(train(4, 0), kSegSize + 1, &n));
}

TEST(hf_train_check, refuses_what_no_sender_packs) {
  u32 n = 0;
  hf_hdr h = train(4, HF_DF_RETRANSMIT);
  EXPECT_EQ(HF_WERR_FLAGS, check(h, 2 * kSegSize, &n));
  h = train(4, 0);
  h.flags = 0;
  EXPECT_EQ(HF_WERR_FLAGS, check(h, 2 * kSegSize, &n));
  // The header's segment is full: a train of a short first one is none.
  h = train(4, 0);
  h.data.seg_len = kSegSize - 1;
  EXPECT_EQ(HF_WERR_LENGTH, check(h, 2 * kSegSize, &n));
  // Strides below the least: padding could then pass for payload.
  h = train(0, 0, 4 * (HF_TRAIN_MIN_SEG_SIZE - 1));
  h.data.seg_size = h.data.seg_len = HF_TRAIN_MIN_SEG_SIZE - 1;
  EXPECT_EQ(HF_WERR_LENGTH, check(h, 2 * h.data.seg_size, &n));
}

TEST(hf_train_check, stays_inside_its_message_and_frame) {
  u32 n = 0;
  EXPECT_EQ(HF_WERR_OFFSET, check(train(9, 0, 10000), 2 * kSegSize, &n));
  // The message goes on past the frame's sixth segment.
  EXPECT_EQ(HF_WERR_FRAME, check(train(4, 0, 12000), 7 * kSegSize, &n));
  // FRAME_END on a train that stops short of the frame's end.
  EXPECT_EQ(HF_WERR_FRAME, check(train(4, HF_DF_FRAME_END), 5 * kSegSize, &n));
}

TEST(hf_train_check, accepts_what_the_decoder_accepts_of_a_train) {
  // Encoded and decoded, a valid train keeps its meaning; FRAME_END on a
  // packed header is not the first segment's, so the decoder leaves it.
  hf_hdr h = train(5, HF_DF_FRAME_END);
  std::vector<u8> buf(HF_DATA_HLEN + 5 * kSegSize);
  ASSERT_EQ(HF_DATA_HLEN, hf_hdr_encode(&h, buf.data(), buf.size()));
  hf_hdr out{};
  ASSERT_EQ(HF_WERR_OK, hf_hdr_decode(buf.data(), buf.size(), &out));
  u32 n = 0;
  EXPECT_EQ(HF_WERR_OK, check(out, 5 * kSegSize, &n));
  EXPECT_EQ(5U, n);
}

TEST(hf_train_seg, each_segment_as_it_would_travel_alone) {
  const hf_hdr h = train(4, HF_DF_FRAME_START | HF_DF_FRAME_END | HF_DF_ACK_NOW, 9500);
  const u32 payload = 5500;  // segments 4..9, the last 500 bytes
  u32 n = 0;
  ASSERT_EQ(HF_WERR_OK, check(h, payload, &n));
  ASSERT_EQ(6U, n);
  for (u32 i = 0; i < n; i++) {
    hf_hdr s{};
    hf_train_seg(&h, payload, i, &s);
    EXPECT_EQ(h.data.seq + i, s.data.seq);
    EXPECT_EQ((4 + i) * kSegSize, s.data.offset);
    EXPECT_EQ(i == 5 ? 500U : kSegSize, s.data.seg_len);
    EXPECT_EQ(h.data.msg_id, s.data.msg_id);
    EXPECT_EQ(h.data.frame_seq, s.data.frame_seq);
    EXPECT_EQ(h.data.frame_segs, s.data.frame_segs);
    u8 want = 0;
    if (i == 0) {
      want |= HF_DF_FRAME_START;
    }
    if (i == 5) {
      want |= HF_DF_FRAME_END | HF_DF_ACK_NOW;
    }
    EXPECT_EQ(want, s.flags) << "segment " << i;
    // Each passes the decoder as a lone segment would.
    std::vector<u8> buf(HF_DATA_HLEN + s.data.seg_len);
    ASSERT_EQ(HF_DATA_HLEN, hf_hdr_encode(&s, buf.data(), buf.size()));
    hf_hdr out{};
    EXPECT_EQ(HF_WERR_OK, hf_hdr_decode(buf.data(), buf.size(), &out)) << "segment " << i;
  }
}
