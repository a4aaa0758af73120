// hfctl/bpf/probe.cc - "hfctl probe", its pure part: the verdict and the
// rendering (text, JSON) of a ProbeResult, the queue's time series among
// it. The arguments are probe_args.cc's.
#include "bpf/probe.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string_view>
#include <vector>

#include "cli/render.h"
#include "hyperframe/json.h"
#include "hyperframe/units.h"

namespace hfctl {
namespace {

constexpr double kKiB = 1024.0;
// Below this many wire packets a second, per-packet cost is not the story.
constexpr double kBusyPps = 1000.0;
// Skbs this large on average are GSO/GRO already.
constexpr double kLargeSkb = 16.0 * kKiB;
// A qdisc backlog this deep is a queue worth pacing away.
constexpr std::uint64_t kDeepQueue = std::uint64_t{64} * 1024;

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

// The queue at one tracepoint, as a line of text.
void render_queue_text(std::ostream& out, std::string_view side, std::string_view events,
                       const std::optional<QueueCounts>& queue) {
  out << "qdisc at " << side << ": ";
  if (!queue) {
    out << "unavailable (this kernel has no qdisc:qdisc_" << side << " tracepoint)\n";
  } else if (queue->samples == 0) {
    out << "no " << events << " (a queueless device, noqueue, or no traffic through it)\n";
  } else {
    out << "backlog max " << human_bytes(static_cast<double>(queue->max_backlog))
        << ", p50 <= " << human_bytes(static_cast<double>(hist_quantile(queue->backlog_hist, 0.5)))
        << "; queue max " << queue->max_qlen
        << " packets, p50 <= " << hist_quantile(queue->qlen_hist, 0.5) << "; over "
        << queue->samples << " " << events << "\n";
  }
}

void queue_json(hf::JsonWriter& json, std::string_view events, const QueueCounts& queue) {
  json.member(events, queue.samples)
      .member("max_backlog_bytes", queue.max_backlog)
      .member("p50_backlog_bytes", hist_quantile(queue.backlog_hist, 0.5))
      .member("max_qlen", queue.max_qlen)
      .member("p50_qlen", hist_quantile(queue.qlen_hist, 0.5));
  hist_json(json, "backlog_bytes_hist", queue.backlog_hist);
  hist_json(json, "qlen_hist", queue.qlen_hist);
}

// "1.00s", "0.10s": a time of the series, in seconds.
std::string series_time(std::chrono::milliseconds t) {
  constexpr double kMsPerSecond = 1000.0;
  std::array<char, 32> text{};
  static_cast<void>(std::snprintf(text.data(), text.size(), "%.2fs",
                                  static_cast<double>(t.count()) / kMsPerSecond));
  return text.data();
}

// The time series: a line per interval, its deepest backlog and queue
// length and a bar scaled to the deepest of all; "-" where nothing was
// enqueued or dequeued.
void render_series_text(std::ostream& out, const ProbeResult& result) {
  if (result.series.empty()) {
    return;
  }
  const std::string every = series_time(result.interval);
  const bool seen = std::any_of(result.series.begin(), result.series.end(),
                                [](const QueueInterval& slot) { return slot.samples > 0; });
  if (!seen) {
    out << "qdisc depth per " << every << ": nothing enqueued or dequeued\n";
    return;
  }
  std::uint64_t deepest = 0;
  for (const QueueInterval& slot : result.series) {
    deepest = std::max(deepest, slot.max_backlog);
  }
  constexpr std::uint64_t kBar = 40;
  out << "qdisc depth per " << every << " (the deepest in each):\n";
  for (std::size_t i = 0; i < result.series.size(); ++i) {
    const QueueInterval& slot = result.series[i];
    std::array<char, 64> line{};
    const std::string t = series_time(result.interval * static_cast<std::int64_t>(i));
    if (slot.samples == 0) {
      static_cast<void>(std::snprintf(line.data(), line.size(), "  %8s %10s", t.c_str(), "-"));
      out << line.data() << "\n";
      continue;
    }
    static_cast<void>(std::snprintf(
        line.data(), line.size(), "  %8s %10s %6llu packets", t.c_str(),
        human_bytes(static_cast<double>(slot.max_backlog)).c_str(),
        static_cast<unsigned long long>(slot.max_qlen)));  // NOLINT(google-runtime-int): %llu
    out << line.data();
    const std::uint64_t bar = deepest == 0 ? 0 : (slot.max_backlog * kBar + deepest - 1) / deepest;
    if (bar > 0) {
      out << " " << std::string(bar, '#');
    }
    out << "\n";
  }
}

void series_json(hf::JsonWriter& json, const ProbeResult& result) {
  json.member("interval_ms", static_cast<std::uint64_t>(result.interval.count()));
  json.key("series").begin_array();
  for (std::size_t i = 0; i < result.series.size(); ++i) {
    const QueueInterval& slot = result.series[i];
    json.begin_object()
        .member("t_ms", static_cast<std::uint64_t>(result.interval.count()) * i)
        .member("samples", slot.samples)
        .member("backlog_bytes_max", slot.max_backlog)
        .member("qlen_max", slot.max_qlen)
        .end_object();
  }
  json.end_array();
}

// " (skbs p50 <= 2 KiB, max 64 KiB)": the scale of the messages the stack
// hands the device (or GRO builds), where the histogram has them.
std::string skb_scale(const DirectionCounts& dir) {
  if (hist_total(dir.skb_hist) == 0) {
    return "";
  }
  // A bucket's upper bound, but no more than the largest skb seen.
  const std::uint64_t p50 = std::min(hist_quantile(dir.skb_hist, 0.5), dir.max_skb);
  return " (skbs p50 <= " + human_bytes(static_cast<double>(p50)) + ", max " +
         human_bytes(static_cast<double>(dir.max_skb)) + ")";
}

// "3 MiB / 2100 packets, in bursts: backlogged in 3 of 20 intervals": how
// deep the queue got and, from the time series, whether it stood or came
// and went.
std::string queue_scale(const ProbeResult& result) {
  std::string text = human_bytes(static_cast<double>(peak_backlog(result))) + " / " +
                     std::to_string(peak_qlen(result)) + " packets";
  if (result.series.empty()) {
    return text;
  }
  const auto backlogged = static_cast<std::size_t>(
      std::count_if(result.series.begin(), result.series.end(),
                    [](const QueueInterval& slot) { return slot.max_backlog > 0; }));
  const std::size_t total = result.series.size();
  text += backlogged * 2 > total ? ", standing" : ", in bursts";
  return text + ": backlogged in " + std::to_string(backlogged) + " of " + std::to_string(total) +
         " intervals";
}

}  // namespace

std::uint64_t peak_backlog(const ProbeResult& result) noexcept {
  return std::max(result.dequeue ? result.dequeue->max_backlog : 0,
                  result.enqueue ? result.enqueue->max_backlog : 0);
}

std::uint64_t peak_qlen(const ProbeResult& result) noexcept {
  return std::max(result.dequeue ? result.dequeue->max_qlen : 0,
                  result.enqueue ? result.enqueue->max_qlen : 0);
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
                            " packets at " + human_count(pps) + " pps" + skb_scale(dir);
  const bool large = packet >= kLargeSkb || skb >= kLargeSkb;
  // A standing queue matters at any packet rate: a slow link queues too.
  if (peak_backlog(result) >= kDeepQueue) {
    return moves + "; queue depth peaks at " + queue_scale(result) +
           (large ? "; packets are large already: pacing would keep the queue short"
                  : "; larger frames and pacing would help");
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
    // At dequeue as before; at enqueue in its own object.
    json.key("qdisc").begin_object().member("available", result.dequeue.has_value());
    if (result.dequeue) {
      queue_json(json, "dequeues", *result.dequeue);
    }
    json.key("enqueue").begin_object().member("available", result.enqueue.has_value());
    if (result.enqueue) {
      queue_json(json, "enqueues", *result.enqueue);
    }
    json.end_object();
    json.member("peak_backlog_bytes", peak_backlog(result)).member("peak_qlen", peak_qlen(result));
    series_json(json, result);
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
  render_queue_text(out, "enqueue", "enqueues", result.enqueue);
  render_queue_text(out, "dequeue", "dequeues", result.dequeue);
  render_series_text(out, result);
  render_hist_text(out, "tx skb bytes", result.tx.skb_hist);
  render_hist_text(out, "tx wire packet bytes", result.tx.packet_hist);
  render_hist_text(out, "rx skb bytes", result.rx.skb_hist);
  render_hist_text(out, "rx wire packet bytes", result.rx.packet_hist);
  if (result.enqueue) {
    render_hist_text(out, "qdisc backlog bytes at enqueue", result.enqueue->backlog_hist);
  }
  if (result.dequeue) {
    render_hist_text(out, "qdisc backlog bytes at dequeue", result.dequeue->backlog_hist);
  }
  out << "verdict: " << probe_verdict(result) << "\n";
}

}  // namespace hfctl
