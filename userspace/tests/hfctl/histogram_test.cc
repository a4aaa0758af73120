// tests/hfctl/histogram_test.cc - unit tests of hfctl/bpf/histogram.cc: log2
// bucket bounds and quantiles, the per-CPU sums from BPF arrays, and the
// human units probe and trace print.
#include "bpf/histogram.h"

#include <array>
#include <cstdint>
#include <limits>
#include <sstream>

#include <gtest/gtest.h>

namespace {

using hfctl::Log2Histogram;

TEST(Buckets, PowersOfTwoFromZero) {
  EXPECT_EQ(hfctl::bucket_low(0), 0U);
  EXPECT_EQ(hfctl::bucket_high(0), 1U);
  EXPECT_EQ(hfctl::bucket_low(1), 2U);
  EXPECT_EQ(hfctl::bucket_high(1), 3U);
  EXPECT_EQ(hfctl::bucket_low(10), 1024U);
  EXPECT_EQ(hfctl::bucket_high(10), 2047U);
  EXPECT_EQ(hfctl::bucket_high(hfctl::kLog2Buckets - 1), std::numeric_limits<std::uint64_t>::max());
}

TEST(HistQuantile, UpperBoundOfTheBucketHoldingTheRank) {
  Log2Histogram hist{};
  EXPECT_EQ(hfctl::hist_quantile(hist, 0.5), 0U);
  hist.at(6) = 3;   // [64, 128)
  hist.at(10) = 1;  // [1024, 2048)
  EXPECT_EQ(hfctl::hist_total(hist), 4U);
  EXPECT_EQ(hfctl::hist_quantile(hist, 0.5), 127U);
  EXPECT_EQ(hfctl::hist_quantile(hist, 0.75), 127U);
  EXPECT_EQ(hfctl::hist_quantile(hist, 0.76), 2047U);
  EXPECT_EQ(hfctl::hist_quantile(hist, 1.0), 2047U);
  EXPECT_EQ(hfctl::hist_quantile(hist, 0.0), 127U);
}

TEST(AddCounts, SumsEachElementOfAnyUnsignedArray) {
  std::array<std::uint64_t, 3> into{1, 2, 3};
  // NOLINTNEXTLINE(cppcoreguidelines-avoid-c-arrays,modernize-avoid-c-arrays): as BPF fills them
  const unsigned long long cpu0[3] = {10, 20, 30};
  // NOLINTNEXTLINE(cppcoreguidelines-avoid-c-arrays,modernize-avoid-c-arrays): as BPF fills them
  const std::uint64_t cpu1[3] = {100, 0, std::numeric_limits<std::uint32_t>::max()};
  hfctl::add_counts(into, cpu0);
  hfctl::add_counts(into, cpu1);
  EXPECT_EQ(into, (std::array<std::uint64_t, 3>{111, 22, 33 + std::uint64_t{0xffffffff}}));
}

TEST(PerSecondAndAverage, ZeroWhereTheDivisorIsZero) {
  EXPECT_DOUBLE_EQ(hfctl::per_second(500, 2.0), 250.0);
  EXPECT_DOUBLE_EQ(hfctl::per_second(500, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(hfctl::average(300, 4), 75.0);
  EXPECT_DOUBLE_EQ(hfctl::average(300, 0), 0.0);
}

TEST(HumanUnits, Bytes) {
  EXPECT_EQ(hfctl::human_bytes(0), "0 B");
  EXPECT_EQ(hfctl::human_bytes(512), "512 B");
  EXPECT_EQ(hfctl::human_bytes(1023), "1023 B");
  EXPECT_EQ(hfctl::human_bytes(1448), "1.4 KiB");
  EXPECT_EQ(hfctl::human_bytes(65536), "64 KiB");
  EXPECT_EQ(hfctl::human_bytes(150.0 * 1024), "150 KiB");
  EXPECT_EQ(hfctl::human_bytes(3.0 * 1024 * 1024), "3 MiB");
  EXPECT_EQ(hfctl::human_bytes(1.5 * 1024 * 1024 * 1024), "1.5 GiB");
}

TEST(HumanUnits, Counts) {
  EXPECT_EQ(hfctl::human_count(950), "950");
  EXPECT_EQ(hfctl::human_count(12345), "12.3k");
  EXPECT_EQ(hfctl::human_count(1.2e6), "1.2M");
}

TEST(HumanUnits, Nanoseconds) {
  EXPECT_EQ(hfctl::human_ns(850), "850 ns");
  EXPECT_EQ(hfctl::human_ns(12300), "12.3 us");
  EXPECT_EQ(hfctl::human_ns(4.1e6), "4.1 ms");
  EXPECT_EQ(hfctl::human_ns(1.2e9), "1.20 s");
}

TEST(HumanUnits, BitratesFromBytesPerSecond) {
  EXPECT_EQ(hfctl::human_bitrate(0), "0 bit/s");
  EXPECT_EQ(hfctl::human_bitrate(100), "800 bit/s");
  EXPECT_EQ(hfctl::human_bitrate(1500), "12.0 kbit/s");
  EXPECT_EQ(hfctl::human_bitrate(1.25e6), "10.0 Mbit/s");
  EXPECT_EQ(hfctl::human_bitrate(1.25e9), "10.00 Gbit/s");
}

TEST(HumanUnits, PowersOfTwo) {
  EXPECT_EQ(hfctl::power_of_two(0), "0");
  EXPECT_EQ(hfctl::power_of_two(512), "512");
  EXPECT_EQ(hfctl::power_of_two(2048), "2K");
  EXPECT_EQ(hfctl::power_of_two(65536), "64K");
  EXPECT_EQ(hfctl::power_of_two(std::uint64_t{1} << 20), "1M");
  EXPECT_EQ(hfctl::power_of_two(1536), "1536");
}

TEST(RenderHist, OneLinePerNonEmptyBucketWithABar) {
  Log2Histogram hist{};
  std::ostringstream empty;
  hfctl::render_hist_text(empty, "frame size", hist);
  EXPECT_EQ(empty.str(), "");

  hist.at(11) = 4;  // [2K, 4K)
  hist.at(20) = 2;  // [1M, 2M)
  std::ostringstream out;
  hfctl::render_hist_text(out, "frame size", hist);
  EXPECT_EQ(out.str(),
            "frame size:\n"
            "  [2K, 4K)                4 ########################################\n"
            "  [1M, 2M)                2 ####################\n");
}

}  // namespace
