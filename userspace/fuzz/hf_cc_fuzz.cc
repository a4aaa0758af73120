// hf_cc_fuzz.cc - libFuzzer target over the flow and congestion control
// state machines of the protocol core: the frame size controller
// (hf_fsize.c) and both sides of the credit accounting (hf_credit.c),
// driven by operations the input chooses. A broken invariant aborts, and
// libFuzzer reports it as a crash like the sanitizers' findings.
//
// Input: 6 bytes of settings (min_segs, initial_segs above it, max_bytes
// choice, seg_size choice, initial window in 4 KiB, max_ahead choice), then
// operations of one opcode byte and its argument bytes (missing argument
// bytes read as 0):
//   0 send a frame        n: 0 a full frame, else n segments
//   1 ack                 k: the cumulative ack moves on by k (at most to nxt)
//   2 congestion sign     r, k: r % 7 < 3: reason LOSS + r % 7 about
//                         una + k; 3: a timeout about una (a repeat when k
//                         is odd); 4: F-RTO's undo of the last timeout;
//                         5: a repair's loss about una + k (undoable
//                         unless k & 4), and k % 4 + 1 repairs sent;
//                         6: a duplicate answered
//   3 round-trip sample   a, b: rtt 10 * a us against min_rtt 10 * (b + 1) us
//   4 wait                w: w RTOs (plus a few microseconds)
//   5 max_bytes changes   m: m KiB << 4
//   6 sender sends        2 bytes: wants that many bytes; stalls if it may not
//   7 application reads   2 bytes: that many bytes
//   8 receiver grants     2 bytes: share in KiB; a credit frame when due
//   9 credit delivered    i: the i % size-th frame in flight (reordering)
//  10 credit duplicated   i: a copy of one in flight
//  11 forged credit       4 bytes: any wire value
//
// Checked:
// - frame size: always in [min_segs, max] of the current settings; the
//   rate scale in [rate_floor, 1]; a reported change matches the record
//   (what, new frame, new rate); only growth and an undo make the frame
//   larger.
// - credits: the sender never has more bytes out than its limit; its
//   limit never falls and is never more than max_ahead above its bytes
//   sent; the receiver's honest grants are never refused; until a forged
//   grant is taken, the sender's limit never exceeds the receiver's and
//   the receiver never sees a byte beyond its limit; stall time never
//   exceeds the time elapsed.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <span>

extern "C" {
#include "hf_credit.h"
#include "hf_fsize.h"
}

namespace {

constexpr u32 kRtoUs = 2000;
constexpr u64 kRtoNs = u64{kRtoUs} * 1000;
constexpr size_t kChannelMax = 64;

[[noreturn]] void fail(const char* what, int line) {
  (void)std::fprintf(stderr, "hf_cc_fuzz.cc:%d: invariant broken: %s\n", line, what);
  std::abort();
}

// NOLINTNEXTLINE(cppcoreguidelines-macro-usage): needs the condition's text
#define HF_CHECK(cond) ((cond) ? (void)0 : fail(#cond, __LINE__))

class Input {
 public:
  explicit Input(std::span<const u8> data) : data_(data) {}
  [[nodiscard]] bool empty() const { return pos_ >= data_.size(); }
  u8 byte() { return pos_ < data_.size() ? data_[pos_++] : 0; }
  u16 word() {
    const u16 hi = byte();
    return static_cast<u16>(hi << 8U | byte());
  }
  u32 dword() {
    const u32 hi = word();
    return hi << 16U | word();
  }

 private:
  std::span<const u8> data_;
  size_t pos_ = 0;
};

struct Sim {
  hf_fsize_params fp{};
  hf_fsize fs{};
  hf_credit_params cp{};
  hf_credit_tx tx{};
  hf_credit_rx rx{};
  std::deque<u32> channel;
  u32 nxt = 0;
  u32 una = 0;
  u64 now = 1000000;
  bool forged = false;
};

void check_fsize(const Sim& s, unsigned int what, u16 old_rate) {
  const u32 segs = hf_fsize_segs(&s.fs, &s.fp);
  const u32 max =
      std::max(std::min(s.fp.max_bytes / s.fs.seg_size, HF_FSIZE_MAX_SEGS), s.fp.min_segs);
  HF_CHECK(segs >= s.fp.min_segs && segs <= max);
  HF_CHECK(s.fs.rate_scale >= s.fp.rate_floor && s.fs.rate_scale <= HF_FSIZE_ONE);
  // A repair's undo is an undo kept, of that kind.
  HF_CHECK((s.fs.flags & HF_FSIZE_F_UNDO_REPAIR) == 0 || (s.fs.flags & HF_FSIZE_F_UNDO) != 0);
  if (what != 0) {
    HF_CHECK(what == s.fs.last.what);
    HF_CHECK(s.fs.segs == s.fs.last.new_segs);
    HF_CHECK(s.fs.rate_scale == s.fs.last.new_rate);
    HF_CHECK(old_rate == s.fs.last.old_rate);
    HF_CHECK(s.fs.last.reason == HF_FSIZE_GROW || s.fs.last.reason == HF_FSIZE_UNDO ||
             s.fs.last.new_segs <= s.fs.last.old_segs);
  } else {
    HF_CHECK(old_rate == s.fs.rate_scale);
  }
}

void check_credit(const Sim& s, u64 old_limit) {
  HF_CHECK(s.tx.sent <= s.tx.limit);
  HF_CHECK(s.tx.limit >= old_limit);
  HF_CHECK(s.tx.limit - s.tx.sent <= std::max<u64>(s.cp.max_ahead, s.cp.initial_window));
  HF_CHECK(s.rx.consumed <= s.rx.received);
  HF_CHECK(hf_credit_stall_total_ns(&s.tx, s.now) <= s.now);
  if (!s.forged) {
    HF_CHECK(s.tx.limit <= s.rx.limit);
    HF_CHECK(s.rx.over == 0);
    HF_CHECK(s.tx.sent == s.rx.received);
  }
}

void step_fsize(Sim& s, u8 op, Input& in) {
  const u16 old_rate = s.fs.rate_scale;
  unsigned int what = 0;
  switch (op) {
    case 0: {
      const u8 n = in.byte();
      what = hf_fsize_prepare(&s.fs, &s.fp, s.now, kRtoUs);
      const u32 segs = n != 0 ? n : hf_fsize_segs(&s.fs, &s.fp);
      hf_fsize_on_send(&s.fs, &s.fp, s.nxt, segs, s.now);
      s.nxt += segs;
      break;
    }
    case 1: {
      const u32 k = std::min<u32>(in.byte(), s.nxt - s.una);
      s.una += k;
      what = hf_fsize_on_ack(&s.fs, &s.fp, s.una, s.now);
      break;
    }
    case 2: {
      // A sign (loss, delay, notice), a timeout (a repeat or not), or
      // F-RTO's undo of the last one.
      const u8 r = in.byte();
      const u8 k = in.byte();
      if (r % 7 < 3) {
        what = hf_fsize_on_congestion(
            &s.fs, &s.fp, static_cast<hf_fsize_reason>(HF_FSIZE_LOSS + r % 7), s.una + k);
      } else if (r % 7 == 3) {
        what = hf_fsize_on_timeout(&s.fs, &s.fp, s.una, (k & 1U) != 0);
      } else if (r % 7 == 4) {
        what = hf_fsize_undo(&s.fs, &s.fp);
      } else if (r % 7 == 5) {
        what = hf_fsize_on_repair_loss(&s.fs, &s.fp, s.una + k, (k & 4U) == 0);
        for (u32 i = 0; i <= (k & 3U); i++) {
          hf_fsize_on_repair(&s.fs);
        }
      } else {
        what = hf_fsize_on_duplicate(&s.fs, &s.fp);
      }
      break;
    }
    case 3: {
      const u32 rtt = 10U * in.byte();
      const u32 min_rtt = 10U * (in.byte() + 1U);
      what = hf_fsize_on_rtt(&s.fs, &s.fp, s.una, rtt, min_rtt);
      break;
    }
    case 4:
      s.now += in.byte() * kRtoNs + 7;
      break;
    default:
      s.fp.max_bytes = static_cast<u32>(in.byte()) << 14U;
      break;
  }
  s.now += 1000;
  check_fsize(s, what, old_rate);
}

void step_credit(Sim& s, u8 op, Input& in) {
  const u64 old_limit = s.tx.limit;
  switch (op) {
    case 6: {
      const u16 want = in.word();
      if (hf_credit_may_send(&s.tx, want)) {
        HF_CHECK(hf_credit_consume(&s.tx, want) == 0);
        hf_credit_rx_on_data(&s.rx, want);
      } else {
        HF_CHECK(hf_credit_consume(&s.tx, want) == -ENOSPC);
        hf_credit_stall(&s.tx, want, s.now);
      }
      break;
    }
    case 7:
      hf_credit_rx_on_consume(&s.rx, in.word());
      break;
    case 8: {
      hf_credit_rx_grant(&s.rx, &s.cp, u64{in.word()} << 10U);
      u32 wire = 0;
      if (hf_credit_rx_advertise(&s.rx, 4096, &wire) && s.channel.size() < kChannelMax) {
        s.channel.push_back(wire);
      }
      break;
    }
    case 9:
      if (!s.channel.empty()) {
        const size_t i = in.byte() % s.channel.size();
        const u32 wire = s.channel[i];
        s.channel.erase(s.channel.begin() + static_cast<std::ptrdiff_t>(i));
        HF_CHECK(hf_credit_grant_wire(&s.tx, &s.cp, wire, s.now) != HF_CREDIT_INVALID);
      }
      break;
    case 10:
      if (!s.channel.empty() && s.channel.size() < kChannelMax) {
        s.channel.push_back(s.channel[in.byte() % s.channel.size()]);
      }
      break;
    default:
      if (hf_credit_grant_wire(&s.tx, &s.cp, in.dword(), s.now) == HF_CREDIT_NEW) {
        s.forged = true;
      }
      break;
  }
  s.now += 1000;
  check_credit(s, old_limit);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Input in(std::span<const u8>(data, size));
  Sim s;
  hf_fsize_params_default(&s.fp);
  s.fp.min_segs = 1U + in.byte() % 8U;
  s.fp.initial_segs = s.fp.min_segs + in.byte() % 32U;
  s.fp.max_bytes = in.byte() % 2 != 0 ? 1U << 20U : 1U << 16U;
  // The strides at MTU 1500 and 9000 (MTU - HF_DATA_HLEN).
  const u32 seg_size = in.byte() % 2 != 0 ? 1456 : 8956;
  hf_credit_params_default(&s.cp);
  s.cp.initial_window = static_cast<u32>(in.byte()) << 12U;
  s.cp.max_ahead = in.byte() % 2 != 0 ? HF_CREDIT_DEFAULT_MAX_AHEAD : 1U << 20U;
  HF_CHECK(hf_fsize_params_check(&s.fp) == 0);
  HF_CHECK(hf_credit_params_check(&s.cp) == 0);
  hf_fsize_init(&s.fs, &s.fp, seg_size);
  hf_credit_tx_init(&s.tx, &s.cp);
  hf_credit_rx_init(&s.rx, &s.cp);

  while (!in.empty()) {
    const u8 op = in.byte() % 12U;
    if (op < 6) {
      step_fsize(s, op, in);
    } else {
      step_credit(s, op, in);
    }
  }
  return 0;
}
