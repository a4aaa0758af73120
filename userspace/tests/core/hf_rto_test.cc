// Unit tests for kernel/core/hf_rto.c: the RFC 6298 retransmission timeout
// estimator. Tests follow the order of the functions in the source and are
// named function__case. Expected values are worked by hand in the comments,
// with the defaults min 2000, max 2000000, initial 20000, G 1000 (all us),
// max_backoff 6, retry_limit 8 unless a test says otherwise. srtt8 is srtt
// in 1/8 us (srtt_us << 3 | srtt_frac), rttvar4 rttvar in 1/4 us.
#include <algorithm>
#include <cstdint>

#include <gtest/gtest.h>

extern "C" {
#include "hf_rto.h"
}

namespace {

constexpr u32 kU32Max = UINT32_MAX;

hf_rto_params defaults() {
  hf_rto_params p{};
  hf_rto_params_default(&p);
  return p;
}

// Bounds that never clamp: the estimator's own arithmetic shows through.
hf_rto_params unclamped() {
  hf_rto_params p = defaults();
  p.min_us = 1;
  p.max_us = kU32Max;
  p.initial_us = 1;
  p.granularity_us = 0;
  return p;
}

hf_rto started(const hf_rto_params& p) {
  hf_rto r{};
  hf_rto_init(&r, &p);
  return r;
}

void sample_n(hf_rto* r, const hf_rto_params& p, u32 rtt_us, int n) {
  for (int i = 0; i < n; i++) {
    hf_rto_sample(r, &p, rtt_us);
  }
}

}  // namespace

TEST(hf_rto_params_default, values) {
  const hf_rto_params p = defaults();
  EXPECT_EQ(2000U, p.min_us);
  EXPECT_EQ(2000000U, p.max_us);
  EXPECT_EQ(20000U, p.initial_us);
  EXPECT_EQ(1000U, p.granularity_us);
  EXPECT_EQ(6, p.max_backoff);
  EXPECT_EQ(8, p.retry_limit);
  EXPECT_EQ(0, hf_rto_params_check(&p));
}

TEST(hf_rto_params_check, refuses_nonsense) {
  hf_rto_params p = defaults();
  p.min_us = 0;  // a timer that fires at once
  EXPECT_EQ(-EINVAL, hf_rto_params_check(&p));
  p = defaults();
  p.initial_us = p.min_us - 1;
  EXPECT_EQ(-EINVAL, hf_rto_params_check(&p));
  p = defaults();
  p.initial_us = p.max_us + 1;
  EXPECT_EQ(-EINVAL, hf_rto_params_check(&p));
  p = defaults();
  p.max_us = p.min_us - 1;  // and so below initial_us too
  EXPECT_EQ(-EINVAL, hf_rto_params_check(&p));
  p.min_us = p.max_us = p.initial_us = 5000;  // one fixed timeout is fine
  EXPECT_EQ(0, hf_rto_params_check(&p));
  p = unclamped();
  EXPECT_EQ(0, hf_rto_params_check(&p));
}

TEST(hf_rto_init, starts_at_initial_with_no_state) {
  const hf_rto_params p = defaults();
  hf_rto r{};
  r.srtt_us = r.rttvar_us = r.min_rtt_us = r.latest_us = r.samples = 77;
  r.backoff = r.retries = r.srtt_frac = r.rttvar_frac = 3;
  hf_rto_init(&r, &p);
  EXPECT_EQ(20000U, r.rto_us);
  EXPECT_EQ(0U, r.srtt_us);
  EXPECT_EQ(0U, r.rttvar_us);
  EXPECT_EQ(0U, r.min_rtt_us);
  EXPECT_EQ(0U, r.latest_us);
  EXPECT_EQ(0U, r.samples);
  EXPECT_EQ(0, r.backoff);
  EXPECT_EQ(0, r.retries);
  EXPECT_EQ(0, r.srtt_frac);
  EXPECT_EQ(0, r.rttvar_frac);
  EXPECT_EQ(20000U, hf_rto_current_us(&r, &p));
}

TEST(hf_rto_init, clamps_initial) {
  hf_rto_params p = defaults();
  p.initial_us = 1;  // below min 2000
  EXPECT_EQ(2000U, started(p).rto_us);
  p.initial_us = 5000000;  // above max 2000000
  EXPECT_EQ(2000000U, started(p).rto_us);
}

TEST(hf_rto_sample, first_sample) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  hf_rto_sample(&r, &p, 10000);
  // srtt = R = 10000, rttvar = R/2 = 5000, rto = 10000 + max(1000, 4 * 5000) = 30000.
  EXPECT_EQ(10000U, r.srtt_us);
  EXPECT_EQ(5000U, r.rttvar_us);
  EXPECT_EQ(30000U, r.rto_us);
  EXPECT_EQ(30000U, hf_rto_current_us(&r, &p));
  EXPECT_EQ(1U, r.samples);
  EXPECT_EQ(10000U, r.min_rtt_us);
  EXPECT_EQ(10000U, r.latest_us);
}

TEST(hf_rto_sample, first_sample_keeps_half_microsecond) {
  const hf_rto_params p = unclamped();
  hf_rto r = started(p);
  hf_rto_sample(&r, &p, 101);
  // rttvar = 101/2 = 50.5: 50 us and 2/4. rto = 101 + 4 * 50.5 = 303 exactly.
  EXPECT_EQ(101U, r.srtt_us);
  EXPECT_EQ(0, r.srtt_frac);
  EXPECT_EQ(50U, r.rttvar_us);
  EXPECT_EQ(2, r.rttvar_frac);
  EXPECT_EQ(303U, r.rto_us);
}

TEST(hf_rto_sample, later_samples_follow_rfc6298) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  hf_rto_sample(&r, &p, 1000);  // srtt 1000, rttvar 500, rto 1000 + 2000 = 3000
  EXPECT_EQ(3000U, r.rto_us);

  hf_rto_sample(&r, &p, 2000);
  // rttvar = 3/4 * 500 + 1/4 * |1000 - 2000| = 625; srtt = 7/8 * 1000 + 2000/8 = 1125;
  // rto = 1125 + max(1000, 4 * 625) = 3625.
  EXPECT_EQ(1125U, r.srtt_us);
  EXPECT_EQ(0, r.srtt_frac);
  EXPECT_EQ(625U, r.rttvar_us);
  EXPECT_EQ(0, r.rttvar_frac);
  EXPECT_EQ(3625U, r.rto_us);

  hf_rto_sample(&r, &p, 2000);
  // rttvar = 3/4 * 625 + 1/4 * |1125 - 2000| = 468.75 + 218.75 = 687.5 (687 and 2/4);
  // srtt = 7/8 * 1125 + 250 = 1234.375 (1234 and 3/8);
  // rto = 1234 + max(1000, 4 * 687.5 = 2750) = 3984.
  EXPECT_EQ(1234U, r.srtt_us);
  EXPECT_EQ(3, r.srtt_frac);
  EXPECT_EQ(687U, r.rttvar_us);
  EXPECT_EQ(2, r.rttvar_frac);
  EXPECT_EQ(3984U, r.rto_us);
  EXPECT_EQ(3U, r.samples);
}

TEST(hf_rto_sample, converges_to_constant_rtt) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  hf_rto_sample(&r, &p, 10000);  // rttvar4 = 20000, rto 30000
  hf_rto_sample(&r, &p, 10000);
  // Error 0: rttvar4 = 20000 - 20000/4 = 15000 (3750 us); rto = 10000 + 15000 = 25000.
  EXPECT_EQ(3750U, r.rttvar_us);
  EXPECT_EQ(25000U, r.rto_us);
  hf_rto_sample(&r, &p, 10000);
  // rttvar4 = 15000 - 3750 = 11250 (2812 and 2/4); rto = 10000 + 11250 = 21250.
  EXPECT_EQ(2812U, r.rttvar_us);
  EXPECT_EQ(2, r.rttvar_frac);
  EXPECT_EQ(21250U, r.rto_us);

  sample_n(&r, p, 10000, 97);
  // srtt8 = 80000 - 10000 + 10000 stays put. rttvar4 -= rttvar4 >> 2 falls by at least one
  // while >= 4 and from 4 lands on 3, where 3 >> 2 = 0 holds it (33rd sample): rttvar is
  // 3/4 us, 4 * rttvar = 3 < G, so rto = srtt + G = 11000.
  EXPECT_EQ(10000U, r.srtt_us);
  EXPECT_EQ(0, r.srtt_frac);
  EXPECT_EQ(0U, r.rttvar_us);
  EXPECT_EQ(3, r.rttvar_frac);
  EXPECT_EQ(11000U, r.rto_us);
  EXPECT_EQ(100U, r.samples);
}

TEST(hf_rto_sample, rising_rtt_reached_exactly) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  hf_rto_sample(&r, &p, 1000);
  sample_n(&r, p, 2000, 200);
  // srtt8 = s - s/8 + 2000 rises while s < 16000 and cannot pass it (s = 8k + r with
  // k <= 1999 gives 7k + r + 2000 <= 16000): srtt is 2000 exactly, where whole-us
  // srtt += (2000 - srtt) >> 3 would stop at 1993. rto = 2000 + max(1000, 3) = 3000.
  EXPECT_EQ(2000U, r.srtt_us);
  EXPECT_EQ(0, r.srtt_frac);
  EXPECT_EQ(0U, r.rttvar_us);
  EXPECT_EQ(3000U, r.rto_us);
}

TEST(hf_rto_sample, variance_grows_with_jitter) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  sample_n(&r, p, 10000, 100);  // settled: srtt8 80000, rttvar4 3, rto 11000
  ASSERT_EQ(11000U, r.rto_us);

  hf_rto_sample(&r, &p, 14000);
  // err 4000: rttvar4 = 3 - 0 + 4000 = 4003 (1000 and 3/4);
  // srtt8 = 80000 - 10000 + 14000 = 84000 (10500); rto = 10500 + 4003 = 14503.
  EXPECT_EQ(10500U, r.srtt_us);
  EXPECT_EQ(1000U, r.rttvar_us);
  EXPECT_EQ(14503U, r.rto_us);

  hf_rto_sample(&r, &p, 6000);
  // err |10500 - 6000| = 4500: rttvar4 = 4003 - 1000 + 4500 = 7503 (1875 and 3/4);
  // srtt8 = 84000 - 10500 + 6000 = 79500 (9937 and 4/8); rto = 9937 + 7503 = 17440.
  EXPECT_EQ(9937U, r.srtt_us);
  EXPECT_EQ(4, r.srtt_frac);
  EXPECT_EQ(1875U, r.rttvar_us);
  EXPECT_EQ(17440U, r.rto_us);

  hf_rto_sample(&r, &p, 14000);
  // err |9937 - 14000| = 4063: rttvar4 = 7503 - 1875 + 4063 = 9691 (2422 and 3/4);
  // srtt8 = 79500 - 9937 + 14000 = 83563 (10445 and 3/8); rto = 10445 + 9691 = 20136.
  EXPECT_EQ(10445U, r.srtt_us);
  EXPECT_EQ(3, r.srtt_frac);
  EXPECT_EQ(2422U, r.rttvar_us);
  EXPECT_EQ(3, r.rttvar_frac);
  EXPECT_EQ(20136U, r.rto_us);
}

TEST(hf_rto_sample, clamps_to_min_and_max) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  hf_rto_sample(&r, &p, 100);  // 100 + max(1000, 200) = 1100, below min
  EXPECT_EQ(2000U, r.rto_us);
  r = started(p);
  hf_rto_sample(&r, &p, 1500000);  // 1500000 + 4 * 750000 = 4500000, above max
  EXPECT_EQ(2000000U, r.rto_us);
  EXPECT_EQ(1500000U, r.srtt_us);  // only the timeout is clamped
}

TEST(hf_rto_sample, resets_backoff_and_retries) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  for (int i = 0; i < 3; i++) {
    EXPECT_FALSE(hf_rto_timeout(&r, &p));
  }
  EXPECT_EQ(3, r.backoff);
  EXPECT_EQ(160000U, hf_rto_current_us(&r, &p));  // 20000 << 3

  hf_rto_sample(&r, &p, 1000);  // 1000 + max(1000, 2000) = 3000
  EXPECT_EQ(0, r.backoff);
  EXPECT_EQ(0, r.retries);
  EXPECT_EQ(3000U, hf_rto_current_us(&r, &p));
}

TEST(hf_rto_sample, tracks_min_and_latest) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  for (u32 rtt : {500U, 300U, 800U}) {
    hf_rto_sample(&r, &p, rtt);
  }
  EXPECT_EQ(300U, r.min_rtt_us);
  EXPECT_EQ(800U, r.latest_us);
  hf_rto_sample(&r, &p, 0);  // a zero round trip is a sample like any other
  EXPECT_EQ(0U, r.min_rtt_us);
  EXPECT_EQ(0U, r.latest_us);
  EXPECT_EQ(4U, r.samples);
}

TEST(hf_rto_sample, huge_samples_do_not_wrap) {
  // M = 4294967295.
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  hf_rto_sample(&r, &p, kU32Max);
  // srtt8 = 8M, rttvar4 = 2M = 8589934590 = 4 * 2147483647 + 2; rto 3M clamped.
  EXPECT_EQ(kU32Max, r.srtt_us);
  EXPECT_EQ(2147483647U, r.rttvar_us);
  EXPECT_EQ(2, r.rttvar_frac);
  EXPECT_EQ(2000000U, r.rto_us);

  hf_rto_sample(&r, &p, kU32Max);
  // err 0: rttvar4 = 8589934590 - 2147483647 = 6442450943 = 4 * 1610612735 + 3.
  EXPECT_EQ(kU32Max, r.srtt_us);
  EXPECT_EQ(1610612735U, r.rttvar_us);
  EXPECT_EQ(3, r.rttvar_frac);

  hf_rto_sample(&r, &p, 0);
  // err M: rttvar4 = 6442450943 - 1610612735 + M = 9126805503 = 4 * 2281701375 + 3;
  // srtt8 = 8M - M + 0 = 7M = 30064771065 = 8 * 3758096383 + 1.
  EXPECT_EQ(3758096383U, r.srtt_us);
  EXPECT_EQ(1, r.srtt_frac);
  EXPECT_EQ(2281701375U, r.rttvar_us);
  EXPECT_EQ(3, r.rttvar_frac);
  EXPECT_EQ(2000000U, r.rto_us);
  EXPECT_EQ(0U, r.min_rtt_us);

  // With no ceiling, srtt + 4 * rttvar (3M on the first sample) saturates at M.
  const hf_rto_params wide = unclamped();
  r = started(wide);
  hf_rto_sample(&r, &wide, kU32Max);
  EXPECT_EQ(kU32Max, r.rto_us);
}

TEST(hf_rto_sample, count_saturates_without_restarting) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  hf_rto_sample(&r, &p, 1000);
  r.samples = kU32Max;
  hf_rto_sample(&r, &p, 2000);
  // Still smoothing (7/8 * 1000 + 2000/8 = 1125), not a new first sample (2000).
  EXPECT_EQ(kU32Max, r.samples);
  EXPECT_EQ(1125U, r.srtt_us);
}

TEST(hf_rto_timeout, doubles_up_to_max_backoff) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  // 20000 << 1..6, then held at 6 doublings: 1280000.
  for (u32 want : {40000U, 80000U, 160000U, 320000U, 640000U, 1280000U, 1280000U}) {
    EXPECT_FALSE(hf_rto_timeout(&r, &p));
    EXPECT_EQ(want, hf_rto_current_us(&r, &p));
  }
  EXPECT_EQ(6, r.backoff);
  EXPECT_EQ(7, r.retries);
  EXPECT_EQ(20000U, r.rto_us);  // the base is untouched
}

TEST(hf_rto_timeout, capped_by_max_us) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  hf_rto_sample(&r, &p, 500000);  // 500000 + 4 * 250000 = 1500000
  ASSERT_EQ(1500000U, hf_rto_current_us(&r, &p));
  EXPECT_FALSE(hf_rto_timeout(&r, &p));
  EXPECT_EQ(2000000U, hf_rto_current_us(&r, &p));  // 3000000 clamped
}

TEST(hf_rto_timeout, no_backoff_when_max_backoff_zero) {
  hf_rto_params p = defaults();
  p.max_backoff = 0;
  hf_rto r = started(p);
  EXPECT_FALSE(hf_rto_timeout(&r, &p));
  EXPECT_EQ(0, r.backoff);
  EXPECT_EQ(1, r.retries);
  EXPECT_EQ(20000U, hf_rto_current_us(&r, &p));
}

TEST(hf_rto_timeout, retry_limit_exceeded_and_sticky) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  for (int i = 1; i <= 8; i++) {
    EXPECT_FALSE(hf_rto_timeout(&r, &p)) << "expiry " << i;  // retransmit
  }
  EXPECT_TRUE(hf_rto_timeout(&r, &p));  // ninth: 9 > 8, fail
  EXPECT_TRUE(hf_rto_timeout(&r, &p));  // still no progress: fail at once
  EXPECT_EQ(10, r.retries);
}

TEST(hf_rto_timeout, retry_limit_zero_fails_first_expiry) {
  hf_rto_params p = defaults();
  p.retry_limit = 0;
  hf_rto r = started(p);
  EXPECT_TRUE(hf_rto_timeout(&r, &p));
}

TEST(hf_rto_timeout, retries_saturate_and_255_never_fails) {
  hf_rto_params p = defaults();
  p.retry_limit = 255;
  hf_rto r = started(p);
  for (int i = 0; i < 300; i++) {
    ASSERT_FALSE(hf_rto_timeout(&r, &p)) << "expiry " << i + 1;
  }
  EXPECT_EQ(255, r.retries);  // not wrapped to 44
}

TEST(hf_rto_current_us, wide_shift_does_not_overflow) {
  hf_rto_params p = unclamped();
  p.max_backoff = 40;
  p.retry_limit = 255;
  hf_rto r = started(p);  // rto_us = 1
  for (int i = 0; i < 31; i++) {
    hf_rto_timeout(&r, &p);
  }
  EXPECT_EQ(0x80000000U, hf_rto_current_us(&r, &p));  // 1 << 31
  hf_rto_timeout(&r, &p);
  EXPECT_EQ(kU32Max, hf_rto_current_us(&r, &p));  // 1 << 32, clamped
  for (int i = 0; i < 8; i++) {
    hf_rto_timeout(&r, &p);
  }
  EXPECT_EQ(40, r.backoff);
  EXPECT_EQ(kU32Max, hf_rto_current_us(&r, &p));  // 1 << 40: no UB, still clamped

  hf_rto_sample(&r, &p, kU32Max);  // rto_us = M
  hf_rto_timeout(&r, &p);
  EXPECT_EQ(kU32Max, hf_rto_current_us(&r, &p));  // 2M clamped, not 2M - 2^32
}

TEST(hf_rto_current_us, follows_changed_params) {
  hf_rto_params p = defaults();
  hf_rto r = started(p);
  hf_rto_sample(&r, &p, 1000);  // rto_us 3000
  hf_rto_timeout(&r, &p);
  hf_rto_timeout(&r, &p);
  EXPECT_EQ(12000U, hf_rto_current_us(&r, &p));  // 3000 << 2
  p.max_backoff = 1;
  EXPECT_EQ(6000U, hf_rto_current_us(&r, &p));  // backoff 2 limited to 1
  p.max_us = 5000;
  EXPECT_EQ(5000U, hf_rto_current_us(&r, &p));
  p.max_us = 2000000;
  p.min_us = 7000;
  EXPECT_EQ(7000U, hf_rto_current_us(&r, &p));
  p.max_us = 4000;  // below min_us: max_us wins
  EXPECT_EQ(4000U, hf_rto_current_us(&r, &p));
}

TEST(hf_rto_backoff_end, ends_backoff_and_retries_without_a_sample) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  const u32 srtt = r.srtt_us;
  const u32 base = hf_rto_current_us(&r, &p);
  for (int i = 0; i < 3; i++) {
    hf_rto_timeout(&r, &p);
  }
  EXPECT_EQ(3, r.backoff);
  EXPECT_EQ(std::min(base * 8, p.max_us), hf_rto_current_us(&r, &p));
  hf_rto_backoff_end(&r);
  EXPECT_EQ(0, r.backoff);
  EXPECT_EQ(0, r.retries);
  EXPECT_EQ(base, hf_rto_current_us(&r, &p));
  EXPECT_EQ(srtt, r.srtt_us);  // the estimator is untouched
}

TEST(hf_rto_ack_progress, clears_retries_keeps_backoff) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  for (int i = 0; i < 8; i++) {
    hf_rto_timeout(&r, &p);
  }
  EXPECT_TRUE(hf_rto_timeout(&r, &p));
  hf_rto_ack_progress(&r);  // an ack of retransmitted data: progress, no sample
  EXPECT_EQ(0, r.retries);
  EXPECT_EQ(6, r.backoff);  // Karn: the backed-off timeout stays
  EXPECT_EQ(1280000U, hf_rto_current_us(&r, &p));
  EXPECT_FALSE(hf_rto_timeout(&r, &p));  // a new run towards the limit
  EXPECT_EQ(1, r.retries);
  hf_rto_sample(&r, &p, 1000);  // a valid sample ends the backoff
  EXPECT_EQ(3000U, hf_rto_current_us(&r, &p));
}

// Issue 40: a peer that answers is no silent peer. An ack that takes data
// but gives no sample (it answers a repair) lowers the backoff to what its
// own timing needs: nothing when it came within the timeout.
TEST(hf_rto_answered, an_answer_within_the_timeout_ends_the_backoff) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  hf_rto_sample(&r, &p, 1000);  // rto_us 3000
  for (int i = 0; i < 8; i++) {
    hf_rto_timeout(&r, &p);
  }
  ASSERT_EQ(6, r.backoff);
  ASSERT_EQ(192000U, hf_rto_current_us(&r, &p));
  const u32 srtt = r.srtt_us;
  hf_rto_answered(&r, &p, 1500);  // the repair was answered in 1.5 ms
  EXPECT_EQ(0, r.backoff);
  EXPECT_EQ(0, r.retries);
  EXPECT_EQ(3000U, hf_rto_current_us(&r, &p));
  EXPECT_EQ(srtt, r.srtt_us);  // no sample: the estimator is untouched
  EXPECT_EQ(1U, r.samples);
}

TEST(hf_rto_answered, keeps_the_backoff_a_slow_answer_needs_never_more) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  hf_rto_sample(&r, &p, 1000);  // rto_us 3000
  for (int i = 0; i < 6; i++) {
    hf_rto_timeout(&r, &p);
  }
  // An answer 10 ms after the latest copy: the RTT may really have grown
  // (Karn's concern), so keep 3000 << 2 = 12000 >= 10000.
  hf_rto_answered(&r, &p, 10000);
  EXPECT_EQ(2, r.backoff);
  EXPECT_EQ(12000U, hf_rto_current_us(&r, &p));
  // Exactly the timeout: covered without doubling.
  hf_rto_answered(&r, &p, 3000);
  EXPECT_EQ(0, r.backoff);
  // Never raised by an answer, however slow.
  hf_rto_timeout(&r, &p);
  hf_rto_answered(&r, &p, kU32Max);
  EXPECT_EQ(1, r.backoff);
  // The doublings count as hf_rto_current_us() does, clamped to max_us:
  // an answer beyond max_us keeps the whole backoff.
  for (int i = 0; i < 8; i++) {
    hf_rto_timeout(&r, &p);
  }
  hf_rto_answered(&r, &p, p.max_us + 1);
  EXPECT_EQ(6, r.backoff);
  hf_rto_answered(&r, &p, 0);
  EXPECT_EQ(0, r.backoff);
}

// A closed window is flow control: expiries of the persist timer count
// towards the retry limit (a receiver may still go silent) without
// doubling the timeout.
TEST(hf_rto_probe_timeout, counts_retries_not_backoff) {
  const hf_rto_params p = defaults();
  hf_rto r = started(p);
  for (int i = 0; i < 8; i++) {
    EXPECT_FALSE(hf_rto_probe_timeout(&r, &p));
  }
  EXPECT_TRUE(hf_rto_probe_timeout(&r, &p));
  EXPECT_EQ(0, r.backoff);
  EXPECT_EQ(p.initial_us, hf_rto_current_us(&r, &p));
  hf_rto_ack_progress(&r);  // the receiver answers: a new run
  EXPECT_FALSE(hf_rto_probe_timeout(&r, &p));
}
