// hfctl/exporter/prometheus_qdisc.cc - the hfq qdiscs of a network namespace in
// the Prometheus text format: one set of families, one sample per device (and
// band or reason), from hf::Control::qdiscs(). Pure: values in, text out.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "exporter/prometheus.h"

namespace hfctl {
namespace {

constexpr std::string_view kFamilyPrefix = "hyperframe_qdisc_";

// The counters of struct tc_hfq_xstats that become a label of a shared
// family; the rest become a family of their own.
struct LabelledCounter {
  std::string_view name;  // as the kernel names it
  std::string_view family;
  std::string_view label;
  std::string_view value;
};

constexpr std::array kLabelledCounters{
    LabelledCounter{"packets_control", "packets_total", "band", "control"},
    LabelledCounter{"packets_data", "packets_total", "band", "data"},
    LabelledCounter{"packets_other", "packets_total", "band", "other"},
    LabelledCounter{"drop_limit", "drops_total", "reason", "limit"},
    LabelledCounter{"drop_flow_limit", "drops_total", "reason", "flow_limit"},
    LabelledCounter{"drop_control_limit", "drops_total", "reason", "control_limit"},
    LabelledCounter{"drop_horizon", "drops_total", "reason", "horizon"},
    LabelledCounter{"drop_memory_limit", "drops_total", "reason", "memory_limit"},
};

struct FamilyHelp {
  std::string_view family;
  std::string_view help;
};

constexpr std::array kFamilyHelp{
    FamilyHelp{"packets_total", "Packets hfq sent, by band."},
    FamilyHelp{"drops_total", "Packets hfq dropped at enqueue, by reason."},
    FamilyHelp{"flow_alloc_failed_total",
               "Data flows that shared hfq's fallback queue for want of memory."},
    FamilyHelp{"throttled_total", "Times a data flow waited for its head's departure time."},
    FamilyHelp{"rate_delayed_total", "Times the device rate held a packet back."},
    FamilyHelp{"queued_packets", "Packets queued in hfq, by band."},
    FamilyHelp{"backlog_bytes", "Bytes queued in hfq."},
    FamilyHelp{"memory_bytes", "Memory (skb truesize) of what is queued in hfq."},
    FamilyHelp{"control_foreign_total",
               "Hyperframe frames other than DATA that this host's transport did not send, "
               "queued as data instead of control."},
    FamilyHelp{"control_over_share_total",
               "Times hfq's control band, its share used up, let another band go first."},
    FamilyHelp{"flows", "Data flows with packets queued in hfq."},
    FamilyHelp{"rate_bytes_per_second",
               "Rate hfq paces the whole device to, in bytes per second; 0: unpaced."},
};

std::string family_help(std::string_view family, std::string_view kernel_name) {
  const auto* found =
      std::find_if(kFamilyHelp.begin(), kFamilyHelp.end(),
                   [family](const FamilyHelp& known) { return known.family == family; });
  if (found != kFamilyHelp.end()) {
    return std::string(found->help);
  }
  return "The hfq counter " + std::string(kernel_name) + ".";
}

void add(PrometheusFamilies& families, std::string_view family, std::string_view type,
         std::string_view kernel_name, LabelPairs labels, std::uint64_t value) {
  add_sample(families, std::string(kFamilyPrefix) + std::string(family), type,
             family_help(family, kernel_name), label_text(std::move(labels)),
             std::to_string(value));
}

}  // namespace

void render_prometheus_qdiscs(std::ostream& out, std::span<const QdiscSample> qdiscs,
                              std::span<const PrometheusLabel> labels) {
  PrometheusFamilies families;
  for (const QdiscSample& qdisc : qdiscs) {
    LabelPairs base = label_pairs(labels);
    base.emplace_back("dev", qdisc.dev);
    const auto with = [&base](std::string_view name, std::string_view value) {
      LabelPairs all = base;
      all.emplace_back(name, value);
      return all;
    };
    for (const hf::Counter& counter : qdisc.info.counters) {
      const auto* labelled = std::find_if(
          kLabelledCounters.begin(), kLabelledCounters.end(),
          [&counter](const LabelledCounter& known) { return known.name == counter.name; });
      if (labelled != kLabelledCounters.end()) {
        add(families, labelled->family, "counter", counter.name,
            with(labelled->label, labelled->value), counter.value);
      } else {
        add(families, metric_name(counter.name) + "_total", "counter", counter.name, base,
            counter.value);
      }
    }
    add(families, "queued_packets", "gauge", "", with("band", "control"), qdisc.info.qlen_control);
    add(families, "queued_packets", "gauge", "", with("band", "data"), qdisc.info.qlen_data);
    add(families, "queued_packets", "gauge", "", with("band", "other"), qdisc.info.qlen_other);
    add(families, "backlog_bytes", "gauge", "", base, qdisc.info.backlog);
    add(families, "memory_bytes", "gauge", "", base, qdisc.info.memory);
    add(families, "flows", "gauge", "", base, qdisc.info.flows);
    if (qdisc.info.config.rate) {
      add(families, "rate_bytes_per_second", "gauge", "", base, *qdisc.info.config.rate);
    }
  }
  render_families(out, families);
}

}  // namespace hfctl
