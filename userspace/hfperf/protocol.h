// hfperf/protocol.h - the header hfperf puts at the front of every message
// it sends, on every transport: what the message is (data, ack, ping, ...),
// which flow and sequence number it belongs to, and for all-to-all the
// round and the sender's rank. Encoding and decoding only; no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace hfperf {

enum class MsgType : std::uint8_t {
  data = 1,  // payload; the receiver answers with an ack if flags has kWantAck
  ack = 2,   // "message seq of flow is complete at the receiver"
  ping = 3,  // echoed back as pong, same length
  pong = 4,
  fin = 5,      // the flow is over; the receiver answers fin_ack with its totals
  fin_ack = 6,  // value = bytes the receiver counted for the flow, count = messages
  hello = 7,    // all-to-all start barrier
  hello_ack = 8,
};

inline constexpr std::uint8_t kWantAck = 0x1;  // data: acknowledge this message
inline constexpr std::uint8_t kLast = 0x2;     // fin: this client is done

// Every message begins with this (native byte order: both ends run the same
// binary on the same machine type).
struct Header {
  MsgType type = MsgType::data;
  std::uint8_t flags = 0;
  std::uint16_t rank = 0;   // all-to-all: the sender's rank
  std::uint32_t round = 0;  // all-to-all: the round
  std::uint64_t flow = 0;   // a sender-chosen flow id
  std::uint64_t seq = 0;    // message number within the flow
  std::uint64_t value = 0;  // fin/fin_ack: bytes; otherwise 0
  std::uint64_t count = 0;  // fin/fin_ack: messages; otherwise 0
};

// Bytes the encoded header takes; the smallest message hfperf sends.
inline constexpr std::size_t kHeaderSize = 48;

// Writes `header` to the first kHeaderSize bytes of `out` (which must hold
// at least that many).
void encode(const Header& header, std::span<std::byte> out);
// The header at the front of `in`, or nullopt if `in` is too short or does
// not start with hfperf's magic number.
[[nodiscard]] std::optional<Header> decode(std::span<const std::byte> in);

}  // namespace hfperf
