// hfctl/probe.h - "hfctl probe", its pure part: the command's arguments,
// the counts the BPF programs gather as plain values (their log2
// histograms: histogram.h), the plain-words verdict and the rendering
// (text or JSON). No system calls; probe_bpf.h does the measuring.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "cli.h"
#include "histogram.h"

namespace hfctl {

// "dev DEV [ duration DURATION ] [ ethertype ETHERTYPE | proto tcp|udp
// [ port PORT ] ]".
struct ProbeArgs {
  std::string dev;
  std::chrono::milliseconds duration{5000};
  std::optional<std::uint16_t> ethertype;  // host order
  std::optional<std::uint8_t> ip_proto;    // IPPROTO_TCP or IPPROTO_UDP
  std::optional<std::uint16_t> port;       // source or destination

  friend bool operator==(const ProbeArgs&, const ProbeArgs&) = default;
};

// Throws UsageError (hint "hfctl probe help").
[[nodiscard]] ProbeArgs parse_probe_args(std::span<const std::string> args);

// The filter in the words of the command line: "proto tcp port 5201",
// "ethertype 0x88b5", "" for none.
[[nodiscard]] std::string describe_filter(const ProbeArgs& args);

// One direction of a device, as the programs counted it.
struct DirectionCounts {
  std::uint64_t skbs = 0;
  std::uint64_t bytes = 0;
  std::uint64_t gso_skbs = 0;
  std::uint64_t packets = 0;  // wire packets
  std::uint64_t wire_bytes = 0;
  std::uint64_t max_skb = 0;
  Log2Histogram skb_hist{};
  Log2Histogram packet_hist{};

  friend bool operator==(const DirectionCounts&, const DirectionCounts&) = default;
};

// The device's qdisc depth after each dequeue; absent when the kernel has
// no qdisc:qdisc_dequeue tracepoint.
struct QueueCounts {
  std::uint64_t samples = 0;
  std::uint64_t max_backlog = 0;  // bytes
  std::uint64_t max_qlen = 0;     // packets
  Log2Histogram backlog_hist{};
  Log2Histogram qlen_hist{};

  friend bool operator==(const QueueCounts&, const QueueCounts&) = default;
};

// What one run of the probe measured.
struct ProbeResult {
  ProbeArgs args;
  double seconds = 0;  // how long the programs were attached
  DirectionCounts tx;
  DirectionCounts rx;
  std::optional<QueueCounts> queue;
};

// The verdict in plain words, one sentence.
[[nodiscard]] std::string probe_verdict(const ProbeResult& result);

// "hfctl probe": a table per direction, the queue, the verdict; or one JSON
// object in base units (-j).
void render_probe(std::ostream& out, const ProbeResult& result, const Options& options);

}  // namespace hfctl
