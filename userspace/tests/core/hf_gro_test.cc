// Unit tests for kernel/core/hf_gro.c: which received DATA segments GRO
// holds, and which one follows a held train. A hyperframe here is four
// segments, sequence numbers 1000 to 1003, of flow incarnation 0x1234.
#include <cstdint>

#include <gtest/gtest.h>

extern "C" {
#include "hf_gro.h"
}

namespace {

constexpr u32 kFrameSeq = 1000;
constexpr u16 kSegs = 4;

// Segment @index (0 .. kSegs - 1) of the hyperframe, flags as a sender
// sets them for its first transmission.
hf_hdr seg(u32 index) {
  hf_hdr h{};
  h.type = HF_TYPE_DATA;
  h.sport = 4000;
  h.dport = 5001;
  h.data.seq = kFrameSeq + index;
  h.data.frame_seq = kFrameSeq;
  h.data.frame_segs = kSegs;
  h.data.msg_id = 7;
  h.data.seg_len = 1464;
  h.data.seg_size = 1464;
  h.data.offset = index * 1464U;
  h.data.msg_len = kSegs * 1464U;
  h.data.epoch = 0x1234;
  if (index == 0) {
    h.flags |= HF_DF_FRAME_START;
  }
  if (index == kSegs - 1) {
    h.flags |= HF_DF_FRAME_END;
  }
  return h;
}

hf_hdr ack() {
  hf_hdr h{};
  h.type = HF_TYPE_ACK;
  return h;
}

bool holds(const hf_hdr& h) {
  return hf_gro_holds(&h);
}

bool follows(const hf_hdr& last, const hf_hdr& h) {
  return hf_gro_follows(&last, &h);
}

}  // namespace

TEST(hf_gro_holds, segments_a_later_one_of_their_frame_may_follow) {
  EXPECT_TRUE(holds(seg(0)));
  EXPECT_TRUE(holds(seg(1)));
  EXPECT_TRUE(holds(seg(2)));
}

TEST(hf_gro_holds, never_the_end_of_a_frame_a_repair_an_ack_request_or_an_ack) {
  EXPECT_FALSE(holds(seg(kSegs - 1)));
  hf_hdr h = seg(1);
  h.flags |= HF_DF_RETRANSMIT;
  EXPECT_FALSE(holds(h));
  h = seg(1);
  h.flags |= HF_DF_ACK_NOW;
  EXPECT_FALSE(holds(h));
  EXPECT_FALSE(holds(ack()));
}

TEST(hf_gro_follows, the_next_segment_of_the_frame) {
  for (u32 i = 0; i + 1 < kSegs; i++) {
    EXPECT_TRUE(follows(seg(i), seg(i + 1))) << i;
  }
}

TEST(hf_gro_follows, whatever_the_message_or_ports_of_the_segment) {
  // A hyperframe may carry the ends of several messages, to several ports.
  hf_hdr next = seg(2);
  next.data.msg_id = 8;
  next.data.offset = 0;
  next.sport = 4001;
  next.dport = 5002;
  EXPECT_TRUE(follows(seg(1), next));
}

TEST(hf_gro_follows, not_a_gap_a_step_back_or_the_same_segment) {
  EXPECT_FALSE(follows(seg(0), seg(2)));
  EXPECT_FALSE(follows(seg(2), seg(1)));
  EXPECT_FALSE(follows(seg(1), seg(1)));
}

TEST(hf_gro_follows, not_the_start_of_the_next_frame) {
  hf_hdr next = seg(0);
  next.data.seq = kFrameSeq + kSegs;
  next.data.frame_seq = kFrameSeq + kSegs;
  hf_hdr last = seg(kSegs - 1);
  last.flags &= static_cast<u8>(~HF_DF_FRAME_END);  // its end was lost
  EXPECT_FALSE(follows(last, next));
}

TEST(hf_gro_follows, not_a_segment_claiming_another_frame) {
  hf_hdr next = seg(2);
  next.data.frame_seq = kFrameSeq + 1;  // disagrees with its own sequence
  EXPECT_FALSE(follows(seg(1), next));
  next = seg(1);
  next.flags |= HF_DF_FRAME_START;
  EXPECT_FALSE(follows(seg(0), next));
}

TEST(hf_gro_follows, not_a_repair_or_another_incarnation) {
  hf_hdr next = seg(2);
  next.flags |= HF_DF_RETRANSMIT;
  EXPECT_FALSE(follows(seg(1), next));
  next = seg(2);
  next.data.epoch = 0x1235;
  EXPECT_FALSE(follows(seg(1), next));
}

TEST(hf_gro_follows, not_an_ack_either_way) {
  EXPECT_FALSE(follows(seg(1), ack()));
  EXPECT_FALSE(follows(ack(), seg(1)));
}

TEST(hf_gro_follows, across_the_wrap_of_the_sequence_space) {
  hf_hdr last = seg(1);
  last.data.frame_seq = 0xfffffffeU;
  last.data.seq = 0xffffffffU;
  hf_hdr next = last;
  next.data.seq = 0;
  EXPECT_TRUE(follows(last, next));
}
