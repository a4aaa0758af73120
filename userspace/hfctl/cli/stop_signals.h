// hfctl/cli/stop_signals.h - SIGINT and SIGTERM as a descriptor, for the
// commands that run until told to stop (exporter, monitor): poll it with
// the rest, and end cleanly (exit status 0) once it is readable.
#pragma once

#include <csignal>
#include <string>

#include "hyperframe/fd.h"

namespace hfctl {

// SIGINT and SIGTERM as a descriptor that becomes readable: blocked for
// the thread while this lives, then unblocked again with any pending one
// consumed (it was the request to stop).
class StopSignals {
 public:
  // Throws std::system_error, "<what>: blocking signals" or "<what>: signalfd".
  explicit StopSignals(const std::string& what);
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  StopSignals(StopSignals&&) = delete;
  StopSignals& operator=(StopSignals&&) = delete;
  ~StopSignals();

  [[nodiscard]] int fd() const noexcept { return fd_.get(); }

 private:
  sigset_t signals_{};
  sigset_t previous_{};
  hf::Fd fd_;
};

}  // namespace hfctl
