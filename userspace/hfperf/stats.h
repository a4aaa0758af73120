// hfperf/stats.h - the arithmetic of the reports: latency percentiles
// (nearest rank), Jain's fairness index, rates. Pure functions, no I/O.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hfperf {

// Percentiles of a set of samples, in the samples' unit (hfperf uses
// seconds). All zero with samples == 0.
struct Percentiles {
  std::size_t samples = 0;
  double min = 0;
  double p50 = 0;
  double p99 = 0;
  double p999 = 0;
  double max = 0;
  double mean = 0;
};

// The nearest-rank percentile `p` (0 < p <= 100) of `sorted` (ascending):
// the smallest sample with at least p% of the samples at or below it.
// 0 for an empty set.
[[nodiscard]] double percentile(const std::vector<double>& sorted, double p);

// Sorts `samples` and summarises them.
[[nodiscard]] Percentiles summarize(std::vector<double> samples);

// Jain's fairness index (sum x)^2 / (n * sum x^2): 1 when all are equal,
// 1/n when one takes everything. 1 for an empty set or all zeros.
[[nodiscard]] double jain_index(const std::vector<double>& values);

// bytes * 8 / seconds; 0 when seconds is not positive.
[[nodiscard]] double bits_per_second(std::uint64_t bytes, double seconds);
// count / seconds; 0 when seconds is not positive.
[[nodiscard]] double per_second(std::uint64_t count, double seconds);
// value per MiB of `bytes`; 0 when bytes is 0.
[[nodiscard]] double per_mib(double value, std::uint64_t bytes);

}  // namespace hfperf
