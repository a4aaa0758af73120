// hfctl/exporter/prometheus.cc - the kernel's counter names mapped to
// Prometheus families, and the families written out in the text exposition
// format.
#include "exporter/prometheus.h"

#include <linux/hyperframe.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
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
};

// What each counter means: the namespace counters from the uapi's
// HF_COUNTERS() (the kernel's names and order), then the gauges the
// namespace reports after them. A counter the kernel adds later is
// exported as a counter with a generic HELP until the header lists it.
// NOLINTNEXTLINE(cppcoreguidelines-macro-usage): expands the uapi's X-macro table
#define HF_KNOWN_COUNTER(e, name, help) KnownCounter{#name, MetricType::counter, help},
// clang-format off: the table's expansion is a list, not one expression
constexpr std::array kKnownCounters{
    HF_COUNTERS(HF_KNOWN_COUNTER)
    // clang-format on
    KnownCounter{"peers", MetricType::gauge, "Peers the network namespace holds state for."},
    KnownCounter{"rx_mem_bytes", MetricType::gauge, "Reassembly memory held, in bytes."},
    KnownCounter{"rx_mem_reserved_bytes", MetricType::gauge,
                 "Receive memory reserved by admitted messages, in reassembly or delivered and "
                 "not read yet, in bytes."},
    KnownCounter{"mem_bytes", MetricType::gauge,
                 "Message data the module holds in all namespaces together (the module-wide "
                 "limit, parameter mem), in bytes."},
};
#undef HF_KNOWN_COUNTER

// Counters of microseconds, exported in seconds (Prometheus's base unit)
// under another name: without the prefix and "_total".
struct SecondsCounter {
  std::string_view name;
  std::string_view seconds_name;
};
constexpr std::array kSecondsCounters{
    SecondsCounter{"tx_backoff_answered_us", "tx_backoff_answered_seconds"},
};

constexpr std::string_view kDropsHelp =
    "Frames dropped on receive, by reason (the kernel's drop_REASON counters).";
constexpr std::string_view kMalformedHelp =
    "Frames that failed to decode, by reason (drop_malformed_REASON); they sum to "
    "hyperframe_drops_total{reason=\"malformed\"}.";

// The entry of kKnownCounters named `name`; null when none.
const KnownCounter* find_known(std::string_view name) {
  const auto* found =
      std::find_if(kKnownCounters.begin(), kKnownCounters.end(),
                   [name](const KnownCounter& known) { return known.name == name; });
  return found == kKnownCounters.end() ? nullptr : found;
}

// The name in seconds of a counter of microseconds; empty for the others.
std::string_view find_seconds_name(std::string_view name) {
  const auto* found =
      std::find_if(kSecondsCounters.begin(), kSecondsCounters.end(),
                   [name](const SecondsCounter& entry) { return entry.name == name; });
  return found == kSecondsCounters.end() ? std::string_view{} : found->seconds_name;
}

std::string_view type_name(MetricType type) {
  return type == MetricType::counter ? "counter" : "gauge";
}

// A count of microseconds as seconds: whole seconds, then six digits, so
// exact whatever the count.
std::string seconds_text(std::uint64_t micros) {
  const std::string fraction = std::to_string(micros % 1000000);
  return std::to_string(micros / 1000000) + '.' + std::string(6 - fraction.size(), '0') + fraction;
}

// Adds one kernel counter to the family it belongs to, as a sample
// labelled `labels` (and its reason, if any).
void add_counter(PrometheusFamilies& families, const hf::Counter& counter,
                 std::span<const PrometheusLabel> labels) {
  const std::string_view name = counter.name;
  std::string family_name;
  MetricType type = MetricType::counter;
  std::string help;
  LabelPairs pairs = label_pairs(labels);
  std::string value = std::to_string(counter.value);
  if (name.starts_with(kMalformedDropPrefix)) {
    family_name = std::string(kPrefix) + "malformed_drops_total";
    pairs.emplace_back(kReasonLabel, name.substr(kMalformedDropPrefix.size()));
    help = kMalformedHelp;
  } else if (name.starts_with(kDropPrefix)) {
    family_name = std::string(kPrefix) + "drops_total";
    pairs.emplace_back(kReasonLabel, name.substr(kDropPrefix.size()));
    help = kDropsHelp;
  } else if (const KnownCounter* known = find_known(name); known != nullptr) {
    type = known->type;
    help = known->help;
    const std::string_view seconds_name = find_seconds_name(name);
    const bool micros = !seconds_name.empty();
    family_name = std::string(kPrefix) + std::string(micros ? seconds_name : name) +
                  (known->type == MetricType::counter ? "_total" : "");
    if (micros) {
      value = seconds_text(counter.value);
    }
  } else {
    family_name = std::string(kPrefix) + metric_name(name) + "_total";
    help = "The kernel's counter " + std::string(name) + ".";
  }
  if (family_name == kUp) {
    return;  // hyperframe_up is ours
  }
  add_sample(families, family_name, type_name(type), std::move(help), label_text(std::move(pairs)),
             value);
}

void render_up(std::ostream& out, bool up, std::span<const PrometheusLabel> labels) {
  render_family_header(out, kUp, type_name(MetricType::gauge),
                       "Whether the hyperframe counters of the network namespace could be read "
                       "(1) or not (0: the module is not loaded, or the query failed).");
  out << kUp << label_text(label_pairs(labels)) << ' ' << (up ? 1 : 0) << '\n';
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

void add_sample(PrometheusFamilies& families, const std::string& name, std::string_view type,
                std::string help, std::string labels, std::string_view value) {
  const auto [family, inserted] = families.try_emplace(name);
  if (inserted) {
    family->second.type = type;
    family->second.help = std::move(help);
  }
  family->second.samples.try_emplace(std::move(labels), value);
}

void render_family_header(std::ostream& out, std::string_view name, std::string_view type,
                          std::string_view help) {
  out << "# HELP " << name << ' ' << escape_help(help) << '\n'
      << "# TYPE " << name << ' ' << type << '\n';
}

void render_families(std::ostream& out, const PrometheusFamilies& families) {
  for (const auto& [name, family] : families) {
    render_family_header(out, name, family.type, family.help);
    for (const auto& [labels, value] : family.samples) {
      out << name << labels << ' ' << value << '\n';
    }
  }
}

void render_prometheus(std::ostream& out, std::span<const hf::Counter> counters,
                       std::span<const PrometheusLabel> labels) {
  PrometheusFamilies families;
  for (const hf::Counter& counter : counters) {
    add_counter(families, counter, labels);
  }
  render_up(out, true, labels);
  render_families(out, families);
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
  const std::string label_set = label_text(label_pairs(labels));
  for (const ExporterFamily& family : families) {
    const std::string name = std::string(kPrefix) + "exporter_" + std::string(family.name);
    render_family_header(out, name, type_name(MetricType::counter), family.help);
    out << name << label_set << ' ' << family.value << '\n';
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
