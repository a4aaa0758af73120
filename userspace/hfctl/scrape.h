// hfctl/scrape.h - one Prometheus scrape of the network namespace hfctl
// runs in: a fresh generic netlink query each time (so a module unloaded
// and loaded again between scrapes is found again), rendered by
// prometheus.h; hyperframe_up 0 when the query fails.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "cli.h"
#include "prometheus.h"

namespace hfctl {

// The labels every sample of a scrape carries: namespace="NAME" when -n
// NAME was given, none otherwise (a name from /run/netns: chosen by the
// administrator, so of low cardinality).
[[nodiscard]] std::vector<PrometheusLabel> target_labels(const Options& options);

// The exposition text of the counters, read now (hf::Control::open() and
// stats()). A failure of either (std::system_error: module not loaded,
// netlink error) gives hyperframe_up 0 and the error as a comment.
[[nodiscard]] std::string scrape_prometheus(std::span<const PrometheusLabel> labels);

}  // namespace hfctl
