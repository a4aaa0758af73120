// hfctl/exporter/listener.h - the exporter's listening address: "--listen"
// parsed (literal IPv4 or bracketed IPv6 address and a port, no host names),
// and the TCP socket listening on it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "hyperframe/fd.h"

namespace hfctl {

inline constexpr std::string_view kDefaultListenAddress = "127.0.0.1:9477";

struct ListenAddress {
  bool ipv6 = false;
  std::array<std::uint8_t, 16> address{};  // network order; IPv4 in the first four bytes
  std::uint16_t port = 0;

  friend bool operator==(const ListenAddress&, const ListenAddress&) = default;
};

// "A.B.C.D:PORT" or "[IPV6]:PORT", PORT 1..65535. Throws UsageError saying
// what is wrong (no port, port out of range, not a literal address).
[[nodiscard]] ListenAddress parse_listen_address(std::string_view text);

// "127.0.0.1:9477", "[::1]:9477".
[[nodiscard]] std::string to_string(const ListenAddress& address);

// A non-blocking, close-on-exec TCP socket bound to `address`
// (SO_REUSEADDR; IPV6_V6ONLY, so "[::]" takes IPv6 only) and listening.
// Port 0 takes a free port (see local_address()). Throws std::system_error:
// "cannot listen on 127.0.0.1:9477: Address already in use".
[[nodiscard]] hf::Fd open_listener(const ListenAddress& address);

// The address a socket is bound to (getsockname). Throws std::system_error.
[[nodiscard]] ListenAddress local_address(int fd);

}  // namespace hfctl
