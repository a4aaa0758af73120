// hfctl/exporter/scrape.h - one Prometheus scrape of the network namespace
// hfctl runs in: a fresh generic netlink query each time (so a module unloaded
// and loaded again between scrapes is found again), rendered by prometheus.h;
// hyperframe_up 0 when the query fails. The hfq qdiscs, whose dump takes RTNL
// in the kernel, can come from a QdiscCache.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cli.h"
#include "exporter/prometheus.h"

namespace hfctl {

// The labels every sample of a scrape carries: namespace="NAME" when -n
// NAME was given, none otherwise (a name from /run/netns: chosen by the
// administrator, so of low cardinality).
[[nodiscard]] std::vector<PrometheusLabel> target_labels(const Options& options);

inline constexpr std::chrono::milliseconds kDefaultQdiscCache{1000};
inline constexpr std::chrono::milliseconds kMaxQdiscCache{600'000};

// "--cache-ms MS", 0 to kMaxQdiscCache. Throws UsageError.
[[nodiscard]] std::chrono::milliseconds parse_cache_ms(std::string_view text);

// The hfq qdiscs of the namespace, dumped at most once per `max_age`: the
// dump takes RTNL, the lock every change of the network configuration
// needs, so clients scraping often (or hostile ones) must not take it for
// each scrape. A dump younger than max_age is used again; 0 dumps every
// time. Not thread-safe: one renderer uses it.
class QdiscCache {
 public:
  using Clock = std::chrono::steady_clock;
  using Dump = std::function<std::vector<QdiscSample>()>;

  explicit QdiscCache(std::chrono::milliseconds max_age) noexcept : max_age_(max_age) {}

  // The samples of the last dump if it was made less than max_age before
  // `now`, else of a new `dump()` (which may throw: the cache is then
  // empty).
  [[nodiscard]] const std::vector<QdiscSample>& get(const Dump& dump, Clock::time_point now);

  // Forgets the last dump (the module went away: its qdiscs may be gone).
  void invalidate() noexcept { taken_.reset(); }

  // The dumps made so far.
  [[nodiscard]] std::uint64_t dumps() const noexcept { return dumps_; }

 private:
  std::chrono::milliseconds max_age_;
  std::optional<Clock::time_point> taken_;
  std::vector<QdiscSample> samples_;
  std::uint64_t dumps_ = 0;
};

// The exposition text of the counters, read now (hf::Control::open() and
// stats()), and of the qdiscs, from `qdiscs` when given. A failure of
// either (std::system_error: module not loaded, netlink error) gives
// hyperframe_up 0 and the error as a comment (and empties the cache).
[[nodiscard]] std::string scrape_prometheus(std::span<const PrometheusLabel> labels,
                                            QdiscCache* qdiscs = nullptr);

}  // namespace hfctl
