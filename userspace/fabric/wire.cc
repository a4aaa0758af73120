// fabric/wire.cc - the provider's message header (wire.h).
#include "wire.h"

namespace hf::fabric {
namespace {

constexpr std::byte kMagic0{'h'};
constexpr std::byte kMagic1{'F'};
constexpr std::size_t kTagOffset = 8;
constexpr std::size_t kDataOffset = 16;
constexpr std::uint8_t kKnownFlags = kFlagTagged | kFlagData;

void put_le64(HeaderBytes& bytes, std::size_t at, std::uint64_t value) noexcept {
  for (std::size_t i = 0; i < 8; ++i) {
    bytes.at(at + i) = static_cast<std::byte>((value >> (8 * i)) & 0xffU);
  }
}

std::uint64_t get_le64(std::span<const std::byte> bytes, std::size_t at) noexcept {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    value |= std::to_integer<std::uint64_t>(bytes[at + i]) << (8 * i);
  }
  return value;
}

}  // namespace

HeaderBytes encode(const Header& header) noexcept {
  HeaderBytes bytes{};
  bytes[0] = kMagic0;
  bytes[1] = kMagic1;
  bytes[2] = std::byte{kWireVersion};
  bytes[3] = std::byte{static_cast<std::uint8_t>(header.flags & kKnownFlags)};
  put_le64(bytes, kTagOffset, header.tagged() ? header.tag : 0);
  put_le64(bytes, kDataOffset, header.has_data() ? header.data : 0);
  return bytes;
}

Decoded decode(std::span<const std::byte> message) noexcept {
  Decoded out;
  if (message.size() < kHeaderSize) {
    out.status = DecodeStatus::short_message;
    return out;
  }
  if (message[0] != kMagic0 || message[1] != kMagic1) {
    out.status = DecodeStatus::bad_magic;
    return out;
  }
  if (std::to_integer<std::uint8_t>(message[2]) != kWireVersion) {
    out.status = DecodeStatus::bad_version;
    return out;
  }
  const auto flags = std::to_integer<std::uint8_t>(message[3]);
  out.header.flags = flags;
  out.header.tag = get_le64(message, kTagOffset);
  out.header.data = get_le64(message, kDataOffset);
  const bool reserved_clear = message[4] == std::byte{0} && message[5] == std::byte{0} &&
                              message[6] == std::byte{0} && message[7] == std::byte{0};
  if ((flags & ~kKnownFlags) != 0 || !reserved_clear ||
      (!out.header.tagged() && out.header.tag != 0) ||
      (!out.header.has_data() && out.header.data != 0)) {
    out.status = DecodeStatus::bad_flags;
    return out;
  }
  out.status = DecodeStatus::ok;
  return out;
}

}  // namespace hf::fabric
