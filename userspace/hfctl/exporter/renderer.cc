// hfctl/exporter/renderer.cc - the metrics rendered on a thread of their own.
#include "exporter/renderer.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <exception>
#include <system_error>
#include <utility>

namespace hfctl {

Renderer::Renderer(MetricsSource source)
    : source_(std::move(source)), ready_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  if (!ready_) {
    throw std::system_error(errno, std::generic_category(), "exporter: eventfd");
  }
  thread_ = std::thread([this] { run(); });
}

Renderer::~Renderer() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

Renderer::Ticket Renderer::request() {
  const std::lock_guard lock(mutex_);
  if (wanted_ > started_) {
    return wanted_;  // asked for already, not started yet
  }
  if (running_) {
    return started_;  // the one under way answers
  }
  wanted_ = started_ + 1;
  wake_.notify_one();
  return wanted_;
}

std::optional<Renderer::Result> Renderer::collect() {
  std::uint64_t count = 0;
  // Nothing to read (EAGAIN) only means the result was taken already.
  if (::read(ready_.get(), &count, sizeof(count)) < 0 && errno != EAGAIN && errno != EINTR) {
    throw std::system_error(errno, std::generic_category(), "exporter: reading its eventfd");
  }
  const std::lock_guard lock(mutex_);
  return std::exchange(done_, std::nullopt);
}

void Renderer::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || wanted_ > started_; });
    if (stopping_) {
      return;
    }
    started_ = wanted_;
    running_ = true;
    lock.unlock();
    auto rendering = std::make_shared<Rendering>();
    try {
      rendering->text = source_();
    } catch (const std::exception& error) {
      rendering->error = error.what();
    } catch (...) {
      rendering->error = "unknown error";
    }
    lock.lock();
    running_ = false;
    done_ = Result{.ticket = started_, .rendering = std::move(rendering)};
    // An eventfd write of 8 bytes fails only when its count would pass
    // 2^64 - 2, which one write per rendering never reaches.
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t written = ::write(ready_.get(), &one, sizeof(one));
  }
}

}  // namespace hfctl
