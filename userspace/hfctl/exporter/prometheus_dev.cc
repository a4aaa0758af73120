// hfctl/exporter/prometheus_dev.cc - the per-device counters and the frame size
// histogram of a network namespace in the Prometheus text format. Pure:
// values in, text out.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "exporter/prometheus.h"

namespace hfctl {
namespace {

constexpr std::string_view kDevPrefix = "hyperframe_dev_";
constexpr std::string_view kFrameSize = "hyperframe_tx_frame_size_bytes";

struct KnownDevCounter {
  std::string_view name;  // as the kernel names it
  std::string_view help;
};

constexpr std::array kKnownDevCounters{
    KnownDevCounter{"tx_frames", "Hyperframes sent through the device."},
    KnownDevCounter{"tx_segs", "DATA segments sent through the device for the first time."},
    KnownDevCounter{"tx_bytes", "Payload bytes of the DATA segments sent for the first time."},
    KnownDevCounter{"tx_retransmits", "DATA segments sent again through the device."},
    KnownDevCounter{"rx_frames", "DATA segments accepted from the device that start a hyperframe."},
    KnownDevCounter{"rx_segs", "DATA segments accepted from the device."},
    KnownDevCounter{"rx_bytes", "Payload bytes of the DATA segments accepted."},
    KnownDevCounter{"drops", "Frames received on the device and dropped (any reason)."},
};

// The HELP text of the device counter `name`.
std::string dev_help(const std::string& name) {
  const auto* known =
      std::find_if(kKnownDevCounters.begin(), kKnownDevCounters.end(),
                   [&name](const KnownDevCounter& entry) { return entry.name == name; });
  return known != kKnownDevCounters.end() ? std::string(known->help)
                                          : "The device counter " + name + ".";
}

}  // namespace

void render_prometheus_devices(std::ostream& out, std::span<const DeviceSample> devices,
                               std::span<const PrometheusLabel> labels) {
  PrometheusFamilies families;
  for (const DeviceSample& device : devices) {
    LabelPairs pairs = label_pairs(labels);
    pairs.emplace_back("dev", device.dev);
    const std::string label_set = label_text(std::move(pairs));
    for (const hf::Counter& counter : device.counters) {
      add_sample(families, std::string(kDevPrefix) + metric_name(counter.name) + "_total",
                 "counter", dev_help(counter.name), label_set, std::to_string(counter.value));
    }
  }
  render_families(out, families);
}

void render_prometheus_frame_size(std::ostream& out, const hf::Histogram& histogram,
                                  std::span<const PrometheusLabel> labels) {
  if (histogram.buckets.empty()) {
    return;  // an older module
  }
  render_family_header(out, kFrameSize, "histogram",
                       "Hyperframes sent, by payload bytes (counted when the frame starts).");
  std::uint64_t cumulative = 0;
  bool infinite = false;
  for (const hf::HistogramBucket& bucket : histogram.buckets) {
    cumulative += bucket.count;
    infinite = bucket.le == hf::HistogramBucket::kInfinity;
    LabelPairs pairs = label_pairs(labels);
    pairs.emplace_back("le", infinite ? "+Inf" : std::to_string(bucket.le));
    out << kFrameSize << "_bucket" << label_text(std::move(pairs)) << ' ' << cumulative << '\n';
  }
  if (!infinite) {
    LabelPairs pairs = label_pairs(labels);
    pairs.emplace_back("le", "+Inf");
    out << kFrameSize << "_bucket" << label_text(std::move(pairs)) << ' ' << cumulative << '\n';
  }
  const std::string label_set = label_text(label_pairs(labels));
  out << kFrameSize << "_sum" << label_set << ' ' << histogram.sum << '\n'
      << kFrameSize << "_count" << label_set << ' ' << cumulative << '\n';
}

}  // namespace hfctl
