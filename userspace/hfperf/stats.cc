// hfperf/stats.cc - percentiles, Jain's index and rates.
#include "stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace hfperf {

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) {
    return 0;
  }
  // The epsilon keeps 99.9% of 1000 at rank 999 despite rounding.
  const double rank = std::ceil(p * static_cast<double>(sorted.size()) / 100.0 - 1e-9);
  auto index = static_cast<std::size_t>(std::max(rank, 1.0)) - 1;
  index = std::min(index, sorted.size() - 1);
  return sorted[index];
}

Percentiles summarize(std::vector<double> samples) {
  Percentiles result;
  if (samples.empty()) {
    return result;
  }
  std::sort(samples.begin(), samples.end());
  result.samples = samples.size();
  result.min = samples.front();
  result.max = samples.back();
  result.p50 = percentile(samples, 50);
  result.p99 = percentile(samples, 99);
  result.p999 = percentile(samples, 99.9);
  result.mean =
      std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
  return result;
}

double jain_index(const std::vector<double>& values) {
  double sum = 0;
  double squares = 0;
  for (const double v : values) {
    sum += v;
    squares += v * v;
  }
  if (values.empty() || squares <= 0) {
    return 1;
  }
  return sum * sum / (static_cast<double>(values.size()) * squares);
}

double bits_per_second(std::uint64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) * 8.0 / seconds : 0;
}

double per_second(std::uint64_t count, double seconds) {
  return seconds > 0 ? static_cast<double>(count) / seconds : 0;
}

double per_mib(double value, std::uint64_t bytes) {
  return bytes > 0 ? value * 1048576.0 / static_cast<double>(bytes) : 0;
}

}  // namespace hfperf
