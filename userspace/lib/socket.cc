// lib/socket.cc - hf::Socket: socket(2) on the hyperframe family, with
// errors that name the call.
#include "hyperframe/socket.h"

#include <cerrno>
#include <string>
#include <system_error>

#include "hyperframe/sysfs.h"

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

}  // namespace

Socket::Socket(int type, int protocol) : Socket(Family{hf::family()}, type, protocol) {}

Socket::Socket(Family family, int type, int protocol)
    : fd_(open_socket(family.value, type, protocol)), family_(family.value) {}

}  // namespace hf
