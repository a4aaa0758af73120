// fabric/wire.h - the header the hf libfabric provider puts in front of
// every message it sends: one libfabric message is one hyperframe message,
// this header then the payload (docs/fabric.md, "Wire format").
//
//   offset  size  field
//   0       2     magic, the bytes 'h' 'F'
//   2       1     version, 1
//   3       1     flags: bit 0 tagged, bit 1 remote CQ data; others 0
//   4       4     reserved, 0
//   8       8     tag, little-endian (0 when untagged)
//   16      8     remote CQ data, little-endian (0 without the flag)
//
// The sender's address is not carried: the receiving socket learns it from
// the transport (the source MAC and port of the message).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace hf::fabric {

inline constexpr std::size_t kHeaderSize = 24;
inline constexpr std::uint8_t kWireVersion = 1;
inline constexpr std::uint8_t kFlagTagged = 0x1;
inline constexpr std::uint8_t kFlagData = 0x2;

using HeaderBytes = std::array<std::byte, kHeaderSize>;

struct Header {
  std::uint8_t flags = 0;  // kFlag*
  std::uint64_t tag = 0;
  std::uint64_t data = 0;

  [[nodiscard]] bool tagged() const noexcept { return (flags & kFlagTagged) != 0; }
  [[nodiscard]] bool has_data() const noexcept { return (flags & kFlagData) != 0; }
  friend bool operator==(const Header&, const Header&) = default;
};

// Why a message was not taken as one of the provider's.
enum class DecodeStatus {
  ok,
  short_message,  // fewer bytes than a header
  bad_magic,      // not the provider's: another program's message
  bad_version,    // a version this provider does not speak
  bad_flags,      // unknown flag bits, non-zero reserved bytes or fields
};

struct Decoded {
  DecodeStatus status = DecodeStatus::short_message;
  Header header;
};

// The header's bytes. Fields that the flags leave out are written as 0.
[[nodiscard]] HeaderBytes encode(const Header& header) noexcept;
// The header at the front of `message` (the message's first bytes, at
// least kHeaderSize of them to succeed). A tag without kFlagTagged, or
// data without kFlagData, is refused as bad_flags.
[[nodiscard]] Decoded decode(std::span<const std::byte> message) noexcept;

}  // namespace hf::fabric
