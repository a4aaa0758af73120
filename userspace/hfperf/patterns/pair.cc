// hfperf/patterns/pair.cc - pair (and incast, its one-size form run by
// several senders at once): bulk from this client to one server, one
// measurement per message size, then a fin so the report carries the
// receiver's own byte count next to the acknowledged one.
#include "patterns/patterns.h"

namespace hfperf {

Report run_pair(const Config& config, Transport& transport) {
  Report report;
  report.mode = mode_name(config.mode);
  report.transport = kind_name(transport.kind());
  report.peer = config.peer;
  const bool reliable = transport.kind() != Kind::udp;
  const auto conn = transport.connect(config.peer, config.port, config.wait);
  const std::uint64_t flow = new_flow_id();
  handshake(*conn, flow, config.wait, config.peer);
  std::uint64_t seq = 0;
  for (const auto size : config.sizes) {
    BulkSpec spec;
    spec.flow = flow;
    spec.size = size;
    spec.bytes = config.bytes;
    spec.duration = config.duration;
    spec.window = config.window != 0 ? config.window : auto_window(size);
    spec.reliable = reliable;
    spec.device = config.device;
    report.sizes.push_back(run_bulk(*conn, spec, seq));
  }
  if (const auto totals = finish(*conn, flow, true, reliable)) {
    report.server_bytes = totals->first;
    report.server_messages = totals->second;
  }
  return report;
}

}  // namespace hfperf
