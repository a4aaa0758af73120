// hfctl/bpf/probe.h - "hfctl probe", its pure part: the command's arguments
// (probe_args.cc), the counts the BPF programs gather as plain values
// (their log2 histograms: histogram.h), the plain-words verdict and the
// rendering, text or JSON (probe.cc). No system calls; probe_bpf.h does
// the measuring.
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
#include <vector>

#include "bpf/histogram.h"
#include "cli/cli.h"

namespace hfctl {

// An IPv4 or IPv6 address as it is on the wire.
struct IpAddress {
  std::array<std::uint8_t, 16> bytes{};
  std::size_t size = 0;  // 4 or 16

  [[nodiscard]] std::span<const std::uint8_t> view() const noexcept { return {bytes.data(), size}; }
  friend bool operator==(const IpAddress&, const IpAddress&) = default;
};

// "dev DEV [ duration DURATION ] [ interval INTERVAL ] [ ethertype
// ETHERTYPE | [ proto tcp|udp ] [ src ADDR ] [ dst ADDR ] [ sport PORT ]
// [ dport PORT ] [ port PORT ] ]".
struct ProbeArgs {
  std::string dev;
  std::chrono::milliseconds duration{5000};
  // Of the queue's time series; absent: duration / kProbeDefaultIntervals.
  std::optional<std::chrono::milliseconds> interval;
  std::optional<std::uint16_t> ethertype;  // host order
  std::optional<std::uint8_t> ip_proto;    // IPPROTO_TCP or IPPROTO_UDP
  // IPv4 (4 bytes) or IPv6 (16), network order; both of one family.
  std::optional<IpAddress> src;
  std::optional<IpAddress> dst;
  std::optional<std::uint16_t> sport;
  std::optional<std::uint16_t> dport;
  std::optional<std::uint16_t> port;  // source or destination

  friend bool operator==(const ProbeArgs&, const ProbeArgs&) = default;
};

// The queue's time series: this many intervals unless "interval" is given,
// and at most kProbeMaxIntervals (bpf/hf_probe.h's HF_PROBE_SLOTS).
inline constexpr std::size_t kProbeDefaultIntervals = 20;
inline constexpr std::size_t kProbeMaxIntervals = 256;

// Throws UsageError (hint "hfctl probe help").
[[nodiscard]] ProbeArgs parse_probe_args(std::span<const std::string> args);

// The interval of the time series, and how many of them the duration
// holds (the last may be cut short).
[[nodiscard]] std::chrono::milliseconds probe_interval(const ProbeArgs& args) noexcept;
[[nodiscard]] std::size_t probe_intervals(const ProbeArgs& args) noexcept;

// The filter in the words of the command line: "proto tcp dst 10.0.0.2
// dport 5201", "ethertype 0x88b5", "" for none.
[[nodiscard]] std::string describe_filter(const ProbeArgs& args);

// A duration as a DURATION argument would say it: "5s", "250ms".
[[nodiscard]] std::string duration_text(std::chrono::milliseconds ms);

// What a probe says on standard error once its programs are attached, as
// tcpdump's "listening on": "listening on eth0 for 20s, proto udp port
// 5202; SIGINT ends it early". A script waits for it before it starts the
// traffic to measure.
[[nodiscard]] std::string probe_listening(const ProbeArgs& args);

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

// The device's qdisc depth at one of its tracepoints: after each dequeue
// that returned a packet, or after each enqueue.
struct QueueCounts {
  std::uint64_t samples = 0;
  std::uint64_t max_backlog = 0;  // bytes
  std::uint64_t max_qlen = 0;     // packets
  Log2Histogram backlog_hist{};
  Log2Histogram qlen_hist{};

  friend bool operator==(const QueueCounts&, const QueueCounts&) = default;
};

// One interval of the queue's time series: the deepest the queue was at
// the enqueues and dequeues in it (samples: how many; 0, nothing seen).
struct QueueInterval {
  std::uint64_t samples = 0;
  std::uint64_t max_backlog = 0;  // bytes
  std::uint64_t max_qlen = 0;     // packets

  friend bool operator==(const QueueInterval&, const QueueInterval&) = default;
};

// What one run of the probe measured.
struct ProbeResult {
  ProbeArgs args;
  double seconds = 0;  // how long the programs were attached
  DirectionCounts tx;
  DirectionCounts rx;
  // Absent when the kernel has no qdisc:qdisc_dequeue, qdisc:qdisc_enqueue.
  std::optional<QueueCounts> dequeue;
  std::optional<QueueCounts> enqueue;
  // Interval i covers [i * interval, (i + 1) * interval) of the run; as
  // many as the run lasted, at most probe_intervals(); empty without either
  // qdisc tracepoint.
  std::chrono::milliseconds interval{0};
  std::vector<QueueInterval> series;
};

// The deepest the qdisc was seen, at enqueue or dequeue: bytes, packets.
[[nodiscard]] std::uint64_t peak_backlog(const ProbeResult& result) noexcept;
[[nodiscard]] std::uint64_t peak_qlen(const ProbeResult& result) noexcept;

// The verdict in plain words, one sentence.
[[nodiscard]] std::string probe_verdict(const ProbeResult& result);

// "hfctl probe": a table per direction, the queue, the verdict; or one JSON
// object in base units (-j).
void render_probe(std::ostream& out, const ProbeResult& result, const Options& options);

}  // namespace hfctl
