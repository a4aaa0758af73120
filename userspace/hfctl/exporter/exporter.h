// hfctl/exporter/exporter.h - the Prometheus exporter's server: one poll() loop
// over a listening socket and at most max_connections clients, each
// answered once (http.h) and closed, and a thread that renders the
// metrics (renderer.h), so the loop never waits for the kernel.
//
// Bounded in every direction, against slow and hostile clients as much as
// busy ones: connections (max_connections), bytes of a request head
// (max_request, looked at once each: HeadScanner), and time per
// connection: a client has `timeout` from its connection to send its
// whole request head, however it trickles it (408 after), then the
// metrics have `timeout` to be rendered (503 after), then the client has
// `timeout` to take the answer. When every slot is taken, a new
// connection evicts the connection that has had the longest to finish
// (eviction_order()), so clients that hold connections open cannot keep a
// scrape waiting; a connection younger than `eviction_grace` is never
// evicted, so a newcomer always has time to send its request.
//
// The metrics come from a callback run on the renderer's thread for GET
// and HEAD of /metrics; requests that arrive while a rendering runs share
// it. hfctl's opens a new netlink query each time, so the server outlives
// the module being unloaded and loaded again.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "exporter/http.h"
#include "exporter/listener.h"
#include "hyperframe/fd.h"

namespace hfctl {

inline constexpr std::size_t kDefaultMaxConnections = 16;
inline constexpr std::size_t kMaxMaxConnections = 1024;
// How long a new connection is safe from eviction: time for its request
// to arrive. When every connection is younger, newcomers wait in the
// backlog: a flood of new connections is taken at max_connections per
// grace period.
inline constexpr std::chrono::milliseconds kEvictionGrace{100};

struct ExporterLimits {
  std::size_t max_connections = kDefaultMaxConnections;
  // To send the request head; then for the metrics; then to take the answer.
  std::chrono::milliseconds timeout{5000};
  std::size_t max_request = kMaxRequestSize;
  std::chrono::milliseconds eviction_grace = kEvictionGrace;
};

// What the server counts of its own work (the renderer's thread reads
// them while the loop adds to them).
struct ExporterCounters {
  std::atomic<std::uint64_t> connections{0};  // accepted
  std::atomic<std::uint64_t> requests{0};     // request heads received whole
  std::atomic<std::uint64_t> evicted{0};      // closed to make room for a newer one
  std::atomic<std::uint64_t> timed_out{0};    // closed, or answered 408 or 503, at a deadline
  std::atomic<std::uint64_t> renders{0};      // renderings of the metrics
};

// "--max-connections N", N from 1 to kMaxMaxConnections. Throws UsageError.
[[nodiscard]] std::size_t parse_max_connections(std::string_view text);

// Where a connection is in its one exchange.
enum class Phase {
  reading,   // the request head is arriving
  waiting,   // for the rendering that answers it
  writing,   // the response is going out
  draining,  // answered and shut down for writing: discarding until the client closes
  closed,
};

using ExporterClock = std::chrono::steady_clock;

// A connection as eviction sees it.
struct SlotState {
  Phase phase = Phase::reading;
  ExporterClock::time_point accepted;
};

// Whether `left` goes before `right` when a connection must be closed for
// a newcomer: an answered one (draining) first; then one still sending its
// request, the longest connected first (slow or idle clients); then one
// waiting for or taking its answer, the longest connected first.
[[nodiscard]] bool eviction_order(const SlotState& left, const SlotState& right) noexcept;

// The connection to close for a newcomer at `now`: the first in
// eviction_order() among those that are draining or were accepted at
// least `grace` before `now`; nullopt when there is none (the newcomer
// waits in the listen backlog).
[[nodiscard]] std::optional<std::size_t> choose_eviction(std::span<const SlotState> slots,
                                                         ExporterClock::time_point now,
                                                         std::chrono::milliseconds grace);

class Exporter {
 public:
  // Listens on `address` at once (throws what open_listener() throws), so
  // a bad address fails before serve() and address() has the real port.
  // `counters`, when given, must outlive the Exporter (so that `metrics`
  // may report them); else it keeps its own.
  Exporter(const ListenAddress& address, MetricsSource metrics, ExporterLimits limits = {},
           ExporterCounters* counters = nullptr);

  // The address listened on (the chosen port when given port 0).
  [[nodiscard]] const ListenAddress& address() const noexcept { return address_; }

  [[nodiscard]] const ExporterCounters& counters() const noexcept { return *counters_; }

  // Starts the renderer's thread and serves until `stop_fd` becomes
  // readable (a signalfd, an eventfd), then closes every connection, stops
  // the thread and returns. Throws std::system_error when poll() or
  // accept() fail for a reason other than a client's or a passing
  // shortage (EMFILE, ENOBUFS... pause accepting for 100 ms).
  void serve(int stop_fd);

 private:
  hf::Fd listener_;
  ListenAddress address_;
  MetricsSource metrics_;
  ExporterLimits limits_;
  ExporterCounters own_counters_;
  ExporterCounters* counters_;
};

}  // namespace hfctl
