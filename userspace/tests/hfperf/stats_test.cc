// tests/hfperf/stats_test.cc - percentiles, Jain's index and rates.
#include "stats.h"

#include <gtest/gtest.h>

namespace hfperf {
namespace {

TEST(percentile, empty_is_zero) {
  EXPECT_EQ(percentile({}, 50), 0);
}

TEST(percentile, nearest_rank) {
  const std::vector<double> sorted{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  EXPECT_EQ(percentile(sorted, 50), 5);
  EXPECT_EQ(percentile(sorted, 99), 10);
  EXPECT_EQ(percentile(sorted, 10), 1);
  EXPECT_EQ(percentile(sorted, 11), 2);
  EXPECT_EQ(percentile(sorted, 100), 10);
}

TEST(percentile, one_sample) {
  EXPECT_EQ(percentile({7}, 0.1), 7);
  EXPECT_EQ(percentile({7}, 99.9), 7);
}

TEST(summarize, sorts_and_orders) {
  std::vector<double> samples;
  for (int i = 1000; i >= 1; --i) {
    samples.push_back(i);
  }
  const Percentiles p = summarize(samples);
  EXPECT_EQ(p.samples, 1000U);
  EXPECT_EQ(p.min, 1);
  EXPECT_EQ(p.p50, 500);
  EXPECT_EQ(p.p99, 990);
  EXPECT_EQ(p.p999, 999);
  EXPECT_EQ(p.max, 1000);
  EXPECT_DOUBLE_EQ(p.mean, 500.5);
  EXPECT_LE(p.p50, p.p99);
  EXPECT_LE(p.p99, p.p999);
}

TEST(summarize, empty) {
  const Percentiles p = summarize({});
  EXPECT_EQ(p.samples, 0U);
  EXPECT_EQ(p.p99, 0);
}

TEST(jain_index, equal_is_one) {
  EXPECT_DOUBLE_EQ(jain_index({3, 3, 3, 3}), 1.0);
}

TEST(jain_index, one_takes_all) {
  EXPECT_DOUBLE_EQ(jain_index({5, 0, 0, 0}), 0.25);
}

TEST(jain_index, known_value) {
  // (1 + 3)^2 / (2 * (1 + 9)) = 0.8
  EXPECT_DOUBLE_EQ(jain_index({1, 3}), 0.8);
}

TEST(jain_index, empty_and_zero) {
  EXPECT_DOUBLE_EQ(jain_index({}), 1.0);
  EXPECT_DOUBLE_EQ(jain_index({0, 0}), 1.0);
}

TEST(bits_per_second, rates) {
  EXPECT_DOUBLE_EQ(bits_per_second(125000000, 1.0), 1e9);
  EXPECT_EQ(bits_per_second(100, 0), 0);
  EXPECT_DOUBLE_EQ(per_second(50, 0.5), 100);
  EXPECT_EQ(per_second(50, -1), 0);
}

TEST(per_mib, scales) {
  EXPECT_DOUBLE_EQ(per_mib(10, std::uint64_t{2} << 20), 5);
  EXPECT_EQ(per_mib(10, 0), 0);
}

}  // namespace
}  // namespace hfperf
