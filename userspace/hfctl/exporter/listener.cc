// hfctl/exporter/listener.cc - "--listen" parsing and the listening socket.
#include "exporter/listener.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <system_error>

#include "cli/cli.h"

namespace hfctl {
namespace {

constexpr int kBacklog = 128;
constexpr std::string_view kHint = "hfctl exporter help";

[[noreturn]] void invalid(std::string_view text, std::string_view why) {
  throw UsageError("invalid --listen address \"" + std::string(text) + "\": " + std::string(why),
                   std::string(kHint));
}

std::uint16_t parse_port(std::string_view text, std::string_view port) {
  if (port.empty()) {
    invalid(text, "missing port (ADDRESS:PORT)");
  }
  unsigned int value = 0;
  const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (error != std::errc() || end != port.data() + port.size() || value == 0 || value > 65535) {
    invalid(text, "the port must be a number from 1 to 65535");
  }
  return static_cast<std::uint16_t>(value);
}

// The socket address of `address`, and its length.
socklen_t to_sockaddr(const ListenAddress& address, sockaddr_storage& storage) {
  storage = {};
  if (address.ipv6) {
    sockaddr_in6 in6{};
    in6.sin6_family = AF_INET6;
    in6.sin6_port = htons(address.port);
    std::memcpy(&in6.sin6_addr, address.address.data(), sizeof(in6.sin6_addr));
    std::memcpy(&storage, &in6, sizeof(in6));
    return sizeof(in6);
  }
  sockaddr_in in4{};
  in4.sin_family = AF_INET;
  in4.sin_port = htons(address.port);
  std::memcpy(&in4.sin_addr, address.address.data(), sizeof(in4.sin_addr));
  std::memcpy(&storage, &in4, sizeof(in4));
  return sizeof(in4);
}

}  // namespace

ListenAddress parse_listen_address(std::string_view text) {
  ListenAddress address;
  std::string host;
  std::string_view port;
  if (text.starts_with('[')) {
    const std::size_t close = text.find(']');
    if (close == std::string_view::npos) {
      invalid(text, "missing ']' after the IPv6 address");
    }
    host = text.substr(1, close - 1);
    const std::string_view rest = text.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(':')) {
      invalid(text, "expected ':PORT' after ']'");
    }
    port = rest.empty() ? rest : rest.substr(1);
    address.ipv6 = true;
  } else {
    const std::size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) {
      invalid(text, "missing port (ADDRESS:PORT)");
    }
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.find(':') != std::string::npos) {
      invalid(text, "write an IPv6 address in brackets: [ADDRESS]:PORT");
    }
  }
  if (host.empty()) {
    invalid(text, "missing address (0.0.0.0 or [::] for every address)");
  }
  if (::inet_pton(address.ipv6 ? AF_INET6 : AF_INET, host.c_str(), address.address.data()) != 1) {
    invalid(text, address.ipv6 ? "not a literal IPv6 address"
                               : "not a literal IPv4 address (host names are not resolved)");
  }
  address.port = parse_port(text, port);
  return address;
}

std::string to_string(const ListenAddress& address) {
  std::array<char, INET6_ADDRSTRLEN> host{};
  if (::inet_ntop(address.ipv6 ? AF_INET6 : AF_INET, address.address.data(), host.data(),
                  host.size()) == nullptr) {
    return "?:" + std::to_string(address.port);
  }
  const std::string text(host.data());
  return (address.ipv6 ? '[' + text + ']' : text) + ':' + std::to_string(address.port);
}

hf::Fd open_listener(const ListenAddress& address) {
  const auto fail = [&address](int error) {
    throw std::system_error(error, std::generic_category(),
                            "cannot listen on " + to_string(address));
  };
  hf::Fd fd(
      ::socket(address.ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd) {
    fail(errno);
  }
  const int one = 1;
  if (::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0) {
    fail(errno);
  }
  if (address.ipv6 && ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one)) != 0) {
    fail(errno);
  }
  sockaddr_storage storage{};
  const socklen_t length = to_sockaddr(address, storage);
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&storage), length) != 0 ||
      ::listen(fd.get(), kBacklog) != 0) {
    fail(errno);
  }
  return fd;
}

ListenAddress local_address(int fd) {
  sockaddr_storage storage{};
  socklen_t length = sizeof(storage);
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&storage), &length) != 0) {
    throw std::system_error(errno, std::generic_category(), "getsockname");
  }
  ListenAddress address;
  if (storage.ss_family == AF_INET6) {
    sockaddr_in6 in6{};
    std::memcpy(&in6, &storage, sizeof(in6));
    address.ipv6 = true;
    address.port = ntohs(in6.sin6_port);
    std::memcpy(address.address.data(), &in6.sin6_addr, sizeof(in6.sin6_addr));
  } else {
    sockaddr_in in4{};
    std::memcpy(&in4, &storage, sizeof(in4));
    address.port = ntohs(in4.sin_port);
    std::memcpy(address.address.data(), &in4.sin_addr, sizeof(in4.sin_addr));
  }
  return address;
}

}  // namespace hfctl
