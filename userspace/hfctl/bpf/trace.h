// hfctl/bpf/trace.h - "hfctl trace", its pure part: the command's arguments,
// the record layouts its BPF programs assume and the check of those against
// the module's tracefs format files, the counts the programs gather as plain
// values, and their rendering (a live screen, a final report, or JSON). No
// system calls; trace_bpf.h does the tracing.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bpf/histogram.h"
#include "cli/cli.h"

namespace hfctl {

// "[ dev DEV ] [ duration DURATION ] [ interval INTERVAL ]"; INTERVAL at
// least kMinTraceInterval.
struct TraceArgs {
  std::optional<std::string> dev;                     // every device when absent
  std::optional<std::chrono::milliseconds> duration;  // until stopped when absent
  std::chrono::milliseconds interval{1000};           // of the live view

  friend bool operator==(const TraceArgs&, const TraceArgs&) = default;
};

inline constexpr std::chrono::milliseconds kMinTraceInterval{100};

// Throws UsageError (hint "hfctl trace help").
[[nodiscard]] TraceArgs parse_trace_args(std::span<const std::string> args);

// What a trace says on standard error once its programs are attached, as
// hfctl probe does: "tracing eth0 for 30s; SIGINT ends it early",
// "tracing every device until SIGINT". A script waits for it before it
// starts the traffic to count.
[[nodiscard]] std::string trace_listening(const TraceArgs& args);

// The module's events, as indexes of TraceCounts::events.
namespace trace_event {
enum : std::size_t {
  frame_xmit,
  frame_recv,
  retransmit,
  credit_grant,
  credit_stall,
  frame_size,
  hfq_enqueue,
  hfq_dequeue,
  msg_deliver,
  rate_hint,
  count,
};
}  // namespace trace_event
inline constexpr std::size_t kTraceEvents = trace_event::count;
inline constexpr std::array<std::string_view, kTraceEvents> kTraceEventNames{
    "hf_frame_xmit", "hf_frame_recv", "hf_retransmit", "hf_credit_grant", "hf_credit_stall",
    "hf_frame_size", "hfq_enqueue",   "hfq_dequeue",   "hf_msg_deliver",  "hf_rate_hint"};
// hfq's bands and the frame-size controller's reasons, by index.
inline constexpr std::array<std::string_view, 3> kHfqBands{"control", "data", "other"};
// hf_frame_size's reasons (enum hf_fsize_reason); the last slot also
// counts any reason this build does not know.
inline constexpr std::size_t kKnownSizeReasons = 7;
inline constexpr std::array<std::string_view, 8> kSizeReasons{"none",   "grow", "loss", "delay",
                                                              "notice", "idle", "undo", "other"};

// A field of a trace record: its name (an array's without "[N]"), offset
// and size in bytes.
struct TraceField {
  std::string name;
  std::size_t offset = 0;
  std::size_t size = 0;

  friend bool operator==(const TraceField&, const TraceField&) = default;
};

// The fields the programs read from one event's record (bpf/hf_trace.h).
struct TraceEventFormat {
  std::string_view event;
  std::vector<TraceField> fields;
};

// The records of the ten events as the programs read them.
[[nodiscard]] const std::vector<TraceEventFormat>& trace_event_formats();

// The fields a tracefs "format" file declares, common ones included:
// "\tfield:u32 netns;\toffset:8;\tsize:4;\tsigned:0;" per field.
[[nodiscard]] std::vector<TraceField> parse_trace_format(std::string_view text);

// "" when every field `expected` names is in `actual` at the same offset
// and size; else what differs, in words ("field seq at offset 28, size 4;
// the module has it at offset 32, size 4").
[[nodiscard]] std::string trace_format_mismatch(const TraceEventFormat& expected,
                                                std::span<const TraceField> actual);

// One peer's counts (bpf/hf_trace.h, struct hf_trace_peer), CPUs added up.
struct TracePeer {
  std::int32_t ifindex = 0;
  std::array<std::uint8_t, 6> addr{};
  std::string dev;  // "" when unknown
  std::uint64_t tx_frames = 0;
  std::uint64_t tx_segs = 0;
  std::uint64_t tx_bytes = 0;
  std::uint64_t rx_frames = 0;
  std::uint64_t rx_segs = 0;
  std::uint64_t rx_bytes = 0;
  std::uint64_t retransmits = 0;
  std::uint64_t grants = 0;
  std::uint64_t stalls = 0;
  std::uint64_t msgs = 0;
  std::uint64_t msg_bytes = 0;
  std::uint64_t size_changes = 0;
  // The frame size (segments) and rate (1/1024 of the pacing rate) the
  // controller set last; absent when it changed nothing while traced.
  std::optional<std::uint32_t> frame_segs;
  std::optional<std::uint32_t> rate;
  std::uint64_t rate_hints = 0;  // changes of the receiver's rate hint
  // The hint the receiver gave last, bytes per second (0: it gives none);
  // absent when it did not change while traced.
  std::optional<std::uint64_t> rate_hint;

  friend bool operator==(const TracePeer&, const TracePeer&) = default;
};

// What the programs counted since they were attached, CPUs added up.
struct TraceCounts {
  std::array<std::uint64_t, kTraceEvents> events{};
  std::uint64_t xmit_segs = 0;
  std::uint64_t xmit_bytes = 0;
  std::uint64_t recv_segs = 0;
  std::uint64_t recv_bytes = 0;
  std::uint64_t deliver_bytes = 0;
  std::uint64_t stalls_zero_window = 0;
  std::uint64_t frame_changes = 0;  // hf_frame_size events whose segs differ
  std::uint64_t rate_cuts = 0;      // and whose rate fell
  std::array<std::uint64_t, kSizeReasons.size()> size_reasons{};
  std::array<std::uint64_t, kHfqBands.size()> hfq_enqueued{};
  std::array<std::uint64_t, kHfqBands.size()> hfq_dequeued{};
  std::uint64_t peers_untracked = 0;  // peer events past the map's size
  // Events no program ran for: a BPF program was running on that CPU
  // already (counted by Linux 6.7 and later; always 0 before).
  std::uint64_t missed = 0;
  Log2Histogram xmit_bytes_hist{};
  Log2Histogram recv_bytes_hist{};
  std::array<Log2Histogram, kHfqBands.size()> sojourn_ns_hist{};
  Log2Histogram latency_ns_hist{};
  Log2Histogram msg_bytes_hist{};
  std::vector<TracePeer> peers;  // by device, then address

  friend bool operator==(const TraceCounts&, const TraceCounts&) = default;
};

// A view of a trace: the totals since attach, and the rates over a window
// (the last interval of a live view; the whole run for the final report).
struct TraceReport {
  TraceArgs args;
  std::uint32_t netns = 0;  // inode of the namespace traced
  double seconds = 0;       // since the programs were attached
  TraceCounts totals;
  TraceCounts window_start;  // totals when the rate window began
  double window_seconds = 0;
  bool live = false;  // a screen of the live view, not the final report
};

// "hfctl trace": a screen of the live view or the final report (-s adds
// the histograms as bars), or one JSON object in base units (-j).
void render_trace(std::ostream& out, const TraceReport& report, const Options& options);

}  // namespace hfctl
