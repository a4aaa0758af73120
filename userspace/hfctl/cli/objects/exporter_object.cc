// hfctl/cli/objects/exporter_object.cc - the "exporter" object: a Prometheus
// exporter of the counters of the network namespace hfctl runs in, until
// SIGINT or SIGTERM.
//
// With -n NETNS, hfctl enters NETNS before anything else, so both the
// listening socket and every query are in NETNS: --listen names an
// address of that namespace. Once listening, it gives up its privileges
// (exporter/privileges.h) before it serves anyone.
#include <array>
#include <chrono>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/objects.h"
#include "cli/stop_signals.h"
#include "exporter/exporter.h"
#include "exporter/listener.h"
#include "exporter/privileges.h"
#include "exporter/scrape.h"

namespace hfctl {
namespace {

void serve(const Command& command, Env& env) {
  const ListenAddress address =
      parse_listen_address(command.option("listen").value_or(std::string(kDefaultListenAddress)));
  ExporterLimits limits;
  if (const std::optional<std::string> max = command.option("max-connections")) {
    limits.max_connections = parse_max_connections(*max);
  }
  std::chrono::milliseconds cache = kDefaultQdiscCache;
  if (const std::optional<std::string> text = command.option("cache-ms")) {
    cache = parse_cache_ms(*text);
  }
  const std::optional<RunAs> run_as = choose_run_as(command.option("user"));
  const std::vector<PrometheusLabel> labels = target_labels(command.options);

  const StopSignals stop("exporter");
  ExporterCounters counters;
  QdiscCache qdiscs(cache);
  const auto metrics = [&labels, &counters, &qdiscs] {
    std::ostringstream out;
    out << scrape_prometheus(labels, &qdiscs);
    render_prometheus_exporter(out,
                               {.connections = counters.connections.load(),
                                .requests = counters.requests.load(),
                                .evicted = counters.evicted.load(),
                                .timed_out = counters.timed_out.load(),
                                .renders = counters.renders.load(),
                                .qdisc_dumps = qdiscs.dumps()},
                               labels);
    return out.str();
  };
  Exporter exporter(address, metrics, limits, &counters);
  if (run_as) {
    drop_privileges(*run_as);
  }
  env.out << "serving http://" << to_string(exporter.address()) << "/metrics\n" << std::flush;
  exporter.serve(stop.fd());
}

constexpr std::array kServeOptions{
    OptionSpec{'\0', "listen", "ADDRESS:PORT",
               "listen on a literal IPv4 or [IPv6] address (default 127.0.0.1:9477)"},
    OptionSpec{'\0', "max-connections", "N",
               "serve at most N clients at once (default 16; 1 to 1024)"},
    OptionSpec{'\0', "cache-ms", "MS",
               "dump the hfq qdiscs (under RTNL) at most once per MS milliseconds "
               "(default 1000; 0 to 600000)"},
    OptionSpec{'\0', "user", "USER[:GROUP]",
               "serve as USER (default: nobody when started as root; root to stay root)"},
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
