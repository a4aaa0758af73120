// hfperf/patterns/patterns.h - the modes hfperf runs, one file each, and
// the client-side steps they share (handshake, bulk loop, finish).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>

#include "options.h"
#include "protocol.h"
#include "report.h"
#include "transport.h"

namespace hfperf {

using Clock = std::chrono::steady_clock;

[[nodiscard]] inline double seconds_between(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// The modes. Each returns what it measured; errors are std::system_error.
[[nodiscard]] Report run_server(const Config& config, Transport& transport);
[[nodiscard]] Report run_pair(const Config& config, Transport& transport);  // pair, incast
[[nodiscard]] Report run_mixed(const Config& config, Transport& transport);
[[nodiscard]] Report run_alltoall(const Config& config, Transport& transport);

// A random flow id, so flows from different processes do not collide.
[[nodiscard]] std::uint64_t new_flow_id();

// Sends a message that is just `header`.
void send_header(Connection& conn, const Header& header);

// hello until hello_ack (each try waits 200 ms; a refused try is retried)
// for up to `wait`: the receiver is listening afterwards. Throws
// std::system_error(timed_out) naming `peer` when nobody answered.
void handshake(Connection& conn, std::uint64_t flow, std::chrono::milliseconds wait,
               const std::string& peer);

// fin, and the receiver's fin_ack: {bytes, messages} it counted for the
// flow. Unreliable transports retry a lost fin a few times; nullopt if no
// answer came.
[[nodiscard]] std::optional<std::pair<std::uint64_t, std::uint64_t>> finish(Connection& conn,
                                                                            std::uint64_t flow,
                                                                            bool last,
                                                                            bool reliable);

// One bulk run: messages of `size` bytes, each acknowledged by the
// receiver, at most `window` unacknowledged, until `bytes` were sent (if
// not 0), `duration` passed, or `stop` became true.
struct BulkSpec {
  std::uint64_t flow = 0;
  std::uint64_t size = 0;
  std::uint64_t bytes = 0;
  std::chrono::microseconds duration{0};
  unsigned window = 2;
  bool reliable = true;
  std::string device;
  const std::atomic<bool>* stop = nullptr;
};

// Runs it; `seq` carries message numbers across calls on one flow.
[[nodiscard]] Measurement run_bulk(Connection& conn, const BulkSpec& spec, std::uint64_t& seq);

}  // namespace hfperf
