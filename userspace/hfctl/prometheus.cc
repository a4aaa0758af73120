// hfctl/prometheus.cc - the kernel's counter names mapped to Prometheus
// families, and the families written out in the text exposition format.
#include "prometheus.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <iomanip>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace hfctl {
namespace {

constexpr std::string_view kPrefix = "hyperframe_";
constexpr std::string_view kUp = "hyperframe_up";
constexpr std::string_view kDropPrefix = "drop_";
constexpr std::string_view kMalformedDropPrefix = "drop_malformed_";
constexpr std::string_view kReasonLabel = "reason";

enum class MetricType { counter, gauge };

struct KnownCounter {
  std::string_view name;  // as the kernel names it
  MetricType type;
  std::string_view help;
  // Prometheus wants base units: a kernel count of microseconds goes out as
  // seconds, under this name (without the prefix and "_total").
  std::string_view seconds_name = {};
};

// What each counter of kernel/hf_stats.h (and the gauges after them)
// means. A counter the kernel adds later is exported as a counter with a
// generic HELP until it is listed here.
constexpr std::array kKnownCounters{
    KnownCounter{"tx_msgs", MetricType::counter, "Messages accepted by sendmsg()."},
    KnownCounter{"tx_bytes", MetricType::counter, "Bytes of the messages accepted by sendmsg()."},
    KnownCounter{"tx_segs", MetricType::counter, "DATA segments sent for the first time."},
    KnownCounter{"tx_frames", MetricType::counter, "Hyperframes sent."},
    KnownCounter{"tx_acks", MetricType::counter, "ACKs sent."},
    KnownCounter{"tx_retransmits", MetricType::counter, "DATA segments sent again."},
    KnownCounter{"tx_rto", MetricType::counter, "Retransmission timer expiries."},
    KnownCounter{"tx_rto_spurious", MetricType::counter,
                 "Retransmission timer expiries the acks showed to be early (F-RTO)."},
    KnownCounter{"tx_xmit_errors", MetricType::counter, "Frames the device refused."},
    KnownCounter{"tx_msgs_failed", MetricType::counter, "Messages reported failed."},
    KnownCounter{"tx_msgs_delivered", MetricType::counter, "Messages the receiver confirmed."},
    KnownCounter{"tx_resets", MetricType::counter,
                 "Flows restarted because the receiver lost its state."},
    KnownCounter{"tx_challenges", MetricType::counter,
                 "Challenges of a new flow incarnation answered: the receiver held another "
                 "flow from this node and asked for proof."},
    KnownCounter{"tx_epochs", MetricType::counter, "Flow incarnations started."},
    KnownCounter{"tx_spurious_retransmits", MetricType::counter,
                 "Retransmissions the receiver already had."},
    KnownCounter{"tx_reorder_waits", MetricType::counter,
                 "Repairs held back by the reordering window."},
    KnownCounter{"tx_repairs_lost", MetricType::counter, "Repairs found lost and sent again."},
    KnownCounter{"tx_window_resends", MetricType::counter,
                 "Segments sent again because the receiver had room again."},
    KnownCounter{"tx_data_skbs", MetricType::counter,
                 "Socket buffers of new DATA handed to devices; a train of segments counts once."},
    KnownCounter{"tx_sw_segmented", MetricType::counter,
                 "Trains cut into segments in software for a device that cannot carry them."},
    KnownCounter{"tx_frame_skbs", MetricType::counter,
                 "Socket buffers of new DATA handed to the device queue; a carrier (the trains "
                 "of one hyperframe) counts once."},
    KnownCounter{"tx_carriers_split", MetricType::counter,
                 "Carriers taken apart into their trains at the device boundary."},
    KnownCounter{"tx_frame_grows", MetricType::counter,
                 "Hyperframe size doubled after a round trip without congestion."},
    KnownCounter{"tx_frame_shrinks", MetricType::counter,
                 "Hyperframe size halved after congestion or idleness."},
    KnownCounter{"tx_rate_cuts", MetricType::counter,
                 "Pacing rate scale cut on a congestion sign."},
    KnownCounter{"tx_credit_stalls", MetricType::counter,
                 "Times the window or credit closed on a sender with data waiting."},
    KnownCounter{"tx_pacing_delays", MetricType::counter,
                 "Socket buffers pacing held past the time they were built."},
    KnownCounter{"tx_pace_waits", MetricType::counter,
                 "Pushes that stopped because pacing or the device's hfq queue ran over 2 ms "
                 "ahead; a timer or an ACK pushes again."},
    KnownCounter{"tx_credit_invalid", MetricType::counter,
                 "Credit grants refused: more than max_ahead beyond the bytes sent."},
    KnownCounter{"tx_credit_probes", MetricType::counter,
                 "Segments sent beyond the credit as persist probes, nothing being in flight."},
    KnownCounter{"tx_rate_hints", MetricType::counter,
                 "Changes of a receiver's rate hint, which caps the flow's pacing rate."},
    KnownCounter{"tx_push_deferrals", MetricType::counter,
                 "Sends that waited for more acks to open the window for a full train."},
    KnownCounter{"tx_mem_waits", MetricType::counter,
                 "Sends that waited for, or were refused by, the module-wide memory limit."},
    KnownCounter{"tx_msgs_orphaned", MetricType::counter,
                 "Messages of closed sockets given up after a few timeouts because their peer "
                 "never answered."},
    KnownCounter{"tx_backoff_answered_us", MetricType::counter,
                 "Seconds flows spent at their maximum timeout backoff while the peer's acks "
                 "took data; 0 unless a peer that answers is waited for like a silent one.",
                 "tx_backoff_answered_seconds"},
    KnownCounter{"rx_segs", MetricType::counter, "DATA segments accepted."},
    KnownCounter{"rx_data_skbs", MetricType::counter,
                 "Socket buffers of DATA that arrived; a train of segments counts once."},
    KnownCounter{"rx_linearized_trains", MetricType::counter,
                 "Trains that arrived copied into one buffer (generic XDP) and were cut here."},
    KnownCounter{"rx_packed_trains", MetricType::counter,
                 "Packed trains (one header for all their segments) that arrived whole."},
    KnownCounter{"rx_packed_split", MetricType::counter,
                 "Packed trains taken apart segment by segment: some segments had arrived "
                 "before or fell outside the windows."},
    KnownCounter{"rx_carriers", MetricType::counter,
                 "Carriers (the trains of one hyperframe as one skb) that arrived whole and "
                 "were taken apart here."},
    KnownCounter{"rx_csum_local", MetricType::counter,
                 "Frames that crossed no wire with their checksum left to a device, which a "
                 "virtual link never fills: taken without verifying."},
    KnownCounter{"rx_gro_trains", MetricType::counter,
                 "Trains GRO built again from DATA segments that arrived one by one."},
    KnownCounter{"rx_gro_segs", MetricType::counter,
                 "DATA segments that arrived one by one and went up in a GRO train."},
    KnownCounter{"rx_epochs", MetricType::counter, "Flow incarnations adopted."},
    KnownCounter{"rx_challenges", MetricType::counter,
                 "New flow incarnations challenged while a flow from the same peer existed."},
    KnownCounter{"rx_lost_replies", MetricType::counter,
                 "LOST answers sent: DATA named a receiver state this node does not hold."},
    KnownCounter{"rx_acks", MetricType::counter, "ACKs accepted."},
    KnownCounter{"rx_msgs", MetricType::counter, "Messages delivered to sockets."},
    KnownCounter{"rx_bytes", MetricType::counter, "Bytes of the messages delivered to sockets."},
    KnownCounter{"rx_duplicates", MetricType::counter, "Segments received twice."},
    KnownCounter{"rx_msgs_no_port", MetricType::counter,
                 "Messages refused because no socket is bound to their port."},
    KnownCounter{"rx_msgs_other_dev", MetricType::counter,
                 "Messages refused because their port's socket is bound to another interface "
                 "(also counted in hyperframe_rx_msgs_no_port_total)."},
    KnownCounter{"rx_msgs_filtered", MetricType::counter,
                 "Messages refused by their socket's filter or a security module (also "
                 "counted in hyperframe_rx_msgs_no_port_total)."},
    KnownCounter{"rx_msgs_too_big", MetricType::counter, "Messages refused as too big."},
    KnownCounter{"rx_msgs_no_memory", MetricType::counter,
                 "Messages refused as too big for the namespace's memory limit (also counted "
                 "in hyperframe_rx_msgs_too_big_total)."},
    KnownCounter{"rx_credit_over", MetricType::counter,
                 "Payload bytes received beyond the credit granted (persist probes, or a "
                 "sender that broke its credit)."},
    KnownCounter{"rx_msgs_expired", MetricType::counter,
                 "Messages dropped in reassembly: no progress for peer_idle_ms, or their "
                 "socket closed."},
    KnownCounter{"peers_evicted", MetricType::counter,
                 "Peers evicted from a full table (max_peers) to make room for a new one: "
                 "ones that never answered, or had nothing in flight."},
    KnownCounter{"events_dropped", MetricType::counter,
                 "Events (hfctl monitor) lost for want of memory to build them."},
    KnownCounter{"peers", MetricType::gauge, "Peers the network namespace holds state for."},
    KnownCounter{"rx_mem_bytes", MetricType::gauge, "Reassembly memory held, in bytes."},
    KnownCounter{"rx_mem_reserved_bytes", MetricType::gauge,
                 "Receive memory reserved by admitted messages, in reassembly or delivered and "
                 "not read yet, in bytes."},
    KnownCounter{"mem_bytes", MetricType::gauge,
                 "Message data the module holds in all namespaces together (the module-wide "
                 "limit, parameter mem), in bytes."},
};

constexpr std::string_view kDropsHelp =
    "Frames dropped on receive, by reason (the kernel's drop_REASON counters).";
constexpr std::string_view kMalformedHelp =
    "Frames that failed to decode, by reason (drop_malformed_REASON); they sum to "
    "hyperframe_drops_total{reason=\"malformed\"}.";

struct Family {
  MetricType type = MetricType::counter;
  std::string_view help;
  std::string generic_help;  // when `help` is empty
  // By the value of the "reason" label; nullopt: no such label.
  std::map<std::optional<std::string>, std::uint64_t> samples;
  // The samples count microseconds, exported as seconds.
  bool micros = false;
};

// Characters a metric name may not hold become '_' (the kernel's names
// are [a-z0-9_] already).
const KnownCounter* find_known(std::string_view name) {
  const auto* found =
      std::find_if(kKnownCounters.begin(), kKnownCounters.end(),
                   [name](const KnownCounter& known) { return known.name == name; });
  return found == kKnownCounters.end() ? nullptr : found;
}

// Adds one kernel counter to the family it belongs to. A name seen before
// (in the same family, with the same label) keeps its first value.
void add_counter(std::map<std::string, Family>& families, const hf::Counter& counter) {
  const std::string_view name = counter.name;
  std::string family_name;
  std::optional<std::string> reason;
  Family shape;
  if (name.starts_with(kMalformedDropPrefix)) {
    family_name = std::string(kPrefix) + "malformed_drops_total";
    reason = std::string(name.substr(kMalformedDropPrefix.size()));
    shape.help = kMalformedHelp;
  } else if (name.starts_with(kDropPrefix)) {
    family_name = std::string(kPrefix) + "drops_total";
    reason = std::string(name.substr(kDropPrefix.size()));
    shape.help = kDropsHelp;
  } else if (const KnownCounter* known = find_known(name); known != nullptr) {
    shape.type = known->type;
    shape.help = known->help;
    shape.micros = !known->seconds_name.empty();
    family_name = std::string(kPrefix) + std::string(shape.micros ? known->seconds_name : name) +
                  (known->type == MetricType::counter ? "_total" : "");
  } else {
    family_name = std::string(kPrefix) + metric_name(name) + "_total";
    shape.generic_help = "The kernel's counter " + std::string(name) + ".";
  }
  if (family_name == kUp) {
    return;  // hyperframe_up is ours
  }
  const auto [family, inserted] = families.try_emplace(family_name, std::move(shape));
  static_cast<void>(inserted);
  family->second.samples.try_emplace(std::move(reason), counter.value);
}

// The label set of a sample: the target's labels and the reason, if any,
// in order of name ("{}" is written as nothing).
std::string label_set(std::span<const PrometheusLabel> labels,
                      const std::optional<std::string>& reason) {
  std::vector<std::pair<std::string_view, std::string_view>> all;
  all.reserve(labels.size() + 1);
  for (const PrometheusLabel& label : labels) {
    all.emplace_back(label.name, label.value);
  }
  if (reason) {
    all.emplace_back(kReasonLabel, *reason);
  }
  if (all.empty()) {
    return "";
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const auto& left, const auto& right) { return left.first < right.first; });
  std::string text = "{";
  for (const auto& [name, value] : all) {
    if (text.size() > 1) {
      text += ',';
    }
    text += std::string(name) + "=\"" + escape_label_value(value) + '"';
  }
  return text + '}';
}

std::string_view type_name(MetricType type) {
  return type == MetricType::counter ? "counter" : "gauge";
}

void render_header(std::ostream& out, std::string_view name, std::string_view help,
                   MetricType type) {
  out << "# HELP " << name << ' ' << escape_help(help) << '\n'
      << "# TYPE " << name << ' ' << type_name(type) << '\n';
}

void render_up(std::ostream& out, bool up, std::span<const PrometheusLabel> labels) {
  render_header(out, kUp,
                "Whether the hyperframe counters of the network namespace could be read "
                "(1) or not (0: the module is not loaded, or the query failed).",
                MetricType::gauge);
  out << kUp << label_set(labels, std::nullopt) << ' ' << (up ? 1 : 0) << '\n';
}

}  // namespace

std::string escape_label_value(std::string_view value) {
  std::string escaped;
  escaped.reserve(value.size());
  for (const char c : value) {
    switch (c) {
      case '\\':
        escaped += "\\\\";
        break;
      case '"':
        escaped += "\\\"";
        break;
      case '\n':
        escaped += "\\n";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

LabelPairs label_pairs(std::span<const PrometheusLabel> labels) {
  LabelPairs pairs;
  pairs.reserve(labels.size() + 1);
  for (const PrometheusLabel& label : labels) {
    pairs.emplace_back(label.name, label.value);
  }
  return pairs;
}

std::string label_text(LabelPairs labels) {
  if (labels.empty()) {
    return "";
  }
  std::stable_sort(labels.begin(), labels.end(),
                   [](const auto& left, const auto& right) { return left.first < right.first; });
  std::string text = "{";
  for (const auto& [name, value] : labels) {
    if (text.size() > 1) {
      text += ',';
    }
    text += name + "=\"" + escape_label_value(value) + '"';
  }
  return text + '}';
}

std::string metric_name(std::string_view name) {
  std::string result;
  result.reserve(name.size());
  for (const char c : name) {
    const bool valid =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    result += valid ? c : '_';
  }
  return result;
}

std::string escape_help(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (const char c : text) {
    if (c == '\\') {
      escaped += "\\\\";
    } else if (c == '\n') {
      escaped += "\\n";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

void render_prometheus(std::ostream& out, std::span<const hf::Counter> counters,
                       std::span<const PrometheusLabel> labels) {
  std::map<std::string, Family> families;
  for (const hf::Counter& counter : counters) {
    add_counter(families, counter);
  }
  render_up(out, true, labels);
  for (const auto& [name, family] : families) {
    render_header(out, name, family.help.empty() ? family.generic_help : family.help, family.type);
    for (const auto& [reason, value] : family.samples) {
      out << name << label_set(labels, reason) << ' ';
      if (family.micros) {
        // Whole seconds, then six digits: exact, whatever the count.
        out << value / 1000000 << '.' << std::setw(6) << std::setfill('0') << value % 1000000
            << std::setfill(' ');
      } else {
        out << value;
      }
      out << '\n';
    }
  }
}

void render_prometheus_exporter(std::ostream& out, const ExporterSample& sample,
                                std::span<const PrometheusLabel> labels) {
  struct ExporterFamily {
    std::string_view name;
    std::string_view help;
    std::uint64_t value;
  };
  const std::array families{
      ExporterFamily{"connections_total", "Connections the exporter accepted.", sample.connections},
      ExporterFamily{"requests_total", "Request heads the exporter received whole.",
                     sample.requests},
      ExporterFamily{"evicted_connections_total",
                     "Connections closed unanswered to make room for a newer one, every slot "
                     "being taken.",
                     sample.evicted},
      ExporterFamily{"timed_out_connections_total",
                     "Connections closed, or answered 408 or 503, at a deadline.",
                     sample.timed_out},
      ExporterFamily{"renders_total",
                     "Renderings of the metrics; scrapes at the same time share one.",
                     sample.renders},
      ExporterFamily{"qdisc_dumps_total",
                     "Dumps of the hfq qdiscs (each takes RTNL); within --cache-ms of one, "
                     "scrapes reuse it.",
                     sample.qdisc_dumps},
  };
  const std::string label_text = label_set(labels, std::nullopt);
  for (const ExporterFamily& family : families) {
    const std::string name = std::string(kPrefix) + "exporter_" + std::string(family.name);
    render_header(out, name, family.help, MetricType::counter);
    out << name << label_text << ' ' << family.value << '\n';
  }
}

void render_prometheus_down(std::ostream& out, std::string_view reason,
                            std::span<const PrometheusLabel> labels) {
  std::string comment(reason);
  std::replace_if(
      comment.begin(), comment.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  out << "# hyperframe counters unavailable: " << comment << '\n';
  render_up(out, false, labels);
}

}  // namespace hfctl
