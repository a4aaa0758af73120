// Unit tests for kernel/core/hf_fsize.c: the dynamic frame size controller.
// A Flow drives one controller the way the transport will: frames go out
// with consecutive sequence numbers, ACKs move the cumulative ack on, and a
// round is "send, then ack everything sent". Defaults unless a test says
// otherwise: min 1 segment, initial 4, max 1 MiB, seg_size 1464 (MTU 1500
// under wire version 3; any stride will do), so max_segs = 1048576 / 1464 =
// 716; rate cut 717/1024, step 256, floor 64; delay threshold max(100 % of
// min_rtt, 500 us); idle after 4 RTOs.
#include <algorithm>
#include <array>
#include <cstdint>

#include <gtest/gtest.h>

#include "support/rng.h"

extern "C" {
#include "hf_fsize.h"
}

namespace {

using hftest::Rng;

constexpr u32 kSeg = 1464;
constexpr u32 kMaxSegs = 716;
constexpr u64 kUs = 1000;
constexpr u64 kMs = 1000 * kUs;
constexpr u32 kRtoUs = 2000;
constexpr u64 kRtoNs = u64{kRtoUs} * kUs;

hf_fsize_params defaults() {
  hf_fsize_params p{};
  hf_fsize_params_default(&p);
  return p;
}

class Flow {
 public:
  explicit Flow(const hf_fsize_params& p, u32 seq = 0) : p_(p), nxt_(seq), una_(seq) {
    hf_fsize_init(&fs_, &p_, kSeg);
  }

  hf_fsize& fs() { return fs_; }
  hf_fsize_params& params() { return p_; }
  u32 segs() { return hf_fsize_segs(&fs_, &p_); }
  [[nodiscard]] u32 nxt() const { return nxt_; }
  [[nodiscard]] u32 una() const { return una_; }
  void wait(u64 ns) { now_ += ns; }

  // One frame of n segments (0: a full frame); returns prepare's mask.
  unsigned int send(u32 n = 0) {
    const unsigned int what = hf_fsize_prepare(&fs_, &p_, now_, kRtoUs);
    const u32 segs = n != 0 ? n : this->segs();
    hf_fsize_on_send(&fs_, &p_, nxt_, segs, now_);
    nxt_ += segs;
    now_ += 10 * kUs;
    return what;
  }

  unsigned int ack(u32 cum) {
    una_ = cum;
    now_ += 10 * kUs;
    return hf_fsize_on_ack(&fs_, &p_, cum, now_);
  }
  unsigned int ack_all() { return ack(nxt_); }

  // A round: one full frame out, everything acked.
  unsigned int round() {
    send();
    return ack_all();
  }

  unsigned int sign(hf_fsize_reason why, u32 seq) {
    return hf_fsize_on_congestion(&fs_, &p_, why, seq);
  }
  // A sign about the latest segment sent: always a new episode.
  unsigned int fresh_sign(hf_fsize_reason why = HF_FSIZE_LOSS) {
    send();
    return sign(why, nxt_ - 1);
  }

 private:
  hf_fsize_params p_;
  hf_fsize fs_{};
  u32 nxt_;
  u32 una_;
  u64 now_ = kMs;
};

}  // namespace

TEST(hf_fsize_params_default, values) {
  const hf_fsize_params p = defaults();
  EXPECT_EQ(1U, p.min_segs);
  EXPECT_EQ(4U, p.initial_segs);
  EXPECT_EQ(1U << 20U, p.max_bytes);
  EXPECT_EQ(717, p.rate_cut);
  EXPECT_EQ(256, p.rate_step);
  EXPECT_EQ(64, p.rate_floor);
  EXPECT_EQ(100, p.delay_pct);
  EXPECT_EQ(500U, p.delay_min_us);
  EXPECT_EQ(4U, p.idle_rtos);
  EXPECT_EQ(0, hf_fsize_params_check(&p));
}

TEST(hf_fsize_params_check, refuses_nonsense) {
  hf_fsize_params p = defaults();
  p.min_segs = 0;
  EXPECT_EQ(-EINVAL, hf_fsize_params_check(&p));
  p = defaults();
  p.initial_segs = 0;  // below min
  EXPECT_EQ(-EINVAL, hf_fsize_params_check(&p));
  p = defaults();
  p.initial_segs = HF_FSIZE_MAX_SEGS + 1;
  EXPECT_EQ(-EINVAL, hf_fsize_params_check(&p));
  p = defaults();
  p.rate_cut = 0;
  EXPECT_EQ(-EINVAL, hf_fsize_params_check(&p));
  p.rate_cut = HF_FSIZE_ONE;  // a cut that cuts nothing
  EXPECT_EQ(-EINVAL, hf_fsize_params_check(&p));
  p = defaults();
  p.rate_step = 0;
  EXPECT_EQ(-EINVAL, hf_fsize_params_check(&p));
  p = defaults();
  p.rate_floor = 0;
  EXPECT_EQ(-EINVAL, hf_fsize_params_check(&p));
  p.rate_floor = HF_FSIZE_ONE + 1;
  EXPECT_EQ(-EINVAL, hf_fsize_params_check(&p));
  p.rate_floor = HF_FSIZE_ONE;  // the rate is never cut: allowed
  p.min_segs = p.initial_segs = HF_FSIZE_MAX_SEGS;
  EXPECT_EQ(0, hf_fsize_params_check(&p));
}

TEST(hf_fsize_init, starts_at_initial) {
  Flow f(defaults());
  EXPECT_EQ(4U, f.fs().segs);
  EXPECT_EQ(4U, f.segs());
  EXPECT_EQ(kMaxSegs, f.fs().max_segs);
  EXPECT_EQ(kSeg, f.fs().seg_size);
  EXPECT_EQ(HF_FSIZE_ONE, f.fs().rate_scale);
  EXPECT_EQ(0U, f.fs().rounds);
  EXPECT_EQ(HF_FSIZE_NONE, f.fs().last.reason);
}

TEST(hf_fsize_init, bounds_from_seg_size) {
  const hf_fsize_params p = defaults();
  hf_fsize fs{};
  hf_fsize_init(&fs, &p, 8964);  // MTU 9000 under v3: 1048576 / 8964 = 116
  EXPECT_EQ(116U, fs.max_segs);
  hf_fsize_init(&fs, &p, 0);  // taken as 1 byte: capped at the u16 count
  EXPECT_EQ(HF_FSIZE_MAX_SEGS, fs.max_segs);
  hf_fsize_init(&fs, &p, 1U << 21U);  // a segment above max_bytes: one segment
  EXPECT_EQ(1U, fs.max_segs);
  EXPECT_EQ(1U, fs.segs);  // initial 4 clamped
}

TEST(hf_fsize_on_ack, doubles_each_clean_round_to_exactly_the_max) {
  Flow f(defaults());
  const std::array<u32, 10> expect{8, 16, 32, 64, 128, 256, 512, kMaxSegs, kMaxSegs, kMaxSegs};
  u32 round = 0;
  for (const u32 segs : expect) {
    const u32 old = f.segs();
    const unsigned int what = f.round();
    round++;
    EXPECT_EQ(segs, f.segs()) << "round " << round;
    EXPECT_EQ(round, f.fs().rounds);
    if (segs != old) {
      EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, what);
      EXPECT_EQ(HF_FSIZE_GROW, f.fs().last.reason);
      EXPECT_EQ(old, f.fs().last.old_segs);
      EXPECT_EQ(segs, f.fs().last.new_segs);
    } else {
      EXPECT_EQ(0U, what);  // at the max: nothing to record
    }
  }
  EXPECT_EQ(8U, f.fs().changes[HF_FSIZE_GROW]);
  EXPECT_LE(f.segs() * kSeg, 1U << 20U);
}

TEST(hf_fsize_on_ack, a_round_ends_when_the_ack_reaches_its_mark) {
  Flow f(defaults());
  f.send();  // [0, 4): the first round's mark is 0, so its first ack ends it
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.ack(2));
  EXPECT_EQ(8U, f.segs());
  // The second round's mark is 4 (next to send when it began).
  f.send();  // [4, 12)
  EXPECT_EQ(0U, f.ack(3));
  EXPECT_EQ(1U, f.fs().rounds);
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.ack(4));
  EXPECT_EQ(2U, f.fs().rounds);
  EXPECT_EQ(16U, f.segs());
  EXPECT_EQ(12U, f.fs().round_end);
}

TEST(hf_fsize_on_ack, stale_and_impossible_acks_change_nothing) {
  Flow f(defaults());
  EXPECT_EQ(0U, f.ack(5));  // nothing sent yet
  f.send();                 // [0, 4)
  EXPECT_EQ(0U, f.ack(9));  // beyond what was sent
  EXPECT_EQ(0U, f.fs().una);
  EXPECT_EQ(0U, f.ack(0));  // no progress
  EXPECT_EQ(0U, f.fs().rounds);
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.ack(4));
  EXPECT_EQ(0U, f.ack(4));  // a duplicate
  EXPECT_EQ(1U, f.fs().rounds);
}

TEST(hf_fsize_on_ack, app_limited_rounds_do_not_grow) {
  Flow f(defaults());
  for (int i = 0; i < 10; i++) {
    f.send(1);  // a small message: one segment, less than the frame
    EXPECT_EQ(0U, f.ack_all());
  }
  EXPECT_EQ(10U, f.fs().rounds);
  EXPECT_EQ(4U, f.segs());
  f.send(1);
  f.send();  // one full frame in the round is enough
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.ack_all());
  EXPECT_EQ(8U, f.segs());
}

// A rate cut comes back on clean rounds of short frames too: pacing may
// keep every frame below the controller's size for good.
TEST(hf_fsize_on_ack, short_frames_restore_the_rate_not_the_frame) {
  Flow f(defaults());
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, f.fresh_sign());  // the first sign cuts the rate
  EXPECT_GT(HF_FSIZE_ONE, f.fs().rate_scale);
  EXPECT_EQ(0U, f.ack_all());  // that round had a sign: no step
  for (int i = 0; i < 4 && f.fs().rate_scale < HF_FSIZE_ONE; i++) {
    f.send(1);  // a frame shorter than the controller's
    EXPECT_EQ(HF_FSIZE_CHANGED_RATE, f.ack_all());
  }
  EXPECT_EQ(HF_FSIZE_ONE, f.fs().rate_scale);
  EXPECT_EQ(4U, f.segs());
  f.send(1);
  EXPECT_EQ(0U, f.ack_all());  // with the rate whole, short frames keep it
  EXPECT_EQ(4U, f.segs());
}

TEST(hf_fsize_on_ack, works_across_the_sequence_wrap) {
  Flow f(defaults(), 0xfffffff0U);
  for (int i = 0; i < 6; i++) {
    f.round();
  }
  EXPECT_EQ(256U, f.segs());
  EXPECT_LT(f.nxt(), 0x1000U);  // wrapped
}

TEST(hf_fsize_on_congestion, cuts_the_rate_first_then_halves_the_frame) {
  Flow f(defaults());
  for (int i = 0; i < 4; i++) {
    f.round();
  }
  ASSERT_EQ(64U, f.segs());

  // First episode: the rate, not the frame.
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, f.fresh_sign(HF_FSIZE_LOSS));
  EXPECT_EQ(717, f.fs().rate_scale);  // 1024 * 717 / 1024
  EXPECT_EQ(64U, f.segs());
  EXPECT_EQ(HF_FSIZE_LOSS, f.fs().last.reason);
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, f.fs().last.what);
  EXPECT_EQ(HF_FSIZE_ONE, f.fs().last.old_rate);
  EXPECT_EQ(717, f.fs().last.new_rate);
  EXPECT_EQ(64U, f.fs().last.old_segs);
  EXPECT_EQ(64U, f.fs().last.new_segs);

  // Second episode while the rate is still cut: the frame halves.
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.fresh_sign(HF_FSIZE_DELAY));
  EXPECT_EQ(32U, f.segs());
  EXPECT_EQ(717, f.fs().rate_scale);
  EXPECT_EQ(HF_FSIZE_DELAY, f.fs().last.reason);
  EXPECT_EQ(64U, f.fs().last.old_segs);
  EXPECT_EQ(32U, f.fs().last.new_segs);

  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.fresh_sign(HF_FSIZE_NOTICE));
  EXPECT_EQ(16U, f.segs());
  EXPECT_EQ(HF_FSIZE_NOTICE, f.fs().last.reason);
  EXPECT_EQ(1U, f.fs().changes[HF_FSIZE_LOSS]);
  EXPECT_EQ(1U, f.fs().changes[HF_FSIZE_DELAY]);
  EXPECT_EQ(1U, f.fs().changes[HF_FSIZE_NOTICE]);
}

TEST(hf_fsize_on_congestion, one_reaction_per_episode) {
  Flow f(defaults());
  for (int i = 0; i < 4; i++) {
    f.round();
  }
  f.send();  // [60, 124): a burst of 64
  const u32 burst = f.nxt() - 64;
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, f.sign(HF_FSIZE_LOSS, burst + 3));
  // Nine more losses of the same burst, and a delay sample from it: they
  // were sent before the reaction and could not have been helped by it.
  for (u32 i = 4; i < 13; i++) {
    EXPECT_EQ(0U, f.sign(HF_FSIZE_LOSS, burst + i));
  }
  EXPECT_EQ(0U, hf_fsize_on_rtt(&f.fs(), &f.params(), burst + 20, 100000, 50));
  EXPECT_EQ(10U, f.fs().signs_ignored);
  EXPECT_EQ(10U, f.fs().signs[HF_FSIZE_LOSS]);
  EXPECT_EQ(1U, f.fs().signs[HF_FSIZE_DELAY]);
  EXPECT_EQ(717, f.fs().rate_scale);
  EXPECT_EQ(64U, f.segs());
  // A loss among what was sent after the reaction is a new episode.
  f.send();
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.sign(HF_FSIZE_LOSS, f.nxt() - 1));
  EXPECT_EQ(32U, f.segs());
}

TEST(hf_fsize_on_congestion, before_anything_is_sent_changes_nothing) {
  Flow f(defaults());
  EXPECT_EQ(0U, f.sign(HF_FSIZE_LOSS, 0));
  EXPECT_EQ(1U, f.fs().signs_ignored);
  EXPECT_EQ(HF_FSIZE_ONE, f.fs().rate_scale);
}

TEST(hf_fsize_on_congestion, other_reasons_are_no_sign) {
  Flow f(defaults());
  f.send();
  EXPECT_EQ(0U, f.sign(HF_FSIZE_GROW, 0));
  EXPECT_EQ(0U, f.sign(HF_FSIZE_IDLE, 0));
  EXPECT_EQ(0U, f.sign(HF_FSIZE_NONE, 0));
  EXPECT_EQ(0U, f.sign(HF_FSIZE_NR_REASONS, 0));
  EXPECT_EQ(HF_FSIZE_ONE, f.fs().rate_scale);
  EXPECT_EQ(0U, f.fs().flags & HF_FSIZE_F_DIRTY);
}

TEST(hf_fsize_on_congestion, never_below_the_floors) {
  hf_fsize_params p = defaults();
  p.min_segs = 2;
  Flow f(p);
  // 4 segments: rate cut, then one halving to 2, then the rate again.
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, f.fresh_sign());
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.fresh_sign());
  EXPECT_EQ(2U, f.segs());
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, f.fresh_sign());
  EXPECT_EQ(502, f.fs().rate_scale);  // 717 * 717 / 1024 = 502.05
  for (int i = 0; i < 20; i++) {
    f.fresh_sign();
    EXPECT_EQ(2U, f.segs());
    EXPECT_GE(f.fs().rate_scale, 64);
  }
  EXPECT_EQ(64, f.fs().rate_scale);
  // At both floors a sign changes nothing, and records nothing.
  const hf_fsize_change before = f.fs().last;
  EXPECT_EQ(0U, f.fresh_sign());
  EXPECT_EQ(before.old_rate, f.fs().last.old_rate);
  EXPECT_EQ(before.new_rate, f.fs().last.new_rate);
}

TEST(hf_fsize_on_congestion, a_round_with_a_sign_does_not_grow) {
  Flow f(defaults());
  f.round();  // 8
  f.send();
  f.sign(HF_FSIZE_LOSS, f.nxt() - 1);  // rate cut
  EXPECT_EQ(0U, f.ack_all());
  EXPECT_EQ(8U, f.segs());
  EXPECT_EQ(717, f.fs().rate_scale);
  // An ignored sign (same episode) still makes its round unclean.
  f.send();
  f.sign(HF_FSIZE_LOSS, f.fs().recover - 1);
  EXPECT_EQ(0U, f.ack_all());
  EXPECT_EQ(717, f.fs().rate_scale);
}

TEST(hf_fsize_on_ack, clean_rounds_restore_the_rate_then_grow_the_frame) {
  Flow f(defaults());
  for (int i = 0; i < 3; i++) {
    f.round();
  }
  f.fresh_sign();
  f.fresh_sign();  // rate 717, frame 16
  f.ack_all();     // this round had signs: no step
  ASSERT_EQ(16U, f.segs());
  ASSERT_EQ(717, f.fs().rate_scale);

  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, f.round());
  EXPECT_EQ(973, f.fs().rate_scale);
  EXPECT_EQ(16U, f.segs());
  EXPECT_EQ(HF_FSIZE_GROW, f.fs().last.reason);
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, f.round());
  EXPECT_EQ(HF_FSIZE_ONE, f.fs().rate_scale);  // capped at one
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.round());
  EXPECT_EQ(32U, f.segs());
}

TEST(hf_fsize_on_congestion, a_partly_restored_rate_halves_the_frame) {
  Flow f(defaults());
  for (int i = 0; i < 3; i++) {
    f.round();
  }
  f.fresh_sign();
  f.ack_all();
  f.round();  // rate 973: still cut
  ASSERT_EQ(973, f.fs().rate_scale);
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.fresh_sign());
  EXPECT_EQ(16U, f.segs());
  f.ack_all();
  f.round();  // rate whole again
  ASSERT_EQ(HF_FSIZE_ONE, f.fs().rate_scale);
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, f.fresh_sign());  // the rate first again
  EXPECT_EQ(16U, f.segs());
}

namespace {

// A flow at 64 segments with its rate whole, a frame of 64 in flight.
Flow flight_of_64() {
  Flow f(defaults());
  for (int i = 0; i < 4; i++) {
    f.round();
  }
  f.send();
  return f;
}

// The retransmission timer fires about the oldest segment; `repeat`: it
// fired before and no ACK answered since.
unsigned int timeout(Flow& f, bool repeat = false) {
  return hf_fsize_on_timeout(&f.fs(), &f.params(), f.una(), repeat);
}

unsigned int undo(Flow& f) {
  return hf_fsize_undo(&f.fs(), &f.params());
}

bool undo_kept(Flow& f) {
  return (f.fs().flags & HF_FSIZE_F_UNDO) != 0;
}

}  // namespace

TEST(hf_fsize_undo, takes_back_a_spurious_timeouts_rate_cut) {
  Flow f = flight_of_64();
  ASSERT_EQ(64U, f.segs());
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, timeout(f));
  EXPECT_EQ(717, f.fs().rate_scale);
  EXPECT_EQ(HF_FSIZE_LOSS, f.fs().last.reason);
  EXPECT_TRUE(undo_kept(f));

  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, undo(f));
  EXPECT_EQ(HF_FSIZE_ONE, f.fs().rate_scale);
  EXPECT_EQ(64U, f.segs());
  EXPECT_EQ(HF_FSIZE_UNDO, f.fs().last.reason);
  EXPECT_EQ(717, f.fs().last.old_rate);
  EXPECT_EQ(HF_FSIZE_ONE, f.fs().last.new_rate);
  EXPECT_EQ(1U, f.fs().changes[HF_FSIZE_UNDO]);
  // Once only.
  EXPECT_FALSE(undo_kept(f));
  EXPECT_EQ(0U, undo(f));
  EXPECT_EQ(1U, f.fs().changes[HF_FSIZE_UNDO]);
  // The episode is undone too: a real loss in that flight is a new one.
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, f.sign(HF_FSIZE_LOSS, f.una() + 5));
  EXPECT_EQ(0U, undo(f));  // that one stands
  EXPECT_EQ(717, f.fs().rate_scale);
}

TEST(hf_fsize_undo, before_the_round_ends_the_round_is_clean_again) {
  Flow f = flight_of_64();
  timeout(f);
  ASSERT_NE(0U, f.fs().flags & HF_FSIZE_F_DIRTY);
  undo(f);
  EXPECT_EQ(0U, f.fs().flags & HF_FSIZE_F_DIRTY);
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.ack_all());
  EXPECT_EQ(128U, f.segs());
}

TEST(hf_fsize_undo, after_the_round_ended_the_next_round_stays_clean) {
  // The kernel counts the verdict's ACK first: it ends the round the
  // timeout made dirty (no step), then F-RTO's undo comes.
  Flow f = flight_of_64();
  timeout(f);
  EXPECT_EQ(0U, f.ack_all());
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, undo(f));
  EXPECT_EQ(HF_FSIZE_ONE, f.fs().rate_scale);
  EXPECT_EQ(0U, f.fs().flags & HF_FSIZE_F_DIRTY);
  // The next round, clean, takes its step.
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.round());
  EXPECT_EQ(128U, f.segs());

  // Even when the timeout's round had an ignored sign before it: that
  // round is over, and its mark does not move into the next.
  Flow g = flight_of_64();
  g.fresh_sign();
  g.ack_all();
  g.round();
  g.round();  // rate whole again
  ASSERT_EQ(HF_FSIZE_ONE, g.fs().rate_scale);
  g.send();
  g.sign(HF_FSIZE_LOSS, g.fs().recover - 1);  // ignored, marks the round
  ASSERT_EQ(HF_FSIZE_CHANGED_RATE, timeout(g));
  g.ack_all();
  undo(g);
  EXPECT_EQ(0U, g.fs().flags & HF_FSIZE_F_DIRTY);
}

TEST(hf_fsize_undo, takes_back_a_halving) {
  Flow f = flight_of_64();
  f.fresh_sign();  // the rate cut by a real loss
  f.ack_all();
  f.send();
  ASSERT_EQ(717, f.fs().rate_scale);
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, timeout(f));
  EXPECT_EQ(32U, f.segs());
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, undo(f));
  EXPECT_EQ(64U, f.segs());
  EXPECT_EQ(717, f.fs().rate_scale);  // the real loss's cut stands
  // The undo grew the frame: old 32, new 64.
  EXPECT_EQ(32U, f.fs().last.old_segs);
  EXPECT_EQ(64U, f.fs().last.new_segs);
}

TEST(hf_fsize_undo, a_later_change_stands) {
  // A sign of a later episode after the timeout: newer evidence.
  Flow f = flight_of_64();
  timeout(f);
  f.fresh_sign();  // frame halved
  ASSERT_EQ(32U, f.segs());
  EXPECT_EQ(0U, undo(f));
  EXPECT_EQ(32U, f.segs());
  EXPECT_EQ(717, f.fs().rate_scale);

  // A clean round after the timeout's round: the rate came back a step.
  Flow g = flight_of_64();
  timeout(g);
  g.ack_all();  // the timeout's round: not clean
  ASSERT_EQ(HF_FSIZE_CHANGED_RATE, g.round());
  ASSERT_EQ(973, g.fs().rate_scale);
  EXPECT_EQ(0U, undo(g));
  EXPECT_EQ(973, g.fs().rate_scale);
}

TEST(hf_fsize_undo, an_ignored_sign_cancels_it) {
  // A loss of the timeout's own flight, found by the reorder window,
  // is ignored (the episode was reacted to) but is evidence the timeout
  // was no fluke: the cut stands, and so does the round's mark.
  Flow f = flight_of_64();
  timeout(f);
  EXPECT_EQ(0U, f.sign(HF_FSIZE_LOSS, f.una() + 3));
  EXPECT_EQ(1U, f.fs().signs_ignored);
  EXPECT_FALSE(undo_kept(f));
  EXPECT_EQ(0U, undo(f));
  EXPECT_EQ(717, f.fs().rate_scale);
  EXPECT_NE(0U, f.fs().flags & HF_FSIZE_F_DIRTY);
}

TEST(hf_fsize_undo, a_sign_at_the_floors_cancels_it) {
  // The frame at its minimum and the rate floor one cut down: the next
  // episode's sign changes neither, but it is a reaction (recover moves),
  // and the undo must not take it back.
  hf_fsize_params p = defaults();
  p.rate_floor = 717;
  p.min_segs = p.initial_segs;
  Flow f(p);
  f.send();
  ASSERT_EQ(HF_FSIZE_CHANGED_RATE, timeout(f));
  ASSERT_EQ(p.initial_segs, f.segs());
  const u32 recover = f.fs().recover;
  EXPECT_EQ(0U, f.fresh_sign());
  EXPECT_NE(recover, f.fs().recover);
  EXPECT_FALSE(undo_kept(f));
  EXPECT_EQ(0U, undo(f));
  EXPECT_EQ(717, f.fs().rate_scale);
}

TEST(hf_fsize_undo, a_timeout_without_a_reaction_leaves_nothing_to_undo) {
  // The timeout falls in an episode a real loss reacted to: ignored,
  // and undoing it must not take back the real loss's cut.
  Flow f = flight_of_64();
  f.fresh_sign();
  ASSERT_EQ(717, f.fs().rate_scale);
  EXPECT_EQ(0U, timeout(f));
  EXPECT_FALSE(undo_kept(f));
  EXPECT_EQ(0U, undo(f));
  EXPECT_EQ(717, f.fs().rate_scale);
}

TEST(hf_fsize_undo, a_stall_of_several_timeouts_is_undone_whole) {
  // The backed-off timer fires again before any ACK: the repeats are of
  // the episode the first reacted to, and F-RTO's one verdict, spurious,
  // takes back the first one's cut.
  Flow f = flight_of_64();
  ASSERT_EQ(HF_FSIZE_CHANGED_RATE, timeout(f));
  EXPECT_EQ(0U, timeout(f, true));
  EXPECT_EQ(0U, timeout(f, true));
  EXPECT_TRUE(undo_kept(f));
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, undo(f));
  EXPECT_EQ(HF_FSIZE_ONE, f.fs().rate_scale);
  EXPECT_EQ(64U, f.segs());
}

TEST(hf_fsize_undo, a_new_timeout_after_an_answer_is_judged_alone) {
  // The first timeout's verdict was a real loss (its cut stands); a
  // later timeout of the same episode, after ACKs answered, is ignored,
  // and its own spurious verdict must not take the first one's cut back.
  Flow f = flight_of_64();
  ASSERT_EQ(HF_FSIZE_CHANGED_RATE, timeout(f));
  EXPECT_EQ(0U, timeout(f, false));
  EXPECT_FALSE(undo_kept(f));
  EXPECT_EQ(0U, undo(f));
  EXPECT_EQ(717, f.fs().rate_scale);
}

TEST(hf_fsize_undo, forget) {
  Flow f = flight_of_64();
  timeout(f);
  hf_fsize_undo_forget(&f.fs());
  EXPECT_EQ(0U, undo(f));
  EXPECT_EQ(717, f.fs().rate_scale);
}

TEST(hf_fsize_undo, nothing_before_a_timeout) {
  Flow f = flight_of_64();
  EXPECT_EQ(0U, undo(f));
  f.fresh_sign();  // a reorder-window loss is not undone by F-RTO
  EXPECT_EQ(0U, undo(f));
  EXPECT_EQ(717, f.fs().rate_scale);
}

TEST(hf_fsize_undo, within_changed_params) {
  Flow f = flight_of_64();
  f.fresh_sign();
  f.ack_all();
  f.send();
  timeout(f);                        // 64 -> 32
  f.params().max_bytes = 48 * kSeg;  // the frame limit fell meanwhile
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, undo(f));
  EXPECT_EQ(48U, f.segs());
  EXPECT_EQ(48U, f.fs().segs);
}

namespace {

// The reorder window finds segment `seq` lost and sends it again.
unsigned int repair(Flow& f, u32 seq) {
  const unsigned int what = hf_fsize_on_repair_loss(&f.fs(), &f.params(), seq, true);
  hf_fsize_on_repair(&f.fs());
  return what;
}

unsigned int duplicate(Flow& f) {
  return hf_fsize_on_duplicate(&f.fs(), &f.params());
}

}  // namespace

TEST(hf_fsize_on_duplicate, every_repair_answered_takes_the_cut_back) {
  Flow f = flight_of_64();
  ASSERT_EQ(HF_FSIZE_CHANGED_RATE, repair(f, f.una() + 3));
  EXPECT_EQ(717, f.fs().rate_scale);
  // Two more of the same episode: ignored as signs, counted as repairs.
  EXPECT_EQ(0U, repair(f, f.una() + 5));
  EXPECT_EQ(0U, repair(f, f.una() + 9));
  EXPECT_EQ(3U, f.fs().undo_repairs);
  EXPECT_EQ(0U, duplicate(f));
  EXPECT_EQ(0U, duplicate(f));
  EXPECT_EQ(717, f.fs().rate_scale);
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, duplicate(f));
  EXPECT_EQ(HF_FSIZE_ONE, f.fs().rate_scale);
  EXPECT_EQ(64U, f.segs());
  EXPECT_EQ(HF_FSIZE_UNDO, f.fs().last.reason);
  EXPECT_EQ(0U, f.fs().flags & HF_FSIZE_F_DIRTY);  // the round is clean again
  // Once only; the episode is undone too, so a real loss there is new.
  EXPECT_EQ(0U, duplicate(f));
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, repair(f, f.una() + 11));
  EXPECT_EQ(717, f.fs().rate_scale);
}

TEST(hf_fsize_on_duplicate, late_segments_of_the_episode_measured_late_keep_it) {
  // What the reorder window found lost was only held back: its round
  // trips are above the threshold too, and that is no new evidence.
  Flow f = flight_of_64();
  repair(f, f.una() + 2);
  EXPECT_EQ(0U, f.sign(HF_FSIZE_DELAY, f.una() + 2));
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, duplicate(f));
  EXPECT_EQ(HF_FSIZE_ONE, f.fs().rate_scale);
}

TEST(hf_fsize_on_duplicate, a_frame_halved_comes_back) {
  Flow f = flight_of_64();
  f.fresh_sign();  // the rate cut by a loss that stands
  f.ack_all();
  f.send();
  ASSERT_EQ(HF_FSIZE_CHANGED_FRAME, repair(f, f.nxt() - 1));
  EXPECT_EQ(32U, f.segs());
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, duplicate(f));
  EXPECT_EQ(64U, f.segs());
  EXPECT_EQ(717, f.fs().rate_scale);  // the earlier cut stands
}

TEST(hf_fsize_on_duplicate, a_repair_unanswered_keeps_the_cut) {
  // Three repairs, two duplicates: one segment was lost.
  Flow f = flight_of_64();
  repair(f, f.una() + 1);
  repair(f, f.una() + 2);
  repair(f, f.una() + 4);
  EXPECT_EQ(0U, duplicate(f));
  EXPECT_EQ(0U, duplicate(f));
  EXPECT_EQ(717, f.fs().rate_scale);
  // A lost repair sent once more counts again; one duplicate cannot end it.
  hf_fsize_on_repair(&f.fs());
  EXPECT_EQ(0U, duplicate(f));
  EXPECT_EQ(717, f.fs().rate_scale);
}

TEST(hf_fsize_on_duplicate, newer_evidence_cancels_it) {
  Flow f = flight_of_64();
  repair(f, f.una());
  f.sign(HF_FSIZE_NOTICE, f.una() + 1);  // of the episode, but a notice
  EXPECT_EQ(0U, duplicate(f));
  EXPECT_EQ(717, f.fs().rate_scale);

  // A delay sign after the episode is a new reaction, and stands.
  Flow d = flight_of_64();
  repair(d, d.una());
  d.send();
  ASSERT_EQ(HF_FSIZE_CHANGED_FRAME, d.sign(HF_FSIZE_DELAY, d.nxt() - 1));
  EXPECT_EQ(0U, duplicate(d));
  EXPECT_EQ(32U, d.segs());

  Flow g = flight_of_64();
  repair(g, g.una());
  g.ack_all();                                  // the reaction's round ends, without a step
  ASSERT_EQ(HF_FSIZE_CHANGED_RATE, g.round());  // a clean round's step
  EXPECT_EQ(0U, duplicate(g));
  EXPECT_EQ(973, g.fs().rate_scale);

  // A timeout of the episode, not reacting, leaves nothing to undo; one
  // that reacts keeps its own undo, for F-RTO, not for duplicates.
  Flow h = flight_of_64();
  repair(h, h.una());
  EXPECT_EQ(0U, timeout(h));
  EXPECT_FALSE(undo_kept(h));
  EXPECT_EQ(0U, duplicate(h));
  EXPECT_EQ(717, h.fs().rate_scale);
}

TEST(hf_fsize_on_duplicate, verdicts_judge_their_own_kind) {
  // F-RTO does not undo a repair's cut; duplicates do not undo a
  // timeout's (its resends are no repairs counted).
  Flow f = flight_of_64();
  repair(f, f.una());
  EXPECT_EQ(0U, undo(f));
  EXPECT_EQ(717, f.fs().rate_scale);

  Flow g = flight_of_64();
  ASSERT_EQ(HF_FSIZE_CHANGED_RATE, timeout(g));
  hf_fsize_on_repair(&g.fs());
  EXPECT_EQ(0U, duplicate(g));
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, undo(g));
}

TEST(hf_fsize_on_duplicate, not_undoable_when_an_earlier_repairs_duplicate_may_come) {
  // A repair of the last episode may still bring its duplicate: this
  // reaction reacts but keeps nothing, and cancels what was kept.
  Flow f = flight_of_64();
  f.fresh_sign();
  f.ack_all();
  f.send();
  repair(f, f.nxt() - 1);  // kept
  f.ack_all();
  f.send();
  ASSERT_EQ(HF_FSIZE_CHANGED_FRAME,
            hf_fsize_on_repair_loss(&f.fs(), &f.params(), f.nxt() - 1, false));
  hf_fsize_on_repair(&f.fs());
  EXPECT_EQ(0U, f.fs().flags & (HF_FSIZE_F_UNDO | HF_FSIZE_F_UNDO_REPAIR));
  EXPECT_EQ(0U, duplicate(f));
  EXPECT_EQ(0U, duplicate(f));
  EXPECT_EQ(16U, f.segs());
}

TEST(hf_fsize_on_duplicate, no_repair_no_undo) {
  Flow f = flight_of_64();
  EXPECT_EQ(0U, duplicate(f));
  // At both floors a new episode changes nothing and keeps nothing.
  f.params().rate_floor = HF_FSIZE_ONE;
  f.params().min_segs = 64;
  EXPECT_EQ(0U, repair(f, f.nxt() - 1));
  EXPECT_EQ(0U, f.fs().flags & (HF_FSIZE_F_UNDO | HF_FSIZE_F_UNDO_REPAIR));
  EXPECT_EQ(0U, duplicate(f));
}

TEST(hf_fsize_rtt_inflated, threshold) {
  const hf_fsize_params p = defaults();
  // min_rtt 100: threshold max(100, 500) = 500.
  EXPECT_FALSE(hf_fsize_rtt_inflated(&p, 600, 100));
  EXPECT_TRUE(hf_fsize_rtt_inflated(&p, 601, 100));
  // min_rtt 1000: threshold max(1000, 500) = 1000.
  EXPECT_FALSE(hf_fsize_rtt_inflated(&p, 2000, 1000));
  EXPECT_TRUE(hf_fsize_rtt_inflated(&p, 2001, 1000));
  EXPECT_FALSE(hf_fsize_rtt_inflated(&p, 50, 1000));      // below min_rtt
  EXPECT_FALSE(hf_fsize_rtt_inflated(&p, 1U << 30U, 0));  // no min_rtt yet
  // No overflow with the largest values.
  hf_fsize_params big = p;
  big.delay_pct = UINT16_MAX;
  EXPECT_FALSE(hf_fsize_rtt_inflated(&big, UINT32_MAX, UINT32_MAX));
  hf_fsize_params off = p;
  off.delay_pct = 0;
  EXPECT_FALSE(hf_fsize_rtt_inflated(&off, UINT32_MAX, 1));
}

TEST(hf_fsize_on_rtt, an_inflated_sample_is_a_delay_sign) {
  Flow f(defaults());
  f.send();
  EXPECT_EQ(0U, hf_fsize_on_rtt(&f.fs(), &f.params(), 0, 550, 100));
  EXPECT_EQ(0U, f.fs().signs[HF_FSIZE_DELAY]);
  EXPECT_EQ(HF_FSIZE_CHANGED_RATE, hf_fsize_on_rtt(&f.fs(), &f.params(), 0, 700, 100));
  EXPECT_EQ(HF_FSIZE_DELAY, f.fs().last.reason);
  EXPECT_EQ(1U, f.fs().signs[HF_FSIZE_DELAY]);
}

TEST(hf_fsize_on_send, idle_decays_towards_initial) {
  Flow f(defaults());
  for (int i = 0; i < 6; i++) {
    f.round();
  }
  ASSERT_EQ(256U, f.segs());
  // Idle exactly 4 RTOs since the last ack: kept.
  f.wait(4 * kRtoNs);
  EXPECT_EQ(0U, f.send(1));
  EXPECT_EQ(256U, f.segs());
  f.ack_all();
  // 4.5 RTOs: one halving.
  f.wait(9 * kRtoNs / 2);
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.send(1));
  EXPECT_EQ(128U, f.segs());
  EXPECT_EQ(HF_FSIZE_IDLE, f.fs().last.reason);
  EXPECT_EQ(256U, f.fs().last.old_segs);
  EXPECT_EQ(128U, f.fs().last.new_segs);
  EXPECT_EQ(1U, f.fs().changes[HF_FSIZE_IDLE]);
  f.ack_all();
  // 6 RTOs: three halvings (one, and one per further whole RTO).
  f.wait(6 * kRtoNs);
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.send(1));
  EXPECT_EQ(16U, f.segs());
  f.ack_all();
  // A long idle: down to initial, not below.
  f.wait(10000 * kMs);
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.send(1));
  EXPECT_EQ(4U, f.segs());
}

TEST(hf_fsize_on_send, idle_never_raises_a_small_frame) {
  Flow f(defaults());
  f.fresh_sign();
  f.fresh_sign();
  f.ack_all();
  ASSERT_EQ(2U, f.segs());
  f.wait(10000 * kMs);
  EXPECT_EQ(0U, f.send(1));
  EXPECT_EQ(2U, f.segs());
  EXPECT_EQ(717, f.fs().rate_scale);  // the rate scale is kept
}

TEST(hf_fsize_on_send, no_idle_while_in_flight_or_when_disabled) {
  hf_fsize_params p = defaults();
  Flow f(p);
  for (int i = 0; i < 4; i++) {
    f.round();
  }
  f.send();  // in flight, never acked: the RTO's business, not idle
  f.wait(1000 * kMs);
  EXPECT_EQ(0U, f.send());
  EXPECT_EQ(64U, f.segs());
  f.ack_all();  // a clean round of full frames
  ASSERT_EQ(128U, f.segs());
  f.params().idle_rtos = 0;
  f.wait(1000 * kMs);
  EXPECT_EQ(0U, f.send());
  EXPECT_EQ(128U, f.segs());
}

TEST(hf_fsize_on_send, idle_starts_a_new_round) {
  Flow f(defaults());
  f.round();
  f.round();  // 16
  f.wait(100 * kMs);
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.send());  // decays to 4, then a frame of 4 starts a round
  ASSERT_EQ(4U, f.segs());
  EXPECT_EQ(f.nxt() - 4, f.fs().round_end);
  EXPECT_EQ(HF_FSIZE_CHANGED_FRAME, f.ack_all());
  EXPECT_EQ(8U, f.segs());
}

TEST(hf_fsize_segs, follows_changed_params) {
  Flow f(defaults());
  for (int i = 0; i < 8; i++) {
    f.round();
  }
  ASSERT_EQ(kMaxSegs, f.segs());
  f.params().max_bytes = 64 * kSeg;
  EXPECT_EQ(64U, f.segs());
  f.params().max_bytes = 0;  // below min: min wins
  EXPECT_EQ(1U, f.segs());
  f.params().min_segs = 0;  // taken as 1
  EXPECT_EQ(1U, f.segs());
}

TEST(hf_fsize_frame_segs, a_short_tail_goes_with_the_frame_before_it) {
  Flow f(defaults());
  for (int i = 0; i < 8; i++) {
    f.round();
  }
  ASSERT_EQ(kMaxSegs, f.segs());
  const u32 tail = kMaxSegs >> HF_FSIZE_TAIL_SHIFT;  // 22 of 716
  ASSERT_EQ(22U, tail);
  // Shorter than a frame: the rest; nothing left: still one segment.
  EXPECT_EQ(1U, hf_fsize_frame_segs(&f.fs(), &f.params(), 1));
  EXPECT_EQ(1U, hf_fsize_frame_segs(&f.fs(), &f.params(), 0));
  EXPECT_EQ(kMaxSegs, hf_fsize_frame_segs(&f.fs(), &f.params(), kMaxSegs));
  // A whole MiB at 1464 bytes a segment is 717 segments: one frame.
  EXPECT_EQ(717U, hf_fsize_frame_segs(&f.fs(), &f.params(), (1U << 20) / kSeg + 1));
  EXPECT_EQ(kMaxSegs + tail, hf_fsize_frame_segs(&f.fs(), &f.params(), kMaxSegs + tail));
  // A longer tail is a frame of its own.
  EXPECT_EQ(kMaxSegs, hf_fsize_frame_segs(&f.fs(), &f.params(), kMaxSegs + tail + 1));
  EXPECT_EQ(kMaxSegs, hf_fsize_frame_segs(&f.fs(), &f.params(), UINT64_MAX));
  // Small frames take no tail (4 >> 5 is 0).
  Flow small(defaults());
  ASSERT_EQ(4U, small.segs());
  EXPECT_EQ(4U, hf_fsize_frame_segs(&small.fs(), &small.params(), 5));
  // Never past what the wire counts (a u16).
  f.params().max_bytes = UINT32_MAX;
  f.params().min_segs = HF_FSIZE_MAX_SEGS;
  ASSERT_EQ(HF_FSIZE_MAX_SEGS, f.segs());
  EXPECT_EQ(HF_FSIZE_MAX_SEGS,
            hf_fsize_frame_segs(&f.fs(), &f.params(), u64{HF_FSIZE_MAX_SEGS} + 1));
}

TEST(hf_fsize_rate, scales_without_overflow) {
  Flow f(defaults());
  EXPECT_EQ(12500000U, hf_fsize_rate(&f.fs(), 12500000));  // not cut
  f.fresh_sign();
  EXPECT_EQ(8752441U, hf_fsize_rate(&f.fs(), 12500000));  // * 717 / 1024
  EXPECT_EQ(0U, hf_fsize_rate(&f.fs(), 0));               // unpaced stays so
  EXPECT_EQ(1U, hf_fsize_rate(&f.fs(), 1));               // never 0 from non-0
  EXPECT_EQ(UINT64_MAX / 1024 * 717 + (UINT64_MAX % 1024) * 717 / 1024,
            hf_fsize_rate(&f.fs(), UINT64_MAX));
}

// Random sends, acks, signs, samples, idle periods and parameter changes;
// the frame stays in [min, max], the rate scale in [floor, one], and every
// change is recorded as it happened.
TEST(hf_fsize_property, bounds_hold_under_random_events) {
  for (u64 seed = 1; seed <= 20; seed++) {
    Rng rng(seed);
    hf_fsize_params p = defaults();
    p.min_segs = 1 + rng.below(4);
    p.initial_segs = p.min_segs + rng.below(8);
    Flow f(p, static_cast<u32>(rng.next()));
    u32 last_rounds = 0;
    hf_fsize_change timeout_change{};
    for (int step = 0; step < 20000; step++) {
      const hf_fsize_change before = f.fs().last;
      const u32 segs = f.segs();
      const u16 rate = f.fs().rate_scale;
      unsigned int what = 0;
      switch (rng.below(14)) {
        case 0:
        case 1:
        case 2:
        case 3:
          what = f.send(rng.percent(70) ? 0 : 1 + rng.below(segs));
          break;
        case 4:
        case 5:
        case 6:
          if (f.nxt() != f.una()) {
            what = f.ack(rng.percent(30) ? f.nxt() : f.una() + 1 + rng.below(f.nxt() - f.una()));
          }
          break;
        case 7:
          what = f.sign(static_cast<hf_fsize_reason>(HF_FSIZE_LOSS + rng.below(3)),
                        f.una() + rng.below(f.nxt() - f.una() + 1));
          break;
        case 8:
          what = hf_fsize_on_rtt(&f.fs(), &f.params(), f.una(), 50 + rng.below(700), 50);
          break;
        case 9:
        case 10:
          f.wait(rng.below(20) * kRtoNs);
          break;
        case 11:
          what = hf_fsize_on_timeout(&f.fs(), &f.params(), f.una(), rng.percent(50));
          if (what != 0) {
            timeout_change = f.fs().last;
          }
          break;
        case 12:
          what = hf_fsize_undo(&f.fs(), &f.params());
          if (what != 0) {
            // It puts back the rate the timeout's cut took, and nothing
            // changed between the two.
            ASSERT_EQ(timeout_change.old_rate, f.fs().last.new_rate) << "seed " << seed;
            ASSERT_EQ(timeout_change.new_rate, f.fs().last.old_rate) << "seed " << seed;
            ASSERT_EQ(timeout_change.new_segs, f.fs().last.old_segs) << "seed " << seed;
            ASSERT_EQ(HF_FSIZE_LOSS, before.reason) << "seed " << seed;
          }
          break;
        default:
          f.params().max_bytes = rng.percent(90) ? 1U << 20U : rng.below(1U << 21U);
          break;
      }
      const u32 now_segs = f.segs();
      ASSERT_GE(now_segs, p.min_segs) << "seed " << seed << " step " << step;
      ASSERT_LE(now_segs, std::max<u32>(f.params().max_bytes / kSeg, p.min_segs));
      ASSERT_GE(f.fs().rate_scale, p.rate_floor);
      ASSERT_LE(f.fs().rate_scale, HF_FSIZE_ONE);
      ASSERT_GE(f.fs().rounds, last_rounds);
      last_rounds = f.fs().rounds;
      if (what != 0) {
        ASSERT_EQ(what, f.fs().last.what);
        ASSERT_EQ(f.fs().segs, f.fs().last.new_segs);
        ASSERT_EQ(f.fs().rate_scale, f.fs().last.new_rate);
        ASSERT_EQ(rate, f.fs().last.old_rate);
        ASSERT_NE(HF_FSIZE_NONE, f.fs().last.reason);
        if ((what & HF_FSIZE_CHANGED_FRAME) != 0 && f.fs().last.reason != HF_FSIZE_GROW &&
            f.fs().last.reason != HF_FSIZE_UNDO) {
          ASSERT_LT(f.fs().segs, f.fs().last.old_segs);  // only growth and undo grow
        }
      } else {
        ASSERT_EQ(before.new_segs, f.fs().last.new_segs);
        ASSERT_EQ(before.reason, f.fs().last.reason);
        ASSERT_EQ(rate, f.fs().rate_scale);
      }
    }
    // The walk went everywhere: growth, each sign, idle decay, floors.
    EXPECT_GT(f.fs().changes[HF_FSIZE_GROW], 0U) << "seed " << seed;
    EXPECT_GT(f.fs().changes[HF_FSIZE_LOSS], 0U) << "seed " << seed;
    EXPECT_GT(f.fs().changes[HF_FSIZE_DELAY], 0U) << "seed " << seed;
    EXPECT_GT(f.fs().changes[HF_FSIZE_NOTICE], 0U) << "seed " << seed;
    EXPECT_GT(f.fs().changes[HF_FSIZE_IDLE], 0U) << "seed " << seed;
    EXPECT_GT(f.fs().changes[HF_FSIZE_UNDO], 0U) << "seed " << seed;
    EXPECT_GT(f.fs().signs_ignored, 0U) << "seed " << seed;
  }
}
