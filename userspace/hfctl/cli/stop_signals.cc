// hfctl/cli/stop_signals.cc - SIGINT and SIGTERM through a signalfd.
#include "cli/stop_signals.h"

#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace hfctl {

StopSignals::StopSignals(const std::string& what) {
  sigemptyset(&signals_);
  sigaddset(&signals_, SIGINT);
  sigaddset(&signals_, SIGTERM);
  const int error = ::pthread_sigmask(SIG_BLOCK, &signals_, &previous_);
  if (error != 0) {
    throw std::system_error(error, std::generic_category(), what + ": blocking signals");
  }
  fd_.reset(::signalfd(-1, &signals_, SFD_NONBLOCK | SFD_CLOEXEC));
  if (!fd_) {
    const int saved = errno;
    ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
    throw std::system_error(saved, std::generic_category(), what + ": signalfd");
  }
}

StopSignals::~StopSignals() {
  signalfd_siginfo info{};
  while (::read(fd_.get(), &info, sizeof(info)) == static_cast<ssize_t>(sizeof(info))) {
  }
  ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
}

}  // namespace hfctl
