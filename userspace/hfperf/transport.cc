// hfperf/transport.cc - what the transports share: names, the buffer,
// the factory.
#include "transport.h"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <system_error>
#include <utility>

namespace hfperf {

const char* kind_name(Kind kind) noexcept {
  switch (kind) {
    case Kind::hf:
      return "hf";
    case Kind::tcp:
      return "tcp";
    case Kind::udp:
      return "udp";
  }
  return "?";
}

std::optional<Kind> parse_kind(const std::string& text) {
  for (const Kind kind : {Kind::hf, Kind::tcp, Kind::udp}) {
    if (text == kind_name(kind)) {
      return kind;
    }
  }
  return std::nullopt;
}

Buffer::Buffer(std::size_t size) {
  reserve(size);
}

void Buffer::reserve(std::size_t size) {
  if (size > capacity_) {
    // NOLINTNEXTLINE(*-avoid-c-arrays)
    data_ = std::make_unique_for_overwrite<std::byte[]>(size);
    capacity_ = size;
  }
}

std::unique_ptr<Transport> make_transport(Kind kind, const std::string& device,
                                          std::size_t segment) {
  switch (kind) {
    case Kind::hf:
      return make_hf_transport(device);
    case Kind::tcp:
      return make_tcp_transport();
    case Kind::udp:
      return make_udp_transport(segment);
  }
  return nullptr;
}

void throw_errno(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

void size_buffers(int fd, int bytes) {
  for (const auto& [force, plain] :
       {std::pair{SO_RCVBUFFORCE, SO_RCVBUF}, std::pair{SO_SNDBUFFORCE, SO_SNDBUF}}) {
    if (::setsockopt(fd, SOL_SOCKET, force, &bytes, sizeof(bytes)) != 0) {
      (void)::setsockopt(fd, SOL_SOCKET, plain, &bytes, sizeof(bytes));
    }
  }
}

bool wait_for(int fd, short events, std::optional<std::chrono::milliseconds> timeout) {
  if (!timeout) {
    return true;
  }
  pollfd pfd{fd, events, 0};
  for (;;) {
    const int n = ::poll(&pfd, 1, static_cast<int>(timeout->count()));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      throw_errno("poll");
    }
    return n > 0;
  }
}

}  // namespace hfperf
