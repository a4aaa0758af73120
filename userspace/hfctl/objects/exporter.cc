// hfctl/objects/exporter.cc - the "exporter" object: a Prometheus
// exporter of the counters of the network namespace hfctl runs in, until
// SIGINT or SIGTERM.
//
// With -n NETNS, hfctl enters NETNS before anything else, so both the
// listening socket and every query are in NETNS: --listen names an
// address of that namespace.
#include "exporter.h"

#include <sys/signalfd.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "cli.h"
#include "hyperframe/fd.h"
#include "listener.h"
#include "objects.h"
#include "scrape.h"

namespace hfctl {
namespace {

// SIGINT and SIGTERM as a descriptor that becomes readable: blocked for
// the thread while this lives, then unblocked again with any pending one
// consumed (it was the request to stop).
class StopSignals {
 public:
  StopSignals() {
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGINT);
    sigaddset(&signals_, SIGTERM);
    const int error = ::pthread_sigmask(SIG_BLOCK, &signals_, &previous_);
    if (error != 0) {
      throw std::system_error(error, std::generic_category(), "exporter: blocking signals");
    }
    fd_.reset(::signalfd(-1, &signals_, SFD_NONBLOCK | SFD_CLOEXEC));
    if (!fd_) {
      const int saved = errno;
      ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
      throw std::system_error(saved, std::generic_category(), "exporter: signalfd");
    }
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  StopSignals(StopSignals&&) = delete;
  StopSignals& operator=(StopSignals&&) = delete;
  ~StopSignals() {
    signalfd_siginfo info{};
    while (::read(fd_.get(), &info, sizeof(info)) == static_cast<ssize_t>(sizeof(info))) {
    }
    ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }

  [[nodiscard]] int fd() const noexcept { return fd_.get(); }

 private:
  sigset_t signals_{};
  sigset_t previous_{};
  hf::Fd fd_;
};

void serve(const Command& command, Env& env) {
  const ListenAddress address =
      parse_listen_address(command.option("listen").value_or(std::string(kDefaultListenAddress)));
  ExporterLimits limits;
  if (const std::optional<std::string> max = command.option("max-connections")) {
    limits.max_connections = parse_max_connections(*max);
  }
  const std::vector<PrometheusLabel> labels = target_labels(command.options);

  const StopSignals stop;
  Exporter exporter(
      address, [&labels] { return scrape_prometheus(labels); }, limits);
  env.out << "serving http://" << to_string(exporter.address()) << "/metrics\n" << std::flush;
  exporter.serve(stop.fd());
}

constexpr std::array kServeOptions{
    OptionSpec{'\0', "listen", "ADDRESS:PORT",
               "listen on a literal IPv4 or [IPv6] address (default 127.0.0.1:9477)"},
    OptionSpec{'\0', "max-connections", "N",
               "serve at most N clients at once (default 16; 1 to 1024)"},
};

constexpr std::array kCommands{
    CommandSpec{.name = "serve",
                .synopsis = "",
                .summary = "serve GET /metrics (Prometheus text format) until SIGINT or SIGTERM",
                .max_args = 0,
                .run = &serve,
                .options = kServeOptions},
};

}  // namespace

constexpr ObjectSpec kExporterObject{
    .name = "exporter",
    .summary = "a Prometheus exporter of the namespace's counters over HTTP",
    .commands = kCommands,
    .default_command = "serve",
};

}  // namespace hfctl
