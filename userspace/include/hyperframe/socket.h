// hyperframe/socket.h - hf::Socket, an open hyperframe socket owning its
// descriptor, and hf::Address, the endpoint its messages go to and come
// from.
#pragma once

#include <linux/hyperframe.h>
#include <sys/socket.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "hyperframe/fd.h"

namespace hf {

// An address family number, spelled out so it cannot be mistaken for a
// socket type at a call site.
struct Family {
  int value;
};

// An Ethernet address, as PeerInfo::address holds one.
using MacAddress = std::array<std::uint8_t, 6>;

// "02:00:00:00:00:0a": six groups of two lower-case hex digits.
[[nodiscard]] std::string format_mac(const MacAddress& mac);
// Six groups of one or two hex digits (either case) joined by ':'; nullopt
// for anything else.
[[nodiscard]] std::optional<MacAddress> parse_mac(std::string_view text) noexcept;

// A hyperframe endpoint: the value of a struct sockaddr_hf, less its
// family (the socket's).
struct Address {
  int ifindex = 0;         // interface the peer is reached through; in bind(): 0 = any
  MacAddress mac{};        // the peer's Ethernet address; unused in bind()
  std::uint16_t port = 0;  // in bind(): 0 = an ephemeral port

  // The sockaddr_hf of `family` (hf::family(), or Socket::address_family()),
  // padding zeroed.
  [[nodiscard]] sockaddr_hf to_sockaddr(int family) const noexcept;
  [[nodiscard]] static Address from_sockaddr(const sockaddr_hf& address) noexcept;

  friend bool operator==(const Address&, const Address&) = default;
};

// "[02:00:00:00:00:01%3]:7000": the MAC and the interface index in
// brackets, as an IPv6 link-local address with its zone, then the port;
// "[02:00:00:00:00:01]:7000" when ifindex is 0.
[[nodiscard]] std::string to_string(const Address& address);
// Parses what to_string() writes; the zone may also name the interface
// ("[02:00:00:00:00:01%eth0]:7000"), looked up in the calling thread's
// network namespace. Throws std::system_error: errc::invalid_argument for
// malformed text (a port above 65535 included), errc::no_such_device for
// an interface name that names none.
[[nodiscard]] Address parse_address(std::string_view text);

// One message recvmsg() took off a socket.
struct Received {
  std::size_t size = 0;    // bytes of it written to the buffer
  std::size_t length = 0;  // its length: above size when it did not fit
  bool truncated = false;  // it did not fit: its last length - size bytes are gone
  Address from;            // its sender: port, the interface it came in by, MAC
};

// A socket of the hyperframe family. Opened close-on-exec; errors are
// std::system_error carrying errno and the call, e.g.
// "socket(AF_HYPERFRAME, SOCK_RDM): Address family not supported by protocol".
//
// The message calls come twice: one throws std::system_error (its what()
// names the call, "sendmsg(AF_HYPERFRAME, [02:00:00:00:00:01%3]:7000, 100
// bytes): Message too long"), the other takes a std::error_code& that it
// sets to errno or clears, and throws nothing: for the errors a caller
// expects, EAGAIN above all. Neither retries on EINTR: a signal handler
// installed without SA_RESTART gets to interrupt a call that waits.
class Socket {
 public:
  // socket(hf::family(), type, protocol): the family the loaded module
  // registered. Also throws what hf::family() throws.
  explicit Socket(int type = SOCK_RDM, int protocol = 0);
  // socket(family, type, protocol), for a caller that already read the
  // family (hf::family() reads sysfs on every call).
  Socket(Family family, int type, int protocol);
  // Takes over `fd`, an open socket of `family` (inherited, or released
  // by another Socket).
  Socket(Fd fd, Family family) noexcept : fd_(std::move(fd)), family_(family.value) {}

  [[nodiscard]] int get() const noexcept { return fd_.get(); }
  [[nodiscard]] const Fd& fd() const noexcept { return fd_; }
  [[nodiscard]] int address_family() const noexcept { return family_; }
  // Gives up the socket, leaving this object empty.
  [[nodiscard]] Fd release() noexcept { return std::move(fd_); }

  // bind(2) to `port` (0: an ephemeral one) on interface `ifindex` (0:
  // every interface of the namespace). errno as bind(2): EADDRINUSE when
  // the port is taken in the namespace (on any interface), ENODEV for no
  // such interface, EINVAL when already bound.
  void bind(std::uint16_t port, int ifindex = 0);
  void bind(std::uint16_t port, int ifindex, std::error_code& error) noexcept;

  // getsockname(2): the port bound (by bind() or by the first send) and
  // the interface bound to (0: any); mac is zero.
  [[nodiscard]] Address local_address() const;
  [[nodiscard]] Address local_address(std::error_code& error) const noexcept;

  // getsockopt(SOL_HYPERFRAME, HF_INFO): the socket's state and its
  // connected peer's (HF_INFO_PEER in hfi_flags when there is one the
  // namespace holds state for). Takes no input. A socket of another
  // family gets its own kernel's refusal (EOPNOTSUPP, ENOPROTOOPT).
  [[nodiscard]] hf_info info() const;
  [[nodiscard]] hf_info info(std::error_code& error) const noexcept;

  // getsockopt(SOL_HYPERFRAME, HF_PEER_INFO) about `peer` (its port is
  // ignored): the socket's state and that peer's; HF_INFO_PEER is clear
  // when the namespace holds no state for it. errno: ENODEV for no such
  // interface, EINVAL for a MAC that is not unicast.
  [[nodiscard]] hf_info peer_info(const Address& peer) const;
  [[nodiscard]] hf_info peer_info(const Address& peer, std::error_code& error) const noexcept;

  // Sends `message` as one message to `to` (sendmsg(2) with `flags`, such
  // as MSG_DONTWAIT) and returns its length: a message goes whole or not at
  // all. An unbound socket takes an ephemeral port first. errno: EMSGSIZE
  // above the module's max_msg, EAGAIN when the send buffer stays full
  // (MSG_DONTWAIT, SO_SNDTIMEO), ENODEV for no such interface, ENETDOWN for
  // one that is down, EINVAL for port 0 or a multicast MAC, and the
  // ECONNREFUSED, EHOSTUNREACH, ... an earlier message's failure left
  // (SO_ERROR; the error queue tells which message it was).
  std::size_t send_to(const Address& to, std::span<const std::byte> message, int flags = 0);
  std::size_t send_to(const Address& to, std::span<const std::byte> message, int flags,
                      std::error_code& error) noexcept;

  // Takes the next message into `buffer` (recvmsg(2) with `flags`, such as
  // MSG_DONTWAIT or MSG_PEEK). A message longer than the buffer is not an
  // error: its first buffer.size() bytes are written, the rest dropped
  // (or left queued under MSG_PEEK), and the result says so with
  // truncated and the message's full length. errno: EAGAIN with
  // MSG_DONTWAIT and nothing queued, or past SO_RCVTIMEO. On error the
  // Received is empty.
  [[nodiscard]] Received receive(std::span<std::byte> buffer, int flags = 0);
  [[nodiscard]] Received receive(std::span<std::byte> buffer, int flags,
                                 std::error_code& error) noexcept;

 private:
  Fd fd_;
  int family_;
};

}  // namespace hf
