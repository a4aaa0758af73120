// hfctl/scrape.cc - a Prometheus scrape: query the counters, render them.
#include "scrape.h"

#include <sstream>
#include <system_error>

#include "hyperframe/control.h"

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
    const std::vector<hf::Counter> counters = control.stats();
    render_prometheus(out, counters, labels);
  } catch (const std::system_error& error) {
    out.str("");
    render_prometheus_down(out, error.what(), labels);
  }
  return out.str();
}

}  // namespace hfctl
