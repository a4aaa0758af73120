// hfperf/udp_transport.cc - the UDP transport, a ceiling reference with no
// reliability: a message is cut into segments of `segment` bytes, each
// led by a 16-byte segment header (message number, total length, offset),
// sent with UDP_SEGMENT (GSO; up to 64 segments per sendmsg) and received
// with UDP_GRO. Each sender's message is reassembled apart (then copied to
// the caller's buffer) and returned once all its bytes arrived; one whose
// segments did not all arrive is dropped when that sender's next message
// starts. Loss shows as fewer messages at the receiver than were sent.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <system_error>

#include "hyperframe/fd.h"
#include "transport.h"

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif
#ifndef UDP_GRO
#define UDP_GRO 104
#endif

namespace hfperf {
namespace {

constexpr std::uint32_t kSegMagic = 0x68667567;  // "hfug"
constexpr std::size_t kSegHeader = 16;
constexpr std::size_t kMaxGsoSegments = 64;
constexpr std::size_t kMaxDatagram = 65507;

struct SegHeader {
  std::uint32_t magic;
  std::uint32_t msgno;
  std::uint32_t total;
  std::uint32_t offset;
};

hf::Fd udp_socket() {
  hf::Fd fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  if (!fd) {
    throw_errno("socket(AF_INET, SOCK_DGRAM)");
  }
  size_buffers(fd.get(), kBufferBytes);
  const int on = 1;
  if (::setsockopt(fd.get(), IPPROTO_UDP, UDP_GRO, &on, sizeof(on)) != 0) {
    throw_errno("setsockopt UDP_GRO");
  }
  return fd;
}

// The segment size UDP_GRO reported for a received batch (0: none, the
// batch is one datagram).
std::size_t gro_segment_size(msghdr& msg) {
  std::size_t size = 0;
  for (cmsghdr* cm = CMSG_FIRSTHDR(&msg); cm != nullptr; cm = CMSG_NXTHDR(&msg, cm)) {
    if (cm->cmsg_level == IPPROTO_UDP && cm->cmsg_type == UDP_GRO) {
      int value = 0;
      std::memcpy(&value, CMSG_DATA(cm), sizeof(value));
      size = static_cast<std::size_t>(value);
    }
  }
  return size;
}

class UdpConnection final : public Connection {
 public:
  UdpConnection(hf::Fd fd, std::size_t segment, bool connected)
      : fd_(std::move(fd)), segment_(segment), connected_(connected) {}

  void send(std::span<const std::byte> message) override {
    const std::size_t payload = segment_ - kSegHeader;
    const std::size_t per_send = std::min(kMaxGsoSegments, kMaxDatagram / segment_);
    const std::uint32_t msgno = next_msgno_++;
    std::size_t offset = 0;
    do {
      std::size_t used = 0;
      for (std::size_t i = 0; i < per_send && (offset < message.size() || used == 0); ++i) {
        const std::size_t chunk = std::min(payload, message.size() - offset);
        const SegHeader seg{kSegMagic, msgno, static_cast<std::uint32_t>(message.size()),
                            static_cast<std::uint32_t>(offset)};
        std::memcpy(&staging_.at(used), &seg, sizeof(seg));
        if (chunk > 0) {
          std::memcpy(&staging_.at(used + kSegHeader), message.subspan(offset).data(), chunk);
        }
        used += kSegHeader + chunk;
        offset += chunk;
      }
      send_datagrams(used);
    } while (offset < message.size());
  }

  std::optional<std::size_t> recv(Buffer& buffer,
                                  std::optional<std::chrono::milliseconds> timeout) override {
    using std::chrono::steady_clock;
    const auto deadline = timeout ? std::optional{steady_clock::now() + *timeout} : std::nullopt;
    for (;;) {
      // Segments left over from the last batch GRO merged come first.
      while (pending_at_ < pending_len_) {
        const std::size_t at = pending_at_;
        const std::size_t len = std::min(pending_step_, pending_len_ - at);
        pending_at_ += len;
        if (auto whole = take_segment(buffer, at, len, pending_from_)) {
          return whole;
        }
      }
      std::optional<std::chrono::milliseconds> left;
      if (deadline) {
        left =
            std::max(std::chrono::milliseconds{0},
                     std::chrono::ceil<std::chrono::milliseconds>(*deadline - steady_clock::now()));
      }
      if (!wait_for(fd_.get(), POLLIN, left)) {
        return std::nullopt;
      }
      const auto got = receive_datagrams(pending_from_, deadline.has_value());
      if (!got) {
        continue;  // a port-unreachable report, not a datagram: wait on
      }
      const auto [length, gso] = *got;
      pending_at_ = 0;
      pending_len_ = length;
      pending_step_ = gso > 0 ? gso : std::max<std::size_t>(length, 1);
    }
  }

 private:
  void send_datagrams(std::size_t used) {
    iovec iov{staging_.data(), used};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    std::array<char, CMSG_SPACE(sizeof(std::uint16_t))> control{};
    if (used > segment_) {
      msg.msg_control = control.data();
      msg.msg_controllen = control.size();
      cmsghdr* cm = CMSG_FIRSTHDR(&msg);
      cm->cmsg_level = IPPROTO_UDP;
      cm->cmsg_type = UDP_SEGMENT;
      cm->cmsg_len = CMSG_LEN(sizeof(std::uint16_t));
      const auto size = static_cast<std::uint16_t>(segment_);
      std::memcpy(CMSG_DATA(cm), &size, sizeof(size));
    }
    if (!connected_) {
      msg.msg_name = &last_;
      msg.msg_namelen = sizeof(last_);
    }
    for (;;) {
      if (::sendmsg(fd_.get(), &msg, 0) >= 0) {
        return;
      }
      if (errno == EINTR) {
        continue;
      }
      if (errno == ECONNREFUSED || errno == ENOBUFS) {
        return;  // unreliable by design: the loss shows at the receiver
      }
      throw_errno("udp sendmsg (" + std::to_string(used) + " bytes)");
    }
  }

  // One recvmsg: its length and GRO segment size (0: one datagram).
  // With `timed`, the caller polled: it does not block, and an ICMP error
  // queued on the socket (ECONNREFUSED: a datagram sent before the peer
  // bound its port) returns nothing so the caller waits out its time and
  // can send again, where a blocking read would wait for ever.
  std::optional<std::pair<std::size_t, std::size_t>> receive_datagrams(sockaddr_in& from,
                                                                       bool timed) {
    for (;;) {
      iovec iov{inbound_.data(), inbound_.size()};
      msghdr msg{};
      std::array<char, CMSG_SPACE(sizeof(int))> control{};
      msg.msg_name = &from;
      msg.msg_namelen = sizeof(from);
      msg.msg_iov = &iov;
      msg.msg_iovlen = 1;
      msg.msg_control = control.data();
      msg.msg_controllen = control.size();
      const ssize_t n = ::recvmsg(fd_.get(), &msg, timed ? MSG_DONTWAIT : 0);
      if (n >= 0) {
        return std::pair{static_cast<std::size_t>(n), gro_segment_size(msg)};
      }
      const bool nothing_yet = errno == EAGAIN || errno == EWOULDBLOCK;
      if (timed && (errno == ECONNREFUSED || nothing_yet)) {
        return std::nullopt;
      }
      if (errno != EINTR && errno != ECONNREFUSED) {
        throw_errno("udp recvmsg");
      }
    }
  }

  // One segment at inbound_[at, at+len) from `from`; the message length
  // once it completes (copied to `buffer`, its sender in last_).
  std::optional<std::size_t> take_segment(Buffer& buffer, std::size_t at, std::size_t len,
                                          const sockaddr_in& from) {
    if (len < kSegHeader) {
      return std::nullopt;
    }
    SegHeader seg{};
    std::memcpy(&seg, &inbound_.at(at), sizeof(seg));
    const std::size_t chunk = len - kSegHeader;
    if (seg.magic != kSegMagic || seg.total > kMaxMessage || seg.offset + chunk > seg.total) {
      return std::nullopt;
    }
    const std::uint64_t key =
        (std::uint64_t{from.sin_addr.s_addr} << 16) | std::uint64_t{from.sin_port};
    Partial& partial = partials_[key];
    if (!partial.active || seg.msgno != partial.msgno) {
      partial.active = true;
      partial.msgno = seg.msgno;
      partial.total = seg.total;
      partial.got = 0;
      partial.data.reserve(seg.total);
    }
    if (chunk > 0) {
      std::memcpy(partial.data.span().subspan(seg.offset).data(), &inbound_.at(at + kSegHeader),
                  chunk);
    }
    partial.got += chunk;
    if (partial.got < partial.total) {
      return std::nullopt;
    }
    partial.active = false;
    buffer.reserve(partial.total);
    if (partial.total > 0) {
      std::memcpy(buffer.span().data(), partial.data.span().data(), partial.total);
    }
    last_ = from;
    return partial.total;
  }

  // A message being reassembled, one per sender.
  struct Partial {
    bool active = false;
    std::uint32_t msgno = 0;
    std::size_t total = 0;
    std::size_t got = 0;
    Buffer data;
  };

  hf::Fd fd_;
  std::size_t segment_;
  bool connected_;
  sockaddr_in last_{};
  std::uint32_t next_msgno_ = 0;
  std::array<std::byte, kMaxDatagram> staging_{};
  std::array<std::byte, 65536> inbound_{};
  std::map<std::uint64_t, Partial> partials_;
  sockaddr_in pending_from_{};
  std::size_t pending_at_ = 0;
  std::size_t pending_len_ = 0;
  std::size_t pending_step_ = 1;
};

class UdpListener final : public Listener {
 public:
  explicit UdpListener(std::unique_ptr<Connection> conn) : conn_(std::move(conn)) {}
  std::unique_ptr<Connection> accept() override { return std::move(conn_); }

 private:
  std::unique_ptr<Connection> conn_;
};

class UdpTransport final : public Transport {
 public:
  explicit UdpTransport(std::size_t segment) : segment_(segment) {
    if (segment_ <= kSegHeader || segment_ > kMaxDatagram) {
      throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                              "--segment " + std::to_string(segment_));
    }
  }
  [[nodiscard]] Kind kind() const noexcept override { return Kind::udp; }
  [[nodiscard]] bool connectionless() const noexcept override { return true; }

  std::unique_ptr<Listener> listen(std::uint16_t port) override {
    hf::Fd fd = udp_socket();
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
    if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
      throw_errno("udp bind port " + std::to_string(port));
    }
    return std::make_unique<UdpListener>(
        std::make_unique<UdpConnection>(std::move(fd), segment_, false));
  }

  std::unique_ptr<Connection> connect(const std::string& address, std::uint16_t port,
                                      std::chrono::milliseconds /*wait*/) override {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    if (::inet_pton(AF_INET, address.c_str(), &addr.sin_addr) != 1) {
      throw std::system_error(std::make_error_code(std::errc::invalid_argument),
                              "udp address \"" + address + "\" (want an IPv4 address)");
    }
    hf::Fd fd = udp_socket();
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast)
    if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) != 0) {
      throw_errno("udp connect " + address);
    }
    return std::make_unique<UdpConnection>(std::move(fd), segment_, true);
  }

 private:
  std::size_t segment_;
};

}  // namespace

std::unique_ptr<Transport> make_udp_transport(std::size_t segment) {
  return std::make_unique<UdpTransport>(segment);
}

}  // namespace hfperf
