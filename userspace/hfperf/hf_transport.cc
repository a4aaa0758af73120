// hfperf/hf_transport.cc - the hyperframe transport: one SOCK_RDM socket
// per Connection (connect()ed to the peer, so it has its own port and
// its own flow), and one bound socket per Listener that receives from
// every peer and answers the last sender.
#include <linux/hyperframe.h>
#include <poll.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <system_error>

#include "hyperframe/socket.h"
#include "hyperframe/sysfs.h"
#include "transport.h"

#include <net/if.h>

namespace hfperf {
namespace {

sockaddr_hf parse_address(int family, int ifindex, const std::string& mac, std::uint16_t port) {
  sockaddr_hf addr{};
  addr.shf_family = static_cast<__kernel_sa_family_t>(family);
  addr.shf_port = port;
  addr.shf_ifindex = ifindex;
  std::array<unsigned int, ETH_ALEN> octets{};
  char tail = 0;
  // NOLINTNEXTLINE(cert-err34-c): the count checks the conversion
  if (std::sscanf(mac.c_str(), "%x:%x:%x:%x:%x:%x%c", octets.data(), &octets[1], &octets[2],
                  &octets[3], &octets[4], &octets[5], &tail) != ETH_ALEN) {
    throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                            "hf address \"" + mac + "\" (want a MAC such as 02:00:00:00:00:01)");
  }
  for (std::size_t i = 0; i < ETH_ALEN; ++i) {
    if (octets.at(i) > 0xff) {
      throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                              "hf address \"" + mac + "\"");
    }
    // NOLINTNEXTLINE(cppcoreguidelines-pro-bounds-constant-array-index)
    addr.shf_addr[i] = static_cast<__u8>(octets.at(i));
  }
  return addr;
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

class HfConnection final : public Connection {
 public:
  HfConnection(hf::Socket socket, std::optional<sockaddr_hf> peer)
      : socket_(std::move(socket)), peer_(peer) {}

  void send(std::span<const std::byte> message) override {
    const sockaddr_hf* dest = peer_ ? &*peer_ : &last_;
    for (;;) {
      const ssize_t n =
          ::sendto(socket_.get(), message.data(), message.size(), 0, generic(dest), sizeof(*dest));
      if (n >= 0) {
        return;
      }
      if (errno != EINTR) {
        throw_errno("hf sendto (" + std::to_string(message.size()) + " bytes)");
      }
    }
  }

  std::optional<std::size_t> recv(Buffer& buffer,
                                  std::optional<std::chrono::milliseconds> timeout) override {
    if (buffer.capacity() == 0) {
      buffer.reserve(4096);
    }
    for (;;) {
      if (!wait_for(socket_.get(), POLLIN, timeout)) {
        return std::nullopt;
      }
      sockaddr_hf from{};
      socklen_t len = sizeof(from);
      auto span = buffer.span();
      const ssize_t n =
          ::recvfrom(socket_.get(), span.data(), span.size(), MSG_TRUNC, generic(&from), &len);
      if (n < 0 && errno == EINTR) {
        continue;
      }
      if (n < 0) {
        throw_errno("hf recvfrom");
      }
      if (static_cast<std::size_t>(n) > span.size()) {
        throw std::system_error(std::make_error_code(std::errc::message_size),
                                "hf recvfrom: a message of " + std::to_string(n) +
                                    " bytes does not fit the " + std::to_string(span.size()) +
                                    "-byte buffer");
      }
      last_ = from;
      return static_cast<std::size_t>(n);
    }
  }

  void clear_errors() override {
    std::array<char, 512> control{};
    for (;;) {
      msghdr msg{};
      msg.msg_control = control.data();
      msg.msg_controllen = control.size();
      if (::recvmsg(socket_.get(), &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
        break;
      }
    }
    int error = 0;
    socklen_t len = sizeof(error);
    (void)::getsockopt(socket_.get(), SOL_SOCKET, SO_ERROR, &error, &len);
  }

 private:
  hf::Socket socket_;
  std::optional<sockaddr_hf> peer_;
  sockaddr_hf last_{};
};

class HfListener final : public Listener {
 public:
  explicit HfListener(std::unique_ptr<Connection> conn) : conn_(std::move(conn)) {}
  std::unique_ptr<Connection> accept() override { return std::move(conn_); }

 private:
  std::unique_ptr<Connection> conn_;
};

class HfTransport final : public Transport {
 public:
  explicit HfTransport(const std::string& device) : family_(hf::family()), device_(device) {
    if (device.empty()) {
      throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                              "the hf transport needs --dev (the interface peers are on)");
    }
    ifindex_ = static_cast<int>(if_nametoindex(device.c_str()));
    if (ifindex_ == 0) {
      throw_errno("interface " + device);
    }
  }

  [[nodiscard]] Kind kind() const noexcept override { return Kind::hf; }
  [[nodiscard]] bool connectionless() const noexcept override { return true; }

  std::unique_ptr<Listener> listen(std::uint16_t port) override {
    hf::Socket socket(hf::Family{family_}, SOCK_RDM, 0);
    size_buffers(socket.get(), kBufferBytes);
    sockaddr_hf addr{};
    addr.shf_family = static_cast<__kernel_sa_family_t>(family_);
    addr.shf_port = port;
    if (::bind(socket.get(), generic(&addr), sizeof(addr)) != 0) {
      throw_errno("hf bind port " + std::to_string(port));
    }
    return std::make_unique<HfListener>(
        std::make_unique<HfConnection>(std::move(socket), std::nullopt));
  }

  std::unique_ptr<Connection> connect(const std::string& address, std::uint16_t port,
                                      std::chrono::milliseconds /*wait*/) override {
    const sockaddr_hf peer = parse_address(family_, ifindex_, address, port);
    hf::Socket socket(hf::Family{family_}, SOCK_RDM, 0);
    size_buffers(socket.get(), kBufferBytes);
    return std::make_unique<HfConnection>(std::move(socket), peer);
  }

 private:
  int family_;
  std::string device_;
  int ifindex_ = 0;
};

}  // namespace

std::unique_ptr<Transport> make_hf_transport(const std::string& device) {
  return std::make_unique<HfTransport>(device);
}

}  // namespace hfperf
