// Unit tests for kernel/core/hf_hist.c: log2 histogram buckets, one test
// suite per function, in the order of the source.
#include <cstdint>

#include <gtest/gtest.h>

extern "C" {
#include "hf_hist.h"
}

namespace {

constexpr u32 kShift = HF_FRAME_SIZE_MIN_SHIFT;
constexpr u32 kBuckets = HF_FRAME_SIZE_BUCKETS;

TEST(hf_hist_log2_bound, frame_size_buckets) {
  // 1 KiB, 2 KiB, ... 4 MiB: 13 bounded buckets, then +Inf.
  EXPECT_EQ(1024U, hf_hist_log2_bound(0, kShift, kBuckets));
  EXPECT_EQ(2048U, hf_hist_log2_bound(1, kShift, kBuckets));
  EXPECT_EQ(4U << 20U, hf_hist_log2_bound(kBuckets - 2, kShift, kBuckets));
  EXPECT_EQ(HF_HIST_INF, hf_hist_log2_bound(kBuckets - 1, kShift, kBuckets));
}

TEST(hf_hist_log2_bound, beyond_64_bits_is_inf) {
  EXPECT_EQ(std::uint64_t{1} << 63U, hf_hist_log2_bound(3, 60, 10));
  EXPECT_EQ(HF_HIST_INF, hf_hist_log2_bound(4, 60, 10));
}

TEST(hf_hist_log2_bound, single_bucket_is_inf) {
  EXPECT_EQ(HF_HIST_INF, hf_hist_log2_bound(0, kShift, 1));
}

TEST(hf_hist_log2_bucket, bounds_are_inclusive) {
  EXPECT_EQ(0U, hf_hist_log2_bucket(0, kShift, kBuckets));
  EXPECT_EQ(0U, hf_hist_log2_bucket(1, kShift, kBuckets));
  EXPECT_EQ(0U, hf_hist_log2_bucket(1024, kShift, kBuckets));
  EXPECT_EQ(1U, hf_hist_log2_bucket(1025, kShift, kBuckets));
  EXPECT_EQ(1U, hf_hist_log2_bucket(2048, kShift, kBuckets));
  EXPECT_EQ(2U, hf_hist_log2_bucket(2049, kShift, kBuckets));
}

TEST(hf_hist_log2_bucket, large_values_in_the_last_bucket) {
  EXPECT_EQ(kBuckets - 2, hf_hist_log2_bucket(4U << 20U, kShift, kBuckets));
  EXPECT_EQ(kBuckets - 1, hf_hist_log2_bucket((4U << 20U) + 1, kShift, kBuckets));
  EXPECT_EQ(kBuckets - 1, hf_hist_log2_bucket(UINT64_MAX, kShift, kBuckets));
}

TEST(hf_hist_log2_bucket, every_value_within_its_bounds) {
  for (std::uint64_t v = 0; v < (std::uint64_t{16} << 20U); v = v * 3 / 2 + 1) {
    const u32 b = hf_hist_log2_bucket(v, kShift, kBuckets);
    ASSERT_LT(b, kBuckets);
    EXPECT_LE(v, hf_hist_log2_bound(b, kShift, kBuckets)) << v;
    if (b > 0) {
      EXPECT_GT(v, hf_hist_log2_bound(b - 1, kShift, kBuckets)) << v;
    }
  }
}

}  // namespace
