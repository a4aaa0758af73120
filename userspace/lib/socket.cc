// lib/socket.cc - hf::Socket: socket(2), bind(2), sendmsg(2) and
// recvmsg(2) on the hyperframe family, with errors that name the call;
// hf::Address and its text form.
#include "hyperframe/socket.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <optional>
#include <string>
#include <system_error>

#include "hyperframe/sysfs.h"

#include <net/if.h>

namespace hf {
namespace {

std::string type_name(int type) {
  switch (type & ~(SOCK_CLOEXEC | SOCK_NONBLOCK)) {
    case SOCK_STREAM:
      return "SOCK_STREAM";
    case SOCK_DGRAM:
      return "SOCK_DGRAM";
    case SOCK_RAW:
      return "SOCK_RAW";
    case SOCK_RDM:
      return "SOCK_RDM";
    case SOCK_SEQPACKET:
      return "SOCK_SEQPACKET";
    default:
      return std::to_string(type);
  }
}

Fd open_socket(int family, int type, int protocol) {
  Fd fd(::socket(family, type | SOCK_CLOEXEC, protocol));
  if (!fd) {
    const int error = errno;
    std::string call = "socket(AF_HYPERFRAME, " + type_name(type);
    if (protocol != 0) {
      call += ", " + std::to_string(protocol);
    }
    call += ")";
    throw std::system_error(error, std::generic_category(), call);
  }
  return fd;
}

// The generic address of `addr`, for the socket calls.
const sockaddr* generic(const sockaddr_hf* addr) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
  return reinterpret_cast<const sockaddr*>(addr);
}
sockaddr* generic(sockaddr_hf* addr) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
  return reinterpret_cast<sockaddr*>(addr);
}

std::error_code last_error() noexcept {
  return {errno, std::generic_category()};
}

// A msghdr for one buffer, `iov`, to or from `addr`.
msghdr one_buffer_msg(sockaddr_hf& addr, iovec& iov) noexcept {
  msghdr msg{};
  msg.msg_name = &addr;
  msg.msg_namelen = sizeof(addr);
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  return msg;
}

// The value of hex digit `c`, or -1.
int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

[[noreturn]] void throw_bad_address(std::string_view text) {
  throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                          "hf address \"" + std::string(text) +
                              "\" (want [MAC%IFINDEX]:PORT, such as [02:00:00:00:00:01%3]:7000)");
}

// A decimal number of at most `max` that is all of `text`.
std::optional<std::uint32_t> parse_decimal(std::string_view text, std::uint32_t max) noexcept {
  std::uint32_t value = 0;
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, value);
  if (text.empty() || error != std::errc{} || end != last || value > max) {
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::string format_mac(const MacAddress& mac) {
  static constexpr std::string_view kDigits = "0123456789abcdef";
  std::string text;
  for (const std::uint8_t byte : mac) {
    if (!text.empty()) {
      text += ':';
    }
    text += kDigits[byte >> 4U];
    text += kDigits[byte & 0xfU];
  }
  return text;
}

std::optional<MacAddress> parse_mac(std::string_view text) noexcept {
  MacAddress mac{};
  std::size_t at = 0;
  for (std::size_t i = 0; i < mac.size(); ++i) {
    if (i > 0) {
      if (at >= text.size() || text[at] != ':') {
        return std::nullopt;
      }
      ++at;
    }
    int value = 0;
    std::size_t digits = 0;
    for (; at < text.size() && digits < 3; ++at, ++digits) {
      const int digit = hex_value(text[at]);
      if (digit < 0) {
        break;
      }
      value = value * 16 + digit;
    }
    if (digits == 0 || digits > 2) {
      return std::nullopt;
    }
    mac.at(i) = static_cast<std::uint8_t>(value);
  }
  if (at != text.size()) {
    return std::nullopt;
  }
  return mac;
}

sockaddr_hf Address::to_sockaddr(int family) const noexcept {
  sockaddr_hf addr{};
  addr.shf_family = static_cast<__kernel_sa_family_t>(family);
  addr.shf_port = port;
  addr.shf_ifindex = ifindex;
  std::copy(mac.begin(), mac.end(), std::begin(addr.shf_addr));
  return addr;
}

Address Address::from_sockaddr(const sockaddr_hf& address) noexcept {
  Address result;
  result.ifindex = address.shf_ifindex;
  result.port = address.shf_port;
  std::copy(std::begin(address.shf_addr), std::end(address.shf_addr), result.mac.begin());
  return result;
}

std::string to_string(const Address& address) {
  std::string text = "[" + format_mac(address.mac);
  if (address.ifindex != 0) {
    text += "%" + std::to_string(address.ifindex);
  }
  return text + "]:" + std::to_string(address.port);
}

Address parse_address(std::string_view text) {
  const std::size_t close = text.rfind("]:");
  if (text.empty() || text.front() != '[' || close == std::string_view::npos) {
    throw_bad_address(text);
  }
  const std::string_view inside = text.substr(1, close - 1);
  const std::size_t percent = inside.find('%');
  const std::optional<MacAddress> mac = parse_mac(inside.substr(0, percent));
  const std::optional<std::uint32_t> port = parse_decimal(text.substr(close + 2), 0xffff);
  if (!mac || !port) {
    throw_bad_address(text);
  }
  Address address{.ifindex = 0, .mac = *mac, .port = static_cast<std::uint16_t>(*port)};
  if (percent == std::string_view::npos) {
    return address;
  }
  const std::string_view zone = inside.substr(percent + 1);
  if (zone.empty()) {
    throw_bad_address(text);
  }
  constexpr auto kMaxIndex = static_cast<std::uint32_t>(0x7fffffff);
  if (const std::optional<std::uint32_t> index = parse_decimal(zone, kMaxIndex)) {
    address.ifindex = static_cast<int>(*index);
    return address;
  }
  if (std::isdigit(static_cast<unsigned char>(zone.front())) != 0 || zone.size() >= IF_NAMESIZE) {
    throw_bad_address(text);
  }
  const unsigned int index = ::if_nametoindex(std::string(zone).c_str());
  if (index == 0) {
    throw std::system_error(
        std::make_error_code(std::errc::no_such_device),
        "hf address \"" + std::string(text) + "\": interface " + std::string(zone));
  }
  address.ifindex = static_cast<int>(index);
  return address;
}

Socket::Socket(int type, int protocol) : Socket(Family{hf::family()}, type, protocol) {}

Socket::Socket(Family family, int type, int protocol)
    : fd_(open_socket(family.value, type, protocol)), family_(family.value) {}

void Socket::bind(std::uint16_t port, int ifindex, std::error_code& error) noexcept {
  const sockaddr_hf addr =
      Address{.ifindex = ifindex, .mac = {}, .port = port}.to_sockaddr(family_);
  error.clear();
  if (::bind(fd_.get(), generic(&addr), sizeof(addr)) != 0) {
    error = last_error();
  }
}

void Socket::bind(std::uint16_t port, int ifindex) {
  std::error_code error;
  bind(port, ifindex, error);
  if (error) {
    std::string call = "bind(AF_HYPERFRAME, port " + std::to_string(port);
    if (ifindex != 0) {
      call += ", ifindex " + std::to_string(ifindex);
    }
    throw std::system_error(error, call + ")");
  }
}

Address Socket::local_address(std::error_code& error) const noexcept {
  sockaddr_hf addr{};
  socklen_t len = sizeof(addr);
  error.clear();
  if (::getsockname(fd_.get(), generic(&addr), &len) != 0) {
    error = last_error();
    return {};
  }
  if (len < sizeof(addr) || addr.shf_family != family_) {
    return {};  // not a hyperframe socket
  }
  Address local = Address::from_sockaddr(addr);
  local.mac = {};
  return local;
}

Address Socket::local_address() const {
  std::error_code error;
  Address local = local_address(error);
  if (error) {
    throw std::system_error(error, "getsockname(AF_HYPERFRAME)");
  }
  return local;
}

hf_info Socket::info(std::error_code& error) const noexcept {
  hf_info info{};
  socklen_t len = sizeof(info);
  error.clear();
  if (::getsockopt(fd_.get(), SOL_HYPERFRAME, HF_INFO, &info, &len) != 0) {
    error = last_error();
    return {};
  }
  return info;
}

hf_info Socket::info() const {
  std::error_code error;
  const hf_info result = info(error);
  if (error) {
    throw std::system_error(error, "getsockopt(AF_HYPERFRAME, HF_INFO)");
  }
  return result;
}

hf_info Socket::peer_info(const Address& peer, std::error_code& error) const noexcept {
  hf_info info{};
  socklen_t len = sizeof(info);
  info.hfi_peer = peer.to_sockaddr(family_);
  info.hfi_peer.shf_port = 0;
  error.clear();
  if (::getsockopt(fd_.get(), SOL_HYPERFRAME, HF_PEER_INFO, &info, &len) != 0) {
    error = last_error();
    return {};
  }
  return info;
}

hf_info Socket::peer_info(const Address& peer) const {
  std::error_code error;
  const hf_info result = peer_info(peer, error);
  if (error) {
    throw std::system_error(error,
                            "getsockopt(AF_HYPERFRAME, HF_PEER_INFO, " + to_string(peer) + ")");
  }
  return result;
}

std::size_t Socket::send_to(const Address& to, std::span<const std::byte> message, int flags,
                            std::error_code& error) noexcept {
  sockaddr_hf addr = to.to_sockaddr(family_);
  iovec iov{};
  // sendmsg() does not write the data; iovec has no const member.
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-const-cast)
  iov.iov_base = const_cast<std::byte*>(message.data());
  iov.iov_len = message.size();
  const msghdr msg = one_buffer_msg(addr, iov);
  error.clear();
  const ssize_t sent = ::sendmsg(fd_.get(), &msg, flags | MSG_NOSIGNAL);
  if (sent < 0) {
    error = last_error();
    return 0;
  }
  return static_cast<std::size_t>(sent);
}

std::size_t Socket::send_to(const Address& to, std::span<const std::byte> message, int flags) {
  std::error_code error;
  const std::size_t sent = send_to(to, message, flags, error);
  if (error) {
    throw std::system_error(error, "sendmsg(AF_HYPERFRAME, " + hf::to_string(to) + ", " +
                                       std::to_string(message.size()) + " bytes)");
  }
  return sent;
}

Received Socket::receive(std::span<std::byte> buffer, int flags, std::error_code& error) noexcept {
  sockaddr_hf from{};
  iovec iov{};
  iov.iov_base = buffer.data();
  iov.iov_len = buffer.size();
  msghdr msg = one_buffer_msg(from, iov);
  error.clear();
  // MSG_TRUNC: the message's own length, however much of it fits.
  const ssize_t length = ::recvmsg(fd_.get(), &msg, flags | MSG_TRUNC);
  if (length < 0) {
    error = last_error();
    return {};
  }
  Received received;
  received.length = static_cast<std::size_t>(length);
  received.size = std::min(received.length, buffer.size());
  received.truncated = (msg.msg_flags & MSG_TRUNC) != 0 || received.length > buffer.size();
  if (msg.msg_namelen >= sizeof(from) && from.shf_family == family_) {
    received.from = Address::from_sockaddr(from);
  }
  return received;
}

Received Socket::receive(std::span<std::byte> buffer, int flags) {
  std::error_code error;
  Received received = receive(buffer, flags, error);
  if (error) {
    throw std::system_error(
        error, "recvmsg(AF_HYPERFRAME, " + std::to_string(buffer.size()) + "-byte buffer)");
  }
  return received;
}

}  // namespace hf
