// hf_frame_fuzz.cc - libFuzzer target over the protocol core: arbitrary
// bytes, cut into frames, go through the validating decoder (hf_wire.c);
// DATA frames that decode drive a receive window (hf_rxwin.c) and a
// reassembly model, ACK frames and the window's own ACKs drive a send
// scoreboard (hf_txwin.c), and each step is checked against the invariants
// the module relies on. A broken invariant aborts: libFuzzer reports it as
// a crash, like the sanitizers' findings.
//
// Input: a 4-byte big-endian initial sequence number for both windows,
// then records of a 2-byte big-endian word and a frame. The word's low 14
// bits are the frame's length (cut short by the end of the input); bit 15
// fires the sender's retransmission timer after the frame, bit 14 has the
// sender take the retransmissions it is due after it.
//
// Checked:
// - decoding: a decoded header re-encodes to the same header bytes but the
//   reserved ones (DATA 35, ACK 33..35), which it writes as zero, and those
//   bytes decode to the same header again; a checksum patched
//   into a copy of the frame verifies. Frames need no valid checksum: the
//   fuzzer would seldom get past it.
// - receive window: verdicts, cum, highest and pending agree with a plain
//   reference receiver, so cum never moves back; SACK blocks are the
//   lowest ranges above cum and, when more exist, part of the highest
//   ending at highest in the last place; they survive encode + decode.
// - reassembly: a segment lands inside its message (index below the
//   segment count, bytes inside msg_len). Messages above 1 MiB are
//   refused and slots are msg_id modulo 32, so memory is bounded.
// - send scoreboard: una never moves back; nsacked <= inflight <= capacity;
//   an ACK beyond nxt or behind una changes nothing; the receive window's
//   own ACKs are never invalid, and nothing they SACKed is handed out for
//   retransmission; retransmissions come inside [una, nxt), in ascending
//   order between two timer expiries.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

extern "C" {
#include "hf_rxwin.h"
#include "hf_train.h"
#include "hf_txwin.h"
#include "hf_wire.h"
}

namespace {

constexpr u32 kWinBits = 4096;          // both windows, like the module's HF_WIN_SEGS
constexpr u32 kMsgMax = 1U << 20U;      // the reassembly model refuses larger messages
constexpr u32 kSlots = 32;              // messages in reassembly, by msg_id modulo this
constexpr u32 kInitialSends = 64;       // segments the sender has in flight at the start
constexpr unsigned int kDrainMax = 64;  // retransmissions taken per record at most
constexpr u16 kLenMask = 0x3fff;
constexpr u16 kCtlRto = 0x8000;
constexpr u16 kCtlDrain = 0x4000;

// The reserved bits of header byte @i: zero on send, ignored on receive.
u8 reserved_bits(u8 type, size_t i) {
  if (type == HF_TYPE_ACK) {
    if (i == 33) {
      return static_cast<u8>(~HF_STATUS_EXT_MASK);  // beside nstatus_ext
    }
    return i == 34 || i == 35 ? 0xff : 0;
  }
  if (type == HF_TYPE_DATA && i == 35) {
    return static_cast<u8>(~HF_STATUS_EXT_MASK);  // beside status_ask
  }
  return 0;
}

[[noreturn]] void fail(const char* what, int line) {
  (void)std::fprintf(stderr, "hf_frame_fuzz.cc:%d: invariant broken: %s\n", line, what);
  std::abort();
}

// NOLINTNEXTLINE(cppcoreguidelines-macro-usage): needs the condition's text
#define HF_CHECK(cond) ((cond) ? (void)0 : fail(#cond, __LINE__))

u16 get16(std::span<const u8> p) {
  return static_cast<u16>(p[0] << 8U | p[1]);
}

u32 get32(std::span<const u8> p) {
  return static_cast<u32>(p[0]) << 24U | static_cast<u32>(p[1]) << 16U |
         static_cast<u32>(p[2]) << 8U | p[3];
}

using Blocks = std::span<const hf_sack_block>;
using Range = std::pair<u32, u32>;  // [start, end) in sequence numbers

// The reference receiver: one byte per sequence number of the window in a
// ring, cleared as cum passes, walked one segment at a time.
class RefRx {
 public:
  explicit RefRx(u32 initial) : cum_(initial), highest_(initial), got_(kWinBits, 0) {}

  hf_rx_verdict mark(u32 seq) {
    const u32 d = seq - cum_;
    if (d >= kWinBits) {
      return hf_seq_before(seq, cum_) ? HF_RX_DUPLICATE : HF_RX_BEYOND;
    }
    if (has(seq)) {
      return HF_RX_DUPLICATE;
    }
    got_[seq % kWinBits] = 1;
    pending_++;
    if (d >= highest_ - cum_) {
      highest_ = seq + 1;
    }
    while (has(cum_)) {
      got_[cum_ % kWinBits] = 0;
      cum_++;
      pending_--;
    }
    return HF_RX_NEW;
  }
  [[nodiscard]] u32 cum() const { return cum_; }
  [[nodiscard]] u32 highest() const { return highest_; }
  [[nodiscard]] u32 pending() const { return pending_; }
  [[nodiscard]] bool has(u32 seq) const { return got_[seq % kWinBits] != 0; }

  // The lowest @n ranges above cum, ascending.
  [[nodiscard]] std::vector<Range> lowest(size_t n) const {
    std::vector<Range> v;
    u32 s = cum_;
    while (s != highest_ && v.size() < n) {
      if (!has(s)) {
        s++;
        continue;
      }
      const u32 start = s;
      while (s != highest_ && has(s)) {
        s++;
      }
      v.emplace_back(start, s);
    }
    return v;
  }
  // The range ending at highest; something must have arrived above cum.
  [[nodiscard]] Range top() const {
    u32 s = highest_;
    while (has(s - 1)) {
      s--;
    }
    return {s, highest_};
  }

 private:
  u32 cum_;
  u32 highest_;
  u32 pending_ = 0;
  std::vector<u8> got_;
};

// One message being put together: segments placed at offset / seg_size.
struct Message {
  bool active = false;
  u32 msg_id = 0;
  u32 msg_len = 0;
  u16 seg_size = 0;
  u32 nsegs = 0;
  u32 have = 0;
  u64 bytes = 0;
  std::vector<u8> placed;  // per segment index
  std::vector<u8> data;    // msg_len bytes
};

class Reassembly {
 public:
  void place(const hf_data_hdr& d, std::span<const u8> payload) {
    if (d.msg_len > kMsgMax) {
      return;  // refused, as a receiver refuses messages above its limit
    }
    Message& m = slots_[d.msg_id % kSlots];
    if (m.active && m.msg_id != d.msg_id) {
      m = Message{};  // another message took the slot: the model forgets this one
    }
    if (!m.active) {
      m.active = true;
      m.msg_id = d.msg_id;
      m.msg_len = d.msg_len;
      m.seg_size = d.seg_size;
      m.nsegs = d.msg_len == 0 ? 1 : (d.msg_len - 1) / d.seg_size + 1;
      m.placed.assign(m.nsegs, 0);
      m.data.assign(m.msg_len, 0);
    }
    if (m.msg_len != d.msg_len || m.seg_size != d.seg_size) {
      return;  // disagrees with the message's first segment: dropped
    }
    // The decoder's promise (hf_wire.c note 2): no index outside the message.
    const u32 index = d.offset / d.seg_size;
    HF_CHECK(index < m.nsegs);
    HF_CHECK(u64{d.offset} + d.seg_len <= m.msg_len);
    HF_CHECK(d.offset % d.seg_size == 0);
    HF_CHECK(d.seg_len == d.seg_size || d.offset + d.seg_len == d.msg_len);
    if (m.placed[index] != 0) {
      return;  // the same bytes again under another sequence number
    }
    m.placed[index] = 1;
    m.have++;
    m.bytes += d.seg_len;
    HF_CHECK(payload.size() == d.seg_len);
    std::copy(payload.begin(), payload.end(), m.data.begin() + d.offset);
    if (m.have == m.nsegs) {
      HF_CHECK(m.bytes == m.msg_len);
      m = Message{};
    }
  }

 private:
  std::array<Message, kSlots> slots_;
};

// Checks a header that decoded: length, re-encoding, checksum.
void check_codec(const std::vector<u8>& frame, const hf_hdr& h) {
  HF_CHECK(h.hlen == hf_hdr_len(&h));
  HF_CHECK(h.hlen <= frame.size());
  std::array<u8, HF_HLEN_MAX> buf{};
  const int n = hf_hdr_encode(&h, buf.data(), buf.size());
  HF_CHECK(n == h.hlen);
  for (size_t i = 0; i < h.hlen; i++) {
    const unsigned int rsvd = reserved_bits(h.type, i);
    HF_CHECK((buf[i] & rsvd) == 0);
    HF_CHECK((buf[i] & ~rsvd) == (frame[i] & ~rsvd));
  }
  // The re-encoded header, with the frame's payload behind it, decodes to
  // the same header.
  std::vector<u8> copy = frame;
  std::copy(buf.begin(), buf.begin() + n, copy.begin());
  hf_hdr again{};
  HF_CHECK(hf_hdr_decode(copy.data(), copy.size(), &again) == HF_WERR_OK);
  std::array<u8, HF_HLEN_MAX> buf2{};
  HF_CHECK(hf_hdr_encode(&again, buf2.data(), buf2.size()) == n);
  HF_CHECK(std::memcmp(buf.data(), buf2.data(), static_cast<size_t>(n)) == 0);
  // A checksum computed over the frame with the field zero verifies.
  copy[HF_CSUM_OFFSET] = 0;
  copy[HF_CSUM_OFFSET + 1] = 0;
  const u16 csum = hf_csum_fold(hf_csum_add(0, copy.data(), copy.size()));
  copy[HF_CSUM_OFFSET] = static_cast<u8>(csum >> 8U);
  copy[HF_CSUM_OFFSET + 1] = static_cast<u8>(csum & 0xffU);
  HF_CHECK(hf_csum_fold(hf_csum_add(0, copy.data(), copy.size())) == 0);
}

// The receive window and send scoreboard of one flow, with their models.
class Flow {
 public:
  explicit Flow(u32 initial) : ref_(initial), told_(kWinBits, 0) {
    HF_CHECK(hf_rxwin_init(&rx_, rx_words_.data(), kWinBits, initial) == 0);
    HF_CHECK(hf_txwin_init(&tx_, sacked_.data(), rexmit_.data(), kWinBits, initial) == 0);
    for (u32 i = 0; i < kInitialSends; i++) {
      u32 seq = 0;
      HF_CHECK(hf_txwin_send(&tx_, &seq) == 0);
      HF_CHECK(seq == initial + i);
    }
  }

  void data(const hf_hdr& h, std::span<const u8> payload) {
    const hf_data_hdr& d = h.data;
    const u32 cum = hf_rxwin_cum(&rx_);
    const hf_rx_verdict v = hf_rxwin_mark(&rx_, d.seq);
    HF_CHECK(v == ref_.mark(d.seq));
    HF_CHECK(!hf_seq_before(hf_rxwin_cum(&rx_), cum));
    HF_CHECK(hf_rxwin_cum(&rx_) == ref_.cum());
    HF_CHECK(hf_rxwin_highest(&rx_) == ref_.highest());
    HF_CHECK(hf_rxwin_pending(&rx_) == ref_.pending());
    if (v == HF_RX_NEW) {
      reassembly_.place(d, payload);
    }
    // An ACK of a size the fuzzer picks, then the one the module sends.
    const unsigned int max = d.seq % (HF_SACK_MAX + 2);
    std::array<hf_sack_block, HF_SACK_MAX> blocks{};
    check_sack(Blocks(blocks).first(hf_rxwin_sack(&rx_, blocks.data(), max)), max);
    loopback_ack();
  }

  void ack(const hf_hdr& h) {
    apply_ack(h.ack.cum_seq, Blocks(h.ack.sack).first(h.ack.nsack));  // hostile, even decoded
  }

  void control(u16 ctl) {
    if ((ctl & kCtlRto) != 0) {
      const u32 eligible = hf_txwin_rto(&tx_);
      HF_CHECK(eligible == hf_txwin_inflight(&tx_) - hf_txwin_nsacked(&tx_));
      have_last_ = false;
      undone_ = false;
      // Both bits: the oldest alone, then acks call the RTO spurious.
      u32 seq = 0;
      if ((ctl & kCtlDrain) != 0 && hf_txwin_next_lost(&tx_, &seq)) {
        // The oldest un-SACKed segment (una itself may be SACKed).
        HF_CHECK(!hf_txwin_sacked(&tx_, seq) && told_[seq % kWinBits] == 0);
        for (u32 s = hf_txwin_una(&tx_); s != seq; s++) {
          HF_CHECK(hf_txwin_sacked(&tx_, s));
        }
        hf_txwin_rto_undo(&tx_);
        undone_ = true;
        have_last_ = true;
        last_ = seq;
      }
    }
    if ((ctl & kCtlDrain) != 0) {
      u32 seq = 0;
      for (unsigned int i = 0; i < kDrainMax && hf_txwin_next_lost(&tx_, &seq); i++) {
        const u32 una = hf_txwin_una(&tx_);
        HF_CHECK(seq - una < hf_txwin_nxt(&tx_) - una);
        HF_CHECK(told_[seq % kWinBits] == 0);
        HF_CHECK(hf_txwin_retransmitted(&tx_, seq));
        HF_CHECK(!hf_txwin_sacked(&tx_, seq));
        // Undone, the timer's reach is gone: only losses until the next.
        HF_CHECK(!undone_ || hf_seq_before(seq, tx_.lost_end));
        HF_CHECK(!have_last_ || hf_seq_after(seq, last_));
        have_last_ = true;
        last_ = seq;
      }
    }
  }

 private:
  // The blocks for an ACK of at most @max, against the reference.
  void check_sack(Blocks blocks, unsigned int max) {
    const size_t n = blocks.size();
    const unsigned int cap = std::min<unsigned int>(max, HF_SACK_MAX);
    const std::vector<Range> low = ref_.lowest(size_t{cap} + 1);
    if (low.size() <= cap) {
      HF_CHECK(n == low.size());
      for (size_t i = 0; i < n; i++) {
        HF_CHECK(blocks[i].start == low[i].first && blocks[i].end == low[i].second);
      }
    } else if (cap > 0) {
      HF_CHECK(n == cap);
      for (size_t i = 0; i + 1 < n; i++) {
        HF_CHECK(blocks[i].start == low[i].first && blocks[i].end == low[i].second);
      }
      // The last place holds the highest range, or the part of it verified.
      const Range top = ref_.top();
      const hf_sack_block& last = blocks.back();
      const u32 cum = ref_.cum();
      HF_CHECK(last.end == top.second);
      HF_CHECK(last.start - cum >= top.first - cum);
      HF_CHECK(last.start - cum < last.end - cum);
    } else {
      HF_CHECK(n == 0);
    }
    // Whatever was reported has arrived, and an ACK can carry it.
    for (const hf_sack_block& b : blocks) {
      for (u32 s = b.start; s != b.end; s++) {
        HF_CHECK(ref_.has(s));
      }
    }
    hf_hdr h{};
    h.type = HF_TYPE_ACK;
    h.ack.cum_seq = ref_.cum();
    h.ack.nsack = static_cast<u8>(n);
    std::copy(blocks.begin(), blocks.end(), std::begin(h.ack.sack));
    std::array<u8, HF_HLEN_MAX> buf{};
    const int len = hf_hdr_encode(&h, buf.data(), buf.size());
    HF_CHECK(len > 0);
    hf_hdr out{};
    HF_CHECK(hf_hdr_decode(buf.data(), static_cast<size_t>(len), &out) == HF_WERR_OK);
    HF_CHECK(out.ack.nsack == n);
    const Blocks back = Blocks(out.ack.sack).first(out.ack.nsack);
    for (size_t i = 0; i < n; i++) {
      HF_CHECK(back[i].start == blocks[i].start && back[i].end == blocks[i].end);
    }
  }

  // The receive window's ACK, as the module builds it, to the sender.
  void loopback_ack() {
    std::array<hf_sack_block, HF_SACK_MAX> room{};
    const Blocks blocks = Blocks(room).first(hf_rxwin_sack(&rx_, room.data(), HF_SACK_MAX));
    check_sack(blocks, HF_SACK_MAX);
    // The sender must have sent what arrived for the ACK to be valid.
    u32 seq = 0;
    while (hf_seq_before(hf_txwin_nxt(&tx_), hf_rxwin_highest(&rx_)) &&
           hf_txwin_send(&tx_, &seq) == 0) {
    }
    const bool covered = !hf_seq_before(hf_txwin_nxt(&tx_), hf_rxwin_highest(&rx_));
    const hf_txwin_ack_result res = apply_ack(hf_rxwin_cum(&rx_), blocks);
    if (!res.stale && covered) {
      HF_CHECK(res.invalid == 0);
    }
    if (!res.stale && res.invalid == 0) {
      for (const hf_sack_block& b : blocks) {
        for (u32 s = b.start; s != b.end; s++) {
          told_[s % kWinBits] = 1;
          const u32 una = hf_txwin_una(&tx_);
          HF_CHECK(hf_txwin_sacked(&tx_, s) == (s - una < hf_txwin_nxt(&tx_) - una));
        }
      }
    }
  }

  hf_txwin_ack_result apply_ack(u32 cum, Blocks blocks) {
    const u32 una = hf_txwin_una(&tx_);
    const u32 nxt = hf_txwin_nxt(&tx_);
    hf_txwin_ack_result res{};
    hf_txwin_ack(&tx_, cum, blocks.data(), static_cast<unsigned int>(blocks.size()), &res);
    const u32 now = hf_txwin_una(&tx_);
    HF_CHECK(!hf_seq_before(now, una));
    HF_CHECK(hf_txwin_nxt(&tx_) == nxt);
    HF_CHECK(hf_txwin_inflight(&tx_) <= kWinBits);
    HF_CHECK(hf_txwin_nsacked(&tx_) <= hf_txwin_inflight(&tx_));
    if (hf_seq_after(cum, nxt)) {
      HF_CHECK(res.invalid == 1 && now == una);
    } else if (hf_seq_before(cum, una)) {
      HF_CHECK(res.stale && now == una);
    } else {
      HF_CHECK(now == cum && res.acked == cum - una);
    }
    for (u32 s = una; s != now; s++) {
      told_[s % kWinBits] = 0;  // behind una: the ring slot is free again
    }
    return res;
  }

  std::array<u64, kWinBits / 64> rx_words_{};
  std::array<u64, kWinBits / 64> sacked_{};
  std::array<u64, kWinBits / 64> rexmit_{};
  hf_rxwin rx_{};
  hf_txwin tx_{};
  RefRx ref_;
  Reassembly reassembly_;
  std::vector<u8> told_;  // SACKed by the window's own ACKs, ring by seq
  bool have_last_ = false;
  bool undone_ = false;  // hf_txwin_rto_undo() since the last RTO
  u32 last_ = 0;         // the last retransmission handed out since the timer
};

// A packed train (hf_train.c): when hf_train_check() accepts it, the
// segments it stands for tile its payload exactly, each passes the decoder
// as a lone segment of the same message and frame, in sequence, and they go
// through the window and reassembly as if they had come alone.
void packed(Flow& flow, const hf_hdr& h, std::span<const u8> payload) {
  u32 n = 0;
  const hf_wire_err err = hf_train_check(&h, static_cast<u32>(payload.size()), &n);
  HF_CHECK(err < HF_WERR_MAX);
  if (err != HF_WERR_OK) {
    return;
  }
  HF_CHECK(n >= 2 && n <= h.data.frame_segs);
  size_t at = 0;
  for (u32 i = 0; i < n; i++) {
    hf_hdr seg{};
    hf_train_seg(&h, static_cast<u32>(payload.size()), i, &seg);
    HF_CHECK(seg.data.seq == h.data.seq + i);
    HF_CHECK(seg.data.offset == h.data.offset + at);
    HF_CHECK((seg.flags & HF_DF_PACKED) == 0);
    std::vector<u8> lone(HF_DATA_HLEN + seg.data.seg_len);
    HF_CHECK(hf_hdr_encode(&seg, lone.data(), lone.size()) == HF_DATA_HLEN);
    std::copy_n(payload.begin() + static_cast<std::ptrdiff_t>(at), seg.data.seg_len,
                lone.begin() + HF_DATA_HLEN);
    hf_hdr again{};
    HF_CHECK(hf_hdr_decode(lone.data(), lone.size(), &again) == HF_WERR_OK);
    flow.data(again, std::span<const u8>(lone).subspan(HF_DATA_HLEN, again.data.seg_len));
    at += seg.data.seg_len;
  }
  HF_CHECK(at == payload.size());
}

}  // namespace

// NOLINTNEXTLINE(readability-identifier-naming): libFuzzer's entry point
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const u8> in(data, size);
  if (in.size() < 4) {
    return 0;
  }
  Flow flow(get32(in));
  size_t pos = 4;
  while (pos + 2 <= in.size()) {
    const u16 word = get16(in.subspan(pos));
    pos += 2;
    const std::span<const u8> bytes =
        in.subspan(pos, std::min<size_t>(word & kLenMask, in.size() - pos));
    pos += bytes.size();
    // A heap copy of exactly the frame, so that the sanitizer sees any
    // read past its end.
    const std::vector<u8> frame(bytes.begin(), bytes.end());

    hf_hdr h{};
    const hf_wire_err err = hf_hdr_decode(frame.data(), frame.size(), &h);
    HF_CHECK(err < HF_WERR_MAX);
    HF_CHECK(hf_wire_err_name(err) != nullptr);
    if (err == HF_WERR_OK) {
      check_codec(frame, h);
      if (h.type == HF_TYPE_DATA && (h.flags & HF_DF_PACKED) != 0) {
        packed(flow, h, std::span<const u8>(frame).subspan(HF_DATA_HLEN));
      } else if (h.type == HF_TYPE_DATA) {
        HF_CHECK(size_t{HF_DATA_HLEN} + h.data.seg_len <= frame.size());
        flow.data(h, std::span<const u8>(frame).subspan(HF_DATA_HLEN, h.data.seg_len));
      } else {
        flow.ack(h);
      }
    }
    flow.control(word & static_cast<u16>(~kLenMask));
  }
  return 0;
}
