// hfctl/bpf/trace.cc - "hfctl trace", its pure part: argument parsing, the
// record layouts and their check against tracefs formats, the rendering of
// a TraceReport.
#include "bpf/trace.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <sstream>

#include "bpf/probe.h"
#include "cli/render.h"
#include "hf_trace.h"
#include "hyperframe/json.h"

namespace hfctl {
namespace {

constexpr std::string_view kHint = "hfctl trace help";
constexpr double kRateScale = 1024.0;  // hf_frame_size's rates: 1/1024 of the pacing rate

[[noreturn]] void usage(const std::string& message) {
  throw UsageError(message, std::string(kHint));
}

// A field of struct TYPE as TraceField (the record's own name for it).
// NOLINTNEXTLINE(cppcoreguidelines-macro-usage): offsetof needs the member's name
#define HF_TRACE_FIELD(type, member)                      \
  TraceField {                                            \
#member, offsetof(type, member), sizeof(type::member) \
  }

// The fields every peer event starts with.
// NOLINTNEXTLINE(cppcoreguidelines-macro-usage): as above
#define HF_TRACE_PEER(type) \
  HF_TRACE_FIELD(type, netns), HF_TRACE_FIELD(type, ifindex), HF_TRACE_FIELD(type, addr)

std::vector<TraceEventFormat> make_formats() {
  return {
      {"hf_frame_xmit",
       {HF_TRACE_PEER(hf_tp_frame_xmit), HF_TRACE_FIELD(hf_tp_frame_xmit, segs),
        HF_TRACE_FIELD(hf_tp_frame_xmit, bytes)}},
      {"hf_frame_recv",
       {HF_TRACE_PEER(hf_tp_frame_recv), HF_TRACE_FIELD(hf_tp_frame_recv, segs),
        HF_TRACE_FIELD(hf_tp_frame_recv, bytes)}},
      {"hf_retransmit", {HF_TRACE_PEER(hf_tp_retransmit)}},
      {"hf_credit_grant", {HF_TRACE_PEER(hf_tp_credit_grant)}},
      {"hf_credit_stall",
       {HF_TRACE_PEER(hf_tp_credit_stall), HF_TRACE_FIELD(hf_tp_credit_stall, zero_window)}},
      {"hf_frame_size",
       {HF_TRACE_PEER(hf_tp_frame_size), HF_TRACE_FIELD(hf_tp_frame_size, old_segs),
        HF_TRACE_FIELD(hf_tp_frame_size, new_segs), HF_TRACE_FIELD(hf_tp_frame_size, old_rate),
        HF_TRACE_FIELD(hf_tp_frame_size, new_rate), HF_TRACE_FIELD(hf_tp_frame_size, reason)}},
      {"hfq_enqueue",
       {HF_TRACE_FIELD(hf_tp_hfq_enqueue, netns), HF_TRACE_FIELD(hf_tp_hfq_enqueue, ifindex),
        HF_TRACE_FIELD(hf_tp_hfq_enqueue, band)}},
      {"hfq_dequeue",
       {HF_TRACE_FIELD(hf_tp_hfq_dequeue, netns), HF_TRACE_FIELD(hf_tp_hfq_dequeue, ifindex),
        HF_TRACE_FIELD(hf_tp_hfq_dequeue, band), HF_TRACE_FIELD(hf_tp_hfq_dequeue, sojourn_ns)}},
      {"hf_msg_deliver",
       {HF_TRACE_PEER(hf_tp_msg_deliver), HF_TRACE_FIELD(hf_tp_msg_deliver, len),
        HF_TRACE_FIELD(hf_tp_msg_deliver, latency_ns)}},
      {"hf_rate_hint", {HF_TRACE_PEER(hf_tp_rate_hint), HF_TRACE_FIELD(hf_tp_rate_hint, new_rate)}},
  };
}

#undef HF_TRACE_PEER
#undef HF_TRACE_FIELD

// The number after `key` ("offset:") up to the next ';' in `line`.
std::optional<std::size_t> number_after(std::string_view line, std::string_view key) {
  const std::size_t at = line.find(key);
  if (at == std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view rest = line.substr(at + key.size());
  std::size_t value = 0;
  std::size_t used = 0;
  for (const char c : rest) {
    if (c < '0' || c > '9') {
      break;
    }
    value = value * 10 + static_cast<std::size_t>(c - '0');
    ++used;
  }
  if (used == 0) {
    return std::nullopt;
  }
  return value;
}

// The peer in `counts` with the same link and address, if any.
const TracePeer* find_peer(const TraceCounts& counts, const TracePeer& peer) {
  const auto it = std::find_if(counts.peers.begin(), counts.peers.end(), [&](const TracePeer& p) {
    return p.ifindex == peer.ifindex && p.addr == peer.addr;
  });
  return it == counts.peers.end() ? nullptr : &*it;
}

// What the peer's byte counters moved since the window began.
std::pair<std::uint64_t, std::uint64_t> window_bytes(const TraceReport& report,
                                                     const TracePeer& peer) {
  const TracePeer* start = find_peer(report.window_start, peer);
  if (start == nullptr) {
    return {peer.tx_bytes, peer.rx_bytes};
  }
  return {peer.tx_bytes - start->tx_bytes, peer.rx_bytes - start->rx_bytes};
}

std::string device_name(const TraceReport& report) {
  return report.args.dev ? "dev " + *report.args.dev : "every device";
}

void render_quantiles_text(std::ostream& out, std::string_view title, const Log2Histogram& hist,
                           HistUnit unit) {
  const std::uint64_t n = hist_total(hist);
  out << "  " << title << ": ";
  if (n == 0) {
    out << "none\n";
    return;
  }
  // "<= BOUND"; in the open last bucket, "> its lower bound".
  const auto show = [unit](std::uint64_t bound) {
    const bool open = bound == bucket_high(kLog2Buckets - 1);
    const auto value = static_cast<double>(open ? bucket_low(kLog2Buckets - 1) - 1 : bound);
    return (open ? "> " : "<= ") + (unit == HistUnit::ns ? human_ns(value) : human_bytes(value));
  };
  out << n << ", p50 " << show(hist_quantile(hist, 0.5)) << ", p90 "
      << show(hist_quantile(hist, 0.9)) << ", p99 " << show(hist_quantile(hist, 0.99)) << ", max "
      << show(hist_quantile(hist, 1.0)) << "\n";
}

void render_peers_text(std::ostream& out, const TraceReport& report) {
  if (report.totals.peers.empty()) {
    out << "peers: none seen\n";
    return;
  }
  std::array<char, 160> line{};
  static_cast<void>(std::snprintf(
      line.data(), line.size(), "%-10s %-17s %12s %12s %9s %6s %7s %12s %6s %6s %5s\n", "DEV",
      "ADDR", "TX", "RX", "AVG-FRAME", "FRAME", "RATE", "HINT", "RETX", "STALLS", "MSGS"));
  out << line.data();
  for (const TracePeer& peer : report.totals.peers) {
    const auto [tx, rx] = window_bytes(report, peer);
    const std::string dev = peer.dev.empty() ? "if" + std::to_string(peer.ifindex) : peer.dev;
    const std::string frame = peer.frame_segs ? std::to_string(*peer.frame_segs) : "-";
    std::array<char, 16> rate{};
    if (peer.rate) {
      static_cast<void>(std::snprintf(rate.data(), rate.size(), "%.0f%%",
                                      100.0 * static_cast<double>(*peer.rate) / kRateScale));
    } else {
      rate.at(0) = '-';
    }
    // The receiver's hint, as a bit rate; "none" once it gives none.
    std::string hint = "-";
    if (peer.rate_hint) {
      hint = *peer.rate_hint != 0 ? human_bitrate(static_cast<double>(*peer.rate_hint))
                                  : std::string("none");
    }
    static_cast<void>(std::snprintf(
        line.data(), line.size(), "%-10s %-17s %12s %12s %9s %6s %7s %12s %6llu %6llu %5llu\n",
        dev.c_str(), format_mac(peer.addr).c_str(),
        human_bitrate(per_second(tx, report.window_seconds)).c_str(),
        human_bitrate(per_second(rx, report.window_seconds)).c_str(),
        human_bytes(average(peer.tx_bytes, peer.tx_frames)).c_str(), frame.c_str(), rate.data(),
        hint.c_str(), static_cast<unsigned long long>(peer.retransmits),
        static_cast<unsigned long long>(peer.stalls), static_cast<unsigned long long>(peer.msgs)));
    out << line.data();
  }
}

void render_text(std::ostream& out, const TraceReport& report, const Options& options) {
  const TraceCounts& t = report.totals;
  const TraceCounts& w = report.window_start;
  std::array<char, 96> head{};
  static_cast<void>(std::snprintf(head.data(), head.size(), "%.1fs", report.seconds));
  out << "hyperframe trace: netns " << report.netns << ", " << device_name(report) << ", "
      << head.data();
  if (report.live) {
    static_cast<void>(std::snprintf(head.data(), head.size(),
                                    " (rates over the last %.1fs; Ctrl-C to stop)",
                                    report.window_seconds));
    out << head.data();
  }
  out << "\n";
  out << "events (total, per second):\n";
  for (std::size_t i = 0; i < kTraceEvents; ++i) {
    std::array<char, 80> line{};
    static_cast<void>(
        std::snprintf(line.data(), line.size(), "  %-16s %12llu %10.1f/s\n",
                      std::string(kTraceEventNames.at(i)).c_str(),
                      static_cast<unsigned long long>(t.events.at(i)),
                      per_second(t.events.at(i) - w.events.at(i), report.window_seconds)));
    out << line.data();
  }
  out << "frames: sent " << t.events[trace_event::frame_xmit] << " (" << t.xmit_segs
      << " segments, avg " << human_bytes(average(t.xmit_bytes, t.events[trace_event::frame_xmit]))
      << "), received " << t.events[trace_event::frame_recv] << " (" << t.recv_segs
      << " segments, avg " << human_bytes(average(t.recv_bytes, t.events[trace_event::frame_recv]))
      << "); segments sent again: " << t.events[trace_event::retransmit] << "\n";
  out << "credit: " << t.events[trace_event::credit_grant] << " grants, "
      << t.events[trace_event::credit_stall] << " stalls (" << t.stalls_zero_window
      << " on a zero window)\n";
  out << "frame size changes: " << t.events[trace_event::frame_size];
  for (std::size_t i = 1; i < kSizeReasons.size(); ++i) {
    if (t.size_reasons.at(i) != 0) {
      out << ", " << kSizeReasons.at(i) << " " << t.size_reasons.at(i);
    }
  }
  out << "; frame size changed " << t.frame_changes << ", rate cut " << t.rate_cuts << "\n";
  out << "rate hints: " << t.events[trace_event::rate_hint] << " changes\n";
  out << "hfq:";
  for (std::size_t b = 0; b < kHfqBands.size(); ++b) {
    out << (b == 0 ? " " : ", ") << kHfqBands.at(b) << " " << t.hfq_enqueued.at(b) << " in "
        << t.hfq_dequeued.at(b) << " out";
  }
  out << "\n";
  out << "messages: " << t.events[trace_event::msg_deliver] << " delivered, "
      << human_bytes(static_cast<double>(t.deliver_bytes)) << "\n";
  out << "distributions (count, log2 bucket bounds):\n";
  render_quantiles_text(out, "frame size sent", t.xmit_bytes_hist, HistUnit::bytes);
  render_quantiles_text(out, "frame size received", t.recv_bytes_hist, HistUnit::bytes);
  for (std::size_t b = 0; b < kHfqBands.size(); ++b) {
    if (t.hfq_dequeued.at(b) != 0) {
      render_quantiles_text(out, "hfq sojourn, " + std::string(kHfqBands.at(b)),
                            t.sojourn_ns_hist.at(b), HistUnit::ns);
    }
  }
  render_quantiles_text(out, "message latency", t.latency_ns_hist, HistUnit::ns);
  render_quantiles_text(out, "message size", t.msg_bytes_hist, HistUnit::bytes);
  render_peers_text(out, report);
  if (t.peers_untracked != 0) {
    out << "peers untracked (the map was full): " << t.peers_untracked << " events\n";
  }
  if (t.missed != 0) {
    out << "missed: " << t.missed
        << " events (another BPF program was running on their CPU; counts are short)\n";
  }
  if (options.stats > 0) {
    render_hist_text(out, "frame size sent (bytes)", t.xmit_bytes_hist);
    render_hist_text(out, "frame size received (bytes)", t.recv_bytes_hist);
    for (std::size_t b = 0; b < kHfqBands.size(); ++b) {
      render_hist_text(out, "hfq sojourn, " + std::string(kHfqBands.at(b)), t.sojourn_ns_hist.at(b),
                       HistUnit::ns);
    }
    render_hist_text(out, "message latency", t.latency_ns_hist, HistUnit::ns);
    render_hist_text(out, "message size (bytes)", t.msg_bytes_hist);
  }
}

// PREFIX_p50, _p90, _p99 (bucket upper bounds; null in the open last
// bucket, which has none) and PREFIX_hist.
void quantiles_json(hf::JsonWriter& json, std::string_view prefix, const Log2Histogram& hist) {
  for (const auto& [name, q] : {std::pair{"_p50", 0.5}, {"_p90", 0.9}, {"_p99", 0.99}}) {
    const std::uint64_t bound = hist_quantile(hist, q);
    json.key(std::string(prefix) + name);
    if (bound == bucket_high(kLog2Buckets - 1)) {
      json.value(nullptr);
    } else {
      json.value(bound);
    }
  }
  hist_json(json, std::string(prefix) + "_hist", hist);
}

void peer_json(hf::JsonWriter& json, const TraceReport& report, const TracePeer& peer) {
  const auto [tx, rx] = window_bytes(report, peer);
  json.begin_object()
      .member("dev", peer.dev)
      .member("ifindex", static_cast<std::int64_t>(peer.ifindex))
      .member("addr", format_mac(peer.addr))
      .member("tx_frames", peer.tx_frames)
      .member("tx_segs", peer.tx_segs)
      .member("tx_bytes", peer.tx_bytes)
      .member("tx_bytes_per_s", per_second(tx, report.window_seconds))
      .member("rx_frames", peer.rx_frames)
      .member("rx_segs", peer.rx_segs)
      .member("rx_bytes", peer.rx_bytes)
      .member("rx_bytes_per_s", per_second(rx, report.window_seconds))
      .member("retransmits", peer.retransmits)
      .member("grants", peer.grants)
      .member("stalls", peer.stalls)
      .member("msgs", peer.msgs)
      .member("msg_bytes", peer.msg_bytes)
      .member("size_changes", peer.size_changes);
  if (peer.frame_segs) {
    json.member("frame_segs", static_cast<std::uint64_t>(*peer.frame_segs));
  } else {
    json.member("frame_segs", nullptr);
  }
  if (peer.rate) {
    json.member("rate", static_cast<double>(*peer.rate) / kRateScale);
  } else {
    json.member("rate", nullptr);
  }
  json.member("rate_hints", peer.rate_hints);
  if (peer.rate_hint) {
    json.member("rate_hint", *peer.rate_hint);
  } else {
    json.member("rate_hint", nullptr);
  }
  json.end_object();
}

void render_json(std::ostream& out, const TraceReport& report, const Options& options) {
  const TraceCounts& t = report.totals;
  hf::JsonWriter json(out, json_style(options));
  json.begin_object().member("netns", static_cast<std::uint64_t>(report.netns));
  if (report.args.dev) {
    json.member("dev", *report.args.dev);
  } else {
    json.member("dev", nullptr);
  }
  json.member("duration_s", report.seconds);
  json.key("events").begin_object();
  for (std::size_t i = 0; i < kTraceEvents; ++i) {
    json.member(kTraceEventNames.at(i), t.events.at(i));
  }
  json.end_object();
  json.key("tx")
      .begin_object()
      .member("frames", t.events[trace_event::frame_xmit])
      .member("segs", t.xmit_segs);
  json.member("bytes", t.xmit_bytes).member("retransmits", t.events[trace_event::retransmit]);
  quantiles_json(json, "frame_bytes", t.xmit_bytes_hist);
  json.end_object();
  json.key("rx")
      .begin_object()
      .member("frames", t.events[trace_event::frame_recv])
      .member("segs", t.recv_segs);
  json.member("bytes", t.recv_bytes);
  quantiles_json(json, "frame_bytes", t.recv_bytes_hist);
  json.end_object();
  json.key("credit")
      .begin_object()
      .member("grants", t.events[trace_event::credit_grant])
      .member("stalls", t.events[trace_event::credit_stall])
      .member("zero_window_stalls", t.stalls_zero_window)
      .end_object();
  json.key("frame_size").begin_object().member("changes", t.events[trace_event::frame_size]);
  json.member("frame_changes", t.frame_changes)
      .member("rate_cuts", t.rate_cuts)
      .key("reasons")
      .begin_object();
  for (std::size_t i = 1; i < kSizeReasons.size(); ++i) {
    if (i < kKnownSizeReasons || t.size_reasons.at(i) != 0) {
      json.member(kSizeReasons.at(i), t.size_reasons.at(i));
    }
  }
  json.end_object().end_object();
  json.key("rate_hints").begin_object().member("changes", t.events[trace_event::rate_hint]);
  json.end_object();
  json.key("hfq").begin_object();
  for (std::size_t b = 0; b < kHfqBands.size(); ++b) {
    json.key(kHfqBands.at(b))
        .begin_object()
        .member("enqueued", t.hfq_enqueued.at(b))
        .member("dequeued", t.hfq_dequeued.at(b));
    quantiles_json(json, "sojourn_ns", t.sojourn_ns_hist.at(b));
    json.end_object();
  }
  json.end_object();
  json.key("messages").begin_object().member("delivered", t.events[trace_event::msg_deliver]);
  json.member("bytes", t.deliver_bytes);
  quantiles_json(json, "latency_ns", t.latency_ns_hist);
  quantiles_json(json, "msg_bytes", t.msg_bytes_hist);
  json.end_object();
  json.key("peers").begin_array();
  for (const TracePeer& peer : t.peers) {
    peer_json(json, report, peer);
  }
  json.end_array();
  json.member("peers_untracked", t.peers_untracked).member("missed", t.missed).end_object();
  out << "\n";
}

}  // namespace

TraceArgs parse_trace_args(std::span<const std::string> args) {
  TraceArgs parsed;
  parse_pairs(args, kHint, [&parsed](const std::string& key, const std::string& value) {
    if (key == "dev") {
      if (value.empty()) {
        usage("dev needs a device name");
      }
      parsed.dev = value;
    } else if (key == "duration") {
      parsed.duration = parse_duration_arg(value, kHint);
    } else if (key == "interval") {
      parsed.interval = parse_duration_arg(value, kHint);
      if (parsed.interval < kMinTraceInterval) {
        usage("invalid interval \"" + value + "\" (at least " +
              std::to_string(kMinTraceInterval.count()) + "ms)");
      }
    } else {
      return false;
    }
    return true;
  });
  return parsed;
}

std::string trace_listening(const TraceArgs& args) {
  const std::string what = "tracing " + (args.dev ? *args.dev : std::string("every device"));
  if (!args.duration) {
    return what + " until SIGINT";
  }
  return what + " for " + duration_text(*args.duration) + "; SIGINT ends it early";
}

const std::vector<TraceEventFormat>& trace_event_formats() {
  static const std::vector<TraceEventFormat> formats = make_formats();
  return formats;
}

std::vector<TraceField> parse_trace_format(std::string_view text) {
  std::vector<TraceField> fields;
  constexpr std::string_view kField = "field:";
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    const std::size_t at = line.find(kField);
    if (at == std::string::npos) {
      continue;
    }
    const std::size_t end = line.find(';', at);
    if (end == std::string::npos) {
      continue;
    }
    std::string declaration = line.substr(at + kField.size(), end - at - kField.size());
    if (const std::size_t bracket = declaration.find('['); bracket != std::string::npos) {
      declaration.resize(bracket);
    }
    const std::size_t space = declaration.find_last_of(" \t*");
    const std::optional<std::size_t> offset = number_after(line, "offset:");
    const std::optional<std::size_t> size = number_after(line, "size:");
    if (!offset || !size) {
      continue;
    }
    fields.push_back(
        {.name = space == std::string::npos ? declaration : declaration.substr(space + 1),
         .offset = *offset,
         .size = *size});
  }
  return fields;
}

std::string trace_format_mismatch(const TraceEventFormat& expected,
                                  std::span<const TraceField> actual) {
  for (const TraceField& want : expected.fields) {
    const auto it = std::find_if(actual.begin(), actual.end(),
                                 [&want](const TraceField& f) { return f.name == want.name; });
    const std::string wanted = "field " + want.name + " at offset " + std::to_string(want.offset) +
                               ", size " + std::to_string(want.size);
    if (it == actual.end()) {
      return wanted + "; the module has no such field";
    }
    if (it->offset != want.offset || it->size != want.size) {
      return wanted + "; the module has it at offset " + std::to_string(it->offset) + ", size " +
             std::to_string(it->size);
    }
  }
  return "";
}

void render_trace(std::ostream& out, const TraceReport& report, const Options& options) {
  if (options.json) {
    render_json(out, report, options);
  } else {
    render_text(out, report, options);
  }
}

}  // namespace hfctl
