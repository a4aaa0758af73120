// lib/fd.cc - hf::Fd, the owner of one file descriptor.
#include "hyperframe/fd.h"

#include <unistd.h>

#include <utility>

namespace hf {

Fd& Fd::operator=(Fd&& other) noexcept {
  reset(other.release());
  return *this;
}

Fd::~Fd() {
  reset();
}

int Fd::release() noexcept {
  return std::exchange(fd_, -1);
}

void Fd::reset(int fd) noexcept {
  const int old = std::exchange(fd_, fd);
  // Linux releases the descriptor even when close() fails; never retry it.
  if (old >= 0 && old != fd) {
    ::close(old);
  }
}

}  // namespace hf
