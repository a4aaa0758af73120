// hfctl/probe.cc - "hfctl probe", its pure part: argument parsing, the
// verdict and the rendering of a ProbeResult.
#include "probe.h"

#include <netinet/in.h>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string_view>
#include <vector>

#include "hyperframe/json.h"
#include "hyperframe/units.h"
#include "render.h"

namespace hfctl {
namespace {

constexpr std::string_view kHint = "hfctl probe help";
constexpr double kKiB = 1024.0;
// Below this many wire packets a second, per-packet cost is not the story.
constexpr double kBusyPps = 1000.0;
// Skbs this large on average are GSO/GRO already.
constexpr double kLargeSkb = 16.0 * kKiB;
// A qdisc backlog this deep is a queue worth pacing away.
constexpr std::uint64_t kDeepQueue = std::uint64_t{64} * 1024;

[[noreturn]] void usage(const std::string& message) {
  throw UsageError(message, std::string(kHint));
}

std::uint64_t parse_number(std::string_view name, std::string_view text, std::uint64_t min,
                           std::uint64_t max) {
  std::uint64_t value = 0;
  const std::string copy(text);
  std::size_t used = 0;
  try {
    value = std::stoull(copy, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != copy.size() || copy.front() == '-' || value < min || value > max) {
    usage("invalid " + std::string(name) + " \"" + copy + "\" (" + std::to_string(min) + " to " +
          std::to_string(max) + ")");
  }
  return value;
}

void render_direction_text(std::ostream& out, std::string_view name, const DirectionCounts& dir,
                           double seconds) {
  out << name << ": " << dir.skbs << " skbs (" << human_count(per_second(dir.skbs, seconds))
      << "/s), avg " << human_bytes(average(dir.bytes, dir.skbs)) << ", max "
      << human_bytes(static_cast<double>(dir.max_skb)) << ", " << dir.gso_skbs << " GSO/GRO; "
      << dir.packets << " wire packets (" << human_count(per_second(dir.packets, seconds))
      << " pps), avg " << human_bytes(average(dir.wire_bytes, dir.packets)) << "; "
      << human_bytes(per_second(dir.wire_bytes, seconds)) << "/s\n";
}

void direction_json(hf::JsonWriter& json, std::string_view name, const DirectionCounts& dir,
                    double seconds) {
  json.key(name).begin_object();
  json.member("skbs", dir.skbs)
      .member("bytes", dir.bytes)
      .member("gso_skbs", dir.gso_skbs)
      .member("packets", dir.packets)
      .member("wire_bytes", dir.wire_bytes)
      .member("max_skb_bytes", dir.max_skb)
      .member("skbs_per_s", per_second(dir.skbs, seconds))
      .member("packets_per_s", per_second(dir.packets, seconds))
      .member("wire_bytes_per_s", per_second(dir.wire_bytes, seconds))
      .member("avg_skb_bytes", average(dir.bytes, dir.skbs))
      .member("avg_packet_bytes", average(dir.wire_bytes, dir.packets));
  hist_json(json, "skb_bytes_hist", dir.skb_hist);
  hist_json(json, "packet_bytes_hist", dir.packet_hist);
  json.end_object();
}

// Takes `key value` into `parsed`; false for a key "probe" does not know.
bool take_arg(const std::string& key, const std::string& value, ProbeArgs& parsed) {
  if (key == "dev") {
    if (value.empty()) {
      usage("dev needs a device name");
    }
    parsed.dev = value;
  } else if (key == "duration") {
    parsed.duration = parse_duration_arg(value, kHint);
  } else if (key == "ethertype") {
    constexpr std::uint64_t kMinEthertype = 0x600;  // below: an 802.3 length
    const std::uint64_t type = parse_number("ethertype", value, kMinEthertype, 0xffff);
    parsed.ethertype = static_cast<std::uint16_t>(type);
  } else if (key == "proto") {
    if (value != "tcp" && value != "udp") {
      usage("invalid proto \"" + value + "\" (tcp or udp)");
    }
    parsed.ip_proto = static_cast<std::uint8_t>(value == "tcp" ? IPPROTO_TCP : IPPROTO_UDP);
  } else if (key == "port") {
    const std::uint64_t port = parse_number("port", value, 1, 0xffff);
    parsed.port = static_cast<std::uint16_t>(port);
  } else {
    return false;
  }
  return true;
}

}  // namespace

ProbeArgs parse_probe_args(std::span<const std::string> args) {
  ProbeArgs parsed;
  parse_pairs(args, kHint, [&parsed](const std::string& key, const std::string& value) {
    return take_arg(key, value, parsed);
  });
  if (parsed.dev.empty()) {
    usage("probe needs dev DEV");
  }
  if (parsed.port && !parsed.ip_proto) {
    usage("port needs proto tcp or proto udp");
  }
  if (parsed.ethertype && parsed.ip_proto) {
    usage("ethertype and proto cannot be combined (proto implies IPv4 or IPv6)");
  }
  return parsed;
}

std::string describe_filter(const ProbeArgs& args) {
  std::string text;
  if (args.ethertype) {
    std::array<char, 16> hex{};
    static_cast<void>(
        std::snprintf(hex.data(), hex.size(), "0x%04x", static_cast<unsigned>(*args.ethertype)));
    text = "ethertype " + std::string(hex.data());
  }
  if (args.ip_proto) {
    text = *args.ip_proto == IPPROTO_TCP ? "proto tcp" : "proto udp";
  }
  if (args.port) {
    text += " port " + std::to_string(*args.port);
  }
  return text;
}

std::string probe_verdict(const ProbeResult& result) {
  const DirectionCounts& dir = result.tx.wire_bytes >= result.rx.wire_bytes ? result.tx : result.rx;
  if (dir.packets == 0) {
    return "no packets matched on " + result.args.dev +
           ": nothing to judge (is traffic flowing, and does the filter match it?)";
  }
  const double pps = per_second(dir.packets, result.seconds);
  const double rate = per_second(dir.wire_bytes, result.seconds);
  const double packet = average(dir.wire_bytes, dir.packets);
  const double skb = average(dir.bytes, dir.skbs);
  const std::string moves = "flows move " + human_bytes(rate) + "/s in " + human_bytes(packet) +
                            " packets at " + human_count(pps) + " pps";
  const bool large = packet >= kLargeSkb || skb >= kLargeSkb;
  // A standing queue matters at any packet rate: a slow link queues too.
  if (result.queue && result.queue->max_backlog >= kDeepQueue) {
    return moves + "; queue depth peaks at " +
           human_bytes(static_cast<double>(result.queue->max_backlog)) +
           (large ? ": packets are large already; pacing would keep the queue short"
                  : ": larger frames and pacing would help");
  }
  if (pps < kBusyPps) {
    return moves + ": too little traffic for packet size to matter";
  }
  if (packet >= kLargeSkb) {
    return "packets are already " + human_bytes(packet) +
           " on the wire; the bottleneck is elsewhere: profile the CPU";
  }
  if (skb >= kLargeSkb) {
    return "packets are already " + human_bytes(skb) + " GSO/GRO skbs (" + human_bytes(packet) +
           " on the wire); the bottleneck is elsewhere: profile the CPU";
  }
  return moves + ": larger frames (GSO/GRO, hyperframe) would cut the per-packet cost";
}

void render_probe(std::ostream& out, const ProbeResult& result, const Options& options) {
  const std::string filter = describe_filter(result.args);
  if (options.json) {
    hf::JsonWriter json(out, json_style(options));
    json.begin_object()
        .member("dev", result.args.dev)
        .member("duration_s", result.seconds)
        .member("filter", filter);
    direction_json(json, "tx", result.tx, result.seconds);
    direction_json(json, "rx", result.rx, result.seconds);
    json.key("qdisc").begin_object().member("available", result.queue.has_value());
    if (result.queue) {
      const QueueCounts& queue = *result.queue;
      json.member("dequeues", queue.samples)
          .member("max_backlog_bytes", queue.max_backlog)
          .member("p50_backlog_bytes", hist_quantile(queue.backlog_hist, 0.5))
          .member("max_qlen", queue.max_qlen)
          .member("p50_qlen", hist_quantile(queue.qlen_hist, 0.5));
      hist_json(json, "backlog_bytes_hist", queue.backlog_hist);
      hist_json(json, "qlen_hist", queue.qlen_hist);
    }
    json.end_object();
    json.member("verdict", probe_verdict(result)).end_object();
    out << "\n";
    return;
  }
  std::array<char, 32> seconds{};
  static_cast<void>(std::snprintf(seconds.data(), seconds.size(), "%.2fs", result.seconds));
  out << "dev " << result.args.dev << " for " << seconds.data();
  if (!filter.empty()) {
    out << " (" << filter << ")";
  }
  out << "\n";
  render_direction_text(out, "tx", result.tx, result.seconds);
  render_direction_text(out, "rx", result.rx, result.seconds);
  if (!result.queue) {
    out << "qdisc: unavailable (this kernel has no qdisc:qdisc_dequeue tracepoint)\n";
  } else if (result.queue->samples == 0) {
    out << "qdisc: no dequeues (a queueless device, noqueue, or no traffic through it)\n";
  } else {
    const QueueCounts& queue = *result.queue;
    out << "qdisc: backlog max " << human_bytes(static_cast<double>(queue.max_backlog))
        << ", p50 <= " << human_bytes(static_cast<double>(hist_quantile(queue.backlog_hist, 0.5)))
        << "; queue max " << queue.max_qlen
        << " packets, p50 <= " << hist_quantile(queue.qlen_hist, 0.5) << "; over " << queue.samples
        << " dequeues\n";
  }
  render_hist_text(out, "tx skb bytes", result.tx.skb_hist);
  render_hist_text(out, "tx wire packet bytes", result.tx.packet_hist);
  render_hist_text(out, "rx skb bytes", result.rx.skb_hist);
  render_hist_text(out, "rx wire packet bytes", result.rx.packet_hist);
  if (result.queue) {
    render_hist_text(out, "qdisc backlog bytes", result.queue->backlog_hist);
  }
  out << "verdict: " << probe_verdict(result) << "\n";
}

}  // namespace hfctl
