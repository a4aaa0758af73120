// Unit tests for kernel/core/hf_reorder.c: the reordering window and the
// time test of RACK-style loss detection. Times are in nanoseconds unless
// a name says _us.
#include <cstdint>

#include <gtest/gtest.h>

extern "C" {
#include "hf_reorder.h"
}

namespace {

constexpr u64 kMs = 1000000;
constexpr u64 kNever = ~u64{0};

hf_reorder fresh() {
  hf_reorder r{};
  hf_reorder_init(&r);
  return r;
}

// A flow whose recoveries have shown no reordering: the narrowest window.
hf_reorder narrowed() {
  hf_reorder r = fresh();
  for (u32 i = 0; i < HF_REORDER_CLEAN_RESET; i++) {
    hf_reorder_recovered(&r);
  }
  return r;
}

TEST(hf_reorder_init, a_new_flow_waits_a_smoothed_round_trip) {
  hf_reorder r = fresh();
  EXPECT_EQ(static_cast<u32>(HF_REORDER_MULT_MAX), r.mult);
  EXPECT_EQ(4000U, hf_reorder_window_us(&r, 1000, 4000));
  for (u32 i = 0; i + 1 < HF_REORDER_CLEAN_RESET; i++) {
    hf_reorder_recovered(&r);
  }
  EXPECT_EQ(4000U, hf_reorder_window_us(&r, 1000, 4000));
  hf_reorder_recovered(&r);  // the 16th recovery without reordering
  EXPECT_EQ(1U, r.mult);
  EXPECT_EQ(250U, hf_reorder_window_us(&r, 1000, 4000));
}

TEST(hf_reorder_window_us, quarter_of_min_rtt_capped_by_srtt) {
  const hf_reorder r = narrowed();
  EXPECT_EQ(250U, hf_reorder_window_us(&r, 1000, 4000));
  EXPECT_EQ(100U, hf_reorder_window_us(&r, 1000, 100));  // srtt caps it
  EXPECT_EQ(0U, hf_reorder_window_us(&r, 0, 0));         // no samples yet
}

TEST(hf_reorder_spurious, widens_once_per_round_trip_up_to_srtt) {
  hf_reorder r = narrowed();
  hf_reorder_spurious(&r, 10 * kMs, 1000);
  EXPECT_EQ(2U, r.mult);
  hf_reorder_spurious(&r, 10 * kMs + kMs / 2, 1000);  // same round trip
  EXPECT_EQ(2U, r.mult);
  hf_reorder_spurious(&r, 11 * kMs, 1000);
  EXPECT_EQ(3U, r.mult);
  EXPECT_EQ(750U, hf_reorder_window_us(&r, 1000, 4000));
  for (u64 t = 12; t < 12 + HF_REORDER_MULT_MAX; t++) {
    hf_reorder_spurious(&r, t * kMs, 1000);
  }
  EXPECT_EQ(static_cast<u32>(HF_REORDER_MULT_MAX), r.mult);
  EXPECT_EQ(16000U, hf_reorder_window_us(&r, 1000, 20000));  // 64/4 = 16 min_rtt
  EXPECT_EQ(4000U, hf_reorder_window_us(&r, 1000, 4000));    // at srtt
  EXPECT_EQ(3000U, hf_reorder_window_us(&r, 1000, 3000));
}

TEST(hf_reorder_recovered, narrows_after_clean_recoveries_only) {
  hf_reorder r = narrowed();
  hf_reorder_spurious(&r, kMs, 0);
  hf_reorder_spurious(&r, 2 * kMs, 0);
  EXPECT_EQ(3U, r.mult);
  for (u32 i = 0; i + 1 < HF_REORDER_CLEAN_RESET; i++) {
    hf_reorder_recovered(&r);
  }
  EXPECT_EQ(3U, r.mult);
  hf_reorder_spurious(&r, 3 * kMs, 0);  // a duplicate starts the count again
  EXPECT_EQ(4U, r.mult);
  for (u32 i = 0; i + 1 < HF_REORDER_CLEAN_RESET; i++) {
    hf_reorder_recovered(&r);
  }
  EXPECT_EQ(4U, r.mult);
  hf_reorder_recovered(&r);
  EXPECT_EQ(1U, r.mult);
}

TEST(hf_reorder_late, widens_at_once_to_cover_a_late_arrival) {
  hf_reorder r = narrowed();
  hf_reorder_late(&r, 3000, 3000, 600);  // on time: nothing to learn
  hf_reorder_late(&r, 2000, 3000, 600);
  hf_reorder_late(&r, 4000, 3000, 0);  // no round trip measured yet
  EXPECT_EQ(1U, r.mult);
  // 1 ms late at a least round trip of 0.6 ms: 7 quarters cover it, one more.
  hf_reorder_late(&r, 4000, 3000, 600);
  EXPECT_EQ(8U, r.mult);
  EXPECT_EQ(1200U, hf_reorder_window_us(&r, 600, 5000));
  hf_reorder_late(&r, 3100, 3000, 600);  // never narrower
  EXPECT_EQ(8U, r.mult);
  hf_reorder_late(&r, u64{1} << 40, 3000, 600);  // no overflow
  EXPECT_EQ(static_cast<u32>(HF_REORDER_MULT_MAX), r.mult);
  // A late arrival counts as a duplicate does against narrowing.
  for (u32 i = 0; i + 1 < HF_REORDER_CLEAN_RESET; i++) {
    hf_reorder_recovered(&r);
  }
  hf_reorder_late(&r, 3010, 3000, 600);
  hf_reorder_recovered(&r);
  EXPECT_EQ(static_cast<u32>(HF_REORDER_MULT_MAX), r.mult);
}

TEST(hf_reorder_late, beyond_srtt_the_window_reaches_the_lateness) {
  hf_reorder r = narrowed();
  // Out 12 ms where the time test allowed 3: 9 ms late, srtt only 2 ms.
  hf_reorder_late(&r, 12000, 3000, 600);
  EXPECT_EQ(61U, r.mult);  // 60 quarters of 0.6 ms cover 9 ms, one more
  EXPECT_EQ(9000U, r.late_us);
  EXPECT_EQ(9000U, hf_reorder_window_us(&r, 600, 2000));
  EXPECT_EQ(9150U, hf_reorder_window_us(&r, 600, 20000));  // srtt above it
  // A smaller lateness keeps the larger.
  hf_reorder_late(&r, 5000, 3000, 600);
  EXPECT_EQ(9000U, r.late_us);
  // Each recovery's end halves it; a late arrival renews it up to its own.
  hf_reorder_recovered(&r);
  EXPECT_EQ(4500U, r.late_us);
  EXPECT_EQ(4500U, hf_reorder_window_us(&r, 600, 2000));
  hf_reorder_recovered(&r);
  EXPECT_EQ(2250U, r.late_us);
  hf_reorder_late(&r, 6000, 3000, 600);  // 3 ms late: the count restarts
  EXPECT_EQ(3000U, r.late_us);
  hf_reorder_late(&r, 3100, 3000, 600);  // 0.1 ms: keeps the larger
  EXPECT_EQ(3000U, r.late_us);
  hf_reorder_recovered(&r);
  EXPECT_EQ(1500U, r.late_us);
  // Narrowing forgets it: a path that stopped reordering.
  for (u32 i = 1; i < HF_REORDER_CLEAN_RESET; i++) {
    hf_reorder_recovered(&r);
  }
  EXPECT_EQ(1U, r.mult);
  EXPECT_EQ(0U, r.late_us);
  EXPECT_EQ(150U, hf_reorder_window_us(&r, 600, 2000));
}

TEST(hf_reorder_delivered, keeps_the_latest_send_time_and_its_round_trip) {
  hf_reorder r = fresh();
  hf_reorder_delivered(&r, 5 * kMs, 8 * kMs);
  EXPECT_EQ(5 * kMs, r.delivered_ns);
  EXPECT_EQ(3000U, r.rtt_us);
  // An older segment arriving late changes neither.
  hf_reorder_delivered(&r, 3 * kMs, 9 * kMs);
  EXPECT_EQ(5 * kMs, r.delivered_ns);
  EXPECT_EQ(3000U, r.rtt_us);
  // Nor does one sent at the same time (a later segment of its carrier).
  hf_reorder_delivered(&r, 5 * kMs, 12 * kMs);
  EXPECT_EQ(3000U, r.rtt_us);
  // A later one, SACKed after a backlog: its round trip is what counts.
  hf_reorder_delivered(&r, 6 * kMs, 14 * kMs);
  EXPECT_EQ(6 * kMs, r.delivered_ns);
  EXPECT_EQ(8000U, r.rtt_us);
  // A departure time still ahead of the clock (EDT): no sample.
  hf_reorder_delivered(&r, 30 * kMs, 20 * kMs);
  EXPECT_EQ(6 * kMs, r.delivered_ns);
}

TEST(hf_reorder_sample_ok, repairs_only_after_the_least_round_trip) {
  // An original is a sample whenever it arrives.
  EXPECT_TRUE(hf_reorder_sample_ok(10 * kMs, 10 * kMs, false, 1000));
  EXPECT_TRUE(hf_reorder_sample_ok(10 * kMs, 10 * kMs, false, 0));
  // A repair acked within the least round trip was acked for its original.
  EXPECT_FALSE(hf_reorder_sample_ok(10 * kMs, 10 * kMs + kMs / 2, true, 1000));
  EXPECT_TRUE(hf_reorder_sample_ok(10 * kMs, 11 * kMs, true, 1000));
  // Before the least round trip is known, no repair is a sample.
  EXPECT_FALSE(hf_reorder_sample_ok(10 * kMs, 19 * kMs, true, 0));
  // A departure time still ahead of the clock (EDT) is none.
  EXPECT_FALSE(hf_reorder_sample_ok(30 * kMs, 20 * kMs, false, 1000));
}

TEST(hf_reorder_wait_ns, lost_only_after_rtt_plus_window_and_a_later_delivery) {
  hf_reorder r = fresh();
  // Nothing sent at or after 10 ms has arrived: only an ACK or the RTO decides.
  EXPECT_EQ(kNever, hf_reorder_wait_ns(&r, 10 * kMs, 50 * kMs, 1000, 250));
  hf_reorder_delivered(&r, 10 * kMs + 1, 12 * kMs);
  // rtt 1 ms + window 0.25 ms after 10 ms: due at 11.25 ms.
  EXPECT_EQ(kMs / 4 * 5, hf_reorder_wait_ns(&r, 10 * kMs, 10 * kMs, 1000, 250));
  EXPECT_EQ(kMs / 4, hf_reorder_wait_ns(&r, 10 * kMs, 11 * kMs, 1000, 250));
  EXPECT_EQ(0U, hf_reorder_wait_ns(&r, 10 * kMs, 11 * kMs + kMs / 4, 1000, 250));
  EXPECT_EQ(0U, hf_reorder_wait_ns(&r, 10 * kMs, 90 * kMs, 1000, 250));
  // A segment sent at the same time as the one delivered counts too.
  EXPECT_EQ(0U, hf_reorder_wait_ns(&r, 10 * kMs + 1, 90 * kMs, 1000, 250));
}

}  // namespace
