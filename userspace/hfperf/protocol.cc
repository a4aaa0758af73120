// hfperf/protocol.cc - encoding and decoding of hfperf's message header.
#include "protocol.h"

#include <cstring>

namespace hfperf {
namespace {

constexpr std::uint32_t kMagic = 0x68667066;  // "hfpf"

template <typename T>
void put(std::span<std::byte> out, std::size_t offset, T value) {
  std::memcpy(out.subspan(offset, sizeof(T)).data(), &value, sizeof(T));
}

template <typename T>
T get(std::span<const std::byte> in, std::size_t offset) {
  T value{};
  std::memcpy(&value, in.subspan(offset, sizeof(T)).data(), sizeof(T));
  return value;
}

}  // namespace

void encode(const Header& header, std::span<std::byte> out) {
  put(out, 0, kMagic);
  put(out, 4, static_cast<std::uint8_t>(header.type));
  put(out, 5, header.flags);
  put(out, 6, header.rank);
  put(out, 8, header.round);
  put(out, 12, std::uint32_t{0});
  put(out, 16, header.flow);
  put(out, 24, header.seq);
  put(out, 32, header.value);
  put(out, 40, header.count);
}

std::optional<Header> decode(std::span<const std::byte> in) {
  if (in.size() < kHeaderSize || get<std::uint32_t>(in, 0) != kMagic) {
    return std::nullopt;
  }
  const auto type = get<std::uint8_t>(in, 4);
  if (type < static_cast<std::uint8_t>(MsgType::data) ||
      type > static_cast<std::uint8_t>(MsgType::hello_ack)) {
    return std::nullopt;
  }
  Header header;
  header.type = static_cast<MsgType>(type);
  header.flags = get<std::uint8_t>(in, 5);
  header.rank = get<std::uint16_t>(in, 6);
  header.round = get<std::uint32_t>(in, 8);
  header.flow = get<std::uint64_t>(in, 16);
  header.seq = get<std::uint64_t>(in, 24);
  header.value = get<std::uint64_t>(in, 32);
  header.count = get<std::uint64_t>(in, 40);
  return header;
}

}  // namespace hfperf
