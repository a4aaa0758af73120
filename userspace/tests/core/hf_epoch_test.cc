// Unit tests for kernel/core/hf_epoch.c: which incarnation of a flow a
// receiver takes DATA of. Tests follow the order of the functions in the
// source and are named function__case.
#include <gtest/gtest.h>

extern "C" {
#include "hf_epoch.h"
}

namespace {

constexpr u32 kWin = 4096;
constexpr u32 kEpoch = 0x1a2b3c4d;
constexpr u32 kState = 0x600dcafe;
constexpr u32 kCookie = 0xc00c1e01;
constexpr u32 kCookiePrev = 0xc00c1e00;

hf_data_hdr seg(u32 epoch, u32 echo, u32 seq, u32 msg_id = 0) {
  hf_data_hdr d{};
  d.epoch = epoch;
  d.echo = echo;
  d.seq = seq;
  d.msg_id = msg_id;
  return d;
}

// A receiver holding flow kEpoch with state kState, echoed from seq 100.
hf_epoch_rx live() {
  hf_epoch_rx e{};
  hf_data_hdr first = seg(kEpoch, 0, 0);
  hf_epoch_rx_adopt(&e, &first, kState);
  hf_data_hdr echoed = seg(kEpoch, kState, 100);
  hf_epoch_rx_accept(&e, &echoed);
  return e;
}

hf_epoch_verdict check(const hf_epoch_rx& e, const hf_data_hdr& d, u32 nsegs = 1) {
  return hf_epoch_rx_check(&e, &d, nsegs, kWin, kCookie, kCookiePrev);
}

}  // namespace

TEST(hf_epoch_can_start, first_window_and_messages_without_echo) {
  hf_data_hdr d = seg(kEpoch, 0, 0);
  EXPECT_TRUE(hf_epoch_can_start(&d, 1, kWin));
  d.seq = kWin - 1;
  EXPECT_TRUE(hf_epoch_can_start(&d, 1, kWin));
  EXPECT_FALSE(hf_epoch_can_start(&d, 2, kWin)) << "a train running past the window";
  d.seq = kWin;
  EXPECT_FALSE(hf_epoch_can_start(&d, 1, kWin));
  d.seq = 0xffffffffU;
  EXPECT_FALSE(hf_epoch_can_start(&d, 1, kWin)) << "sequence numbers start at 0";
  d = seg(kEpoch, 0, 5, HF_STATUS_WINDOW - 1);
  EXPECT_TRUE(hf_epoch_can_start(&d, 1, kWin));
  d.msg_id = HF_STATUS_WINDOW;
  EXPECT_FALSE(hf_epoch_can_start(&d, 1, kWin));
  d = seg(kEpoch, kState, 0);
  EXPECT_FALSE(hf_epoch_can_start(&d, 1, kWin)) << "an echo names a state held already";
}

TEST(hf_epoch_rx_check, epoch_zero_is_forged) {
  hf_epoch_rx none{};
  EXPECT_EQ(HF_EPOCH_FORGED, check(none, seg(0, 0, 0)));
  EXPECT_EQ(HF_EPOCH_FORGED, check(live(), seg(0, kState, 200)));
}

TEST(hf_epoch_rx_check, no_flow_adopts_only_a_start) {
  hf_epoch_rx none{};
  EXPECT_EQ(HF_EPOCH_ADOPT, check(none, seg(kEpoch, 0, 3)));
  // Mid-stream, by a sender that knew a state we lost: it must start anew.
  EXPECT_EQ(HF_EPOCH_LOST, check(none, seg(kEpoch, kState, 50000)));
  // Without echo and outside the first window: nobody's.
  EXPECT_EQ(HF_EPOCH_FORGED, check(none, seg(kEpoch, 0, 50000)));
  EXPECT_EQ(HF_EPOCH_FORGED, check(none, seg(kEpoch, 0, 0, 40)));
  // Where the caller computed no cookie, no echo is a challenge's answer.
  hf_data_hdr d = seg(kEpoch, kCookie, 0);
  EXPECT_EQ(HF_EPOCH_LOST, hf_epoch_rx_check(&none, &d, 1, kWin, 0, 0));
}

TEST(hf_epoch_rx_check, no_flow_adopts_the_answer_to_a_full_tables_challenge) {
  // A full peer table challenged the sender keeping no state: the cookie
  // is all the proof, of now or of the bucket before.
  hf_epoch_rx none{};
  EXPECT_EQ(HF_EPOCH_ADOPT, check(none, seg(kEpoch, kCookie, 0)));
  EXPECT_EQ(HF_EPOCH_ADOPT, check(none, seg(kEpoch, kCookiePrev, 17)));
  EXPECT_EQ(HF_EPOCH_LOST, check(none, seg(kEpoch, kCookie ^ 0x100, 0)));
  // Adopted with the cookie as our state: the sender echoes it from then on.
  hf_data_hdr d = seg(kEpoch, kCookie, 0);
  hf_epoch_rx_adopt(&none, &d, kCookie);
  EXPECT_TRUE(none.echoed);
  EXPECT_EQ(HF_EPOCH_ACCEPT, check(none, seg(kEpoch, kCookie, 1)));
}

TEST(hf_epoch_rx_check, current_flow_needs_its_echo) {
  hf_epoch_rx e = live();
  EXPECT_EQ(HF_EPOCH_ACCEPT, check(e, seg(kEpoch, kState, 100)));
  EXPECT_EQ(HF_EPOCH_ACCEPT, check(e, seg(kEpoch, kState, 7000)));
  // The first window, sent before the sender knew the state, arriving late.
  EXPECT_EQ(HF_EPOCH_ACCEPT, check(e, seg(kEpoch, 0, 99)));
  // At or above the first echo, no echo is a forgery.
  EXPECT_EQ(HF_EPOCH_FORGED, check(e, seg(kEpoch, 0, 100)));
  EXPECT_EQ(HF_EPOCH_FORGED, check(e, seg(kEpoch, 0, 5000)));
  // Another state: the sender believes in one we no longer hold.
  EXPECT_EQ(HF_EPOCH_LOST, check(e, seg(kEpoch, kState ^ 1, 200)));
}

TEST(hf_epoch_rx_check, current_flow_before_any_echo) {
  hf_epoch_rx e{};
  hf_data_hdr first = seg(kEpoch, 0, 0);
  hf_epoch_rx_adopt(&e, &first, kState);
  EXPECT_EQ(HF_EPOCH_ACCEPT, check(e, seg(kEpoch, 0, 30)));
  EXPECT_EQ(HF_EPOCH_ACCEPT, check(e, seg(kEpoch, kState, 31)));
}

TEST(hf_epoch_rx_check, first_window_takes_the_cookie_its_sender_took) {
  // A full table challenged the first segment keeping no state; a later
  // one found room and started the flow with kState; the sender kept the
  // cookie, the first answer it heard.
  hf_epoch_rx e{};
  hf_data_hdr first = seg(kEpoch, 0, 1);
  hf_epoch_rx_adopt(&e, &first, kState);
  hf_data_hdr d = seg(kEpoch, kCookiePrev, 0);
  EXPECT_EQ(HF_EPOCH_RESTATE, check(e, d));
  hf_epoch_rx_restate(&e, &d);
  EXPECT_EQ(kCookiePrev, e.state);
  EXPECT_TRUE(e.echoed);
  EXPECT_EQ(HF_EPOCH_ACCEPT, check(e, seg(kEpoch, kCookiePrev, 2)));
  // Our first state is now one nobody holds.
  EXPECT_EQ(HF_EPOCH_LOST, check(e, seg(kEpoch, kState, 3)));
}

TEST(hf_epoch_rx_check, an_echoed_state_is_never_replaced) {
  // Once the sender echoed our state, a cookie is no longer its answer.
  EXPECT_EQ(HF_EPOCH_LOST, check(live(), seg(kEpoch, kCookie, 200)));
}

TEST(hf_epoch_rx_check, previous_flow_is_stale) {
  hf_epoch_rx e = live();
  hf_data_hdr next = seg(kEpoch + 1, kCookie, 0);
  hf_epoch_rx_adopt(&e, &next, kCookie);
  EXPECT_EQ(HF_EPOCH_STALE, check(e, seg(kEpoch, kState, 300)));
  EXPECT_EQ(HF_EPOCH_STALE, check(e, seg(kEpoch, 0, 3)));
}

TEST(hf_epoch_rx_check, new_epoch_while_live_is_challenged) {
  hf_epoch_rx e = live();
  // A plausible start of a new flow: it must prove itself.
  EXPECT_EQ(HF_EPOCH_CHALLENGE, check(e, seg(kEpoch + 7, 0, 0)));
  EXPECT_EQ(HF_EPOCH_CHALLENGE, check(e, seg(kEpoch + 7, 0, 12, 3)));
  // Echoing the cookie of now or of the bucket before: proven.
  EXPECT_EQ(HF_EPOCH_ADOPT, check(e, seg(kEpoch + 7, kCookie, 0)));
  EXPECT_EQ(HF_EPOCH_ADOPT, check(e, seg(kEpoch + 7, kCookiePrev, 9)));
  // Any other echo: not our challenge's answer.
  EXPECT_EQ(HF_EPOCH_LOST, check(e, seg(kEpoch + 7, kCookie + 5, 0)));
  // Blind injection that could not start a flow: dropped, no answer.
  EXPECT_EQ(HF_EPOCH_FORGED, check(e, seg(kEpoch + 7, 0, 999999)));
}

TEST(hf_epoch_rx_adopt, previous_becomes_stale_echo_tracked) {
  hf_epoch_rx e = live();
  hf_data_hdr d = seg(kEpoch + 1, kCookie, 40);
  hf_epoch_rx_adopt(&e, &d, kCookie);
  EXPECT_EQ(kEpoch + 1, e.epoch);
  EXPECT_EQ(kEpoch, e.prev);
  EXPECT_EQ(kCookie, e.state);
  EXPECT_TRUE(e.echoed) << "adopted from a segment that echoed the state";
  EXPECT_EQ(40U, e.echo_from);
  hf_data_hdr fresh = seg(kEpoch + 2, 0, 0);
  hf_epoch_rx none{};
  hf_epoch_rx_adopt(&none, &fresh, kState);
  EXPECT_FALSE(none.echoed);
  EXPECT_EQ(0U, none.prev);
}

TEST(hf_epoch_rx_accept, lowest_echo_wins) {
  hf_epoch_rx e = live();
  hf_data_hdr repair = seg(kEpoch, kState, 20);
  hf_epoch_rx_accept(&e, &repair);
  EXPECT_EQ(20U, e.echo_from);
  hf_data_hdr later = seg(kEpoch, kState, 500);
  hf_epoch_rx_accept(&e, &later);
  EXPECT_EQ(20U, e.echo_from);
  hf_data_hdr unechoed = seg(kEpoch, 0, 10);
  hf_epoch_rx_accept(&e, &unechoed);
  EXPECT_EQ(20U, e.echo_from);
}

TEST(hf_epoch_rx_forget, current_flow_is_lost_not_stale) {
  hf_epoch_rx e = live();
  hf_epoch_rx_forget(&e);
  EXPECT_EQ(0U, e.epoch);
  // Its sender, still echoing the state, is told we lost it.
  EXPECT_EQ(HF_EPOCH_LOST, check(e, seg(kEpoch, kState, 300)));
  // And may start anew at once: there is no flow to protect.
  EXPECT_EQ(HF_EPOCH_ADOPT, check(e, seg(kEpoch + 3, 0, 0)));
}
