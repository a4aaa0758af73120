// hfperf/transport.h - the one interface every pattern drives, and its
// three implementations' factory: a Transport makes Listeners (the
// receiving side, on a port) and Connections (a message channel to one
// peer). A Connection sends and receives whole messages whatever the
// transport: hyperframe's SOCK_RDM keeps message boundaries itself, TCP
// carries each message behind an 8-byte length, UDP cuts it into datagrams
// (hfperf's UDP is unreliable on purpose; see udp.cc).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace hfperf {

enum class Kind { hf, tcp, udp };

// "hf", "tcp", "udp".
[[nodiscard]] const char* kind_name(Kind kind) noexcept;
[[nodiscard]] std::optional<Kind> parse_kind(const std::string& text);

// The largest message hfperf sends on any transport (hyperframe's limit).
inline constexpr std::size_t kMaxMessage = std::size_t{64} << 20;
// Socket buffers of the transports that do not tune their own (size_buffers()).
inline constexpr int kBufferBytes = 32 << 20;

// A receive buffer that grows without zeroing (so a 64 MiB buffer costs
// only the pages a message touches).
class Buffer {
 public:
  explicit Buffer(std::size_t size = 0);
  // Makes room for `size` bytes; the contents are lost when it grows.
  void reserve(std::size_t size);
  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
  [[nodiscard]] std::span<std::byte> span() noexcept { return {data_.get(), capacity_}; }
  [[nodiscard]] std::span<const std::byte> span(std::size_t length) const noexcept {
    return {data_.get(), length};
  }

 private:
  std::unique_ptr<std::byte[]> data_;  // NOLINT(*-avoid-c-arrays)
  std::size_t capacity_ = 0;
};

// A message channel to one peer (or, on the receiving side of a
// connectionless transport, to whoever sent the last message received).
// Errors are std::system_error with errno and the call.
class Connection {
 public:
  Connection() = default;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  Connection(Connection&&) = delete;
  Connection& operator=(Connection&&) = delete;
  virtual ~Connection() = default;

  // Sends one whole message (blocking until the transport accepts it).
  virtual void send(std::span<const std::byte> message) = 0;
  // Receives one whole message into `buffer`, growing it when the
  // transport knows the length first; returns its length. nullopt when the
  // peer closed the connection (TCP) or `timeout` passed first.
  virtual std::optional<std::size_t> recv(
      Buffer& buffer, std::optional<std::chrono::milliseconds> timeout = std::nullopt) = 0;
  // Forgets errors reported for earlier messages (hyperframe's error queue),
  // e.g. ECONNREFUSED while the peer was not listening yet.
  virtual void clear_errors() {}
};

class Listener {
 public:
  Listener() = default;
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  Listener(Listener&&) = delete;
  Listener& operator=(Listener&&) = delete;
  virtual ~Listener() = default;

  // The next incoming Connection. For a connectionless transport (hf,
  // udp) the first call returns the bound socket itself, which receives
  // from every peer and answers the last sender; later calls return null.
  virtual std::unique_ptr<Connection> accept() = 0;
};

class Transport {
 public:
  Transport() = default;
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;
  Transport(Transport&&) = delete;
  Transport& operator=(Transport&&) = delete;
  virtual ~Transport() = default;

  [[nodiscard]] virtual Kind kind() const noexcept = 0;
  // Whether one accepted Connection carries every peer's messages.
  [[nodiscard]] virtual bool connectionless() const noexcept = 0;
  // Binds (and listens on) `port`.
  virtual std::unique_ptr<Listener> listen(std::uint16_t port) = 0;
  // A Connection to `address` (hf: the peer's MAC on the device; tcp, udp:
  // an IPv4 address or host name) at `port`. TCP retries a refused
  // connect for up to `wait`.
  virtual std::unique_ptr<Connection> connect(const std::string& address, std::uint16_t port,
                                              std::chrono::milliseconds wait) = 0;
};

// The transport `kind`; hf needs `device` (the interface peers are reached
// through), tcp and udp ignore it. `segment` is the UDP GSO segment size.
std::unique_ptr<Transport> make_transport(Kind kind, const std::string& device,
                                          std::size_t segment);

std::unique_ptr<Transport> make_hf_transport(const std::string& device);
std::unique_ptr<Transport> make_tcp_transport();
std::unique_ptr<Transport> make_udp_transport(std::size_t segment);

// Throws std::system_error(errno, generic_category(), what).
[[noreturn]] void throw_errno(const std::string& what);

// Asks for `bytes` of send and receive buffer on `fd`: beyond the sysctl
// limits where the caller may (CAP_NET_ADMIN), else what the limits allow.
// Transports without autotuning (udp, hf) take big ones, as a program
// moving MiB bursts would; TCP tunes its own.
void size_buffers(int fd, int bytes);

// Waits up to `timeout` (forever without one: returns at once) for
// `events` (POLLIN, POLLOUT) on `fd`; false on timeout. Throws on failure.
bool wait_for(int fd, short events, std::optional<std::chrono::milliseconds> timeout);

}  // namespace hfperf
