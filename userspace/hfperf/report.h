// hfperf/report.h - what a run measured, and its two renderings: a human
// table (the default) and one JSON object (-j). Rendering only; the
// patterns fill the structures.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cpu.h"
#include "stats.h"

namespace hfperf {

// One message size of pair or incast, or mixed's bulk flow.
struct Measurement {
  std::uint64_t size = 0;         // bytes per message
  std::uint64_t messages = 0;     // messages acknowledged by the receiver
  std::uint64_t bytes = 0;        // bytes of those messages (delivered)
  std::uint64_t bytes_asked = 0;  // --bytes, or 0 with --duration
  std::uint64_t sent = 0;         // messages sent
  std::uint64_t lost = 0;         // sent but never acknowledged (udp only)
  double seconds = 0;             // first send to last acknowledgement
  Percentiles latency;            // send start to acknowledgement, seconds
  Usage usage;
};

// All-to-all at one node.
struct Rounds {
  unsigned rank = 0;
  unsigned nodes = 0;
  std::uint64_t bytes_per_peer = 0;
  std::uint64_t rounds_asked = 0;
  std::uint64_t rounds_done = 0;
  std::uint64_t bytes_received = 0;
  std::uint64_t bytes_expected = 0;
  std::uint64_t bytes_sent = 0;
  double seconds = 0;                 // all rounds
  std::vector<double> round_seconds;  // each round, in order
  Percentiles round;                  // of round_seconds
  Usage usage;
};

// One flow as the server saw it. Its time runs from the first message's
// arrival to the last's, so the first message's bytes arrived before it:
// goodput counts the bytes after them.
struct Flow {
  std::uint64_t id = 0;
  std::uint64_t bytes = 0;  // all messages
  std::uint64_t messages = 0;
  std::uint64_t first_bytes = 0;  // the first message's
  double seconds = 0;             // first to last message received
};

// Bits per second of FLOW's messages after its first (0 with one message).
[[nodiscard]] double flow_goodput(const Flow& flow);

struct Report {
  std::string mode;       // pair, incast, mixed, a2a, server
  std::string transport;  // hf, tcp, udp
  std::string peer;
  std::vector<Measurement> sizes;
  std::optional<Percentiles> rtt;             // mixed: the ping-pong round trips
  std::uint64_t pings_lost = 0;               // mixed over udp
  std::optional<Rounds> rounds;               // a2a
  std::vector<Flow> flows;                    // server
  std::optional<double> jain;                 // server: over the flows' goodput
  std::optional<std::uint64_t> server_bytes;  // client: the receiver's count at the end
  std::optional<std::uint64_t> server_messages;
};

// The human table, several lines ending in a newline.
[[nodiscard]] std::string render_table(const Report& report);
// One JSON object, then a newline.
void write_json(std::ostream& out, const Report& report);

// "9.41 Gbit/s", "812 Mbit/s", "0 bit/s".
[[nodiscard]] std::string format_rate(double bits_per_second);
// "12.5us", "3.20ms", "1.50s".
[[nodiscard]] std::string format_seconds(double seconds);

}  // namespace hfperf
