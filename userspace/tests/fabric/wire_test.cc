// tests/fabric/wire_test.cc - the provider's message header (fabric/wire.h).
#include "wire.h"

#include <cstddef>
#include <vector>

#include <gtest/gtest.h>

namespace hf::fabric {
namespace {

TEST(FabricWire, RoundTripsEveryFlagCombination) {
  for (const Header header : {Header{.flags = 0, .tag = 0, .data = 0},
                              Header{.flags = kFlagTagged, .tag = 0x0123456789abcdefULL, .data = 0},
                              Header{.flags = kFlagData, .tag = 0, .data = ~0ULL},
                              Header{.flags = kFlagTagged | kFlagData, .tag = 1, .data = 2}}) {
    const HeaderBytes bytes = encode(header);
    const Decoded decoded = decode(bytes);
    EXPECT_EQ(decoded.status, DecodeStatus::ok);
    EXPECT_EQ(decoded.header, header);
  }
}

TEST(FabricWire, LayoutIsLittleEndianAtFixedOffsets) {
  const HeaderBytes bytes =
      encode(Header{.flags = kFlagTagged | kFlagData, .tag = 0x1122334455667788ULL, .data = 0x99});
  EXPECT_EQ(bytes[0], std::byte{'h'});
  EXPECT_EQ(bytes[1], std::byte{'F'});
  EXPECT_EQ(bytes[2], std::byte{1});
  EXPECT_EQ(bytes[3], std::byte{3});
  for (std::size_t i = 4; i < 8; ++i) {
    EXPECT_EQ(bytes.at(i), std::byte{0});
  }
  EXPECT_EQ(bytes[8], std::byte{0x88});
  EXPECT_EQ(bytes[15], std::byte{0x11});
  EXPECT_EQ(bytes[16], std::byte{0x99});
  EXPECT_EQ(bytes[23], std::byte{0});
}

TEST(FabricWire, FieldsTheFlagsLeaveOutAreWrittenAsZero) {
  const HeaderBytes bytes = encode(Header{.flags = 0, .tag = 7, .data = 9});
  const Decoded decoded = decode(bytes);
  ASSERT_EQ(decoded.status, DecodeStatus::ok);
  EXPECT_EQ(decoded.header.tag, 0U);
  EXPECT_EQ(decoded.header.data, 0U);
}

TEST(FabricWire, RefusesWhatIsNotAHeader) {
  const HeaderBytes good = encode(Header{.flags = kFlagTagged, .tag = 5, .data = 0});
  EXPECT_EQ(decode(std::span(good).first(kHeaderSize - 1)).status, DecodeStatus::short_message);
  EXPECT_EQ(decode({}).status, DecodeStatus::short_message);

  HeaderBytes bad = good;
  bad[0] = std::byte{'x'};
  EXPECT_EQ(decode(bad).status, DecodeStatus::bad_magic);
  bad = good;
  bad[2] = std::byte{2};
  EXPECT_EQ(decode(bad).status, DecodeStatus::bad_version);
  bad = good;
  bad[3] = std::byte{0x5};  // an unknown flag bit
  EXPECT_EQ(decode(bad).status, DecodeStatus::bad_flags);
  bad = good;
  bad[6] = std::byte{1};  // reserved
  EXPECT_EQ(decode(bad).status, DecodeStatus::bad_flags);
  bad = good;
  bad[3] = std::byte{0};  // a tag without the tagged flag
  EXPECT_EQ(decode(bad).status, DecodeStatus::bad_flags);
  bad = good;
  bad[20] = std::byte{1};  // data without the data flag
  EXPECT_EQ(decode(bad).status, DecodeStatus::bad_flags);
}

TEST(FabricWire, DecodesTheFrontOfALongerMessage) {
  std::vector<std::byte> message(kHeaderSize + 100, std::byte{0xee});
  const HeaderBytes header = encode(Header{.flags = kFlagData, .tag = 0, .data = 42});
  std::copy(header.begin(), header.end(), message.begin());
  const Decoded decoded = decode(message);
  ASSERT_EQ(decoded.status, DecodeStatus::ok);
  EXPECT_EQ(decoded.header.data, 42U);
}

}  // namespace
}  // namespace hf::fabric
