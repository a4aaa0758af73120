// hfperf/tcp_transport.cc - the TCP transport: one connection per
// Connection, with the kernel's defaults (GSO/GRO, Nagle off so small
// messages are not held back); each message is an 8-byte length followed
// by its bytes.
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <thread>

#include "hyperframe/fd.h"
#include "transport.h"

namespace hfperf {
namespace {

hf::Fd tcp_socket() {
  hf::Fd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd) {
    throw_errno("socket(AF_INET, SOCK_STREAM)");
  }
  return fd;
}

void set_int(int fd, int level, int name, int value, const char* what) {
  if (::setsockopt(fd, level, name, &value, sizeof(value)) != 0) {
    throw_errno(what);
  }
}

sockaddr_in resolve(const std::string& host, std::uint16_t port) {
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  if (::inet_pton(AF_INET, host.c_str(), &addr.sin_addr) == 1) {
    return addr;
  }
  addrinfo hints{};
  hints.ai_family = AF_INET;
  addrinfo* result = nullptr;
  const int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &result);
  if (rc != 0 || result == nullptr) {
    throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                            "address \"" + host + "\": " + ::gai_strerror(rc));
  }
  std::memcpy(&addr.sin_addr,
              // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
              &reinterpret_cast<const sockaddr_in*>(result->ai_addr)->sin_addr,
              sizeof(addr.sin_addr));
  ::freeaddrinfo(result);
  return addr;
}

class TcpConnection final : public Connection {
 public:
  explicit TcpConnection(hf::Fd fd) : fd_(std::move(fd)) {
    set_int(fd_.get(), IPPROTO_TCP, TCP_NODELAY, 1, "setsockopt TCP_NODELAY");
  }

  void send(std::span<const std::byte> message) override {
    std::uint64_t length = message.size();
    const iovec head{&length, sizeof(length)};
    // writev(2) only reads the message.
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-const-cast)
    const iovec body{const_cast<std::byte*>(message.data()), message.size()};
    std::array<iovec, 2> iov{head, body};
    std::size_t first = 0;
    while (first < iov.size()) {
      const ssize_t n = ::writev(fd_.get(), &iov.at(first), static_cast<int>(iov.size() - first));
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n < 0) {
        throw_errno("tcp write (" + std::to_string(message.size()) + " bytes)");
      }
      auto left = static_cast<std::size_t>(n);
      while (first < iov.size() && left >= iov.at(first).iov_len) {
        left -= iov.at(first).iov_len;
        ++first;
      }
      if (first < iov.size()) {
        // NOLINTNEXTLINE(cppcoreguidelines-pro-bounds-pointer-arithmetic)
        iov.at(first).iov_base = static_cast<char*>(iov.at(first).iov_base) + left;
        iov.at(first).iov_len -= left;
      }
    }
  }

  std::optional<std::size_t> recv(Buffer& buffer,
                                  std::optional<std::chrono::milliseconds> timeout) override {
    if (!wait_for(fd_.get(), POLLIN, timeout)) {
      return std::nullopt;
    }
    std::uint64_t length = 0;
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
    if (!read_all({reinterpret_cast<std::byte*>(&length), sizeof(length)}, true)) {
      return std::nullopt;
    }
    if (length > kMaxMessage) {
      throw std::system_error(std::make_error_code(std::errc::protocol_error),
                              "tcp: message length " + std::to_string(length));
    }
    buffer.reserve(length);
    if (!read_all(buffer.span().first(length), false)) {
      throw std::system_error(std::make_error_code(std::errc::connection_reset),
                              "tcp: connection closed inside a message");
    }
    return static_cast<std::size_t>(length);
  }

 private:
  // Reads exactly out.size() bytes; false on end of stream before the
  // first byte when `eof_ok`.
  bool read_all(std::span<std::byte> out, bool eof_ok) {
    std::size_t done = 0;
    while (done < out.size()) {
      const ssize_t n = ::read(fd_.get(), out.subspan(done).data(), out.size() - done);
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n < 0) {
        throw_errno("tcp read");
      }
      if (n == 0) {
        if (done == 0 && eof_ok) {
          return false;
        }
        throw std::system_error(std::make_error_code(std::errc::connection_reset),
                                "tcp: connection closed inside a message");
      }
      done += static_cast<std::size_t>(n);
    }
    return true;
  }

  hf::Fd fd_;
};

class TcpListener final : public Listener {
 public:
  explicit TcpListener(std::uint16_t port) : fd_(tcp_socket()) {
    set_int(fd_.get(), SOL_SOCKET, SO_REUSEADDR, 1, "setsockopt SO_REUSEADDR");
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
    if (::bind(fd_.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
      throw_errno("tcp bind port " + std::to_string(port));
    }
    if (::listen(fd_.get(), 128) != 0) {
      throw_errno("tcp listen");
    }
  }

  std::unique_ptr<Connection> accept() override {
    for (;;) {
      hf::Fd fd(::accept4(fd_.get(), nullptr, nullptr, SOCK_CLOEXEC));
      if (fd) {
        return std::make_unique<TcpConnection>(std::move(fd));
      }
      if (errno != EINTR && errno != ECONNABORTED) {
        throw_errno("tcp accept");
      }
    }
  }

 private:
  hf::Fd fd_;
};

class TcpTransport final : public Transport {
 public:
  [[nodiscard]] Kind kind() const noexcept override { return Kind::tcp; }
  [[nodiscard]] bool connectionless() const noexcept override { return false; }

  std::unique_ptr<Listener> listen(std::uint16_t port) override {
    return std::make_unique<TcpListener>(port);
  }

  std::unique_ptr<Connection> connect(const std::string& address, std::uint16_t port,
                                      std::chrono::milliseconds wait) override {
    const sockaddr_in addr = resolve(address, port);
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
      hf::Fd fd = tcp_socket();
      // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
      if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0) {
        return std::make_unique<TcpConnection>(std::move(fd));
      }
      if ((errno != ECONNREFUSED && errno != EINTR) ||
          std::chrono::steady_clock::now() >= deadline) {
        throw_errno("tcp connect " + address + ":" + std::to_string(port));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
};

}  // namespace

std::unique_ptr<Transport> make_tcp_transport() {
  return std::make_unique<TcpTransport>();
}

}  // namespace hfperf
