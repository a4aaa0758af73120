// hyperframe/fd.h - hf::Fd, the owner of one file descriptor: move-only,
// closed when the owner goes away.
#pragma once

namespace hf {

// Owns a file descriptor (or nothing, as -1). Moving transfers ownership;
// destruction and reset() close what is owned, ignoring close(2) errors as
// there is nothing useful to do about them.
class Fd {
 public:
  Fd() noexcept = default;
  explicit Fd(int fd) noexcept : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd();

  // The descriptor, still owned; -1 if none.
  [[nodiscard]] int get() const noexcept { return fd_; }
  // Gives up ownership without closing; returns the descriptor (or -1).
  [[nodiscard]] int release() noexcept;
  // Closes what is owned, then owns `fd`.
  void reset(int fd = -1) noexcept;
  explicit operator bool() const noexcept { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace hf
