// tests/hfperf/protocol_test.cc - the message header's encoding.
#include "protocol.h"

#include <array>

#include <gtest/gtest.h>

namespace hfperf {
namespace {

TEST(encode, round_trips) {
  Header h;
  h.type = MsgType::fin_ack;
  h.flags = kLast;
  h.rank = 3;
  h.round = 77;
  h.flow = 0x0123456789abcdefULL;
  h.seq = 42;
  h.value = 1ULL << 40;
  h.count = 9;
  std::array<std::byte, kHeaderSize> buf{};
  encode(h, buf);
  const auto back = decode(buf);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->type, MsgType::fin_ack);
  EXPECT_EQ(back->flags, kLast);
  EXPECT_EQ(back->rank, 3);
  EXPECT_EQ(back->round, 77U);
  EXPECT_EQ(back->flow, h.flow);
  EXPECT_EQ(back->seq, 42U);
  EXPECT_EQ(back->value, h.value);
  EXPECT_EQ(back->count, 9U);
}

TEST(decode, short_is_rejected) {
  std::array<std::byte, kHeaderSize> buf{};
  encode(Header{}, buf);
  EXPECT_FALSE(decode(std::span<const std::byte>(buf).first(kHeaderSize - 1)).has_value());
}

TEST(decode, bad_magic_or_type_is_rejected) {
  std::array<std::byte, kHeaderSize> buf{};
  EXPECT_FALSE(decode(buf).has_value());
  encode(Header{}, buf);
  buf[4] = std::byte{0};
  EXPECT_FALSE(decode(buf).has_value());
  buf[4] = std::byte{99};
  EXPECT_FALSE(decode(buf).has_value());
}

}  // namespace
}  // namespace hfperf
