// hyperframe/socket.h - hf::Socket, an open hyperframe socket owning its
// descriptor.
#pragma once

#include <sys/socket.h>

#include <utility>

#include "hyperframe/fd.h"

namespace hf {

// An address family number, spelled out so it cannot be mistaken for a
// socket type at a call site.
struct Family {
  int value;
};

// A socket of the hyperframe family. Opened close-on-exec; errors are
// std::system_error carrying errno and the call, e.g.
// "socket(AF_HYPERFRAME, SOCK_RDM): Address family not supported by protocol".
class Socket {
 public:
  // socket(hf::family(), type, protocol): the family the loaded module
  // registered. Also throws what hf::family() throws.
  explicit Socket(int type = SOCK_RDM, int protocol = 0);
  // socket(family, type, protocol), for a caller that already read the
  // family (hf::family() reads sysfs on every call).
  Socket(Family family, int type, int protocol);

  [[nodiscard]] int get() const noexcept { return fd_.get(); }
  [[nodiscard]] const Fd& fd() const noexcept { return fd_; }
  [[nodiscard]] int address_family() const noexcept { return family_; }
  // Gives up the socket, leaving this object empty.
  [[nodiscard]] Fd release() noexcept { return std::move(fd_); }

 private:
  Fd fd_;
  int family_;
};

}  // namespace hf
