// Unit tests for kernel/core/hf_rxwin.c: the receive window of one peer
// flow (verdicts, cumulative ack, SACK blocks). Tests follow the order of
// the functions in the source and are named function__case; randomized
// tests use a seeded generator and compare against a plain reference model.
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/rng.h"

extern "C" {
#include "hf_rxwin.h"
#include "hf_wire.h"
}

namespace {

constexpr u32 kWrapStart = 0xffffff00U;  // sequence numbers wrap through zero

using hftest::Rng;

// A receive window with its own ring storage.
class RxWin {
 public:
  RxWin(u32 nbits, u32 initial_seq) : words_(nbits / 64, ~u64{0}) {
    EXPECT_EQ(0, hf_rxwin_init(&win_, words_.data(), nbits, initial_seq));
  }
  RxWin(const RxWin&) = delete;
  RxWin& operator=(const RxWin&) = delete;
  RxWin(RxWin&&) = delete;
  RxWin& operator=(RxWin&&) = delete;
  ~RxWin() = default;

  hf_rxwin* get() { return &win_; }
  hf_rx_verdict mark(u32 seq) { return hf_rxwin_mark(&win_, seq); }
  [[nodiscard]] u32 cum() const { return hf_rxwin_cum(&win_); }
  [[nodiscard]] u32 highest() const { return hf_rxwin_highest(&win_); }
  [[nodiscard]] u32 pending() const { return hf_rxwin_pending(&win_); }
  [[nodiscard]] u64 scanned() const { return win_.scan_words; }
  [[nodiscard]] const std::vector<u64>& words() const { return words_; }

  std::vector<hf_sack_block> sack(unsigned int max) {
    std::array<hf_sack_block, HF_SACK_MAX + 4> out{};
    const unsigned int n = hf_rxwin_sack(&win_, out.data(), max);
    EXPECT_LE(n, std::min<unsigned int>(max, HF_SACK_MAX));
    return {out.begin(), out.begin() + n};
  }

 private:
  std::vector<u64> words_;
  hf_rxwin win_{};
};

// Blocks as (start, end) pairs: comparable, and printed when a check fails.
using Blocks = std::vector<std::pair<u32, u32>>;

Blocks pairs(const std::vector<hf_sack_block>& blocks) {
  Blocks v;
  for (const hf_sack_block& b : blocks) {
    v.emplace_back(b.start, b.end);
  }
  return v;
}

// Blocks relative to a base sequence number, for readable expectations.
Blocks blocks_at(u32 base, std::initializer_list<std::pair<u32, u32>> offs) {
  Blocks v;
  for (const auto& [s, e] : offs) {
    v.emplace_back(base + s, base + e);
  }
  return v;
}

// An ACK carrying @cum and @blocks must survive encode + validating decode.
void expect_valid_on_wire(u32 cum, const std::vector<hf_sack_block>& blocks) {
  hf_hdr h{};
  h.type = HF_TYPE_ACK;
  h.ack.cum_seq = cum;
  h.ack.nsack = static_cast<u8>(blocks.size());
  std::copy(blocks.begin(), blocks.end(), std::begin(h.ack.sack));
  std::array<u8, HF_HLEN_MAX> buf{};
  const int n = hf_hdr_encode(&h, buf.data(), buf.size());
  ASSERT_GT(n, 0);
  hf_hdr out{};
  ASSERT_EQ(HF_WERR_OK, hf_hdr_decode(buf.data(), static_cast<size_t>(n), &out));
  EXPECT_EQ(cum, out.ack.cum_seq);
  ASSERT_EQ(blocks.size(), out.ack.nsack);
  for (size_t i = 0; i < blocks.size(); i++) {
    EXPECT_EQ(blocks[i].start, out.ack.sack[i].start);
    EXPECT_EQ(blocks[i].end, out.ack.sack[i].end);
  }
}

// The reference receiver: one flag per segment, offsets from the start.
class Reference {
 public:
  Reference(u32 start, u32 nsegs) : start_(start), got_(nsegs, 0) {}

  [[nodiscard]] bool has(u32 off) const { return got_[off] != 0; }
  void mark(u32 off) {
    got_[off] = 1;
    highest_ = std::max(highest_, off + 1);
    pending_++;
    while (got_[cum_] != 0) {
      cum_++;
      pending_--;
    }
  }
  [[nodiscard]] u32 cum_off() const { return cum_; }
  [[nodiscard]] u32 highest_off() const { return std::max(highest_, cum_); }
  [[nodiscard]] u32 pending() const { return pending_; }
  // The lowest @n ranges above the cumulative ack, ascending.
  [[nodiscard]] Blocks lowest(size_t n) const {
    Blocks v;
    u32 i = cum_;
    while (i < highest_ && v.size() < n) {
      if (got_[i] == 0) {
        i++;
        continue;
      }
      const u32 s = i;
      while (got_[i] != 0) {
        i++;
      }
      v.emplace_back(start_ + s, start_ + i);
    }
    return v;
  }
  // The highest range: the one ending at highest. Something must be above cum.
  [[nodiscard]] std::pair<u32, u32> top() const {
    u32 s = highest_;
    while (got_[s - 1] != 0) {
      s--;
    }
    return {start_ + s, start_ + highest_};
  }
  // What an ACK carrying at most @max blocks reports: the lowest ranges,
  // and when they do not all fit, the highest in the last place.
  [[nodiscard]] Blocks ranges(unsigned int max) const {
    Blocks v = lowest(size_t{max} + 1);
    if (v.size() > max) {
      v.resize(max);
      if (max > 0) {
        v.back() = top();
      }
    }
    return v;
  }

 private:
  u32 start_;
  std::vector<u8> got_;
  u32 cum_ = 0;
  u32 highest_ = 0;
  u32 pending_ = 0;
};

}  // namespace

TEST(hf_rxwin_init, rejects_bad_sizes_and_storage) {
  std::vector<u64> words(1024);
  hf_rxwin win{};
  for (u32 nbits : {0U, 1U, 32U, 96U, 100U, 1U << 31U}) {
    EXPECT_EQ(-EINVAL, hf_rxwin_init(&win, words.data(), nbits, 0)) << nbits;
  }
  EXPECT_EQ(-EINVAL, hf_rxwin_init(&win, nullptr, 64, 0));
  EXPECT_EQ(0, hf_rxwin_init(&win, words.data(), 64, 0));
  EXPECT_EQ(0, hf_rxwin_init(&win, words.data(), 1024 * 64, 0));
}

TEST(hf_rxwin_init, starts_empty_and_clears_storage) {
  RxWin w(256, 1234);
  EXPECT_EQ(1234U, w.cum());
  EXPECT_EQ(1234U, w.highest());
  EXPECT_EQ(0U, w.pending());
  EXPECT_TRUE(w.sack(HF_SACK_MAX).empty());
  for (u64 word : w.words()) {
    EXPECT_EQ(0U, word);
  }
}

TEST(hf_rxwin_mark, in_order_advances_cum) {
  RxWin w(64, kWrapStart);
  for (u32 i = 0; i < 1000; i++) {
    ASSERT_EQ(HF_RX_NEW, w.mark(kWrapStart + i)) << i;
    EXPECT_EQ(kWrapStart + i + 1, w.cum());
    EXPECT_EQ(w.cum(), w.highest());
    EXPECT_EQ(0U, w.pending());
  }
}

TEST(hf_rxwin_mark, reorder_fills_hole_then_cum_jumps) {
  RxWin w(256, 100);
  for (u32 seq = 101; seq < 110; seq++) {
    ASSERT_EQ(HF_RX_NEW, w.mark(seq));
  }
  EXPECT_EQ(100U, w.cum());
  EXPECT_EQ(9U, w.pending());
  EXPECT_EQ(110U, w.highest());
  ASSERT_EQ(HF_RX_NEW, w.mark(100));
  EXPECT_EQ(110U, w.cum());
  EXPECT_EQ(0U, w.pending());
  // A second hole: cum stops at it, then jumps over what came behind it.
  ASSERT_EQ(HF_RX_NEW, w.mark(112));
  ASSERT_EQ(HF_RX_NEW, w.mark(110));
  EXPECT_EQ(111U, w.cum());
  ASSERT_EQ(HF_RX_NEW, w.mark(111));
  EXPECT_EQ(113U, w.cum());
}

TEST(hf_rxwin_mark, duplicates) {
  RxWin w(256, 1000);
  ASSERT_EQ(HF_RX_NEW, w.mark(1000));
  ASSERT_EQ(HF_RX_NEW, w.mark(1005));
  EXPECT_EQ(HF_RX_DUPLICATE, w.mark(1000));  // below cum
  EXPECT_EQ(HF_RX_DUPLICATE, w.mark(999));
  EXPECT_EQ(HF_RX_DUPLICATE, w.mark(1005));  // already held above cum
  EXPECT_EQ(HF_RX_DUPLICATE, w.mark(1001 - 0x7fffffffU));
  EXPECT_EQ(1001U, w.cum());
  EXPECT_EQ(1U, w.pending());
  EXPECT_EQ(1006U, w.highest());
}

TEST(hf_rxwin_mark, window_edges) {
  RxWin w(64, kWrapStart + 0xc0);  // the window [cum, cum + 64) spans zero
  const u32 cum = w.cum();
  EXPECT_EQ(HF_RX_NEW, w.mark(cum + 63));
  EXPECT_EQ(HF_RX_BEYOND, w.mark(cum + 64));
  EXPECT_EQ(HF_RX_BEYOND, w.mark(cum + 0x7fffffffU));
  EXPECT_EQ(cum + 64, w.highest());
  EXPECT_EQ(1U, w.pending());
  // The window slides with cum: the refused segment now fits.
  ASSERT_EQ(HF_RX_NEW, w.mark(cum));
  EXPECT_EQ(HF_RX_NEW, w.mark(cum + 64));
  EXPECT_EQ(HF_RX_BEYOND, w.mark(cum + 65));
  EXPECT_EQ(cum + 1, w.cum());
  EXPECT_EQ(2U, w.pending());
}

TEST(hf_rxwin_mark, wraps_sequence_space_in_any_order) {
  constexpr u32 kSegs = 8192;
  constexpr u32 kBits = 1024;
  RxWin w(kBits, kWrapStart);
  Rng rng(7);
  // Shuffle within blocks of half a window, so every arrival fits.
  std::vector<u32> order(kSegs);
  for (u32 i = 0; i < kSegs; i++) {
    order[i] = i;
  }
  for (u32 b = 0; b < kSegs; b += kBits / 2) {
    for (u32 i = kBits / 2 - 1; i > 0; i--) {
      std::swap(order[b + i], order[b + rng.below(i + 1)]);
    }
  }
  for (u32 off : order) {
    ASSERT_EQ(HF_RX_NEW, w.mark(kWrapStart + off)) << off;
  }
  EXPECT_EQ(kWrapStart + kSegs, w.cum());
  EXPECT_EQ(0x1f00U, w.cum());
  EXPECT_EQ(0U, w.pending());
  for (u64 word : w.words()) {
    EXPECT_EQ(0U, word);  // every bit cleared as cum passed it
  }
}

TEST(hf_rxwin_mark, long_run_behind_one_hole_is_taken_a_word_at_a_time) {
  constexpr u32 kBits = 1U << 16U;
  RxWin w(kBits, kWrapStart);
  for (u32 i = 1; i < kBits; i++) {
    ASSERT_EQ(HF_RX_NEW, w.mark(kWrapStart + i));
  }
  EXPECT_EQ(kBits - 1, w.pending());
  EXPECT_EQ(HF_RX_BEYOND, w.mark(kWrapStart + kBits));
  ASSERT_EQ(HF_RX_NEW, w.mark(kWrapStart));
  EXPECT_EQ(kWrapStart + kBits, w.cum());
  EXPECT_EQ(0U, w.pending());
  EXPECT_LE(w.scanned(), kBits / 64 + 2);
}

TEST(hf_rxwin_fresh, a_run_in_an_empty_window_up_to_its_edge) {
  RxWin w(64, kWrapStart);
  EXPECT_TRUE(hf_rxwin_fresh(w.get(), kWrapStart, 64));
  EXPECT_FALSE(hf_rxwin_fresh(w.get(), kWrapStart, 65));
  EXPECT_FALSE(hf_rxwin_fresh(w.get(), kWrapStart + 1, 64));
  EXPECT_FALSE(hf_rxwin_fresh(w.get(), kWrapStart - 1, 2));
  EXPECT_FALSE(hf_rxwin_fresh(w.get(), kWrapStart, 0));
}

TEST(hf_rxwin_fresh, not_once_one_segment_of_the_run_arrived) {
  RxWin w(256, kWrapStart);
  ASSERT_EQ(HF_RX_NEW, w.mark(kWrapStart + 100));
  EXPECT_TRUE(hf_rxwin_fresh(w.get(), kWrapStart, 100));
  EXPECT_FALSE(hf_rxwin_fresh(w.get(), kWrapStart, 101));
  EXPECT_FALSE(hf_rxwin_fresh(w.get(), kWrapStart + 90, 20));
  EXPECT_TRUE(hf_rxwin_fresh(w.get(), kWrapStart + 101, 40));
  EXPECT_FALSE(hf_rxwin_fresh(w.get(), kWrapStart + 100, 1));
}

// Against the verdicts themselves: fresh exactly when marking each
// segment of the run in a copy of the window says new for all of them.
TEST(hf_rxwin_fresh, agrees_with_marking_every_segment) {
  constexpr u32 kBits = 512;
  Rng rng(0x7ea1);
  for (int round = 0; round < 200; round++) {
    RxWin w(kBits, kWrapStart);
    const int arrivals = static_cast<int>(rng.below(300));
    for (int i = 0; i < arrivals; i++) {
      (void)w.mark(kWrapStart + static_cast<u32>(rng.below(kBits + 64)));
    }
    for (int q = 0; q < 20; q++) {
      const u32 seq = w.cum() - 8 + static_cast<u32>(rng.below(kBits + 16));
      const u32 n = 1 + static_cast<u32>(rng.below(80));
      RxWin copy(kBits, kWrapStart);
      *copy.get() = *w.get();
      std::vector<u64> words = w.words();
      copy.get()->words = words.data();
      bool all_new = true;
      for (u32 i = 0; i < n; i++) {
        all_new = all_new && copy.mark(seq + i) == HF_RX_NEW;
      }
      ASSERT_EQ(all_new, hf_rxwin_fresh(w.get(), seq, n))
          << "round " << round << " seq - cum " << (seq - w.cum()) << " n " << n;
    }
  }
}

TEST(hf_rxwin_sack, none_while_in_order) {
  RxWin w(64, 5);
  ASSERT_EQ(HF_RX_NEW, w.mark(5));
  EXPECT_TRUE(w.sack(HF_SACK_MAX).empty());
}

TEST(hf_rxwin_sack, ascending_blocks_pass_the_wire_decoder) {
  RxWin w(256, 0);
  for (u32 off : {2U, 3U, 4U, 9U, 12U, 13U, 20U}) {
    ASSERT_EQ(HF_RX_NEW, w.mark(off));
  }
  const auto got = w.sack(HF_SACK_MAX);
  EXPECT_EQ(blocks_at(0, {{2, 5}, {9, 10}, {12, 14}, {20, 21}}), pairs(got));
  expect_valid_on_wire(w.cum(), got);
  // Filling holes merges and extends blocks; cum absorbs the first.
  for (u32 off : {10U, 11U, 0U, 1U, 19U}) {
    ASSERT_EQ(HF_RX_NEW, w.mark(off));
  }
  EXPECT_EQ(5U, w.cum());
  EXPECT_EQ(blocks_at(0, {{9, 14}, {19, 21}}), pairs(w.sack(HF_SACK_MAX)));
  expect_valid_on_wire(w.cum(), w.sack(HF_SACK_MAX));
}

TEST(hf_rxwin_sack, capped_at_max_lowest_ranges_then_the_top) {
  RxWin w(1024, 50);
  Blocks all;
  for (u32 i = 0; i < 40; i++) {  // 40 single-segment ranges, 3-segment holes
    ASSERT_EQ(HF_RX_NEW, w.mark(51 + 4 * i));
    all.emplace_back(51 + 4 * i, 52 + 4 * i);
  }
  // The lowest 15, then the highest: the one ending at hf_rxwin_highest().
  Blocks want(all.begin(), all.begin() + HF_SACK_MAX - 1);
  want.push_back(all.back());
  EXPECT_EQ(w.highest(), want.back().second);
  EXPECT_EQ(want, pairs(w.sack(HF_SACK_MAX)));
  EXPECT_EQ(want, pairs(w.sack(100)));
  EXPECT_EQ(Blocks({all[0], all[1], all.back()}), pairs(w.sack(3)));
  EXPECT_EQ(Blocks{all.back()}, pairs(w.sack(1)));
  EXPECT_TRUE(w.sack(0).empty());
  expect_valid_on_wire(w.cum(), w.sack(HF_SACK_MAX));
  expect_valid_on_wire(w.cum(), w.sack(1));
  // cum absorbs the first range: the 17th comes into the low blocks.
  ASSERT_EQ(HF_RX_NEW, w.mark(50));
  EXPECT_EQ(52U, w.cum());
  want.assign(all.begin() + 1, all.begin() + HF_SACK_MAX);
  want.push_back(all.back());
  EXPECT_EQ(want, pairs(w.sack(HF_SACK_MAX)));
  // A new range below the 15th pushes the 15th out ...
  ASSERT_EQ(HF_RX_NEW, w.mark(57));
  want.assign(all.begin() + 1, all.begin() + HF_SACK_MAX - 1);
  want.insert(want.begin() + 1, {57, 58});
  want.push_back(all.back());
  EXPECT_EQ(want, pairs(w.sack(HF_SACK_MAX)));
  // ... and merging three ranges into one brings two back.
  ASSERT_EQ(HF_RX_NEW, w.mark(56));
  ASSERT_EQ(HF_RX_NEW, w.mark(58));
  want = {{55, 60}};
  want.insert(want.end(), all.begin() + 3, all.begin() + 3 + HF_SACK_MAX - 2);
  want.push_back(all.back());
  EXPECT_EQ(want, pairs(w.sack(HF_SACK_MAX)));
  expect_valid_on_wire(w.cum(), w.sack(HF_SACK_MAX));
}

TEST(hf_rxwin_sack, top_block_follows_the_front) {
  RxWin w(1024, 0);
  for (u32 i = 0; i < 40; i++) {  // ranges [4i + 1, 4i + 2): the top is [157, 158)
    ASSERT_EQ(HF_RX_NEW, w.mark(4 * i + 1));
  }
  const auto top = [&w]() { return pairs(w.sack(HF_SACK_MAX)).back(); };
  ASSERT_EQ(std::make_pair(157U, 158U), top());
  // The top range grows at the front and down; filling the hole below it
  // merges it with the range under it.
  ASSERT_EQ(HF_RX_NEW, w.mark(158));
  EXPECT_EQ(std::make_pair(157U, 159U), top());
  ASSERT_EQ(HF_RX_NEW, w.mark(156));
  ASSERT_EQ(HF_RX_NEW, w.mark(155));
  EXPECT_EQ(std::make_pair(155U, 159U), top());
  ASSERT_EQ(HF_RX_NEW, w.mark(154));
  EXPECT_EQ(std::make_pair(153U, 159U), top());
  // A range past a hole at the front becomes the top; filling the hole
  // merges the two.
  ASSERT_EQ(HF_RX_NEW, w.mark(170));
  EXPECT_EQ(std::make_pair(170U, 171U), top());
  for (u32 seq = 160; seq < 170; seq++) {
    ASSERT_EQ(HF_RX_NEW, w.mark(seq));
  }
  EXPECT_EQ(std::make_pair(160U, 171U), top());
  ASSERT_EQ(HF_RX_NEW, w.mark(159));
  EXPECT_EQ(std::make_pair(153U, 171U), top());
  EXPECT_EQ(w.highest(), top().second);
  // Arrivals in the middle change the low blocks, never the top.
  ASSERT_EQ(HF_RX_NEW, w.mark(100));
  ASSERT_EQ(HF_RX_NEW, w.mark(2));
  const auto got = w.sack(HF_SACK_MAX);
  EXPECT_EQ(std::make_pair(1U, 3U), pairs(got).front());
  EXPECT_EQ(std::make_pair(153U, 171U), pairs(got).back());
  expect_valid_on_wire(w.cum(), got);
}

TEST(hf_rxwin_sack, long_top_range_is_found_a_bounded_scan_per_ack) {
  constexpr u32 kBits = 1U << 16U;
  RxWin w(kBits, kWrapStart);
  const u32 b = kWrapStart;
  for (u32 i = 0; i < 20; i++) {  // 20 short ranges keep the low blocks full
    ASSERT_EQ(HF_RX_NEW, w.mark(b + 2 * i + 1));
  }
  constexpr u32 kLong = 40000;  // then a long range, [100, 100 + kLong)
  for (u32 i = 0; i < kLong; i++) {
    ASSERT_EQ(HF_RX_NEW, w.mark(b + 100 + i));
  }
  // More ranges above it than the window tracks at the top, with
  // one-segment holes, push it out of that short list ...
  constexpr u32 kAbove = HF_RXWIN_TAIL + 1;
  const u32 front = b + 100 + kLong;
  for (u32 i = 0; i < kAbove; i++) {
    ASSERT_EQ(HF_RX_NEW, w.mark(front + 2 * i + 1));
  }
  const u32 highest = w.highest();
  ASSERT_EQ(front + 2 * kAbove, highest);
  EXPECT_EQ(std::make_pair(highest - 1, highest), pairs(w.sack(HF_SACK_MAX)).back());
  // ... so that filling the holes top-down merges the top range into it
  // without knowing where it starts.
  for (u32 i = kAbove; i-- > 0;) {
    ASSERT_EQ(HF_RX_NEW, w.mark(front + 2 * i));
  }
  // Each ACK scans a bounded number of words and reports what it has
  // verified: part of the top range, growing to all of it.
  u32 prev_start = highest;
  u32 acks = 0;
  for (;;) {
    const u64 before = w.scanned();
    const auto got = w.sack(HF_SACK_MAX);
    EXPECT_LE(w.scanned() - before, u64{HF_SACK_MAX} + 2);
    ASSERT_EQ(u32{HF_SACK_MAX}, got.size());
    expect_valid_on_wire(w.cum(), got);
    const hf_sack_block top = got.back();
    EXPECT_EQ(highest, top.end);
    EXPECT_LE(top.start - b, prev_start - b);
    EXPECT_GE(top.start - b, 100U);
    prev_start = top.start;
    acks++;
    if (top.start == b + 100 || acks > kLong / 64) {
      break;
    }
  }
  EXPECT_EQ(b + 100, prev_start);
  EXPECT_GT(acks, 1U);
  EXPECT_LE(acks, kLong / (64 * HF_SACK_MAX) + 2);
  EXPECT_EQ(std::make_pair(b + 100, highest), pairs(w.sack(HF_SACK_MAX)).back());
}

TEST(hf_rxwin_sack, striping_at_the_front_costs_o1_per_ack) {
  constexpr u32 kBits = 1U << 16U;
  RxWin w(kBits, kWrapStart);
  const u32 b = kWrapStart;
  for (u32 i = 0; i < 20; i++) {  // 20 holes keep cum and the low blocks still
    ASSERT_EQ(HF_RX_NEW, w.mark(b + 2 * i + 1));
  }
  ASSERT_EQ(u32{HF_SACK_MAX}, w.sack(HF_SACK_MAX).size());  // finds the low ranges
  // Then pairs arrive swapped, as from two links: each pair's second
  // segment fills the hole below the top range.
  const u64 before = w.scanned();
  for (u32 seq = b + 100; seq - b < kBits - 2; seq += 2) {
    ASSERT_EQ(HF_RX_NEW, w.mark(seq + 1));
    ASSERT_EQ(std::make_pair(seq + 1, seq + 2), pairs(w.sack(HF_SACK_MAX)).back());
    ASSERT_EQ(HF_RX_NEW, w.mark(seq));
    ASSERT_EQ(std::make_pair(b + 100, seq + 2), pairs(w.sack(HF_SACK_MAX)).back());
  }
  // A rescan of the top range per ACK would be ~kBits^2 / 128 loads.
  EXPECT_EQ(0U, w.scanned() - before);
}

TEST(hf_rxwin_sack, blocks_wrap_through_zero) {
  RxWin w(256, 0xfffffff0U);
  for (u32 seq : {0xfffffff4U, 0xfffffffeU, 0xffffffffU, 0U, 1U, 7U}) {
    ASSERT_EQ(HF_RX_NEW, w.mark(seq));
  }
  const auto got = w.sack(HF_SACK_MAX);
  const Blocks want = {{0xfffffff4U, 0xfffffff5U}, {0xfffffffeU, 2U}, {7U, 8U}};
  EXPECT_EQ(want, pairs(got));
  expect_valid_on_wire(w.cum(), got);
}

TEST(hf_rxwin_sack, random_arrivals_match_reference) {
  constexpr u32 kBits = 256;
  constexpr u32 kSegs = 6000;
  for (u64 seed = 1; seed <= 6; seed++) {
    RxWin w(kBits, kWrapStart);
    Reference ref(kWrapStart, kSegs + 2 * kBits);
    Rng rng(seed);
    // Scattered arrivals make many short ranges, so the run list fills,
    // pushes ranges out and finds them again; arrivals near cum move it on.
    const u32 scatter = 30 + 10 * static_cast<u32>(seed);
    u64 steps = 0;
    while (ref.cum_off() < kSegs) {
      const u32 cum = ref.cum_off();
      const u32 r = rng.below(100);
      u32 off = 0;
      if (r < 2) {
        off = cum + kBits + rng.below(4);  // past the window
      } else if (r < 4 && cum > 0) {
        off = cum - 1 - rng.below(std::min(cum, 4U));  // behind cum
      } else if (r < scatter) {
        off = cum + rng.below(kBits);
      } else {
        off = cum + rng.below(4);
      }
      hf_rx_verdict want = HF_RX_NEW;
      if (off < cum || (off - cum < kBits && ref.has(off))) {
        want = HF_RX_DUPLICATE;
      } else if (off - cum >= kBits) {
        want = HF_RX_BEYOND;
      }
      ASSERT_EQ(want, w.mark(kWrapStart + off)) << "seed " << seed << " off " << off;
      if (want == HF_RX_NEW) {
        ref.mark(off);
      }
      ASSERT_EQ(kWrapStart + ref.cum_off(), w.cum());
      ASSERT_EQ(kWrapStart + ref.highest_off(), w.highest());
      ASSERT_EQ(ref.pending(), w.pending());
      const unsigned int max = rng.below(HF_SACK_MAX + 3);
      const auto got = w.sack(max);
      ASSERT_EQ(ref.ranges(std::min<unsigned int>(max, HF_SACK_MAX)), pairs(got))
          << "seed " << seed << " step " << steps;
      expect_valid_on_wire(w.cum(), got);
      if (!got.empty() && ref.lowest(got.size() + 1).size() > got.size()) {
        ASSERT_EQ(w.highest(), got.back().end);
      }
      steps++;
    }
  }
}

TEST(hf_rxwin_sack, random_transfer_keeps_the_top_block_valid) {
  // A transfer over a window of 64 words, more than one ACK scans for the
  // top range: segments arrive in order but for losses (repaired much
  // later, some lost again) and short delays, and now and then a burst of
  // repairs fills the holes near the front, the last of them from the top
  // down. That merges the top range into a long range the window does not
  // track, so its start is found over several ACKs; meanwhile the top
  // block must be received, end at highest and grow to the whole range.
  constexpr u32 kBits = 4096;
  constexpr u32 kSegs = 20000;
  using Due = std::pair<u64, u32>;  // (step, offset)
  for (u64 seed = 1; seed <= 3; seed++) {
    RxWin w(kBits, kWrapStart);
    Reference ref(kWrapStart, kSegs + 2 * kBits);
    Rng rng(seed);
    std::priority_queue<Due, std::vector<Due>, std::greater<>> pending;
    u32 front = 0;  // one past the highest offset sent
    u64 now = 0;
    u64 next_burst = 2500;
    u64 partial = 0;  // ACKs whose top block was part of the top range
    auto arrive = [&](u32 off) {
      if (ref.has(off)) {
        return;
      }
      ASSERT_EQ(HF_RX_NEW, w.mark(kWrapStart + off));
      ref.mark(off);
      ASSERT_EQ(kWrapStart + ref.cum_off(), w.cum());
      const Blocks want = ref.ranges(HF_SACK_MAX);
      const auto raw = w.sack(HF_SACK_MAX);
      const Blocks got = pairs(raw);
      expect_valid_on_wire(w.cum(), raw);
      if (ref.lowest(HF_SACK_MAX + 1).size() <= HF_SACK_MAX) {
        ASSERT_EQ(want, got) << "seed " << seed << " step " << now;
        return;
      }
      // All but the top block exactly; that one received and ending at highest.
      ASSERT_EQ(want.size(), got.size());
      ASSERT_TRUE(std::equal(got.begin(), got.end() - 1, want.begin()));
      ASSERT_EQ(want.back().second, got.back().second);
      ASSERT_GE(got.back().first - kWrapStart, want.back().first - kWrapStart)
          << "seed " << seed << " step " << now;
      partial += got.back() != want.back() ? 1 : 0;
    };
    while (ref.cum_off() < kSegs) {
      now++;
      if (!pending.empty() && pending.top().first <= now) {
        const u32 off = pending.top().second;
        pending.pop();
        if (rng.below(100) < 15) {
          pending.emplace(now + 500 + rng.below(1500), off);  // the repair is lost too
        } else {
          arrive(off);
        }
      } else if (now >= next_burst) {
        next_burst = now + 2500;
        // Repairs fill the holes in [front - 1600, front - 100) from the
        // bottom, making a long range, then the rest from the top down.
        const u32 lo = std::max(ref.cum_off() + 1, front - std::min(front, 1600U));
        const u32 mid = std::max(lo, front - std::min(front, 100U));
        for (u32 off = lo; off < mid; off++) {
          arrive(off);
        }
        for (u32 off = front; off-- > mid;) {
          arrive(off);
        }
      } else if (front < kSegs && front - ref.cum_off() < kBits - 1) {
        const u32 off = front++;
        const u32 r = rng.below(100);
        if (r < 8) {
          pending.emplace(now + 1500 + rng.below(2000), off);
        } else if (r < 12) {
          pending.emplace(now + 1 + rng.below(4), off);
        } else {
          arrive(off);
        }
      } else if (!pending.empty()) {
        now = std::max(now, pending.top().first) - 1;  // window full: wait
      }
      if (HasFatalFailure()) {
        return;
      }
    }
    EXPECT_GT(partial, 0U) << "seed " << seed;  // the slow path was taken
  }
}

TEST(hf_rxwin_sack, top_block_scan_completes_with_no_arrivals) {
  constexpr u32 kBits = 4096;
  RxWin w(kBits, 0);
  for (u32 i = 0; i < 20; i++) {
    ASSERT_EQ(HF_RX_NEW, w.mark(2 * i + 1));
  }
  for (u32 seq = 100; seq < 3000; seq++) {  // the long range below the top
    ASSERT_EQ(HF_RX_NEW, w.mark(seq));
  }
  for (u32 i = 0; i < HF_RXWIN_TAIL + 1; i++) {  // enough to push it out
    ASSERT_EQ(HF_RX_NEW, w.mark(3001 + 2 * i));
  }
  for (u32 i = HF_RXWIN_TAIL + 1; i-- > 0;) {
    ASSERT_EQ(HF_RX_NEW, w.mark(3000 + 2 * i));
  }
  // The 2900 segments below the merge point span 46 words: the third ACK,
  // with no arrival in between, reports the whole top range.
  const std::pair<u32, u32> whole(100, 3002 + 2 * HF_RXWIN_TAIL);
  u32 partial = 0;
  while (pairs(w.sack(HF_SACK_MAX)).back() != whole && partial < kBits) {
    partial++;
  }
  EXPECT_EQ(2U, partial);
}

TEST(hf_rxwin_sack, single_loss_in_64k_window_costs_o1_per_ack) {
  constexpr u32 kBits = 1U << 16U;
  RxWin w(kBits, kWrapStart);
  for (u32 i = 1; i < kBits; i++) {
    ASSERT_EQ(HF_RX_NEW, w.mark(kWrapStart + i));
    const auto got = w.sack(HF_SACK_MAX);
    ASSERT_EQ(1U, got.size());
    ASSERT_EQ(kWrapStart + i + 1, got[0].end);
  }
  ASSERT_EQ(HF_RX_NEW, w.mark(kWrapStart));
  EXPECT_EQ(kWrapStart + kBits, w.cum());
  // One ACK per segment: a rescan per ACK would be ~kBits^2 / 128 loads.
  EXPECT_LE(w.scanned(), 2 * kBits / 64 + 16);
}

TEST(hf_rxwin_highest, one_past_the_highest_arrival) {
  RxWin w(128, 0xfffffffeU);
  EXPECT_EQ(0xfffffffeU, w.highest());
  ASSERT_EQ(HF_RX_NEW, w.mark(3));
  EXPECT_EQ(4U, w.highest());
  ASSERT_EQ(HF_RX_NEW, w.mark(1));
  EXPECT_EQ(4U, w.highest());
  ASSERT_EQ(HF_RX_NEW, w.mark(0xfffffffeU));
  ASSERT_EQ(HF_RX_NEW, w.mark(0xffffffffU));
  ASSERT_EQ(HF_RX_NEW, w.mark(0U));
  ASSERT_EQ(HF_RX_NEW, w.mark(2U));
  EXPECT_EQ(4U, w.cum());
  EXPECT_EQ(4U, w.highest());
}

TEST(hf_rxwin_pending, counts_arrivals_above_cum) {
  RxWin w(128, 0);
  EXPECT_EQ(0U, w.pending());
  ASSERT_EQ(HF_RX_NEW, w.mark(5));
  ASSERT_EQ(HF_RX_NEW, w.mark(6));
  EXPECT_EQ(HF_RX_DUPLICATE, w.mark(6));
  EXPECT_EQ(2U, w.pending());
  ASSERT_EQ(HF_RX_NEW, w.mark(0));
  EXPECT_EQ(2U, w.pending());
  for (u32 seq = 1; seq < 5; seq++) {
    ASSERT_EQ(HF_RX_NEW, w.mark(seq));
  }
  EXPECT_EQ(0U, w.pending());
  EXPECT_EQ(7U, w.cum());
}
