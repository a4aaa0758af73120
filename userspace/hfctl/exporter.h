// hfctl/exporter.h - the Prometheus exporter's server: one thread, one
// poll() loop over a listening socket and at most max_connections
// clients, each answered once (http.h) and closed. Bounded in every
// direction: connections, bytes of a request head, and time per
// connection (a client that does not finish its request within `timeout`
// gets 408; one that does not take its response is dropped). While at
// max_connections, new connections wait in the listen backlog.
//
// The metrics come from a callback run in the loop for each GET or HEAD
// of /metrics (hfctl's opens a new netlink query each time, so the server
// outlives the module being unloaded and loaded again).
#pragma once

#include <chrono>
#include <cstddef>
#include <string_view>

#include "http.h"
#include "hyperframe/fd.h"
#include "listener.h"

namespace hfctl {

inline constexpr std::size_t kDefaultMaxConnections = 16;
inline constexpr std::size_t kMaxMaxConnections = 1024;

struct ExporterLimits {
  std::size_t max_connections = kDefaultMaxConnections;
  std::chrono::milliseconds timeout{5000};  // to send a request, then again to take the answer
  std::size_t max_request = kMaxRequestSize;
};

// "--max-connections N", N from 1 to kMaxMaxConnections. Throws UsageError.
[[nodiscard]] std::size_t parse_max_connections(std::string_view text);

class Exporter {
 public:
  // Listens on `address` at once (throws what open_listener() throws), so
  // a bad address fails before serve() and address() has the real port.
  Exporter(const ListenAddress& address, MetricsSource metrics, ExporterLimits limits = {});

  // The address listened on (the chosen port when given port 0).
  [[nodiscard]] const ListenAddress& address() const noexcept { return address_; }

  // Serves until `stop_fd` becomes readable (a signalfd, an eventfd), then
  // closes every connection and returns. Throws std::system_error when
  // poll() or accept() fail for a reason other than a client's or a
  // passing shortage (EMFILE, ENOBUFS... pause accepting for 100 ms).
  void serve(int stop_fd);

 private:
  hf::Fd listener_;
  ListenAddress address_;
  MetricsSource metrics_;
  ExporterLimits limits_;
};

}  // namespace hfctl
