// Unit tests for kernel/core/hf_credit.c: receiver-granted credits. Byte
// counts are payload bytes of new DATA segments; limits are absolute byte
// offsets, 32 bits on the wire. Defaults unless a test says otherwise:
// initial window 64 KiB, max_ahead 1 GiB.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include <gtest/gtest.h>

#include "support/rng.h"

extern "C" {
#include "hf_credit.h"
}

namespace {

using hftest::Rng;

constexpr u64 kKiB = 1024;
constexpr u64 kMiB = 1024 * kKiB;
constexpr u64 kGiB = 1024 * kMiB;
constexpr u64 k4GiB = 4 * kGiB;

hf_credit_params defaults() {
  hf_credit_params p{};
  hf_credit_params_default(&p);
  return p;
}

hf_credit_tx sender(const hf_credit_params& p) {
  hf_credit_tx tx{};
  hf_credit_tx_init(&tx, &p);
  return tx;
}

hf_credit_rx receiver(const hf_credit_params& p) {
  hf_credit_rx rx{};
  hf_credit_rx_init(&rx, &p);
  return rx;
}

}  // namespace

TEST(hf_credit_params_default, values) {
  const hf_credit_params p = defaults();
  EXPECT_EQ(64 * kKiB, p.initial_window);
  EXPECT_EQ(kGiB, p.max_ahead);
  EXPECT_EQ(0, hf_credit_params_check(&p));
}

TEST(hf_credit_params_check, refuses_nonsense) {
  hf_credit_params p = defaults();
  p.max_ahead = 0;
  EXPECT_EQ(-EINVAL, hf_credit_params_check(&p));
  p.max_ahead = HF_CREDIT_WIRE_SPAN;  // the wire value would be ambiguous
  EXPECT_EQ(-EINVAL, hf_credit_params_check(&p));
  p.max_ahead = HF_CREDIT_WIRE_SPAN - 1;
  EXPECT_EQ(0, hf_credit_params_check(&p));
  p = defaults();
  p.initial_window = p.max_ahead + 1;
  EXPECT_EQ(-EINVAL, hf_credit_params_check(&p));
  p.initial_window = 0;  // every byte waits for a grant: allowed
  EXPECT_EQ(0, hf_credit_params_check(&p));
}

TEST(hf_credit_wire, low_32_bits) {
  EXPECT_EQ(0x89abcdefU, hf_credit_to_wire(0x0123456789abcdefULL));
  EXPECT_EQ(0U, hf_credit_to_wire(k4GiB));
}

TEST(hf_credit_wire, restores_the_value_nearest_the_reference) {
  // Within 2^31 either side of the reference, across the 2^32 boundaries.
  const std::vector<u64> refs{
      0, 1000, k4GiB - 10, k4GiB, k4GiB + 10, 5 * k4GiB + 12345, (u64{1} << 62U) - 7};
  const std::vector<s64> deltas{0, 1, -1, 100000, -100000, (s64{1} << 31U) - 1, -(s64{1} << 31U)};
  for (const u64 ref : refs) {
    for (const s64 d : deltas) {
      if (d < 0 && static_cast<u64>(-d) > ref) {
        continue;
      }
      const u64 limit = ref + static_cast<u64>(d);
      EXPECT_EQ(limit, hf_credit_from_wire(ref, hf_credit_to_wire(limit)))
          << "ref " << ref << " delta " << d;
    }
  }
}

TEST(hf_credit_wire, below_zero_restores_as_zero) {
  EXPECT_EQ(0U, hf_credit_from_wire(10, 0xfffffff0U));  // 10 - 26
  EXPECT_EQ(0U, hf_credit_from_wire(0, 0xffffffffU));   // -1
  EXPECT_EQ(0U, hf_credit_from_wire(0, 0x80000000U));   // -2^31
  EXPECT_EQ(0x7fffffffU, hf_credit_from_wire(0, 0x7fffffffU));
}

TEST(hf_credit_share, adds_up_to_the_budget_exactly) {
  Rng rng(11);
  for (int i = 0; i < 2000; i++) {
    const u64 budget = rng.percent(10) ? rng.below(100) : rng.next() >> rng.below(64);
    const u32 n = 1 + rng.below(i % 2 != 0 ? 8 : 1000);
    u64 sum = 0;
    u64 floor_sum = 0;
    u64 lo = UINT64_MAX;
    u64 hi = 0;
    for (u32 k = 0; k < n; k++) {
      const u64 s = hf_credit_share(budget, n, k);
      sum += s;
      lo = std::min(lo, s);
      hi = std::max(hi, s);
      floor_sum += hf_credit_share(budget, n, n);  // no index: the quotient
    }
    ASSERT_EQ(budget, sum) << "budget " << budget << " n " << n;
    ASSERT_LE(hi - lo, 1U);
    ASSERT_LE(floor_sum, budget);
    ASSERT_LT(budget - floor_sum, n);  // rounding loses at most n - 1 bytes
  }
}

TEST(hf_credit_share, incast_one_in_n) {
  EXPECT_EQ(64 * kMiB, hf_credit_share(192 * kMiB, 3, 0));
  EXPECT_EQ(64 * kMiB, hf_credit_share(192 * kMiB, 3, 2));
  EXPECT_EQ(34U, hf_credit_share(100, 3, 0));
  EXPECT_EQ(33U, hf_credit_share(100, 3, 1));
  EXPECT_EQ(33U, hf_credit_share(100, 3, 2));
  EXPECT_EQ(100U, hf_credit_share(100, 0, 0));  // no sender counted: one
  EXPECT_EQ(UINT64_MAX, hf_credit_share(UINT64_MAX, 1, 0));
  EXPECT_EQ(0U, hf_credit_share(2, 3, 2));
}

TEST(hf_credit_rate_hint, lower_known_rate_over_n) {
  const u64 link = 1250000000;  // 10 Gbit/s
  EXPECT_EQ(link / 3, hf_credit_rate_hint(0, link, 3));
  EXPECT_EQ(100000000U, hf_credit_rate_hint(300000000, link, 3));  // the reader is slower
  EXPECT_EQ(link / 3, hf_credit_rate_hint(2 * link, link, 3));     // the link is slower
  EXPECT_EQ(300000000U, hf_credit_rate_hint(300000000, 0, 1));     // link unknown
  EXPECT_EQ(link, hf_credit_rate_hint(0, link, 0));                // 0 senders: one
  EXPECT_EQ(0U, hf_credit_rate_hint(0, 0, 4));                     // no hint
  EXPECT_EQ(1U, hf_credit_rate_hint(2, 0, 1000));                  // never 0 from a rate
  EXPECT_EQ(UINT64_MAX / 7, hf_credit_rate_hint(UINT64_MAX, UINT64_MAX, 7));
}

TEST(hf_credit_tx, initial_window_lets_a_short_message_go) {
  const hf_credit_params p = defaults();
  hf_credit_tx tx = sender(p);
  EXPECT_EQ(64 * kKiB, hf_credit_avail(&tx));
  EXPECT_TRUE(hf_credit_may_send(&tx, 4000));
  EXPECT_EQ(0, hf_credit_consume(&tx, 4000));  // no grant needed
  EXPECT_TRUE(hf_credit_may_send(&tx, 64 * kKiB - 4000));
  EXPECT_FALSE(hf_credit_may_send(&tx, 64 * kKiB - 4000 + 1));
  EXPECT_EQ(4000U, tx.sent);
  EXPECT_EQ(0U, tx.grants);
}

TEST(hf_credit_tx, never_exceeds_the_credit) {
  const hf_credit_params p = defaults();
  hf_credit_tx tx = sender(p);
  EXPECT_EQ(0, hf_credit_consume(&tx, 64 * kKiB));
  EXPECT_EQ(0U, hf_credit_avail(&tx));
  EXPECT_FALSE(hf_credit_may_send(&tx, 1));
  EXPECT_EQ(-ENOSPC, hf_credit_consume(&tx, 1));
  EXPECT_EQ(64 * kKiB, tx.sent);  // nothing consumed by the refusal
  EXPECT_TRUE(hf_credit_may_send(&tx, 0));
  EXPECT_FALSE(hf_credit_may_send(&tx, UINT64_MAX));
}

TEST(hf_credit_tx, a_probe_goes_beyond_the_credit_and_keeps_limit_above_sent) {
  const hf_credit_params p = defaults();
  hf_credit_tx tx = sender(p);
  ASSERT_EQ(0, hf_credit_consume(&tx, 64 * kKiB - 100));
  hf_credit_probe(&tx, 1464);  // 100 bytes of credit left, a segment goes
  EXPECT_EQ(64 * kKiB + 1364, tx.sent);
  EXPECT_EQ(tx.sent, tx.limit);
  EXPECT_EQ(0U, hf_credit_avail(&tx));
  EXPECT_EQ(1U, tx.probes);
  // A grant computed before the probe arrived is stale now; a later one opens.
  EXPECT_EQ(HF_CREDIT_STALE, hf_credit_grant(&tx, &p, 64 * kKiB + 1000, 0));
  EXPECT_EQ(HF_CREDIT_NEW, hf_credit_grant(&tx, &p, 64 * kKiB + 5000, 0));
  EXPECT_EQ(5000U - 1364U, hf_credit_avail(&tx));
  // Within the credit, a probe is only a send.
  hf_credit_probe(&tx, 1000);
  EXPECT_EQ(64 * kKiB + 5000, tx.limit);
  EXPECT_EQ(2U, tx.probes);
}

TEST(hf_credit_grant, stale_duplicate_and_reordered_grants_are_harmless) {
  const hf_credit_params p = defaults();
  hf_credit_tx tx = sender(p);
  EXPECT_EQ(HF_CREDIT_NEW, hf_credit_grant(&tx, &p, 200 * kKiB, 0));
  EXPECT_EQ(HF_CREDIT_STALE, hf_credit_grant(&tx, &p, 100 * kKiB, 0));  // overtaken
  EXPECT_EQ(HF_CREDIT_STALE, hf_credit_grant(&tx, &p, 200 * kKiB, 0));  // duplicate
  EXPECT_EQ(HF_CREDIT_STALE, hf_credit_grant(&tx, &p, 0, 0));
  EXPECT_EQ(200 * kKiB, tx.limit);
  EXPECT_EQ(HF_CREDIT_NEW, hf_credit_grant(&tx, &p, 300 * kKiB, 0));
  EXPECT_EQ(300 * kKiB, tx.limit);
  EXPECT_EQ(2U, tx.grants);
  EXPECT_EQ(3U, tx.stale);
  EXPECT_EQ(0U, tx.invalid);
}

TEST(hf_credit_grant, any_order_of_the_same_grants_ends_at_the_largest) {
  const hf_credit_params p = defaults();
  Rng rng(3);
  std::vector<u64> grants;
  for (u64 g = 64 * kKiB; g <= 2 * kMiB; g += 64 * kKiB) {
    grants.push_back(g);
    grants.push_back(g);  // each twice
  }
  for (int run = 0; run < 50; run++) {
    for (size_t i = grants.size() - 1; i > 0; i--) {
      std::swap(grants[i], grants[rng.below(static_cast<u32>(i + 1))]);
    }
    hf_credit_tx tx = sender(p);
    u64 seen = 0;
    for (const u64 g : grants) {
      hf_credit_grant(&tx, &p, g, 0);
      seen = std::max(seen, g);
      ASSERT_EQ(std::max(seen, 64 * kKiB), tx.limit);
    }
    EXPECT_EQ(2 * kMiB, tx.limit);
    EXPECT_EQ(0U, tx.invalid);
  }
}

TEST(hf_credit_grant, absurd_jump_is_invalid) {
  const hf_credit_params p = defaults();
  hf_credit_tx tx = sender(p);
  ASSERT_EQ(0, hf_credit_consume(&tx, 1000));
  EXPECT_EQ(HF_CREDIT_INVALID, hf_credit_grant(&tx, &p, 1000 + kGiB + 1, 0));
  EXPECT_EQ(HF_CREDIT_INVALID, hf_credit_grant(&tx, &p, UINT64_MAX, 0));
  EXPECT_EQ(64 * kKiB, tx.limit);
  EXPECT_EQ(2U, tx.invalid);
  EXPECT_EQ(HF_CREDIT_NEW, hf_credit_grant(&tx, &p, 1000 + kGiB, 0));  // exactly max_ahead
  EXPECT_EQ(1000 + kGiB, tx.limit);
}

TEST(hf_credit_grant, garbage_on_the_wire_never_opens_beyond_max_ahead) {
  const hf_credit_params p = defaults();
  Rng rng(5);
  hf_credit_tx tx = sender(p);
  for (int i = 0; i < 100000; i++) {
    hf_credit_grant_wire(&tx, &p, static_cast<u32>(rng.next()), 0);
    ASSERT_LE(tx.limit - tx.sent, p.max_ahead);
    const u64 n = rng.below(static_cast<u32>(std::min<u64>(hf_credit_avail(&tx), kMiB)) + 1);
    ASSERT_EQ(0, hf_credit_consume(&tx, n));
  }
  EXPECT_GT(tx.invalid, 0U);
  EXPECT_GT(tx.stale, 0U);
}

TEST(hf_credit_grant_wire, wraps_at_32_bits) {
  const hf_credit_params p = defaults();
  hf_credit_tx tx = sender(p);
  hf_credit_rx rx = receiver(p);
  // 5 GiB through a 1 MiB share, in 256 KiB writes, across the 2^32 wrap.
  const u64 share = kMiB;
  const u64 chunk = 256 * kKiB;
  u64 stalls_seen = 0;
  while (tx.sent < 5 * kGiB) {
    if (!hf_credit_may_send(&tx, chunk)) {
      stalls_seen++;
      // The application reads everything; the receiver grants again.
      hf_credit_rx_on_consume(&rx, rx.received - rx.consumed);
      hf_credit_rx_grant(&rx, &p, share);
      u32 wire = 0;
      ASSERT_TRUE(hf_credit_rx_advertise(&rx, share / 4, &wire));
      ASSERT_EQ(HF_CREDIT_NEW, hf_credit_grant_wire(&tx, &p, wire, 0));
      ASSERT_EQ(rx.limit, tx.limit);
      // A stale copy from before the wrap still reads as stale.
      ASSERT_NE(HF_CREDIT_NEW, hf_credit_grant_wire(&tx, &p, wire - 4096, 0));
      continue;
    }
    ASSERT_EQ(0, hf_credit_consume(&tx, chunk));
    ASSERT_TRUE(hf_credit_rx_on_data(&rx, static_cast<u32>(chunk)));
  }
  EXPECT_GT(tx.limit, k4GiB);
  EXPECT_EQ(0U, tx.invalid);
  EXPECT_EQ(0U, rx.over);
  EXPECT_GT(stalls_seen, 5000U);
}

TEST(hf_credit_stall, counts_stalls_and_their_time) {
  const hf_credit_params p = defaults();
  hf_credit_tx tx = sender(p);
  ASSERT_EQ(0, hf_credit_consume(&tx, 60 * kKiB));  // 4 KiB left
  hf_credit_stall(&tx, 8 * kKiB, 1000);
  hf_credit_stall(&tx, 8 * kKiB, 2000);  // still the same stall
  EXPECT_EQ(1U, tx.stalls);
  EXPECT_EQ(500U, hf_credit_stall_total_ns(&tx, 1500));
  // A grant that is not enough keeps it running.
  EXPECT_EQ(HF_CREDIT_NEW, hf_credit_grant(&tx, &p, 66 * kKiB, 3000));
  EXPECT_EQ(1U, tx.stalled);
  // One that is ends it.
  EXPECT_EQ(HF_CREDIT_NEW, hf_credit_grant(&tx, &p, 68 * kKiB, 5000));
  EXPECT_EQ(0U, tx.stalled);
  EXPECT_EQ(4000U, tx.stall_ns);
  EXPECT_EQ(4000U, hf_credit_stall_total_ns(&tx, 9000));
  // A second stall, ended without a grant (the message failed).
  hf_credit_stall(&tx, 16 * kKiB, 10000);
  hf_credit_stall_end(&tx, 10500);
  hf_credit_stall_end(&tx, 20000);  // not stalled: nothing
  EXPECT_EQ(2U, tx.stalls);
  EXPECT_EQ(4500U, tx.stall_ns);
}

TEST(hf_credit_rx, grant_is_consumed_plus_share_and_never_falls) {
  const hf_credit_params p = defaults();
  hf_credit_rx rx = receiver(p);
  EXPECT_EQ(64 * kKiB, rx.limit);
  EXPECT_EQ(64 * kKiB, hf_credit_rx_grant(&rx, &p, 32 * kKiB));  // below the initial window
  EXPECT_EQ(kMiB, hf_credit_rx_grant(&rx, &p, kMiB));
  EXPECT_TRUE(hf_credit_rx_on_data(&rx, 512 * kKiB));
  hf_credit_rx_on_consume(&rx, 256 * kKiB);
  EXPECT_EQ(kMiB + 256 * kKiB, hf_credit_rx_grant(&rx, &p, kMiB));
  // A second sender halves the share: the limit stays until reads pass it.
  EXPECT_EQ(kMiB + 256 * kKiB, hf_credit_rx_grant(&rx, &p, kMiB / 2));
  hf_credit_rx_on_data(&rx, 256 * kKiB);
  hf_credit_rx_on_consume(&rx, 512 * kKiB);
  EXPECT_EQ(kMiB + 256 * kKiB, hf_credit_rx_grant(&rx, &p, kMiB / 2));
  EXPECT_EQ(0U, rx.received - rx.consumed);
  hf_credit_rx_on_consume(&rx, 1);  // never past received
  EXPECT_EQ(rx.received, rx.consumed);
  // A share above max_ahead is capped.
  EXPECT_EQ(rx.consumed + kGiB, hf_credit_rx_grant(&rx, &p, UINT64_MAX));
}

TEST(hf_credit_rx, counts_bytes_beyond_the_limit) {
  const hf_credit_params p = defaults();
  hf_credit_rx rx = receiver(p);
  EXPECT_TRUE(hf_credit_rx_on_data(&rx, 60 * kKiB));
  EXPECT_FALSE(hf_credit_rx_on_data(&rx, 8 * kKiB));  // 4 KiB over
  EXPECT_EQ(4 * kKiB, rx.over);
  EXPECT_FALSE(hf_credit_rx_on_data(&rx, 1000));
  EXPECT_EQ(4 * kKiB + 1000, rx.over);
}

TEST(hf_credit_rx, advertises_by_step_or_when_the_sender_is_out) {
  const hf_credit_params p = defaults();
  hf_credit_rx rx = receiver(p);
  u32 wire = 0;
  EXPECT_FALSE(hf_credit_rx_advertise(&rx, 0, &wire));  // the initial window is known
  hf_credit_rx_grant(&rx, &p, 64 * kKiB + 1000);
  EXPECT_FALSE(hf_credit_rx_advertise(&rx, 4096, &wire));  // a small raise waits
  hf_credit_rx_grant(&rx, &p, 64 * kKiB + 5000);
  EXPECT_TRUE(hf_credit_rx_advertise(&rx, 4096, &wire));
  EXPECT_EQ(64 * kKiB + 5000, wire);
  EXPECT_EQ(rx.limit, rx.advertised);
  EXPECT_FALSE(hf_credit_rx_advertise(&rx, 0, &wire));  // nothing new
  // The sender used all it was told: any raise goes at once.
  hf_credit_rx_on_data(&rx, static_cast<u32>(rx.advertised));
  hf_credit_rx_on_consume(&rx, 10);
  hf_credit_rx_grant(&rx, &p, 64 * kKiB + 5000);
  EXPECT_TRUE(hf_credit_rx_advertise(&rx, kMiB, &wire));
  EXPECT_EQ(hf_credit_to_wire(64 * kKiB + 5010), wire);
}

// Three senders into one receiver with a budget split 1/N: the bytes held
// for each never exceed its share once the initial windows are used, and
// all the held bytes never exceed the budget plus the initial windows.
TEST(hf_credit_property, incast_stays_within_the_budget) {
  const hf_credit_params p = defaults();
  constexpr u32 kN = 3;
  const u64 budget = 3 * kMiB + 2;
  Rng rng(17);
  std::vector<hf_credit_tx> tx(kN, sender(p));
  std::vector<hf_credit_rx> rx(kN, receiver(p));
  for (int step = 0; step < 100000; step++) {
    const u32 k = rng.below(kN);
    const u64 share = hf_credit_share(budget, kN, k);
    switch (rng.below(3)) {
      case 0: {
        const u64 want = 1 + rng.below(64 * kKiB);
        if (hf_credit_may_send(&tx[k], want)) {
          ASSERT_EQ(0, hf_credit_consume(&tx[k], want));
          ASSERT_TRUE(hf_credit_rx_on_data(&rx[k], static_cast<u32>(want)));
        }
        break;
      }
      case 1:
        hf_credit_rx_on_consume(&rx[k], rng.below(128 * kKiB));
        break;
      default: {
        hf_credit_rx_grant(&rx[k], &p, share);
        u32 wire = 0;
        if (hf_credit_rx_advertise(&rx[k], 0, &wire)) {
          ASSERT_NE(HF_CREDIT_INVALID, hf_credit_grant_wire(&tx[k], &p, wire, 0));
        }
        break;
      }
    }
    u64 held = 0;
    for (u32 i = 0; i < kN; i++) {
      ASSERT_LE(rx[i].received - rx[i].consumed,
                std::max<u64>(hf_credit_share(budget, kN, i), p.initial_window));
      held += rx[i].received - rx[i].consumed;
    }
    ASSERT_LE(held, budget + kN * u64{p.initial_window});
  }
}

// A sender and a receiver joined by a credit channel that loses,
// duplicates and reorders grants (and replays old ones), with the
// application reading at random: the sender's bytes never exceed the limit
// the receiver granted, the receiver never sees a byte beyond its limit,
// and no honest grant is refused.
TEST(hf_credit_property, lossy_credit_channel_never_breaks_the_limit) {
  for (u64 seed = 1; seed <= 10; seed++) {
    Rng rng(seed);
    hf_credit_params p = defaults();
    p.initial_window = rng.below(4) * 16 * static_cast<u32>(kKiB);
    hf_credit_tx tx = sender(p);
    hf_credit_rx rx = receiver(p);
    std::deque<u32> channel;
    std::vector<u32> history;
    u64 now = 0;
    u64 prev_limit = tx.limit;
    for (int step = 0; step < 50000; step++) {
      now += 1000;
      switch (rng.below(5)) {
        case 0:
        case 1: {
          const u64 want = 1 + rng.below(9000);
          if (hf_credit_may_send(&tx, want)) {
            ASSERT_EQ(0, hf_credit_consume(&tx, want));
            ASSERT_TRUE(hf_credit_rx_on_data(&rx, static_cast<u32>(want)));
          } else {
            hf_credit_stall(&tx, static_cast<u32>(want), now);
          }
          break;
        }
        case 2:
          hf_credit_rx_on_consume(&rx, rng.below(20000));
          break;
        case 3: {
          hf_credit_rx_grant(&rx, &p, 256 * kKiB);
          u32 wire = 0;
          if (hf_credit_rx_advertise(&rx, 16 * kKiB, &wire) || rng.percent(20)) {
            wire = hf_credit_to_wire(rx.limit);  // or a copy on an ACK
            history.push_back(wire);
            if (!rng.percent(30)) {  // lost
              channel.push_back(wire);
            }
            if (rng.percent(10)) {  // duplicated
              channel.push_back(wire);
            }
          }
          break;
        }
        default:
          if (!channel.empty()) {
            // Deliver one, not always the oldest (reordering).
            const size_t i = rng.below(static_cast<u32>(std::min<size_t>(channel.size(), 4)));
            const u32 wire = channel[i];
            channel.erase(channel.begin() + static_cast<std::ptrdiff_t>(i));
            ASSERT_NE(HF_CREDIT_INVALID, hf_credit_grant_wire(&tx, &p, wire, now));
          } else if (!history.empty() && rng.percent(20)) {
            // A replay of an old grant, perhaps one that was lost.
            const u32 old = history[rng.below(static_cast<u32>(history.size()))];
            ASSERT_NE(HF_CREDIT_INVALID, hf_credit_grant_wire(&tx, &p, old, now));
          }
          break;
      }
      ASSERT_LE(tx.sent, tx.limit) << "seed " << seed << " step " << step;
      ASSERT_LE(tx.limit, rx.limit);
      ASSERT_GE(tx.limit, prev_limit);
      prev_limit = tx.limit;
      ASSERT_EQ(tx.sent, rx.received);
      ASSERT_EQ(0U, rx.over);
      ASSERT_LE(hf_credit_stall_total_ns(&tx, now), now);
    }
    EXPECT_EQ(0U, tx.invalid);
    EXPECT_GT(tx.grants, 100U);
    EXPECT_GT(tx.stale, 0U);
    EXPECT_GT(tx.stalls, 0U);
  }
}
