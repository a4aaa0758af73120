// hfctl/scrape.cc - a Prometheus scrape: query the counters and the hfq
// qdiscs, render them.
#include "scrape.h"

#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "hyperframe/control.h"
#include "objects.h"

namespace hfctl {

std::vector<PrometheusLabel> target_labels(const Options& options) {
  std::vector<PrometheusLabel> labels;
  if (options.netns) {
    labels.push_back({.name = "namespace", .value = *options.netns});
  }
  return labels;
}

std::string scrape_prometheus(std::span<const PrometheusLabel> labels) {
  std::ostringstream out;
  try {
    hf::Control control = hf::Control::open();
    const hf::Stats stats = control.read_stats();
    std::vector<QdiscSample> qdiscs;
    for (hf::QdiscInfo& info : control.qdiscs()) {
      std::string dev = interface_name(info.ifindex);
      qdiscs.push_back({.dev = std::move(dev), .info = std::move(info)});
    }
    std::vector<DeviceSample> devices;
    for (hf::DeviceStats& device : control.devices()) {
      std::string dev = device.ifindex == 0 ? "other" : interface_name(device.ifindex);
      if (dev.empty()) {
        dev = "if" + std::to_string(device.ifindex);
      }
      devices.push_back({.dev = std::move(dev), .counters = std::move(device.counters)});
    }
    render_prometheus(out, stats.counters, labels);
    render_prometheus_qdiscs(out, qdiscs, labels);
    render_prometheus_frame_size(out, stats.frame_size, labels);
    render_prometheus_devices(out, devices, labels);
  } catch (const std::system_error& error) {
    out.str("");
    render_prometheus_down(out, error.what(), labels);
  }
  return out.str();
}

}  // namespace hfctl
