// hfctl/exporter/scrape.cc - a Prometheus scrape: query the counters and the
// hfq qdiscs, render them.
#include "exporter/scrape.h"

#include <charconv>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "cli/objects.h"
#include "hyperframe/control.h"

namespace hfctl {
namespace {

std::vector<QdiscSample> dump_qdiscs(hf::Control& control) {
  std::vector<QdiscSample> qdiscs;
  for (hf::QdiscInfo& info : control.qdiscs()) {
    std::string dev = interface_name(info.ifindex);
    qdiscs.push_back({.dev = std::move(dev), .info = std::move(info)});
  }
  return qdiscs;
}

}  // namespace

std::vector<PrometheusLabel> target_labels(const Options& options) {
  std::vector<PrometheusLabel> labels;
  if (options.netns) {
    labels.push_back({.name = "namespace", .value = *options.netns});
  }
  return labels;
}

std::chrono::milliseconds parse_cache_ms(std::string_view text) {
  std::chrono::milliseconds::rep value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0 ||
      value > kMaxQdiscCache.count()) {
    throw UsageError("invalid --cache-ms \"" + std::string(text) + "\": milliseconds from 0 to " +
                         std::to_string(kMaxQdiscCache.count()),
                     "hfctl exporter help");
  }
  return std::chrono::milliseconds(value);
}

const std::vector<QdiscSample>& QdiscCache::get(const Dump& dump, Clock::time_point now) {
  if (taken_ && now - *taken_ < max_age_) {
    return samples_;
  }
  taken_.reset();
  samples_.clear();
  ++dumps_;
  samples_ = dump();
  taken_ = now;
  return samples_;
}

std::string scrape_prometheus(std::span<const PrometheusLabel> labels, QdiscCache* qdiscs) {
  std::ostringstream out;
  try {
    hf::Control control = hf::Control::open();
    const hf::Stats stats = control.read_stats();
    std::vector<QdiscSample> fresh;
    const std::vector<QdiscSample>& samples =
        qdiscs != nullptr
            ? qdiscs->get([&control] { return dump_qdiscs(control); }, QdiscCache::Clock::now())
            : (fresh = dump_qdiscs(control));
    std::vector<DeviceSample> devices;
    for (hf::DeviceStats& device : control.devices()) {
      std::string dev = device.ifindex == 0 ? "other" : interface_name(device.ifindex);
      if (dev.empty()) {
        dev = "if" + std::to_string(device.ifindex);
      }
      devices.push_back({.dev = std::move(dev), .counters = std::move(device.counters)});
    }
    render_prometheus(out, stats.counters, labels);
    render_prometheus_qdiscs(out, samples, labels);
    render_prometheus_frame_size(out, stats.frame_size, labels);
    render_prometheus_devices(out, devices, labels);
  } catch (const std::system_error& error) {
    if (qdiscs != nullptr) {
      qdiscs->invalidate();
    }
    out.str("");
    render_prometheus_down(out, error.what(), labels);
  }
  return out.str();
}

}  // namespace hfctl
