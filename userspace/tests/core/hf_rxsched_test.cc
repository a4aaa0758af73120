// Unit tests for kernel/core/hf_rxsched.c: the receiver's schedule of its
// downlink. Unless a test says otherwise: a 50 Mbit/s link (6.25 MB/s), a
// bandwidth-delay product of 25,000 bytes (4 ms), overcommitment 1/8, a
// sender silent after 50 ms, a floor of one 1,456-byte segment.
#include <array>
#include <cstdint>
#include <numeric>

#include <gtest/gtest.h>

#include "support/rng.h"

extern "C" {
#include "hf_rxsched.h"
}

namespace {

using hftest::Rng;

constexpr u64 kRate = 6250000;
constexpr u64 kBdp = 25000;
constexpr u64 kMs = 1000000;
constexpr u64 kMiB = 1 << 20;
constexpr u32 kSeg = 1456;

hf_rxsched_params params() {
  hf_rxsched_params p{};
  p.link_rate = kRate;
  p.bdp = kBdp;
  p.overcommit_shift = 3;
  p.silent_ns = 50 * kMs;
  p.min_grant = kSeg;
  return p;
}

using Table = std::array<hf_rxsched_sender, HF_RXSCHED_SLOTS>;
using Grants = std::array<hf_rxsched_grant, HF_RXSCHED_SLOTS>;

hf_rxsched_sender sender(u64 remaining, u64 outstanding, u64 last_ns) {
  hf_rxsched_sender s{};
  s.used = 1;
  s.remaining = remaining;
  s.outstanding = outstanding;
  s.last_ns = last_ns;
  return s;
}

u32 alloc(Table& t, const hf_rxsched_params& p, u64 now, Grants& g, u32* reclaimed = nullptr) {
  u32 dummy = 0;
  return hf_rxsched_alloc(t.data(), t.size(), &p, now, g.data(), reclaimed ? reclaimed : &dummy);
}

}  // namespace

TEST(hf_rxsched_budget, bdp_and_its_overcommitment) {
  hf_rxsched_params p = params();
  EXPECT_EQ(kBdp + kBdp / 8, hf_rxsched_budget(&p));
  p.overcommit_shift = HF_RXSCHED_OVERCOMMIT_SHIFT;  // the kernel's: one more
  EXPECT_EQ(2 * kBdp, hf_rxsched_budget(&p));
}

TEST(hf_rxsched_alloc, nothing_to_schedule) {
  Table t{};
  Grants g{};
  const hf_rxsched_params p = params();
  EXPECT_EQ(0U, alloc(t, p, 0, g));
  t[3] = sender(0, 5000, 0);  // nothing known to come: not scheduled
  EXPECT_EQ(0U, alloc(t, p, 0, g));
  EXPECT_EQ(0U, g[3].grant);
  EXPECT_EQ(0U, g[3].rate);
}

TEST(hf_rxsched_alloc, one_sender_gets_the_whole_link) {
  Table t{};
  Grants g{};
  const hf_rxsched_params p = params();
  t[5] = sender(64 * kMiB, 0, 0);
  ASSERT_EQ(1U, alloc(t, p, kMs, g));
  EXPECT_EQ(hf_rxsched_budget(&p), g[5].target);
  EXPECT_EQ(hf_rxsched_budget(&p), g[5].grant);
  EXPECT_EQ(kRate, g[5].rate);
  // With its bytes half arrived, the other half is granted again.
  t[5].outstanding = hf_rxsched_budget(&p) / 2;
  alloc(t, p, kMs, g);
  EXPECT_EQ(hf_rxsched_budget(&p) - t[5].outstanding, g[5].grant);
  EXPECT_EQ(kRate, g[5].rate);
}

TEST(hf_rxsched_alloc, three_senders_share_equally) {
  Table t{};
  Grants g{};
  const hf_rxsched_params p = params();
  for (const u32 i : {0U, 7U, 31U}) {
    t[i] = sender(64 * kMiB, 0, 0);
  }
  ASSERT_EQ(3U, alloc(t, p, kMs, g));
  const u64 part = hf_rxsched_budget(&p) / 3;
  u64 rates = 0;
  u64 grants = 0;
  for (const u32 i : {0U, 7U, 31U}) {
    EXPECT_NEAR(static_cast<double>(part), static_cast<double>(g[i].target), 1.0) << i;
    EXPECT_EQ(g[i].target, g[i].grant) << i;
    EXPECT_NEAR(static_cast<double>(kRate) / 3, static_cast<double>(g[i].rate), 2.0) << i;
    rates += g[i].rate;
    grants += g[i].grant;
  }
  EXPECT_LE(rates, kRate);
  EXPECT_GE(rates, kRate - 3);
  EXPECT_EQ(hf_rxsched_budget(&p), grants);
}

TEST(hf_rxsched_alloc, shortest_remaining_first) {
  Table t{};
  Grants g{};
  const hf_rxsched_params p = params();
  const u64 budget = hf_rxsched_budget(&p);
  // A long sender holds most of the budget; 10,000 bytes are free.
  t[0] = sender(8 * kMiB, budget - 10000, 0);
  t[1] = sender(4 * kMiB, 0, 0);
  t[2] = sender(20000, 0, 0);  // the shortest: granted first
  t[3] = sender(2 * kMiB, 0, 0);
  ASSERT_EQ(4U, alloc(t, p, kMs, g));
  EXPECT_EQ(10000U, g[2].grant);
  // The others get only the floor that keeps their ACKs coming.
  EXPECT_EQ(kSeg, g[1].grant);
  EXPECT_EQ(kSeg, g[3].grant);
  EXPECT_EQ(0U, g[0].grant);
  // Targets fill shortest first: the short message whole, the rest alike.
  EXPECT_EQ(20000U, g[2].target);
  EXPECT_NEAR(static_cast<double>(budget - 20000) / 3, static_cast<double>(g[1].target), 1.0);
  EXPECT_NEAR(static_cast<double>(g[1].target), static_cast<double>(g[3].target), 1.0);
  // A sender whose bytes all fit in its target goes at the link's rate.
  EXPECT_EQ(kRate, g[2].rate);
  EXPECT_LT(g[1].rate, kRate);

  // With the budget free, the free bytes still go shortest first: of two
  // short messages and a long one, the long one gets what they leave.
  t = Table{};
  t[4] = sender(8 * kMiB, 0, 0);
  t[6] = sender(3000, 0, 0);
  t[9] = sender(5000, 0, 0);
  alloc(t, p, kMs, g);
  EXPECT_EQ(3000U, g[6].grant);
  EXPECT_EQ(5000U, g[9].grant);
  EXPECT_EQ(budget - 8000, g[4].grant);
}

TEST(hf_rxsched_alloc, silent_sender_grant_reclaimed) {
  Table t{};
  Grants g{};
  const hf_rxsched_params p = params();
  const u64 budget = hf_rxsched_budget(&p);
  t[0] = sender(8 * kMiB, budget, 0);  // holds the whole budget
  t[1] = sender(8 * kMiB, 0, 40 * kMs);
  u32 reclaimed = 0;
  alloc(t, p, 45 * kMs, g, &reclaimed);
  EXPECT_EQ(0U, reclaimed);
  EXPECT_EQ(kSeg, g[1].grant);  // the budget is taken: the floor only

  // Nothing from sender 0 for more than 50 ms: its grant stops counting.
  ASSERT_EQ(1U, alloc(t, p, 51 * kMs, g, &reclaimed));
  EXPECT_EQ(1U, reclaimed);
  EXPECT_EQ(1U, t[0].silent);
  EXPECT_EQ(0U, g[0].grant);
  EXPECT_EQ(0U, g[0].rate);
  EXPECT_EQ(budget, g[1].grant);
  EXPECT_EQ(kRate, g[1].rate);
  // Counted once.
  alloc(t, p, 60 * kMs, g, &reclaimed);
  EXPECT_EQ(1U, reclaimed);

  // It speaks again: the caller clears the mark, and it is scheduled.
  t[0].silent = 0;
  t[0].last_ns = 61 * kMs;
  t[1].outstanding = budget;
  ASSERT_EQ(2U, alloc(t, p, 61 * kMs, g, &reclaimed));
  EXPECT_GT(g[0].rate, 0U);
  EXPECT_EQ(1U, reclaimed);
}

TEST(hf_rxsched_alloc, overcommit_is_bounded) {
  Rng rng(35);
  const hf_rxsched_params p = params();
  const u64 budget = hf_rxsched_budget(&p);
  for (int round = 0; round < 20000; round++) {
    Table t{};
    Grants g{};
    const u32 n = 1 + rng.below(HF_RXSCHED_SLOTS);
    u64 used = 0;
    for (u32 i = 0; i < n; i++) {
      if (rng.below(4) == 0) {
        continue;
      }
      const u64 rem = rng.below(4) == 0 ? 1 + rng.below(4000) : 1 + rng.below(64 * kMiB);
      t[i] = sender(rem, rng.below(3) == 0 ? rng.below(static_cast<u32>(budget)) : 0, 0);
      used += t[i].outstanding;
    }
    const u32 k = alloc(t, p, kMs, g);
    u64 after = 0;
    u64 rates = 0;
    bool tail = false;
    for (u32 i = 0; i < HF_RXSCHED_SLOTS; i++) {
      if (t[i].used == 0) {
        continue;
      }
      after += t[i].outstanding + g[i].grant;
      rates += g[i].rate;
      tail |= t[i].remaining <= g[i].target;
      // Never beyond its target, but for the floor.
      EXPECT_LE(t[i].outstanding + g[i].grant,
                std::max<u64>(g[i].target, std::max<u64>(t[i].outstanding, kSeg)));
      EXPECT_GE(g[i].rate, kRate >> HF_RXSCHED_MIN_RATE_SHIFT);
      EXPECT_LE(g[i].rate, kRate);
    }
    // The budget, or what was already out, plus a segment per sender.
    EXPECT_LE(after, std::max(budget, used) + static_cast<u64>(k) * kSeg);
    // Rates add up to the link, unless a short message goes whole.
    if (!tail) {
      EXPECT_LE(rates, kRate + static_cast<u64>(k) * (kRate >> HF_RXSCHED_MIN_RATE_SHIFT));
    }
  }
}
