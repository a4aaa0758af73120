// Unit tests for kernel/core/hf_txwin.c: the send scoreboard of one peer
// flow (sequence numbers, ACK processing, RFC 6675 loss detection, RTO).
// Tests follow the order of the functions in the source and are named
// function__case; the end-to-end simulations of a sender and a receiver
// window over a lossy channel come last.
#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/rng.h"

extern "C" {
#include "hf_rxwin.h"
#include "hf_txwin.h"
#include "hf_wire.h"
}

namespace {

constexpr u32 kWrapStart = 0xffffff00U;  // sequence numbers wrap through zero

using hftest::Rng;

using Blocks = std::vector<std::pair<u32, u32>>;

// A send scoreboard with its own ring storage.
class TxWin {
 public:
  TxWin(u32 nbits, u32 initial_seq) : sacked_(nbits / 64, ~u64{0}), rexmit_(nbits / 64, ~u64{0}) {
    EXPECT_EQ(0, hf_txwin_init(&win_, sacked_.data(), rexmit_.data(), nbits, initial_seq));
  }
  TxWin(const TxWin&) = delete;
  TxWin& operator=(const TxWin&) = delete;
  TxWin(TxWin&&) = delete;
  TxWin& operator=(TxWin&&) = delete;
  ~TxWin() = default;

  hf_txwin* get() { return &win_; }
  [[nodiscard]] u32 una() const { return hf_txwin_una(&win_); }
  [[nodiscard]] u32 nxt() const { return hf_txwin_nxt(&win_); }
  [[nodiscard]] u32 inflight() const { return hf_txwin_inflight(&win_); }
  [[nodiscard]] u32 nsacked() const { return hf_txwin_nsacked(&win_); }
  [[nodiscard]] u64 scanned() const { return win_.scan_words; }
  [[nodiscard]] const std::vector<u64>& sacked_words() const { return sacked_; }
  [[nodiscard]] const std::vector<u64>& rexmit_words() const { return rexmit_; }

  // Sends @n new segments; all must fit.
  void send(u32 n) {
    for (u32 i = 0; i < n; i++) {
      u32 seq = 0;
      ASSERT_EQ(0, hf_txwin_send(&win_, &seq));
    }
  }
  hf_txwin_ack_result ack(u32 cum, const Blocks& blocks) {
    std::vector<hf_sack_block> b;
    for (const auto& [s, e] : blocks) {
      b.push_back({s, e});
    }
    hf_txwin_ack_result res{};
    hf_txwin_ack(&win_, cum, b.data(), static_cast<unsigned int>(b.size()), &res);
    return res;
  }
  // Every segment hf_txwin_next_lost() hands out now, in order.
  std::vector<u32> drain_lost() {
    std::vector<u32> v;
    u32 seq = 0;
    while (hf_txwin_next_lost(&win_, &seq)) {
      v.push_back(seq);
    }
    return v;
  }
  u32 rto() { return hf_txwin_rto(&win_); }
  [[nodiscard]] bool retransmitted(u32 seq) const { return hf_txwin_retransmitted(&win_, seq); }
  [[nodiscard]] bool sacked(u32 seq) const { return hf_txwin_sacked(&win_, seq); }

 private:
  std::vector<u64> sacked_;
  std::vector<u64> rexmit_;
  hf_txwin win_{};
};

// Offsets from @base, for readable expectations.
std::vector<u32> seqs_at(u32 base, std::initializer_list<u32> offs) {
  std::vector<u32> v;
  for (u32 o : offs) {
    v.push_back(base + o);
  }
  return v;
}

// The SACK blocks a receiver holding @got (offsets from @base) reports:
// the lowest HF_SACK_MAX ranges above its cumulative ack.
std::pair<u32, Blocks> receiver_ack(u32 base, const std::vector<u8>& got) {
  u32 cum = 0;
  while (cum < got.size() && got[cum] != 0) {
    cum++;
  }
  Blocks blocks;
  u32 i = cum;
  while (i < got.size() && blocks.size() < HF_SACK_MAX) {
    if (got[i] == 0) {
      i++;
      continue;
    }
    const u32 s = i;
    while (i < got.size() && got[i] != 0) {
      i++;
    }
    blocks.emplace_back(base + s, base + i);
  }
  return {base + cum, blocks};
}

// The end-to-end simulation: a sender (hf_txwin) and a receiver
// (hf_rxwin) exchanging DATA and encoded ACK frames through a channel
// that loses, duplicates and delays.
struct SimConfig {
  u32 segments;
  u32 nbits;        // both windows
  u32 loss_pct;     // DATA frames dropped
  u32 dup_pct;      // DATA frames delivered twice
  u32 reorder_pct;  // frames (DATA and ACK) delayed past later ones
  u64 seed;
};

struct SimResult {
  u64 transmissions = 0;
  u64 lost = 0;         // DATA frames the channel dropped
  u64 retransmits = 0;  // by loss detection + by RTO
  u64 rto_retransmits = 0;
  u64 rtos = 0;
  u64 delayed = 0;  // DATA frames the channel reordered
  u64 duplicates = 0;
  u64 stale_acks = 0;
  u64 acks = 0;
  u64 ticks = 0;
  u64 rx_words = 0;
  u64 tx_words = 0;
  bool delivered_once = false;
};

struct Frame {
  u64 due;
  u64 order;  // send order: ties keep FIFO
  u32 seq;    // DATA: the segment; ACK: index into the ACK store
  bool operator>(const Frame& o) const { return due != o.due ? due > o.due : order > o.order; }
};

using FrameQueue = std::priority_queue<Frame, std::vector<Frame>, std::greater<>>;

struct Ack {
  std::array<u8, HF_HLEN_MAX> bytes;
  int len;
};

// Runs one transfer. The sender sends up to kBudget segments a tick,
// retransmissions first. When nothing is in flight and it cannot send, its
// timer fires: hf_txwin_rto(), then it resends what hf_txwin_next_lost()
// hands out, stopping at the end of the newest ACK's last low block if that
// ACK carried HF_SACK_MAX blocks: the receiver then reports its lowest
// ranges and, in the last place, its highest, so between the two a segment
// may have arrived unreported and resending it could be spurious. Until una
// passes nxt-at-RTO the sender sends nothing else; the next timer covers
// whatever those resends lost (and clears the mark on the segment the loop
// stopped at).
SimResult simulate(const SimConfig& cfg) {
  constexpr u32 kBudget = 64;
  constexpr u64 kLatency = 4;
  constexpr u64 kMaxTicks = 10'000'000;
  const u32 start = kWrapStart;
  const u32 end = start + cfg.segments;
  Rng rng(cfg.seed);
  SimResult res;

  std::vector<u64> rx_words(cfg.nbits / 64);
  std::vector<u64> sacked(cfg.nbits / 64);
  std::vector<u64> rexmit(cfg.nbits / 64);
  hf_rxwin rx{};
  hf_txwin tx{};
  EXPECT_EQ(0, hf_rxwin_init(&rx, rx_words.data(), cfg.nbits, start));
  EXPECT_EQ(0, hf_txwin_init(&tx, sacked.data(), rexmit.data(), cfg.nbits, start));
  std::vector<u32> delivered(cfg.segments, 0);

  FrameQueue data;
  FrameQueue acks;
  std::vector<Ack> ack_store;
  u64 order = 0;
  u64 now = 0;
  bool in_rto = false;
  u32 recover = start;
  u64 newest_ack = 0;        // order of the newest ACK the sender processed
  bool newest_full = false;  // it carried HF_SACK_MAX blocks: it may be cut short
  u32 newest_end = start;    // and then says nothing past its last low block

  auto delay = [&]() -> u64 { return rng.percent(cfg.reorder_pct) ? 1 + rng.below(12) : 0; };
  auto transmit = [&](u32 seq) {
    res.transmissions++;
    if (rng.percent(cfg.loss_pct)) {
      res.lost++;
      return;
    }
    const u64 extra = delay();
    res.delayed += extra != 0 ? 1 : 0;
    data.push({now + kLatency + extra, order++, seq});
    if (rng.percent(cfg.dup_pct)) {
      data.push({now + kLatency + extra + 1, order++, seq});
    }
  };
  auto send_ack = [&]() {
    hf_hdr h{};
    h.type = HF_TYPE_ACK;
    h.ack.cum_seq = hf_rxwin_cum(&rx);
    h.ack.nsack = static_cast<u8>(hf_rxwin_sack(&rx, std::begin(h.ack.sack), HF_SACK_MAX));
    Ack a{};
    a.len = hf_hdr_encode(&h, a.bytes.data(), a.bytes.size());
    EXPECT_GT(a.len, 0);
    ack_store.push_back(a);
    acks.push({now + kLatency + delay(), order++, static_cast<u32>(ack_store.size() - 1)});
  };

  while ((hf_rxwin_cum(&rx) != end || hf_txwin_una(&tx) != end) && now < kMaxTicks) {
    now++;
    while (!data.empty() && data.top().due <= now) {
      const u32 seq = data.top().seq;
      data.pop();
      const hf_rx_verdict v = hf_rxwin_mark(&rx, seq);
      EXPECT_NE(HF_RX_BEYOND, v);
      if (v == HF_RX_NEW) {
        delivered[seq - start]++;
      } else {
        res.duplicates++;
      }
      send_ack();
    }
    while (!acks.empty() && acks.top().due <= now) {
      const Frame f = acks.top();
      acks.pop();
      const Ack& a = ack_store[f.seq];
      hf_hdr h{};
      EXPECT_EQ(HF_WERR_OK, hf_hdr_decode(a.bytes.data(), static_cast<size_t>(a.len), &h));
      hf_txwin_ack_result r{};
      hf_txwin_ack(&tx, h.ack.cum_seq, std::begin(h.ack.sack), h.ack.nsack, &r);
      EXPECT_EQ(0U, r.invalid);
      res.acks++;
      res.stale_acks += r.stale ? 1 : 0;
      if (f.order > newest_ack) {
        newest_ack = f.order;
        newest_full = h.ack.nsack == HF_SACK_MAX;
        newest_end = newest_full ? h.ack.sack[HF_SACK_MAX - 2].end : 0;
      }
    }
    if (in_rto && !hf_seq_before(hf_txwin_una(&tx), recover)) {
      in_rto = false;
    }
    u32 sent = 0;
    u32 seq = 0;
    while (!in_rto && sent < kBudget) {
      if (hf_txwin_next_lost(&tx, &seq)) {
        res.retransmits++;
      } else if (!hf_seq_before(hf_txwin_nxt(&tx), end) || hf_txwin_send(&tx, &seq) != 0) {
        break;
      }
      transmit(seq);
      sent++;
    }
    if (sent == 0 && data.empty() && acks.empty() && hf_txwin_una(&tx) != end) {
      res.rtos++;
      hf_txwin_rto(&tx);
      in_rto = true;
      recover = hf_txwin_nxt(&tx);
      // Nothing in flight: a segment sent after the newest ACK was made has
      // been lost, or it would have made a newer one. So only a full ACK
      // leaves segments of unknown fate (those past its last block).
      const u32 frontier = newest_full ? newest_end : recover;
      while (hf_txwin_next_lost(&tx, &seq) && hf_seq_before(seq, frontier)) {
        res.retransmits++;
        res.rto_retransmits++;
        transmit(seq);
      }
    }
  }
  res.ticks = now;
  res.rx_words = rx.scan_words;
  res.tx_words = tx.scan_words;
  res.delivered_once =
      std::all_of(delivered.begin(), delivered.end(), [](u32 n) { return n == 1; });
  EXPECT_EQ(end, hf_rxwin_cum(&rx));
  EXPECT_EQ(end, hf_txwin_una(&tx));
  return res;
}

void report(const char* name, const SimConfig& cfg, const SimResult& r) {
  std::printf("%s: %u segments, %" PRIu64 " transmissions, %" PRIu64 " lost, %" PRIu64
              " retransmits (%" PRIu64 " after %" PRIu64 " RTOs), %" PRIu64 " delayed, %" PRIu64
              " duplicates, %" PRIu64 " acks (%" PRIu64 " stale), words scanned rx %" PRIu64
              " tx %" PRIu64 " (%.2f per segment), %" PRIu64 " ticks\n",
              name, cfg.segments, r.transmissions, r.lost, r.retransmits, r.rto_retransmits, r.rtos,
              r.delayed, r.duplicates, r.acks, r.stale_acks, r.rx_words, r.tx_words,
              static_cast<double>(r.rx_words + r.tx_words) / cfg.segments, r.ticks);
}

}  // namespace

TEST(hf_txwin_init, rejects_bad_sizes_and_storage) {
  std::vector<u64> a(64);
  std::vector<u64> b(64);
  hf_txwin win{};
  for (u32 nbits : {0U, 32U, 96U, 1U << 31U}) {
    EXPECT_EQ(-EINVAL, hf_txwin_init(&win, a.data(), b.data(), nbits, 0)) << nbits;
  }
  EXPECT_EQ(-EINVAL, hf_txwin_init(&win, nullptr, b.data(), 64, 0));
  EXPECT_EQ(-EINVAL, hf_txwin_init(&win, a.data(), nullptr, 64, 0));
  EXPECT_EQ(-EINVAL, hf_txwin_init(&win, a.data(), a.data(), 64, 0));
  EXPECT_EQ(0, hf_txwin_init(&win, a.data(), b.data(), 64 * 64, 0));
}

TEST(hf_txwin_init, starts_empty_and_clears_storage) {
  TxWin w(128, 77);
  EXPECT_EQ(77U, w.una());
  EXPECT_EQ(77U, w.nxt());
  EXPECT_EQ(0U, w.inflight());
  EXPECT_EQ(0U, w.nsacked());
  EXPECT_TRUE(w.drain_lost().empty());
  for (u64 word : w.sacked_words()) {
    EXPECT_EQ(0U, word);
  }
  for (u64 word : w.rexmit_words()) {
    EXPECT_EQ(0U, word);
  }
}

TEST(hf_txwin_send, consecutive_seqs_until_full_across_wrap) {
  TxWin w(64, 0xffffffe0U);
  for (u32 i = 0; i < 64; i++) {
    u32 seq = 0;
    ASSERT_EQ(0, hf_txwin_send(w.get(), &seq));
    EXPECT_EQ(0xffffffe0U + i, seq);
  }
  u32 seq = 12345;
  EXPECT_EQ(-ENOSPC, hf_txwin_send(w.get(), &seq));
  EXPECT_EQ(12345U, seq);
  EXPECT_EQ(64U, w.inflight());
  EXPECT_EQ(10U, w.ack(0xffffffe0U + 10, {}).acked);
  w.send(10);
  EXPECT_EQ(-ENOSPC, hf_txwin_send(w.get(), &seq));
  EXPECT_EQ(0x2aU, w.nxt());
}

TEST(hf_txwin_ack, cumulative_ack_advances_una) {
  TxWin w(128, kWrapStart + 0xf8);
  const u32 base = w.una();
  w.send(20);
  hf_txwin_ack_result r = w.ack(base + 5, {});
  EXPECT_EQ(5U, r.acked);
  EXPECT_EQ(0U, r.invalid);
  EXPECT_FALSE(r.stale);
  EXPECT_EQ(base + 5, w.una());
  EXPECT_EQ(15U, w.inflight());
  r = w.ack(base + 5, {});  // the same again: nothing new
  EXPECT_EQ(0U, r.acked);
  EXPECT_FALSE(r.stale);
  r = w.ack(base + 20, {});  // everything, across zero
  EXPECT_EQ(15U, r.acked);
  EXPECT_EQ(0U, w.inflight());
}

TEST(hf_txwin_ack, sacks_are_counted_once) {
  TxWin w(128, 1000);
  w.send(30);
  hf_txwin_ack_result r = w.ack(1000, {{1002, 1005}, {1010, 1011}});
  EXPECT_EQ(4U, r.sacked);
  EXPECT_EQ(4U, w.nsacked());
  r = w.ack(1000, {{1002, 1005}, {1010, 1011}});
  EXPECT_EQ(0U, r.sacked);
  r = w.ack(1000, {{1002, 1007}, {1009, 1012}});  // grown on both sides
  EXPECT_EQ(4U, r.sacked);
  r = w.ack(1000, {{1001, 1012}});  // merged: 1001, 1007 and 1008 are new
  EXPECT_EQ(3U, r.sacked);
  EXPECT_EQ(11U, w.nsacked());
  // The cumulative ack takes SACKed segments out of the count.
  r = w.ack(1005, {{1006, 1012}});
  EXPECT_EQ(5U, r.acked);
  EXPECT_EQ(0U, r.sacked);
  EXPECT_EQ(7U, w.nsacked());
  EXPECT_EQ(25U, w.inflight());
}

TEST(hf_txwin_ack, counts_what_is_newly_delivered) {
  TxWin w(128, kWrapStart + 0xfa);
  const u32 b = w.una();
  w.send(30);
  // Four newly SACKed.
  EXPECT_EQ(4U, w.ack(b, {{b + 2, b + 5}, {b + 10, b + 11}}).delivered);
  // una passes 0..5: 2..4 were known already, so 0, 1 and 5 are new; so
  // are the SACKs of 11 and 12.
  const hf_txwin_ack_result r = w.ack(b + 6, {{b + 10, b + 13}});
  EXPECT_EQ(6U, r.acked);
  EXPECT_EQ(2U, r.sacked);
  EXPECT_EQ(5U, r.delivered);
  EXPECT_EQ(0U, w.ack(b + 6, {{b + 10, b + 13}}).delivered);  // the same again
  EXPECT_EQ(0U, w.ack(b + 4, {{b + 14, b + 20}}).delivered);  // stale
  EXPECT_EQ(0U, w.ack(b + 31, {}).delivered);                 // hostile
}

TEST(hf_txwin_repairs, deliveries_pay_for_repairs) {
  TxWin w(128, 0);
  w.send(40);
  hf_txwin* win = w.get();
  EXPECT_FALSE(hf_txwin_repairs_take(win));  // nothing delivered yet
  hf_txwin_repairs_grant(win, 3, false, false);
  EXPECT_TRUE(hf_txwin_repairs_take(win));
  // Outside a recovery an ACK's own deliveries are the whole allowance.
  hf_txwin_repairs_grant(win, 2, false, false);
  EXPECT_EQ(2U, win->repairs);
  // In one, they add up.
  hf_txwin_repairs_grant(win, 5, true, false);
  EXPECT_EQ(7U, win->repairs);
  for (int i = 0; i < 7; i++) {
    EXPECT_TRUE(hf_txwin_repairs_take(win));
  }
  EXPECT_FALSE(hf_txwin_repairs_take(win));
  // Never more than is in flight to repair.
  hf_txwin_repairs_grant(win, 30, true, false);
  hf_txwin_repairs_grant(win, 30, true, false);
  EXPECT_EQ(40U, win->repairs);
  w.ack(35, {});
  hf_txwin_repairs_grant(win, 0, true, false);
  EXPECT_EQ(5U, win->repairs);
  hf_txwin_repairs_grant(win, ~0U, true, false);  // no wrap
  EXPECT_EQ(5U, win->repairs);
}

TEST(hf_txwin_repairs, slow_start_after_a_confirmed_rto) {
  TxWin w(128, 0);
  w.send(40);
  hf_txwin* win = w.get();
  hf_txwin_repairs_grant(win, 3, false, true);
  EXPECT_EQ(6U, win->repairs);  // two repairs per segment delivered
  hf_txwin_repairs_grant(win, 4, true, true);
  EXPECT_EQ(14U, win->repairs);
  hf_txwin_repairs_grant(win, ~0U, true, true);  // no wrap, capped
  EXPECT_EQ(40U, win->repairs);
}

TEST(hf_txwin_repair_end, highest_sack_unless_a_confirmed_rto) {
  TxWin w(256, kWrapStart + 0xf0);
  const u32 b = w.una();
  w.send(100);
  w.ack(b + 10, {{b + 20, b + 30}});
  // Loss detection stops at the highest SACK: above, segments may still
  // be on their way.
  EXPECT_EQ(b + 30, hf_txwin_repair_end(w.get(), false));
  // No RTO yet: a confirmation changes nothing.
  EXPECT_EQ(b + 30, hf_txwin_repair_end(w.get(), true));
  w.rto();
  EXPECT_EQ(b + 30, hf_txwin_repair_end(w.get(), false));
  EXPECT_EQ(b + 100, hf_txwin_repair_end(w.get(), true));
  // Undone (F-RTO found it spurious): back to the highest SACK.
  hf_txwin_rto_undo(w.get());
  EXPECT_EQ(b + 30, hf_txwin_repair_end(w.get(), true));
  // Data sent after the RTO is not its business.
  w.rto();
  w.ack(b + 100, {});
  w.send(20);
  w.ack(b + 100, {{b + 105, b + 106}});
  EXPECT_EQ(b + 106, hf_txwin_repair_end(w.get(), true));
}

// Issue 40: a flight the receiver refused whole (or lost whole) after a
// timeout. The timer resends a budget; from then on the acks of those
// repairs pay for the rest, above the highest SACK too, doubling per
// round trip. Before, only the next timeout resent the next budget:
// 400 segments took 25 backed-off timeouts.
TEST(hf_txwin_end_to_end, confirmed_rto_repairs_a_whole_flight_in_a_few_round_trips) {
  constexpr u32 kFlight = 400;
  constexpr u32 kRtoBudget = 16;
  TxWin w(1024, kWrapStart + 0x80);
  const u32 b = w.una();
  w.send(kFlight);
  // Nothing arrived; the timer resends its budget, and the first ack
  // (which the caller takes as the F-RTO verdict: only resent data
  // arrived) confirms the RTO.
  w.rto();
  std::vector<u32> flight;
  u32 seq = 0;
  for (u32 i = 0; i < kRtoBudget && hf_txwin_next_lost(w.get(), &seq); i++) {
    flight.push_back(seq);
  }
  int rounds = 0;
  while (w.una() != w.nxt() && rounds < 100) {
    rounds++;
    // A round trip: everything resent arrives, in order, and is acked.
    std::sort(flight.begin(), flight.end(), [b](u32 x, u32 y) { return x - b < y - b; });
    u32 cum = w.una();
    while (!flight.empty() && flight.front() == cum) {
      cum++;
      flight.erase(flight.begin());
    }
    const hf_txwin_ack_result r = w.ack(cum, {});
    hf_txwin_repairs_grant(w.get(), r.delivered, true, true);
    const u32 end = hf_txwin_repair_end(w.get(), true);
    while (hf_txwin_peek_lost(w.get(), &seq) && seq - b < end - b &&
           hf_txwin_repairs_take(w.get())) {
      ASSERT_TRUE(hf_txwin_next_lost(w.get(), &seq));
      flight.push_back(seq);
    }
  }
  EXPECT_EQ(w.nxt(), w.una());
  // 16, 32, 64, 128, 256: every segment resent within 5 round trips,
  // acked at the 6th.
  EXPECT_LE(rounds, 6);
}

TEST(hf_txwin_ack, stale_ack_is_ignored) {
  TxWin w(128, 0);
  w.send(20);
  ASSERT_EQ(10U, w.ack(10, {}).acked);
  const hf_txwin_ack_result r = w.ack(8, {{11, 15}});
  EXPECT_TRUE(r.stale);
  EXPECT_EQ(0U, r.acked);
  EXPECT_EQ(0U, r.sacked);
  EXPECT_EQ(0U, r.invalid);
  EXPECT_EQ(10U, w.una());
  EXPECT_EQ(0U, w.nsacked());
}

TEST(hf_txwin_ack, ack_beyond_nxt_is_hostile_and_dropped) {
  TxWin w(128, kWrapStart + 0xfc);
  const u32 base = w.una();
  w.send(10);
  hf_txwin_ack_result r = w.ack(base + 11, {{base + 12, base + 13}});
  EXPECT_EQ(1U, r.invalid);
  EXPECT_EQ(0U, r.acked);
  EXPECT_EQ(0U, r.sacked);
  EXPECT_EQ(base, w.una());
  r = w.ack(base + 0x7fffffffU, {});
  EXPECT_EQ(1U, r.invalid);
  EXPECT_EQ(base, w.una());
  r = w.ack(base + 10, {});  // exactly nxt: everything sent
  EXPECT_EQ(0U, r.invalid);
  EXPECT_EQ(10U, r.acked);
}

TEST(hf_txwin_ack, blocks_outside_flight_are_hostile_and_skipped) {
  TxWin w(128, 500);
  w.send(20);
  const hf_txwin_ack_result r = w.ack(502, {
                                               {503, 505},  // fine
                                               {502, 503},  // at cum
                                               {510, 509},  // inverted
                                               {511, 511},  // empty
                                               {515, 521},  // ends past nxt
                                               {400, 401},  // behind una
                                               {517, 520},  // fine, ends at nxt
                                           });
  EXPECT_EQ(5U, r.invalid);
  EXPECT_EQ(5U, r.sacked);
  EXPECT_EQ(5U, w.nsacked());
  EXPECT_EQ(2U, r.acked);
}

TEST(hf_txwin_ack, blocks_in_any_order_still_apply) {
  TxWin w(256, 0);
  w.send(100);
  hf_txwin_ack_result r = w.ack(0, {{50, 60}, {10, 20}, {55, 70}, {90, 91}});
  EXPECT_EQ(0U, r.invalid);
  EXPECT_EQ(31U, r.sacked);
  r = w.ack(0, {{10, 20}, {50, 70}, {5, 8}, {90, 91}});
  EXPECT_EQ(3U, r.sacked);
  EXPECT_EQ(34U, w.nsacked());
}

TEST(hf_txwin_ack, reports_newly_lost) {
  TxWin w(128, kWrapStart + 0xfe);
  const u32 b = w.una();
  w.send(20);
  EXPECT_EQ(0U, w.ack(b, {{b + 1, b + 3}}).lost);  // two above 0
  EXPECT_EQ(1U, w.ack(b, {{b + 1, b + 4}}).lost);  // three: 0 is lost
  EXPECT_EQ(0U, w.ack(b, {{b + 1, b + 4}}).lost);  // nothing new
  EXPECT_EQ(0U, w.ack(b, {{b + 1, b + 4}, {b + 6, b + 7}}).lost);
  EXPECT_EQ(0U, w.ack(b, {{b + 1, b + 4}, {b + 6, b + 8}}).lost);
  EXPECT_EQ(2U, w.ack(b, {{b + 1, b + 4}, {b + 6, b + 9}}).lost);  // 4 and 5
  EXPECT_EQ(0U, w.ack(b, {{b + 1, b + 4}, {b + 5, b + 9}}).lost);  // 5 arrived late
  EXPECT_EQ(5U, w.ack(b, {{b + 1, b + 4}, {b + 5, b + 9}, {b + 14, b + 17}}).lost);  // 9..13
}

TEST(hf_txwin_ack, single_hole_in_64k_window_costs_o1_per_ack) {
  constexpr u32 kBits = 1U << 16U;
  TxWin w(kBits, kWrapStart);
  w.send(kBits);
  // Everything but una arrives; the receiver acks each arrival.
  for (u32 i = 1; i < kBits; i++) {
    const hf_txwin_ack_result r = w.ack(kWrapStart, {{kWrapStart + 1, kWrapStart + i + 1}});
    ASSERT_EQ(1U, r.sacked);
  }
  EXPECT_EQ(std::vector<u32>{kWrapStart}, w.drain_lost());
  EXPECT_EQ(kBits, w.ack(kWrapStart + kBits, {}).acked);
  // Re-setting the whole block on every ACK would be ~kBits^2 / 128 loads.
  EXPECT_LE(w.scanned(), 4 * u64{kBits});
}

TEST(hf_txwin_next_lost, returns_exactly_the_missing_segments) {
  TxWin w(128, kWrapStart + 0xf0);
  const u32 b = w.una();
  w.send(40);
  std::vector<u8> got(40, 1);
  for (u32 miss : {0U, 3U, 7U, 8U, 20U, 37U}) {
    got[miss] = 0;
  }
  const auto [cum, blocks] = receiver_ack(b, got);
  EXPECT_EQ(b, cum);
  const hf_txwin_ack_result r = w.ack(cum, blocks);
  EXPECT_EQ(5U, r.lost);  // 37 has only two SACKed segments above it
  EXPECT_EQ(seqs_at(b, {0, 3, 7, 8, 20}), w.drain_lost());
  EXPECT_TRUE(w.drain_lost().empty());  // each once
  for (u32 off : {0U, 3U, 7U, 8U, 20U}) {
    EXPECT_TRUE(w.retransmitted(b + off));
  }
  EXPECT_FALSE(w.retransmitted(b + 37));
  EXPECT_FALSE(w.retransmitted(b + 1));
}

TEST(hf_txwin_next_lost, dupthresh_boundary) {
  TxWin w(128, 0);
  w.send(10);
  w.ack(0, {{1, 3}});
  EXPECT_TRUE(w.drain_lost().empty());
  w.ack(0, {{1, 3}, {4, 5}});  // 0 has three above: lost; 3 has one
  EXPECT_EQ(std::vector<u32>{0}, w.drain_lost());
  w.ack(0, {{1, 3}, {4, 6}});
  EXPECT_TRUE(w.drain_lost().empty());
  w.ack(0, {{1, 3}, {4, 7}});  // 3 now has three above
  EXPECT_EQ(std::vector<u32>{3}, w.drain_lost());
}

TEST(hf_txwin_peek_lost, shows_the_next_without_taking_it) {
  TxWin w(128, kWrapStart + 0xfe);
  const u32 b = w.una();
  w.send(12);
  w.ack(b, {{b + 2, b + 6}});  // b and b+1 have four SACKed above: lost
  u32 seq = 0;
  ASSERT_TRUE(hf_txwin_peek_lost(w.get(), &seq));
  EXPECT_EQ(b, seq);
  ASSERT_TRUE(hf_txwin_peek_lost(w.get(), &seq));  // again: not taken
  EXPECT_EQ(b, seq);
  EXPECT_FALSE(w.retransmitted(b));
  ASSERT_TRUE(hf_txwin_next_lost(w.get(), &seq));  // the same one, taken
  EXPECT_EQ(b, seq);
  EXPECT_TRUE(w.retransmitted(b));
  ASSERT_TRUE(hf_txwin_peek_lost(w.get(), &seq));
  EXPECT_EQ(b + 1, seq);
  ASSERT_TRUE(hf_txwin_next_lost(w.get(), &seq));
  EXPECT_EQ(b + 1, seq);
  EXPECT_FALSE(hf_txwin_peek_lost(w.get(), &seq));
}

TEST(hf_txwin_peek_lost, skips_sacked_and_agrees_with_next_lost_after_rto) {
  TxWin w(128, 0);
  w.send(20);
  w.ack(0, {{2, 3}, {4, 5}, {7, 20}});
  w.rto();  // every un-SACKed segment is eligible, in order
  std::vector<u32> peeked;
  u32 seq = 0;
  u32 again = 0;
  while (hf_txwin_peek_lost(w.get(), &seq)) {
    peeked.push_back(seq);
    ASSERT_TRUE(hf_txwin_next_lost(w.get(), &again));
    EXPECT_EQ(seq, again);
  }
  EXPECT_EQ((std::vector<u32>{0, 1, 3, 5, 6}), peeked);
}

TEST(hf_txwin_next_lost, skips_a_segment_sacked_before_its_turn) {
  TxWin w(128, 0);
  w.send(20);
  w.ack(0, {{2, 3}, {4, 5}, {7, 20}});
  u32 seq = 0;
  ASSERT_TRUE(hf_txwin_next_lost(w.get(), &seq));
  EXPECT_EQ(0U, seq);
  w.ack(0, {{1, 3}, {4, 20}});  // 1 and 5, 6 were late, not lost
  EXPECT_EQ(std::vector<u32>{3}, w.drain_lost());
}

TEST(hf_txwin_next_lost, follows_una_and_never_repeats) {
  TxWin w(64, kWrapStart + 0xe0);
  const u32 b = w.una();
  w.send(64);
  w.ack(b, {{b + 1, b + 5}, {b + 6, b + 10}});
  EXPECT_EQ(seqs_at(b, {0, 5}), w.drain_lost());
  w.ack(b + 20, {{b + 21, b + 30}});  // una passes the cursor
  EXPECT_EQ(std::vector<u32>{b + 20}, w.drain_lost());
  w.ack(b + 20, {{b + 21, b + 30}, {b + 31, b + 35}});
  EXPECT_EQ(std::vector<u32>{b + 30}, w.drain_lost());
  EXPECT_TRUE(w.drain_lost().empty());
}

TEST(hf_txwin_next_lost, random_scoreboards_match_the_definitions) {
  constexpr u32 kBits = 512;
  constexpr u32 kSegs = 400;
  for (u64 seed = 1; seed <= 12; seed++) {
    TxWin w(kBits, kWrapStart);
    Rng rng(seed);
    std::vector<u8> got(kSegs, 0);     // the receiver, offsets from kWrapStart
    std::vector<u8> known(kSegs, 0);   // what the sender was told
    std::vector<u8> handed(kSegs, 0);  // returned by next_lost since the last RTO
    std::vector<u8> lost(kSegs, 0);    // IsLost after the previous ACK
    u32 acked = 0;
    u32 sent = 0;
    u32 rto_end = 0;
    for (int round = 0; round < 300; round++) {
      const u32 more = std::min(rng.below(6), kSegs - sent);
      w.send(more);
      sent += more;
      for (int k = 0; k < 3 && sent > 0; k++) {
        got[rng.below(sent)] = 1;
      }
      auto [cum, blocks] = receiver_ack(kWrapStart, got);
      if (rng.percent(30) && !blocks.empty()) {  // an ACK may carry only some blocks
        blocks.erase(blocks.begin() + rng.below(static_cast<u32>(blocks.size())));
      }
      const hf_txwin_ack_result r = w.ack(cum, blocks);
      ASSERT_EQ(0U, r.invalid);
      ASSERT_EQ(cum - kWrapStart - acked, r.acked);
      acked = cum - kWrapStart;
      u32 newly = 0;
      for (const auto& [s, e] : blocks) {
        for (u32 i = s - kWrapStart; i < e - kWrapStart; i++) {
          newly += known[i] == 0 ? 1 : 0;
          known[i] = 1;
        }
      }
      ASSERT_EQ(newly, r.sacked);
      // IsLost by the definition: un-SACKed, three SACKed above it.
      u32 above = 0;
      u32 newly_lost = 0;
      for (u32 i = sent; i-- > acked;) {
        const bool is_lost = known[i] == 0 && above >= HF_TXWIN_DUPTHRESH;
        above += known[i];
        newly_lost += is_lost && lost[i] == 0 ? 1 : 0;
        lost[i] = is_lost ? 1 : 0;
      }
      ASSERT_EQ(newly_lost, r.lost) << "seed " << seed << " round " << round;
      if (rng.percent(4)) {
        const auto unsacked =
            static_cast<u32>(std::count(known.begin() + acked, known.begin() + sent, 0));
        ASSERT_EQ(unsacked, w.rto());
        std::fill(handed.begin(), handed.end(), 0);
        rto_end = sent;
      }
      // Eligible: un-SACKed, not handed out yet, lost or covered by an RTO,
      // and below what a full ACK left unsaid (before its last block).
      const u32 said =
          blocks.size() == HF_SACK_MAX ? blocks[HF_SACK_MAX - 2].second - kWrapStart : sent;
      std::vector<u32> want;
      for (u32 i = acked; i < std::min(sent, said); i++) {
        if (known[i] == 0 && handed[i] == 0 && (lost[i] != 0 || i < rto_end)) {
          want.push_back(kWrapStart + i);
        }
      }
      // Take some or all of them: the cursor must resume where it stopped.
      const size_t take = rng.percent(50) ? want.size() : rng.below(3);
      std::vector<u32> taken;
      u32 seq = 0;
      while (taken.size() < take && hf_txwin_next_lost(w.get(), &seq)) {
        taken.push_back(seq);
      }
      want.resize(std::min(want.size(), take));
      ASSERT_EQ(want, taken) << "seed " << seed << " round " << round;
      for (u32 t : taken) {
        handed[t - kWrapStart] = 1;
        ASSERT_TRUE(w.retransmitted(t));
      }
    }
  }
}

TEST(hf_txwin_rto, makes_every_unsacked_segment_eligible_again) {
  TxWin w(128, kWrapStart + 0xf8);
  const u32 b = w.una();
  w.send(20);
  w.ack(b + 2, {{b + 4, b + 8}, {b + 10, b + 12}});
  EXPECT_EQ(seqs_at(b, {2, 3}), w.drain_lost());
  // 8, 9 and 12..19 have fewer than three SACKed segments above: not lost.
  EXPECT_EQ(18U - 6U, w.rto());
  EXPECT_FALSE(w.retransmitted(b + 2));
  EXPECT_FALSE(w.retransmitted(b + 3));
  EXPECT_EQ(seqs_at(b, {2, 3, 8, 9, 12, 13, 14, 15, 16, 17, 18, 19}), w.drain_lost());
  EXPECT_TRUE(w.drain_lost().empty());
  // Later SACKs still skip what arrived; a second RTO starts over.
  w.ack(b + 2, {{b + 3, b + 8}, {b + 10, b + 12}, {b + 15, b + 16}});
  EXPECT_EQ(10U, w.rto());
  EXPECT_EQ(seqs_at(b, {2, 8, 9, 12, 13, 14, 16, 17, 18, 19}), w.drain_lost());
  // The cumulative ack ends the RTO's reach: new data is not eligible.
  w.ack(b + 20, {});
  w.send(5);
  w.ack(b + 20, {{b + 21, b + 22}});
  EXPECT_TRUE(w.drain_lost().empty());
}

TEST(hf_txwin_peek_lost, nothing_the_last_ack_left_unsaid) {
  TxWin w(256, kWrapStart + 0xe0);
  const u32 b = w.una();
  w.send(200);
  // A full ACK: the 15 lowest ranges (a hole before each) and the top one.
  // Between the 15th (ending at 30) and the top (150..160) nothing is said.
  Blocks full;
  for (u32 i = 0; i < HF_SACK_MAX - 1; i++) {
    full.emplace_back(b + 2 * i + 1, b + 2 * i + 2);
  }
  full.emplace_back(b + 150, b + 160);
  ASSERT_EQ(static_cast<size_t>(HF_SACK_MAX), full.size());
  w.ack(b, full);
  EXPECT_FALSE(hf_txwin_blocks_complete(w.get()));
  std::vector<u32> holes;
  for (u32 i = 0; i < HF_SACK_MAX - 1; i++) {
    holes.push_back(b + 2 * i);
  }
  // IsLost holds up to 157, yet only the holes among the low blocks go.
  EXPECT_EQ(holes, w.drain_lost());
  // Nor does an RTO hand out 29..149 or what lies above the top.
  w.rto();
  EXPECT_EQ(holes, w.drain_lost());
  // The next ACK names it all: 31..159 had arrived but for 100 and 101.
  w.ack(b + 30, {{b + 31, b + 100}, {b + 102, b + 160}});
  EXPECT_TRUE(hf_txwin_blocks_complete(w.get()));
  w.rto();
  std::vector<u32> rest = seqs_at(b, {30, 100, 101});
  for (u32 s = 160; s < 200; s++) {
    rest.push_back(b + s);
  }
  EXPECT_EQ(rest, w.drain_lost());
}

TEST(hf_txwin_rto_undo, leaves_only_what_the_scoreboard_finds_lost) {
  TxWin w(128, kWrapStart + 0xf0);
  const u32 b = w.una();
  w.send(20);
  w.ack(b, {{b + 2, b + 4}});
  w.rto();
  u32 seq = 0;
  ASSERT_TRUE(hf_txwin_next_lost(w.get(), &seq));  // the oldest, alone
  EXPECT_EQ(b, seq);
  // Delayed acks arrive for what the timer gave up on: it was spurious.
  w.ack(b, {{b + 1, b + 12}});
  hf_txwin_rto_undo(w.get());
  EXPECT_TRUE(w.retransmitted(b));
  EXPECT_TRUE(w.drain_lost().empty());  // 12..19 may still be in flight
  // Loss detection goes on as before the timer: three SACKed above 12.
  w.ack(b, {{b + 1, b + 12}, {b + 13, b + 16}});
  EXPECT_EQ(seqs_at(b, {12}), w.drain_lost());
  // The next RTO makes everything un-SACKed eligible again.
  w.rto();
  EXPECT_EQ(seqs_at(b, {0, 12, 16, 17, 18, 19}), w.drain_lost());
}

TEST(hf_txwin_retransmitted, marks_live_until_acked_or_rto) {
  TxWin w(64, 0);
  w.send(10);
  w.ack(0, {{1, 2}, {3, 6}});
  EXPECT_EQ(seqs_at(0, {0, 2}), w.drain_lost());
  EXPECT_TRUE(w.retransmitted(0));
  EXPECT_TRUE(w.retransmitted(2));
  EXPECT_FALSE(w.retransmitted(1));
  EXPECT_FALSE(w.retransmitted(10));  // never sent
  w.ack(1, {{3, 6}});
  EXPECT_FALSE(w.retransmitted(0));  // acked
  EXPECT_TRUE(w.retransmitted(2));
  w.rto();
  EXPECT_FALSE(w.retransmitted(2));
}

TEST(hf_txwin_sacked, only_segments_in_flight_that_a_block_covered) {
  TxWin w(64, 0xfffffffeU);  // the window wraps
  w.send(10);
  w.ack(0xfffffffeU, {{0xffffffffU, 1}, {3, 5}});
  EXPECT_FALSE(w.sacked(0xfffffffeU));  // the hole at una
  EXPECT_TRUE(w.sacked(0xffffffffU));
  EXPECT_TRUE(w.sacked(0));
  EXPECT_FALSE(w.sacked(1));
  EXPECT_TRUE(w.sacked(4));
  EXPECT_FALSE(w.sacked(5));
  EXPECT_FALSE(w.sacked(7));  // sent, not SACKed
  EXPECT_FALSE(w.sacked(8));  // never sent
  w.ack(2, {{3, 5}});
  EXPECT_FALSE(w.sacked(0));  // cumulatively acked: no longer in flight
  EXPECT_TRUE(w.sacked(3));
}

TEST(hf_txwin_inflight, counts_sent_and_not_cumulatively_acked) {
  TxWin w(64, 0xfffffffaU);
  EXPECT_EQ(0U, w.inflight());
  w.send(12);
  EXPECT_EQ(12U, w.inflight());
  w.ack(0xfffffffaU, {{0xfffffffcU, 2}});  // SACKed segments still count
  EXPECT_EQ(12U, w.inflight());
  w.ack(3, {});
  EXPECT_EQ(3U, w.inflight());
}

TEST(hf_txwin_end_to_end, lossy_duplicating_channel_retransmits_exactly_the_losses) {
  const SimConfig cfg{.segments = 1U << 17U,
                      .nbits = 1U << 16U,
                      .loss_pct = 10,
                      .dup_pct = 2,
                      .reorder_pct = 0,
                      .seed = 42};
  const SimResult r = simulate(cfg);
  report("fifo", cfg, r);
  EXPECT_TRUE(r.delivered_once);
  EXPECT_GT(r.lost, cfg.segments / 20);
  EXPECT_EQ(r.lost, r.retransmits);  // no spurious retransmission
  EXPECT_EQ(cfg.segments + r.retransmits, r.transmissions);
  EXPECT_LE(r.rx_words + r.tx_words, 8 * u64{cfg.segments});
}

TEST(hf_txwin_end_to_end, reordering_channel_bounds_spurious_retransmits) {
  const SimConfig cfg{.segments = 1U << 17U,
                      .nbits = 1U << 16U,
                      .loss_pct = 10,
                      .dup_pct = 2,
                      .reorder_pct = 3,
                      .seed = 7};
  const SimResult r = simulate(cfg);
  report("reorder", cfg, r);
  EXPECT_TRUE(r.delivered_once);
  EXPECT_GT(r.stale_acks, 0U);
  EXPECT_GE(r.retransmits, r.lost);
  // A retransmission is spurious only when its segment was delayed past
  // three later ones: at most one per delayed frame.
  EXPECT_LE(r.retransmits - r.lost, r.delayed);
  EXPECT_LE(r.rx_words + r.tx_words, 8 * u64{cfg.segments});
}

TEST(hf_txwin_end_to_end, light_loss_is_repaired_by_loss_detection) {
  const SimConfig cfg{.segments = 1U << 17U,
                      .nbits = 1U << 16U,
                      .loss_pct = 1,
                      .dup_pct = 1,
                      .reorder_pct = 0,
                      .seed = 5};
  const SimResult r = simulate(cfg);
  report("light", cfg, r);
  EXPECT_TRUE(r.delivered_once);
  EXPECT_EQ(r.lost, r.retransmits);
  EXPECT_LT(r.rto_retransmits, r.retransmits / 2);
  EXPECT_LE(r.rx_words + r.tx_words, 8 * u64{cfg.segments});
}
