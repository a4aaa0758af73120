// Unit tests for kernel/core/hf_pace.c: the time a frame takes at a rate,
// and when the next frame may leave. Times are in nanoseconds.
#include <cstdint>

#include <gtest/gtest.h>

extern "C" {
#include "hf_pace.h"
}

namespace {

constexpr u64 kSec = 1000000000;
constexpr u64 kMs = 1000000;

TEST(hf_pace_len_ns, exact_at_common_rates) {
  EXPECT_EQ(120000U, hf_pace_len_ns(1500, 12500000));  // 1500 B at 100 Mbit/s
  EXPECT_EQ(1200U, hf_pace_len_ns(1500, 1250000000));  // at 10 Gbit/s
  EXPECT_EQ(kSec, hf_pace_len_ns(2500000, 2500000));   // one second's worth
  EXPECT_EQ(0U, hf_pace_len_ns(1, 2 * kSec));          // rounds down
}

TEST(hf_pace_len_ns, unpaced_is_zero) {
  EXPECT_EQ(0U, hf_pace_len_ns(1 << 20, 0));
}

TEST(hf_pace_len_ns, no_overflow_at_large_frames_and_rates) {
  // 1 MiB at 400 Gbit/s and 1 GiB at 1 byte/s: the product overflows 64 bits.
  EXPECT_EQ(20971U, hf_pace_len_ns(1 << 20, 50000000000ULL));
  EXPECT_EQ((u64{1} << 30) * kSec, hf_pace_len_ns(u64{1} << 30, 1));
}

TEST(hf_pace_start, waits_for_the_link) {
  EXPECT_EQ(5 * kMs, hf_pace_start(5 * kMs, 4 * kMs, kMs));
}

TEST(hf_pace_start, idle_time_is_not_banked) {
  EXPECT_EQ(9 * kMs, hf_pace_start(2 * kMs, 10 * kMs, kMs));
  EXPECT_EQ(10 * kMs, hf_pace_start(2 * kMs, 10 * kMs, 0));
  EXPECT_EQ(10 * kMs, hf_pace_start(0, 10 * kMs, 0));
}

TEST(hf_pace_start, lateness_within_slack_is_made_up) {
  EXPECT_EQ(9500000U, hf_pace_start(9500000, 10 * kMs, kMs));
}

TEST(hf_pace_start, slack_larger_than_the_clock) {
  EXPECT_EQ(0U, hf_pace_start(0, 100, kMs));
}

// A link at 2.5 MB/s whose release timer always fires 300 us late still
// moves 2.5 MB per second when the slack covers the lateness, and falls
// short without slack.
u64 bytes_in_one_second(u64 slack_ns) {
  const u64 rate = 2500000;
  const u64 len = 1514;
  u64 next = 0;
  u64 now = 0;
  u64 bytes = 0;
  while (now < kSec) {
    const u64 start = hf_pace_start(next, now, slack_ns);
    if (start > now) {
      now = start + 300000;  // the timer fires late
      continue;
    }
    next = start + hf_pace_len_ns(len, rate);
    bytes += len;
  }
  return bytes;
}

TEST(hf_pace_start, a_late_timer_keeps_the_rate_with_slack) {
  EXPECT_NEAR(2500000.0, static_cast<double>(bytes_in_one_second(kMs)), 2500000 * 0.002);
  EXPECT_LT(bytes_in_one_second(0), 2500000U * 0.85);
}

// 20 Mbit/s is 2,500,000 bytes per second: 5,000 bytes in 2 ms, three
// 1,514-byte segments and a part, so three.
TEST(hf_pace_segs, whole_segments_in_the_time) {
  EXPECT_EQ(3U, hf_pace_segs(2500000, 2 * kMs, 1514));
  EXPECT_EQ(82U, hf_pace_segs(125000000ULL / 2, 2 * kMs, 1514));  // 500 Mbit/s
  EXPECT_EQ(1U, hf_pace_segs(2500000, 2 * kMs, 5000));            // exactly one
}

TEST(hf_pace_segs, at_least_one_segment) {
  EXPECT_EQ(1U, hf_pace_segs(1000, 2 * kMs, 1514));  // 2 bytes in the time
  EXPECT_EQ(1U, hf_pace_segs(2500000, 0, 1514));
  EXPECT_EQ(5000U, hf_pace_segs(2500000, 2 * kMs, 0));  // counted as 1 byte
}

TEST(hf_pace_segs, unpaced_or_huge_has_no_limit) {
  EXPECT_EQ(HF_PACE_SEGS_ANY, hf_pace_segs(0, 2 * kMs, 1514));
  // 1 Tbit/s for an hour in 1-byte segments: beyond 32 bits, no overflow.
  EXPECT_EQ(HF_PACE_SEGS_ANY, hf_pace_segs(125000000000ULL, 3600ULL * 1000 * kMs, 1));
}

}  // namespace
